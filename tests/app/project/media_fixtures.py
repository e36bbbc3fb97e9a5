"""Small test videos made with PyAV in a temp folder: colour bars, a tone, optional subtitles.

Nothing here is committed media: every test builds what it needs in ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

BAR_COLOURS = np.array(
    [[192, 192, 192], [192, 192, 0], [0, 192, 192], [0, 192, 0], [192, 0, 192], [192, 0, 0], [0, 0, 192], [16, 16, 16]],
    dtype=np.uint8,
)


def colour_bars(width: int, height: int, frame: int) -> np.ndarray:
    """SMPTE-like bars with a moving white square, so frames differ and can be counted."""
    image = np.repeat(BAR_COLOURS, -(-width // len(BAR_COLOURS)), axis=0)[:width][None, :, :].repeat(height, axis=0)
    image = np.ascontiguousarray(image)
    x = (frame * 4) % max(1, width - 16)
    image[8:24, x : x + 16] = 255
    return image


def speech_like(seconds: float, rate: int = 22050, seed: int = 0) -> np.ndarray:
    """A take-shaped signal: a voice-pitched tone with a syllable-rate envelope and a little noise."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(round(seconds * rate))) / rate
    envelope = 0.5 + 0.5 * np.sin(2 * np.pi * 4 * t) ** 2
    audio = 0.2 * envelope * np.sin(2 * np.pi * (120 + 40 * rng.random()) * t) + 0.01 * rng.standard_normal(t.size)
    return audio.astype(np.float32)


def _picture_stream(out: Any, codec: str, fps: int, size: tuple[int, int], pix_fmt: str, rotation: int) -> Any:
    video = out.add_stream(codec, rate=fps)
    video.width, video.height, video.pix_fmt = *size, pix_fmt
    if rotation:
        video.set_display_rotation(rotation)
    return video


def make_video(
    path: Path,
    *,
    seconds: float = 4.0,
    fps: int = 25,
    size: tuple[int, int] = (160, 96),
    tone_hz: float | None = 440.0,
    audio_rate: int = 48000,
    subtitles_srt: str | None = None,
    video_codec: str = "libx264",
    pix_fmt: str = "yuv420p",  # yuv444p for a picture of odd size
    start_s: float = 0.0,  # when the first picture (and the tone) is shown, as a camera's file may start late
    audio_start_s: float | None = None,  # when the tone starts, if not with the picture
    flash_s: float | None = None,  # a white picture at this time after the first, to check sync against
    audio_tracks: tuple[tuple[str, float | None], ...] = (),  # more tracks: (language tag, tone Hz or None: silence)
    right_hz: float | None = None,  # another tone on the right channel: a wide stereo bed, not a centred voice
    rotation: int = 0,  # display rotation, degrees counterclockwise: a phone stores a portrait video sideways
    picture_s: float | None = None,  # how long the picture lasts, if not ``seconds`` (a still: one frame's time)
) -> Path:
    """Write a video: bars at ``fps``, a stereo tone (unless None), an SRT stream (MKV only)."""
    import av

    width, height = size
    frames = max(1, int(round((seconds if picture_s is None else picture_s) * fps)))
    srt_input = None
    with av.open(str(path), "w") as out:
        video = _picture_stream(out, video_codec, fps, size, pix_fmt, rotation)
        tracks = []  # (stream, tone Hz or None for silence)
        for language, hz in ((("", tone_hz),) if tone_hz is not None else ()) + audio_tracks:
            audio = out.add_stream("aac", rate=audio_rate)
            audio.layout = "stereo"
            if language:
                audio.metadata["language"] = language
            tracks.append((audio, hz))
        subtitle_stream = None
        if subtitles_srt is not None:
            srt_file = path.with_suffix(".src.srt")
            srt_file.write_text(subtitles_srt, encoding="utf-8")
            srt_input = av.open(str(srt_file))
            subtitle_stream = out.add_stream_from_template(srt_input.streams.subtitles[0])
            subtitle_stream.metadata["language"] = "eng"
        first = int(round(start_s * fps))
        for n in range(frames):
            image = colour_bars(width, height, n)
            if flash_s is not None and n == int(round(flash_s * fps)):
                image[:] = 255
            frame = av.VideoFrame.from_ndarray(image, format="rgb24")
            frame.pts = first + n
            out.mux(video.encode(frame))
        out.mux(video.encode(None))
        audio_first = int(round((start_s if audio_start_s is None else audio_start_s) * audio_rate))
        for audio, hz in tracks:
            t = np.arange(int(round(seconds * audio_rate))) / audio_rate
            tone = (0.2 * np.sin(2 * np.pi * (hz or 0.0) * t) * (hz is not None)).astype(np.float32)
            right = tone if right_hz is None else (0.2 * np.sin(2 * np.pi * right_hz * t)).astype(np.float32)
            stereo = np.stack([tone, right])
            for start in range(0, tone.size, 1024):
                block = av.AudioFrame.from_ndarray(np.ascontiguousarray(stereo[:, start : start + 1024]),
                                                   format="fltp", layout="stereo")
                block.sample_rate, block.pts = audio_rate, audio_first + start
                out.mux(audio.encode(block))
            out.mux(audio.encode(None))
        if srt_input is not None and subtitle_stream is not None:
            for packet in srt_input.demux(srt_input.streams.subtitles[0]):
                if packet.size:
                    packet.stream = subtitle_stream
                    out.mux(packet)
    if srt_input is not None:
        srt_input.close()
        path.with_suffix(".src.srt").unlink()
    return path

"""Scenes to transcribe: turns of real speech (the bundled voices' clips, the French Common Voice
and Mandarin corpus clips in tests/data/hearing) muxed with a tiny picture by PyAV, with where each turn is."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core.paths import REPO_ROOT
from engine.hearing.qa.wer import word_error_rate
from tests.engine.helpers import VOICES

HEARING_DATA = REPO_ROOT / "tests" / "data" / "hearing"
RATE = 22050


@dataclass(frozen=True)
class Turn:
    start: float
    end: float
    voice: str  # the file's stem: maya, rex, narrator, fr_17301936...
    text: str


def read_audio(path: Path, rate: int = RATE) -> np.ndarray:
    """Any audio file, mono float32 at ``rate``."""
    import av

    with av.open(str(path)) as container:
        resampler = av.AudioResampler(format="flt", layout="mono", rate=rate)
        blocks = [out.to_ndarray().reshape(-1) for frame in container.decode(audio=0)
                  for out in resampler.resample(frame)]
        blocks += [out.to_ndarray().reshape(-1) for out in resampler.resample(None)]
    return np.concatenate(blocks).astype(np.float32)


def write_video(path: Path, audio: np.ndarray | None, seconds: float, rate: int = RATE) -> Path:
    """An MP4: 64x48 black frames at 5 fps and ``audio`` (mono AAC) unless None."""
    import av

    with av.open(str(path), "w") as out:
        video = out.add_stream("libx264", rate=5)
        video.width, video.height, video.pix_fmt = 64, 48, "yuv420p"
        stream = None
        if audio is not None:
            stream = out.add_stream("aac", rate=rate)
            stream.layout = "mono"
        for n in range(max(1, int(seconds * 5))):
            frame = av.VideoFrame.from_ndarray(np.zeros((48, 64, 3), np.uint8), format="rgb24")
            frame.pts = n
            out.mux(video.encode(frame))
        out.mux(video.encode(None))
        if stream is not None and audio is not None:
            for start in range(0, len(audio), 1024):
                block = av.AudioFrame.from_ndarray(np.ascontiguousarray(audio[None, start:start + 1024]),
                                                   format="fltp", layout="mono")
                block.sample_rate, block.pts = rate, start
                out.mux(stream.encode(block))
            out.mux(stream.encode(None))
    return path


RECORDING_CODECS = {".flac": ("flac", "s16"), ".mp3": ("mp3", "fltp"), ".m4a": ("aac", "fltp")}


def write_recording(path: Path, audio: np.ndarray, rate: int = RATE) -> Path:
    """A recording with no picture (by its suffix: FLAC, MP3 or M4A) of ``audio``, mono."""
    import av

    codec, sample_format = RECORDING_CODECS[path.suffix]
    samples = (audio * 32767).astype(np.int16) if sample_format == "s16" else audio.astype(np.float32)
    with av.open(str(path), "w") as out:
        stream = out.add_stream(codec, rate=rate)
        stream.layout = "mono"
        for start in range(0, len(samples), 1024):
            block = av.AudioFrame.from_ndarray(np.ascontiguousarray(samples[None, start:start + 1024]),
                                               format=sample_format, layout="mono")
            block.sample_rate, block.pts = rate, start
            out.mux(stream.encode(block))
        out.mux(stream.encode(None))
    return path


def make_scene(path: Path, voices: Sequence[str], gap_s: float = 0.8) -> list[Turn]:
    """A video of the clips one after another, ``gap_s`` apart (a recording with no picture when
    ``path`` ends in .flac, .mp3 or .m4a); the turns it holds."""
    parts: list[np.ndarray] = []
    turns: list[Turn] = []
    position = 0.0
    for voice in voices:
        source = VOICES / f"{voice}.wav" if (VOICES / f"{voice}.wav").exists() else \
            next(HEARING_DATA / f"{voice}{kind}" for kind in (".mp3", ".flac") if (HEARING_DATA / f"{voice}{kind}").exists())
        audio = read_audio(source)
        text = (VOICES / f"{voice}.txt").read_text().strip() if source.parent == VOICES else ""
        turns.append(Turn(position, position + len(audio) / RATE, voice, text))
        parts += [audio, np.zeros(int(gap_s * RATE), np.float32)]
        position += len(audio) / RATE + gap_s
    if path.suffix in RECORDING_CODECS:
        write_recording(path, np.concatenate(parts))
    else:
        write_video(path, np.concatenate(parts), position)
    return turns


def voice_at(turns: Sequence[Turn], start: float, end: float) -> str | None:
    """The voice of the turn a span overlaps most (None when it overlaps none)."""
    best = max(turns, key=lambda turn: min(turn.end, end) - max(turn.start, start))
    return best.voice if min(best.end, end) - max(best.start, start) > 0 else None


def script_wer(turns: Sequence[Turn], text: str) -> float:
    return word_error_rate(" ".join(turn.text for turn in turns), text)


def music(seconds: float, rate: int = RATE) -> np.ndarray:
    """Something that is not speech: chords of harmonic tones, changing every half second, over
    a soft noise beat."""
    t = np.arange(int(seconds * rate)) / rate
    roots = np.array([220.0, 246.9, 261.6, 293.7, 329.6, 293.7, 261.6, 246.9])
    root = roots[(t * 2).astype(int) % len(roots)]
    chord = sum(np.sin(2 * np.pi * root * ratio * t * k) / k for ratio in (1.0, 1.26, 1.5) for k in (1, 2, 3))
    beat = np.random.default_rng(0).standard_normal(t.size) * (np.mod(t, 0.5) < 0.05)
    return (0.08 * chord + 0.05 * beat).astype(np.float32)

"""The finished video: the picture copied as it is, the dub as its default audio track.

:func:`export_video` writes an MP4 or MKV with

- the video stream copied packet for packet (no re-encoding, so no quality loss and no time
  spent; frame count and duration stay those of the source);
- the dub (the project's delivery mix: 48 kHz, stereo when the source is, exactly the
  video's length, normalised to the loudness target) encoded as AAC or Opus, marked default
  and "dub", tagged with the dub's language and a title;
- optionally the original audio (the dialogue track) as a second track (copied, not re-encoded), marked "original",
  tagged with the original dialogue's language and the title "Original audio";
- optionally the script as a soft subtitle track (mov_text in MP4, SubRip in MKV), tagged with
  the dub's language and a title;
- optionally the subtitles burned into the picture (the dub's language or the original's):
  then, and only then, the picture is decoded, the cues drawn on the frames of their spans
  (:mod:`app.project.burned_subtitles`) and re-encoded as H.264 (libx264, CRF
  :data:`BURN_CRF`), the same size, frame times and colour tags; everything else is as above.

Languages default to the project's: the dub's is its target language (the original's when it
is not translated), the original audio's its transcribed language, as ISO 639-2 codes.

It is Qt-free and synchronous: the studio runs it on a worker thread and passes ``progress``
(called with 0..1) and ``cancelled`` (polled between packets). The file is written through the
project's atomic writer, so a cancelled or failed export leaves no half-written video behind.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

import numpy as np

from app.project import phrases
from app.project.burned_subtitles import SubtitleBurner, find_font
from app.project.errors import ExportError, MediaError, OperationCancelled
from app.project.export import ExportResult, MixdownAudio, delivery_mixdown
from app.project.fsutil import bound_to, safe_filename
from app.project.limits import MAX_MEDIA_S
from app.project.media import open_media, probe_video, quarter_turns, write_atomically
from app.project.phrases import Phrase
from app.project.project import Project
from app.project.readiness import spoken_languages
from app.project.script_io import subtitle_cues
from engine.core.codes import ErrorCode
from engine.core.languages import UNDETERMINED, container_language

if TYPE_CHECKING:
    from av.audio.stream import AudioStream
    from av.container import InputContainer, OutputContainer
    from av.packet import Packet
    from av.stream import Stream
    from av.subtitles.stream import SubtitleStream
    from av.video.frame import VideoFrame
    from av.video.stream import VideoStream

OUTPUT_RATE = 48_000  # what AAC and Opus players expect; Opus only runs at 48 kHz
CONTAINERS = {"mp4": ("mp4", "mov_text"), "mkv": ("matroska", "subrip")}  # format, subtitle codec
AUDIO_CODECS = {"aac": "aac", "opus": "libopus"}
ENCODE_AHEAD_S = 1.0  # keep the dub this far ahead of the copied packets, for interleaving
BLOCK = 1024  # samples per encoded audio frame (AAC's frame size; Opus re-frames itself)
# Burned-in subtitles: which subtitles ("" none), and the picture's encoders in order of preference.
BURN_CHOICES = {"": "none", "target": "the dub's language", "source": "the original's"}
PICTURE_ENCODERS = ("libx264", "libopenh264", "mpeg4")  # mpeg4: in every FFmpeg build
BURN_CRF = "18"  # libx264's quality: visually lossless for most sources
# A burned cue that would show this much later than its time (the next picture is that far off: a
# still picture, a variable-rate video's pause) is shown on the picture held, encoded again then.
HELD_CUE_LATE_S = 0.25
BURN_PRESET = "veryfast"  # libx264's speed; a slower preset saves bits, not visible quality, at CRF 18
FALLBACK_BIT_RATE = 8_000_000  # an encoder without CRF: at least this, or the source's own rate
# What burning costs against copying the picture, as the studio and the CLI say it (low, high):
# 4.9x the wall time on 720p colour bars, 18x on a 720p picture with film grain
# (benchmarks/burn_subtitles.py, docs/video.md).
BURN_TIME_RATIO = (5, 20)

# A minimal ASS header: text subtitle encoders need one even for plain text.
_ASS_HEADER = (
    b"[Script Info]\nScriptType: v4.00+\nPlayResX: 384\nPlayResY: 288\n\n"
    b"[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, "
    b"BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, "
    b"Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n"
    b"Style: Default,Arial,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0\n\n"
    b"[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
)


@dataclass(frozen=True)
class VideoExportOptions:
    """How the finished video is made. Languages are ISO 639-2 codes ("eng", "fre"...); ""
    takes the project's (see :func:`dub_language`)."""

    container: str = "mp4"  # "mp4" or "mkv"
    audio_codec: str = "aac"  # "aac" or "opus"
    bitrate: int = 192_000
    keep_original: bool = False  # the original audio as a second track
    subtitles: bool = False  # the script as a soft subtitle track
    language: str = ""  # of the dub (and subtitles); "" = the project's target language
    title: str = "Dub"
    burn_subtitles: str = ""  # "" none; "target" or "source": those subtitles drawn into the picture (re-encoded)

    def validate(self) -> None:
        if self.container not in CONTAINERS:
            raise ExportError(Phrase(phrases.UNKNOWN_CONTAINER, value=repr(self.container)))
        if self.audio_codec not in AUDIO_CODECS:
            raise ExportError(Phrase(phrases.UNKNOWN_AUDIO_CODEC, value=repr(self.audio_codec)))
        if not 32_000 <= self.bitrate <= 512_000:
            raise ExportError(Phrase(phrases.BAD_AUDIO_BITRATE, kbps=self.bitrate // 1000))
        if self.language and not (len(self.language) == 3 and self.language.isascii() and self.language.isalpha()):
            raise ExportError(Phrase(phrases.BAD_TRACK_LANGUAGE, value=repr(self.language)))
        if self.burn_subtitles not in BURN_CHOICES:
            raise ExportError(Phrase(phrases.UNKNOWN_BURN_IN, value=repr(self.burn_subtitles)))


def dub_language(project: Project, options: VideoExportOptions) -> str:
    """The ISO 639-2 code the dub and its subtitles are tagged with: the options' when given,
    else the project's target language, else its original language, else the one language its
    lines are spoken in (a project made from an SRT names none: its dub was tagged "und";
    "und" when the lines speak several or none)."""
    if options.language:
        return options.language
    known = project.target_language or project.language
    if not known:
        spoken = spoken_languages(project, project.lines)
        known = spoken.pop() if len(spoken) == 1 else ""
    return container_language(known)


def original_language(project: Project) -> str:
    """The ISO 639-2 code of the original audio: the language its dialogue was transcribed in,
    else the tag its track had in the source (a copy into another container loses the tag)."""
    if project.language:
        return container_language(project.language)
    dialogue = project.video.dialogue_audio() if project.video is not None else None
    return container_language(dialogue.language) if dialogue is not None else UNDETERMINED


def default_video_path(project: Project, options: VideoExportOptions) -> Path:
    """``exports/<title>.mp4`` (or .mkv)."""
    return project.exports_dir / f"{safe_filename(project.title, 'dub')}.{options.container}"


def refuse_without_picture(project: Project) -> None:
    """E_NO_VIDEO_STREAM when the project dubs a recording with no picture (a radio drama's, a
    podcast's): its audio exports are what it makes, not a finished video."""
    if project.video is not None and not project.video.has_picture:
        raise ExportError(Phrase(phrases.NO_PICTURE, file=project.video.path), ErrorCode.NO_VIDEO_STREAM)


def check_video_export(project: Project, options: VideoExportOptions) -> Path:
    """The project's video file, when a video export with ``options`` can start from it;
    ExportError saying what is wrong otherwise (checked before a render, not after it)."""
    options.validate()
    source = project.video_path()
    if source is None or project.video is None:
        raise ExportError(Phrase(phrases.NO_VIDEO))
    refuse_without_picture(project)
    if not source.exists():
        raise ExportError(Phrase(phrases.VIDEO_MISSING, path=project.video.path))
    check_burnable(project, options)
    return source


def check_burnable(project: Project, options: VideoExportOptions) -> None:
    """With subtitles to burn in, a font that has their characters: E_FONT_MISSING otherwise
    (checked before a render, not after it)."""
    if options.burn_subtitles:
        find_font([text for _start, _end, text in burned_cues(project, options.burn_subtitles)])


def burned_cues(project: Project, which: str, notes: list[str] | None = None) -> list[tuple[float, float, str]]:
    """(start, end, text) of the subtitles to burn in: the dub's ("target") or the original
    text's ("source"), timed, wrapped and cut at the video's end as the subtitle files are, without names."""
    return [(start, end, text) for _order, start, end, text, _speaker
            in subtitle_cues(project, speaker_prefix=False, gap_s=None, source=which == "source", notes=notes)
            if text.strip()]


def export_video(
    project: Project,
    out_path: str | os.PathLike[str] | None = None,
    options: VideoExportOptions | None = None,
    *,
    progress: Callable[[float], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    mixed: MixdownAudio | None = None,
) -> ExportResult:
    """Write the finished video; returns what was written, with the mix's loudness and overruns
    (``mixed``: the delivery mix already made, as Export all makes it once).

    Raises ExportError (no video, nothing rendered, a stream the container cannot hold),
    MediaError (the video cannot be read) or OperationCancelled.
    """
    options = options or VideoExportOptions()
    source = check_video_export(project, options)
    assert project.video is not None  # checked
    # What is there now, not what project.json says: a regular file (a pipe or folder is
    # refused in words), a picture, facts within the limits.
    probe_video(source)
    target = Path(out_path) if out_path is not None else default_video_path(project, options)
    if target.suffix.lower() != f".{options.container}":
        raise ExportError(Phrase(phrases.WRONG_SUFFIX, file=target.name, container=options.container.upper(),
                                  suffix=options.container))
    audio = mixed or delivery_mixdown(project, cancelled=cancelled)
    if progress is not None:
        progress(0.05)
    dub = _DubSource(_dub_blocks(audio), min(audio.channels, 2), audio.programme.length)
    languages = (dub_language(project, options), original_language(project))
    dialogue = project.video.dialogue_audio()
    original = dialogue.index if dialogue is not None else None  # the track kept as "Original audio"
    notes: list[str] = []
    cues = _cues(project, notes) if options.subtitles else []
    burned = burned_cues(project, options.burn_subtitles, notes) if options.burn_subtitles else []
    video_duration = project.video.duration_s
    encoded_samples: list[int] = []

    def write(handle: IO[bytes]) -> None:
        encoded_samples.append(_mux(handle, source, dub, (cues, burned), options, (languages, original),
                                    video_duration, progress, cancelled))

    # In the project folder (exports/ by default) it must resolve inside it, through symlinks;
    # a path the user chose elsewhere is theirs.
    write_atomically(target, write, inside=bound_to(project.root, target))
    if progress is not None:
        progress(1.0)
    result = audio.result([target])
    result.notes += dict.fromkeys(notes)  # the soft and the burned cues are cut alike: said once
    result.duration_s = encoded_samples[0] / OUTPUT_RATE
    return result


def _dub_blocks(audio: MixdownAudio) -> Iterator[np.ndarray]:
    """The mix as (n, channels) float32 blocks at :data:`OUTPUT_RATE` (the delivery rate).

    A mono mix stays mono: copied to two channels it would measure 3 dB louder (BS.1770 adds
    the channels' power), so the delivered track would miss the loudness target.
    """
    assert audio.sample_rate == OUTPUT_RATE  # delivery_mixdown's DELIVERY_RATE
    for block in audio.mix_blocks():
        block = block.reshape(len(block), -1)
        yield np.ascontiguousarray(np.clip(block[:, :2], -1.0, 1.0), dtype=np.float32)


def _cues(project: Project, notes: list[str]) -> list[tuple[float, float, str]]:
    """The script as (start, end, text) timed like the mix and cut at the video's end as the
    subtitle files are, each line's text unwrapped, for a soft track."""
    spans: dict[int, tuple[float, float]] = {}  # a line shown as several cues is one span on a soft track
    for order, start, end, _wrapped, _speaker in subtitle_cues(project, speaker_prefix=False, gap_s=None,
                                                               source=False, notes=notes):
        spans[order] = (spans[order][0] if order in spans else start, end)
    return [(start, end, text) for order, (start, end) in spans.items()
            if (text := project.lines[order - 1].text.strip())]


def _mux(
    handle: IO[bytes],
    source: Path,
    dub: _DubSource,
    cues: tuple[list[tuple[float, float, str]], list[tuple[float, float, str]]],
    options: VideoExportOptions,
    tracks: tuple[tuple[str, str], int | None],
    duration: float,
    progress: Callable[[float], None] | None,
    cancelled: Callable[[], bool] | None,
) -> int:
    """Copy the picture (or re-encode it with subtitles burned in) and the original audio,
    encode the dub and subtitles, interleaved; returns the samples of dub encoded (silence
    included up to the picture's end). ``cues`` are the soft track's and the burned ones;
    ``tracks`` the dub's and the original audio's ISO 639-2 codes, and the stream index of the
    original audio to keep (its dialogue track)."""
    import av

    container_format, _ = CONTAINERS[options.container]
    with open_media(source) as inp, av.open(handle, "w", format=container_format) as out:
        if not inp.streams.video:
            raise MediaError(Phrase(phrases.NO_VIDEO_STREAM, file=source.name), ErrorCode.NO_VIDEO_STREAM)
        video_in = inp.streams.video[0]
        origin = picture_origin(video_in)
        picture = _PictureEncoder(out, video_in, cues[1], _rotation(source), origin) if options.burn_subtitles else None
        copies: dict[int, Stream] = {} if picture else {video_in.index: _copied_stream(out, video_in, options)}
        encoder = _add_tracks(out, inp, copies, dub, cues[0], options, tracks, origin)
        reached = 0.0  # packets come in decode order, whose times jump back and forth: report the furthest
        try:
            for packet in inp.demux(video_in, *[s for s in inp.streams if s.index in copies]):
                if cancelled is not None and cancelled():
                    raise OperationCancelled(Phrase(phrases.VIDEO_EXPORT_CANCELLED))
                # On the dub's clock: seconds from the first picture, which a player shows first.
                when = float(packet.pts * packet.time_base) - origin if packet.pts is not None else None
                if when is not None and packet.size:
                    # The dub runs at least to the end of the packets really there, silence
                    # after its last line: padded as it is encoded, never allocated in full.
                    encoder.extend_to(when + float((packet.duration or 0) * packet.time_base))
                    encoder.encode_until(when + ENCODE_AHEAD_S)
                    if progress is not None and duration > 0 and when > reached:
                        reached = when
                        progress(0.05 + 0.9 * min(1.0, when / duration))
                if picture is not None and packet.stream_index == video_in.index:
                    picture.send(packet)  # an empty packet too: it drains the decoder at the end
                elif packet.size:
                    packet.stream = copies[packet.stream_index]
                    out.mux(packet)
            if picture is not None:
                picture.finish(duration)
            encoder.finish()
            return encoder.position
        except av.FFmpegError as error:
            raise ExportError(
                Phrase(phrases.CANNOT_WRITE_CONTAINER, container=options.container.upper(), error=str(error))
            ) from error


def _copied_stream(out: OutputContainer, video_in: VideoStream, options: VideoExportOptions) -> Stream:
    """The picture's output stream, a copy of the source's. HEVC in MP4 is tagged ``hvc1``
    (parameter sets in the sample description), the tag Apple's players and most platforms'
    checks require: FFmpeg's default ``hev1`` plays elsewhere but QuickTime and iOS refuse it."""
    copied = out.add_stream_from_template(video_in)
    if options.container == "mp4" and video_in.codec_context.name == "hevc":
        copied.codec_context.codec_tag = "hvc1"
    return copied


def picture_origin(video: Stream) -> float:
    """When the first picture is shown, in seconds: the zero of the script, the dub and the guide.

    Most files start at 0, but a camera's MPEG-TS, an MKV cut from a longer recording or a
    stream capture starts later; the copied picture keeps its times, so the dub and the
    subtitles must start where it does, or they play that much early.
    """
    if video.start_time is None or video.time_base is None:
        return 0.0
    return max(0.0, float(video.start_time * video.time_base))


def _add_tracks(out: OutputContainer, inp: InputContainer, copies: dict[int, Stream], dub: _DubSource,
                cues: list[tuple[float, float, str]], options: VideoExportOptions,
                tracks: tuple[tuple[str, str], int | None], origin: float) -> _DubEncoder:
    """The dub's track (default, "dub"), the original audio copied when asked ("original"),
    and the soft subtitle track when there are cues; returns the dub's encoder, which starts
    ``origin`` seconds into the file (with the first picture)."""
    import av

    _, subtitle_codec = CONTAINERS[options.container]
    languages, original_index = tracks
    # PyAV types a stream by its codec's name only for literal names; these come from tables.
    dub_stream = cast("AudioStream", out.add_stream(AUDIO_CODECS[options.audio_codec], rate=OUTPUT_RATE))
    layout = "mono" if dub.channels == 1 else "stereo"
    dub_stream.layout = layout
    dub_stream.bit_rate = options.bitrate
    dub_stream.metadata["language"] = languages[0]
    dub_stream.metadata["title"] = options.title
    dub_stream.disposition = av.stream.Disposition.default | av.stream.Disposition.dub
    if options.keep_original and inp.streams.audio:
        original_in = next((s for s in inp.streams.audio if s.index == original_index), inp.streams.audio[0])
        original = out.add_stream_from_template(original_in)
        original.metadata["title"] = "Original audio"
        original.metadata["language"] = languages[1]
        original.disposition = av.stream.Disposition.original
        copies[original_in.index] = original
    subtitle_stream: SubtitleStream | None = None
    if cues:
        subtitle_stream = cast("SubtitleStream", out.add_stream(subtitle_codec))
        subtitle_stream.codec_context.subtitle_header = _ASS_HEADER
        subtitle_stream.time_base = Fraction(1, 1000)
        subtitle_stream.metadata["language"] = languages[0]
        subtitle_stream.metadata["title"] = f"{options.title} (subtitles)"
    return _DubEncoder(out, dub_stream, dub, layout, subtitle_stream, cues, origin)


def _rotation(source: Path) -> float:
    """The display rotation of ``source``'s picture in degrees counterclockwise (a phone's
    portrait video is stored sideways); a copied stream keeps it by itself."""
    with open_media(source) as probe:
        return 90.0 * quarter_turns(probe)


def picture_encoder() -> str:
    """The first of :data:`PICTURE_ENCODERS` this FFmpeg build has."""
    import av

    for name in PICTURE_ENCODERS:
        try:
            av.codec.Codec(name, "w")
        except (av.FFmpegError, ValueError):
            continue
        return name
    raise ExportError(Phrase(phrases.NO_PICTURE_ENCODER))


class _PictureEncoder:
    """The picture decoded, the burned-in subtitles drawn on it, encoded again: same size (a
    pixel less on an odd side), frame times, aspect, colour tags and display rotation as the source."""

    def __init__(self, out: OutputContainer, video_in: VideoStream, cues: list[tuple[float, float, str]],
                 rotation: float, origin: float = 0.0) -> None:
        source = video_in.codec_context
        video_in.thread_type = "AUTO"  # frame threads: decoding is half the time of a re-encode
        name = picture_encoder()
        options = {"crf": BURN_CRF, "preset": BURN_PRESET} if name == "libx264" else {}
        self.stream = cast("VideoStream", out.add_stream(name, rate=video_in.average_rate or 25, options=options))
        context = self.stream.codec_context
        full_range = source.color_range == 2  # AVCOL_RANGE_JPEG: 0-255 luma rather than 16-235
        self.burner = SubtitleBurner(cues, (source.width, source.height), full_range, rotation=rotation)
        context.width, context.height, context.pix_fmt = *self.burner.size, "yuv420p"  # even sides
        context.time_base = self.stream.time_base = video_in.time_base or Fraction(1, 90_000)
        if video_in.average_rate:
            context.framerate = video_in.average_rate
        if source.sample_aspect_ratio:
            context.sample_aspect_ratio = source.sample_aspect_ratio
        context.colorspace, context.color_range = source.colorspace, source.color_range
        context.color_primaries, context.color_trc = source.color_primaries, source.color_trc
        if name != "libx264":
            context.bit_rate = max(FALLBACK_BIT_RATE, source.bit_rate or video_in.bit_rate or 0)
        self.stream.thread_type = "AUTO"
        if rotation:
            self.stream.set_display_rotation(rotation)
        for key in ("language", "title"):
            if key in video_in.metadata:
                self.stream.metadata[key] = video_in.metadata[key]
        self.out, self.origin = out, origin
        self._held: tuple[VideoFrame, float] | None = None  # the last picture decoded, and its time

    def send(self, packet: Packet[Stream]) -> None:
        for frame in packet.decode():
            self._encode(cast("VideoFrame", frame))  # a video stream's packet decodes to pictures

    def finish(self, end_s: float) -> None:
        """Encode what is left; a cue that changes after the last picture, before ``end_s`` (the
        video's length), is shown on that picture held."""
        self._hold_until(end_s)
        self.out.mux(self.stream.encode(None))

    def _encode(self, frame: VideoFrame) -> None:
        seconds = float(frame.time) - self.origin if frame.time is not None else 0.0  # on the cues' clock
        self._hold_until(seconds)
        self._put(self.burner.burn(frame, seconds))
        self._held = (frame, seconds)

    def _hold_until(self, seconds: float) -> None:
        """The picture shown since the last frame, encoded again where a cue starts or ends more
        than HELD_CUE_LATE_S before the next frame (``seconds``): a still picture over a recording
        (one frame) or a long pause of a variable-rate video showed no cue that began after it."""
        import av

        time_base = self.stream.time_base  # the source's, set in __init__
        if self._held is None or time_base is None:
            return
        held, since = self._held
        changes = sorted({t for image in self.burner.images for t in (image.start, image.end)
                          if since < t < seconds - HELD_CUE_LATE_S})
        for change in changes:
            shown = self.burner.burn(held, change)
            again = av.VideoFrame.from_ndarray(shown.to_ndarray(), format="yuv420p")  # its own time
            again.pts, again.time_base = round((change + self.origin) / time_base), time_base
            again.colorspace, again.color_range = shown.colorspace, shown.color_range
            self._put(again)

    def _put(self, frame: VideoFrame) -> None:
        from av.video.frame import PictureType

        frame.pict_type = PictureType.NONE  # the encoder places its own key frames
        self.out.mux(self.stream.encode(frame))


class _DubSource:
    """The dub's samples, read in order from its blocks as (n, channels): only a block is held."""

    def __init__(self, blocks: Iterator[np.ndarray], channels: int, length: int) -> None:
        self.blocks, self.channels, self.length = blocks, channels, length
        self._buffer = np.zeros((0, channels), dtype=np.float32)

    def take(self, count: int) -> np.ndarray:
        """The next ``count`` samples (fewer at the end)."""
        while len(self._buffer) < count:
            block = next(self.blocks, None)
            if block is None:
                break
            self._buffer = np.concatenate([self._buffer, block])
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken


class _DubEncoder:
    """Encodes the dub (and subtitle cues) on demand, so they interleave with the copied packets."""

    def __init__(self, out: OutputContainer, stream: AudioStream, audio: _DubSource, layout: str,
                 subtitle_stream: SubtitleStream | None, cues: list[tuple[float, float, str]],
                 origin: float = 0.0) -> None:
        self.out, self.stream, self.audio, self.layout = out, stream, audio, layout
        self.offset = int(round(origin * OUTPUT_RATE))  # the first picture's time, in samples
        self.subtitle_stream, self.cues = subtitle_stream, cues
        self.position = 0
        self.next_cue = 0
        self.end = audio.length  # samples to encode: the dub, or further to the picture's end
        self.silence = np.zeros((BLOCK, audio.channels), dtype=np.float32)

    def extend_to(self, seconds: float) -> None:
        """Encode silence after the dub up to ``seconds`` (the end of a copied packet), at most
        MAX_MEDIA_S: a container's claims never decide how much is encoded."""
        self.end = max(self.end, min(int(seconds * OUTPUT_RATE), int(MAX_MEDIA_S * OUTPUT_RATE)))

    def encode_until(self, seconds: float) -> None:
        import av

        stop = min(self.end, int(seconds * OUTPUT_RATE))
        while self.position < stop:
            block = self.audio.take(BLOCK)
            if block.shape[0] < BLOCK and self.position + block.shape[0] < self.end:
                pad = min(BLOCK - block.shape[0], self.end - self.position - block.shape[0])
                block = np.concatenate([block, self.silence[:pad]]) if block.size else self.silence[:pad]
            frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(block.T), format="fltp", layout=self.layout)
            frame.sample_rate = OUTPUT_RATE
            frame.pts = self.offset + self.position
            frame.time_base = Fraction(1, OUTPUT_RATE)
            self.out.mux(self.stream.encode(frame))
            self.position += block.shape[0]
        while self.subtitle_stream is not None and self.next_cue < len(self.cues) and self.cues[self.next_cue][0] <= seconds:
            self._write_cue(self.next_cue, *self.cues[self.next_cue])
            self.next_cue += 1

    def finish(self) -> None:
        last_cue = self.cues[-1][0] if self.cues else 0.0
        self.encode_until(max(self.end / OUTPUT_RATE, last_cue) + 1)
        self.out.mux(self.stream.encode(None))

    def _write_cue(self, n: int, start: float, end: float, text: str) -> None:
        """One cue as a text subtitle packet (ASS dialogue in, mov_text or SubRip out)."""
        from av.subtitles.subtitle import SubtitleSet

        begin = int(round((start + self.offset / OUTPUT_RATE) * 1000))
        length = max(1, int(round((end - start) * 1000)))
        dialogue = text.replace("\n", "\\N")
        subtitle = SubtitleSet.create(text=f"{n},0,Default,,0,0,0,,{dialogue}".encode(), start=0, end=length, pts=begin)
        assert self.subtitle_stream is not None
        packet = self.subtitle_stream.codec_context.encode_subtitle(subtitle)
        packet.stream = self.subtitle_stream
        packet.pts = packet.dts = begin
        packet.duration = length
        packet.time_base = Fraction(1, 1000)
        self.out.mux(packet)

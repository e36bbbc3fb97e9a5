"""The video a project dubs, read through PyAV (FFmpeg): probe, bring in, subtitles, guide audio.

Any file FFmpeg reads works (MP4, MKV, MOV, WebM, AVI...). The project stores the video as a
project-relative path (copied into ``media/`` by default, or a file already inside the folder;
a project never points outside itself) together with the probed facts (:class:`VideoInfo`).

- :func:`probe_video` reads duration, frame rate, size, codec and the audio and subtitle
  streams without decoding the picture.
- :func:`subtitle_stream_srt` turns a text subtitle stream (SubRip, ASS/SSA, mov_text, WebVTT)
  into SRT text, so the one SRT importer handles speakers, tags and validation for both
  external and embedded subtitles. Bitmap subtitles (DVD, PGS) would need OCR and are refused.
- :func:`with_dialogue_stream` says which audio track holds the dialogue when a video has
  several (the original and a dub): the one asked for, else the one tagged with the dialogue's
  language, else the first.
- :func:`extract_guide` decodes the original audio once into ``media/guide.flac``, the guide
  track the mix can keep under the dialogue and the studio can play for timing.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

import numpy as np

from app.project import phrases
from app.project.errors import (
    MediaError,
    OperationCancelled,
    PathEscapeError,
    ProjectError,
    SaveError,
)
from app.project.fsutil import (
    atomic_write,
    ensure_dir,
    relative_to_root,
    safe_filename,
    unique_path,
)
from app.project.limits import MAX_MEDIA_S, MEDIA_RANGES
from app.project.model import AudioStreamInfo, SubtitleStreamInfo, VideoInfo
from app.project.phrases import Phrase
from app.project.project import Project
from engine.core import files
from engine.core.audio_io import AudioError, AudioStream, open_container
from engine.core.codes import ErrorCode
from engine.core.languages import first_tagged
from engine.core.numbers import RangeError

if TYPE_CHECKING:
    from av.container import InputContainer
    from av.stream import Stream
    from av.subtitles.subtitle import AssSubtitle, BitmapSubtitle
    from av.video.stream import VideoStream

GUIDE_FILE = "guide.flac"
TEXT_SUBTITLE_CODECS = frozenset({"subrip", "srt", "ass", "ssa", "mov_text", "webvtt", "text"})
Progress = Callable[[float], None]  # fraction done, 0..1
# A picture that ends this much before its file's stated duration is measured instead: a file cut
# short (a copy or an upload that stopped), or an MKV that counts its length from 0 though its
# picture starts later. Smaller gaps are a container's rounding or audio running on.
STATED_LENGTH_SLACK_S = 0.5
END_SEARCH_S = 2.0  # a stream's end is looked for from this far before the stated end
# Sound that runs on this much past the last picture is part of the video (a still picture over a
# recording, a closing title held while the music plays on): the video lasts as long as it.
# Less is a track's usual overhang (an AAC frame, a late start), left out of the picture's length.
SOUND_AFTER_PICTURE_S = 1.0
Cancelled = Callable[[], bool]


def write_atomically(target: Path, write: Callable[[IO[bytes]], None], *, inside: Path | None = None) -> Path:
    """:func:`app.project.fsutil.atomic_write` that lets our own errors out unchanged.

    The shared writer turns whatever ``write`` raises into a SaveError (the temp file is
    removed either way); a cancel or a bad stream must still reach the caller as itself
    (E_CANCELLED, E_SUBTITLE_STREAM...), not as a failed save.
    """
    raised: list[ProjectError] = []

    def guarded(handle: IO[bytes]) -> None:
        try:
            write(handle)
        except ProjectError as error:
            raised.append(error)
            raise

    try:
        return atomic_write(target, guarded, inside=inside)
    except SaveError:
        if raised:
            raise raised[0] from None
        raise


def _refused(error: files.FileError) -> MediaError:
    """A media file that could not be opened (missing, a pipe, a folder), as a coded error."""
    reason = phrases.VIDEO_NOT_FOUND if error.code is ErrorCode.READ_FAILED else phrases.VIDEO_UNREADABLE
    return MediaError(Phrase(reason, detail=error.message), ErrorCode.VIDEO_UNREADABLE)


@contextlib.contextmanager
def open_media(path: Path) -> Iterator[InputContainer]:
    """A media file opened for reading through PyAV, as a regular file only (a named pipe is
    refused at once instead of blocking FFmpeg for ever); a coded error when it cannot be read."""
    try:
        handle = files.open_regular_file(path)
    except files.FileError as error:
        raise _refused(error) from None
    with handle:
        try:
            container = open_container(handle, path)
        except AudioError as error:
            raise MediaError(Phrase(phrases.NOT_A_VIDEO, file=path.name, error=error.reason),
                             ErrorCode.VIDEO_UNREADABLE) from error
        with container:
            yield container


def _fact(name: str, value: float, path: Path) -> float:
    """A probed number within its MEDIA_RANGES range; a container that claims more is refused."""
    allowed = MEDIA_RANGES[name]
    try:
        return allowed.check(value)
    except RangeError as error:
        if name == "duration_s" and isinstance(value, (int, float)) and value > allowed.high:
            raise MediaError(Phrase(phrases.VIDEO_TOO_LONG, file=path.name, hours=value / 3600, limit=MAX_MEDIA_S / 3600),
                             ErrorCode.TIME_RANGE) from None
        raise MediaError(Phrase(phrases.AT_FILE, where=path.name, problem=error.message), error.code) from None


def _seconds(value: int | None, time_base: Fraction | None) -> float | None:
    if value is None or time_base is None:
        return None
    return float(value * time_base)


def probe_video(path: str | os.PathLike[str], rel: str | None = None, *, picture: bool = True) -> VideoInfo:
    """The facts of a video file; ``rel`` is the path to store (default: the file name).

    Raises MediaError E_VIDEO_UNREADABLE when FFmpeg cannot open it, E_NO_VIDEO_STREAM when it
    holds no picture and ``picture`` is asked for (a recording given as a video). With ``picture``
    false a recording with no picture is a source too (:attr:`VideoInfo.has_picture`), refused
    with E_NO_AUDIO_STREAM when it has no sound either; a file with a picture is a video all the same.
    """
    path = Path(path)
    with open_media(path) as container:
        if not container.streams.video and picture:
            raise MediaError(Phrase(phrases.AUDIO_ONLY_GIVEN_AS_VIDEO if container.streams.audio
                                    else phrases.NO_VIDEO_STREAM, file=path.name), ErrorCode.NO_VIDEO_STREAM)
        if not picture and all(_cover_art(stream) for stream in container.streams.video):
            return _probe_recording(container, path, rel)  # a podcast's MP3 with its cover is a recording
        video = container.streams.video[0]
        context = video.codec_context
        rate = video.average_rate or video.guessed_rate or video.base_rate
        duration = _seconds(video.duration, video.time_base)
        if duration is None and container.duration is not None:
            duration = container.duration / 1_000_000  # container duration is in AV_TIME_BASE units
        turns = quarter_turns(container)  # before the seek below: it reads the first picture
        width, height = context.width or 0, context.height or 0
        if turns % 2:  # stored sideways (a phone's portrait video): its size as it is shown
            width, height = height, width
        shown = _picture_span_s(container, video, duration)
        if duration is not None and shown is not None and shown < duration - STATED_LENGTH_SLACK_S:
            duration = shown
        heard = _sound_span_s(container, video)
        if heard is not None and heard > (duration or 0.0) + SOUND_AFTER_PICTURE_S:
            duration = heard
        return VideoInfo(
            path=rel or path.name,
            duration_s=round(_fact("duration_s", duration or 0.0, path), 6),
            fps=round(_fact("fps", float(rate), path), 6) if rate else 0.0,
            width=int(_fact("width", width, path)),
            height=int(_fact("height", height, path)),
            codec=context.name,
            frame_count=int(_fact("frame_count", video.frames, path)) or None,
            audio_streams=_audio_streams(container, path),
            subtitle_streams=_subtitle_streams(container),
        )


def _probe_recording(container: InputContainer, path: Path, rel: str | None) -> VideoInfo:
    """The facts of a file with sound and no picture: as long as its longest audio track (found
    from its last packets, else as the container says); no size, frame rate or picture codec."""
    if not container.streams.audio:
        raise MediaError(Phrase(phrases.NO_SOUND_TO_DUB, file=path.name), ErrorCode.NO_AUDIO_STREAM)
    stated = None if container.duration is None else container.duration / 1_000_000  # AV_TIME_BASE units
    ends = [_stream_end_s(container, audio, stated) for audio in container.streams.audio] if stated else []
    known = [end for end in ends if end is not None]
    duration = max(known) if known else stated
    return VideoInfo(path=rel or path.name, duration_s=round(_fact("duration_s", duration or 0.0, path), 6),
                     fps=0.0, width=0, height=0, codec="", audio_streams=_audio_streams(container, path),
                     subtitle_streams=_subtitle_streams(container))


def _cover_art(stream: VideoStream) -> bool:
    """A picture attached to a recording (an MP3's or M4A's cover), not a picture that plays."""
    from av.stream import Disposition

    return bool(stream.disposition & Disposition.attached_pic)


def _audio_streams(container: InputContainer, path: Path) -> tuple[AudioStreamInfo, ...]:
    return tuple(
        AudioStreamInfo(
            index=stream.index,
            codec=stream.codec_context.name,
            channels=int(_fact("channels", stream.codec_context.channels, path)),
            sample_rate=int(_fact("sample_rate", stream.codec_context.sample_rate, path)),
            language=str(stream.metadata.get("language", "")),
            title=str(stream.metadata.get("title", "")),
        )
        for stream in container.streams.audio
    )


def _subtitle_streams(container: InputContainer) -> tuple[SubtitleStreamInfo, ...]:
    return tuple(
        SubtitleStreamInfo(
            index=stream.index,
            codec=stream.codec_context.name,
            text=stream.codec_context.name in TEXT_SUBTITLE_CODECS,
            language=str(stream.metadata.get("language", "")),
            title=str(stream.metadata.get("title", "")),
        )
        for stream in container.streams.subtitles
    )


def quarter_turns(container: InputContainer) -> int:
    """How many quarter turns counterclockwise (0 to 3) a player gives the first picture stream of
    ``container`` to show it: a phone stores a portrait video sideways with a display rotation of
    90 or -90. Read from the first frame (PyAV exposes the display matrix there only); 0 when
    there is none or it cannot be decoded. The file is left at that frame: seek before demuxing."""
    import av

    try:
        first = next(container.decode(video=0), None)
    except av.FFmpegError:
        return 0
    return round((first.rotation if first is not None else 0) / 90) % 4


def _picture_span_s(container: InputContainer, video: VideoStream, stated: float | None) -> float | None:
    """How long the picture really lasts, from its first frame to the end of its last packet,
    found from the packets after a seek near the stated end (only the file's tail is read); None
    when the file cannot say. A truncated MKV said 8.02 s for a picture that ends at 6.28 s, and
    the mix, the stems and the exported dub ran on past it."""
    if stated is None or video.time_base is None:
        return None
    start = float((video.start_time or 0) * video.time_base)
    end = _stream_end_s(container, video, start + stated)
    return None if end is None else end - start


def _sound_span_s(container: InputContainer, video: VideoStream) -> float | None:
    """From the first picture to the end of the longest audio track (found from its last packets
    near the file's stated end); None without audio or when the file cannot say. A picture shown
    once (an image with a recording, an audiogram) or a closing title held while the sound plays
    on is as long as its sound: the probe said 0.04 s for a still picture over 10 s of speech."""
    if container.duration is None or video.time_base is None:
        return None
    start = float((video.start_time or 0) * video.time_base)
    stated = (container.start_time or 0) / 1_000_000 + container.duration / 1_000_000  # AV_TIME_BASE units
    ends = [_stream_end_s(container, audio, stated) for audio in container.streams.audio]
    known = [end for end in ends if end is not None]
    return max(known) - start if known else None


def _stream_end_s(container: InputContainer, stream: Stream, near_s: float) -> float | None:
    """When the last packet of ``stream`` ends, in seconds, from the packets after a seek to
    END_SEARCH_S before ``near_s`` (only the file's tail is read); None when none is found."""
    import av

    if stream.time_base is None:
        return None
    end: float | None = None
    try:
        container.seek(int(max(0.0, near_s - END_SEARCH_S) / stream.time_base), stream=stream, backward=True)
        for packet in container.demux(stream):
            if packet.pts is not None and packet.size:
                packet_end = float((packet.pts + (packet.duration or 0)) * stream.time_base)
                end = packet_end if end is None else max(end, packet_end)
    except av.FFmpegError:
        return None
    return end


def attach_video(project: Project, source: str | os.PathLike[str], *, copy: bool = True,
                 picture: bool = True) -> VideoInfo:
    """Probe ``source`` and bring it into the project; returns the facts to store. With
    ``picture`` false a recording with no picture is taken too (:func:`probe_video`).

    A file already inside the project folder is used where it is. Any other file is copied
    into ``media/`` (atomically) when ``copy`` is true, and refused otherwise
    (E_PATH_ESCAPE), because a project must never point outside its folder. Push
    :class:`app.project.SetVideo` with the result (or set ``project.video``) to use it.
    """
    source = Path(source).absolute()
    info = probe_video(source, picture=picture)  # before copying anything: refuse what is not a video
    try:
        rel = relative_to_root(project.root, source)
    except PathEscapeError:
        if not copy:
            raise PathEscapeError(
                Phrase(phrases.VIDEO_OUTSIDE, path=source)
            ) from None
        media = ensure_dir(project.media_dir, inside=project.root)  # a media/ symlinked out is refused
        target = unique_path(media, safe_filename(source.stem, "video"), source.suffix.lower())
        with files.open_regular_file(source) as src:
            atomic_write(target, lambda handle: shutil.copyfileobj(src, handle, 1 << 20), inside=project.root)
        rel = relative_to_root(project.root, target)
    return replace(info, path=rel)


def with_dialogue_stream(info: VideoInfo, index: int | None = None, language: str | None = None) -> VideoInfo:
    """``info`` with the audio track that holds the dialogue chosen: stream ``index`` when given
    (MediaError E_NO_AUDIO_STREAM when the video has no such audio stream), else the first track
    tagged with ``language`` (a Whisper or ISO code, the tag in any ISO 639 form: "fr" finds "fre",
    "fra" or "fr-FR"; "auto" or None: unknown), else the first."""
    if index is not None:
        if not any(a.index == index for a in info.audio_streams):
            raise MediaError(Phrase(phrases.NO_AUDIO_STREAM_NUMBER, file=info.path, index=index),
                             ErrorCode.NO_AUDIO_STREAM)
        return replace(info, dialogue_stream=index)
    tagged = first_tagged([a.language for a in info.audio_streams], language or "")
    return replace(info, dialogue_stream=None if tagged is None else info.audio_streams[tagged].index)


# --- subtitles ------------------------------------------------------------------------------


def _subtitle_text(subtitle: AssSubtitle | BitmapSubtitle) -> str:
    """The text of one decoded subtitle (a picture has none); ASS line breaks become newlines."""
    from av.subtitles.subtitle import AssSubtitle

    if not isinstance(subtitle, AssSubtitle):
        return ""
    text = subtitle.dialogue.decode("utf-8", "replace")
    return text.replace("\\N", "\n").replace("\\n", "\n").strip()


def subtitle_stream_srt(path: str | os.PathLike[str], stream_index: int | None = None) -> str:
    """A text subtitle stream of a video as SRT text (the first text stream by default).

    Raises MediaError E_SUBTITLE_STREAM when the video has no such stream or it holds
    pictures rather than text.
    """
    import av
    import srt

    path = Path(path)
    with open_media(path) as container:
        streams = list(container.streams.subtitles)
        if stream_index is None:
            stream = next((s for s in streams if s.codec_context.name in TEXT_SUBTITLE_CODECS), None)
            if stream is None:
                found = ", ".join(s.codec_context.name for s in streams) or Phrase(phrases.NONE)
                raise MediaError(
                    Phrase(phrases.NO_TEXT_SUBTITLES, file=path.name, found=found),
                    ErrorCode.SUBTITLE_STREAM,
                )
        else:
            stream = next((s for s in streams if s.index == stream_index), None)
            if stream is None:
                raise MediaError(
                    Phrase(phrases.NO_SUBTITLE_STREAM, file=path.name, index=stream_index,
                           found=", ".join(str(s.index) for s in streams) or Phrase(phrases.NONE)),
                    ErrorCode.SUBTITLE_STREAM,
                )
        if stream.codec_context.name not in TEXT_SUBTITLE_CODECS:
            raise MediaError(
                Phrase(phrases.PICTURE_SUBTITLES, index=stream.index, file=path.name, codec=stream.codec_context.name),
                ErrorCode.SUBTITLE_STREAM,
            )
        cues: list[srt.Subtitle] = []
        try:
            for packet in container.demux(stream):
                if packet.size == 0 or packet.pts is None:
                    continue
                start = float(packet.pts * packet.time_base)
                end = start + float((packet.duration or 0) * packet.time_base)
                text = "\n".join(t for t in (_subtitle_text(s) for s in packet.decode()) if t)
                if text:
                    cues.append(
                        srt.Subtitle(
                            index=len(cues) + 1,
                            start=datetime.timedelta(seconds=max(0.0, start)),
                            end=datetime.timedelta(seconds=max(start, end)),
                            content=text,
                        )
                    )
        except av.FFmpegError as error:
            raise MediaError(
                Phrase(phrases.CANNOT_READ_SUBTITLES, index=stream.index, file=path.name, error=str(error)),
                ErrorCode.SUBTITLE_STREAM,
            ) from error
    return cast(str, srt.compose(cues, reindex=False))  # srt is untyped


# --- audio ------------------------------------------------------------------------------------


def decode_audio(
    path: str | os.PathLike[str],
    stream_index: int | None = None,
    *,
    on_block: Callable[[np.ndarray], None],
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> tuple[int, int]:
    """Decode an audio stream block by block as float32 (frames, channels); returns (rate, channels).

    More than two channels are downmixed to stereo by FFmpeg's resampler (a guide track and
    a dub are stereo at most). Raises MediaError E_NO_AUDIO_STREAM when there is no such stream.
    """
    path = Path(path)
    try:
        stream = AudioStream(path, stream_index)
    except files.FileError as error:
        raise _refused(error) from None
    except AudioError as error:
        if error.no_stream:
            raise MediaError(str(error), ErrorCode.NO_AUDIO_STREAM) from None
        raise MediaError(Phrase(phrases.NOT_A_VIDEO, file=path.name, error=str(error)), ErrorCode.VIDEO_UNREADABLE) from error
    with stream:
        rate = int(_fact("sample_rate", stream.sample_rate, path))
        if rate <= 0:
            raise MediaError(Phrase(phrases.NO_SAMPLE_RATE, file=path.name), ErrorCode.VIDEO_UNREADABLE)
        channels = stream.channels
        total = stream.duration_s or 0.0
        limit = int(MAX_MEDIA_S * rate)  # whatever the container claims, never decode more than this
        decoded = 0
        try:
            for block in stream.blocks():
                if cancelled is not None and cancelled():
                    raise OperationCancelled(Phrase(phrases.DECODING_CANCELLED, file=path.name))
                decoded += block.shape[0]
                if decoded > limit:
                    raise MediaError(Phrase(phrases.AUDIO_TOO_LONG, file=path.name, limit=MAX_MEDIA_S / 3600),
                                     ErrorCode.TIME_RANGE)
                on_block(block)
                if progress is not None and total:
                    progress(min(1.0, stream.position_s / total))
        except AudioError as error:
            raise MediaError(Phrase(phrases.CANNOT_DECODE_AUDIO, file=path.name, error=str(error)),
                             ErrorCode.VIDEO_UNREADABLE) from error
    return rate, channels


def extract_guide(
    project: Project,
    stream_index: int | None = None,
    *,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> str:
    """Decode the video's original audio (its dialogue track, unless ``stream_index`` names
    another) once into ``media/guide.flac``; returns its relative path.

    FLAC keeps it lossless at about half the size of WAV; soundfile reads it back for the
    mix and the player. Written atomically, so a cancelled extraction leaves nothing behind.
    """
    import soundfile as sf

    video = project.video_path()
    if video is None:
        raise MediaError(Phrase(phrases.NO_VIDEO_FOR_GUIDE), ErrorCode.NO_AUDIO_STREAM)
    info = project.video
    assert info is not None
    if not info.audio_streams:
        raise MediaError(Phrase(phrases.NO_AUDIO_STREAM, file=info.path), ErrorCode.NO_AUDIO_STREAM)
    stream = info.dialogue_audio() if stream_index is None else next(
        (s for s in info.audio_streams if s.index == stream_index), None)
    if stream is None:
        raise MediaError(Phrase(phrases.NO_AUDIO_STREAM_NUMBER, file=info.path, index=stream_index),
                         ErrorCode.NO_AUDIO_STREAM)
    channels = 1 if stream.channels == 1 else 2
    target = project.media_dir / GUIDE_FILE

    def write(handle: IO[bytes]) -> None:
        with sf.SoundFile(handle, "w", samplerate=stream.sample_rate, channels=channels, format="FLAC",
                          subtype="PCM_16") as out:
            decode_audio(video, stream.index, on_block=lambda block: out.write(np.clip(block, -1.0, 1.0)),
                         progress=progress, cancelled=cancelled)

    write_atomically(target, write, inside=project.root)
    return relative_to_root(project.root, target)

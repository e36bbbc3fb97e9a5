"""Audio in and out, once for the whole tree: read a file as float32 (mono, at a rate), resample,
decode a media file's audio stream block by block, write a WAV, and a file's digest.

- **Two decoders, one per kind of file.** libsndfile (soundfile) reads what it reads exactly:
  WAV, FLAC, Ogg, AIFF and the other uncompressed formats. FFmpeg (PyAV) reads the rest: MP3,
  AAC, Opus in MP4/MKV, the audio of any video container. libsndfile reads MP3 too, but it goes
  to FFmpeg like every other lossy codec but Ogg's, so a compressed file has one decoder.
- **Safe opening.** Every file is opened with :func:`engine.core.files.open_regular_file`: a named pipe,
  a device or a folder raises :class:`engine.core.files.FileError` at once instead of blocking a
  decoder for ever. Audio that no decoder reads raises :class:`AudioError` (a RuntimeError, as
  soundfile's own errors are), which each caller words with its own code (E_CLIP_UNREADABLE,
  E_TAKE_UNREADABLE, E_VIDEO_UNREADABLE, E_AUDIO_UNREADABLE...).
- **Samples as decoded.** NaN or infinite samples of a float file come back as they are: the
  caller decides (a reference clip refuses them as not valid audio, the recogniser zeroes them).
- **Mono** is the mean of the channels; FFmpeg first downmixes more than two to stereo.
- **A video's audio is timed from its first picture**, as a player shows it: a track that
  starts later (a phone's, a camera's, an edited file's) is preceded by that much silence, one
  that starts earlier loses what plays before the picture, so times heard in it (a
  transcription's lines, the guide track, the music and effects) are times in the picture.
- **Resampling** is soxr at one quality, :data:`RESAMPLE_QUALITY`, which every caller used.
- **Writing** a WAV is :func:`engine.core.files.atomic_write_wav` (temp file, fsync, rename),
  re-exported here so audio has one module to go to.
- :func:`file_digest` is a file's SHA-256, kept for (real path, size, mtime) so that tables
  polling a clip, the voice cache and the remote client's uploads hash a file once.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from engine.core import files
from engine.core.files import atomic_write_wav, open_regular_file

if TYPE_CHECKING:
    from types import TracebackType

    from av.audio.frame import AudioFrame
    from av.container import InputContainer

RESAMPLE_QUALITY = "HQ"  # soxr's band-limited "high quality"; every caller used it
SEEK_MARGIN_S = 1.0  # a seek aims this far before the start asked for
FFMPEG_FORMATS = frozenset({"MP3"})  # formats libsndfile also reads that FFmpeg decodes instead
CANCELLED_DB = -20.0  # the channels' mean this far under the loudest channel: they cancel out
# Frames a downmix reads and squares at a time: a 2-hour stereo guide track read whole and squared
# in float64 made the studio's timeline peak at 9.5 GB opening it (docs/audio.md).
POWER_BLOCK_FRAMES = 1 << 16
# A file whose header says it holds no frames, yet is larger than any header, was written by a
# recorder that never went back to fill in the sizes (0 in a WAV's RIFF and data fields):
# libsndfile believes the header, FFmpeg reads the samples to the end of the file.
UNFILLED_HEADER_BYTES = 4096
DIGEST_CACHE_SIZE = 1024  # files whose digest is kept; far more than a project's clips
_DIGEST_BLOCK = 1 << 20


class AudioError(RuntimeError):
    """Audio no decoder reads, a stream that breaks off, or a file without an audio stream.

    ``str()`` is the decoder's whole message; ``reason`` its short reason ("Format not
    recognised.", "Invalid data found when processing input") for a caller's own sentence.
    """

    def __init__(self, message: str, reason: str | None = None, *, no_stream: bool = False) -> None:
        super().__init__(message)
        self.reason = reason or message
        self.no_stream = no_stream


@dataclass(frozen=True)
class AudioInfo:
    """What a file holds, read without decoding it (FFmpeg's frame count is the container's
    estimate of its duration, or counted by decoding when the container gives none)."""

    sample_rate: int
    frames: int
    channels: int

    @property
    def duration_s(self) -> float:
        return self.frames / self.sample_rate if self.sample_rate > 0 else 0.0


def _ffmpeg_error(error: Exception) -> AudioError:
    """FFmpeg's reason alone: PyAV adds the file's name to it, which for a handle we opened is
    its descriptor number ("Invalid data found when processing input: '4'")."""
    reason = getattr(error, "strerror", None) or str(error)
    return AudioError(reason, reason)


def open_container(handle: IO[bytes], path: Path) -> InputContainer:
    """FFmpeg (PyAV) reading a file we opened (:func:`engine.core.files.open_regular_file`);
    AudioError in words a caller can put after the file's name: an empty file says so."""
    import av

    if os.fstat(handle.fileno()).st_size == 0:
        raise AudioError(f"{path.name} is empty (0 bytes)", "the file is empty (0 bytes)")
    try:
        return av.open(handle, "r", metadata_errors="replace")
    except (av.FFmpegError, UnicodeDecodeError, ValueError) as error:
        raise _ffmpeg_error(error) from error


def _soundfile_info(path: str | os.PathLike[str]) -> Any:
    """soundfile's info when libsndfile is the file's decoder, else None (FFmpeg is)."""
    try:
        info = files.audio_info(path)
    except RuntimeError:  # soundfile's errors (LibsndfileError among them): not a format it reads
        return None
    if info.frames == 0 and os.path.getsize(path) > UNFILLED_HEADER_BYTES:
        return None
    return None if info.format in FFMPEG_FORMATS else info


class AudioStream:
    """One audio stream of a media file (the first by default), decoded by FFmpeg block by block,
    timed from the file's first picture when it has one (``lead_s``: how much later the sound starts).

    ``with AudioStream(path) as stream: for block in stream.blocks(): ...``. Opening raises
    FileError (not a regular file, missing) or AudioError (FFmpeg cannot read it; ``no_stream``
    when it holds no such stream).
    """

    def __init__(self, path: str | os.PathLike[str], stream_index: int | None = None) -> None:

        self.path = Path(path)
        self._handle = open_regular_file(path)
        try:
            self._container = open_container(self._handle, self.path)
        except AudioError:
            self._handle.close()
            raise
        streams = list(self._container.streams.audio)
        stream = (streams[0] if streams else None) if stream_index is None else next(
            (s for s in streams if s.index == stream_index), None)
        if stream is None:
            self.close()
            which = "" if stream_index is None else f" #{stream_index}"
            raise AudioError(f"{self.path.name} has no audio stream{which}", no_stream=True)
        self._stream = stream
        self.sample_rate = int(stream.codec_context.sample_rate or 0)
        self.channels = 1 if stream.codec_context.channels == 1 else 2  # what blocks carry, unless mono
        if stream.duration is not None and stream.time_base is not None:
            self.duration_s: float | None = float(stream.duration * stream.time_base)
        else:
            self.duration_s = self._container.duration / 1_000_000 if self._container.duration else None
        self.position_s = 0.0  # the time of the last frame decoded (for progress)
        self.lead_s = picture_lead_s(self._container, stream)

    def blocks(self, *, mono: bool = False, rate: int | None = None, start_s: float = 0.0) -> Iterator[np.ndarray]:
        """The stream in order as float32 blocks: (frames, channels), or (frames,) with ``mono``;
        resampled to ``rate`` (soxr, as :func:`resample`) when given. With ``start_s``, the first
        block starts there: the file is sought to a frame before it, so a line late in a long
        video does not decode the hours before it. Times count from the first picture
        (``lead_s``). AudioError when it breaks off."""
        import av

        if self.sample_rate <= 0:
            raise AudioError(f"the audio stream of {self.path.name} has no sample rate")
        layout = "mono" if self.channels == 1 else "stereo"
        converter = av.AudioResampler(format="fltp", layout=layout, rate=self.sample_rate)
        resampler = None
        if rate is not None and rate != self.sample_rate:
            import soxr

            resampler = soxr.ResampleStream(self.sample_rate, rate, 1 if mono else self.channels, dtype="float32",
                                            quality=RESAMPLE_QUALITY)
        from_stream_s = max(0.0, start_s) - self.lead_s  # where start_s is in the stream's own time
        frames, skip = self._frames_from(max(0.0, from_stream_s))
        # The picture shows before the sound starts: silence until it does.
        silence = np.zeros((max(0, round(-from_stream_s * self.sample_rate)), self.channels), np.float32)

        def shaped(blocks: Iterable[np.ndarray]) -> Iterator[np.ndarray]:
            nonlocal skip
            for block in blocks:
                block = block.mean(axis=1) if mono else block
                if skip:  # the samples before start_s in the frames the seek landed on
                    dropped = min(skip, len(block))
                    block, skip = block[dropped:], skip - dropped
                yield block if resampler is None else resampler.resample_chunk(block)

        try:
            if silence.size:
                yield from shaped([silence])
            for frame in frames:
                if frame.time is not None:
                    self.position_s = float(frame.time)
                yield from shaped(_samples(converter.resample(frame)))
            yield from shaped(_samples(converter.resample(None)))
        except av.FFmpegError as error:
            raise _ffmpeg_error(error) from error
        if resampler is not None:  # what soxr still holds
            yield resampler.resample_chunk(np.zeros((0,) if mono else (0, self.channels), np.float32), last=True)

    def _frames_from(self, start_s: float) -> tuple[Iterator[AudioFrame], int]:
        """Decoded frames from one at or before ``start_s``, and how many samples of them come
        before it. Sought to SEEK_MARGIN_S earlier (seeking lands on a packet, not a sample);
        where the file cannot say where it landed, or landed late, decoded from the start."""
        import av

        time_base = self._stream.time_base
        if start_s > SEEK_MARGIN_S and time_base is not None:
            # Times count from the stream's first sample, as a decoding from the start counts them.
            origin = float((self._stream.start_time or 0) * time_base)
            at = start_s + origin
            try:
                self._container.seek(int((at - SEEK_MARGIN_S) / time_base), stream=self._stream, backward=True)
                frames = self._container.decode(self._stream)
                first = next(frames, None)
                if first is None or first.time is None or first.time > at:
                    raise ValueError("landed where the start cannot be found")
                late = max(0, round(start_s * self.sample_rate) - round((float(first.time) - origin) * self.sample_rate))
                return itertools.chain([first], frames), late
            except (av.FFmpegError, ValueError):
                self._container.seek(0, stream=self._stream)
        return self._container.decode(self._stream), round(start_s * self.sample_rate)

    def close(self) -> None:
        self._container.close()
        self._handle.close()

    def __enter__(self) -> AudioStream:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def _samples(frames: Iterable[AudioFrame]) -> Iterator[np.ndarray]:
    """Decoded frames as float32 (frames, channels) blocks."""
    for frame in frames:
        yield frame.to_ndarray().T.astype(np.float32, copy=False)


def picture_lead_s(container: InputContainer, audio: Any) -> float:
    """How much later the stream ``audio`` starts than the container's first picture, in seconds
    (negative: earlier); 0 without a picture (a music file's cover picture is none: it is not
    shown in time). Audio decoded from its first sample is placed on the picture's clock by it."""
    import av

    def start(stream: Any) -> float | None:
        if stream.start_time is None or stream.time_base is None:
            return None
        return float(stream.start_time * stream.time_base)

    pictures = [s for s in container.streams.video if not s.disposition & av.stream.Disposition.attached_pic]
    picture = start(pictures[0]) if pictures else None
    sound = start(audio)
    return 0.0 if picture is None or sound is None else sound - picture


def audio_info(path: str | os.PathLike[str]) -> AudioInfo:
    """The rate, length and channels of any audio file (see the module's notes on decoders)."""
    info = _soundfile_info(path)
    if info is not None:
        return AudioInfo(int(info.samplerate), int(info.frames), int(info.channels))
    with AudioStream(path) as stream:
        if stream.duration_s is not None and stream.sample_rate > 0:
            return AudioInfo(stream.sample_rate, round(stream.duration_s * stream.sample_rate), stream.channels)
        frames = sum(len(block) for block in stream.blocks())
        return AudioInfo(stream.sample_rate, frames, stream.channels)


def _downmix(data: np.ndarray) -> np.ndarray:
    """The mean of the channels; but where that mean loses nearly all the sound (its RMS
    CANCELLED_DB under the loudest channel's: one channel wired with its polarity flipped, a
    "wide stereo" effect), the loudest channel alone, which is what a listener hears."""
    return _downmixed(lambda: (data[at : at + POWER_BLOCK_FRAMES] for at in range(0, len(data), POWER_BLOCK_FRAMES)),
                      len(data), data.shape[1])


def _downmixed(blocks: Callable[[], Iterable[np.ndarray]], frames: int, channels: int) -> np.ndarray:
    """:func:`_downmix` of the (frames, channels) blocks ``blocks()`` gives, about ``frames`` in
    all, holding only the result and a block: a 2-hour stereo guide track read whole to be
    downmixed took 2.8 GB beside its mean. The loudest channel, where the mean cancels, is read
    in a second pass."""
    mean = np.empty(frames, np.float32)
    channel_power, mean_power, filled = np.zeros(channels), 0.0, 0
    for block in blocks():
        part = block.mean(axis=1, dtype=np.float32)
        if filled + len(part) > len(mean):  # more than the header said
            mean = np.concatenate([mean[:filled], np.empty(len(part), np.float32)])
        mean[filled : filled + len(part)] = part
        filled += len(part)
        channel_power += np.sum(np.square(block, dtype=np.float64), axis=0)
        mean_power += float(np.sum(np.square(part, dtype=np.float64)))
    mean = mean[:filled]
    if channels < 2 or not filled:
        return mean
    loudest = int(np.argmax(channel_power))
    if mean_power < channel_power[loudest] * 10 ** (CANCELLED_DB / 10):
        return np.concatenate([np.ascontiguousarray(block[:, loudest]) for block in blocks()])
    return mean


def _soundfile_blocks(path: str | os.PathLike[str], start: int, stop: int | None) -> Iterator[np.ndarray]:
    """Frames ``start`` to ``stop`` of a file libsndfile reads, as float32 (frames, channels) blocks."""
    import soundfile as sf

    with files.open_regular_file(path) as handle:
        try:
            yield from sf.blocks(handle, POWER_BLOCK_FRAMES, start=start, stop=stop, dtype="float32", always_2d=True)
        except RuntimeError as error:  # soundfile's: a file that breaks off
            raise AudioError(str(error), getattr(error, "error_string", None)) from error


def read_audio(path: str | os.PathLike[str], rate: int | None = None, *, mono: bool = True,
               start: int = 0, stop: int | None = None) -> tuple[np.ndarray, int]:
    """Any audio file as float32 samples and their rate: (frames,) with ``mono``, else
    (frames, channels); frames ``start`` to ``stop`` of the file's own rate (all by default),
    then resampled to ``rate`` when given.

    FileError for a file that is missing or not a regular file, AudioError for one no decoder reads.
    """
    data: np.ndarray
    info = _soundfile_info(path)
    if info is not None and mono and info.channels > 1:  # downmixed as read: the file is never held whole
        frames = max(0, min(info.frames, info.frames if stop is None else stop) - start)
        audio = _downmixed(lambda: _soundfile_blocks(path, start, stop), frames, int(info.channels))
        source_rate = int(info.samplerate)
        return (resample(audio, source_rate, rate), int(rate)) if rate is not None and rate != source_rate else (audio, source_rate)
    if info is not None:
        try:
            data, source_rate = files.read_audio(path, start=start, stop=stop, dtype="float32", always_2d=True)
        except RuntimeError as error:  # soundfile's: a file that breaks off
            raise AudioError(str(error), getattr(error, "error_string", None)) from error
    else:
        with AudioStream(path) as stream:
            blocks = list(stream.blocks())
            source_rate = stream.sample_rate
            data = np.concatenate(blocks) if blocks else np.zeros((0, stream.channels), np.float32)
        data = data[start:stop]
    audio = _downmix(data) if mono else data
    if rate is not None and rate != source_rate:
        return resample(audio, source_rate, rate), int(rate)
    return audio, int(source_rate)


def resample(audio: np.ndarray, from_rate: float, to_rate: float) -> npt.NDArray[np.float32]:
    """``audio`` ((frames,) or (frames, channels)) from one rate to another as float32, with soxr
    at :data:`RESAMPLE_QUALITY`; the same rate, or no samples, is only made float32."""
    if from_rate == to_rate or np.size(audio) == 0:
        return np.asarray(audio, dtype=np.float32)
    import soxr

    resampled = cast(np.ndarray, soxr.resample(audio, from_rate, to_rate, quality=RESAMPLE_QUALITY))  # soxr is untyped
    return resampled.astype(np.float32, copy=False)


_digests: OrderedDict[tuple[str, int, int], str] = OrderedDict()
_digests_lock = threading.Lock()


def file_digest(path: str | os.PathLike[str]) -> str:
    """The SHA-256 (hex) of a file's content, kept for its (real path, size, mtime_ns) so it is
    read once however often it is asked for. OSError when it is missing, FileError (an
    OSError) when it is not a regular file: a clip that is a pipe is refused, never waited on."""
    stat = os.stat(path)
    stamp = (os.path.realpath(path), stat.st_size, stat.st_mtime_ns)
    with _digests_lock:
        digest = _digests.get(stamp)
        if digest is not None:
            _digests.move_to_end(stamp)
            return digest
    hasher = hashlib.sha256()
    with open_regular_file(path) as handle:
        for block in iter(lambda: handle.read(_DIGEST_BLOCK), b""):
            hasher.update(block)
    digest = hasher.hexdigest()
    with _digests_lock:
        _digests[stamp] = digest
        while len(_digests) > DIGEST_CACHE_SIZE:
            _digests.popitem(last=False)
    return digest


__all__ = [
    "DIGEST_CACHE_SIZE",
    "FFMPEG_FORMATS",
    "RESAMPLE_QUALITY",
    "AudioError",
    "AudioInfo",
    "AudioStream",
    "atomic_write_wav",
    "audio_info",
    "file_digest",
    "read_audio",
    "resample",
]

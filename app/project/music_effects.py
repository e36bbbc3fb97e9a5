"""Music and effects (M&E) from the source's own channels: the soundtrack without its dialogue.

Film and TV mixes put dialogue in the centre. Two ways to take it out, chosen by what the
source has (:func:`music_and_effects`):

- **5.1 and wider** (:data:`DROP_CENTRE`): the centre channel is dropped and the rest folded
  down to stereo (ITU-R BS.775 coefficients: surrounds at −3 dB; the LFE is left out, as a
  stereo fold-down usually does). Dialogue that was mixed only to the centre is gone entirely.
- **stereo** (:data:`CENTRE_FILTER`): a centre-extraction filter. In each short-time spectral
  bin the two channels' similarity (Avendano and Jot's inter-channel coherence, 1 when left and
  right are identical, 0 when unrelated or opposite) decides how much of the mid signal
  (L + R) / 2 is taken out of both channels. It removes what is identical in both channels
  and keeps what is not, so centred music (a bass, a lead vocal) goes with the dialogue and
  a dialogue with stereo reverb leaves its reverb. The figures on built mixes are in
  docs/video.md ("The soundtrack without the dialogue").

Mono sources cannot be separated by channels (:func:`music_and_effects` refuses them).

- **a separation model** (``phrases.ME_SEPARATED``, the project's ``music_effects_source``
  "model"): a downloaded plug-in (engine.hearing.separation) hears the voices wherever they
  sit, mono included, and the M&E is the mix without them. It is slow (about real time on
  a CPU), so :func:`separate_music_effects` keeps its result in the project
  (:data:`SEPARATED_FILE`, with the source and model it was made from) and every later mix
  reuses it; the studio runs it ahead with progress and Cancel.

A client's own M&E stem, where there is one, beats both: :func:`import_stem` checks it against
the video (rate, length) and keeps it in the project as :data:`STEM_FILE`; the mix then uses it
(:data:`CLIENT_STEM`) instead of any channel method. :class:`RemoveStem` takes it out again (one
undo step): the mix goes back to the original-audio choice the project had before the import
(:data:`STEM_KEY_FILE`), and the file is set aside in :data:`REMOVED_STEMS_DIR`, never deleted, as
a removed video stays on disk.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import numpy as np

from app.project import phrases
from app.project.errors import ExportError, MediaError, OperationCancelled, SaveError
from app.project.fsutil import (
    atomic_write,
    atomic_write_text,
    atomic_write_wav,
    bound_to,
)
from app.project.media import open_media
from app.project.model import GUIDE_MIXES, ProjectSettings, new_id
from app.project.phrases import Phrase
from app.project.project import Project
from app.project.undo import Change, Command
from engine.core.audio_io import (
    AudioError,
    AudioStream,
    audio_info,
    picture_lead_s,
    read_audio,
)
from engine.core.codes import EngineError, ErrorCode
from engine.core.files import FileError
from engine.hearing.separation import (
    DEFAULT_SEPARATION_MODEL,
    SeparationModelSpec,
    Separator,
    separation_model_path,
    separation_spec,
)

# How the M&E was made, as the export's report says it ("M&E: client stem"), in the studio's language too.
CLIENT_STEM = Phrase(phrases.ME_CLIENT_STEM)
DROP_CENTRE = Phrase(phrases.ME_DROP_CENTRE)
CENTRE_FILTER = Phrase(phrases.ME_CENTRE_FILTER)
SEGMENT_S = 5.0  # a long track's centre is filtered this many seconds at a time
FRAME = 2048  # STFT frame at 48 kHz: 43 ms, fine enough in frequency to part voice from music
SIMILARITY_POWER = 2  # how sharply only near-identical bins go (2 measured best of 2, 4, 8, 16: docs/video.md)
_SURROUND_GAIN = np.float32(10 ** (-3 / 20))
STEM_FILE = "media/music_effects.wav"  # the imported stem, inside the project
STEM_KEY_FILE = "media/music_effects.json"  # where it came from and the original-audio choice before it (data)
REMOVED_STEMS_DIR = "media/removed"  # removed stems, each under a name of its own: undo brings one back
SEPARATED_FILE = "media/music_effects.separated.wav"  # a separation model's M&E, kept for the next mix
SEPARATED_KEY_FILE = "media/music_effects.separated.json"  # what it was made from (data, read as JSON)
MIN_STEM_RATE = 44_100  # a delivery stem below this has lost the top of the music
STEM_LENGTH_TOLERANCE_S = 0.1  # how far a stem's end may sit from the video's (about 2 frames)


def drop_centre(channels: np.ndarray, layout: tuple[str, ...]) -> np.ndarray:
    """A 5.1/7.1 block (n, channels) named by FFmpeg's ``layout`` ("FL", "FR", "FC", "LFE",
    "BL"/"SL"...) folded to stereo (n, 2) without its centre channel."""
    index = {name: n for n, name in enumerate(layout)}
    if "FC" not in index or "FL" not in index or "FR" not in index:
        raise ExportError(Phrase(phrases.NO_FRONT_CENTRE, count=len(layout), layout=", ".join(layout)))
    left = channels[:, index["FL"]].astype(np.float32, copy=True)
    right = channels[:, index["FR"]].astype(np.float32, copy=True)
    for side, target in (("L", left), ("R", right)):
        for name in (f"B{side}", f"S{side}"):
            if name in index:
                target += _SURROUND_GAIN * channels[:, index[name]]
    return np.stack([left, right], axis=1)


def _filter_frame(rate: int) -> int:
    return max(256, int(round(FRAME * rate / 48_000)))


def remove_centre(stereo: np.ndarray, rate: int) -> np.ndarray:
    """``stereo`` (n, 2) with what is identical in both channels taken out, as (n, 2)."""
    from scipy.signal import istft, stft

    frame = _filter_frame(rate)
    _, _, spectra = stft(stereo.T, fs=rate, nperseg=frame, noverlap=frame * 3 // 4)
    left, right = spectra[0], spectra[1]
    power = np.abs(left) ** 2 + np.abs(right) ** 2
    similarity = 2 * np.real(left * np.conj(right)) / np.maximum(power, 1e-20)  # 1: identical, ≤0: opposite
    centre = np.clip(similarity, 0.0, 1.0) ** SIMILARITY_POWER * (left + right) / 2
    _, out = istft(np.stack([left - centre, right - centre]), fs=rate, nperseg=frame, noverlap=frame * 3 // 4)
    result = np.zeros_like(stereo, dtype=np.float32)
    length = min(stereo.shape[0], out.shape[1])
    result[:length] = out[:, :length].T
    return result


def _centre_removed(blocks: Iterator[np.ndarray], rate: int) -> Iterator[np.ndarray]:
    """:func:`remove_centre` of a long stereo track given in blocks, :data:`SEGMENT_S` at a
    time: each segment is filtered with a frame's margin of its neighbours on both sides, on
    the whole track's frame grid, so the samples kept are those the whole track would give."""
    hop = _filter_frame(rate) // 4
    segment, margin = hop * max(1, round(SEGMENT_S * rate / hop)), 4 * hop
    pending = np.zeros((0, 2), dtype=np.float32)
    start = done = 0  # the first sample ``pending`` holds; the samples given out
    for block in itertools.chain(blocks, [None]):
        if block is not None:
            pending = np.concatenate([pending, block[:, :2]])
        end = start + len(pending)
        while done < end and (block is None or end >= done + segment + margin):
            first = max(0, done - margin)
            filtered = remove_centre(pending[first - start : done + segment + margin - start], rate)
            out = filtered[done - first : done - first + segment]
            yield out
            done += len(out)
            keep = max(0, done - margin)
            pending, start = pending[keep - start :], keep


def original_layout(path: Path, stream_index: int | None = None) -> tuple[str, ...]:
    """The channel names of audio stream ``stream_index`` of ``path`` (its first by default);
    ExportError for a mono track, which channels cannot part, MediaError without audio."""
    with open_media(path) as container:
        if not container.streams.audio:
            raise MediaError(Phrase(phrases.NO_AUDIO_FOR_STEM, file=path.name), ErrorCode.NO_AUDIO_STREAM)
        stream = next((s for s in container.streams.audio if s.index == stream_index), container.streams.audio[0])
        layout = tuple(channel.name for channel in stream.layout.channels)
    if len(layout) < 2:
        raise ExportError(Phrase(phrases.MONO_ORIGINAL, file=path.name))
    return layout


def music_and_effects_method(layout: tuple[str, ...]) -> Phrase:
    """How the M&E of a track of ``layout`` is made: :data:`DROP_CENTRE` or :data:`CENTRE_FILTER`."""
    return DROP_CENTRE if len(layout) >= 6 else CENTRE_FILTER


def music_and_effects_blocks(path: Path, rate: int, stream_index: int | None = None) -> Iterator[np.ndarray]:
    """The M&E of audio stream ``stream_index`` of ``path`` at ``rate`` as (n, 2) float32 blocks,
    decoded and parted as they are asked for (a 2-hour track whole, filtered at once, needed
    more than 16 GB), timed from the first picture as the dub is."""
    import av

    layout = original_layout(path, stream_index)
    with open_media(path) as container:
        stream = next((s for s in container.streams.audio if s.index == stream_index), container.streams.audio[0])
        # Packed samples: PyAV 18 counts a ninth plane in an eight-channel (7.1) planar frame
        # and reads past its end (a segmentation fault).
        resampler = av.AudioResampler(format="flt", layout=stream.layout, rate=rate)
        lead = round(picture_lead_s(container, stream) * rate)

        def decoded() -> Iterator[np.ndarray]:
            skip = max(0, -lead)  # sound before the first picture is left out
            if lead > 0:
                yield np.zeros((lead, len(layout)), np.float32)
            frames = itertools.chain.from_iterable(resampler.resample(packet) for packet in container.decode(stream))
            for frame in itertools.chain(frames, resampler.resample(None)):
                block = frame.to_ndarray().reshape(-1, len(layout))
                dropped = min(skip, len(block))
                skip -= dropped
                if len(block) > dropped:
                    yield np.ascontiguousarray(block[dropped:], dtype=np.float32)

        if len(layout) >= 6:
            yield from (drop_centre(block, layout) for block in decoded())
        else:
            yield from _centre_removed(decoded(), rate)


def music_and_effects(path: Path, rate: int, stream_index: int | None = None) -> tuple[np.ndarray, str]:
    """The M&E of audio stream ``stream_index`` of ``path`` (its first by default) at ``rate`` as
    (n, 2) float32, whole, and how it was made (:data:`DROP_CENTRE` or :data:`CENTRE_FILTER`).
    ExportError for a mono track."""
    method = music_and_effects_method(original_layout(path, stream_index))
    blocks = list(music_and_effects_blocks(path, rate, stream_index))
    return (np.concatenate(blocks) if blocks else np.zeros((0, 2), np.float32)), method


def import_stem(project: Project, source: Path) -> Path:
    """Check a client's M&E stem against the project's video and keep it as :data:`STEM_FILE`
    (32-bit float WAV, its own rate and channels); ExportError with a code otherwise."""
    if project.video is None:
        raise ExportError(Phrase(phrases.STEM_WITHOUT_VIDEO))
    try:
        info = audio_info(source)
    except (AudioError, OSError) as error:
        raise ExportError(Phrase(phrases.CANNOT_READ_STEM, file=source.name, error=str(error)), ErrorCode.READ_FAILED) from error
    if info.sample_rate < MIN_STEM_RATE:
        raise ExportError(Phrase(phrases.STEM_RATE_TOO_LOW, file=source.name, rate=info.sample_rate, needed=MIN_STEM_RATE),
                          ErrorCode.STEM_MISMATCH)
    if abs(info.duration_s - project.video.duration_s) > STEM_LENGTH_TOLERANCE_S:
        raise ExportError(Phrase(phrases.STEM_LENGTH, file=source.name, seconds=info.duration_s,
                                 video=project.video.duration_s), ErrorCode.STEM_MISMATCH)
    audio, rate = read_audio(source, mono=False)
    target = project.root / STEM_FILE
    before = project.settings.guide_mix
    if before == "music-effects" and target.is_file():
        before = _guide_mix_before_stem(project)  # a stem replacing a stem: the choice before the first
    kept = atomic_write_wav(target, audio, rate, "FLOAT", inside=bound_to(project.root, target))
    key = project.root / STEM_KEY_FILE
    atomic_write_text(key, json.dumps({"source": source.name, "guide_mix_before": before}) + "\n",
                      inside=bound_to(project.root, key))
    return kept


def _guide_mix_before_stem(project: Project) -> str:
    """The original-audio choice the project had before its stem was imported ("replace" when a
    stem imported before this was recorded)."""
    try:
        before = json.loads((project.root / STEM_KEY_FILE).read_text(encoding="utf-8"))["guide_mix_before"]
    except (OSError, ValueError, KeyError, TypeError):
        return ProjectSettings().guide_mix
    return before if before in GUIDE_MIXES else ProjectSettings().guide_mix


class RemoveStem(Command):
    """Take the imported M&E stem out of the project (one undo step): the mix goes back to the
    original-audio choice before the import, and the file is moved to :data:`REMOVED_STEMS_DIR`
    under a name of its own, so undo puts it back and nothing is lost."""

    def __init__(self) -> None:
        self.text = Phrase(phrases.REMOVE_STEM)
        self.set_aside: Path | None = None
        self.old_guide_mix: str | None = None

    def do(self, project: Project) -> Change:
        stem = project.root / STEM_FILE
        if not stem.is_file():
            raise ExportError(Phrase(phrases.NO_STEM), ErrorCode.INVALID_VALUE)
        before = _guide_mix_before_stem(project)
        folder = project.root / REMOVED_STEMS_DIR
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self.set_aside = folder / f"music_effects-{new_id()}.wav"
            os.replace(stem, self.set_aside)
        except OSError as error:
            raise SaveError(Phrase(phrases.CANNOT_SAVE, file=STEM_FILE, error=str(error)), ErrorCode.SAVE_FAILED) from error
        self.old_guide_mix = project.settings.guide_mix
        if self.old_guide_mix == "music-effects":
            project.settings.guide_mix = before
        return Change(frozenset(line.id for line in project.lines), project=True)

    def undo(self, project: Project) -> Change:
        assert self.set_aside is not None and self.old_guide_mix is not None
        stem = project.root / STEM_FILE
        if stem.is_file():  # a stem imported since: set aside too, never overwritten
            os.replace(stem, self.set_aside.with_name(f"music_effects-{new_id()}.wav"))
        os.replace(self.set_aside, stem)
        project.settings.guide_mix = self.old_guide_mix
        return Change(frozenset(line.id for line in project.lines), project=True)


def imported_stem(project: Project) -> Path | None:
    """The imported stem's file, or None when the project has none (the mix reads it as it goes)."""
    path = project.root / STEM_FILE
    return path if path.is_file() else None


def original_audio(project: Project) -> Path | None:
    """The audio music and effects are taken from: the video's, else the guide track; None without either."""
    if project.video is not None and project.video.audio_streams:
        return project.video_path()
    return project.guide_path()


# --- by a separation model -------------------------------------------------------------------------


def original_stream(project: Project, source: Path) -> int | None:
    """The audio stream of ``source`` (:func:`original_audio`) that music and effects are made
    from: the dialogue track chosen for the project's video (a client's file may hold a dub
    first), None for the first (a guide track, or a video whose first track is the dialogue)."""
    video = project.video
    if video is None or video.dialogue_stream is None or source != project.video_path():
        return None
    chosen = video.dialogue_audio()
    return None if chosen is None else chosen.index


def _separation_key(source: Path, spec: SeparationModelSpec, stream: int | None = None) -> dict[str, object]:
    """What a separated M&E was made from: the source file as it was, its audio stream, the model."""
    info = source.stat()
    key: dict[str, object] = {"source": source.name, "size": info.st_size, "mtime_ns": info.st_mtime_ns,
                              "model": spec.name, "model_sha256": spec.sha256}
    if stream is not None:  # only when chosen: a separation of a first track kept before stays valid
        key["stream"] = stream
    return key


def _kept_separation(project: Project, key: dict[str, object]) -> Path | None:
    target, stored = project.root / SEPARATED_FILE, project.root / SEPARATED_KEY_FILE
    try:
        if target.is_file() and json.loads(stored.read_text(encoding="utf-8")) == key:
            return target
    except (OSError, ValueError):
        pass  # no key, or a damaged one: made again
    return None


def _decoded(path: Path, stream_index: int | None, rate: int,
             cancelled: Callable[[], bool] | None) -> Iterator[np.ndarray]:
    """Audio stream ``stream_index`` of ``path`` (the first by default) at ``rate``, block by
    block, timed from the first picture as the dub is: mono as it is (the separator puts it in
    both channels at full level, not FFmpeg's −3 dB upmix), wider downmixed to stereo."""
    try:
        with AudioStream(path, stream_index) as stream:
            for block in stream.blocks(rate=rate):
                if cancelled is not None and cancelled():
                    raise OperationCancelled(Phrase(phrases.SEPARATION_CANCELLED))
                yield block
    except AudioError as error:
        if error.no_stream:
            raise MediaError(Phrase(phrases.NO_AUDIO_FOR_STEM, file=path.name), ErrorCode.NO_AUDIO_STREAM) from None
        raise ExportError(Phrase(phrases.CANNOT_READ_ORIGINAL, file=path.name, error=str(error))) from error
    except FileError as error:
        raise ExportError(Phrase(phrases.CANNOT_READ_ORIGINAL, file=path.name, error=error.message)) from error


def separate_music_effects(
    project: Project,
    source: Path,
    spec: SeparationModelSpec | None = None,
    progress: Callable[[float], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    threads: int | None = None,
) -> Path:
    """The M&E of ``source`` (the project's video or guide) by separation model ``spec`` (the
    default one), kept as :data:`SEPARATED_FILE` at the model's rate: made once, then reused
    while the source and the model are the same. ExportError (E_SEPARATION_MODEL_MISSING) when the
    model is not downloaded; OperationCancelled, with nothing written, when ``cancelled``."""
    spec = separation_spec(DEFAULT_SEPARATION_MODEL) if spec is None else spec
    stream = original_stream(project, source)
    key = _separation_key(source, spec, stream)
    kept = _kept_separation(project, key)
    if kept is not None:
        return kept
    try:
        separator = Separator(separation_model_path(spec), spec, threads)
    except EngineError as error:
        raise ExportError(str(error).split(": ", 1)[-1], error.code) from None
    try:
        total = max(1, int(audio_info(source).duration_s * spec.sample_rate))
    except (AudioError, OSError) as error:
        raise ExportError(Phrase(phrases.CANNOT_READ_ORIGINAL, file=source.name, error=str(error))) from error

    def write(handle: IO[bytes]) -> None:
        """The M&E streamed into the file as it is separated: memory holds a few seconds, not the film."""
        import soundfile as sf

        done = 0
        with sf.SoundFile(handle, "w", spec.sample_rate, 2, "FLOAT", format="WAV") as out:
            try:
                for part in separator.separate(_decoded(source, stream, spec.sample_rate, cancelled)):
                    out.write(part.rest)
                    done += len(part.mix)
                    if progress is not None:
                        progress(min(1.0, done / total))
            except OperationCancelled as stop:
                stopped.append(stop)
                raise

    stopped: list[OperationCancelled] = []  # the writer reports a cancel as a failed write: said as what it is
    target = project.root / SEPARATED_FILE
    try:
        atomic_write(target, write, inside=bound_to(project.root, target))
    except SaveError:
        if stopped:
            raise stopped[0] from None
        raise
    key_file = project.root / SEPARATED_KEY_FILE
    atomic_write_text(key_file, json.dumps(key), inside=bound_to(project.root, key_file))
    return target


def check_music_effects(project: Project) -> None:
    """Before a render: an M&E to be made by a separation model needs the model downloaded (or its
    result kept from an earlier mix); ExportError (E_SEPARATION_MODEL_MISSING) saying how to get it."""
    settings = project.settings
    if settings.guide_mix != "music-effects" or settings.music_effects_source != "model":
        return
    source = original_audio(project)
    if (project.root / STEM_FILE).is_file() or source is None or not source.is_file():
        return  # the client's stem is used; without original audio the mix says so itself
    spec = separation_spec(DEFAULT_SEPARATION_MODEL)
    if _kept_separation(project, _separation_key(source, spec, original_stream(project, source))) is None:
        try:
            separation_model_path(spec)
        except EngineError as error:
            raise ExportError(str(error).split(": ", 1)[-1], error.code) from None


def separated_music_effects(project: Project, source: Path, rate: int,
                            cancelled: Callable[[], bool] | None = None) -> tuple[np.ndarray, str]:
    """The separation model's M&E of ``source`` at ``rate`` as (n, 2) (made now unless kept), and
    how it was made (``phrases.ME_SEPARATED``, naming the model)."""
    spec = separation_spec(DEFAULT_SEPARATION_MODEL)
    path = separate_music_effects(project, source, spec, cancelled=cancelled)
    audio, _ = read_audio(path, rate, mono=False)
    return np.ascontiguousarray(audio[:, :2], dtype=np.float32), Phrase(phrases.ME_SEPARATED, model=spec.title)

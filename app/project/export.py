"""Exports made from the chosen takes: per-line WAVs, the mix, stems, and the timed script.

Everything lands in the project's ``exports/`` folder (or another folder you pass):

    exports/lines/003_Maya.wav   one file per rendered line, named by order and character
    exports/mix.wav              all takes placed on the timeline (see app.project.timeline)
    exports/stems/Maya.wav       one file per character, same length as the mix

The mix and stems are delivered at 48 kHz (takes resampled with soxr), in stereo when the
source is stereo (the dialogue centred), and exactly as long as the video when there is one.
    exports/script.srt           the script with final durations (script.vtt: as WebVTT)
    exports/script.source.srt    the same cues with each line's original text (translated lines)
    exports/script.csv           the script as a table, with final durations
    exports/<title>.mp4          the finished video (see app.project.video_export)

Loudness (see app.project.loudness): with a target set (the default, −23 LUFS), each take is
normalised to it so lines sit at one level, then the whole mix is brought to it and kept under
the true-peak ceiling. The original audio (guide track) is left out of the mix, or kept under the
dialogue and ducked while lines play, as the project's ``guide_mix`` says. Stems get the same
gains as the mix, so without limiting they add up to it exactly, which is what an editor
dropping stems into a video timeline expects; the limiter (rarely needed for speech) acts on
the mix alone. With the target off, levels stay as rendered and one gain (only lowered, when
the sum would clip) is shared by mix and stems. Overruns (takes longer than their slot) are
reported rather than cut, because cutting a word off is worse than a visible warning.

Every export is declared once in :data:`app.project.export_registry.EXPORTS` (name, label,
file filter, runner); the menus, the CLI and the file dialogs read that list.

Nothing outside what the user asked for is touched. A folder in the project (``exports/``,
``exports/stems``...) must resolve inside it, through symlinks at any depth (PathEscapeError
otherwise). The ``lines/`` and ``stems/`` folders are cleared of files from the previous export
so renamed characters or reordered lines leave nothing stale, but only of files an export
wrote: each folder keeps a manifest (``.dubstudio-export.json``) of the files DubStudio put
there, and only names listed in it are ever deleted, so a WAV of your own is never removed.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import EllipsisType
from typing import IO

import numpy as np

from app.project import phrases
from app.project.errors import ExportError, MediaError, OperationCancelled
from app.project.fit import describe_too_long
from app.project.fsutil import (
    atomic_write_text,
    atomic_write_wav,
    atomic_write_wav_blocks,
    bound_to,
    ensure_dir,
    safe_filename,
)
from app.project.limits import MAX_MEDIA_S
from app.project.loudness import (
    Level,
    Levelling,
    duck_gain,
    gain_for,
    integrated_loudness,
    measure_blocks,
    shifted,
    to_target,
)
from app.project.media import probe_video
from app.project.model import ProjectSettings, Take
from app.project.phrases import Phrase
from app.project.project import Project
from app.project.script_io import (
    has_source_text,
    script_to_ass,
    script_to_srt,
    script_to_vtt,
    write_text_export,
)
from app.project.timecode import MAX_TIME_S
from app.project.timeline import Slot, build_timeline
from engine.core import files
from engine.core.audio_io import AudioError, AudioStream, audio_info, read_audio
from engine.core.codes import ErrorCode

DELIVERY_RATE = 48_000  # what video, broadcast and streaming deliveries are made at
HEADROOM_PEAK = 0.98
GAIN_CURVE_FLOOR = 1e-4  # -80 dBFS: a sample quieter than this tells nothing of the limiter's gain
GUIDE_STEM = "guide"
MUSIC_EFFECTS_STEM = "music-effects"
MANIFEST = ".dubstudio-export.json"
MAX_MIX_S = MAX_TIME_S + 3600  # the last line may start at 24 h and run on for a while
_EXPORTED_NAME = re.compile(r"[\w.\-]+\.wav")  # what safe_filename-built names look like


@dataclass(frozen=True)
class Overrun:
    """A take that runs past where its line must end."""

    line_id: str
    order: int
    character: str
    start: float
    duration: float
    slot_end: float
    overrun_s: float

    def describe(self) -> str:
        return Phrase(phrases.OVERRUN, order=self.order, character=self.character or Phrase(phrases.NO_CHARACTER),
                      overrun=self.overrun_s, duration=self.duration, start=self.start, slot_end=self.slot_end)


@dataclass
class ExportResult:
    """What an export wrote, and what the user should know about it.

    ``level`` is the measured loudness and true peak of the mix (None for exports without
    one); ``limited`` says the true-peak limiter had to act; ``fitted`` lists the lines whose
    takes were fitted into their slot, as (order, "fitted: rate 1.12×").
    """

    files: list[Path] = field(default_factory=list)
    overruns: list[Overrun] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)  # orders of lines without a take
    duration_s: float = 0.0
    gain: float = 1.0  # applied to the whole mix (normalisation, or clipping protection)
    level: Level | None = None
    limited: bool = False
    fitted: list[tuple[int, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # anything else worth a line in a report


BLOCK_S = 10.0  # a long programme is mixed, levelled and written this many seconds at a time


class Bed:
    """What lies under the dialogue (the ducked guide, the M&E), given block by block."""

    channels: int
    length: int  # samples at the mix's rate
    made_once = False  # a pass reads it to its end, past the programme's, so that the next reads the recording

    def pieces(self) -> Iterator[np.ndarray]:
        """The bed from its start as (n, channels) float32 pieces of any size."""
        raise NotImplementedError


class HeldBed(Bed):
    """A bed computed whole (the M&E of a separation model)."""

    def __init__(self, audio: np.ndarray) -> None:
        self.audio, self.channels, self.length = audio, int(audio.shape[1]), int(audio.shape[0])

    def pieces(self) -> Iterator[np.ndarray]:
        yield self.audio


class StreamedBed(Bed):
    """A bed made as it is mixed, never whole (a 2-hour guide is 2.8 GB at 48 kHz stereo): each
    pass over the programme calls ``make`` for its pieces again; a file that cannot be read is
    refused by ``failed``."""

    def __init__(self, channels: int, length: int, make: Callable[[], Iterator[np.ndarray]],
                 failed: Callable[[Exception], ExportError]) -> None:
        self.channels, self.length, self.make, self.failed = channels, length, make, failed

    def pieces(self) -> Iterator[np.ndarray]:
        try:
            yield from self.make()
        except (AudioError, OSError) as error:
            raise self.failed(error) from error


class RecordedBed(StreamedBed):
    """A streamed bed that is costly to make (the M&E's centre filter, an STFT over the whole
    track), made once: its first whole pass is recorded as it is made into an anonymous
    temporary file in ``folder`` (float32 WAV, so every later pass reads the very samples; hours
    of it are gigabytes, never held in memory), and later passes (the mix, the M&E stem, the
    video's dub after the level's) read that instead of making it again. A pass left before
    its end (a cancel) keeps nothing, and the next makes it again. The file has no name: it is
    closed, and so gone, with the bed, whatever ends the export."""

    def __init__(self, channels: int, length: int, make: Callable[[], Iterator[np.ndarray]],
                 failed: Callable[[Exception], ExportError], rate: int, folder: Callable[[], Path]) -> None:
        super().__init__(channels, length, make, failed)
        self.rate, self.folder = rate, folder
        self.recording: IO[bytes] | None = None  # the whole bed, once a pass has made it

    made_once = True

    def pieces(self) -> Iterator[np.ndarray]:
        import soundfile as sf

        if self.recording is not None:
            self.recording.seek(0)
            with sf.SoundFile(self.recording) as wav:
                yield from wav.blocks(blocksize=int(BLOCK_S * self.rate), dtype="float32", always_2d=True)
            return
        handle = tempfile.TemporaryFile(dir=self.folder())  # noqa: SIM115 - kept open past this pass: the recording
        try:
            with sf.SoundFile(handle, "w", self.rate, self.channels, "FLOAT", format="WAV") as wav:
                for piece in super().pieces():
                    wav.write(piece)
                    yield piece
        except BaseException:
            handle.close()
            raise
        self.recording = handle
        weakref.finalize(self, handle.close)  # closed (and so gone) with the bed, not left to the collector


def file_bed(path: Path, rate: int, channels: int, gain: float, failed: Callable[[Exception], ExportError],
             ducking: tuple[list[tuple[float, float]], float, float, float] | None = None) -> StreamedBed:
    """A file decoded at the mix's rate as it is mixed, at a gain, ducked under the lines when
    ``ducking`` gives their (start, end) seconds, depth, attack and release."""

    def pieces() -> Iterator[np.ndarray]:
        position = 0
        with AudioStream(path) as stream:
            for piece in stream.blocks(rate=rate):
                if not piece.size:
                    continue
                piece = piece.reshape(len(piece), -1)[:, :channels]
                if piece.shape[1] < channels:
                    piece = np.repeat(piece[:, :1], channels, axis=1)
                piece = piece * np.float32(gain)
                if ducking is not None:
                    lines, depth, attack, release = ducking
                    piece *= duck_gain(len(piece), rate, lines, depth, attack, release, first=position)[:, None]
                position += len(piece)
                yield piece

    try:
        length = int(round(audio_info(path).duration_s * rate))
    except (AudioError, OSError) as error:
        raise failed(error) from error
    return StreamedBed(channels, length, pieces, failed)


def _in_blocks(pieces: Iterator[np.ndarray], step: int) -> Iterator[np.ndarray]:
    """``pieces`` cut and joined into blocks of ``step`` samples (the last one shorter); a
    piece longer than a block (a bed held whole) is cut into views, never copied again."""
    held: deque[np.ndarray] = deque()
    count = 0
    for piece in pieces:
        held.append(piece)
        count += len(piece)
        while count >= step:
            parts, need = [], step
            while need:
                taken = held[0][:need]
                parts.append(taken)
                need -= len(taken)
                if len(taken) == len(held[0]):
                    held.popleft()
                else:
                    held[0] = held[0][len(taken) :]
            count -= step
            yield parts[0] if len(parts) == 1 else np.concatenate(parts)
    if count:
        yield held[0] if len(held) == 1 else np.concatenate(held)


@dataclass
class Programme:
    """The mix before its level is set, as its parts rather than as samples: each take placed
    at its start (its own loudness gain applied), the guide or M&E bed, and the length. Blocks
    of it are summed when asked for, so a 2-hour programme (2.8 GB as a 48 kHz stereo array,
    and a stem per character more) is never held whole.

    Blocks are (n,) when mono, else (n, channels). The mix has ``channels`` channels, or the
    bed's when it has more; a character's stem ``channels``; the bed's stem its own channels,
    or ``channels`` when that is 2 (dialogue centred in stereo)."""

    rate: int
    length: int
    channels: int
    placed: list[tuple[int, str | None, np.ndarray]]  # (first sample, stem key, mono audio)
    bed: Bed | None = None  # the ducked guide or the M&E
    bed_key: str = GUIDE_STEM
    cancelled: Callable[[], bool] | None = None  # asked before each block: a pass over hours takes minutes

    @property
    def mix_channels(self) -> int:
        return max(self.channels, self.bed.channels if self.bed is not None else 1)

    def stem_keys(self) -> list[str | None]:
        keys = list(dict.fromkeys(key for _start, key, _audio in self.placed))
        return keys + ([self.bed_key] if self.bed is not None else [])

    def stem_channels(self, key: str | None) -> int:
        if key == self.bed_key and self.bed is not None:
            return max(self.bed.channels, self.channels if self.channels == 2 else 1)
        return self.channels

    def blocks(self, key: str | None | EllipsisType = ..., block_s: float = BLOCK_S) -> Iterator[np.ndarray]:
        """The mix (or the stem ``key``) from its start, ``block_s`` seconds at a time."""
        step = max(1, int(block_s * self.rate))
        with_bed = self.bed is not None and (key is ... or key == self.bed_key)
        beds = _in_blocks(self.bed.pieces(), step) if self.bed is not None and with_bed else iter(())
        try:
            for begin in range(0, self.length, step):
                if self.cancelled is not None and self.cancelled():
                    raise OperationCancelled(Phrase(phrases.MIX_CANCELLED))
                yield self._block(begin, min(self.length, begin + step), key, next(beds, None))
            if self.bed is not None and self.bed.made_once:
                for _rest in beds:  # the bed past the programme's end (its track ran longer): recorded whole
                    pass
        finally:
            close = getattr(beds, "close", None)
            if close is not None:
                close()  # the bed's file, when the programme ends before it

    def _block(self, begin: int, stop: int, key: str | None | EllipsisType, bed: np.ndarray | None) -> np.ndarray:
        channels = self.mix_channels if key is ... else self.stem_channels(key)
        dialogue = np.zeros(stop - begin, dtype=np.float32)
        if key != self.bed_key or self.bed is None:
            for start, owner, audio in self.placed:
                if (key is ... or owner == key) and start < stop and start + len(audio) > begin:
                    lo, hi = max(begin, start), min(stop, start + len(audio))
                    dialogue[lo - begin : hi - begin] += audio[lo - start : hi - start]
        out = np.repeat(dialogue[:, None], channels, axis=1)
        if bed is not None:
            bed = bed[: stop - begin]
            out[: len(bed)] += bed if bed.shape[1] == channels else np.repeat(bed[:, :1], channels, axis=1)
        return out[:, 0] if channels == 1 else out


@dataclass
class MixdownAudio:
    """The mix and stems as a :class:`Programme` and the :class:`~app.project.loudness.Levelling`
    that sets its level, read block by block (``mix_blocks``, ``stem_blocks``) or, for a short
    programme (tests, previews), whole (``mix``, ``stems``)."""

    programme: Programme
    levelling: Levelling
    slots: list[Slot]
    overruns: list[Overrun]
    missing: list[int]
    fitted: list[tuple[int, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def sample_rate(self) -> int:
        return self.programme.rate

    @property
    def gain(self) -> float:
        return self.levelling.gain

    @property
    def level(self) -> Level:
        return self.levelling.level

    @property
    def limited(self) -> bool:
        return self.levelling.limited

    @property
    def channels(self) -> int:
        return self.programme.mix_channels

    def mix_blocks(self) -> Iterator[np.ndarray]:
        """The levelled mix, block by block."""
        return self.levelling.apply(self.programme.blocks())

    def stem_blocks(self, key: str | None) -> Iterator[np.ndarray]:
        """A stem, block by block, with the mix's gain (the limiter's moment by moment
        included, so the stems still add up to the mix: scaled by the normalising gain only,
        they summed to up to 0.46 away from it where the limiter acted)."""
        if not self.limited:
            for stem in self.programme.blocks(key):
                yield stem * np.float32(self.gain)
            return
        befores: list[np.ndarray] = []

        def remembered() -> Iterator[np.ndarray]:
            for block in self.programme.blocks():
                befores.append(block)
                yield block

        for stem, after in zip(self.programme.blocks(key), self.levelling.apply(remembered()), strict=True):
            yield _follow(stem, _gain_curve(befores.pop(0), after, self.gain))

    @property
    def mix(self) -> np.ndarray:
        return np.concatenate(list(self.mix_blocks()) or [np.zeros(0, np.float32)])

    @property
    def stems(self) -> dict[str | None, np.ndarray]:
        return {key: np.concatenate(list(self.stem_blocks(key))) for key in self.programme.stem_keys()}

    def result(self, files: list[Path]) -> ExportResult:
        """An ExportResult for files made from this mix."""
        return ExportResult(files, self.overruns, self.missing, self.programme.length / self.sample_rate, self.gain,
                            self.level, self.limited, self.fitted, list(self.notes))


def read_take(project: Project, take: Take, sample_rate: int | None = None) -> tuple[np.ndarray, int]:
    """A take's audio as mono float32, resampled to ``sample_rate`` when given."""
    try:
        return read_audio(project.take_path(take), sample_rate)
    except (AudioError, OSError) as error:
        raise ExportError(Phrase(phrases.CANNOT_READ_TAKE, path=take.path, error=str(error))) from error


def _take_rate(project: Project, take: Take) -> int:
    try:
        return audio_info(project.take_path(take)).sample_rate
    except (AudioError, OSError) as error:
        raise ExportError(Phrase(phrases.CANNOT_READ_TAKE, path=take.path, error=str(error))) from error


def _character_label(project: Project, character_id: str | None) -> str:
    if character_id is None:
        return ""
    try:
        return project.character(character_id).name
    except KeyError:
        return ""


def _read_takes(project: Project, chosen: list[tuple[Slot, Take | None]], rate: int | None,
                target: float | None) -> tuple[list[tuple[Slot, np.ndarray]], list[tuple[int, str]], int | None]:
    """Each chosen take's audio at ``rate`` (the first take's when None), brought to the loudness
    target; the fitted ones (order, how) and the rate they were read at."""
    placed: list[tuple[Slot, np.ndarray]] = []
    fitted: list[tuple[int, str]] = []
    for slot, take in chosen:
        if take is None:
            continue
        audio, rate = read_take(project, take, rate)
        if target is not None:
            lufs = take.loudness_lufs if take.loudness_lufs is not None else integrated_loudness(audio, rate)
            audio = audio * np.float32(gain_for(lufs, target))
        if take.fit is not None:
            fitted.append((slot.order, take.fit.describe() + (
                f"; {describe_too_long(round(slot.overrun_s, 2))}" if slot.overrun_s > 0 else "")))
        placed.append((slot, audio))
    return placed, fitted, rate


def _level(programme: Programme, settings: ProjectSettings) -> Levelling:
    """How the programme reaches the loudness target under the true-peak ceiling (or, without a
    target, gets its peaks below the headroom), found in passes over its blocks."""
    target, rate, channels = settings.loudness_target_lufs, programme.rate, programme.mix_channels
    if target is not None:
        return to_target(programme.blocks, rate, channels, target, settings.true_peak_dbtp)
    meter = measure_blocks(programme.blocks(), rate, channels)
    gain = HEADROOM_PEAK / meter.sample_peak if meter.sample_peak > HEADROOM_PEAK else 1.0
    return Levelling(rate, gain, settings.true_peak_dbtp, shifted(meter, gain))


def mixdown(project: Project, gap_s: float | None = None, sample_rate: int | None = None, *,
            channels: int = 1, length_s: float | None = None, cancelled: Callable[[], bool] | None = None) -> MixdownAudio:
    """Place every chosen take on the timeline, normalise, add the guide, and sum (no files).

    The sample rate defaults to the highest among the takes, so none loses bandwidth: a
    project with Piper's 22.05 kHz takes and CosyVoice2's 24 kHz ones mixes at 24 kHz, the
    Piper takes resampled with soxr; a project of one backend is not resampled at all. The
    guide is converted to that rate too. With ``channels`` 2 the dialogue is centred in stereo
    (mix and stems); with ``length_s`` the mix and stems are padded with silence or cut to
    exactly that length (a cut is noted), before the loudness is measured. ``cancelled`` stops a
    long step (a separation model making the M&E, any pass over the programme's blocks) with
    OperationCancelled, nothing kept.
    """
    settings = project.settings
    target = settings.loudness_target_lufs
    slots = build_timeline(project, gap_s)
    by_id = {line.id: line for line in project.lines}
    chosen = [(slot, project.chosen_take(by_id[slot.line_id])) for slot in slots]
    missing = [slot.order for slot, take in chosen if take is None]
    rate = sample_rate or max((_take_rate(project, take) for _, take in chosen if take is not None), default=None)
    placed, fitted, rate = _read_takes(project, chosen, rate, target)
    if not placed or rate is None:
        raise ExportError(Phrase(phrases.NOTHING_TO_MIX))
    # Place by the actual sample count: the stored duration is rounded.
    length = max(int(round(slot.start * rate)) + len(audio) for slot, audio in placed)
    if length > MAX_MIX_S * rate:  # refuse before allocating (a start of 1e9 s once asked for 80 TiB)
        raise ExportError(
            Phrase(phrases.MIX_TOO_LONG, hours=length / rate / 3600, limit=MAX_MIX_S / 3600),
            ErrorCode.TIME_RANGE,
        )
    dialogue_end = length
    notes: list[str] = []
    bed: Bed | None
    if settings.guide_mix == "music-effects":
        bed, method = _music_effects(project, rate, cancelled)
        notes.append(Phrase(phrases.MUSIC_EFFECTS_MADE, method=method))
    else:
        bed = _ducked_guide(project, rate, [(slot.start, slot.start + len(audio) / rate) for slot, audio in placed])
    if bed is not None:
        length = max(length, bed.length)
    if length_s is not None:
        length = int(round(length_s * rate))
        if dialogue_end > length:
            notes.append(Phrase(phrases.DUB_PAST_VIDEO, seconds=(dialogue_end - length) / rate))
    programme = Programme(int(rate), length, channels,
                          [(int(round(slot.start * rate)), slot.character_id, audio) for slot, audio in placed],
                          bed, MUSIC_EFFECTS_STEM if settings.guide_mix == "music-effects" else GUIDE_STEM, cancelled)
    overruns = [
        Overrun(
            slot.line_id,
            slot.order,
            _character_label(project, slot.character_id),
            slot.start,
            slot.duration,
            slot.slot_end,
            slot.overrun_s,
        )
        for slot, _ in placed
        if slot.overrun_s > 0 and slot.slot_end is not None
    ]
    return MixdownAudio(programme, _level(programme, settings), slots, overruns, missing, fitted, notes)


def _follow(stem: np.ndarray, curve: np.ndarray) -> np.ndarray:
    """``stem`` times the mix's gain ``curve``."""
    if curve.shape != stem.shape:  # a mono stem under a stereo mix: its first channel's curve
        first = curve if curve.ndim == 1 else curve[:, 0]
        curve = first if stem.ndim == 1 else first[:, None]
    followed: np.ndarray = stem * curve
    return followed


def _gain_curve(before: np.ndarray, after: np.ndarray, gain: float) -> np.ndarray:
    """The gain that made ``after`` of ``before``, sample by sample (a limiter's curve times the
    normalising gain); where ``before`` is too quiet to divide by, the nearest measured gain."""
    ratio = np.full(before.shape, np.float32(gain), dtype=np.float32)
    for b, a, r in zip(before.reshape(len(before), -1).T, after.reshape(len(after), -1).T,
                       ratio.reshape(len(ratio), -1).T, strict=True):
        audible = np.flatnonzero(np.abs(b) > GAIN_CURVE_FLOOR)
        if audible.size:
            r[:] = np.interp(np.arange(len(b)), audible, a[audible] / b[audible])
    return ratio


def delivery_channels(project: Project) -> int:
    """2 when the source is stereo (the video's dialogue track, else the guide), else 1."""
    dialogue = project.video.dialogue_audio() if project.video is not None else None
    if dialogue is not None:
        return 2 if dialogue.channels >= 2 else 1
    path = project.guide_path()
    if path is not None:
        try:
            return 2 if audio_info(path).channels >= 2 else 1
        except (AudioError, OSError):
            return 1
    return 1


def delivery_mixdown(project: Project, gap_s: float | None = None, cancelled: Callable[[], bool] | None = None) -> MixdownAudio:
    """The mix as it is delivered: at :data:`DELIVERY_RATE` (takes resampled with soxr), in
    stereo when the source is, and exactly the video's length when the project has a video."""
    return mixdown(project, gap_s, DELIVERY_RATE, channels=delivery_channels(project), length_s=_picture_s(project),
                   cancelled=cancelled)


def _picture_s(project: Project) -> float | None:
    """The video's (or the recording's, with no picture) length as its file says now, not as
    project.json claims (a claim of hours would be allocated as hours of silence); None without a
    readable source: the mix is then as long as the dub."""
    path = project.video_path()
    if path is None:
        return None
    try:
        return probe_video(path, picture=False).duration_s  # the stems of a radio drama line up with its dialogue
    except (MediaError, OSError):
        return None


def _music_effects(project: Project, rate: int, cancelled: Callable[[], bool] | None) -> tuple[Bed, str]:
    """The source's music and effects at ``rate`` (two channels), and how they were made: the
    client's imported stem, else from the video's own audio (or the guide) by its channels or,
    as the project's ``music_effects_source`` says, by a separation model."""
    from app.project.music_effects import (
        CLIENT_STEM,
        imported_stem,
        music_and_effects_blocks,
        music_and_effects_method,
        original_audio,
        original_layout,
        original_stream,
        separated_music_effects,
    )

    stem = imported_stem(project)
    if stem is not None:  # read as it is mixed: never whole, however long
        return file_bed(stem, rate, 2, 1.0, lambda error: ExportError(
            Phrase(phrases.CANNOT_READ_IMPORTED_STEM, error=str(error)))), CLIENT_STEM
    path = original_audio(project)
    if path is None:
        raise ExportError(Phrase(phrases.NO_ORIGINAL_AUDIO))

    def failed(error: Exception) -> ExportError:
        return ExportError(Phrase(phrases.CANNOT_READ_ORIGINAL, file=path.name, error=str(error)))

    try:
        seconds = audio_info(path).duration_s
    except (AudioError, OSError) as error:
        raise failed(error) from error
    if seconds > MAX_MEDIA_S:  # refuse before decoding hours the limits never allowed
        raise ExportError(Phrase(phrases.ORIGINAL_TOO_LONG, file=path.name, limit=MAX_MEDIA_S / 3600),
                          ErrorCode.TIME_RANGE)
    if project.settings.music_effects_source == "model":
        audio, method = separated_music_effects(project, path, rate, cancelled)
        return HeldBed(audio), method
    stream = original_stream(project, path)
    method = music_and_effects_method(original_layout(path, stream))  # a mono track refused here, at once
    return RecordedBed(2, int(round(seconds * rate)), lambda: music_and_effects_blocks(path, rate, stream),
                       failed, rate, lambda: ensure_dir(project.cache_dir, inside=project.root)), method


def _ducked_guide(project: Project, rate: int, lines: list[tuple[float, float]]) -> Bed | None:
    """The guide track at ``rate``, at its level and ducked under the lines, read as it is mixed.

    None when the project keeps no guide in the mix (``guide_mix`` "replace", or no guide).
    """
    settings = project.settings
    path = project.guide_path()
    if settings.guide_mix != "duck" or path is None:
        return None

    def failed(error: Exception) -> ExportError:
        return ExportError(Phrase(phrases.CANNOT_READ_GUIDE, file=project.guide_audio, error=str(error)))

    try:
        info = audio_info(path)
    except (AudioError, OSError) as error:
        raise failed(error) from error
    if info.duration_s > MAX_MEDIA_S:  # refuse before mixing hours the limits never allowed
        raise ExportError(Phrase(phrases.GUIDE_TOO_LONG, file=project.guide_audio, hours=info.duration_s / 3600,
                                 limit=MAX_MEDIA_S / 3600), ErrorCode.TIME_RANGE)
    return file_bed(path, rate, min(2, info.channels), 10 ** (settings.guide_gain_db / 20), failed,
                    (lines, settings.duck_db, settings.duck_attack_s, settings.duck_release_s))


def _out_dir(project: Project, out_dir: str | os.PathLike[str] | None, sub: str = "") -> tuple[Path, Path | None]:
    """The folder to export into (made if needed) and the root it must stay inside.

    The default, ``exports/``, and any folder named inside the project must resolve inside it;
    a folder the user chose elsewhere is used as given.
    """
    target = Path(out_dir).absolute() if out_dir is not None else project.exports_dir
    if sub:
        target = target / sub
    inside = bound_to(project.root, target)
    return ensure_dir(target, inside), inside


def _manifest(folder: Path) -> set[str]:
    """Names an earlier export wrote into ``folder`` (empty when there is no readable manifest)."""
    try:
        data = json.loads(files.read_regular_file(folder / MANIFEST))
    except (files.FileError, ValueError):
        return set()
    names = data.get("files") if isinstance(data, dict) else None
    return {n for n in names if isinstance(n, str)} if isinstance(names, list) else set()


def _write_manifest(folder: Path, names: Iterable[str], inside: Path | None) -> None:
    atomic_write_text(folder / MANIFEST, json.dumps({"app": "DubStudio", "files": sorted(names)}, indent=1), inside=inside)


def _replace_exported(folder: Path, inside: Path | None, names: list[str], write: Iterable[Path]) -> list[Path]:
    """Run ``write`` (the new files, named ``names``) and remove what the last export left.

    The manifest lists old and new names while writing, so an interrupted export still knows
    every file it may have made; afterwards it lists exactly the new ones. Only regular files
    listed in the old manifest, with names an export builds, are removed.
    """
    old = _manifest(folder)
    _write_manifest(folder, old | set(names), inside)
    written = list(write)
    for name in sorted(old - set(names)):
        path = folder / name
        if _EXPORTED_NAME.fullmatch(name) and stat.S_ISREG(_lstat_mode(path)):
            path.unlink()
    _write_manifest(folder, names, inside)
    return written


def _lstat_mode(path: Path) -> int:
    try:
        return path.lstat().st_mode
    except FileNotFoundError:
        return 0


def export_mix(
    project: Project, out_dir: str | os.PathLike[str] | None = None, gap_s: float | None = None,
    cancelled: Callable[[], bool] | None = None, *, mixed: MixdownAudio | None = None,
) -> ExportResult:
    """Write ``mix.wav`` (see :func:`delivery_mixdown`; ``mixed``: the one already made, as Export
    all makes it once for the mix, the stems and the video); the result lists overruns and lines
    without takes."""
    audio = mixed or delivery_mixdown(project, gap_s, cancelled)
    folder, inside = _out_dir(project, out_dir)
    target = atomic_write_wav_blocks(folder / "mix.wav", audio.mix_blocks(), audio.sample_rate, audio.channels,
                                     inside=inside)
    return audio.result([target])


def export_stems(
    project: Project, out_dir: str | os.PathLike[str] | None = None, gap_s: float | None = None,
    cancelled: Callable[[], bool] | None = None, *, mixed: MixdownAudio | None = None,
) -> ExportResult:
    """Write one WAV per character under ``stems/``, each as long as the mix and in its format
    (``mixed``: the delivery mix already made, as for :func:`export_mix`)."""
    audio = mixed or delivery_mixdown(project, gap_s, cancelled)
    folder, inside = _out_dir(project, out_dir, "stems")
    names: dict[str, str | None] = {}
    for char_id in audio.programme.stem_keys():
        label = {GUIDE_STEM: "guide (original audio)", MUSIC_EFFECTS_STEM: "music and effects"}.get(
            char_id or "", "") or _character_label(project, char_id)
        name = safe_filename(label or "unassigned", "character")
        if name.casefold() in {n.casefold() for n in names}:  # two names that sanitise alike
            name = f"{name}_{safe_filename(char_id or '', 'unassigned')}"
        names[f"{name}.wav"] = char_id
    written = _replace_exported(
        folder,
        inside,
        list(names),
        (atomic_write_wav_blocks(folder / name, audio.stem_blocks(key), audio.sample_rate,
                                 audio.programme.stem_channels(key), inside=inside) for name, key in names.items()),
    )
    return audio.result(written)


def line_file_name(order: int, character: str, width: int = 3) -> str:
    """``003_Maya.wav``: sorts in script order in any file browser."""
    return f"{order:0{width}d}_{safe_filename(character or 'unassigned', 'unassigned')}.wav"


def export_lines(project: Project, out_dir: str | os.PathLike[str] | None = None) -> ExportResult:
    """Each line's chosen take as ``lines/NNN_Character.wav`` at :data:`DELIVERY_RATE`, as the mix
    and stems are (a voice model's 22.05 kHz take resampled with soxr, its level as rendered);
    lines without takes skipped."""
    width = max(3, len(str(len(project.lines))))
    result = ExportResult()
    planned: dict[str, Take] = {}
    for order, line in enumerate(project.lines, 1):
        take = project.chosen_take(line)
        if take is None:
            result.missing.append(order)
            continue
        planned[line_file_name(order, _character_label(project, line.character_id), width)] = take
        result.duration_s += take.duration_s
    if not planned:
        raise ExportError(Phrase(phrases.NOTHING_TO_EXPORT))
    folder, inside = _out_dir(project, out_dir, "lines")

    def deliver(name: str, take: Take) -> Path:
        audio, rate = read_take(project, take, DELIVERY_RATE)
        return atomic_write_wav(folder / name, audio, rate, inside=inside)

    result.files = _replace_exported(folder, inside, list(planned), (deliver(n, t) for n, t in planned.items()))
    return result


SUBTITLE_WRITERS = {"srt": script_to_srt, "vtt": script_to_vtt, "ass": script_to_ass}


def export_subtitles(
    project: Project,
    out_dir: str | os.PathLike[str] | None = None,
    gap_s: float | None = None,
    *,
    kind: str = "srt",
    names: bool = False,
) -> ExportResult:
    """Write ``script.srt`` (or ``script.vtt``, ``script.ass``) timed like the mix (final durations from takes),
    and beside it ``script.source.srt`` with the original text when the lines are translations.
    ``names`` puts "Name: " before each cue; a delivery leaves it out."""
    write = SUBTITLE_WRITERS[kind]
    folder, inside = _out_dir(project, out_dir)
    notes: list[str] = []  # cues cut at the video's end: said once, though both files are cut alike
    targets = [write_text_export(folder / f"script.{kind}", write(project, speaker_prefix=names, gap_s=gap_s,
                                                                 notes=notes), inside=inside)]
    if has_source_text(project):
        targets.append(write_text_export(folder / f"script.source.{kind}",
                                         write(project, speaker_prefix=names, gap_s=gap_s, source=True), inside=inside))
    missing = [n for n, line in enumerate(project.lines, 1) if project.chosen_take(line) is None]
    return ExportResult(targets, missing=missing, notes=notes)


def export_srt(project: Project, out_dir: str | os.PathLike[str] | None = None, gap_s: float | None = None, *,
               names: bool = False) -> ExportResult:
    """:func:`export_subtitles` as SRT."""
    return export_subtitles(project, out_dir, gap_s, kind="srt", names=names)

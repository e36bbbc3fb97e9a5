"""Exports made from the chosen takes: per-line WAVs, the mix, stems, and the timed script.

Everything lands in the project's ``exports/`` folder (or another folder you pass):

    exports/lines/003_Maya.wav   one file per rendered line, named by order and character
    exports/mix.wav              all takes placed on the timeline (see app.project.timeline)
    exports/stems/Maya.wav       one file per character, same length as the mix
    exports/script.srt           the script with final durations

The mix and the stems share one gain (only lowered, when the sum would clip) so the stems
add up to the mix exactly, which is what an editor dropping stems into a video timeline
expects. Overruns (takes longer than their slot) are reported rather than cut, because
cutting a word off is worse than a visible warning.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import numpy as np
import soundfile as sf

from app.project.errors import ExportError
from app.project.fsutil import atomic_write, atomic_write_wav, safe_filename
from app.project.model import Project, Take
from app.project.script_io import script_to_srt, write_text_export
from app.project.timeline import Slot, build_timeline

HEADROOM_PEAK = 0.98
EXPORT_KINDS = ("mix", "stems", "lines", "srt")
_LINE_FILE = re.compile(r"^\d{3,}_.*\.wav$")


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
        return (
            f"line {self.order} ({self.character or 'no character'}) runs {self.overrun_s:.2f} s past its slot "
            f"(take {self.duration:.2f} s from {self.start:.2f} s, slot ends at {self.slot_end:.2f} s)"
        )


@dataclass
class ExportResult:
    """What an export wrote, and what the user should know about it."""

    files: list[Path] = field(default_factory=list)
    overruns: list[Overrun] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)  # orders of lines without a take
    duration_s: float = 0.0
    gain: float = 1.0  # applied to mix and stems to avoid clipping


@dataclass
class MixdownAudio:
    """The mix and stems in memory, before writing (also handy for tests and previews)."""

    mix: np.ndarray
    stems: dict[str | None, np.ndarray]  # character id (None = unassigned) -> audio
    sample_rate: int
    slots: list[Slot]
    overruns: list[Overrun]
    missing: list[int]
    gain: float


def read_take(project: Project, take: Take, sample_rate: int | None = None) -> tuple[np.ndarray, int]:
    """A take's audio as mono float32, resampled to ``sample_rate`` when given."""
    path = project.take_path(take)
    try:
        audio, rate = sf.read(str(path), dtype="float32", always_2d=True)
    except (sf.LibsndfileError, RuntimeError, OSError) as error:
        raise ExportError(f"cannot read take {take.path}: {error}") from error
    mono = audio.mean(axis=1)
    if sample_rate is not None and rate != sample_rate:
        import soxr

        mono = soxr.resample(mono, rate, sample_rate).astype(np.float32)
        rate = sample_rate
    return mono, int(rate)


def _character_label(project: Project, character_id: str | None) -> str:
    if character_id is None:
        return ""
    try:
        return project.character(character_id).name
    except KeyError:
        return ""


def mixdown(project: Project, gap_s: float | None = None, sample_rate: int | None = None) -> MixdownAudio:
    """Place every chosen take on the timeline and sum them (no files written).

    The sample rate defaults to the first take's, so Piper's 22.05 kHz takes are not
    resampled; takes at other rates are converted.
    """
    slots = build_timeline(project, gap_s)
    by_id = {line.id: line for line in project.lines}
    placed: list[tuple[Slot, np.ndarray]] = []
    missing: list[int] = []
    rate = sample_rate
    for slot in slots:
        take = project.chosen_take(by_id[slot.line_id])
        if take is None:
            missing.append(slot.order)
            continue
        audio, rate = read_take(project, take, rate)
        placed.append((slot, audio))
    if not placed or rate is None:
        raise ExportError("nothing to mix: no line has a rendered take yet")
    # Place by the actual sample count: the stored duration is rounded.
    length = max(int(round(slot.start * rate)) + len(audio) for slot, audio in placed)
    mix = np.zeros(length, dtype=np.float32)
    stems: dict[str | None, np.ndarray] = {}
    for slot, audio in placed:
        begin = int(round(slot.start * rate))
        mix[begin : begin + len(audio)] += audio
        stem = stems.setdefault(slot.character_id, np.zeros(length, dtype=np.float32))
        stem[begin : begin + len(audio)] += audio
    peak = float(np.max(np.abs(mix), initial=0.0))
    gain = HEADROOM_PEAK / peak if peak > HEADROOM_PEAK else 1.0
    if gain != 1.0:
        mix *= gain
        for stem in stems.values():
            stem *= gain
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
    return MixdownAudio(mix, stems, int(rate), slots, overruns, missing, gain)


def _out_dir(project: Project, out_dir: str | os.PathLike[str] | None) -> Path:
    target = Path(out_dir) if out_dir is not None else project.exports_dir
    target.mkdir(parents=True, exist_ok=True)
    return target


def _clear(folder: Path, pattern: re.Pattern[str] | None = None) -> None:
    """Remove our previous WAVs so renamed or reordered lines leave no stale files behind."""
    if folder.is_dir():
        for old in folder.glob("*.wav"):
            if pattern is None or pattern.match(old.name):
                old.unlink()


def export_mix(
    project: Project, out_dir: str | os.PathLike[str] | None = None, gap_s: float | None = None
) -> ExportResult:
    """Write ``mix.wav``; the result lists overruns and lines without takes."""
    audio = mixdown(project, gap_s)
    target = _out_dir(project, out_dir) / "mix.wav"
    atomic_write_wav(target, audio.mix, audio.sample_rate)
    return ExportResult([target], audio.overruns, audio.missing, len(audio.mix) / audio.sample_rate, audio.gain)


def export_stems(
    project: Project, out_dir: str | os.PathLike[str] | None = None, gap_s: float | None = None
) -> ExportResult:
    """Write one WAV per character under ``stems/``, each as long as the mix."""
    audio = mixdown(project, gap_s)
    folder = _out_dir(project, out_dir) / "stems"
    folder.mkdir(parents=True, exist_ok=True)
    _clear(folder)
    files: list[Path] = []
    used: set[str] = set()
    for char_id, stem in audio.stems.items():
        name = safe_filename(_character_label(project, char_id) or "unassigned", "character")
        if name.casefold() in used:  # two names that sanitise alike
            name = f"{name}_{char_id}"
        used.add(name.casefold())
        path = folder / f"{name}.wav"
        atomic_write_wav(path, stem, audio.sample_rate)
        files.append(path)
    return ExportResult(files, audio.overruns, audio.missing, len(audio.mix) / audio.sample_rate, audio.gain)


def line_file_name(order: int, character: str, width: int = 3) -> str:
    """``003_Maya.wav``: sorts in script order in any file browser."""
    return f"{order:0{width}d}_{safe_filename(character or 'unassigned', 'unassigned')}.wav"


def export_lines(project: Project, out_dir: str | os.PathLike[str] | None = None) -> ExportResult:
    """Copy each line's chosen take to ``lines/NNN_Character.wav`` (lines without takes skipped)."""
    folder = _out_dir(project, out_dir) / "lines"
    folder.mkdir(parents=True, exist_ok=True)
    _clear(folder, _LINE_FILE)
    width = max(3, len(str(len(project.lines))))
    result = ExportResult()
    for order, line in enumerate(project.lines, 1):
        take = project.chosen_take(line)
        if take is None:
            result.missing.append(order)
            continue
        source = project.take_path(take)
        target = folder / line_file_name(order, _character_label(project, line.character_id), width)
        try:
            with source.open("rb") as src:
                atomic_write(target, lambda handle: shutil.copyfileobj(src, handle))
        except OSError as error:
            raise ExportError(f"cannot read take {take.path}: {error}") from error
        result.files.append(target)
        result.duration_s += take.duration_s
    if not result.files:
        raise ExportError("nothing to export: no line has a rendered take yet")
    return result


def export_srt(
    project: Project, out_dir: str | os.PathLike[str] | None = None, gap_s: float | None = None
) -> ExportResult:
    """Write ``script.srt`` timed like the mix (final durations from takes)."""
    target = _out_dir(project, out_dir) / "script.srt"
    write_text_export(target, script_to_srt(project, gap_s=gap_s))
    missing = [n for n, line in enumerate(project.lines, 1) if project.chosen_take(line) is None]
    return ExportResult([target], missing=missing)


def export(
    project: Project, kinds: Iterable[str], out_dir: str | os.PathLike[str] | None = None
) -> dict[str, ExportResult]:
    """Run several exports by name (``mix``, ``stems``, ``lines``, ``srt``)."""
    runners = {"mix": export_mix, "stems": export_stems, "lines": export_lines, "srt": export_srt}
    results: dict[str, ExportResult] = {}
    for kind in kinds:
        if kind not in runners:
            raise ExportError(f"unknown export {kind!r}; choose from {', '.join(EXPORT_KINDS)}")
        results[kind] = runners[kind](project, out_dir)
    return results

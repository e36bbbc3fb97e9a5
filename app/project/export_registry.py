"""Every export DubStudio makes, declared once: the menus, the CLI and the file dialogs read it.

Each :class:`ExportFormat` names the export (the CLI's ``--export NAME``), its menu label, a
sentence of help, the file filter a save dialog uses ("" when it writes a folder of files),
whether it needs the project's video, whether it is made of the takes, what must hold before
it can start, and the function that makes it. All runners take the same arguments, so callers
never special-case a format; long ones (the video) report progress and can be cancelled
through the :class:`ExportContext`. :func:`export_summary` says what one export wrote, the same
way for the CLI and the studio.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from app.project import phrases
from app.project.errors import ExportError
from app.project.export import (
    ExportResult,
    export_lines,
    export_mix,
    export_stems,
    export_subtitles,
)
from app.project.phrases import Phrase, counted
from app.project.project import Project
from app.project.qa import lines_failing_qa
from app.project.script_io import export_script
from app.project.translatable import QT_TRANSLATE_NOOP
from app.project.video_export import (
    VideoExportOptions,
    check_video_export,
    export_video,
)

FILES_SHOWN = 4  # a summary names this many files, then counts the rest


@dataclass(frozen=True)
class ExportContext:
    """What a long export may use: progress (0..1), a cancel check, video options, and whether
    subtitle files put "Name: " before each cue (off: a delivery has no names)."""

    progress: Callable[[float], None] | None = None
    cancelled: Callable[[], bool] | None = None
    video: VideoExportOptions = field(default_factory=VideoExportOptions)
    subtitle_names: bool = False


Runner = Callable[[Project, Path | None, ExportContext], ExportResult]
Check = Callable[[Project, ExportContext], None]


def _can_start(_project: Project, _context: ExportContext) -> None:
    """Most exports need nothing before they start: a missing take is reported, not refused."""


@dataclass(frozen=True)
class ExportFormat:
    name: str
    label: str
    help: str
    file_filter: str  # for save dialogs; "" when the export writes a folder of files
    run: Runner
    needs_video: bool = False
    from_takes: bool = True  # made of the takes' audio, so takes that failed QA are in it (False: the script as text)
    check: Check = _can_start  # raises ExportError for what would make it fail, before any render


def _out(project: Project, out_dir: Path | None) -> Path:
    return out_dir if out_dir is not None else project.exports_dir


def _csv(project: Project, out_dir: Path | None, _context: ExportContext) -> ExportResult:
    return ExportResult([export_script(project, _out(project, out_dir) / "script.csv")])


def _mix_can_start(project: Project, _context: ExportContext) -> None:
    """A mix with the M&E by a separation model needs the model (a render is long: refuse first)."""
    from app.project.music_effects import check_music_effects

    check_music_effects(project)


def _video_can_start(project: Project, context: ExportContext) -> None:
    check_video_export(project, context.video)
    _mix_can_start(project, context)


def _video(project: Project, out_dir: Path | None, context: ExportContext) -> ExportResult:
    from app.project.video_export import default_video_path

    target = default_video_path(project, context.video)
    if out_dir is not None:
        target = out_dir / target.name
    return export_video(project, target, context.video, progress=context.progress, cancelled=context.cancelled)


def _all(project: Project, out_dir: Path | None, context: ExportContext) -> ExportResult:
    from app.project.delivery import export_all

    return export_all(project, out_dir, context)


def _all_can_start(project: Project, context: ExportContext) -> None:
    from app.project.delivery import check_delivery

    check_delivery(project, context)
    _mix_can_start(project, context)


EXPORTS: tuple[ExportFormat, ...] = (
    ExportFormat("lines", QT_TRANSLATE_NOOP("formats", "Line WAVs"), QT_TRANSLATE_NOOP("formats", "one WAV per rendered line (exports/lines/)"), "",
                 lambda project, out_dir, _c: export_lines(project, out_dir)),
    ExportFormat("mix", QT_TRANSLATE_NOOP("formats", "Mix"), QT_TRANSLATE_NOOP("formats", "all takes at their timecodes, loudness-normalised (exports/mix.wav)"),
                 "WAV audio (*.wav)", lambda project, out_dir, context: export_mix(project, out_dir, cancelled=context.cancelled),
                 check=_mix_can_start),
    ExportFormat("stems", QT_TRANSLATE_NOOP("formats", "Stems"), QT_TRANSLATE_NOOP("formats", "one WAV per character, as long as the mix (exports/stems/)"), "",
                 lambda project, out_dir, context: export_stems(project, out_dir, cancelled=context.cancelled),
                 check=_mix_can_start),
    ExportFormat("srt", QT_TRANSLATE_NOOP("formats", "Subtitles as SRT"),
                 QT_TRANSLATE_NOOP("formats", "the script timed like the mix (exports/script.srt)"),
                 "Subtitles (*.srt)", lambda project, out_dir, context: export_subtitles(
                     project, out_dir, kind="srt", names=context.subtitle_names), from_takes=False),
    ExportFormat("vtt", QT_TRANSLATE_NOOP("formats", "Subtitles as WebVTT"),
                 QT_TRANSLATE_NOOP("formats", "the script timed like the mix (exports/script.vtt)"),
                 "WebVTT subtitles (*.vtt)", lambda project, out_dir, context: export_subtitles(
                     project, out_dir, kind="vtt", names=context.subtitle_names), from_takes=False),
    ExportFormat("ass", QT_TRANSLATE_NOOP("formats", "Subtitles as ASS"),
                 QT_TRANSLATE_NOOP("formats", "the script timed like the mix, speakers in the Name field (exports/script.ass)"), "ASS subtitles (*.ass)", lambda project, out_dir, context: export_subtitles(
                     project, out_dir, kind="ass", names=context.subtitle_names), from_takes=False),
    ExportFormat("csv", QT_TRANSLATE_NOOP("formats", "Script as CSV"),
                 QT_TRANSLATE_NOOP("formats", "the script with final durations (exports/script.csv)"),
                 "CSV (*.csv)", _csv, from_takes=False),
    ExportFormat("video", QT_TRANSLATE_NOOP("formats", "Video"), QT_TRANSLATE_NOOP("formats", "the video with the dub as its default audio track (exports/TITLE.mp4)"),
                 "Video (*.mp4 *.mkv)", _video, needs_video=True, check=_video_can_start),
    ExportFormat("all", QT_TRANSLATE_NOOP("formats", "Export all (delivery folder)"),
                 QT_TRANSLATE_NOOP("formats", "mix, stems, subtitles, script, video and a report in one folder, all or nothing (exports/TITLE delivery/)"),
                 "", _all, check=_all_can_start),
)
EXPORT_KINDS: tuple[str, ...] = tuple(f.name for f in EXPORTS)


def export_format(name: str) -> ExportFormat:
    """The format called ``name``; ExportError naming the choices otherwise."""
    for fmt in EXPORTS:
        if fmt.name == name:
            return fmt
    raise ExportError(Phrase(phrases.UNKNOWN_EXPORT, name=repr(name), choices=", ".join(EXPORT_KINDS)))


def export(
    project: Project,
    kinds: Iterable[str],
    out_dir: str | os.PathLike[str] | None = None,
    context: ExportContext | None = None,
) -> dict[str, ExportResult]:
    """Run several exports by name (see :data:`EXPORT_KINDS`), in the order given."""
    formats = [export_format(kind) for kind in kinds]  # refuse unknown names before writing anything
    folder = Path(out_dir) if out_dir is not None else None
    return {fmt.name: fmt.run(project, folder, context or ExportContext()) for fmt in formats}


@dataclass(frozen=True)
class ExportSummary:
    """What one export wrote and what the user should know about it, in words: ``headline``
    names the files, each of ``notes`` is one short fact (loudness, lines left out, takes that
    failed QA), each of ``details`` one line of the script (fitted, still overrunning).
    ``needs_look`` says something in it wants the user's attention."""

    headline: str
    notes: list[str]
    details: list[str]
    needs_look: bool


def export_summary(project: Project, fmt: ExportFormat, result: ExportResult, qa_hint: str) -> ExportSummary:
    """The one summary of an export, for the CLI and the studio alike; ``qa_hint`` says where
    that surface lists takes that failed QA ("see dubstudio qa")."""
    shown = [str(path.relative_to(project.root)) if path.is_relative_to(project.root) else str(path)
             for path in result.files[:FILES_SHOWN]]
    notes: list[str] = []
    missing = result.missing if fmt.from_takes else []  # a script export keeps every line, take or not
    if missing:
        notes.append(counted(len(missing), phrases.LEFT_OUT_ONE, phrases.LEFT_OUT, orders=", ".join(map(str, missing))))
    failing = lines_failing_qa(project) if fmt.from_takes else []
    if failing:
        notes.append(counted(len(failing), phrases.FAILED_QA_ONE, phrases.FAILED_QA, hint=qa_hint,
                            orders=", ".join(str(project.order_of(line.id)) for line in failing)))
    settings = project.settings
    if result.level is not None:
        target, level = settings.loudness_target_lufs, result.level.describe()
        if target is not None:
            notes.append(Phrase(phrases.LOUDNESS_LIMITED if result.limited else phrases.LOUDNESS, level=level,
                                target=target, ceiling=settings.true_peak_dbtp))
        else:
            notes.append(Phrase(phrases.LOUDNESS_OFF_LIMITED if result.limited else phrases.LOUDNESS_OFF, level=level))
    if result.gain < 1.0 and settings.loudness_target_lufs is None:
        notes.append(Phrase(phrases.TURNED_DOWN, db=20 * math.log10(result.gain)))
    notes += [Phrase(phrases.NOTE, note=note) for note in result.notes]
    details: list[str] = [Phrase(phrases.LINE_DETAIL, order=order, what=what) for order, what in result.fitted]
    details += [Phrase(phrases.STILL_OVERRUNS, overrun=overrun.describe()) for overrun in result.overruns]
    files = ", ".join(shown)
    more = len(result.files) - FILES_SHOWN
    if fmt.name == "all":  # one folder
        headline = Phrase(phrases.DELIVERED, files=files)
    elif more > 0:
        headline = Phrase(phrases.EXPORTED_MORE, format=fmt.name, files=files, more=more)
    else:
        headline = Phrase(phrases.EXPORTED, format=fmt.name, files=files)
    return ExportSummary(headline, notes, details,
                         bool(missing or failing or result.overruns))

"""Every export DubStudio makes, declared once: the menus, the CLI and the file dialogs read it.

Each :class:`ExportFormat` names the export (the CLI's ``--export NAME``), its menu label, a
sentence of help, the file filter a save dialog uses ("" when it writes a folder of files),
whether it needs the project's video, and the function that makes it. All runners take the
same arguments, so callers never special-case a format; long ones (the video) report progress
and can be cancelled through the :class:`ExportContext`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from app.project.errors import ExportError
from app.project.export import ExportResult, export_lines, export_mix, export_srt, export_stems
from app.project.model import Project
from app.project.script_io import export_script
from app.project.video_export import VideoExportOptions, export_video


@dataclass(frozen=True)
class ExportContext:
    """What a long export may use: progress (0..1), a cancel check, and video options."""

    progress: Callable[[float], None] | None = None
    cancelled: Callable[[], bool] | None = None
    video: VideoExportOptions = field(default_factory=VideoExportOptions)


Runner = Callable[[Project, Path | None, ExportContext], ExportResult]


@dataclass(frozen=True)
class ExportFormat:
    name: str
    label: str
    help: str
    file_filter: str  # for save dialogs; "" when the export writes a folder of files
    run: Runner
    needs_video: bool = False


def _out(project: Project, out_dir: Path | None) -> Path:
    return out_dir if out_dir is not None else project.exports_dir


def _csv(project: Project, out_dir: Path | None, _context: ExportContext) -> ExportResult:
    return ExportResult([export_script(project, _out(project, out_dir) / "script.csv")])


def _video(project: Project, out_dir: Path | None, context: ExportContext) -> ExportResult:
    from app.project.video_export import default_video_path

    target = default_video_path(project, context.video)
    if out_dir is not None:
        target = out_dir / target.name
    return export_video(project, target, context.video, progress=context.progress, cancelled=context.cancelled)


EXPORTS: tuple[ExportFormat, ...] = (
    ExportFormat("lines", "Line WAVs", "one WAV per rendered line (exports/lines/)", "",
                 lambda project, out_dir, _c: export_lines(project, out_dir)),
    ExportFormat("mix", "Mix", "all takes at their timecodes, loudness-normalised (exports/mix.wav)",
                 "WAV audio (*.wav)", lambda project, out_dir, _c: export_mix(project, out_dir)),
    ExportFormat("stems", "Stems", "one WAV per character, as long as the mix (exports/stems/)", "",
                 lambda project, out_dir, _c: export_stems(project, out_dir)),
    ExportFormat("srt", "Script as SRT", "the script timed like the mix (exports/script.srt)",
                 "Subtitles (*.srt)", lambda project, out_dir, _c: export_srt(project, out_dir)),
    ExportFormat("csv", "Script as CSV", "the script with final durations (exports/script.csv)",
                 "CSV (*.csv)", _csv),
    ExportFormat("video", "Video", "the video with the dub as its default audio track (exports/TITLE.mp4)",
                 "Video (*.mp4 *.mkv)", _video, needs_video=True),
)
EXPORT_KINDS: tuple[str, ...] = tuple(f.name for f in EXPORTS)


def export_format(name: str) -> ExportFormat:
    """The format called ``name``; ExportError naming the choices otherwise."""
    for fmt in EXPORTS:
        if fmt.name == name:
            return fmt
    raise ExportError(f"unknown export {name!r}; choose from {', '.join(EXPORT_KINDS)}")


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

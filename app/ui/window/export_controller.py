"""Exports from the studio: off the GUI thread, with a progress dialog and a Cancel button.

Every export is a runner from :data:`app.project.export_registry.EXPORTS`; the controller starts
it as one operation of the task runner (:mod:`app.ui.tasks`), whose dialog shows the
:class:`~app.project.export_registry.ExportContext`'s ``progress`` and whose Cancel sets the
token that ``cancelled`` reads. The video export polls it between packets and raises
E_CANCELLED, and its atomic writer leaves no half-written file behind; the dialog then says so
instead of pretending the bar finished.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QWidget

from app.project import Project
from app.project.errors import ExportError
from app.project.export import ExportResult
from app.project.export_registry import ExportContext, export_format
from app.project.video_export import VideoExportOptions, refuse_without_picture
from app.ui.language import fill, said_error
from app.ui.tasks import Operation, ProgressSpec, QueryOp, TaskRunner
from app.ui.timeline.video_dialogs import VideoExportDialog
from engine.core.codes import ErrorCode


def export_label(kind: str) -> str:
    """An export as the studio names it in its menu ("Mix", 混音), never its key ("mix", "all")."""
    return QCoreApplication.translate("formats", export_format(kind).label)


class ExportController(QObject):
    """Runs one export at a time; reports through ``finished``, ``failed`` and ``cancelled``."""

    finished = Signal(Project, str, ExportResult)  # the project exported, the export's name, what it wrote
    failed = Signal(str, str)  # export name, message (with its error code)
    cancelled = Signal(str)  # export name

    def __init__(self, runner: TaskRunner, parent: QWidget) -> None:
        super().__init__(parent)
        self._runner = runner
        self._parent = parent
        self._running: str | None = None
        self.options_dialog: VideoExportDialog | None = None  # the video's options, while asked

    @property
    def running(self) -> str | None:
        """The name of the export in progress, if any."""
        return self._running

    def refuses(self, project: Project, kind: str) -> bool:
        """Say at once, before any options or folder are asked for, that the finished video has no
        picture to be made of (the project dubs a recording), or that an export made of the takes
        has none to be made of (it failed only after the user had chosen them all)."""
        if export_format(kind).needs_video:
            try:
                refuse_without_picture(project)
            except ExportError as error:
                self.failed.emit(kind, said_error(error))
                return True
        if not export_format(kind).from_takes or any(project.chosen_take(line) for line in project.lines):
            return False
        self.failed.emit(kind, fill(self.tr("{code}: no line has a rendered take yet; render the lines first "
                                            "(Render › Render all), then export"), code=ErrorCode.EXPORT))
        return True

    def start(self, project: Project, kind: str, video: VideoExportOptions | None = None,
              out_dir: Path | None = None) -> bool:
        """Start an export into ``out_dir`` (default: the project's exports folder); False while
        another one runs."""
        if self._running is not None:
            self.failed.emit(kind, fill(self.tr("{code}: the export “{label}” is still running; wait or cancel it"),
                                        code=ErrorCode.EXPORT, label=export_label(self._running)))
            return False
        fmt = export_format(kind)
        self._running = kind

        def work(operation: Operation) -> ExportResult:
            context = ExportContext(progress=operation.report, cancelled=operation.cancelled,
                                    video=video or VideoExportOptions())
            return fmt.run(project, out_dir, context)

        def done(result: ExportResult) -> None:
            self._running = None
            self.finished.emit(project, kind, result)

        def failed(error: Exception) -> None:
            self._running = None
            self.failed.emit(kind, said_error(error))  # said: the signal carries plain text

        def cancelled() -> None:
            self._running = None
            self.cancelled.emit(kind)

        label = export_label(kind)
        progress = ProgressSpec(self._parent, self.tr("Export"), fill(self.tr("Exporting {label}"), label=label),
                                fill(self.tr("Cancelling the export “{label}”"), label=label))
        self._runner.start(QueryOp(work, done, failed, cancelled,
                                   name=fill(self.tr("exporting “{label}”"), label=label), progress=progress))
        return True

    def ask_video(self, project: Project, kind: str = "video",
                  choose_folder: Callable[[], Path | None] | None = None) -> VideoExportDialog | None:
        """Ask for the video's options (container, codec, tracks, burned-in subtitles, language),
        then run ``kind`` with them: the video, or Export all into the folder ``choose_folder``
        asks for next (nothing starts when it returns None)."""
        if project.video is None:
            self.failed.emit("video", fill(self.tr("{code}: the project has no video; add one with Project › Set video…"), code=ErrorCode.EXPORT))
            return None
        dialog = VideoExportDialog(project, self._parent, delivery=choose_folder is not None)

        def accepted() -> None:
            out_dir = choose_folder() if choose_folder is not None else None
            if choose_folder is None or out_dir is not None:
                self.start(project, kind, dialog.options(), out_dir)

        dialog.accepted.connect(accepted)
        dialog.finished.connect(lambda _result: dialog.deleteLater())
        self.options_dialog = dialog
        dialog.open()
        return dialog

"""Exports from the studio: off the GUI thread, with a progress dialog and a Cancel button.

Every export is a runner from :data:`app.project.export_registry.EXPORTS`; the controller runs
it on the task runner with an :class:`~app.project.export_registry.ExportContext` whose
``progress`` crosses back to the GUI thread through a queued signal and whose ``cancelled``
reads a flag the Cancel button sets. The video export polls it between packets and raises
E_CANCELLED, and its atomic writer leaves no half-written file behind; the dialog then says
so instead of pretending the bar finished.
"""

from __future__ import annotations

import threading
from functools import partial

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from app.project import OperationCancelled, Project
from app.project.export import ExportResult
from app.project.export_registry import ExportContext, export_format
from app.project.video_export import VideoExportOptions
from app.ui.tasks import TaskRunner
from app.ui.timeline.video_dialogs import VideoExportDialog
from engine.core.codes import ErrorCode

STEPS = 1000  # the progress bar's resolution


class ExportController(QObject):
    """Runs one export at a time; reports through ``finished``, ``failed`` and ``cancelled``."""

    finished = Signal(Project, str, ExportResult)  # the project exported, the export's name, what it wrote
    failed = Signal(str, str)  # export name, message (with its error code)
    cancelled = Signal(str)  # export name
    progressed = Signal(float)  # 0..1, emitted on the worker thread and delivered on the GUI thread

    def __init__(self, runner: TaskRunner, parent: QWidget) -> None:
        super().__init__(parent)
        self._runner = runner
        self._parent = parent
        self._cancel = threading.Event()
        self._running: str | None = None
        self.dialog: QProgressDialog | None = None
        self.options_dialog: VideoExportDialog | None = None  # the video's options, while asked
        self.progressed.connect(self._on_progress)

    @property
    def running(self) -> str | None:
        """The name of the export in progress, if any."""
        return self._running

    def start(self, project: Project, kind: str, video: VideoExportOptions | None = None) -> bool:
        """Start an export into the project's exports folder; False while another one runs."""
        if self._running is not None:
            self.failed.emit(kind, f"{ErrorCode.EXPORT}: the {self._running} export is still running; wait or cancel it")
            return False
        fmt = export_format(kind)
        self._running = kind
        self._cancel.clear()
        self.dialog = self._make_dialog(fmt.label)
        context = ExportContext(progress=self.progressed.emit, cancelled=self._cancel.is_set,
                                video=video or VideoExportOptions())
        self._runner.run(lambda: fmt.run(project, None, context), partial(self._on_done, project), self._on_failed)
        return True

    def ask_video(self, project: Project) -> VideoExportDialog | None:
        """Ask for the video's options (container, codec, tracks, language), then export it."""
        if project.video is None:
            self.failed.emit("video", f"{ErrorCode.EXPORT}: the project has no video; add one with Project › Set video…")
            return None
        dialog = VideoExportDialog(project, self._parent)
        dialog.accepted.connect(lambda: self.start(project, "video", dialog.options()))
        dialog.finished.connect(lambda _result: dialog.deleteLater())
        self.options_dialog = dialog
        dialog.open()
        return dialog

    def cancel(self) -> None:
        """Ask the running export to stop (it stops at its next check, writing nothing)."""
        if self._running is not None:
            self._cancel.set()
            if self.dialog is not None:
                self.dialog.setLabelText(f"Cancelling the {self._running} export…")
                self.dialog.setCancelButtonText("")  # nothing more to click; it closes when the export stops

    def _make_dialog(self, label: str) -> QProgressDialog:
        dialog = QProgressDialog(f"Exporting {label}…", "Cancel", 0, STEPS, self._parent)
        dialog.setObjectName("exportProgress")
        dialog.setWindowTitle("Export")
        dialog.setWindowModality(Qt.WindowModality.NonModal)  # the studio stays usable meanwhile
        dialog.setMinimumDuration(0)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.disconnect(dialog.cancel)  # stay up, saying "Cancelling…", until the export stops
        dialog.canceled.connect(self.cancel)
        dialog.setValue(0)
        dialog.show()  # at once: a quick export flashes it, a long one must show its Cancel button
        return dialog

    def _on_progress(self, fraction: float) -> None:
        if self.dialog is not None and not self._cancel.is_set():
            self.dialog.setValue(int(max(0.0, min(1.0, fraction)) * STEPS))

    def _close(self) -> str:
        kind, self._running = self._running or "", None
        if self.dialog is not None:
            self.dialog.canceled.disconnect(self.cancel)
            self.dialog.close()
            self.dialog.deleteLater()
            self.dialog = None
        return kind

    def _on_done(self, project: Project, result: ExportResult) -> None:
        self.finished.emit(project, self._close(), result)

    def _on_failed(self, error: BaseException) -> None:
        kind = self._close()
        if isinstance(error, OperationCancelled):
            self.cancelled.emit(kind)
        else:
            self.failed.emit(kind, str(error))

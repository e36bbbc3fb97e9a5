"""The busy area of the "Voices engine" page: what a long setup job (building an environment,
downloading or building a model) is doing, with its status, a progress bar, Cancel, the step
it is at in words and, behind Details, its raw output.

The job is a child process run on the task runner; its output lines arrive on a worker thread
and come to the GUI thread through a queued signal.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QToolButton,
)

from app.ui.language import fill, said_error
from app.ui.tasks import TaskRunner
from engine.synthesis.backends.setup import CommandRun, OutputLine

LOG_LINES = 2000
NOISE = re.compile(r"(Warning|warn\(|^\s|^[{\[]|^Traceback|^\$ )")  # lines a person need not read


def step_of(text: str) -> str:
    """The step an output line announces, in words ("" for warnings, JSON and indented detail)."""
    line = text.rstrip()
    if not line or NOISE.search(line):
        return ""
    return line if len(line) <= 120 else line[:119] + "…"


class SetupJob(QObject):
    """The one setup job that may run at a time and its widgets (the page lays them out).
    ``changed()`` is called when a job starts or ends; ``is_open()`` says whether the page still
    shows results."""

    _output = Signal(OutputLine)  # emitted from a worker thread

    def __init__(self, runner: TaskRunner, changed: Callable[[], None], is_open: Callable[[], bool],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._changed = changed
        self._is_open = is_open
        self.running: CommandRun | None = None
        self._output.connect(self._on_output)
        self.status = QLabel("")
        self.status.setObjectName("setupStatus")
        self.status.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setObjectName("setupProgress")
        self.progress.setVisible(False)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("cancelSetup")
        self.cancel_button.setEnabled(False)
        self.cancel_button.setVisible(False)  # only while something runs: an idle, disabled bar says nothing
        self.cancel_button.clicked.connect(self.cancel)
        # The step a long job is at, in words; its raw output (warnings, JSON) stays behind Details.
        self.step = QLabel("")
        self.step.setObjectName("setupStep")
        self.step.setWordWrap(True)
        self.step.setStyleSheet("color: #555")
        self.details = QToolButton()
        self.details.setObjectName("setupDetails")
        self.details.setText(self.tr("Details"))
        self.details.setCheckable(True)
        self.details.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details.setArrowType(Qt.ArrowType.RightArrow)
        self.details.setVisible(False)
        self.details.toggled.connect(self._show_details)
        self.log = QPlainTextEdit()
        self.log.setObjectName("setupLog")
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(LOG_LINES)
        self.log.setVisible(False)
        self.log.setMinimumHeight(120)

    def start(self, run: CommandRun, title: str, after: Callable[[], None]) -> None:
        """Run ``run`` in the background, showing its progress; ``after()`` once it succeeded."""
        self.running = run
        self.log.clear()
        self.details.setVisible(True)
        self._show_details(self.details.isChecked())
        self.step.setText(self.tr("Starting…"))
        self.log.appendPlainText(f"$ {' '.join(run.command)}")
        self.progress.setVisible(True)
        self.progress.setRange(0, 0)  # busy until a line says how far it got
        self.status.setText(f"{title}…")
        self._changed()

        def done(status: object) -> None:
            self.running = None
            self.progress.setVisible(False)
            self._changed()
            if run.cancelled:
                self.status.setText(fill(self.tr("{title}: cancelled."), title=title))
            elif status != 0:
                self.status.setText(str(run.failure(title)).splitlines()[0])
            else:
                self.status.setText(fill(self.tr("{title}: done."), title=title))
                after()

        def failed(exc: BaseException) -> None:
            self.running = None
            self.progress.setVisible(False)
            self._changed()
            self.status.setText(fill(self.tr("{title} failed: {exc}"), title=title, exc=said_error(exc)))

        self._runner.run(run.run, done, failed, self._is_open)

    def output(self, line: OutputLine) -> None:
        """Called on the worker thread: hand the line to the GUI thread."""
        if self._is_open():
            self._output.emit(line)

    def cancel(self) -> None:
        if self.running is not None:
            self.status.setText(self.tr("Cancelling…"))
            self.running.cancel()

    def _show_details(self, shown: bool) -> None:
        self.details.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.log.setVisible(shown)

    @Slot(object)
    def _on_output(self, line: OutputLine) -> None:
        self.log.appendPlainText(line.text)
        step = step_of(line.text)
        if step:
            self.step.setText(step)
        if line.progress is not None:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(line.progress * 1000))

"""The dialogue-separation model in Project settings: whether it is downloaded, Download…, and
Separate now.

The download is ``dubstudio models download NAME`` in a child process (the model manager:
resumable, then checked by size and sha256), run as a :class:`~app.ui.tasks.QueryOp` with a
progress dialog read from the bytes on disk. Cancel stops the child at once, mid-file: the hub
client's partial file stays, so the next Download… resumes it (an in-process download could only
stop between files, and the model is one file).

Separating a film takes about as long as the film on a CPU, and a mix made during an export
cannot be cancelled mid-way; *Separate now* does it ahead, with progress and Cancel
(:func:`~app.project.music_effects.separate_music_effects`, nothing written when cancelled), and
every later mix and export reuses the result.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from app.project import OperationCancelled, Project
from app.project.music_effects import original_audio, separate_music_effects
from app.ui.language import fill, said_error
from app.ui.tasks import Operation, ProgressSpec, QueryOp, TaskRunner
from engine.core.downloads import ValidationReport
from engine.hearing.separation import (
    DEFAULT_SEPARATION_MODEL,
    SeparationModelSpec,
    model_available,
    model_folder,
    separation_spec,
    validate_separation_model,
)
from engine.synthesis.backends.setup import CommandRun

POLL_S = 0.25  # how often the download's bytes and Cancel are looked at


def download_command(spec: SeparationModelSpec, endpoint: str | None) -> list[str]:
    """``dubstudio models download NAME`` as this interpreter (or the frozen bundle) runs it."""
    program = [sys.executable] if getattr(sys, "frozen", False) else [sys.executable, "-m", "app.cli"]
    return [*program, "models", "download", spec.name, *(["--hub-endpoint", endpoint] if endpoint else [])]


def bytes_on_disk(spec: SeparationModelSpec, folder: Path) -> int:
    """The model's file, finished or partial (the hub client's ``*.incomplete``), in bytes."""
    if not folder.is_dir():
        return 0
    return sum(path.stat().st_size for path in folder.rglob("*")
               if path.is_file() and (path.name.endswith(".incomplete") or path == folder / spec.path))


class SeparationModelRow(QWidget):
    """The default separation model's state and its Download… button (progress and Cancel).
    Without a task runner (a dialog shown on its own) the button stays disabled."""

    def __init__(self, runner: TaskRunner | None, project: Project | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("separationModel")
        self._runner = runner
        self._project = project
        self.spec = separation_spec(DEFAULT_SEPARATION_MODEL)
        self.hub_endpoint: str | None = None  # a mirror (or a test hub)
        self.state = QLabel()
        self.state.setWordWrap(True)
        self.download_button = QPushButton(self.tr("Download…"))
        self.download_button.setObjectName("downloadSeparationModel")
        self.download_button.setToolTip(self.tr(
            "Downloads the model once into your model folder, then checks its size and checksum. "
            "An interrupted download resumes."))
        self.download_button.clicked.connect(self.download)
        self.separate_button = QPushButton(self.tr("Separate now"))
        self.separate_button.setObjectName("separateMusicEffects")
        self.separate_button.setToolTip(self.tr(
            "Takes the voices out of the original audio now, with progress and Cancel; exports then reuse the "
            "result until the video or the model changes. Otherwise the first export does it."))
        self.separate_button.clicked.connect(self.separate)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.state, 1)
        layout.addWidget(self.download_button)
        layout.addWidget(self.separate_button)
        self._closed = False
        self.destroyed.connect(self._close)
        self.refresh()

    def _close(self) -> None:
        self._closed = True

    def refresh(self) -> None:
        available = model_available(self.spec)
        if available:
            self.state.setText(fill(self.tr("{model}: downloaded and checked"), model=self.spec.title))
        else:
            self.state.setText(fill(self.tr("{model}: not downloaded yet ({size} MB, once)"), model=self.spec.title, size=self.spec.size_mb))
        self.download_button.setEnabled(self._runner is not None and not available)
        self.download_button.setVisible(not available)
        source = original_audio(self._project) if self._project is not None else None
        self.separate_button.setVisible(available)
        self.separate_button.setEnabled(self._runner is not None and source is not None)
        if available and source is None:
            self.separate_button.setToolTip(self.tr("The project has no original audio yet"))

    def download(self) -> Operation | None:
        if self._runner is None:
            return None
        spec, folder, command = self.spec, model_folder(self.spec), download_command(self.spec, self.hub_endpoint)

        def work(operation: Operation) -> ValidationReport:
            run = CommandRun(command)
            status: list[int] = []
            child = threading.Thread(target=lambda: status.append(run.run()), name="model-download", daemon=True)
            child.start()
            while child.is_alive():
                child.join(POLL_S)
                if operation.cancelled():
                    run.cancel()
                operation.report(min(1.0, bytes_on_disk(spec, folder) / spec.size))
            if run.cancelled:
                raise OperationCancelled("the download was cancelled")
            report = validate_separation_model(spec, folder)
            if not report.ok:  # the command's last line says why (unreachable hub, wrong checksum...)
                raise RuntimeError(run.tail[-1] if run.tail and status != [0] else report.summary())
            return report

        def done(_report: ValidationReport) -> None:
            self.refresh()

        def failed(error: Exception) -> None:
            self.refresh()
            self.state.setText(fill(self.tr("The download failed: {error}"), error=said_error(error)))

        def cancelled() -> None:
            self.refresh()
            self.state.setText(self.tr("Download cancelled; it resumes where it stopped next time."))

        progress = ProgressSpec(self.window(), self.tr("Separation model"),
                                fill(self.tr("Downloading {model}"), model=spec.title),
                                self.tr("Stopping the download"))
        return self._runner.start(QueryOp(work, done, failed, cancelled, alive=lambda: not self._closed,
                                          name=self.tr("downloading the separation model"), progress=progress))

    def separate(self) -> Operation | None:
        project = self._project
        source = original_audio(project) if project is not None else None
        if self._runner is None or project is None or source is None:
            return None
        spec = self.spec

        def work(operation: Operation) -> Path:
            return separate_music_effects(project, source, spec, progress=operation.report,
                                          cancelled=operation.cancelled)

        def done(_path: Path) -> None:
            self.refresh()
            self.state.setText(fill(self.tr("Music and effects separated by {model}; exports use them."), model=spec.title))

        def failed(error: Exception) -> None:
            self.refresh()
            self.state.setText(fill(self.tr("The separation failed: {error}"), error=said_error(error)))

        def cancelled() -> None:
            self.refresh()
            self.state.setText(self.tr("Separation cancelled; nothing was written."))

        progress = ProgressSpec(self.window(), self.tr("Music and effects"),
                                fill(self.tr("Taking the voices out of {audio}"), audio=source.name),
                                self.tr("Stopping the separation"))
        return self._runner.start(QueryOp(work, done, failed, cancelled, alive=lambda: not self._closed,
                                          name=self.tr("separating the music and effects"), progress=progress))

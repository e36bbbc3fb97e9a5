"""The settings dialog: engine (this computer or a server), audio output, voice cache, autosave.

It edits a :class:`~app.ui.settings.Settings` only when the user presses OK; the window then
restarts the engine if an engine setting changed (``engine_changed()`` says whether).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.ui.player import list_devices
from app.ui.settings import ENGINE_LOCATIONS, Settings, clear_folder, folder_size, human_size
from app.ui.tasks import TaskRunner
from engine.backends import DESCRIPTORS

SYSTEM_DEFAULT = "System default"
LOCATION_TITLES = {"local": "This computer", "server": "A server"}


class SettingsDialog(QDialog):
    """Edits the studio's settings; the cache size is measured in the background."""

    def __init__(self, settings: Settings, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setObjectName("settingsDialog")
        self._settings = settings
        self._runner = runner
        self._engine_before = self._engine_values()

        self.location = QComboBox()
        for location in ENGINE_LOCATIONS:
            self.location.addItem(LOCATION_TITLES[location], location)
        self.location.setCurrentIndex(ENGINE_LOCATIONS.index(settings.engine_location))
        self.location.setToolTip("Run the engine here, or use the engines of a DubStudio server (dubstudio serve)")
        self.server_url = QLineEdit(settings.server_url)
        self.server_url.setPlaceholderText("https://studio-gpu.lan:8765")
        self.token = QLineEdit(settings.server_token())
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token.setPlaceholderText("the token the server's administrator gave you")
        self.location.currentIndexChanged.connect(self._show_location)

        self.backend = QComboBox()
        self.backend.addItems(list(DESCRIPTORS))
        self.backend.setCurrentText(settings.engine_backend)
        self.slots = QSpinBox()
        self.slots.setRange(0, 64)
        self.slots.setSpecialValueText("Automatic")
        self.slots.setValue(settings.engine_slots)
        self.python = QLineEdit(settings.engine_python)
        self.python.setPlaceholderText("this interpreter")
        self.browse_python = QPushButton("Browse…")
        self.browse_python.clicked.connect(self._browse_python)

        self.output = QComboBox()
        devices = [d.name for d in list_devices("output")]
        self.output.addItem(SYSTEM_DEFAULT)
        self.output.addItems(devices)
        if not devices:
            self.output.setEnabled(False)
            self.output.setToolTip("No audio output device was found; playback is silent.")
        elif settings.output_device in devices:
            self.output.setCurrentText(settings.output_device)

        self.cache = QLineEdit(settings.cache_dir)
        self.cache.setPlaceholderText(str(settings.effective_cache_dir()))
        browse_cache = QPushButton("Browse…")
        browse_cache.clicked.connect(self._browse_cache)
        self.cache_size = QLabel("measuring…")
        self.cache_size.setObjectName("cacheSize")
        self.clear_cache = QPushButton("Clear cache")
        self.clear_cache.setToolTip("Delete prepared voices; they are rebuilt on the next use.")
        self.clear_cache.clicked.connect(self._clear_cache)

        self.autosave = QSpinBox()
        self.autosave.setRange(0, 3600)
        self.autosave.setSuffix(" s")
        self.autosave.setSpecialValueText("Off")
        self.autosave.setValue(settings.autosave_s)

        form = QFormLayout()
        form.addRow(Settings.engine_location.title, self.location)
        form.addRow(Settings.server_url.title, self.server_url)
        form.addRow("Token", self.token)
        form.addRow(Settings.engine_backend.title, self.backend)
        form.addRow(Settings.engine_slots.title, self.slots)
        form.addRow(Settings.engine_python.title, _row(self.python, self.browse_python))
        form.addRow(Settings.output_device.title, self.output)
        form.addRow(Settings.cache_dir.title, _row(self.cache, browse_cache))
        form.addRow("Cache size", _row(self.cache_size, self.clear_cache))
        form.addRow(Settings.autosave_s.title, self.autosave)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self._show_location()
        self.refresh_cache_size()

    def _show_location(self) -> None:
        """Server fields for a server; a server's slots and interpreter are its administrator's."""
        remote = self.location.currentData() == "server"
        server_fields: tuple[QWidget, ...] = (self.server_url, self.token)
        local_fields: tuple[QWidget, ...] = (self.slots, self.python, self.browse_python)
        for widget in server_fields:
            widget.setEnabled(remote)
        for widget in local_fields:
            widget.setEnabled(not remote)

    def _cache_path(self) -> Path:
        text = self.cache.text().strip()
        return Path(text) if text else self._settings.effective_cache_dir()

    def refresh_cache_size(self) -> None:
        path = self._cache_path()
        self.cache_size.setText("measuring…")
        self._runner.run(
            lambda: folder_size(path),
            lambda size: self.cache_size.setText(f"{human_size(size)}  ({path})"),
            lambda exc: self.cache_size.setText(f"cannot measure: {exc}"),
        )

    def _clear_cache(self) -> None:
        path = self._cache_path()
        self.clear_cache.setEnabled(False)

        def done(_: object) -> None:
            self.clear_cache.setEnabled(True)
            self.refresh_cache_size()

        def failed(exc: BaseException) -> None:
            self.clear_cache.setEnabled(True)
            self.cache_size.setText(f"cannot clear: {exc}")

        self._runner.run(lambda: clear_folder(path), done, failed)

    def _browse_python(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Interpreter for the engine")
        if path:
            self.python.setText(path)

    def _browse_cache(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Voice cache folder", str(self._cache_path()))
        if path:
            self.cache.setText(path)
            self.refresh_cache_size()

    def _engine_values(self) -> tuple[str, str, str, str, int, str, str]:
        s = self._settings
        return (s.engine_location, s.server_url, s.server_token(), s.engine_backend, s.engine_slots, s.engine_python,
                s.cache_dir)

    def apply(self) -> None:
        """Write the edited values to the settings."""
        s = self._settings
        s.engine_location = self.location.currentData()
        s.server_url = self.server_url.text().strip()
        if self.token.text().strip() != s.server_token():
            s.set_server_token(self.token.text())
        s.engine_backend = self.backend.currentText()
        s.engine_slots = self.slots.value()
        s.engine_python = self.python.text().strip()
        s.cache_dir = self.cache.text().strip()
        s.output_device = "" if self.output.currentText() == SYSTEM_DEFAULT else self.output.currentText()
        s.autosave_s = self.autosave.value()
        s.sync()

    def engine_changed(self) -> bool:
        """Whether an applied change needs a new engine process."""
        return self._engine_values() != self._engine_before

    def accept(self) -> None:
        self.apply()
        super().accept()


def _row(*widgets: QWidget) -> QWidget:
    box = QWidget()
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        layout.addWidget(widget, 1 if isinstance(widget, (QLineEdit, QLabel)) else 0)
    return box

"""What the stress panel loads: an engine it starts on this computer, or a DubStudio server.

The panel's target is its own, independent of the studio's engine: a team probes CosyVoice2
on this machine while the studio keeps auditioning on Piper, or points the panel at a rented
GPU box running ``dubstudio serve``. This computer's engine is described by its backend (the
backend descriptors of :mod:`engine.synthesis.backends`), that backend's options as a form built from
its descriptor (model folder, device, fp16, …), the interpreter of its environment and the
slots. A server is a URL, its bearer token and, for a self-signed certificate, the file to
trust.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.dialog_parts import hint_label
from app.ui.engine.backend_form import BackendOptionsForm, row
from app.ui.folders import Folders
from app.ui.language import BACKEND_NAMES, declared, fill
from app.ui.settings.store import ENGINE_SLOTS
from app.ui.spin_boxes import whole_spin
from engine.core.protocol import EngineError
from engine.synthesis.backends import DESCRIPTORS, OptionError, descriptor
from engine.synthesis.client.remote import RemoteConfig
from engine.synthesis.config import EngineConfig

LOCAL, SERVER = "local", "server"
COMBO_CHARS = 16  # "Piper (embedded" shows; the list shows every name whole


def narrow_combo(combo: QComboBox) -> QComboBox:
    """A combo box as narrow as :data:`COMBO_CHARS` characters: a backend's long name may be cut
    in the box (its list shows it whole), so the settings column fits beside the plots."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(COMBO_CHARS)
    return combo


class TargetBox(QGroupBox):
    """The panel's target; :meth:`engine` or :meth:`server` say what the next run loads."""

    changed = Signal()

    def __init__(self, folders: Folders, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Target"))
        self._folders = folders
        self._cache_dir: str | None = None
        self.location = QComboBox()
        self.location.setObjectName("stressTarget")
        self.location.addItem(self.tr("This computer"), LOCAL)
        self.location.addItem(self.tr("A server (dubstudio serve)"), SERVER)
        self.location.currentIndexChanged.connect(self._sync)

        local = self._build_local()
        server = self._build_server()
        self._local, self._server = local, server
        layout = QVBoxLayout(self)
        top = QFormLayout()
        top.addRow(self.tr("Engine"), self.location)
        layout.addLayout(top)
        layout.addWidget(local)
        layout.addWidget(server)
        for widget in (self.python, self.url, self.token, self.ca_file):
            widget.textChanged.connect(self.changed)
        self.slots.valueChanged.connect(self.changed)
        self._on_backend()
        self._sync()

    # --- building ---------------------------------------------------------------------------

    def _build_local(self) -> QWidget:
        """This computer: backend, its options, interpreter, slots."""
        self.backend = narrow_combo(QComboBox())
        self.backend.setObjectName("stressBackend")
        # Every backend's form, only the chosen one shown (a stack would be as tall as the tallest).
        self.forms = QWidget()
        forms = QVBoxLayout(self.forms)
        forms.setContentsMargins(0, 0, 0, 0)
        self._forms: dict[str, BackendOptionsForm] = {}
        for spec in DESCRIPTORS.values():
            self.backend.addItem(declared(BACKEND_NAMES, spec.label), spec.name)
            form = BackendOptionsForm(spec)
            form.changed.connect(self.changed)
            self._forms[spec.name] = form
            forms.addWidget(form)
        self.backend.currentIndexChanged.connect(self._on_backend)
        self.python = QLineEdit()
        self.python.setObjectName("stressPython")
        self.python.setToolTip(self.tr("The Python that runs the engine; empty: the backend's own environment"))
        browse_python = QPushButton(self.tr("Browse…"))
        browse_python.clicked.connect(self._browse_python)
        self.slots = whole_spin(ENGINE_SLOTS, special=self.tr("auto"))  # 0: the engine decides
        self.slots.setObjectName("stressSlots")
        self.slots.setToolTip(self.tr("Pieces the engine computes at once; auto picks by CPU cores (and GPU memory)"))
        local = QWidget()
        local_form = QFormLayout(local)
        local_form.setContentsMargins(0, 0, 0, 0)
        local_form.addRow(self.tr("Backend"), self.backend)
        local_form.addRow(self.forms)
        local_form.addRow(self.tr("Interpreter"), row(self.python, browse_python))
        local_form.addRow(self.tr("Slots"), self.slots)
        return local

    def _build_server(self) -> QWidget:
        """A server: where, its token, the certificate to trust, which of its backends."""
        self.url = QLineEdit()
        self.url.setObjectName("stressServerUrl")
        self.url.setPlaceholderText(self.tr("https://gpu-box:8765"))
        self.token = QLineEdit()
        self.token.setObjectName("stressServerToken")
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token.setPlaceholderText(self.tr("bearer token, if it asks for one"))
        self.ca_file = QLineEdit()
        self.ca_file.setObjectName("stressServerCa")
        self.ca_file.setPlaceholderText(self.tr("for a self-signed one"))
        browse_ca = QPushButton(self.tr("Browse…"))
        browse_ca.clicked.connect(self._browse_ca)
        self.server_backend = narrow_combo(QComboBox())
        self.server_backend.setObjectName("stressServerBackend")
        self.server_backend.addItem(self.tr("The server's first backend"), None)
        for spec in DESCRIPTORS.values():
            self.server_backend.addItem(declared(BACKEND_NAMES, spec.label), spec.name)
        server = QWidget()
        server_form = QFormLayout(server)
        server_form.setContentsMargins(0, 0, 0, 0)
        server_form.addRow(self.tr("URL"), self.url)
        server_form.addRow(self.tr("Token"), self.token)
        server_form.addRow(self.tr("Certificate"), row(self.ca_file, browse_ca))
        server_form.addRow(self.tr("Backend"), self.server_backend)
        hint = hint_label(self.tr("Slots, interpreter and model are the server's; reports record its URL and replicas."))
        server_form.addRow(hint)
        return server

    # --- what the next run loads --------------------------------------------------------------

    def is_server(self) -> bool:
        return self.location.currentData() == SERVER

    def backend_name(self) -> str:
        return str(self.backend.currentData())

    def form(self, backend: str | None = None) -> BackendOptionsForm:
        return self._forms[backend or self.backend_name()]

    def engine(self) -> EngineConfig:
        """This computer's engine as the controls describe it; raises EngineError (E_BAD_OPTION
        naming the option) for a value the engine would refuse."""
        spec = descriptor(self.backend_name())
        options = spec.validate(self.form().values())
        python = spec.engine_python(self.python.text().strip() or None)
        return EngineConfig(backend=spec.name, backend_options=options, slots=self.slots.value() or None,
                            python=python, cache_dir=self._cache_dir)

    def server(self) -> RemoteConfig:
        """The server as the controls describe it; raises EngineError for a URL that is not one."""
        config = RemoteConfig(self.url.text().strip(), token=self.token.text().strip() or None,
                              backend=self.server_backend.currentData(),
                              ca_file=self.ca_file.text().strip() or None)
        config.validate()
        return config

    @property
    def engine_cache_dir(self) -> str | None:
        """The voice cache folder of this computer's engine (the studio's; None: the default)."""
        return self._cache_dir

    def problem(self) -> str | None:
        """Why the target cannot run as it stands ("CODE: message"), or None."""
        try:
            self.server() if self.is_server() else self.engine()
        except (EngineError, OptionError) as error:
            return str(error)
        return None

    def describe(self) -> str:
        """One line for the status bar: what the run will load."""
        if self.is_server():
            return f"server {self.url.text().strip() or '(no URL)'}"
        slots = self.slots.value()
        return f"{self.backend_name()} on this computer, {slots or 'auto'} slot{'' if slots == 1 else 's'}"

    # --- filling it in --------------------------------------------------------------------------

    def set_engine_config(self, config: EngineConfig) -> None:
        """Show an engine on this computer (the studio's, as a starting point)."""
        self.location.setCurrentIndex(self.location.findData(LOCAL))
        self.set_backend(config.backend, dict(config.backend_options))
        self.python.setText("" if config.python in (None, _default_python(config.backend)) else str(config.python))
        self.slots.setValue(config.slots or 0)
        self._cache_dir = config.cache_dir

    def set_backend(self, backend: str, options: dict[str, Any] | None = None) -> None:
        self.backend.setCurrentIndex(self.backend.findData(backend))
        if options is not None:
            self.form(backend).set_values(options)

    def set_server(self, config: RemoteConfig) -> None:
        """Point the panel at a server."""
        self.location.setCurrentIndex(self.location.findData(SERVER))
        self.url.setText(config.url)
        self.token.setText(config.token or "")
        self.ca_file.setText(config.ca_file or "")
        self.server_backend.setCurrentIndex(max(0, self.server_backend.findData(config.backend)))

    # --- internals ------------------------------------------------------------------------------

    def _on_backend(self) -> None:
        spec = descriptor(self.backend_name())
        for name, form in self._forms.items():
            form.setVisible(name == spec.name)
        if spec.environment is None:
            self.python.setPlaceholderText(self.tr("this Python (default)"))
        elif spec.environment.interpreter() is None:
            self.python.setPlaceholderText(fill(self.tr("not built: {build_script}"), build_script=spec.environment.build_script))
        else:
            self.python.setPlaceholderText(fill(self.tr("default: {default_python}"), default_python=_default_python(spec.name)))
        self.changed.emit()

    def _sync(self) -> None:
        self._local.setVisible(not self.is_server())
        self._server.setVisible(self.is_server())
        self.changed.emit()

    def _browse_python(self) -> None:
        path = self._folders.open_file(self, "interpreters", self.tr("Python that runs the engine"))
        if path:
            self.python.setText(path)

    def _browse_ca(self) -> None:
        path = self._folders.open_file(self, "certificates", self.tr("Certificate to trust"),
                                       self.tr("Certificates (*.pem *.crt *.cer);;All files (*)"))
        if path:
            self.ca_file.setText(str(Path(path)))


def _default_python(backend: str) -> str | None:
    """The interpreter a backend runs under when none is named (None: this one, or not built)."""
    environment = descriptor(backend).environment
    python = environment.interpreter() if environment is not None else None
    return str(python) if python is not None else None

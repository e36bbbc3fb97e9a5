"""The "Voices engine" settings page: choose the speech backend and set it up on this machine.

First, where the engine runs: this computer, or a DubStudio server (URL and token; the server's
administrator sets its backends up, so only the choice of backend applies). For the chosen
backend on this computer (from its descriptor) the page shows and acts on its state:

- **Environment** (backends with their own, e.g. CosyVoice2's ``.venv-cosyvoice``): built or
  not; *Build* runs the backend's build script with its output live, a progress bar and Cancel.
- **Model folder** (backends that need one): *Validate* lists every missing or mismatched
  file and what to do; *Download* fetches the model from the hub (resumes; needs network
  access to the hub); *Synthetic tiny/full* builds the released layout with random weights,
  and a synthetic folder carries the banner "random weights: speech is noise; …".
- **Device** (device_group.py): what torch in the engine's environment sees — a CUDA GPU with
  its name and memory, or the CPU with an honest word about its speed — and options that need
  what the device lacks (fp16, TensorRT, vLLM) are disabled.
- **Options**: the backend's own, as a form built from its descriptor.

Long work runs as child processes (engine.synthesis.backends.setup) on the task runner, never on the
GUI thread; its four groups each start such a job, and they share the one busy area (its status,
progress, Cancel and log: setup_job.py), laid out at the foot of the page.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.engine.backend_form import BackendOptionsForm, row
from app.ui.engine.device_group import DeviceGroup
from app.ui.engine.setup_job import SetupJob
from app.ui.engine.use_notice import accept_use_notices
from app.ui.language import BACKEND_NAMES, OPTION_WORDS, declared, fill, said_error, say
from app.ui.settings.store import ENGINE_LOCATIONS, Settings
from app.ui.tasks import TaskRunner
from engine.core.downloads import ValidationReport
from engine.core.protocol import EngineError
from engine.synthesis.backends import (
    DESCRIPTORS,
    BackendDescriptor,
    OptionError,
    descriptor,
)
from engine.synthesis.backends.cosyvoice_models import (
    model_facts,
    model_kind,
    synthetic_banner,
)
from engine.synthesis.backends.setup import (
    SYNTHETIC_SIZES,
    CommandRun,
    EnvironmentState,
    OutputLine,
    build_environment_run,
    check_environment,
    default_synthetic_folder,
    synthetic_run,
)

LOCATION_TITLES = {"local": QT_TRANSLATE_NOOP("VoicesEnginePage", "This computer"),
                   "server": QT_TRANSLATE_NOOP("VoicesEnginePage", "A server")}
BANNER_STYLE = "background: #fff3cd; color: #664d03; border: 1px solid #ffda6a; padding: 4px;"
DOWNLOAD_NOTE = QT_TRANSLATE_NOOP("VoicesEnginePage", "Download needs network access to the hub: about 5 GB; an "
                                                      "interrupted download resumes.")


SYNTHETIC_TIPS = {
    "tiny": QT_TRANSLATE_NOOP("VoicesEnginePage",
                              "Build the released layout with random weights, tiny: 74 MB in seconds, for tests"),
    "full": QT_TRANSLATE_NOOP("VoicesEnginePage",
                              "Build the released layout with random weights at the released sizes: 4.3 GB in "
                              "about a minute, for speed and hardware probes"),
}


class VoicesEnginePage(QWidget):
    """Backend choice and set-up; ``apply()`` writes it to the settings."""

    remote_changed = Signal(bool)  # the engine moved to a server (True) or to this computer

    def __init__(self, settings: Settings, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("voicesEnginePage")
        self._settings = settings
        self._runner = runner
        self._closed = False
        self._pythons = {name: settings.python_for(name) for name in DESCRIPTORS}

        self._build_location()
        self._build_backend_forms()

        self.environment_group = self._build_environment_group()
        self.model_group = self._build_model_group()
        self.device_group = DeviceGroup(self._runner, self.engine_python, lambda: self.form, self._open)
        self.device_label, self.detect_button = self.device_group.label, self.device_group.detect_button
        self.options_group = QGroupBox(self.tr("Options"))
        QVBoxLayout(self.options_group).addWidget(self.forms)

        self._build_busy_area()
        self._lay_out()

        self._current = settings.engine_backend
        self.backend.setCurrentIndex(self.backend.findData(self._current))
        self.backend.currentIndexChanged.connect(self._on_backend)
        self.location.currentIndexChanged.connect(self._on_location)
        self._show_backend()

    # --- building ------------------------------------------------------------------------------

    def _build_location(self) -> None:
        """Where the engine runs: here, or a server (its address and token)."""
        self.location = QComboBox()
        self.location.setObjectName("engineLocation")
        for location in ENGINE_LOCATIONS:
            self.location.addItem(self.tr(LOCATION_TITLES[location]), location)
        self.location.setCurrentIndex(ENGINE_LOCATIONS.index(self._settings.engine_location))
        self.location.setToolTip(self.tr("Run the engine here, or use the engines of a DubStudio server (dubstudio serve)"))
        self.server_url = QLineEdit(self._settings.server_url)
        self.server_url.setPlaceholderText(self.tr("https://studio-gpu.lan:8765"))
        self.token = QLineEdit(self._settings.server_token())
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token.setPlaceholderText(self.tr("the token the server's administrator gave you"))
        self.server_note = QLabel(self.tr("The server's administrator sets its backends up (dubstudio serve); here you choose which of them the studio uses."))
        self.server_note.setWordWrap(True)

    def _build_backend_forms(self) -> None:
        """The backend choice and one options form per backend (its model folder apart)."""
        self.backend = QComboBox()
        self.backend.setObjectName("backendChoice")
        for spec in DESCRIPTORS.values():
            self.backend.addItem(declared(BACKEND_NAMES, spec.label), spec.name)
        self.summary = QLabel()
        self.summary.setWordWrap(True)

        self.forms = QStackedWidget()
        self._forms: dict[str, BackendOptionsForm] = {}
        self._model_dirs: dict[str, str] = {}
        for spec in DESCRIPTORS.values():
            form = BackendOptionsForm(spec, exclude=(spec.model_option,) if spec.model_option else ())
            form.set_values(self._settings.options_for(spec.name))
            self._forms[spec.name] = form
            self.forms.addWidget(form)
            if spec.model_option:
                self._model_dirs[spec.name] = str(self._settings.options_for(spec.name).get(spec.model_option) or "")

    def _build_busy_area(self) -> None:
        """What a setup job is doing (setup_job.py); the page keeps its widgets as its own."""
        self.job = SetupJob(self._runner, self._update_buttons, self._open, self)
        self.status, self.progress, self.cancel_button = self.job.status, self.job.progress, self.job.cancel_button
        self.step, self.details, self.log = self.job.step, self.job.details, self.job.log

    def _lay_out(self) -> None:
        """The page: the choices on top, the backend's groups, then the busy area, in a scroll area."""
        content = QWidget()
        layout = QVBoxLayout(content)
        head = QFormLayout()
        head.addRow(QCoreApplication.translate("Settings", Settings.engine_location.title), self.location)
        head.addRow(QCoreApplication.translate("Settings", Settings.server_url.title), self.server_url)
        head.addRow(self.tr("Token"), self.token)
        head.addRow(self.tr("Speech backend"), self.backend)
        layout.addLayout(head)
        layout.addWidget(self.server_note)
        layout.addWidget(self.summary)
        for group in (self.environment_group, self.model_group, self.device_group, self.options_group):
            layout.addWidget(group)
        busy_row = QHBoxLayout()
        busy_row.addWidget(self.progress, 1)
        busy_row.addWidget(self.cancel_button)
        layout.addLayout(busy_row)
        layout.addWidget(self.status)
        layout.addWidget(self.step)
        layout.addWidget(self.details)
        layout.addWidget(self.log)
        layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    def _build_environment_group(self) -> QGroupBox:
        group = QGroupBox(self.tr("Environment"))
        self.environment_state = QLabel()
        self.environment_state.setObjectName("environmentState")
        self.environment_state.setWordWrap(True)
        self.python = QLineEdit()
        self.python.setObjectName("enginePython")
        self.python.textChanged.connect(self._on_python_edited)
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse_python)
        self.build_button = QPushButton(self.tr("Build environment"))
        self.build_button.setObjectName("buildEnvironment")
        self.build_button.clicked.connect(self.build_environment)
        form = QFormLayout(group)
        form.addRow(self.tr("State"), row(self.environment_state, self.build_button))
        form.addRow(self.tr("Interpreter"), row(self.python, browse))
        return group

    def _build_model_group(self) -> QGroupBox:
        group = QGroupBox(self.tr("Model folder"))
        self.synthetic_banner = QLabel()
        self.synthetic_banner.setObjectName("syntheticBanner")
        self.synthetic_banner.setStyleSheet(BANNER_STYLE)
        self.synthetic_banner.setWordWrap(True)
        self.synthetic_banner.setVisible(False)
        self.model_dir = QLineEdit()
        self.model_dir.setObjectName("modelDir")
        self.model_dir.setPlaceholderText(self.tr("a CosyVoice2-0.5B folder"))
        self.model_dir.textChanged.connect(self._on_model_dir_edited)
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse_model)
        self.validate_button = QPushButton(self.tr("Validate"))
        self.validate_button.setObjectName("validateModel")
        self.validate_button.clicked.connect(self.validate_model)
        self.download_button = QPushButton(self.tr("Download…"))
        self.download_button.setObjectName("downloadModel")
        self.download_button.clicked.connect(self.download_model)
        self.synthetic_buttons: dict[str, QPushButton] = {}
        for size in SYNTHETIC_SIZES:
            button = QPushButton(fill(self.tr("Synthetic: {size}"), size=size))
            button.setObjectName(f"synthetic_{size}")
            button.clicked.connect(lambda _c=False, s=size: self.build_synthetic(s))
            self.synthetic_buttons[size] = button
        self.hub_endpoint = QLineEdit()
        self.hub_endpoint.setObjectName("hubEndpoint")
        self.hub_endpoint.setPlaceholderText(self.tr("https://huggingface.co (or a mirror)"))
        self.hub_endpoint.setToolTip(self.tr("Download fetches FunAudioLLM/CosyVoice2-0.5B from the Hugging Face hub, or from the mirror named here"))
        note = QLabel(self.tr(DOWNLOAD_NOTE))
        note.setWordWrap(True)
        self.model_report = QPlainTextEdit()
        self.model_report.setObjectName("modelReport")
        self.model_report.setReadOnly(True)
        self.model_report.setMaximumHeight(140)
        self.model_report.setPlaceholderText(self.tr("Validate to see what the folder holds and what is missing."))
        form = QFormLayout(group)
        form.addRow(self.synthetic_banner)
        form.addRow(self.tr("Folder"), row(self.model_dir, browse))
        form.addRow("", row(self.validate_button, self.download_button, *self.synthetic_buttons.values()))
        form.addRow(self.tr("Hub"), self.hub_endpoint)
        form.addRow("", note)
        form.addRow(self.tr("Report"), self.model_report)
        return group

    # --- state ---------------------------------------------------------------------------------

    @property
    def spec(self) -> BackendDescriptor:
        return descriptor(self._current)

    @property
    def form(self) -> BackendOptionsForm:
        return self._forms[self._current]

    @property
    def is_remote(self) -> bool:
        return self.location.currentData() == "server"

    def _on_location(self, _index: int) -> None:
        self._show_backend()
        self.remote_changed.emit(self.is_remote)

    def _on_backend(self, _index: int) -> None:
        self._current = str(self.backend.currentData())
        self._show_backend()

    def _show_backend(self) -> None:
        spec, local = self.spec, not self.is_remote
        licence = "\n" + fill(self.tr("Licence: {0}"), declared(OPTION_WORDS, spec.licence)) if spec.licence else ""
        self.summary.setText(declared(OPTION_WORDS, spec.summary) + licence)
        self.forms.setCurrentWidget(self.form)
        self.server_url.setEnabled(not local)
        self.token.setEnabled(not local)
        self.server_note.setVisible(not local)
        self.python.setEnabled(local)
        self.options_group.setVisible(local)
        self.environment_group.setVisible(local and spec.environment is not None)
        self.model_group.setVisible(local and spec.model_option is not None)
        self.device_group.setVisible(local and spec.environment is not None)
        self.python.blockSignals(True)
        self.python.setText(self._pythons.get(spec.name, ""))
        self.python.blockSignals(False)
        if spec.environment is not None:
            default = spec.environment.interpreter()
            self.python.setPlaceholderText(str(default) if default else
                                           fill(self.tr("{folder}/bin/python (once built)"), folder=spec.environment.folder()))
        if spec.model_option is not None:
            self.model_dir.blockSignals(True)
            self.model_dir.setText(self._model_dirs.get(spec.name, ""))
            self.model_dir.blockSignals(False)
            self.model_report.clear()
            self._update_banner()
        self._update_buttons()
        if local and spec.environment is not None:
            self.refresh_environment()

    def _update_buttons(self) -> None:
        busy = self.job.running is not None
        has_env = self.engine_python() is not None
        self.build_button.setEnabled(not busy)
        self.download_button.setEnabled(not busy)
        self.validate_button.setEnabled(not busy)
        self.detect_button.setEnabled(not busy and has_env)
        for size, button in self.synthetic_buttons.items():
            button.setEnabled(not busy and has_env)
            button.setToolTip(self.tr(SYNTHETIC_TIPS[size]) if has_env else
                              self.tr("Build the environment first: the real CosyVoice classes build the synthetic model"))
        self.cancel_button.setEnabled(busy)
        self.cancel_button.setVisible(busy)
        self.backend.setEnabled(not busy)

    def engine_python(self) -> str | None:
        """The interpreter the chosen backend's engine would run under (None: not built)."""
        try:
            return self.spec.engine_python(self.python.text().strip() or None)
        except EngineError:  # the environment is not built
            return None

    def _on_python_edited(self, text: str) -> None:
        self._pythons[self._current] = text.strip()
        self._update_buttons()

    def _on_model_dir_edited(self, text: str) -> None:
        self._model_dirs[self._current] = text.strip()
        self._update_banner()

    def _update_banner(self) -> None:
        folder = self.model_dir.text().strip()
        banner = synthetic_banner(model_facts(folder)) if folder else None
        self.synthetic_banner.setVisible(banner is not None)
        if banner is not None:
            self.synthetic_banner.setText(say(banner))

    def _browse_python(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Interpreter for the engine"))
        if path:
            self.python.setText(path)

    def _browse_model(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Model folder"), self.model_dir.text())
        if path:
            self.model_dir.setText(path)

    def refresh_environment(self) -> None:
        """Built or not at once; whether it imports its stack, and the device, in the background."""
        environment = self.spec.environment
        if environment is None:
            return
        explicit = self.python.text().strip()
        if not explicit and not environment.is_built():
            self.environment_state.setText(fill(self.tr("Not built ({size_hint}); Build puts it in {folder}"), size_hint=environment.size_hint, folder=environment.folder()))
            self.device_label.setText(self.tr("Build the environment first."))
            self._update_buttons()
            return
        self.environment_state.setText(self.tr("Checking…"))
        backend = self._current

        def shown(state: EnvironmentState) -> None:
            if backend != self._current:
                return
            self.environment_state.setText(state.message[:1].upper() + state.message[1:])
            if state.usable:
                self.device_group.detect()

        if explicit:
            self.environment_state.setText(fill(self.tr("Using {explicit}"), explicit=explicit))
            self.device_group.detect()
            return
        self._runner.run(lambda: check_environment(environment), shown,
                         lambda exc: self.environment_state.setText(fill(self.tr("Cannot check: {exc}"), exc=said_error(exc))), self._open)

    # --- long work --------------------------------------------------------------------------------

    def _start(self, run: CommandRun, title: str, after: Callable[[], None]) -> None:
        self.job.start(run, title, after)

    def _emit(self, line: OutputLine) -> None:
        """Called on the worker thread: the job's output line, for the busy area."""
        self.job.output(line)

    def build_environment(self) -> None:
        environment = self.spec.environment
        if environment is None or self.job.running is not None:
            return
        self._start(build_environment_run(environment, self._emit), "Building the environment",
                    self.refresh_environment)

    def build_synthetic(self, size: str) -> None:
        python = self.engine_python()
        if python is None or self.job.running is not None:
            return
        folder = self.model_dir.text().strip() or str(default_synthetic_folder(size))
        self.model_dir.setText(folder)
        self._start(synthetic_run(python, folder, size, self._emit), f"Building the synthetic {size} model",
                    self.validate_model)

    def download_model(self) -> None:
        if self.job.running is not None:
            return
        folder = self.model_dir.text().strip()
        if not folder:
            self.status.setText(self.tr("Name the folder to download into first (Browse…)."))
            return
        command = [sys.executable, "-m", "app.cli", "cosyvoice", "download", folder]
        if self.hub_endpoint.text().strip():
            command += ["--endpoint", self.hub_endpoint.text().strip()]
        self._start(CommandRun(command, self._emit), "Downloading the model", self.validate_model)

    def validate_model(self) -> None:
        """Check the folder (deeply: the ONNX models load) and show a per-file report."""
        folder = self.model_dir.text().strip()
        if not folder:
            self.model_report.setPlainText(self.tr("No folder named: Browse… to a CosyVoice2-0.5B folder, Download… one, or build a synthetic one."))
            return
        spec = self.spec
        try:
            options = self.form.values()
        except OptionError:
            options = {}
        self.model_report.setPlainText(self.tr("Checking…"))
        self._runner.run(lambda: spec.validate_model(folder, options, deep=True),
                         lambda report: self._show_report(folder, report),
                         lambda exc: self.model_report.setPlainText(fill(self.tr("Cannot check {folder}: {exc}"), folder=folder, exc=said_error(exc))), self._open)

    def _show_report(self, folder: str, report: ValidationReport) -> None:
        synthetic = model_kind(folder)["kind"] == "synthetic"
        if not report.ok:
            verdict = fill(self.tr("✗ {folder}: NOT usable — %n problem(s)", "", len(report.problems)), folder=folder)
        elif synthetic:
            verdict = fill(self.tr("✓ {folder}: complete, usable for speed and hardware probes only: its speech is noise"),
                           folder=folder)
        else:
            verdict = fill(self.tr("✓ {folder}: complete, usable"), folder=folder)
        lines = [verdict]
        lines += [f"  ✗ {problem}" for problem in report.problems]
        lines += [f"  · {warning}" for warning in report.warnings]
        if not report.ok:
            lines.append(self.tr("What to do: Download… into this folder (it resumes and fetches only what is missing "
                                 "or broken), or point Folder at a complete copy."))
        self.model_report.setPlainText("\n".join(lines))
        self._update_banner()

    # --- the dialog's side ------------------------------------------------------------------------

    def backend_options(self, name: str) -> dict[str, Any]:
        """The options of backend ``name`` as edited (model folder included); raises OptionError."""
        spec = descriptor(name)
        values = self._forms[name].values()
        folder = self._model_dirs.get(name, "")
        if spec.model_option and folder:
            values[spec.model_option] = spec.option(spec.model_option).coerce(folder, name)
        return values

    def problem(self) -> str | None:
        """Why the page cannot be applied, or None (a server's backends are its own business)."""
        if self.is_remote:
            return None
        try:
            self.spec.validate(self.backend_options(self._current))
        except OptionError as error:
            return f"{error.code.value}: {error.message}"
        return None

    def apply(self) -> None:
        """Write the chosen backend, every backend's options and interpreters to the settings."""
        s = self._settings
        stored = s.backend_options
        for name in DESCRIPTORS:
            try:
                stored[name] = self.backend_options(name)
            except OptionError:
                if name == self._current and not self.is_remote:
                    raise
        s.backend_options = stored
        s.engine_pythons = {name: path for name, path in self._pythons.items() if path}
        # Asked when a backend is chosen; the one in use (the default embedded voices, say) asks
        # before its first Chinese line renders instead (app/ui/engine/use_notice.py).
        if self._current == s.engine_backend or self._notice_accepted(self.spec):
            s.engine_backend = self._current
        s.engine_location = str(self.location.currentData())
        s.server_url = self.server_url.text().strip()
        if self.token.text().strip() != s.server_token():
            s.set_server_token(self.token.text())

    def _notice_accepted(self, spec: BackendDescriptor) -> bool:
        """Whether the chosen backend may be used: one with a use notice (a non-commercial voice)
        asks once, before its first use; declined, the backend in use stays."""
        return accept_use_notices(self._settings, spec.name, spec.capabilities.languages, self)

    def _open(self) -> bool:
        """Whether results still have a page to show them (see :meth:`shutdown`)."""
        return not self._closed

    def shutdown(self) -> None:
        """The dialog is closing: stop any running step; late results are dropped."""
        self._closed = True
        if self.job.running is not None:
            self.job.running.cancel()


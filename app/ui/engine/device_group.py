"""The "Device" group of the "Voices engine" page: what torch in the backend's environment sees
(a CUDA GPU with its name and memory, or the CPU with an honest word about its speed), asked
in the background once per interpreter; the options form then disables what the device lacks
(fp16, TensorRT, vLLM)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QPushButton, QWidget

from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.engine.backend_form import BackendOptionsForm
from app.ui.language import fill, said_error
from app.ui.tasks import TaskRunner
from engine.synthesis.backends import OptionError
from engine.synthesis.backends.device import summary as device_summary
from engine.synthesis.backends.setup import probe_device

CPU_WARNING = QT_TRANSLATE_NOOP(
    "DeviceGroup",
    "CPU only: torch sees no CUDA GPU. CosyVoice2-0.5B on a CPU runs far slower than real time "
    "(on a 2-core machine the full model took ~0.3 s per speech token, where real time needs 0.04 s: "
    "a 6 s line took 78 s). Fine for checking the set-up and for the tiny synthetic model; "
    "not for dubbing."
)


class DeviceGroup(QGroupBox):
    """The device of the chosen backend's engine: ``engine_python()`` is its interpreter (None
    while not built), ``form()`` its options form; ``is_open()`` says whether results still
    have a page to show them."""

    def __init__(self, runner: TaskRunner, engine_python: Callable[[], str | None],
                 form: Callable[[], BackendOptionsForm], is_open: Callable[[], bool],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Device"))
        self._runner = runner
        self._engine_python = engine_python
        self._form = form
        self._is_open = is_open
        self._facts: dict[str, dict[str, Any]] = {}  # interpreter -> facts
        self.label = QLabel(self.tr("not checked yet"))
        self.label.setObjectName("deviceState")
        self.label.setWordWrap(True)
        self.detect_button = QPushButton(self.tr("Check"))
        self.detect_button.setObjectName("detectDevice")
        self.detect_button.clicked.connect(lambda: self.detect(again=True))
        layout = QHBoxLayout(self)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.detect_button)

    def detect(self, again: bool = False) -> None:
        """Ask torch in the engine's environment what it sees (once per interpreter, unless
        ``again``: the Check button, after a driver or device change)."""
        python = self._engine_python()
        if python is None:
            return
        known = None if again else self._facts.get(python)
        if known is not None:
            self._show(known)
            return
        requested = "auto"
        with contextlib.suppress(OptionError):
            requested = str(self._form().values().get("device", "auto"))
        self.label.setText(self.tr("Asking torch in the engine's environment…"))

        def shown(facts: dict[str, Any]) -> None:
            self._facts[python] = facts
            self._show(facts)

        self._runner.run(lambda: probe_device(python, requested), shown,
                         lambda exc: self.label.setText(fill(self.tr("Cannot tell: {exc}"), exc=said_error(exc))), self._is_open)

    def _show(self, facts: dict[str, Any]) -> None:
        if facts.get("error"):
            self.label.setText(fill(self.tr("Cannot tell: {value}"), value=facts['error']))
        elif facts.get("gpu_name"):
            fp16 = ("fp16 available" + ("" if facts.get("fp16_recommended") else " (little gain on this GPU)")
                    if facts.get("fp16_supported") else "fp16 not supported on this GPU")
            self.label.setText(fill(self.tr("CUDA GPU ({get}): {device_summary}; {fp16}."), get=facts.get('device'), device_summary=device_summary(facts), fp16=fp16))
        else:
            self.label.setText(self.tr(CPU_WARNING))
        self._form().set_device_facts(facts)

"""The studio's engine: which one runs, starting and restarting it, and what the status bar's
engine label and the banner above the tabs say about it.

The engine is the command line's (``--backend``/``--model-dir``, until the engine settings
change), else the settings' (a server's, or this computer's). The controller owns the bridge
unless one is injected (tests share one running engine across windows), and reports through
signals: ``message`` for the status bar, ``ready`` once an engine is up, ``changed`` whenever
what needs the engine may have become possible or impossible.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QLabel, QWidget

from app.ui.engine.bridge import EngineBridge
from app.ui.engine.engine_status import EngineStatus
from app.ui.engine.voices_engine_page import BANNER_STYLE
from app.ui.language import BACKEND_NAMES, declared, fill, say
from app.ui.settings.store import Settings
from app.ui.tasks import TaskRunner
from engine.core.protocol import Capabilities, EngineError, EngineReady, EngineRestarted
from engine.synthesis.backends import descriptor
from engine.synthesis.backends.cosyvoice_models import synthetic_banner
from engine.synthesis.client.remote import RemoteConfig
from engine.synthesis.config import EngineConfig


def describe_engine(config: EngineConfig | RemoteConfig) -> str:
    """"CosyVoice2-0.5B (voice cloning), model /m/CosyVoice2-0.5B" for status lines."""
    if isinstance(config, RemoteConfig):
        return fill(QCoreApplication.translate("EngineController", "{backend} on the server {url}"), backend=config.backend or QCoreApplication.translate("EngineController", "the default backend"),
            url=config.url)
    spec = descriptor(config.backend)
    text = declared(BACKEND_NAMES, spec.label)
    if spec.model_option and config.backend_options.get(spec.model_option):
        text += fill(QCoreApplication.translate("EngineController", ", model {model}"), model=config.backend_options[spec.model_option])
    return text


def studio_engine(settings: Settings) -> EngineConfig | RemoteConfig:
    """Where the studio's engine runs: a server's (Settings: Engine = a server) or this computer's,
    its options checked (raises EngineError when this computer's engine is not set up)."""
    return settings.server() or settings.engine_config()


class EngineController(QObject):
    """Starts the studio's engine and keeps its label and banner up to date."""

    message = Signal(str, int)  # for the status bar: the text, how long it shows (0: until the next)
    ready = Signal(EngineReady)  # an engine is up (the label and banner already say so)
    changed = Signal()  # started, ready, failed or stopped

    def __init__(self, settings: Settings, runner: TaskRunner, bridge: EngineBridge | None,
                 override: EngineConfig | None, parent: QWidget) -> None:
        super().__init__(parent)
        self._settings = settings
        self._override = override
        self._problem = ""  # why the settings' engine cannot start, when it cannot
        self.label = EngineStatus(runner)
        self.banner = QLabel("")  # says when the engine's speech is noise (synthetic weights)
        self.banner.setObjectName("engineBanner")
        self.banner.setStyleSheet(BANNER_STYLE)
        self.banner.setWordWrap(True)
        self.banner.setVisible(False)
        self.owns_bridge = bridge is None  # an injected bridge (tests) outlives the window
        self.bridge = bridge if bridge is not None else EngineBridge(self.config(), parent=self)
        self.bridge.engine_ready.connect(self._on_ready)
        self.bridge.engine_starting.connect(self.label.show_stage)
        self.bridge.start_failed.connect(self._on_failed)
        self.bridge.stopped.connect(self._on_stopped)
        self.bridge.restarted.connect(self._on_restarted)

    def begin(self) -> None:
        """Start our engine, or take up an injected one that may be running already."""
        if self.owns_bridge:
            self.start(self.config())
        elif self.bridge.ready is not None:
            self._on_ready(self.bridge.ready)

    def config(self) -> EngineConfig | RemoteConfig | None:
        """The engine to run: the command line's, else the settings'; None (the reason kept for
        the status bar) when the settings name an engine on this computer that is not set up."""
        if self._override is not None:
            return self._override
        try:
            return studio_engine(self._settings)
        except EngineError as error:
            self._problem = f"{error.code.value}: {error.message}"
            return None

    def local_config(self) -> EngineConfig | None:
        """An engine on this computer as the settings describe it (the Stress panel runs its own)."""
        try:
            return self._settings.engine_config()
        except EngineError:
            return None

    def capabilities(self) -> Capabilities:
        """The running engine's capabilities, or until it is ready those its backend declares."""
        if self.bridge.ready is not None:
            return self.bridge.ready.backend
        config = self.config()
        backend = config.backend if config is not None and config.backend else self._settings.engine_backend
        return descriptor(backend).capabilities

    def start(self, config: EngineConfig | RemoteConfig | None, restart: bool = False) -> None:
        """Start (or restart) the engine, saying where and on which backend; or say why not."""
        self.banner.setVisible(False)
        if config is None:
            self.bridge.stop()
            self.label.set_target(None)
            self.label.show_failed(self._problem, state=self.tr("not set up"))
            self.message.emit(fill(self.tr("The engine cannot start: {problem} — set it up in Settings → Voices engine"), problem=self._problem), 0)
        else:
            self.label.set_target(config if isinstance(config, RemoteConfig) else None)
            what = describe_engine(config)
            self.label.show_starting(what, restart)
            self.bridge.restart(config)  # stops the running engine, if any, first
            if restart:
                self.message.emit(fill(self.tr("Restarting the engine: {what}; lines rendered with another backend become "
                                          "stale"), what=what), 0)
        self.changed.emit()

    def apply_settings(self) -> None:
        """The engine settings changed: they now say which engine runs, so restart on it."""
        self._override = None
        self.start(self.config(), restart=True)

    def stop(self) -> None:
        """The window closes: stop our engine (an injected one is its owner's to stop)."""
        if self.owns_bridge:
            self.bridge.stop()

    def _on_ready(self, ready: EngineReady) -> None:
        self.label.show_ready(ready)
        banner = synthetic_banner(ready.facts)
        self.banner.setText(say(banner or ""))
        self.banner.setVisible(banner is not None)
        self.ready.emit(ready)
        self.changed.emit()

    def _on_failed(self, message: str) -> None:
        self.label.show_failed(message)
        self.message.emit(fill(self.tr("The engine did not start: {message} (check Settings)"), message=message), 0)
        self.changed.emit()

    def _on_stopped(self, reason: str) -> None:
        self.label.show_stopped(reason)
        self.changed.emit()

    def _on_restarted(self, event: EngineRestarted) -> None:
        self.message.emit(self.tr("The engine stopped unexpectedly and was restarted; %n job(s) queued again", "",
                                  len(event.resubmitted)), 0)

"""The status bar's engine label: which engine (this computer or a server), its state, and for
a server the round-trip time, measured every few seconds off the GUI thread."""

from __future__ import annotations

import urllib.parse

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QWidget

from app.ui.language import fill, listed, say
from app.ui.tasks import TaskRunner
from engine.core.protocol import BackendName, EngineReady, EngineStarting
from engine.synthesis.client.remote import RemoteConfig, RemoteEngineClient

PING_EVERY_MS = 5000


class EngineStatus(QLabel):
    """``Engine: this computer · piper · 2 slot(s)`` or ``Engine: server host:8765 · piper · 4 slot(s) · 12 ms``."""

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("engineStatus")
        self._runner = runner
        self._server: RemoteConfig | None = None
        self._ready_text = ""
        self._pinging = False
        self.rtt_s: float | None = None  # the last round trip to the server
        self._timer = QTimer(self)
        self._timer.setInterval(PING_EVERY_MS)
        self._timer.timeout.connect(self.ping)
        self.set_target(None)

    @property
    def where(self) -> str:
        if self._server is None:
            return self.tr("this computer")
        parts = urllib.parse.urlsplit(self._server.url)
        return fill(self.tr("server {address}"), address=parts.netloc)

    def set_target(self, server: RemoteConfig | None) -> None:
        """The engine is on this computer (None) or on ``server``; the label starts over."""
        self._server = server
        self._timer.stop()
        self.rtt_s = None
        self._show(self.tr("starting…"), server.url if server else self.tr("An engine process on this computer"))

    def _show(self, state: str, tip: str) -> None:
        self.setText(fill(self.tr("Engine: {where} · {state}"), where=self.where, state=state))
        self.setToolTip(tip)

    def show_starting(self, what: str, restart: bool = False) -> None:
        """The engine is (re)starting: on what (a backend label, its model folder)."""
        self._timer.stop()
        self._show(self.tr("restarting…") if restart else self.tr("starting…"), what)

    def show_stage(self, stage: EngineStarting) -> None:
        """A start-up stage of this computer's engine ("loading piper", "opening the voice cache"):
        a model that takes minutes to load shows where it is, not only "starting…"."""
        self._show(f"{say(stage.stage)}…", fill(self.tr("Engine process {pid}, {seconds:.1f} s into its start"), pid=stage.pid, seconds=stage.elapsed_s))

    def show_ready(self, ready: EngineReady) -> None:
        caps = ready.backend
        device = ready.facts.get("device")  # where the model runs, for backends that say
        self._ready_text = f"{say(BackendName(caps.name))}{f' · {device}' if device else ''} · " + self.tr(
            "%n slot(s)", "", ready.slots)
        languages = listed(caps.languages)
        if self._server is None:
            self._show(fill(self.tr("{ready} · ready in {seconds:.1f} s"), ready=self._ready_text,
                                                                           seconds=ready.start_s),
                       fill(self.tr("Engine process {pid}; languages: {languages}"), pid=ready.pid,
                                                                                      languages=languages))
            return
        self._show(self._ready_text, fill(self.tr("{url}; %n slot(s) over all replicas; languages: {languages}", "",
                                             ready.slots), url=self._server.url, languages=languages))
        self._timer.start()
        self.ping()

    def show_failed(self, message: str, state: str = "") -> None:
        self._timer.stop()
        self._show(state or self.tr("failed to start"), message)

    def show_stopped(self, reason: str) -> None:
        self._timer.stop()
        self._show(self.tr("stopped"), reason)

    def ping(self) -> None:
        """Measure one round trip to the server in the background (one at a time)."""
        if self._server is None or self._pinging:
            return
        self._pinging = True
        server = self._server
        client = RemoteEngineClient(RemoteConfig(server.url, token=server.token, ca_file=server.ca_file,
                                                 connect_timeout_s=PING_EVERY_MS / 1000))

        def done(rtt: float) -> None:
            self._pinging = False
            if self._server is server:
                self.rtt_s = rtt
                self._show(fill(self.tr("{ready} · {ms:.0f} ms"), ready=self._ready_text, ms=rtt * 1000),
                           fill(self.tr("{url}: round trip {ms:.1f} ms"), url=server.url, ms=rtt * 1000))

        def failed(error: BaseException) -> None:
            self._pinging = False
            if self._server is server:
                self.rtt_s = None
                self._show(fill(self.tr("{ready} · unreachable"), ready=self._ready_text), f"{server.url}: {error}")

        self._runner.run(client.ping, done, failed)

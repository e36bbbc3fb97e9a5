"""The engine as a QObject: requests go in as method calls, events come out as signals.

One reader QThread owns the blocking side of :class:`engine.synthesis.client.local.EngineClient`: it starts
the engine (which blocks until the model is loaded), then blocks on ``get_event()`` and emits
each event; Qt queues the emission to the GUI thread, so every slot connected to the bridge
runs on the GUI thread and may touch widgets. The reader stops on the client's sentinel
(``wake()`` makes a blocked ``get_event()`` return ``EngineStopped("wake")``). It lives as long
as the engine and has no outcome, so it is a thread of its own, not an operation of
:mod:`app.ui.tasks` (docs/seams.md).

The client has one consumer of events, so the studio's parts (the render session, the
auditioning) all listen to this bridge instead of the client. The stress panel runs its own
engine, so its chunk traffic stays off the GUI thread and out of the studio's work.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QThread, Signal, Slot

from app.ui.language import said_error
from engine.core.protocol import (
    AudioChunk,
    EngineClientProtocol,
    EngineReady,
    EngineRestarted,
    EngineStarting,
    EngineStopped,
    ErrorCode,
    Job,
    JobFailed,
    JobFinished,
    JobQueued,
    JobStarted,
    RequestFailed,
    SlotsChanged,
    Stats,
    VoicePrepared,
    VoiceSpec,
)
from engine.synthesis.client import connect

if TYPE_CHECKING:
    from engine.synthesis.client.remote import RemoteConfig
    from engine.synthesis.config import EngineConfig

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EngineStartFailed:
    """The engine could not start; the reader reports this instead of EngineReady."""

    message: str


@dataclass(frozen=True)
class Relay:
    """The signal the bridge emits for one event type, and what it carries."""

    signal: str  # an EngineBridge signal
    field: str | None = None  # the event's field it carries; None: the event itself


# Each event the bridge hears, declared once with its signal (engine_event carries them all).
EVENT_SIGNALS: dict[type, Relay] = {
    EngineStarting: Relay("engine_starting"),
    EngineReady: Relay("engine_ready"),
    EngineStartFailed: Relay("start_failed", "message"),
    JobQueued: Relay("job_queued"),
    JobStarted: Relay("job_started"),
    AudioChunk: Relay("chunk"),
    JobFinished: Relay("job_finished"),
    JobFailed: Relay("job_failed"),
    VoicePrepared: Relay("voice_prepared"),
    RequestFailed: Relay("request_failed"),
    SlotsChanged: Relay("slots_changed", "slots"),
    Stats: Relay("stats"),
    EngineRestarted: Relay("restarted"),
    EngineStopped: Relay("stopped", "reason"),
}


class _Reader(QThread):
    """Starts the engine, then relays its events until the stop sentinel arrives."""

    received = Signal(object)  # an Event or EngineStartFailed; not "event": QObject's event handler

    def __init__(self, client: EngineClientProtocol, stopping: Callable[[], bool], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._client = client
        self._stopping = stopping

    def run(self) -> None:
        try:
            ready = self._client.start(on_progress=self.received.emit)  # EngineStarting, stage by stage
        except Exception as exc:  # any failure to start is shown, never raised into Qt
            log.exception("engine failed to start")
            code = getattr(exc, "code", None)
            prefix = f"{code.value}: " if code is not None else f"{ErrorCode.ENGINE_START.value}: "
            self.received.emit(EngineStartFailed(prefix + said_error(exc)))
            return
        self.received.emit(ready)
        while True:
            ev = self._client.get_event(timeout=1.0)
            if ev is None:
                if self._stopping():  # a wake() sent while the engine was still starting is lost
                    return
                continue
            if isinstance(ev, EngineStopped) and (ev.reason != "wake" or self._stopping()):
                self.received.emit(ev)
                return
            if not isinstance(ev, EngineStopped):
                self.received.emit(ev)


class EngineBridge(QObject):
    """Owns an engine client and turns its events into signals on the GUI thread."""

    engine_event = Signal(object)  # every event (a Union, which Qt cannot name), for listeners that dispatch themselves
    engine_starting = Signal(EngineStarting)  # a start-up stage ("loading piper", ...)
    engine_ready = Signal(EngineReady)
    start_failed = Signal(str)  # "CODE: message"
    job_queued = Signal(JobQueued)
    job_started = Signal(JobStarted)
    chunk = Signal(AudioChunk)
    job_finished = Signal(JobFinished)
    job_failed = Signal(JobFailed)
    voice_prepared = Signal(VoicePrepared)
    request_failed = Signal(RequestFailed)
    slots_changed = Signal(int)
    stats = Signal(Stats)
    restarted = Signal(EngineRestarted)
    stopped = Signal(str)  # the reason

    def __init__(
        self,
        config: EngineConfig | RemoteConfig | None = None,
        client_factory: Callable[[EngineConfig | RemoteConfig | None], EngineClientProtocol] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._config = config
        self._factory = client_factory or connect
        self._client: EngineClientProtocol | None = None
        self._reader: _Reader | None = None
        self._stopping = False
        self._ready: EngineReady | None = None

    # --- lifecycle --------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._reader is not None

    @property
    def ready(self) -> EngineReady | None:
        """The running engine's EngineReady (backend capabilities, slots), None until ready.

        Named like EngineClient.ready so the render session can read the backend from either.
        """
        return self._ready

    @property
    def is_ready(self) -> bool:
        return self._ready is not None

    @property
    def pid(self) -> int | None:
        return self._client.pid if self._client is not None and self.is_ready else None

    def start(self) -> None:
        """Spawn the engine in the background; ``ready`` or ``start_failed`` follows."""
        if self._reader is not None:
            return
        self._stopping = False
        self._ready = None
        self._client = self._factory(self._config)
        self._reader = _Reader(self._client, lambda: self._stopping, self)
        self._reader.received.connect(self._dispatch)
        self._reader.start()

    def stop(self) -> None:
        """Stop the reader with the sentinel, then shut the engine down (blocks briefly)."""
        reader, client = self._reader, self._client
        if reader is None or client is None:
            return
        self._stopping = True
        client.wake()
        reader.wait()
        # Events the reader emitted before it stopped are still queued for us; drop them.
        reader.received.disconnect(self._dispatch)
        self._reader = None
        self._client = None
        self._ready = None
        try:
            client.close()
        except Exception:  # shutting down: report, never block the quit
            log.exception("engine close failed")
        # The engine's own EngineStopped never reaches us (the reader left on the sentinel),
        # so tell listeners here: render sessions end the jobs that will never finish.
        self._dispatch(EngineStopped("stopped by the studio"))

    def _discard(self) -> None:
        """Forget a reader that ended on its own (start failed) and tidy its client."""
        reader, client = self._reader, self._client
        self._reader = None
        self._client = None
        if reader is not None:
            reader.wait()
        if client is not None:
            try:
                client.close()
            except Exception:
                log.exception("engine close failed")

    def restart(self, config: EngineConfig | RemoteConfig | None) -> None:
        """Apply new engine settings: stop this engine and start one with ``config`` (a
        RemoteConfig: the engines of a DubStudio server)."""
        self.stop()
        self._config = config
        self.start()

    # --- requests (GUI thread) --------------------------------------------------------------

    def _require(self) -> EngineClientProtocol:
        if self._client is None or not self.is_ready:
            raise RuntimeError(f"{ErrorCode.ENGINE_START}: the engine is not running yet")
        return self._client

    def submit(self, job: Job) -> float:
        return self._require().submit(job)

    def cancel(self, job_id: str) -> None:
        self._require().cancel(job_id)

    def set_slots(self, n: int) -> None:
        self._require().set_slots(n)

    def prepare_voice(self, voice: VoiceSpec) -> str:
        return self._require().prepare_voice(voice)

    def request_stats(self) -> str:
        return self._require().request_stats()

    # --- events -------------------------------------------------------------------------------

    @Slot(object)
    def _dispatch(self, ev: object) -> None:
        if isinstance(ev, EngineReady):
            self._ready = ev
        self.engine_event.emit(ev)
        relay = EVENT_SIGNALS.get(type(ev))
        if relay is None:
            log.warning("the bridge has no signal for %s", type(ev).__name__)
            return
        if isinstance(ev, EngineStartFailed):
            self._discard()  # before listeners hear it, so they may start again
        getattr(self, relay.signal).emit(ev if relay.field is None else getattr(ev, relay.field))

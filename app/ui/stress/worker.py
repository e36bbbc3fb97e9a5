"""Runs a bench on a worker thread and hands its progress to the GUI through a queue.

A run may first need getting ready — a hardware probe builds its synthetic model folder when
it is missing, which takes minutes — so the worker can take a *preparation* that returns the
bench settings; it runs on the same thread, reports its lines as :class:`Preparing` messages,
and can be stopped like the run itself.

The runner thread only puts messages into a ``queue.SimpleQueue``; the panel's redraw timer
drains it. The GUI thread therefore does a bounded amount of work per frame however fast
jobs end, and never waits on the engine. That is why the bench is its own thread rather than an
operation of :mod:`app.ui.tasks`, whose reports are one queued signal each (docs/seams.md).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass

from engine.core.codes import ErrorCode
from engine.load import BenchError, BenchSession, BenchSettings, Progress, RunFailed

log = logging.getLogger(__name__)

SessionFactory = Callable[[BenchSettings, Callable[[Progress], None]], BenchSession]


@dataclass(frozen=True)
class Preparing:
    """A line from getting the run ready (e.g. "build-synthetic: step 2/5 …"), with the
    fraction done when the line tells it."""

    text: str
    fraction: float | None = None


Message = Progress | Preparing


class PrepareContext:
    """What a preparation gets: a way to report lines, and to say how to stop its current step."""

    def __init__(self, worker: BenchWorker) -> None:
        self._worker = worker

    def say(self, text: str, fraction: float | None = None) -> None:
        self._worker.messages.put(Preparing(text, fraction))

    def hold(self, cancel: Callable[[], None]) -> None:
        """``cancel`` stops what runs now (a child process); Stop calls it."""
        self._worker._hold(cancel)

    @property
    def stopped(self) -> bool:
        return self._worker.stopped


Prepare = Callable[[PrepareContext], BenchSettings]


class BenchWorker:
    """One bench run in a background thread; :meth:`drain` returns what happened since.

    ``plan`` is the run's settings, or a preparation that makes them (on the thread).
    """

    def __init__(self, plan: BenchSettings | Prepare, factory: SessionFactory = BenchSession) -> None:
        self.messages: queue.SimpleQueue[Message] = queue.SimpleQueue()
        if isinstance(plan, BenchSettings):
            plan.validate()  # a bad plan is refused here, on the GUI thread, before any thread starts
        self._plan = plan
        self._factory = factory
        self._lock = threading.Lock()
        self._stopped = False
        self._session: BenchSession | None = None
        self._cancel_step: Callable[[], None] | None = None
        self._thread = threading.Thread(target=self._run, name="stress-runner", daemon=True)

    @property
    def stopped(self) -> bool:
        return self._stopped

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        try:
            settings = self._plan if isinstance(self._plan, BenchSettings) else self._plan(PrepareContext(self))
            with self._lock:
                self._cancel_step = None
                if self._stopped:
                    self.messages.put(RunFailed(f"{ErrorCode.CANCELLED}: stopped before the run started"))
                    return
                self._session = self._factory(settings, self.messages.put)
            self._session.run()
        except BenchError:
            pass  # the session already reported RunFailed
        except Exception as error:  # anything else must reach the panel too, not vanish in a thread
            if self._stopped:
                self.messages.put(RunFailed(f"{ErrorCode.CANCELLED}: stopped while getting ready ({error})"))
                return
            log.exception("stress run failed")
            code = getattr(getattr(error, "code", None), "value", None)  # an EngineError keeps its own code
            text = str(error)
            self.messages.put(RunFailed(text if code and text.startswith(code) else
                                        f"{code or ErrorCode.BENCH}: {type(error).__name__}: {error}"))

    def _hold(self, cancel: Callable[[], None]) -> None:
        with self._lock:
            self._cancel_step = cancel
            stopped = self._stopped
        if stopped:
            cancel()

    def stop(self) -> None:
        """Ask the run to stop (cancels jobs in flight, or the preparation step); returns at once."""
        with self._lock:
            self._stopped = True
            session, cancel = self._session, self._cancel_step
        if session is not None:
            session.stop()
        if cancel is not None:
            cancel()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the thread; True when it has ended."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def drain(self, limit: int = 500) -> list[Message]:
        """Up to ``limit`` pending messages, oldest first (the rest wait for the next frame)."""
        out: list[Message] = []
        while len(out) < limit:
            try:
                out.append(self.messages.get_nowait())
            except queue.Empty:
                break
        return out

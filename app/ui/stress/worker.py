"""Runs a bench on a worker thread and hands its progress to the GUI through a queue.

The runner thread only puts messages into a ``queue.SimpleQueue``; the panel's redraw timer
drains it. The GUI thread therefore does a bounded amount of work per frame however fast
jobs end, and never waits on the engine.
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Callable

from engine.load import BenchError, BenchSession, BenchSettings, Progress, RunFailed

log = logging.getLogger(__name__)

SessionFactory = Callable[[BenchSettings, Callable[[Progress], None]], BenchSession]


class BenchWorker:
    """One bench run in a background thread; :meth:`drain` returns what happened since."""

    def __init__(self, settings: BenchSettings, factory: SessionFactory = BenchSession) -> None:
        self.messages: queue.SimpleQueue[Progress] = queue.SimpleQueue()
        self._session = factory(settings, self.messages.put)
        self._thread = threading.Thread(target=self._run, name="stress-runner", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        try:
            self._session.run()
        except BenchError:
            pass  # the session already reported RunFailed
        except Exception as error:  # anything else must reach the panel too, not vanish in a thread
            log.exception("stress run failed")
            self.messages.put(RunFailed(f"E_BENCH: {type(error).__name__}: {error}"))

    def stop(self) -> None:
        """Ask the run to stop (cancels jobs in flight); returns at once."""
        self._session.stop()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the thread; True when it has ended."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def drain(self, limit: int = 500) -> list[Progress]:
        """Up to ``limit`` pending messages, oldest first (the rest wait for the next frame)."""
        out: list[Progress] = []
        while len(out) < limit:
            try:
                out.append(self.messages.get_nowait())
            except queue.Empty:
                break
        return out

"""Background work with its outcome delivered on the GUI thread.

Slow work (decoding a clip, sizing the cache, exporting a mix) runs off the GUI thread; its
success or failure callback always runs on the GUI thread, so callbacks may touch widgets.
The studio takes a :class:`TaskRunner`; tests pass :class:`SyncTaskRunner` so work happens
inline and assertions need no waiting (the pattern of Anki's taskman and Picard's injectable
thread pool).
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Protocol

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, Signal, Slot

log = logging.getLogger(__name__)

Work = Callable[[], Any]
OnSuccess = Callable[[Any], None]
OnFailure = Callable[[BaseException], None]


def _log_failure(exc: BaseException) -> None:
    log.error("background task failed", exc_info=exc)


class TaskRunner(Protocol):
    """Runs ``work`` somewhere and calls exactly one of the callbacks on the GUI thread."""

    def run(self, work: Work, on_success: OnSuccess | None = None, on_failure: OnFailure | None = None) -> None: ...

    def wait_idle(self) -> None:
        """Block until every task started so far has delivered its outcome."""
        ...


class SyncTaskRunner:
    """Runs work inline: deterministic tests, no threads."""

    def run(self, work: Work, on_success: OnSuccess | None = None, on_failure: OnFailure | None = None) -> None:
        try:
            result = work()
        except Exception as exc:  # noqa: BLE001 - the failure callback decides what the user sees
            (on_failure or _log_failure)(exc)
            return
        if on_success is not None:
            on_success(result)

    def wait_idle(self) -> None:
        return None


class _Runnable(QRunnable):
    def __init__(self, work: Work, deliver: Callable[[Callable[[], None]], None]) -> None:
        super().__init__()
        self._work = work
        self._deliver = deliver
        self.on_success: OnSuccess | None = None
        self.on_failure: OnFailure | None = None

    def run(self) -> None:
        try:
            result = self._work()
        except Exception as exc:  # noqa: BLE001 - the failure callback decides what the user sees
            failure, error = self.on_failure or _log_failure, exc  # ``exc`` is unbound after except
            self._deliver(lambda: failure(error))
            return
        success = self.on_success
        self._deliver(lambda: success(result) if success is not None else None)


class ThreadTaskRunner(QObject):
    """Runs work on a QThreadPool; a queued signal brings each outcome to the GUI thread."""

    _outcome = Signal(object)

    def __init__(self, pool: QThreadPool | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = pool if pool is not None else QThreadPool.globalInstance()
        self._pending = 0
        self._outcome.connect(self._on_outcome)

    def run(self, work: Work, on_success: OnSuccess | None = None, on_failure: OnFailure | None = None) -> None:
        runnable = _Runnable(work, self._outcome.emit)
        runnable.on_success = on_success
        runnable.on_failure = on_failure
        self._pending += 1
        self._pool.start(runnable)

    @Slot(object)
    def _on_outcome(self, closure: Callable[[], None]) -> None:
        self._pending -= 1
        closure()

    @property
    def pending(self) -> int:
        """Tasks whose outcome has not yet been delivered."""
        return self._pending

    def wait_idle(self) -> None:
        self._pool.waitForDone()
        QCoreApplication.sendPostedEvents(self)  # deliver the outcomes now queued for us

"""Background work with its outcome delivered on the GUI thread.

Slow work (decoding a clip, sizing the cache, exporting a mix) runs off the GUI thread as a
:class:`QueryOp` typed by its result, as Anki's ``aqt.operations.QueryOp``: its success or
failure callback always runs on the GUI thread, so callbacks may touch widgets, and mypy checks
that the success callback takes what the work returns. The studio takes a
:class:`ThreadTaskRunner`; tests pass :class:`SyncTaskRunner` so work happens inline and
assertions need no waiting (the pattern of Anki's taskman and Picard's injectable thread pool).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from PySide6.QtCore import (
    QCoreApplication,
    QObject,
    QRunnable,
    QThreadPool,
    Signal,
    Slot,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
OnFailure = Callable[[Exception], None]
Delivery = Callable[[], None]  # an outcome, ready to be delivered on the GUI thread


def _log_failure(exc: Exception) -> None:
    log.error("background task failed", exc_info=exc)


@dataclass(frozen=True)
class QueryOp(Generic[T]):
    """One background operation: ``work`` off the GUI thread, then exactly one of ``success``
    (with its result) or ``failure`` (with its exception; logged when there is none) on it.

    ``alive`` says whether the outcome is still wanted when it arrives: a dialog or panel that
    closed meanwhile passes ``lambda: not self._closed``, and neither callback runs.
    """

    work: Callable[[], T]
    success: Callable[[T], None] | None = None
    failure: OnFailure | None = None
    alive: Callable[[], bool] | None = None

    def perform(self) -> Delivery:
        """Run the work here (any thread) and return its outcome's delivery (for the GUI thread)."""
        try:
            result = self.work()
        except Exception as exc:  # noqa: BLE001 - the failure callback decides what the user sees
            error, failure = exc, self.failure or _log_failure  # ``exc`` is unbound after except
            return lambda: self._deliver(lambda: failure(error))
        success = self.success
        return lambda: self._deliver(lambda: success(result) if success is not None else None)

    def _deliver(self, callback: Delivery) -> None:
        if self.alive is None or self.alive():
            callback()


class TaskRunner(Protocol):
    """Runs ``QueryOp(work, on_success, on_failure, alive)`` somewhere; its outcome arrives on the GUI thread."""

    def run(self, work: Callable[[], T], on_success: Callable[[T], None] | None = None,
            on_failure: OnFailure | None = None, alive: Callable[[], bool] | None = None) -> None: ...

    def wait_idle(self) -> None:
        """Block until every operation started so far has delivered its outcome."""
        ...


class SyncTaskRunner:
    """Runs operations inline: deterministic tests, no threads."""

    def run(self, work: Callable[[], T], on_success: Callable[[T], None] | None = None,
            on_failure: OnFailure | None = None, alive: Callable[[], bool] | None = None) -> None:
        QueryOp(work, on_success, on_failure, alive).perform()()

    def wait_idle(self) -> None:
        return None


class _Runnable(QRunnable):
    def __init__(self, perform: Callable[[], Delivery], deliver: Callable[[Delivery], None]) -> None:
        super().__init__()
        self._perform = perform
        self._deliver = deliver

    def run(self) -> None:
        self._deliver(self._perform())


class ThreadTaskRunner(QObject):
    """Runs operations on a QThreadPool; a queued signal brings each outcome to the GUI thread."""

    _outcome = Signal(object)  # a Delivery (a closure: Qt has no type to name it by)

    def __init__(self, pool: QThreadPool | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = pool if pool is not None else QThreadPool.globalInstance()
        self._pending = 0
        self._outcome.connect(self._on_outcome)

    def run(self, work: Callable[[], T], on_success: Callable[[T], None] | None = None,
            on_failure: OnFailure | None = None, alive: Callable[[], bool] | None = None) -> None:
        self._pending += 1
        self._pool.start(_Runnable(QueryOp(work, on_success, on_failure, alive).perform, self._outcome.emit))

    @Slot(object)
    def _on_outcome(self, deliver: Delivery) -> None:
        self._pending -= 1
        deliver()

    @property
    def pending(self) -> int:
        """Operations whose outcome has not yet been delivered."""
        return self._pending

    def wait_idle(self) -> None:
        self._pool.waitForDone()
        QCoreApplication.sendPostedEvents(self)  # deliver the outcomes now queued for us

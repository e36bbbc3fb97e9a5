"""Background work in the studio: one operation type, with its progress, Cancel and busy state.

Slow work (decoding a clip, sizing the cache, exporting, transcribing a video) runs off the GUI
thread as a :class:`QueryOp` typed by its result, as Anki's ``aqt.operations.QueryOp``: one of
its outcome callbacks runs, on the GUI thread, so callbacks may touch widgets, and mypy checks
that the success callback takes what the work returns. What a long operation needs is part of
it rather than built around it:

- ``progress`` (a :class:`ProgressSpec`) shows a dialog while it runs: a bar (determinate, or
  busy while the work cannot tell how far it is), a label or the stage the work is in, and Cancel;
- Cancel sets the operation's cancel token, which the work checks through the
  :class:`Operation` it is handed and stops at its next check; an exception from the work once
  the token is set is its stopping, so ``cancellation`` runs instead of ``failure``;
- ``name`` says what the studio is busy with while it runs (:attr:`TaskRunner.busy`), which the
  window's action rules read.

A quick query passes only its work and callbacks (:meth:`TaskRunner.run`). The studio takes a
:class:`ThreadTaskRunner`; tests pass :class:`SyncTaskRunner`, which runs operations inline so
assertions need no waiting (the pattern of Anki's taskman and Picard's injectable thread pool).
The studio's few other background threads are not operations; docs/seams.md says why for each.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from PySide6.QtCore import (
    QCoreApplication,
    QObject,
    QRunnable,
    Qt,
    QThreadPool,
    Signal,
    Slot,
)
from PySide6.QtWidgets import QProgressDialog, QWidget

log = logging.getLogger(__name__)

T = TypeVar("T")
OnFailure = Callable[[Exception], None]
Delivery = Callable[[], None]  # an outcome, ready to be delivered on the GUI thread

STEPS = 1000  # a progress bar's resolution


def _log_failure(exc: Exception) -> None:
    log.error("background task failed", exc_info=exc)


@dataclass(frozen=True)
class ProgressSpec:
    """How an operation shows itself while it runs: a progress dialog with Cancel."""

    parent: QWidget
    title: str  # the dialog's title
    label: str  # what the work does, until it reports a stage: "Exporting Video"
    cancelling: str  # said from Cancel until the work stops: "Cancelling the video export"
    # The work's stages in order, key -> label; each takes an equal share of the bar unless
    # ``weights`` gives it another (key -> its share of the time, in any unit). A stage reported
    # as "KEY:NOTE" (the work's estimate of KEY, say) fills KEY's share and shows the label given
    # for "KEY:NOTE" here, else KEY's.
    stages: Mapping[str, str] = field(default_factory=dict)
    weights: Mapping[str, float] = field(default_factory=dict)
    modal: bool = False  # the window waits for it; otherwise the studio stays usable meanwhile


@dataclass(frozen=True)
class _Report:
    fraction: float | None  # 0..1 of the stage (or of the work); None: the work cannot tell
    stage: str | None = None
    order: int = 0  # when it was reported, among the operation's reports


class Operation(QObject):
    """One running operation, as its work and the GUI see it.

    The work is handed it and calls, from its own thread, :meth:`report` or :meth:`report_stage`
    and :meth:`cancelled` (or passes :attr:`token` to code that takes a ``threading.Event``); the
    GUI calls :meth:`cancel`. ``dialog`` is the progress dialog while it runs, if it shows one.
    """

    _reported = Signal(object)  # a _Report; queued to the GUI thread when the work runs elsewhere

    def __init__(self, name: str | None, progress: ProgressSpec | None, runner: QObject) -> None:
        super().__init__(runner)  # owned by Qt, so it is deleted on the GUI thread, not where the work ran
        self.name = name
        self.token = threading.Event()  # the cancel token: Cancel sets it, the work checks it
        self._spec = progress
        self.dialog = self._make_dialog(progress) if progress is not None else None
        # Reports from the GUI thread arrive at once, those of another thread (a helper of the
        # work's) when the event loop gets to them, perhaps after newer ones: those are dropped.
        self._orders = itertools.count(1)  # next() is atomic: any thread may report
        self._shown_order = 0
        self._reported.connect(self._show)

    def report(self, fraction: float | None) -> None:
        """How far the work is, 0..1; None when it cannot tell (the bar then shows it is busy)."""
        self._reported.emit(_Report(fraction, order=next(self._orders)))

    def report_stage(self, stage: str, fraction: float) -> None:
        """How far the work is into ``stage``, one of its :attr:`ProgressSpec.stages`."""
        self._reported.emit(_Report(fraction, stage, next(self._orders)))

    def cancelled(self) -> bool:
        return self.token.is_set()

    def cancel(self) -> None:
        """Ask the work to stop at its next check; the dialog stays up, saying so, until it does."""
        self.token.set()
        if self.dialog is not None and self._spec is not None:
            self.dialog.setLabelText(f"{self._spec.cancelling}…")
            self.dialog.setCancelButtonText("")  # nothing more to click

    def end(self) -> None:
        """Close the dialog (the runner calls this as the outcome arrives)."""
        if self.dialog is not None:
            self.dialog.canceled.disconnect(self.cancel)
            self.dialog.close()
            self.dialog.deleteLater()
            self.dialog = None
        self.deleteLater()

    def _make_dialog(self, spec: ProgressSpec) -> QProgressDialog:
        dialog = QProgressDialog(f"{spec.label}…", self.tr("Cancel"), 0, STEPS, spec.parent)
        dialog.setObjectName("operationProgress")
        dialog.setWindowTitle(spec.title)
        dialog.setWindowModality(Qt.WindowModality.WindowModal if spec.modal else Qt.WindowModality.NonModal)
        dialog.setMinimumDuration(0)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.disconnect(dialog.cancel)  # stay up, saying "Cancelling…", until the work stops
        dialog.canceled.connect(self.cancel)
        dialog.setValue(0)
        dialog.show()  # at once: a quick operation flashes it, a long one must show its Cancel button
        return dialog

    @Slot(object)
    def _show(self, report: _Report) -> None:
        if self.dialog is None or self._spec is None or self.token.is_set() or report.order < self._shown_order:
            return
        self._shown_order = report.order
        if report.fraction is None:
            self.dialog.setRange(0, 0)
            return
        stages, done = [stage for stage in self._spec.stages if ":" not in stage], report.fraction
        key = (report.stage or "").partition(":")[0]
        if report.stage is not None and key in stages:
            label = self._spec.stages.get(report.stage, self._spec.stages[key])
            # The stage alone, as an export's dialog says its work: the bar shows the whole job's
            # percent, and a stage's own beside it read as a contradiction ("Listening… 0%" over 8 %).
            self.dialog.setLabelText(f"{label}…")
            weights = [self._spec.weights.get(stage, 1.0) for stage in stages]
            index = stages.index(key)
            done = (sum(weights[:index]) + weights[index] * report.fraction) / sum(weights)
        self.dialog.setRange(0, STEPS)
        self.dialog.setValue(round(max(0.0, min(1.0, done)) * STEPS))


@dataclass(frozen=True)
class QueryOp(Generic[T]):
    """One background operation: ``work`` off the GUI thread, handed its :class:`Operation`, then
    one of ``success`` (with its result), ``failure`` (with its exception; logged when there is
    none) or, when Cancel stopped it, ``cancellation``, on the GUI thread.

    ``alive`` says whether the outcome is still wanted when it arrives: a dialog or panel that
    closed meanwhile passes ``lambda: not self._closed``, and no callback runs. ``name`` is what
    the studio is busy with while it runs ("exporting the video"); None keeps nobody busy.
    ``progress`` shows a dialog with Cancel while it runs; None shows nothing.
    """

    work: Callable[[Operation], T]
    success: Callable[[T], None] | None = None
    failure: OnFailure | None = None
    cancellation: Callable[[], None] | None = None
    alive: Callable[[], bool] | None = None
    name: str | None = None
    progress: ProgressSpec | None = None

    def perform(self, operation: Operation) -> Delivery:
        """Run the work here (any thread) and return its outcome's delivery (for the GUI thread)."""
        try:
            result = self.work(operation)
        except Exception as exc:  # noqa: BLE001 - the failure callback decides what the user sees
            if operation.cancelled():
                cancellation = self.cancellation
                return lambda: self._deliver(lambda: cancellation() if cancellation is not None else None)
            error, failure = exc, self.failure or _log_failure  # ``exc`` is unbound after except
            return lambda: self._deliver(lambda: failure(error))
        success = self.success
        return lambda: self._deliver(lambda: success(result) if success is not None else None)

    def _deliver(self, callback: Delivery) -> None:
        if self.alive is None or self.alive():
            callback()


class TaskRunner(QObject):
    """Starts operations and knows which run; subclasses say where the work runs. Each outcome
    arrives on the GUI thread, after the operation's dialog closed and it stopped being busy."""

    started = Signal(object)  # an Operation, as it starts
    ended = Signal(object)  # an Operation, as its outcome is delivered

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._running: list[Operation] = []

    @property
    def busy(self) -> str | None:
        """What the studio is busy with: the name of the earliest named operation still running."""
        return next((operation.name for operation in self._running if operation.name is not None), None)

    def run(self, work: Callable[[], T], on_success: Callable[[T], None] | None = None,
            on_failure: OnFailure | None = None, alive: Callable[[], bool] | None = None) -> None:
        """A quick query: no dialog, no Cancel, nobody kept busy."""
        self.start(QueryOp(lambda _operation: work(), on_success, on_failure, alive=alive))

    def start(self, op: QueryOp[T]) -> Operation:
        """Start ``op``; it shows its dialog and keeps the runner busy until its outcome arrives."""
        operation = Operation(op.name, op.progress, self)
        self._running.append(operation)
        self.started.emit(operation)

        def perform() -> Delivery:
            deliver = op.perform(operation)

            def end_then_deliver() -> None:
                operation.end()
                self._running.remove(operation)
                self.ended.emit(operation)
                deliver()

            return end_then_deliver

        self._dispatch(perform)
        return operation

    def _dispatch(self, perform: Callable[[], Delivery]) -> None:
        """Call ``perform`` somewhere, then the delivery it returns on the GUI thread."""
        raise NotImplementedError

    def wait_idle(self) -> None:
        """Block until every operation started so far has delivered its outcome."""
        raise NotImplementedError


class SyncTaskRunner(TaskRunner):
    """Runs operations inline: deterministic tests, no threads."""

    def _dispatch(self, perform: Callable[[], Delivery]) -> None:
        perform()()

    def wait_idle(self) -> None:
        return None


class _Runnable(QRunnable):
    def __init__(self, perform: Callable[[], Delivery], deliver: Callable[[Delivery], None]) -> None:
        super().__init__()
        self._perform = perform
        self._deliver = deliver

    def run(self) -> None:
        self._deliver(self._perform())


class ThreadTaskRunner(TaskRunner):
    """Runs operations on a QThreadPool; a queued signal brings each outcome to the GUI thread."""

    _outcome = Signal(object)  # a Delivery (a closure: Qt has no type to name it by)

    def __init__(self, pool: QThreadPool | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = pool if pool is not None else QThreadPool.globalInstance()
        self._pending = 0
        self._outcome.connect(self._on_outcome)

    def _dispatch(self, perform: Callable[[], Delivery]) -> None:
        self._pending += 1
        self._pool.start(_Runnable(perform, self._outcome.emit))

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

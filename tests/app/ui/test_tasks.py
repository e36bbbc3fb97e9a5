"""The task runners: outcomes arrive on the GUI thread, failures reach the failure callback; an
operation's progress reaches its dialog, its Cancel stops the work, and the runner is busy with
it while it runs."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import pytest
from PySide6.QtWidgets import QPushButton, QWidget
from pytestqt.qtbot import QtBot

from app.ui.tasks import (
    STEPS,
    Operation,
    ProgressSpec,
    QueryOp,
    SyncTaskRunner,
    ThreadTaskRunner,
)


def test_sync_runner_calls_back_inline() -> None:
    got: list[object] = []
    runner = SyncTaskRunner()
    runner.run(lambda: 41 + 1, got.append, got.append)
    runner.run(lambda: 1 / 0, got.append, got.append)
    assert got[0] == 42
    assert isinstance(got[1], ZeroDivisionError)


def test_thread_runner_delivers_on_gui_thread(qtbot: QtBot) -> None:
    runner = ThreadTaskRunner()
    worker: list[threading.Thread] = []
    callback_threads: list[threading.Thread] = []
    outcomes: list[object] = []

    def work() -> int:
        worker.append(threading.current_thread())
        return 7

    def done(value: object) -> None:
        callback_threads.append(threading.current_thread())
        outcomes.append(value)

    def failed(exc: BaseException) -> None:
        callback_threads.append(threading.current_thread())
        outcomes.append(exc)

    def boom() -> None:
        raise KeyError("x")

    runner.run(work, done)
    runner.run(boom, on_failure=failed)
    qtbot.waitUntil(lambda: runner.pending == 0)
    assert worker[0] is not threading.main_thread()
    assert callback_threads == [threading.main_thread()] * 2
    assert len(outcomes) == 2 and 7 in outcomes  # each callback ran once, with the outcome
    assert any(isinstance(o, KeyError) for o in outcomes)


def test_each_outcome_reaches_its_own_callback_on_the_gui_thread(qtbot: QtBot) -> None:
    """A QueryOp's success gets the work's result and its failure the exception, each once,
    on the GUI thread, whatever thread the work ran on."""
    runner = ThreadTaskRunner()
    successes: list[tuple[str, threading.Thread]] = []
    failures: list[tuple[Exception, threading.Thread]] = []

    def fail() -> str:
        raise ValueError("E_TEST: the work failed")

    runner.run(lambda: threading.current_thread().name, lambda name: successes.append((name, threading.current_thread())),
               lambda exc: failures.append((exc, threading.current_thread())))
    runner.run(fail, lambda name: successes.append((name, threading.current_thread())),
               lambda exc: failures.append((exc, threading.current_thread())))
    runner.wait_idle()
    assert runner.pending == 0
    assert len(successes) == 1 and successes[0][0] != threading.main_thread().name  # the work ran elsewhere
    assert successes[0][1] is threading.main_thread()
    assert len(failures) == 1 and str(failures[0][0]) == "E_TEST: the work failed"
    assert failures[0][1] is threading.main_thread()


def test_an_outcome_nobody_wants_any_more_is_dropped(qtbot: QtBot) -> None:
    """``alive`` is asked on the GUI thread when the outcome arrives: a dialog closed meanwhile
    gets neither callback."""
    heard: list[object] = []
    for runner in (SyncTaskRunner(), ThreadTaskRunner()):
        runner.run(lambda: 1, heard.append, heard.append, alive=lambda: False)
        runner.run(lambda: 1 / 0, heard.append, heard.append, alive=lambda: False)
        runner.run(lambda: 2, heard.append, heard.append, alive=lambda: True)
        runner.wait_idle()
    assert heard == [2, 2]


def test_a_failure_without_a_callback_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="app.ui.tasks"):
        SyncTaskRunner().run(lambda: {}["missing"])
    assert "background task failed" in caplog.text and "KeyError" in caplog.text


def test_a_query_op_runs_its_work_and_delivers_only_when_told() -> None:
    ran: list[str] = []
    got: list[int] = []

    def work() -> int:
        ran.append("work")
        return 6 * 7

    runner = SyncTaskRunner()
    deliver = QueryOp(lambda _operation: work(), success=got.append).perform(Operation(None, None, runner))
    assert ran == ["work"] and got == []  # the outcome waits for the GUI thread
    deliver()
    assert got == [42]


@pytest.fixture
def parent(qtbot: QtBot) -> QWidget:
    widget = QWidget()
    qtbot.addWidget(widget)
    return widget


def paced_work(carry_on: threading.Event, *steps: Callable[[Operation], None]) -> Callable[[Operation], str]:
    """Work that takes each step, then waits for the test's go-ahead (``carry_on``) before the
    next; it ends with "done"."""

    def work(operation: Operation) -> str:
        for step in steps:
            step(operation)
            carry_on.wait(timeout=60)
            carry_on.clear()
        return "done"

    return work


def test_an_operations_progress_reaches_its_dialog(qtbot: QtBot, parent: QWidget) -> None:
    """What the work reports on its thread shows in its dialog: how far, the stage's label (without
    the stage's own percent, which read as a contradiction of the bar's: "正在听取对白… 0%" over 8 %,
    found by k42d), and a busy bar while it cannot tell; the dialog closes with the outcome."""
    runner = ThreadTaskRunner()
    carry_on = threading.Event()
    got: list[str] = []
    work = paced_work(carry_on, lambda operation: operation.report_stage("second", 0.5),
                      lambda operation: operation.report(None))
    stages = {"first": "Looking", "second": "Listening"}
    operation = runner.start(QueryOp(work, got.append, name="testing",
                                     progress=ProgressSpec(parent, "Test", "Starting", "Stopping", stages)))
    dialog = operation.dialog
    assert dialog is not None and dialog.isVisible() and dialog.windowTitle() == "Test"
    qtbot.waitUntil(lambda: dialog.value() == STEPS * 3 // 4)  # half of the second of two stages
    assert dialog.labelText() == "Listening…" and runner.busy == "testing"
    carry_on.set()
    qtbot.waitUntil(lambda: dialog.maximum() == 0)  # the work cannot tell how far it is: a busy bar
    carry_on.set()
    qtbot.waitUntil(lambda: got == ["done"])
    assert operation.dialog is None and runner.busy is None and runner.pending == 0


def test_a_stage_note_fills_its_stages_share_under_its_own_label(qtbot: QtBot, parent: QWidget) -> None:
    """"second:estimated" (the work's estimate of the second stage) moves the second stage's share
    of the bar and says it is an estimate; it is no stage of its own in the bar's order."""
    runner = ThreadTaskRunner()
    carry_on = threading.Event()
    got: list[str] = []
    work = paced_work(carry_on, lambda operation: operation.report_stage("second:estimated", 0.5),
                      lambda operation: operation.report_stage("second", 0.6))
    stages = {"first": "Looking", "second": "Listening", "second:estimated": "Listening (estimated)"}
    operation = runner.start(QueryOp(work, got.append, name="testing",
                                     progress=ProgressSpec(parent, "Test", "Starting", "Stopping", stages)))
    dialog = operation.dialog
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.value() == STEPS * 3 // 4)  # half of the second of two stages
    assert dialog.labelText() == "Listening (estimated)…"
    carry_on.set()
    qtbot.waitUntil(lambda: dialog.value() == STEPS * 4 // 5)
    assert dialog.labelText() == "Listening…"
    carry_on.set()
    qtbot.waitUntil(lambda: got == ["done"])


def test_a_report_older_than_the_one_shown_is_dropped(parent: QWidget) -> None:
    """A helper thread's report reaches the dialog through the event loop, perhaps after a newer
    one from the work's own thread: the bar never goes back to it."""
    from PySide6.QtCore import QCoreApplication

    seen: list[int] = []

    def work(operation: Operation) -> None:
        helper = threading.Thread(target=lambda: operation.report(0.2))
        helper.start()
        helper.join()  # queued to the GUI thread, not shown yet
        operation.report(0.6)  # the work runs on the GUI thread (inline): shown at once
        QCoreApplication.processEvents()  # the helper's older report arrives now
        assert operation.dialog is not None
        seen.append(operation.dialog.value())

    SyncTaskRunner().start(QueryOp(work, name="testing", progress=ProgressSpec(parent, "Test", "Starting", "Stopping")))
    assert seen == [STEPS * 3 // 5]


def test_cancel_stops_the_work_and_runs_neither_success_nor_failure(qtbot: QtBot, parent: QWidget) -> None:
    runner = ThreadTaskRunner()
    outcomes: list[object] = []
    stopped = threading.Event()

    def work(operation: Operation) -> str:
        while not operation.cancelled():
            operation.report(0.25)
            operation.token.wait(0.01)
        stopped.set()
        raise RuntimeError("E_CANCELLED: stopped")

    operation = runner.start(QueryOp(work, outcomes.append, outcomes.append, lambda: outcomes.append("cancelled"),
                                     name="testing", progress=ProgressSpec(parent, "Test", "Working", "Stopping")))
    dialog = operation.dialog
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.value() == STEPS // 4)
    cancel = dialog.findChild(QPushButton)
    assert cancel is not None and cancel.text() == "Cancel"
    cancel.click()
    assert dialog.labelText() == "Stopping…" and dialog.isVisible()  # up until the work stops
    qtbot.waitUntil(lambda: outcomes == ["cancelled"])
    assert stopped.is_set() and runner.busy is None and operation.dialog is None


def test_a_failure_reaches_the_failure_callback_and_ends_the_busy_state(parent: QWidget) -> None:
    runner = SyncTaskRunner()
    seen: list[object] = []
    ended: list[Operation] = []
    runner.ended.connect(ended.append)

    def work(operation: Operation) -> int:
        seen.append(runner.busy)
        raise ValueError("E_TEST: the work failed")

    runner.start(QueryOp(work, seen.append, seen.append, lambda: seen.append("cancelled"), name="testing",
                         progress=ProgressSpec(parent, "Test", "Working", "Stopping")))
    assert seen[0] == "testing" and isinstance(seen[1], ValueError) and len(seen) == 2
    assert runner.busy is None and [operation.name for operation in ended] == ["testing"]


def test_busy_names_the_earliest_named_operation_still_running() -> None:
    runner = SyncTaskRunner()
    seen: list[str | None] = []

    def outer(_operation: Operation) -> None:
        runner.run(lambda: seen.append(runner.busy))  # a quick query keeps nobody busy
        runner.start(QueryOp(lambda _inner: seen.append(runner.busy), name="inner"))

    runner.start(QueryOp(outer, name="outer"))
    assert seen == ["outer", "outer"] and runner.busy is None

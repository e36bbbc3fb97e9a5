"""The task runners: outcomes arrive on the GUI thread, failures reach the failure callback."""

from __future__ import annotations

import logging
import threading

import pytest
from pytestqt.qtbot import QtBot

from app.ui.tasks import QueryOp, SyncTaskRunner, ThreadTaskRunner


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

    deliver = QueryOp(work, success=got.append).perform()
    assert ran == ["work"] and got == []  # the outcome waits for the GUI thread
    deliver()
    assert got == [42]

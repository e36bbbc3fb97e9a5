"""The task runners: outcomes arrive on the GUI thread, failures reach the failure callback."""

from __future__ import annotations

import threading

from pytestqt.qtbot import QtBot

from app.ui.tasks import SyncTaskRunner, ThreadTaskRunner


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

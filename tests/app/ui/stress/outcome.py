"""Waiting for a stress run to end, either way: a failed run ends the test at once with the
panel's message, rather than waiting out the timeout for a report that will never come."""

from __future__ import annotations

from collections.abc import Callable

from pytestqt.qtbot import QtBot

from app.ui.stress import StressPanel
from engine.load import BenchReport


def run_outcome(panel: StressPanel, qtbot: QtBot, act: Callable[[], object], timeout_ms: int) -> BenchReport:
    """Do ``act`` (start or stop the run) and return the report the run ends with."""
    outcome: list[BenchReport | str] = []
    panel.run_finished.connect(outcome.append)
    panel.run_failed.connect(outcome.append)
    assert act() is not False, panel.status_label.text()
    qtbot.waitUntil(lambda: bool(outcome), timeout=timeout_ms)
    assert not isinstance(outcome[0], str), f"the run failed: {outcome[0]}"
    return outcome[0]

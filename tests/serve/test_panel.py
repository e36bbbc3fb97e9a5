"""The Stress panel pointed at a server: two levels through `dubstudio serve`, rows, a verdict
that names the server, and a report that records the target and its replicas.

(Named to run before test_server.py, whose last test kills a replica.)
"""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.ui.stress import StressPanel
from engine.synthesis.client.remote import RemoteConfig
from tests.app.ui.stress.outcome import run_outcome
from tests.serve.conftest import Server

pytestmark = [pytest.mark.serve,
              pytest.mark.qt_log_ignore(r"^This plugin does not support propagateSizeHints\(\)$")]


def test_the_stress_panel_runs_two_levels_against_the_server(server: Server, qtbot: QtBot) -> None:
    panel = StressPanel()
    qtbot.addWidget(panel)
    panel.resize(1190, 690)
    panel.show()
    panel.target.set_server(RemoteConfig(server.url, token=server.token, ca_file=str(server.ca_file)))
    controls = panel.controls
    controls.levels_edit.setText("1,2")
    controls.hold_spin.setValue(2)
    controls.warmup_spin.setValue(0)
    assert "server" in panel.target.describe()
    try:
        report = run_outcome(panel, qtbot, panel.start, 600_000)
    finally:
        panel.shutdown()
    # The table stands on its side: a column per level.
    assert panel.table.columnCount() == 2 and panel.table.horizontalHeaderItem(1).text() == "2 users"
    assert report.engine["target"] == server.url and report.engine["replicas"] == 2
    assert report.config["engine_url"] == server.url
    assert all(level.jobs == 2 and level.errors == 0 for level in report.levels)
    assert f"the server at {server.url}" in panel.verdict_label.text()
    assert f"{server.url}, 2 replica(s)" in panel.hardware_label.text()

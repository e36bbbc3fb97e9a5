"""The Stress panel offscreen: a small real run, live plots, the table, stop, exports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.ui.stress import StressPanel
from engine.client import EngineConfig

RUN_TIMEOUT_MS = 240_000


@pytest.fixture
def panel(qtbot: QtBot, tmp_path: Path) -> StressPanel:
    widget = StressPanel(engine_config=EngineConfig(cache_dir=str(tmp_path / "voice-cache")))
    qtbot.addWidget(widget)
    widget.resize(1200, 800)
    widget.show()
    yield widget
    widget.shutdown()


def test_a_small_run_fills_plots_and_table_then_stops_and_exports(panel: StressPanel, qtbot: QtBot,
                                                                  tmp_path: Path) -> None:
    panel.levels_edit.setText("1,3")
    panel.hold_spin.setValue(3)
    panel.warmup_spin.setValue(0)
    with qtbot.waitSignal(panel.run_started, timeout=1000):
        assert panel.start()
    assert panel.is_running() and not panel.start_button.isEnabled()

    # level 1 finishes: its row is in the table and its jobs are points on the latency plot
    qtbot.waitUntil(lambda: panel.table.rowCount() >= 1, timeout=RUN_TIMEOUT_MS)
    assert panel.table.item(0, 0).text() == "1 user"
    assert int(panel.table.item(0, 1).text()) == 3
    qtbot.waitUntil(lambda: panel.plots.points("first") >= 3 and panel.plots.points("cpu") >= 1,
                    timeout=10_000)
    assert panel.plots.points("total") >= 3 and panel.plots.points("p95") >= 3

    with qtbot.waitSignal(panel.run_finished, timeout=RUN_TIMEOUT_MS) as finished:
        panel.stop()
    report = finished.args[0]
    assert report is panel.report and report.stopped
    assert not panel.is_running() and panel.start_button.isEnabled()
    assert panel.verdict_label.text().startswith("<b>Verdict.</b>")
    assert all(button.isEnabled() for button in panel.export_buttons.values())
    assert "Event-loop lag" in panel.lag_label.text()
    assert report.config["gui_event_loop_lag_ms"]["samples"] > 0

    panel.export_json(tmp_path / "r.json")
    panel.export_csv(tmp_path / "r.csv")
    panel.export_png(tmp_path / "r.png")
    panel.export_html(tmp_path / "r.html")
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data["levels"][0]["level"] == 1 and data["stopped"] is True
    assert (tmp_path / "r.csv").read_text(encoding="utf-8").startswith("level,")
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert '<table id="levels">' in page and "<td class=l>1 user</td>" in page
    assert "data:image/png;base64," in page


def test_invalid_settings_are_refused_without_starting(panel: StressPanel) -> None:
    panel.levels_edit.setText("")
    assert not panel.start()
    assert "E_PLAN" in panel.status_label.text() and not panel.is_running()
    panel.levels_edit.setText("1")
    panel.texts_combo.setCurrentIndex(panel.texts_combo.findData("file"))
    assert not panel.start()
    assert "E_TEXTS" in panel.status_label.text()
    with pytest.raises(RuntimeError, match="E_NO_REPORT"):
        panel.export_json("/nonexistent/never.json")


def test_controls_follow_the_mode(panel: StressPanel) -> None:
    assert not panel.rate_spin.isEnabled() and panel.think_spin.isEnabled()
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("open"))
    assert panel.rate_spin.isEnabled() and panel.cap_spin.isEnabled() and not panel.think_spin.isEnabled()
    panel.cap_spin.setValue(2)
    panel.slots_spin.setValue(3)
    settings = panel.settings()
    assert settings.plan.mode.value == "open" and settings.plan.max_in_flight == 2 and settings.slots == 3
    assert settings.voices and settings.cache == "warm"

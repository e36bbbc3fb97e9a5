"""The Stress panel offscreen: its layout at the studio's size, a small real run (rows, plots,
verdict, what was measured), stop, exports, presets, targets and a preparation that stops."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QTableWidgetItem, QWidget
from pytestqt.qtbot import QtBot

from app.ui.stress import StressPanel
from app.ui.stress.plots import PLOTS
from app.ui.stress.worker import BenchWorker, PrepareContext
from engine.load import BenchSettings, RunFailed
from engine.load.plans import WarmupMode
from engine.load.probe import PRESETS
from engine.synthesis.backends.setup import CommandRun
from engine.synthesis.config import EngineConfig
from tests.app.ui.stress.outcome import run_outcome

RUN_TIMEOUT_MS = 240_000
STUDIO_TAB = (1190, 690)  # the Stress tab's area in the studio's default 1200×760 window


@pytest.fixture
def panel(qtbot: QtBot, tmp_path: Path) -> Iterator[StressPanel]:
    widget = StressPanel(engine_config=EngineConfig(cache_dir=str(tmp_path / "voice-cache")))
    qtbot.addWidget(widget)
    widget.resize(*STUDIO_TAB)
    widget.show()
    yield widget
    widget.shutdown()


def _inside(panel: StressPanel, widget: QWidget) -> bool:
    """Whether ``widget`` is drawn wholly inside the panel (not below the fold)."""
    top_left = widget.mapTo(panel, QPoint(0, 0))
    return (widget.isVisible() and top_left.x() >= 0 and top_left.y() >= 0
            and top_left.x() + widget.width() <= panel.width() and top_left.y() + widget.height() <= panel.height())


def test_at_the_studios_size_the_controls_are_in_view_and_the_plots_readable(panel: StressPanel) -> None:
    for widget in (panel.start_button, panel.stop_button, panel.export_button, panel.preset_combo, panel.table,
                   panel.status_label):
        assert _inside(panel, widget), widget.objectName()
    assert panel.start_button.mapTo(panel, QPoint(0, 0)).y() < 60  # in the toolbar at the top
    assert panel.plots.count() == len(PLOTS)
    shown = panel.plots.currentWidget()
    assert shown.height() >= 250 and shown.width() >= 600  # was about 70 px tall per plot
    assert panel.plots.legends["latency"].isVisible()
    gpu_rows = [i for i in range(panel.table.rowCount()) if panel.table.verticalHeaderItem(i).text().startswith("gpu")]
    assert gpu_rows and all(panel.table.isRowHidden(i) for i in gpu_rows)  # no GPU here


def test_at_the_studios_size_nothing_is_cut_or_scrolls_sideways(panel: StressPanel, qtbot: QtBot) -> None:
    """Issue 21 at 1190×690: plots within their pane with the objective label in view, the verdict
    below the table (not over its scroll bar), no sideways scrolling, the gap sign explained."""
    from engine.load.report import TABLE_COLUMNS

    pane = panel.plots
    for index in range(pane.count()):
        pane.setCurrentIndex(index)
        qtbot.wait(20)
        page = pane.currentWidget()
        assert page.mapTo(panel, QPoint(page.width(), 0)).x() <= panel.width()  # the right edge is in view
        assert page.width() <= pane.width()
    objective = pane._objective.label  # the label sits at the left end of its line, not off the right edge
    view = pane.latency.getViewBox()
    assert objective.pos().x() < view.viewRange()[0][0] + 0.1 * (view.viewRange()[0][1] - view.viewRange()[0][0])
    assert "&lt;&nbsp;0:&nbsp;audio&nbsp;ready&nbsp;that&nbsp;early" in pane.legends["scheduling"].text()  # a negative gap, explained
    # three levels' worth of results and a long verdict
    for level in range(3):
        panel.table.insertColumn(level)
        for row in range(panel.table.rowCount()):
            panel.table.setItem(row, level, QTableWidgetItem("12.345"))
    panel.verdict_label.setText("<b>Verdict.</b> " + "At 2 users the engine keeps p95 first audio under 1.5 s. " * 3)
    qtbot.wait(50)
    assert panel.table.horizontalScrollBar().maximum() == 0  # measures read downwards: no sideways scrolling
    table_bottom = panel.table.mapTo(panel, QPoint(0, panel.table.height())).y()
    assert panel.verdict_label.mapTo(panel, QPoint(0, 0)).y() >= table_bottom  # below, never over its scroll bar
    assert _inside(panel, panel.verdict_label)
    labels = [panel.table.verticalHeaderItem(i).text() for i in range(panel.table.rowCount())]
    assert len(labels) == len(TABLE_COLUMNS) - 1 and len(set(labels)) == len(labels)  # "first audio p50", "total p50"


@pytest.mark.slow  # real models for many seconds: scripts/test-slow (CI runs it)
def test_two_levels_fill_plots_and_table_then_a_stop_gives_the_verdict_and_exports(
        panel: StressPanel, qtbot: QtBot, tmp_path: Path) -> None:
    controls = panel.controls
    controls.levels_edit.setText("1,2,4")
    controls.hold_spin.setValue(3)
    controls.warmup_spin.setValue(1)
    controls.warmup_mode.setCurrentIndex(controls.warmup_mode.findData(WarmupMode.SEQUENTIAL.value))
    with qtbot.waitSignal(panel.run_started, timeout=1000):
        assert panel.start()
    assert panel.is_running() and not panel.start_button.isEnabled() and not panel.target.isEnabled()

    # levels 1 and 2 finish: their rows are in the table, with the scheduler's measures, and their jobs are points
    qtbot.waitUntil(lambda: panel.table.columnCount() >= 2, timeout=RUN_TIMEOUT_MS)  # a column per level
    measures = [panel.table.verticalHeaderItem(i).text() for i in range(panel.table.rowCount())]
    first = dict(zip(measures, (panel.table.item(i, 0).text() for i in range(len(measures)))))
    assert panel.table.horizontalHeaderItem(0).text() == "1 user" and int(first["jobs"]) == 3
    assert panel.table.horizontalHeaderItem(1).text() == "2 users" and int(panel.table.item(0, 1).text()) == 3
    for measure in ("worst gap", "queue p95", "compute p95", "goodput", "goodput/s", "max/p95", "sd",
                    "first audio p50", "total p50"):
        assert first[measure] not in ("", "–"), measure
    assert "queue" in panel.table.verticalHeaderItem(measures.index("queue p95")).toolTip()
    # Each curve shows its points at the display timer's next redraw of its plot (the queue's is on
    # another tab): wait for all of them rather than read them at the first's instant.
    qtbot.waitUntil(lambda: all(panel.plots.points(key) >= 6 for key in ("first", "total", "queue", "compute"))
                    and panel.plots.points("cpu") >= 1, timeout=10_000)

    # stopped during level 4: the report covers the levels that finished, with a verdict

    report = run_outcome(panel, qtbot, panel.stop, RUN_TIMEOUT_MS)
    assert report is panel.report and report.stopped
    assert report.config["plan"]["warmup_mode"] == "sequential"
    assert not panel.is_running() and panel.start_button.isEnabled()
    assert panel.verdict_label.text().startswith("<b>Verdict.</b>")
    assert "this computer" in panel.hardware_label.text() and "embedded" in panel.hardware_label.text()
    assert not panel.banner.isVisible()  # real weights: no synthetic banner
    assert all(action.isEnabled() for action in panel.export_actions.values())
    assert "Event-loop lag" in panel.lag_label.text()
    assert report.config["gui_event_loop_lag_ms"]["samples"] > 0

    panel.export_json(tmp_path / "r.json")
    panel.export_csv(tmp_path / "r.csv")
    panel.export_png(tmp_path / "r.png")
    panel.export_html(tmp_path / "r.html")
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert [level["level"] for level in data["levels"]][:2] == [1, 2] and data["stopped"] is True and data["engine"]["target"] == "local"
    assert (tmp_path / "r.csv").read_text(encoding="utf-8").startswith("level,")
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert '<table id="levels">' in page and "<td class=l>1 user</td>" in page
    assert "data:image/png;base64," in page


def test_invalid_settings_are_refused_without_starting(panel: StressPanel) -> None:
    panel.controls.levels_edit.setText("")
    assert not panel.start()
    assert "E_PLAN" in panel.status_label.text() and not panel.is_running()
    panel.controls.levels_edit.setText("1")
    panel.controls.texts_combo.setCurrentIndex(panel.controls.texts_combo.findData("file"))
    assert not panel.start()
    assert "E_TEXTS" in panel.status_label.text()
    panel.controls.texts_combo.setCurrentIndex(0)
    panel.target.set_backend("cosyvoice2")  # no model folder given: the descriptor names the option
    assert not panel.start()
    assert "E_BAD_OPTION" in panel.status_label.text() and "model_dir" in panel.status_label.text()
    panel.target.location.setCurrentIndex(panel.target.location.findData("server"))
    panel.target.url.setText("gpu-box:8765")  # not a URL
    assert not panel.start()
    assert "http://HOST:PORT" in panel.status_label.text()
    with pytest.raises(RuntimeError, match="E_NO_REPORT"):
        panel.export_json("/nonexistent/never.json")


def test_controls_and_target_become_the_settings(panel: StressPanel) -> None:
    controls = panel.controls
    assert not controls.rate_spin.isEnabled() and controls.think_spin.isEnabled()
    controls.mode_combo.setCurrentIndex(controls.mode_combo.findData("open"))
    assert controls.rate_spin.isEnabled() and controls.cap_spin.isEnabled() and not controls.think_spin.isEnabled()
    controls.cap_spin.setValue(2)
    panel.target.slots.setValue(3)
    settings = panel.settings()
    assert settings.plan.mode.value == "open" and settings.plan.max_in_flight == 2 and settings.engine.slots == 3
    assert settings.engine.backend == "embedded" and settings.remote is None
    assert settings.voices and all(Path(v).is_file() for v in settings.voices) and settings.cache == "warm"

    panel.target.set_backend("cosyvoice2", {"model_dir": "/models/CosyVoice2-0.5B", "device": "cpu"})
    panel.target.python.setText(sys.executable)  # its own environment need not be built for this
    settings = panel.settings()
    engine = settings.engine
    assert engine.backend == "cosyvoice2" and engine.backend_options["model_dir"] == "/models/CosyVoice2-0.5B"
    assert engine.backend_options["device"] == "cpu" and engine.python == sys.executable

    target = panel.target
    target.location.setCurrentIndex(target.location.findData("server"))
    target.url.setText("https://127.0.0.1:8765")
    target.token.setText("secret-token-of-16")
    settings = panel.settings()
    assert settings.remote is not None and settings.remote.url == "https://127.0.0.1:8765"
    assert settings.remote.token == "secret-token-of-16" and "server https://127.0.0.1:8765" in target.describe()


def test_the_hardware_probe_preset_fills_the_settings(panel: StressPanel) -> None:
    probe = PRESETS["cosyvoice2"]
    panel.choose_preset("cosyvoice2")
    assert panel.preset_combo.currentText() == probe.label == "Hardware probe: CosyVoice2-0.5B (synthetic weights)"
    assert panel.target.backend_name() == "cosyvoice2" and not panel.target.is_server()
    model = panel.target.form().editor("model_dir")
    assert model.text() == "" and "synthetic full size" in model.placeholderText()
    controls = panel.controls
    assert controls.levels_edit.text() == "1,2,4,8,16" and controls.stop_after_miss.isChecked()
    assert controls.plan() == probe.plan and controls.objective() == probe.objective
    panel.target.set_backend("piper")  # another backend is not the probe any more
    assert panel.probe() is None and panel.preset_combo.currentIndex() == 0


def test_stopping_a_preparation_stops_its_child_and_says_so(qtbot: QtBot) -> None:
    """A probe's preparation (building a model folder) runs a child process; Stop ends it."""
    ran: list[CommandRun] = []

    def prepare(context: PrepareContext) -> BenchSettings:
        run = CommandRun([sys.executable, "-c", "import time; print('step 1/2 building', flush=True); time.sleep(120)"],
                         on_output=lambda line: context.say(line.text, line.progress))
        ran.append(run)
        context.hold(run.cancel)
        run.run()
        raise RuntimeError("E_SETUP: the build was cancelled")

    worker = BenchWorker(prepare)
    worker.start()
    qtbot.waitUntil(lambda: bool(ran), timeout=10_000)
    worker.stop()
    assert worker.join(30.0)
    messages = worker.drain()
    failed = [m for m in messages if isinstance(m, RunFailed)]
    assert len(failed) == 1 and failed[0].message.startswith("E_CANCELLED")
    assert ran[0].cancelled


def test_every_load_testing_term_is_explained_in_plain_words(panel: StressPanel) -> None:
    """Issue 34: closed loop, hold, warm-up jobs, p95, goodput, stalls... each label has a tooltip."""
    from PySide6.QtWidgets import QFormLayout, QLabel

    labels = {label.text(): label.toolTip()
              for form in panel.controls.findChildren(QFormLayout)
              for row in range(form.rowCount())
              if (item := form.itemAt(row, QFormLayout.ItemRole.LabelRole)) is not None
              and isinstance(label := item.widget(), QLabel)}
    for term in ("Mode", "Levels", "Hold", "Warm-up jobs", "Think time", "Rate", "Arrivals", "Max in flight",
                 "Voice cache", "p95 first audio ≤", "Stalls per job ≤"):
        assert labels[term], term
    assert "one after another" in labels["Levels"] and "left out of the figures" in labels["Warm-up jobs"]
    assert "Closed loop: a number of simulated users" in labels["Mode"]
    assert "95 of every 100 lines" in labels["p95 first audio ≤"]
    rows = {panel.table.verticalHeaderItem(i).text(): panel.table.verticalHeaderItem(i).toolTip()
            for i in range(panel.table.rowCount())}
    assert "good enough" in rows["goodput"]
    assert "lucky sample" in panel.verdict_label.toolTip()

"""The Stress panel on CosyVoice2 (tiny synthetic model): the hardware-probe preset runs two
levels and shows rows, the verdict and what was measured; with no model folder it builds the
synthetic one first, its steps shown as it goes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.ui.stress import StressPanel
from app.ui.stress import panel as panel_module
from engine.load import BenchReport
from engine.load.probe import PRESETS
from engine.synthesis.backends.cosyvoice_models import SYNTHETIC_BANNER
from engine.synthesis.config import EngineConfig
from tests.app.ui.conftest import OFFSCREEN_NOISE
from tests.app.ui.stress.outcome import run_outcome

pytestmark = [pytest.mark.cosyvoice, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]

RUN_TIMEOUT_MS = 900_000


@pytest.fixture
def panel(qtbot: QtBot, tmp_path: Path, cosyvoice_python: Path) -> Iterator[StressPanel]:
    widget = StressPanel(engine_config=EngineConfig(cache_dir=str(tmp_path / "voice-cache")))
    qtbot.addWidget(widget)
    widget.resize(1190, 690)
    widget.show()
    widget.choose_preset("cosyvoice2")
    widget.target.python.setText(str(cosyvoice_python))
    widget.target.slots.setValue(2)
    controls = widget.controls
    # Two small levels; a loaded 2-core CPU is slow and stalls: this is about the plumbing.
    controls.levels_edit.setText("1,2")
    controls.hold_combo.setCurrentIndex(0)  # jobs per level
    controls.hold_spin.setValue(1)
    controls.warmup_spin.setValue(1)
    controls.objective_spin.setValue(600.0)
    controls.stalls_spin.setValue(100.0)
    controls.texts_combo.setCurrentIndex(controls.texts_combo.findData(("en",)))
    yield widget
    widget.shutdown()


def _run(panel: StressPanel, qtbot: QtBot) -> BenchReport:
    return run_outcome(panel, qtbot, panel.start, RUN_TIMEOUT_MS)


def test_the_stress_panel_runs_two_levels_on_cosyvoice2_and_shows_rows_and_a_verdict(
    panel: StressPanel, qtbot: QtBot, tiny_model: Path,
) -> None:
    panel.target.form().set_values({"model_dir": str(tiny_model)})
    assert panel.probe() is PRESETS["cosyvoice2"]
    report = _run(panel, qtbot)
    levels = [panel.table.horizontalHeaderItem(column).text() for column in range(panel.table.columnCount())]
    assert levels == ["1 user", "2 users"]  # the table stands on its side: a column per level
    assert panel.verdict_label.text().startswith("<b>Verdict.</b> On cosyvoice2 (synthetic weights, cpu) with 2 slots")
    measured = panel.hardware_label.text()
    assert "this computer" in measured and "cosyvoice2 · synthetic tiny model · cpu, 2 slots · torch " in measured
    assert panel.banner.isVisible() and SYNTHETIC_BANNER in panel.banner.text()
    assert report.config["probe"] == "cosyvoice2" and report.config["plan"]["stop_after_miss"] is True
    assert report.engine["model_kind"] == "synthetic" and report.engine["device"] == "cpu"
    assert all(level.ok == 1 and level.errors == 0 for level in report.levels)
    assert panel.plots.points("first") >= 2 and not panel.plots.gpu_shown  # no GPU on this machine


def test_without_a_model_folder_the_probe_builds_the_synthetic_one_first(
    panel: StressPanel, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The preset as shipped builds the full-size folder (4.3 GB); here the same path builds a tiny one
    # in a private data folder.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setitem(PRESETS, "cosyvoice2", replace(PRESETS["cosyvoice2"], synthetic_size="tiny"))
    assert panel.target.form().editor("model_dir").text() == ""  # type: ignore[attr-defined]
    lines: list[str] = []
    take = panel._take

    def watch(message: object) -> None:  # what the status line is told while it gets ready
        if isinstance(message, panel_module.Preparing):
            lines.append(message.text)
        take(message)

    monkeypatch.setattr(panel, "_take", watch)
    report = _run(panel, qtbot)
    assert any("step 1/" in line for line in lines)  # the builder's steps reached the panel
    built = tmp_path / "data" / "DubStudio" / "models" / "CosyVoice2-0.5B-synthetic-tiny"
    assert (built / "cosyvoice2.yaml").is_file()
    assert report.engine["model_dir"] == str(built) and panel.table.columnCount() == 2  # a column per level

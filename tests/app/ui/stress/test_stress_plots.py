"""Live plots and the lag probe without an engine: arrays, rolling lines, stepped ranges."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.ui.stress.lag import LagProbe
from app.ui.stress.plots import PLOTS, TIME_AXIS, LivePlots, Series, plot_text
from engine.load.records import JobRecord
from engine.load.sampler import ResourceSample


def _job(index: int, end: float, first: float, ok: bool = True) -> JobRecord:
    rec = JobRecord(index=index, job_id=str(index), level=1, level_index=0, warmup=False, user=0,
                    text_kind="short", language="en", chars=5, voice="v.wav", text="hello", scheduled_s=end - 2.0)
    if ok:
        rec.queue_wait_s = 0.05
        rec.add_chunk(end - 2.0 + first, 0.6)
        rec.add_chunk(end - 2.0 + first + 0.4, 0.4)  # 0.2 s of audio still to play: a gap of -0.2
        rec.finish(end, 1.0, 0.5)
    else:
        rec.fail(end, "E_BACKEND", "boom")
    return rec


def test_series_grows_past_its_capacity() -> None:
    series = Series(capacity=2)
    for i in range(5):
        series.append(float(i), float(i * i))
    assert list(series.x) == [0, 1, 2, 3, 4] and series.max_y == 16.0
    series.clear()
    assert series.size == 0 and len(series.y) == 0


def test_jobs_and_samples_become_points(qtbot: QtBot) -> None:
    plots = LivePlots()
    qtbot.addWidget(plots)
    plots.reset(objective_s=1.5)
    plots.mark_level(0.0, "1 user")
    for i in range(25):
        plots.add_job(_job(i, 2.0 + i, first=0.1 * (i % 5)))
    plots.add_job(_job(99, 40.0, first=0.0, ok=False))
    plots.add_sample(ResourceSample(30.0, 120.0, 800.0, None, None, 2))
    plots.redraw()
    assert plots.points("first") == 25 and plots.points("total") == 25
    assert plots.points("p95") == 25  # one rolling value per job
    assert plots.points("queue") == 25 and plots.points("compute") == 25 and plots.points("gap") == 25
    assert plots.curves["p50"].getData()[1][-1] == pytest.approx(0.2)  # last 20 jobs: 0..0.4 evenly
    assert plots.points("jobs") == 1 and plots.points("errors") == 1 and plots.points("gpu") == 0
    assert plots.curves["errors"].getData()[1][-1] == 1.0
    # the 5 s window before t=30 holds one successful job (ended at 26, 1 s of audio, on time)
    assert plots.curves["jobs"].getData()[1][-1] == pytest.approx(0.2)
    assert plots.curves["goodput"].getData()[1][-1] == pytest.approx(0.2)
    assert plots.curves["audio"].getData()[1][-1] == pytest.approx(0.2)
    assert plots.curves["flight"].getData()[1][-1] == 2.0 and plots.curves["cpu"].getData()[1][-1] == 120.0
    plots.add_sample(ResourceSample(40.0, 100.0, 800.0, None, None, 0))
    plots.redraw()
    assert plots.curves["jobs"].getData()[1][-1] == 0.0 and plots.curves["audio"].getData()[1][-1] == 0.0
    # ranges grew in steps that hold the data
    assert plots.memory.viewRange()[0][1] >= 30.0
    assert plots.latency.viewRange()[1][1] >= 2.0
    # gaps below zero (a cushion of audio) are in view: the scheduling axis goes below zero
    assert plots.curves["gap"].getData()[1][-1] == pytest.approx(-0.2)
    assert plots.plots["scheduling"].viewRange()[1][0] < -0.2
    plots.reset(objective_s=1.5)
    assert plots.points("first") == 0


def test_every_plot_has_its_axes_and_a_legend_outside_and_gpu_series_only_with_a_gpu(qtbot: QtBot) -> None:
    plots = LivePlots()
    qtbot.addWidget(plots)
    plots.resize(840, 420)
    plots.show()
    plots.reset(objective_s=1.0)
    assert [plots.tabText(i) for i in range(plots.count())] == [spec.title for spec in PLOTS]
    for spec in PLOTS:
        plot = plots.plots[spec.key]
        assert plot.getAxis("bottom").isVisible() and plot.getAxis("bottom").labelText == TIME_AXIS
        assert plot.getAxis("left").labelText == plot_text(spec.y_label) and "(" in spec.y_label  # a unit on each
        assert plot.legend is None  # no legend drawn inside the data area
    assert plots.legends["load"].names() == ["cpu"] and plots.legends["memory"].names() == ["rss"]
    assert not plots.curves["gpu"].isVisible() and plots.tabText(4) == "CPU"

    plots.add_sample(ResourceSample(1.0, 90.0, 700.0, 55.0, 2048.0, 1))  # a GPU reports
    plots.redraw()
    assert plots.legends["load"].names() == ["cpu", "gpu"] and plots.legends["memory"].names() == ["rss", "gpumem"]
    assert plots.curves["gpu"].isVisible() and plots.tabText(4) == "CPU & GPU" and plots.points("gpu") == 1
    plots.reset(objective_s=1.0)  # a new run hides them again until its own GPU samples
    assert plots.legends["load"].names() == ["cpu"]

    image = plots.image(width=600, height=200)  # the export: every plot, each with its axes
    assert (image.width(), image.height()) == (600, 200 * len(PLOTS))


def test_lag_probe_measures_timer_drift(qtbot: QtBot) -> None:
    probe = LagProbe(interval_ms=10)
    probe.start()
    qtbot.wait(300)
    probe.stop()
    recent, session = probe.recent(), probe.session()
    assert recent is not None and session is not None and session["samples"] >= 5
    assert 0.0 <= recent["p50_ms"] <= recent["p99_ms"] <= recent["max_ms"]
    probe.reset()
    assert probe.session() is None

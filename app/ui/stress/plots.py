"""The stress panel's live plots: one tab per measure, each plot full size with its own axes.

Latency, throughput, scheduling (queue wait, compute time and the worst gap between chunks
of each job), jobs in flight and errors, engine load, memory. Every plot has a time axis and
a y axis that names its unit; its legend is a row of labels above it, so it never covers the
data. GPU series are not shown until a GPU sample arrives (a machine without an NVIDIA GPU
never shows them).

Data arrives in batches from the panel's single redraw timer. Points go into preallocated
numpy arrays that double when full, and each curve gets one ``setData`` per redraw with a
view of its arrays, clipped to the visible range (the pyqtgraph scrolling-plot practice), so
a redraw costs the same whether the run has ten jobs or ten thousand.

Axis ranges grow in steps instead of auto-ranging: re-rendering tick labels is by far the
most expensive part of a frame, and with stepped ranges the axes repaint a handful of times
per run instead of on every new point.
"""

from __future__ import annotations

import html
import math
from collections import deque
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem, QLabel, QTabWidget, QVBoxLayout, QWidget

from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.language import fill
from engine.load.records import ERROR, OK, JobRecord
from engine.load.sampler import ResourceSample

ROLLING_JOBS = 20  # rolling percentiles over the last N jobs, as Locust's "current" columns
THROUGHPUT_WINDOW_S = 5.0
TIME_AXIS = QT_TRANSLATE_NOOP("LivePlots", "time since the run started (s)")
NEAR_EDGE = 0.95  # a y range grows once data passes this share of it


@dataclass(frozen=True)
class Curve:
    """One series: its key, its name in the legend, colour and style; GPU series hide without a GPU."""

    key: str
    name: str
    color: str
    style: str = "line"  # "line", "dashed" or "points"
    gpu: bool = False


@dataclass(frozen=True)
class PlotSpec:
    """One tab: its title, the y axis label with its unit, and its curves."""

    key: str
    title: str
    y_label: str
    curves: tuple[Curve, ...]
    gpu_title: str = ""  # the tab's title once a GPU shows up ("" = the same)
    level_markers: bool = True


PLOTS: tuple[PlotSpec, ...] = (
    PlotSpec("latency", QT_TRANSLATE_NOOP("LivePlots", "Latency"), QT_TRANSLATE_NOOP("LivePlots", "latency per job (s)"), (
        Curve("first", QT_TRANSLATE_NOOP("LivePlots", "first audio"), "#1f77b4", "points"),
        Curve("total", QT_TRANSLATE_NOOP("LivePlots", "whole line"), "#d62728", "points"),
        Curve("p50", QT_TRANSLATE_NOOP("LivePlots", "first audio p50 (last {jobs} jobs)"), "#17becf"),
        Curve("p95", QT_TRANSLATE_NOOP("LivePlots", "first audio p95 (last {jobs} jobs)"), "#ff7f0e"),
    )),
    PlotSpec("throughput", QT_TRANSLATE_NOOP("LivePlots", "Throughput"), QT_TRANSLATE_NOOP("LivePlots", "rate over the last {window} s (1/s)"), (
        Curve("jobs", QT_TRANSLATE_NOOP("LivePlots", "jobs finished/s"), "#2ca02c"),
        Curve("goodput", QT_TRANSLATE_NOOP("LivePlots", "goodput/s (on time, no stall)"), "#8c564b", "dashed"),
        Curve("audio", QT_TRANSLATE_NOOP("LivePlots", "seconds of audio/s"), "#9467bd"),
    )),
    PlotSpec("scheduling", QT_TRANSLATE_NOOP("LivePlots", "Scheduling"), QT_TRANSLATE_NOOP("LivePlots", "time per job (s)"), (
        Curve("queue", QT_TRANSLATE_NOOP("LivePlots", "queue wait"), "#7f7f7f", "points"),
        Curve("compute", QT_TRANSLATE_NOOP("LivePlots", "compute time"), "#1f77b4", "points"),
        Curve("gap", QT_TRANSLATE_NOOP("LivePlots", "worst gap between chunks (> 0: a stall; < 0: audio ready that early)"), "#d62728", "points"),
    )),
    PlotSpec("jobs", QT_TRANSLATE_NOOP("LivePlots", "Jobs and errors"), QT_TRANSLATE_NOOP("LivePlots", "count (jobs)"), (
        Curve("flight", QT_TRANSLATE_NOOP("LivePlots", "in flight"), "#7f7f7f", "dashed"),
        Curve("errors", QT_TRANSLATE_NOOP("LivePlots", "errors so far"), "#d62728"),
    )),
    PlotSpec("load", QT_TRANSLATE_NOOP("LivePlots", "CPU"), QT_TRANSLATE_NOOP("LivePlots", "busy (%)"), (
        Curve("cpu", QT_TRANSLATE_NOOP("LivePlots", "engine CPU (100 % = one core)"), "#1f77b4"),
        Curve("gpu", QT_TRANSLATE_NOOP("LivePlots", "GPU utilisation"), "#2ca02c", gpu=True),
    ), gpu_title=QT_TRANSLATE_NOOP("LivePlots", "CPU & GPU"), level_markers=False),
    PlotSpec("memory", QT_TRANSLATE_NOOP("LivePlots", "Memory"), QT_TRANSLATE_NOOP("LivePlots", "memory (MB)"), (
        Curve("rss", QT_TRANSLATE_NOOP("LivePlots", "engine resident memory"), "#ff7f0e"),
        Curve("gpumem", QT_TRANSLATE_NOOP("LivePlots", "GPU memory in use"), "#8c564b", gpu=True),
    ), level_markers=False),
)


def plot_text(text: str) -> str:
    """A title, axis label or curve name of the tables above (marked for the "LivePlots" context)
    in the interface's language, its window and job count filled in."""
    return fill(QCoreApplication.translate("LivePlots", text), jobs=ROLLING_JOBS, window=f"{THROUGHPUT_WINDOW_S:g}")


class Series:
    """An x/y series in preallocated arrays that double when full."""

    def __init__(self, capacity: int = 256) -> None:
        self._x = np.empty(capacity, dtype=np.float64)
        self._y = np.empty(capacity, dtype=np.float64)
        self.size = 0
        self.max_y = 0.0
        self.min_y = 0.0

    def append(self, x: float, y: float) -> None:
        if self.size == len(self._x):
            self._x = np.resize(self._x, 2 * len(self._x))
            self._y = np.resize(self._y, 2 * len(self._y))
        self._x[self.size] = x
        self._y[self.size] = y
        self.size += 1
        self.max_y = max(self.max_y, y)
        self.min_y = min(self.min_y, y)

    @property
    def x(self) -> np.ndarray:
        return self._x[: self.size]

    @property
    def y(self) -> np.ndarray:
        return self._y[: self.size]

    def clear(self) -> None:
        self.size = 0
        self.max_y = 0.0
        self.min_y = 0.0


class Legend(QLabel):
    """A plot's legend as a line of text above it: readable, never over the data, and wrapped
    between entries when the pane is narrow, so it never makes the plot wider than its pane."""

    def __init__(self, curves: tuple[Curve, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setContentsMargins(8, 2, 8, 0)
        self._curves = curves
        self._shown = {curve.key: True for curve in curves}
        self._draw()

    def show_entry(self, key: str, shown: bool) -> None:
        self._shown[key] = shown
        self._draw()

    def names(self) -> list[str]:
        """The entries shown (for tests and the exports)."""
        return [key for key, shown in self._shown.items() if shown]

    def _draw(self) -> None:
        entries = []
        for curve in self._curves:
            if self._shown[curve.key]:
                mark = "●" if curve.style == "points" else "┅" if curve.style == "dashed" else "━"
                # non-breaking inside an entry: lines break only between entries
                name = html.escape(plot_text(curve.name)).replace(" ", "&nbsp;")
                entries.append(f'<span style="color:{curve.color}">{mark}</span>&nbsp;{name}')
        self.setText(" &nbsp;&nbsp; ".join(entries))


class LivePlots(QTabWidget):
    """The live plots, one tab each, sharing the time axis (seconds since the run started)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDocumentMode(True)
        self.series: dict[str, Series] = {}
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.plots: dict[str, pg.PlotItem] = {}
        self.legends: dict[str, Legend] = {}
        self._plot_of: dict[str, pg.PlotItem] = {}
        self._pages: dict[str, QWidget] = {}
        self._gpu_curves = [curve.key for spec in PLOTS for curve in spec.curves if curve.gpu]
        for spec in PLOTS:
            self._add_page(spec)
        self.latency = self.plots["latency"]
        self.memory = self.plots["memory"]
        for plot in self.plots.values():
            if plot is not self.latency:
                plot.setXLink(self.latency)  # pan or zoom one, and every tab follows

        self._objective = pg.InfiniteLine(angle=0, pen=pg.mkPen("#d62728", style=Qt.PenStyle.DashLine),
                                          label=self.tr("objective: p95 first audio"),
                                          # at the left, above the line: never cut by a narrow pane's edge
                                          labelOpts={"position": 0.02, "color": "#555",
                                                     "anchors": [(0, 1), (0, 1)]})
        self.latency.addItem(self._objective)
        self._markers: list[tuple[pg.PlotItem, pg.InfiniteLine]] = []
        self._first_audio: deque[float] = deque(maxlen=ROLLING_JOBS)  # the rolling percentiles' window
        # (end time, audio seconds, on time) of the successful jobs of the last THROUGHPUT_WINDOW_S, in end order
        self._recent_ends: deque[tuple[float, float, bool]] = deque()
        self._objective_s = 1.5
        self._errors = 0
        self._dirty: set[str] = set()
        self._x_max = 0.0
        self._y_max: dict[str, float] = {}
        self._y_min: dict[str, float] = {}  # below 0 only for the gaps (a cushion of audio is negative)
        self.gpu_shown = True
        self.reset(self._objective_s)  # tidy empty axes, and no GPU series until a GPU sample says there is one

    # --- building ---------------------------------------------------------------------------

    def _add_page(self, spec: PlotSpec) -> None:
        widget = pg.PlotWidget(background="w")
        plot = widget.getPlotItem()
        plot.disableAutoRange()
        plot.setMouseEnabled(x=True, y=False)
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.setClipToView(True)
        plot.setDownsampling(auto=True, mode="peak")
        plot.setLabel("left", plot_text(spec.y_label))
        plot.setLabel("bottom", plot_text(TIME_AXIS))
        # Axes are text: draw them once into pixmaps and blit them on repaint.
        for side in ("left", "bottom"):
            plot.getAxis(side).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        legend = Legend(spec.curves)
        page = QWidget()
        column = QVBoxLayout(page)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(legend)
        column.addWidget(widget, 1)
        page.setStyleSheet("background: white")
        self.addTab(page, plot_text(spec.title))
        self.plots[spec.key] = plot
        self.legends[spec.key] = legend
        self._pages[spec.key] = page
        for curve in spec.curves:
            self.series[curve.key] = Series()
            self._plot_of[curve.key] = plot
            self.curves[curve.key] = plot.plot([], [], **_style(curve))

    def show_gpu(self, shown: bool) -> None:
        """Show or hide the GPU series, their legend entries and the tabs' GPU titles."""
        if shown == self.gpu_shown:
            return
        self.gpu_shown = shown
        for spec in PLOTS:
            for curve in spec.curves:
                if curve.gpu:
                    self.curves[curve.key].setVisible(shown)
                    self.legends[spec.key].show_entry(curve.key, shown)
            if spec.gpu_title:
                self.setTabText(self.indexOf(self._pages[spec.key]), plot_text(spec.gpu_title if shown else spec.title))

    # --- data in --------------------------------------------------------------------------

    def reset(self, objective_s: float) -> None:
        for series in self.series.values():
            series.clear()
        for plot, marker in self._markers:
            plot.removeItem(marker)
        self._markers.clear()
        self._first_audio.clear()
        self._recent_ends.clear()
        self._errors = 0
        self._objective_s = objective_s
        self._objective.setValue(objective_s)
        self._dirty = set(self.series)
        self._x_max = 0.0
        self._y_max = {key: 0.0 for key in self.plots}
        self._y_min = {key: 0.0 for key in self.plots}
        self._y_max["latency"] = objective_s  # keep the objective line in view
        self.show_gpu(False)
        self._set_ranges(force=True)
        self.redraw()

    def mark_level(self, t_s: float, label: str) -> None:
        """A vertical line where a level starts, on the plots of jobs (not the resource plots)."""
        for spec in PLOTS:
            if not spec.level_markers:
                continue
            plot = self.plots[spec.key]
            marker = pg.InfiniteLine(pos=t_s, angle=90, pen=pg.mkPen("#999", style=Qt.PenStyle.DotLine),
                                     label=label, labelOpts={"position": 0.95, "color": "#555"})
            plot.addItem(marker)
            self._markers.append((plot, marker))

    def add_job(self, record: JobRecord) -> None:
        if record.end_s is None or record.status not in (OK, ERROR):
            return
        t = record.end_s
        if record.status != OK:
            self._errors += 1
            return
        if record.first_audio_s is not None:
            self._add("first", t, record.first_audio_s)
            self._first_audio.append(record.first_audio_s)
            recent = np.asarray(self._first_audio)
            self._add("p50", t, float(np.percentile(recent, 50)))
            self._add("p95", t, float(np.percentile(recent, 95)))
        if record.total_s is not None:
            self._add("total", t, record.total_s)
        for key, value in (("queue", record.queue_wait_s), ("compute", record.compute_s), ("gap", record.max_gap_s)):
            if value is not None:
                self._add(key, t, value)
        on_time = (record.first_audio_s is not None and record.first_audio_s <= self._objective_s
                   and record.stalls == 0)  # what the level table counts as goodput
        self._recent_ends.append((t, record.audio_s, on_time))

    def add_sample(self, sample: ResourceSample) -> None:
        t = sample.t_s
        window = min(THROUGHPUT_WINDOW_S, t) or THROUGHPUT_WINDOW_S
        # Jobs end in time order and samples come in time order, so ends that left the window
        # never come back: drop them, and a sample costs the jobs of one window, not of the run.
        recent = self._recent_ends
        while recent and recent[0][0] <= t - window:
            recent.popleft()
        self._add("jobs", t, len(recent) / window)
        self._add("goodput", t, sum(1 for _, _, on_time in recent if on_time) / window)
        self._add("audio", t, sum(audio for _, audio, _ in recent) / window)
        self._add("errors", t, float(self._errors))
        self._add("flight", t, float(sample.in_flight))
        if sample.cpu_pct is not None:
            self._add("cpu", t, sample.cpu_pct)
        if sample.rss_mb is not None:
            self._add("rss", t, sample.rss_mb)
        if sample.gpu_util_pct is not None or sample.gpu_mem_mb is not None:
            self.show_gpu(True)
        if sample.gpu_util_pct is not None:
            self._add("gpu", t, sample.gpu_util_pct)
        if sample.gpu_mem_mb is not None:
            self._add("gpumem", t, sample.gpu_mem_mb)

    def _add(self, key: str, x: float, y: float) -> None:
        self.series[key].append(x, y)
        self._dirty.add(key)

    # --- drawing --------------------------------------------------------------------------

    def redraw(self) -> None:
        """Push changed series to their curves: one setData per changed curve."""
        if not self._dirty:
            return
        keys = {plot: key for key, plot in self.plots.items()}
        for key in self._dirty:
            series = self.series[key]
            self.curves[key].setData(series.x, series.y)
            if series.size:
                plot = keys[self._plot_of[key]]
                self._x_max = max(self._x_max, float(series.x[-1]))
                self._y_max[plot] = max(self._y_max.get(plot, 0.0), series.max_y)
                self._y_min[plot] = min(self._y_min.get(plot, 0.0), series.min_y)
        self._dirty.clear()
        self._set_ranges()

    def _set_ranges(self, force: bool = False) -> None:
        """Grow a range only when data comes near its end (within 5 %, where points would sit on
        the frame); a stepped limit leaves headroom."""
        if force or self._x_max > self.latency.viewRange()[0][1]:
            self.latency.setXRange(0.0, _step_up(max(self._x_max * 1.25, 30.0)), padding=0.0)
        for key, plot in self.plots.items():
            data_top, data_bottom = self._y_max.get(key, 0.0), self._y_min.get(key, 0.0)
            (view_bottom, view_top) = plot.viewRange()[1]
            if force or data_top > NEAR_EDGE * view_top or data_bottom < NEAR_EDGE * view_bottom:
                bottom = -_step_up(-data_bottom * 1.2) if data_bottom < 0 else 0.0
                plot.setYRange(bottom, _step_up(max(data_top * 1.2, 1.0)), padding=0.0)

    def points(self, key: str) -> int:
        """How many points a curve shows (for tests and the status line)."""
        data = self.curves[key].getData()[0]
        return 0 if data is None else len(data)

    def image(self, width: int = 900, height: int = 300) -> QImage:
        """Every tab's plot (with its legend) stacked in one image, for the PNG and HTML exports."""
        pages = [self._pages[spec.key] for spec in PLOTS]
        out = QImage(width, height * len(pages), QImage.Format.Format_RGB32)
        out.fill(QColor("white"))
        painter = QPainter(out)
        try:
            for index, page in enumerate(pages):
                size = page.size()
                page.resize(width, height)  # hidden tabs keep whatever size they had: draw each the same
                painter.drawPixmap(0, index * height, page.grab())
                page.resize(size)
        finally:
            painter.end()
        return out


def _style(curve: Curve) -> dict[str, object]:
    if curve.style == "points":
        brush = QColor(curve.color)
        brush.setAlpha(170)
        return {"pen": None, "symbol": "o", "symbolSize": 5, "symbolPen": None, "symbolBrush": brush,
                "name": plot_text(curve.name)}
    style = Qt.PenStyle.DashLine if curve.style == "dashed" else Qt.PenStyle.SolidLine
    return {"pen": pg.mkPen(curve.color, width=2, style=style), "name": plot_text(curve.name)}


def _step_up(value: float) -> float:
    """Round up to 1, 2, 3 or 5 times a power of ten, so ranges change rarely and look tidy."""
    magnitude = 10 ** math.floor(math.log10(value))
    return next(m * magnitude for m in (1, 2, 3, 5, 10) if m * magnitude >= value - 1e-12)

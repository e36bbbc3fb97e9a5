"""The stress panel's live plots: latency, throughput and errors, engine load, memory.

Data arrives in batches from the panel's single redraw timer. Points go into preallocated
numpy arrays that double when full, and each curve gets one ``setData`` per redraw with a
view of its arrays, clipped to the visible range (the pyqtgraph scrolling-plot practice), so
a redraw costs the same whether the run has ten jobs or ten thousand.

Axis ranges grow in steps instead of auto-ranging: re-rendering tick labels is by far the
most expensive part of a frame, and with stepped ranges the axes repaint a handful of times
per run instead of on every new point.
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem, QVBoxLayout, QWidget

from engine.load.records import ERROR, OK, JobRecord
from engine.load.sampler import ResourceSample

ROLLING_JOBS = 20  # rolling percentiles over the last N jobs, as Locust's "current" columns
THROUGHPUT_WINDOW_S = 5.0
COLORS = {"first": "#1f77b4", "total": "#d62728", "p50": "#17becf", "p95": "#ff7f0e", "jobs": "#2ca02c",
          "audio": "#9467bd", "errors": "#d62728", "cpu": "#1f77b4", "gpu": "#2ca02c", "rss": "#ff7f0e",
          "gpumem": "#8c564b", "flight": "#7f7f7f"}


class Series:
    """An x/y series in preallocated arrays that double when full."""

    def __init__(self, capacity: int = 256) -> None:
        self._x = np.empty(capacity, dtype=np.float64)
        self._y = np.empty(capacity, dtype=np.float64)
        self.size = 0
        self.max_y = 0.0

    def append(self, x: float, y: float) -> None:
        if self.size == len(self._x):
            self._x = np.resize(self._x, 2 * len(self._x))
            self._y = np.resize(self._y, 2 * len(self._y))
        self._x[self.size] = x
        self._y[self.size] = y
        self.size += 1
        self.max_y = max(self.max_y, y)

    @property
    def x(self) -> np.ndarray:
        return self._x[: self.size]

    @property
    def y(self) -> np.ndarray:
        return self._y[: self.size]

    def clear(self) -> None:
        self.size = 0
        self.max_y = 0.0


class LivePlots(QWidget):
    """Four stacked plots sharing the time axis (seconds since the run started)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setBackground("w")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.graphics)

        self.latency = self._plot(0, "Latency per job (s)")
        self.throughput = self._plot(1, "Throughput and errors")
        self.load = self._plot(2, "Engine load (%; 100 = one core)")
        self.memory = self._plot(3, "Memory (MB)")
        self.memory.setLabel("bottom", "seconds since start")
        self._plots = (self.latency, self.throughput, self.load, self.memory)
        for plot in self._plots[:-1]:
            plot.hideAxis("bottom")  # the x axes are linked: one set of time labels is enough
            plot.setXLink(self.memory)
        self._x_max = 0.0
        self._y_max: dict[int, float] = {}

        self.series: dict[str, Series] = {}
        self.curves: dict[str, pg.PlotDataItem] = {}
        self._plot_of: dict[str, pg.PlotItem] = {}
        self._points("first", self.latency, "first audio", COLORS["first"])
        self._points("total", self.latency, "total", COLORS["total"])
        self._line("p50", self.latency, f"first audio p50 (last {ROLLING_JOBS})", COLORS["p50"])
        self._line("p95", self.latency, f"first audio p95 (last {ROLLING_JOBS})", COLORS["p95"])
        self._line("jobs", self.throughput, f"jobs/s ({THROUGHPUT_WINDOW_S:g} s window)", COLORS["jobs"])
        self._line("audio", self.throughput, "audio s per wall s", COLORS["audio"])
        self._line("errors", self.throughput, "errors (total)", COLORS["errors"])
        self._line("flight", self.throughput, "jobs in flight", COLORS["flight"], dashed=True)
        self._line("cpu", self.load, "engine CPU %", COLORS["cpu"])
        self._line("gpu", self.load, "GPU %", COLORS["gpu"])
        self._line("rss", self.memory, "engine RSS", COLORS["rss"])
        self._line("gpumem", self.memory, "GPU memory", COLORS["gpumem"])

        self._objective = pg.InfiniteLine(angle=0, pen=pg.mkPen(COLORS["total"], style=Qt.PenStyle.DashLine),
                                          label="objective p95", labelOpts={"position": 0.05, "color": "#555"})
        self.latency.addItem(self._objective)
        self._markers: list[tuple[pg.PlotItem, pg.InfiniteLine]] = []
        self._first_audio: deque[float] = deque(maxlen=ROLLING_JOBS)  # the rolling percentiles' window
        # (end time, audio seconds) of the successful jobs of the last THROUGHPUT_WINDOW_S, in end order
        self._recent_ends: deque[tuple[float, float]] = deque()
        self._errors = 0
        self._dirty: set[str] = set()

    def _plot(self, row: int, title: str) -> pg.PlotItem:
        plot = self.graphics.addPlot(row=row, col=0, title=title)
        plot.disableAutoRange()
        plot.setMouseEnabled(x=True, y=False)
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.setClipToView(True)
        plot.setDownsampling(auto=True, mode="peak")
        legend = plot.addLegend(offset=(8, 4), labelTextSize="8pt")
        # Axes, legend and title are text: draw them once into pixmaps and blit them on repaint.
        for item in (*(plot.getAxis(side) for side in ("left", "bottom")), legend, plot.titleLabel):
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        return plot

    def _line(self, key: str, plot: pg.PlotItem, name: str, color: str, dashed: bool = False) -> None:
        pen = pg.mkPen(color, width=2, style=Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)
        self.series[key] = Series()
        self._plot_of[key] = plot
        self.curves[key] = plot.plot([], [], pen=pen, name=name)

    def _points(self, key: str, plot: pg.PlotItem, name: str, color: str) -> None:
        brush = QColor(color)
        brush.setAlpha(170)
        self.series[key] = Series()
        self._plot_of[key] = plot
        self.curves[key] = plot.plot([], [], pen=None, symbol="o", symbolSize=5, symbolPen=None,
                                     symbolBrush=brush, name=name)

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
        self._objective.setValue(objective_s)
        self._dirty = set(self.series)
        self._x_max = 0.0
        self._y_max = {id(plot): 0.0 for plot in self._plots}
        self._y_max[id(self.latency)] = objective_s  # keep the objective line in view
        self._set_ranges(force=True)
        self.redraw()

    def mark_level(self, t_s: float, label: str) -> None:
        """A vertical line where a level starts, on the latency and throughput plots."""
        for plot in (self.latency, self.throughput):
            marker = pg.InfiniteLine(pos=t_s, angle=90, pen=pg.mkPen("#999", style=Qt.PenStyle.DotLine),
                                     label=label, labelOpts={"position": 0.92, "color": "#555"})
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
        self._recent_ends.append((t, record.audio_s))

    def add_sample(self, sample: ResourceSample) -> None:
        t = sample.t_s
        window = min(THROUGHPUT_WINDOW_S, t) or THROUGHPUT_WINDOW_S
        # Jobs end in time order and samples come in time order, so ends that left the window
        # never come back: drop them, and a sample costs the jobs of one window, not of the run.
        recent = self._recent_ends
        while recent and recent[0][0] <= t - window:
            recent.popleft()
        self._add("jobs", t, len(recent) / window)
        self._add("audio", t, sum(audio for _, audio in recent) / window)
        self._add("errors", t, float(self._errors))
        self._add("flight", t, float(sample.in_flight))
        if sample.cpu_pct is not None:
            self._add("cpu", t, sample.cpu_pct)
        if sample.rss_mb is not None:
            self._add("rss", t, sample.rss_mb)
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
        for key in self._dirty:
            series = self.series[key]
            self.curves[key].setData(series.x, series.y)
            if series.size:
                plot = id(self._plot_of[key])
                self._x_max = max(self._x_max, float(series.x[-1]))
                self._y_max[plot] = max(self._y_max.get(plot, 0.0), series.max_y)
        self._dirty.clear()
        self._set_ranges()

    def _set_ranges(self, force: bool = False) -> None:
        """Grow a range only when data passes its end; a stepped limit leaves headroom."""
        if force or self._x_max > self.memory.viewRange()[0][1]:
            self.memory.setXRange(0.0, _step_up(max(self._x_max * 1.25, 30.0)), padding=0.0)
        for plot in self._plots:
            data_top = self._y_max.get(id(plot), 0.0)
            if force or data_top > plot.viewRange()[1][1]:
                plot.setYRange(0.0, _step_up(max(data_top * 1.2, 1.0)), padding=0.0)

    def points(self, key: str) -> int:
        """How many points a curve shows (for tests and the status line)."""
        data = self.curves[key].getData()[0]
        return 0 if data is None else len(data)


def _step_up(value: float) -> float:
    """Round up to 1, 2 or 5 times a power of ten, so ranges change rarely and look tidy."""
    magnitude = 10 ** math.floor(math.log10(value))
    return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= value - 1e-12)

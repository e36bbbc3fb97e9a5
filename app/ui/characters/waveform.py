"""A reference clip's waveform with a draggable trim region and a playhead.

Clips are a few seconds to a minute long, so the waveform is reduced once to a min/max
envelope of at most :data:`ENVELOPE_BINS` points and drawn as a filled band; dragging the
region never re-reads the audio. A quiet clip is drawn peak-normalised, its real peak level in the
top left corner (:mod:`app.ui.waveform_gain`).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.dialog_parts import hint_label
from app.ui.language import fill
from app.ui.waveform_gain import display_gain, needs_level_tag, peak_dbfs, peak_of

ENVELOPE_BINS = 2000
NO_CLIP_HINT = QT_TRANSLATE_NOOP("WaveformView", "No reference clip yet: import or record a few seconds of clean speech")


def envelope(pcm: np.ndarray, bins: int = ENVELOPE_BINS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bin index, min, max) of ``pcm`` in at most ``bins`` equal bins."""
    n = len(pcm)
    if n == 0:
        empty = np.zeros(0, dtype=np.float32)
        return empty, empty, empty
    bins = min(bins, n)
    edges = np.linspace(0, n, bins + 1).astype(np.int64)
    lo = np.minimum.reduceat(pcm, edges[:-1])
    hi = np.maximum.reduceat(pcm, edges[:-1])
    return edges[:-1].astype(np.float64), lo, hi


class WaveformView(QWidget):
    """Shows a clip; ``trim_changed(start_s, end_s)`` fires when the user finishes a drag.

    ``end_s`` is ``-1.0`` when the region reaches the end of the clip (no end trim), since a
    Qt signal cannot carry ``None`` for a float.
    """

    trim_changed = Signal(float, float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._duration = 0.0
        self._plot = pg.PlotWidget(background=None)
        self._plot.setMenuEnabled(False)
        self._plot.setMouseEnabled(x=False, y=False)
        self._plot.hideButtons()
        self._plot.getPlotItem().hideAxis("left")
        self._plot.setYRange(-1.0, 1.0, padding=0.05)
        self._hi = pg.PlotDataItem(pen=pg.mkPen("#4e79a7"))
        self._lo = pg.PlotDataItem(pen=pg.mkPen("#4e79a7"))
        self._fill = pg.FillBetweenItem(self._lo, self._hi, brush=pg.mkBrush(QColor("#4e79a7")))
        self._plot.addItem(self._hi)
        self._plot.addItem(self._lo)
        self._plot.addItem(self._fill)
        self._region = pg.LinearRegionItem(values=(0, 0), brush=pg.mkBrush(255, 200, 0, 50))
        self._region.setZValue(10)
        self._region.sigRegionChangeFinished.connect(self._on_region)
        self._plot.addItem(self._region)
        self._playhead = pg.InfiniteLine(pos=0, angle=90, pen=pg.mkPen("#e15759", width=2))
        self._playhead.setVisible(False)
        self._plot.addItem(self._playhead)
        # The hint lies over the empty plot (same grid cell), so the frame keeps its place.
        self.hint = hint_label(self.tr(NO_CLIP_HINT))
        self.hint.setObjectName("waveformHint")
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.level = QLabel()  # a quiet clip's real level, its drawing being enlarged
        self.level.setObjectName("waveformLevel")
        self.level.setStyleSheet("color: palette(placeholder-text); padding: 2px 6px")
        self.level.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._plot, 0, 0)
        layout.addWidget(self.hint, 0, 0)
        layout.addWidget(self.level, 0, 0, Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setFixedHeight(130)
        self._setting = False
        self.set_audio(None, 0)

    @property
    def duration(self) -> float:
        return self._duration

    def set_colour(self, colour: str) -> None:
        pen = pg.mkPen(colour)
        self._hi.setPen(pen)
        self._lo.setPen(pen)
        self._fill.setBrush(pg.mkBrush(QColor(colour)))

    @property
    def is_empty(self) -> bool:
        """True when no clip is drawn (the hint shows instead)."""
        return self._duration == 0.0

    def set_audio(self, pcm: np.ndarray | None, sample_rate: int, hint: str = NO_CLIP_HINT) -> None:
        """Show a clip (mono float); ``None`` empties the view and shows ``hint`` over it."""
        if pcm is None or len(pcm) == 0 or sample_rate <= 0:
            self._duration = 0.0
            self._hi.setData([], [])
            self._lo.setData([], [])
            self._fill.setVisible(False)  # it keeps the last clip's shape when its curves empty
            self._region.setVisible(False)
            self._playhead.setVisible(False)
            self._plot.setXRange(0, 1, padding=0.01)
            self._plot.getPlotItem().getAxis("bottom").setStyle(showValues=False)
            self.hint.setText(self.tr(hint))  # the default is marked above; callers pass theirs translated
            self.hint.show()
            self.level.hide()
            self._plot.setYRange(-1.0, 1.0, padding=0.05)
            return
        self.hint.hide()
        self._fill.setVisible(True)
        self._plot.getPlotItem().getAxis("bottom").setStyle(showValues=True)
        x, lo, hi = envelope(np.asarray(pcm, dtype=np.float32))
        x /= sample_rate
        peak = peak_of(np.asarray(pcm, dtype=np.float32))
        half = 1.0 / display_gain(peak)  # peak-normalised: a quiet clip fills the view like a loud one
        self._plot.setYRange(-half, half, padding=0.05)
        self.level.setText(fill(self.tr("peak {decibels} dB"), decibels=f"{peak_dbfs(peak):.0f}"))
        self.level.setToolTip(fill(self.tr("The clip's loudest sample; its waveform is drawn {gain}× larger"), gain=f"{display_gain(peak):.0f}"))
        self.level.setVisible(needs_level_tag(peak))
        self._duration = len(pcm) / sample_rate
        self._hi.setData(x, hi)
        self._lo.setData(x, lo)
        self._plot.setXRange(0, self._duration, padding=0.01)
        self._region.setBounds((0, self._duration))
        self._region.setVisible(True)

    def set_trim(self, start: float, end: float | None) -> None:
        """Move the region without emitting ``trim_changed``."""
        self._setting = True
        try:
            self._region.setRegion((start, self._duration if end is None else end))
        finally:
            self._setting = False

    def trim(self) -> tuple[float, float | None]:
        start, end = self._region.getRegion()
        end_value = None if end >= self._duration - 1e-3 else float(end)
        return max(0.0, float(start)), end_value

    def set_playhead(self, seconds: float | None) -> None:
        """Show the playhead at ``seconds`` into the clip; ``None`` hides it."""
        if seconds is None:
            self._playhead.setVisible(False)
            return
        self._playhead.setVisible(True)
        self._playhead.setValue(seconds)

    def _on_region(self) -> None:
        if self._setting or self._duration == 0:
            return
        start, end = self.trim()
        self.trim_changed.emit(start, -1.0 if end is None else end)

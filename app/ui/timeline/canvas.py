"""The timeline's drawing surface: ruler, one track per character, clips, playhead; mouse editing.

Everything that only changes when the project, the zoom, the scroll or the selection changes
(tracks, clips, waveforms, the ruler) is drawn once into a pixmap; a paint then copies that
pixmap and draws the playhead over it. While the dub plays only the playhead moves, so a
frame costs a pixmap copy of two thin strips, not a redraw of sixty waveforms.

The canvas knows nothing of undo or the project's rules: a finished drag is reported with
``drag_finished(kind, line ids, seconds)`` and the panel turns it into a command.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPixmap,
    QPolygonF,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QApplication, QSizePolicy, QToolTip, QWidget

from app.project import LineStatus
from app.project.timecode import format_clock
from app.project.timeline import Slot
from app.ui.timeline.edits import MIN_SLOT_S, visible_end
from app.ui.timeline.programme import PEAKS_PER_S, Audio
from app.ui.timeline.scale import (
    ZOOM_STEP,
    TimeScale,
    format_ruler,
    snap_delta,
    tick_steps,
    tick_times,
)

HEADER_W = 132  # track names
RULER_H = 26
MIN_TRACK_H, MAX_TRACK_H = 32, 64  # tracks share the height between these
GUIDE_H = 30
EDGE_PX = 6  # how close to a clip's edge a press grabs the edge instead of the clip
SNAP_PX = 8
PLAYHEAD_COLOUR = QColor("#e03131")
OVERRUN_COLOUR = QColor("#d62728")


class DragKind(str, enum.Enum):
    MOVE = "move"
    START = "start"  # the clip's left edge
    END = "end"  # the clip's right edge


@dataclass(frozen=True)
class Track:
    """A row of the timeline: a character (``key`` its id), lines without one (None), or the guide."""

    key: str | None
    label: str
    colour: str
    guide: bool = False


@dataclass(frozen=True)
class Clip:
    """One line as drawn: where it sits (its :class:`Slot`) and what to show on it."""

    slot: Slot
    track: int
    text: str
    status: LineStatus
    take: Path | None  # the chosen take's file
    take_s: float | None  # its length
    fit: str = ""  # "fitted: rate 1.12×", when the take was fitted
    wants_fit: bool = False
    error: str = ""

    @property
    def line_id(self) -> str:
        return self.slot.line_id


@dataclass
class _Drag:
    kind: DragKind | None  # None: scrubbing the playhead in the ruler
    line_id: str
    press_x: float
    slots: list[Slot] = field(default_factory=list)
    active: bool = False
    delta_s: float = 0.0
    snapped_to: float | None = None


class TimelineCanvas(QWidget):
    """Draws tracks and clips and turns mouse gestures into selection, seeks and drags."""

    selection_changed = Signal(list)  # line ids, in the order the user picked them
    seek_requested = Signal(float)
    drag_finished = Signal(str, list, float)  # DragKind value, line ids, seconds moved
    activated = Signal(str)  # a clip was double-clicked
    view_changed = Signal()  # zoom or scroll changed (the panel syncs its scroll bars)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("timelineCanvas")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(RULER_H + 2 * MIN_TRACK_H)
        self._track_h = MAX_TRACK_H
        self.scale = TimeScale()
        self.follow_size = True  # keep the whole programme in view until the user zooms or scrolls
        self.top_px = 0  # vertical scroll of the tracks
        self.snapping = True
        self._tracks: list[Track] = []
        self._clips: list[Clip] = []
        self._by_id: dict[str, Clip] = {}
        self._duration_s = 0.0
        self._video_end: float | None = None
        self._audio: dict[Path, Audio] = {}
        self._guide: Audio | None = None
        self._selected: list[str] = []
        self._playhead = 0.0
        self._static: QPixmap | None = None
        self._drag: _Drag | None = None
        self.renders = 0  # static-layer redraws (the benchmark reports them)
        font = QFont(self.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() - 1))
        self._small = font

    def sizeHint(self) -> QSize:
        return QSize(800, RULER_H + 4 * MAX_TRACK_H)

    # --- content ------------------------------------------------------------------------------

    def set_content(self, tracks: list[Track], clips: list[Clip], duration_s: float, video_end: float | None) -> None:
        """What to draw: the tracks, the clips on them, the length of the programme."""
        self._tracks = tracks
        self._clips = clips
        self._by_id = {clip.line_id: clip for clip in clips}
        self._duration_s = duration_s
        self._video_end = video_end
        self._selected = [i for i in self._selected if i in self._by_id]
        self._share_height()
        self.top_px = min(self.top_px, self.max_top())
        if self.follow_size:
            self._fit()
        self.invalidate()

    def set_audio(self, audio: dict[Path, Audio], guide: Audio | None) -> None:
        """Decoded takes (by file) and the guide, for the waveforms."""
        self._audio = audio
        self._guide = guide
        self.invalidate()

    @property
    def tracks(self) -> list[Track]:
        return self._tracks

    @property
    def clips(self) -> list[Clip]:
        return self._clips

    @property
    def duration_s(self) -> float:
        return self._duration_s

    def clip(self, line_id: str) -> Clip | None:
        return self._by_id.get(line_id)

    def invalidate(self) -> None:
        """Redraw the static layer at the next paint."""
        self._static = None
        self.update()

    # --- selection and playhead ---------------------------------------------------------------

    @property
    def selected(self) -> list[str]:
        return list(self._selected)

    def set_selection(self, line_ids: list[str]) -> None:
        """Select lines without emitting ``selection_changed`` (it came from elsewhere)."""
        wanted = [i for i in line_ids if i in self._by_id]
        if wanted != self._selected:
            self._selected = wanted
            self.invalidate()

    def _select(self, line_ids: list[str]) -> None:
        if line_ids != self._selected:
            self._selected = line_ids
            self.invalidate()
            self.selection_changed.emit(list(line_ids))

    @property
    def playhead(self) -> float:
        return self._playhead

    def set_playhead(self, seconds: float) -> None:
        """Move the playhead, repainting only the strips it leaves and enters."""
        if abs(seconds - self._playhead) < 1e-6:
            return
        old_x, self._playhead = self.x_of(self._playhead), seconds
        new_x = self.x_of(seconds)
        for x in (old_x, new_x):
            self.update(int(x) - 6, 0, 13, self.height())

    # --- geometry -----------------------------------------------------------------------------

    @property
    def area_width(self) -> float:
        """Width of the time area (right of the track names)."""
        return max(1.0, self.width() - HEADER_W)

    def x_of(self, seconds: float) -> float:
        return HEADER_W + self.scale.x_of(seconds)

    def time_of(self, x: float) -> float:
        return self.scale.time_of(x - HEADER_W)

    def track_top(self, index: int) -> float:
        y = RULER_H - self.top_px
        for track in self._tracks[:index]:
            y += GUIDE_H if track.guide else self._track_h
        return y

    def track_height(self, index: int) -> int:
        return GUIDE_H if self._tracks[index].guide else self._track_h

    def tracks_height(self) -> int:
        return sum(GUIDE_H if t.guide else self._track_h for t in self._tracks)

    def _share_height(self) -> None:
        """Give the character tracks the height there is, within sensible bounds."""
        tracks = [t for t in self._tracks if not t.guide]
        free = self.height() - RULER_H - GUIDE_H * (len(self._tracks) - len(tracks)) - 2
        self._track_h = int(min(MAX_TRACK_H, max(MIN_TRACK_H, free / max(1, len(tracks)))))

    def max_top(self) -> int:
        return max(0, self.tracks_height() - (self.height() - RULER_H))

    def span_s(self) -> float:
        """The time the view can show: the programme and a little room after it."""
        return max(1.0, self._duration_s * 1.02 + 0.2)

    def content_width(self) -> float:
        """Pixels the whole programme needs at this zoom."""
        return self.span_s() * self.scale.px_per_s

    def clip_rect(self, line_id: str, slot: Slot | None = None) -> QRectF:
        """Where a line's clip is drawn: its slot (or its take, when it has no slot end)."""
        clip = self._by_id[line_id]
        slot = slot or clip.slot
        top = self.track_top(clip.track) + 3
        left, right = self.x_of(slot.start), self.x_of(visible_end(slot))
        return QRectF(left, top, max(2.0, right - left), self.track_height(clip.track) - 6)

    def hit(self, pos: QPointF) -> tuple[Clip, DragKind] | None:
        """The clip under ``pos`` and which part of it (an edge, or the body)."""
        if pos.x() < HEADER_W or pos.y() < RULER_H:
            return None
        for clip in reversed(self._clips):  # the last drawn is on top
            rect = self.clip_rect(clip.line_id)
            if not rect.adjusted(-EDGE_PX / 2, 0, EDGE_PX / 2, 0).contains(pos):
                continue
            if rect.width() > 3 * EDGE_PX:
                if pos.x() <= rect.left() + EDGE_PX:
                    return clip, DragKind.START
                if pos.x() >= rect.right() - EDGE_PX:
                    return clip, DragKind.END
            return clip, DragKind.MOVE
        return None

    # --- view ---------------------------------------------------------------------------------

    def set_left(self, seconds: float) -> None:
        seconds = max(0.0, seconds)
        if abs(seconds - self.scale.left_s) > 1e-9:
            self.follow_size = False
            self.scale.left_s = seconds
            self.invalidate()
            self.view_changed.emit()

    def set_top(self, pixels: int) -> None:
        pixels = max(0, min(pixels, self.max_top()))
        if pixels != self.top_px:
            self.top_px = pixels
            self.invalidate()
            self.view_changed.emit()

    def zoom(self, factor: float, anchor_x: float | None = None) -> None:
        """Zoom around ``anchor_x`` (default: the playhead if visible, else the middle)."""
        if anchor_x is None:
            playhead = self.scale.x_of(self._playhead)
            anchor_x = playhead if 0 <= playhead <= self.area_width else self.area_width / 2
        self.scale.zoom(factor, anchor_x)
        self.follow_size = False
        self.invalidate()
        self.view_changed.emit()

    def zoom_to_fit(self) -> None:
        """Show the whole programme, and keep it so as the window is resized."""
        self.follow_size = True
        self._fit()
        self.invalidate()
        self.view_changed.emit()

    def _fit(self) -> None:
        self.scale.fit(self.span_s(), self.area_width)

    def ensure_visible(self, seconds: float, page: bool = False) -> None:
        """Scroll so ``seconds`` is in view; ``page`` turns the page as playback reaches the edge."""
        x = self.scale.x_of(seconds)
        if 0 <= x <= self.area_width - (20 if page else 0):
            return
        lead = 0.1 if page else 0.3
        self.set_left(seconds - lead * self.area_width / self.scale.px_per_s)

    def scroll_pages(self, pages: float) -> None:
        self.set_left(self.scale.left_s + pages * self.area_width / self.scale.px_per_s)

    # --- painting -----------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        if self._static is None or self._static.size() != self.size() * self.devicePixelRatioF():
            self._static = self._render_static()
        painter = QPainter(self)
        painter.drawPixmap(0, 0, self._static)
        if self._drag is not None and self._drag.active and self._drag.kind is not None:
            self._paint_drag(painter, self._drag)
        self._paint_playhead(painter)
        painter.end()

    def _render_static(self) -> QPixmap:
        self.renders += 1
        ratio = self.devicePixelRatioF()
        pixmap = QPixmap(self.size() * ratio)
        pixmap.setDevicePixelRatio(ratio)
        palette = self.palette()
        pixmap.fill(palette.color(QPalette.ColorRole.Base))
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self._paint_tracks(painter, palette)
        painter.setClipRect(QRectF(HEADER_W, RULER_H, self.area_width, self.height() - RULER_H))
        self._paint_grid(painter, palette)
        if self._video_end is not None:
            x = self.x_of(self._video_end)
            if x < self.width():
                painter.fillRect(QRectF(x, RULER_H, self.width() - x, self.height()), QColor(0, 0, 0, 28))
        for n, track in enumerate(self._tracks):
            if track.guide and self._guide is not None:
                self._paint_guide(painter, n)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)  # shapes stay crisp and cheap:
        for clip in self._clips:  # antialiased translucent rounded rectangles cost 10× more to fill
            self._paint_clip(painter, clip, palette)
        painter.setClipping(False)
        self._paint_ruler(painter, palette)
        self._paint_headers(painter, palette)
        painter.end()
        return pixmap

    def _paint_tracks(self, painter: QPainter, palette: QPalette) -> None:
        for n in range(len(self._tracks)):
            top, height = self.track_top(n), self.track_height(n)
            shade = palette.color(QPalette.ColorRole.AlternateBase if n % 2 else QPalette.ColorRole.Base)
            painter.fillRect(QRectF(HEADER_W, top, self.area_width, height), shade)
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
        for n in range(len(self._tracks) + 1):
            y = self.track_top(n) if n < len(self._tracks) else self.track_top(n - 1) + self.track_height(n - 1)
            painter.drawLine(QPointF(HEADER_W, y), QPointF(self.width(), y))

    def _paint_grid(self, painter: QPainter, palette: QPalette) -> None:
        major, _minor = tick_steps(self.scale.px_per_s)
        grid = QColor(palette.color(QPalette.ColorRole.Mid))
        grid.setAlpha(60)
        painter.setPen(QPen(grid, 1))
        for t in tick_times(self.scale.left_s, self.time_of(self.width()), major):
            x = round(self.x_of(t)) + 0.5
            painter.drawLine(QPointF(x, RULER_H), QPointF(x, self.height()))

    def _paint_ruler(self, painter: QPainter, palette: QPalette) -> None:
        painter.fillRect(QRectF(0, 0, self.width(), RULER_H), palette.color(QPalette.ColorRole.Window))
        text = palette.color(QPalette.ColorRole.WindowText)
        major, minor = tick_steps(self.scale.px_per_s)
        right = self.time_of(self.width())
        painter.save()
        painter.setClipRect(QRectF(HEADER_W, 0, self.area_width, RULER_H))
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
        for t in tick_times(self.scale.left_s, right, minor):
            x = round(self.x_of(t)) + 0.5
            painter.drawLine(QPointF(x, RULER_H - 5), QPointF(x, RULER_H))
        painter.setFont(self._small)
        for t in tick_times(self.scale.left_s, right, major):
            x = round(self.x_of(t)) + 0.5
            painter.setPen(QPen(text, 1))
            painter.drawLine(QPointF(x, RULER_H - 11), QPointF(x, RULER_H))
            painter.drawText(QPointF(x + 3, RULER_H - 12), format_ruler(t, major))
        painter.restore()
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
        painter.drawLine(QPointF(0, RULER_H - 0.5), QPointF(self.width(), RULER_H - 0.5))

    def _paint_headers(self, painter: QPainter, palette: QPalette) -> None:
        painter.fillRect(QRectF(0, RULER_H, HEADER_W, self.height() - RULER_H), palette.color(QPalette.ColorRole.Window))
        painter.save()
        painter.setClipRect(QRectF(0, RULER_H, HEADER_W, self.height() - RULER_H))
        metrics = QFontMetrics(self.font())
        for n, track in enumerate(self._tracks):
            top, height = self.track_top(n), self.track_height(n)
            colour = QColor(track.colour)
            painter.fillRect(QRectF(0, top + 1, 5, height - 1), colour)
            painter.setPen(palette.color(QPalette.ColorRole.WindowText if not track.guide else QPalette.ColorRole.PlaceholderText))
            label = metrics.elidedText(track.label, Qt.TextElideMode.ElideRight, HEADER_W - 16)
            painter.drawText(QRectF(11, top, HEADER_W - 14, height), Qt.AlignmentFlag.AlignVCenter, label)
            painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
            painter.drawLine(QPointF(0, top + height), QPointF(HEADER_W, top + height))
        painter.restore()
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
        painter.drawLine(QPointF(HEADER_W - 0.5, 0), QPointF(HEADER_W - 0.5, self.height()))

    def _paint_guide(self, painter: QPainter, track: int) -> None:
        assert self._guide is not None
        top, height = self.track_top(track), self.track_height(track)
        colour = QColor(self.palette().color(QPalette.ColorRole.PlaceholderText))
        self._paint_wave(painter, self._guide, 0.0, QRectF(HEADER_W, top + 2, self.area_width, height - 4), colour)

    def _paint_clip(self, painter: QPainter, clip: Clip, palette: QPalette) -> None:
        rect = self.clip_rect(clip.line_id)
        if rect.right() < HEADER_W or rect.left() > self.width():
            return
        colour = QColor(self._tracks[clip.track].colour)
        selected = clip.line_id in self._selected
        fill = QColor(colour)
        fill.setAlpha(95 if selected else 45)
        border = QPen(palette.color(QPalette.ColorRole.Highlight) if selected else colour, 2.5 if selected else 1.2)
        if clip.take is None:
            border.setStyle(Qt.PenStyle.DashLine)  # the slot of a line not rendered yet
        if clip.status is LineStatus.FAILED:
            border = QPen(OVERRUN_COLOUR, 1.5, Qt.PenStyle.DashLine)
        painter.setPen(border)
        painter.setBrush(QBrush(fill))
        painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5))
        slot = clip.slot
        audio = self._audio.get(clip.take) if clip.take is not None else None
        if audio is not None:
            wave = QRectF(self.x_of(slot.start), rect.top() + 13, audio.duration_s * self.scale.px_per_s, rect.height() - 15)
            self._paint_wave(painter, audio, slot.start, wave, colour.darker(140))
        overrun = slot.overrun_s
        if overrun > 0 and slot.slot_end is not None:
            over = QRectF(self.x_of(slot.slot_end), rect.top(), overrun * self.scale.px_per_s, rect.height())
            red = QColor(OVERRUN_COLOUR)
            red.setAlpha(60)
            painter.setPen(QPen(OVERRUN_COLOUR, 1.2))
            painter.setBrush(QBrush(red))
            painter.drawRect(over)
            painter.setBrush(QBrush(OVERRUN_COLOUR, Qt.BrushStyle.BDiagPattern))
            painter.drawRect(over)
            painter.setFont(self._small)
            text = f"+{overrun:.2f} s"
            width = QFontMetrics(self._small).horizontalAdvance(text) + 4  # as wide as it reads: never cut
            label = QRectF(over.right() + 3, over.top(), width, over.height() - 2)
            painter.drawText(label, Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignLeft, text)
        self._paint_labels(painter, clip, rect, palette)

    def _paint_labels(self, painter: QPainter, clip: Clip, rect: QRectF, palette: QPalette) -> None:
        if rect.width() < 24:
            return
        painter.setFont(self._small)
        metrics = QFontMetrics(self._small)
        text_rect = rect.adjusted(5, 1, -4, 0)
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        label = f"{clip.slot.order} · {clip.text}" if clip.text else str(clip.slot.order)
        painter.drawText(text_rect, Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft,
                         metrics.elidedText(label, Qt.TextElideMode.ElideRight, int(text_rect.width())))
        tag = clip.fit or ("not rendered" if clip.take is None else "")
        if clip.status is LineStatus.FAILED:
            tag = "failed"
        elif clip.status in (LineStatus.QUEUED, LineStatus.RENDERING):
            tag = "rendering…" if clip.status is LineStatus.RENDERING else "queued"
        if tag and metrics.horizontalAdvance(tag) + 8 < text_rect.width():
            painter.setPen(QColor("#2f6f3e") if clip.fit else palette.color(QPalette.ColorRole.PlaceholderText))
            if clip.status is LineStatus.FAILED:
                painter.setPen(OVERRUN_COLOUR)
            painter.drawText(text_rect.adjusted(0, 0, 0, -1), Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignRight, tag)

    def _paint_wave(self, painter: QPainter, audio: Audio, start_s: float, rect: QRectF, colour: QColor) -> None:
        """A min/max envelope as one filled polygon, computed for the visible pixels only."""
        left = max(rect.left(), float(HEADER_W))
        right = min(rect.right(), float(self.width()))
        if right - left < 1 or audio.low.size == 0:
            return
        xs = np.arange(int(left), int(right) + 1, dtype=np.float64)
        seconds = self.scale.left_s + (xs - HEADER_W) / self.scale.px_per_s - start_s
        bins = np.clip((seconds * PEAKS_PER_S).astype(np.int64), 0, audio.low.size - 1)
        bins_per_px = PEAKS_PER_S / self.scale.px_per_s
        if bins_per_px > 1:  # several bins per pixel: the extremes of each pixel's bins
            stop = min(audio.low.size, int(bins[-1]) + int(np.ceil(bins_per_px)))
            hi = np.maximum.reduceat(audio.high[:stop], bins)
            lo = np.minimum.reduceat(audio.low[:stop], bins)
        else:
            hi, lo = audio.high[bins], audio.low[bins]
        mid, half = rect.center().y(), rect.height() / 2
        gain = audio.display_gain
        top = mid - np.clip(hi * gain, -1, 1) * half
        bottom = mid - np.clip(lo * gain, -1, 1) * half
        points = [QPointF(x, y) for x, y in zip(xs, top)] + [QPointF(x, y) for x, y in zip(xs[::-1], bottom[::-1])]
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(QPen(colour, 1))
        painter.setBrush(QBrush(colour))
        painter.drawPolygon(QPolygonF(points))
        painter.restore()

    def _paint_drag(self, painter: QPainter, drag: _Drag) -> None:
        pen = QPen(self.palette().color(QPalette.ColorRole.Highlight), 1.5, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for slot in drag.slots:
            start, end = slot.start, visible_end(slot)
            if drag.kind is DragKind.MOVE:
                start, end = start + drag.delta_s, end + drag.delta_s
            elif drag.kind is DragKind.START:
                start = min(start + drag.delta_s, end - MIN_SLOT_S)
            else:
                end = max(end + drag.delta_s, start + MIN_SLOT_S)
            rect = self.clip_rect(slot.line_id)
            painter.drawRect(QRectF(self.x_of(start), rect.top(), self.x_of(end) - self.x_of(start), rect.height()))
        if drag.snapped_to is not None:
            x = self.x_of(drag.snapped_to)
            painter.setPen(QPen(QColor("#f59f00"), 1.5))
            painter.drawLine(QPointF(x, RULER_H), QPointF(x, self.height()))

    def _paint_playhead(self, painter: QPainter) -> None:
        x = self.x_of(self._playhead)
        if x < HEADER_W or x > self.width():
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(PLAYHEAD_COLOUR, 1.5))
        painter.drawLine(QPointF(x, RULER_H - 8), QPointF(x, self.height()))
        painter.setBrush(PLAYHEAD_COLOUR)
        painter.drawPolygon(QPolygonF([QPointF(x - 5, RULER_H - 10), QPointF(x + 5, RULER_H - 10), QPointF(x, RULER_H - 3)]))

    # --- mouse --------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        pos = event.position()
        if event.button() != Qt.MouseButton.LeftButton or pos.x() < HEADER_W:
            super().mousePressEvent(event)
            return
        if pos.y() < RULER_H:  # the ruler: seek, and scrub while the button is down
            self._drag = _Drag(None, "", pos.x(), active=True)
            self.seek_requested.emit(max(0.0, self.time_of(pos.x())))
            return
        found = self.hit(pos)
        if found is None:
            if not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
                self._select([])
            self.seek_requested.emit(max(0.0, self.time_of(pos.x())))
            return
        clip, kind = found
        modifiers = event.modifiers()
        if modifiers & Qt.KeyboardModifier.ControlModifier:
            chosen = [i for i in self._selected if i != clip.line_id]
            if clip.line_id not in self._selected:
                chosen.append(clip.line_id)
            self._select(chosen)
            return
        if modifiers & Qt.KeyboardModifier.ShiftModifier and self._selected:
            orders = [self._by_id[i].slot.order for i in self._selected] + [clip.slot.order]
            lo, hi = min(orders), max(orders)
            self._select([c.line_id for c in self._clips if lo <= c.slot.order <= hi])
            return
        if clip.line_id not in self._selected or kind is not DragKind.MOVE:
            self._select([clip.line_id])
        moving = self._selected if kind is DragKind.MOVE else [clip.line_id]
        self._drag = _Drag(kind, clip.line_id, pos.x(), [self._by_id[i].slot for i in moving])
        self.setCursor(Qt.CursorShape.ClosedHandCursor if kind is DragKind.MOVE else Qt.CursorShape.SizeHorCursor)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position()
        drag = self._drag
        if drag is None:
            self._hover_cursor(pos)
            return
        if drag.kind is None:
            self.seek_requested.emit(max(0.0, self.time_of(pos.x())))
            return
        if not drag.active and abs(pos.x() - drag.press_x) < QApplication.startDragDistance():
            return
        drag.active = True
        delta = (pos.x() - drag.press_x) / self.scale.px_per_s
        snap_on = self.snapping and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        drag.delta_s, drag.snapped_to = delta, None
        if snap_on:
            snapped = snap_delta(self._drag_edges(drag), delta, self._snap_targets(drag),
                                 SNAP_PX / self.scale.px_per_s)
            drag.delta_s, drag.snapped_to = snapped.delta_s, snapped.target_s
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        drag, self._drag = self._drag, None
        self.unsetCursor()
        if drag is None or drag.kind is None or not drag.active:
            return
        self.update()
        if abs(drag.delta_s) > 1e-4:
            self.drag_finished.emit(drag.kind.value, [s.line_id for s in drag.slots], drag.delta_s)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        found = self.hit(event.position())
        if found is not None:
            self.activated.emit(found[0].line_id)

    def cancel_drag(self) -> bool:
        """Drop a drag in progress (Escape); True when there was one."""
        if self._drag is None or not self._drag.active:
            return False
        self._drag = None
        self.unsetCursor()
        self.update()
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and self.cancel_drag():
            return
        super().keyPressEvent(event)

    def _drag_edges(self, drag: _Drag) -> list[float]:
        grabbed = next(s for s in drag.slots if s.line_id == drag.line_id)
        if drag.kind is DragKind.START:
            return [grabbed.start]
        if drag.kind is DragKind.END:
            return [visible_end(grabbed)]
        return [grabbed.start, visible_end(grabbed)]

    def _snap_targets(self, drag: _Drag) -> list[float]:
        moving = {s.line_id for s in drag.slots}
        targets = [0.0, self._playhead]
        for clip in self._clips:
            if clip.line_id not in moving:
                targets += [clip.slot.start, visible_end(clip.slot)]
        return targets

    def _hover_cursor(self, pos: QPointF) -> None:
        found = self.hit(pos)
        if found is None:
            self.unsetCursor()
        elif found[1] is DragKind.MOVE:
            self.setCursor(Qt.CursorShape.OpenHandCursor)
        else:
            self.setCursor(Qt.CursorShape.SizeHorCursor)

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta()
        steps = (delta.y() or delta.x()) / 120
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.zoom(ZOOM_STEP ** steps, max(0.0, event.position().x() - HEADER_W))
        elif event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.set_top(self.top_px - int(steps * self._track_h / 2))
        else:
            self.scroll_pages(-steps * 0.1)
        event.accept()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            found = self.hit(QPointF(event.pos()))
            if found is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), clip_tooltip(found[0]), self)
            return True
        return super().event(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._share_height()
        self.top_px = min(self.top_px, self.max_top())
        if self.follow_size:
            self._fit()
        self.invalidate()
        self.view_changed.emit()


def clip_tooltip(clip: Clip) -> str:
    """Everything about a line's place in time, in one tooltip."""
    slot = clip.slot
    parts = [f"Line {slot.order}: {clip.text}" if clip.text else f"Line {slot.order}"]
    span = f"{format_clock(slot.start)} – {format_clock(slot.slot_end)}" if slot.slot_end is not None else (
        f"from {format_clock(slot.start)} (open slot)")
    parts.append(span)
    if clip.take_s is not None:
        parts.append(f"take {clip.take_s:.2f} s")
    else:
        parts.append("not rendered yet")
    if slot.overrun_s > 0:
        parts.append(f"runs {slot.overrun_s:.2f} s past its slot")
    if clip.fit:
        parts.append(clip.fit)
    elif clip.wants_fit:
        parts.append("will be fitted to its slot when rendered")
    if clip.error:
        parts.append(clip.error)
    parts.append("Drag to move; drag an edge to change the slot (Shift: no snapping)")
    return "\n".join(parts)

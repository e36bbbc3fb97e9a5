"""The timeline's drawing surface: ruler, one track per character, clips, playhead; mouse editing.

How it is drawn (geometry, tracks, clips, waveforms, the painter) is in :mod:`app.ui.timeline.drawing`;
this widget holds what is shown, the view (zoom, scroll) and the mouse gestures.

Everything that only changes when the project, the zoom, the scroll or the selection changes
(tracks, clips, waveforms, the ruler) is drawn once into a pixmap; a paint then copies that
pixmap and draws the playhead over it. While the dub plays only the playhead moves, so a
frame costs a pixmap copy of two thin strips, not a redraw of sixty waveforms.

The canvas knows nothing of undo or the project's rules: a finished drag is reported with
``drag_finished(kind, line ids, seconds)`` and the panel turns it into a command.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QPoint,
    QPointF,
    QRectF,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPixmap,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QApplication, QSizePolicy, QToolTip, QWidget

from app.project.timecode import format_clock
from app.project.timeline import Slot
from app.ui.language import fill
from app.ui.timeline.drawing import (
    EDGE_PX,
    GUIDE_H,
    HEADER_W,
    MAX_TRACK_H,
    MIN_TRACK_H,
    RULER_H,
    SNAP_PX,
    CanvasDrawing,
    Clip,
    DragKind,
    Label,
    Track,
    Wordless,
)
from app.ui.timeline.edits import visible_end
from app.ui.timeline.programme import Audio
from app.ui.timeline.scale import (
    ZOOM_STEP,
    TimeScale,
    snap_delta,
)
from app.ui.waveform_gain import needs_level_tag, peak_dbfs

TRACKS_KEPT_IN_VIEW = 6  # the guide and five characters keep their whole height in any layout

REGION_COLOUR = QColor(255, 193, 7, 90)  # a chosen stretch of the original audio
REGION_MIN_PX = 3  # a shorter drag over the original-audio track is a click


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
    # A right click on the original-audio track: the time under it and where (the panel's menu).
    guide_menu_requested = Signal(float, QPoint)

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
        # A stretch chosen on the original-audio track (dragged over it): (start, end) seconds.
        self._region: tuple[float, float] | None = None
        self._region_from: float | None = None  # where a drag over that track began
        self._wordless: list[Wordless] = []  # speech heard with no words, drawn on the original-audio track
        self.renders = 0  # static-layer redraws (the benchmark reports them)
        self._drawing = CanvasDrawing(self)

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
        # Never so low that a track leaves the view (the window's Messages take room from the
        # script instead); past the first few tracks the tracks scroll.
        kept = sum(GUIDE_H if track.guide else MIN_TRACK_H for track in tracks[:TRACKS_KEPT_IN_VIEW])
        self.setMinimumHeight(RULER_H + max(2 * MIN_TRACK_H, kept) + 2)
        self._share_height()
        self.top_px = min(self.top_px, self.max_top())
        if self.follow_size:
            self._fit()
        self.invalidate()

    def set_wordless(self, stretches: list[Wordless]) -> None:
        """The stretches of speech with no words to mark on the original-audio track."""
        if stretches != self._wordless:
            self._wordless = stretches
            self.invalidate()

    @property
    def wordless(self) -> list[Wordless]:
        return self._wordless

    def wordless_rect(self, stretch: Wordless, track: int) -> QRectF:
        """Where a stretch of speech with no words is drawn on the original-audio track (``track``)."""
        left, right = self.x_of(stretch.start), self.x_of(stretch.end)
        return QRectF(left, self.track_top(track) + 1, max(2.0, right - left), GUIDE_H - 2)

    def wordless_at(self, pos: QPointF) -> Wordless | None:
        """The stretch of speech with no words under ``pos`` on the original-audio track, if any."""
        if not self.on_guide_track(pos):
            return None
        seconds = self.time_of(pos.x())
        slack = 2 / self.scale.px_per_s  # a stretch narrower than a few pixels is still found
        return next((s for s in self._wordless if s.start - slack <= seconds <= s.end + slack), None)

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

    @property
    def video_end(self) -> float | None:
        """Where the video ends (the timeline shades what comes after), None without one."""
        return self._video_end

    @property
    def audio(self) -> dict[Path, Audio]:
        return self._audio

    @property
    def guide(self) -> Audio | None:
        return self._guide

    def clip(self, line_id: str) -> Clip | None:
        return self._by_id.get(line_id)

    def labels(self) -> list[Label]:
        """The words on the clips as they are drawn now: text rows, tags and overrun labels."""
        return self._drawing.labels()

    def invalidate(self) -> None:
        """Redraw the static layer at the next paint."""
        self._static = None
        self.update()

    # --- selection and playhead ---------------------------------------------------------------

    @property
    def region(self) -> tuple[float, float] | None:
        """The stretch chosen on the original-audio track, (start, end) seconds; None if none."""
        return self._region

    def set_region(self, region: tuple[float, float] | None) -> None:
        self._region = region
        self.update()

    def on_guide_track(self, pos: QPointF) -> bool:
        """Whether ``pos`` is on the original-audio track's time area."""
        if pos.x() < HEADER_W or pos.y() < RULER_H:
            return False
        return any(track.guide and self.track_top(index) <= pos.y() < self.track_top(index) + GUIDE_H
                   for index, track in enumerate(self._tracks))

    @property
    def selected(self) -> list[str]:
        return list(self._selected)

    def is_selected(self, line_id: str) -> bool:
        return line_id in self._selected

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
            self.renders += 1
            self._static = self._drawing.static_layer()
        painter = QPainter(self)
        painter.drawPixmap(0, 0, self._static)
        if self._drag is not None and self._drag.active and self._drag.kind is not None:
            self._drawing.paint_drag(painter, self._drag)
        if self._region is not None:
            self._paint_region(painter, *self._region)
        self._drawing.paint_playhead(painter)
        painter.end()

    def _paint_region(self, painter: QPainter, start: float, end: float) -> None:
        """The chosen stretch, over the original-audio track."""
        for index, track in enumerate(self._tracks):
            if track.guide:
                left = max(float(HEADER_W), self.x_of(start))
                rect = QRectF(left, self.track_top(index), max(1.0, self.x_of(end) - left), GUIDE_H)
                painter.fillRect(rect, REGION_COLOUR)
                painter.setPen(REGION_COLOUR.darker(160))
                painter.drawRect(rect)

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
        if found is None and self.on_guide_track(pos):  # a drag over the original audio chooses a stretch
            if not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
                self._select([])  # as a click on any empty place does
            self._region_from = max(0.0, self.time_of(pos.x()))
            self.set_region(None)
            self.seek_requested.emit(self._region_from)
            return
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
        if self._region_from is not None:
            at = min(max(0.0, self.time_of(pos.x())), self.span_s())
            self.set_region((min(self._region_from, at), max(self._region_from, at)))
            return
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
        if self._region_from is not None:
            self._region_from = None
            if self._region is not None and self._region[1] - self._region[0] < REGION_MIN_PX / self.scale.px_per_s:
                self.set_region(None)  # a click, not a drag: it only moved the playhead
            return
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

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if self.on_guide_track(QPointF(event.pos())):
            self.guide_menu_requested.emit(max(0.0, self.time_of(event.pos().x())), event.globalPos())
            return
        super().contextMenuEvent(event)

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
            stretch = self.wordless_at(QPointF(event.pos())) if found is None else None
            if stretch is not None:
                QToolTip.showText(event.globalPos(), wordless_tooltip(stretch), self)
            elif found is None:
                QToolTip.hideText()
            else:
                clip = found[0]
                audio = self._audio.get(clip.take) if clip.take is not None else None
                QToolTip.showText(event.globalPos(), clip_tooltip(clip, audio), self)
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


def wordless_tooltip(stretch: Wordless) -> str:
    """What a hatched stretch of the original-audio track is, and what to do with it."""
    said = (fill(QCoreApplication.translate("TimelineCanvas", "Speech with no words heard (≈ {character})"),
                 character=stretch.name) if stretch.name
            else QCoreApplication.translate("TimelineCanvas", "Speech with no words heard"))
    span = f"{format_clock(stretch.start)} – {format_clock(stretch.end)}"
    return "\n".join([said, span, QCoreApplication.translate(
        "TimelineCanvas", "The transcription heard someone speak here and wrote no line: right-click to add one")])


def clip_tooltip(clip: Clip, audio: Audio | None = None) -> str:
    """Everything about a line's place in time (and its take's level, ``audio`` loaded), in one tooltip."""
    slot = clip.slot
    parts = [fill(QCoreApplication.translate("TimelineCanvas", "Line {order}: {text}") if clip.text
                  else QCoreApplication.translate("TimelineCanvas", "Line {order}"), order=slot.order, text=clip.text)]
    span = f"{format_clock(slot.start)} – {format_clock(slot.slot_end)}" if slot.slot_end is not None else (
        fill(QCoreApplication.translate("TimelineCanvas", "from {start} (open slot)"), start=format_clock(slot.start)))
    parts.append(span)
    if clip.take_s is not None:
        parts.append(fill(QCoreApplication.translate("TimelineCanvas", "take {seconds:.2f} s"), seconds=clip.take_s))
        if audio is not None and needs_level_tag(audio.peak):
            parts.append(fill(QCoreApplication.translate("TimelineCanvas", "peak {decibels} dBFS (its waveform is drawn {gain}× larger)"), decibels=f"{peak_dbfs(audio.peak):.1f}", gain=f"{audio.display_gain:.0f}"))
        elif audio is not None and audio.peak > 0:
            parts.append(fill(QCoreApplication.translate("TimelineCanvas", "peak {decibels} dBFS"), decibels=f"{peak_dbfs(audio.peak):.1f}"))
    else:
        parts.append(QCoreApplication.translate("TimelineCanvas", "not rendered yet"))
    if slot.overrun_s > 0:
        parts.append(fill(QCoreApplication.translate("TimelineCanvas", "runs {seconds:.2f} s past its slot"), seconds=slot.overrun_s))
    if clip.fit:
        parts.append(clip.fit)
    elif clip.wants_fit:
        parts.append(QCoreApplication.translate("TimelineCanvas", "will be fitted to its slot when rendered"))
    if clip.error:
        parts.append(clip.error)
    parts.append(QCoreApplication.translate("TimelineCanvas", "Drag to move; drag an edge to change the slot (Shift: no snapping)"))
    return "\n".join(parts)

"""How the timeline canvas is drawn: its geometry, what a track and a clip show, and the painter.

:class:`CanvasDrawing` paints a :class:`~app.ui.timeline.canvas.TimelineCanvas` from what the
canvas holds (tracks, clips, decoded audio, selection, playhead, zoom and scroll); it keeps no
state of its own but the small font. Everything that only changes when the project, the zoom, the
scroll or the selection changes is drawn once into a pixmap (:meth:`CanvasDrawing.static_layer`);
a paint copies it and draws the drag outline and the playhead over it.

Words are laid out before anything is painted (:meth:`CanvasDrawing.labels`): each clip's text
rows and its tag first, then the overrun labels ("+0.62 s") where they collide with nothing,
right of their hatch (bottom row, then top row) or inside their own clip's end, in full or
short; one that fits nowhere is left to the clip's tooltip, never drawn over other words.

Waveforms are peak-normalised (:mod:`app.ui.waveform_gain`): a quiet take fills its clip like a
loud one, and its clip says its real peak level at the bottom left ("peak -34 dB").
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QCoreApplication, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QPen,
    QPixmap,
    QPolygonF,
)

from app.project import LineStatus
from app.project.timeline import Slot
from app.ui.language import fill, number
from app.ui.timeline.edits import MIN_SLOT_S, visible_end
from app.ui.timeline.programme import PEAKS_PER_S, Audio
from app.ui.timeline.scale import format_ruler, tick_steps, tick_times
from app.ui.waveform_gain import needs_level_tag, peak_dbfs

if TYPE_CHECKING:
    from app.ui.timeline.canvas import TimelineCanvas, _Drag

HEADER_W = 132  # track names
RULER_H = 26
MIN_TRACK_H, MAX_TRACK_H = 32, 64  # tracks share the height between these
GUIDE_H = 30
EDGE_PX = 6  # how close to a clip's edge a press grabs the edge instead of the clip
SNAP_PX = 8
PLAYHEAD_COLOUR = QColor("#e03131")
OVERRUN_COLOUR = QColor("#d62728")
WORDLESS_COLOUR = QColor("#e8590c")  # speech the transcription heard no words in, on the original-audio track


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
class Wordless:
    """A stretch of the original with speech and no words (app.project.transcription.wordless_stretches),
    drawn hatched on the original-audio track: its times, and the character it sounds like
    (its name and colour; empty when unknown)."""

    start: float
    end: float
    character_id: str | None
    name: str = ""
    colour: str = ""


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


class LabelRole(str, enum.Enum):
    TEXT = "text"  # a row of the line's order and words, at the clip's top
    TAG = "tag"  # its state (fitted, not rendered, queued, failed), at the clip's bottom right
    OVERRUN = "overrun"  # how far its take runs past its slot
    LEVEL = "level"  # its take's real peak level, where its waveform is drawn enlarged


@dataclass(frozen=True)
class Label:
    """Words drawn on the timeline: ``rect`` is as wide and as tall as they read."""

    line_id: str
    role: LabelRole
    rect: QRectF
    text: str


class CanvasDrawing:
    """Paints one canvas: the static layer, the drag's outline and the playhead."""

    def __init__(self, canvas: TimelineCanvas) -> None:
        self._canvas = canvas
        font = QFont(canvas.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() - 1))
        self.small_font = font

    def static_layer(self) -> QPixmap:
        """Everything but the drag and the playhead, drawn once into a pixmap the paints copy."""
        canvas = self._canvas
        ratio = canvas.devicePixelRatioF()
        pixmap = QPixmap(canvas.size() * ratio)
        pixmap.setDevicePixelRatio(ratio)
        palette = canvas.palette()
        pixmap.fill(palette.color(QPalette.ColorRole.Base))
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self._paint_tracks(painter, palette)
        painter.setClipRect(QRectF(HEADER_W, RULER_H, canvas.area_width, canvas.height() - RULER_H))
        self._paint_grid(painter, palette)
        if canvas.video_end is not None:
            x = canvas.x_of(canvas.video_end)
            if x < canvas.width():
                painter.fillRect(QRectF(x, RULER_H, canvas.width() - x, canvas.height()), QColor(0, 0, 0, 28))
        for n, track in enumerate(canvas.tracks):
            if track.guide and canvas.guide is not None:
                self._paint_guide(painter, n)
            if track.guide:
                self._paint_wordless(painter, n)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)  # shapes stay crisp and cheap:
        for clip in canvas.clips:  # antialiased translucent rounded rectangles cost 10× more to fill
            self._paint_clip(painter, clip, palette)
        self._paint_words(painter, self.labels(), palette)  # over every clip: no later clip hides them
        painter.setClipping(False)
        self._paint_ruler(painter, palette)
        self._paint_headers(painter, palette)
        painter.end()
        return pixmap

    def _paint_tracks(self, painter: QPainter, palette: QPalette) -> None:
        canvas = self._canvas
        for n in range(len(canvas.tracks)):
            top, height = canvas.track_top(n), canvas.track_height(n)
            shade = palette.color(QPalette.ColorRole.AlternateBase if n % 2 else QPalette.ColorRole.Base)
            painter.fillRect(QRectF(HEADER_W, top, canvas.area_width, height), shade)
        if not canvas.tracks:  # a project without characters or video: nothing to rule
            return
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
        for n in range(len(canvas.tracks) + 1):
            y = canvas.track_top(n) if n < len(canvas.tracks) else canvas.track_top(n - 1) + canvas.track_height(n - 1)
            painter.drawLine(QPointF(HEADER_W, y), QPointF(canvas.width(), y))

    def _paint_grid(self, painter: QPainter, palette: QPalette) -> None:
        canvas = self._canvas
        major, _minor = tick_steps(canvas.scale.px_per_s)
        grid = QColor(palette.color(QPalette.ColorRole.Mid))
        grid.setAlpha(60)
        painter.setPen(QPen(grid, 1))
        for t in tick_times(canvas.scale.left_s, canvas.time_of(canvas.width()), major):
            x = round(canvas.x_of(t)) + 0.5
            painter.drawLine(QPointF(x, RULER_H), QPointF(x, canvas.height()))

    def _paint_ruler(self, painter: QPainter, palette: QPalette) -> None:
        canvas = self._canvas
        painter.fillRect(QRectF(0, 0, canvas.width(), RULER_H), palette.color(QPalette.ColorRole.Window))
        text = palette.color(QPalette.ColorRole.WindowText)
        major, minor = tick_steps(canvas.scale.px_per_s)
        right = canvas.time_of(canvas.width())
        painter.save()
        painter.setClipRect(QRectF(HEADER_W, 0, canvas.area_width, RULER_H))
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
        for t in tick_times(canvas.scale.left_s, right, minor):
            x = round(canvas.x_of(t)) + 0.5
            painter.drawLine(QPointF(x, RULER_H - 5), QPointF(x, RULER_H))
        painter.setFont(self.small_font)
        for t in tick_times(canvas.scale.left_s, right, major):
            x = round(canvas.x_of(t)) + 0.5
            painter.setPen(QPen(text, 1))
            painter.drawLine(QPointF(x, RULER_H - 11), QPointF(x, RULER_H))
            painter.drawText(QPointF(x + 3, RULER_H - 12), format_ruler(t, major))
        painter.restore()
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
        painter.drawLine(QPointF(0, RULER_H - 0.5), QPointF(canvas.width(), RULER_H - 0.5))

    def _paint_headers(self, painter: QPainter, palette: QPalette) -> None:
        canvas = self._canvas
        painter.fillRect(QRectF(0, RULER_H, HEADER_W, canvas.height() - RULER_H), palette.color(QPalette.ColorRole.Window))
        painter.save()
        painter.setClipRect(QRectF(0, RULER_H, HEADER_W, canvas.height() - RULER_H))
        metrics = QFontMetrics(canvas.font())
        for n, track in enumerate(canvas.tracks):
            top, height = canvas.track_top(n), canvas.track_height(n)
            colour = QColor(track.colour)
            painter.fillRect(QRectF(0, top + 1, 5, height - 1), colour)
            painter.setPen(palette.color(QPalette.ColorRole.WindowText if not track.guide else QPalette.ColorRole.PlaceholderText))
            label = metrics.elidedText(track.label, Qt.TextElideMode.ElideRight, HEADER_W - 16)
            painter.drawText(QRectF(11, top, HEADER_W - 14, height), Qt.AlignmentFlag.AlignVCenter, label)
            painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
            painter.drawLine(QPointF(0, top + height), QPointF(HEADER_W, top + height))
        painter.restore()
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
        painter.drawLine(QPointF(HEADER_W - 0.5, 0), QPointF(HEADER_W - 0.5, canvas.height()))

    def _paint_guide(self, painter: QPainter, track: int) -> None:
        canvas = self._canvas
        assert canvas.guide is not None
        top, height = canvas.track_top(track), canvas.track_height(track)
        colour = QColor(canvas.palette().color(QPalette.ColorRole.PlaceholderText))
        self._paint_wave(painter, canvas.guide, 0.0, QRectF(HEADER_W, top + 2, canvas.area_width, height - 4), colour)

    def _paint_wordless(self, painter: QPainter, track: int) -> None:
        """Each stretch of speech with no words: hatched over the original's waveform, in the
        colour of the character it sounds like, so a missed line stands out."""
        canvas = self._canvas
        for stretch in canvas.wordless:
            rect = canvas.wordless_rect(stretch, track)
            if rect.right() < HEADER_W or rect.left() > canvas.width():
                continue
            colour = QColor(stretch.colour or WORDLESS_COLOUR.name())
            tint = QColor(colour)
            tint.setAlpha(50)
            painter.setPen(QPen(colour, 1.2, Qt.PenStyle.DashLine))
            painter.setBrush(QBrush(tint))
            painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5))
            painter.setBrush(QBrush(colour, Qt.BrushStyle.FDiagPattern))
            painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5))

    def _paint_clip(self, painter: QPainter, clip: Clip, palette: QPalette) -> None:
        canvas = self._canvas
        rect = canvas.clip_rect(clip.line_id)
        if rect.right() < HEADER_W or rect.left() > canvas.width():
            return
        colour = QColor(canvas.tracks[clip.track].colour)
        selected = canvas.is_selected(clip.line_id)
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
        audio = canvas.audio.get(clip.take) if clip.take is not None else None
        if audio is not None:
            wave = QRectF(canvas.x_of(slot.start), rect.top() + 13, audio.duration_s * canvas.scale.px_per_s, rect.height() - 15)
            self._paint_wave(painter, audio, slot.start, wave, colour.darker(140))
        overrun = slot.overrun_s
        if overrun > 0 and slot.slot_end is not None:
            over = QRectF(canvas.x_of(slot.slot_end), rect.top(), overrun * canvas.scale.px_per_s, rect.height())
            red = QColor(OVERRUN_COLOUR)
            red.setAlpha(60)
            painter.setPen(QPen(OVERRUN_COLOUR, 1.2))
            painter.setBrush(QBrush(red))
            painter.drawRect(over)
            painter.setBrush(QBrush(OVERRUN_COLOUR, Qt.BrushStyle.BDiagPattern))
            painter.drawRect(over)

    def visible_clips(self) -> list[tuple[Clip, QRectF]]:
        """The clips in view with their rectangles, in time order (the order labels are placed in)."""
        canvas = self._canvas
        shown = []
        for clip in sorted(canvas.clips, key=lambda c: (c.slot.start, c.slot.order)):
            rect = canvas.clip_rect(clip.line_id)
            if rect.right() >= HEADER_W and rect.left() <= canvas.width():
                shown.append((clip, rect))
        return shown

    def labels(self) -> list[Label]:
        """Every word the static layer draws, laid out so that no two labels overlap."""
        metrics = QFontMetrics(self.small_font)
        shown = self.visible_clips()
        placed: dict[int, list[Label]] = {}  # by track: what a new label must not cover
        for clip, rect in shown:
            placed.setdefault(clip.track, []).extend(self._clip_words(clip, rect, metrics))
        for clip, rect in shown:
            if clip.slot.overrun_s > 0 and clip.slot.slot_end is not None:
                others = [self._body(c, r) for c, r in shown if c.track == clip.track and c is not clip]
                label = self._place_overrun(clip, rect, metrics, placed.setdefault(clip.track, []), others)
                if label is not None:
                    placed[clip.track].append(label)
        for clip, rect in shown:  # last: the level is also in the tooltip
            level = self._place_level(clip, rect, metrics, placed.setdefault(clip.track, []))
            if level is not None:
                placed[clip.track].append(level)
        return [label for track in sorted(placed) for label in placed[track]]

    def _body(self, clip: Clip, rect: QRectF) -> QRectF:
        """What a clip covers: its slot and the hatch of its overrun."""
        if clip.slot.overrun_s > 0:
            return rect.united(QRectF(rect.right(), rect.top(), clip.slot.overrun_s * self._canvas.scale.px_per_s,
                                      rect.height()))
        return rect

    def _clip_words(self, clip: Clip, rect: QRectF, metrics: QFontMetrics) -> list[Label]:
        """A clip's text rows (at its top) and its tag (at its bottom right), each as wide as it reads."""
        if rect.width() < 24:
            return []
        text_rect = rect.adjusted(5, 1, -4, 0)
        words: list[Label] = []
        tag = clip_tag(clip)
        tag_rect: QRectF | None = None
        if tag and metrics.horizontalAdvance(tag) + 8 < text_rect.width():
            width = metrics.horizontalAdvance(tag)
            tag_rect = QRectF(text_rect.right() - width, text_rect.bottom() - 1 - metrics.height(), width, metrics.height())
            words.append(Label(clip.line_id, LabelRole.TAG, tag_rect, tag))
        label = f"{clip.slot.order} · {clip.text}" if clip.text else str(clip.slot.order)
        # As many rows as the clip holds above its tag: a short clip shows words, not "3 · The ha…";
        # over a take's waveform only the top row stays readable.
        rows = 1 if clip.take is not None else max(1, int((text_rect.height() - metrics.height())
                                                          // metrics.lineSpacing()))
        width = int(text_rect.width())
        if tag_rect is not None and text_rect.top() + rows * metrics.lineSpacing() > tag_rect.top():
            width = int(tag_rect.left() - text_rect.left() - 6)  # a low clip: the rows end before the tag
        for row, text in enumerate(wrapped_label(metrics, label, width, rows)):
            top = text_rect.top() + row * metrics.lineSpacing()
            words.append(Label(clip.line_id, LabelRole.TEXT,
                               QRectF(text_rect.left(), top, metrics.horizontalAdvance(text), metrics.height()), text))
        return words

    def _place_level(self, clip: Clip, rect: QRectF, metrics: QFontMetrics, placed: list[Label]) -> Label | None:
        """A quiet take's real level ("peak -34 dB") at its clip's bottom left, where it covers
        no other words (the tooltip says it too)."""
        audio = self._canvas.audio.get(clip.take) if clip.take is not None else None
        if audio is None or not needs_level_tag(audio.peak) or rect.width() < 24:
            return None
        level = level_text(audio.peak)
        text_rect = rect.adjusted(5, 1, -4, 0)
        spot = QRectF(text_rect.left(), text_rect.bottom() - 1 - metrics.height(), metrics.horizontalAdvance(level),
                      metrics.height())
        if spot.width() + 8 > text_rect.width() or any(spot.intersects(label.rect) for label in placed):
            return None
        return Label(clip.line_id, LabelRole.LEVEL, spot, level)

    def _place_overrun(self, clip: Clip, rect: QRectF, metrics: QFontMetrics, placed: list[Label],
                       others: list[QRectF]) -> Label | None:
        """Where "+0.62 s" goes: right of the hatch (bottom row, then top row), else inside the
        clip's own end; in full, else short ("+0.62"); None where every place covers other words
        or another clip (the tooltip still says it)."""
        overrun = clip.slot.overrun_s
        hatch_right = rect.right() + overrun * self._canvas.scale.px_per_s
        height = metrics.height()
        bottom, top = rect.bottom() - 2 - height, rect.top() + 1
        for text in (fill(QCoreApplication.translate("TimelineCanvas", "+{seconds:.2f} s"), seconds=overrun),
                     "+" + number(overrun, 2)):
            width = metrics.horizontalAdvance(text)
            outside = [QRectF(hatch_right + 3, y, width, height) for y in (bottom, top)]
            inside = [QRectF(rect.right() - 3 - width, y, width, height) for y in (bottom, top)]
            for spot in outside + (inside if width + 8 <= rect.width() else []):
                if spot.bottom() > rect.bottom() or spot.top() < rect.top() or spot.right() > self._canvas.width():
                    continue  # a track too low for the row, or past the canvas's edge
                if any(spot.intersects(label.rect) for label in placed):
                    continue
                if any(spot.intersects(body) for body in others):
                    continue
                return Label(clip.line_id, LabelRole.OVERRUN, spot, text)
        return None

    def _paint_words(self, painter: QPainter, labels: list[Label], palette: QPalette) -> None:
        canvas = self._canvas
        painter.setFont(self.small_font)
        flags = Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft
        backdrop = QColor(palette.color(QPalette.ColorRole.Base))
        backdrop.setAlpha(210)
        for label in labels:
            clip = canvas.clip(label.line_id)
            assert clip is not None
            if label.role is LabelRole.TEXT:
                painter.setPen(palette.color(QPalette.ColorRole.Text))
            elif label.role is LabelRole.TAG:
                painter.setPen(OVERRUN_COLOUR if clip.status is LineStatus.FAILED else
                               QColor("#2f6f3e") if clip.fit else palette.color(QPalette.ColorRole.PlaceholderText))
            else:  # on a backdrop: it may sit over the hatch or the waveform
                painter.fillRect(label.rect.adjusted(-1, 0, 1, 0), backdrop)
                painter.setPen(OVERRUN_COLOUR if label.role is LabelRole.OVERRUN
                               else palette.color(QPalette.ColorRole.Text))
            painter.drawText(label.rect, flags, label.text)

    def _paint_wave(self, painter: QPainter, audio: Audio, start_s: float, rect: QRectF, colour: QColor) -> None:
        """A min/max envelope as one filled polygon, computed for the visible pixels only."""
        canvas = self._canvas
        left = max(rect.left(), float(HEADER_W))
        right = min(rect.right(), float(canvas.width()))
        if right - left < 1 or audio.low.size == 0:
            return
        xs = np.arange(int(left), int(right) + 1, dtype=np.float64)
        seconds = canvas.scale.left_s + (xs - HEADER_W) / canvas.scale.px_per_s - start_s
        bins = np.clip((seconds * PEAKS_PER_S).astype(np.int64), 0, audio.low.size - 1)
        bins_per_px = PEAKS_PER_S / canvas.scale.px_per_s
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

    def paint_drag(self, painter: QPainter, drag: _Drag) -> None:
        canvas = self._canvas
        pen = QPen(canvas.palette().color(QPalette.ColorRole.Highlight), 1.5, Qt.PenStyle.DashLine)
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
            rect = canvas.clip_rect(slot.line_id)
            painter.drawRect(QRectF(canvas.x_of(start), rect.top(), canvas.x_of(end) - canvas.x_of(start), rect.height()))
        if drag.snapped_to is not None:
            x = canvas.x_of(drag.snapped_to)
            painter.setPen(QPen(QColor("#f59f00"), 1.5))
            painter.drawLine(QPointF(x, RULER_H), QPointF(x, canvas.height()))

    def paint_playhead(self, painter: QPainter) -> None:
        canvas = self._canvas
        x = canvas.x_of(canvas.playhead)
        if x < HEADER_W or x > canvas.width():
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(PLAYHEAD_COLOUR, 1.5))
        painter.drawLine(QPointF(x, RULER_H - 8), QPointF(x, canvas.height()))
        painter.setBrush(PLAYHEAD_COLOUR)
        painter.drawPolygon(QPolygonF([QPointF(x - 5, RULER_H - 10), QPointF(x + 5, RULER_H - 10), QPointF(x, RULER_H - 3)]))


def level_text(peak: float) -> str:
    """A take's real level on its clip: its peak ("peak -34 dB"), the drawing being enlarged."""
    return fill(QCoreApplication.translate("TimelineCanvas", "peak {decibels} dB"), decibels=f"{peak_dbfs(peak):.0f}")


def clip_tag(clip: Clip) -> str:
    """The state a clip shows at its bottom right ("" for a plain rendered take)."""
    if clip.status is LineStatus.FAILED:
        return QCoreApplication.translate("TimelineCanvas", "failed")
    if clip.status is LineStatus.RENDERING:
        return QCoreApplication.translate("TimelineCanvas", "rendering…")
    if clip.status is LineStatus.QUEUED:
        return QCoreApplication.translate("TimelineCanvas", "queued")
    return clip.fit or (QCoreApplication.translate("TimelineCanvas", "not rendered") if clip.take is None else "")


def wrapped_label(metrics: QFontMetrics, text: str, width: int, rows: int) -> list[str]:
    """``text`` word-wrapped into at most ``rows`` rows of ``width`` pixels, the last elided
    when the rest does not fit (a word wider than a row is elided on its own row)."""
    lines: list[str] = []
    words = text.split()
    while words and len(lines) < rows:
        if len(lines) == rows - 1:  # the last row takes the rest
            rest = " ".join(words)
            too_wide = metrics.horizontalAdvance(rest) > width
            lines.append(metrics.elidedText(rest, Qt.TextElideMode.ElideRight, width) if too_wide else rest)
            break
        line = words.pop(0)
        while words and metrics.horizontalAdvance(f"{line} {words[0]}") <= width:
            line += " " + words.pop(0)
        too_wide = metrics.horizontalAdvance(line) > width  # only a word wider than the row
        lines.append(metrics.elidedText(line, Qt.TextElideMode.ElideRight, width) if too_wide else line)
    return lines

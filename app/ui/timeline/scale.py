"""Time ↔ pixels, the ruler's tick spacing, and snapping (no Qt: plain arithmetic, tested alone).

The timeline maps seconds to pixels with one :class:`TimeScale`: a zoom (pixels per second) and
the time at the left edge of the visible area. Zooming keeps the time under the mouse (or the
playhead) where it is, as every audio editor does, so the thing being looked at never jumps.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from app.project.timecode import format_clock

MIN_PX_PER_S = 2.0  # a ten-minute video fits in 1200 px
MAX_PX_PER_S = 1200.0  # single frames of 25 fps video are 48 px wide
ZOOM_STEP = 1.25  # one wheel notch or key press
MAJOR_TICK_MIN_PX = 90  # labels need room: "00:00:00.0" is about 70 px wide
# (major, minor) tick spacings in seconds, finest first; 0.04 s is one frame of 25 fps video.
TICK_STEPS_S = (
    (0.04, 0.04), (0.1, 0.05), (0.2, 0.1), (0.5, 0.1), (1.0, 0.2), (2.0, 0.5), (5.0, 1.0), (10.0, 2.0),
    (15.0, 5.0), (30.0, 5.0), (60.0, 10.0), (120.0, 30.0), (300.0, 60.0), (600.0, 120.0),
)


@dataclass
class TimeScale:
    """Seconds to x (pixels from the left of the time area) and back."""

    px_per_s: float = 40.0
    left_s: float = 0.0

    def x_of(self, seconds: float) -> float:
        return (seconds - self.left_s) * self.px_per_s

    def time_of(self, x: float) -> float:
        return self.left_s + x / self.px_per_s

    def seconds_per_px(self) -> float:
        return 1.0 / self.px_per_s

    def zoom(self, factor: float, anchor_x: float) -> None:
        """Multiply the zoom by ``factor`` keeping the time at ``anchor_x`` under it."""
        anchor = self.time_of(anchor_x)
        self.px_per_s = min(MAX_PX_PER_S, max(MIN_PX_PER_S, self.px_per_s * factor))
        self.left_s = max(0.0, anchor - anchor_x / self.px_per_s)

    def fit(self, duration_s: float, width_px: float) -> None:
        """Show ``duration_s`` seconds from 0 in ``width_px`` pixels."""
        if duration_s > 0 and width_px > 0:
            self.px_per_s = min(MAX_PX_PER_S, max(MIN_PX_PER_S, width_px / duration_s))
        self.left_s = 0.0


def tick_steps(px_per_s: float) -> tuple[float, float]:
    """(major, minor) tick spacing in seconds: the smallest labelled step that leaves room."""
    return next((steps for steps in TICK_STEPS_S if steps[0] * px_per_s >= MAJOR_TICK_MIN_PX), TICK_STEPS_S[-1])


def tick_times(left_s: float, right_s: float, step: float) -> list[float]:
    """Multiples of ``step`` from ``left_s`` to ``right_s`` (rounded so labels stay exact)."""
    first = math.ceil(max(0.0, left_s) / step - 1e-9)
    last = math.floor(right_s / step + 1e-9)
    return [round(n * step, 6) for n in range(first, last + 1)]


def format_ruler(seconds: float, step: float) -> str:
    """``1:05`` for whole-second steps, ``1:05.2`` / ``1:05.04`` for finer ones."""
    return format_clock(seconds, 0 if step >= 1.0 else 1 if step >= 0.1 else 2)


@dataclass(frozen=True)
class Snap:
    """A drag snapped: the corrected change in seconds, and the time it lined up with."""

    delta_s: float
    target_s: float | None  # None when nothing was within reach


def snap_delta(edges: Iterable[float], delta_s: float, targets: Iterable[float], tolerance_s: float) -> Snap:
    """Adjust ``delta_s`` so the nearest of ``edges`` (moved by it) lands on a target.

    ``edges`` are the dragged clip's edges before the drag (both for a move, one for a
    resize); ``targets`` are the other lines' edges and the playhead. Only targets within
    ``tolerance_s`` of a moved edge count, and the closest pair wins.
    """
    moved = [edge + delta_s for edge in edges]
    best: tuple[float, float] | None = None  # (distance, target)
    best_shift = 0.0
    for target in targets:
        for edge in moved:
            distance = abs(target - edge)
            if distance <= tolerance_s and (best is None or distance < best[0]):
                best = (distance, target)
                best_shift = target - edge
    if best is None:
        return Snap(delta_s, None)
    return Snap(delta_s + best_shift, best[1])

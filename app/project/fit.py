"""Fitting a take into its slot: speak faster first, time-stretch only what is left.

A take longer than its slot (its line's end, or the next line's start) is fitted in steps:

1. Re-synthesize at a faster speaking rate computed from the overrun. For a TTS voice this
   is natural: the model itself speaks faster, with no processing artefacts. The bound
   (``fit_max_rate``, default 1.25×, past which speech sounds rushed) applies to the rate the
   listener hears: the natural length over the fitted length.
2. Only if that bound still leaves an overrun, the rest is time-stretched with Rubber Band
   (``pedalboard.time_stretch``, formant-preserving), capped at :data:`MAX_STRETCH`.
3. Rate and stretch together never pass the project's total limit (``fit_max_total``, default
   1.3×; the rate bound is held within it too). A take that still runs past its slot at that
   limit is left there and flagged: "too long: shorten the text or widen the slot", with the
   seconds it needs (:func:`too_long`). Before any of this, the slot of a line with an end
   timecode includes the silence after it, up to ``fit_borrow_s`` (see app.project.timeline).

A model's length does not scale exactly with its speed setting: Piper rounds every phoneme to
whole frames, so part of a take (about 0.4 s in a 3.6 s sentence) does not shrink, and its
durations shrink little at first and faster later. (The passes keep the take's reading, its
model noise: with fresh noise each pass, lengths varied by 2-4 % from one pass to the next.)
So the first faster pass uses the plain ratio, and later passes fit ``length = a + b / speed``
through the natural take and the last pass (a secant step), aiming :data:`AIM` inside the
slot; at most :data:`MAX_RATE_PASSES`.

Trailing silence is trimmed first (at most :data:`KEEP_TAIL_S` kept), so nothing is sped up to
make room for a pause after the last word. The take records what was done
(:class:`app.project.Fit`), shown as "fitted: rate 1.12×" or "… + stretch 1.08×".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from app.project.model import Line
from app.project.project import Project
from app.project.timeline import build_timeline

AIM = 0.97  # aim this far inside the slot: a take's length is not quite a + b / speed
MAX_RATE_PASSES = 3  # faster syntheses after the natural one, before stretching the rest
MAX_SPEED_REQUEST = 2.0  # the most the engine's speed setting is raised to reach a rate
MAX_STRETCH = 1.6  # beyond this Rubber Band's speech turns to mush; the rest is reported
BOUND_SLACK = 0.99  # a rate within 1 % of the bound counts as at the bound
KEEP_TAIL_S = 0.05
SILENCE_DBFS = -50.0


def slot_seconds(project: Project, line: Line, borrow: bool = True) -> float | None:
    """How long the line may last when fitted: to its end and on into the silence after it (up
    to ``fit_borrow_s``; not with ``borrow`` False), or to the next line's start; None when open."""
    for slot in build_timeline(project, fitting=frozenset({line.id})):
        if slot.line_id == line.id:
            if slot.slot_end is None:
                return None
            return max(0.0, slot.slot_end - (0.0 if borrow else slot.borrowed_s) - slot.start)
    return None


def trim_tail(audio: np.ndarray, sample_rate: int) -> np.ndarray:
    """``audio`` without trailing silence, keeping :data:`KEEP_TAIL_S` after the last sound."""
    threshold = 10 ** (SILENCE_DBFS / 20)
    loud = np.flatnonzero(np.abs(audio) > threshold)
    if loud.size == 0:
        return audio
    end = min(audio.size, int(loud[-1]) + 1 + int(KEEP_TAIL_S * sample_rate))
    return audio[:end]


@dataclass(frozen=True)
class FitStep:
    """What to do with a take just rendered.

    ``next_speed`` set: synthesize again with the engine's speed raised by that factor.
    Otherwise the take is final, after a time-stretch by ``stretch`` unless that is 1 (above 1
    shortens; under 1 lengthens a last pass that came out faster than the rate bound).
    """

    next_speed: float | None = None
    stretch: float = 1.0


def too_long(project: Project, line: Line) -> float | None:
    """The seconds a fitted chosen take still runs past its slot (fitting stopped at the total
    limit), or None when it fits, is not fitted, or has no slot."""
    take = project.chosen_take(line)
    if take is None or take.fit is None:
        return None
    for slot in build_timeline(project):
        if slot.line_id == line.id:
            return round(slot.overrun_s, 2) if slot.overrun_s > 0 else None
    return None


TOO_LONG = "too long: shorten the text or widen the slot"
"""What a line that cannot fit within the limits is flagged with (before the seconds it needs)."""


def describe_too_long(seconds: float) -> str:
    """``"too long: shorten the text or widen the slot (0.42 s more needed)"``."""
    return f"{TOO_LONG} ({seconds:.2f} s more needed)"


def target_seconds(natural_s: float, slot_s: float, max_rate: float) -> float:
    """The length the faster passes aim for: inside the slot, but never faster than the bound."""
    return max(slot_s * AIM, natural_s / max_rate)


def first_speed(natural_s: float, slot_s: float, max_rate: float) -> float:
    """The speed factor to try first for a take known to last ``natural_s`` at speed 1."""
    if natural_s <= slot_s:
        return 1.0
    return round(min(MAX_SPEED_REQUEST, natural_s / target_seconds(natural_s, slot_s, max_rate)), 4)


def next_step(natural_s: float, speed: float, duration_s: float, slot_s: float, max_rate: float,
              passes: int, max_total: float | None = None) -> FitStep:
    """The next step for a take of ``duration_s`` made at ``speed`` after ``passes`` faster passes.

    ``natural_s`` is the take's length at speed 1 (the first take, or a known earlier one);
    ``max_rate`` bounds the speaking rate and ``max_total``, when given, the rate and stretch
    together (the take never ends shorter than ``natural_s / max_total``).
    """
    max_rate = max_rate if max_total is None else min(max_rate, max_total)
    shortest_s = 0.0 if max_total is None else natural_s / max_total
    if natural_s / duration_s > max_rate / BOUND_SLACK and speed > 1.0:
        # Past the bound (a model's lengths vary from one synthesis to the next): back off to it.
        if passes < MAX_RATE_PASSES:
            return FitStep(next_speed=round(max(1.0, speed * duration_s * max_rate * BOUND_SLACK / natural_s), 4))
        # No pass left: the stretch slows the take to the bound (a factor under 1), or, when the
        # slot is shorter than that, takes it to the slot, so the heard rate never passes the bound.
        at_bound_s = natural_s / max_rate
        final_s = at_bound_s if at_bound_s <= slot_s else max(slot_s * AIM, at_bound_s / MAX_STRETCH, shortest_s)
        return FitStep(stretch=round(duration_s / final_s, 4))
    if duration_s <= slot_s:
        return FitStep()
    target = target_seconds(natural_s, slot_s, max_rate)
    at_bound = natural_s / duration_s >= max_rate * BOUND_SLACK
    if not at_bound and passes < MAX_RATE_PASSES and speed < MAX_SPEED_REQUEST:
        if speed > 1.0 and duration_s < natural_s:
            # length = a + b / speed through (1, natural) and (speed, duration): solve for target.
            b = (natural_s - duration_s) / (1.0 - 1.0 / speed)
            a = natural_s - b
            wanted = b / (target - a) if target > a else MAX_SPEED_REQUEST
        else:
            wanted = speed * duration_s / target
        # Never ask for more than the bound would allow if length shrank in proportion to speed
        # (the fastest it shrinks): the model's length is not exactly a + b / speed (Piper's
        # durations shrink little at first and faster later), and a secant step past the bound
        # would leave a take that fits but sounds rushed.
        wanted = min(wanted, speed * duration_s * max_rate * BOUND_SLACK / natural_s)
        return FitStep(next_speed=round(min(MAX_SPEED_REQUEST, max(wanted, speed * 1.01)), 4))
    # Stretch into the slot, but never past the total limit (nor Rubber Band's own).
    final_s = max(slot_s * AIM, shortest_s, duration_s / MAX_STRETCH)
    return FitStep(stretch=round(duration_s / final_s, 4) if final_s < duration_s else 1.0)


def time_stretch(audio: np.ndarray, sample_rate: int, factor: float) -> np.ndarray:
    """``audio`` made ``factor`` times shorter (>1) at the same pitch, with Rubber Band."""
    from pedalboard import time_stretch as rubberband

    out = rubberband(np.ascontiguousarray(audio, dtype=np.float32)[None, :], float(sample_rate),
                     stretch_factor=float(factor), high_quality=True, preserve_formants=True)
    return np.ascontiguousarray(out[0], dtype=np.float32)

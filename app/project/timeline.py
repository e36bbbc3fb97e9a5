"""Where each line sits in time, shared by the SRT export and the audio mix.

One function places every line so the subtitles and the mixed track always agree:

- a line with a start timecode starts there (overlaps are kept: people talk over each other);
- a line without one follows the latest end so far plus the project's gap, so it never lands
  on top of earlier audio (the first line starts at 0);
- its duration is the chosen take's, else its own end minus start, else an estimate from the
  text length at its language's typical pace (so a half-rendered script still exports sensible
  subtitles);
- its slot ends at its own end timecode, else at the next line's start timecode, else it is
  open; a take longer than its slot is an overrun the dubber should fix;
- a line that is fitted to its slot (its Fit setting or the project's, a render that fits it, or
  a chosen take that was fitted) and ends at its own end timecode may run on into the silence
  after it, as dubbing editors let a line do before they
  speed it up: its slot takes in up to the project's ``fit_borrow_s``, never past the start of
  the next line of any character (one that starts inside the line leaves nothing to borrow).

A line added to a timed script gets timecodes of its own (:func:`new_line_timing`): right after
the line before it, as long as a short sentence, ending before the next line starts; so the
script's Start and End cells show the slot the timeline draws for it.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from app.project.project import Project
from engine.core.languages import line_language, rules_for

MIN_ESTIMATE_S = 0.8
OVERRUN_TOLERANCE_S = 0.005
MIN_SLOT_S = 0.2  # the shortest slot an edit leaves: shorter than a syllable is a mistake
NEW_LINE_S = 2.0  # a new line's slot, when nothing after it is closer: a short sentence


def estimate_duration(text: str, language: str = "") -> float:
    """A rough spoken length for lines without a take or an end timecode, at the typical pace
    of the line's language (``language``, its character's; else the one its script says)."""
    pace = rules_for(line_language(language, text)).speaking_cps
    return max(MIN_ESTIMATE_S, 0.3 + len(text.strip()) / pace)


@dataclass(frozen=True)
class Slot:
    """One line placed on the timeline (seconds)."""

    line_id: str
    order: int  # 1-based
    character_id: str | None
    start: float
    duration: float
    has_take: bool
    slot_end: float | None  # where the line must have finished, if anything says so
    borrowed_s: float = 0.0  # of which silence after the line's own end, borrowed by fitting

    @property
    def end(self) -> float:
        return self.start + self.duration

    @property
    def overrun_s(self) -> float:
        """How far the take runs past its slot (0 when it fits, has no slot, or no take)."""
        if not self.has_take or self.slot_end is None:
            return 0.0
        over = self.end - self.slot_end
        return over if over > OVERRUN_TOLERANCE_S else 0.0


def build_timeline(project: Project, gap_s: float | None = None, fitting: frozenset[str] = frozenset()) -> list[Slot]:
    """Place every line of the script; see the module docstring for the rules. ``fitting``: lines
    a render is fitting now (whatever their own setting), which borrow silence too."""
    gap = project.settings.gap_s if gap_s is None else gap_s
    slots: list[Slot] = []
    latest_end: float | None = None
    lines = project.lines
    borrow_s = project.settings.fit_borrow_s
    starts = sorted((line.start, n) for n, line in enumerate(lines) if line.start is not None)
    for n, line in enumerate(lines):
        if line.start is not None:
            start = line.start
        else:
            start = 0.0 if latest_end is None else latest_end + gap
        take = project.chosen_take(line)
        if take is not None:
            duration = take.duration_s
        elif line.start is not None and line.end is not None:
            duration = line.end - line.start
        else:
            duration = estimate_duration(line.text, project.spoken_language(line))
        if line.end is not None:
            fitted = line.id in fitting or project.wants_fit(line) or (take is not None and take.fit is not None)
            borrowed = _silence_after(line.end, n, start, starts, borrow_s) if fitted else 0.0
            slot_end: float | None = line.end + borrowed
        elif n + 1 < len(lines) and lines[n + 1].start is not None:
            slot_end, borrowed = lines[n + 1].start, 0.0
        else:
            slot_end, borrowed = None, 0.0
        slots.append(Slot(line.id, n + 1, line.character_id, start, duration, take is not None, slot_end, borrowed))
        latest_end = start + duration if latest_end is None else max(latest_end, start + duration)
    return slots


def _silence_after(end: float, index: int, start: float, starts: list[tuple[float, int]], limit_s: float) -> float:
    """How much of the silence after a line ending at ``end`` it may borrow: up to ``limit_s``,
    never past the start of the next line of any character (``starts``: (start, index), sorted)."""
    at = bisect.bisect_left(starts, (start, -1))
    next_start = next((other for other, n in starts[at:] if n != index), None)
    if next_start is None:
        return limit_s
    return max(0.0, min(limit_s, next_start - end))


def new_line_timing(project: Project, index: int) -> tuple[float, float] | None:
    """Start and end for a line inserted at ``index`` of a timed script; None in a script without
    timecodes (its lines follow one another, and so will the new one).

    It starts the project's gap after the line before it ends (its take, its end timecode or its
    estimate, whichever is later; 0:00 at the top) and lasts :data:`NEW_LINE_S`, ending the gap
    before the next timed line starts. Where the gaps leave no room it takes the silence between
    the two lines, and where there is less silence than :data:`MIN_SLOT_S` it keeps
    :data:`MIN_SLOT_S` and overlaps the next line, as people talk over each other.
    """
    lines = project.lines
    if not any(line.start is not None for line in lines):
        return None
    gap, after, start = project.settings.gap_s, 0.0, 0.0
    if index > 0:
        before = build_timeline(project)[index - 1]
        own_end = lines[index - 1].end
        after = max(before.end, own_end if own_end is not None else before.end)
        start = after + gap
    end = start + NEW_LINE_S
    following = next((line.start for line in lines[index:] if line.start is not None), None)
    if following is not None and end > following - gap:
        end = following - gap
        if end - start < MIN_SLOT_S:  # no room with the gaps: the silence itself
            start, end = after, max(following, after + MIN_SLOT_S)
    return round(start, 3), round(end, 3)

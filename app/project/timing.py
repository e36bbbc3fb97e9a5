"""Timing aids for a line against its slot, as subtitle editors give them (Subtitle Edit's CPS).

For every line, in one timeline pass (:func:`line_timings`):

- characters per second and words per minute of its text over its slot, the pace the voice
  must keep to fit;
- the spoken length to expect before rendering, from the character's measured speaking rate
  (its natural takes' characters over their seconds, at the character's speed), else the typical
  pace of the line's language; with it, whether the line is likely too long for its slot;
- the limits it is judged by, those of its language (its character's, else its script's):
  a Chinese line is fast over 7 characters a second, an English one over 17
  (engine/core/languages.py, docs/languages.md);
- the lines of the same character it overlaps in time (one voice cannot say two lines at once).

Qt-free, so the table, the timeline and any command read the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.project import phrases
from app.project.model import Line
from app.project.phrases import Phrase, counted, language_name
from app.project.project import Project
from app.project.timeline import (
    OVERRUN_TOLERANCE_S,
    Slot,
    build_timeline,
)
from engine.core.languages import ENGLISH, LanguageRules, rules_for

TYPICAL_CPS = ENGLISH.speaking_cps  # the pace assumed for an English voice with no takes yet
MIN_MEASURED_S = 2.0  # a voice's rate counts as measured from this many seconds of takes on


def spoken_characters(text: str) -> int:
    """Characters a voice says: the text with runs of white space counted as one space."""
    return len(" ".join(text.split()))


@dataclass(frozen=True)
class VoicePace:
    """How fast one character speaks: characters per second, and where the figure comes from."""

    cps: float
    takes: int  # natural takes it was measured from; 0: the typical pace
    speed: float = 1.0  # the character's speed setting, which scales a typical pace

    def in_language(self, rules: LanguageRules) -> VoicePace:
        """The pace for a line in ``rules``' language: a measured one as it is, a typical one
        that language's typical pace at the character's speed."""
        return self if self.takes else VoicePace(rules.speaking_cps * self.speed, 0, self.speed)

    def describe(self) -> str:
        if self.takes:
            return counted(self.takes, phrases.PACE_MEASURED_ONE, phrases.PACE_MEASURED, cps=self.cps)
        return Phrase(phrases.PACE_TYPICAL, cps=self.cps)


def voice_paces(project: Project) -> dict[str | None, VoicePace]:
    """Each character's pace from its natural (unfitted) takes; characters without enough takes
    get the typical pace at their speed setting."""
    chars: dict[str | None, float] = {}
    seconds: dict[str | None, float] = {}
    counts: dict[str | None, int] = {}
    for line in project.lines:
        for take in line.takes:
            if take.fit is None and take.duration_s > 0 and take.text.strip():
                key = line.character_id
                chars[key] = chars.get(key, 0.0) + spoken_characters(take.text)
                seconds[key] = seconds.get(key, 0.0) + take.duration_s
                counts[key] = counts.get(key, 0) + 1
    paces: dict[str | None, VoicePace] = {None: VoicePace(TYPICAL_CPS, 0)}
    for char in project.characters:
        if seconds.get(char.id, 0.0) >= MIN_MEASURED_S:
            paces[char.id] = VoicePace(chars[char.id] / seconds[char.id], counts[char.id])
        else:
            paces[char.id] = VoicePace(TYPICAL_CPS * char.settings.speed, 0, char.settings.speed)
    return paces


@dataclass(frozen=True)
class LineTiming:
    """One line's pace against its slot (``slot_s`` None: open slot, nothing to measure against)."""

    slot_s: float | None
    characters: int
    words: int
    expected_s: float  # the spoken length to expect from the voice's pace
    pace: VoicePace
    overlaps: tuple[int, ...]  # order numbers of the same character's lines it overlaps
    rules: LanguageRules = field(default=ENGLISH)  # the line's language's, whose limits it is judged by

    @property
    def cps(self) -> float | None:
        return self.characters / self.slot_s if self.slot_s else None

    @property
    def wpm(self) -> float | None:
        return self.words * 60.0 / self.slot_s if self.slot_s else None

    @property
    def too_fast(self) -> bool:
        return (self.cps or 0.0) > self.rules.cps_too_fast

    @property
    def fast(self) -> bool:
        return (self.cps or 0.0) > self.rules.cps_fast

    @property
    def likely_too_long(self) -> bool:
        """The voice at its pace would run past the slot."""
        return self.slot_s is not None and self.expected_s > self.slot_s + OVERRUN_TOLERANCE_S

    @property
    def warned(self) -> bool:
        return self.fast or self.likely_too_long or bool(self.overlaps)

    def warnings(self) -> list[Phrase]:
        """Sentences for people, the most serious first."""
        found: list[Phrase] = []
        if self.overlaps:
            others = ", ".join(str(order) for order in self.overlaps)
            found.append(Phrase(phrases.OVERLAPS if len(self.overlaps) > 1 else phrases.OVERLAPS_ONE, others=others))
        if self.too_fast:
            found.append(Phrase(phrases.TOO_FAST, cps=self.cps, limit=self.rules.cps_too_fast,
                                language=language_name(self.rules)))
        elif self.fast:
            found.append(Phrase(phrases.FAST, cps=self.cps, limit=self.rules.cps_fast,
                                language=language_name(self.rules)))
        if self.likely_too_long and self.slot_s is not None:
            found.append(Phrase(phrases.LIKELY_TOO_LONG, expected=self.expected_s, slot=self.slot_s))
        return found

    def describe(self) -> str:
        """The figures, for a tooltip."""
        if self.slot_s is None:
            pace = Phrase(phrases.OPEN_SLOT)
        else:
            pace = Phrase(phrases.SLOT_PACE, cps=self.cps, wpm=self.wpm, slot=self.slot_s)
        return Phrase(phrases.EXPECTED, pace=pace, expected=self.expected_s, voice=self.pace.describe())


def line_timings(project: Project) -> dict[str, LineTiming]:
    """Line id -> :class:`LineTiming` for every line, in one timeline pass."""
    paces = voice_paces(project)
    slots = build_timeline(project)
    lines = {line.id: line for line in project.lines}
    overlaps = _same_character_overlaps(slots)
    timings: dict[str, LineTiming] = {}
    for slot in slots:
        line: Line = lines[slot.line_id]
        rules = rules_for(project.spoken_language(line))
        pace = paces.get(line.character_id, paces[None]).in_language(rules)
        characters = spoken_characters(line.text)
        slot_s = max(0.0, slot.slot_end - slot.start) if slot.slot_end is not None else None
        timings[line.id] = LineTiming(
            slot_s=slot_s,
            characters=characters,
            words=len(line.text.split()),
            expected_s=characters / pace.cps if pace.cps > 0 else 0.0,
            pace=pace,
            overlaps=tuple(overlaps.get(line.id, ())),
            rules=rules,
        )
    return timings


def _same_character_overlaps(slots: list[Slot]) -> dict[str, list[int]]:
    """Line id -> order numbers of the same character's lines whose sound overlaps it."""
    by_character: dict[str, list[Slot]] = {}
    for slot in slots:
        if slot.character_id is not None:
            by_character.setdefault(slot.character_id, []).append(slot)
    found: dict[str, list[int]] = {}
    for placed in by_character.values():
        placed.sort(key=lambda s: s.start)
        for n, first in enumerate(placed):
            for k in range(n + 1, len(placed)):  # by index: a slice here copied the rest of the list each time
                later = placed[k]
                if later.start >= first.end - OVERRUN_TOLERANCE_S:
                    break
                found.setdefault(first.line_id, []).append(later.order)
                found.setdefault(later.line_id, []).append(first.order)
    return {line_id: sorted(orders) for line_id, orders in found.items()}


def overlapping_lines(project: Project, line_id: str) -> tuple[int, ...]:
    """Order numbers of the same character's lines that ``line_id`` overlaps (after an edit)."""
    return tuple(_same_character_overlaps(build_timeline(project)).get(line_id, ()))

"""What a translator is given and what it gives back: lines with their budget, and their fit.

A budget is how much text a line's slot holds in the target language: the slot's seconds times
the language's typical pace (``speech_rate`` in :mod:`engine.core.languages`), counted in that
language's unit (``rate_unit``: the letters of its words, or its characters). A translator puts it
in the request, and a line that comes back over it is asked once for a shorter version.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.languages import CHARACTERS, LETTERS

UNITS = (LETTERS, CHARACTERS)


def measure(text: str, unit: str) -> int:
    """How long ``text`` is in ``unit``: letters and digits, or (a language written in characters)
    its characters; spaces and punctuation are not said, so neither counts. Both count what take
    QA's expected speech time counts."""
    if unit not in UNITS:
        raise ValueError(f"no unit {unit!r}; one of {', '.join(UNITS)}")
    return sum(1 for ch in text if ch.isalnum())


@dataclass(frozen=True)
class Budget:
    """At most ``limit`` ``unit`` (letters or characters) fit the line's slot."""

    limit: int
    unit: str

    def __post_init__(self) -> None:
        if self.unit not in UNITS or self.limit < 1:
            raise ValueError(f"a budget is at least 1 of {', '.join(UNITS)}, got {self.limit} {self.unit}")

    def length(self, text: str) -> int:
        return measure(text, self.unit)

    def fits(self, text: str) -> bool:
        return self.length(text) <= self.limit


@dataclass(frozen=True)
class SourceLine:
    """A line to translate: its id, its text in the original, who says it, its budget (None: the
    line has no slot), its start and end in seconds (a long pause between lines ends a scene), and its
    current wording in the target language (what "Shorten to fit" shortens; for context, the
    translation a neighbour already has); ``language``: the language its text is in where it is not
    the original's (a Mandarin drama's one English sentence), "" otherwise."""

    id: str
    text: str
    speaker: str = ""
    budget: Budget | None = None
    start: float | None = None
    end: float | None = None
    current: str = ""
    language: str = ""


@dataclass(frozen=True)
class TranslatedLine:
    """A line's translation, with what the budget made of it: ``first_length`` is the length of
    the first answer, ``shortened`` whether a shorter version was asked for; ``missing_terms``
    are glossary targets the answer should have used and did not (after one reminder)."""

    id: str
    text: str
    budget: Budget | None = None
    first_length: int | None = None
    shortened: bool = False
    missing_terms: tuple[str, ...] = ()

    @property
    def length(self) -> int | None:
        return None if self.budget is None else self.budget.length(self.text)

    @property
    def fits(self) -> bool | None:
        """Whether the text fits its slot's budget; None for a line with no budget."""
        return None if self.budget is None else self.budget.fits(self.text)

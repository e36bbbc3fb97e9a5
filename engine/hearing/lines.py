"""Heard words and the lines of dialogue they make: cut at sentence ends and pauses, and over-long
lines cut again where a pause is widest."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.english_forms import NEVER_FINAL_ABBREVIATIONS
from engine.core.languages import ALL_CLAUSE_MARKS, ALL_SENTENCE_ENDS

PAUSE_S = 0.6  # a silence this long between words ends a line
MAX_LINE_S = 12.0  # a longer run of words is cut at its widest pause or comma
# A word that ends with a sentence-end (or clause) mark of any language in the language table,
# optionally followed by closing quotes or brackets.
SENTENCE_END = re.compile(rf"[{re.escape(ALL_SENTENCE_ENDS)}]+[\"'”’)\]]*$")
CLAUSE_END = re.compile(rf"[{re.escape(ALL_CLAUSE_MARKS)}]+[\"'”’)\]]*$")


@dataclass(frozen=True)
class Word:
    start: float  # seconds into the recording
    end: float
    text: str  # as Whisper wrote it, with its leading space
    probability: float = 1.0
    # The language Whisper heard the word in where it is not the recording's ("" for the
    # recording's): a Mandarin drama's English turn, heard on its own (docs/transcribe.md).
    language: str = ""


@dataclass
class Line:
    """One line of dialogue: its words (in the recording's language) and who says it."""

    words: list[Word]
    speaker: int = 0  # 0-based; characters are "Speaker <speaker + 1>"
    translation: str | None = None  # the line in the target language, when translating

    @property
    def start(self) -> float:
        return self.words[0].start

    @property
    def end(self) -> float:
        return self.words[-1].end

    @property
    def text(self) -> str:
        return "".join(word.text for word in self.words).strip()

    @property
    def language(self) -> str:
        """The language most of its words were heard in where it is not the recording's, else ""."""
        counts = Counter(word.language for word in self.words)
        return max(counts, key=lambda language: (counts[language], language == "")) if counts else ""


def split_lines(words: Sequence[Word], pause_s: float = PAUSE_S, max_line_s: float = MAX_LINE_S) -> list[Line]:
    """Words cut into lines at sentence ends and at pauses; over-long lines cut again."""
    lines: list[Line] = []
    current: list[Word] = []
    for word in words:
        if current and word.start - current[-1].end >= pause_s:
            lines.append(Line(current))
            current = []
        current.append(word)
        if _ends_sentence(word.text.strip()):
            lines.append(Line(current))
            current = []
    if current:
        lines.append(Line(current))
    return [part for line in lines for part in _shorten(line, max_line_s)]


def _ends_sentence(text: str) -> bool:
    """Whether a word ends its sentence: a sentence mark, but not the period of a title or the
    like that stands before what it qualifies ("Mr. Hale" was cut into "…Mr." and "Hale…")."""
    return bool(SENTENCE_END.search(text)) and not (text.endswith(".") and text[:-1] in NEVER_FINAL_ABBREVIATIONS)


def _shorten(line: Line, max_line_s: float) -> list[Line]:
    """A line longer than ``max_line_s`` cut in two where a pause is widest (a comma counts
    as 0.3 s more), and again until every part fits."""
    if line.end - line.start <= max_line_s or len(line.words) < 2:
        return [line]
    words = line.words
    best, best_gap = 1, -math.inf
    for i in range(1, len(words)):
        gap = words[i].start - words[i - 1].end + (0.3 if CLAUSE_END.search(words[i - 1].text.strip()) else 0.0)
        balance = min(words[i - 1].end - line.start, line.end - words[i].start)  # keep both parts sizeable
        if gap + 0.01 * balance > best_gap:
            best, best_gap = i, gap + 0.01 * balance
    return _shorten(Line(words[:best]), max_line_s) + _shorten(Line(words[best:]), max_line_s)

"""Splitting text into pieces that can be spoken and streamed one by one.

The first piece is kept short so the first audio of a long line arrives about as soon as that
of a short one; later pieces may be longer, which sounds more natural and costs less overhead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A sentence ends at . ! ? … (optionally followed by closing quotes/brackets) plus whitespace,
# at CJK full stops, or at a line break.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?…])[\"'”’)\]]*\s+|(?<=[。！？])|\n+")
_CLAUSE_BREAK = re.compile(r"(?<=[,;:，；：、—–])\s*")
_SPEAKABLE = re.compile(r"[^\W_]", re.UNICODE)  # any letter or digit, in any script

FIRST_PIECE_MAX_CHARS = 90
PIECE_MAX_CHARS = 260


@dataclass(frozen=True)
class TextPiece:
    text: str
    ends_sentence: bool  # a longer pause follows a sentence than a clause


def is_speakable(text: str) -> bool:
    """True when the text holds at least one letter or digit."""
    return bool(_SPEAKABLE.search(text))


def _pack(parts: list[str], limit: int) -> list[str]:
    """Greedily join parts (keeping their order) into strings of at most ``limit`` chars."""
    packed: list[str] = []
    for part in parts:
        if packed and len(packed[-1]) + 1 + len(part) <= limit:
            packed[-1] = f"{packed[-1]} {part}"
        else:
            packed.append(part)
    return packed


def _split_long(sentence: str, limit: int) -> list[str]:
    """Split one sentence at clause marks, then at spaces, so no piece exceeds ``limit``."""
    if len(sentence) <= limit:
        return [sentence]
    pieces: list[str] = []
    for clause in (c.strip() for c in _CLAUSE_BREAK.split(sentence)):
        if not clause:
            continue
        if len(clause) <= limit:
            pieces.append(clause)
        elif " " in clause:
            pieces.extend(_pack(clause.split(), limit))
        else:  # scripts without spaces (CJK): cut at the limit
            pieces.extend(clause[i : i + limit] for i in range(0, len(clause), limit))
    return _pack(pieces, limit)


def split_for_streaming(
    text: str, first_max: int = FIRST_PIECE_MAX_CHARS, max_chars: int = PIECE_MAX_CHARS
) -> list[TextPiece]:
    """Split text into speakable pieces: sentences, and clauses of sentences that are too long."""
    result: list[TextPiece] = []
    for sentence in (s.strip() for s in _SENTENCE_BREAK.split(text)):
        if not sentence or not is_speakable(sentence):
            continue
        limit = first_max if not result else max_chars
        parts = _split_long(sentence, limit)
        if len(parts) > 1 and not result:
            # Only the very first piece needs to be short; re-pack the rest with the larger limit.
            parts = [parts[0], *_split_long(" ".join(parts[1:]), max_chars)]
        for index, part in enumerate(parts):
            if is_speakable(part):
                result.append(TextPiece(part, ends_sentence=index == len(parts) - 1))
    return result

"""Splitting text into pieces that can be spoken and streamed one by one.

The first piece is what a listener waits for, so a long first sentence is cut (at a clause
mark, else between words) to a length whose model time is short; later pieces stay whole
sentences, which sound more natural and cost less overhead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A sentence ends at . ! ? … (optionally followed by closing quotes/brackets) plus whitespace,
# at CJK full stops, or at a line break.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?…])[\"'”’)\]]*\s+|(?<=[。！？])|\n+")
_CLAUSE_BREAK = re.compile(r"(?<=[,;:，；：、—–])\s*")
_SPEAKABLE = re.compile(r"[^\W_]", re.UNICODE)  # any letter or digit, in any script

# The first piece's budget. Alone on the engine it may be a short sentence (about 3.5 s of
# speech, the model time of the 64-character sentence benchmarks/engine_speed.py compares with
# the bare model). When other streams share the slots, a piece gets about 1/slots of the
# cores, so the budget shrinks in proportion, to keep its model time about the same, down to
# FIRST_PIECE_MIN_CHARS: about 2 s of speech, enough audio in hand to hide the next piece.
FIRST_PIECE_CHARS = 64
FIRST_PIECE_MIN_CHARS = 32
# A cut leaves at least this much of the sentence for the next piece: a word or two alone would
# cost a model call and sound clipped for a few milliseconds saved.
CUT_REST_MIN_CHARS = 16
PIECE_MAX_CHARS = 260


def first_piece_chars(streams: int, slots: int) -> int:
    """The first piece's budget for a job whose first piece begins while ``streams`` jobs
    (itself included) are admitted on an engine of ``slots`` slots (see FIRST_PIECE_CHARS)."""
    sharing = max(1, min(streams, slots))
    return max(FIRST_PIECE_MIN_CHARS, FIRST_PIECE_CHARS // sharing)


@dataclass(frozen=True)
class TextPiece:
    text: str
    ends_sentence: bool  # a longer pause follows a sentence than a clause
    mid_clause: bool = False  # the first piece cut between two words: no pause follows


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


def first_cut(sentence: str, budget: int) -> tuple[int, bool] | None:
    """Where a first sentence longer than ``budget`` characters is cut: (the length of its
    first piece, whether that ends at a clause mark), or None when it stays whole.

    The cut is the last clause mark within the budget when that keeps at least half of it, else
    the last space within it; the rest must keep CUT_REST_MIN_CHARS.
    """
    if len(sentence) <= budget:
        return None
    limit = min(budget, len(sentence) - CUT_REST_MIN_CHARS - 1)  # - 1: the space at the cut
    clauses = [m.start() for m in _CLAUSE_BREAK.finditer(sentence) if budget // 2 <= m.start() <= limit]
    if clauses:
        return clauses[-1], True
    space = sentence.rfind(" ", 0, limit + 1)
    if space > 0:
        return space, False
    if " " not in sentence and len(sentence) > limit > 0:  # scripts without spaces (CJK): at the budget
        return limit, False
    return None


def split_for_streaming(
    text: str, first_max: int = FIRST_PIECE_CHARS, max_chars: int = PIECE_MAX_CHARS
) -> list[TextPiece]:
    """Split text into speakable pieces: sentences (clauses of sentences over ``max_chars``),
    the first sentence cut at ``first_max`` characters (see :func:`first_cut`)."""
    result: list[TextPiece] = []
    for sentence in (s.strip() for s in _SENTENCE_BREAK.split(text)):
        if not sentence or not is_speakable(sentence):
            continue
        if not result:
            cut = first_cut(sentence, first_max)
            if cut is not None:
                length, at_clause = cut
                head = sentence[:length].strip()
                if is_speakable(head):
                    result.append(TextPiece(head, ends_sentence=False, mid_clause=not at_clause))
                    sentence = sentence[length:].strip()
        parts = _split_long(sentence, max_chars)
        for index, part in enumerate(parts):
            if is_speakable(part):
                result.append(TextPiece(part, ends_sentence=index == len(parts) - 1))
    return result

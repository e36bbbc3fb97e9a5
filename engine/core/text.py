"""Splitting text into pieces that can be spoken and streamed one by one.

The first piece is what a listener waits for, so a long first sentence is cut (at a clause
mark, else between words) to a length whose model time is short; later pieces stay whole
sentences, which sound more natural and cost less overhead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.english_forms import NEVER_FINAL_ABBREVIATIONS, WORD_LOOKBACK
from engine.core.languages import (
    ALL_CLAUSE_MARKS,
    ALL_SENTENCE_ENDS,
    SPACED_SENTENCE_ENDS,
    UNSPACED_SENTENCE_ENDS,
    LanguageRules,
    join_pieces,
    joins_without_space,
)

# A sentence ends at a spaced language's end mark (. ! ? …) plus whitespace, right after an
# unspaced language's (。！？), either with the closing quotes and brackets after it kept in the
# sentence (「你好。」他说。 is 「你好。」 and 他说。), or at a line break; a clause at any
# language's clause mark. The marks are the language table's.
_CLOSING_MARKS = "\"'”’)]」』）》"
_SENTENCE_END = re.compile(rf"[{re.escape(SPACED_SENTENCE_ENDS)}][{re.escape(_CLOSING_MARKS)}]*\s+"
                           rf"|[{re.escape(UNSPACED_SENTENCE_ENDS)}]+[{re.escape(_CLOSING_MARKS)}]*")
_WORD_BEFORE_PERIOD = re.compile(r"(?:^|(?<=[\s(\"“]))([\w.]+)\.$")
_CLAUSE_BREAK = re.compile(rf"(?<=[{re.escape(ALL_CLAUSE_MARKS)}])\s*")
_SPEAKABLE = re.compile(r"[^\W_]", re.UNICODE)  # any letter or digit, in any script

# The first piece's budget. Alone on the engine it may be a short sentence (about 3.5 s of
# speech, the model time of the 64-character sentence benchmarks/engine_speed.py compares with
# the bare model). When other streams share the slots, a piece gets about 1/slots of the
# cores, so the budget shrinks in proportion, to keep its model time about the same, down to
# FIRST_PIECE_MIN_CHARS: about 2 s of speech, enough audio in hand to hide the next piece.
FIRST_PIECE_CHARS = 64
FIRST_PIECE_MIN_CHARS = 32
# A first sentence up to this many times the budget stays whole: cutting it would save little
# model time and cost its intonation (a question split in two no longer sounds like one); a
# longer one cut within the budget leaves the rest at least half the budget, a few words.
FIRST_CUT_SLACK = 1.5
PIECE_MAX_CHARS = 260


def first_piece_chars(streams: int, slots: int, listening: bool = True) -> int:
    """The first piece's budget for a job whose first piece begins while ``streams`` jobs
    (itself included) are admitted on an engine of ``slots`` slots (see FIRST_PIECE_CHARS).
    A job nobody listens to as it is made (a take rendered to a file) keeps its first sentence
    whole: its first audio waits for nobody, and its take then does not depend on the load."""
    if not listening:
        return PIECE_MAX_CHARS
    sharing = max(1, min(streams, slots))
    return max(FIRST_PIECE_MIN_CHARS, FIRST_PIECE_CHARS // sharing)


@dataclass(frozen=True)
class TextPiece:
    text: str
    ends_sentence: bool  # a longer pause follows a sentence than a clause
    mid_clause: bool = False  # the first piece cut between two words: no pause follows


# C0 controls other than tab and line ends, and DEL: never text, and a NUL ends the C string
# the phonemizer reads (it raised "embedded null character" for every line of such a script).
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_CONTROL = re.compile(f"[{re.escape(_CONTROL_BYTES.decode('ascii'))}]")
_NOT_CONTROL = bytes(sorted(set(range(256)) - set(_CONTROL_BYTES)))


def control_character(text: str) -> tuple[int, str] | None:
    """The offset and ``U+XXXX`` name of the first control character in ``text``, if any."""
    # Whether there is one at all is asked of the UTF-8 bytes (a control character is one byte
    # there, never part of another character's): bytes.translate scans 100 MB in 0.4 s, the
    # pattern in 1.5 s, and imports check every script this way before reading it.
    if not text.encode("utf-8", "surrogatepass").translate(None, _NOT_CONTROL):
        return None
    found = _CONTROL.search(text)
    return None if found is None else (found.start(), f"U+{ord(found.group()):04X}")


def is_speakable(text: str) -> bool:
    """True when the text holds at least one letter or digit."""
    return bool(_SPEAKABLE.search(text))


# A direction before the words, as scripts and subtitles write it: （小声）, (whispering), [laughs].
# Short, so a sentence that merely opens with a bracket is no direction.
_LEADING_DIRECTION = re.compile(r"^\s*(?:（[^（）\n]{1,12}）|\([^()\n]{1,24}\)|\[[^\[\]\n]{1,24}\])\s*")


def spoken_text(text: str) -> str:
    """What a voice says of a line: the line without the directions before its words
    ("（小声）我不会放弃的。" says 我不会放弃的。, "(whispering) Go." says Go.). A line that is
    nothing but a direction ("（笑声）", "[Music]") is left whole: it is no dialogue to drop words from."""
    rest = text
    while (match := _LEADING_DIRECTION.match(rest)) is not None:
        rest = rest[match.end():]
    return rest.strip() if rest != text and is_speakable(rest) else text


def _pack(parts: list[str], limit: int) -> list[str]:
    """Greedily join parts (keeping their order) into strings of at most ``limit`` chars; a space
    between words, none inside a run of Chinese (see :func:`join_pieces`)."""
    packed: list[str] = []
    for part in parts:
        if packed and len(joined := join_pieces((packed[-1], part))) <= limit:
            packed[-1] = joined
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
    """Where a first sentence longer than FIRST_CUT_SLACK × ``budget`` characters is cut: (the
    length of its first piece, whether that ends at a clause mark), or None when it stays whole.

    The cut is the last clause mark within the budget when that keeps at least half of it (a
    first piece of a word or two would play out before the next one is ready), else the last
    space within it.
    """
    if len(sentence) <= budget * FIRST_CUT_SLACK:
        return None
    clauses = [m.start() for m in _CLAUSE_BREAK.finditer(sentence) if budget // 2 <= m.start() <= budget]
    if clauses:
        return clauses[-1], True
    space = sentence.rfind(" ", 0, budget + 1)
    if space > 0:
        return space, False
    if " " not in sentence:  # scripts without spaces (CJK): at the budget
        return budget, False
    return None


def _sentence_break(end: re.Match[str]) -> str:
    """A sentence end found by _SENTENCE_END as a line break, unless it is an English
    abbreviation's period (see ENGLISH_ABBREVIATIONS) inside a sentence."""
    mark = end.group().rstrip()
    if mark in (".", "…"):
        text, after = end.string, end.string[end.end():end.end() + 1]
        word = _WORD_BEFORE_PERIOD.search(text, max(0, end.start() - WORD_LOOKBACK), end.start() + 1)
        if (word is not None and word[1] in NEVER_FINAL_ABBREVIATIONS) or after.islower() or after.isdigit():
            return end.group()
    return mark + "\n"


def split_for_streaming(
    text: str, first_max: int = FIRST_PIECE_CHARS, max_chars: int = PIECE_MAX_CHARS
) -> list[TextPiece]:
    """Split text into speakable pieces: sentences (clauses of sentences over ``max_chars``),
    the first sentence cut at ``first_max`` characters (see :func:`first_cut`), and what follows
    the cut again at twice the piece before it, so each piece's audio covers the next one's
    compute (the rest of a long sentence after a short head would not be ready in time)."""
    result: list[TextPiece] = []
    for sentence in (s.strip() for s in _SENTENCE_END.sub(_sentence_break, text).split("\n")):
        if not sentence or not is_speakable(sentence):
            continue
        budget = first_max
        while not result or not result[-1].ends_sentence:
            cut = first_cut(sentence, budget) if budget < max_chars else None
            head = sentence[:cut[0]].strip() if cut is not None else ""
            if cut is None or not is_speakable(head):
                break
            result.append(TextPiece(head, ends_sentence=False, mid_clause=not cut[1]))
            sentence, budget = sentence[cut[0]:].strip(), 2 * len(head)
        parts = _split_long(sentence, max_chars)
        for index, part in enumerate(parts):
            if is_speakable(part):
                result.append(TextPiece(part, ends_sentence=index == len(parts) - 1))
    return result


def wrap_subtitle(text: str, rules: LanguageRules) -> list[str]:
    """A subtitle's lines: the text whole when it fits a line of its language
    (``rules.line_chars``: 42 in English, 16 in Chinese), else as few lines as hold it, balanced
    in length. A cut falls at a space in a spaced language, between two characters in an
    unspaced one (never beside a Latin word, never before a punctuation mark), preferably
    right after a clause or sentence mark. Text already in lines keeps its breaks; nothing is
    dropped (a text too long for ``rules.subtitle_lines`` lines gets more)."""
    text = text.strip()
    if "\n" in text or len(text) <= rules.line_chars:
        return [text]
    count = -(-len(text) // rules.line_chars)  # lines needed, rounded up
    cuts = _cut_points(text, rules)
    lines: list[str] = []
    start = 0
    for k in range(1, count):
        target = len(text) * k // count
        usable = [cut for cut in cuts if start < cut < len(text)]
        if not usable:
            break
        left = count - k  # lines after this one

        def badness(at: int, start: int = start, target: int = target, left: int = left) -> tuple[int, float]:
            # First no line over the limit where a cut can help; then nearest to the balanced
            # length, a cut right after a mark counting as a quarter line nearer.
            over = max(0, at - start - rules.line_chars) + max(0, len(text) - at - rules.line_chars * left)
            return over, abs(at - target) - (rules.line_chars / 4 if text[at - 1] in _MARKS else 0)

        cut = min(usable, key=badness)
        lines.append(text[start:cut].strip())
        start = cut
    lines.append(text[start:].strip())
    return [line for line in lines if line]


_MARKS = ALL_SENTENCE_ENDS + ALL_CLAUSE_MARKS


def _cut_points(text: str, rules: LanguageRules) -> list[int]:
    """Where a subtitle line may end: after a space; in an unspaced language also between two of
    its characters, not before a mark (so the lines join back into the same text, see
    :func:`join_pieces`: "Starbucks" and "喝" are never parted, as a space would come between).
    Chinese (written in Han alone) only between its words where any are found: 小区, 孩子 and
    中华人民共和国 are not cut in two."""
    points = [n + 1 for n, char in enumerate(text) if char == " "]
    if not rules.spaced:
        between = [n for n in range(1, len(text))
                   if text[n] not in _MARKS and joins_without_space(text[max(0, n - 2):n], text[n:n + 2])]
        if rules.scripts == ("Han",):
            word_ends = _chinese_word_ends(text)
            between = [n for n in between if n in word_ends] or between
        points += between
    return sorted(set(points))


def _chinese_word_ends(text: str) -> set[int]:
    """Where the words of a Chinese text end, as pypinyin's maximum matching on its phrase
    dictionary parts them: the words the Mandarin front end reads by (lazy_pinyin,
    engine/synthesis/mandarin_text.py). On 102 lines of benchmarks/data/zh_dialogue*.txt over 16
    characters, wrapping between them cut 4 inside a word (比|较, 销售|额, 三|百九十九, 八点|半)
    where any character let 9 be (孩|子, 小|区, 一|定 too); its dictionary holds the phrases
    whose reading needs them, not every word, so some remain."""
    from pypinyin.seg.mmseg import seg

    ends, at = set(), 0
    for word in seg.cut(text):
        at += len(word)
        ends.add(at)
    return ends

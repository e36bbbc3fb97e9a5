"""Bilingual subtitles: each cue holds the same words in two languages, a row each.

Chinese subtitle files often carry the original and its translation together (中文 above,
English below: 双语字幕, as fansubs and pyvideotrans write them). Imported as they are, every
line would hold both languages, and a voice would say both. A file is bilingual when most of its
cues have rows in two languages (:data:`BILINGUAL_SHARE`); the import then asks which language
is the script to dub, and keeps the other as each line's original (``Line.source_text``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from engine.core.languages import UNDETERMINED, detect_language, join_pieces

BILINGUAL_SHARE = 0.6
"""The share of a file's cues with rows in two languages from which the file counts as bilingual:
most cues, since a monolingual file may quote a few words of another language on a row of their own."""


def cue_languages(rows: Sequence[str]) -> tuple[str, ...]:
    """The languages of a cue's rows, each once, in the order they come (rows with no letters left out)."""
    found = [detect_language(row) for row in rows]
    return tuple(dict.fromkeys(code for code in found if code != UNDETERMINED))


def bilingual_pair(cues: Iterable[Sequence[str]]) -> tuple[str, ...]:
    """The two languages of a bilingual file, the upper row's first on most cues; () when it is not one."""
    cues = list(cues)
    pairs = Counter(languages[:2] for languages in map(cue_languages, cues) if len(languages) >= 2)
    if not cues or not pairs:
        return ()
    pair = pairs.most_common(1)[0][0]
    # Either order counts: a file may put 中文 above on most cues and below on a few.
    count = pairs[pair] + pairs[pair[::-1]]
    return pair if count >= BILINGUAL_SHARE * len(cues) else ()


def split_rows(rows: Sequence[str], language: str) -> tuple[str, str]:
    """A cue's rows in ``language`` as one text, and the others as one: the line to dub and its
    original. A row with no letters (a number, "24/7", "……") is the side that has no row of its
    own (7×24小时 above 24/7: 24/7 is the English), else the line's."""
    languages = [detect_language(row) for row in rows]
    kept_any = language in languages
    others_any = any(code not in (language, UNDETERMINED) for code in languages)
    letterless_kept = not (kept_any and not others_any)
    kept: list[str] = []
    others: list[str] = []
    for row, code in zip(rows, languages):
        (kept if code == language or code == UNDETERMINED and letterless_kept else others).append(row)
    return join_pieces(kept), join_pieces(others)

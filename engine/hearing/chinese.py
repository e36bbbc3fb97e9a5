"""Chinese as a dubbing team reads it: one script (simplified or traditional), full-width
punctuation, and sentences that end in a mark even where the recogniser wrote none.

Whisper base writes Mandarin in traditional characters unless its prompt is in simplified ones,
and often gives no punctuation at all; a script has to be in the characters the team asked
for, with lines cut at sentence ends. Transcription decodes without the prompt (measured better:
see docs/transcribe.md, *Chinese*) and converts the characters afterwards. The conversion is OpenCC's tables,
declared once in engine/core/chinese_forms.py (the voice reads traditional lines through them too).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import replace

# SIMPLIFIED and TRADITIONAL re-exported: the transcription setting names them.
from engine.core.chinese_forms import SIMPLIFIED as SIMPLIFIED
from engine.core.chinese_forms import TRADITIONAL as TRADITIONAL
from engine.core.chinese_forms import script_converter
from engine.core.languages import HALF_WIDTH, HAN, rules_for, script_counts
from engine.hearing.lines import CLAUSE_END, SENTENCE_END, Line, Word

CHINESE_SCRIPTS = (SIMPLIFIED, TRADITIONAL)  # the setting's choices; simplified is the default
DEFAULT_SCRIPT = SIMPLIFIED
CHINESE_LANGUAGES = frozenset({"zh", "yue"})  # Mandarin and Cantonese, as Whisper names them
MANDARIN = "zh"
CLAUSE_PAUSE_S = 0.25  # where the recogniser gave no punctuation, a pause this long is a comma


def is_chinese(language: str | None) -> bool:
    return (language or "") in CHINESE_LANGUAGES


@functools.cache
def _own_marks(language: str) -> tuple[re.Pattern[str], dict[int, str]]:
    """A half-width mark right after a Han character (not a decimal point or a time between
    digits), and the language's own mark for each (engine/core/languages.py)."""
    marks = dict(rules_for(language).own_marks)
    after_han = rf"(?<=[{HAN}])[{re.escape(''.join(marks))}]" if marks else r"(?!)"  # (?!): none
    return re.compile(after_han), str.maketrans(marks)


def check_script(script: str) -> str:
    """``script`` when it is one of :data:`CHINESE_SCRIPTS`; ValueError naming them otherwise."""
    if script not in CHINESE_SCRIPTS:
        raise ValueError(f"the Chinese script must be {' or '.join(CHINESE_SCRIPTS)}, not {script!r}")
    return script


def in_script(text: str, script: str = DEFAULT_SCRIPT, language: str = MANDARIN) -> str:
    """``text`` in simplified or traditional characters, its half-width marks ``language``'s own."""
    half_width, own = _own_marks(language)
    return half_width.sub(lambda match: match[0].translate(own), script_converter(check_script(script)).convert(text))


def _latin_end(text: str) -> bool:
    """Whether a word ends as Latin text does: a letter or digit, or ASCII punctuation after one
    ("Mr.", "Hale,"), which converted Chinese never keeps (its marks are full-width)."""
    last = text.rstrip()[-1:]
    return last.isascii() and last.isprintable() and last != ""


def _latin_start(text: str) -> bool:
    return text.lstrip()[:1].isascii() and text.lstrip()[:1].isalnum()


def _sentence_mark(text: str, language: str) -> str:
    return "？" if text.rstrip("，、,").endswith(rules_for(language).question_particles) else "。"


def _in_latin(sentence: str) -> bool:
    """Whether a sentence is written in Latin letters more than in Han characters: an English turn
    in a Chinese scene, which ends in "." rather than "。" (an English name inside a Chinese
    sentence leaves it Chinese)."""
    counts = script_counts(sentence)
    return counts["Latin"] > counts["Han"]


def _with_mark(word: Word, mark: str, sentence: str) -> Word:
    """``word`` ending in ``mark``, or in its half-width form when ``sentence`` (the words it
    ends, itself included) is in Latin letters."""
    text = word.text.rstrip()
    text = CLAUSE_END.sub("", text) if mark != "，" else text
    if _in_latin(sentence):
        mark = mark.translate(HALF_WIDTH).rstrip()
    return replace(word, text=text + mark)


def ended_as_sentences(lines: Sequence[Line], language: str = MANDARIN) -> None:
    """Give every Chinese line that does not end in a sentence mark one (。, or ？ after a
    question particle), in place: a line the speakers step cut where the voice changes is a
    turn, and a turn ends its sentence."""
    for line in lines:
        last = line.words[-1]
        if not SENTENCE_END.search(last.text.strip()):
            line.words[-1] = _with_mark(last, _sentence_mark(last.text.strip(), language), line.text)


def written_as_chinese(words: Sequence[Word], script: str, pause_s: float, language: str = MANDARIN) -> list[Word]:
    """Whisper's Chinese ``words`` in ``script``, punctuated.

    Every word is converted (simplified or traditional, full-width marks). Where the words carry
    no punctuation at all, a pause of :data:`CLAUSE_PAUSE_S` becomes a comma; and a word before a
    pause of ``pause_s`` (where a line is cut) or at the end ends its sentence: 。 or, after a
    question particle, ？. So every line ends in a sentence mark.
    """
    converted = [replace(word, text=in_script(word.text, script, language)) for word in words]
    # Chinese is written without spaces: Whisper's leading space goes, except between two Latin
    # words (an English name or phrase inside the line).
    converted = [word if index and _latin_end(converted[index - 1].text) and _latin_start(word.text)
                 else replace(word, text=word.text.lstrip()) for index, word in enumerate(converted)]
    punctuated = any(CLAUSE_END.search(word.text.strip()) or SENTENCE_END.search(word.text.strip())
                     for word in converted)
    result: list[Word] = []
    sentence_start = 0  # where the sentence the word is in starts in ``result``
    for index, word in enumerate(converted):
        following = converted[index + 1] if index + 1 < len(converted) else None
        gap = following.start - word.end if following is not None else None
        text = word.text.strip()
        sentence = "".join(w.text for w in result[sentence_start:]) + word.text
        if SENTENCE_END.search(text):
            result.append(word)
        elif gap is None or gap >= pause_s:
            result.append(_with_mark(word, _sentence_mark(text, language), sentence))
        elif not punctuated and gap >= CLAUSE_PAUSE_S and not CLAUSE_END.search(text):
            result.append(_with_mark(word, "，", sentence))
        else:
            result.append(word)
        if SENTENCE_END.search(result[-1].text.strip()):
            sentence_start = len(result)
    return result

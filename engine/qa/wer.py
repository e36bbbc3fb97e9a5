"""Word error rate between a line's text and what a recogniser heard.

Both sides are normalised the same way before they are compared, so that only differences a
listener would hear count: case, punctuation, curly quotes, hyphens and digits ("3" is spoken
"three", "1999" as "nineteen ninety-nine", "21st" as "twenty-first", "$5" as "five dollars").
The distance itself comes from jiwer (Levenshtein over words).
"""

from __future__ import annotations

import re
import unicodedata

# A number as written in a script: optional currency sign, digits with optional thousands
# separators and decimals, an optional ordinal suffix or percent sign.
_NUMBER = re.compile(
    r"(?P<currency>[$£€])?(?P<digits>\d{1,3}(?:,\d{3})+|\d+)(?P<decimals>\.\d+)?"
    r"(?P<ordinal>st|nd|rd|th)?(?P<percent>%)?",
    re.IGNORECASE,
)
_CURRENCY_WORDS = {"$": "dollars", "£": "pounds", "€": "euros"}
_SYMBOL_WORDS = {"&": " and ", "+": " plus ", "@": " at "}
# Recognisers mark pronunciation variants ("the(2)") and non-speech ("<sil>", "[noise]").
_RECOGNISER_MARKS = re.compile(r"\(\d+\)|<[^>]*>|\[[^\]]*\]")
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'"})
# English contractions with one reading, expanded so "we're" matches "we are". The ambiguous
# 's (is, has, possessive) and 'd (had, would) are left as written on both sides.
_CONTRACTIONS = (
    (re.compile(r"\b(won)'t\b"), "will not"),
    (re.compile(r"\b(can)'t\b"), "can not"),
    (re.compile(r"\b(shan)'t\b"), "shall not"),
    (re.compile(r"n't\b"), " not"),
    (re.compile(r"'re\b"), " are"),
    (re.compile(r"'ve\b"), " have"),
    (re.compile(r"'ll\b"), " will"),
    (re.compile(r"\bi'm\b"), "i am"),
    (re.compile(r"\bcannot\b"), "can not"),
)


def language_code(language: str) -> str:
    """``"en_US"``, ``"en-us"``, ``"EN"`` -> ``"en"``; ``""`` stays ``""``."""
    return re.split(r"[-_]", language.strip().lower(), maxsplit=1)[0]


def _spell_number(match: re.Match[str], language: str) -> str:
    """The words a speaker says for one written number; the digits when num2words cannot."""
    from num2words import num2words

    digits = match["digits"].replace(",", "")
    lang = language_code(language) or "en"
    try:
        if match["decimals"]:
            words = num2words(float(digits + match["decimals"]), lang=lang)
        elif match["ordinal"]:
            words = num2words(int(digits), lang=lang, to="ordinal")
        elif len(digits) == 4 and 1100 <= int(digits) <= 2099 and not match["currency"] and "," not in match[0]:
            words = num2words(int(digits), lang=lang, to="year")  # "1999": nineteen ninety-nine
        else:
            words = num2words(int(digits), lang=lang)
    except (NotImplementedError, OverflowError, ValueError):  # no speller for this language
        return f" {match[0]} "
    if match["currency"] and lang == "en":
        words += " " + _CURRENCY_WORDS[match["currency"]]
    if match["percent"] and lang == "en":
        words += " percent"
    return f" {words} "


def normalise_words(text: str, language: str = "en") -> list[str]:
    """The words of ``text`` as a recogniser would write them: lower case, no punctuation,
    numbers spelled out, hyphenated words split, English contractions with one reading
    expanded ("don't" -> "do not"), other apostrophes inside words kept ("it's")."""
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    text = _RECOGNISER_MARKS.sub(" ", text)
    for symbol, word in _SYMBOL_WORDS.items():
        text = text.replace(symbol, word)
    text = _NUMBER.sub(lambda match: _spell_number(match, language), text)
    text = text.casefold()
    if language_code(language) in ("en", ""):
        for pattern, expansion in _CONTRACTIONS:
            text = pattern.sub(expansion, text)
    # Anything that is not a letter, digit or an apostrophe between letters separates words.
    text = re.sub(r"(?<![^\W_])'|'(?![^\W_])", " ", text)
    text = re.sub(r"[^\w']+|_", " ", text)
    return text.split()


def word_error_rate(reference: str, hypothesis: str, language: str = "en") -> float:
    """(substitutions + deletions + insertions) / reference words, after normalising both.

    0.0 is a perfect transcript; it can exceed 1.0 when the recogniser hears extra words.
    Raises ValueError when the reference has no words (there is nothing to measure against).
    """
    import jiwer

    ref = normalise_words(reference, language)
    if not ref:
        raise ValueError(f"the reference text {reference!r} has no words to compare against")
    hyp = normalise_words(hypothesis, language)
    if not hyp:
        return 1.0  # every reference word was deleted
    return float(jiwer.wer(" ".join(ref), " ".join(hyp)))

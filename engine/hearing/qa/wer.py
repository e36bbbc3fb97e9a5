"""The error rate between a line's text and what a recogniser heard: words or characters.

Languages that separate words with spaces are compared word by word (the word error rate, WER);
Chinese, Japanese, Korean, Thai and other scripts without reliable spaces character by character
(the character error rate, CER). Both sides are normalised the same way first, so only
differences a listener would hear count: case, punctuation, full-width forms (NFKC), curly
quotes, hyphens, times ("9:45" and "9.45" are both "nine forty-five") and digits ("3" is spoken
"three", "1999" as "nineteen ninety-nine", "21st" as "twenty-first", "$5" as "five dollars"; in
Chinese and Japanese numerals in characters become digits, "一千九百九十九" and "一九九九" both
"1999", "三百五" 350; Chinese in simplified characters, with times, decimals and percentages as Chinese says
them: "8:45" and "8.45分" are 八点四十五(分), "3.5" 三点五, "20%" 百分之二十, "3:30" 三点半; dates, ranges, scores, degrees and units as the
voice says them, :func:`engine.core.chinese_forms.said_forms`). The distance itself comes from jiwer (Levenshtein over words or characters).

Japanese is compared by reading, not by script: a recogniser writes a word in kanji where the
script has kana, or in another kanji with the same reading (計ります, 測ります, はかります), so
both sides are read as hiragana first (pykakasi's dictionary, numbers as Japanese says them).
:func:`error_rate` gives that reading CER (the one take QA judges by); ``by_reading=False`` the
raw CER over the written characters, which benchmarks report beside it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

from engine.core.chinese_forms import said_forms
from engine.core.languages import counts_characters, language_code, rules_for
from engine.hearing.chinese import CHINESE_LANGUAGES, SIMPLIFIED, in_script
from engine.hearing.qa.number_forms import HAN_NUMBER, han_value, said_as_year

# A number as written in a script: optional currency sign, digits with optional thousands
# separators and decimals, an optional ordinal suffix or percent sign.
_NUMBER = re.compile(
    r"(?P<currency>[$£€])?(?P<digits>\d{1,3}(?:,\d{3})+|\d+)(?P<decimals>\.\d+)?"
    r"(?P<ordinal>st|nd|rd|th)?(?P<percent>%)?",
    re.IGNORECASE,
)
# A clock time: "9:45", or "9.45" as recognisers write it; not a price ("$3.50") nor a decimal.
_TIME = re.compile(r"(?<![$£€\d.,])(\d{1,2})[:.]([0-5]\d)(?!\d|[.,:]\d)")
WER, CER = "wer", "cer"
# Chinese says a clock time's colon and a decimal point alike, 点 ("9:45" 九点四十五, "3.5" 三点五;
# recognisers write both, and "7.45分"), and half past as 半 (三点半, written 3:30): each side is
# brought to those words before it is compared. A percentage is compared by its number alone
# (百分之十五 is written 15%, whose sign is not counted).
_ZH_POINT = re.compile(r"(\d)\s*[:.]\s*(\d)")
_ZH_PERCENT = re.compile(r"百分之(?=[\d零〇一二两兩三四五六七八九十百千])")
# A written number (digits, an optional decimal part) that Japanese reads as a word: 50円 is
# 五十円, ごじゅうえん, as the script's own 五十円 reads.
_JA_NUMBER = re.compile(r"\d+(?:\.\d+)?")
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
        elif said_as_year(digits) and not match["currency"] and "," not in match[0]:
            words = num2words(int(digits), lang=lang, to="year")
        else:
            words = num2words(int(digits), lang=lang)
    except (NotImplementedError, OverflowError, ValueError):  # no speller for this language
        return f" {match[0]} "
    if match["currency"] and lang == "en":
        words += " " + _CURRENCY_WORDS[match["currency"]]
    if match["percent"] and lang == "en":
        words += " percent"
    return f" {words} "


def _time_as_spoken(match: re.Match[str]) -> str:
    hours, minutes = match[1], match[2]
    return f" {hours} " if minutes == "00" else f" {hours} {minutes.lstrip('0') or '0'} "


def metric_for(language: str) -> str:
    """:data:`CER` for languages written without spaces between words, else :data:`WER`."""
    return CER if counts_characters(language) else WER


def normalise_characters(text: str, language: str) -> list[str]:
    """The characters a CER counts: NFKC (full-width letters and digits to their plain forms),
    lower case, Chinese in simplified characters (a recogniser that writes 說 for 说 heard the
    same word), numerals as digits (Chinese, Japanese), no punctuation or spaces."""
    chinese = language_code(language) in CHINESE_LANGUAGES
    if chinese:
        text = in_script(text, SIMPLIFIED)
    text = unicodedata.normalize("NFKC", text)
    if chinese:
        text = _ZH_PERCENT.sub("", _ZH_POINT.sub(r"\1点\2", said_forms(text)))
    text = _RECOGNISER_MARKS.sub(" ", _TIME.sub(_time_as_spoken, text))
    if language_code(language) in ("zh", "yue", "ja"):
        text = HAN_NUMBER.sub(lambda match: han_value(match[0]), text)
    if chinese:
        text = text.replace("点半", "点30")
    # Thai and Lao vowel signs and tone marks are combining marks (Mn/Mc): kept, they are spoken.
    return [char for char in text.casefold() if unicodedata.category(char)[0] in "LNM"]


@functools.cache
def _kana_reader() -> Any:
    """pykakasi's converter (its dictionary loads once, in about half a second of CPU)."""
    import pykakasi

    return pykakasi.kakasi()  # type: ignore[no-untyped-call]  # pykakasi has no annotations


def reads_by_kana(language: str) -> bool:
    """True for a language the table compares by reading (Japanese: its kana, see :func:`normalise_reading`)."""
    return rules_for(language).compared_by_reading


def normalise_reading(text: str) -> list[str]:
    """The hiragana a Japanese text is read as, one character a unit: kanji and katakana as
    hiragana (機械 and 機会 are both きかい; マイク まいく), numbers as Japanese says them (50 and
    五十 are both ごじゅう), no punctuation or spaces; Latin letters kept in lower case."""
    text = unicodedata.normalize("NFKC", _RECOGNISER_MARKS.sub(" ", text))
    text = _TIME.sub(_time_as_spoken, text)
    text = _JA_NUMBER.sub(lambda match: f" {_japanese_number(match[0])} ", text)
    reading = "".join(str(item["hira"]) for item in _kana_reader().convert(text))
    return [char for char in reading.casefold() if unicodedata.category(char)[0] in "LNM"]


def _japanese_number(digits: str) -> str:
    """A number in the kanji numerals Japanese reads it by (五十, 三点五); the digits when num2words cannot."""
    from num2words import num2words

    try:
        return str(num2words(float(digits) if "." in digits else int(digits), lang="ja"))
    except (NotImplementedError, OverflowError, ValueError):
        return digits


def normalise_words(text: str, language: str = "en") -> list[str]:
    """The words of ``text`` as a recogniser would write them: lower case, no punctuation,
    numbers spelled out, hyphenated words split, English contractions with one reading
    expanded ("don't" -> "do not"), other apostrophes inside words kept ("it's")."""
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    text = _RECOGNISER_MARKS.sub(" ", _TIME.sub(_time_as_spoken, text))
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


def comparable_units(text: str, language: str) -> list[str]:
    """The written units of ``text``: words, or characters for :func:`~engine.core.languages.counts_characters`
    languages (what the expected speech time counts; :func:`error_rate` compares Japanese by reading)."""
    return normalise_characters(text, language) if metric_for(language) == CER else normalise_words(text, language)


def error_rate(reference: str, hypothesis: str, language: str, by_reading: bool = True) -> float:
    """The WER or CER (:func:`metric_for` the language) of ``hypothesis`` against ``reference``;
    Japanese by its kana reading (:func:`normalise_reading`) unless ``by_reading`` is False.

    Raises ValueError when the reference has nothing to compare against.
    """
    if metric_for(language) == WER:
        return word_error_rate(reference, hypothesis, language)
    import jiwer

    ref = normalise_characters(reference, language)
    if not ref:
        raise ValueError(f"the reference text {reference!r} has no characters to compare against")
    if by_reading and reads_by_kana(language):
        ref = normalise_reading(reference) or ref
        hyp = normalise_reading(hypothesis)
    else:
        hyp = normalise_characters(hypothesis, language)
    if not hyp:
        return 1.0
    return float(jiwer.wer(" ".join(ref), " ".join(hyp)))  # each character a "word": the CER

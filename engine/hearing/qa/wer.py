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

A word written whole on one side and in pieces on the other (WiFi, "Wi-Fi", "Wi Fi"; email,
"e-mail") is one word on both: letters run together the same are said the same. Chinese lines fold
so already, since a Latin word inside Chinese counts one unit a letter, case, hyphens and spaces
dropped.

Japanese is compared by reading, not by script: a recogniser writes a word in kanji where the
script has kana, or in another kanji with the same reading (計ります, 測ります, はかります), so
both sides are read as hiragana first (pykakasi's dictionary, numbers as Japanese says them).
:func:`error_rate` gives that reading CER (the one take QA judges by); ``by_reading=False`` the
raw CER over the written characters, which benchmarks report beside it.

Mandarin is compared by reading too (the language table's ``compared_by_reading``, PINYIN): Whisper
writes a word in other characters of the same sound (停滞 as 停制, 获刑 as 或行, 验证码是 as 验证马十),
which is not the take's fault. After the Chinese normalisation each character is its toneless pinyin
syllable (pypinyin, in context: 银行 yin hang), one unit a character, so the 0.35 limit keeps its
meaning; the numbers are read back as said (800 八百 ba bai). Toneless, not toned, by measurement
(Whisper base's hearings of 41 real and zh-baker Mandarin takes and of qa_confirm's defective takes
made from them, docs/qa.md "Mandarin compared by reading"): toned pinyin folds none of Whisper's
usual slips whose tone differs (打完折 da3 wan2 zhe2 as 大玩者 da4 wan2 zhe3, 是 shi4 as 十 shi2)
and passed no clean take that raw characters failed; toneless passed one more clean take and no more
swapped, half-cut or wrong-language ones. A take whose line's number is not heard as itself is
compared as written (toneless, 3点 said 两点 passed where the line's other characters were heard as
homophones). Cantonese is not read so: pypinyin's readings are Mandarin's, and Cantonese homophones
are others. The Mandarin voice's front end (engine/synthesis/mandarin_text.py) has its own readings
and tone changes for speaking; hearing may not import synthesis, and a comparison without tones
needs none of them.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from engine.core.chinese_forms import (
    FULL_WIDTH,
    SIMPLIFIED,
    said_forms,
    without_fillers,
)
from engine.core.english_forms import CURRENCIES, LONG_DIGIT_RUN, spoken_english
from engine.core.english_sounds import heard_as
from engine.core.languages import (
    KANA,
    PINYIN,
    counts_characters,
    language_code,
    rules_for,
)
from engine.hearing.chinese import CHINESE_LANGUAGES, in_script
from engine.hearing.qa.number_forms import (
    HAN_NUMBER,
    han_numeral,
    han_value,
    said_as_year,
)

# A number as written in a script: optional currency sign, digits with optional thousands
# separators and decimals, an optional ordinal suffix or percent sign.
_NUMBER = re.compile(
    r"(?P<currency>[$£€¥])?(?P<digits>\d{1,3}(?:,\d{3})+|\d+)(?P<decimals>\.\d+)?"
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
# A clock time's minutes may end in 分 or not (7:45 is said 七点四十五分, written 7点45 or 7.45分):
# compared without it.
_ZH_MINUTES = re.compile(r"(\d点\d{1,2})分")
# Digits before 万 or 亿 (320万, 1.5亿; a decimal point is 点 by then): the whole number, as 三百二十万
# becomes 3200000, so a recogniser writing either form heard the same.
# A clock time on the hour (14:00, 十四点整) is said 十四点 as often: compared without its minutes.
_ZH_ON_THE_HOUR = re.compile(r"(\d点)(?:00|整)(?!\d)")
_ZH_DECIMAL_MAGNITUDE = re.compile(r"([零〇一二两三四五六七八九十百千]+)点([零〇一二三四五六七八九]+)([万亿])")
_ZH_MAGNITUDE = re.compile(r"(\d+)(?:点(\d+))?([万亿])")
_ZH_PERCENT = re.compile(r"百分之(?=[\d零〇一二两兩三四五六七八九十百千])")
# A written number (digits, an optional decimal part) that Japanese reads as a word: 50円 is
# 五十円, ごじゅうえん, as the script's own 五十円 reads.
_JA_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# Mandarin's structural particle, written three ways (的, 地, 得) and said alike: one unit in its
# reading (pypinyin reads 地 di by dictionary, Whisper writes 慢慢地 as 慢慢的).
_PARTICLE_DE = str.maketrans({"地": "的", "得": "的"})
# The normalisation's numbers (digits on both sides, 两点 and 2点 alike) read back as Chinese says
# them (10 十 shi, 800 八百 ba bai), so a number is its syllables like the words around it (是 heard as 十).
# Ten digits or more with nothing between them (english_forms.LONG_DIGIT_RUN) are a phone number
# or a code, said digit by digit as the voice says it (a recogniser writes either).
_OCLOCK = re.compile(r"\s*\bo'clock\b", re.IGNORECASE)
_LATIN_RUN = re.compile(r"([a-z]+)")  # after normalise_characters: lower case, spaces dropped
_DIGIT_RUN = re.compile(r"(\d+)")
_CURRENCY_WORDS = {sign: names[1] for sign, names in CURRENCIES.items()}  # "$" dollars: the English voice's own
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


def _whole_number(match: re.Match[str]) -> str:
    """320万 as 3200000, 1点5亿 as 150000000; a value with a fraction left (1点23456万) as written."""
    from decimal import Decimal

    value = Decimal(f"{match[1]}.{match[2] or 0}") * (10_000 if match[3] == "万" else 100_000_000)
    return str(int(value)) if value == value.to_integral_value() else match[0]


def normalise_characters(text: str, language: str) -> list[str]:
    """The characters a CER counts: NFKC (full-width letters and digits to their plain forms),
    lower case, Chinese in simplified characters (a recogniser that writes 說 for 说 heard the
    same word), numerals as digits (Chinese, Japanese), no punctuation or spaces."""
    chinese = language_code(language) in CHINESE_LANGUAGES
    if chinese:  # the written forms read before NFKC, which makes 100m² 100m2
        text = said_forms(in_script(text, SIMPLIFIED).translate(FULL_WIDTH))
    text = unicodedata.normalize("NFKC", text)
    if chinese:
        text = _ZH_PERCENT.sub("", _ZH_POINT.sub(r"\1点\2", text))
    text = _RECOGNISER_MARKS.sub(" ", _TIME.sub(_time_as_spoken, text))
    if chinese:  # 一点五万 is 1点5万 (then 15000), not 1点 and 五万
        text = _ZH_DECIMAL_MAGNITUDE.sub(lambda match: f"{han_value(match[1])}点{han_value(match[2])}{match[3]}", text)
    if language_code(language) in ("zh", "yue", "ja"):
        text = HAN_NUMBER.sub(lambda match: han_value(match[0]), text)
    if chinese:
        text = _ZH_MAGNITUDE.sub(_whole_number, _ZH_MINUTES.sub(r"\1", text.replace("点半", "点30")))
        text = _ZH_ON_THE_HOUR.sub(r"\1", text)
    # Thai and Lao vowel signs and tone marks are combining marks (Mn/Mc): kept, they are spoken.
    return [char for char in text.casefold() if unicodedata.category(char)[0] in "LNM"]


@functools.cache
def _kana_reader() -> Any:
    """pykakasi's converter (its dictionary loads once, in about half a second of CPU)."""
    import pykakasi

    return pykakasi.kakasi()  # type: ignore[no-untyped-call]  # pykakasi has no annotations


def kana_reading(text: str) -> list[str]:
    """The hiragana a Japanese text is read as, one character a unit: kanji and katakana as
    hiragana (機械 and 機会 are both きかい; マイク まいく), numbers as Japanese says them (50 and
    五十 are both ごじゅう), no punctuation or spaces; Latin letters kept in lower case."""
    text = unicodedata.normalize("NFKC", _RECOGNISER_MARKS.sub(" ", text))
    text = _TIME.sub(_time_as_spoken, text)
    text = _JA_NUMBER.sub(lambda match: f" {_japanese_number(match[0])} ", text)
    reading = "".join(str(item["hira"]) for item in _kana_reader().convert(text))
    return [char for char in reading.casefold() if unicodedata.category(char)[0] in "LNM"]


def pinyin_reading(text: str) -> list[str]:
    """The toneless pinyin syllables a Mandarin text is read as, one a character (验证码是 and
    验证马十 are both yan zheng ma shi), after the Chinese normalisation of :func:`normalise_characters`
    (simplified characters, numbers as digits, times and percentages as said), its numbers then
    read as Chinese numerals (800 八百 ba bai), and a Latin word as the syllables it is said in
    inside Chinese (meeting mi ding, as 弥丁: :func:`engine.core.english_sounds.heard_as`).
    The particle 的, 地, 得 is one sound (pypinyin reads 地 di and 的 de by dictionary; Whisper
    writes any of the three)."""
    return [unit for unit, _ in _pinyin_units(text)]


def _pinyin_units(text: str) -> list[tuple[str, bool]]:
    from pypinyin import Style, lazy_pinyin

    characters = "".join(normalise_characters(text, "zh")).translate(_PARTICLE_DE)
    units: list[tuple[str, bool]] = []
    for index, piece in enumerate(_DIGIT_RUN.split(characters)):
        number = index % 2 == 1  # the split's captured digit runs sit at odd places
        if number:
            units += [(str(unit), True) for unit in lazy_pinyin(han_numeral(int(piece)), style=Style.NORMAL)]
            continue
        for part_index, part in enumerate(_LATIN_RUN.split(piece)):
            if part_index % 2 == 1:  # a Latin word, as said inside Chinese (letters run together)
                units += [(syllable, False) for syllable in heard_as(part)] or [(letter, False) for letter in part]
            else:
                # errors=list: what is neither Han nor Latin one unit a character; pypinyin documents
                # a callable returning a list there, though its annotation says a string.
                units += [(str(unit), False) for unit in lazy_pinyin(part, style=Style.NORMAL, errors=list)]  # type: ignore[arg-type]
    return units


# A text's reading, one (unit, is it a number's) pair a unit. Where a unit of one of the line's
# numbers is not heard as itself, the take is compared as written: the reading forgives a
# character of the same sound, never a wrong number (Mandarin: 3点 said 两点 passed by reading
# where the line's other characters were heard as homophones, and failed as written). Japanese
# marks no number: its normalisation makes numerals inside words digits (一緒).
_READINGS: dict[str, Callable[[str], list[tuple[str, bool]]]] = {
    KANA: lambda text: [(unit, False) for unit in kana_reading(text)],
    PINYIN: _pinyin_units,
}


def compared_by_reading(language: str) -> bool:
    """Whether the language table compares ``language`` by its reading (Japanese by kana,
    Mandarin by pinyin: see :func:`normalise_reading`)."""
    return rules_for(language).compared_by_reading in _READINGS


def normalise_reading(text: str, language: str) -> list[str]:
    """The units ``text`` is compared by in ``language``: its reading, the one the language table
    names (:func:`kana_reading`, :func:`pinyin_reading`); its characters for any other language."""
    reading = _READINGS.get(rules_for(language).compared_by_reading)
    return [unit for unit, _ in reading(text)] if reading else normalise_characters(text, language)


def _number_misheard(numbers: list[bool], reference_units: list[str], heard_units: list[str]) -> bool:
    """Whether a unit of a number (``numbers``: which reference units are a number's) is not heard
    as itself (substituted or deleted)."""
    import jiwer

    if not any(numbers):
        return False
    alignment = jiwer.process_words(" ".join(reference_units), " ".join(heard_units)).alignments[0]
    return any(chunk.type != "equal" and any(numbers[chunk.ref_start_idx:chunk.ref_end_idx]) for chunk in alignment)


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
    english = language_code(language) in ("en", "")
    if english:
        # As the English voice says them (Dr. Doctor, 12/07/2026 December 7th, 2026), on both sides;
        # before NFKC, which makes ￥ (yuan, as a Chinese keyboard writes it) ¥ (yen).
        text = spoken_english(text)
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    if english:
        text = LONG_DIGIT_RUN.sub(lambda match: " ".join(match[0]), text)
        text = _OCLOCK.sub("", text)  # ten and ten o'clock are one time, as 8点 and 8点整 are
    text = _RECOGNISER_MARKS.sub(" ", _TIME.sub(_time_as_spoken, text))
    for symbol, word in _SYMBOL_WORDS.items():
        text = text.replace(symbol, word)
    text = _NUMBER.sub(lambda match: _spell_number(match, language), text)
    text = text.casefold()
    if english:
        for pattern, expansion in _CONTRACTIONS:
            text = pattern.sub(expansion, text)
    # Anything that is not a letter, digit or an apostrophe between letters separates words.
    text = re.sub(r"(?<![^\W_])'|'(?![^\W_])", " ", text)
    text = re.sub(r"[^\w']+|_", " ", text)
    return text.split()


def _run_together(words: list[str], other_words: set[str]) -> list[str]:
    """``words`` with two or three neighbours made one word where, run together, they are a word
    of the other side: a recogniser writes WiFi as "Wi-Fi", "wifi" or "Wi Fi", and email as
    "e-mail", which the normalisation splits at the hyphen; the same letters said the same way."""
    result: list[str] = []
    index = 0
    while index < len(words):
        size = next((size for size in (3, 2) if index + size <= len(words)
                     and "".join(words[index:index + size]) in other_words), 1)
        result.append("".join(words[index:index + size]))
        index += size
    return result


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
    hyp = _run_together(hyp, set(ref))
    ref = _run_together(ref, set(hyp))
    if not hyp:
        return 1.0  # every reference word was deleted
    return float(jiwer.wer(" ".join(ref), " ".join(hyp)))


def comparable_units(text: str, language: str) -> list[str]:
    """The written units of ``text``: words, or characters for :func:`~engine.core.languages.counts_characters`
    languages (what the expected speech time counts; :func:`error_rate` compares Japanese and Mandarin by reading)."""
    return normalise_characters(text, language) if metric_for(language) == CER else normalise_words(text, language)


def error_rate(reference: str, hypothesis: str, language: str, by_reading: bool = True) -> float:
    """The WER or CER (:func:`metric_for` the language) of ``hypothesis`` against ``reference``;
    a language the table compares by reading (Japanese, Mandarin) by its reading
    (:func:`normalise_reading`; Mandarin as written where the numbers heard are not the line's)
    unless ``by_reading`` is False: the raw CER over the written characters.

    Raises ValueError when the reference has nothing to compare against.
    """
    if metric_for(language) == WER:
        return word_error_rate(reference, hypothesis, language)
    import jiwer

    if language_code(language) in CHINESE_LANGUAGES and normalise_characters(without_fillers(reference), language):
        reference, hypothesis = without_fillers(reference), without_fillers(hypothesis)
    ref = normalise_characters(reference, language)
    if not ref:
        raise ValueError(f"the reference text {reference!r} has no characters to compare against")
    hyp = normalise_characters(hypothesis, language)
    reading = _READINGS.get(rules_for(language).compared_by_reading) if by_reading else None
    if reading:
        marked = reading(reference)
        read, heard = [unit for unit, _ in marked], [unit for unit, _ in reading(hypothesis)]
        if read and heard and not _number_misheard([number for _, number in marked], read, heard):
            ref, hyp = read, heard
    if not hyp:
        return 1.0
    return float(jiwer.wer(" ".join(ref), " ".join(hyp)))  # each character a "word": the CER

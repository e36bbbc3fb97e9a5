"""A line's numbers in the other way they are written: digits or words (Chinese numerals).

A line may write a number in digits or in words, and a recogniser writes it its own way:
Whisper base writes 八百 as "800" and 三百五 as "350", "2点" sometimes as 两点, an English "3"
as "three". Take QA compares what it heard after bringing both sides to digits (wer.py), and
confirms a take by forcing the line's text through Whisper (recognise.py): forced in a form
Whisper would not write, a clean take's number scores as unlikely as a wrong word. So a line
with numbers is also forced in its :func:`number_forms`, and the take is confirmed by the best.

Declared once here: the value of Chinese numerals (:func:`han_value`, also what the CER
compares) and how a number is written in them (:func:`han_numeral`).
"""

from __future__ import annotations

import re

from engine.core.languages import language_code

# 幺 is 1 in a code read digit by digit (打幺幺零, a phone number).
HAN_DIGITS = {"零": 0, "〇": 0, "一": 1, "幺": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}
HAN_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "萬": 10_000, "亿": 100_000_000, "億": 100_000_000}
HAN_NUMBER = re.compile(f"[{''.join(HAN_DIGITS)}{''.join(HAN_UNITS)}]+")
_HAN_WRITTEN = "零一二三四五六七八九"
# After one of these a single numeral is a number written as digits too (两点 2点, 三号 3号):
# clock hours, dates, ages, minutes, money. Not 个 (两个人 is never written 2个人 in a line).
_HAN_COUNTED = "点號号月日岁歲年分秒元块塊"
# A whole number written in digits: not part of a decimal or a clock time ("3.5", "9:30": QA's
# comparison already reads those as Chinese says them).
_DIGITS = re.compile(r"(?<![\d.:：])\d+(?![\d]|[.:：]\d)")
_CHINESE = ("zh", "yue")

_EN_SMALL = {word: value for value, word in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"])}
_EN_TENS = {word: 10 * value for value, word in enumerate(
    ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], start=2)}
_EN_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_EN_WORD = re.compile(r"[A-Za-z]+")


def han_value(numeral: str) -> str:
    """Chinese numerals as digits: "一九九九" digit by digit, "一千九百九十九" by units, and a
    last numeral after 百, 千 or 万 as the next unit down, as it is said (三百五 is 350, 一万五
    15000; 一百零五 105). Units alone are words, not numbers (亿万, 千万别, 万), except 十."""
    if not numeral.startswith("十") and not any(char in HAN_DIGITS for char in numeral):
        return numeral
    if all(char in HAN_DIGITS for char in numeral):
        return "".join(str(HAN_DIGITS[char]) for char in numeral)
    total, section, digit = 0, 0, 0
    for char in numeral:
        if char in HAN_DIGITS:
            digit = HAN_DIGITS[char]
        elif HAN_UNITS[char] >= 10_000:
            total += (section + digit) * HAN_UNITS[char]
            section, digit = 0, 0
        else:
            section += (digit or 1) * HAN_UNITS[char]  # "十五" is fifteen: a bare unit counts once
            digit = 0
    if len(numeral) >= 2 and numeral[-1] in HAN_DIGITS and HAN_UNITS.get(numeral[-2], 0) in (100, 1000, 10_000):
        digit *= HAN_UNITS[numeral[-2]] // 10
    return str(total + section + digit)


def han_numeral(number: int) -> str:
    """``number`` (0 or more) in Chinese numerals as it is said: 800 八百, 350 三百五十,
    1005 一千零五, 15 十五, 2000 两千."""
    if number < 10:
        return _HAN_WRITTEN[number]
    for scale, unit in ((100_000_000, "亿"), (10_000, "万")):
        if number >= scale:
            high, low = divmod(number, scale)
            joint = "零" if 0 < low < scale // 10 else ""
            return ("两" if high == 2 else han_numeral(high)) + unit + joint + (han_numeral(low) if low else "")
    written, pending_zero = "", False
    for place, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = number // place % 10
        if digit:
            written += ("零" if pending_zero else "") + _HAN_WRITTEN[digit] + unit
            pending_zero = False
        elif written:
            pending_zero = True
    written = _two_as_liang(written)
    return written[1:] if written.startswith("一十") else written  # 15 is 十五, not 一十五


def _two_as_liang(numeral: str) -> str:
    """A leading 二 before 百, 千, 万 or 亿 said 两 (两千), as people say it."""
    return "两" + numeral[1:] if numeral[:1] == "二" and numeral[1:2] in "百千万亿" and len(numeral) > 1 else numeral


def number_forms(text: str, language: str) -> tuple[str, ...]:
    """``text`` with its numbers written in digits, then in words (Chinese numerals for
    Chinese); () for a language without rules here. A form equals ``text`` where the text
    already writes its numbers that way (or has none)."""
    code = language_code(language)
    if code in _CHINESE:
        return _chinese_in_digits(text), _DIGITS.sub(lambda match: _chinese_spoken(match, text), text)
    if code == "en":
        return _english_in_digits(text), _DIGITS.sub(_english_spoken, text)
    return ()


def _chinese_in_digits(text: str) -> str:
    def digits(match: re.Match[str]) -> str:
        numeral, after = match[0], text[match.end(): match.end() + 1]
        # A lone numeral is a word (一起, 两个, 十分) unless a counted unit follows it (两点).
        if len(numeral) == 1 and not (after and after in _HAN_COUNTED):
            return numeral
        return han_value(numeral)

    return HAN_NUMBER.sub(digits, text)


def _chinese_spoken(match: re.Match[str], text: str) -> str:
    digits, after = match[0], text[match.end(): match.end() + 1]
    if digits.startswith("0") or len(digits) > 8 or (len(digits) == 4 and after == "年"):
        return "".join(_HAN_WRITTEN[int(d)] for d in digits)  # a code, a phone number, a year: digit by digit
    if digits == "2" and after and after in _HAN_COUNTED + "个位只次天本张件":
        return "两"  # two of something: 两点, 两个
    return han_numeral(int(digits))


def _english_spoken(match: re.Match[str]) -> str:
    from num2words import num2words

    digits = match[0]
    return str(num2words(int(digits), lang="en", to="year" if said_as_year(digits) else "cardinal"))


def said_as_year(digits: str) -> bool:
    """Four digits from 1100 to 2099 are said as a year, in pairs (1999: nineteen ninety-nine)."""
    return len(digits) == 4 and 1100 <= int(digits) <= 2099


def _english_in_digits(text: str) -> str:
    """Runs of English number words as digits ("eight hundred and fifty" 850); a run that does
    not read as one number (a year said in pairs) is left as written."""
    words = list(_EN_WORD.finditer(text))
    pieces, at, index = [], 0, 0
    while index < len(words):
        end = index
        while end < len(words) and _english_number_word(words[end][0]) and (
                end == index or _joined(text, words[end - 1], words[end])):
            end += 1
        run = [word[0].lower() for word in words[index:end]]
        while run and run[-1] == "and":
            run.pop()
            end -= 1
        value = _english_value(run) if run and run[0] != "and" else None
        if value is None:
            index = max(end, index + 1)
            continue
        pieces += [text[at: words[index].start()], str(value)]
        at = words[end - 1].end()
        index = end
    return "".join(pieces) + text[at:]


def _english_number_word(word: str) -> bool:
    word = word.lower()
    return word in _EN_SMALL or word in _EN_TENS or word in _EN_SCALES or word == "and"


def _joined(text: str, before: re.Match[str], after: re.Match[str]) -> bool:
    """Two words of one number: only a space or a hyphen between them."""
    return text[before.end(): after.start()] in (" ", "-")


def _english_value(run: list[str]) -> int | None:
    """The number a run of English number words says, or None where it is not one number."""
    total, current, last = 0, 0, ""
    for word in run:
        if word == "and":
            if last not in _EN_SCALES:
                return None
            continue
        if word in _EN_SCALES:
            if not current and last not in _EN_SMALL and last not in _EN_TENS:
                return None
            current = (current or 1) * _EN_SCALES[word] if word == "hundred" else current
            if word != "hundred":
                total, current = total + current * _EN_SCALES[word], 0
        elif word in _EN_TENS:
            if last in _EN_SMALL or last in _EN_TENS:
                return None  # "nineteen ninety": a year said in pairs
            current += _EN_TENS[word]
        else:
            if last in _EN_SMALL or (last in _EN_TENS and _EN_SMALL[word] >= 10) or (last in _EN_TENS and word == "zero"):
                return None
            current += _EN_SMALL[word]
        last = word
    return total + current

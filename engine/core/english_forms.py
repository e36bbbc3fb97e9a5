"""Written forms in English text that a speaker says as words: the English voice's text front end.

espeak-ng (inside Piper) turns text into phonemes and reads most written forms right: plain
numbers, ordinals (21st), clock times (7:45pm), percentages, ALL CAPS. Each rule below is a
written form it misreads, rewritten into words it reads right; a piece of text is rewritten just
before its phonemes are found, so the text a job carries (subtitles, take QA's reference) stays as
written. Take QA's hearing of lines of each kind is in docs/voices.md ("English as users write it").

- abbreviations (``ENGLISH_ABBREVIATIONS``, the table the sentence splitter reads too): said in
  full, without their period, which espeak-ng took for a sentence's end (a falling voice and a
  pause after "Dr."); "e.g." was "E G", "vs." "V S";
- money: "$5.99" was "dollar five point nine nine", "€1,200" "euros one thousand two hundred";
- dates: "12/07/2026" was "twelve slash zero seven slash ..." (also with - or .); a day after a month is an
  ordinal ("Dec. 7" is December seventh); the voice is American, so a date is month first unless
  its first number cannot be a month;
- decades: "1990s" was "nineteen hundred ninety z";
- units after a number: "5km" was "five K M", "72°F" "seventy-two degrees F";
- phone numbers (7 digits or more in three hyphenated groups, an area code in brackets, or
  555-0199; +44 20 7946 0958; 555 123 4567; ten digits or more run together, 13812345678): digit
  by digit, a pause between groups, not "five hundred fifty-five dash ..."; so is a number dialled
  ("call 911", "dial 12306") and a room's, gate's or flight's ("Room 302", "Flight MU5735");
- "/" before a unit of time or count is "per" ($5.99/month was "... slash month");
- emoji were read by their names ("grinning face"): left out;
- dashes and an ellipsis inside a sentence were run together with the next word: a pause;
- a web address's "https://" is left out, "#word" is "hashtag word", "1.5x" is "1.5 times";
- clock times on the hour or a few minutes past: "11:00" was "eleven zero zero", "7:05" "seven
  zero five"; a range "5-10", "9am–5pm" was "five dash ten": "to";
- dotted initialisms: "Ph.D." was "P H dot D"; small fractions: "1/2" was "one slash two"; a month and
  day without a year ("12/25", "5/20": any slash of a month and a day that is not a small fraction)
  was "twelve slash twenty-five": December 25th;
- full-width digits, letters and marks (a line typed on a Chinese keyboard: "Room １２０３，OK？")
  were dropped or run together: read as their ASCII forms (``languages.HALF_WIDTH``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.core.languages import HALF_WIDTH

# English abbreviations written with a period, and what each says: the period is no sentence's
# end (the splitter, engine/core/text.py, reads the table) and the voice says the word
# in full. Those that stand before what they qualify (a title, a month, "No. 5")
# never end a sentence; after any other period a sentence goes on when a lowercase word or a
# digit follows ("etc. are", "a.m. today", "Dec. 7").
ENGLISH_ABBREVIATIONS = {
    "Mr": "Mister", "Mrs": "Missus", "Ms": "Miz", "Dr": "Doctor", "Prof": "Professor", "St": "Saint",
    "Mt": "Mount", "Capt": "Captain", "Sgt": "Sergeant", "Lt": "Lieutenant", "Gen": "General",
    "Rev": "Reverend", "Jr": "Junior", "Sr": "Senior", "vs": "versus", "etc": "et cetera",
    "approx": "approximately", "No": "number", "e.g": "for example", "i.e": "that is",
    "Jan": "January", "Feb": "February", "Mar": "March", "Apr": "April", "Jun": "June", "Jul": "July",
    "Aug": "August", "Sep": "September", "Sept": "September", "Oct": "October", "Nov": "November",
    "Dec": "December", "Ltd": "Limited", "Inc": "Incorporated", "Corp": "Corporation",
}
# Said so only before a number ("No. 5", "Dec. 7"); elsewhere the word is a word ("I said No.", "Jan.").
BEFORE_A_NUMBER = frozenset({"No", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct",
                             "Nov", "Dec"})
NEVER_FINAL_ABBREVIATIONS = frozenset(ENGLISH_ABBREVIATIONS) - BEFORE_A_NUMBER - {"etc", "Jr", "Sr", "Ltd", "Inc", "Corp"}
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
# Currency signs: the unit, its plural and its hundredth's singular and plural.
CURRENCIES = {
    "$": ("dollar", "dollars", "cent", "cents"),
    "£": ("pound", "pounds", "penny", "pence"),
    "€": ("euro", "euros", "cent", "cents"),
    "¥": ("yen", "yen", "sen", "sen"),
    "￥": ("yuan", "yuan", "fen", "fen"),  # the full-width sign a Chinese keyboard writes: renminbi
}
SCALES = {"k": "thousand", "K": "thousand", "m": "million", "M": "million", "bn": "billion", "b": "billion",
          "B": "billion", "thousand": "thousand", "million": "million", "billion": "billion",
          "trillion": "trillion"}
# Units written after a number (case matters: "5G" is a network, "5g" grams): singular, plural.
UNITS = {
    "km": ("kilometer", "kilometers"), "cm": ("centimeter", "centimeters"),
    "mm": ("millimeter", "millimeters"), "kg": ("kilogram", "kilograms"), "g": ("gram", "grams"),
    "mg": ("milligram", "milligrams"), "ml": ("milliliter", "milliliters"), "lb": ("pound", "pounds"),
    "lbs": ("pound", "pounds"), "oz": ("ounce", "ounces"), "ft": ("foot", "feet"), "mi": ("mile", "miles"),
    "mph": ("mile per hour", "miles per hour"), "km/h": ("kilometer per hour", "kilometers per hour"),
    "kph": ("kilometer per hour", "kilometers per hour"), "°F": ("degree Fahrenheit", "degrees Fahrenheit"),
    "°C": ("degree Celsius", "degrees Celsius"), "℃": ("degree Celsius", "degrees Celsius"),
    "℉": ("degree Fahrenheit", "degrees Fahrenheit"), "°": ("degree", "degrees"), "h": ("hour", "hours"),
    "hr": ("hour", "hours"), "hrs": ("hour", "hours"), "min": ("minute", "minutes"), "mins": ("minute", "minutes"),
    "sec": ("second", "seconds"), "secs": ("second", "seconds"),
}
WORD_LOOKBACK = 64  # characters searched for the word before a mark: a word, never the whole text
PHONE_MIN_DIGITS = 7  # digit groups joined by hyphens: a phone number or a code, not a sum

_NUMBER = r"\d{1,3}(?:,\d{3})+|\d+"
_ABBREVIATION = re.compile(
    r"(?<![\w.])(" + "|".join(re.escape(word) for word in sorted(ENGLISH_ABBREVIATIONS, key=len, reverse=True))
    + r")\.(?=[\s,;:)]|$|\d)")
# A capitalised word that is not the first of its sentence, right before a match.
_NAME_BEFORE = re.compile(r"(?<=[^\s.!?…])\s+[A-Z][\w'’]*\s*$")
_MONTH_DAY = re.compile(r"\b(" + "|".join(MONTHS) + r")\s+(\d{1,2})(?![\d:.,]\d|\w)")
_SLASH_DATE = re.compile(r"(?<![\d/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(?![\d/-]|\.\d)")
_ISO_DATE = re.compile(r"(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d-])")
_MONEY = re.compile(r"([" + re.escape("".join(CURRENCIES)) + r"])\s?(" + _NUMBER + r")(?:\.(\d{1,2}))?"
                    r"(?:\s?(" + "|".join(sorted(SCALES, key=len, reverse=True)) + r"))?(?![\w])")
_DECADE = re.compile(r"(?<![\w'’])(?:['’](\d0)|(\d{3}0|[1-9]0))s\b")
_UNIT = re.compile(r"(?<![\d,.])(\d(?:[\d,]*\d)?(?:\.\d+)?)\s?(" + "|".join(
    re.escape(unit) for unit in sorted(UNITS, key=len, reverse=True)) + r")(?![\w/])")
_PHONE = re.compile(r"(?<![\w-])(?:\+\d{1,3}[\s-])?(?:\(\d{2,4}\)\s?)?\d{1,5}(?:-\d{2,5})+(?![\w-])")
# An international number (+44 20 7946 0958) or an American one in three groups (555 123 4567).
# Ten digits or more with nothing between them are a phone number or a code (a Chinese mobile
# number, 13812345678), said digit by digit: espeak-ng said "thirteen billion eight hundred ...".
LONG_DIGIT_RUN = re.compile(r"(?<![\d.,])\d{10,}(?!\d|[.,]\d)")  # a sentence's full stop may follow
# A number dialled (call 911, dial 12306) and a room's, a gate's or a flight's (Room 302, Gate B12,
# Flight MU5735) are said digit by digit, letters spelled: espeak-ng said "nine hundred eleven".
_DIALLED = re.compile(r"\b((?:call|calls|called|calling|dial|dials|dialed|dialled|dialing|dialling|ring)\s+)"
                      r"(\d{3,9})(?!\w|[.,]\d)", re.IGNORECASE)
_NUMBERED_PLACE = re.compile(r"\b((?:Room|Suite|Gate|Platform|Flight|Train|Seat|Apartment)\s+)([A-Z]{0,2}\d{3,5})\b")
_SPACED_PHONE = re.compile(r"(?<![\w+])\+\d{1,3}(?:[\s-]\(?\d{1,5}\)?){2,}(?![\w-])"
                           r"|(?<![\w,.-])\d{3} \d{3} \d{4}(?![\w-])")
# "/" before a unit of time or count is "per" ($5.99/month, 3 times/day); and/or stays.
PER_WORDS = ("second", "minute", "hour", "day", "night", "week", "month", "year", "person", "head", "piece",
             "kg", "lb", "km", "mile", "litre", "liter", "gallon")
# Written shorthands with a slash, said as words ("open 24/7" twenty-four seven, "w/ milk").
SLASH_SHORTHANDS = {"24/7": "24 7", "w/o": "without", "w/": "with"}
_SLASH_SHORTHAND = re.compile(r"(?<![\w/])(" + "|".join(re.escape(form) for form in SLASH_SHORTHANDS)
                              + r")(?=[\s,.;:!?)]|$)", re.IGNORECASE)
_PER = re.compile(r"(?<=[\w%])/(?=(?:" + "|".join(PER_WORDS) + r")s?\b)")
_CLOCK = re.compile(r"(?<![\d:])(\d{1,2}):(0\d)(?!\d)(\s?[ap]\.?m\b\.?)?", re.IGNORECASE)
# Two numbers (a clock time, am/pm) joined by a hyphen or an en dash, the first the smaller: a range.
_RANGE_END = r"\d+(?:[:.]\d+)?(?:\s?[ap]m\b)?"
_RANGE = re.compile(rf"(?<![\w.,:-])({_RANGE_END})\s?[-–]\s?({_RANGE_END})(?![\w-]|[.:,]\d)", re.IGNORECASE)
_INITIALISM = re.compile(r"(?<![\w.])((?:[A-Za-z]{1,2}\.){2,})(?=(\s*\S)?)")
_FRACTION = re.compile(r"(?<![\w/.,])([1-9])/([2-9]|10)(?![\w/]|[.,]\d)")
_SLASH_MONTH_DAY = re.compile(r"(?<![\w/.,])(1[0-2]|0?[1-9])/(3[01]|[12]\d|0?[1-9])(?![\w/%]|[.,]\d)")
_EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D\u20E3]+")
_WEB_SCHEME = re.compile(r"\bhttps?://")
_HASHTAG = re.compile(r"(?<![\w&])#(?=[^\W\d_])")
_TIMES = re.compile(r"(\d)x(?=[\s,.;:!?)]|$)")
# A pattern that may begin with white space begins only where the space does (not inside a run
# of it), so a long run of spaces costs one pass, not one per space.
_DASH = re.compile(r"(?<!\s)\s*(?:—|--)\s*|(?<![\d\s])\s*–\s*(?!\d)|(?<!\s)\s+-\s+")
_INNER_ELLIPSIS = re.compile(r"(?<!\s)\s*(?:\.{3}|…)(?=\s*[\w\"“‘'])")
_SPACE_BEFORE_MARK = re.compile(r"(?<!\s)\s+(?=[,.;:!?])")


def _plural(number: str) -> bool:
    return number.replace(",", "") not in ("1", "1.0")


def _abbreviation(match: re.Match[str]) -> str:
    word, text, end = match[1], match.string, match.end()
    said = ENGLISH_ABBREVIATIONS[word]
    if word == "St":  # Street after a name ("Main St."), else Saint before one ("Visit St. Louis")
        capital_after = text[end:].lstrip()[:1].isupper()
        if _NAME_BEFORE.search(text, max(0, match.start() - WORD_LOOKBACK), match.start()) is None and capital_after:
            return "Saint"
        return "Street." if capital_after else "Street"  # "on Main St. Then ...": the sentence ends
    if text[end:end + 1].isdigit():  # "No.1", as Chinese writes it: only a word before a number
        return said + " " if word in BEFORE_A_NUMBER else match[0]
    if word in BEFORE_A_NUMBER and not re.match(r"\s*\d", text[end:]):
        return match[0]
    follows = text[end:].lstrip()[:1]
    if word not in NEVER_FINAL_ABBREVIATIONS and (not follows or follows.isupper()):
        return said + "."  # "etc." ending a sentence keeps its end
    return said


def _date(month: int, day: int, year: str) -> str:
    from num2words import num2words

    return f"{MONTHS[month - 1]} {num2words(day, to='ordinal_num')}, {year}"


def _slash_date(match: re.Match[str]) -> str:
    first, second = int(match[1]), int(match[3])
    month, day = (first, second) if first <= 12 else (second, first)
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return match[0]
    return _date(month, day, match[4])


def _iso_date(match: re.Match[str]) -> str:
    month, day = int(match[2]), int(match[3])
    return _date(month, day, match[1]) if 1 <= month <= 12 and 1 <= day <= 31 else match[0]


def _month_day(match: re.Match[str]) -> str:
    from num2words import num2words

    day = int(match[2])
    return f"{match[1]} {num2words(day, to='ordinal_num')}" if 1 <= day <= 31 else match[0]


def _money(match: re.Match[str]) -> str:
    unit, units, hundredth, hundredths = CURRENCIES[match[1]]
    whole, fraction, scale = match[2], match[3], match[4]
    if scale:
        amount = f"{whole}.{fraction}" if fraction else whole
        return f"{amount} {SCALES[scale]} {units}"
    cents = int(fraction.ljust(2, "0")) if fraction else 0
    said = [] if whole == "0" and cents else [f"{whole} {units if _plural(whole) else unit}"]
    if cents:
        said.append(f"{cents} {hundredths if cents != 1 else hundredth}")
    return " ".join(said)


def _clock(match: re.Match[str]) -> str:
    """7:05 is "7 oh 5" (espeak-ng said "seven zero five"); 11:00 is "11 o'clock", or "11 am"."""
    hour, minutes, meridiem = match[1], match[2], match[3] or ""
    if minutes != "00":
        return f"{hour} oh {minutes[1]}{meridiem}"
    return f"{hour}{meridiem}" if meridiem else f"{hour} o'clock"


def _value(number: str) -> float:
    """A range end's value: a clock time in hours of the day (5pm is 17)."""
    value = float(re.match(r"\d+(?:\.\d+)?", number.replace(":", "."))[0])  # type: ignore[index]
    return value + 12 if number.lower().endswith("pm") and value < 12 else value


def _range(match: re.Match[str]) -> str:
    return f"{match[1]} to {match[2]}" if _value(match[1]) < _value(match[2]) else match[0]


def _initialism(match: re.Match[str]) -> str:
    """U.S. and Ph.D. as their letters (espeak-ng said "P H dot D"); the last period kept where
    a sentence ends after it. Lowercase ones (a.m., e.g.) espeak-ng reads right, or the table has."""
    letters = match[1]
    if not any(letter.isupper() for letter in letters):
        return letters
    follows = match[2]
    ends = follows is None or follows.strip()[:1].isupper()
    return letters.replace(".", "") + ("." if ends else "")


def _fraction(match: re.Match[str]) -> str:
    from num2words import num2words

    top, bottom = int(match[1]), int(match[2])
    if top >= bottom:
        return match[0]
    part = {2: "half", 4: "quarter"}.get(bottom) or str(num2words(bottom, to="ordinal"))
    plural = "halves" if part == "half" else part + "s"
    return f"{num2words(top)} {plural if top > 1 else part}"


def _slash_month_day(match: re.Match[str]) -> str:
    from num2words import num2words

    return f"{MONTHS[int(match[1]) - 1]} {num2words(int(match[2]), to='ordinal_num')}"


def _decade(match: re.Match[str]) -> str:
    from num2words import num2words

    year = match[1] or match[2]
    words = str(num2words(int(year), to="year" if len(year) == 4 else "cardinal"))
    last = words.rsplit(" ", 1)[-1]
    plural = last[:-1] + "ies" if last.endswith("y") else last + "s"
    return words[: len(words) - len(last)] + plural


def _unit(match: re.Match[str]) -> str:
    one, many = UNITS[match[2]]
    return f"{match[1]} {many if _plural(match[1]) else one}"


def _digit_by_digit(match: re.Match[str]) -> str:
    return match[1] + " ".join(match[2])


def _phone(match: re.Match[str]) -> str:
    groups = re.findall(r"\d+", match[0])
    sizes = [len(group) for group in groups]
    if "-" not in match[0]:  # _SPACED_PHONE's: its shape alone makes it a phone number
        return ", ".join(" ".join(group) for group in groups)
    # Three groups or more, an area code in brackets, or 555-0199; two groups of other sizes
    # are a range or a score (1990-2000, pages 10-20).
    if sum(sizes) < PHONE_MIN_DIGITS or (len(groups) == 2 and "(" not in match[0] and sizes != [3, 4]):
        return match[0]
    return ", ".join(" ".join(group) for group in groups)


# In order: dates before phone numbers (12-07-2026 is no phone number), money before units
# ("$5m" is five million dollars), abbreviations before dates ("Dec. 7").
_RULES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    (_EMOJI, ""),
    (_WEB_SCHEME, ""),
    (_ABBREVIATION, _abbreviation),
    (_INITIALISM, _initialism),
    (_SLASH_DATE, _slash_date),
    (_ISO_DATE, _iso_date),
    (_MONTH_DAY, _month_day),
    (_MONEY, _money),
    (_DECADE, _decade),
    (_PHONE, _phone),
    (_SPACED_PHONE, _phone),
    (LONG_DIGIT_RUN, lambda match: " ".join(match[0])),
    (_DIALLED, _digit_by_digit),
    (_NUMBERED_PLACE, _digit_by_digit),
    (_SLASH_SHORTHAND, lambda match: SLASH_SHORTHANDS[match[1].lower()]),
    (_PER, " per "),
    (_FRACTION, _fraction),
    (_SLASH_MONTH_DAY, _slash_month_day),  # what a small fraction left: 12/25, 5/20, 10/1
    (_CLOCK, _clock),
    (_RANGE, _range),
    (_UNIT, _unit),
    (_TIMES, r"\1 times"),
    (_HASHTAG, "hashtag "),
    (_INNER_ELLIPSIS, ","),
    (_DASH, ", "),
)


def spoken_english(text: str) -> str:
    """``text`` with the written forms espeak-ng misreads put in the words they are said in."""
    text = text.translate(HALF_WIDTH)
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return _SPACE_BEFORE_MARK.sub("", re.sub(r"\s{2,}", " ", text)).strip()


__all__ = ["ENGLISH_ABBREVIATIONS", "MONTHS", "NEVER_FINAL_ABBREVIATIONS", "spoken_english"]

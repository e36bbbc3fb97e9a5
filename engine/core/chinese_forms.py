"""Written forms in Chinese text that a speaker says as words: declared once, for the voice and the ear.

A Mandarin line may hold an ISO date (2026-12-07), a number with thousands separators (1,299.5),
a range (3～5天, 2020-2021年), a score (3:2), a negative (-5), degrees (℃), metric units (5km),
arithmetic (7×24, 1+1=2) or a web or mail address (www.example.com, wei@qq.com).
:func:`said_forms` rewrites each as Chinese says it (2026年12月7日, 3到5天, 2020年到2021年, 3比2,
负5, 摄氏度, 五公里, 7乘24, 1加1等于2, www点example点com, wei艾特qq点com), keeping the numbers in digits. The Mandarin voice's front end then reads the
digits (engine/synthesis/mandarin_text.py); take QA compares them as values
(engine/hearing/qa/wer.py), so a take that says 负五摄氏度 for -5℃ is heard as the line.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.core.languages import ADDRESS, HALF_WIDTH, HAN

if TYPE_CHECKING:
    from opencc import OpenCC

# The two ways Chinese is written. The voice reads, and take QA compares, simplified characters:
# a zh-Hant script (Taiwan, Hong Kong) holds the same words (說 说, 兩個 两个), and every rule
# here and in the voice's front end is written once, for simplified text.
SIMPLIFIED, TRADITIONAL = "simplified", "traditional"
_OPENCC_TABLES = {SIMPLIFIED: "t2s", TRADITIONAL: "s2t"}


@functools.cache
def script_converter(script: str) -> OpenCC:
    """OpenCC's converter (``opencc-python-reimplemented``, pure Python, Apache-2.0) into
    ``script``, character and phrase by phrase."""
    from opencc import OpenCC

    return OpenCC(_OPENCC_TABLES[script])


def simplified(text: str) -> str:
    """``text`` with its traditional characters written in simplified ones (房間 房间, 號碼 号码)."""
    return str(script_converter(SIMPLIFIED).convert(text))

# Full-width digits, Latin letters and the signs of numbers (common in Chinese text: １２３,
# ＡＢＣ, ５０％) to ASCII, so one rule reads both; the marks of sentences and clauses stay.
FULL_WIDTH = {code: ascii_code for code, ascii_code in HALF_WIDTH.items()
              if isinstance(ascii_code, int) and (chr(ascii_code).isalnum() or chr(ascii_code) in "%+-=./#@$&*")}

# Metric units after a number, by their Chinese names (5km 五公里), not spelled letter by letter.
# Case matters: 5g is grams, 5G a network; 1.5L litres.
UNIT_WORDS = {"km/h": "公里每小时", "km²": "平方公里", "km": "公里", "kg": "公斤", "cm": "厘米", "mm": "毫米",
              "ml": "毫升", "mg": "毫克", "m²": "平方米", "㎡": "平方米", "m": "米", "g": "克", "L": "升"}
_UNIT = re.compile(r"(?<=\d)\s*(" + "|".join(re.escape(unit) for unit in sorted(UNIT_WORDS, key=len, reverse=True))
                   + r")(?![A-Za-z]|网|手机|信号|流量|时代)")  # 5g网络 is a network, as 5G is
_DEGREES = (("℃", "摄氏度"), ("°C", "摄氏度"), ("℉", "华氏度"), ("°F", "华氏度"), ("°", "度"))
# Money by the currency's Chinese name after the amount (￥1,200 1200元, ¥1.5万 1.5万元, US$5 5美元);
# ¥ and ￥ are yuan in a Chinese line. A 元 or 块 already written after the amount is not said twice.
CURRENCY_WORDS = {"US$": "美元", "HK$": "港元", "NT$": "新台币", "$": "美元", "¥": "元", "￥": "元", "€": "欧元",
                  "£": "英镑"}
_MONEY = re.compile("(" + "|".join(re.escape(sign) for sign in CURRENCY_WORDS)
                    + r")\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)([万亿]?)(元|块)?")
# Ordinals written the English way (1st, 2nd, 23rd, 4th) and a number's sign (No.1, №5, #3),
# said as Chinese says them: 第一, and 5号; "No.1", the champion, is 第一.
_ORDINAL = re.compile(r"(?<![\d.])(\d+)(?:st|nd|rd|th)(?![A-Za-z])")
_NUMBER_SIGN = re.compile(r"(?:(?<![A-Za-z])[Nn][Oo]\.\s?|№\s?|#)(\d+)号?")
# @ before a name (@所有人, @小明) is said 艾特, as in an address.
_MENTION = re.compile(r"@(?=\S)")
# A range of clock times (12:30-14:00 十二点三十分到十四点) and of percentages (5%-10%, 3-5%:
# 百分之三到百分之五), before the dash can be read as a score or a negative.
_TIME_RANGE = re.compile(r"(?<!\d)(\d{1,2}[:：]\d{2})\s*[-–—~～〜至]\s*(\d{1,2}[:：]\d{2})(?!\d)")
# A tilde between two numbers is always a range (-5~3℃, 9点~11点), never a score or a minus; a
# dash after a number's unit too (9点-11点, 3天-5天: the dash was read as 负, minus).
_UNIT_AFTER_NUMBER = "点天元块个年月日号岁度周分秒次倍%℃"
_TILDE_RANGE = re.compile(rf"(?:(?<=\d)|(?<=\d[{_UNIT_AFTER_NUMBER}]))\s*[~～〜]\s*(?=[-−]?\d)")
_UNIT_DASH_RANGE = re.compile(rf"(?<=\d[{_UNIT_AFTER_NUMBER}])\s*[-–—]\s*(?=\d)")
_PERCENT_RANGE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)%?\s*[-–—~～〜]\s*(\d+(?:\.\d+)?)%")
# A month and day written with a slash, as chats and subtitles write dates (12/25, 5/20, 10/1): said
# 12月25日, where cn2an read 二十五分之十二. A small fraction keeps its reading (1/2, 3/4, 9/10: a
# one-digit numerator under a denominator of 10 at most, the English voice's fraction too) unless a
# word of days follows it (3/8那天, 3/8前); a 日 or 号 written after it is not said twice.
_SLASH_MONTH_DAY = re.compile(r"(?<![\d./])(1[0-2]|0?[1-9])/(3[01]|[12]\d|0?[1-9])(?![\d./%])"
                              r"(?=(那天|当天|这天|那晚|晚上|早上|上午|下午|中午|凌晨|傍晚|生日|日|号|前|之前|以前|后|之后"
                              r"|以后|起|开始|见|截止|到期|放假|发货|上映)?)")
# Any other number over a number is a fraction, said denominator first (3/4 4分之3, 四分之三): the voice
# read it so (cn2an), and take QA now hears 四分之三 as 3/4 (a take of 3/4杯水 failed whole).
_FRACTION = re.compile(r"(?<![\d./])(\d+)/(\d+)(?![\d./%])")
# Around the clock, written as English writes it (24/7, 24/365): said as Chinese says it, 7天24小时.
AROUND_THE_CLOCK = {"24/7": "7天24小时", "24/365": "365天24小时"}
_AROUND_THE_CLOCK = re.compile(r"(?<![\d./])(" + "|".join(map(re.escape, AROUND_THE_CLOCK)) + r")(?![\d./%])")
# A price per unit (5元/斤) is said 五元每斤.
_PER_UNIT = re.compile(rf"(?<=[元块])/(?=[{HAN}])")
# "More than" after a number (10万+ 十万加, 18+ 十八加), as it is said; between two numbers it is 加 too.
_PLUS_AFTER = re.compile(r"(?<=[\d万亿千百])\+(?!\s*\d)")
# Chat's "+1" (me too), "+10": said 加一, not a sign left unsaid; a country code before a number is not.
_PLUS_BEFORE = re.compile(r"(?<![\w+])\+(?=\d{1,3}(?![\d\s-]))")
# Thousands and ten thousands written k and w after a sum or a count, as chat writes them (年薪30W
# 三十万, 月入2k 两千, 5w块): said as 千 and 万 where money or a count is meant (a word of pay, spending
# or followers before it, or 块/元 after it); 4K电视 and 65W充电 stay letters.
_K_OR_W = re.compile(r"(\d+(?:\.\d+)?)([kKwW])(?![A-Za-z])")
_SUM_BEFORE = re.compile(r"(?:年薪|月薪|月入|年入|工资|收入|底薪|赚|花|转|借|存|欠|预算|粉丝|播放|阅读|点赞|身价|房租|彩礼|报价|估值)"
                         r"[了个到有是给我你他她]{0,3}\s*\d+(?:\.\d+)?$")
_THOUSANDS = re.compile(r"(?<![\d.])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])")
_DATE = re.compile(r"(?<!\d)(\d{4})[-/.](0?[1-9]|1[0-2])[-/.](0?[1-9]|[12]\d|3[01])(?!\d)")
_YEARS = re.compile(r"(?<!\d)(\d{4})\s*[-–—~～〜]\s*(\d{4})年")
# A phone or account number written in groups (010-1234-5678, +86 138 1234 5678): one code of 7
# digits or more (10 or more, or a country code, when spaces part them: 100 200 300 are three
# numbers); a country code's + is not said. A landline's area code before its number (0755-88886666).
_GROUPED_CODE = re.compile(r"(?<![\d\-+])(?:\+?\d+(?:(?:-| )\d{3,4}){1,3}|0\d{2,3}-\d{7,8})(?![\d\-])")
# Two short numbers joined by a dash or a tilde: a range where the first is the smaller (3-5个,
# 2～3天), else a score (3-2, 三比二); not a code (010-1234-5678).
_RANGE = re.compile(r"(?<![\d.\-])(\d{1,4}(?:\.\d+)?)\s*[-–—~～〜]\s*(\d{1,4}(?:\.\d+)?)(?![\d.]|\s*[-–—]\s*\d)")
_SCORE = re.compile(r"(?<!\d)(\d{1,2})[:：](\d)(?!\d)")  # one digit after the colon: not a clock time
# Signs between two numbers, said as words (7×24小时 七乘二十四小时; 1920x1080 一九二零乘一零八零).
_ARITHMETIC = {"×": "乘", "x": "乘", "X": "乘", "*": "乘", "÷": "除以", "+": "加", "=": "等于"}
_BETWEEN_NUMBERS = re.compile(r"(?<=\d)\s*([×xX*÷+=])\s*(?=[\d-])")
# An address's marks as Chinese speakers say them; the scheme is not said, nor a query's parameters.
_ADDRESS_MARKS = {"@": "艾特", ".": "点", "/": "斜杠", "_": "下划线", "-": "杠"}
_ADDRESS_TAIL = re.compile(r"[.,;:!?)\]]+$")  # the sentence's marks after an address are not part of it
# A hesitation typed in Latin letters (emmm, emm, hmm, mmm) is 嗯, as it is said: espeak-ng read emmm as ai me mu.
# Not mm, millimetres (5mm, 300 mm镜头).
_HESITATION = re.compile(r"(?<![A-Za-z\d])(?<!\d\s)(?:[Ee]m{2,}|[Hh]m+|m{3,})(?![A-Za-z])")
_NEGATIVE = re.compile(r"(?<![0-9A-Za-z.])[-−](?=\d)")  # not between digits or after a word


def said_forms(text: str, count: Callable[[str], str] = str) -> str:
    """``text`` with its dates, ranges, scores, negatives, degrees, units and thousands as said.

    ``count`` writes a number with thousands separators (commas removed): the voice passes its
    numeral writer, since such a number is a count and never a code read digit by digit."""
    text = ADDRESS.sub(_said_address, text)
    text = _HESITATION.sub("嗯", text)
    text = _MENTION.sub("艾特", text)
    text = _NUMBER_SIGN.sub(lambda match: f"第{match[1]}" if match[1] == "1" and match[0][0] in "Nn" else f"{match[1]}号", text)
    text = _ORDINAL.sub(r"第\1", text)
    text = _MONEY.sub(lambda match: match[2] + match[3] + (match[4] or CURRENCY_WORDS[match[1]]), text)
    text = _PER_UNIT.sub("每", text)
    text = _AROUND_THE_CLOCK.sub(lambda match: AROUND_THE_CLOCK[match[1]], text)
    text = _SLASH_MONTH_DAY.sub(_month_day, text)
    text = _FRACTION.sub(r"\2分之\1", text)
    text = _PLUS_AFTER.sub("加", text)
    text = _PLUS_BEFORE.sub("加", text)
    text = _K_OR_W.sub(lambda match: _thousands_letter(match, text), text)
    for sign, words in _DEGREES:
        text = text.replace(sign, words)
    text = _BETWEEN_NUMBERS.sub(lambda match: _ARITHMETIC[match[1]], text)
    text = _UNIT.sub(lambda match: UNIT_WORDS[match[1]], text)
    text = _THOUSANDS.sub(lambda match: count(match.group().replace(",", "")), text)
    text = _DATE.sub(lambda match: f"{match[1]}年{int(match[2])}月{int(match[3])}日", text)
    text = _YEARS.sub(r"\1年到\2年", text)
    text = _GROUPED_CODE.sub(_joined_code, text)
    text = _TIME_RANGE.sub(r"\1到\2", text)
    text = _PERCENT_RANGE.sub(r"\1%到\2%", text)
    text = _UNIT_DASH_RANGE.sub("到", _TILDE_RANGE.sub("到", text))
    text = _RANGE.sub(lambda match: match[1] + ("到" if float(match[1]) < float(match[2]) else "比") + match[2], text)
    text = _SCORE.sub(r"\1比\2", text)
    return _NEGATIVE.sub("负", text)


# Hesitations a recogniser leaves out by design (Whisper writes 嗯，我打10086问问 as 我打10086问问): a
# take is not wrong for saying them, nor for a hearing without them.
FILLERS = "嗯呃"
_FILLER = re.compile(f"[{FILLERS}]+")


def without_fillers(text: str) -> str:
    """``text`` without its hesitations (嗯, 呃, and emmm or hmm typed in letters), for comparing a take."""
    return _FILLER.sub("", _HESITATION.sub("", text))


def _thousands_letter(match: re.Match[str], text: str) -> str:
    """2k as 2000 (Chinese says 两千, and a hearing of 两千 is 2000), 30w as 30万; as written elsewhere."""
    from decimal import Decimal

    money_after = text[match.end():match.end() + 1] in ("块", "元")
    if not money_after and not _SUM_BEFORE.search(text, 0, match.end(1)):
        return match[0]
    return match[1] + "万" if match[2] in "wW" else f"{(Decimal(match[1]) * 1000).normalize():f}"


def _month_day(match: re.Match[str]) -> str:
    month, day = int(match[1]), int(match[2])
    small_fraction = len(match[1]) == 1 and day <= 10 and month < day and not match[3]
    return match[0] if small_fraction else f"{month}月{day}" + ("" if match[3] in ("日", "号") else "日")


def _joined_code(match: re.Match[str]) -> str:
    written = match.group()
    digits = re.sub(r"[-+ ]", "", written)
    spaced = " " in written and not written.startswith("+")
    return digits if len(digits) >= (10 if spaced else 7) else written


def _said_address(match: re.Match[str]) -> str:
    address = match.group()
    tail = _ADDRESS_TAIL.search(address)
    end = tail.start() if tail else len(address)
    said = re.sub(r"^https?://", "", address[:end]).split("?")[0].rstrip("/")
    return "".join(_ADDRESS_MARKS.get(char, char) for char in said) + address[end:]

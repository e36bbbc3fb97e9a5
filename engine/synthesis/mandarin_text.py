"""Mandarin text to the Baker symbols the zh-baker voice reads (resources/voices-zh/).

Three steps, each plain Python with no model:

1. :func:`normalise`: what is not written in Han characters becomes words the voice can say.
   Clock times (8:30 → 八点三十分), long digit strings such as phone numbers and numbers
   dialled (read digit by digit), then numbers, dates, fractions and percentages by ``cn2an``
   (2024年3月5日 → 二零二四年三月五日, 50% → 百分之五十), after the written forms cn2an misreads
   are brought to ones it reads as said (2026-12-07 a date, 1,000 一千, 3～5 三到五, 3:2 三比二,
   -3.5℃ 负三点五摄氏度, 90年代 九十年代 and 等了10年 十年 but 90后 九零后, 5km 五公里). The voice knows no English sounds:
   an English word is said as a Chinese speaker carries it over, its English sound in the voice's
   own syllables (Zoom → zu1 mu5, YouTube → you1 tu1 bu5), and an acronym by its letters' English
   names (KTV → kei1 ti1 wei1): :func:`latin_reading`. Measured with take QA's hearing on 20 lines
   with English words (benchmarks/data/zh_english_words.txt 1-20, plain voice): raw CER 0.261 with
   the letters' Chinese names and a list of word readings, 0.180 so; on the held-out lines 21-40
   0.217 before, 0.257 so (long words heard in characters of their sound: docs/chinese.md).
2. :func:`syllables`: pinyin in tone-number style with the neutral tone as 5 (``pypinyin``), one
   syllable per character, with the tone changes speakers make (a third tone before another
   becomes a second: 你好 ni2 hao3; measured: Whisper CER 0.088 with, 0.092 without, on the 40
   benchmark lines), and the prosody break ``#3`` at each clause mark (，、；：), where the
   training data's labels put an intonational phrase break.
3. :func:`symbol_ids`: each syllable split into initial and final by the voice's own table
   (``baker_mapper.json``), the final carrying the tone, ``#0`` between syllables, ``sil`` at both
   ends and ``eos`` last, as the voice was trained (TensorFlowTTS's Baker recipe), and a ``#3``
   break before the closing ``sil``, so the last syllable is lengthened as at a phrase's end.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.core import english_sounds
from engine.core.chinese_forms import FULL_WIDTH, said_forms, simplified
from engine.core.languages import HAN
from engine.core.paths import REPO_ROOT

MAPPER_PATH = REPO_ROOT / "resources" / "voices-zh" / "baker_mapper.json"
CLAUSE_MARKS = "，、；：,;:"
SANDHI = False
BREAK = "#3"  # an intonational phrase break (a clause mark)
WORD_JOIN = "#0"  # between two syllables of one phrase
SILENCE = "sil"
END = "eos"
# An acronym (all capitals, up to five letters: PDF, KTV, CEO) is spelled by the letters' English
# names; any other Latin word is said by its English sound (engine/core/english_sounds.py).
ACRONYM = re.compile(r"[A-Z]{1,5}")
# Readings pypinyin gets wrong in everyday dialogue, by phrase (its own phrase dictionary covers
# the rest): 还 "give back" before whom it is given to, and erhua, said as one syllable (哪儿 nar3,
# not na3 er2).
PHRASE_READINGS = {
    "还你": "huan2 ni3", "还我": "huan2 wo3", "还他": "huan2 ta1", "还她": "huan2 ta1",
    "哪儿": "nar3", "这儿": "zher4", "那儿": "nar4", "一点儿": "yi4 dianr3", "一会儿": "yi2 huir4",
    "玩儿": "wanr2", "没事儿": "mei2 shir4",
}
# Surnames whose reading as a name differs from the character's usual one (单 dan1 → shan4), read
# so only where the text shows it is a name: after 姓, or before a title or a form of address.
SURNAME_READINGS = {"单": "shan4", "曾": "zeng1", "解": "xie4", "仇": "qiu2", "朴": "piao2", "查": "zha1", "区": "ou1"}
TITLES = ("先生", "女士", "小姐", "太太", "老师", "经理", "医生", "大夫", "教授", "同学", "师傅", "阿姨", "叔叔",
          "大哥", "大姐", "老板", "主任", "队长", "律师", "警官", "局长", "部长", "处长", "科长", "院长", "校长")
# Nouns of kinship and address, and one-syllable verbs, whose doubled form has a neutral second
# syllable (奶奶 nai3 nai5, 看看 kan4 kan5); pypinyin gives most of them two full tones.
NEUTRAL_WHEN_DOUBLED = "奶爷妈爸姐哥弟妹叔舅姑婶伯姥婆嫂公太谢娃" + "看试想走聊说问听坐等尝歇玩找写读学练谈逛"
# 得 that no phrase of pypinyin's covers, which it reads de2 (as in 得到): "must" (dei3) after a
# subject or an adverb and before a verb (我得走了), else the particle (de5) after a verb or an
# adjective (跑得快, 长得高). 得 of 得到, 获得, 难得 and the like keeps pypinyin's reading.
_MUST = re.compile(rf"(?<=[我你他她它们咱就也还都总又可])得(?=[{HAN}])(?![到出以知罪意分奖逞益])")
_PARTICLE_DE = re.compile(rf"(?<=[{HAN}])(?<![获取赢难心所应])得(?![到出以知罪意分奖逞益])")
_TIME = re.compile(r"(?<!\d)([01]?\d|2[0-3])[:：]([0-5]\d)(?!\d)")
# Phone, order and room numbers, read digit by digit, 1 as yao1 (幺) as Chinese says it in codes:
# a run of seven digits or more, or three or more after a word that names a code.
# A number dialled (打110, 拨打12345) is a code too, but not a count after 打 (打了3次, 打100下).
# A service number is a code wherever it stands (12306 幺二三零六, 10086, 95588: the 10xxx and 12xxx hotlines of
# carriers and services, the 95xxx/96xxx of banks and insurers), not a count (一万二千三百零六), unless a
# measure word follows or it is round (10000步, 12000元: hotlines do not end in 00).
_COUNTED_AFTER = "个下次块元分万千百天年岁遍人步张条件只台辆米克斤字页份朵束杯瓶本双套位名家间层楼度秒钟小时周月"
# A room's number (3楼302, 302室, 1203房间) and a train's or a flight's (G1234, D3278, MU5735: capitals
# before three digits or more) are codes too; they were counts, 三百零二, 一千二百三十四.
_DIGIT_BY_DIGIT = re.compile(r"\d{7,}|(?<=房间|房号|号码|尾号|密码|证码|车次|航班|编号|工号|学号|号是|码是)\d{3,}"
                             rf"|(?<=[楼栋])\d{{3,4}}(?![\d.]|\s*[{_COUNTED_AFTER}亿多余来户平])|(?<!\d)\d{{3,4}}(?=室|房|号房)"
                             r"|(?<=[A-Z])(?<!TOP)\d{3,}(?![\d.]|\s*[万千百亿多余个人元块年天])"  # G1234次: 次 is its suffix
                             rf"|(?:(?<=打|拨)|(?<=电话|热线))\d{{3,6}}(?![\d.]|\s*[{_COUNTED_AFTER}])"
                             rf"|(?<![\d.,第共约])(?:1[02]|9[56])\d(?!00)\d\d(?![\d.%]|\s*[{_COUNTED_AFTER}])")
_CODE_DIGITS = "零幺二三四五六七八九"
# Numbers said digit by digit with 一 (not a code's 幺): a height's centimetres after 米 (1米65
# 一米六五, not 六十五) and a video resolution (1080P 一零八零P, not 一千零八十).
# Chat's numbers said as their digits too: 666 (六六六, "skilled"), 888, 999 and 2333 (laughter), not
# as a count (六百六十六); a measure word after one makes it a count (999朵).
_DIGITS_AS_SAID = re.compile(r"(?<=\d米)\d{2}(?!\d)|\d{3,4}(?=[pP](?![A-Za-z]))"
                             rf"|(?<![\d.])(?:6{{3,}}|8{{3,}}|9{{3,}}|23{{3,}})(?![\d.%]|\s*[{_COUNTED_AFTER}])")
# 二 said 两 as a count before a measure word (两个, 两点, 两天), not within a number (十二个, 二十),
# after 第 (第二天) or in a decimal (三点二); 两点 also before the minutes of a clock time.
_TWO_AS_COUNT = re.compile(
    r"(?<![零一二三四五六七八九十百千万亿第点])二(?=个|位|次|天|本|张|瓶|块|件|条|只|双|斤|岁|口|杯|碗|份|套|辆|台|部|种"
    r"|遍|趟|句|声|周|倍|分钟|小时|公里|公斤|米|厘米|毫米|克|升|吨|千|万|亿|年(?!级)|点(?![零一二三四五六七八九十])|点[零一二三四五六七八九十]+分)")
_HAN_NUMERALS = "零一二三四五六七八九十"
# Born in a decade (90后, 00后) is said digit by digit; a decade (90年代) and a count of years
# (等了10年, 100年) as a number. Only a four-digit year, or one with a leading zero or a month
# after it (08年, 98年3月), is read digit by digit as cn2an reads every number before 年.
_GENERATION = re.compile(r"(?<!\d)(\d0)后")
_COUNT_OF_YEARS = re.compile(r"(?<!\d)([1-9]\d{0,2})(?=年(?!\s*\d{1,2}\s*月))")
_LATIN_WORD = re.compile(r"[A-Za-z]+(?:[-'][A-Za-z]+)*")
_DIGIT_NAMES = "零一二三四五六七八九"
_SYLLABLE = re.compile(r"([a-z]+)([1-5])")
# An ellipsis, a dash or a tilde inside a line is a pause as a clause mark is (嗯……我知道了, 你——你给我站住):
# it was dropped, and the words on either side ran together.
PAUSE_MARKS = "…—～~"
_SYLLABLE_OR_MARK = re.compile(rf"[a-z]+[1-5]|[{CLAUSE_MARKS}{PAUSE_MARKS}]")
_SYLLABIC_NASALS = {"n": "en", "ng": "en", "m": "en", "hm": "en"}  # 嗯 and friends: no initial of their own


def _clock(match: re.Match[str]) -> str:
    hours, minutes = int(match.group(1)), int(match.group(2))
    return f"{'两' if hours == 2 else hours}点" + ("整" if minutes == 0 else f"零{minutes}分" if minutes < 10 else f"{minutes}分")


def _latin(match: re.Match[str]) -> str:
    """A Latin word's reading, as toned pinyin run together (``zu1mu5``): see :func:`syllables`."""
    return latin_reading(match.group()).replace(" ", "")


def latin_reading(word: str) -> str:
    """A Latin word inside a Chinese line as the voice's toned pinyin syllables, space-separated:
    an acronym (:data:`ACRONYM`) letter by letter by the letters' English names (KTV kei1 ti1 wei1),
    any other word by its English sound (Zoom zu1 mu5), both carried into Mandarin syllables by
    :func:`engine.core.english_sounds.reading`."""
    known = symbol_table().split
    if ACRONYM.fullmatch(word) or english_sounds.spelled_out(word):
        return " ".join(english_sounds.reading(letter.upper(), known) for letter in word)
    return english_sounds.reading(word, known)


def write_times(text: str) -> str:
    """``text`` with its clock times as they are said (19:45 → 19点45分), digits kept."""
    return _TIME.sub(_clock, text)


def normalise(text: str) -> str:
    """``text`` in simplified characters, with digits and symbols written out in Han characters,
    and Latin words as their readings in toned pinyin (``OK`` → ``ou1kei1``)."""
    import cn2an

    # Traditional characters (a zh-Hant script) as simplified: every rule here and in pypinyin's
    # phrase readings is written for them (兩個, 房間1203 and 哪兒 were read as 二个, a count and na3 er2).
    text = simplified(text.translate(FULL_WIDTH))
    text = _years(said_forms(text, count=_numerals))
    text = write_times(text)
    text = _DIGIT_BY_DIGIT.sub(lambda m: "".join(_CODE_DIGITS[int(d)] for d in m.group()), text)
    text = _DIGITS_AS_SAID.sub(lambda m: "".join(_DIGIT_NAMES[int(d)] for d in m.group()), text)
    text = str(cn2an.transform(text, "an2cn"))
    # A leading zero cn2an leaves (08分) and any digit it did not place.
    text = re.sub(r"\d", lambda m: _DIGIT_NAMES[int(m.group())], text)
    text = _TWO_AS_COUNT.sub("两", text)
    return _LATIN_WORD.sub(_latin, text)


def _numerals(digits: str) -> str:
    """A number (digits, an optional decimal part) in Chinese numerals: 1299.5 一千二百九十九点五."""
    import cn2an

    return str(cn2an.an2cn(digits))


def _years(text: str) -> str:
    """A decade, a count of years and a generation read as said (see :data:`_GENERATION`)."""
    text = _GENERATION.sub(lambda m: "".join(_DIGIT_NAMES[int(d)] for d in m[1]) + "后", text)
    return _COUNT_OF_YEARS.sub(lambda m: _numerals(m[1]), text)




def syllables(text: str) -> list[str]:
    """The normalised ``text`` as tone-numbered pinyin syllables and :data:`BREAK` marks
    (:data:`PHRASE_READINGS` and the readings of 得 first, then pypinyin's)."""
    from pypinyin import Style, lazy_pinyin

    for phrase, reading in PHRASE_READINGS.items():
        text = text.replace(phrase, reading.replace(" ", ""))
    text = _SURNAME.sub(lambda m: SURNAME_READINGS[m.group()], text)
    text = _PARTICLE_DE.sub("de5", _MUST.sub("dei3", text))
    items = lazy_pinyin(text, style=Style.TONE3, neutral_tone_with_five=True, errors="default", tone_sandhi=True)
    result: list[str] = []
    for item in _tone_rules(text, items):
        # What is not Han comes back as it is: the readings :func:`normalise` wrote, and marks.
        for unit in _SYLLABLE_OR_MARK.finditer(item):
            if _SYLLABLE.fullmatch(unit.group()):
                result.append(unit.group())
            elif result and result[-1] != BREAK:
                result.append(BREAK)
    while result and result[-1] == BREAK:
        result.pop()
    return result


_SURNAME = re.compile(rf"(?<=姓)[{''.join(SURNAME_READINGS)}]|[{''.join(SURNAME_READINGS)}](?={'|'.join(TITLES)})")
# What pypinyin gives a reading of: Han as it knows it (not 々, which it leaves as it is).
_PYPINYIN_HAN = re.compile(r"[\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# 一 keeps its first tone (yi1) in a number or an ordinal: after these (十一, 第一, 初一, 星期一, 唯一)
# and before a numeral or a word that makes it an ordinal (一二三, 一月, 一号, 一楼).
_YI_AFTER = "第初期周零一二三四五六七八九十唯统之专"
_YI_BEFORE = _HAN_NUMERALS + "月号楼"


def _characters(text: str, items: Sequence[str]) -> list[str] | None:
    """The character of ``text`` each item of pypinyin's ``items`` reads ("" for the items of
    text it left as it was: marks and the readings :func:`normalise` wrote), or None if they do
    not line up."""
    characters: list[str] = []
    position = 0
    for item in items:
        if position < len(text) and _PYPINYIN_HAN.match(text, position):
            characters.append(text[position])
            position += 1
        elif text.startswith(item, position):
            characters.append("")
            position += len(item)
        else:
            return None
    return characters if position == len(text) else None


def _tone(item: str) -> str:
    return item[-1] if _SYLLABLE.fullmatch(item) else ""


def _tone_rules(text: str, items: list[str]) -> list[str]:
    """pypinyin's syllables with the tone changes it misses: 一 by what follows (its own rule
    leaves 一天 yi1 and 十一点 yi4), and a doubled word's neutral second syllable."""
    characters = _characters(text, items)
    if characters is None:
        return items
    result = list(items)
    for index, character in enumerate(characters):
        before = characters[index - 1] if index else ""
        after = characters[index + 1] if index + 1 < len(characters) else ""
        if character == "一" and items[index].startswith("yi"):
            ordinal = "".join(characters[index + 1:index + 3]) == "年级"  # 一年级: the first year
            result[index] = "yi1" if ordinal else _yi(before, after, _tone(items[index + 1]) if after else "")
        elif character and character == before and character in NEUTRAL_WHEN_DOUBLED:
            result[index] = items[index][:-1] + "5"
    return result


def _yi(before: str, after: str, next_tone: str) -> str:
    """The reading of 一 between the characters ``before`` and ``after`` ("" for none)."""
    if (before in _YI_AFTER and before or after in _YI_BEFORE and after
            or before == "万" and after not in ("千", "百")):
        return "yi1"  # a numeral or an ordinal (十一点, 第一, 一月), or 万一
    if before and before == after:
        return "yi5"  # between a doubled verb: 看一看
    return {"4": "yi2", "1": "yi4", "2": "yi4", "3": "yi4"}.get(next_tone, "yi1")


@dataclass(frozen=True)
class SymbolTable:
    """The voice's symbols (``symbol_to_id``) and its split of each toneless syllable into an
    initial (``^`` for none) and a final (``pinyin_dict``), from its ``baker_mapper.json``."""

    ids: Mapping[str, int]
    split: Mapping[str, tuple[str, str]]

    @classmethod
    def read(cls, path: Path = MAPPER_PATH) -> SymbolTable:
        with open(path, encoding="utf-8") as handle:
            mapper = json.load(handle)
        return cls({str(k): int(v) for k, v in mapper["symbol_to_id"].items()},
                   {str(k): (str(v[0]), str(v[1])) for k, v in mapper["pinyin_dict"].items()})

    def phones(self, syllable: str) -> list[str]:
        """One syllable's initial and toned final; [] for one the voice cannot say."""
        match = _SYLLABLE.fullmatch(syllable)
        if match is None:
            return []
        base, tone = _SYLLABIC_NASALS.get(match.group(1), match.group(1)), match.group(2)
        if base in self.split:
            initial, final = self.split[base]
            return [initial, final + tone]
        if base.endswith("r") and base[:-1] in self.split:  # an erhua syllable: its final, then 儿
            initial, final = self.split[base[:-1]]
            return [initial, final + tone, "er5"]
        return []


@functools.cache
def symbol_table() -> SymbolTable:
    return SymbolTable.read()


def phones(units: Sequence[str], table: SymbolTable | None = None) -> list[str]:
    """Syllables and breaks (see :func:`syllables`) as the voice's phone sequence, or [] when
    nothing in them can be said."""
    table = table or symbol_table()
    result = [SILENCE]
    joint = WORD_JOIN  # what goes before the next syllable said
    for unit in units:
        if unit == BREAK:
            joint = BREAK
            continue
        spoken = table.phones(unit)
        if not spoken:
            continue
        if len(result) > 1:
            result.append(joint)
        result.extend(spoken)
        joint = WORD_JOIN
    if len(result) == 1:
        return []
    # The break before the closing silence too: without it the model gives a piece's last
    # syllable two or three frames (a final 了 lasts 37 ms, and Whisper hears 别管了 as 别管轮,
    # 凉了 as 两论: 1 of 5 such endings heard right); with it the syllable gets its phrase-final
    # length (about 0.2 s) and 5 of 5 are heard right.
    return [*result, BREAK, SILENCE]


def symbol_ids(text: str, table: SymbolTable | None = None) -> list[int]:
    """The voice's input ids for ``text`` (a sentence or clause): [] when it holds nothing to say."""
    table = table or symbol_table()
    sequence = phones(syllables(normalise(text)), table)
    return [table.ids[phone] for phone in sequence] + [table.ids[END]] if sequence else []


def syllable_count(text: str) -> int:
    """How many syllables the voice says for ``text``: the unit of its speaking rate."""
    return sum(unit != BREAK for unit in syllables(normalise(text)))


_HAN = re.compile(f"[{HAN}]")


def han_count(text: str) -> int:
    """How many Han characters ``text`` holds: the syllables a speaker says for them, the unit
    of a Chinese clip's speaking rate (0 for a transcript in another language)."""
    return len(_HAN.findall(text))

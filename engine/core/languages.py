"""Per-language text rules, declared once: pace, reading-speed limits, subtitle lines, marks.

Everything that depends on a line's language (take QA's expected speech time, the timing aids'
limits and typical pace, the subtitle export's line length, the splitters' sentence and clause
marks, which backends can speak a line) reads :func:`rules_for` and :func:`detect_language`
here, never a number of its own. docs/languages.md gives each figure's source.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from engine.core.codes import EngineError, ErrorCode
from engine.core.phrases import COMMA_LIST, Phrase, joined
from engine.core.protocol import BackendName, speaking_backend

UNDETERMINED = "und"  # ISO 639 "undetermined": no letters to tell the language by

LETTERS, CHARACTERS = "letters", "characters"
KANA, PINYIN = "kana", "pinyin"  # the readings a language can be compared by (compared_by_reading)


@dataclass(frozen=True)
class LanguageRules:
    """How one language is written, spoken and subtitled."""

    code: str  # ISO 639-1 where there is one ("yue": ISO 639-3, Cantonese)
    name: str
    scripts: tuple[str, ...]  # the scripts its text is written in (see SCRIPT_LANGUAGES)
    speech_rate: float  # natural speech, in rate_unit per second (take QA's expected time)
    rate_unit: str  # LETTERS: the letters of its words; CHARACTERS: every written character
    speaking_cps: float  # natural speech in characters per second as CPS counts them (spaces too)
    cps_fast: float  # a line's text over its slot above this is fast
    cps_too_fast: float  # above this no natural delivery fits
    line_chars: int  # a subtitle line's characters at most
    subtitle_lines: int  # a subtitle's lines at most
    sentence_ends: str  # marks that end a sentence
    clause_marks: str  # marks that end a clause within a sentence
    spaced: bool  # words are separated by spaces (a line may be wrapped only there)
    # How a recogniser's text in the language is written (engine/hearing): the language's own
    # mark for each half-width one that follows one of its characters, the particles that end a
    # question, and the prompt that keeps Whisper in the language's expected script.
    own_marks: tuple[tuple[str, str], ...] = ()  # (half-width, the language's own) pairs
    question_particles: tuple[str, ...] = ()
    recognition_prompt: str = ""
    # Marks as Whisper base writes them in the language, given its recognition prompt: (the
    # line's mark, Whisper's). Take QA forces a line's text through the decoder in Whisper's marks,
    # since a mark it would not write lowers the words after it (docs/qa.md: Mandarin takes
    # confirmed alone 167 -> 185 of 366).
    recogniser_marks: tuple[tuple[str, str], ...] = ()
    # The least likely word token a take confirmed as written may have (engine/hearing/qa/
    # recognise.py; None: CONFIRM_MIN_LOG_PROB, set on English words). A Mandarin character is one
    # token, so one misheard syllable of a clean take sits under English's bar; the mean bar still
    # refuses a take cut in half or of another line (docs/qa.md).
    confirm_least_log_prob: float | None = None
    # A recogniser writes the same word in other characters of the same reading (Japanese: kanji,
    # kana; Mandarin: homophones, 验证码 and 验证马), so take QA compares the language by its reading
    # (engine/hearing/qa/wer.py): the name of that reading, KANA or PINYIN; "" compares as written.
    compared_by_reading: str = ""
    # The share of its clean takes that take QA confirms by forced alignment in a window their own
    # size (engine/hearing/qa/recognise.py alone_first): QA tries a take alone first only where
    # that is cheaper in expectation than a packed 30 s window. Measured with Whisper base
    # (benchmarks/qa_confirm.py, docs/qa.md): English 5/6 (joe and the bundled voices), real
    # Mandarin 5/12 (zh-baker's takes 7/9), real Japanese 0/6. A language not measured takes
    # English's.
    alone_confirmed_share: float = 5 / 6
    # Whisper base decodes a take refused alone in that same take-sized window well enough to be
    # worth trying (a fifth of a 30 s window's CPU) before a 30 s window; the hearing is kept only
    # when close to the line (engine/hearing/qa/recognise.py; docs/qa.md). Mandarin: 8 of 17 clean
    # takes refused alone were kept, with their 30 s verdicts. English and Japanese takes were
    # mostly decoded there as their sentence two or three times over.
    decodes_in_take_window: bool = False
    # Each syllable's pitch contour tells words apart (Mandarin's four tones), so a voice adapted
    # to a character's clip keeps at least its own pitch range (engine/synthesis/backends/
    # adaptation.py: narrowing it to a flat English clip's cost Mandarin words, docs/chinese.md).
    lexical_tones: bool = False
    # The fastest pace an adapted voice is asked for, in syllables a second of sound (pauses left
    # out, as a clip's pace is measured: engine/synthesis/backends/own_voice.py); None: no cap
    # measured. A fast clip's pace beyond it is spoken at it (docs/chinese.md).
    fastest_clear_pace: float | None = None
    # Characters only this language writes among those sharing its script: a Han text holding any
    # is in it, not in the script's own language (written Cantonese's 佢, 嘅, 咗 are not Mandarin).
    own_characters: str = ""
    # Words that are only a sound (嗯, 啊, 哈; hmm, ah): a line of nothing else is often left
    # unwritten by the recogniser, so take QA cannot judge its words (engine/hearing/qa/checks.py).
    # Unspaced languages list characters, spaced ones words (repeated letters collapsed: "hmmm" is "hm").
    interjections: frozenset[str] = frozenset()


_LATIN_ENDS, _LATIN_CLAUSES = ".!?…", ",;:—–"
_CJK_ENDS, _CJK_CLAUSES = "。！？…", "，；：、"
# Chinese writes full-width marks after its characters (Whisper often writes half-width ones).
_CHINESE_MARKS = ((",", "，"), (".", "。"), ("?", "？"), ("!", "！"), (":", "："), (";", "；"))
# A Chinese sentence ending in one of these particles is a question; each in simplified and
# traditional characters, since a transcript may be written in either.
_CHINESE_QUESTION_PARTICLES = ("吗", "嗎", "呢", "么", "麼")
# Chinese interjections, simplified and traditional: 嗯。 哈哈哈！ 啊？ are whole lines in a drama.
_CHINESE_INTERJECTIONS = frozenset("嗯啊哈呃哦噢喔唉哎呀嘿哼哇欸诶誒咦哟喲嗨呵")

ENGLISH = LanguageRules(
    code="en", name="English", scripts=("Latin",),
    # 14 letters/s: the bundled voices and joe measured in benchmarks/qa_calibration.py.
    speech_rate=14.0, rate_unit=LETTERS,
    # 0.065 s a character (about 15 a second with spaces): the timing aids' first calibration.
    speaking_cps=1.0 / 0.065,
    # Netflix English timed-text guide: 17 characters/s for children's programmes (fast), adults'
    # up to 20; 21 keeps the aid's first calibration (no natural delivery above it).
    cps_fast=17.0, cps_too_fast=21.0,
    line_chars=42, subtitle_lines=2,  # Netflix English guide: 42 characters a line, 2 lines
    sentence_ends=_LATIN_ENDS, clause_marks=_LATIN_CLAUSES, spaced=True,
    interjections=frozenset({"hm", "m", "mhm", "uh", "um", "ah", "oh", "ha", "haha", "hahaha", "huh", "eh", "er",
                             "aw", "wow", "whoa", "hey", "aha", "ugh", "ow", "phew", "sh"}),
)
MANDARIN = LanguageRules(
    code="zh", name="Chinese (Mandarin)", scripts=("Han",),
    # Conversational Mandarin runs at about 4-6 characters/s (shared/notes/chinese.md); 4.5 is
    # what take QA was calibrated with on real recordings (benchmarks/qa_calibration.py).
    speech_rate=4.5, rate_unit=CHARACTERS, speaking_cps=4.5,
    # Netflix Simplified Chinese guide: 9 characters/s for adults, 7 for children's programmes.
    cps_fast=7.0, cps_too_fast=9.0,
    line_chars=16, subtitle_lines=2,  # Netflix Simplified Chinese guide: 16 a line, 2 lines
    sentence_ends=_CJK_ENDS, clause_marks=_CJK_CLAUSES, spaced=False,
    own_marks=_CHINESE_MARKS, question_particles=_CHINESE_QUESTION_PARTICLES,
    interjections=_CHINESE_INTERJECTIONS,
    # Whisper base writes Mandarin in traditional characters unless its prompt is in simplified
    # ones (shared/notes/hearing.md: one clip's CER 0.36 -> 0.14).
    recognition_prompt="以下是普通话的句子。",
    recogniser_marks=(("，", ","), ("？", "?"), ("！", "。"), ("；", ",")),
    confirm_least_log_prob=-5.0,
    alone_confirmed_share=5 / 12,
    decodes_in_take_window=True,
    lexical_tones=True,  # four tones and the neutral one
    compared_by_reading=PINYIN,
    # zh-baker (5.2 syllables/s of its own) adapted to rex and asked for 6, 7 and 8.6 a second
    # (8.6: the length scale's bound) was heard at CER 0.083, 0.106 and 0.338 against 0.057 at its
    # own pace (20 lines, docs/chinese.md): 6 is the fastest measured within the goal of 0.10,
    # and the top of conversational Mandarin's 4-6 characters a second.
    fastest_clear_pace=6.0,
)
# Where no guide gives a speech limit, a language's limits stand to its natural pace as
# Mandarin's do (fast at about 1.56x, too fast at 2x the pace).
_FAST_RATIO = MANDARIN.cps_fast / MANDARIN.speaking_cps
_TOO_FAST_RATIO = MANDARIN.cps_too_fast / MANDARIN.speaking_cps
# Cantonese shares Mandarin's rules (Netflix's Traditional Chinese guide: 16 a line, the same
# reading speeds). Its written form is Han too; a text is detected as Cantonese by the characters
# of written Cantonese that standard written Mandarin never uses (佢 he, 哋 plural, 喺 at, 嘅 's,
# 咗 done, 冇 not have, 啲 some, 嘢 thing, 嚟 come, 睇 look, 嗰 that, 咩 what, 噉 so, 攞 take,
# 搵 find, 瞓 sleep, 諗 think, 乜 what, 嘥 waste); a character set to Mandarin keeps Mandarin.
CANTONESE = LanguageRules(
    code="yue", name="Chinese (Cantonese)", scripts=MANDARIN.scripts,
    speech_rate=MANDARIN.speech_rate, rate_unit=CHARACTERS, speaking_cps=MANDARIN.speaking_cps,
    cps_fast=MANDARIN.cps_fast, cps_too_fast=MANDARIN.cps_too_fast,
    line_chars=MANDARIN.line_chars, subtitle_lines=MANDARIN.subtitle_lines,
    sentence_ends=_CJK_ENDS, clause_marks=_CJK_CLAUSES, spaced=False,
    # Mandarin's marks and particles; no prompt (Mandarin's would steer Whisper to Mandarin).
    own_marks=_CHINESE_MARKS, question_particles=_CHINESE_QUESTION_PARTICLES,
    lexical_tones=True,  # six tones
    interjections=_CHINESE_INTERJECTIONS,
    own_characters="佢哋喺嘅咗冇啲嘢嚟睇嗰咩噉攞搵揾瞓諗谂乜嘥",
)
JAPANESE = LanguageRules(
    code="ja", name="Japanese", scripts=("Hiragana", "Katakana", "Han"),
    # 7.5 characters/s: real Japanese recordings in benchmarks/qa_calibration.py.
    speech_rate=7.5, rate_unit=CHARACTERS, speaking_cps=7.5,
    # Netflix's Japanese guide reads at 4 characters/s, but its subtitles are condensed, not the
    # spoken line: the limits here are those of speech, at Mandarin's ratios to its pace.
    cps_fast=7.5 * _FAST_RATIO, cps_too_fast=7.5 * _TOO_FAST_RATIO,
    line_chars=13, subtitle_lines=2,  # Netflix Japanese guide: 13 full-width a line (horizontal)
    sentence_ends=_CJK_ENDS, clause_marks=_CJK_CLAUSES, spaced=False, compared_by_reading=KANA,
    alone_confirmed_share=0.0,  # none of six real read takes: each goes straight to a packed window
)
KOREAN = LanguageRules(
    code="ko", name="Korean", scripts=("Hangul",),
    # 6 syllables/s: take QA's calibration (benchmarks/qa_calibration.py).
    speech_rate=6.0, rate_unit=CHARACTERS, speaking_cps=6.0,
    # At Mandarin's ratios to its pace; too fast then agrees with Netflix's Korean reading speed
    # (12 characters/s).
    cps_fast=6.0 * _FAST_RATIO, cps_too_fast=6.0 * _TOO_FAST_RATIO,
    line_chars=16, subtitle_lines=2,  # Netflix Korean guide: 16 characters a line
    # Korean ends sentences with Western marks and separates words (eojeol) with spaces.
    sentence_ends=_LATIN_ENDS, clause_marks=_LATIN_CLAUSES, spaced=True,
)


def _spaced_like_english(code: str, name: str, script: str) -> LanguageRules:
    """An alphabetic language with English's figures: take QA's one letter rate (it was measured
    on English; no other language's rate has been measured here) and the Netflix guides'
    European limits (17 characters/s for adults, 42 a line, 2 lines)."""
    return LanguageRules(
        code=code, name=name, scripts=(script,), speech_rate=ENGLISH.speech_rate, rate_unit=LETTERS,
        speaking_cps=ENGLISH.speaking_cps, cps_fast=ENGLISH.cps_fast, cps_too_fast=ENGLISH.cps_too_fast,
        line_chars=ENGLISH.line_chars, subtitle_lines=ENGLISH.subtitle_lines,
        sentence_ends=_LATIN_ENDS, clause_marks=_LATIN_CLAUSES, spaced=True,
    )


RUSSIAN = _spaced_like_english("ru", "Russian", "Cyrillic")
ARABIC = LanguageRules(
    code="ar", name="Arabic", scripts=("Arabic",), speech_rate=ENGLISH.speech_rate, rate_unit=LETTERS,
    speaking_cps=ENGLISH.speaking_cps, cps_fast=ENGLISH.cps_fast, cps_too_fast=ENGLISH.cps_too_fast,
    line_chars=ENGLISH.line_chars, subtitle_lines=2,
    sentence_ends=".!?…؟", clause_marks="،؛,;:", spaced=True,  # Arabic comma, semicolon, question mark
)
# Thai has no spaces between words: take QA's rate for unmeasured character languages (8/s)
# and Netflix's Thai guide's 35 characters a line; limits at Mandarin's ratios to the pace.
THAI = LanguageRules(
    code="th", name="Thai", scripts=("Thai",), speech_rate=8.0, rate_unit=CHARACTERS,
    speaking_cps=8.0, cps_fast=8.0 * _FAST_RATIO, cps_too_fast=8.0 * _TOO_FAST_RATIO, line_chars=35, subtitle_lines=2,
    sentence_ends=_LATIN_ENDS, clause_marks=_LATIN_CLAUSES, spaced=False,
    lexical_tones=True,  # five tones
)

LANGUAGES: dict[str, LanguageRules] = {
    rules.code: rules for rules in (ENGLISH, MANDARIN, CANTONESE, JAPANESE, KOREAN, RUSSIAN, ARABIC, THAI)
}
"""Every language with its own rules, by code."""

SAMPLE_SENTENCES: dict[str, str] = {
    "en": "Hello! This is how I sound in this project.",
    "zh": "你好！这就是我在这个项目里的声音。",
    "yue": "你好！呢個就係我喺呢個項目入面嘅聲音。",
    "ja": "こんにちは！このプロジェクトでの私の声です。",
    "ko": "안녕하세요! 이 프로젝트에서 제 목소리는 이렇습니다.",
    "ru": "Привет! Вот так я звучу в этом проекте.",
    "ar": "مرحبًا! هكذا يبدو صوتي في هذا المشروع.",
    "th": "สวัสดี! นี่คือเสียงของฉันในโปรเจกต์นี้",
}
"""What a voice says when auditioned, in each language of the table (the same sentence in each)."""


def sample_sentence(language: str) -> str:
    """The audition sentence in ``language`` (a code such as "zh" or "en_US"); English for a
    language the table has none for."""
    return SAMPLE_SENTENCES.get(language_code(language), SAMPLE_SENTENCES["en"])


RESEMBLANCE_SENTENCES: dict[str, str] = {
    "en": "Meet me by the garden gate when the sun goes down, and bring the lantern.",
    "zh": "太阳落山的时候，到花园门口等我，记得把灯笼带上。",
    "ja": "日が沈むころ、庭の門のところで待っていて。ランタンを持ってきてね。",
    "ko": "해가 지면 정원 문 앞에서 만나요. 등불도 꼭 가져오세요.",
}
"""What a new voice says to measure its resemblance to its clip (engine/synthesis/voices.py): about
3.5 s of plain words with a broad mix of sounds, none of them in a model's calibration text or
the benchmarks' texts (the same sentence in each language)."""


def resemblance_sentence(languages: Iterable[str]) -> str:
    """The resemblance sentence for a backend that speaks ``languages`` (its declared codes, in
    order): English where it speaks English, so the figures stay comparable with every voice
    measured before; else its first language with a sentence of its own, then with an audition
    sentence; English for none. A voice speaks words of its own language, never spelled letters."""
    codes = [language_code(language) for language in languages]
    if "en" in codes:
        return RESEMBLANCE_SENTENCES["en"]
    for table in (RESEMBLANCE_SENTENCES, SAMPLE_SENTENCES):
        for code in codes:
            if code in table:
                return table[code]
    return RESEMBLANCE_SENTENCES["en"]


# Written without spaces between words (or with spaces that do not separate words), so counted
# by characters, but with no rules of their own yet: they take GENERIC_CHARACTERS'.
_UNLISTED_CHARACTER_LANGUAGES = frozenset({"lo", "km", "my", "bo"})
GENERIC_CHARACTERS = LanguageRules(
    code=UNDETERMINED, name="a language written in characters", scripts=(), speech_rate=THAI.speech_rate,
    rate_unit=CHARACTERS, speaking_cps=THAI.speaking_cps, cps_fast=THAI.cps_fast,
    cps_too_fast=THAI.cps_too_fast, line_chars=THAI.line_chars, subtitle_lines=2,
    sentence_ends=_LATIN_ENDS + _CJK_ENDS, clause_marks=_LATIN_CLAUSES + _CJK_CLAUSES, spaced=False,
)


def language_code(language: str) -> str:
    """``"en_US"``, ``"en-us"``, ``"EN"`` -> ``"en"``; ``""`` stays ``""``."""
    return re.split(r"[-_]", language.strip().lower(), maxsplit=1)[0]


def counts_characters(language: str) -> bool:
    """Whether a language's speech and errors are counted in characters (not words' letters)."""
    code = language_code(language)
    return code in _UNLISTED_CHARACTER_LANGUAGES or (code in LANGUAGES and LANGUAGES[code].rate_unit == CHARACTERS)


def rules_for(language: str) -> LanguageRules:
    """The rules of ``language`` (a code such as "zh" or "en_US"); a language without rules of
    its own takes English's (an alphabetic one) or GENERIC_CHARACTERS' (one counted in characters)."""
    code = language_code(language)
    if code in LANGUAGES:
        return LANGUAGES[code]
    return GENERIC_CHARACTERS if code in _UNLISTED_CHARACTER_LANGUAGES else ENGLISH


ALL_SENTENCE_ENDS = "".join(dict.fromkeys("".join(r.sentence_ends for r in LANGUAGES.values())))
"""Every language's sentence-end marks: a splitter that does not know the line's language (or
meets a mixed one) cuts at any of them."""
ALL_CLAUSE_MARKS = "".join(dict.fromkeys("".join(r.clause_marks for r in LANGUAGES.values())))
SPACED_SENTENCE_ENDS = "".join(dict.fromkeys("".join(r.sentence_ends for r in LANGUAGES.values() if r.spaced)))
"""The sentence ends of languages that separate words: a sentence ends at one only where white
space follows ("3.5" and "e.g." do not end one)."""
UNSPACED_SENTENCE_ENDS = "".join(mark for mark in ALL_SENTENCE_ENDS if mark not in SPACED_SENTENCE_ENDS)
"""The sentence ends only unspaced languages use (。！？): a sentence ends right after one."""

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005\u3007\U00020000-\U0003134f"
"""What a Chinese character is, as the body of a regular expression's character class (``f"[{HAN}]"``):
the CJK ideographs, their extensions and compatibility forms, 々 (a repeated character, 人々) and
〇 (zero, 二〇二六). The one declaration; every text rule that asks "is this Han?" reads it."""
_HAN_CHARACTER = re.compile(f"[{HAN}]")


def is_han(char: str) -> bool:
    """Whether ``char`` is a Chinese character (:data:`HAN`)."""
    return _HAN_CHARACTER.fullmatch(char) is not None


# Characters of scripts written without spaces between words (CJK, kana, Thai) and the
# full-width punctuation they use: two pieces of text that meet between two of these are
# joined without a space.
_UNSPACED_CHARACTER = re.compile(f"[\u0e00-\u0e7f\u3000-\u30ff{HAN}\uff00-\uffef]")


# Full-width punctuation carries its own space (Chinese writes "好，No.1的" and "这件事——7点"): no
# word beside it takes another, except a Latin word after a full-width sentence end, which starts
# a sentence in another language (a bilingual cue's "我们明天见。 See you tomorrow."). Chinese
# doubles the dash and the ellipsis (—— ……), which English writes once.
_FULL_WIDTH_MARK = re.compile(r"[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]|——|……")
_FULL_WIDTH_SENTENCE_END = "。！？"


def _words_spaced(text: str) -> bool:
    """Whether ``text`` is in a language that puts spaces between words (not when it has no letters)."""
    language = detect_language(text)
    return language != UNDETERMINED and rules_for(language).spaced


def joins_without_space(before: str, after: str) -> bool:
    """Whether text ending in ``before`` and text starting with ``after`` are one run of an
    unspaced script (a Chinese sentence wrapped over two subtitle lines), not two words: both
    sides are its characters, or a number meets one (and the number's side is no spaced language's
    words), or either is a full-width mark (``，`` ``。`` ``——``) beside anything
    but a space (and but a Latin word after ``。！？``)."""
    if not before or not after or before[-1].isspace() or after[0].isspace():
        return False
    if _UNSPACED_CHARACTER.match(before[-1]) and _UNSPACED_CHARACTER.match(after[0]):
        return True
    # A number inside a run of Chinese ("这件事" + "7×24小时"), not one starting an English sentence.
    if _UNSPACED_CHARACTER.match(before[-1]) and after[0].isdigit() and not _words_spaced(after):
        return True
    if before[-1].isdigit() and _UNSPACED_CHARACTER.match(after[0]) and not _words_spaced(before):
        return True
    if before[-1] in _FULL_WIDTH_SENTENCE_END and after[0].isalpha() and after[0].isascii():
        return False
    return bool(_FULL_WIDTH_MARK.fullmatch(before[-1]) or _FULL_WIDTH_MARK.fullmatch(before[-2:])
                or _FULL_WIDTH_MARK.match(after))


def join_pieces(pieces: Iterable[str]) -> str:
    """Pieces of one text put back together: a space between words, none inside a run of an
    unspaced script ("我们明天" + "见面吧" is "我们明天见面吧", "Hello" + "there" is "Hello there")."""
    joined = ""
    for piece in pieces:
        if joined and piece:
            joined += piece if joins_without_space(joined, piece) else " " + piece
        else:
            joined += piece
    return joined


_REPEATED_LETTER = re.compile(r"(.)\1+")


def only_interjections(text: str, language: str) -> bool:
    """Whether ``text`` says nothing but interjections of ``language`` ("嗯。", "哈哈哈！", "Hmm...")."""
    rules = rules_for(language)
    if rules.spaced:
        words = [_REPEATED_LETTER.sub(r"\1", word) for word in re.findall(r"[^\W\d_]+", text.casefold())]
    else:
        words = [char for char in text if char.isalnum()]
    return bool(words) and rules.interjections.issuperset(words)


# Scripts, as Unicode blocks. A syllabic or logographic script counts each character; an
# alphabetic one each word (a run of its letters), so the counts compare syllables, not letters:
# "我们去Starbucks" is five Chinese syllables against one English word.
_SCRIPT_PATTERNS = (
    ("Han", f"[{HAN}]"),
    ("Hiragana", r"[\u3041-\u309f]"),
    ("Katakana", r"[\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f]"),  # not ・ (U+30FB): Chinese uses it in names
    ("Hangul", r"[\uac00-\ud7af\u1100-\u11ff\u3131-\u318e]"),
    ("Latin", r"[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff\uff21-\uff3a\uff41-\uff5a]+"),
    ("Cyrillic", r"[\u0400-\u04ff]+"),
    ("Arabic", r"[\u0620-\u064a\u066e-\u06d3\u06fa-\u06ff]+"),
    ("Thai", r"[\u0e01-\u0e4e]+"),
)
_SCRIPTS = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in _SCRIPT_PATTERNS))
# The language a script names when it is the majority. Latin is English: the embedded voice's
# language (a script cannot tell English from French). Kana is Japanese, and so is Han beside it.
SCRIPT_LANGUAGES = {"Han": "zh", "Hiragana": "ja", "Katakana": "ja", "Hangul": "ko", "Latin": "en",
                    "Cyrillic": "ru", "Arabic": "ar", "Thai": "th"}
_KANA = ("Hiragana", "Katakana")


def script_counts(text: str) -> Counter[str]:
    """How many syllable-like units of each script ``text`` holds (see _SCRIPT_PATTERNS)."""
    return Counter(match.lastgroup for match in _SCRIPTS.finditer(text) if match.lastgroup)


# The full-width forms of ASCII (Ａ, １, ，, ？, ％), the ideographic space, full stop and comma, as
# the ASCII a spaced language writes: a line typed on a Chinese keyboard (Room １２０３，OK？)
# holds them, and an English voice drops what it cannot read (espeak-ng said "Room" for Room １２０３).
# A mark that ends a clause or a sentence carries its space, which full-width marks have built in.
HALF_WIDTH: dict[int, int | str] = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {
    ord(mark): chr(ord(mark) - 0xFEE0) + " " for mark in "，！？：；"} | {0x3000: " ", 0x3002: ". ", 0x3001: ", "}

# Web and mail addresses are no language's words: a Chinese line that gives one
# (请访问 https://www.example.com/path/to/page?id=123 了解详情) holds more Latin runs than Han.
ADDRESS = re.compile(r"(?:https?://|www\.)[!-~]+|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")


def detect_language(text: str) -> str:
    """The language a text's script says it is in: the majority's, counted in syllable-like
    units (an English name inside a Chinese line leaves it Chinese); with any kana, Han counts as
    Japanese; a tie goes to the non-Latin script (a borrowed word is usually the Latin one); a
    language's own characters (:attr:`LanguageRules.own_characters`) make the text that language's.
    Web and mail addresses are not counted. :data:`UNDETERMINED` when the text has no letters."""
    votes: Counter[str] = Counter()
    counts = script_counts(ADDRESS.sub(" ", text))
    japanese = any(counts[script] for script in _KANA)
    for script, count in counts.items():
        votes["ja" if japanese and script == "Han" else SCRIPT_LANGUAGES[script]] += count
    if not votes:
        return UNDETERMINED
    majority = max(votes, key=lambda code: (votes[code], code != "en"))
    return next((rules.code for rules in LANGUAGES.values() if rules.own_characters
                 and rules.scripts == rules_for(majority).scripts
                 and any(char in rules.own_characters for char in text)), majority)


AUTO = "auto"  # a character's language left to be detected (take QA hears it from the take)


# Scripts many languages share: a text's script cannot tell which of them it is in.
_SHARED_SCRIPTS = frozenset({"Latin", "Cyrillic", "Arabic"})


def line_language(language: str, text: str) -> str:
    """A line's language: the one set (its character's), else the one its text is written in.

    A text written in a script of its own (Han, kana, Hangul, Thai) that the set language does
    not use is in the script's language: a Chinese line given to a character set to English is
    Chinese, or an English voice would babble it. Latin text keeps the set language (a name or
    "OK" inside a Chinese part is read by the Chinese voice)."""
    code = language_code(language)
    detected = detect_language(text)
    if code in ("", AUTO):
        return detected
    if detected in LANGUAGES and code in LANGUAGES:
        own_scripts = set(rules_for(detected).scripts) - _SHARED_SCRIPTS
        if own_scripts and not own_scripts & set(rules_for(code).scripts):
            return detected
    return code


def speaks(declared: Iterable[str], language: str, detected: bool = False) -> bool:
    """Whether a backend declaring ``declared`` languages can speak ``language``; a text with no
    letters (undetermined) is for the backend to judge. A language ``detected`` from a script
    many languages share (Latin text detects as English) is spoken by a backend that declares
    any language of that script: a German Piper voice reads a German line set to no language."""
    code = language_code(language)
    codes = {language_code(other) for other in declared}
    if code == UNDETERMINED or code in codes:
        return True
    script = rules_for(code).scripts[0] if code in LANGUAGES else ""
    return detected and script in _SHARED_SCRIPTS and any(script in rules_for(other).scripts for other in codes)


def foreign_characters(text: str, language: str) -> str:
    """The characters of ``text`` in a script of its own (Han, kana, Hangul, Thai) that ``language``
    is not written in: 北京 in an English line, as a translation may leave it. A voice of
    ``language`` cannot say them (Piper's English voice says "Chinese letter" for each)."""
    scripts = set(rules_for(language).scripts) | _SHARED_SCRIPTS | {"Latin"}
    return "".join(match.group() for match in _SCRIPTS.finditer(ADDRESS.sub(" ", text))
                   if match.lastgroup not in scripts)


class LanguageName(Phrase):
    """A language's name from the one table (:data:`LANGUAGES`) inside a sentence, translated in
    the ``languages`` context, whose names ``scripts/translations`` hands to lupdate."""

    context: ClassVar[str] = "languages"


class GatePhrase(Phrase):
    """Why a backend must not speak a line's language (E_LANGUAGE_UNSUPPORTED's detail), in the
    ``language gate`` translation context: the commands print the English, the studio says it."""

    context: ClassVar[str] = "language gate"


# The refusal's sentence and its parts, declared once (handed to lupdate by scripts/translations).
REFUSAL = ("the line is in {language} ({code}, from {origin}), which the {backend} backend cannot speak "
           "(it speaks {declared}); {can}. To fix it, {how}, or, if the line is in another language, {set} to it")
FROM_SCRIPT = "its text's script"
FROM_CHARACTER = "its character's language"
FROM_LINE = "the line's own language"  # set on the line, over its character's (a project's Line.language)
# What to set, by where the language came from: a line's own language is over its character's, so
# setting the character's would change nothing; a line that follows its character can be given its own.
SET_LINE = "set the line's own language"
SET_LINE_OR_CHARACTER = "set the line's own language (or its character's, for all its lines)"
NOTHING_DECLARED = "nothing declared"
SPOKEN_BY = "backends that speak it: {backends}"
SPOKEN_BY_NONE = "no backend installed here declares it"
RENDER_WITH = "render it with one of those"
TRANSLATE_IT = "translate the line"
# A line of a language its voice speaks that holds characters of another script it cannot say.
FOREIGN_CHARACTERS = ("the line is in {language} ({code}) but holds {other} characters ({characters}), which the "
                      "{voice} voice cannot say. To fix it, write them in {language} (a name in its Latin spelling: "
                      "北京 as Beijing), or, if the line is in {other}, {set} to {other_code}")
GATE_TEMPLATES = (REFUSAL, FROM_SCRIPT, FROM_CHARACTER, FROM_LINE, SET_LINE, SET_LINE_OR_CHARACTER, NOTHING_DECLARED,
                  SPOKEN_BY, SPOKEN_BY_NONE, RENDER_WITH, TRANSLATE_IT, FOREIGN_CHARACTERS, COMMA_LIST)


def language_refusal(text: str, language: str, backend: str, declared: Iterable[str],
                     registry: Mapping[str, Iterable[str]], set_on_line: bool = False) -> EngineError | None:
    """Why ``backend`` (which declares ``declared``) must not speak ``text`` as a character of
    ``language`` ("" or "auto": detected from the text; ``set_on_line``: the line's own language,
    not its character's): an E_LANGUAGE_UNSUPPORTED error naming the line's language, where it came
    from, and the backends of ``registry`` (name -> declared languages) that speak it; None when it can. Checked before any synthesis: a voice that cannot speak a language
    babbles it (Piper's English voice read 13 Chinese characters as 10 s of noise)."""
    code = line_language(language, text)
    detected = code != language_code(language)
    declared = tuple(declared)
    name = LanguageName(LANGUAGES[code].name) if code in LANGUAGES else code
    to_set = GatePhrase(SET_LINE if set_on_line else SET_LINE_OR_CHARACTER)
    if speaks(declared, code, detected):
        return _foreign_refusal(text, code, name, backend, declared, registry, to_set)
    others = [other for other, languages in registry.items()
              if other != backend and speaks(languages, code, detected)]
    # The backends by name, which the studio shows as their display names ("embedded" is 内置音色).
    can = (GatePhrase(SPOKEN_BY, backends=joined(GatePhrase, [BackendName(other) for other in others]))
           if others else GatePhrase(SPOKEN_BY_NONE))
    how = GatePhrase(RENDER_WITH if others else TRANSLATE_IT)
    origin = GatePhrase(FROM_SCRIPT if detected else FROM_LINE if set_on_line else FROM_CHARACTER)
    spoken = ", ".join(declared) or GatePhrase(NOTHING_DECLARED)
    return EngineError(ErrorCode.LANGUAGE_UNSUPPORTED,
                       GatePhrase(REFUSAL, language=name, code=code, origin=origin, backend=BackendName(backend),
                                  declared=spoken, can=can, how=how, set=to_set))


def _foreign_refusal(text: str, code: str, name: str, backend: str, declared: tuple[str, ...],
                     registry: Mapping[str, Iterable[str]], to_set: GatePhrase) -> EngineError | None:
    """Why the voice that speaks a line in ``code`` on ``backend`` must not speak ``text``: it holds
    characters of another language's script that this voice cannot say; None when it holds none,
    or the voice also speaks their language (CosyVoice2 says a Chinese name in an English line).
    ``to_set``: which language to set if the line is in theirs (the line's own, or its character's)."""
    foreign = foreign_characters(text, code)
    if not foreign:
        return None
    voice = speaking_backend(backend, code)  # under the embedded voices, the one of the line's language
    theirs = detect_language(foreign)
    if speaks(declared if voice == backend else tuple(registry.get(voice, ())), theirs):
        return None
    their_name = LanguageName(LANGUAGES[theirs].name) if theirs in LANGUAGES else theirs
    shown = foreign if len(foreign) <= 12 else foreign[:12] + "…"
    return EngineError(ErrorCode.LANGUAGE_UNSUPPORTED,
                       GatePhrase(FOREIGN_CHARACTERS, language=name, code=code, other=their_name, characters=shown,
                                  voice=BackendName(voice), other_code=theirs, set=to_set))


# ISO 639-2/B codes (what Matroska's language element and MP4's ``mdhd`` carry) of the
# languages a project is likely to name; a language missing here is tagged "und" unless the
# user types its code. Chinese: Mandarin and Cantonese are both "chi" in 639-2.
_CONTAINER_LANGUAGES: dict[str, str] = {
    "ar": "ara", "bg": "bul", "bn": "ben", "ca": "cat", "cs": "cze", "da": "dan", "de": "ger", "el": "gre",
    "en": "eng", "es": "spa", "et": "est", "fa": "per", "fi": "fin", "fr": "fre", "he": "heb", "hi": "hin",
    "hr": "hrv", "hu": "hun", "id": "ind", "it": "ita", "ja": "jpn", "ko": "kor", "lt": "lit", "lv": "lav",
    "ms": "may", "nl": "dut", "no": "nor", "pl": "pol", "pt": "por", "ro": "rum", "ru": "rus", "sk": "slo",
    "sl": "slv", "sr": "srp", "sv": "swe", "ta": "tam", "th": "tha", "tl": "tgl", "tr": "tur", "uk": "ukr",
    "ur": "urd", "vi": "vie", "yue": "chi", "zh": "chi",
}


# Other tags a track of a table language carries: ISO 639-2/T (terminology) codes where they
# differ from the /B ones above (FFmpeg and many tools write "fra", "deu", "zho"), and ISO 639-3
# codes of a table language ("cmn": Mandarin).
_OTHER_TAGS: dict[str, str] = {
    "ces": "cs", "cmn": "zh", "deu": "de", "ell": "el", "fas": "fa", "fil": "tl", "fra": "fr", "msa": "ms",
    "nld": "nl", "nob": "no", "ron": "ro", "slk": "sk", "zho": "zh",
}
_TAG_LANGUAGES: dict[str, str] = {
    tag: code for code, tag in _CONTAINER_LANGUAGES.items() if code != "yue"  # "chi" reads as Mandarin
} | _OTHER_TAGS


def tag_language(tag: str) -> str:
    """The project's code of the language a track's tag names, in any of the forms a container
    carries: ISO 639-2/B or /T ("fre", "fra"), ISO 639-3 ("cmn", "yue"), ISO 639-1 or a BCP 47 tag
    ("fr", "zh-CN"); a code not known stays as it is (lower case), "und" when empty."""
    code = language_code(tag)
    return _TAG_LANGUAGES.get(code, code) or UNDETERMINED


def container_language(language: str) -> str:
    """The three-letter ISO 639-2/B code a video track is tagged with for ``language`` ("en",
    "zh-CN", "fra", or already "eng"); "und" when it is empty or unknown."""
    code = tag_language(language)
    if code in _CONTAINER_LANGUAGES:
        return _CONTAINER_LANGUAGES[code]
    return code if len(code) == 3 and code.isascii() and code.isalpha() else UNDETERMINED


def first_tagged(tags: Sequence[str], language: str) -> int | None:
    """Which of ``tags`` (a video's tracks' language tags, in order) is the first in ``language``
    (any code :func:`tag_language` reads): one naming that very language, else one sharing its
    ISO 639-2 code (Cantonese and Mandarin are both "chi" there); None when none is, or the
    language is unknown."""
    wanted = tag_language(language)
    if wanted in ("", UNDETERMINED, AUTO):
        return None
    named = next((n for n, tag in enumerate(tags) if tag_language(tag) == wanted), None)
    if named is not None:
        return named
    family = container_language(wanted)
    return next((n for n, tag in enumerate(tags) if family != UNDETERMINED and container_language(tag) == family), None)

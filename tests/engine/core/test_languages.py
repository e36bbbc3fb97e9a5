"""The one per-language table and the language a line's script says it is in."""

from __future__ import annotations

import pytest

from engine.core.codes import ErrorCode
from engine.core.languages import (
    ALL_CLAUSE_MARKS,
    ALL_SENTENCE_ENDS,
    CHARACTERS,
    LANGUAGES,
    LETTERS,
    UNDETERMINED,
    container_language,
    counts_characters,
    detect_language,
    first_tagged,
    language_refusal,
    line_language,
    rules_for,
    tag_language,
)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("I told you the keys were on the kitchen table.", "en"),
        ("甚至出现交易几乎停滞的情况", "zh"),
        ("我們明天見。", "zh"),  # traditional characters are Chinese too
        ("今日はいい天気ですね。", "ja"),
        ("カタカナだけ", "ja"),
        ("東京", "zh"),  # Han alone cannot tell Japanese from Chinese: the majority reading
        ("안녕하세요, 반갑습니다.", "ko"),
        ("Привет, как дела?", "ru"),
        ("مرحبا كيف حالك", "ar"),
        ("สวัสดีครับ", "th"),
        ("Ｈｅｌｌｏ", "en"),  # full-width Latin
        ("1234 !?", UNDETERMINED),
        ("", UNDETERMINED),
    ],
)
def test_a_text_is_in_the_language_of_its_script(text: str, language: str) -> None:
    assert detect_language(text) == language


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("我们明天去Starbucks见面吧", "zh"),  # an English word inside Chinese: still Chinese
        ("王小明说OK", "zh"),
        ("Call Mr. 王 tomorrow morning", "en"),  # a Chinese name inside English: English
        ("昨日、Tokyoで田中さんに会った", "ja"),  # kana anywhere with Han: Japanese
        ("OK 好", "zh"),  # a tie goes to the non-Latin script
        ("哈利・波特来了", "zh"),  # the katakana middle dot is no kana
        # A web or mail address is no language's words (the first was English: 10 Latin runs, 6 Han).
        ("请访问 https://www.example.com/path/to/page?id=123&lang=zh 了解详情", "zh"),
        ("访问https://example.com/a/b/c/d/e了解详情", "zh"),
        ("我的邮箱是zhang.wei.2024@company-example.com", "zh"),
        ("Email me at anna@example.com, or visit https://example.com!", "en"),
    ],
)
def test_a_mixed_line_is_the_majoritys_language(text: str, language: str) -> None:
    assert detect_language(text) == language


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("佢哋喺度食緊飯。", "yue"),  # written Cantonese: 佢哋 they, 喺 at
        ("冇問題，聽日見", "yue"),  # one character Mandarin never writes is enough
        ("OK，佢走咗", "yue"),
        ("我係香港人", "zh"),  # 係 is Mandarin's 關係 too: no sign
        ("我們明天見。", "zh"),  # traditional characters alone are not Cantonese
        ("ラーメン佢", "ja"),  # kana: Japanese, whatever its Han
    ],
)
def test_written_cantonese_is_told_by_its_own_characters(text: str, language: str) -> None:
    assert detect_language(text) == language


def test_a_cantonese_line_is_refused_by_a_mandarin_voice_unless_its_character_is_mandarin() -> None:
    from engine.core.languages import language_refusal

    registry = {"embedded": ("en", "zh"), "cosyvoice2": ("zh", "en", "ja", "ko", "yue")}
    refusal = language_refusal("佢哋喺度食緊飯。", "", "embedded", registry["embedded"], registry)
    assert refusal is not None and "Cantonese" in str(refusal) and "cosyvoice2" in str(refusal)
    assert language_refusal("佢哋喺度食緊飯。", "zh", "embedded", registry["embedded"], registry) is None


def test_a_refusal_says_which_language_to_set_by_where_the_lines_came_from() -> None:
    """A line's own language is over its character's: a refusal of a line set to its own language
    says to set the line's (setting the character's would change nothing); a line that follows its
    character can be given its own, or its character another for all its lines."""
    from engine.core.languages import language_refusal

    registry = {"piper": ("en",), "zh-baker": ("zh",)}
    own = language_refusal("我们今天晚上出发。", "zh", "piper", ("en",), registry, set_on_line=True)
    assert own is not None and "(zh, from the line's own language)" in own.message
    assert own.message.endswith("or, if the line is in another language, set the line's own language to it")
    assert "character" not in own.message
    followed = language_refusal("我们今天晚上出发。", "zh", "piper", ("en",), registry)
    assert followed is not None and "(zh, from its character's language)" in followed.message
    assert followed.message.endswith("set the line's own language (or its character's, for all its lines) to it")
    foreign = language_refusal("We meet in 北京 tomorrow.", "en", "piper", ("en",), registry, set_on_line=True)
    assert foreign is not None
    assert foreign.message.endswith("or, if the line is in Chinese (Mandarin), set the line's own language to zh")


def test_a_set_language_wins_over_a_shared_script() -> None:
    assert line_language("de", "Guten Morgen") == "de"  # Latin cannot tell German from English
    assert line_language("zh", "OK, Starbucks!") == "zh"  # the Chinese voice reads the names
    assert line_language("yue", "我哋去飲茶") == "yue"  # Han, and Cantonese writes in Han
    assert line_language("", "甚至出现交易几乎停滞的情况") == "zh"
    assert line_language("  ", "Hello there") == "en"


def test_a_text_in_a_script_its_set_language_never_uses_is_in_the_scripts_language() -> None:
    """A Chinese line given to an English character: Piper would babble it, so it is Chinese."""
    assert line_language("en_US", "甚至出现交易几乎停滞的情况") == "zh"
    assert line_language("en", "こんにちは、元気ですか") == "ja"
    refusal = language_refusal("甚至出现交易几乎停滞的情况", "en", "piper", ("en",), {"piper": ("en",)})
    assert refusal is not None and refusal.code is ErrorCode.LANGUAGE_UNSUPPORTED
    assert "Chinese" in refusal.message


def test_chinese_has_chinese_rules() -> None:
    zh = rules_for("zh")
    # Netflix's Simplified Chinese guide: 9 characters/s for adults, 16 a line.
    assert (zh.cps_too_fast, zh.line_chars, zh.spaced, zh.rate_unit) == (9.0, 16, False, CHARACTERS)
    assert zh.speaking_cps < rules_for("en").speaking_cps / 3  # about 4.5 against about 15
    assert set("。！？") <= set(zh.sentence_ends) and set("，、") <= set(zh.clause_marks)
    assert rules_for("zh-CN") is zh and rules_for("yue").cps_too_fast == zh.cps_too_fast
    # What a recogniser's Chinese is written with: full-width marks, 吗/嗎 ending a question in
    # either script, and Mandarin's prompt in simplified characters (Cantonese gets none).
    assert dict(zh.own_marks)["?"] == "？" and {"吗", "嗎"} <= set(zh.question_particles)
    assert zh.recognition_prompt == "以下是普通话的句子。" and not rules_for("yue").recognition_prompt
    assert not rules_for("en").own_marks and not rules_for("en").recognition_prompt


def test_tonal_languages_are_declared() -> None:
    # Where a syllable's pitch contour tells words apart, an adapted voice keeps its pitch range.
    assert {code for code, rules in LANGUAGES.items() if rules.lexical_tones} == {"zh", "yue", "th"}


def test_english_keeps_the_figures_it_had() -> None:
    en = rules_for("EN")
    assert (en.cps_fast, en.cps_too_fast, en.line_chars, en.subtitle_lines) == (17.0, 21.0, 42, 2)
    assert en.speaking_cps == pytest.approx(1 / 0.065) and en.rate_unit == LETTERS and en.spaced


def test_every_language_is_consistent() -> None:
    for code, rules in LANGUAGES.items():
        assert rules.code == code and rules.name
        assert rules.speech_rate > 0 and 0 < rules.speaking_cps < rules.cps_fast < rules.cps_too_fast, code
        assert rules.line_chars > 0 and rules.subtitle_lines > 0 and rules.sentence_ends, code
        assert rules.rate_unit in (LETTERS, CHARACTERS)
        assert set(rules.sentence_ends) <= set(ALL_SENTENCE_ENDS)
        assert set(rules.clause_marks) <= set(ALL_CLAUSE_MARKS)
        assert {own for _, own in rules.own_marks} <= set(rules.sentence_ends + rules.clause_marks), code
    for code in ("zh", "yue", "ja", "ko", "th", "lo", "km", "my", "bo"):
        assert counts_characters(code), code
    for code in ("en", "ru", "de", "ar", ""):
        assert not counts_characters(code), code


def test_a_language_without_rules_of_its_own_borrows_them() -> None:
    assert rules_for("de") is rules_for("en")
    assert rules_for("lo").rate_unit == CHARACTERS and not rules_for("lo").spaced


def test_a_voice_measures_its_resemblance_on_words_of_a_language_it_speaks():
    from engine.core.languages import RESEMBLANCE_SENTENCES, resemblance_sentence
    from engine.synthesis.backends import DESCRIPTORS

    # zh-baker alone says the Chinese sentence (the English one it would spell letter by letter).
    assert detect_language(resemblance_sentence(DESCRIPTORS["zh-baker"].capabilities.languages)) == "zh"
    # Any backend that speaks English keeps the English sentence, so its figures stay comparable.
    for name in ("piper", "embedded", "cosyvoice2"):
        assert resemblance_sentence(DESCRIPTORS[name].capabilities.languages) == RESEMBLANCE_SENTENCES["en"]
    for code, sentence in RESEMBLANCE_SENTENCES.items():
        assert detect_language(sentence) == code
        assert resemblance_sentence([code]) == sentence
    assert resemblance_sentence(["ru"]) == "Привет! Вот так я звучу в этом проекте."  # its audition sentence
    assert resemblance_sentence([]) == RESEMBLANCE_SENTENCES["en"]


@pytest.mark.parametrize("tag, language", [
    ("fre", "fr"), ("fra", "fr"), ("fr-FR", "fr"), ("ger", "de"), ("deu", "de"), ("chi", "zh"), ("zho", "zh"),
    ("cmn", "zh"), ("zh-CN", "zh"), ("zh_Hans", "zh"), ("eng", "en"), ("jpn", "ja"), ("kor", "ko"), ("yue", "yue"),
    ("ENG", "en"), ("", "und"), ("und", "und"), ("tlh", "tlh"),
])
def test_a_tracks_language_tag_is_read_in_every_iso_639_form(tag: str, language: str) -> None:
    """A track tagged "fra" (639-2/T, what FFmpeg writes) or "zh-CN" did not match a dialogue in
    "fr" or "zh": only the /B codes "fre" and "chi" did, so such a track fell back to the first."""
    assert tag_language(tag) == language
    assert container_language(tag) == container_language(language)


def test_the_first_track_in_a_language_is_found_by_its_name_before_its_iso_639_2_family() -> None:
    tags = ["eng", "yue", "cmn", "deu"]
    assert first_tagged(tags, "zh") == 2  # Mandarin, not the Cantonese before it ("chi" both)
    assert first_tagged(tags, "de") == 3 and first_tagged(tags, "ger") == 3
    assert first_tagged(["eng", "chi"], "yue") == 1  # 639-2 has no Cantonese: "chi" may be it
    assert first_tagged(tags, "fr") is None and first_tagged(tags, "auto") is None and first_tagged(tags, "") is None

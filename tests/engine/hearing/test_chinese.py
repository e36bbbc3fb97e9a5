"""Chinese transcription (engine.hearing.chinese and the transcription of a real Mandarin scene):
one script, full-width marks, lines cut at sentence ends, on the real Whisper base model."""

from __future__ import annotations

from pathlib import Path

import pytest
from faster_whisper import decode_audio

from engine.core.codes import ErrorCode
from engine.hearing import HearingError
from engine.hearing.chinese import (
    SIMPLIFIED,
    TRADITIONAL,
    ended_as_sentences,
    in_script,
    written_as_chinese,
)
from engine.hearing.lines import PAUSE_S, Line, Word, split_lines
from engine.hearing.qa.wer import error_rate
from engine.hearing.transcribe import (
    BEAM_SIZE,
    Options,
    transcribe_media,
    whisper_words,
)
from engine.hearing.whisper import load_whisper
from tests.engine.hearing.scenes import HEARING_DATA, make_scene

# Three speakers' real utterances (tests/data/hearing/README.md: AISHELL-1 and PaddleSpeech, Apache-2.0).
SCENE = {
    "zh_aishell_S0764": "甚至出现交易几乎停滞的情况",
    "zh_paddlespeech": "我认为跑步最重要的就是给我带来了身体健康",
    "zh_aishell_S0724": "广州市房地产中介协会分析",
}
SENTENCE_MARKS = ("。", "！", "？")


def test_text_comes_in_the_script_asked_for_with_full_width_marks() -> None:
    assert in_script("廣州市房地產中介協會分析,你們知道嗎?", SIMPLIFIED) == "广州市房地产中介协会分析，你们知道吗？"
    assert in_script("广州市房地产中介协会分析", TRADITIONAL) == "廣州市房地產中介協會分析"
    assert in_script("下降超50.5%", SIMPLIFIED) == "下降超50.5%"  # a decimal point stays a point
    with pytest.raises(ValueError, match="simplified or traditional"):
        in_script("中文", "pinyin")


def test_words_without_punctuation_get_commas_at_pauses_and_sentence_marks_where_lines_end() -> None:
    words = [Word(0.0, 0.4, "我有"), Word(0.4, 0.8, "的時候"), Word(1.2, 1.6, "說不清楚"),
             Word(1.7, 2.0, "你們知道"), Word(2.0, 2.2, "嗎"), Word(3.5, 3.9, "換一首歌")]
    text = [line.text for line in split_lines(written_as_chinese(words, SIMPLIFIED, PAUSE_S))]
    assert text == ["我有的时候，说不清楚你们知道吗？", "换一首歌。"]


def test_a_question_particle_ends_a_question_in_either_script() -> None:
    words = [Word(0.0, 0.4, "你們知道"), Word(0.4, 0.6, "嗎"), Word(2.0, 2.4, "好吧")]
    for script, question in ((SIMPLIFIED, "你们知道吗？"), (TRADITIONAL, "你們知道嗎？")):
        lines = split_lines(written_as_chinese(words, script, PAUSE_S))
        assert [line.text for line in lines] == [question, "好吧。"], script


def test_chinese_words_are_joined_without_spaces_but_english_words_inside_keep_theirs() -> None:
    words = [Word(0.0, 0.3, "好"), Word(0.3, 0.6, " 首先"), Word(0.6, 0.9, " Tom"), Word(0.9, 1.2, " Hanks"),
             Word(1.2, 1.5, " 来了")]
    assert [line.text for line in split_lines(written_as_chinese(words, SIMPLIFIED, PAUSE_S))] == ["好首先Tom Hanks来了。"]


def test_an_english_sentence_keeps_its_spaces_after_its_punctuation() -> None:
    # Whisper base, heard as Chinese, on a real LibriSpeech turn: "Mr.HailYou have done…".
    words = [Word(0.0, 0.3, " I"), Word(0.3, 0.5, " think"), Word(0.5, 0.8, " Mr."), Word(0.8, 1.1, " Hale,"),
             Word(1.1, 1.3, " you"), Word(1.3, 1.6, " have"), Word(1.6, 1.8, " 50.5%"), Word(1.8, 2.0, " done")]
    text = [line.text for line in split_lines(written_as_chinese(words, SIMPLIFIED, PAUSE_S))]
    assert text == ["I think Mr. Hale, you have 50.5% done."]


def test_an_english_turn_in_a_chinese_scene_ends_in_english_marks() -> None:
    # A mixed English/Mandarin episode is heard as Chinese: its English turns came out as
    # "cloth does not look worth much。" (Whisper base on a real LibriSpeech-style turn).
    words = [Word(0.0, 0.3, " cloth"), Word(0.3, 0.5, " does"), Word(0.5, 0.7, " not"), Word(0.7, 1.0, " look"),
             Word(1.0, 1.2, " worth"), Word(1.2, 1.5, " much"), Word(2.5, 2.8, " 好吧"), Word(4.0, 4.3, " 首先"),
             Word(4.3, 4.6, " Tom"), Word(4.6, 4.9, " Hanks")]
    text = [line.text for line in split_lines(written_as_chinese(words, SIMPLIFIED, PAUSE_S))]
    assert text == ["cloth does not look worth much.", "好吧。", "首先Tom Hanks。"]
    lines = [Line([Word(0.0, 0.4, "raging"), Word(0.4, 0.6, " fire")]), Line([Word(1.0, 1.2, "你们知道吗")])]
    ended_as_sentences(lines)
    assert [line.text for line in lines] == ["raging fire.", "你们知道吗？"]


def test_a_line_cut_where_the_speaker_changes_ends_its_sentence_there() -> None:
    lines = [Line([Word(0.0, 0.4, "但是现在不同了，")]), Line([Word(0.4, 0.9, "你们知道吗")]), Line([Word(1.0, 1.2, "好。")])]
    ended_as_sentences(lines)
    assert [line.text for line in lines] == ["但是现在不同了。", "你们知道吗？", "好。"]


def test_punctuated_words_keep_their_marks_and_a_line_cut_at_a_pause_still_ends_in_one() -> None:
    words = [Word(0.0, 0.5, "正是因为"), Word(0.5, 0.7, "正义,"), Word(0.75, 1.2, "所以"), Word(1.2, 1.5, "接受,"),
             Word(2.5, 3.0, "好。")]
    text = [line.text for line in split_lines(written_as_chinese(words, SIMPLIFIED, PAUSE_S))]
    assert text == ["正是因为正义，所以接受。", "好。"]


@pytest.fixture(scope="module")
def whisper():
    return load_whisper("base")


@pytest.fixture(scope="module")
def mandarin_scene(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("zh") / "scene.mp4"
    make_scene(path, list(SCENE), gap_s=0.7)
    return path


def test_a_mandarin_scene_becomes_simplified_lines_cut_at_sentence_ends(mandarin_scene: Path, whisper,
                                                                        encoder) -> None:
    heard = transcribe_media(mandarin_scene, whisper, encoder)
    assert heard.language == "zh" and heard.language_sure
    texts = [line.text for line in heard.lines]
    assert len(texts) >= len(SCENE)
    assert all(text.endswith(SENTENCE_MARKS) for text in texts), texts
    assert all(in_script(text, SIMPLIFIED) == text for text in texts), texts  # no traditional character left
    assert error_rate("".join(SCENE.values()), "".join(texts), "zh", by_reading=False) <= 0.15, texts


def test_the_same_scene_in_traditional_characters_and_a_bad_script_refused(mandarin_scene: Path, whisper,
                                                                           encoder) -> None:
    heard = transcribe_media(mandarin_scene, whisper, encoder, Options(language="zh", chinese_script=TRADITIONAL))
    script = "".join(line.text for line in heard.lines)
    assert "廣州市" in script and "广州市" not in script, script
    with pytest.raises(HearingError) as refused:
        transcribe_media(mandarin_scene, whisper, encoder, Options(chinese_script="cyrillic"))
    assert refused.value.code == ErrorCode.BAD_OPTION


def test_a_translation_keeps_the_words_whisper_timed_with_no_duration(whisper) -> None:
    """Whisper's translate task gives many words no duration (5 of this clip's 10): dropped, a
    Chinese scene's English draft lost words and flipped its sense ("If we don't cooperate" came
    out "If we cooperate")."""
    audio = decode_audio(str(HEARING_DATA / "zh_aishell_S0764.flac"))
    segments, _ = whisper.transcribe(audio, language="zh", task="translate", beam_size=BEAM_SIZE, vad_filter=True,
                                     word_timestamps=True, condition_on_previous_text=False, temperature=0.0)
    said = [word for segment in segments for word in segment.words or () if word.word.strip()]
    assert sum(word.end <= word.start for word in said) >= 1  # the case this is about
    words, _ = whisper_words(whisper, audio, 0.0, "zh", "translate")
    assert [word.text for word in words] == [word.word for word in said]

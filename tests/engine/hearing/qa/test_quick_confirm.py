"""Confirming an English take alone with Whisper tiny.en before base: a take tiny.en confirms gets
the verdict it gets decoded by base, and a swapped, half-cut, crossed or wrong-language take is
never confirmed by tiny.en (real Piper takes of the embedded voice, a real Mandarin recording,
real Whisper tiny.en and base)."""

from __future__ import annotations

from engine.hearing.qa.checks import (
    TakeToMeasure,
    measure_take,
    measure_takes,
)
from engine.hearing.qa.recognise import (
    CONFIRM_ENV,
    QUICK_CONFIRM_ENV,
    QUICK_CONFIRM_MODEL,
    quick_confirmer,
    whisper_recogniser,
)
from tests.engine.hearing.qa.test_checks import ZH_CLIP, read_mono
from tests.engine.hearing.qa.test_confirm import summary
from tests.engine.helpers import QA_LINES


def confirmed_quickly(take: TakeToMeasure) -> bool:
    quick = whisper_recogniser(QUICK_CONFIRM_MODEL)
    return quick.score_alone(take.pcm, take.sample_rate, "en", take.text)[2].confirmed_quickly


def test_takes_confirmed_by_tiny_get_the_verdict_base_decodes(clean, monkeypatch):
    monkeypatch.delenv(CONFIRM_ENV, raising=False)
    monkeypatch.delenv(QUICK_CONFIRM_ENV, raising=False)
    streamed = measure_takes(clean, None, "base", streamed=True)  # the QA worker's way: alone first
    tiny = whisper_recogniser(QUICK_CONFIRM_MODEL).name
    by_tiny = [index for index, checks in enumerate(streamed) if checks.recogniser == tiny]
    assert by_tiny == list(range(len(clean)))  # every clean joe take (their scores: docs/qa.md)
    for index in by_tiny:
        take = clean[index]
        decoded = measure_take(take.pcm, take.sample_rate, take.text, "en", None, None, "base")
        assert decoded.recogniser == whisper_recogniser("base").name
        assert streamed[index].transcript == take.text and streamed[index].detected_language == ""
        assert summary(streamed[index]) == summary(decoded) == (True, [])


def test_swapped_half_cut_crossed_and_wrong_language_takes_are_not_confirmed_by_tiny(clean, monkeypatch):
    monkeypatch.delenv(CONFIRM_ENV, raising=False)
    monkeypatch.delenv(QUICK_CONFIRM_ENV, raising=False)
    swapped = TakeToMeasure(clean[1].pcm, clean[1].sample_rate, QA_LINES[3], "en")
    cut = TakeToMeasure(clean[5].pcm[: clean[5].pcm.size // 2], clean[5].sample_rate, QA_LINES[5], "en")
    crossed = TakeToMeasure(clean[0].pcm, clean[0].sample_rate, QA_LINES[1], "en")
    pcm, rate = read_mono(ZH_CLIP)
    mandarin = TakeToMeasure(pcm, rate, QA_LINES[0], "en")  # an English line spoken in Mandarin
    defective = [swapped, cut, crossed, mandarin]
    assert [confirmed_quickly(take) for take in defective] == [False] * len(defective)
    streamed = measure_takes(defective, None, "base", streamed=True)
    assert all(checks.recogniser == whisper_recogniser("base").name for checks in streamed)
    assert [summary(checks)[0] for checks in streamed] == [False] * len(defective)


def test_tiny_confirms_only_english_takes_for_base_unless_switched_off(monkeypatch):
    monkeypatch.delenv(QUICK_CONFIRM_ENV, raising=False)
    base = whisper_recogniser("base")
    assert quick_confirmer(base, "en") is whisper_recogniser(QUICK_CONFIRM_MODEL)
    assert quick_confirmer(base, "zh") is None  # tiny.en hears English only
    assert quick_confirmer(whisper_recogniser(QUICK_CONFIRM_MODEL), "en") is None  # bars measured against base
    monkeypatch.setenv(QUICK_CONFIRM_ENV, "0")
    assert quick_confirmer(base, "en") is None

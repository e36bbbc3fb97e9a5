"""Measuring takes and judging them: level, silences, thresholds, and real model speech."""

from __future__ import annotations

import numpy as np
import pytest

from engine.qa.checks import (
    NOT_CHECKED,
    QaThresholds,
    QaValueError,
    TakeChecks,
    clipping_share,
    judge,
    listening_language,
    measure_take,
    silences,
)
from engine.voices import SpeakerEncoder, load_reference_clip
from tests.engine.helpers import VOICES, joe_says

RATE = 22050
LINE = "I told you the keys were on the kitchen table."
OTHER = "My brother bought three apples and a loaf of bread."


def codes(verdict) -> set[str]:
    return {finding.code for finding in verdict.findings}


def checks(**changes) -> TakeChecks:
    base = dict(checked="2026-01-01T00:00:00+00:00", duration_s=3.0, language="en", recogniser="r",
                transcript="i told you", wer=0.1, clipping=0.0, leading_silence_s=0.05,
                inner_silence_s=0.3, trailing_silence_s=0.2, resemblance=0.5)
    return TakeChecks(**{**base, **changes})


# --- level and silences ----------------------------------------------------------------------


def test_clipping_is_the_share_of_samples_at_full_scale():
    audio = np.full(1000, 0.5, dtype=np.float32)
    assert clipping_share(audio) == 0.0
    audio[:25] = 1.0
    audio[25:50] = -1.0
    assert clipping_share(audio) == pytest.approx(0.05)
    assert clipping_share(np.zeros(0, dtype=np.float32)) == 0.0


def test_silences_are_measured_before_inside_and_after_the_sound():
    tone = (0.3 * np.sin(2 * np.pi * 220 * np.arange(RATE) / RATE)).astype(np.float32)
    gap = np.zeros(RATE, dtype=np.float32)
    audio = np.concatenate([gap[: RATE // 2], tone, gap, gap[: RATE // 2], tone, gap[: RATE // 4]])
    leading, inner, trailing = silences(audio, RATE)
    assert leading == pytest.approx(0.5, abs=0.03)
    assert inner == pytest.approx(1.5, abs=0.05)
    assert trailing == pytest.approx(0.25, abs=0.03)


def test_a_silent_take_is_all_leading_silence():
    assert silences(np.zeros(2 * RATE, dtype=np.float32), RATE) == (2.0, 0.0, 0.0)
    assert silences(np.full(RATE, 1e-5, dtype=np.float32), RATE) == (1.0, 0.0, 0.0)


def test_language_to_listen_for():
    assert listening_language("fr", "Bonjour") == "fr"
    assert listening_language("", "Hello there") == "en"  # the embedded voice's language
    assert listening_language("", "今天天气很好。") == "und"  # no clue: not checked, not English


# --- thresholds and stored checks ------------------------------------------------------------


def test_thresholds_round_trip_and_refuse_bad_values():
    thresholds = QaThresholds(max_wer=0.5)
    assert QaThresholds.from_dict(thresholds.to_dict()) == thresholds
    assert QaThresholds.from_dict({}) == QaThresholds()
    for bad, match in (({"max_wer": -1}, "max_wer"), ({"max_clipping": "a lot"}, "max_clipping"),
                       ({"min_resemblance": float("nan")}, "min_resemblance"), ({"max_wer": True}, "max_wer"),
                       ({"loudness": 3}, "unknown QA threshold"), ([], "must be an object")):
        with pytest.raises(QaValueError, match=match):
            QaThresholds.from_dict(bad)


def test_take_checks_round_trip_and_refuse_bad_values():
    stored = checks()
    assert TakeChecks.from_dict(stored.to_dict()) == stored
    unchecked = checks(transcript=None, wer=None, recogniser="", language="zh", resemblance=None)
    assert TakeChecks.from_dict(unchecked.to_dict()) == unchecked
    with pytest.raises(QaValueError, match="clipping"):
        TakeChecks.from_dict({**stored.to_dict(), "clipping": "none"})
    with pytest.raises(QaValueError, match="both 'transcript' and 'wer'"):
        TakeChecks.from_dict({**stored.to_dict(), "wer": None})


# --- judging ---------------------------------------------------------------------------------


def test_a_clean_measurement_passes():
    verdict = judge(checks(), QaThresholds(), overrun_s=0.0)
    assert verdict.passed is True and verdict.findings == ()


@pytest.mark.parametrize(
    ("changes", "overrun", "code"),
    [
        ({"wer": 0.9, "transcript": "something else"}, None, "QA_UNINTELLIGIBLE"),
        ({"clipping": 0.02}, None, "QA_CLIPPING"),
        ({"leading_silence_s": 1.2}, None, "QA_LEADING_SILENCE"),
        ({"inner_silence_s": 2.0}, None, "QA_INNER_SILENCE"),
        ({"trailing_silence_s": 3.0}, None, "QA_TRAILING_SILENCE"),
        ({}, 0.6, "QA_OVERRUN"),
        ({"resemblance": 0.1}, None, "QA_UNLIKE_VOICE"),
        ({"leading_silence_s": 3.0, "inner_silence_s": 0.0, "trailing_silence_s": 0.0, "wer": 1.0, "transcript": ""},
         None, "QA_SILENT"),
    ],
)
def test_each_check_fails_with_its_own_code(changes, overrun, code):
    verdict = judge(checks(**changes), QaThresholds(), overrun_s=overrun)
    assert verdict.passed is False
    assert code in codes(verdict)
    assert all(reason.startswith("QA_") and ": " in reason for reason in verdict.reasons)


def test_a_silent_take_is_not_also_reported_for_its_silences():
    verdict = judge(checks(leading_silence_s=3.0, inner_silence_s=0.0, trailing_silence_s=0.0, wer=1.0,
                           transcript=""), QaThresholds())
    assert codes(verdict) == {"QA_SILENT", "QA_UNINTELLIGIBLE"}


def test_thresholds_decide_and_an_open_slot_never_overruns():
    assert judge(checks(wer=0.6), QaThresholds(max_wer=0.5)).passed is False
    assert judge(checks(wer=0.6), QaThresholds(max_wer=0.7)).passed is True
    assert judge(checks(), QaThresholds(), overrun_s=None).passed is True
    assert judge(checks(), QaThresholds(max_overrun_s=1.0), overrun_s=0.6).passed is True


def test_speech_that_could_not_be_checked_is_never_a_pass():
    unchecked = checks(transcript=None, wer=None, recogniser="", language="zh")
    verdict = judge(unchecked, QaThresholds())
    assert verdict.passed is None
    assert codes(verdict) == {NOT_CHECKED} and "zh" in verdict.reasons[0]
    failing = judge(checks(transcript=None, wer=None, recogniser="", language="zh", clipping=0.5), QaThresholds())
    assert failing.passed is False and codes(failing) == {"QA_CLIPPING", NOT_CHECKED}


# --- measuring real speech -------------------------------------------------------------------


@pytest.fixture(scope="module")
def encoder_and_clip():
    encoder = SpeakerEncoder()
    return encoder, encoder.embed(load_reference_clip(VOICES / "rex.wav"))


def test_the_models_own_speech_passes(encoder_and_clip):
    encoder, clip = encoder_and_clip
    pcm, rate = joe_says(LINE)
    before = pcm.copy()
    measured = measure_take(pcm, rate, LINE, "en", clip, encoder)
    assert np.array_equal(pcm, before)  # measuring only reads the audio
    assert measured.recogniser.startswith("pocketsphinx") and measured.wer is not None and measured.wer <= 0.5
    assert measured.clipping < 0.001 and measured.leading_silence_s < 0.5 and measured.trailing_silence_s < 1.0
    assert measured.resemblance is not None and 0.3 < measured.resemblance <= 1.0
    assert measured.duration_s == pytest.approx(len(pcm) / rate, abs=1e-3)
    assert judge(measured, QaThresholds(), overrun_s=0.0).passed is True


def test_other_speech_fails_as_unintelligible(encoder_and_clip):
    encoder, clip = encoder_and_clip
    pcm, rate = joe_says(OTHER)
    verdict = judge(measure_take(pcm, rate, LINE, "en", clip, encoder), QaThresholds())
    assert verdict.passed is False and codes(verdict) == {"QA_UNINTELLIGIBLE"}


def test_noise_fails_as_unintelligible(encoder_and_clip):
    encoder, clip = encoder_and_clip
    noise = (np.random.default_rng(3).standard_normal(3 * RATE) * 0.15).astype(np.float32)
    measured = measure_take(noise, RATE, LINE, "en", clip, encoder)
    assert measured.wer is not None and measured.wer >= 0.9
    assert "QA_UNINTELLIGIBLE" in codes(judge(measured, QaThresholds()))


def test_a_language_without_a_recogniser_is_measured_but_not_checked(encoder_and_clip):
    encoder, clip = encoder_and_clip
    pcm, rate = joe_says(LINE)
    measured = measure_take(pcm, rate, "Ich habe dir gesagt, die Schlüssel liegen auf dem Tisch.", "de", clip, encoder)
    assert (measured.transcript, measured.wer, measured.recogniser, measured.language) == (None, None, "", "de")
    assert measured.resemblance is not None  # everything else is still measured
    assert judge(measured, QaThresholds()).passed is None

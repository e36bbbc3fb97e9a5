"""Adapting the embedded voice to reference clips, with the real Piper model.

The clips are a high and a deep character voice (from the bundled ones) and synthetic clips that
stand for what users bring that is not clean speech: music without a voice, whispering, a
test tone. What is checked: the output's pitch follows the clip, the formant ratio moves the
right way, every estimate stays within its bounds or falls back to the model's own value, and
streamed pieces join without clicks or level jumps.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from engine.core.protocol import VoiceSettings
from engine.core.reference import ReferenceClip, load_reference_clip
from engine.hearing.qa.recognise import recognise
from engine.hearing.qa.wer import word_error_rate
from engine.synthesis.backends.adaptation import (
    ARRAY_BOUNDS,
    DEEPEST_PITCH_DROP_OCTAVES,
    EQ_LIMIT_DB,
    FORMANT_RATIO_BOUNDS,
    TARGET_F0_BOUNDS,
    Adaptation,
    adapt_piece,
    adaptation_problem,
    analyse_speech,
    highest_formant_ratio,
)
from engine.synthesis.backends.base import VoiceProfile
from engine.synthesis.backends.piper import PiperBackend
from tests.engine.helpers import VOICES

RATE = 22050
TEXT = "Please close the window. The rain is coming in, and the papers on my desk are getting wet."
ASR_TEXTS = (
    TEXT + " My brother bought a green bicycle last summer, but he has only ridden it twice.",
    "If you follow the river north for three miles, you will find an old stone bridge. "
    "The children laughed when the dog jumped into the pond to chase a duck.",
)


@pytest.fixture(scope="module")
def backend() -> PiperBackend:
    piper = PiperBackend()
    piper.load()
    return piper


def prepared(backend: PiperBackend, clip: ReferenceClip, transcript: str = "") -> VoiceProfile:
    conditioning, meta = backend.condition(clip, transcript)
    return VoiceProfile(key="test", embedding=np.zeros(256, np.float32), conditioning=conditioning, meta=meta)


def pieces(backend: PiperBackend, profile: VoiceProfile, text: str = TEXT,
           settings: VoiceSettings = VoiceSettings()) -> list[np.ndarray]:
    return [piece.pcm for piece in backend.synthesize(text, profile, settings, lambda: False)]


def neutral_profile(backend: PiperBackend) -> VoiceProfile:
    """The model's own voice: an adaptation that changes nothing, at the model's own rate."""
    return VoiceProfile("plain", np.zeros(256, np.float32), backend.plain_conditioning())


def clip_of(audio: np.ndarray, rate: int = RATE) -> ReferenceClip:
    audio = (0.9 * audio / np.max(np.abs(audio))).astype(np.float32)
    return ReferenceClip(audio=audio, sample_rate=rate, source_duration_s=len(audio) / rate)


def syllables(seconds: float, rate: int = RATE) -> np.ndarray:
    """A syllable-like on/off envelope: 4 per second, smooth edges."""
    t = np.arange(int(seconds * rate)) / rate
    return np.clip(np.sin(2 * np.pi * 2 * t) * 3, 0, 1) ** 2


def reference(kind: str) -> ReferenceClip:
    """A high voice (the bundled maya, 260 Hz) or a deep one (the bundled rex taken down to
    68 Hz with a longer vocal tract by Praat's own "Change gender", independent of ours)."""
    if kind == "high":
        return load_reference_clip(VOICES / "maya.wav")
    import parselmouth
    from parselmouth.praat import call

    rex = load_reference_clip(VOICES / "rex.wav")
    sound = parselmouth.Sound(rex.audio.astype(np.float64), rex.sample_rate)
    deeper = call(sound, "Change gender", 50, 400, 0.92, 68.0, 1.0, 1.0)
    return clip_of(deeper.values[0], rex.sample_rate)


@pytest.mark.parametrize("kind", ["high", "deep"])
def test_the_output_pitch_follows_the_clip(backend, kind):
    profile = prepared(backend, reference(kind))
    clip_f0 = profile.meta["median_f0_hz"]
    assert (clip_f0 > 200) if kind == "high" else (60 < clip_f0 < 80)
    out_f0 = analyse_speech(np.concatenate(pieces(backend, profile)), RATE).f0_median_hz
    assert abs(12 * math.log2(out_f0 / clip_f0)) < 1.0  # within a semitone of the clip's level
    assert profile.meta["pitch_from"] == "clip"


@pytest.mark.slow  # real models for many seconds: scripts/test-slow (CI runs it)
@pytest.mark.parametrize("kind", ["high", "deep"])
def test_adapted_speech_stays_intelligible(backend, kind):
    """The recogniser understands the adapted voice about as well as the model's own.

    The same model output is heard plain and adapted, so the model's randomness cancels out;
    two texts average out the recogniser's word-by-word luck. (Tape-speed pitch shifting, the
    old method, scored WER 0.9-1.0 on such voices; the benchmark measures the fine margin.)
    """
    adaptation = Adaptation.from_arrays(prepared(backend, reference(kind)).conditioning)
    plain_wers, adapted_wers, heard = [], [], []
    for text in ASR_TEXTS:
        raw = pieces(backend, neutral_profile(backend), text)
        for audio, wers in ((np.concatenate(raw), plain_wers),
                            (np.concatenate([adapt_piece(pcm, RATE, adaptation) for pcm in raw]), adapted_wers)):
            transcript = recognise(audio, RATE)
            assert transcript is not None
            wers.append(word_error_rate(text, transcript.text))
            heard.append(transcript.text)
    plain_wer, adapted_wer = float(np.mean(plain_wers)), float(np.mean(adapted_wers))
    assert adapted_wer <= min(plain_wer + 0.2, 0.5), (plain_wer, adapted_wer, heard)


def test_a_high_voice_raises_the_formants_and_a_deep_one_does_not(backend):
    high = prepared(backend, reference("high")).meta
    deep = prepared(backend, reference("deep")).meta
    assert 1.08 <= high["formant_ratio"] <= 1.25
    assert 1.0 <= deep["formant_ratio"] < high["formant_ratio"] - 0.05
    for meta in (high, deep):
        assert all(abs(gain) <= EQ_LIMIT_DB for gain in meta["eq_db"])


def test_a_low_voiced_models_bounds_leave_every_clip_alone(backend):
    """The bounds relative to the model's own voice (the deepest pitch drop, a child's formants)
    tighten only a high-voiced model's: joe keeps every target pitch and formant ratio it had."""
    model_f0 = backend.calibration().analysis.f0_median_hz
    assert model_f0 * 2.0 ** -DEEPEST_PITCH_DROP_OCTAVES < TARGET_F0_BOUNDS[0]
    assert highest_formant_ratio(model_f0) == FORMANT_RATIO_BOUNDS[1]
    meta = prepared(backend, reference("low")).meta
    assert meta["pitch_from"] == "clip" and meta["formant_ratio_from"] == "clip", meta


def test_the_character_pitch_setting_adds_to_the_clip_level(backend):
    profile = prepared(backend, load_reference_clip(VOICES / "rex.wav"))
    plain = analyse_speech(np.concatenate(pieces(backend, profile)), RATE).f0_median_hz
    raised = analyse_speech(np.concatenate(pieces(backend, profile, settings=VoiceSettings(pitch_semitones=7.0))),
                            RATE).f0_median_hz
    assert 12 * math.log2(raised / plain) == pytest.approx(7.0, abs=1.0)


def test_pieces_join_without_clicks_or_level_jumps(backend):
    """Adapt the same raw pieces a stream would carry and look at every join and every level."""
    raw = pieces(backend, neutral_profile(backend), TEXT + " " + TEXT)
    assert len(raw) >= 4
    adaptation = Adaptation.from_arrays(prepared(backend, load_reference_clip(VOICES / "maya.wav")).conditioning)
    adapted = [adapt_piece(pcm, RATE, adaptation) for pcm in raw]
    guard = int(0.005 * RATE)
    for before, after, original in zip(adapted, adapted[1:], raw[1:]):
        assert abs(after[0]) < 1e-3 and np.max(np.abs(before[-guard:])) < 0.01
        assert np.max(np.abs(after[:guard])) <= np.max(np.abs(original[:guard])) + 0.01
    for pcm, original in zip(adapted, raw):
        assert len(pcm) == len(original) and pcm.dtype == np.float32
    gains_db = [20 * math.log10(_rms(pcm) / _rms(original)) for pcm, original in zip(adapted, raw)]
    assert max(gains_db) - min(gains_db) < 2.0  # every piece moved by the same level, give or take
    assert abs(float(np.mean(gains_db))) < 3.0


def _rms(pcm: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(pcm, dtype=np.float64))))


def test_a_neutral_adaptation_leaves_the_audio_alone(backend):
    raw = pieces(backend, neutral_profile(backend), "Nothing changes here.")
    adaptation = Adaptation.from_arrays(neutral_profile(backend).conditioning)
    for pcm in raw:
        assert adapt_piece(pcm, RATE, adaptation) is pcm


def test_the_same_voice_and_text_come_out_the_same_every_time():
    """Praat's overlap-add places pulses at random in voiceless stretches; seeded, a re-render (or a
    server's take against a local one) is sample for sample the same when the model's noise is off."""
    quiet = PiperBackend(noise_scale=0.0, noise_w=0.0)
    quiet.load()
    first, second = (prepared(quiet, reference("high")) for _ in range(2))
    for name, array in first.conditioning.items():
        np.testing.assert_array_equal(array, second.conditioning[name], err_msg=name)
    once, again = pieces(quiet, first), pieces(quiet, second)
    assert len(once) == len(again)
    for mine, theirs in zip(once, again):
        np.testing.assert_array_equal(mine, theirs)


def test_music_without_a_voice_keeps_the_model_voice(backend):
    """Held chords have a strong pitch, but no voice: nothing pitch-related is taken from them."""
    seconds = 6.0
    t = np.arange(int(seconds * RATE)) / RATE
    music = np.zeros_like(t)
    for index, chord in enumerate([(220, 277, 330), (196, 247, 294), (262, 330, 392), (175, 220, 262)] * 3):
        part = slice(int(index * 0.5 * RATE), int((index + 1) * 0.5 * RATE))
        music[part] = sum(np.sin(2 * np.pi * f * k * t[part]) / k for f in chord for k in (1, 2, 3))
    meta = prepared(backend, clip_of(music)).meta
    assert meta["median_f0_hz"] is None and meta["pitch_from"].startswith("model")
    assert meta["target_f0_hz"] == meta["model_f0_hz"] and meta["formant_ratio"] == 1.0
    assert meta["pitch_range_factor"] == 1.0


def test_a_whispered_clip_keeps_the_model_pitch(backend):
    """Breath noise shaped by syllables and a vowel-like resonance has no pitch to measure."""
    rng = np.random.default_rng(3)
    noise = rng.normal(0.0, 1.0, int(5.0 * RATE))
    resonant = np.convolve(noise, np.exp(-np.arange(200) / 40.0) * np.cos(2 * np.pi * 700 * np.arange(200) / RATE))
    meta = prepared(backend, clip_of(resonant[: len(noise)] * syllables(5.0))).meta
    assert meta["pitch_from"].startswith("model") and meta["formant_ratio"] == 1.0


@pytest.mark.parametrize("f0", [40.0, 95.0, 480.0])
def test_estimates_stay_within_bounds_for_any_pitch(backend, f0):
    """A gliding buzz from below a bass to above a child: every array lands inside its bounds."""
    seconds = 4.0
    t = np.arange(int(seconds * RATE)) / RATE
    glide = f0 * 2 ** (0.15 * np.sin(2 * np.pi * 0.7 * t))  # moving pitch, as speech has
    phase = 2 * np.pi * np.cumsum(glide) / RATE
    buzz = sum(np.sin(k * phase) / k for k in range(1, 12))
    conditioning = prepared(backend, clip_of(buzz * syllables(seconds))).conditioning
    assert adaptation_problem(conditioning) is None
    adaptation = Adaptation.from_arrays(conditioning)
    assert 55.0 <= adaptation.target_f0_hz <= 400.0
    out = adapt_piece(pieces(backend, neutral_profile(backend), "A short test.")[0], RATE, adaptation)
    assert np.isfinite(out).all() and np.max(np.abs(out)) <= 1.0


@pytest.mark.parametrize(("name", "value"), [
    ("target_f0_hz", np.asarray(np.float32(5000.0))),
    ("formant_ratio", np.asarray(np.float32(np.nan))),
    ("eq_db", np.zeros(3, np.float32)),
    ("range_factor", np.asarray(7)),
])
def test_out_of_range_conditioning_is_refused(name, value):
    arrays = Adaptation.neutral().to_arrays()
    arrays[Adaptation.ARRAY_PREFIX + name] = value
    assert name in (adaptation_problem(arrays) or "")
    with pytest.raises(ValueError):
        Adaptation.from_arrays(arrays)
    assert set(ARRAY_BOUNDS) == {key[len(Adaptation.ARRAY_PREFIX):] for key in Adaptation.neutral().to_arrays()}


FIRST_SENTENCE = "The lighthouse keeper swore she saw a ship drift past the rocks."
FIRST_CUT_TEXT = FIRST_SENTENCE + " Nobody believed her."


def test_the_first_piece_leaves_in_two_chunks_cut_in_a_pause():
    """First audio waits for the decoding and adaptation of about a second of speech, not the
    whole piece's: the first piece comes out as two chunks cut where the model's speech pauses,
    together the audio one call of the model makes, with no click at the cut; later pieces stay
    whole."""
    quiet = PiperBackend(noise_scale=0.0, noise_w=0.0)  # the same model output every time
    quiet.load()
    profile = prepared(quiet, load_reference_clip(VOICES / "maya.wav"))
    scale = float(profile.conditioning["length_scale"])
    plain = VoiceProfile("plain", np.zeros(256, np.float32), {**quiet.plain_conditioning(), "length_scale": scale})
    raw = pieces(quiet, plain, FIRST_CUT_TEXT)  # a plain voice is cut the same way, its audio unchanged
    chunks = pieces(quiet, profile, FIRST_CUT_TEXT)
    ids = quiet._voice.phonemes_to_ids(quiet._voice.phonemize(FIRST_SENTENCE)[0])
    in_one_call = quiet._encode(ids, scale, np.random.default_rng(0)).audio()
    assert len(raw) == len(chunks) == 3
    np.testing.assert_allclose(np.concatenate(raw[:2])[:len(in_one_call)], in_one_call, atol=1e-6)
    assert 0.5 * RATE <= len(raw[0]) <= 1.5 * RATE
    guard = int(0.005 * RATE)
    assert np.max(np.abs(raw[0][-guard:])) < 0.01  # cut where the model was quiet
    assert np.max(np.abs(chunks[0][-guard:])) < 0.01 and abs(chunks[1][0]) < 1e-3
    assert [len(c) for c in chunks] == [len(c) for c in raw]


def test_a_source_shared_by_slots_renders_each_ratio_as_alone(backend):
    """The model's calibration speech is one source that every slot preparing a voice renders,
    each at its own formant ratio: renders from several threads at once come out as one alone."""
    source = backend.calibration().source
    ratios = (1.0, 1.12, 1.2, 1.0, 1.12, 1.2)
    alone = {ratio: source.render(180.0, 1.0, ratio) for ratio in set(ratios)}
    with ThreadPoolExecutor(3) as pool:
        together = list(pool.map(lambda ratio: source.render(180.0, 1.0, ratio), ratios * 2))
    for ratio, out in zip(ratios * 2, together):
        np.testing.assert_array_equal(out, alone[ratio])


def test_a_clip_whose_transcript_the_voice_cannot_say_leaves_its_pace_alone(backend):
    """A Mandarin actor's clip (real PaddleSpeech Mandarin, tests/data/hearing): espeak-ng read its
    20 Han characters as 240 phonemes, 48 a second, and the English voice spoke at the fastest
    length scale (0.6); it keeps its own pace now. An English clip still sets it."""
    from tests.engine.hearing.scenes import HEARING_DATA

    mandarin = load_reference_clip(HEARING_DATA / "zh_paddlespeech.flac")
    _, meta = backend.condition(mandarin, "我认为跑步最重要的就是给我带来了身体健康")
    assert meta["phonemes_per_s"] is None and meta["length_scale"] == 1.0
    _, meta = backend.condition(load_reference_clip(VOICES / "maya.wav"), (VOICES / "maya.txt").read_text())
    assert meta["phonemes_per_s"] > 5 and meta["length_scale"] != 1.0

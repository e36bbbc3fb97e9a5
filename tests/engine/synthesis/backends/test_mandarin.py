"""The embedded Mandarin voice zh-baker: it speaks Chinese that Whisper hears back, streams its
first piece first, reads a line the same way for the same seed, and adapts to a clip."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.languages import MANDARIN
from engine.core.protocol import VoiceSettings
from engine.core.reference import ReferenceClip, load_reference_clip
from engine.core.silence import sound_seconds
from engine.hearing.qa.recognise import recognise, whisper_recogniser
from engine.hearing.qa.wer import error_rate
from engine.synthesis import mandarin_text
from engine.synthesis.backends import ZH_BAKER, create_backend
from engine.synthesis.backends.adaptation import (
    DEEPEST_PITCH_DROP_OCTAVES,
    analyse_speech,
    highest_formant_ratio,
)
from engine.synthesis.backends.base import VoiceProfile
from engine.synthesis.backends.mandarin import SAMPLE_RATE, MandarinBackend
from engine.synthesis.backends.own_voice import SPEECH_TOP_DB, condition_on_clip
from tests.engine.helpers import VOICES

HEARING = VOICES.parents[1] / "tests" / "data" / "hearing"

CER_LIMIT = 0.10  # the voice's goal (issue 30); the benchmark measures it on 60 lines
LINES = ("妈，我跟你说过了，今天要加班。", "我们明天早上八点在公司门口见。")


@pytest.fixture(scope="module")
def backend() -> MandarinBackend:
    mandarin = create_backend("zh-baker")
    assert isinstance(mandarin, MandarinBackend)
    mandarin.load()
    return mandarin


def _plain(backend: MandarinBackend) -> VoiceProfile:
    return VoiceProfile("plain", None, backend.plain_conditioning())


def _speak(backend: MandarinBackend, text: str, profile: VoiceProfile, seed: int = 0) -> np.ndarray:
    return np.concatenate([piece.pcm for piece in backend.synthesize(text, profile, VoiceSettings(), lambda: False, seed=seed)])


def test_the_voice_says_chinese_that_whisper_hears_back(backend):
    for line in LINES:
        heard = recognise(_speak(backend, line, _plain(backend)), SAMPLE_RATE, "zh", model="base").text
        assert error_rate(line, heard, "zh", by_reading=False) <= CER_LIMIT, heard


@pytest.mark.parametrize("line", ["這件事我們改天再談。", "這個東西真的很貴。"])
def test_a_traditional_lines_take_is_confirmed_as_its_line(backend, line):
    """Take QA forces a zh-Hant line through Whisper in simplified characters, the script its
    prompt keeps it in: forced as written, these clean takes were refused (mean log-prob -1.28, -1.53)."""
    _, _, score = whisper_recogniser("base").score_alone(_speak(backend, line, _plain(backend)), SAMPLE_RATE, "zh", line)
    assert score.confirmed, score


def test_a_lines_last_syllable_is_said_in_full(backend):
    # A final 了 said in two or three frames was heard as 轮, 论 or 冷 (see mandarin_text.phones).
    for line in ("这件事跟你没有关系，别管了。", "你的会员卡还有三天就到期了。"):
        heard = recognise(_speak(backend, line, _plain(backend)), SAMPLE_RATE, "zh", model="base").text
        assert heard.rstrip("。.！!").endswith("了"), heard


@pytest.mark.parametrize("line", [
    "你跑得太快了，我追不上。",  # 得 as the particle (pypinyin alone says de2)
    "你去哪儿了？",  # erhua, one syllable
    "我们明天早上8点见，OK？",  # a number, an English word
    # Written forms (engine/core/chinese_forms.py): before them, 0.44, 0.27 and 0.50.
    "我每天早上跑5km。",
    "这个月卖了12,800件。",
    "合同从2025-2027年有效。",
    # An English word by its sound, an acronym by its letters' English names (english_sounds.py):
    # with the letters' Chinese names before, 0.500, 0.400 and 0.308 (heard 外偶优体优异议, 爱风, 可以体微).
    "他天天刷YouTube，作业都没写。",
    "我的iPhone昨天摔坏了屏幕。",
    "下班以后一起去KTV唱歌吧。",
])
def test_polyphones_numbers_and_english_are_heard_back(backend, line):
    # By reading, as take QA compares: which of two homophones Whisper writes is not the voice's
    # doing (合同 said right, written 和童 on one build of the runtime: raw 0.125).
    heard = recognise(_speak(backend, line, _plain(backend)), SAMPLE_RATE, "zh", model="base").text
    assert error_rate(line, heard, "zh") <= CER_LIMIT, heard


def test_adapted_to_a_clip_it_still_says_the_line(backend):
    clip = load_reference_clip(VOICES / "rex.wav")
    arrays, meta = backend.condition(clip, "")
    assert backend.conditioning_problem(arrays) is None
    assert meta["median_f0_hz"] < backend.calibration().analysis.f0_median_hz  # a man's voice: lower
    line = LINES[0]
    heard = recognise(_speak(backend, line, VoiceProfile("rex", None, arrays)), SAMPLE_RATE, "zh", model="base").text
    assert error_rate(line, heard, "zh", by_reading=False) <= CER_LIMIT, heard


def test_a_flat_clip_does_not_flatten_the_tones(backend):
    # maya reads English on 1.3 semitones of pitch spread, half the voice's own: a voice without
    # tones takes that range, but Mandarin's words are in its tones, so it keeps its own.
    clip = load_reference_clip(VOICES / "maya.wav")
    arrays, meta = backend.condition(clip, "")
    assert meta["pitch_range_factor"] == 1.0 and "not narrowed" in meta["pitch_range_from"], meta
    _, without_tones = condition_on_clip(backend.calibration(), clip, "", mandarin_text.han_count)
    assert without_tones["pitch_range_factor"] < 0.9, without_tones
    line = "".join(LINES)
    plain = analyse_speech(_speak(backend, line, _plain(backend)), SAMPLE_RATE).f0_spread_semitones
    adapted = analyse_speech(_speak(backend, line, VoiceProfile("maya", None, arrays)), SAMPLE_RATE).f0_spread_semitones
    assert adapted >= 0.85 * plain, (adapted, plain)


def test_a_deep_clip_lowers_the_voice_at_most_an_octave(backend):
    # rex speaks at 85 Hz, 1.5 octaves below the model's woman's voice: lowered that far by PSOLA
    # its words blurred (CER 0.077 against 0.054 at an octave, 30 lines of the benchmark).
    model_f0 = backend.calibration().analysis.f0_median_hz
    arrays, meta = backend.condition(load_reference_clip(VOICES / "rex.wav"), "")
    assert meta["median_f0_hz"] < 0.4 * model_f0  # the clip asks for more than the bound
    assert meta["target_f0_hz"] == pytest.approx(model_f0 * 2.0 ** -DEEPEST_PITCH_DROP_OCTAVES, abs=0.1), meta
    assert "at most an octave" in meta["pitch_from"], meta
    line = "".join(LINES)
    plain = analyse_speech(_speak(backend, line, _plain(backend)), SAMPLE_RATE).f0_median_hz
    deep = analyse_speech(_speak(backend, line, VoiceProfile("rex", None, arrays)), SAMPLE_RATE).f0_median_hz
    assert 0.45 <= deep / plain <= 0.55, (deep, plain)  # heard an octave down, not the clip's 0.34
    heard = recognise(_speak(backend, line, VoiceProfile("rex", None, arrays)), SAMPLE_RATE, "zh", model="base").text
    assert error_rate(line, heard, "zh", by_reading=False) <= CER_LIMIT, heard


def test_a_womans_clip_raises_the_womans_voice_formants_at_most_to_a_childs(backend):
    # maya's envelope fit asks zh-baker's formants up by 1.17: a woman's voice made a child's, which
    # resembled maya less (GE2E 0.658 against 0.749 at 1.01, 30 lines of the benchmark).
    highest = highest_formant_ratio(backend.calibration().analysis.f0_median_hz)
    assert 1.0 <= highest < 1.1
    _, meta = backend.condition(load_reference_clip(VOICES / "maya.wav"), "")
    assert meta["formant_ratio"] == pytest.approx(highest, abs=1e-3) and "child" in meta["formant_ratio_from"], meta


def test_a_fast_clip_is_spoken_no_faster_than_mandarin_stays_clear(backend):
    # A real Mandarin recording (4 syllables a second) played at twice its speed: its pace asks
    # the voice for 8, where Whisper lost a third of the characters; it speaks at the cap.
    text = "我认为跑步最重要的就是给我带来了身体健康"
    real = load_reference_clip(HEARING / "zh_paddlespeech.flac")
    _, own = backend.condition(real, text)
    assert own["pace_spoken_per_s"] == own["phonemes_per_s"] < MANDARIN.fastest_clear_pace  # a slower clip: its own
    fast = ReferenceClip(real.audio, real.sample_rate * 2, real.source_duration_s / 2)
    arrays, meta = backend.condition(fast, text)
    assert meta["phonemes_per_s"] > 7.5 and meta["pace_spoken_per_s"] == MANDARIN.fastest_clear_pace, meta
    line = "".join(LINES)
    spoken = _speak(backend, line, VoiceProfile("fast", None, arrays))
    pace = mandarin_text.syllable_count(line) / sound_seconds(spoken, SAMPLE_RATE, SPEECH_TOP_DB)
    # Measured on the audio: 5.3 at the cap, 6.9 when the clip's 8 was asked for.
    assert pace < MANDARIN.fastest_clear_pace, pace


def test_the_first_piece_comes_before_the_rest_is_computed(backend, monkeypatch):
    computed: list[int] = []
    original = backend._run

    def counting(ids, ratios, sessions=None):
        computed.append(len(ids))
        return original(ids, ratios, sessions)

    monkeypatch.setattr(backend, "_run", counting)
    stream = backend.synthesize("你先别哭。慢慢说。到底发生了什么？", _plain(backend), VoiceSettings(), lambda: False)
    first = next(stream)
    assert first.text == "你先别哭。" and not first.last
    assert len(computed) <= 2  # the first piece, and at most the one after it looked ahead
    rest = list(stream)
    assert [piece.last for piece in rest] == [False, True]
    assert len(computed) == 3


def test_a_reading_is_the_same_for_its_seed_and_another_for_another(backend):
    line = "这家餐厅的红烧肉特别好吃。"
    once, again, other = (_speak(backend, line, _plain(backend), seed) for seed in (7, 7, 8))
    assert np.array_equal(once, again)
    assert not (once.size == other.size and np.allclose(once, other))
    assert abs(once.size - other.size) / once.size < 0.1  # the same line, said a little differently


def test_an_adapted_reading_is_the_same_samples_in_another_backend(backend):
    # benchmarks/zh_voice.py compares voices and variants line by line: a line heard differently
    # must have been said differently, not drawn anew (PSOLA places pulses at random in
    # voiceless stretches unless seeded).
    line = "这部手机是我去年双十一买的。"
    clip = load_reference_clip(VOICES / "maya.wav")
    other = MandarinBackend()
    other.load()
    said = [_speak(mandarin, line, VoiceProfile("maya", None, mandarin.condition(clip, "")[0]))
            for mandarin in (backend, backend, other)]
    assert np.array_equal(said[0], said[1]) and np.array_equal(said[0], said[2])


def test_nothing_to_say_is_refused(backend):
    from engine.core.protocol import EngineError

    with pytest.raises(EngineError) as refused:
        backend.check_text("……！？")
    assert refused.value.code.name == "NOTHING_SPEAKABLE"


def test_the_calibration_is_kept_as_plain_arrays(backend):
    arrays = backend.model_data()
    fresh = MandarinBackend()
    assert fresh.adopt_model_data(arrays) is None
    assert fresh.calibration().phonemes_per_s == pytest.approx(backend.calibration().phonemes_per_s)
    assert fresh.adopt_model_data({**arrays, "audio": arrays["audio"][:100]}) is not None  # too short to be one


def test_its_licence_is_declared():
    assert "NON-COMMERCIAL" in ZH_BAKER.licence and "non-commercial" in ZH_BAKER.use_notice.lower()
    assert "licence: NON-COMMERCIAL" in ZH_BAKER.describe()
    assert ZH_BAKER.capabilities.languages == ("zh",)
    # Short of issue 30's CER goal on the fresh sets (docs/chinese.md): said where it is chosen.
    assert "preview quality" in ZH_BAKER.label and "Preview quality" in ZH_BAKER.describe()

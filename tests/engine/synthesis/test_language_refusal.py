"""A line is spoken only by a backend that declares its language (issue 30): the engine refuses
the others with E_LANGUAGE_UNSUPPORTED before any synthesis, whatever client sent them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core.languages import language_refusal
from engine.core.protocol import AudioChunk, ErrorCode, Job, JobFailed, JobFinished
from engine.synthesis.backends import declared_languages
from engine.synthesis.client.local import EngineClient
from engine.synthesis.config import EngineConfig
from tests.engine.helpers import ended, events_until, sample_voice

# Everyday lines Piper's English voice cannot say (it babbled the first for 10 s).
NOT_ENGLISH = (
    "甚至出现交易几乎停滞的情况",
    "你明天早上八点来接我吧。",
    "我们去Starbucks喝杯咖啡，好不好？",  # an English word inside Chinese: still Chinese
    "王经理，这份合同需要您签字。",
    "别担心，一切都会好起来的！",
    "這件事我們改天再談。",  # traditional characters
    "今日はいい天気ですね。",
    "안녕하세요, 반갑습니다.",
    "Привет, как дела?",
)


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    client = EngineClient(EngineConfig(backend="piper", slots=1, cache_dir=str(tmp_path_factory.mktemp("voice-cache"))))
    client.start()
    yield client
    client.close()


def test_piper_refuses_every_line_it_cannot_speak_and_synthesises_none(engine):
    jobs = [Job(text, sample_voice("maya"), listening=False) for text in NOT_ENGLISH]
    for job in jobs:
        engine.submit(job)
    events = events_until(engine, ended({job.job_id for job in jobs}))
    failed = {e.job_id: e for e in events if isinstance(e, JobFailed)}
    assert all(failed[job.job_id].code is ErrorCode.LANGUAGE_UNSUPPORTED for job in jobs)
    assert not [e for e in events if isinstance(e, (AudioChunk, JobFinished))]  # 0 of 9 synthesised
    message = failed[jobs[0].job_id].message
    assert "Chinese (Mandarin) (zh" in message and "piper" in message and "cosyvoice2" in message


def test_a_set_language_decides_and_han_left_in_an_english_line_is_refused(engine):
    # The character's language wins over the script: Chinese set on English text is refused.
    # An English line with Han characters left in it (a translation's 王) is English, and Piper
    # would say "Chinese letter" for each: refused too, saying how to fix it; in Latin letters it is spoken.
    chinese = Job("Hello there.", _with_language(sample_voice("maya"), "zh"), listening=False)
    mixed = Job("Call Mr. 王 tomorrow morning.", sample_voice("maya"), listening=False)
    english = Job("Call Mr. Wang tomorrow morning.", sample_voice("maya"), listening=False)
    for job in (chinese, mixed, english):
        engine.submit(job)
    events = events_until(engine, ended({chinese.job_id, mixed.job_id, english.job_id}))
    refused = {e.job_id: e for e in events if isinstance(e, JobFailed)}
    assert set(refused) == {chinese.job_id, mixed.job_id}
    assert all(e.code is ErrorCode.LANGUAGE_UNSUPPORTED for e in refused.values())
    assert "from its character's language" in refused[chinese.job_id].message
    assert "holds Chinese (Mandarin) characters (王)" in refused[mixed.job_id].message
    assert "write them in English" in refused[mixed.job_id].message
    assert [e for e in events if isinstance(e, JobFinished) and e.job_id == english.job_id]


@pytest.mark.parametrize(("backend", "refused"), [("piper", True), ("embedded", True), ("cosyvoice2", False)])
def test_han_in_an_english_line_is_refused_by_a_voice_that_cannot_say_it(backend, refused):
    """Under the embedded voices an English line goes to Piper, whatever else it holds; CosyVoice2
    says a Chinese word inside English."""
    registry = declared_languages()
    refusal = language_refusal("Meet me at 北京 station tomorrow.", "en", backend, registry[backend], registry)
    assert (refusal is not None) is refused
    assert refusal is None or "(北京), which the piper voice cannot say" in refusal.message


def _with_language(voice, language):
    return replace(voice, settings=replace(voice.settings, language=language))


def test_a_backend_that_declares_the_language_passes():
    registry = {**declared_languages(), "mandarin": ("zh",)}
    assert language_refusal("甚至出现交易几乎停滞的情况", "", "mandarin", ("zh",), registry) is None
    assert language_refusal("甚至出现交易几乎停滞的情况", "auto", "cosyvoice2", registry["cosyvoice2"], registry) is None
    refusal = language_refusal("甚至出现交易几乎停滞的情况", "", "piper", ("en",), registry)
    assert refusal is not None and refusal.code is ErrorCode.LANGUAGE_UNSUPPORTED
    assert "cosyvoice2, mandarin" in refusal.message
    assert language_refusal("1234?", "", "piper", ("en",), registry) is None  # no letters: the backend judges
    nobody = language_refusal("Γειά σου", "el", "piper", ("en",), registry)
    assert nobody is not None and "no backend installed here declares it" in nobody.message


def test_a_latin_line_set_to_no_language_is_read_by_a_voice_of_any_latin_language():
    """The script cannot tell German from English: a German voice reads an unset Latin line;
    a language set on the character is held to exactly."""
    registry = declared_languages()
    assert language_refusal("Guten Morgen, wie geht's?", "", "piper", ("de",), registry) is None
    set_english = language_refusal("Good morning.", "en", "piper", ("de",), registry)
    assert set_english is not None and "English (en, from its character's language)" in set_english.message
    assert language_refusal("甚至出现交易几乎停滞的情况", "", "piper", ("de",), registry) is not None
    assert language_refusal("Привет, как дела?", "", "piper", ("de",), registry) is not None  # Cyrillic: no

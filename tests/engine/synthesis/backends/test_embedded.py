"""The embedded backend: one engine speaks a Chinese line with zh-baker and an English one with
Piper, for the same character, and still refuses a language neither speaks."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.protocol import (
    AudioChunk,
    Job,
    JobFailed,
    JobFinished,
    VoiceSettings,
    VoiceSpec,
)
from engine.hearing.qa.recognise import recognise
from engine.hearing.qa.wer import error_rate
from engine.synthesis.client.local import EngineClient
from engine.synthesis.config import EngineConfig
from tests.engine.helpers import VOICES, ended, events_until

ZH_LINE = "妈，我跟你说过了，今天要加班。"
EN_LINE = "Nobody in the harbour town believed a single word of it."


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    client = EngineClient(EngineConfig(backend="embedded", slots=1,
                                       cache_dir=str(tmp_path_factory.mktemp("cache"))))
    client.start()
    yield client
    client.close()


def _spoken(engine: EngineClient, text: str, voice: VoiceSpec) -> tuple[np.ndarray, int]:
    job = Job(text, voice)
    engine.submit(job)
    events = events_until(engine, ended({job.job_id}), timeout=300)
    failed = [e for e in events if isinstance(e, JobFailed) and e.job_id == job.job_id]
    assert not failed, failed
    chunks = [e for e in events if isinstance(e, AudioChunk) and e.job_id == job.job_id]
    assert any(isinstance(e, JobFinished) and e.job_id == job.job_id for e in events)
    return np.concatenate([c.pcm for c in chunks]), chunks[0].sample_rate


def test_one_engine_speaks_each_line_with_the_voice_of_its_language(engine):
    voice = VoiceSpec(str(VOICES / "maya.wav"), (VOICES / "maya.txt").read_text().strip())
    zh, rate = _spoken(engine, ZH_LINE, voice)
    heard = recognise(zh, rate, "zh", model="base").text
    assert error_rate(ZH_LINE, heard, "zh", by_reading=False) <= 0.10, heard
    en, rate = _spoken(engine, EN_LINE, voice)
    heard = recognise(en, rate, "en", model="base").text
    assert error_rate(EN_LINE, heard, "en") <= 0.10, heard


def test_a_language_neither_voice_speaks_is_refused(engine):
    job = Job("こんにちは、元気ですか。", VoiceSpec(str(VOICES / "maya.wav"), settings=VoiceSettings()))
    engine.submit(job)
    events = events_until(engine, ended({job.job_id}), timeout=120)
    (failed,) = [e for e in events if isinstance(e, JobFailed) and e.job_id == job.job_id]
    assert failed.code.value == "E_LANGUAGE_UNSUPPORTED"

"""CosyVoice2's speed range, declared in its descriptor (0.5 to 2), on the real engine: a speed
outside it is refused with E_BAD_SETTING naming the range and the backend, never clamped."""

from __future__ import annotations

import pytest

from engine.core.protocol import (
    SPEED,
    ErrorCode,
    Job,
    JobFailed,
    JobFinished,
    VoiceSettings,
    VoiceSpec,
)
from engine.synthesis.backends import COSYVOICE2_SPEED
from tests.cosyvoice.conftest import RunningEngine
from tests.engine.helpers import ended, events_until, sample_voice

pytestmark = pytest.mark.cosyvoice

TIMEOUT_S = 400.0


def test_a_speed_outside_cosyvoice2s_range_is_refused_and_its_ends_are_spoken(engine: RunningEngine) -> None:
    assert engine.client.ready.backend.speed == COSYVOICE2_SPEED  # the engine says its range when ready
    voice = sample_voice("maya")

    def at(speed: float) -> Job:
        return Job("Hello there.", VoiceSpec(voice.clip_path, voice.transcript, VoiceSettings(speed=speed)))

    # Within the engine's own range (Piper speaks them), outside CosyVoice2's.
    refused = [at(SPEED.low), at(0.49), at(2.01), at(SPEED.high)]
    spoken = [at(COSYVOICE2_SPEED.low), at(COSYVOICE2_SPEED.high)]
    jobs = [*refused, *spoken]
    for job in jobs:
        engine.client.submit(job)
    events = events_until(engine.client, ended({job.job_id for job in jobs}), TIMEOUT_S)
    ends = {e.job_id: e for e in events if isinstance(e, (JobFinished, JobFailed))}
    for job in refused:
        failed = ends[job.job_id]
        assert isinstance(failed, JobFailed) and failed.code is ErrorCode.BAD_SETTING, failed
        assert failed.message == COSYVOICE2_SPEED.refusal(job.voice.settings.speed)
        assert "from 0.5 to 2" in failed.message and "on CosyVoice2-0.5B" in failed.message
    for job in spoken:
        assert isinstance(ends[job.job_id], JobFinished), ends[job.job_id]

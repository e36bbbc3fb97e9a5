"""What the engine refuses at its boundary, with a code, whatever client sent it (issue 10)."""

from __future__ import annotations

import dataclasses
import math

import pytest

from engine.core.protocol import (
    PITCH,
    SPEED,
    EngineError,
    ErrorCode,
    Job,
    JobFailed,
    JobFinished,
    VoiceSettings,
)
from engine.synthesis.client.local import EngineClient, EngineStartError
from engine.synthesis.config import EngineConfig
from tests.engine.helpers import ended, events_until, sample_voice

BAD_SETTINGS = [
    VoiceSettings(speed=math.nan),
    VoiceSettings(speed=math.inf),
    VoiceSettings(speed=0.0),
    VoiceSettings(speed=-5.0),
    VoiceSettings(pitch_semitones=math.nan),
    VoiceSettings(pitch_semitones=-math.inf),
    VoiceSettings(pitch_semitones=25.0),
    VoiceSettings(speed="fast"),  # type: ignore[arg-type]  # a client that sends the wrong type
    VoiceSettings(speed=True),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("settings", BAD_SETTINGS, ids=repr)
def test_settings_outside_their_ranges_are_refused(settings):
    with pytest.raises(EngineError) as caught:
        settings.check()
    assert caught.value.code is ErrorCode.BAD_SETTING


def test_the_ends_of_the_ranges_are_accepted():
    for speed in (SPEED.low, 1.0, SPEED.high):
        for pitch in (PITCH.low, 0, PITCH.high):
            VoiceSettings(speed=speed, pitch_semitones=pitch).check()


def test_the_engine_refuses_bad_settings_and_keeps_serving():
    voice = sample_voice()
    bad = [Job("This must not be spoken.", dataclasses.replace(voice, settings=s)) for s in BAD_SETTINGS]
    good = Job("This one is fine.", voice)
    with EngineClient() as client:
        for job in [*bad, good]:
            client.submit(job)
        seen = events_until(client, ended({job.job_id for job in [*bad, good]}))
    failures = {e.job_id: e for e in seen if isinstance(e, JobFailed)}
    assert {job.job_id for job in bad} == set(failures)
    assert all(f.code is ErrorCode.BAD_SETTING for f in failures.values())
    assert "speed must be a number from 0.25 to 4" in failures[bad[0].job_id].message
    assert any(isinstance(e, JobFinished) and e.job_id == good.job_id for e in seen)


def test_an_unknown_backend_fails_start_with_one_clean_message(capfd):
    client = EngineClient(EngineConfig(backend="nosuch"))
    with pytest.raises(EngineStartError) as caught:
        client.start()
    client.close()
    assert "nosuch" in str(caught.value) and "EngineError" not in str(caught.value)
    assert caught.value.code.value in ("E_BAD_REQUEST", "E_BAD_OPTION")  # the latter once options have descriptors
    assert "Traceback" not in capfd.readouterr().err

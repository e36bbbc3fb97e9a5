"""The engine process end to end with the real embedded model (Piper joe-medium).

One engine serves most tests of this module to keep the suite quick; tests that need a
fresh process (restarts, crashes, a small queue) start their own.
"""

from __future__ import annotations

import os
import signal
import sys

import numpy as np
import pytest

from engine.core import protocol
from engine.core.codes import ErrorCode
from engine.synthesis.client.local import EngineClient, collect
from engine.synthesis.config import EngineConfig
from tests.engine.helpers import (
    VOICES,
    ended,
    events_until,
    prepared,
    sample_voice,
    tone_clip,
)

MULTI = "The tide came in early. Nobody saw the boat leave the harbour. By morning, it was gone."


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("voice-cache")


@pytest.fixture(scope="module")
def engine(cache_dir):
    client = EngineClient(EngineConfig(slots=2, cache_dir=str(cache_dir)))
    client.start()
    yield client
    client.close()


def of_job(events, job_id, kind=object):
    return [e for e in events if getattr(e, "job_id", None) == job_id and isinstance(e, kind)]


def test_multi_sentence_line_streams_real_audio(engine):
    job = protocol.Job(MULTI, sample_voice("maya"), priority=protocol.Priority.INTERACTIVE)
    engine.submit(job)
    events = events_until(engine, ended({job.job_id}))
    chunks = of_job(events, job.job_id, protocol.AudioChunk)
    (finished,) = of_job(events, job.job_id, protocol.JobFinished)
    assert len(chunks) >= 3 and [c.seq for c in chunks] == list(range(len(chunks)))
    assert all(c.sample_rate == 22050 and c.pcm.dtype == np.float32 for c in chunks)
    audio = np.concatenate([c.pcm for c in chunks])
    assert np.sqrt(np.mean(audio**2)) > 0.01  # speech, not silence
    assert finished.timing.audio_s == pytest.approx(len(audio) / 22050, abs=1e-3)
    assert finished.timing.chunks == len(chunks)
    assert chunks[0].arrived < finished.arrived  # the first audio came before the job ended
    assert finished.timing.first_chunk_s < finished.timing.synth_s


def test_voice_cache_miss_then_hit_then_hit_after_restart(cache_dir, tmp_path):
    clip = tmp_path / "rex-copy.wav"
    clip.write_bytes((VOICES / "rex.wav").read_bytes())  # content new to this cache
    voice = protocol.VoiceSpec(str(clip), (VOICES / "rex.txt").read_text())
    sources = []
    for _ in range(2):
        client = EngineClient(EngineConfig(slots=1, cache_dir=str(cache_dir)))
        client.start()
        try:
            for _ in range(2):
                _, end = collect(client, protocol.Job("Short line.", voice))
                assert isinstance(end, protocol.JobFinished)
                sources.append(end.timing.voice_cache)
            assert isinstance(prepared(client, voice), protocol.VoicePrepared)  # complete, so on disk for the restart
            rid = client.request_stats()
            stats = events_until(client, lambda e, s: isinstance(e, protocol.Stats) and e.request_id == rid)[-1]
        finally:
            client.close()
    assert sources == ["miss", "memory", "disk", "memory"]
    assert (stats.cache_disk_hits, stats.cache_memory_hits, stats.cache_misses) == (1, 2, 0)  # 2: job, request


def test_transcript_is_part_of_the_voice_key(engine):
    voice = sample_voice("narrator")
    _, first = collect(engine, protocol.Job("One.", voice))
    _, other = collect(engine, protocol.Job("Two.", protocol.VoiceSpec(voice.clip_path, "A different transcript.")))
    assert first.timing.voice_cache in ("miss", "memory") and other.timing.voice_cache == "miss"


def test_two_slots_overlap_in_time(engine):
    engine.set_slots(2)
    jobs = [protocol.Job(MULTI, sample_voice("maya")) for _ in range(2)]
    for job in jobs:
        engine.submit(job)
    events = events_until(engine, ended({j.job_id for j in jobs}))
    starts = [of_job(events, j.job_id, protocol.JobStarted)[0].arrived for j in jobs]
    ends = [of_job(events, j.job_id, protocol.JobFinished)[0].arrived for j in jobs]
    assert max(starts) < min(ends)  # both were running at the same time


def test_every_first_chunk_comes_before_any_third_chunk_at_four_jobs_on_two_slots(engine):
    """Pieces, not jobs, are scheduled: four jobs at once on two slots all start speaking
    before any of them gets far ahead (an ordering, so it holds on a loaded machine too)."""
    engine.set_slots(2)
    jobs = [protocol.Job(MULTI, sample_voice("maya"), job_id=f"four-{i}") for i in range(4)]
    for job in jobs:
        engine.submit(job)
    events = events_until(engine, ended({j.job_id for j in jobs}))
    chunks = [e for e in events if isinstance(e, protocol.AudioChunk)]
    assert all(len(of_job(chunks, j.job_id)) >= 3 for j in jobs)
    last_first = max(i for i, c in enumerate(chunks) if c.seq == 0)
    first_third = min(i for i, c in enumerate(chunks) if c.seq == 2)
    assert last_first < first_third


def test_interactive_job_overtakes_queued_batch_jobs(engine):
    engine.set_slots(1)
    try:
        batch = [protocol.Job(f"Batch line number {i}.", sample_voice("maya")) for i in range(10)]
        urgent = protocol.Job("Play this now.", sample_voice("maya"), priority=protocol.Priority.INTERACTIVE)
        for job in batch:
            engine.submit(job)
        engine.submit(urgent)
        events = events_until(engine, ended({j.job_id for j in batch} | {urgent.job_id}))
    finally:
        engine.set_slots(2)
    # Jobs are judged by when they begin speaking: a job's later chunks may rightly wait behind
    # other jobs' first pieces (its listener has audio in hand), so ends come in any order.
    order = [e.job_id for e in events if isinstance(e, protocol.AudioChunk) and e.seq == 0]
    assert order.index(urgent.job_id) <= 2  # only the batch jobs already running can speak first
    assert [j for j in order if j != urgent.job_id] == [j.job_id for j in batch]  # FIFO within a class
    queued = of_job(events, urgent.job_id, protocol.JobQueued)[0]
    assert queued.position == 0


def test_cancel_queued_and_running_jobs(engine):
    engine.set_slots(1)
    try:
        running = protocol.Job(" ".join([MULTI] * 20), sample_voice("maya"))
        queued = protocol.Job("Never spoken.", sample_voice("maya"))
        engine.submit(running)
        engine.submit(queued)
        events_until(engine, lambda e, s: isinstance(e, protocol.AudioChunk) and e.job_id == running.job_id)
        engine.cancel(queued.job_id)
        engine.cancel(running.job_id)
        events = events_until(engine, ended({running.job_id, queued.job_id}))
    finally:
        engine.set_slots(2)
    for job in (running, queued):
        (failed,) = of_job(events, job.job_id, protocol.JobFailed)
        assert failed.code == ErrorCode.CANCELLED and not failed.retryable
    assert not of_job(events, queued.job_id, protocol.AudioChunk)


def test_bad_inputs_fail_clearly_and_the_queue_goes_on(engine, tmp_path):
    (tmp_path / "notes.wav").write_text("not audio")
    silent = tmp_path / "silent.wav"
    tone_clip(silent, amplitude=0.0)
    cases = {
        protocol.Job("", sample_voice()): ErrorCode.EMPTY_TEXT,
        protocol.Job("   \n\t ", sample_voice()): ErrorCode.EMPTY_TEXT,
        protocol.Job("!!! ... ???", sample_voice()): ErrorCode.NOTHING_SPEAKABLE,
        protocol.Job("Hello.", protocol.VoiceSpec(str(tmp_path / "missing.wav"))): ErrorCode.CLIP_MISSING,
        protocol.Job("Hello.", protocol.VoiceSpec(str(tmp_path / "notes.wav"))): ErrorCode.CLIP_UNREADABLE,
        protocol.Job("Hello.", protocol.VoiceSpec(str(silent))): ErrorCode.CLIP_SILENT,
    }
    good = protocol.Job("Still working.", sample_voice())
    for job in [*cases, good]:
        engine.submit(job)
    events = events_until(engine, ended({j.job_id for j in cases} | {good.job_id}))
    for job, code in cases.items():
        (failed,) = of_job(events, job.job_id, protocol.JobFailed)
        assert failed.code == code and failed.message
    assert of_job(events, good.job_id, protocol.JobFinished)


def test_accepted_clip_formats_speak(engine, tmp_path):
    for name, kwargs in {"stereo48k.wav": dict(rate=48000, channels=2), "u8.wav": dict(rate=8000, subtype="PCM_U8")}.items():
        _, end = collect(engine, protocol.Job("Fine.", protocol.VoiceSpec(str(tone_clip(tmp_path / name, **kwargs)))))
        assert isinstance(end, protocol.JobFinished), end


def test_very_long_text_streams_instead_of_being_refused(engine):
    text = (MULTI + " ") * 235  # about 20,000 characters
    assert len(text) >= 20_000
    job = protocol.Job(text, sample_voice(), priority=protocol.Priority.INTERACTIVE)
    engine.submit(job)
    events = events_until(engine, lambda e, s: len(of_job(s, job.job_id, protocol.AudioChunk)) >= 3)
    engine.cancel(job.job_id)
    events += events_until(engine, ended({job.job_id}))
    assert of_job(events, job.job_id, protocol.JobFailed)[0].code == ErrorCode.CANCELLED


def test_prepare_voice_and_stats(engine):
    rid = engine.prepare_voice(sample_voice("rex"))
    events = events_until(engine, lambda e, s: getattr(e, "request_id", None) == rid)
    answer = events[-1]
    assert isinstance(answer, protocol.VoicePrepared) and answer.summary["median_f0_hz"] > 0
    assert answer.summary["length_scale"] > 0 and answer.summary["encoder"] == "ge2e-resemblyzer"
    bad = engine.prepare_voice(protocol.VoiceSpec("/nonexistent/clip.wav"))
    failed = events_until(engine, lambda e, s: getattr(e, "request_id", None) == bad)[-1]
    assert isinstance(failed, protocol.RequestFailed) and failed.code == ErrorCode.CLIP_MISSING


def test_pitch_follows_the_reference_and_the_setting(engine):
    from engine.synthesis.backends.adaptation import analyse_speech

    def f0(voice):
        chunks, _ = collect(engine, protocol.Job(MULTI, voice))
        return analyse_speech(np.concatenate([c.pcm for c in chunks]), 22050).f0_median_hz

    maya, rex = sample_voice("maya"), sample_voice("rex")
    low, high = f0(rex), f0(maya)
    assert high > 1.6 * low  # the characters' pitch levels carry over
    raised = f0(protocol.VoiceSpec(rex.clip_path, rex.transcript, protocol.VoiceSettings(pitch_semitones=5.0)))
    assert raised == pytest.approx(low * 2 ** (5 / 12), rel=0.12)


def test_full_queue_rejects_with_a_clear_error(cache_dir):
    client = EngineClient(EngineConfig(slots=1, max_queue=2, cache_dir=str(cache_dir)))
    client.start()
    try:
        jobs = [protocol.Job(MULTI, sample_voice()) for _ in range(6)]
        for job in jobs:
            client.submit(job)
        events = events_until(client, ended({j.job_id for j in jobs}))
    finally:
        client.close()
    full = [e for e in events if isinstance(e, protocol.JobFailed) and e.code == ErrorCode.QUEUE_FULL]
    assert full and "full" in full[0].message
    assert len([e for e in events if isinstance(e, protocol.JobFinished)]) == len(jobs) - len(full)


def test_engine_killed_mid_job_restarts_and_resumes(cache_dir):
    client = EngineClient(EngineConfig(slots=1, cache_dir=str(cache_dir)))
    client.start()
    try:
        first = protocol.Job(" ".join([MULTI] * 4), sample_voice())
        rest = [protocol.Job(f"Queued line {i}.", sample_voice()) for i in range(3)]
        for job in [first, *rest]:
            client.submit(job)
        events_until(client, lambda e, s: isinstance(e, protocol.AudioChunk) and e.job_id == first.job_id)
        old_pid = client.pid
        os.kill(old_pid, signal.SIGKILL)
        events = events_until(client, ended({first.job_id, *(j.job_id for j in rest)}), timeout=180)
    finally:
        client.close()
    crashed = of_job(events, first.job_id, protocol.JobFailed)[0]
    assert crashed.code == ErrorCode.ENGINE_CRASHED and crashed.retryable and crashed.resubmitted
    restarted = next(e for e in events if isinstance(e, protocol.EngineRestarted))
    assert restarted.resubmitted == (first.job_id, *(j.job_id for j in rest))
    after = events[events.index(restarted):]
    first_chunks = list(dict.fromkeys(e.job_id for e in after if isinstance(e, protocol.AudioChunk)))
    assert first_chunks == [first.job_id, *(j.job_id for j in rest)]  # everything spoke, in the old order
    assert {e.job_id for e in after if isinstance(e, protocol.JobFinished)} == {first.job_id, *(j.job_id for j in rest)}
    assert client.restarts == 1 and client.pid != old_pid


def test_slots_change_while_running_and_engine_under_explicit_interpreter(cache_dir):
    client = EngineClient(EngineConfig(slots=1, python=sys.executable, cache_dir=str(cache_dir)))
    client.start()
    try:
        jobs = [protocol.Job(MULTI, sample_voice()) for _ in range(3)]
        client.submit(jobs[0])
        client.set_slots(3)
        for job in jobs[1:]:
            client.submit(job)
        events = events_until(client, ended({j.job_id for j in jobs}))
    finally:
        client.close()
    assert any(isinstance(e, protocol.SlotsChanged) and e.slots == 3 for e in events)
    assert all(of_job(events, j.job_id, protocol.JobFinished) for j in jobs)


@pytest.mark.slow  # real models for many seconds: scripts/test-slow (CI runs it)
def test_corrupt_cache_file_is_detected_and_rebuilt(tmp_path):
    cache = tmp_path / "cache"
    clip = tmp_path / "maya-copy.wav"
    clip.write_bytes((VOICES / "maya.wav").read_bytes())
    voice = protocol.VoiceSpec(str(clip), (VOICES / "maya.txt").read_text())
    with EngineClient(EngineConfig(slots=1, cache_dir=str(cache))) as client:
        assert collect(client, protocol.Job("First.", voice))[1].timing.voice_cache == "miss"
        assert isinstance(prepared(client, voice), protocol.VoicePrepared)  # the entry is written once complete
    (entry,) = cache.glob("*.npz")
    entry.write_bytes(entry.read_bytes()[: entry.stat().st_size // 2])  # truncated mid-write
    with EngineClient(EngineConfig(slots=1, cache_dir=str(cache))) as client:
        assert collect(client, protocol.Job("Second.", voice))[1].timing.voice_cache == "miss"
        assert isinstance(prepared(client, voice), protocol.VoicePrepared)
        rid = client.request_stats()
        stats = events_until(client, lambda e, s: isinstance(e, protocol.Stats) and e.request_id == rid)[-1]
    assert stats.cache_rebuilt == 1
    with EngineClient(EngineConfig(slots=1, cache_dir=str(cache))) as client:
        assert collect(client, protocol.Job("Third.", voice))[1].timing.voice_cache == "disk"

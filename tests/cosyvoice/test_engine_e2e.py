"""CosyVoice2 end to end through the real DubStudio engine, on the tiny synthetic model.

The engine runs under the CosyVoice environment's interpreter with four slots and the per-job
hop schedule. Assertions are on counts, sizes, order and codes — never on timings.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from engine.core import protocol
from engine.core.codes import ErrorCode
from tests.cosyvoice.conftest import RunningEngine, first_chunk_samples
from tests.engine.helpers import ended, events_until, sample_voice

pytestmark = pytest.mark.cosyvoice

TIMEOUT_S = 400.0
# One sentence under the first-piece limit, long enough for a first hop and a final chunk.
LINE = "The morning light crept over the harbour while the boats came home with their catch."


def prepare(engine: RunningEngine, voice: protocol.VoiceSpec) -> protocol.VoicePrepared:
    request_id = engine.client.prepare_voice(voice)
    seen = events_until(engine.client, lambda e, _: getattr(e, "request_id", None) == request_id, TIMEOUT_S)
    event = seen[-1]
    assert isinstance(event, protocol.VoicePrepared), event
    return event


def run_jobs(engine: RunningEngine, jobs: list[protocol.Job]) -> list:
    for job in jobs:
        engine.client.submit(job)
    return events_until(engine.client, ended({job.job_id for job in jobs}), TIMEOUT_S)


def chunks_of(events: list, job_id: str) -> list[protocol.AudioChunk]:
    return [e for e in events if isinstance(e, protocol.AudioChunk) and e.job_id == job_id]


def end_of(events: list, job_id: str):
    return [e for e in events if isinstance(e, (protocol.JobFinished, protocol.JobFailed)) and e.job_id == job_id][-1]


def test_streams_24k_chunks_and_caches_the_voice(engine: RunningEngine) -> None:
    voice = sample_voice("maya")
    prepared = prepare(engine, voice)
    assert prepared.cache == "miss"
    prompt_tokens = prepared.summary["prompt_tokens"]
    assert prompt_tokens > 25 and prepared.summary["transcript_script"] == "latin"

    # The cache entry on disk is plain arrays: it loads without pickle.
    entries = list(engine.cache_dir.glob("*.npz"))
    assert len(entries) == 1
    with np.load(entries[0], allow_pickle=False) as data:
        assert data["cond__prompt_speech_tokens"].shape == (prompt_tokens,)
        assert data["cond__prompt_mel"].shape == (2 * prompt_tokens, 80)
        assert data["cond__speaker_embedding"].shape == (192,)
        assert data["cond__prompt_text_tokens"].size > 0

    job = protocol.Job(LINE, voice)
    events = run_jobs(engine, [job])
    finished = end_of(events, job.job_id)
    assert isinstance(finished, protocol.JobFinished), finished
    assert finished.timing.voice_cache == "memory"
    chunks = chunks_of(events, job.job_id)
    assert len(chunks) >= 2  # the first hop, then the rest
    assert [c.seq for c in chunks] == list(range(len(chunks)))
    for chunk in chunks:
        assert chunk.sample_rate == 24000
        assert chunk.pcm.dtype == np.float32 and chunk.pcm.ndim == 1
        assert np.isfinite(chunk.pcm).all() and np.abs(chunk.pcm).max() <= 1.0
    assert len(chunks[0].pcm) == first_chunk_samples(prompt_tokens)
    assert finished.timing.chunks == len(chunks)

    assert prepare(engine, voice).cache == "memory"


def test_four_concurrent_jobs_all_start_with_the_small_first_hop(engine: RunningEngine) -> None:
    voice = sample_voice("maya")
    prompt_tokens = prepare(engine, voice).summary["prompt_tokens"]
    jobs = [protocol.Job(f"{LINE} Number {n}.", voice) for n in ("one", "two", "three", "four")]
    events = run_jobs(engine, jobs)
    first_end = next(i for i, e in enumerate(events) if isinstance(e, (protocol.JobFinished, protocol.JobFailed)))
    started_before_first_end = {e.job_id for e in events[:first_end] if isinstance(e, protocol.JobStarted)}
    assert started_before_first_end == {job.job_id for job in jobs}  # all four ran at once
    for job in jobs:
        assert isinstance(end_of(events, job.job_id), protocol.JobFinished)
        chunks = chunks_of(events, job.job_id)
        assert len(chunks[0].pcm) == first_chunk_samples(prompt_tokens), job.text


def test_cancel_stops_a_running_job_and_the_engine_goes_on(engine: RunningEngine) -> None:
    voice = sample_voice("rex")
    long_text = " ".join([LINE] * 4)
    job = protocol.Job(long_text, voice)
    engine.client.submit(job)

    def first_chunk(event, _seen) -> bool:
        return isinstance(event, protocol.AudioChunk) and event.job_id == job.job_id

    events_until(engine.client, first_chunk, TIMEOUT_S)
    engine.client.cancel(job.job_id)
    events = events_until(engine.client, ended({job.job_id}), TIMEOUT_S)
    failed = end_of(events, job.job_id)
    assert isinstance(failed, protocol.JobFailed) and failed.code == ErrorCode.CANCELLED

    after = protocol.Job("Still here.", voice)
    assert isinstance(end_of(run_jobs(engine, [after]), after.job_id), protocol.JobFinished)


def test_bad_input_fails_with_clear_codes(engine: RunningEngine, tmp_path: Path) -> None:
    voice = sample_voice("maya")
    silent = tmp_path / "silent.wav"
    sf.write(str(silent), np.zeros(48000, dtype=np.float32), 24000)
    jobs = [
        (protocol.Job("   ", voice), ErrorCode.EMPTY_TEXT),
        (protocol.Job("?! …", voice), ErrorCode.NOTHING_SPEAKABLE),
        (protocol.Job("Hello.", protocol.VoiceSpec(str(tmp_path / "nowhere.wav"), "hi")), ErrorCode.CLIP_MISSING),
        (protocol.Job("Hello.", protocol.VoiceSpec(str(silent), "hi")), ErrorCode.CLIP_SILENT),
    ]
    events = run_jobs(engine, [job for job, _ in jobs])
    for job, code in jobs:
        failed = end_of(events, job.job_id)
        assert isinstance(failed, protocol.JobFailed) and failed.code == code, (job.text, failed)
        assert failed.message


def test_instruct_cross_lingual_and_speed(engine: RunningEngine) -> None:
    voice = sample_voice("narrator")
    prompt_tokens = prepare(engine, voice).summary["prompt_tokens"]
    no_transcript = protocol.VoiceSpec(voice.clip_path, "")
    jobs = {
        "instruct": protocol.Job(LINE, protocol.VoiceSpec(voice.clip_path, voice.transcript,
                                        protocol.VoiceSettings(instruction="Speak slowly, like a tired old sailor."))),
        "cross_lingual": protocol.Job(LINE, no_transcript),
        "other_language": protocol.Job("今天的天气很好，我们去公园散步吧。", voice),
        "speed": protocol.Job(LINE, protocol.VoiceSpec(voice.clip_path, voice.transcript, protocol.VoiceSettings(speed=1.5))),
    }
    events = run_jobs(engine, list(jobs.values()))
    for name, job in jobs.items():
        assert isinstance(end_of(events, job.job_id), protocol.JobFinished), name
        assert chunks_of(events, job.job_id), name
    faster = chunks_of(events, jobs["speed"].job_id)[0]
    assert len(faster.pcm) == first_chunk_samples(prompt_tokens, speed=1.5)

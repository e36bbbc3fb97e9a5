"""Playback stalls and per-job record bookkeeping, against hand-computed cases."""

from __future__ import annotations

import pytest

from engine.load.records import JOB_FIELDS, JobRecord, StallTracker, count_stalls


def test_no_stall_when_chunks_arrive_before_the_audio_runs_out() -> None:
    # chunk 1 plays 0-1; chunk 2 (arrived 0.5) plays 1-2; chunk 3 arrives exactly at 2.0
    assert count_stalls([(0.0, 1.0), (0.5, 1.0), (2.0, 1.0)]) == (0, 0.0)


def test_stalls_hand_computed() -> None:
    chunks = [(0.0, 1.0), (0.5, 1.0), (2.5, 0.5), (3.2, 1.0)]
    # plays to 1.0, then to 2.0; 2.5 arrives 0.5 late (stall 1), plays to 3.0;
    # 3.2 arrives 0.2 late (stall 2)
    stalls, seconds = count_stalls(chunks)
    assert stalls == 2
    assert seconds == pytest.approx(0.7)


def test_a_single_chunk_never_stalls() -> None:
    assert count_stalls([(5.0, 0.1)]) == (0, 0.0)
    assert count_stalls([]) == (0, 0.0)


def test_worst_inter_chunk_gap_hand_computed() -> None:
    tracker = StallTracker()
    for arrival, duration in [(0.0, 1.0), (0.5, 1.0), (2.5, 0.5), (3.2, 1.0)]:
        tracker.add(arrival, duration)
    # gaps: 0.5 - 1.0 = -0.5 (cushion), 2.5 - 2.0 = +0.5 (stall), 3.2 - 3.0 = +0.2 (stall)
    assert tracker.max_gap_s == pytest.approx(0.5)
    cushioned = StallTracker()
    for arrival, duration in [(0.0, 1.0), (0.25, 1.0), (1.5, 1.0)]:
        cushioned.add(arrival, duration)
    assert cushioned.max_gap_s == pytest.approx(-0.5)  # never closer than half a second to a stall
    single = StallTracker()
    single.add(1.0, 1.0)
    assert single.max_gap_s is None


def test_tracker_reset_forgets_the_old_attempt() -> None:
    tracker = StallTracker()
    tracker.add(0.0, 0.1)
    tracker.add(1.0, 0.1)
    assert tracker.stalls == 1
    tracker.reset()
    tracker.add(5.0, 0.1)
    assert (tracker.stalls, tracker.stalled_s) == (0, 0.0)


def _record(scheduled: float = 1.0) -> JobRecord:
    return JobRecord(index=0, job_id="a", level=1, level_index=0, warmup=False, user=0, text_kind="long",
                     language="en", chars=3, voice="v.wav", text="abc", scheduled_s=scheduled)


def test_latencies_count_from_the_scheduled_time() -> None:
    rec = _record(scheduled=1.0)
    rec.submit_s = 1.25  # submitted late (an in-flight cap): still counted from 1.0
    rec.add_chunk(2.0, 0.5)
    rec.add_chunk(2.1, 0.5)
    rec.finish(3.0, synth_s=1.5, compute_s=0.4)
    assert rec.first_audio_s == pytest.approx(1.0)
    assert rec.compute_s == pytest.approx(0.4)
    assert rec.max_gap_s == pytest.approx(2.1 - 2.5)
    assert rec.total_s == pytest.approx(2.0)
    assert rec.submit_delay_s == pytest.approx(0.25)
    assert rec.audio_s == pytest.approx(1.0) and rec.chunks == 2
    assert rec.rtf == pytest.approx(1.5)
    assert rec.measured and rec.status == "ok"


def test_restart_after_a_crash_drops_the_audio_of_the_first_attempt() -> None:
    rec = _record()
    rec.add_chunk(2.0, 0.1)
    rec.add_chunk(3.0, 0.1)
    rec.restart()
    assert (rec.chunks, rec.audio_s, rec.stalls, rec.first_audio_s, rec.retries) == (0, 0.0, 0, None, 1)
    assert rec.max_gap_s is None
    rec.add_chunk(4.0, 0.5)
    assert rec.first_audio_s == pytest.approx(3.0)


def test_failed_and_cancelled_jobs() -> None:
    failed = _record()
    failed.fail(2.0, "E_BACKEND", "boom")
    assert failed.measured and failed.error == "E_BACKEND" and failed.total_s == pytest.approx(1.0)
    cancelled = _record()
    cancelled.cancel(2.0)
    assert not cancelled.measured


def test_to_dict_has_every_documented_field() -> None:
    rec = _record()
    rec.voice_cache = "miss"
    data = rec.to_dict()
    assert tuple(data) == JOB_FIELDS
    assert data["cache_hit"] is False and "_stall" not in data

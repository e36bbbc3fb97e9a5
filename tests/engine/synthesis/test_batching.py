"""Batched turns (engine.synthesis.batching): the real Engine and Scheduler, a fake batching backend, a fake clock.

The backend's text ``"A 2 2 1"`` speaks job A in pieces of 2, 2 and 1 seconds; one
``step_batch`` call costs a fixed fake time whatever its size, and each job's piece depends
on that job alone, so every assertion follows from the order of the turns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.core.protocol import (
    AudioChunk,
    ErrorCode,
    JobFailed,
    JobFinished,
    JobStarted,
    Priority,
)
from engine.synthesis.backends.base import SpokenPiece
from engine.synthesis.batching import BatchCosts, finish_by
from engine.synthesis.process import Engine
from engine.synthesis.scheduler import Work
from tests.engine.synthesis.test_scheduler import (
    RATE,
    FakeBackend,
    FakeCache,
    FakeClock,
    Rig,
)

BATCH_S = 0.2  # fake seconds one batched call takes


@dataclass(eq=False)
class FakeJob:
    name: str
    lengths: list[float]
    should_stop: Callable[[], bool]
    done: int = 0
    closed: bool = False
    fail_at: int | None = None  # this piece raises


class BatchingBackend(FakeBackend):
    """FakeBackend's jobs through start/step_batch; ``batches`` records each call's job names."""

    def __init__(self, clock: Any, max_batch: int = 3) -> None:
        super().__init__(clock)
        self.max_batch = max_batch
        self.batches: list[list[str]] = []
        self.fail: dict[str, int] = {}  # job name -> the piece that raises

    def start(self, text: str, profile: Any, settings: Any, should_stop: Callable[[], bool],
              first_piece_chars: int = 0, seed: int | None = None) -> FakeJob:
        name, *lengths = text.split()
        return FakeJob(name, [float(x) for x in lengths], should_stop, fail_at=self.fail.get(name))

    def step_ready(self, job: FakeJob) -> bool:
        return True

    def wait_ready(self, job: FakeJob) -> None:
        pass

    def close(self, job: FakeJob) -> None:
        job.closed = True
        self.closed.append(job.name)

    def step_batch(self, jobs: list[FakeJob]) -> list[Any]:
        self.batches.append([job.name for job in jobs])
        self.clock.now += BATCH_S
        for job in jobs:
            self.during.get(f"{job.name}{job.done}", lambda: None)()
        results: list[Any] = []
        for job in jobs:
            if job.should_stop() or job.done >= len(job.lengths):
                results.append(None)
                continue
            if job.fail_at == job.done:
                results.append(RuntimeError(f"{job.name} broke"))
                continue
            seconds = job.lengths[job.done]
            pcm = np.full(int(round(seconds * RATE)), ord(job.name[0]) + job.done, dtype=np.float32)
            job.done += 1
            results.append(SpokenPiece(pcm, job.name, last=job.done == len(job.lengths)))
        return results


class BatchRig(Rig):
    """test_scheduler's Rig over the batching backend."""

    def __init__(self, max_batch: int = 3, slots: int = 1) -> None:
        self.clock = FakeClock()
        self.backend: BatchingBackend = BatchingBackend(self.clock, max_batch)
        self.stamped = []
        self.engine = Engine(self.backend, FakeCache(), lambda e: self.stamped.append((self.clock.now, e)), slots,
                             100, "fake", clock=self.clock, threaded=False)


def batching_rig(max_batch: int = 3) -> BatchRig:
    return BatchRig(max_batch)


def chunks_of(rig: Rig, name: str) -> list[np.ndarray]:
    return [e.pcm for e in rig.of(AudioChunk, name)]


def test_started_jobs_share_a_call_and_each_keeps_its_own_audio() -> None:
    rig = batching_rig()
    for text in ("A 2 2 1", "B 1 1", "C 3"):
        rig.submit(text)
    rig.engine.run_ready()
    # A job starts as the head of a call; from its second piece on it joins others.
    assert any(len(batch) > 1 for batch in rig.backend.batches), rig.backend.batches
    assert all(len(batch) <= 3 for batch in rig.backend.batches)
    for name, lengths in (("A", [2, 2, 1]), ("B", [1, 1]), ("C", [3])):
        pieces = chunks_of(rig, name)
        assert [len(p) for p in pieces] == [int(x * RATE) for x in lengths]
        assert [float(p[0]) for p in pieces] == [ord(name) + i for i in range(len(lengths))]
        assert len(rig.of(JobFinished, name)) == 1
    assert sorted(rig.backend.closed) == ["A", "B", "C"]


def test_jobs_waiting_to_begin_start_with_the_head_and_share_its_first_call() -> None:
    """A turn starts the admitted jobs no worker has begun (their LLM decodes from then on), so
    jobs that arrive together get their first pieces from one call, in deadline order."""
    rig = batching_rig()
    for text in ("A 1 1", "B 1", "C 1 1", "D 1"):
        rig.submit(text)
    rig.engine.run_ready()
    assert rig.backend.batches[0] == ["A", "B", "C"]
    assert [event.job_id for event in rig.of(JobStarted)][:3] == ["A", "B", "C"]
    assert len(rig.of(JobFinished)) == 4


def test_max_batch_bounds_a_call() -> None:
    rig = batching_rig(max_batch=2)
    for text in ("A 1 1 1", "B 1 1 1", "C 1 1 1", "D 1 1 1"):
        rig.submit(text)
    rig.engine.run_ready()
    assert max(len(batch) for batch in rig.backend.batches) == 2
    assert len(rig.of(JobFinished)) == 4


def test_an_error_in_one_job_fails_that_job_only() -> None:
    rig = batching_rig()
    rig.backend.fail["B"] = 1
    for text in ("A 1 1 1", "B 1 1 1", "C 1 1 1"):
        rig.submit(text)
    rig.engine.run_ready()
    failed = rig.of(JobFailed, "B")
    assert len(failed) == 1 and failed[0].code == ErrorCode.BACKEND and "B broke" in failed[0].message
    assert len(chunks_of(rig, "B")) == 1
    for name in ("A", "C"):
        assert [float(p[0]) for p in chunks_of(rig, name)] == [ord(name) + i for i in range(3)]
        assert len(rig.of(JobFinished, name)) == 1


def test_a_job_cancelled_during_a_call_ends_and_the_others_go_on() -> None:
    rig = batching_rig()
    rig.backend.during["B1"] = lambda: rig.engine.cancel("B")
    for text in ("A 1 1 1", "B 1 1 1", "C 1 1 1"):
        rig.submit(text)
    rig.engine.run_ready()
    cancelled = rig.of(JobFailed, "B")
    assert len(cancelled) == 1 and cancelled[0].code == ErrorCode.CANCELLED
    assert len(chunks_of(rig, "B")) == 1  # the piece computed while it was cancelled is dropped
    assert "B" in rig.backend.closed
    for name in ("A", "C"):
        assert [float(p[0]) for p in chunks_of(rig, name)] == [ord(name) + i for i in range(3)]


def test_a_job_that_joins_later_joins_running_batches() -> None:
    rig = batching_rig()
    rig.submit("A 1 1 1 1 1 1")
    rig.engine.run_ready(max_turns=2)
    rig.submit("B 1 1 1", at=rig.clock.now)
    rig.engine.run_ready()
    assert any(sorted(batch) == ["A", "B"] for batch in rig.backend.batches), rig.backend.batches
    assert [float(p[0]) for p in chunks_of(rig, "A")] == [ord("A") + i for i in range(6)]


def test_batch_costs_extrapolate_without_assuming_a_gain() -> None:
    costs = BatchCosts()
    assert costs.estimate(4) == 0.0
    costs.record(1, 0.1)
    assert costs.estimate(3) == 0.1 * 3
    costs.record(2, 0.12)
    assert costs.estimate(2) == 0.12 and abs(costs.estimate(4) - 0.24) < 1e-12


def test_a_job_on_time_alone_is_never_made_late_by_a_batch() -> None:
    rig = batching_rig()
    batcher = rig.engine.batcher
    assert batcher is not None
    batcher.costs.record(1, 0.1)
    batcher.costs.record(2, 1.0)
    streaming = Work("S", arrived=0.0, priority=Priority.BATCH, payload=None)
    streaming.pieces, streaming.slowest_piece_s = 1, 0.1
    streaming.playback.add(0.0, 1.0)  # its listener runs out of audio at 1.0 s
    newcomer = Work("N", arrived=0.0, priority=streaming.priority, payload=None)
    assert finish_by(newcomer) == 0.0  # a first piece is due at once: late anyway
    head = Work("H", arrived=0.0, priority=streaming.priority, payload=None)

    class Run:
        state = object()

    streaming.payload = Run()
    newcomer.payload = Run()
    # S must be ready by 1.0 - 0.25 margin: 0.1 alone keeps it on time, 1.0 together would not.
    assert not batcher._fits(streaming, [head], now=0.0)
    assert batcher._fits(newcomer, [head], now=0.0)
    assert batcher._fits(streaming, [head], now=-1.0)

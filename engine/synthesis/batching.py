"""Batched turns: one worker computes the next piece of several jobs in one backend call.

For a backend with ``max_batch > 1`` (see :mod:`engine.synthesis.backends.base`), a worker's turn is:

1. take the work due first (the scheduler's policy, unchanged) — the batch's head. On its
   first turn the job starts (JobStarted, its voice from the cache, ``backend.start``);
2. start every other admitted job no worker has begun yet (up to ``max_batch``) and hand it
   back in its place: its LLM decodes from now on, as each job's LLM thread does from its start
   in the per-job path, so its first piece can share a batch instead of waiting for a turn of
   its own to begin decoding (a profile at 4 users found those fresh jobs were the only other
   work in the queue at most turns, and none of them could join);
3. wait until the head's next piece can be computed (its tokens exist);
4. add further ready jobs of the backend, in deadline order, up to ``max_batch`` in all, while
   the batch keeps every job in it on time: a job whose piece would be on time alone must
   still be on time at the batch's expected compute time (:class:`BatchCosts`); a job that is
   late anyway (a first piece is due at its arrival) adds no limit, as a batch serves it no
   later than the pieces ahead of it would. Jobs whose tokens are not ready are not added:
   they would make the others wait;
5. call ``backend.step_batch`` once, then deliver, fail or end each job as a one-job turn
   does (engine.synthesis.process) and hand the rest back with their new deadlines.

Cancellation stays per job: a job cancelled during the call is closed and reported, and its
piece is dropped; the other jobs' pieces are theirs alone (the backend computes each job's
piece as if alone).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from engine.core.protocol import PrepareVoice
from engine.synthesis.jobs import EngineWork, JobCancelled, JobRun

if TYPE_CHECKING:
    from engine.synthesis.backends.base import (
        Backend,
        BatchingBackend,
        SpokenPiece,
        VoiceProfile,
    )

COST_SMOOTHING = 0.3  # weight of the newest call in a batch size's moving average


class BatchHost(Protocol):
    """What a batched turn needs of its engine (:class:`engine.synthesis.process.Engine`): its
    clock, its scheduler's queue, and the steps a one-job turn takes too."""

    def clock(self) -> float: ...

    def take_also(self, accept: Callable[[EngineWork], bool], limit: int) -> list[EngineWork]:
        """Up to ``limit`` more admitted works that ``accept`` takes, in deadline order."""
        ...

    def put_back(self, work: EngineWork) -> None:
        """Hand a work back with its new deadline."""
        ...

    def open_job(self, work: EngineWork, run: JobRun) -> tuple[VoiceProfile, int, int]:
        """A job's first turn: its voice, first piece's length in characters and seed."""
        ...

    def fail(self, work: EngineWork, run: JobRun, error: BaseException) -> None:
        """End a job that failed or was cancelled (:class:`JobCancelled`)."""
        ...

    def deliver(self, work: EngineWork, run: JobRun, piece: SpokenPiece | None, compute_s: float) -> bool:
        """Send a computed piece (None: the stream ended); True when the job goes on."""
        ...


class BatchCosts:
    """Expected wall time of one batched call by its size, learnt from the calls so far.

    A size never measured is extrapolated from the largest smaller one measured, in proportion
    to size (no batching gain assumed until one is seen); with nothing measured, 0."""

    def __init__(self) -> None:
        self._seconds: dict[int, float] = {}
        self._lock = threading.Lock()

    def record(self, size: int, seconds: float) -> None:
        with self._lock:
            old = self._seconds.get(size)
            self._seconds[size] = seconds if old is None else old + COST_SMOOTHING * (seconds - old)

    def estimate(self, size: int) -> float:
        with self._lock:
            if size in self._seconds:
                return self._seconds[size]
            smaller = [known for known in self._seconds if known < size]
            if not smaller:
                return 0.0
            known = max(smaller)
            return self._seconds[known] * size / known


def finish_by(work: EngineWork) -> float:
    """When the work's next piece must be ready: its deadline to start, plus the compute time
    the deadline already allows for (its slowest piece); a first piece is due at once."""
    return work.deadline() + (work.slowest_piece_s if work.pieces else 0.0)


def job_run(work: EngineWork) -> JobRun:
    """The stream of a job's work (``work.is_job``), the only kind a batch holds."""
    run = work.payload
    if isinstance(run, PrepareVoice):  # the engine serves voice preparations outside batches
        raise TypeError(f"{run.request_id} is a voice preparation, not a job")
    return run


def batching_backend(backend: Backend) -> BatchingBackend[object] | None:
    """The backend's batched steps when it computes several jobs' pieces in one call, else None."""
    from engine.synthesis.backends.base import BatchingBackend

    return backend if isinstance(backend, BatchingBackend) and backend.max_batch > 1 else None


class Batcher:
    """The batched turns of one engine (see the module docstring)."""

    def __init__(self, engine: BatchHost, backend: BatchingBackend[object]) -> None:
        self.engine = engine
        self.backend = backend
        self.costs = BatchCosts()

    def serve(self, head: EngineWork, run: JobRun) -> None:
        """One batched turn whose head is ``head``, a job's work carrying ``run``."""
        engine = self.engine
        if not self._open(head, run):
            return
        self._start_fresh()
        self.backend.wait_ready(run.state)
        batch = [head]
        if not head.cancelled:
            now = engine.clock()
            batch += engine.take_also(lambda work: self._fits(work, batch, now), self.backend.max_batch - 1)
        began = engine.clock()
        try:
            results: list[SpokenPiece | BaseException | None] = self.backend.step_batch(
                [job_run(work).state for work in batch])
        except Exception as error:  # noqa: BLE001 - a fault outside any one job fails the batch
            results = [error] * len(batch)
        compute_s = engine.clock() - began
        self.costs.record(len(batch), compute_s)
        for work, result in zip(batch, results):
            self._finish_turn(work, result, compute_s)

    def _start_fresh(self) -> None:
        """Step 2: start the admitted jobs no worker has begun, and hand them back."""
        fresh = self.engine.take_also(
            lambda work: work.is_job and job_run(work).state is None and not work.cancelled, self.backend.max_batch)
        for work in fresh:
            if self._open(work, job_run(work)):
                self.engine.put_back(work)

    def _open(self, work: EngineWork, run: JobRun) -> bool:
        """Start the job on its first turn; False when it ended instead (cancelled, failed)."""
        try:
            if work.cancelled:
                raise JobCancelled()
            if run.state is None:
                profile, budget, seed = self.engine.open_job(work, run)
                run.backend = self.backend
                run.state = self.backend.start(run.job.text, profile, run.job.voice.settings,
                                               lambda: work.cancelled, first_piece_chars=budget, seed=seed)
        except Exception as error:  # noqa: BLE001 - any backend fault becomes an event
            self.engine.fail(work, run, error)
            return False
        return True

    def _fits(self, work: EngineWork, batch: list[EngineWork], now: float) -> bool:
        """Whether ``work`` may join ``batch`` (see the module docstring, step 3)."""
        if not work.is_job or job_run(work).state is None:
            return False
        if work.cancelled:
            return False  # a worker of its own closes it at once
        if not self.backend.step_ready(job_run(work).state):
            return False
        alone = self.costs.estimate(1)
        together = self.costs.estimate(len(batch) + 1)
        for member in (*batch, work):
            limit = finish_by(member)
            if now + alone <= limit < now + together:
                return False
        return True

    def _finish_turn(self, work: EngineWork, result: SpokenPiece | BaseException | None, compute_s: float) -> None:
        """Deliver one job's piece, or end it (finished, failed, cancelled)."""
        run = job_run(work)
        if work.cancelled:
            result = JobCancelled()
        if isinstance(result, BaseException):
            self.engine.fail(work, run, result)
            return
        if self.engine.deliver(work, run, result, compute_s):
            self.engine.put_back(work)


__all__ = ["BatchCosts", "BatchHost", "Batcher", "batching_backend", "finish_by"]

"""The engine process: a priority queue, N worker threads (slots), the voice cache, a backend.

The process's main thread reads requests; worker threads take jobs from the queue, prepare
their voice through the cache and stream the backend's pieces out as AudioChunk events.
"""

from __future__ import annotations

import heapq
import itertools
import os
import signal
import site
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from engine.protocol import (
    AudioChunk,
    CancelJob,
    EngineError,
    EngineReady,
    EngineStopped,
    ErrorCode,
    Event,
    GetStats,
    Job,
    JobFailed,
    JobFinished,
    JobQueued,
    JobStarted,
    JobTiming,
    PrepareVoice,
    Priority,
    RequestFailed,
    SetSlots,
    Shutdown,
    SlotsChanged,
    Stats,
    SubmitJob,
    VoicePrepared,
)

MAX_SLOTS = 16


def default_slots() -> int:
    """Two jobs at once on small machines (best throughput measured with Piper on 2 cores)."""
    return max(1, min(4, os.cpu_count() or 1))


@dataclass
class _Task:
    """A queued unit of work: a job, or a voice preparation asked for ahead of time."""

    priority: int
    queued_at: float
    job: Job | None = None
    prepare: PrepareVoice | None = None
    cancelled: bool = False

    @property
    def task_id(self) -> str:
        return self.job.job_id if self.job else self.prepare.request_id  # type: ignore[union-attr]


@dataclass
class _Counters:
    finished: int = 0
    failed: int = 0


@dataclass
class EngineSettings:
    """Everything the child needs to start; plain data so it pickles across spawn."""

    backend: str = "piper"
    backend_options: dict[str, Any] = field(default_factory=dict)
    slots: int | None = None
    cache_dir: str | None = None
    max_queue: int = 256
    parent_prefix: str | None = None  # set when the engine runs under another interpreter


class Engine:
    """Scheduling and slots around a backend and a voice cache; emits protocol events."""

    def __init__(self, backend: Any, cache: Any, emit: Callable[[Event], None], slots: int, max_queue: int,
                 backend_name: str) -> None:
        self.backend = backend
        self.cache = cache
        self.emit = emit
        self.max_queue = max_queue
        self.backend_name = backend_name
        self.started_at = time.monotonic()
        self._cond = threading.Condition()
        self._heap: list[tuple[int, int, _Task]] = []
        self._queued: dict[str, _Task] = {}
        self._running: dict[str, _Task] = {}
        self._order = itertools.count()
        self._slots = 0
        self._workers = 0
        self._stopping = False
        self._threads: list[threading.Thread] = []
        self.counters = _Counters()
        self.set_slots(slots)

    @property
    def slots(self) -> int:
        return self._slots

    # --- requests -------------------------------------------------------------------------

    def handle(self, request: Any) -> bool:
        """Handle one request; False when the engine should stop."""
        if isinstance(request, SubmitJob):
            self.submit(request.job)
        elif isinstance(request, CancelJob):
            self.cancel(request.job_id)
        elif isinstance(request, SetSlots):
            self.set_slots(request.slots)
        elif isinstance(request, PrepareVoice):
            self._enqueue(_Task(Priority.INTERACTIVE, time.monotonic(), prepare=request))
        elif isinstance(request, GetStats):
            self.emit(self.stats(request.request_id))
        elif isinstance(request, Shutdown):
            return False
        return True

    def submit(self, job: Job) -> None:
        if not job.text.strip():
            self._fail(job.job_id, ErrorCode.EMPTY_TEXT, "The line is empty: type something to speak")
            return
        try:
            self.backend.check_text(job.text)
        except EngineError as error:
            self._fail(job.job_id, error.code, error.message)
            return
        with self._cond:
            duplicate = job.job_id in self._queued or job.job_id in self._running
        if duplicate:
            self._fail(job.job_id, ErrorCode.DUPLICATE_JOB, f"Job {job.job_id} is already queued or running")
            return
        self._enqueue(_Task(int(job.priority), time.monotonic(), job=job))

    def _enqueue(self, task: _Task) -> None:
        with self._cond:
            full = len(self._queued) >= self.max_queue
            if not full:
                heapq.heappush(self._heap, (task.priority, next(self._order), task))
                self._queued[task.task_id] = task
                position = sum(1 for other in self._queued.values() if other.priority <= task.priority) - 1
                self._cond.notify()
        if full:
            message = f"The engine queue is full ({self.max_queue} jobs waiting); try again when some finish"
            if task.job:
                self._fail(task.task_id, ErrorCode.QUEUE_FULL, message)
            else:
                self.emit(RequestFailed(task.task_id, ErrorCode.QUEUE_FULL, message))
            return
        if task.job:
            self.emit(JobQueued(task.task_id, position))

    def cancel(self, job_id: str) -> None:
        with self._cond:
            task = self._queued.pop(job_id, None) or self._running.get(job_id)
            if task is None:
                return
            task.cancelled = True
            was_queued = job_id not in self._running
        if was_queued:  # still in the heap; workers skip cancelled tasks
            self._fail(job_id, ErrorCode.CANCELLED, "Cancelled before it started")

    def set_slots(self, slots: int) -> None:
        slots = max(1, min(MAX_SLOTS, int(slots)))
        with self._cond:
            self._slots = slots
            missing = slots - self._workers
            self._workers += max(0, missing)
            self._cond.notify_all()  # surplus workers notice and retire after their current task
        for _ in range(max(0, missing)):
            thread = threading.Thread(target=self._work, name="engine-slot", daemon=True)
            self._threads.append(thread)
            thread.start()
        self.backend.set_slots(slots)
        self.emit(SlotsChanged(slots))

    def stats(self, request_id: str) -> Stats:
        counters = self.cache.counters
        with self._cond:
            queued, running = len(self._queued), len(self._running)
        return Stats(
            request_id=request_id,
            pid=os.getpid(),
            backend=self.backend_name,
            slots=self._slots,
            queued=queued,
            running=running,
            jobs_finished=self.counters.finished,
            jobs_failed=self.counters.failed,
            cache_memory_hits=counters.memory_hits,
            cache_disk_hits=counters.disk_hits,
            cache_misses=counters.misses,
            cache_rebuilt=counters.rebuilt,
            prepare_s_total=round(counters.prepare_s_total, 4),
            uptime_s=round(time.monotonic() - self.started_at, 3),
        )

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            for task in self._running.values():
                task.cancelled = True
            self._cond.notify_all()
        for thread in self._threads:
            thread.join(timeout=5)

    # --- workers --------------------------------------------------------------------------

    def _next_task(self) -> _Task | None:
        """Block until there is work; None when this worker should retire."""
        with self._cond:
            while True:
                if self._stopping or self._workers > self._slots:
                    self._workers -= 1
                    return None
                while self._heap and self._heap[0][2].cancelled:
                    heapq.heappop(self._heap)
                if self._heap:
                    task = heapq.heappop(self._heap)[2]
                    self._queued.pop(task.task_id, None)
                    self._running[task.task_id] = task
                    return task
                self._cond.wait()

    def _work(self) -> None:
        while (task := self._next_task()) is not None:
            try:
                if task.job:
                    self._run_job(task)
                else:
                    self._run_prepare(task)
            finally:
                with self._cond:
                    self._running.pop(task.task_id, None)

    def _run_prepare(self, task: _Task) -> None:
        request = task.prepare
        assert request is not None
        try:
            found = self.cache.lookup(request.voice)
        except EngineError as error:
            self.emit(RequestFailed(request.request_id, error.code, error.message))
            return
        except Exception as error:  # noqa: BLE001 - any backend fault becomes an event
            traceback.print_exc()
            self.emit(RequestFailed(request.request_id, ErrorCode.BACKEND, f"{type(error).__name__}: {error}"))
            return
        self.emit(VoicePrepared(request.request_id, found.profile.key, found.source, round(found.seconds, 4),
                                dict(found.profile.meta)))

    def _run_job(self, task: _Task) -> None:
        job = task.job
        assert job is not None
        started = time.monotonic()
        wait = started - task.queued_at
        self.emit(JobStarted(job.job_id, wait))
        rate = self.backend.capabilities.sample_rate
        chunks = 0
        samples = 0
        first_chunk_s = 0.0
        try:
            found = self.cache.lookup(job.voice)
            for piece in self.backend.synthesize(job.text, found.profile, job.voice.settings,
                                                 lambda: task.cancelled):
                if task.cancelled:
                    break
                if chunks == 0:
                    first_chunk_s = time.monotonic() - started
                self.emit(AudioChunk(job.job_id, chunks, piece.pcm, rate, piece.text))
                chunks += 1
                samples += len(piece.pcm)
        except EngineError as error:
            self._fail(job.job_id, error.code, error.message)
            return
        except Exception as error:  # noqa: BLE001 - any backend fault becomes an event
            traceback.print_exc()
            self._fail(job.job_id, ErrorCode.BACKEND, f"{type(error).__name__}: {error}")
            return
        if task.cancelled:
            self._fail(job.job_id, ErrorCode.CANCELLED, "Cancelled while speaking")
            return
        timing = JobTiming(
            queue_wait_s=round(wait, 4),
            voice_prepare_s=round(found.seconds, 4),
            voice_cache=found.source,
            first_chunk_s=round(first_chunk_s, 4),
            synth_s=round(time.monotonic() - started, 4),
            audio_s=round(samples / rate, 4),
            chunks=chunks,
        )
        with self._cond:
            self.counters.finished += 1
        self.emit(JobFinished(job.job_id, timing))

    def _fail(self, job_id: str, code: ErrorCode, message: str) -> None:
        with self._cond:
            self.counters.failed += 1
        self.emit(JobFailed(job_id, code, message))


def _use_own_environment(parent_prefix: str) -> None:
    """Under another interpreter, drop the parent's site-packages that spawn copied over."""
    sys.path[:] = [p for p in sys.path if not p.startswith(parent_prefix)]
    for directory in site.getsitepackages():
        site.addsitedir(directory)


def engine_main(settings: EngineSettings, requests: Any, events: Any) -> None:
    """Entry point of the engine process (the target of the spawned Process)."""
    started = time.monotonic()
    # Ctrl-C in a terminal reaches the whole process group; the client decides when we stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if settings.parent_prefix:
        _use_own_environment(settings.parent_prefix)
    from engine.backends import create_backend
    from engine.voices import SpeakerEncoder, VoiceCache, default_cache_dir

    try:
        backend = create_backend(settings.backend, settings.backend_options)
        backend.load()
        cache_dir = Path(settings.cache_dir) if settings.cache_dir else default_cache_dir()
        cache = VoiceCache(cache_dir, backend, settings.backend, SpeakerEncoder())
    except Exception as error:  # noqa: BLE001 - reported to the client, which raises it
        traceback.print_exc()
        code = error.code if isinstance(error, EngineError) else ErrorCode.ENGINE_START
        events.put(RequestFailed("engine-start", code, f"The engine could not start: {type(error).__name__}: {error}"))
        return
    slots = settings.slots or backend.suggested_slots(os.cpu_count() or 1) or default_slots()
    engine = Engine(backend, cache, events.put, slots, settings.max_queue, settings.backend)
    events.put(EngineReady(backend.capabilities, engine.slots, os.getpid(), round(time.monotonic() - started, 4),
                           backend.facts()))
    while True:
        request = requests.get()
        if not engine.handle(request):
            break
    engine.stop()
    events.put(EngineStopped())


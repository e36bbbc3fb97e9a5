"""The engine process: the piece scheduler, N worker threads (slots), the voice cache, a backend.

The process's main thread reads requests; worker threads take the piece due first (see
:mod:`engine.synthesis.scheduler`), prepare its job's voice through the cache on its first piece, and
stream the backend's pieces out as AudioChunk events.
"""

from __future__ import annotations

import os
import signal
import site
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from engine.core.languages import language_refusal
from engine.core.lifeline import hold_to_parent
from engine.core.protocol import (
    LOADING,
    OPENING_CACHE,
    SLOTS,
    STARTED,
    VARIANT,
    WARMING_UP,
    AudioChunk,
    BackendName,
    CancelJob,
    EngineError,
    EnginePhrase,
    EngineReady,
    EngineStarting,
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
    Request,
    RequestFailed,
    SetSlots,
    Shutdown,
    SlotsChanged,
    Stats,
    SubmitJob,
    VoicePrepared,
    plain_facts,
    synthesis_seed,
)
from engine.core.text import control_character, first_piece_chars
from engine.synthesis.allocator import keep_freed_memory
from engine.synthesis.backends import declared_languages
from engine.synthesis.batching import Batcher, batching_backend
from engine.synthesis.config import EngineConfig, default_slots
from engine.synthesis.jobs import EngineWork, JobCancelled, JobRun
from engine.synthesis.scheduler import Scheduler, Work, default_max_active

if TYPE_CHECKING:  # the client imports this module; keep numpy out of that import
    from multiprocessing.queues import Queue

    from engine.synthesis.backends.base import (
        Backend,
        SpokenPiece,
        VoiceProfile,
    )
    from engine.synthesis.voices import VoiceCache

# On shutdown, voices still finishing their preparation (embedding, resemblance) get this long
# to write their cache entries, well within the client's patience (engine.synthesis.client.local.CLOSE_TIMEOUT_S).
FINISH_VOICES_S = 5.0


@dataclass
class _Counters:
    finished: int = 0
    failed: int = 0


class Engine:
    """Admission, the piece scheduler and the slots around a backend and a voice cache.

    ``slots`` worker threads compute pieces; each takes the work due first from the
    :class:`~engine.synthesis.scheduler.Scheduler`, advances that job's stream by one piece, sends the
    chunk and hands the job back with its new deadline. A job is never advanced by two
    workers at once, so its chunks leave in order. A backend without ``piece_scheduling``
    keeps a job on one worker until it ends (see :class:`engine.synthesis.backends.base.Backend`).

    With ``threaded=False`` no worker threads start and :meth:`run_ready` serves work on the
    calling thread: tests drive the real scheduling that way with a fake backend and clock.
    """

    def __init__(self, backend: Backend, cache: VoiceCache, emit: Callable[[Event], None], slots: int, max_queue: int,
                 backend_name: str, max_active: int | None = None, clock: Callable[[], float] = time.monotonic,
                 threaded: bool = True) -> None:
        self.backend = backend
        self.cache = cache
        self.emit = emit
        self.max_queue = max_queue
        self.backend_name = backend_name
        self.clock = clock
        self.threaded = threaded
        # A backend that computes several jobs' pieces in one call gets batched turns.
        batching = batching_backend(backend)
        self.batcher = Batcher(self, batching) if batching is not None else None
        self.started_at = clock()
        lock = threading.RLock()
        self._cond = threading.Condition(lock)  # workers wait on it for work
        self._idle = threading.Condition(lock)  # the warm-up waits on it for an engine without work
        self.warming_up = False  # set while the voice cache's warm-up has steps left (Stats.warming_up)
        self._max_active = max_active  # None: follows the slots
        self._scheduler: Scheduler[JobRun | PrepareVoice] = Scheduler(max_active or default_max_active(slots))
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

    def handle(self, request: Request) -> bool:
        """Handle one request; False when the engine should stop."""
        if isinstance(request, SubmitJob):
            self.submit(request.job)
        elif isinstance(request, CancelJob):
            self.cancel(request.job_id)
        elif isinstance(request, SetSlots):
            try:
                self.set_slots(request.slots)
            except EngineError as error:  # a client that did not check: refused, never clamped
                self.emit(RequestFailed("set-slots", error.code, error.message))
        elif isinstance(request, PrepareVoice):
            self._add(Work(request.request_id, self.clock(), Priority.INTERACTIVE, request, is_job=False))
        elif isinstance(request, GetStats):
            self.emit(self.stats(request.request_id))
        elif isinstance(request, Shutdown):
            return False
        return True

    def submit(self, job: Job) -> None:
        if not job.text.strip():
            self._fail(job.job_id, ErrorCode.EMPTY_TEXT, "The line is empty: type something to speak")
            return
        if (control := control_character(job.text)) is not None:
            self._fail(job.job_id, ErrorCode.BAD_REQUEST,
                       f"The line holds a control character ({control[1]}), which is not text; remove it")
            return
        try:
            VARIANT.check(job.variant)
            # NaN, or a speed or pitch outside the backend's range: refused, never clamped
            job.voice.settings.check(self.backend.capabilities.speed)
            # A line in a language the loaded backend does not declare is refused before any
            # synthesis, for every client (say, render, the studio, a server's callers).
            caps = self.backend.capabilities
            refusal = language_refusal(job.text, job.voice.settings.language, caps.name, caps.languages,
                                       declared_languages())
            if refusal is not None:
                raise refusal
            self.backend.check_text(job.text)
        except EngineError as error:
            self._fail(job.job_id, error.code, error.message)
            return
        with self._cond:
            duplicate = job.job_id in self._scheduler.works
        if duplicate:
            self._fail(job.job_id, ErrorCode.DUPLICATE_JOB, f"Job {job.job_id} is already queued or running")
            return
        self._add(Work(job.job_id, self.clock(), job.priority, JobRun(job), listening=job.listening))

    def _add(self, work: EngineWork) -> None:
        with self._cond:
            full = self._scheduler.not_started >= self.max_queue
            if not full:
                position = self._scheduler.add(work)
                if work.is_job:  # under the lock, so it always precedes the job's JobStarted
                    self.emit(JobQueued(work.work_id, position))
                self._cond.notify()
                self._idle.notify_all()  # a warm-up counting its quiet time starts again
        if full:
            message = f"The engine queue is full ({self.max_queue} jobs waiting); try again when some finish"
            if work.is_job:
                self._fail(work.work_id, ErrorCode.QUEUE_FULL, message)
            else:
                self.emit(RequestFailed(work.work_id, ErrorCode.QUEUE_FULL, message))

    def cancel(self, job_id: str) -> None:
        """Cancel a job: one not started ends here; a started one is closed by a worker."""
        with self._cond:
            never_started = self._scheduler.cancel(job_id, self.clock())
            self._cond.notify()
            self._idle.notify_all()
        if never_started is not None and never_started.is_job:
            self._fail(job_id, ErrorCode.CANCELLED, "Cancelled before it started")

    def set_slots(self, slots: int) -> None:
        SLOTS.check(slots)
        with self._cond:
            self._slots = slots
            if self._max_active is None:
                self._scheduler.set_max_active(default_max_active(slots), self.clock())
            missing = slots - self._workers if self.threaded else 0
            self._workers += max(0, missing)
            self._cond.notify_all()  # surplus workers notice and retire after their current piece
        for _ in range(max(0, missing)):
            thread = threading.Thread(target=self._work, name="engine-slot", daemon=True)
            self._threads.append(thread)
            thread.start()
        self.backend.set_slots(slots)
        self.emit(SlotsChanged(slots))

    def stats(self, request_id: str) -> Stats:
        counters = self.cache.counters
        with self._cond:
            queued, running = self._scheduler.not_started, self._scheduler.running
            computing = self._scheduler.computing
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
            uptime_s=round(self.clock() - self.started_at, 3),
            computing=computing,
            warming_up=int(self.warming_up),
        )

    def warm_up_over(self) -> None:
        self.warming_up = False

    def wait_idle(self, quiet_s: float) -> bool:
        """Block until the engine has had no work at all (see Scheduler.idle) for ``quiet_s``
        seconds; False when it is stopping. The warm-up calls it before each step, so no step
        starts while a job or a voice preparation is pending, and the quiet time keeps a step
        from starting in the gap between a closed-loop user's job and its next one."""
        with self._idle:
            while True:
                if self._stopping:
                    return False
                if self._scheduler.idle:
                    # Woken early by new work (or stop): look again; else the quiet time passed.
                    if not self._idle.wait(quiet_s) and self._scheduler.idle and not self._stopping:
                        return True
                    continue
                self._idle.wait()

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            for work in self._scheduler.works.values():
                work.cancelled = True
            self._cond.notify_all()
            self._idle.notify_all()
        for thread in self._threads:
            thread.join(timeout=5)

    def run_ready(self, max_turns: int | None = None) -> int:
        """Serve ready work on the calling thread, one turn at a time, until none is left or
        ``max_turns`` were served; returns the turns served. For engines built with
        ``threaded=False`` (tests drive the real scheduling with a fake backend and clock)."""
        served = 0
        while max_turns is None or served < max_turns:
            work = self._take(block=False)
            if work is None:
                break
            self._serve(work)
            served += 1
        return served

    # --- workers --------------------------------------------------------------------------

    def _take(self, block: bool) -> EngineWork | None:
        """The work due first, held by the caller; None when none is ready (not blocking) or
        when this worker should retire (blocking)."""
        with self._cond:
            while True:
                if self._stopping or (block and self._workers > self._slots):
                    if block:
                        self._workers -= 1
                    return None
                work = self._scheduler.take()
                if work is not None or not block:
                    return work
                self._cond.wait()

    def _work(self) -> None:
        while (work := self._take(block=True)) is not None:
            self._serve(work)

    def _serve(self, work: EngineWork) -> None:
        """One turn of a work: a voice preparation, or the next piece (job-level: every piece)."""
        run = work.payload
        if isinstance(run, PrepareVoice):
            self._run_prepare(work, run)
            self._end(work)
            return
        if self.batcher is not None:
            self.batcher.serve(work, run)
            return
        while self._step(work, run):
            if self.backend.piece_scheduling:
                self.put_back(work)
                return

    def _run_prepare(self, work: EngineWork, request: PrepareVoice) -> None:
        if work.cancelled:
            return
        try:
            found = self.cache.lookup(request.voice)
        except EngineError as error:
            self.emit(RequestFailed(request.request_id, error.code, error.message))
            return
        except Exception as error:  # noqa: BLE001 - any backend fault becomes an event
            traceback.print_exc()
            self.emit(RequestFailed(request.request_id, ErrorCode.BACKEND, f"{type(error).__name__}: {error}"))
            return
        # The voice can speak now; the answer waits for the rest of its preparation (embedding,
        # resemblance), which the cache finishes in the background without holding this slot.
        found.when_complete(lambda complete: self.emit(VoicePrepared(
            request.request_id, complete.profile.key, complete.source, round(complete.seconds, 4),
            dict(complete.profile.meta))))

    def _step(self, work: EngineWork, run: JobRun) -> bool:
        """Compute and send the job's next piece; True when the job goes on, False when it ended."""
        job = run.job
        try:
            if work.cancelled:
                raise JobCancelled()
            if run.pieces is None:
                profile, budget, seed = self.open_job(work, run)
                run.pieces = iter(self.backend.synthesize(job.text, profile, job.voice.settings, lambda: work.cancelled,
                                                          first_piece_chars=budget, seed=seed))
            began = self.clock()
            piece = next(run.pieces, None)
            compute_s = self.clock() - began
            if work.cancelled:
                raise JobCancelled()
        except Exception as error:  # noqa: BLE001 - any backend fault becomes an event
            self.fail(work, run, error)
            return False
        return self.deliver(work, run, piece, compute_s)

    # --- what the batcher uses (engine.synthesis.batching.BatchHost) ------------------------

    def take_also(self, accept: Callable[[EngineWork], bool], limit: int) -> list[EngineWork]:
        """Up to ``limit`` more admitted works that ``accept`` takes, in deadline order."""
        with self._cond:
            return self._scheduler.take_also(accept, limit)

    def put_back(self, work: EngineWork) -> None:
        """Hand a work back to the scheduler with its new deadline, and wake a worker for it."""
        with self._cond:
            self._scheduler.put_back(work)
            self._cond.notify()

    def open_job(self, work: EngineWork, run: JobRun) -> tuple[VoiceProfile, int, int]:
        """A job's first turn: JobStarted, its voice from the cache; returns the voice, its
        first piece's length in characters and the seed of its reading."""
        job = run.job
        run.started_at = self.clock()
        self.emit(JobStarted(job.job_id, run.started_at - work.arrived))
        found = self.cache.lookup(job.voice)
        run.voice_source, run.voice_prepare_s = found.source, found.seconds
        seed = synthesis_seed(found.profile.key, job.text, job.voice.settings, job.variant)
        with self._cond:  # under load the first piece is shorter: its compute gets fewer cores
            return found.profile, first_piece_chars(self._scheduler.admitted_jobs, self._slots, job.listening), seed

    def fail(self, work: EngineWork, run: JobRun, error: BaseException) -> None:
        """End a job that was cancelled (``JobCancelled``) or failed, closing its stream."""
        job = run.job
        run.close()
        if isinstance(error, JobCancelled):
            said = "while speaking" if run.chunks else "before it started"
            self._end(work, JobFailed(job.job_id, ErrorCode.CANCELLED, f"Cancelled {said}"))
        elif isinstance(error, EngineError):
            self._end(work, JobFailed(job.job_id, error.code, error.message))
        else:
            traceback.print_exception(error)
            self._end(work, JobFailed(job.job_id, ErrorCode.BACKEND, f"{type(error).__name__}: {error}"))

    def deliver(self, work: EngineWork, run: JobRun, piece: SpokenPiece | None, compute_s: float) -> bool:
        """Send a computed piece (None: the stream ended); True when the job goes on."""
        job = run.job
        run.compute_s += compute_s
        if piece is None:
            self._end(work, self._finished(work, run))
            return False
        rate = self.backend.capabilities.sample_rate
        self.emit(AudioChunk(job.job_id, run.chunks, piece.pcm, rate, piece.text))
        now = self.clock()
        if run.chunks == 0:
            run.first_chunk_s = now - run.started_at
        run.last_chunk_s = now - run.started_at
        run.chunks += 1
        run.samples += len(piece.pcm)
        with self._cond:
            self._scheduler.piece_done(work, now, len(piece.pcm) / rate, compute_s)
        if piece.last:  # the backend says nothing follows: end now rather than at its next turn
            run.close()
            self._end(work, self._finished(work, run))
            return False
        return True

    def _finished(self, work: EngineWork, run: JobRun) -> JobFinished:
        rate = self.backend.capabilities.sample_rate
        timing = JobTiming(
            queue_wait_s=round(run.started_at - work.arrived, 4),
            voice_prepare_s=round(run.voice_prepare_s, 4),
            voice_cache=run.voice_source,
            first_chunk_s=round(run.first_chunk_s, 4),
            synth_s=round(run.last_chunk_s, 4),
            audio_s=round(run.samples / rate, 4),
            chunks=run.chunks,
            compute_s=round(run.compute_s, 4),
        )
        return JobFinished(run.job.job_id, timing)

    def _end(self, work: EngineWork, event: JobFinished | JobFailed | None = None) -> None:
        """The work is over: free its place (a waiting job may be admitted), then report it."""
        with self._cond:
            self._scheduler.end(work, self.clock())
            if isinstance(event, JobFinished):
                self.counters.finished += 1
            elif isinstance(event, JobFailed):
                self.counters.failed += 1
            self._cond.notify_all()
            self._idle.notify_all()
        if event is not None:
            self.emit(event)

    def _fail(self, job_id: str, code: ErrorCode, message: str) -> None:
        """Report a job that failed before the scheduler took it (or was cancelled there)."""
        with self._cond:
            self.counters.failed += 1
        self.emit(JobFailed(job_id, code, message))


def _use_own_environment(parent_prefix: str) -> None:
    """Under another interpreter, drop the parent's site-packages that spawn copied over."""
    sys.path[:] = [p for p in sys.path if not p.startswith(parent_prefix)]
    for directory in site.getsitepackages():
        site.addsitedir(directory)


def engine_main(settings: EngineConfig, parent_pid: int, parent_prefix: str | None, requests: Queue[Request],
                events: Queue[Event]) -> None:
    """Entry point of the engine process (the target of the spawned Process).

    ``parent_pid`` is the client's process (the engine ends when it does); ``parent_prefix``
    is set when the engine runs under another interpreter than the client's.

    Start-up talks to the client in stages: an EngineStarting("started") handshake as soon
    as this code runs and the engine is tied to its parent, one per loading stage, then
    EngineReady, or a RequestFailed("engine-start") saying in one line why it could not start.
    """
    started = time.monotonic()
    keep_freed_memory()  # first: before any thread of ours allocates
    hold_to_parent(parent_pid)
    # Ctrl-C in a terminal reaches the whole process group; the client decides when we stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The client's stdout is its command's output (a table, JSON); model code that prints
    # (CosyVoice's copy does) must not end up in it.
    sys.stdout = sys.stderr

    def stage(name: str) -> None:
        events.put(EngineStarting(os.getpid(), name, round(time.monotonic() - started, 4)))

    stage(EnginePhrase(STARTED))
    if parent_prefix:
        _use_own_environment(parent_prefix)
    try:
        stage(EnginePhrase(LOADING, backend=BackendName(settings.backend)))
        from engine.synthesis.backends import create_backend
        from engine.synthesis.voices import VoiceCache, default_cache_dir
        from engine.voiceprint.encoder import SpeakerEncoder

        backend = create_backend(settings.backend, settings.backend_options)
        backend.load()
        stage(EnginePhrase(OPENING_CACHE))
        cache_dir = Path(settings.cache_dir) if settings.cache_dir else default_cache_dir()
        cache = VoiceCache(cache_dir, backend, settings.backend, SpeakerEncoder())
    except EngineError as error:  # a known cause (unknown backend, bad option): its message says it all
        events.put(RequestFailed("engine-start", error.code, error.message))
        _exit_after_flush(events, 1)
    except Exception as error:  # noqa: BLE001 - an unexpected fault: keep the traceback for the log
        traceback.print_exc()
        events.put(RequestFailed("engine-start", ErrorCode.ENGINE_START,
                                 f"The engine could not start: {type(error).__name__}: {error}"))
        _exit_after_flush(events, 1)
    # A backend's suggestion (by GPU memory) is a default, capped like any choice; EngineReady says what it got.
    slots = settings.slots or min(int(SLOTS.high), backend.suggested_slots(os.cpu_count() or 1) or default_slots())
    engine = Engine(backend, cache, events.put, slots, settings.max_queue, settings.backend,
                    max_active=settings.max_active)
    stage(EnginePhrase(WARMING_UP))
    try:  # what a job's first piece needs, before ready: no job ever shares the cores with it
        backend.warm_up()
    except Exception:  # noqa: BLE001 - the first job then pays for it; it is not a reason to stop
        traceback.print_exc()
    events.put(EngineReady(backend.capabilities, engine.slots, os.getpid(), round(time.monotonic() - started, 4),
                           plain_facts(backend.facts())))
    # What only a new voice needs, in steps that each wait until the engine has no work.
    engine.warming_up = True
    cache.warm_up(engine.wait_idle, engine.warm_up_over)
    while True:
        try:
            request = requests.get()
        except (EOFError, OSError):  # the client's end is gone (the parent watch ends us too)
            break
        if not engine.handle(request):
            break
    engine.stop()
    cache.close(FINISH_VOICES_S)
    events.put(EngineStopped())
    _exit_after_flush(events, 0)


def _exit_after_flush(events: Queue[Event], status: int) -> NoReturn:
    """Deliver the queued events, then leave at once.

    ``os._exit`` rather than a normal interpreter exit: a worker thread still inside the
    model (or a library's thread) must not keep a stopped engine alive.
    """
    events.close()
    events.join_thread()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)

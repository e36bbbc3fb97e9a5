"""The load runner: drives an EngineClient through a plan and records every job.

Everything happens on one thread, the client's single event consumer: it submits due jobs,
reads events, timestamps chunks on receipt and samples resources. Nothing blocks except
``get_event``, whose timeout is the time until the next job is due, so arrivals are submitted
within a few milliseconds of their schedule. Observers get progress messages on that thread
and must only hand them on (a queue, a Qt signal).
"""

from __future__ import annotations

import os
import platform
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from engine.core.codes import ErrorCode
from engine.core.numbers import RangeError
from engine.core.protocol import (
    SLOTS,
    AudioChunk,
    BackendName,
    EngineClientProtocol,
    EngineError,
    EngineReady,
    EngineRestarted,
    EngineStopped,
    Event,
    JobFailed,
    JobFinished,
    JobQueued,
    JobStarted,
    RequestFailed,
    Stats,
    VoicePrepared,
)
from engine.load import wording
from engine.load.plans import Driver, Due, Plan
from engine.load.records import JobRecord
from engine.load.report import BenchReport
from engine.load.sampler import ResourceSample, ResourceSampler
from engine.load.stats import (
    LevelRun,
    LevelStats,
    Objective,
    add_changes,
    apply_objective,
    level_stats,
    make_verdict,
)
from engine.load.wording import LoadPhrase
from engine.load.workload import JobSource, TextSet, VoiceSet, bundled_languages
from engine.synthesis.client import connect
from engine.synthesis.client.remote import RemoteConfig, RemoteEngineClient
from engine.synthesis.config import MAX_ACTIVE, EngineConfig

SAMPLE_EVERY_S = 0.5
MAX_WAIT_S = 0.1  # longest get_event wait, so stop requests and timeouts are seen promptly
VOICE_PREPARE_TIMEOUT_S = 300.0
# The engine's warm-up runs while it has no work, so it ends within seconds of a bench waiting
# for it; a server kept busy by other clients may never get there, and is measured anyway.
WARM_UP_TIMEOUT_S = 120.0
WARM_UP_POLL_S = 0.25


class BenchError(RuntimeError):
    """The run could not go on (engine start, voice preparation); the message has a code."""


# --- progress messages (delivered on the runner thread) ------------------------------------


@dataclass(frozen=True)
class RunStarted:
    engine: dict[str, Any]
    plan: Plan
    objective: Objective


@dataclass(frozen=True)
class LevelStarted:
    level_index: int
    level: int
    label: str
    t_s: float


@dataclass(frozen=True)
class JobEnded:
    record: JobRecord  # not changed any more once delivered


@dataclass(frozen=True)
class SampleTaken:
    sample: ResourceSample


@dataclass(frozen=True)
class LevelFinished:
    stats: LevelStats


@dataclass(frozen=True)
class RunFinished:
    report: BenchReport


@dataclass(frozen=True)
class RunFailed:
    message: str


Progress = RunStarted | LevelStarted | JobEnded | SampleTaken | LevelFinished | RunFinished | RunFailed
Observer = Callable[[Progress], None]


def _ignore(_: Progress) -> None:
    pass


def machine_info(gpu_names: list[str], nvidia_driver: str | None = None) -> dict[str, Any]:
    import psutil

    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "python": sys.version.split()[0],
        "gpus": gpu_names,
        "nvidia_driver": nvidia_driver,
    }


# Facts a backend reports at start-up (EngineReady.facts) that every report shows up front.
HARDWARE_FACTS = ("device", "gpu_name", "gpu_memory_gb", "torch", "cuda", "driver", "model_kind", "model_size",
                  "model_dir", "fp16")


def engine_label(info: dict[str, Any]) -> str:
    """"cosyvoice2 (synthetic weights, cuda:0)" for the verdict sentence; the bare name when
    the backend reports neither a model kind nor a device (a phrase the studio says)."""
    details: list[str] = ([LoadPhrase(wording.WEIGHTS, kind=wording.declared(str(info["model_kind"])))]
                          if info.get("model_kind") else [])
    if info.get("device"):
        details.append(str(info["device"]))
    backend = BackendName(str(info["backend"]))
    return LoadPhrase(wording.ENGINE_DETAILS, backend=backend, details=wording.joined(details)) if details else backend


class LoadRunner:
    """Runs a plan over a started client. Call :meth:`run` on the client's consumer thread."""

    def __init__(self, client: EngineClientProtocol, plan: Plan, source: JobSource, objective: Objective | None = None,
                 warm_voices: bool = True, observer: Observer | None = None,
                 config: dict[str, Any] | None = None, engine_nice: int = 0) -> None:
        plan.validate()
        if client.ready is None:
            raise BenchError(f"{ErrorCode.BENCH}: start the engine client before running a plan")
        self.client = client
        self.plan = plan
        self.source = source
        self.objective = objective or Objective()
        self.warm_voices = warm_voices
        self.observer = observer or _ignore
        self.config = config or {}
        self.engine_nice = engine_nice
        self._stop = threading.Event()
        self._records: list[JobRecord] = []
        self._active: dict[str, tuple[JobRecord, int | None]] = {}  # job_id -> (record, user)
        self._samples: list[ResourceSample] = []
        self._levels: list[LevelStats] = []
        self._t0 = 0.0
        self._next_sample = 0.0
        self._warm_up: dict[str, Any] = {"over": None, "waited_s": None}  # before the first level
        self._sampler: ResourceSampler | None = None

    def stop(self) -> None:
        """Stop the run: jobs in flight are cancelled. Safe from any thread."""
        self._stop.set()
        self.client.wake()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def engine_info(self) -> dict[str, Any]:
        ready = self.client.ready
        assert ready is not None
        caps = ready.backend
        info = {
            "backend": caps.name,
            "slots": ready.slots,
            **{key: ready.facts[key] for key in HARDWARE_FACTS if ready.facts.get(key) is not None},
            "pid": ready.pid,
            "languages": list(caps.languages),
            "sample_rate": caps.sample_rate,
            "streaming": caps.streaming,
            "engine_start_s": round(self.client.engine_start_s, 3),
            "restarts": self.client.restarts,
            "warm_up": dict(self._warm_up),
            "target": "local",
            "facts": dict(ready.facts),
        }
        if isinstance(self.client, RemoteEngineClient):
            # A server: where it is and how many replicas served (the process figures are the server's).
            server = self.client.server_info
            info.update(target=self.client.config.url, replicas=server.get("replicas"),
                        slots_per_replica=server.get("slots_per_replica"), replicas_end=self._replicas_now())
        return info

    def _replicas_now(self) -> int | None:
        """The server's replicas of this backend now (autoscaling may have changed them); None if unknown."""
        assert isinstance(self.client, RemoteEngineClient)
        try:
            replicas = self.client.server_stats().get("replicas", [])
        except Exception:  # noqa: BLE001 - the server went away: the report still says what was known at the start
            return None
        return sum(1 for r in replicas if r.get("backend") == self.client.backend)

    def run(self) -> BenchReport:
        started_wall = datetime.now(UTC)
        self._t0 = time.monotonic()
        # A server's GPUs are not this machine's: sample these only for an engine running here.
        self._sampler = ResourceSampler(self.client.pid, gpus=not isinstance(self.client, RemoteEngineClient))
        self._lower_engine_priority()
        self._next_sample = self._t0
        self.observer(RunStarted(self.engine_info(), self.plan, self.objective))
        try:
            if self.warm_voices:
                self._prepare_voices()
            self._wait_for_warm_up()
            for index in range(len(self.plan.levels)):
                if self.stopped:
                    break
                self._run_level(index)
                if self.plan.stop_after_miss and not self._levels[-1].meets_objective:
                    break  # the capacity is found: higher levels would only miss by more
        finally:
            gpus = self._sampler.gpu_names
            driver = self._sampler.gpu_driver
            self._sampler.close()
        engine = self.engine_info()
        verdict = make_verdict(self._levels, self.objective, self.plan.mode.value, engine_label(engine),
                               self.client.ready.slots if self.client.ready else 0, stopped=self.stopped,
                               machine=(LoadPhrase(wording.THE_SERVER, url=self.client.config.url)
                                        if isinstance(self.client, RemoteEngineClient)
                                        else LoadPhrase(wording.THIS_MACHINE)))
        report = BenchReport(
            created=started_wall.isoformat(timespec="seconds"),
            wall_s=time.monotonic() - self._t0,
            stopped=self.stopped,
            config={"cache": "warm" if self.warm_voices else "unprepared", **self.config,
                    "plan": self.plan.to_dict(), "objective": verdict.objective,
                    "texts": self.source.texts.to_dict(), "voices": self.source.voices.to_dict()},
            engine=engine,
            machine=machine_info(gpus, driver),
            levels=list(self._levels),
            verdict=verdict,
            jobs=list(self._records),
            samples=list(self._samples),
        )
        self.observer(RunFinished(report))
        return report

    # --- phases ---------------------------------------------------------------------------

    def _prepare_voices(self) -> None:
        """Warm the voice cache so the first jobs measure synthesis, not voice preparation."""
        waiting = {self.client.prepare_voice(voice): voice for voice in self.source.voices.voices}
        deadline = time.monotonic() + VOICE_PREPARE_TIMEOUT_S
        while waiting and not self.stopped:
            if time.monotonic() > deadline:
                raise BenchError(f"{ErrorCode.BENCH_VOICE}: voices not prepared within {VOICE_PREPARE_TIMEOUT_S:.0f} s")
            event = self.client.get_event(timeout=MAX_WAIT_S)
            self._maybe_sample()
            if isinstance(event, VoicePrepared):
                waiting.pop(event.request_id, None)
            elif isinstance(event, RequestFailed) and event.request_id in waiting:
                voice = waiting[event.request_id]
                raise BenchError(f"{event.code.value}: cannot prepare voice {voice.clip_path}: {event.message}")
            elif isinstance(event, EngineRestarted):
                self._engine_restarted()

    def _wait_for_warm_up(self) -> None:
        """Wait until the engine says its warm-up is over (Stats.warming_up is 0), so the first
        level measures what every later one does; the report says how long that took, or that
        the first level began without it (after WARM_UP_TIMEOUT_S, or stats not answered)."""
        started = time.monotonic()
        asked: str | None = None
        next_ask = started
        while not self.stopped:
            now = time.monotonic()
            if now - started > WARM_UP_TIMEOUT_S:
                break
            if asked is None and now >= next_ask:
                asked = self.client.request_stats()
            event = self.client.get_event(timeout=MAX_WAIT_S)
            self._maybe_sample()
            if isinstance(event, Stats) and event.request_id == asked:
                if event.warming_up == 0:
                    self._warm_up = {"over": True, "waited_s": round(time.monotonic() - started, 3)}
                    return
                asked, next_ask = None, time.monotonic() + WARM_UP_POLL_S
            elif isinstance(event, RequestFailed) and event.request_id == asked:
                break
            elif isinstance(event, EngineRestarted):  # a new engine warms up again; ask it
                self._engine_restarted()
                asked = None
        self._warm_up = {"over": False, "waited_s": round(time.monotonic() - started, 3)}

    def _run_level(self, index: int) -> None:
        plan = self.plan
        level = plan.levels[index]
        first_record = len(self._records)
        self.observer(LevelStarted(index, level, plan.label(level), time.monotonic() - self._t0))
        warmup = plan.warmup_driver(time.monotonic())
        if warmup is not None:  # each warm-up job alone, before the level's load starts
            self._drive(warmup, index, warmups=plan.warmup_jobs)
        start = time.monotonic()  # the level's window starts with its measured load
        if not self.stopped:
            self._drive(plan.driver(index, start), index, warmups=plan.concurrent_warmup_jobs)
        end = time.monotonic()
        run = LevelRun(level, index, plan.label(level), plan.offered_rate(level), start - self._t0, end - self._t0,
                       complete=not self.stopped)
        stats = level_stats(run, self._records[first_record:], self._samples, self.objective)
        self._levels.append(stats)
        apply_objective(self._levels, self.objective)
        add_changes(self._levels)
        self.observer(LevelFinished(stats))

    def _drive(self, driver: Driver, index: int, warmups: int) -> None:
        """Submit the driver's jobs as they fall due until all have ended; the first
        ``warmups`` of them are warm-up jobs."""
        plan = self.plan
        while True:
            now = time.monotonic()
            if self.stopped:
                self._cancel_active(now)
                break
            dues = driver.due(now)
            first_position = driver.submitted - len(dues)  # positions of these jobs in this drive
            for offset, due in enumerate(dues):
                self._submit(due, index, warmup=first_position + offset < warmups)
            now = time.monotonic()
            for record, user in self._expired(now):
                self.client.cancel(record.job_id)
                record.fail(now - self._t0, ErrorCode.TIMEOUT, f"no end within {plan.job_timeout_s:.0f} s")
                self._end(record, user, driver, now)
            if driver.exhausted(now) and not self._active:
                break
            self._maybe_sample()
            wait = MAX_WAIT_S
            wakeup = driver.next_wakeup()
            if wakeup is not None:
                wait = min(wait, wakeup - now)
            wait = max(0.0, min(wait, self._next_sample - now))
            event = self.client.get_event(timeout=wait)
            if event is not None:
                self._handle(event, driver)

    # --- jobs -----------------------------------------------------------------------------

    def _submit(self, due: Due, level_index: int, warmup: bool) -> None:
        job, item, voice = self.source.make(len(self._records))
        record = JobRecord(
            index=len(self._records),
            job_id=job.job_id,
            level=self.plan.levels[level_index],
            level_index=level_index,
            warmup=warmup,
            user=due.user,
            text_kind=item.kind,
            language=item.language,
            chars=len(item.text),
            voice=os.path.basename(voice.clip_path),
            text=item.text,
            scheduled_s=due.scheduled - self._t0,
        )
        self._records.append(record)
        self._active[job.job_id] = (record, due.user)
        try:
            record.submit_s = self.client.submit(job) - self._t0
        except (EngineError, OSError, ValueError) as error:  # a closed queue, an unpicklable job
            del self._active[job.job_id]
            now = time.monotonic()
            record.fail(now - self._t0, ErrorCode.SUBMIT, str(error))
            self.observer(JobEnded(record))

    def _expired(self, now: float) -> list[tuple[JobRecord, int | None]]:
        limit = self.plan.job_timeout_s
        return [(r, u) for r, u in self._active.values()
                if r.submit_s is not None and now - self._t0 - r.submit_s > limit]

    def _end(self, record: JobRecord, user: int | None, driver: Driver, now: float) -> None:
        self._active.pop(record.job_id, None)
        driver.job_ended(user, now)
        self.observer(JobEnded(record))

    def _cancel_active(self, now: float) -> None:
        for record, _ in list(self._active.values()):
            self.client.cancel(record.job_id)
            record.cancel(now - self._t0)
            self.observer(JobEnded(record))
        self._active.clear()

    def _handle(self, event: Event, driver: Driver) -> None:
        now = time.monotonic()
        rel = now - self._t0
        if isinstance(event, EngineRestarted):
            self._engine_restarted()
            return
        if isinstance(event, EngineStopped):
            return  # a wake-up from stop(); the loop checks the flag
        job_id = getattr(event, "job_id", None)
        entry = self._active.get(job_id) if job_id is not None else None
        if entry is None:
            return  # an event of a job already ended here (timed out, or cancelled by stop)
        record, user = entry
        if isinstance(event, AudioChunk):
            record.add_chunk(rel, len(event.pcm) / event.sample_rate)
        elif isinstance(event, JobQueued):
            record.queue_position = event.position
        elif isinstance(event, JobStarted):
            record.queue_wait_s = event.queue_wait_s
        elif isinstance(event, JobFinished):
            timing = event.timing
            record.queue_wait_s = timing.queue_wait_s
            record.voice_prepare_s = timing.voice_prepare_s
            record.voice_cache = timing.voice_cache
            record.finish(rel, timing.synth_s, timing.compute_s)
            self._end(record, user, driver, now)
        elif isinstance(event, JobFailed):
            if event.resubmitted:
                record.restart()
                return
            record.fail(rel, event.code.value, event.message)
            self._end(record, user, driver, now)

    def _engine_restarted(self) -> None:
        if self._sampler is not None:
            self._sampler.watch(self.client.pid)
        self._lower_engine_priority()

    def _lower_engine_priority(self) -> None:
        """Raise the engine's niceness so a window in this process keeps the CPU when it needs it."""
        if self.engine_nice <= 0 or self.client.pid is None:
            return
        import psutil

        try:
            proc = psutil.Process(self.client.pid)
            if hasattr(psutil, "BELOW_NORMAL_PRIORITY_CLASS"):  # Windows has classes, not nice values
                proc.nice(psutil.BELOW_NORMAL_PRIORITY_CLASS)
            else:
                proc.nice(max(proc.nice(), self.engine_nice))
        except psutil.Error:  # not permitted or gone: measure at normal priority
            pass

    def _maybe_sample(self) -> None:
        now = time.monotonic()
        if now < self._next_sample or self._sampler is None:
            return
        self._next_sample = now + SAMPLE_EVERY_S
        sample = self._sampler.sample(now - self._t0, len(self._active))
        self._samples.append(sample)
        self.observer(SampleTaken(sample))


# --- a whole bench: engine start, run, close -----------------------------------------------


@dataclass
class BenchSettings:
    """Everything a bench needs; the CLI and the stress panel fill one in.

    ``engine`` is the engine started here (with ``remote``, only its backend names the run).
    """

    engine: EngineConfig = field(default_factory=EngineConfig)
    plan: Plan = field(default_factory=Plan)
    objective: Objective = field(default_factory=Objective)
    texts_file: str | None = None  # None: the bundled sets that suit the backend
    text_languages: tuple[str, ...] | None = None  # bundled sets to use; None: from the backend
    voices: tuple[str, ...] = ()  # clip paths; empty: the bundled sample voices
    cache: str = "warm"  # "warm": voices prepared before the run (engine.cache_dir, None: the user's
    # cache); "cold": every job a new voice, in a temporary cache folder
    remote: RemoteConfig | None = None  # a DubStudio server's engines instead of one started here
    engine_nice: int = 0  # >0: run the engine at lower CPU priority (the stress panel, so the GUI stays fluid)
    probe: str | None = None  # the hardware-probe preset these settings come from (engine.load.probe)

    def validate(self) -> None:
        self.plan.validate()
        try:
            self.objective.validate()
            for allowed, value in ((SLOTS, self.engine.slots), (MAX_ACTIVE, self.engine.max_active)):
                if value is not None:
                    allowed.check(value)
        except RangeError as error:
            raise BenchError(str(error)) from None
        if self.cache not in ("warm", "cold"):
            raise BenchError(f"{ErrorCode.BENCH}: cache must be 'warm' or 'cold', not {self.cache!r}")

    def describe(self) -> dict[str, Any]:
        return {"backend": self.engine.backend, "slots_requested": self.engine.slots,
                "max_active_requested": self.engine.max_active,
                "cache": self.cache, "engine_url": self.remote.url if self.remote else None,
                "texts_file": self.texts_file, "voices_requested": list(self.voices), "engine_nice": self.engine_nice,
                "probe": self.probe}


class BenchSession:
    """Starts an engine, runs a plan on it and closes it; :meth:`stop` works from any thread."""

    def __init__(self, settings: BenchSettings, observer: Observer | None = None) -> None:
        settings.validate()
        self.settings = settings
        self.observer = observer or _ignore
        self._lock = threading.Lock()
        self._stopped = False
        self._runner: LoadRunner | None = None

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            runner = self._runner
        if runner is not None:
            runner.stop()

    def run(self) -> BenchReport:
        """Run the whole bench on this thread; raises BenchError (also reported as RunFailed)."""
        try:
            return self._run()
        except BenchError as error:
            self.observer(RunFailed(str(error)))
            raise

    def _run(self) -> BenchReport:
        s = self.settings
        # Load the sets first: a typo in a path should fail before a slow engine start.
        voices = VoiceSet.from_clips(s.voices) if s.voices else VoiceSet.bundled()
        file_texts = TextSet.from_file(s.texts_file) if s.texts_file else None
        scratch = tempfile.mkdtemp(prefix="dubstudio-bench-cache-") if s.cache == "cold" else None
        client = connect(s.remote or replace(s.engine, cache_dir=scratch or s.engine.cache_dir))
        source: JobSource | None = None
        try:
            try:
                ready: EngineReady = client.start()
            except Exception as error:  # EngineStartError and spawn failures alike
                code = getattr(getattr(error, "code", None), "value", ErrorCode.ENGINE_START)
                raise BenchError(f"{code}: {error}") from error
            texts = file_texts or TextSet.bundled(s.text_languages or bundled_languages(ready.backend.languages))
            source = JobSource(texts, voices, cold=s.cache == "cold")
            runner = LoadRunner(client, s.plan, source, s.objective, warm_voices=s.cache == "warm",
                                observer=self.observer, config=s.describe(), engine_nice=s.engine_nice)
            with self._lock:
                self._runner = runner
                if self._stopped:
                    runner.stop()
            return runner.run()
        finally:
            client.close()
            if source is not None:
                source.close()
            if scratch:
                shutil.rmtree(scratch, ignore_errors=True)

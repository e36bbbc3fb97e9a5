"""The warm-up never delays a job: its steps wait for an engine without work, and a job that
arrives during a step goes on beside it. Structural tests (no timing is asserted)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from engine.core.protocol import Job, JobFinished, Stats, VoiceSpec
from engine.synthesis.client.local import EngineClient, collect
from engine.synthesis.config import EngineConfig
from engine.synthesis.process import Engine
from engine.synthesis.voices import WARM_UP_QUIET_S, VoiceCache
from tests.engine.helpers import VOICES
from tests.engine.synthesis.test_scheduler import FakeBackend, FakeCache, FakeClock, Rig

PATIENCE_S = 60.0  # a thread expected to return does so long before this (the machine may be busy)


def waiter(engine: Engine) -> tuple[threading.Thread, list[bool]]:
    """A thread in ``engine.wait_idle`` with no quiet time; its answer lands in the list."""
    answers: list[bool] = []
    thread = threading.Thread(target=lambda: answers.append(engine.wait_idle(0.0)), daemon=True)
    thread.start()
    return thread, answers


def test_no_warm_up_step_starts_while_a_job_is_pending_or_parked() -> None:
    rig = Rig()
    rig.submit("A 2 2 2")
    thread, answers = waiter(rig.engine)
    rig.engine.run_ready(1)  # A0 spoken: A is parked between pieces, still work of the engine
    thread.join(0.2)
    assert thread.is_alive() and not answers
    rig.engine.run_ready()  # A ends: the engine is without work
    thread.join(PATIENCE_S)
    assert answers == [True]


def test_a_stopping_engine_releases_the_warm_up() -> None:
    rig = Rig()
    rig.submit("A 1")
    thread, answers = waiter(rig.engine)
    rig.engine.stop()
    thread.join(PATIENCE_S)
    assert answers == [False]


def test_a_job_arriving_during_a_step_goes_first() -> None:
    """A threaded engine: while a warm-up step is in progress (held open here), a job
    submitted then is computed and finished; nothing it needs waits for the step."""
    events: list[Any] = []
    step_open, step_may_end = threading.Event(), threading.Event()
    clock = FakeClock()
    engine = Engine(FakeBackend(clock), FakeCache(), events.append, 1, 10, "fake", clock=clock)
    try:
        def step() -> None:
            assert engine.wait_idle(0.0)
            step_open.set()
            step_may_end.wait(PATIENCE_S)

        stepping = threading.Thread(target=step, daemon=True)
        stepping.start()
        assert step_open.wait(PATIENCE_S)
        finished = threading.Event()
        engine.emit = lambda event: (events.append(event), isinstance(event, JobFinished) and finished.set())
        engine.submit(Job("A 1 1", VoiceSpec("unused.wav"), job_id="A"))
        assert finished.wait(PATIENCE_S) and stepping.is_alive()  # the job ended while the step went on
        step_may_end.set()
        stepping.join(PATIENCE_S)
    finally:
        engine.stop()


class _Encoder:
    encoder_id = "fake"

    def __init__(self, log: list[str]) -> None:
        self.warm_up = lambda: log.append("encoder")


def _cache(tmp_path: Path, log: list[str]) -> VoiceCache:
    cache = VoiceCache(tmp_path, FakeBackend(FakeClock()), "fake", _Encoder(log))  # type: ignore[arg-type]
    cache._ensure_model_data = lambda: log.append("model data")  # type: ignore[method-assign]
    cache._plain_embedding = lambda: log.append("plain embedding")  # type: ignore[method-assign,assignment,return-value]
    return cache


def test_each_warm_up_step_waits_for_an_idle_engine_first(tmp_path: Path) -> None:
    log: list[str] = []
    done = threading.Event()

    def wait_idle(quiet_s: float) -> bool:
        log.append(f"idle for {quiet_s} s?")
        return True

    cache = _cache(tmp_path, log)
    cache.warm_up(wait_idle, lambda: (log.append("over"), done.set()))
    assert done.wait(PATIENCE_S)
    asked = f"idle for {WARM_UP_QUIET_S} s?"
    assert log == [asked, "model data", asked, "encoder", asked, "plain embedding", "over"]


def test_a_warm_up_cut_short_by_a_stop_never_says_it_is_over(tmp_path: Path) -> None:
    log: list[str] = []
    answers = iter([True, False])
    cache = _cache(tmp_path, log)
    cache.warm_up(lambda quiet_s: next(answers), lambda: log.append("over"))
    assert cache._warming.wait_idle(PATIENCE_S)
    assert log == ["model data"]


def test_a_real_engine_reports_when_its_warm_up_is_over(tmp_path: Path) -> None:
    """The real engine with the embedded model: a job at EngineReady, then Stats says warm."""
    clip = VOICES / "maya.wav"
    voice = VoiceSpec(str(clip), clip.with_suffix(".txt").read_text().strip())
    with EngineClient(EngineConfig(cache_dir=str(tmp_path), slots=1)) as client:
        _, end = collect(client, Job("Ready when you are.", voice))
        assert isinstance(end, JobFinished)
        warm = None
        for _ in range(2400):  # polled; the warm-up measures the calibration, loads the encoder
            asked = client.request_stats()
            while not isinstance(stats := client.get_event(timeout=PATIENCE_S), Stats) or stats.request_id != asked:
                assert stats is not None
            if stats.warming_up == 0:
                warm = stats
                break
            threading.Event().wait(0.1)
        assert warm is not None and warm.jobs_finished == 1

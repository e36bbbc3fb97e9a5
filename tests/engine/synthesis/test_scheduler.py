"""The piece scheduler, deterministic: the real Engine and Scheduler with a fake backend and clock.

The engine runs without threads (``threaded=False``); each ``run_ready`` turn computes one
piece. The fake backend advances the fake clock by a fixed compute time per piece, so every
deadline and every order below follows from the arithmetic in the comments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from engine.core.playback import StallTracker
from engine.core.protocol import (
    AudioChunk,
    Capabilities,
    ErrorCode,
    Job,
    JobFailed,
    JobFinished,
    JobQueued,
    Priority,
    VoiceSettings,
    VoiceSpec,
)
from engine.core.reference import ReferenceClip
from engine.synthesis.backends.base import Backend, SpokenPiece, StopCheck, VoiceProfile
from engine.synthesis.process import Engine
from engine.synthesis.scheduler import (
    INTERACTIVE_LEAD_S,
    SAFETY_MARGIN_S,
    UNHURRIED_START_S,
    Scheduler,
    Work,
    default_max_active,
)
from engine.synthesis.voices import CacheCounters, CacheLookup

RATE = 100  # samples per second of the fake audio
COMPUTE_S = 0.1  # fake seconds each piece takes
VOICE = VoiceSpec("unused.wav")


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class FakeBackend(Backend):
    """Text ``"A 2 2 1"`` speaks job A in three pieces of 2, 2 and 1 seconds of audio."""

    piece_scheduling = True

    def __init__(self, clock: FakeClock, mark_last: bool = True) -> None:
        self.clock = clock
        self.mark_last = mark_last
        self.log: list[str] = []  # "A0", "A1", ...: pieces in the order they were computed
        self.closed: list[str] = []  # jobs whose stream ended (finished or closed early)
        self.during: dict[str, Callable[[], None]] = {}  # piece name -> action while computing it
        self.first_piece_chars: dict[str, int] = {}  # job name -> the first-piece budget it was given
        self.seeds: dict[str, int | None] = {}  # job name -> the seed it was given

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities("fake", RATE, True, ("en",), False, False, False)

    def load(self) -> None:
        pass

    def condition(self, clip: ReferenceClip, transcript: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        return {}, {}

    def check_text(self, text: str) -> None:
        pass

    def synthesize(self, text: str, profile: VoiceProfile, settings: VoiceSettings,
                   should_stop: StopCheck, first_piece_chars: int = 0,
                   seed: int | None = None) -> Iterator[SpokenPiece]:
        name, *lengths = text.split()
        self.first_piece_chars[name] = first_piece_chars
        self.seeds[name] = seed
        try:
            for index, seconds in enumerate(float(value) for value in lengths):
                if should_stop():
                    return
                piece = f"{name}{index}"
                self.clock.now += COMPUTE_S
                self.during.get(piece, lambda: None)()
                self.log.append(piece)
                last = self.mark_last and index == len(lengths) - 1
                yield SpokenPiece(np.zeros(int(round(seconds * RATE)), dtype=np.float32), text, last=last)
        finally:
            self.closed.append(name)


class FakeCache:
    def __init__(self) -> None:
        self.counters = CacheCounters()

    def lookup(self, voice: VoiceSpec) -> CacheLookup:
        return CacheLookup(VoiceProfile("fake", np.zeros(1, dtype=np.float32)), "memory", 0.0)


class Rig:
    """An engine without threads over the fake backend; events collected in order."""

    def __init__(self, slots: int = 1, max_active: int | None = None, mark_last: bool = True,
                 max_queue: int = 100) -> None:
        self.clock = FakeClock()
        self.backend = FakeBackend(self.clock, mark_last)
        self.stamped: list[tuple[float, Any]] = []  # (fake time sent, event)
        self.engine = Engine(self.backend, FakeCache(), lambda e: self.stamped.append((self.clock.now, e)),
                             slots, max_queue, "fake", max_active=max_active, clock=self.clock, threaded=False)

    @property
    def events(self) -> list[Any]:
        return [event for _, event in self.stamped]

    def submit(self, text: str, at: float | None = None, priority: Priority = Priority.BATCH,
               listening: bool = True, variant: int = 0) -> Job:
        if at is not None:
            assert at >= self.clock.now, "a test cannot submit in the past"
            self.clock.now = at
        job = Job(text, VOICE, priority=priority, job_id=text.split()[0], listening=listening, variant=variant)
        self.engine.submit(job)
        return job

    def of(self, kind: type, job_id: str | None = None) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind) and (job_id is None or e.job_id == job_id)]

    def stalls_of(self, job_id: str) -> tuple[int, int]:
        """(chunks, stalls) of a job as its listener heard them."""
        listener = StallTracker()
        chunks = [(at, e) for at, e in self.stamped if isinstance(e, AudioChunk) and e.job_id == job_id]
        for at, chunk in chunks:
            listener.add(at, len(chunk.pcm) / chunk.sample_rate)
        return len(chunks), listener.stalls


# --- the Scheduler's order on its own ---------------------------------------------------------


def test_earliest_deadline_first_across_first_pieces_and_streams() -> None:
    scheduler = Scheduler(max_active=10)
    far, near, new = (Work(name, arrived=0.0, priority=Priority.BATCH, payload=None)
                      for name in ("far", "near", "new"))
    scheduler.piece_done(far, now=1.0, audio_s=9.0, compute_s=0.2)  # plays until 10.0
    scheduler.piece_done(near, now=1.0, audio_s=1.0, compute_s=0.1)  # plays until 2.0
    new.arrived = 1.55  # no audio yet: due at its arrival
    for work in (far, near, new):
        scheduler.add(work)
    # due: end of playback - margin - own slowest piece - longest recent piece (0.2, far's)
    assert scheduler.worker_wait_s == pytest.approx(0.2)
    assert far.deadline(0.2) == pytest.approx(10.0 - SAFETY_MARGIN_S - 0.2 - 0.2)
    assert near.deadline(0.2) == pytest.approx(2.0 - SAFETY_MARGIN_S - 0.1 - 0.2)  # 1.45
    assert [scheduler.take().work_id for _ in range(3)] == ["near", "new", "far"]  # type: ignore[union-attr]
    assert scheduler.take() is None  # all three are held by workers now


def test_a_held_work_is_never_handed_out_twice() -> None:
    scheduler = Scheduler(max_active=10)
    scheduler.add(Work("a", arrived=0.0, priority=Priority.BATCH, payload=None))
    work = scheduler.take()
    assert work is not None and scheduler.take() is None
    scheduler.put_back(work)
    assert scheduler.take() is work


# --- the engine's scheduling with the fake backend ----------------------------------------------


def test_a_new_jobs_first_piece_overtakes_a_job_far_ahead() -> None:
    rig = Rig()
    rig.submit("A 2 2 2 2 2 2")
    rig.engine.run_ready(3)  # A0..A2 by t=0.3: 6 s delivered, A's listener is far ahead
    rig.submit("B 1 1")
    rig.engine.run_ready()
    assert rig.backend.log == ["A0", "A1", "A2", "B0", "B1", "A3", "A4", "A5"]
    # B1 is due at 0.4 + 1.0 - margin - 0.1 - 0.1 = 0.95, before A3 at 0.1 + 6.0 - margin - 0.2
    assert [e.job_id for e in rig.of(JobFinished)] == ["B", "A"]


def test_a_job_about_to_run_dry_is_served_before_a_new_batch_job() -> None:
    rig = Rig()
    rig.submit("A 0.5 0.5 0.5")
    rig.engine.run_ready(1)  # A0 at t=0.1: plays until 0.6, A1 due at 0.6 - 0.25 - 0.1 - 0.1 = 0.15
    # B arrives after A1's deadline, which counts the wait for a worker (without it: 0.25)
    rig.submit("B 1", at=0.2)
    rig.submit("R 1", at=0.2, listening=False)  # a render nobody listens to
    rig.engine.run_ready()
    assert rig.backend.log[:3] == ["A0", "A1", "B0"]
    assert rig.backend.log.index("R0") > rig.backend.log.index("A2")  # the render only fills the gaps
    assert sum(e.job_id == "A" for e in rig.of(AudioChunk)) == 3


def test_interactive_work_comes_before_batch_work() -> None:
    rig = Rig()
    for name in "BCD":
        rig.submit(f"{name} 1")
    rig.submit("I 1", at=0.5, priority=Priority.INTERACTIVE)  # later, yet due 2 s earlier
    rig.engine.run_ready()
    assert rig.backend.log == ["I0", "B0", "C0", "D0"]
    assert rig.of(JobQueued, "I")[0].position == 0


def test_the_interactive_lead_is_bounded_so_old_batch_work_goes_first() -> None:
    rig = Rig()
    rig.submit("B 1")
    rig.submit("I 1", at=INTERACTIVE_LEAD_S + 0.5, priority=Priority.INTERACTIVE)  # B waited longer than the lead
    rig.engine.run_ready()
    assert rig.backend.log == ["B0", "I0"]


def test_cancel_a_parked_stream_closes_it_at_once() -> None:
    rig = Rig()
    rig.submit("A 5 5 5 5")
    rig.engine.run_ready(1)
    rig.engine.cancel("A")
    rig.submit("B 1")  # due earlier than A's next piece, yet the cancelled stream is closed first
    rig.engine.run_ready()
    assert rig.backend.log == ["A0", "B0"]
    assert rig.backend.closed[0] == "A"
    (failed,) = rig.of(JobFailed, "A")
    assert failed.code == ErrorCode.CANCELLED and "while speaking" in failed.message
    assert len(rig.of(AudioChunk, "A")) == 1


def test_cancel_while_a_piece_is_computing_drops_that_piece() -> None:
    rig = Rig()
    rig.backend.during["A1"] = lambda: rig.engine.cancel("A")
    rig.submit("A 1 1 1")
    rig.engine.run_ready()
    assert [c.seq for c in rig.of(AudioChunk, "A")] == [0]  # A1 was computed but never sent
    assert rig.of(JobFailed, "A")[0].code == ErrorCode.CANCELLED
    assert "A" in rig.backend.closed and not rig.of(JobFinished)


def test_cancel_before_the_first_piece_never_starts_the_stream() -> None:
    rig = Rig()
    rig.submit("A 1")
    rig.engine.cancel("A")
    assert rig.engine.run_ready() == 0
    assert rig.of(JobFailed, "A")[0].message == "Cancelled before it started"
    assert rig.backend.log == [] and rig.backend.closed == []


def test_no_starvation_under_a_flood_of_new_jobs() -> None:
    """Two one-piece jobs arrive in the time the one slot computes one (200 % load), on and on.

    The admitted stream still gets every piece before its listener runs out; the render
    nobody listens to still starts once its virtual listener begins; the flood waits."""
    rig = Rig()
    rig.submit("L " + " ".join(["1"] * 20))
    rig.submit("R 1 1 1", listening=False)
    for index in range(400):
        rig.submit(f"F{index} 0.1")
        rig.submit(f"G{index} 0.1")
        rig.engine.run_ready(1)
    assert rig.stalls_of("L") == (20, 0)  # all 20 pieces, no stall
    r_first = next(at for at, e in rig.stamped if isinstance(e, AudioChunk) and e.job_id == "R")
    # due at 30 s; only pieces of the other admitted jobs (at most the cap) due sooner go first
    assert r_first <= UNHURRIED_START_S + default_max_active(1) * COMPUTE_S
    assert rig.of(JobFinished, "R")


def test_admission_cap_holds_later_jobs_until_an_active_one_ends() -> None:
    rig = Rig(max_active=2)
    rig.submit("A 3 3")
    rig.submit("B 3 3")
    rig.submit("C 1")  # waits: two jobs are active
    rig.engine.run_ready()
    log = rig.backend.log
    assert log.index("C0") > min(log.index("A1"), log.index("B1"))  # only after A or B ended
    assert log[:2] == ["A0", "B0"]


def test_a_job_level_backend_keeps_each_job_on_its_worker() -> None:
    rig = Rig()
    rig.backend.piece_scheduling = False
    rig.submit("A 5 5 5")
    rig.submit("B 1")
    assert rig.engine.run_ready(1) == 1  # one turn: the whole of A
    assert rig.backend.log == ["A0", "A1", "A2"]
    rig.engine.run_ready()
    assert rig.backend.log[-1] == "B0"


def test_the_last_piece_ends_the_job_in_the_same_turn() -> None:
    marked = Rig()
    marked.submit("A 1 1")
    assert marked.engine.run_ready() == 2 and marked.of(JobFinished, "A")
    unmarked = Rig(mark_last=False)
    unmarked.submit("A 1 1")
    assert unmarked.engine.run_ready() == 3  # a backend that does not know needs one more turn
    (finished,) = unmarked.of(JobFinished, "A")
    assert finished.timing.chunks == 2


def test_timing_splits_queue_wait_from_compute() -> None:
    rig = Rig()
    rig.submit("A 1 1")
    rig.submit("B 1 1 1")
    rig.engine.run_ready()
    (b,) = rig.of(JobFinished, "B")
    assert b.timing.queue_wait_s == pytest.approx(COMPUTE_S)  # waited for A0
    assert b.timing.compute_s == pytest.approx(3 * COMPUTE_S)
    assert b.timing.audio_s == pytest.approx(3.0) and b.timing.chunks == 3
    assert b.timing.synth_s >= b.timing.compute_s


def test_the_queue_bound_counts_jobs_not_started() -> None:
    rig = Rig(max_queue=2)
    for name in "ABC":
        rig.submit(f"{name} 1")
    assert rig.of(JobFailed, "C")[0].code == ErrorCode.QUEUE_FULL
    rig.engine.run_ready(1)  # A starts: a place frees up
    rig.submit("D 1")
    assert not rig.of(JobFailed, "D")


def test_a_duplicate_job_id_is_refused_while_the_first_runs() -> None:
    rig = Rig()
    rig.submit("A 1 1")
    rig.engine.run_ready(1)
    rig.submit("A 1")
    assert rig.of(JobFailed, "A")[0].code == ErrorCode.DUPLICATE_JOB

"""Load plans and the drivers that decide when each job is due.

Two ways to make load, as in Locust/k6 and vLLM's serving benchmark:

* closed loop: N virtual users; each submits its next job when its last one ended, after an
  optional think time. The offered load falls as the engine slows ("coordinated omission").
* open loop: jobs arrive on a schedule (Poisson or constant) whatever the engine does, and
  latency counts from the scheduled arrival, so queueing in a saturated engine shows up.
  An optional cap on jobs in flight makes the hybrid of vLLM's ``--max-concurrency``.

A plan is a list of levels (users, or multiples of the per-level arrival rate), each held for
a number of jobs or seconds after warm-up jobs that are excluded from the statistics.

The drivers are pure state machines over a clock the runner passes in, so their timing is
tested against hand-computed schedules without an engine.
"""

from __future__ import annotations

import abc
import enum
import math
import random
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from engine.core.codes import ErrorCode
from engine.core.numbers import Range, RangeError, ranges
from engine.load import wording
from engine.load.wording import LoadPhrase


class Mode(str, enum.Enum):
    CLOSED = "closed"
    OPEN = "open"


class Arrivals(str, enum.Enum):
    POISSON = "poisson"  # exponential gaps: independent users, the realistic default
    CONSTANT = "constant"  # equal gaps: easiest to reason about


class WarmupMode(str, enum.Enum):
    CONCURRENT = "concurrent"  # the level's first jobs, run under its load and left out of the statistics
    SEQUENTIAL = "sequential"  # run one at a time before the level's load starts, so they load nothing


class PlanError(ValueError):
    """A plan that cannot run; the message says which setting to change."""


# What a plan's numbers may be, declared once: Plan.validate, `dubstudio bench`'s options and the
# stress panel's fields read it. NaN passes a test like ``value <= 0``; a Range refuses it.
LEVEL = Range("level", 1, 10_000, whole=True, code=ErrorCode.PLAN)  # users, or multiples of the rate
PLAN_RANGES = ranges(
    Range("jobs_per_level", 1, 1_000_000, whole=True),
    Range("seconds_per_level", 0.001, 7 * 24 * 3600.0, unit="s"),
    Range("warmup_jobs", 0, 1_000_000, whole=True),
    Range("think_s", 0.0, 3600.0, unit="s"),
    Range("rate", 0.0001, 10_000.0, unit="jobs/s", hint="per level unit"),
    Range("max_in_flight", 1, 1_000_000, whole=True),
    Range("job_timeout_s", 0.001, 24 * 3600.0, unit="s"),
    code=ErrorCode.PLAN,
)


@dataclass(frozen=True)
class Plan:
    mode: Mode = Mode.CLOSED
    levels: tuple[int, ...] = (1, 2, 4)
    jobs_per_level: int | None = 10  # measured jobs per level (warm-up not included) ...
    seconds_per_level: float | None = None  # ... or seconds of submissions per level
    warmup_jobs: int = 1  # per level, submitted first and excluded from the statistics
    warmup_mode: WarmupMode = WarmupMode.CONCURRENT
    think_s: float = 0.0  # closed loop: pause between a user's jobs
    rate: float = 0.5  # open loop: arrivals per second per level unit (level 4 = 4 × rate)
    arrivals: Arrivals = Arrivals.POISSON
    max_in_flight: int | None = None  # open loop: jobs in flight at most (later ones wait)
    seed: int = 0  # Poisson arrivals are reproducible for a given seed
    job_timeout_s: float = 300.0  # a job not ended by then is cancelled and counts as E_TIMEOUT
    stop_after_miss: bool = False  # stop at the first level that misses the objective (a probe's stepping)

    def validate(self) -> None:
        if not self.levels:
            raise PlanError(f"{ErrorCode.PLAN}: give at least one level (e.g. --levels 1,2,4)")
        if (self.jobs_per_level is None) == (self.seconds_per_level is None):
            raise PlanError(f"{ErrorCode.PLAN}: hold each level for a number of jobs or of seconds (exactly one)")
        try:
            for level in self.levels:
                LEVEL.check(level)
            for name, allowed in PLAN_RANGES.items():
                value = getattr(self, name)
                if value is not None and (name != "rate" or self.mode is Mode.OPEN):
                    allowed.check(value)
        except RangeError as error:
            raise PlanError(str(error)) from None

    def offered_rate(self, level: int) -> float | None:
        """Open loop: arrivals per second at ``level``; None in closed loop."""
        return level * self.rate if self.mode is Mode.OPEN else None

    def label(self, level: int) -> str:
        if self.mode is Mode.CLOSED:
            return LoadPhrase.counted(level, wording.USER, wording.USERS)
        return LoadPhrase(wording.RATE, rate=level * self.rate)

    @property
    def concurrent_warmup_jobs(self) -> int:
        """Warm-up jobs the level's own driver submits (the first of its jobs)."""
        return self.warmup_jobs if self.warmup_mode is WarmupMode.CONCURRENT else 0

    def warmup_driver(self, start: float) -> Driver | None:
        """Sequential warm-up: the warm-up jobs as one user's closed loop (one at a time)."""
        if self.warmup_mode is not WarmupMode.SEQUENTIAL or self.warmup_jobs == 0:
            return None
        return ClosedLoopDriver(1, 0.0, start, self.warmup_jobs, None)

    def driver(self, level_index: int, start: float) -> Driver:
        """The driver of the ``level_index``-th level, starting at clock time ``start``."""
        level = self.levels[level_index]
        quota = None if self.jobs_per_level is None else self.jobs_per_level + self.concurrent_warmup_jobs
        deadline = None if self.seconds_per_level is None else start + self.seconds_per_level
        if self.mode is Mode.CLOSED:
            return ClosedLoopDriver(level, self.think_s, start, quota, deadline)
        rng = random.Random(f"{self.seed}:{level_index}")
        offsets = arrival_offsets(level * self.rate, self.arrivals, rng)
        return OpenLoopDriver(offsets, start, quota, deadline, self.max_in_flight)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["mode"] = self.mode.value
        data["arrivals"] = self.arrivals.value
        data["warmup_mode"] = self.warmup_mode.value
        data["levels"] = list(self.levels)
        return data


def arrival_offsets(rate: float, kind: Arrivals, rng: random.Random) -> Iterator[float]:
    """Arrival times (seconds after the level starts) of an endless stream at ``rate`` per second.

    The first job arrives at 0 in both kinds; constant gaps are ``1 / rate``; Poisson gaps are
    exponential with mean ``1 / rate``, drawn by inversion (``-ln(1 - u) / rate``) so a test can
    compute them from the same uniform numbers.
    """
    t = 0.0
    while True:
        yield t
        if kind is Arrivals.CONSTANT:
            t += 1.0 / rate
        else:
            t += -math.log(1.0 - rng.random()) / rate


@dataclass(frozen=True)
class Due:
    """A job the driver wants submitted now."""

    scheduled: float  # clock time it was due; latencies count from here
    user: int | None  # the closed-loop user who owns it


class Driver(abc.ABC):
    """Decides when jobs are due in one level; the runner reports back when they end."""

    submitted: int = 0  # jobs returned by due() so far

    @abc.abstractmethod
    def due(self, now: float) -> list[Due]:
        """Jobs due at or before ``now`` that may be submitted now (each is returned once)."""

    @abc.abstractmethod
    def job_ended(self, user: int | None, now: float) -> None:
        """A job of ``user`` (None in open loop) ended at ``now``."""

    @abc.abstractmethod
    def next_wakeup(self) -> float | None:
        """The next clock time a job may become due without any job ending; None if never."""

    @abc.abstractmethod
    def exhausted(self, now: float) -> bool:
        """True once the level will submit nothing more (quota reached or time up)."""


class ClosedLoopDriver(Driver):
    """``users`` virtual users, each with at most one job in flight."""

    def __init__(self, users: int, think_s: float, start: float, quota: int | None, deadline: float | None) -> None:
        self.think_s = think_s
        self.quota = quota
        self.deadline = deadline
        self.submitted = 0
        self._ready: dict[int, float] = {user: start for user in range(users)}  # idle users -> ready time

    def _may_submit(self, scheduled: float) -> bool:
        if self.quota is not None and self.submitted >= self.quota:
            return False
        return self.deadline is None or scheduled < self.deadline

    def due(self, now: float) -> list[Due]:
        result: list[Due] = []
        for user, ready in sorted(self._ready.items(), key=lambda item: (item[1], item[0])):
            if ready > now or not self._may_submit(ready):
                continue
            del self._ready[user]
            self.submitted += 1
            result.append(Due(ready, user))
        return result

    def job_ended(self, user: int | None, now: float) -> None:
        assert user is not None
        self._ready[user] = now + self.think_s

    def next_wakeup(self) -> float | None:
        pending = [t for t in self._ready.values() if self._may_submit(t)]
        return min(pending) if pending else None

    def exhausted(self, now: float) -> bool:
        if self.quota is not None and self.submitted >= self.quota:
            return True
        # Past the deadline every user's next job would be due too late (due() ran first).
        return self.deadline is not None and now >= self.deadline


class OpenLoopDriver(Driver):
    """Arrivals on a schedule; with a cap, an arrival waits until a job in flight ends."""

    def __init__(self, offsets: Iterator[float], start: float, quota: int | None, deadline: float | None,
                 max_in_flight: int | None) -> None:
        self._offsets = offsets
        self.start = start
        self.quota = quota
        self.deadline = deadline
        self.max_in_flight = max_in_flight
        self.in_flight = 0
        self.submitted = 0
        self._next: float | None = None
        self._advance()

    def _advance(self) -> None:
        if self.quota is not None and self.submitted >= self.quota:
            self._next = None
            return
        t = self.start + next(self._offsets)
        self._next = None if self.deadline is not None and t >= self.deadline else t

    def due(self, now: float) -> list[Due]:
        result: list[Due] = []
        while self._next is not None and self._next <= now:
            if self.max_in_flight is not None and self.in_flight >= self.max_in_flight:
                break
            result.append(Due(self._next, None))
            self.submitted += 1
            self.in_flight += 1
            self._advance()
        return result

    def job_ended(self, user: int | None, now: float) -> None:
        self.in_flight -= 1

    def next_wakeup(self) -> float | None:
        if self._next is None:
            return None
        if self.max_in_flight is not None and self.in_flight >= self.max_in_flight:
            return None  # only an ending job can free a place
        return self._next

    def exhausted(self, now: float) -> bool:
        return self._next is None

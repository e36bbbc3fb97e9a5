"""Statistics over job records: latency summaries, rates, per-level tables and the verdict.

Everything here is a pure function of records and samples, so the CLI, the stress panel and
the tests compute exactly the same numbers.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.core.codes import ErrorCode
from engine.core.numbers import Range, ranges
from engine.core.phrases import Phrase
from engine.core.protocol import BackendName
from engine.load import wording
from engine.load.records import OK, JobRecord
from engine.load.sampler import ResourceSample
from engine.load.wording import LoadPhrase, joined

PERCENTILES = (50, 90, 95, 99)


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0-100) by linear interpolation between closest ranks.

    This is numpy's default ("linear", Hyndman-Fan type 7, Excel's PERCENTILE.INC): the value
    at rank ``(n - 1) * p / 100`` of the sorted values, interpolated between neighbours. It is
    what Locust's CSV, vLLM's benchmark and most spreadsheets report, so figures compare.
    """
    if not values:
        raise ValueError("percentile of no values")
    if not 0.0 <= p <= 100.0:
        raise ValueError(f"percentile {p} is outside 0..100")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * p / 100.0
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    fraction = rank - low
    return ordered[low] + (ordered[high] - ordered[low]) * fraction


@dataclass(frozen=True)
class Summary:
    """Distribution of one latency (or ratio) over a level's jobs; ``None`` fields when empty."""

    count: int
    mean: float | None
    std: float | None  # population standard deviation (numpy's default, as vLLM reports it)
    p50: float | None
    p90: float | None
    p95: float | None
    p99: float | None
    min: float | None
    max: float | None

    @staticmethod
    def of(values: Iterable[float | None]) -> Summary:
        data = [float(v) for v in values if v is not None]
        if not data:
            return Summary(0, None, None, None, None, None, None, None, None)
        p50, p90, p95, p99 = (percentile(data, p) for p in PERCENTILES)
        mean = sum(data) / len(data)
        std = math.sqrt(sum((value - mean) ** 2 for value in data) / len(data))
        return Summary(len(data), mean, std, p50, p90, p95, p99, min(data), max(data))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _mean_max(values: Iterable[float | None]) -> dict[str, float] | None:
    data = [v for v in values if v is not None]
    if not data:
        return None
    return {"mean": sum(data) / len(data), "max": max(data)}


@dataclass(frozen=True)
class LevelRun:
    """What the runner knows about a level besides its jobs."""

    level: int
    level_index: int
    label: str  # "2 users" (closed loop) or "1.00 jobs/s" (open loop)
    offered_rate: float | None  # open loop: arrivals per second
    start_s: float
    end_s: float
    complete: bool  # False when the run was stopped during this level


# Metrics whose change against the first level is reported, and how to read them.
CHANGE_KEYS = (
    "first_audio_p50",
    "first_audio_p95",
    "total_p50",
    "total_p95",
    "jobs_per_s",
    "goodput_per_s",
    "audio_per_wall_s",
    "engine_cpu_mean",
    "engine_rss_max",
)


@dataclass
class LevelStats:
    """One row of the per-level table (one object of the report's ``levels``)."""

    level: int
    level_index: int
    label: str
    offered_rate: float | None
    complete: bool
    start_s: float
    end_s: float
    duration_s: float  # measurement window: first measured job due -> last measured job ended
    jobs: int  # measured jobs that ended (ok + errors)
    ok: int
    errors: int
    error_rate: float
    errors_by_kind: dict[str, int]
    warmup_jobs: int
    jobs_per_s: float  # successful jobs per second of the window
    goodput_jobs: int  # successful jobs with first audio within the objective's bound and no stall
    goodput_per_s: float  # goodput_jobs per second of the window
    goodput_fraction: float  # goodput_jobs / jobs
    audio_per_wall_s: float  # seconds of audio produced per second of the window
    stalls_per_job: float
    stalled_s_per_job: float
    jobs_with_stalls: int
    cache_hits: int
    cache_misses: int
    first_audio_s: Summary
    first_audio_max_over_p95: float | None  # spread: how far the worst job lies beyond the p95
    total_s: Summary
    queue_wait_s: Summary
    compute_s: Summary  # engine time computing each job's pieces
    max_gap_s: Summary  # each job's worst inter-chunk gap (> 0: its longest stall)
    rtf: Summary
    engine_cpu_pct: dict[str, float] | None
    engine_rss_mb: dict[str, float] | None
    gpu_util_pct: dict[str, float] | None
    gpu_mem_mb: dict[str, float] | None
    peak_in_flight: int  # most jobs of the level (warm-up included) in flight at one moment
    not_reached: str | None  # why the level's load never really happened; None when it did
    change_vs_first_pct: dict[str, float | None] = field(default_factory=dict)
    meets_objective: bool = False
    objective_misses: list[str] = field(default_factory=list)

    @property
    def reached(self) -> bool:
        """Whether the level's load really happened (see :func:`not_reached`)."""
        return self.not_reached is None

    def metric(self, key: str) -> float | None:
        """The value of one of :data:`CHANGE_KEYS`."""
        values: dict[str, float | None] = {
            "first_audio_p50": self.first_audio_s.p50,
            "first_audio_p95": self.first_audio_s.p95,
            "total_p50": self.total_s.p50,
            "total_p95": self.total_s.p95,
            "jobs_per_s": self.jobs_per_s,
            "goodput_per_s": self.goodput_per_s,
            "audio_per_wall_s": self.audio_per_wall_s,
            "engine_cpu_mean": None if self.engine_cpu_pct is None else self.engine_cpu_pct["mean"],
            "engine_rss_max": None if self.engine_rss_mb is None else self.engine_rss_mb["max"],
        }
        return values[key]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in SUMMARY_FIELDS:
            data[key] = getattr(self, key).to_dict()
        return data


SUMMARY_FIELDS = ("first_audio_s", "total_s", "queue_wait_s", "compute_s", "max_gap_s", "rtf")
"""The :class:`LevelStats` fields that are a :class:`Summary`."""


def level_stats(run: LevelRun, records: Sequence[JobRecord], samples: Sequence[ResourceSample],
                objective: Objective | None = None) -> LevelStats:
    """Aggregate one level: ``records`` are that level's jobs (warm-up included, it is skipped).

    ``objective`` decides which jobs count as goodput (default: :class:`Objective`'s defaults).
    """
    objective = objective or Objective()
    measured = [r for r in records if r.measured]
    good = [r for r in measured if r.status == OK]
    failed = [r for r in measured if r.status != OK]
    on_time = [r for r in good if r.first_audio_s is not None and r.first_audio_s <= objective.p95_first_audio_s
               and r.stalls == 0]
    first_audio = Summary.of(r.first_audio_s for r in good)
    if measured:
        window = max(r.end_s or 0.0 for r in measured) - min(r.scheduled_s for r in measured)
    else:
        window = 0.0
    audio = sum(r.audio_s for r in good)
    stalls = sum(r.stalls for r in good)
    in_level = [s for s in samples if run.start_s <= s.t_s <= run.end_s]
    total_s = Summary.of(r.total_s for r in good)
    peak = peak_in_flight(records)
    return LevelStats(
        level=run.level,
        level_index=run.level_index,
        label=run.label,
        offered_rate=run.offered_rate,
        complete=run.complete,
        start_s=run.start_s,
        end_s=run.end_s,
        duration_s=window,
        jobs=len(measured),
        ok=len(good),
        errors=len(failed),
        error_rate=len(failed) / len(measured) if measured else 0.0,
        errors_by_kind=dict(sorted(Counter(r.error or "unknown" for r in failed).items())),
        warmup_jobs=sum(1 for r in records if r.warmup),
        jobs_per_s=len(good) / window if window > 0 else 0.0,
        goodput_jobs=len(on_time),
        goodput_per_s=len(on_time) / window if window > 0 else 0.0,
        goodput_fraction=len(on_time) / len(measured) if measured else 0.0,
        audio_per_wall_s=audio / window if window > 0 else 0.0,
        stalls_per_job=stalls / len(good) if good else 0.0,
        stalled_s_per_job=sum(r.stalled_s for r in good) / len(good) if good else 0.0,
        jobs_with_stalls=sum(1 for r in good if r.stalls),
        cache_hits=sum(1 for r in measured if r.cache_hit is True),
        cache_misses=sum(1 for r in measured if r.cache_hit is False),
        first_audio_s=first_audio,
        first_audio_max_over_p95=(first_audio.max / first_audio.p95 if first_audio.max is not None
                                  and first_audio.p95 else None),
        total_s=total_s,
        queue_wait_s=Summary.of(r.queue_wait_s for r in good),
        compute_s=Summary.of(r.compute_s for r in good),
        max_gap_s=Summary.of(r.max_gap_s for r in good),
        rtf=Summary.of(r.rtf for r in good),
        engine_cpu_pct=_mean_max(s.cpu_pct for s in in_level),
        engine_rss_mb=_mean_max(s.rss_mb for s in in_level),
        gpu_util_pct=_mean_max(s.gpu_util_pct for s in in_level),
        gpu_mem_mb=_mean_max(s.gpu_mem_mb for s in in_level),
        peak_in_flight=peak,
        not_reached=not_reached(run, sum(1 for r in records if r.submit_s is not None), peak, total_s.mean),
    )


def peak_in_flight(records: Iterable[JobRecord]) -> int:
    """The most jobs submitted and not yet ended at any one moment."""
    edges: list[tuple[float, int]] = []
    for r in records:
        if r.submit_s is not None:
            edges += [(r.submit_s, 1), (math.inf if r.end_s is None else r.end_s, -1)]
    peak = current = 0
    for _, step in sorted(edges):  # at the same moment an end (-1) sorts first: it frees its place
        current += step
        peak = max(peak, current)
    return peak


def not_reached(run: LevelRun, submitted: int, peak: int, mean_total_s: float | None) -> str | None:
    """Why a level's load never really happened, in words; None when it did.

    Closed loop, the level is a number of users: it is reached only when that many jobs were
    in flight at once (``--levels 1000 --jobs-per-level 5`` never had more than six).
    Open loop, the level is an arrival rate: at rate λ with mean latency W a steady state holds
    λ·W jobs in flight (Little's law), so a level with fewer arrivals than that, or fewer than
    two (one job has no rate), ended before its load built up.
    """
    if run.offered_rate is None:
        if peak < run.level:
            return LoadPhrase(wording.FEW_USERS_BUSY, peak=peak, users=run.level, submitted=submitted)
        return None
    steady = run.offered_rate * (mean_total_s or 0.0)
    needed = max(2, math.ceil(steady))
    if submitted < needed:
        return LoadPhrase(wording.FEW_ARRIVED, submitted=submitted, label=run.label, steady=steady, needed=needed)
    return None


def percent_change(value: float | None, base: float | None) -> float | None:
    """``(value - base) / base`` in percent; None when either is missing or the base is zero."""
    if value is None or base is None or base == 0:
        return None
    return (value - base) / base * 100.0


def add_changes(levels: Sequence[LevelStats]) -> None:
    """Fill each level's ``change_vs_first_pct`` against the first level of the list."""
    if not levels:
        return
    first = levels[0]
    for stats in levels:
        stats.change_vs_first_pct = {key: percent_change(stats.metric(key), first.metric(key)) for key in CHANGE_KEYS}


# --- the objective and the verdict ---------------------------------------------------------


# What an objective's bounds may be (Objective.validate, `dubstudio bench`'s options, the stress panel).
OBJECTIVE_RANGES = ranges(
    Range("p95_first_audio_s", 0.001, 3600.0, unit="s"),
    Range("max_error_rate", 0.0, 1.0, hint="(a fraction of the measured jobs)"),
    Range("max_stalls_per_job", 0.0, 1_000_000.0),
    Range("p95_total_s", 0.001, 24 * 3600.0, unit="s"),
    code=ErrorCode.BENCH,
)


@dataclass(frozen=True)
class Objective:
    """What "serves this level" means; the defaults follow what a listener tolerates."""

    p95_first_audio_s: float = 1.5
    max_error_rate: float = 0.0  # fraction of measured jobs
    max_stalls_per_job: float = 0.0
    p95_total_s: float | None = None  # optional bound on whole-line latency

    def validate(self) -> None:
        """Raise RangeError (E_BENCH) unless every bound is a number in its OBJECTIVE_RANGES range."""
        for name, allowed in OBJECTIVE_RANGES.items():
            if getattr(self, name) is not None:
                allowed.check(getattr(self, name))

    def describe(self) -> str:
        parts = [LoadPhrase(wording.P95_FIRST_AT_MOST, seconds=self.p95_first_audio_s)]
        if self.p95_total_s is not None:
            parts.append(LoadPhrase(wording.P95_TOTAL_AT_MOST, seconds=self.p95_total_s))
        parts.append(LoadPhrase(wording.NO_ERRORS) if self.max_error_rate == 0
                     else LoadPhrase(wording.ERRORS_AT_MOST, rate=self.max_error_rate))
        parts.append(LoadPhrase(wording.NO_STALLS) if self.max_stalls_per_job == 0
                     else LoadPhrase(wording.STALLS_AT_MOST, stalls=self.max_stalls_per_job))
        return joined(parts)

    def misses(self, stats: LevelStats) -> list[str]:
        """Why a level does not meet the objective, in words; empty when it does."""
        if stats.ok == 0:
            return [LoadPhrase(wording.NO_JOB_FINISHED)] if stats.errors == 0 else [_errors_phrase(stats)]
        reasons: list[str] = []
        p95 = stats.first_audio_s.p95
        if p95 is None or p95 > self.p95_first_audio_s:
            reasons.append(LoadPhrase(wording.P95_FIRST_WAS, value=_seconds(p95), limit=self.p95_first_audio_s))
        if self.p95_total_s is not None and (stats.total_s.p95 is None or stats.total_s.p95 > self.p95_total_s):
            reasons.append(LoadPhrase(wording.P95_TOTAL_WAS, value=_seconds(stats.total_s.p95), limit=self.p95_total_s))
        if stats.error_rate > self.max_error_rate:
            reasons.append(_errors_phrase(stats))
        if stats.stalls_per_job > self.max_stalls_per_job:
            reasons.append(LoadPhrase(wording.STALLED, stalls=stats.stalls_per_job))
        return reasons


def _seconds(value: float | None) -> str:
    return LoadPhrase(wording.NOT_AVAILABLE) if value is None else LoadPhrase(wording.SECONDS, seconds=value)


def _errors_phrase(stats: LevelStats) -> str:
    kinds = joined([LoadPhrase(wording.ERROR_KIND, kind=kind, count=count) for kind, count in stats.errors_by_kind.items()])
    return LoadPhrase.counted(stats.errors, wording.ONE_ERROR, wording.ERRORS, jobs=stats.jobs, kinds=kinds)


def apply_objective(levels: Sequence[LevelStats], objective: Objective) -> None:
    for stats in levels:
        stats.objective_misses = objective.misses(stats)
        stats.meets_objective = not stats.objective_misses


@dataclass(frozen=True)
class Verdict:
    """The capacity answer: the highest level served within the objective, and one sentence."""

    capacity_level: int | None  # None: no level met the objective (or none finished)
    capacity_label: str | None
    objective: dict[str, Any]
    levels_met: list[int]
    levels_missed: dict[str, list[str]]  # level (as a string, for JSON) -> reasons
    levels_not_reached: dict[str, str]  # level -> why its load never happened (never claimed)
    highest_level_tried: int | None
    all_levels_met: bool
    complete: bool  # False when the run was stopped before its last level finished
    sentence: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def make_verdict(levels: Sequence[LevelStats], objective: Objective, mode: str, backend: str, slots: int,
                 stopped: bool = False, machine: str = LoadPhrase(wording.THIS_MACHINE)) -> Verdict:
    """Find the capacity among the complete levels and say it in one sentence.

    ``machine`` names what was measured ("this machine", or a server's URL).
    The capacity is the highest level such that it and every lower level met the objective:
    a level that passes above one that failed is noise (a lucky sample), not capacity.
    A level that was not reached (see :func:`not_reached`) and met the objective proves
    nothing, so it is never claimed and does not count either way; one that was not reached
    and still missed the objective counts as a miss (a higher load would only do worse).
    ``levels`` must already carry :func:`apply_objective`'s results.
    """
    finished = sorted((s for s in levels if s.complete), key=lambda s: (s.level, s.level_index))
    unreached = [s for s in finished if not s.reached and s.meets_objective]
    judged = [s for s in finished if s not in unreached]
    met = [s.level for s in judged if s.meets_objective]
    missed = {str(s.level): list(s.objective_misses) for s in judged if not s.meets_objective}
    capacity: LevelStats | None = None
    first_miss: LevelStats | None = None
    for stats in judged:
        if not stats.meets_objective:
            first_miss = stats
            break
        capacity = stats
    prefix = LoadPhrase.counted(slots, wording.ON_SLOT, wording.ON_SLOTS, backend=backend if isinstance(backend, Phrase) else BackendName(backend))
    served = LoadPhrase(wording.SERVES if mode == "closed" else wording.KEEPS_UP)
    target = objective.describe()
    highest = LoadPhrase(wording.HIGHEST_REACHED if unreached else wording.HIGHEST_TRIED)
    sentence: str
    if not finished:
        sentence = LoadPhrase(wording.NO_LEVEL_FINISHED)
    elif not judged:
        sentence = LoadPhrase(wording.NO_LEVEL_REACHED, prefix=prefix)
    elif capacity is None and not met:
        assert first_miss is not None
        sentence = LoadPhrase(wording.NO_LEVEL_MET, prefix=prefix, machine=machine, target=target,
                              level=_miss_label(first_miss), misses=joined(first_miss.objective_misses,
                                                                           wording.SEMICOLON_LIST))
    elif capacity is None:
        assert first_miss is not None
        sentence = LoadPhrase(wording.NO_CAPACITY, prefix=prefix, machine=machine, target=target,
                              level=_miss_label(first_miss), misses=joined(first_miss.objective_misses,
                                                                           wording.SEMICOLON_LIST))
    elif first_miss is None:
        sentence = LoadPhrase(wording.EVERY_LEVEL_MET, prefix=prefix, machine=machine, served=served,
                              capacity=_capacity_words(capacity, mode), highest=highest,
                              stopped=LoadPhrase(wording.STOPPED_EARLY) if stopped else "", target=target,
                              p95=_seconds(capacity.first_audio_s.p95))
    else:
        sentence = LoadPhrase(wording.CAPACITY, prefix=prefix, machine=machine, served=served,
                              capacity=_capacity_words(capacity, mode), target=target,
                              p95=_seconds(capacity.first_audio_s.p95), level=_miss_label(first_miss),
                              misses=joined(first_miss.objective_misses, wording.SEMICOLON_LIST))
    passed_above = [s for s in judged if s.meets_objective and first_miss is not None and s.level > first_miss.level]
    if passed_above:  # the table says "ok: yes" for them: say why the verdict does not count them
        sentence = LoadPhrase.counted(len(passed_above), wording.ONE_PASSED_ABOVE, wording.PASSED_ABOVE,
                                      sentence=sentence, levels=joined([s.label for s in passed_above]))
    if unreached:
        advice = LoadPhrase(wording.MORE_JOBS_CLOSED if mode == "closed" else wording.MORE_JOBS_OPEN)
        unreached_levels = joined([LoadPhrase(wording.LEVEL_AND_WHY, label=s.label, why=s.not_reached) for s in unreached],
                        wording.SEMICOLON_LIST)
        sentence = LoadPhrase(wording.NOT_CLAIMED, sentence=sentence, levels=unreached_levels, advice=advice)
    return Verdict(
        capacity_level=None if capacity is None else capacity.level,
        capacity_label=None if capacity is None else capacity.label,
        objective=asdict(objective),
        levels_met=met,
        levels_missed=missed,
        levels_not_reached={str(s.level): s.not_reached or "" for s in unreached},
        highest_level_tried=finished[-1].level if finished else None,
        all_levels_met=bool(judged) and first_miss is None and not unreached,
        complete=not stopped,
        sentence=sentence,
    )


def _miss_label(stats: LevelStats) -> str:
    """A missed level's label, saying so when its load never fully happened."""
    return stats.label if stats.reached else LoadPhrase(wording.MISSED_UNREACHED, label=stats.label, why=stats.not_reached)


def _capacity_words(stats: LevelStats, mode: str) -> str:
    if mode == "closed":
        return LoadPhrase.counted(stats.level, wording.CONCURRENT_USER, wording.CONCURRENT_USERS)
    return stats.label

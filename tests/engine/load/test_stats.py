"""Statistics against hand-computed cases: percentiles, rates, errors, changes, the verdict."""

from __future__ import annotations

import math

import pytest

from engine.load.report import format_table
from engine.load.runner import BenchError, BenchSettings
from engine.load.stats import (
    LevelRun,
    LevelStats,
    Objective,
    Summary,
    add_changes,
    apply_objective,
    level_stats,
    make_verdict,
    peak_in_flight,
    percent_change,
    percentile,
)
from tests.engine.load.helpers import level_of, record


def test_percentile_interpolates_between_closest_ranks() -> None:
    values = [4.0, 1.0, 3.0, 2.0]  # sorted: 1 2 3 4; rank = 3 * p / 100
    assert percentile(values, 0) == 1.0
    assert percentile(values, 50) == pytest.approx(2.5)  # rank 1.5
    assert percentile(values, 90) == pytest.approx(3.7)  # rank 2.7: 3 + 0.7 * (4 - 3)
    assert percentile(values, 95) == pytest.approx(3.85)
    assert percentile(values, 99) == pytest.approx(3.97)
    assert percentile(values, 100) == 4.0
    assert percentile([7.0], 99) == 7.0


def test_percentile_matches_numpy_default() -> None:
    import numpy as np

    values = [0.31, 1.7, 0.42, 0.9, 2.5, 0.05, 1.1, 0.77, 3.3, 0.6, 0.61]
    for p in (50, 90, 95, 99):
        assert percentile(values, p) == pytest.approx(float(np.percentile(values, p)))


def test_percentile_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        percentile([], 50)
    with pytest.raises(ValueError):
        percentile([1.0], 101)


def test_summary_of_values_and_of_nothing() -> None:
    s = Summary.of([1.0, None, 3.0, 2.0])
    assert (s.count, s.mean, s.p50, s.min, s.max) == (3, 2.0, 2.0, 1.0, 3.0)
    assert s.std == pytest.approx((2 / 3) ** 0.5)  # population standard deviation
    empty = Summary.of([])
    assert empty.count == 0 and empty.p95 is None and empty.mean is None and empty.std is None


def test_goodput_counts_jobs_on_time_without_stalls() -> None:
    stalled = [(2.5, 0.1), (3.0, 0.1)]  # due at 2.0: first audio 0.5, then a 0.4 s stall
    records = [
        record(0, 0.0, 0.5, 1.0),  # on time
        record(1, 1.0, 3.0, 4.0),  # first audio 2.0: late
        record(2, 2.0, None, 5.0, chunks=stalled),  # on time but stalled
        record(3, 3.0, None, 6.0, error="E_BACKEND"),
    ]
    run = LevelRun(4, 0, "4 users", None, 0.0, 6.0, complete=True)
    s = level_stats(run, records, [], Objective(p95_first_audio_s=1.0))
    assert (s.goodput_jobs, s.goodput_fraction) == (1, pytest.approx(1 / 4))
    assert s.goodput_per_s == pytest.approx(1 / 6.0)  # window 0.0 -> 6.0
    lenient = level_stats(run, records, [], Objective(p95_first_audio_s=3.0))
    assert lenient.goodput_jobs == 2  # the stalled job never counts


def test_queue_wait_compute_gaps_and_spread() -> None:
    records = [record(i, float(i), float(i) + latency, float(i) + 3.0, compute=compute)
               for i, (latency, compute) in enumerate([(0.2, 0.5), (0.4, 0.7), (1.0, 0.6)])]
    records.append(record(3, 3.0, None, 6.0, chunks=[(3.3, 1.0), (4.0, 1.0), (5.5, 1.0)]))
    run = LevelRun(2, 0, "2 users", None, 0.0, 6.0, complete=True)
    s = level_stats(run, records, [])
    assert s.compute_s.count == 3 and s.compute_s.mean == pytest.approx(0.6)
    # the 4th job plays to 4.3, then to 5.3; its third chunk arrives 0.2 s late
    assert s.max_gap_s.count == 1 and s.max_gap_s.max == pytest.approx(0.2)
    first = [0.2, 0.4, 1.0, 0.3]
    assert s.first_audio_max_over_p95 == pytest.approx(max(first) / percentile(first, 95))


def test_level_stats_hand_computed() -> None:
    records = [
        record(0, 0.0, 0.2, 1.0, warmup=True, audio=9.0),  # warm-up: left out everywhere
        record(1, 1.0, 1.5, 3.0, audio=4.0),  # first audio 0.5, total 2.0
        record(2, 3.0, 3.3, 4.0, audio=2.0, cache="miss"),  # first audio 0.3, total 1.0
        record(3, 4.0, None, 5.0, error="E_BACKEND"),
    ]
    run = LevelRun(2, 1, "2 users", None, 0.0, 5.0, complete=True)
    s = level_stats(run, records, [])
    # window: first measured job due at 1.0 -> last measured job ended at 5.0
    assert s.duration_s == pytest.approx(4.0)
    assert (s.jobs, s.ok, s.errors, s.warmup_jobs) == (3, 2, 1, 1)
    assert s.error_rate == pytest.approx(1 / 3)
    assert s.errors_by_kind == {"E_BACKEND": 1}
    assert s.jobs_per_s == pytest.approx(2 / 4.0)
    assert s.audio_per_wall_s == pytest.approx(6.0 / 4.0)
    assert s.first_audio_s.mean == pytest.approx(0.4)
    assert s.first_audio_s.p50 == pytest.approx(0.4)
    assert s.first_audio_s.p95 == pytest.approx(0.3 + 0.95 * 0.2)
    assert s.total_s.mean == pytest.approx(1.5)
    assert (s.cache_hits, s.cache_misses) == (1, 1)
    assert s.rtf.mean == pytest.approx((2.0 / 4.0 + 1.0 / 2.0) / 2)
    assert s.engine_cpu_pct is None  # no samples


def test_level_stats_counts_stalls_per_successful_job() -> None:
    s = level_of(1, [0.2, 0.2, 0.2, 0.2], stalls=2)
    assert s.stalls_per_job == pytest.approx(0.5)
    assert s.jobs_with_stalls == 2
    assert s.stalled_s_per_job == pytest.approx(2 * 0.4 / 4)  # each stall: 0.5 gap - 0.1 played


def test_level_stats_averages_resource_samples_inside_the_level() -> None:
    from engine.load.sampler import ResourceSample

    samples = [ResourceSample(t, cpu, rss, None, None, 1) for t, cpu, rss in
               [(0.5, 50.0, 100.0), (1.0, 150.0, 300.0), (9.0, 999.0, 999.0)]]
    run = LevelRun(1, 0, "1 user", None, 0.0, 2.0, complete=True)
    s = level_stats(run, [record(0, 0.0, 0.1, 1.0)], samples)
    assert s.engine_cpu_pct == {"mean": 100.0, "max": 150.0}
    assert s.engine_rss_mb == {"mean": 200.0, "max": 300.0}
    assert s.gpu_util_pct is None


def test_changes_against_the_first_level() -> None:
    assert percent_change(3.0, 2.0) == pytest.approx(50.0)
    assert percent_change(None, 2.0) is None and percent_change(1.0, 0.0) is None
    first, second = level_of(1, [1.0, 1.0]), level_of(2, [1.5, 1.5], index=1)
    add_changes([first, second])
    assert first.change_vs_first_pct["first_audio_p95"] == 0.0
    assert second.change_vs_first_pct["first_audio_p95"] == pytest.approx(50.0)
    assert second.change_vs_first_pct["engine_cpu_mean"] is None  # no samples


def test_objective_misses_say_why() -> None:
    objective = Objective(p95_first_audio_s=1.0)
    good = level_of(1, [0.5, 0.6])
    slow = level_of(2, [0.5, 2.0])
    failing = level_of(3, [0.5], errors=1)
    stalling = level_of(4, [0.5, 0.5], stalls=1)
    assert objective.misses(good) == []
    assert "p95 first audio" in objective.misses(slow)[0]
    assert "1 error in 2 jobs (E_BACKEND ×1)" in objective.misses(failing)
    assert "stalled 0.50 times per job" in objective.misses(stalling)[0]
    lenient = Objective(p95_first_audio_s=1.0, max_error_rate=0.5, max_stalls_per_job=1.0)
    assert lenient.misses(failing) == [] and lenient.misses(stalling) == []


def _verdict(levels, objective=Objective(), mode="closed", stopped=False):
    apply_objective(levels, objective)
    return make_verdict(levels, objective, mode, "piper", 2, stopped=stopped)


def test_verdict_finds_the_capacity_and_names_the_next_level() -> None:
    levels = [level_of(1, [0.5] * 4), level_of(2, [0.9] * 4, index=1), level_of(4, [2.0] * 4, index=2)]
    v = _verdict(levels)
    assert v.capacity_level == 2 and v.levels_met == [1, 2] and list(v.levels_missed) == ["4"]
    assert v.sentence.startswith("On piper with 2 slots, this machine serves up to 2 concurrent users")
    assert "at 4 users p95 first audio was 2.00 s" in v.sentence
    assert v.sentence.count(".") >= 1 and "\n" not in v.sentence


def test_verdict_is_conservative_when_a_higher_level_passes_after_a_miss() -> None:
    levels = [level_of(1, [0.5]), level_of(2, [3.0, 3.0], index=1), level_of(4, [0.5] * 4, index=2)]
    v = _verdict(levels)
    assert v.capacity_level == 1 and v.levels_met == [1, 4]
    assert "4 users met the objective but is not counted" in v.sentence


def test_verdict_agrees_with_its_table_when_only_a_higher_level_passes() -> None:
    # The stress tab said "no level met the objective" over a table whose 2-user column read "ok: yes".
    levels = [level_of(1, [3.0, 3.0]), level_of(2, [0.5] * 4, index=1)]
    v = _verdict(levels)
    assert v.capacity_level is None and v.levels_met == [2]
    assert "no level met" not in v.sentence
    assert "no capacity can be claimed on this machine" in v.sentence and f"the lowest level, {levels[0].label}, missed" in v.sentence
    assert "2 users met the objective but is not counted" in v.sentence


def test_verdict_when_nothing_or_everything_passes() -> None:
    none = _verdict([level_of(1, [2.0]), level_of(2, [3.0], index=1)])
    assert none.capacity_level is None and "no level met the objective on this machine" in none.sentence
    everything = _verdict([level_of(1, [0.2]), level_of(2, [0.3, 0.3], index=1)])
    assert everything.capacity_level == 2 and everything.all_levels_met
    assert "the highest level tried" in everything.sentence


def test_verdict_ignores_a_stopped_level_and_says_so() -> None:
    partial = level_of(2, [5.0], index=1)
    partial.complete = False
    v = _verdict([level_of(1, [0.2]), partial], stopped=True)
    assert v.capacity_level == 1 and not v.complete and "stopped early" in v.sentence
    nothing = _verdict([], stopped=True)
    assert nothing.capacity_level is None and "no capacity verdict" in nothing.sentence


def open_level(jobs: int, rate: float, latency: float) -> LevelStats:
    """An open-loop level: ``jobs`` arrivals at ``rate`` per second, each ``latency`` s long."""
    records = [record(i, i / rate, i / rate + 0.1, i / rate + latency) for i in range(jobs)]
    run = LevelRun(1, 0, f"{rate:.2f} jobs/s", rate, 0.0, 100.0, complete=True)
    return level_stats(run, records, [])


def test_open_loop_verdict_speaks_of_rates() -> None:
    v = _verdict([open_level(4, 1.0, 0.5)], mode="open")
    assert "keeps up with arrivals of up to 1.00 jobs/s" in v.sentence


# --- levels that were never reached (issue 10: `--levels 1,1000 --jobs-per-level 5` claimed 1000 users)


def test_peak_in_flight_counts_overlaps_and_frees_a_place_at_an_end() -> None:
    records = [record(0, 0.0, 0.1, 2.0), record(1, 0.5, 0.6, 1.0), record(2, 1.0, 1.1, 3.0),
               record(3, 3.0, 3.1, 4.0)]  # job 3 starts as job 2 ends: not at the same time
    assert peak_in_flight(records) == 2
    assert peak_in_flight([]) == 0


def test_a_level_with_fewer_jobs_than_users_is_not_reached_nor_claimed() -> None:
    one = level_of(1, [0.3] * 6)
    thousand = level_of(1000, [0.4] * 6, index=1)  # six jobs can never keep 1000 users busy
    assert one.reached and not thousand.reached and thousand.peak_in_flight == 6
    v = _verdict([one, thousand])
    assert v.capacity_level == 1 and v.levels_met == [1]
    assert v.levels_not_reached == {"1000": thousand.not_reached}
    assert "1000 concurrent users" not in v.sentence
    assert "serves up to 1 concurrent user, the highest level reached" in v.sentence
    assert "Not reached, so not claimed: 1000 users (at most 6 of its 1000 users" in v.sentence
    assert not v.all_levels_met
    assert "not reached" in format_table([one, thousand]).splitlines()[-1]


def test_a_level_whose_users_never_ran_together_is_not_reached() -> None:
    # Enough jobs, but one after another: in-flight concurrency stayed at 1 of 4 users.
    records = [record(i, float(i), i + 0.2, i + 1.0, level=4) for i in range(8)]
    stats = level_stats(LevelRun(4, 0, "4 users", None, 0.0, 9.0, complete=True), records, [])
    assert stats.peak_in_flight == 1 and not stats.reached
    assert "at most 1 of its 4 users" in (stats.not_reached or "")


def test_an_unreached_level_that_missed_still_counts_as_a_miss() -> None:
    slow_and_thin = level_of(8, [3.0] * 2, index=1)  # too few jobs, and already too slow
    v = _verdict([level_of(1, [0.2]), slow_and_thin])
    assert v.capacity_level == 1 and list(v.levels_missed) == ["8"] and v.levels_not_reached == {}
    assert "at 8 users (even though not reached: at most 2 of its 8 users" in v.sentence
    assert "p95 first audio was 3.00 s" in v.sentence


def test_no_verdict_when_no_level_was_reached() -> None:
    v = _verdict([level_of(4, [0.2]), level_of(8, [0.2], index=1)])
    assert v.capacity_level is None and "no level was reached" in v.sentence


def test_open_loop_level_needs_the_arrivals_its_rate_holds() -> None:
    assert "only 1 job(s) arrived" in (open_level(1, 0.5, 1.0).not_reached or "")  # one job has no rate
    assert open_level(2, 0.5, 1.0).reached  # 0.5/s × 1 s = 0.5 in flight: two arrivals suffice
    busy = open_level(5, 4.0, 3.0)  # 4/s × 3 s = 12 in flight at steady state: 5 jobs never got there
    assert not busy.reached and "at least 12" in (busy.not_reached or "")
    assert open_level(12, 4.0, 3.0).reached


@pytest.mark.parametrize("change", [{"p95_first_audio_s": math.nan}, {"p95_total_s": math.inf},
                                    {"max_error_rate": 2.0}, {"max_stalls_per_job": -1.0}])
def test_an_objective_that_cannot_be_judged_is_refused(change: dict[str, float]) -> None:
    with pytest.raises(BenchError, match="^E_BENCH: "):
        BenchSettings(objective=Objective(**change)).validate()

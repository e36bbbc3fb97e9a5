"""Load plans and drivers on a hand-driven clock: arrival schedules, caps, users, think time."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from engine.load.plans import (
    Arrivals,
    ClosedLoopDriver,
    Due,
    Mode,
    OpenLoopDriver,
    Plan,
    PlanError,
    WarmupMode,
    arrival_offsets,
)


def _take(iterator, n):
    return [next(iterator) for _ in range(n)]


def test_constant_arrivals() -> None:
    assert _take(arrival_offsets(4.0, Arrivals.CONSTANT, random.Random(0)), 4) == pytest.approx([0, 0.25, 0.5, 0.75])


def test_poisson_arrivals_are_exponential_gaps_by_inversion() -> None:
    rate = 2.0
    got = _take(arrival_offsets(rate, Arrivals.POISSON, random.Random(7)), 4)
    u = random.Random(7)
    expected = [0.0]
    for _ in range(3):
        expected.append(expected[-1] - math.log(1.0 - u.random()) / rate)
    assert got == pytest.approx(expected)


def test_poisson_mean_gap_is_one_over_the_rate() -> None:
    offsets = _take(arrival_offsets(5.0, Arrivals.POISSON, random.Random(1)), 20001)
    assert offsets[-1] / 20000 == pytest.approx(0.2, rel=0.03)


def test_open_loop_without_cap_submits_everything_due() -> None:
    driver = OpenLoopDriver(arrival_offsets(2.0, Arrivals.CONSTANT, random.Random(0)), 10.0, 4, None, None)
    assert driver.due(9.9) == []
    assert driver.next_wakeup() == 10.0
    # the runner was busy until 11.2: three arrivals are due, each keeps its own schedule
    assert driver.due(11.2) == [Due(10.0, None), Due(10.5, None), Due(11.0, None)]
    assert driver.next_wakeup() == 11.5 and not driver.exhausted(11.2)
    assert driver.due(11.5) == [Due(11.5, None)]
    assert driver.exhausted(11.5) and driver.next_wakeup() is None


def test_open_loop_cap_delays_submission_but_keeps_the_schedule() -> None:
    driver = OpenLoopDriver(arrival_offsets(2.0, Arrivals.CONSTANT, random.Random(0)), 10.0, 4, None, 1)
    assert driver.due(10.0) == [Due(10.0, None)]
    assert driver.due(10.6) == []  # 10.5 is due, but one job is in flight
    assert driver.next_wakeup() is None  # only an ending job frees the place
    driver.job_ended(None, 10.8)
    assert driver.due(10.8) == [Due(10.5, None)]  # latency will count from 10.5, not 10.8
    driver.job_ended(None, 11.9)
    assert driver.due(11.9) == [Due(11.0, None)]
    driver.job_ended(None, 12.0)
    assert driver.due(12.0) == [Due(11.5, None)]
    assert driver.exhausted(12.0)


def test_open_loop_deadline_stops_arrivals() -> None:
    driver = OpenLoopDriver(arrival_offsets(1.0, Arrivals.CONSTANT, random.Random(0)), 0.0, None, 2.5, None)
    assert [d.scheduled for d in driver.due(10.0)] == [0.0, 1.0, 2.0]
    assert driver.exhausted(10.0)


def test_closed_loop_users_and_think_time() -> None:
    driver = ClosedLoopDriver(users=2, think_s=0.5, start=0.0, quota=4, deadline=None)
    assert driver.due(0.0) == [Due(0.0, 0), Due(0.0, 1)]
    assert driver.next_wakeup() is None  # both users are busy
    driver.job_ended(1, 1.0)
    assert driver.due(1.2) == []  # user 1 is thinking until 1.5
    assert driver.next_wakeup() == 1.5
    assert driver.due(1.5) == [Due(1.5, 1)]
    driver.job_ended(0, 2.0)
    assert driver.due(2.5) == [Due(2.5, 0)]
    assert driver.exhausted(2.5)  # quota of 4 submitted
    driver.job_ended(1, 3.0)
    assert driver.due(9.0) == []


def test_closed_loop_deadline() -> None:
    driver = ClosedLoopDriver(users=1, think_s=0.0, start=0.0, quota=None, deadline=2.0)
    assert driver.due(0.0) == [Due(0.0, 0)]
    driver.job_ended(0, 1.5)
    assert not driver.exhausted(1.5)
    assert driver.due(1.5) == [Due(1.5, 0)]
    driver.job_ended(0, 2.2)
    assert driver.due(2.2) == [] and driver.exhausted(2.2)


def test_plan_levels_quota_includes_warmup_and_labels() -> None:
    plan = Plan(mode=Mode.CLOSED, levels=(1, 3), jobs_per_level=2, warmup_jobs=1)
    driver = plan.driver(1, 0.0)
    assert len(driver.due(0.0)) == 3  # three users; quota 2 + 1 warm-up
    assert driver.exhausted(0.0)
    assert plan.label(1) == "1 user" and plan.label(3) == "3 users" and plan.offered_rate(3) is None
    open_plan = Plan(mode=Mode.OPEN, levels=(2,), rate=0.25)
    assert open_plan.label(2) == "0.50 jobs/s" and open_plan.offered_rate(2) == 0.5


def test_sequential_warmup_runs_one_job_at_a_time_before_the_level() -> None:
    plan = Plan(mode=Mode.CLOSED, levels=(4,), jobs_per_level=4, warmup_jobs=2, warmup_mode=WarmupMode.SEQUENTIAL)
    warmup = plan.warmup_driver(0.0)
    assert warmup is not None
    assert len(warmup.due(0.0)) == 1 and warmup.due(0.0) == []  # the second waits for the first
    warmup.job_ended(0, 1.0)
    assert [d.scheduled for d in warmup.due(1.0)] == [1.0]
    warmup.job_ended(0, 2.0)
    assert warmup.exhausted(2.0)
    level = plan.driver(0, 2.0)
    assert len(level.due(2.0)) == 4 and level.exhausted(2.0)  # the level's quota holds no warm-ups
    assert plan.to_dict()["warmup_mode"] == "sequential"
    concurrent = Plan(levels=(4,), jobs_per_level=4, warmup_jobs=2)
    assert concurrent.warmup_driver(0.0) is None and concurrent.concurrent_warmup_jobs == 2


def test_open_plan_schedules_are_reproducible_per_seed() -> None:
    plan = Plan(mode=Mode.OPEN, levels=(1, 1), jobs_per_level=5, warmup_jobs=0, seed=3)
    first = [d.scheduled for d in plan.driver(0, 0.0).due(1e9)]
    again = [d.scheduled for d in plan.driver(0, 0.0).due(1e9)]
    other_level = [d.scheduled for d in plan.driver(1, 0.0).due(1e9)]
    assert first == again and first != other_level and len(first) == 5


@pytest.mark.parametrize("changes", [
    {"levels": ()}, {"levels": (0,)}, {"jobs_per_level": None}, {"seconds_per_level": 3.0},
    {"jobs_per_level": 0}, {"warmup_jobs": -1}, {"mode": Mode.OPEN, "rate": 0.0}, {"max_in_flight": 0},
])
def test_bad_plans_are_refused_with_a_code(changes) -> None:
    with pytest.raises(PlanError, match="E_PLAN"):
        Plan(**changes).validate()


@pytest.mark.parametrize("change", [
    {"seconds_per_level": math.nan, "jobs_per_level": None}, {"think_s": math.inf}, {"job_timeout_s": math.nan},
    {"mode": "open", "rate": math.inf}, {"warmup_jobs": -1}, {"levels": (1, True)}, {"jobs_per_level": 2.5},
])
def test_a_plan_with_nan_infinity_or_negatives_never_runs(change: dict[str, Any]) -> None:
    from engine.load.plans import Mode

    if change.get("mode") == "open":
        change = {**change, "mode": Mode.OPEN}
    with pytest.raises(PlanError, match="E_PLAN"):
        Plan(**change).validate()

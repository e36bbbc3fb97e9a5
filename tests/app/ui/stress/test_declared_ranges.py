"""The stress panel's run controls take their ranges and defaults from the load core's
declarations (PLAN_RANGES, OBJECTIVE_RANGES, Plan(), Objective()), as the other forms do (issue 23)."""

from __future__ import annotations

from PySide6.QtWidgets import QDoubleSpinBox, QSpinBox
from pytestqt.qtbot import QtBot

from app.ui.folders import Folders
from app.ui.stress.controls import NO_CAP, PERCENT, RunControls
from engine.core.numbers import Range
from engine.load import Objective, Plan
from engine.load.plans import PLAN_RANGES
from engine.load.stats import OBJECTIVE_RANGES


def _controls(qtbot: QtBot) -> RunControls:
    controls = RunControls(Folders())
    qtbot.addWidget(controls)
    return controls


def test_each_plan_and_objective_field_spans_its_declared_range_and_starts_at_its_default(qtbot: QtBot) -> None:
    controls = _controls(qtbot)
    plan, objective = Plan(), Objective()
    declared: dict[str, tuple[QSpinBox | QDoubleSpinBox, dict[str, Range], float]] = {
        "warmup_jobs": (controls.warmup_spin, PLAN_RANGES, plan.warmup_jobs),
        "think_s": (controls.think_spin, PLAN_RANGES, plan.think_s),
        "rate": (controls.rate_spin, PLAN_RANGES, plan.rate),
        "job_timeout_s": (controls.timeout_spin, PLAN_RANGES, plan.job_timeout_s),
        "p95_first_audio_s": (controls.objective_spin, OBJECTIVE_RANGES, objective.p95_first_audio_s),
        "max_stalls_per_job": (controls.stalls_spin, OBJECTIVE_RANGES, objective.max_stalls_per_job),
    }
    for name, (spin, ranges, default) in declared.items():
        assert (spin.minimum(), spin.maximum(), spin.suffix()) == (ranges[name].low, ranges[name].high,
                                                                   ranges[name].suffix), name
        assert spin.value() == default, name
    errors = OBJECTIVE_RANGES["max_error_rate"]
    assert (controls.error_rate_spin.minimum(), controls.error_rate_spin.maximum()) == (errors.low * PERCENT,
                                                                                         errors.high * PERCENT)
    assert controls.error_rate_spin.value() == objective.max_error_rate * PERCENT
    # the cap's "no cap" sits below the declared least cap; its top is the declared one
    assert (controls.cap_spin.minimum(), controls.cap_spin.maximum()) == (NO_CAP, PLAN_RANGES["max_in_flight"].high)
    assert controls.cap_spin.value() == NO_CAP and controls.cap_spin.specialValueText() == "no cap"
    assert controls.plan() == plan and controls.objective() == objective


def test_the_hold_spans_the_jobs_or_the_seconds_range_as_chosen(qtbot: QtBot) -> None:
    controls = _controls(qtbot)
    hold = controls.hold_spin
    jobs, seconds = PLAN_RANGES["jobs_per_level"], PLAN_RANGES["seconds_per_level"]
    assert (hold.minimum(), hold.maximum(), hold.decimals()) == (jobs.low, jobs.high, 0)
    assert hold.value() == Plan().jobs_per_level
    controls.hold_combo.setCurrentIndex(1)
    assert (hold.minimum(), hold.maximum(), hold.suffix()) == (seconds.low, seconds.high, " s")
    hold.setValue(hold.minimum())
    assert controls.plan().seconds_per_level == seconds.low


def test_each_declared_minimum_is_shown_and_accepted_as_itself(qtbot: QtBot) -> None:
    """A 0.0001 rate must not round to 0 on screen or in the plan the field makes."""
    controls = _controls(qtbot)
    controls.mode_combo.setCurrentIndex(controls.mode_combo.findData("open"))
    for spin in (controls.think_spin, controls.rate_spin, controls.timeout_spin, controls.objective_spin):
        assert isinstance(spin, QDoubleSpinBox)
        spin.setValue(spin.minimum())
        shown = spin.textFromValue(spin.minimum())  # in the field's own locale and decimals
        assert spin.valueFromText(shown) == spin.minimum() == spin.value()
    plan = controls.plan()
    assert (plan.rate, plan.job_timeout_s) == (PLAN_RANGES["rate"].low, PLAN_RANGES["job_timeout_s"].low)
    assert controls.objective().p95_first_audio_s == OBJECTIVE_RANGES["p95_first_audio_s"].low

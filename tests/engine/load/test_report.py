"""Reports from hand-made records: JSON keys, CSV columns, the HTML page and its plots."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
from pathlib import Path

from engine.core.files import NEW_FILE_MODE
from engine.load.plans import Plan
from engine.load.report import (
    TABLE_COLUMNS,
    BenchReport,
    format_table,
    levels_table_html,
    nice_ticks,
    table_rows,
)
from engine.load.sampler import ResourceSample, ResourceSampler
from engine.load.stats import Objective, add_changes, apply_objective, make_verdict
from tests.engine.load.helpers import level_of, record


def _report() -> BenchReport:
    levels = [level_of(1, [0.4, 0.5, 0.6]), level_of(2, [0.9, 1.2, 2.2], errors=1, index=1)]
    apply_objective(levels, Objective())
    add_changes(levels)
    verdict = make_verdict(levels, Objective(), "closed", "piper", 2)
    jobs = [record(i, float(i), i + 0.5, i + 1.0) for i in range(3)]
    samples = [ResourceSample(float(t), 80.0 + t, 900.0, None, None, 1) for t in range(5)]
    return BenchReport("2026-01-01T00:00:00+00:00", 12.5, False,
                       {"plan": Plan().to_dict(), "objective": verdict.objective, "cache": "warm"},
                       {"backend": "piper", "slots": 2}, {"cpu_count": 2}, levels, verdict, jobs, samples)


def test_json_has_the_documented_shape() -> None:
    data = json.loads(_report().to_json())
    assert data["schema"] == "dubstudio.bench/1"
    level = data["levels"][1]
    for key in ("level", "jobs", "errors", "jobs_per_s", "audio_per_wall_s", "stalls_per_job"):
        assert key in level
    for key in ("mean", "p50", "p90", "p95", "p99"):
        assert key in level["first_audio_s"] and key in level["total_s"]
    assert level["errors"] == 1 and level["errors_by_kind"] == {"E_BACKEND": 1}
    assert data["verdict"]["capacity_level"] == 1
    assert isinstance(data["verdict"]["sentence"], str)
    assert len(data["jobs"]) == 3 and data["jobs"][0]["status"] == "ok"
    assert len(data["samples"]) == 5


def test_csv_has_a_row_per_level(tmp_path: Path) -> None:
    report = _report()
    path = tmp_path / "out" / "levels.csv"
    report.write_csv(path)
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert [row["level"] for row in rows] == ["1", "2"]
    assert rows[1]["errors_by_kind"] == "E_BACKEND=1"
    assert {"first_audio_s_p95", "total_s_p99", "meets_objective"} <= set(rows[0])
    jobs = list(csv.DictReader(io.StringIO(report.jobs_csv())))
    assert len(jobs) == 3 and "first_audio_s" in jobs[0]
    assert stat.S_IMODE(path.stat().st_mode) == NEW_FILE_MODE  # readable like any file, not 0600


def test_html_is_self_contained_with_table_verdict_and_plots(tmp_path: Path) -> None:
    report = _report()
    path = tmp_path / "report.html"
    report.write_html(path)
    page = path.read_text(encoding="utf-8")
    assert '<table id="levels">' in page
    assert page.count("<svg") >= 4
    assert "serves up to 1 concurrent user" in page
    assert "<script" not in page and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert not list(tmp_path.glob(".*.tmp"))  # atomic write left nothing behind


def test_terminal_table_lists_levels() -> None:
    text = format_table(_report().levels)
    lines = text.splitlines()
    assert len(lines) == 4 and "1st audio mean" in lines[0] and "2 users" in lines[3]


def test_table_columns_are_declared_once_with_groups_and_meanings() -> None:
    headers = [column.header for column in TABLE_COLUMNS]
    for measure in ("worst gap", "queue p95", "compute p95", "goodput", "goodput/s", "sd", "max/p95"):
        assert measure in headers  # the scheduler's measures, in every table
    assert all(column.tip for column in TABLE_COLUMNS)
    page = levels_table_html(_report().levels)
    spans = [int(n) for n in re.findall(r"colspan=(\d+)", page)]
    assert sum(spans) == len(TABLE_COLUMNS) and page.count(" title=") == len(TABLE_COLUMNS)
    assert len(table_rows(_report().levels)[0]) == len(TABLE_COLUMNS)


def test_a_servers_run_samples_no_gpu_of_this_machine() -> None:
    sampler = ResourceSampler(os.getpid(), gpus=False)
    try:
        sample = sampler.sample(0.5, 0)
    finally:
        sampler.close()
    assert sampler.gpu_names == [] and sample.gpu_util_pct is None and sample.gpu_mem_mb is None
    assert sample.rss_mb is not None  # the process itself is still sampled


def test_nice_ticks() -> None:
    assert nice_ticks(0.0, 1.0) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert nice_ticks(0.0, 7.3, 5) == [0.0, 2.0, 4.0, 6.0, 8.0]
    assert nice_ticks(3.0, 3.0)[0] == 3.0

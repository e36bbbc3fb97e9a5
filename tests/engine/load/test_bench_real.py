"""Short real benches against the embedded Piper engine: structure and plausibility, no timings."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from app.cli import main
from app.commands.exit_codes import ExitCode
from engine.core.text import first_piece_chars, split_for_streaming
from engine.load import BenchSession, BenchSettings, Objective, Plan
from engine.synthesis.backends import COSYVOICE2_ENVIRONMENT
from engine.synthesis.config import EngineConfig


def _check_plausible(data: dict, levels: list[int], jobs_per_level: int) -> None:
    assert [level["level"] for level in data["levels"]] == levels  # levels in order
    for level in data["levels"]:
        assert level["jobs"] == jobs_per_level and level["errors"] == 0
        assert level["jobs_per_s"] > 0 and level["audio_per_wall_s"] > 0
        fa, total = level["first_audio_s"], level["total_s"]
        assert 0 < fa["p50"] <= fa["p95"] <= fa["p99"] <= fa["max"]
        assert fa["mean"] <= total["mean"] and fa["p50"] <= total["p99"]
        assert level["engine_cpu_pct"]["max"] > 0 and level["engine_rss_mb"]["max"] > 50
    measured = [job for job in data["jobs"] if not job["warmup"]]
    assert len(measured) == len(levels) * jobs_per_level
    for job in data["jobs"]:
        assert job["status"] == "ok" and job["chunks"] >= 1 and job["audio_s"] > 0
        assert 0 < job["first_audio_s"] <= job["total_s"]
        assert job["submit_s"] >= job["scheduled_s"] - 1e-3
        assert job["voice_cache"] in ("memory", "disk", "miss")
    verdict = data["verdict"]
    assert verdict["sentence"] and verdict["highest_level_tried"] == levels[-1]
    assert verdict["capacity_level"] in (None, *levels)


@pytest.mark.slow  # real models for many seconds: scripts/test-slow (CI runs it)
def test_closed_loop_bench_writes_plausible_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench"
    code = main(["bench", "--levels", "1,2", "--jobs-per-level", "2", "--warmup", "1", "-q",
                 "--cache-dir", str(tmp_path / "cache"), "--json", str(out / "b.json"),
                 "--csv", str(out / "b.csv"), "--html", str(out / "b.html")])
    assert code == 0
    printed = capsys.readouterr().out
    assert "1st audio mean" in printed and "2 users" in printed and "On embedded with" in printed
    data = json.loads((out / "b.json").read_text(encoding="utf-8"))
    _check_plausible(data, [1, 2], 2)
    assert data["engine"]["backend"] == "embedded" and data["config"]["cache"] == "warm"
    # the first level began once the engine said its warm-up was over, and the report says so
    assert data["engine"]["warm_up"]["over"] is True
    assert "warm-up over before the first level" in (out / "b.html").read_text(encoding="utf-8")
    # one warm-up job per level, run first and left out of the counts
    assert [job["index"] for job in data["jobs"] if job["warmup"]] == [0, 3]
    assert [level["warmup_jobs"] for level in data["levels"]] == [1, 1]
    # warm cache: every job found its voice already prepared
    assert all(job["cache_hit"] for job in data["jobs"])
    rows = list(csv.DictReader(io.StringIO((out / "b.csv").read_text(encoding="utf-8"))))
    assert [row["level"] for row in rows] == ["1", "2"]
    assert '<table id="levels">' in (out / "b.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_open_loop_cold_cache_bench(tmp_path: Path) -> None:
    out = tmp_path / "open.json"
    code = main(["bench", "--mode", "open", "--rate", "1", "--arrivals", "constant", "--max-in-flight", "2",
                 "--levels", "1,2", "--jobs-per-level", "2", "--warmup", "0", "--cache", "cold", "-q",
                 "--json", str(out)])
    assert code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    _check_plausible(data, [1, 2], 2)
    assert [level["offered_rate"] for level in data["levels"]] == [1.0, 2.0]
    assert all(job["voice_cache"] == "miss" for job in data["jobs"])  # every job brought a new voice
    first_level = [job for job in data["jobs"] if job["level"] == 1]
    assert first_level[1]["scheduled_s"] - first_level[0]["scheduled_s"] == pytest.approx(1.0, abs=1e-3)


def test_bad_arguments_fail_with_a_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--texts", str(tmp_path / "none.txt"), "-q"]) == ExitCode.BAD_INPUT
    assert "E_TEXTS" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:  # the plan's own range, checked as the option is read
        main(["bench", "--warmup", "-1", "-q"])
    assert usage.value.code == 2 and "E_PLAN: warmup_jobs must be a whole number from 0" in capsys.readouterr().err


def test_listeners_never_stall_and_the_scheduler_metrics_are_reported(tmp_path: Path) -> None:
    """Two closed-loop users on two slots, lines of two sentences: with pieces scheduled by
    playback deadline, each second sentence arrives before the first one has finished playing
    (seconds of slack, so a busy machine passes too), and every new metric is reported."""
    texts = tmp_path / "two-sentences.txt"
    lines = [
        "The tide came in early that morning, and the boats were still tied up. Nobody noticed.",
        "She counted the lanterns twice before the storm arrived over the hill. Then she waited.",
        "A letter came from the city, written in a careful and unfamiliar hand. It was unsigned.",
    ]
    texts.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # The pieces engine.core.text makes of a line whose first piece begins with 1 or 2 jobs admitted
    # (its budget follows the load); the first piece may leave as two chunks (a quiet cut).
    chunk_counts = {len(split_for_streaming(line, first_piece_chars(jobs, 2))) + quiet_cut
                    for line in lines for jobs in (1, 2) for quiet_cut in (0, 1)}
    out = tmp_path / "two.json"
    code = main(["bench", "--levels", "2", "--jobs-per-level", "4", "--warmup", "2", "--warmup-mode", "sequential",
                 "--slots", "2", "--texts", str(texts), "-q", "--cache-dir", str(tmp_path / "cache"),
                 "--json", str(out)])
    assert code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    _check_plausible(data, [2], 4)
    (level,) = data["levels"]
    assert level["stalls_per_job"] == 0 and level["jobs_with_stalls"] == 0
    assert level["max_gap_s"]["count"] == 4 and level["max_gap_s"]["max"] <= 0  # never ran dry
    warmups = [job for job in data["jobs"] if job["warmup"]]
    measured = [job for job in data["jobs"] if not job["warmup"]]
    assert warmups[0]["end_s"] <= warmups[1]["submit_s"]  # one at a time ...
    assert max(job["end_s"] for job in warmups) <= min(job["submit_s"] for job in measured)  # ... before the load
    for job in measured:
        assert job["chunks"] in chunk_counts and 0 < job["compute_s"] <= job["synth_s"] and job["queue_wait_s"] >= 0
    assert level["compute_s"]["count"] == 4 and level["first_audio_s"]["std"] >= 0
    assert 0 <= level["goodput_fraction"] <= 1 and level["goodput_jobs"] <= level["ok"]
    assert level["first_audio_max_over_p95"] >= 1.0


@pytest.mark.slow  # three load levels of a real engine: scripts/test-slow (CI runs it)
def test_a_probe_style_plan_stops_at_the_first_level_that_misses(tmp_path: Path) -> None:
    plan = Plan(levels=(1, 2, 4), jobs_per_level=1, warmup_jobs=0, stop_after_miss=True)
    settings = BenchSettings(engine=EngineConfig(slots=1, cache_dir=str(tmp_path / "cache")), plan=plan,
                             objective=Objective(p95_first_audio_s=0.001))
    report = BenchSession(settings).run()
    assert [level.level for level in report.levels] == [1]  # level 1 missed: 2 and 4 never ran
    assert report.verdict.capacity_level is None and not report.stopped
    assert report.verdict.sentence.startswith("On embedded with 1 slot, no level met the objective")


def test_probe_arguments_are_checked_before_anything_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["bench", "--probe", "cosyvoice2", "--backend", "piper", "-q"]) == ExitCode.BAD_INPUT
    assert "E_PROBE: --probe cosyvoice2 runs the cosyvoice2 backend, not piper" in capsys.readouterr().err
    monkeypatch.setenv(COSYVOICE2_ENVIRONMENT.folder_env, str(tmp_path / "no-env"))
    monkeypatch.delenv(COSYVOICE2_ENVIRONMENT.python_env, raising=False)
    assert main(["bench", "--probe", "cosyvoice2", "-q"]) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err
    assert "E_ENGINE_START" in err and "scripts/cosyvoice-env" in err

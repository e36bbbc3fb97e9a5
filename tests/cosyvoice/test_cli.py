"""`dubstudio cosyvoice ...` and `dubstudio say --backend cosyvoice2` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import soundfile as sf

from app.cli import main
from app.project import Project
from app.project.export import DELIVERY_RATE
from app.project.sample import copy_sample_project
from engine.synthesis.backends.cosyvoice_models import SYNTHETIC_BANNER

pytestmark = pytest.mark.cosyvoice

ROOT = Path(__file__).resolve().parents[2]


def test_validate_command(tiny_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cosyvoice", "validate", str(tiny_model)]) == 0
    assert "complete" in capsys.readouterr().out
    assert main(["cosyvoice", "validate", str(tmp_path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert not report["ok"] and "cosyvoice2.yaml: missing (the model config)" in report["problems"]


def test_synthetic_command_refuses_a_foreign_folder(cosyvoice_python: Path, tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    assert main(["cosyvoice", "synthetic", str(tmp_path), "--engine-python", str(cosyvoice_python)]) == 1
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_say_speaks_through_the_cosyvoice_engine(cosyvoice_python: Path, tiny_model: Path, tmp_path: Path) -> None:
    out = tmp_path / "line.wav"
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "say", "Hello from the synthetic model.", "--out", str(out), "--json",
         "--backend", "cosyvoice2", "--model-dir", str(tiny_model), "--engine-python", str(cosyvoice_python),
         "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT, capture_output=True, text=True, timeout=500,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["backend"] == "cosyvoice2" and report["sample_rate"] == 24000
    info = sf.info(str(out))
    assert info.samplerate == 24000 and info.frames > 0


def test_render_a_project_on_cosyvoice2_from_the_command_line(cosyvoice_python: Path, tiny_model: Path,
                                                              tmp_path: Path) -> None:
    project_dir = tmp_path / "scene"
    copy_sample_project(project_dir)
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "render", str(project_dir), "--backend", "cosyvoice2",
         "--model-dir", str(tiny_model), "--cache-dir", str(tmp_path / "cache"), "--slots", "2",
         "--no-progress", "--export", "mix"],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )  # no --engine-python: cosyvoice2 runs in its own environment by default
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    project = Project.load(project_dir)
    assert project.settings.backend == "cosyvoice2"
    for line in project.lines:
        take = project.chosen_take(line)
        assert take is not None and take.backend == "cosyvoice2"
        assert sf.info(str(project.take_path(take))).samplerate == 24000
    assert sf.info(str(project.exports_dir / "mix.wav")).samplerate == DELIVERY_RATE  # takes at 24 kHz, the delivery at 48


def test_bench_probe_cosyvoice2_with_two_small_levels(cosyvoice_python: Path, tiny_model: Path,
                                                      tmp_path: Path) -> None:
    out = tmp_path / "probe"
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "bench", "--probe", "cosyvoice2", "--model-dir", str(tiny_model),
         "--levels", "1,2", "--jobs-per-level", "1", "--warmup", "1", "--objective-p95-first-audio", "600",
         "--objective-max-stalls", "1000",  # a loaded 2-core CPU stalls; this test is about the plumbing
         "--cache-dir", str(tmp_path / "cache"), "--slots", "2",
         "--json", str(out / "probe.json"), "--html", str(out / "probe.html")],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads((out / "probe.json").read_text(encoding="utf-8"))
    assert report["config"]["probe"] == "cosyvoice2" and report["config"]["plan"]["stop_after_miss"] is True
    engine = report["engine"]
    assert engine["backend"] == "cosyvoice2" and engine["slots"] == 2
    assert engine["model_kind"] == "synthetic" and engine["model_size"] == "tiny"
    assert engine["device"] == "cpu" and engine["torch"].startswith("2.")
    assert "cuda" not in engine  # a CPU torch names no CUDA version; on a GPU it would be here
    assert [level["level"] for level in report["levels"]] == [1, 2]
    assert all(level["ok"] == 1 and level["warmup_jobs"] == 1 and level["errors"] == 0 for level in report["levels"])
    assert report["verdict"]["capacity_level"] == 2
    assert report["verdict"]["sentence"].startswith("On cosyvoice2 (synthetic weights, cpu) with 2 slots")
    printed = done.stdout
    assert printed.startswith("cosyvoice2 · synthetic tiny model · cpu, 2 slots · torch ")
    assert SYNTHETIC_BANNER in printed
    page = (out / "probe.html").read_text(encoding="utf-8")
    assert SYNTHETIC_BANNER in page and "synthetic tiny model" in page

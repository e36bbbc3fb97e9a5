"""`dubstudio cosyvoice ...` and `dubstudio say --backend cosyvoice2` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import soundfile as sf

from app.cli import main

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

"""The device facts in an environment without torch (the studio's, issue 19): the NVIDIA
driver's GPUs through NVML, the CPU as the device, and CUDA refused with the reason."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.synthesis.backends.device import summary
from tests.engine.torch_guard import ROOT, guarded_environment


def device_facts(tmp_path: Path, *args: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "engine.synthesis.backends.device", *args], env=guarded_environment(tmp_path),
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    facts: dict = json.loads(done.stdout)
    return facts


def test_without_torch_the_device_is_the_cpu_and_the_drivers_gpus_are_listed(tmp_path: Path) -> None:
    facts = device_facts(tmp_path)
    assert facts["torch"] is None and facts["device"] == "cpu" and facts["cuda_available"] is False
    assert isinstance(facts["driver_gpus"], list)  # what NVML sees: nothing on a machine without a driver
    for gpu in facts["driver_gpus"]:
        assert gpu["name"] and gpu["memory_gb"] > 0 and gpu["compute_capability"]
    assert "no torch in this environment" in summary(facts)


def test_without_torch_cuda_is_refused_with_the_reason(tmp_path: Path) -> None:
    facts = device_facts(tmp_path, "--device", "cuda:0")
    assert facts["device"] is None
    assert facts["error"].startswith("E_ENGINE_START: device 'cuda:0' was asked for, but this environment has no torch")
    assert device_facts(tmp_path / "bad", "--device", "tpu")["error"].startswith("E_BAD_OPTION")


def test_the_summary_names_the_gpus_the_driver_sees_when_torch_is_missing() -> None:
    facts = {"torch": None, "cpu_count": 16, "driver_gpus": [{"name": "NVIDIA H200", "memory_gb": 139.8,
                                                              "compute_capability": "9.0"}]}
    assert summary(facts) == "CPU (16 cores; no torch in this environment; the driver sees NVIDIA H200, 139.8 GB)"

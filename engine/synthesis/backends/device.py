"""Which torch device a backend runs on, and the facts a hardware report needs about it.

Run inside a backend's environment (``python -m engine.synthesis.backends.device [--device D]``) it
prints one JSON object: the device torch would use, the GPU's name, memory and compute
capability, whether fp16 is worth offering, and the versions of torch, CUDA, cuDNN, the
NVIDIA driver and the optional accelerators (TensorRT, vLLM). The studio's "Voices engine"
page asks this before an engine exists; a loaded backend reports the same facts with its
``EngineReady``, so bench reports name the device that really ran.

The studio's own environment has no torch (its backend, Piper, runs on the CPU), so there the
facts come from the NVIDIA driver alone (NVML, ``nvidia-ml-py``): the GPUs it sees, under
``driver_gpus`` in every answer, and the device is the CPU.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import re
import sys
from typing import Any

from engine.core.protocol import EngineError, ErrorCode

# fp16 arithmetic runs natively from compute capability 5.3; upstream's fp16 path (autocast)
# pays off from 7.0, where tensor cores exist. Offer it from 5.3, recommend it from 7.0.
FP16_MIN_CAPABILITY = (5, 3)
FP16_FAST_CAPABILITY = (7, 0)


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def driver_version() -> str | None:
    """The NVIDIA driver's version through NVML (nvidia-ml-py), None without one."""
    try:
        import pynvml

        pynvml.nvmlInit()
        try:
            version = pynvml.nvmlSystemGetDriverVersion()
        finally:
            pynvml.nvmlShutdown()
    except Exception:  # noqa: BLE001 - no library, no driver, no GPU: the usual CPU machine
        return None
    return version.decode() if isinstance(version, bytes) else str(version)


def driver_gpus() -> list[dict[str, Any]]:
    """The GPUs the NVIDIA driver sees (name, memory, compute capability), through NVML: no
    torch needed. Empty without a driver or a GPU."""
    try:
        import pynvml

        pynvml.nvmlInit()
    except Exception:  # noqa: BLE001 - no library, no driver: the usual CPU machine
        return []
    try:
        gpus = []
        for index in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(index)
            name = pynvml.nvmlDeviceGetName(handle)
            major, minor = pynvml.nvmlDeviceGetCudaComputeCapability(handle)
            gpus.append({"name": name.decode() if isinstance(name, bytes) else str(name),
                         "memory_gb": round(pynvml.nvmlDeviceGetMemoryInfo(handle).total / 2**30, 1),
                         "compute_capability": f"{major}.{minor}"})
        return gpus
    except Exception:  # noqa: BLE001 - a driver that answers the first call and not the next: report what it said
        return gpus
    finally:
        pynvml.nvmlShutdown()


def _check_requested(requested: str) -> None:
    if not re.fullmatch(r"auto|cpu|cuda(:\d+)?", requested):
        raise EngineError(ErrorCode.BAD_OPTION, f"device must be auto, cpu, cuda or cuda:N, not {requested!r}")


def resolve_device(torch: Any, requested: str) -> Any:
    """The torch device for ``requested`` ("auto", "cpu", "cuda", "cuda:N").

    A CUDA device that torch cannot see is an ``E_ENGINE_START`` error saying why, rather
    than a silent fall-back to a CPU that would be 20× slower than the user planned for.
    """
    _check_requested(requested)
    cuda = bool(torch.cuda.is_available())
    if requested == "auto":
        return torch.device("cuda:0" if cuda else "cpu")
    if requested == "cpu":
        return torch.device("cpu")
    if not cuda:
        why = "this torch has no CUDA support" if torch.version.cuda is None else "no CUDA GPU or driver is visible"
        raise EngineError(ErrorCode.ENGINE_START, f"device {requested!r} was asked for, but {why} (torch "
                                                  f"{torch.__version__}); use device=auto or cpu")
    index = int(requested.split(":")[1]) if ":" in requested else 0
    if index >= torch.cuda.device_count():
        raise EngineError(ErrorCode.ENGINE_START,
                          f"device {requested!r}: torch sees {torch.cuda.device_count()} CUDA GPU(s)")
    return torch.device(f"cuda:{index}")


def describe(requested: str = "auto") -> dict[str, Any]:
    """Facts about the device ``requested`` resolves to here (imports torch where there is one)."""
    facts: dict[str, Any] = {
        "requested": requested,
        "torch": None,
        "cuda": None,
        "cudnn": None,
        "driver": driver_version(),
        "driver_gpus": driver_gpus(),
        "cuda_available": False,
        "cpu_count": os.cpu_count(),
        "tensorrt": _version("tensorrt"),
        "vllm": _version("vllm"),
        "gpu_name": None,
        "gpu_memory_gb": None,
        "compute_capability": None,
        "fp16_supported": False,
        "fp16_recommended": False,
    }
    try:
        import torch
    except ImportError:
        return _without_torch(facts, requested)
    facts.update(torch=torch.__version__, cuda=torch.version.cuda, cuda_available=bool(torch.cuda.is_available()))
    try:
        device = resolve_device(torch, requested)
    except EngineError as error:
        facts.update(device=None, error=f"{error.code.value}: {error.message}")
        return facts
    facts["device"] = str(device)
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        capability = (int(props.major), int(props.minor))
        facts.update(
            gpu_name=str(props.name),
            gpu_memory_gb=round(props.total_memory / 2**30, 1),
            compute_capability=f"{capability[0]}.{capability[1]}",
            fp16_supported=capability >= FP16_MIN_CAPABILITY,
            fp16_recommended=capability >= FP16_FAST_CAPABILITY,
            cudnn=torch.backends.cudnn.version(),
        )
    return facts


def _without_torch(facts: dict[str, Any], requested: str) -> dict[str, Any]:
    """An environment without torch (the studio's): its backends run on the CPU, whatever GPUs
    the driver sees; asking for CUDA there is an ``E_ENGINE_START`` error saying so."""
    try:
        _check_requested(requested)
    except EngineError as error:
        return {**facts, "device": None, "error": f"{error.code.value}: {error.message}"}
    if requested.startswith("cuda"):
        seen = f"the NVIDIA driver sees {len(facts['driver_gpus'])} GPU(s)"
        message = (f"device {requested!r} was asked for, but this environment has no torch ({seen}); "
                   "use device=auto or cpu, or an environment with torch (scripts/cosyvoice-env)")
        return {**facts, "device": None, "error": f"{ErrorCode.ENGINE_START.value}: {message}"}
    return {**facts, "device": "cpu"}


def summary(facts: dict[str, Any]) -> str:
    """One line for people: "NVIDIA L4, 22.5 GB, CUDA 12.4, driver 550.54" or the CPU's."""
    if facts.get("error"):
        return str(facts["error"])
    if facts.get("gpu_name"):
        parts = [str(facts["gpu_name"]), f"{facts['gpu_memory_gb']} GB"]
        if facts.get("cuda"):
            parts.append(f"CUDA {facts['cuda']}")
        if facts.get("driver"):
            parts.append(f"driver {facts['driver']}")
        return ", ".join(parts)
    if facts.get("torch") is None:
        gpus = "".join(f"; the driver sees {gpu['name']}, {gpu['memory_gb']} GB" for gpu in facts.get("driver_gpus") or [])
        return f"CPU ({facts.get('cpu_count')} cores; no torch in this environment{gpus})"
    return f"CPU ({facts.get('cpu_count')} cores; torch {facts.get('torch')}, no CUDA GPU visible)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print the torch device facts as JSON.")
    parser.add_argument("--device", default="auto")
    args = parser.parse_args(argv)
    print(json.dumps(describe(args.device)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fixtures for the CosyVoice2 suite: the CosyVoice environment, a tiny synthetic model, engines.

Every test here is marked ``cosyvoice``. When the CosyVoice engine environment
(scripts/cosyvoice-env) is missing or cannot import its stack, the tests FAIL, saying how to
build it: CI must not go green without having run them. Set DUBSTUDIO_SKIP_COSYVOICE=1 to
skip them on purpose (a machine that cannot build the environment); scripts/test-cosyvoice
never sets it. The model is a tiny synthetic CosyVoice2 folder (upstream's classes, random
weights) built once per session; the audio is noise, but the code that runs, the streaming,
the caching and the concurrency are real.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import pytest

from engine.synthesis.backends import COSYVOICE2_ENVIRONMENT

ROOT = Path(__file__).resolve().parents[2]
SKIP_ENV = "DUBSTUDIO_SKIP_COSYVOICE"


def environment_missing(reason: str) -> NoReturn:
    """Fail (or, with the explicit opt-out, skip) a test that needs the CosyVoice environment."""
    if os.environ.get(SKIP_ENV) == "1":
        pytest.skip(f"{reason} ({SKIP_ENV}=1)")
    pytest.fail(f"{reason}; build it with scripts/cosyvoice-env (or set {SKIP_ENV}=1 to skip this suite "
                "on purpose)", pytrace=False)


@pytest.fixture(scope="session")
def cosyvoice_python() -> Path:
    """The CosyVoice environment's interpreter, checked to import the CosyVoice code."""
    python = COSYVOICE2_ENVIRONMENT.interpreter()
    if python is None:
        environment_missing(f"CosyVoice engine environment missing at {COSYVOICE2_ENVIRONMENT.folder()}")
    probe = subprocess.run(COSYVOICE2_ENVIRONMENT.check_command(python), capture_output=True, text=True)
    if probe.returncode != 0:
        environment_missing(f"CosyVoice environment at {python} cannot import its packages "
                            f"({probe.stderr.strip().splitlines()[-1:]})")
    return python


@pytest.fixture(scope="session")
def tiny_model(cosyvoice_python: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny synthetic CosyVoice2 folder, built once per session (~15 s)."""
    target = tmp_path_factory.mktemp("cosyvoice") / "CosyVoice2-tiny"
    done = subprocess.run(
        [str(cosyvoice_python), "-m", "engine.synthesis.backends.cosyvoice_synthetic", str(target), "--size", "tiny"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    facts = json.loads(done.stdout.strip().splitlines()[-1])
    assert facts["size"] == "tiny"
    return target


def start_engine(python: Path, model_dir: Path, cache_dir: Path, slots: int = 4, **options: object):
    """An EngineClient running the cosyvoice2 backend under the CosyVoice interpreter."""
    from engine.synthesis.client.local import EngineClient
    from engine.synthesis.config import EngineConfig

    config = EngineConfig(
        backend="cosyvoice2",
        backend_options={"model_dir": str(model_dir), **options},
        slots=slots,
        python=str(python),
        cache_dir=str(cache_dir),
        auto_retry=False,
    )
    client = EngineClient(config)
    client.start()
    return client


@dataclass
class RunningEngine:
    client: Any
    cache_dir: Path


@pytest.fixture(scope="module")
def engine(cosyvoice_python: Path, tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningEngine]:
    """One engine with four slots and the per-job hop schedule, shared by a test module."""
    cache_dir = tmp_path_factory.mktemp("voices")
    client = start_engine(cosyvoice_python, tiny_model, cache_dir, slots=4)
    try:
        yield RunningEngine(client, cache_dir)
    finally:
        client.close()


def first_chunk_samples(prompt_tokens: int, hop: int = 25, speed: float = 1.0) -> int:
    """Samples in a stream's first chunk when its first hop is ``hop`` tokens.

    The first hop is padded so prompt + hop fill whole 25-token flow chunks; each token makes
    two mel frames of 480 samples, and the last 8 frames stay behind as the vocoder overlap.
    """
    pad = math.ceil(prompt_tokens / hop) * hop - prompt_tokens
    frames = (hop + pad) * 2
    if speed != 1.0:
        frames = max(1, round(frames / speed))
    return (frames - 8) * 480

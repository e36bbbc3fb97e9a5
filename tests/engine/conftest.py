"""Fixtures shared by the engine's tests: the real embedded model, the real speaker encoder, and a
named pipe."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.synthesis.backends.piper import PiperBackend
from engine.voiceprint.encoder import SpeakerEncoder


@pytest.fixture(scope="module")
def piper() -> PiperBackend:
    backend = PiperBackend()
    backend.load()
    return backend


@pytest.fixture(scope="module")
def encoder() -> SpeakerEncoder:
    return SpeakerEncoder()


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    """A named pipe no one writes to: a reader that opens it without care waits for ever."""
    path = tmp_path / "pipe.wav"
    os.mkfifo(path)
    return path

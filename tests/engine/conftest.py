"""Fixtures shared by the engine's tests: the real embedded model and the real speaker encoder."""

from __future__ import annotations

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

"""Fixtures shared by the engine's tests: the real embedded model and the real speaker encoder."""

from __future__ import annotations

import pytest

from engine.backends.piper import PiperBackend
from engine.voices import SpeakerEncoder


@pytest.fixture(scope="module")
def piper() -> PiperBackend:
    backend = PiperBackend()
    backend.load()
    return backend


@pytest.fixture(scope="module")
def encoder() -> SpeakerEncoder:
    return SpeakerEncoder()

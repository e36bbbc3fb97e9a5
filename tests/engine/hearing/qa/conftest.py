"""Takes shared by the confirmation tests: the six QA lines in joe's own voice, clean, and the
embedded Mandarin voice zh-baker (plain, seeded) saying a line."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from engine.core.protocol import VoiceSettings
from engine.hearing.qa.checks import TakeToMeasure
from engine.synthesis.backends import create_backend
from engine.synthesis.backends.base import VoiceProfile
from engine.synthesis.backends.mandarin import SAMPLE_RATE, MandarinBackend
from tests.engine.helpers import QA_LINES, joe_says


@pytest.fixture(scope="module")
def clean() -> list[TakeToMeasure]:
    return [TakeToMeasure(*joe_says(text), text, "en") for text in QA_LINES]


@pytest.fixture(scope="module")
def zh_baker_says() -> Callable[[str], tuple[np.ndarray, int]]:
    """zh-baker's plain voice saying a line, the same on every run (seed 0): (PCM, rate)."""
    backend = create_backend("zh-baker")
    assert isinstance(backend, MandarinBackend)
    backend.load()
    plain = VoiceProfile("plain", None, backend.plain_conditioning())

    def says(text: str) -> tuple[np.ndarray, int]:
        pieces = backend.synthesize(text, plain, VoiceSettings(), lambda: False, seed=0)
        return np.concatenate([piece.pcm for piece in pieces]), SAMPLE_RATE

    return says

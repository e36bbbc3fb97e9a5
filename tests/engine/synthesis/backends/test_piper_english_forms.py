"""The Piper voice says English written forms as words (engine/core/english_forms.py): heard by
take QA's recogniser (real Piper, real Whisper), each line is what it should say."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.english_forms import spoken_english
from engine.core.protocol import VoiceSettings
from engine.hearing.qa.recognise import recognise
from engine.hearing.qa.wer import word_error_rate
from engine.synthesis.backends.base import VoiceProfile
from engine.synthesis.backends.piper import PiperBackend


@pytest.fixture(scope="module")
def backend() -> PiperBackend:
    piper = PiperBackend()
    piper.load()
    return piper


@pytest.mark.parametrize("line", [
    "The party is on 12/07/2026 at noon.",  # was "twelve slash zero seven slash ...": heard 12-0-0-7-20026
    "Rent is £3 a day, or €1,200 a year.",  # was "pound three", "euros one thousand two hundred"
    "I love it 😀 so much 👍.",  # the emoji were read by their names, "grinning face", "thumbs up"
])
def test_a_written_form_is_heard_as_the_words_it_says(backend: PiperBackend, line: str) -> None:
    plain = VoiceProfile("plain", np.zeros(256, np.float32), backend.plain_conditioning())
    speech = np.concatenate([piece.pcm for piece in backend.synthesize(line, plain, VoiceSettings(), lambda: False, seed=0)])
    heard = recognise(speech, backend.sample_rate, "en").text
    assert word_error_rate(spoken_english(line), heard) <= 0.2, heard

"""Finding pauses in audio: where the first piece of a stream may be cut in two."""

from __future__ import annotations

import numpy as np

from engine.core.silence import quiet_cut

RATE = 16_000


def speech_like(*spans: tuple[float, float], seconds: float = 3.0, floor: float = 0.0) -> np.ndarray:
    """A 200 Hz tone (amplitude 0.3) during each (start, end) span, ``floor`` noise elsewhere."""
    t = np.arange(int(seconds * RATE)) / RATE
    audio = floor * np.random.default_rng(3).standard_normal(len(t))
    for start, end in spans:
        inside = (t >= start) & (t < end)
        audio[inside] = 0.3 * np.sin(2 * np.pi * 200 * t[inside])
    return audio.astype(np.float32)


def test_the_cut_falls_in_the_pause_between_words():
    audio = speech_like((0.1, 0.9), (1.0, 2.5))
    cut = quiet_cut(audio, RATE, 0.5, 1.5, 45.0)
    assert cut is not None and 0.9 * RATE < cut < 1.0 * RATE


def test_no_pause_quiet_enough_leaves_the_audio_whole():
    loud_floor = speech_like((0.1, 0.9), (1.0, 2.5), floor=0.01)  # the "pause" is only 30 dB down
    assert quiet_cut(loud_floor, RATE, 0.5, 1.5, 45.0) is None
    assert quiet_cut(loud_floor, RATE, 0.5, 1.5, 25.0) is not None


def test_the_closing_pause_is_never_a_cut():
    """Sound must follow the cut: a short line whose only pause in the span is its end stays whole."""
    short = speech_like((0.0, 0.8), seconds=1.6)
    assert quiet_cut(short, RATE, 0.5, 1.5, 45.0) is None


def test_audio_too_short_or_silent_stays_whole():
    assert quiet_cut(np.zeros(10, np.float32), RATE, 0.5, 1.5, 45.0) is None
    assert quiet_cut(np.zeros(RATE * 3, np.float32), RATE, 0.5, 1.5, 45.0) is None
    assert quiet_cut(speech_like((0.1, 0.9), (1.0, 2.5)), RATE, 2.0, 1.0, 45.0) is None

"""How large a waveform is drawn: peak-normalised, with its real level said beside it (no Qt).

A quiet take or clip drawn at its real size is an almost flat line, so every waveform (the
timeline's clips and guide, a character's reference clip) is enlarged until its peak fills
:data:`FILL` of its height. What that hides, how loud the sound really is, is given back in words
wherever the drawing is enlarged by :data:`TAG_FROM_GAIN` or more: its peak in dBFS.
"""

from __future__ import annotations

import math

import numpy as np

FILL = 0.95  # a waveform's peak reaches this much of its half-height
MAX_GAIN = 1000.0  # +60 dB: a quieter peak is silence, drawn flat rather than its noise blown up
TAG_FROM_GAIN = 2.0  # drawn twice its size or more (a peak under about -6.5 dBFS): say the real level


def peak_of(pcm: np.ndarray) -> float:
    """The largest sample magnitude (0 for no samples; NaN samples are ignored)."""
    return float(np.nanmax(np.abs(pcm))) if pcm.size else 0.0


def display_gain(peak: float) -> float:
    """How much a waveform whose peak is ``peak`` (full scale 1.0) is enlarged when drawn."""
    if not peak > 0:  # silence (or nothing)
        return 1.0
    return min(MAX_GAIN, FILL / peak)


def peak_dbfs(peak: float) -> float:
    """``peak`` in decibels relative to full scale (-inf for silence)."""
    return 20 * math.log10(peak) if peak > 0 else -math.inf


def needs_level_tag(peak: float) -> bool:
    """Whether a waveform drawn from ``peak`` is enlarged enough that its real level must be said."""
    return peak > 0 and display_gain(peak) >= TAG_FROM_GAIN

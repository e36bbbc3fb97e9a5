"""Loudness: measure (ITU-R BS.1770), normalise to a target, keep under a true-peak ceiling, duck.

- Integrated loudness comes from ``pyloudnorm`` (BS.1770-4 K-weighting and gating), in LUFS.
- True peak is estimated as BS.1770 describes it: the signal is oversampled 4× (with
  ``soxr``'s band-limited resampler) so peaks between samples are seen, in dBTP.
- Dialogue is normalised per take (so lines sit at one level), then the programme as a whole
  (so the delivered track meets the target, EBU R128's −23 LUFS or the web's −16 LUFS). If the
  gain pushes the true peak over the ceiling (−1 dBTP by default), ``pedalboard``'s limiter
  takes the excess off the peaks and a final trim guarantees the ceiling.
- Ducking lowers the guide (original audio) while a line plays: a gain curve with linear
  fades, starting ``attack`` before each line (the mixer knows when lines start, so it can
  look ahead, as a dubbing mixer would) and recovering over ``release`` after it.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from app.project import phrases
from app.project.phrases import Phrase
from engine.core.audio_io import resample

if TYPE_CHECKING:
    from pedalboard import Limiter

TRUE_PEAK_OVERSAMPLING = 4
LIMITER_MARGIN_DB = 0.5  # the limiter works on samples; leave room for peaks between them
LIMITER_RELEASE_MS = 80.0
# A limited programme is raised again until it is this close under its target (a client's QC
# passes ±0.5 LU or tighter), in at most this many passes of the limiter.
TARGET_TOLERANCE_LU = 0.1
TARGET_PASSES = 6


@dataclass(frozen=True)
class Level:
    """Integrated loudness (LUFS) and true peak (dBTP); None when there is nothing to measure."""

    lufs: float | None
    peak_dbtp: float | None

    def describe(self) -> str:
        if self.lufs is None:
            if self.peak_dbtp is None:
                return Phrase(phrases.LEVEL_NOTHING)
            return Phrase(phrases.LEVEL_UNMEASURABLE, peak=self.peak_dbtp)
        if self.peak_dbtp is None:
            return Phrase(phrases.LEVEL_SILENT_PEAK, lufs=self.lufs)
        return Phrase(phrases.LEVEL, lufs=self.lufs, peak=self.peak_dbtp)


def integrated_loudness(audio: np.ndarray, sample_rate: int) -> float | None:
    """BS.1770 integrated loudness of mono (n,) or multichannel (n, ch) audio, in LUFS.

    None when the audio is shorter than one 400 ms gating block or entirely below the
    absolute gate (silence): neither has a loudness to normalise.
    """
    import pyloudnorm

    data = np.asarray(audio, dtype=np.float64)
    if data.shape[0] < int(0.4 * sample_rate) + 1:
        return None
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore")  # pyloudnorm warns about clipping we measure anyway
        value = float(pyloudnorm.Meter(sample_rate).integrated_loudness(data))
    return value if math.isfinite(value) else None


def true_peak_dbtp(audio: np.ndarray, sample_rate: int) -> float | None:
    """The true peak in dBTP (4× oversampled), or None for digital silence."""
    data = np.asarray(audio, dtype=np.float32)
    if data.size == 0:
        return None
    upsampled = resample(data, sample_rate, sample_rate * TRUE_PEAK_OVERSAMPLING)
    peak = float(np.max(np.abs(upsampled), initial=0.0))
    return 20 * math.log10(peak) if peak > 0 else None


def measure(audio: np.ndarray, sample_rate: int) -> Level:
    """Integrated loudness and true peak of ``audio``, rounded for display and storage."""
    lufs = integrated_loudness(audio, sample_rate)
    peak = true_peak_dbtp(audio, sample_rate)
    return Level(None if lufs is None else round(lufs, 2), None if peak is None else round(peak, 2))


def gain_for(lufs: float | None, target_lufs: float | None) -> float:
    """The linear gain that brings ``lufs`` to ``target_lufs`` (1.0 when either is unknown)."""
    if lufs is None or target_lufs is None:
        return 1.0
    return float(10 ** ((target_lufs - lufs) / 20))


def apply_ceiling(audio: np.ndarray, sample_rate: int, ceiling_dbtp: float) -> tuple[np.ndarray, bool]:
    """Keep ``audio``'s true peak at or under ``ceiling_dbtp``; returns (audio, whether it acted).

    Pedalboard's limiter (JUCE's: two compressors and a clipper) brings sample peaks under
    the ceiling less a margin; a final gain trim catches any inter-sample peak still over.
    JUCE's limiter also adds make-up gain (several dB, so quiet passages come out louder and
    the programme lands well above its loudness target); it is measured and taken back off,
    so only the peaks change.
    """
    from pedalboard import Limiter

    peak = true_peak_dbtp(audio, sample_rate)
    if peak is None or peak <= ceiling_dbtp:
        return audio, False
    data = np.asarray(audio, dtype=np.float32)
    planar = np.ascontiguousarray(data.T if data.ndim == 2 else data[None, :])
    limiter = Limiter(threshold_db=ceiling_dbtp - LIMITER_MARGIN_DB, release_ms=LIMITER_RELEASE_MS)
    limited = limiter(planar, sample_rate) / np.float32(_makeup_gain(limiter, sample_rate))
    out = limited.T if data.ndim == 2 else limited[0]
    peak = true_peak_dbtp(out, sample_rate)
    if peak is not None and peak > ceiling_dbtp:
        out = out * np.float32(10 ** ((ceiling_dbtp - peak - 0.05) / 20))
    return np.ascontiguousarray(out, dtype=np.float32), True


def to_target(audio: np.ndarray, sample_rate: int, target_lufs: float,
              ceiling_dbtp: float) -> tuple[np.ndarray, float, bool]:
    """``audio`` at ``target_lufs`` with its true peak at or under ``ceiling_dbtp``; returns
    (audio, the gain that brought it to the target before limiting, whether the limiter acted).

    The limiter's first stage compresses loud speech as well as the peaks, so a programme brought
    to its target and then limited came out under it (-17.3 LUFS for a -16 LUFS target, with its
    true peak 4 dB under the ceiling). It is raised again and limited again, each step sized by
    how much the last one gained (a secant), until it is within :data:`TARGET_TOLERANCE_LU`.
    """
    gain = gain_for(integrated_loudness(audio, sample_rate), target_lufs)
    out, limited = apply_ceiling(audio * np.float32(gain), sample_rate, ceiling_dbtp)
    if not limited:
        return out, gain, False
    tried: list[tuple[float, float]] = []  # (gain in dB, loudness reached)
    for _ in range(TARGET_PASSES):
        reached = integrated_loudness(out, sample_rate)
        if reached is None or abs(target_lufs - reached) <= TARGET_TOLERANCE_LU:
            break
        tried.append((20 * math.log10(gain), reached))
        slope = 1.0  # LU gained per dB: 1 unlimited, less where the limiter compresses
        if len(tried) > 1 and tried[-1][0] != tried[-2][0]:
            slope = min(1.0, max(0.1, (tried[-1][1] - tried[-2][1]) / (tried[-1][0] - tried[-2][0])))
        gain *= 10 ** ((target_lufs - reached) / slope / 20)
        out, _ = apply_ceiling(audio * np.float32(gain), sample_rate, ceiling_dbtp)
    return out, gain, True


def _makeup_gain(limiter: Limiter, sample_rate: int) -> float:
    """The limiter's gain on a quiet tone (−40 dBFS, far under any threshold): its make-up gain."""
    seconds = np.arange(int(0.5 * sample_rate), dtype=np.float64) / sample_rate
    tone = (0.01 * np.sin(2 * np.pi * 1000.0 * seconds)).astype(np.float32)[None, :]
    settled = slice(len(seconds) // 2, None)  # past the compressors' attack
    out = limiter(tone, sample_rate)
    return float(np.sqrt(np.mean(out[0, settled] ** 2)) / np.sqrt(np.mean(tone[0, settled] ** 2)))


def duck_gain(
    length: int,
    sample_rate: int,
    intervals: Sequence[tuple[float, float]],
    duck_db: float,
    attack_s: float,
    release_s: float,
) -> np.ndarray:
    """A gain curve (length,) that is 1 outside lines and ``duck_db`` under them, with fades.

    ``intervals`` are (start, end) seconds of the lines. Each fades down linearly over
    ``attack_s`` before its start and back up over ``release_s`` after its end; where
    lines are close the dips merge (the deepest duck wins at every sample).
    """
    depth = np.zeros(length, dtype=np.float32)  # 0 = full level, 1 = fully ducked
    for start, end in intervals:
        begin, stop = int(round(start * sample_rate)), int(round(end * sample_rate))
        fade_in = max(1, int(round(attack_s * sample_rate)))
        fade_out = max(1, int(round(release_s * sample_rate)))
        lo, hi = max(0, begin - fade_in), min(length, stop + fade_out)
        if lo >= hi:
            continue
        idx = np.arange(lo, hi)
        ramp_in = np.clip((idx - (begin - fade_in)) / fade_in, 0.0, 1.0)
        ramp_out = np.clip(1.0 - (idx - stop) / fade_out, 0.0, 1.0)
        shape = np.where(idx < begin, ramp_in, np.where(idx < stop, 1.0, ramp_out)).astype(np.float32)
        np.maximum(depth[lo:hi], shape, out=depth[lo:hi])
    gain: np.ndarray = np.power(np.float32(10.0), depth * np.float32(duck_db / 20.0)).astype(np.float32)
    return gain

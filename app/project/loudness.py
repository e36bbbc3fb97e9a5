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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from app.project import phrases
from app.project.phrases import Phrase
from engine.core.audio_io import RESAMPLE_QUALITY

TRUE_PEAK_OVERSAMPLING = 4
# BS.1770-4's K-weighting, the stages pyloudnorm's Meter makes for its default filter class
# ("K-weighting"), built through pyloudnorm's public IIRfilter: (gain dB, Q, centre Hz, kind).
K_WEIGHTING = ((4.0, 1 / math.sqrt(2), 1500.0, "high_shelf"), (0.0, 0.5, 38.0, "high_pass"))
ABSOLUTE_GATE_LUFS = -70.0  # BS.1770: blocks quieter than this are silence
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


class ProgrammeMeter:
    """Integrated loudness (ITU-R BS.1770-4, pyloudnorm's K-weighting and gating) and true peak
    of audio fed block by block, so a programme hours long is measured without being held:
    the filters' state is carried across blocks, each 100 ms step's energy is kept (a 2-hour
    programme: 72,000 numbers) and the 400 ms gating blocks are summed from them at the end."""

    def __init__(self, sample_rate: int, channels: int) -> None:
        import pyloudnorm
        import soxr

        self.rate, self.channels = sample_rate, channels
        stages = [pyloudnorm.IIRfilter(gain, q, centre, sample_rate, kind) for gain, q, centre, kind in K_WEIGHTING]
        self._stages = [(f.b, f.a, f.passband_gain) for f in stages]
        self._states = [np.zeros((max(len(b), len(a)) - 1, channels)) for b, a, _ in self._stages]
        self._weights = np.array([1.0, 1.0, 1.0, 1.41, 1.41][:channels] + [1.0] * max(0, channels - 5))
        self._step = int(round(0.1 * sample_rate))  # pyloudnorm's 400 ms blocks overlap by 75 %
        self._steps: list[float] = []
        self._partial, self._filled, self.samples = 0.0, 0, 0
        self._oversampler = soxr.ResampleStream(sample_rate, sample_rate * TRUE_PEAK_OVERSAMPLING, channels,
                                                dtype="float32", quality=RESAMPLE_QUALITY)
        self._peak, self._flushed = 0.0, False
        self.sample_peak = 0.0  # the largest sample, not oversampled

    def add(self, block: np.ndarray) -> None:
        """Measure the next ``block`` ((n,) or (n, channels))."""
        import scipy.signal

        data = np.asarray(block, dtype=np.float64).reshape(len(block), self.channels)
        if not len(data):
            return
        self.samples += len(data)
        self.sample_peak = max(self.sample_peak, float(np.max(np.abs(data))))
        self._peak = max(self._peak, float(np.max(np.abs(self._oversampler.resample_chunk(data.astype(np.float32))),
                                                  initial=0.0)))
        for n, (b, a, gain) in enumerate(self._stages):
            data, self._states[n] = scipy.signal.lfilter(b, a, data, axis=0, zi=self._states[n])
            data *= gain
        energy = np.square(data) @ self._weights
        take = min(self._step - self._filled, len(energy))
        self._partial += float(energy[:take].sum())
        self._filled += take
        if self._filled == self._step:
            self._steps.append(self._partial)
            rest = energy[take:]
            whole = len(rest) // self._step
            self._steps.extend(rest[: whole * self._step].reshape(whole, self._step).sum(axis=1).tolist())
            self._filled = len(rest) - whole * self._step
            self._partial = float(rest[whole * self._step :].sum())

    def loudness(self) -> float | None:
        """The integrated loudness in LUFS; None when shorter than one 400 ms gating block or
        entirely below the absolute gate (silence): neither has a loudness to normalise."""
        if self.samples < int(0.4 * self.rate) + 1:
            return None
        blocks = int(round((self.samples / self.rate - 0.4) / 0.1)) + 1
        steps = np.zeros(blocks + 3)
        known = np.array(self._steps + [self._partial])[: blocks + 3]
        steps[: len(known)] = known
        energy = (steps[:-3] + steps[1:-2] + steps[2:-1] + steps[3:]) / (0.4 * self.rate)
        with np.errstate(divide="ignore"):
            levels = -0.691 + 10 * np.log10(energy)
        audible = energy[levels >= ABSOLUTE_GATE_LUFS]
        if not audible.size:
            return None
        relative = -0.691 + 10 * math.log10(float(audible.mean())) - 10
        gated = energy[(levels > relative) & (levels > ABSOLUTE_GATE_LUFS)]
        value = -0.691 + 10 * math.log10(float(gated.mean())) if gated.size and gated.mean() > 0 else math.nan
        return value if math.isfinite(value) else None

    def true_peak(self) -> float | None:
        """The true peak in dBTP (4× oversampled), or None for digital silence."""
        if self.samples and not self._flushed:  # the oversampler's last samples
            tail = self._oversampler.resample_chunk(np.zeros((0, self.channels), np.float32), last=True)
            self._peak = max(self._peak, float(np.max(np.abs(tail), initial=0.0)))
            self._flushed = True
        return 20 * math.log10(self._peak) if self._peak > 0 else None

    def level(self) -> Level:
        """Both, rounded for display and storage."""
        lufs, peak = self.loudness(), self.true_peak()
        return Level(None if lufs is None else round(lufs, 2), None if peak is None else round(peak, 2))


def _metered(audio: np.ndarray, sample_rate: int) -> ProgrammeMeter:
    data = np.asarray(audio)
    meter = ProgrammeMeter(sample_rate, 1 if data.ndim == 1 else data.shape[1])
    meter.add(data)
    return meter


def integrated_loudness(audio: np.ndarray, sample_rate: int) -> float | None:
    """BS.1770 integrated loudness of mono (n,) or multichannel (n, ch) audio, in LUFS (None:
    shorter than a gating block, or silence)."""
    return _metered(audio, sample_rate).loudness()


def true_peak_dbtp(audio: np.ndarray, sample_rate: int) -> float | None:
    """The true peak in dBTP (4× oversampled), or None for digital silence."""
    return _metered(audio, sample_rate).true_peak()


def measure(audio: np.ndarray, sample_rate: int) -> Level:
    """Integrated loudness and true peak of ``audio``, rounded for display and storage."""
    return _metered(audio, sample_rate).level()


def gain_for(lufs: float | None, target_lufs: float | None) -> float:
    """The linear gain that brings ``lufs`` to ``target_lufs`` (1.0 when either is unknown)."""
    if lufs is None or target_lufs is None:
        return 1.0
    return float(10 ** ((target_lufs - lufs) / 20))


Blocks = Callable[[], Iterator[np.ndarray]]
"""A programme as blocks ((n,) or (n, channels) float32), from its start at every call: a long
one is levelled in passes over it, never held whole."""


@dataclass(frozen=True)
class Levelling:
    """What brings a programme to its level: a gain, then, when ``limited``, pedalboard's limiter
    (JUCE's: two compressors and a clipper) under the ceiling less a margin, its make-up gain
    taken back off, and a trim that catches any inter-sample peak still over the ceiling.
    ``level`` is the levelled programme's loudness and true peak."""

    rate: int
    gain: float
    ceiling_dbtp: float
    level: Level
    limited: bool = False
    makeup: float = 1.0
    trim: float = 1.0

    def apply(self, blocks: Iterable[np.ndarray]) -> Iterator[np.ndarray]:
        """Each block levelled, in order; a fresh limiter each time, so the same blocks always
        give the same samples (its state carried from block to block)."""
        from pedalboard import Limiter

        limiter = Limiter(threshold_db=self.ceiling_dbtp - LIMITER_MARGIN_DB, release_ms=LIMITER_RELEASE_MS)
        first = True
        for block in blocks:
            data = np.asarray(block, dtype=np.float32) * np.float32(self.gain)
            if not self.limited or not len(data):
                yield data
                continue
            planar = np.ascontiguousarray(data.T if data.ndim == 2 else data[None, :])
            out = limiter(planar, self.rate, reset=first) * np.float32(self.trim / self.makeup)
            first = False
            yield np.ascontiguousarray(out.T if data.ndim == 2 else out[0])


def measure_blocks(blocks: Iterable[np.ndarray], sample_rate: int, channels: int) -> ProgrammeMeter:
    """A meter that has measured every block."""
    meter = ProgrammeMeter(sample_rate, channels)
    for block in blocks:
        meter.add(block)
    return meter


def shifted(meter: ProgrammeMeter, gain: float) -> Level:
    """The meter's level after a constant ``gain`` (both measures move by its dB exactly)."""
    lufs, peak, db = meter.loudness(), meter.true_peak(), 20 * math.log10(gain)
    return Level(None if lufs is None else round(lufs + db, 2), None if peak is None else round(peak + db, 2))


def _limit(blocks: Blocks, rate: int, channels: int, gain: float, ceiling_dbtp: float,
           makeup: float) -> tuple[Levelling, float | None]:
    """The programme at ``gain`` through the limiter, trimmed under the ceiling; the levelling
    and the loudness it reaches."""
    trial = Levelling(rate, gain, ceiling_dbtp, Level(None, None), limited=True, makeup=makeup)
    meter = measure_blocks(trial.apply(blocks()), rate, channels)
    peak = meter.true_peak()
    trim = 10 ** ((ceiling_dbtp - peak - 0.05) / 20) if peak is not None and peak > ceiling_dbtp else 1.0
    reached = meter.loudness()
    return replace(trial, trim=trim, level=shifted(meter, trim)), None if reached is None else reached + 20 * math.log10(trim)


def apply_ceiling(audio: np.ndarray, sample_rate: int, ceiling_dbtp: float) -> tuple[np.ndarray, bool]:
    """Keep ``audio``'s true peak at or under ``ceiling_dbtp`` (see :class:`Levelling`); returns
    (audio, whether it acted)."""
    data = np.asarray(audio, dtype=np.float32)
    peak = true_peak_dbtp(data, sample_rate)
    if peak is None or peak <= ceiling_dbtp:
        return audio, False
    channels = 1 if data.ndim == 1 else data.shape[1]
    levelling, _ = _limit(lambda: iter([data]), sample_rate, channels, 1.0, ceiling_dbtp,
                          _makeup_gain(sample_rate, ceiling_dbtp))
    return next(levelling.apply([data])), True


def to_target(blocks: Blocks, sample_rate: int, channels: int, target_lufs: float, ceiling_dbtp: float) -> Levelling:
    """How the programme ``blocks`` reaches ``target_lufs`` with its true peak at or under
    ``ceiling_dbtp``: a gain, and the limiter when the gain puts the peak over the ceiling.

    The limiter's first stage compresses loud speech as well as the peaks, so a programme brought
    to its target and then limited came out under it (-17.3 LUFS for a -16 LUFS target, with its
    true peak 4 dB under the ceiling). It is raised again and limited again, each step sized by
    how much the last one gained (a secant), until it is within :data:`TARGET_TOLERANCE_LU`.
    """
    meter = measure_blocks(blocks(), sample_rate, channels)
    gain = gain_for(meter.loudness(), target_lufs)
    peak = meter.true_peak()
    if peak is None or peak + 20 * math.log10(gain) <= ceiling_dbtp:
        return Levelling(sample_rate, gain, ceiling_dbtp, shifted(meter, gain))
    makeup = _makeup_gain(sample_rate, ceiling_dbtp)
    levelling, reached = _limit(blocks, sample_rate, channels, gain, ceiling_dbtp, makeup)
    tried: list[tuple[float, float]] = []  # (gain in dB, loudness reached)
    for _ in range(TARGET_PASSES):
        if reached is None or abs(target_lufs - reached) <= TARGET_TOLERANCE_LU:
            break
        tried.append((20 * math.log10(gain), reached))
        slope = 1.0  # LU gained per dB: 1 unlimited, less where the limiter compresses
        if len(tried) > 1 and tried[-1][0] != tried[-2][0]:
            slope = min(1.0, max(0.1, (tried[-1][1] - tried[-2][1]) / (tried[-1][0] - tried[-2][0])))
        gain *= 10 ** ((target_lufs - reached) / slope / 20)
        if peak + 20 * math.log10(gain) <= ceiling_dbtp:  # under the ceiling at this gain: no limiter
            levelling = Levelling(sample_rate, gain, ceiling_dbtp, shifted(meter, gain), limited=True)
            reached = levelling.level.lufs
        else:
            levelling, reached = _limit(blocks, sample_rate, channels, gain, ceiling_dbtp, makeup)
    return levelling


def _makeup_gain(sample_rate: int, ceiling_dbtp: float) -> float:
    """The limiter's gain on a quiet tone (−40 dBFS, far under any threshold): its make-up gain."""
    from pedalboard import Limiter

    limiter = Limiter(threshold_db=ceiling_dbtp - LIMITER_MARGIN_DB, release_ms=LIMITER_RELEASE_MS)
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
    first: int = 0,
) -> np.ndarray:
    """A gain curve (length,) that is 1 outside lines and ``duck_db`` under them, with fades,
    for the samples from ``first`` on (a long guide is ducked block by block).

    ``intervals`` are (start, end) seconds of the lines. Each fades down linearly over
    ``attack_s`` before its start and back up over ``release_s`` after its end; where
    lines are close the dips merge (the deepest duck wins at every sample).
    """
    depth = np.zeros(length, dtype=np.float32)  # 0 = full level, 1 = fully ducked
    for start, end in intervals:
        begin, stop = int(round(start * sample_rate)), int(round(end * sample_rate))
        fade_in = max(1, int(round(attack_s * sample_rate)))
        fade_out = max(1, int(round(release_s * sample_rate)))
        lo, hi = max(first, begin - fade_in), min(first + length, stop + fade_out)
        if lo >= hi:
            continue
        idx = np.arange(lo, hi)
        ramp_in = np.clip((idx - (begin - fade_in)) / fade_in, 0.0, 1.0)
        ramp_out = np.clip(1.0 - (idx - stop) / fade_out, 0.0, 1.0)
        shape = np.where(idx < begin, ramp_in, np.where(idx < stop, 1.0, ramp_out)).astype(np.float32)
        np.maximum(depth[lo - first : hi - first], shape, out=depth[lo - first : hi - first])
    gain: np.ndarray = np.power(np.float32(10.0), depth * np.float32(duck_db / 20.0)).astype(np.float32)
    return gain

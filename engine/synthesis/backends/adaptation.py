"""Adapting one model voice to many characters without losing intelligibility.

A single-speaker model (Piper's joe) speaks every character; what makes the characters
different is measured from each reference clip and applied to the model's output piece by
piece. Moving pitch "tape speed" (resampling) also moves the formants by the same ratio, which
turns a woman's voice into a chipmunk and a deep voice into mush; here each property moves on
its own:

- **Pitch**: PSOLA (Praat's overlap-add through parselmouth) sets the median F0 of the clip and
  scales the spread of log-F0 around it (the clip's intonation range).
- **Formants** (vocal-tract length): a bounded ratio, estimated by warping the model's mean
  spectral envelope onto the clip's. It is applied by resampling the audio to play faster by
  the ratio, which scales every formant (and the pitch, and the duration) by it, then letting
  PSOLA set the pitch and lengthen the audio back by the ratio.
- **Timbre** (microphone, brightness): a smooth "match EQ" in third-octave bands, the ratio of
  the clip's long-term average spectrum to that of the adapted model, bounded to a few dB.
- **Speaking rate** stays with the model (its ``length_scale``), which changes durations without
  touching pitch or formants.

Any clip may come in (noise, music under speech, whispering, very high or low voices, a few
seconds of speech), so every estimate is bounded, and one that cannot be trusted falls back to
the model's own value: the voice then stays plain in that respect rather than going wrong.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from engine.core.audio_io import resample

ANALYSIS_RATE = 16_000  # pitch and envelope analysis run at one rate whatever the clip's rate
TIME_STEP_S = 0.01
# The model's own pieces are analysed for PSOLA more coarsely: its pitch is smooth, so a 20 ms
# contour carries it, and glottal pulses from waveform peaks are as good as cross-correlation's
# there (measured: WER and resemblance held in benchmarks/voice_quality.py) at a twentieth of the
# cost. Together they halve the adaptation's CPU (4.8 to about 2.6 ms per second of audio).
PSOLA_TIME_STEP_S = 0.02
# ... and its clean pitch needs few candidates per frame for the path search (Praat's default is
# 15): a fifth less analysis time, the same contour on the model's speech.
PSOLA_PITCH_CANDIDATES = 4
# Praat's "To Pitch" defaults for the rest: silence threshold, voicing threshold, octave cost,
# octave-jump cost, voiced/unvoiced cost.
PRAAT_PITCH_DEFAULTS = (0.03, 0.45, 0.01, 0.35, 0.14)
# The reference's pitch search range: from a deep bass to a child's voice.
REFERENCE_PITCH_FLOOR_HZ = 50.0
REFERENCE_PITCH_CEILING_HZ = 650.0
OCTAVE_ERROR_LIMIT = 0.75  # voiced frames further than this (octaves) from the median are tracking errors
STEADY_TONE_FRAMES = 30  # 0.3 s ...
STEADY_TONE_SEMITONES = 0.5  # ... held within this: music or a hum, not speech

MIN_VOICED_S = 0.6  # less voiced speech than this and the clip's pitch is not trusted
MIN_VOICED_FOR_RANGE_S = 1.5  # the spread of log-F0 needs more speech than its median
MIN_VOICED_FRAMES_FOR_ENVELOPE = 40
MIN_WARP_CORRELATION = 0.5  # envelope fits below this are not trusted

TARGET_F0_BOUNDS = (55.0, 400.0)  # Hz: the pitch levels a clip may set
OUTPUT_F0_BOUNDS = (40.0, 600.0)  # Hz: after the character's pitch offset
RANGE_FACTOR_BOUNDS = (0.5, 1.5)
# In a tonal language each syllable's pitch contour tells words apart, so the range is never
# narrowed below the model's own: maya's flat English clip (1.3 semitones) halved zh-baker's, and
# Whisper base heard its Mandarin at CER 0.085 against 0.071 unnarrowed (40 lines of sets 1 and
# 2; resemblance 0.654 and 0.652: nothing bought). Widening stays (a lively clip's range).
TONAL_RANGE_FACTOR_FLOOR = 1.0
# Adult female formants sit about 15-20 % above adult male ones, children's about 30 %; beyond
# +25 % PSOLA output loses clarity faster than it gains resemblance. The model's formants are
# already an average man's, and lowering them was measured to cost clarity (a recogniser's WER
# +0.14 at 0.95) while every deep voice tried resembled its clip less, not more: never below 1.
FORMANT_RATIO_BOUNDS = (1.0, 1.25)
# Those bounds are a man's model's (joe, about 90 Hz). A model whose own voice is higher already has
# higher formants, by the quarter power of its F0 over a man's (FORMANT_FROM_F0_EXPONENT), so it is
# raised at most to the top of human voices, a child's, about 30 % above a man's: zh-baker (248 Hz)
# at most ×1.04, joe still ×1.25. maya's envelope fit (0.62) had raised zh-baker's by 1.17: at
# ×1.01 Whisper base heard 30 lines of sets 1, 2 and 4 at CER 0.049 against 0.059, and the
# resemblance to maya rose from 0.658 to 0.749 (docs/chinese.md).
MAN_F0_HZ = 100.0
HIGHEST_FORMANTS_OVER_MAN = 1.30
# PSOLA lowers the pitch by spacing the model's glottal periods further apart; more than an
# octave down, each output period is a short grain of the model's voice and a gap, and words blur:
# zh-baker (248 Hz) lowered to rex's 85 Hz was heard at CER 0.077 on 30 lines of sets 1, 2 and 4,
# at most an octave down (124 Hz) at 0.054, and resembled rex more (GE2E 0.578 -> 0.596). So a
# clip's pitch is followed at most this far below the model's own. joe (about 90 Hz) is never
# asked for more (the lowest target, 55 Hz, is within an octave of it).
DEEPEST_PITCH_DROP_OCTAVES = 1.0
# Where no envelope fit can be trusted but the pitch can: formants scale roughly with the
# quarter power of the F0 ratio between speakers (male -> female: F0 ×1.8, formants ×1.16).
FORMANT_FROM_F0_EXPONENT = 0.25
EQ_LIMIT_DB = 6.0
NEUTRAL_F0_HZ = 100.0  # stands for the model's F0 in an adaptation that moves nothing
EQ_TAPS = 1023  # linear-phase FIR; 46 ms at 22 kHz resolves the smoothed third-octave curve
EDGE_FADE_S = 0.004  # a piece starts and ends in silence; the fades keep the joins click-free

# Third-octave bands from 100 Hz to 8 kHz (ISO centres, rounded): the match EQ's resolution.
EQ_BAND_CENTRES_HZ = 1000.0 * 2.0 ** (np.arange(-10, 10) / 3.0)
# Where spectral envelopes are compared: F1 to F4 of men, women and children.
ENVELOPE_GRID_HZ = np.geomspace(250.0, 4500.0, 160)
ENVELOPE_LIFTER_S = 0.0016  # cepstral smoothing below the shortest pitch period expected
WARP_CANDIDATES = np.round(np.arange(0.80, 1.3001, 0.01), 2)

# Praat keeps global state; parselmouth calls are serialised so two synthesis slots never
# enter it at once (each call is a few milliseconds to tens of milliseconds).
_PRAAT_LOCK = threading.Lock()
PSOLA_SEED = 20_261_130


@dataclass(frozen=True)
class SpeechAnalysis:
    """What the adaptation needs to know about a stretch of speech (a clip or the model's own)."""

    f0_median_hz: float  # NaN when too little voiced speech was found to trust it
    f0_spread_semitones: float  # robust spread of log-F0; NaN when not trusted
    voiced_s: float
    envelope_db: np.ndarray  # mean spectral envelope of voiced frames on ENVELOPE_GRID_HZ (NaN: no data)
    ltas_db: np.ndarray  # long-term average spectrum in EQ_BAND_CENTRES_HZ bands (NaN: beyond the band limit)

    @property
    def pitch_reliable(self) -> bool:
        return math.isfinite(self.f0_median_hz)


@dataclass(frozen=True)
class Adaptation:
    """How to turn the model's voice into a character's; stored in the cached voice profile."""

    model_f0_hz: float  # the model's own median F0, which the pitch mapping is relative to
    target_f0_hz: float
    range_factor: float  # spread of log-F0 relative to the model's
    formant_ratio: float
    eq_db: np.ndarray  # gain per EQ_BAND_CENTRES_HZ band

    ARRAY_PREFIX = "adapt_"

    @classmethod
    def neutral(cls) -> Adaptation:
        """The model's own voice: pitch, formants and spectrum left as they are.

        The pitch mapping is relative (target equal to the model's F0 moves nothing), so any
        F0 within bounds stands in for the model's here.
        """
        return cls(NEUTRAL_F0_HZ, NEUTRAL_F0_HZ, 1.0, 1.0, np.zeros(len(EQ_BAND_CENTRES_HZ), np.float32))

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The profile's conditioning arrays (plain float32 data, no objects)."""
        scalars = {
            "model_f0_hz": self.model_f0_hz,
            "target_f0_hz": self.target_f0_hz,
            "range_factor": self.range_factor,
            "formant_ratio": self.formant_ratio,
        }
        arrays = {self.ARRAY_PREFIX + name: np.asarray(np.float32(value)) for name, value in scalars.items()}
        arrays[self.ARRAY_PREFIX + "eq_db"] = np.asarray(self.eq_db, dtype=np.float32)
        return arrays

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> Adaptation:
        """Read back :meth:`to_arrays`; raises ValueError naming the first value out of range."""
        problem = adaptation_problem(arrays)
        if problem:
            raise ValueError(problem)
        value = {name: arrays[cls.ARRAY_PREFIX + name] for name in ARRAY_BOUNDS}
        return cls(
            model_f0_hz=float(value["model_f0_hz"]),
            target_f0_hz=float(value["target_f0_hz"]),
            range_factor=float(value["range_factor"]),
            formant_ratio=float(value["formant_ratio"]),
            eq_db=np.asarray(value["eq_db"], dtype=np.float32),
        )

    def summary(self) -> dict[str, Any]:
        """JSON-able facts for the profile's meta."""
        return {
            "target_f0_hz": round(self.target_f0_hz, 1),
            "model_f0_hz": round(self.model_f0_hz, 1),
            "pitch_range_factor": round(self.range_factor, 3),
            "formant_ratio": round(self.formant_ratio, 3),
            "eq_db": [round(float(gain), 1) for gain in self.eq_db],
        }


# Valid values of every conditioning array an Adaptation writes: (shape, low, high).
ARRAY_BOUNDS: dict[str, tuple[tuple[int, ...], float, float]] = {
    "model_f0_hz": ((), *OUTPUT_F0_BOUNDS),
    "target_f0_hz": ((), *TARGET_F0_BOUNDS),
    "range_factor": ((), *RANGE_FACTOR_BOUNDS),
    "formant_ratio": ((), *FORMANT_RATIO_BOUNDS),
    "eq_db": ((len(EQ_BAND_CENTRES_HZ),), -EQ_LIMIT_DB, EQ_LIMIT_DB),
}


def adaptation_problem(arrays: Mapping[str, np.ndarray]) -> str | None:
    """Why these conditioning arrays are not a valid Adaptation, in words; None when they are."""
    for name, (shape, low, high) in ARRAY_BOUNDS.items():
        key = Adaptation.ARRAY_PREFIX + name
        value = arrays.get(key)
        if not isinstance(value, np.ndarray) or value.dtype.kind != "f":
            return f"{key} is missing or not a float array"
        if value.shape != shape:
            return f"{key} has shape {value.shape}, expected {shape}"
        if not np.isfinite(value).all():
            return f"{key} holds NaN or infinite values"
        slack = 1e-4 * max(1.0, abs(high))  # float32 rounding of a bound
        if float(value.min()) < low - slack or float(value.max()) > high + slack:
            return f"{key} is outside {low:g}..{high:g}"
    return None


# --- analysis ------------------------------------------------------------------------------


def analyse_speech(audio: np.ndarray, rate: int) -> SpeechAnalysis:
    """Measure pitch level and spread, mean spectral envelope and long-term spectrum."""
    low_rate = resample(np.asarray(audio, dtype=np.float32), rate, ANALYSIS_RATE)
    times, f0 = _pitch_track(low_rate, ANALYSIS_RATE, REFERENCE_PITCH_FLOOR_HZ, REFERENCE_PITCH_CEILING_HZ)
    speech = _speech_frames(f0)
    voiced_s = float(speech.sum()) * TIME_STEP_S
    median, spread = float("nan"), float("nan")
    if voiced_s >= MIN_VOICED_S:
        log_f0 = np.log2(f0[speech])
        median = float(2.0 ** np.median(log_f0))
        if voiced_s >= MIN_VOICED_FOR_RANGE_S:
            q25, q75 = np.percentile(log_f0, [25, 75])
            spread = float((q75 - q25) / 1.349 * 12.0)  # the IQR of a normal is 1.349 sigma
    envelope = _mean_envelope(low_rate, ANALYSIS_RATE, times[speech], min(rate, ANALYSIS_RATE) / 2.0)
    return SpeechAnalysis(median, spread, voiced_s, envelope, long_term_spectrum(audio, rate))


def _speech_frames(f0: np.ndarray) -> np.ndarray:
    """The voiced frames that are the voice: steady tones and octave errors left out.

    A pitch held within half a semitone for 0.3 s is an instrument, a hum or a test tone,
    not speech (whose pitch glides); frames more than OCTAVE_ERROR_LIMIT from the median of
    the rest are the tracker jumping an octave.
    """
    voiced = f0 > 0
    semitones = np.where(voiced, 12.0 * np.log2(np.where(voiced, f0, 1.0)), np.nan)
    if len(f0) >= STEADY_TONE_FRAMES:
        windows = np.lib.stride_tricks.sliding_window_view(semitones, STEADY_TONE_FRAMES)
        whole = ~np.isnan(windows).any(axis=1)
        flat = np.zeros(len(windows), dtype=bool)
        flat[whole] = np.ptp(windows[whole], axis=1) < STEADY_TONE_SEMITONES
        steady = np.convolve(flat, np.ones(STEADY_TONE_FRAMES), mode="full")[: len(f0)] > 0  # whole windows
        voiced &= ~steady
    if voiced.any():
        centre = float(np.median(semitones[voiced]))
        voiced &= np.abs(np.nan_to_num(semitones, nan=centre + 99.0) - centre) <= 12.0 * OCTAVE_ERROR_LIMIT
    return voiced


def _pitch_track(audio: np.ndarray, rate: int, floor: float, ceiling: float) -> tuple[np.ndarray, np.ndarray]:
    """Frame times and F0 (0 where unvoiced) by Praat's autocorrelation method."""
    import parselmouth
    from parselmouth.praat import call

    if len(audio) < int(3.0 / floor * rate) + 1:  # Praat needs three periods of the floor
        return np.zeros(0), np.zeros(0)
    with _PRAAT_LOCK:
        pitch = call(parselmouth.Sound(audio.astype(np.float64), rate), "To Pitch", TIME_STEP_S, floor, ceiling)
        return np.asarray(pitch.xs()), np.nan_to_num(pitch.selected_array["frequency"])


def _mean_envelope(audio: np.ndarray, rate: int, times: np.ndarray, band_limit_hz: float) -> np.ndarray:
    """Mean cepstrally smoothed log spectrum (dB) of the frames at ``times``, on ENVELOPE_GRID_HZ.

    Averaging many voiced frames gives the vocal tract's typical resonances with the pitch
    harmonics smoothed away; NaN everywhere when there are too few frames to average.
    """
    size = int(0.04 * rate)
    starts = (times * rate).astype(int) - size // 2
    starts = starts[(starts >= 0) & (starts + size <= len(audio))]
    if len(starts) < MIN_VOICED_FRAMES_FOR_ENVELOPE:
        return np.full(len(ENVELOPE_GRID_HZ), np.nan)
    frames = audio[starts[:, None] + np.arange(size)] * np.hanning(size)
    nfft = 1024
    log_power = np.log(np.abs(np.fft.rfft(frames, nfft, axis=1)) ** 2 + 1e-10)
    cepstrum = np.fft.irfft(log_power, nfft, axis=1)
    lifter = int(ENVELOPE_LIFTER_S * rate)
    cepstrum[:, lifter: nfft - lifter + 1] = 0.0
    envelope = np.fft.rfft(cepstrum, nfft, axis=1).real.mean(axis=0) * (10.0 / math.log(10.0))
    grid = np.interp(ENVELOPE_GRID_HZ, np.fft.rfftfreq(nfft, 1.0 / rate), envelope)
    return np.where(ENVELOPE_GRID_HZ < 0.9 * band_limit_hz, grid, np.nan)  # noqa: SIM300 (an array, not a constant)


def long_term_spectrum(audio: np.ndarray, rate: int) -> np.ndarray:
    """Band levels (dB) of the average power spectrum of the audio's louder frames.

    Frames more than 30 dB below the loudest are pauses and left out; bands reaching past
    95 % of the Nyquist frequency are NaN (the clip holds nothing there to match).
    """
    size = 1 << int(round(math.log2(0.046 * rate)))  # about 46 ms, a power of two
    hop = size // 4
    if len(audio) < size:
        audio = np.pad(audio, (0, size - len(audio)))
    frames = np.lib.stride_tricks.sliding_window_view(audio, size)[::hop]
    power = np.abs(np.fft.rfft(frames * np.hanning(size), axis=1)) ** 2
    energy = power.sum(axis=1)
    if not energy.any():
        return np.full(len(EQ_BAND_CENTRES_HZ), np.nan)
    spectrum = power[energy > energy.max() * 1e-3].mean(axis=0)
    freqs = np.fft.rfftfreq(size, 1.0 / rate)
    levels = np.full(len(EQ_BAND_CENTRES_HZ), np.nan)
    for index, centre in enumerate(EQ_BAND_CENTRES_HZ):
        low, high = centre * 2 ** (-1 / 6), centre * 2 ** (1 / 6)
        in_band = (freqs >= low) & (freqs < high)
        if in_band.any() and high < 0.95 * rate / 2:
            levels[index] = 10.0 * math.log10(float(spectrum[in_band].mean()) + 1e-20)
    return levels


# --- estimation ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """An adaptation and how each part of it was found (for the voice's summary)."""

    adaptation: Adaptation
    pitch_source: str  # "clip" or "model (…)": why the model's own value was kept
    range_source: str
    formant_source: str
    warp_correlation: float | None

    def summary(self) -> dict[str, Any]:
        return {
            **self.adaptation.summary(),
            "pitch_from": self.pitch_source,
            "pitch_range_from": self.range_source,
            "formant_ratio_from": self.formant_source,
            "envelope_fit": None if self.warp_correlation is None else round(self.warp_correlation, 3),
        }


def estimate_adaptation(reference: SpeechAnalysis, model: SpeechAnalysis, model_source: PsolaSource,
                        tonal: bool = False) -> Estimate:
    """Everything the clip says about the character, each part bounded or left neutral.

    ``model`` is :func:`analyse_speech` of the model's own calibration speech, and
    ``model_source`` that speech ready for PSOLA: the match EQ compares the clip against it
    once adapted, so it only corrects what pitch and formants did not already move. ``tonal``:
    the model speaks a tonal language, whose pitch range is never narrowed
    (TONAL_RANGE_FACTOR_FLOOR).
    """
    model_f0 = float(np.clip(model.f0_median_hz, *OUTPUT_F0_BOUNDS))
    if reference.pitch_reliable:
        target = float(np.clip(reference.f0_median_hz, *TARGET_F0_BOUNDS))
        pitch_source = "clip"
        deepest = float(np.clip(model_f0 * 2.0 ** -DEEPEST_PITCH_DROP_OCTAVES, *TARGET_F0_BOUNDS))
        if target < deepest:
            target = deepest
            pitch_source = "clip, at most an octave below the model's (deeper blurs words)"
    else:
        target = float(np.clip(model_f0, *TARGET_F0_BOUNDS))
        pitch_source = f"model (only {reference.voiced_s:.1f} s of voiced speech in the clip)"
    if math.isfinite(reference.f0_spread_semitones) and math.isfinite(model.f0_spread_semitones):
        lowest = TONAL_RANGE_FACTOR_FLOOR if tonal else RANGE_FACTOR_BOUNDS[0]
        measured = reference.f0_spread_semitones / max(model.f0_spread_semitones, 0.1)
        range_factor = float(np.clip(measured, lowest, RANGE_FACTOR_BOUNDS[1]))
        range_source = "clip" if measured >= lowest else "clip, not narrowed (tones tell words apart)"
    else:
        range_factor = 1.0
        range_source = f"model (needs {MIN_VOICED_FOR_RANGE_S:.1f} s of voiced speech)"
    ratio, correlation = warp_ratio(reference.envelope_db, model.envelope_db)
    if correlation is not None and correlation >= MIN_WARP_CORRELATION:
        formant_source = "clip"
    else:
        why = ("too little voiced speech to measure the envelope" if correlation is None
               else f"the clip's spectral envelope fits poorly ({correlation:.2f})")
        if reference.pitch_reliable:
            ratio = float(np.clip((target / model_f0) ** FORMANT_FROM_F0_EXPONENT, *FORMANT_RATIO_BOUNDS))
            formant_source = f"pitch ({why})"
        else:
            ratio = 1.0
            formant_source = f"model ({why})"
    highest = highest_formant_ratio(model_f0)
    if ratio > highest:
        ratio = highest
        formant_source += ", at most a child's formants (the model's voice is high already)"
    partial = Adaptation(model_f0, target, range_factor, ratio, np.zeros(len(EQ_BAND_CENTRES_HZ), np.float32))
    adapted = adapt_piece(model_source.pcm, model_source.rate, partial, source=model_source)
    eq = match_eq(reference.ltas_db, long_term_spectrum(adapted, model_source.rate))
    return Estimate(Adaptation(model_f0, target, range_factor, ratio, eq), pitch_source, range_source,
                    formant_source, correlation)


def highest_formant_ratio(model_f0: float) -> float:
    """The most a model whose own median F0 is ``model_f0`` has its formants raised: to a child's
    (HIGHEST_FORMANTS_OVER_MAN above a man's), its own estimated from its F0 over a man's."""
    own_over_man = (model_f0 / MAN_F0_HZ) ** FORMANT_FROM_F0_EXPONENT
    return float(np.clip(HIGHEST_FORMANTS_OVER_MAN / own_over_man, *FORMANT_RATIO_BOUNDS))


def warp_ratio(reference_db: np.ndarray, model_db: np.ndarray) -> tuple[float, float | None]:
    """The formant ratio that best maps the model's envelope onto the reference's.

    Each envelope loses its straight-line tilt over log-frequency first, so a microphone's
    or a voice's brightness (the match EQ's job) does not pass for a formant shift. Returns
    (ratio, correlation of the best fit), or (1.0, None) when the envelopes share too little.
    """
    usable = np.isfinite(reference_db)
    if usable.sum() < len(ENVELOPE_GRID_HZ) // 2 or not np.isfinite(model_db).all():
        return 1.0, None
    grid = ENVELOPE_GRID_HZ[usable]
    log_grid = np.log(grid)
    target = _detrend(log_grid, reference_db[usable])
    best_ratio, best = 1.0, -1.0
    for ratio in WARP_CANDIDATES:
        warped = _detrend(log_grid, np.interp(log_grid - math.log(ratio), np.log(ENVELOPE_GRID_HZ), model_db))
        correlation = float(np.corrcoef(target, warped)[0, 1])
        if correlation > best:
            best_ratio, best = float(ratio), correlation
    return float(np.clip(best_ratio, *FORMANT_RATIO_BOUNDS)), best


def _detrend(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return y - np.polyval(np.polyfit(x, y, 1), x)


def match_eq(reference_db: np.ndarray, output_db: np.ndarray) -> np.ndarray:
    """A smooth, bounded gain curve (dB per band) taking the output's spectrum toward the reference's.

    The overall level is left alone (the weighted mean gain is zero) and bands either side
    lacks are not touched.
    """
    difference = reference_db - output_db
    valid = np.isfinite(difference)
    if valid.sum() < 3:
        return np.zeros(len(EQ_BAND_CENTRES_HZ), np.float32)
    weights = 10.0 ** (output_db[valid] / 10.0)
    difference = np.where(valid, difference - np.average(difference[valid], weights=weights), 0.0)
    smooth = np.convolve(np.pad(difference, 1, mode="edge"), np.ones(3) / 3.0, mode="valid")
    return np.clip(np.where(valid, smooth, 0.0), -EQ_LIMIT_DB, EQ_LIMIT_DB).astype(np.float32)


# --- application ---------------------------------------------------------------------------


def adapt_piece(pcm: np.ndarray, rate: int, adaptation: Adaptation, pitch_semitones: float = 0.0,
                source: PsolaSource | None = None) -> np.ndarray:
    """One streamed piece of the model's audio in the character's voice, same length.

    ``pitch_semitones`` is the character's own pitch setting, on top of the clip's level.
    Pieces are independent (no state crosses a join), start and end in silence and get a
    few milliseconds of fade, so they join without clicks; the EQ keeps their level.
    ``source`` is ``pcm`` already analysed for PSOLA, when it is adapted more than once.
    """
    pcm = np.asarray(pcm, dtype=np.float32)
    target = float(np.clip(adaptation.target_f0_hz * 2.0 ** (pitch_semitones / 12.0), *OUTPUT_F0_BOUNDS))
    moves_pitch = abs(math.log(target / adaptation.model_f0_hz)) > 1e-3 or abs(adaptation.range_factor - 1.0) > 1e-3
    out = pcm
    if moves_pitch or abs(adaptation.formant_ratio - 1.0) > 1e-3:
        source = source or PsolaSource(pcm, rate, adaptation.model_f0_hz)
        out = source.render(target, adaptation.range_factor, adaptation.formant_ratio)
    if np.any(adaptation.eq_db):
        out = _equalise(out, rate, adaptation.eq_db)
    if out is pcm:
        return pcm
    fade = min(int(EDGE_FADE_S * rate), len(out) // 2)
    if fade:
        ramp = (0.5 - 0.5 * np.cos(np.linspace(0.0, math.pi, fade))).astype(np.float32)
        out[:fade] *= ramp
        out[len(out) - fade:] *= ramp[::-1]
    clipped: np.ndarray = np.clip(out, -1.0, 1.0)
    return clipped


class PsolaSource:
    """The model's audio, analysed for PSOLA (pitch and glottal pulses) and ready to resynthesise.

    Formants move by resampling: the audio is first played faster by the formant ratio (every
    frequency, formants included, up by it; the audio shorter by it), then PSOLA sets the pitch
    and lengthens it back by the ratio. Resampling first rather than last gives PSOLA 1/ratio of
    the audio to analyse and to write (a fifth less for a woman's voice).

    Analysis is most of PSOLA's cost, so it is kept lean: the pitch search spans only the
    model's own range (its median F0 over 1.5 to ×3.3, which sets the analysis window), on a
    20 ms step, pulses come from waveform peaks, the silence a piece ends with is left out, and
    audio adapted more than once keeps its latest analysis. That is the model's calibration
    speech, adapted for every new voice's match EQ (men's voices mostly at a ratio of 1), by
    whichever slot prepares the voice: hence the lock.
    """

    def __init__(self, pcm: np.ndarray, rate: int, model_f0: float) -> None:
        self.pcm = np.asarray(pcm, dtype=np.float32)
        self.rate = rate
        self.model_f0 = model_f0
        sounding = np.flatnonzero(self.pcm)
        self._length = int(sounding[-1]) + 1 if len(sounding) else 0  # the rest is the pause
        self._latest: tuple[float, _PsolaAnalysis | None] | None = None  # (formant ratio, its analysis)
        self._latest_lock = threading.Lock()

    def render(self, target_f0: float, range_factor: float, formant_ratio: float) -> np.ndarray:
        """Pitch to ``target_f0`` with the spread scaled, formants scaled by ``formant_ratio``."""
        import parselmouth  # noqa: F401 - first: its praat module is complete once it is imported
        from parselmouth.praat import call, run

        analysis = self._analysis(formant_ratio)
        if analysis is None:
            return self.pcm.copy()
        with _PRAAT_LOCK:
            tier = call(analysis.tier, "Copy", "target")
            call(tier, "Formula", f"{target_f0!r} * (self / {analysis.f0!r}) ^ {range_factor!r}")
            call([analysis.manipulation, tier], "Replace pitch tier")
            durations = call("Create DurationTier", "stretch", 0.0, analysis.seconds)
            call(durations, "Add point", 0.0, formant_ratio)
            call([analysis.manipulation, durations], "Replace duration tier")
            # Overlap-add places pulses at random in voiceless stretches: a fixed seed makes the
            # same piece come out the same every time (re-renders, a server against a local run).
            run(f"random_initializeWithSeedUnsafelyButPredictably ({PSOLA_SEED})")
            out = call(analysis.manipulation, "Get resynthesis (overlap-add)").values[0].astype(np.float32)
        out = out[: self._length]
        return np.concatenate([out, np.zeros(len(self.pcm) - len(out), np.float32)])

    def _analysis(self, formant_ratio: float) -> _PsolaAnalysis | None:
        """The analysis of the audio played faster by ``formant_ratio``; None when too short."""
        ratio = round(formant_ratio, 4)
        with self._latest_lock:
            if self._latest is None or self._latest[0] != ratio:
                self._latest = ratio, _PsolaAnalysis.of(self.pcm[: self._length], self.rate, self.model_f0, ratio)
            return self._latest[1]


@dataclass(frozen=True)
class _PsolaAnalysis:
    """Praat's objects for one rendering speed: the PSOLA manipulation (which holds the sound and
    its pulses), the pitch contour, the model's F0 at that speed and the sound's length.

    Both objects are parselmouth.Data at run time (Praat's Manipulation and PitchTier have no
    classes of their own there), and parselmouth ships no type information: both are untyped."""

    manipulation: Any
    tier: Any  # the pitch contour, which each rendering maps to the character's
    f0: float  # the model's median F0 at this speed
    seconds: float

    @classmethod
    def of(cls, pcm: np.ndarray, rate: int, model_f0: float, formant_ratio: float) -> _PsolaAnalysis | None:
        import parselmouth
        from parselmouth.praat import call

        if abs(formant_ratio - 1.0) > 1e-3:
            pcm = resample(pcm, rate * formant_ratio, rate)  # faster: every frequency × the ratio
        f0 = model_f0 * formant_ratio
        floor = max(OUTPUT_F0_BOUNDS[0], f0 / 1.5)
        ceiling = min(OUTPUT_F0_BOUNDS[1], f0 * 3.3)
        if len(pcm) <= int(3.0 / floor * rate) + 1:  # Praat needs three periods of the floor
            return None
        sound = parselmouth.Sound(np.asarray(pcm, dtype=np.float64), rate)
        with _PRAAT_LOCK:
            pitch = call(sound, "To Pitch (ac)", PSOLA_TIME_STEP_S, floor, PSOLA_PITCH_CANDIDATES, "no",
                         *PRAAT_PITCH_DEFAULTS, ceiling)
            pulses = call([sound, pitch], "To PointProcess (peaks)", "yes", "no")  # maxima only
            # A Manipulation is Praat's PSOLA object; made from a moment of silence (cheap), it
            # takes this sound, pitch and pulses instead of analysing everything again.
            manipulation = call(parselmouth.Sound(np.zeros(int(0.1 * rate)), rate), "To Manipulation",
                                PSOLA_TIME_STEP_S, floor, ceiling)
            call([manipulation, sound], "Replace original sound")
            call([manipulation, pulses], "Replace pulses")
            tier = call(pitch, "Down to PitchTier")
        return cls(manipulation, tier, f0, sound.xmax)


def _equalise(pcm: np.ndarray, rate: int, gains_db: np.ndarray) -> np.ndarray:
    """Filter with a linear-phase FIR through the band gains (overlap-add: a piece is far longer
    than the filter, so short FFTs beat one the length of the piece)."""
    from scipy.signal import oaconvolve

    impulse = _eq_impulse(rate, np.asarray(gains_db, dtype=np.float64).tobytes())
    filtered = cast(np.ndarray, oaconvolve(pcm, impulse, mode="same"))  # scipy is untyped
    return filtered.astype(np.float32)


@functools.lru_cache(maxsize=64)
def _eq_impulse(rate: int, gains: bytes) -> np.ndarray:
    """The FIR through the band gains (float64 bytes, one per EQ band), interpolated over
    log-frequency; designed once per voice and rate, not once per piece."""
    gains_db = np.frombuffer(gains, dtype=np.float64)
    freqs = np.fft.rfftfreq(4 * EQ_TAPS, 1.0 / rate)
    log_freqs = np.log2(np.clip(freqs, EQ_BAND_CENTRES_HZ[0], EQ_BAND_CENTRES_HZ[-1]))
    response = 10.0 ** (np.interp(log_freqs, np.log2(EQ_BAND_CENTRES_HZ), gains_db) / 20.0)
    impulse = (np.roll(np.fft.irfft(response), EQ_TAPS // 2)[:EQ_TAPS] * np.hanning(EQ_TAPS)).astype(np.float32)
    impulse.flags.writeable = False  # shared by every caller with these gains
    return impulse

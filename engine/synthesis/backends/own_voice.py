"""What the embedded voices share: one model's own voice, adapted to each character's clip.

Piper (English) and zh-baker (Mandarin) each speak with one speaker's model. Both measure that
voice once (:class:`Calibration`: its pitch, spectral envelope, long-term spectrum and speaking
rate, from a calibration text), compare each reference clip with it (:func:`condition_on_clip`:
the adaptation of :mod:`engine.synthesis.backends.adaptation`, and a length scale from the clip's
speaking rate), and run onnxruntime sessions sized by the pieces computing at the moment
(:class:`ComputeCounter`, :func:`session_options`). The rate's unit is each model's own: phonemes
for Piper, syllables for Mandarin. :class:`OwnVoiceBackend` is what the two backends do alike
with it: keep the calibration, and adapt each piece the model speaks.
"""

from __future__ import annotations

import abc
import contextlib
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from engine.core.codes import EngineError, ErrorCode
from engine.core.languages import LanguageRules
from engine.core.protocol import VoiceSettings, synthesis_seed
from engine.core.reference import ReferenceClip
from engine.core.silence import sound_seconds
from engine.core.text import FIRST_PIECE_CHARS, is_speakable
from engine.synthesis.backends.adaptation import (
    ARRAY_BOUNDS,
    ENVELOPE_GRID_HZ,
    EQ_BAND_CENTRES_HZ,
    NEUTRAL_F0_HZ,
    OUTPUT_F0_BOUNDS,
    Adaptation,
    PsolaSource,
    SpeechAnalysis,
    adapt_piece,
    analyse_speech,
    estimate_adaptation,
)
from engine.synthesis.backends.base import (
    ArraySpec,
    Backend,
    SpokenPiece,
    StopCheck,
    VoiceProfile,
    arrays_problem,
)

if TYPE_CHECKING:
    import onnxruntime

RATE_RANGE = (0.6, 1.6)  # bounds on the length scale derived from the reference clip
SPEECH_TOP_DB = 35.0  # quieter than this below the loudest frame counts as a pause
CALIBRATION_SECONDS = (2.0, 120.0)  # the calibration speech's plausible length
# The calibration as the voice cache keeps it on disk (see Backend.model_data): what each
# array may hold, so a damaged or foreign file is measured again rather than trusted.
# "phonemes_per_s" is the model's speaking rate in its own unit (Mandarin: syllables).
CALIBRATION_SPEC: dict[str, ArraySpec] = {
    "audio": ArraySpec(shape=(None,), low=-1.0, high=1.0),
    "f0_median_hz": ArraySpec(low=OUTPUT_F0_BOUNDS[0], high=OUTPUT_F0_BOUNDS[1]),
    "f0_spread_semitones": ArraySpec(low=0.0, high=48.0, nan_ok=True),
    "voiced_s": ArraySpec(low=0.0, high=CALIBRATION_SECONDS[1]),
    "envelope_db": ArraySpec(shape=(len(ENVELOPE_GRID_HZ),), low=-1000.0, high=1000.0),
    "ltas_db": ArraySpec(shape=(len(EQ_BAND_CENTRES_HZ),), low=-1000.0, high=1000.0, nan_ok=True),
    "phonemes_per_s": ArraySpec(low=1.0, high=100.0),
}
# A voice's conditioning: the adaptation's arrays and the model's length scale.
CONDITIONING_SPEC: dict[str, ArraySpec] = {
    **{Adaptation.ARRAY_PREFIX + name: ArraySpec(shape=shape, low=low, high=high)
       for name, (shape, low, high) in ARRAY_BOUNDS.items()},
    "length_scale": ArraySpec(low=RATE_RANGE[0], high=RATE_RANGE[1]),
}


@dataclass(frozen=True)
class Calibration:
    """The model's own voice, measured once per model."""

    analysis: SpeechAnalysis
    source: PsolaSource  # the calibration speech, analysed for PSOLA
    phonemes_per_s: float  # in the model's unit of speech (see the module docstring)

    @classmethod
    def measure(cls, audio: np.ndarray, rate: int, units: int) -> Calibration:
        """The calibration of a model whose own speech of ``units`` phonemes (or syllables) is ``audio``."""
        analysis = analyse_speech(audio, rate)
        if not analysis.pitch_reliable:
            raise EngineError(ErrorCode.BACKEND, "The model's own speech has no measurable pitch; "
                              "voices cannot be adapted to it")
        speaking_rate = units / sound_seconds(audio, rate, SPEECH_TOP_DB)
        return cls(analysis, PsolaSource(audio, rate, analysis.f0_median_hz), speaking_rate)

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Plain float32 arrays (see CALIBRATION_SPEC); the PSOLA analysis is redone from the audio."""
        values = {
            "audio": self.source.pcm,
            "f0_median_hz": self.analysis.f0_median_hz,
            "f0_spread_semitones": self.analysis.f0_spread_semitones,
            "voiced_s": self.analysis.voiced_s,
            "envelope_db": self.analysis.envelope_db,
            "ltas_db": self.analysis.ltas_db,
            "phonemes_per_s": self.phonemes_per_s,
        }
        return {name: np.asarray(value, dtype=np.float32) for name, value in values.items()}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], rate: int) -> Calibration:
        """Read back :meth:`to_arrays` (already checked against CALIBRATION_SPEC)."""
        analysis = SpeechAnalysis(
            f0_median_hz=float(arrays["f0_median_hz"]),
            f0_spread_semitones=float(arrays["f0_spread_semitones"]),
            voiced_s=float(arrays["voiced_s"]),
            envelope_db=np.asarray(arrays["envelope_db"], dtype=np.float64),
            ltas_db=np.asarray(arrays["ltas_db"], dtype=np.float64),
        )
        source = PsolaSource(np.asarray(arrays["audio"], dtype=np.float32), rate, analysis.f0_median_hz)
        return cls(analysis, source, float(arrays["phonemes_per_s"]))

    @staticmethod
    def problem(arrays: Mapping[str, np.ndarray], rate: int) -> str | None:
        """Why stored calibration arrays cannot be adopted, in words; None when they can."""
        problem = arrays_problem(CALIBRATION_SPEC, arrays)
        seconds = np.asarray(arrays.get("audio", ())).size / rate
        if problem is None and not CALIBRATION_SECONDS[0] <= seconds <= CALIBRATION_SECONDS[1]:
            problem = f"the calibration speech lasts {seconds:.1f} s"
        return problem


def condition_on_clip(model: Calibration, clip: ReferenceClip, transcript: str, count_units: Callable[[str], int],
                      language: LanguageRules | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """A voice's conditioning (see CONDITIONING_SPEC) and its facts: the clip's pitch, formants and
    timbre against the model's, and its speaking rate (``count_units`` of the transcript per
    second of sound, when the transcript has units the model counts) as the length scale.
    ``language`` is the one the model speaks, whose rules bound the adaptation (a tonal
    language's pitch range is never narrowed, and no clip's pace goes beyond the language's
    fastest clear one)."""
    return condition_on_analysis(model, ClipFacts.measure(clip, transcript, count_units), language)


@dataclass(frozen=True)
class ClipFacts:
    """What a reference clip says about a character, for any model: its speech analysed, and its
    speaking rate in the model's units (NaN when its transcript has none)."""

    analysis: SpeechAnalysis
    units_per_s: float

    @classmethod
    def measure(cls, clip: ReferenceClip, transcript: str, count_units: Callable[[str], int]) -> ClipFacts:
        return cls(analyse_speech(clip.audio, clip.sample_rate), cls.rate(clip, transcript, count_units))

    @staticmethod
    def rate(clip: ReferenceClip, transcript: str, count_units: Callable[[str], int]) -> float:
        """The clip's speaking rate in ``count_units``' units a second (NaN without any)."""
        units = count_units(transcript) if transcript.strip() and is_speakable(transcript) else 0
        if not units:
            return float("nan")
        return units / max(sound_seconds(clip.audio, clip.sample_rate, SPEECH_TOP_DB), 0.1)


def condition_on_analysis(model: Calibration, clip: ClipFacts,
                          language: LanguageRules | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """:func:`condition_on_clip` from a clip already measured."""
    reference = clip.analysis
    estimate = estimate_adaptation(reference, model.analysis, model.source,
                                   tonal=language is not None and language.lexical_tones)
    length_scale = 1.0
    pace = clip.units_per_s  # NaN: the clip's transcript has none of the model's units
    if np.isfinite(pace):
        if language is not None and language.fastest_clear_pace is not None:
            pace = min(pace, language.fastest_clear_pace)
        length_scale = float(np.clip(model.phonemes_per_s / pace, *RATE_RANGE))
    meta = {
        "median_f0_hz": rounded(reference.f0_median_hz, 1),
        "f0_spread_semitones": rounded(reference.f0_spread_semitones, 2),
        "voiced_s": round(reference.voiced_s, 2),
        **estimate.summary(),
        "phonemes_per_s": rounded(clip.units_per_s, 2),
        "pace_spoken_per_s": rounded(pace, 2),  # the clip's, or the language's fastest clear one
        "length_scale": round(length_scale, 3),
    }
    arrays = {**estimate.adaptation.to_arrays(), "length_scale": np.asarray(np.float32(length_scale))}
    return arrays, meta


def neutral_conditioning() -> dict[str, np.ndarray]:
    """The model's own voice, unadapted, at its own pace."""
    return {**Adaptation.neutral().to_arrays(), "length_scale": np.asarray(np.float32(1.0))}


def session_options(threads: int) -> onnxruntime.SessionOptions:
    """onnxruntime settings for a session that computes one piece with ``threads`` intra-op threads."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # The pool's threads spin on after each call by default, stealing a core from
    # the piece's adaptation or another slot; stopped at the end of each call they
    # cost the model nothing (measured: model time equal, adaptation 25 % faster).
    options.add_session_config_entry("session.force_spinning_stop", "1")
    # Every piece has its own length, so the CPU arena kept growing by whole chunks
    # for new tensor sizes and never gave memory back: the engine's RSS rose 49 %
    # over 500 jobs (benchmarks/soak.py). Without it, freed tensors go back to malloc,
    # whose heap keeps them mapped for the next call (engine/synthesis/allocator.py).
    options.enable_cpu_mem_arena = False
    # Each call has new shapes (mem patterns serve a repeated one, as one block
    # mmapped afresh each time: 11,000-14,000 page faults a call, measured).
    options.enable_mem_pattern = False
    return options


def thread_counts(slots: int) -> set[int]:
    """The intra-op thread counts a piece may get: the cores divided by the pieces computing at
    that moment (1 to ``slots``), so pieces × threads never exceeds the cores."""
    cores = os.cpu_count() or 1
    return {max(1, cores // running) for running in range(1, max(1, slots) + 1)}


class ComputeCounter:
    """How many pieces are computing right now (model calls and adaptation), by all jobs."""

    def __init__(self) -> None:
        self.active = 0
        self._lock = threading.Lock()

    def threads_now(self) -> int:
        """The intra-op threads a model call starting now may take."""
        return max(1, (os.cpu_count() or 1) // max(1, self.active))

    @contextlib.contextmanager
    def computing(self) -> Iterator[None]:
        """Count a piece as computing while its model call or its adaptation runs: the divisor
        of the cores. A model call that began while another piece was being adapted would
        otherwise take every core, and the two would oversubscribe them once the other piece's
        next model call began (measured: 2 workers × 2 threads give 22 % less audio per second
        than 2 × 1 on 2 cores)."""
        with self._lock:
            self.active += 1
        try:
            yield
        finally:
            with self._lock:
                self.active -= 1


def fixed_noise() -> np.random.Generator:
    """The model's noise for its own speech (the calibration, the warm-up): the same each run."""
    return np.random.default_rng(0)


T = TypeVar("T")


def with_last(items: Iterable[T]) -> Iterator[tuple[T, bool]]:
    """Each item with True for the last one, looking one item ahead."""
    iterator = iter(items)
    try:
        current = next(iterator)
    except StopIteration:
        return
    for following in iterator:
        yield current, False
        current = following
    yield current, True


def rounded(value: float, digits: int) -> float | None:
    """A measured value for JSON: rounded, or None when it could not be measured."""
    return round(value, digits) if np.isfinite(value) else None



class OwnVoiceBackend(Backend):
    """A backend that speaks with its model's own voice adapted to each clip (Piper, zh-baker).

    It keeps the model's calibration (measured once, or adopted from the voice cache), and
    adapts each piece its model speaks (:meth:`_speak`) to the voice's conditioning."""

    conditioning_spec = CONDITIONING_SPEC

    def __init__(self) -> None:
        self._pieces = ComputeCounter()  # pieces being computed right now, by all jobs
        self._calibration: Calibration | None = None
        self._calibration_lock = threading.Lock()  # apart from the sessions' lock: jobs go on while it runs

    @property
    @abc.abstractmethod
    def sample_rate(self) -> int:
        """The rate of the model's audio."""

    @abc.abstractmethod
    def _measure_calibration(self) -> Calibration:
        """The model's own voice measured on its calibration text."""

    @abc.abstractmethod
    def _speak(self, text: str, length_scale: float, draws: np.random.Generator, should_stop: StopCheck,
               first_piece_chars: int = FIRST_PIECE_CHARS) -> Iterator[SpokenPiece]:
        """The model's own speech piece by piece, each followed by its pause; ``draws`` is the
        randomness of this reading (the model's noise or its prosody, sentence by sentence)."""

    def calibration(self) -> Calibration:
        """Measured on the first voice preparation rather than at load, which it would slow,
        unless the voice cache handed back a stored one first (:meth:`adopt_model_data`)."""
        with self._calibration_lock:
            if self._calibration is None:
                self._calibration = self._measure_calibration()
            return self._calibration

    def model_data(self) -> dict[str, np.ndarray]:
        return self.calibration().to_arrays()

    def adopt_model_data(self, arrays: Mapping[str, np.ndarray]) -> str | None:
        problem = Calibration.problem(arrays, self.sample_rate)
        if problem is not None:
            return problem
        calibration = Calibration.from_arrays(arrays, self.sample_rate)
        with self._calibration_lock:
            self._calibration = calibration
        return None

    def plain_conditioning(self) -> dict[str, np.ndarray]:
        return neutral_conditioning()

    def _warm_up_adaptation(self, audio: np.ndarray) -> None:
        """A first adaptation of ``audio``, the model's own speech, that moves its pitch, formants
        and EQ: the first calls of Praat, the resampler and the EQ's filter, for the warm-up."""
        shifted = Adaptation(NEUTRAL_F0_HZ, NEUTRAL_F0_HZ * 1.2, 1.1, 1.05, np.ones(len(EQ_BAND_CENTRES_HZ), np.float32))
        adapt_piece(audio, self.sample_rate, shifted)

    def synthesize(self, text: str, profile: VoiceProfile, settings: VoiceSettings, should_stop: StopCheck,
                   first_piece_chars: int = FIRST_PIECE_CHARS, seed: int | None = None) -> Iterator[SpokenPiece]:
        adaptation = Adaptation.from_arrays(profile.conditioning)
        length_scale = float(profile.conditioning["length_scale"]) / settings.speed  # checked by the engine
        draws = np.random.default_rng(synthesis_seed(profile.key, text, settings) if seed is None else seed)
        spoken = False
        for piece in self._speak(text, length_scale, draws, should_stop, first_piece_chars):
            spoken = True
            with self._pieces.computing():
                pcm = adapt_piece(piece.pcm, self.sample_rate, adaptation, settings.pitch_semitones)
            yield SpokenPiece(pcm=pcm, text=piece.text, last=piece.last)
        if not spoken and not should_stop():
            raise EngineError(ErrorCode.NOTHING_SPEAKABLE, "The text produced no speech sounds")

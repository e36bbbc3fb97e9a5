"""The interface every speech backend implements.

A backend knows nothing of queues, slots or caching: the engine prepares reference clips,
caches what the backend derives from them, and calls :meth:`Backend.synthesize` from as many
threads as it has slots.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import numpy as np

from engine.protocol import Capabilities, VoiceSettings


@dataclass(frozen=True)
class ReferenceClip:
    """A decoded reference clip: mono float32, silence trimmed, within the length limits."""

    audio: np.ndarray
    sample_rate: int
    source_duration_s: float  # before trimming
    warnings: tuple[str, ...] = ()


@dataclass
class VoiceProfile:
    """A prepared voice: everything synthesis needs, all of it plain data (arrays and JSON)."""

    key: str
    embedding: np.ndarray  # speaker-encoder embedding (see engine.voices.SpeakerEncoder)
    conditioning: dict[str, np.ndarray] = field(default_factory=dict)  # backend features
    meta: dict[str, Any] = field(default_factory=dict)  # JSON-able facts and scalars


@dataclass(frozen=True)
class SpokenPiece:
    """One streamed piece of a job's audio."""

    pcm: np.ndarray  # float32 mono
    text: str


StopCheck = Callable[[], bool]


class Backend(abc.ABC):
    """A speech model behind a small interface: prepare a voice, then synthesize with it."""

    #: Bumped whenever what :meth:`condition` returns changes, so old cache entries are ignored.
    conditioning_version: str = "1"

    #: A backend with its own speaker encoder (CosyVoice2's CAM++) names it here and returns its
    #: embedding from :meth:`speaker_embedding`; other backends get the engine's GE2E encoder.
    speaker_encoder_id: str | None = None

    def speaker_embedding(self, conditioning: dict[str, np.ndarray]) -> np.ndarray:
        raise NotImplementedError

    @property
    @abc.abstractmethod
    def capabilities(self) -> Capabilities: ...

    @abc.abstractmethod
    def load(self) -> None:
        """Load weights; called once in the engine process before it reports ready."""

    def set_slots(self, slots: int) -> None:
        """The engine now runs this many jobs at once; divide threads or streams accordingly."""

    def suggested_slots(self, cores: int) -> int | None:
        """Jobs to run at once when nobody said, once loaded (a GPU backend sizes this by its
        free memory); None: the engine's core-based default."""
        return None

    def facts(self) -> dict[str, Any]:
        """JSON-able facts about what loaded (device, versions, model kind) for EngineReady."""
        return {}

    @abc.abstractmethod
    def condition(self, clip: ReferenceClip, transcript: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Derive this backend's conditioning from a reference clip: (arrays, JSON-able meta)."""

    @abc.abstractmethod
    def check_text(self, text: str) -> None:
        """Raise EngineError(NOTHING_SPEAKABLE) when the text yields no speech at all."""

    @abc.abstractmethod
    def synthesize(
        self, text: str, profile: VoiceProfile, settings: VoiceSettings, should_stop: StopCheck
    ) -> Iterator[SpokenPiece]:
        """Yield the audio of ``text`` piece by piece; stop early when ``should_stop()``."""

"""The interface every speech backend implements.

A backend knows nothing of queues, slots or caching: the engine prepares reference clips,
caches what the backend derives from them, and calls :meth:`Backend.synthesize` from as many
threads as it has slots.

How the engine consumes a job's pieces
--------------------------------------
:meth:`Backend.synthesize` returns an iterator of pieces. The engine's scheduler advances it
by exactly one piece per turn, then parks the job until its next piece is due (see
:mod:`engine.synthesis.scheduler`); the next turn may run on another worker thread, but never two at
once. So the generator must not keep thread-local state across a ``yield`` (a ``with
torch.inference_mode():`` around a ``yield`` would leak into whichever thread resumes it), and
it should do its work inside ``next()``, not in a background thread, or parking it saves
nothing. A backend that cannot meet this sets ``piece_scheduling = False``: a worker then
keeps each of its jobs until the job ends (job-level scheduling, behind the same interface).

Computing several jobs' pieces in one call (batched backends, engine.synthesis.batching)
----------------------------------------------------------------------------
A GPU runs one batched call of B pieces in about the time of one, so a backend such as
CosyVoice2 (flow matching and HiFT per hop) gains by computing the pieces of several jobs
together. Such a backend declares ``max_batch = B > 1`` (an instance attribute, known once
loaded) with ``piece_scheduling = True``, and splits a job's stream into a per-job state and
a step (:class:`BatchingBackend`):

- ``start(text, profile, settings, should_stop, first_piece_chars) -> state``;
- ``step_batch(states) -> list[SpokenPiece | BaseException | None]``: the next piece of every
  state in one call (None: that job has ended; an exception: that job failed, the others
  go on);
- ``step_ready(state) -> bool`` (its next piece needs no waiting, e.g. its tokens exist) and
  ``wait_ready(state)`` (block until then, or until stopped);
- ``close(state)``: end the job early (a cancel).

``synthesize`` stays the one-job path. A worker takes the work due first as before, waits until
it is ready, then also takes further ready, started jobs of the backend in deadline order, up
to B, as long as that keeps every job in the batch on time (a job on time alone is never made
late by its batch); it calls ``step_batch`` once, sends each chunk and hands every job back
with its new deadline. The scheduler's policy, thread choice, the active-job cap and
cancellation work per job as before; a slot is one batched call in flight.

A backend whose autoregressive part streams tokens for all jobs at once (a batched LLM, or vLLM
for the CosyVoice2 LLM) keeps that part behind ``start`` and batches the per-hop decoding.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import (
    Any,
    ClassVar,
    Protocol,
    TypeVar,
    runtime_checkable,
)

import numpy as np

from engine.core.protocol import Capabilities, VoiceSettings
from engine.core.reference import ReferenceClip
from engine.core.text import FIRST_PIECE_CHARS


@dataclass
class VoiceProfile:
    """A prepared voice: everything synthesis needs, all of it plain data (arrays and JSON)."""

    key: str
    # The clip's speaker-encoder embedding (see engine.synthesis.voices.SpeakerEncoder); None while the
    # voice's preparation is still finishing in the background (synthesis never needs it).
    embedding: np.ndarray | None
    conditioning: dict[str, np.ndarray] = field(default_factory=dict)  # backend features
    meta: dict[str, Any] = field(default_factory=dict)  # JSON-able facts and scalars


@dataclass(frozen=True)
class SpokenPiece:
    """One streamed piece of a job's audio."""

    pcm: np.ndarray  # float32 mono
    text: str
    # True when the backend knows nothing follows, so the engine ends the job at once instead
    # of at its next turn (which may come late: the job is parked until its next piece is due).
    last: bool = False


StopCheck = Callable[[], bool]


@dataclass(frozen=True)
class ArraySpec:
    """What one conditioning array must look like, so a cached voice read back from disk is
    checked before a model sees it (a poisoned ``length_scale`` of 1000 once grew the engine
    to 24 GB).

    ``shape``: ``()`` for a scalar; ``None`` on an axis means any length there (at least
    ``min_length`` on the first axis). ``kinds``: numpy dtype kinds accepted ("f" float,
    "i" signed, "u" unsigned integer). ``low``/``high``: inclusive bounds on every value.
    Values must be finite; with ``nan_ok`` a NaN may stand for "not measured" (never an infinity).
    """

    shape: tuple[int | None, ...] = ()
    kinds: str = "f"
    low: float | None = None
    high: float | None = None
    min_length: int = 0
    nan_ok: bool = False

    def problem(self, value: object) -> str | None:
        """Why ``value`` does not fit, in words; None when it does."""
        if not isinstance(value, np.ndarray):
            return f"is a {type(value).__name__}, not an array"
        if value.dtype.kind not in self.kinds:
            return f"has type {value.dtype}, expected kind {self.kinds!r}"
        if value.ndim != len(self.shape) or any(
                want is not None and got != want for got, want in zip(value.shape, self.shape)):
            wanted = tuple("any" if axis is None else axis for axis in self.shape)
            return f"has shape {value.shape}, expected {wanted}"
        if value.ndim and value.shape[0] < self.min_length:
            return f"has {value.shape[0]} rows, expected at least {self.min_length}"
        if value.dtype.kind == "f":
            if np.isinf(value).any() or (not self.nan_ok and np.isnan(value).any()):
                return "holds NaN or infinite values"
            value = value[~np.isnan(value)]
        if value.size == 0:
            return None
        if self.low is not None and float(value.min()) < self.low - _slack(self.low):
            return f"holds {float(value.min()):g}, below its minimum {self.low:g}"
        if self.high is not None and float(value.max()) > self.high + _slack(self.high):
            return f"holds {float(value.max()):g}, above its maximum {self.high:g}"
        return None


def arrays_problem(spec: Mapping[str, ArraySpec], arrays: Mapping[str, object]) -> str | None:
    """Why ``arrays`` do not match ``spec`` exactly (a name missing or unexpected, a value that
    does not fit its ArraySpec), in words; None when they do."""
    missing = sorted(set(spec) - set(arrays))
    if missing:
        return f"missing {', '.join(missing)}"
    unknown = sorted(set(arrays) - set(spec))
    if unknown:
        return f"unexpected {', '.join(unknown)}"
    for name, wanted in spec.items():
        problem = wanted.problem(arrays[name])
        if problem:
            return f"{name} {problem}"
    return None


def _slack(bound: float) -> float:
    """Room for float32 rounding: a bound of 1.6 stored as float32 reads back as 1.6000000238."""
    return 1e-6 * max(1.0, abs(bound))


class Backend(abc.ABC):
    """A speech model behind a small interface: prepare a voice, then synthesize with it."""

    #: Bumped whenever what :meth:`condition` returns changes, so old cache entries are ignored.
    conditioning_version: str = "1"

    #: True when the engine may advance a job's pieces one turn at a time, parking the job in
    #: between (see the module docstring); False keeps each job on one worker until it ends.
    piece_scheduling: bool = True

    #: Above 1: the backend computes the next piece of up to this many jobs in one call
    #: (``start`` / ``step_batch``, see the module docstring); 1: one job per call.
    max_batch: int = 1

    #: A backend with its own speaker encoder (CosyVoice2's CAM++) names it here and returns its
    #: embedding from :meth:`speaker_embedding`; other backends get the engine's GE2E encoder.
    speaker_encoder_id: str | None = None

    #: Every array :meth:`condition` returns, with its shape, type and range. The voice cache
    #: checks each entry it reads against it (and each it prepares) and rebuilds one that
    #: fails; arrays not listed here make an entry fail too.
    conditioning_spec: ClassVar[Mapping[str, ArraySpec]] = {}

    def conditioning_problem(self, conditioning: Mapping[str, np.ndarray]) -> str | None:
        """Why cached conditioning cannot be used, in words; None when it can.

        Checks :attr:`conditioning_spec`; a backend overrides this to add checks across
        arrays (and calls this first).
        """
        return arrays_problem(self.conditioning_spec, conditioning)

    def speaker_embedding(self, conditioning: dict[str, np.ndarray]) -> np.ndarray:
        raise NotImplementedError

    def plain_conditioning(self) -> dict[str, np.ndarray] | None:
        """Conditioning that speaks in the model's own voice, unadapted; None when the model has
        no voice of its own (a cloning model). Preparing a voice compares the two voices'
        resemblance to the clip."""
        return None

    # --- data derived from the model once (the voice cache keeps it on disk) ----------------
    #
    # Some backends measure their own model before they can prepare voices (Piper speaks a
    # calibration text: seconds of model time). The voice cache keeps that on disk, as plain
    # arrays and JSON, so a restarted engine reads it back instead of measuring again; the
    # backend itself never touches the cache folder.

    def model_identity(self) -> str | None:
        """What identifies the loaded model and everything its derived data depends on (paths,
        sizes, modification times, options); None when the backend derives nothing worth keeping."""
        return None

    def model_data(self) -> dict[str, np.ndarray]:
        """The data derived from the model (measured now if not yet), as plain arrays."""
        return {}

    def adopt_model_data(self, arrays: Mapping[str, np.ndarray]) -> str | None:
        """Use data read back from the cache instead of measuring the model again. Returns why it
        cannot be used (then nothing changes, and it is measured again); None when adopted."""
        return "this backend derives no model data"

    def warm_up(self) -> None:
        """Import and compute, ahead of time, what a job's first piece would otherwise pay for
        once (imports, a session's first call). Called once the slots are set, before the
        engine reports ready, so no job ever waits for it."""

    @property
    @abc.abstractmethod
    def capabilities(self) -> Capabilities: ...

    @abc.abstractmethod
    def load(self) -> None:
        """Load weights; called once in the engine process before it reports ready."""

    def set_slots(self, slots: int) -> None:
        """The engine now computes up to this many pieces at once; divide threads accordingly."""

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
        self, text: str, profile: VoiceProfile, settings: VoiceSettings, should_stop: StopCheck,
        first_piece_chars: int = FIRST_PIECE_CHARS, seed: int | None = None,
    ) -> Iterator[SpokenPiece]:
        """Yield the audio of ``text`` piece by piece; stop early when ``should_stop()``. The
        engine chooses ``first_piece_chars`` by its load (engine.core.text.first_piece_chars): the
        longest first piece that keeps first audio short; pass it to split_for_streaming.
        ``seed`` seeds the model's sampling: the engine's is :func:`engine.core.protocol.synthesis_seed`
        of the job's variant; None, variant 0's. A backend that can make its audio a function of
        the seed does (Piper; CosyVoice2's batched steps: its one-job path samples upstream's way)."""


BatchState = TypeVar("BatchState")


@runtime_checkable
class BatchingBackend(Protocol[BatchState]):
    """The batched steps a backend may offer beside :meth:`Backend.synthesize` (see the module
    docstring); the engine batches a backend that has them and ``max_batch > 1``. A state is
    the backend's own: the engine only hands it back to the backend that made it."""

    max_batch: int

    def start(self, text: str, profile: VoiceProfile, settings: VoiceSettings, should_stop: StopCheck,
              first_piece_chars: int = FIRST_PIECE_CHARS, seed: int | None = None) -> BatchState: ...

    def step_ready(self, state: BatchState) -> bool: ...

    def wait_ready(self, state: BatchState) -> None: ...

    def close(self, state: BatchState) -> None: ...

    def step_batch(self, states: list[BatchState]) -> list[SpokenPiece | BaseException | None]: ...

"""What the engine's scheduler holds: a job's stream while it runs, or a voice preparation.

Shared by the engine's one-job turns (:mod:`engine.synthesis.process`) and its batched turns
(:mod:`engine.synthesis.batching`), so neither imports the other's internals.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from engine.core.protocol import Job, PrepareVoice
from engine.synthesis.scheduler import Work

if TYPE_CHECKING:
    from engine.synthesis.backends.base import BatchingBackend, SpokenPiece


class JobCancelled(Exception):
    """Raised inside a turn when its job was cancelled: the job ends with E_CANCELLED."""


@dataclass
class JobRun:
    """A job's stream while the engine runs it: the backend's piece iterator and its figures."""

    job: Job
    pieces: Iterator[SpokenPiece] | None = None  # created when its first piece begins
    started_at: float = 0.0
    voice_source: str = ""  # where the voice cache found its voice ("memory", "disk" or "miss")
    voice_prepare_s: float = 0.0
    first_chunk_s: float = 0.0
    last_chunk_s: float = 0.0
    chunks: int = 0
    samples: int = 0
    compute_s: float = 0.0
    state: object | None = None  # a batching backend's per-job state (engine.synthesis.batching), instead of pieces
    backend: BatchingBackend[object] | None = None  # the backend holding ``state``

    def close(self) -> None:
        """End the backend's stream early (runs its cleanup); a finished stream ignores it."""
        if self.state is not None and self.backend is not None:
            self.backend.close(self.state)
        close = getattr(self.pieces, "close", None)
        if close is not None:
            close()


# What the engine schedules: a job's stream (is_job), or a voice preparation.
EngineWork: TypeAlias = Work[JobRun | PrepareVoice]

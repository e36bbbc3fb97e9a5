"""Per-job measurements of a load run (the playback model behind stalls is engine.core.playback).

A record is filled in by the runner as the job's events arrive and is then frozen into the
report. All times are seconds relative to the start of the run (``time.monotonic()`` of the
run start subtracted), so reports from different runs line up at zero.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from engine.core.playback import StallTracker

# Job outcomes. "cancelled" jobs were cut off by the user stopping the run or never finished;
# they are neither successes nor errors and are left out of every statistic.
OK = "ok"
ERROR = "error"
CANCELLED = "cancelled"
PENDING = "pending"

def count_stalls(chunks: list[tuple[float, float]]) -> tuple[int, float]:
    """Stall count and stalled seconds for ``(arrival, duration)`` pairs in arrival order."""
    tracker = StallTracker()
    for arrival, duration in chunks:
        tracker.add(arrival, duration)
    return tracker.stalls, tracker.stalled_s


@dataclass
class JobRecord:
    """Everything measured about one job; serialised as one entry of the report's ``jobs``."""

    index: int  # submission order within the run, from 0
    job_id: str
    level: int
    level_index: int  # position of the level in the plan
    warmup: bool  # warm-up jobs are recorded but left out of the statistics
    user: int | None  # virtual user (closed loop); None in open loop
    text_kind: str  # "short", "medium" or "long"
    language: str  # language of the text ("" = the backend's default)
    chars: int
    voice: str  # file name of the reference clip
    text: str
    scheduled_s: float  # when the job was due: arrival (open loop) or user ready (closed loop)
    submit_s: float | None = None  # when the client submitted it
    queue_position: int | None = None  # jobs ahead of it when queued
    queue_wait_s: float | None = None  # engine: queued until a slot took it
    voice_prepare_s: float | None = None  # engine: finding or preparing the voice
    voice_cache: str | None = None  # "memory", "disk" or "miss"
    first_audio_s: float | None = None  # scheduled -> first chunk received
    total_s: float | None = None  # scheduled -> job finished
    end_s: float | None = None  # when the job ended (finished, failed or cancelled)
    audio_s: float = 0.0  # seconds of audio received
    synth_s: float | None = None  # engine: job start to last chunk sent
    compute_s: float | None = None  # engine: time computing its pieces (the rest of synth_s it was parked)
    rtf: float | None = None  # synth_s / audio_s: below 1 is faster than real time
    chunks: int = 0
    stalls: int = 0
    stalled_s: float = 0.0
    max_gap_s: float | None = None  # worst chunk arrival minus end of the audio before it (> 0: a stall)
    status: str = PENDING
    error: str | None = None  # error kind: an ErrorCode value (TIMEOUT, SUBMIT: the load core's own)
    error_message: str | None = None
    retries: int = 0  # times the client resubmitted it after an engine crash
    _stall: StallTracker = field(default_factory=StallTracker, repr=False)

    @property
    def submit_delay_s(self) -> float | None:
        """How late the generator submitted the job (an in-flight cap, or a busy runner)."""
        return None if self.submit_s is None else self.submit_s - self.scheduled_s

    @property
    def cache_hit(self) -> bool | None:
        return None if self.voice_cache is None else self.voice_cache != "miss"

    @property
    def measured(self) -> bool:
        """True when the job counts in the statistics: not warm-up, and it really ended."""
        return not self.warmup and self.status in (OK, ERROR)

    def add_chunk(self, arrival_s: float, duration_s: float) -> None:
        if self.chunks == 0:
            self.first_audio_s = arrival_s - self.scheduled_s
        self.chunks += 1
        self.audio_s += duration_s
        self._stall.add(arrival_s, duration_s)
        self.stalls = self._stall.stalls
        self.stalled_s = self._stall.stalled_s
        self.max_gap_s = self._stall.max_gap_s

    def restart(self) -> None:
        """The engine crashed and the client resubmitted the job: its audio starts over."""
        self.retries += 1
        self.chunks = 0
        self.audio_s = 0.0
        self.first_audio_s = None
        self._stall.reset()
        self.stalls = 0
        self.stalled_s = 0.0
        self.max_gap_s = None

    def finish(self, end_s: float, synth_s: float | None, compute_s: float | None = None) -> None:
        self.status = OK
        self.end_s = end_s
        self.total_s = end_s - self.scheduled_s
        self.synth_s = synth_s
        self.compute_s = compute_s
        if synth_s is not None and self.audio_s > 0:
            self.rtf = synth_s / self.audio_s

    def fail(self, end_s: float, kind: str, message: str) -> None:
        self.status = ERROR
        self.end_s = end_s
        self.total_s = end_s - self.scheduled_s
        self.error = kind
        self.error_message = message

    def cancel(self, end_s: float) -> None:
        self.status = CANCELLED
        self.end_s = end_s

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict with every field plus the derived ``submit_delay_s`` and ``cache_hit``."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if not f.name.startswith("_")}
        data["submit_delay_s"] = self.submit_delay_s
        data["cache_hit"] = self.cache_hit
        return data


JOB_FIELDS: tuple[str, ...] = tuple(
    [f.name for f in dataclasses.fields(JobRecord) if not f.name.startswith("_")] + ["submit_delay_s", "cache_hit"]
)
"""The keys of :meth:`JobRecord.to_dict`, in order (the columns of a per-job CSV)."""

"""The listener of a streamed job: when its audio runs out, and when it stalled.

One model serves two sides. The engine's scheduler asks it when a streaming job's listener
will run out of audio (that moment, less a margin, is the deadline of the job's next piece);
the load core asks it how often playback stalled and how close each job came to stalling.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class StallTracker:
    """A listener who starts playing at the first chunk and plays chunks back to back.

    A stall happens each time a chunk arrives after all audio received before it has finished
    playing; the listener then waits (``stalled_s`` grows by the gap) and resumes with the new
    chunk. This is what people hear as stutter when a streaming engine is overloaded.

    ``max_gap_s`` is the inter-chunk gap, the speech analogue of inter-token latency: the worst
    time between a chunk's arrival and the end of the audio received before it, over every
    chunk after the first. Above zero it is the longest stall; at or below zero it is minus the
    smallest cushion of audio the listener had left, so it also says how close a job came.
    """

    play_end: float | None = None  # when the audio received so far finishes playing
    stalls: int = 0
    stalled_s: float = 0.0
    max_gap_s: float | None = None  # None until a second chunk arrives

    def add(self, arrival: float, duration: float) -> None:
        """Account for a chunk of ``duration`` seconds of audio received at ``arrival``."""
        if self.play_end is None:
            self.play_end = arrival + duration
            return
        gap = arrival - self.play_end
        self.max_gap_s = gap if self.max_gap_s is None else max(self.max_gap_s, gap)
        if gap > 0:
            self.stalls += 1
            self.stalled_s += gap
            self.play_end = arrival + duration
        else:
            self.play_end += duration

    def reset(self) -> None:
        """Forget everything: the job is running again from its first chunk."""
        self.play_end = None
        self.stalls = 0
        self.stalled_s = 0.0
        self.max_gap_s = None

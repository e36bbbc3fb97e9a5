"""Which piece to compute next: earliest deadline first, at piece granularity.

Workers compute pieces, not jobs. A job's speech comes out of its backend piece by piece
(the first piece short); after each piece the job goes back to the scheduler with a new
deadline, and the next free worker takes whatever is due first. The deadline of a job's next
piece is

* **no audio yet**: its arrival (or its admission, below, if it had to wait for one).
  Listened-to jobs that wait for their first audio are served in arrival order, ahead of
  jobs whose listeners still have audio in hand;
* **streaming to a listener**: the moment the listener runs out of audio (the playback model of
  :mod:`engine.core.playback`: first chunk plus the audio delivered, later if playback stalled), less
  a margin: :data:`SAFETY_MARGIN_S`, plus the job's slowest piece so far (computing its next
  piece), plus the longest of the engine's recent pieces (waiting for a worker: when the piece
  falls due, every worker may just have started another one). Both terms are measured, so
  the margin grows when the machine is slower or busier;
* **nobody listening** (a render to a file): as if a listener started :data:`UNHURRIED_START_S`
  after arrival. Such jobs fill the capacity listeners leave free, yet still move at least as
  fast as real time once their virtual listener has started, so they are never starved.

Interactive work (an audition: a person in the studio waits) is treated as due
:data:`INTERACTIVE_LEAD_S` earlier than its deadline. It overtakes batch work that is due up to
that much sooner; older work goes first. Every deadline is a fixed point in time, so any
piece is served before all work that arrives more than the lead (plus a margin) after its
deadline: no job starves.

Admission: at most ``max_active`` jobs are admitted at once (they hold a backend stream each);
later jobs wait, in the order of their first piece's deadline, and are admitted as active jobs
end. Without the cap an overloaded engine would spread itself over every stream and make
them all stall; with it, the admitted ones stay smooth while the rest wait for first audio.
A job admitted after waiting counts its first piece as due from its admission, not its
arrival: otherwise, under sustained overload, every newly admitted job would carry the age of
the queue it waited in and outrank the admitted streams until they stalled.

This module is pure bookkeeping, with no threads and no clock of its own: the engine calls it
under its lock and passes the time in, so tests drive it with a fake clock.
"""

from __future__ import annotations

import collections
import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from engine.core.playback import StallTracker
from engine.core.protocol import Priority

SAFETY_MARGIN_S = 0.25  # a streaming piece is due this much (plus its compute time) before the audio runs out
UNHURRIED_START_S = 30.0  # nobody listening: a virtual listener starts this long after arrival
INTERACTIVE_LEAD_S = 2.0  # interactive work is treated as due this much earlier
ACTIVE_PER_SLOT = 4  # default cap on admitted jobs: this many per slot
RECENT_PIECES = 16  # the wait for a worker is estimated from this many of the latest pieces


# What the engine needs to run a work (engine.synthesis.process: a job's stream, or a voice preparation);
# the scheduler only carries it.
Payload = TypeVar("Payload")


def default_max_active(slots: int) -> int:
    """Enough streams to keep every slot busy while each stream's listener is far ahead."""
    return ACTIVE_PER_SLOT * max(1, slots)


@dataclass(eq=False)
class Work(Generic[Payload]):
    """A job (or a voice preparation) from its arrival to its end, as the scheduler sees it."""

    work_id: str
    arrived: float
    priority: Priority
    payload: Payload
    listening: bool = True
    is_job: bool = True  # False: a voice preparation, one unit of work that is not a stream
    playback: StallTracker = field(default_factory=StallTracker)
    slowest_piece_s: float = 0.0
    pieces: int = 0  # pieces delivered
    started: bool = False  # a worker has begun its first piece
    computing: bool = False  # a worker holds it right now
    cancelled: bool = False
    admitted: bool = False
    due_from: float = 0.0  # when its first piece became due: arrival, or admission after waiting
    _entry: int = -1  # the heap entry that is current; older entries of this work are stale

    def deadline(self, worker_wait_s: float = 0.0) -> float:
        """When this work's next piece is due (see the module docstring); ``worker_wait_s`` is
        how long a piece may wait for a free worker (the engine's longest recent piece)."""
        start_delay = 0.0 if self.listening else UNHURRIED_START_S
        if self.pieces == 0 or self.playback.play_end is None:
            return self.due_from + start_delay
        return self.playback.play_end - SAFETY_MARGIN_S - self.slowest_piece_s - worker_wait_s

    def key(self, worker_wait_s: float = 0.0) -> float:
        """The scheduling key: the deadline, earlier for interactive work; cancelled work first."""
        if self.cancelled:
            return float("-inf")  # a worker must close its stream and report it
        lead = INTERACTIVE_LEAD_S if self.priority == Priority.INTERACTIVE else 0.0
        return self.deadline(worker_wait_s) - lead

    def piece_done(self, now: float, audio_s: float, compute_s: float) -> None:
        """A piece of ``audio_s`` seconds, computed in ``compute_s``, was delivered at ``now``."""
        arrival = now if self.listening else max(now, self.arrived + UNHURRIED_START_S)
        self.playback.add(arrival, audio_s)
        self.slowest_piece_s = max(self.slowest_piece_s, compute_s)
        self.pieces += 1


class Scheduler(Generic[Payload]):
    """Admission and the earliest-deadline-first order of pieces; the engine holds the lock."""

    def __init__(self, max_active: int) -> None:
        self.max_active = max(1, max_active)
        self.works: dict[str, Work[Payload]] = {}  # every work not ended, by id
        self._waiting: list[tuple[float, int, Work[Payload]]] = []  # jobs over the active cap
        self._ready: list[tuple[float, int, Work[Payload]]] = []  # admitted works a worker may take
        self._order = itertools.count()
        self._active = 0  # admitted jobs not ended
        self.computing = 0
        self._recent: collections.deque[float] = collections.deque(maxlen=RECENT_PIECES)  # compute times

    @property
    def worker_wait_s(self) -> float:
        """How long a piece that falls due may wait for a worker: the longest recent piece."""
        return max(self._recent, default=0.0)

    # --- counts ---------------------------------------------------------------------------

    @property
    def not_started(self) -> int:
        """Works no worker has begun: the engine's bounded queue."""
        return sum(1 for work in self.works.values() if not work.started)

    @property
    def running(self) -> int:
        """Jobs whose first piece has begun and that have not ended."""
        return sum(1 for work in self.works.values() if work.started and work.is_job)

    @property
    def admitted_jobs(self) -> int:
        """Jobs admitted and not ended: the streams sharing the slots."""
        return self._active

    @property
    def idle(self) -> bool:
        """No work at all: nothing waiting, ready, parked between pieces or being computed."""
        return not self.works

    # --- arrivals, cancels, ends ------------------------------------------------------------

    def add(self, work: Work[Payload]) -> int:
        """Accept a new work; returns how many works not yet started come before it."""
        work.due_from = work.arrived
        key = work.key(self.worker_wait_s)
        position = sum(1 for other in self.works.values()
                       if not other.started and other.key(self.worker_wait_s) <= key)
        self.works[work.work_id] = work
        if work.is_job and self._active >= self.max_active:
            self._push(self._waiting, work)
        else:
            self._admit(work, work.arrived)
        return position

    def cancel(self, work_id: str, now: float) -> Work[Payload] | None:
        """Mark a work cancelled. Returns it when it was never started: it is gone, and the
        caller reports it. A started one is handed to a worker (first in line) to close."""
        work = self.works.get(work_id)
        if work is None or work.cancelled:
            return None
        work.cancelled = True
        if not work.started:
            self.end(work, now)
            return work
        if not work.computing:
            self._push(self._ready, work)  # re-keyed to -inf: the next free worker closes it
        return None

    def end(self, work: Work[Payload], now: float) -> None:
        """The work is over (finished, failed or cancelled): forget it, admit a waiting job."""
        if self.works.pop(work.work_id, None) is None:
            return
        work._entry = -1  # any heap entry left behind is stale
        if work.computing:
            work.computing = False
            self.computing -= 1
        if work.admitted and work.is_job:
            self._active -= 1
        self._admit_waiting(now)

    def set_max_active(self, max_active: int, now: float) -> None:
        self.max_active = max(1, max_active)
        self._admit_waiting(now)

    # --- workers ----------------------------------------------------------------------------

    def take(self) -> Work[Payload] | None:
        """The admitted work due first, now held by the caller; None when nothing is ready."""
        while self._ready:
            _, entry, work = heapq.heappop(self._ready)
            if entry != work._entry or work.computing or work.work_id not in self.works:
                continue  # stale: re-keyed, held by a worker, or ended
            work.computing = True
            work.started = True
            self.computing += 1
            return work
        return None

    def take_also(self, accept: Callable[[Work[Payload]], bool], limit: int) -> list[Work[Payload]]:
        """Up to ``limit`` more admitted works, in deadline order, that ``accept`` agrees to, now
        held by the caller: a batching worker adds them to the work it took (engine.synthesis.batching).
        The works it refuses keep their place."""
        taken: list[Work[Payload]] = []
        refused: list[Work[Payload]] = []
        while self._ready and len(taken) < limit:
            _, entry, work = heapq.heappop(self._ready)
            if entry != work._entry or work.computing or work.work_id not in self.works:
                continue  # stale, as in take()
            if accept(work):
                work.computing = True
                work.started = True
                self.computing += 1
                taken.append(work)
            else:
                refused.append(work)
        for work in refused:
            self._push(self._ready, work)
        return taken

    def piece_done(self, work: Work[Payload], now: float, audio_s: float, compute_s: float) -> None:
        """A piece of ``work`` (``audio_s`` of audio, computed in ``compute_s``) left at ``now``."""
        work.piece_done(now, audio_s, compute_s)
        self._recent.append(compute_s)

    def put_back(self, work: Work[Payload]) -> None:
        """The holder is done with this piece; the work waits for its next turn."""
        work.computing = False
        self.computing -= 1
        self._push(self._ready, work)

    # --- internals --------------------------------------------------------------------------

    def _push(self, heap: list[tuple[float, int, Work[Payload]]], work: Work[Payload]) -> None:
        work._entry = next(self._order)
        heapq.heappush(heap, (work.key(self.worker_wait_s), work._entry, work))

    def _admit(self, work: Work[Payload], now: float) -> None:
        work.admitted = True
        work.due_from = now
        if work.is_job:
            self._active += 1
        self._push(self._ready, work)

    def _admit_waiting(self, now: float) -> None:
        while self._waiting and self._active < self.max_active:
            _, entry, work = heapq.heappop(self._waiting)
            if entry == work._entry and work.work_id in self.works:
                self._admit(work, now)

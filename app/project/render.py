"""Batch rendering of script lines through the engine, driven by engine events.

:class:`RenderSession` holds no thread and never blocks: ``start(client)`` submits jobs, and
the owner feeds it every event it reads (``handle_event``), whichever way it reads them. The
studio forwards events from its engine bridge on the GUI thread; ``dubstudio render`` loops
``client.get_event()``. Each call returns a :class:`RenderUpdate` saying which lines changed,
so a table can refresh just those rows.

Crash safety: each take is written to ``takes/`` (atomically) and the project saved the
moment its ``JobFinished`` arrives, so a dead app or engine loses at most the lines still
being spoken. When the engine dies the client restarts it and resubmits; the session drops the
half-received audio of jobs reported ``resubmitted`` and collects them again from chunk 0.

Only a limited number of jobs is in the engine's queue at once (``max_in_flight``), so a long
script never hits the engine's queue limit and auditioning (INTERACTIVE priority) still jumps
ahead of the batch. A batch's jobs have no listener (``Job.listening`` is False): the engine
computes them in the capacity auditions leave free. A line rendered because someone pressed
play is listened to (``listening=True``), so the engine paces it by its playback.

Fit to slot (see :mod:`app.project.fit`): a line to be fitted whose take overruns its slot is
synthesized again faster (a few passes, up to the project's bound), then the rest is
time-stretched; only the final take is written, recording the fit. A line whose current take
overruns skips the natural-rate pass: its duration is already known. Every take's loudness
and true peak are measured as it is written.

Readings: a line rendered again is a new reading (``Job.variant``, one past the variants of its
takes made from the same text, voice and settings), as a dubber asks for another take; the
fit passes of a line, and the fit of a take already made, keep that take's reading, so their
lengths differ by the speed alone.

Its length (about 610 lines, a little over the ~600 the project aims at) is one state machine: a
line's job from submission to its take on disk (fit, retries, cancel, saving), kept in one place.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

import numpy as np

from app.project.clips import trimmed_clip
from app.project.errors import ProjectError, RenderError, SaveError
from app.project.fit import (
    FitStep,
    first_speed,
    next_step,
    slot_seconds,
    time_stretch,
    trim_tail,
)
from app.project.fsutil import atomic_write_wav, safe_filename
from app.project.loudness import measure
from app.project.model import TAKES_DIR, Fit, Line, LineStatus, Take, new_id, now_iso
from app.project.project import Project
from app.project.timeline import OVERRUN_TOLERANCE_S
from engine.core import protocol
from engine.core.audio_io import AudioError, read_audio
from engine.core.codes import EngineError, ErrorCode
from engine.core.text import spoken_text


@dataclass(frozen=True)
class RenderProgress:
    """Counts for a progress bar; ``eta_s`` is None until the first line has finished."""

    total: int
    done: int
    failed: int
    cancelled: int
    rendering: int
    queued: int
    elapsed_s: float
    eta_s: float | None

    @property
    def completed(self) -> int:
        """Lines that will not change any more in this session (done, failed or cancelled)."""
        return self.done + self.failed + self.cancelled

    @property
    def fraction(self) -> float:
        return self.completed / self.total if self.total else 1.0


@dataclass(frozen=True)
class RenderUpdate:
    """What one call changed. Empty (falsy) for events that belong to other consumers."""

    lines: frozenset[str]
    progress: RenderProgress
    finished: bool
    takes: tuple[tuple[str, Take], ...] = ()  # (line id, new take) written by this event
    errors: tuple[str, ...] = ()  # session-level problems, e.g. a failed save

    def __bool__(self) -> bool:
        return bool(self.lines or self.takes or self.errors)


@dataclass
class _JobState:
    line: Line
    job: protocol.Job
    fingerprint: str
    backend: str
    previous: tuple[LineStatus, str]  # status and error to restore if cancelled
    chunks: list[np.ndarray] = field(default_factory=list)
    next_seq: int = 0
    sample_rate: int = 0
    fit: bool = False  # fit the take into its slot
    speed: float = 1.0  # factor on the character's speed for the current job (fit passes raise it)
    passes: int = 0  # faster fit passes so far
    natural_s: float | None = None  # the take's spoken length at speed 1, once known
    base_speed: float = 1.0  # the character's own speed, which fit passes multiply


def select_lines(
    project: Project, line_ids: Iterable[str] | None = None, *, stale_only: bool = False, fit: bool | None = None
) -> list[Line]:
    """The lines a render would do, in script order: all or ``line_ids``, optionally stale only.

    Stale-only keeps lines that are stale, not rendered yet, or failed, and (when fitting)
    lines whose current take overruns its slot unfitted; callers use this to skip starting
    the engine when there is nothing to do. ``fit`` None means each line's own setting.
    """
    lines = project.lines if line_ids is None else project.lines_by_ids(line_ids)
    if stale_only:
        wanted = {line.id for line in project.lines_needing_render()}
        lines = [line for line in lines if line.id in wanted or (_fits(project, line, fit) and _overruns(project, line))]
    return list(lines)


def _fits(project: Project, line: Line, fit: bool | None) -> bool:
    return project.wants_fit(line) if fit is None else fit


def _current_unfitted_take(project: Project, line: Line) -> Take | None:
    """The chosen take when it is up to date and was not fitted yet (its length is natural)."""
    take = project.chosen_take(line)
    if take is None or take.fit is not None or take.fingerprint != project.fingerprint(line):
        return None
    return take


def _spoken_seconds(project: Project, take: Take) -> float | None:
    """A take's length without its trailing silence (what fitting compares to the slot)."""
    try:
        audio, rate = read_audio(project.take_path(take))
    except (AudioError, OSError, ProjectError):
        return None  # unreadable: render it afresh at the natural rate
    return trim_tail(audio, rate).size / rate


def _overruns(project: Project, line: Line) -> bool:
    take = _current_unfitted_take(project, line)
    slot = slot_seconds(project, line) if take is not None else None
    return take is not None and slot is not None and take.duration_s > slot


class RenderSession:
    """Render a set of lines: submit, track status, write takes, report progress.

    ``line_ids`` None means every line; ``stale_only`` keeps only lines that are stale, not
    rendered yet, or failed. Lines that cannot render (no character, no clip) fail at start
    with a clear error instead of reaching the engine.

    ``fit`` True fits every line into its slot, False none, None each line's own choice
    (:meth:`Project.wants_fit`). ``save`` is called after every take (default:
    ``project.save()``); the studio passes its own to keep its "unsaved changes" state right.
    ``on_progress`` is called after every update that changed something.
    """

    def __init__(
        self,
        project: Project,
        line_ids: Iterable[str] | None = None,
        *,
        stale_only: bool = False,
        fit: bool | None = None,
        save: Callable[[Project], None] | None = None,
        on_progress: Callable[[RenderProgress], None] | None = None,
        max_in_flight: int = 32,
        priority: protocol.Priority = protocol.Priority.BATCH,
        listening: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.project = project
        self._line_ids = None if line_ids is None else list(line_ids)
        self._stale_only = stale_only
        self._fit = fit
        self._save = save if save is not None else Project.save
        self._on_progress = on_progress
        self._max_in_flight = max(1, max_in_flight)
        self._priority = priority  # INTERACTIVE when someone waits to hear the line
        self._listening = listening  # someone plays the audio as it streams
        self._clock = clock
        self._client: protocol.JobSubmitter | None = None
        self._backend = project.settings.backend
        self._top_speed = math.inf  # the backend's fastest speed, once its engine is ready
        self._jobs: dict[str, _JobState] = {}  # job id -> state, for jobs not yet ended
        self._waiting: list[_JobState] = []  # built but not yet submitted (throttle)
        self._line_jobs: dict[str, str] = {}  # line id -> current job id
        self._lines: list[Line] = []
        self._done: set[str] = set()
        self._failed: set[str] = set()
        self._cancelled: set[str] = set()
        self._started_at: float | None = None
        self._cancelling = False

    # --- public state --------------------------------------------------------------------

    @property
    def lines(self) -> list[Line]:
        """The lines this session renders, in script order (known after start)."""
        return list(self._lines)

    @property
    def finished(self) -> bool:
        """True once started and every line has ended (done, failed or cancelled)."""
        return self._started_at is not None and not self._jobs and not self._waiting

    @property
    def failed_lines(self) -> list[Line]:
        return [line for line in self._lines if line.id in self._failed]

    def owns(self, job_id: str) -> bool:
        return job_id in self._jobs

    def job_id_of(self, line_id: str) -> str | None:
        """The engine job currently rendering ``line_id`` (to play it as it streams)."""
        job_id = self._line_jobs.get(line_id)
        return job_id if job_id in self._jobs else None

    def chunks_of(self, line_id: str) -> list[np.ndarray]:
        """Audio received so far for a line still rendering (a player starts from these)."""
        job_id = self.job_id_of(line_id)
        return list(self._jobs[job_id].chunks) if job_id else []

    @property
    def progress(self) -> RenderProgress:
        states = list(self._jobs.values())
        rendering = sum(1 for s in states if s.line.status is LineStatus.RENDERING)
        elapsed = 0.0 if self._started_at is None else self._clock() - self._started_at
        completed = len(self._done) + len(self._failed)
        remaining = len(self._jobs) + len(self._waiting)
        eta = elapsed / completed * remaining if completed and remaining else (0.0 if not remaining else None)
        return RenderProgress(
            total=len(self._lines),
            done=len(self._done),
            failed=len(self._failed),
            cancelled=len(self._cancelled),
            rendering=rendering,
            queued=len(states) - rendering + len(self._waiting),
            elapsed_s=elapsed,
            eta_s=eta,
        )

    # --- driving ---------------------------------------------------------------------------

    def start(self, client: protocol.JobSubmitter) -> RenderUpdate:
        """Pick the lines, fail those that cannot render, and submit the first jobs.

        Call once, with a started client. If the engine runs another backend than the
        project last used, the project switches to it (so stale detection compares against
        what really renders the takes).
        """
        if self._started_at is not None:
            raise RenderError("this render session has already started")
        ready = client.ready
        if ready is not None:
            self._backend = ready.backend.name
            self._top_speed = ready.backend.speed.high
            self.project.settings.backend = self._backend
        self._lines = select_lines(self.project, self._line_ids, stale_only=self._stale_only, fit=self._fit)
        self._client = client
        self._started_at = self._clock()
        changed: set[str] = set()
        for line in self._lines:
            self._queue_line(line)
            changed.add(line.id)
        self._fill()
        return self._update(changed)

    def handle_event(self, event: protocol.Event | None) -> RenderUpdate:
        """Apply one engine event; returns an empty update when it is not this session's."""
        if event is None:
            return self._update(set(), notify=False)
        if isinstance(event, protocol.AudioChunk):
            return self._on_chunk(event)
        if isinstance(event, (protocol.JobQueued, protocol.JobStarted)):
            state = self._jobs.get(event.job_id)
            if state is None:
                return self._update(set(), notify=False)
            status = LineStatus.RENDERING if isinstance(event, protocol.JobStarted) else LineStatus.QUEUED
            if state.line.status is status:
                return self._update(set(), notify=False)
            state.line.status = status
            return self._update({state.line.id})
        if isinstance(event, protocol.JobFinished):
            return self._on_finished(event)
        if isinstance(event, protocol.JobFailed):
            return self._on_failed(event)
        if isinstance(event, protocol.EngineRestarted):
            changed: set[str] = set()
            for job_id in event.resubmitted:
                state = self._jobs.get(job_id)
                if state is not None:
                    self._reset_audio(state)
                    state.line.status = LineStatus.QUEUED
                    changed.add(state.line.id)
            return self._update(changed)
        if isinstance(event, protocol.EngineStopped) and event.reason != "wake":
            return self._abandon(f"{ErrorCode.ENGINE_STOPPED}: the engine stopped ({event.reason}) before this line was spoken")
        return self._update(set(), notify=False)

    def cancel(self) -> RenderUpdate:
        """Cancel what has not finished; lines go back to their status before the render.

        Lines not yet sent to the engine are restored at once; the rest when the engine
        confirms (their JobFailed CANCELLED arrives), so keep feeding events until finished.
        """
        self._cancelling = True
        changed: set[str] = set()
        for state in self._waiting:
            self._restore(state)
            changed.add(state.line.id)
        self._waiting.clear()
        if self._client is not None:
            for job_id in list(self._jobs):
                self._client.cancel(job_id)
        return self._update(changed)

    def retry_failed(self) -> RenderUpdate:
        """Queue this session's failed lines again (new jobs, new takes when they finish)."""
        if self._client is None:
            raise RenderError("start the session before retrying")
        self._cancelling = False
        changed: set[str] = set()
        for line in self.failed_lines:
            self._failed.discard(line.id)
            self._queue_line(line)
            changed.add(line.id)
        self._fill()
        return self._update(changed)

    # --- internals -------------------------------------------------------------------------

    def _queue_line(self, line: Line) -> None:
        previous = (line.status, line.error)
        try:
            job, fingerprint = self._build_job(line)
        except NoVoice as reason:
            line.status, line.error = LineStatus.FAILED, str(reason)
            self._failed.add(line.id)
            return
        # The take records the voice that speaks it (under the embedded voices, its language's).
        voice = protocol.speaking_backend(self._backend, self.project.spoken_language(line))
        state = _JobState(line, job, fingerprint, voice, previous, fit=_fits(self.project, line, self._fit),
                          base_speed=job.voice.settings.speed)
        if state.fit:
            known = _current_unfitted_take(self.project, line)
            slot = slot_seconds(self.project, line)
            natural = None if known is None or slot is None else _spoken_seconds(self.project, known)
            if known is not None and natural is not None and slot is not None and natural > slot:
                state.natural_s = natural  # no need to hear it at the natural rate again
                state.passes = 1
                state.speed = first_speed(natural, slot, self._fit_rate_bound())
                state.job = replace(self._job_at_speed(state), variant=known.variant)  # that reading, faster
        line.status, line.error = LineStatus.QUEUED, ""
        self._waiting.append(state)

    def _job_at_speed(self, state: _JobState) -> protocol.Job:
        """A new job for the state's line, with the character's speed raised ``state.speed`` times."""
        voice = state.job.voice
        # A fit asks for at most the backend's fastest speed (then stretches the rest); the
        # character's own speed is never lowered: one out of the backend's range is refused as set.
        speed = max(state.base_speed, min(self._top_speed, state.base_speed * state.speed))
        settings = replace(voice.settings, speed=speed)
        return protocol.Job(text=state.job.text, voice=replace(voice, settings=settings), priority=self._priority,
                   listening=self._listening, variant=state.job.variant)

    def _build_job(self, line: Line) -> tuple[protocol.Job, str]:
        order = self.project.order_of(line.id)
        if line.character_id is None:
            raise NoVoice(f"{ErrorCode.NO_CHARACTER}: line {order} has no character; assign one first")
        voice = voice_spec(self.project, line.character_id, line)
        fingerprint = self.project.fingerprint(line, self._backend)
        if fingerprint is None:
            char = self.project.character(line.character_id)
            raise NoVoice(f"{ErrorCode.CLIP_UNREADABLE.value}: cannot read {char.name}'s clip {char.clip}")
        # A new reading: the same line, voice and settings rendered again sound different.
        variant = 1 + max((take.variant for take in line.takes if take.fingerprint == fingerprint), default=-1)
        return protocol.Job(text=spoken_text(line.text), voice=voice, priority=self._priority, listening=self._listening,
                   variant=variant), fingerprint

    def _fill(self) -> None:
        """Submit waiting jobs while fewer than max_in_flight are in the engine."""
        assert self._client is not None
        while self._waiting and len(self._jobs) < self._max_in_flight:
            state = self._waiting.pop(0)
            self._jobs[state.job.job_id] = state
            self._line_jobs[state.line.id] = state.job.job_id
            self._client.submit(state.job)

    def _reset_audio(self, state: _JobState) -> None:
        state.chunks.clear()
        state.next_seq = 0

    def _on_chunk(self, chunk: protocol.AudioChunk) -> RenderUpdate:
        state = self._jobs.get(chunk.job_id)
        if state is None:
            return self._update(set(), notify=False)
        if chunk.seq == 0 and state.chunks:
            self._reset_audio(state)  # a resubmitted job starts over; never splice two attempts
        if chunk.seq != state.next_seq:
            return self._update(set(), notify=False)  # a stray chunk of a dropped attempt
        state.chunks.append(np.asarray(chunk.pcm, dtype=np.float32))
        state.sample_rate = chunk.sample_rate
        state.next_seq += 1
        if state.line.status is not LineStatus.RENDERING:
            state.line.status = LineStatus.RENDERING
            return self._update({state.line.id})
        return self._update(set(), notify=False)

    def _on_finished(self, event: protocol.JobFinished) -> RenderUpdate:
        state = self._jobs.pop(event.job_id, None)
        if state is None:
            return self._update(set(), notify=False)
        line = state.line
        errors: tuple[str, ...] = ()
        takes: tuple[tuple[str, Take], ...] = ()
        audio = np.concatenate(state.chunks) if state.chunks else np.zeros(0, dtype=np.float32)
        fit: Fit | None = None
        if audio.size and state.sample_rate > 0 and state.fit:
            audio = trim_tail(audio, state.sample_rate)
            step, fit = self._fit_step(state, audio)
            if step.next_speed is not None:
                self._resubmit(state, step.next_speed)
                return self._update({line.id})
            if step.stretch != 1.0:
                audio = time_stretch(audio, state.sample_rate, step.stretch)
        if audio.size == 0 or state.sample_rate <= 0:
            self._fail_line(line, f"{ErrorCode.NO_AUDIO}: the engine finished line {self._order(line)} without audio")
        else:
            take_id = new_id()
            rel = f"{TAKES_DIR}/{safe_filename(line.id, 'line')}_{take_id}.wav"
            try:
                atomic_write_wav(self.project.resolve(rel), audio, state.sample_rate, inside=self.project.root)
            except ProjectError as error:
                self._fail_line(line, str(error))
            else:
                level = measure(audio, state.sample_rate)
                take = Take(
                    id=take_id,
                    path=rel,
                    fingerprint=state.fingerprint,
                    created=now_iso(),
                    duration_s=round(audio.size / state.sample_rate, 4),
                    sample_rate=state.sample_rate,
                    backend=state.backend,
                    text=state.job.text,
                    fit=fit,
                    loudness_lufs=level.lufs,
                    true_peak_dbtp=level.peak_dbtp,
                    variant=state.job.variant,
                )
                self.project.add_take(line, take)
                line.status, line.error = LineStatus.DONE, ""
                self._done.add(line.id)
                takes = ((line.id, take),)
                errors = self._persist()
        self._fill()
        return self._update({line.id}, takes=takes, errors=errors)

    def _fit_step(self, state: _JobState, audio: np.ndarray) -> tuple[FitStep, Fit | None]:
        """The next fit step for a finished job, and the Fit to record if the take is final."""
        duration = audio.size / state.sample_rate
        if state.natural_s is None:
            state.natural_s = duration
        slot = slot_seconds(self.project, state.line)
        if slot is None or slot <= 0:
            return FitStep(), None  # an open slot: nothing to fit into
        step = next_step(state.natural_s, state.speed, duration, slot, self.project.settings.fit_max_rate,
                         state.passes, self.project.settings.fit_max_total)
        if step.next_speed is not None:
            return step, None
        if state.speed == 1.0 and step.stretch <= 1.0:
            # It fits as it is; when only by running on into the silence after its line, that is the fit.
            own = slot_seconds(self.project, state.line, borrow=False)
            if own is None or duration <= own + OVERRUN_TOLERANCE_S:
                return step, None
            return step, Fit(natural_s=round(state.natural_s, 4), slot_s=round(slot, 4))
        # What people hear, split in two: the faster speaking rate (never past the bound: a take that
        # came out faster is slowed to it by the stretch), and the time-stretch beyond it.
        rate = max(1.0, min(state.natural_s / duration, self._fit_rate_bound()))
        beyond = state.natural_s / (duration / step.stretch) / rate if step.stretch != 1.0 else 1.0
        return step, Fit(rate=round(rate, 4), stretch=round(max(1.0, beyond), 4),
                         natural_s=round(state.natural_s, 4), slot_s=round(slot, 4))

    def _fit_rate_bound(self) -> float:
        """The fastest speaking rate a fit asks for: the rate bound, within the total limit."""
        settings = self.project.settings
        return min(settings.fit_max_rate, settings.fit_max_total)

    def _resubmit(self, state: _JobState, speed: float) -> None:
        """Speak the line again at ``speed`` (a fit pass); it goes first among waiting jobs."""
        state.speed = speed
        state.passes += 1
        state.job = self._job_at_speed(state)
        self._reset_audio(state)
        state.line.status = LineStatus.QUEUED
        self._waiting.insert(0, state)
        self._fill()

    def _on_failed(self, event: protocol.JobFailed) -> RenderUpdate:
        state = self._jobs.get(event.job_id)
        if state is None:
            return self._update(set(), notify=False)
        line = state.line
        if event.resubmitted:
            self._reset_audio(state)
            line.status = LineStatus.QUEUED
            return self._update({line.id})
        del self._jobs[event.job_id]
        if event.code is ErrorCode.CANCELLED and self._cancelling:
            self._restore(state)
        elif event.code is ErrorCode.QUEUE_FULL and self._jobs:
            # Someone else filled the engine's queue: wait for one of ours to end, then retry.
            self._reset_audio(state)
            line.status = LineStatus.QUEUED
            self._waiting.insert(0, state)  # the engine refused it, so its id is free again
            return self._update({line.id})
        else:
            self._fail_line(line, str(EngineError(event.code, event.message)))  # a phrase stays one
        self._fill()
        return self._update({line.id}, errors=self._persist() if line.id in self._failed else ())

    def _abandon(self, message: str) -> RenderUpdate:
        """The engine is gone for good: fail everything still pending."""
        changed: set[str] = set()
        for state in [*self._jobs.values(), *self._waiting]:
            if self._cancelling:
                self._restore(state)
            else:
                self._fail_line(state.line, message)
            changed.add(state.line.id)
        self._jobs.clear()
        self._waiting.clear()
        return self._update(changed)

    def _restore(self, state: _JobState) -> None:
        state.line.status, state.line.error = state.previous
        if state.line.status in (LineStatus.QUEUED, LineStatus.RENDERING):
            state.line.status = LineStatus.DONE if state.line.chosen_take else LineStatus.NOT_RENDERED
        self._cancelled.add(state.line.id)

    def _fail_line(self, line: Line, message: str) -> None:
        line.status, line.error = LineStatus.FAILED, message
        self._failed.add(line.id)

    def _persist(self) -> tuple[str, ...]:
        try:
            self._save(self.project)
        except SaveError as error:
            return (f"the project could not be saved after a take: {error}",)
        return ()

    def _order(self, line: Line) -> int | str:
        try:
            return self.project.order_of(line.id)
        except ProjectError:
            return "(removed)"

    def _update(
        self,
        changed: set[str],
        *,
        takes: tuple[tuple[str, Take], ...] = (),
        errors: tuple[str, ...] = (),
        notify: bool = True,
    ) -> RenderUpdate:
        update = RenderUpdate(frozenset(changed), self.progress, self.finished, takes, errors)
        if notify and self._on_progress is not None and update:
            self._on_progress(update.progress)
        return update


class NoVoice(Exception):
    """A line or character cannot be spoken yet (no character, no clip, unreadable clip)."""


def voice_spec(project: Project, character_id: str, line: Line | None = None) -> protocol.VoiceSpec:
    """The character's voice as the engine takes it: the trimmed clip, transcript and settings
    (with ``line``'s own speed, instruction and language over the character's, :meth:`Project.delivery`).

    Batch renders and auditions both build voices here, so an audition sounds like the takes.
    Raises NoVoice with a message for people.
    """
    char = project.character(character_id)
    if not char.clip:
        raise NoVoice(f"{ErrorCode.NO_CLIP}: {char.name} has no reference clip; import one first")
    try:
        clip = trimmed_clip(project, char.id)
    except ProjectError as error:
        raise NoVoice(str(error)) from None
    if clip is None or not clip.is_file():
        raise NoVoice(f"{ErrorCode.CLIP_MISSING.value}: {char.name}'s clip {char.clip} is missing")
    settings = project.delivery(line) if line is not None else char.settings
    return protocol.VoiceSpec(clip_path=str(clip), transcript=char.transcript, settings=settings)

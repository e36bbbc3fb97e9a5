"""Take QA for a project: which takes to check, checking them, recording and judging results.

The measuring is :mod:`engine.hearing.qa.checks`; this module ties it to a project:

- :func:`request_for` describes one take to check (its file, the line's text and language, the
  character's clip) as a small picklable :class:`QaRequest`;
- :class:`TakeChecker` checks requests in this process (``dubstudio qa``);
- :class:`QaWorker` checks them in one spawned process at the render's own CPU priority (nice 0:
  at a lower one its verdicts queue for as long as a render holds the cores), so the caller's
  thread (the GUI's) never waits;
- :func:`record` stores a result on its take (takes are immutable: the take is replaced);
- :func:`verdict_of` judges a take with the project's thresholds and the line's slot *now*.

QA only ever reads audio: takes are opened read-only and never written.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnProcess
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import numpy as np

from app.project.errors import ProjectError
from app.project.model import Line, Take
from app.project.project import Project
from app.project.timeline import OVERRUN_TOLERANCE_S, build_timeline
from engine.core.audio_io import AudioError, file_digest, read_audio
from engine.core.codes import ErrorCode, QaCode
from engine.hearing.qa.checks import (
    TakeChecks,
    TakeToMeasure,
    Verdict,
    judge,
    measure_take,
    measure_takes,
)
from engine.hearing.whisper import DEFAULT_MODEL

if TYPE_CHECKING:
    from engine.hearing.qa.recognise import Transcript


# The QA process's nice value. Measured on a quiet 2-core machine (benchmarks/qa_pace.py --rounds 2
# --niceness 19 5 0, docs/qa.md): 48 lines rendered with QA at nice 19 got their verdicts a median
# 6.3 s after their takes, at nice 5 2.2 s, at nice 0 0.23 s (1.7 s at most); the whole job ends
# at about 1.4x the render alone at each, the render itself slower at 0 (1.41x) than at 19 (1.09x).
QA_NICENESS = 0
MAX_BATCH = 16  # takes checked together at most (packs of one Whisper window form within a batch)


@dataclass(frozen=True)
class QaRequest:
    """One take to check, with everything needed to do so without the project."""

    line_id: str
    take_id: str
    take_path: str  # absolute
    text: str  # what the take should say (the take's own text: the line may have changed since)
    language: str  # the character's language, "" when unset
    clip_path: str | None  # absolute path of the (trimmed) clip the voice was made from
    recogniser_model: str = DEFAULT_MODEL  # the Whisper model the settings chose (a name or a folder)
    pace: float = 1.0  # how much faster than natural the take was meant to be (speed, fitting)
    clip_transcript: str = ""  # what the clip says: with the clip, the voice's own pace


@dataclass(frozen=True)
class QaOutcome:
    """The answer to a :class:`QaRequest`: checks, or why the take could not be checked."""

    line_id: str
    take_id: str
    checks: TakeChecks | None
    error: str = ""  # "CODE: message" when ``checks`` is None


def request_for(project: Project, line: Line, take: Take, recogniser_model: str = DEFAULT_MODEL) -> QaRequest:
    """Describe a take for checking; raises ProjectError when its path escapes the project."""
    from app.project.clips import trimmed_clip

    clip: Path | None = None
    language = clip_transcript = ""
    pace = take.fit.rate * take.fit.stretch if take.fit is not None else 1.0
    if line.character_id is not None:
        try:
            char = project.character(line.character_id)
            # The take's language is the line's (an English line of a Mandarin character is heard as English).
            language, clip_transcript = project.delivery(line).language, char.transcript
            pace *= char.settings.speed
            clip = trimmed_clip(project, char.id)
        except (ProjectError, OSError):
            clip = None  # resemblance is then not measured; every other check still runs
    return QaRequest(
        line_id=line.id,
        take_id=take.id,
        take_path=str(project.take_path(take)),
        text=take.text or line.text,
        language=language,
        clip_path=str(clip) if clip is not None else None,
        recogniser_model=recogniser_model,
        pace=pace,
        clip_transcript=clip_transcript,
    )


def read_take(path: str | os.PathLike[str]) -> tuple[np.ndarray, int]:
    """A take's audio as mono float32 (opened read-only)."""
    return read_audio(path)  # a pipe is refused, not waited on


class TakeChecker:
    """Checks takes one at a time in this process; keeps clip embeddings by clip content."""

    def __init__(self) -> None:
        from engine.voiceprint.encoder import SpeakerEncoder

        self._encoder = SpeakerEncoder()
        self._clips: dict[str, np.ndarray | None] = {}  # clip content hash -> GE2E embedding
        self._paces: dict[tuple[str, str, str], float | None] = {}  # (clip hash, transcript, language) -> pace

    def check(self, request: QaRequest) -> QaOutcome:
        try:
            pcm, rate = read_take(request.take_path)
        except (AudioError, OSError) as error:
            return QaOutcome(request.line_id, request.take_id, None,
                             f"{ErrorCode.TAKE_UNREADABLE}: cannot read {Path(request.take_path).name}: {error}")
        checks = measure_take(pcm, rate, request.text, request.language, self._clip_embedding(request.clip_path),
                              self._encoder, request.recogniser_model, request.pace * (self._voice_pace(request) or 1.0))
        return QaOutcome(request.line_id, request.take_id, checks)

    def check_batch(self, requests: Sequence[QaRequest], streamed: bool = False,
                    on_outcome: Callable[[QaOutcome], None] | None = None) -> list[QaOutcome]:
        """Check several takes, short ones of one language sharing Whisper windows
        (:func:`engine.hearing.qa.checks.measure_takes`; ``streamed``: takes that queued behind
        a render); one outcome per request, in order. ``on_outcome`` gets each outcome as soon
        as it is ready (a take confirmed alone before the next is tried), once each."""
        outcomes: dict[int, QaOutcome] = {}

        def done(index: int, outcome: QaOutcome) -> None:
            outcomes[index] = outcome
            if on_outcome is not None:
                on_outcome(outcome)

        by_model: dict[str, list[tuple[int, TakeToMeasure]]] = {}
        for index, request in enumerate(requests):
            try:
                pcm, rate = read_take(request.take_path)
            except (AudioError, OSError) as error:
                done(index, QaOutcome(request.line_id, request.take_id, None,
                                      f"{ErrorCode.TAKE_UNREADABLE}: cannot read {Path(request.take_path).name}: {error}"))
                continue
            take = TakeToMeasure(pcm, rate, request.text, request.language, self._clip_embedding(request.clip_path),
                                 request.pace * (self._voice_pace(request) or 1.0))
            by_model.setdefault(request.recogniser_model, []).append((index, take))
        for model, takes in by_model.items():

            def measured(at: int, checks: TakeChecks, takes: list[tuple[int, TakeToMeasure]] = takes) -> None:
                index = takes[at][0]
                done(index, QaOutcome(requests[index].line_id, requests[index].take_id, checks))

            measure_takes([take for _, take in takes], self._encoder, model, streamed, on_measured=measured)
        return [outcomes[index] for index in range(len(requests))]

    def _voice_pace(self, request: QaRequest) -> float | None:
        """The pace of the clip's speaker (see engine.hearing.qa.checks.voice_pace), once per clip and text."""
        from engine.core.protocol import EngineError
        from engine.core.reference import load_reference_clip
        from engine.hearing.qa.checks import voice_pace

        if request.clip_path is None or not request.clip_transcript.strip():
            return None
        try:
            key = (file_digest(Path(request.clip_path)), request.clip_transcript, request.language)
        except OSError:
            return None
        if key not in self._paces:
            try:
                clip = load_reference_clip(request.clip_path)
            except EngineError:
                self._paces[key] = None
            else:
                self._paces[key] = voice_pace(clip.audio, clip.sample_rate, request.clip_transcript, request.language)
        return self._paces[key]

    def _clip_embedding(self, clip_path: str | None) -> np.ndarray | None:
        """The clip's GE2E embedding, or None when there is no usable clip (then resemblance
        is simply not measured: the clip's own problems are the Characters panel's to show)."""
        from engine.core.protocol import EngineError
        from engine.core.reference import load_reference_clip

        if clip_path is None:
            return None
        try:
            digest = file_digest(Path(clip_path))
        except OSError:
            return None
        if digest not in self._clips:
            try:
                self._clips[digest] = self._encoder.embed(load_reference_clip(clip_path))
            except EngineError:
                self._clips[digest] = None
        return self._clips[digest]


def lower_priority(niceness: int = QA_NICENESS) -> None:
    """Run this process at ``niceness`` (Windows: above 0, the idle class); at 0, the default,
    it stays at normal priority (benchmarks/qa_pace.py compares several).

    A nice-19 process gets about 1.5 % of a core that a normal process also wants, so a busy
    engine barely notices it, yet it keeps moving on a machine that is never idle (Linux's
    SCHED_IDLE would stall it there until the load ends).
    """
    import psutil

    # Not allowed here: QA then competes at normal priority, which is still correct.
    with contextlib.suppress(psutil.Error, OSError):
        if niceness > 0:
            psutil.Process().nice(psutil.IDLE_PRIORITY_CLASS if sys.platform == "win32" else niceness)


def quiet_third_party_warnings() -> None:
    """webrtcvad (under resemblyzer) warns about pkg_resources on import; nothing a user can act on."""
    import warnings

    warnings.filterwarnings("ignore", message="pkg_resources is deprecated", category=UserWarning)


def _worker_main(requests: Connection, results: Connection, max_batch: int = MAX_BATCH,
                 niceness: int = QA_NICENESS) -> None:
    """The worker process: check requests in order until told to stop (None) or orphaned."""
    from engine.core.lifeline import hold_to_parent

    hold_to_parent(None)  # gone the moment the studio or render is, even in the middle of a check
    lower_priority(niceness)
    quiet_third_party_warnings()
    checker = TakeChecker()
    while True:
        try:
            batch = [requests.recv()]
        except (EOFError, OSError):
            return  # the parent is gone
        try:
            # Every take already waiting joins the batch: short takes then share Whisper windows.
            while batch[-1] is not None and len(batch) < max_batch and requests.poll(0):
                batch.append(requests.recv())
        except (EOFError, OSError):
            batch.append(None)  # the parent closed its end: check what came, as before packing, then stop
        stop = batch[-1] is None
        todo = [request for request in batch if request is not None]
        sender = _Sender(results)
        try:
            checker.check_batch(todo, streamed=True, on_outcome=sender.send)
        except Exception:  # noqa: BLE001 - one bad take must not end the checking of the others
            for request in todo:
                if (request.line_id, request.take_id) not in sender.sent:
                    sender.send(_checked_alone(checker, request))
        if sender.broken or stop:
            return


class _Sender:
    """Sends each outcome to the parent the moment it is ready; remembers which it sent and
    whether the parent is gone."""

    def __init__(self, results: Connection) -> None:
        self._results = results
        self.sent: set[tuple[str, str]] = set()
        self.broken = False

    def send(self, outcome: QaOutcome) -> None:
        if self.broken:
            return
        try:
            self._results.send(outcome)
        except (BrokenPipeError, OSError):
            self.broken = True  # the parent is gone: the worker stops after this batch
            return
        self.sent.add((outcome.line_id, outcome.take_id))


def _checked_alone(checker: TakeChecker, request: QaRequest) -> QaOutcome:
    """One take checked by itself, an error that stops it reported as its outcome."""
    try:
        return checker.check(request)
    except Exception as error:  # noqa: BLE001 - one bad take must not end the checking of the others
        return QaOutcome(request.line_id, request.take_id, None, f"{ErrorCode.QA_WORKER}: {type(error).__name__}: {error}")


class QaWorker:
    """Checks takes in one low-priority child process, in the order they are submitted; each
    outcome comes back as soon as it is ready, so a take confirmed quickly may overtake one
    still being heard (outcomes name their take).

    Not tied to any event loop: call :meth:`poll` (non-blocking, or with a timeout) to collect
    outcomes. The process starts on the first :meth:`submit` and is restarted if it dies, the
    take it was checking then reported as failed to check. Thread-safe.
    """

    def __init__(self, max_batch: int = MAX_BATCH, niceness: int = QA_NICENESS) -> None:
        """``max_batch``: takes checked together at most (1: one at a time, as before packing);
        ``niceness``: the process's nice value (0: normal priority, as the render's)."""
        self._max_batch = max_batch
        self._niceness = niceness
        self._context = multiprocessing.get_context("spawn")  # no forked Qt or engine state
        self._process: SpawnProcess | None = None
        self._requests: Connection | None = None
        self._results: Connection | None = None
        self._pending: list[QaRequest] = []  # submitted, no outcome yet (in order)
        self._lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        """The checking process's id while it runs (benchmarks read its CPU time)."""
        with self._lock:
            return self._process.pid if self._process is not None else None

    @property
    def pending(self) -> int:
        """Takes submitted whose outcome has not been collected yet."""
        with self._lock:
            return len(self._pending)

    def submit(self, request: QaRequest) -> None:
        with self._lock:
            self._pending.append(request)
            if self._process is not None and not self._process.is_alive():
                return  # poll() reports the crash and hands the rest, this one included, to a new process
            self._ensure_started()
            assert self._requests is not None
            # If it just died, poll() sees the closed pipe and resubmits to a new process.
            with contextlib.suppress(OSError):
                self._requests.send(request)

    def _ensure_started(self) -> None:
        if self._process is not None:
            return
        requests_out, requests_in = self._context.Pipe(duplex=False)
        results_out, results_in = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_worker_main, args=(requests_out, results_in, self._max_batch, self._niceness),
                                        daemon=True,
                                        name="dubstudio-qa")
        process.start()
        requests_out.close()  # the child's ends: closing ours lets each side see the other die
        results_in.close()
        self._process, self._requests, self._results = process, requests_in, results_out

    def poll(self, timeout: float = 0.0) -> list[QaOutcome]:
        """Outcomes ready now (waiting up to ``timeout`` seconds for the first one)."""
        outcomes: list[QaOutcome] = []
        with self._lock:
            wait = timeout
            while self._pending and self._results is not None:
                try:
                    if not self._results.poll(wait):
                        if self._process is not None and not self._process.is_alive():
                            outcomes.extend(self._fail_pending_after_crash())
                        break
                    outcome: QaOutcome = self._results.recv()
                except (EOFError, OSError):  # the process died mid-check
                    outcomes.extend(self._fail_pending_after_crash())
                    break
                key = (outcome.line_id, outcome.take_id)
                self._pending = [r for r in self._pending if (r.line_id, r.take_id) != key]
                outcomes.append(outcome)
                wait = 0.0
        return outcomes

    def _fail_pending_after_crash(self) -> list[QaOutcome]:
        """The worker died: report the take it was on, and resubmit the rest to a new one."""
        first, rest = self._pending[0], self._pending[1:]
        self._pending = []
        self._shutdown(wait=False)
        for request in rest:
            self._ensure_started()
            assert self._requests is not None
            self._pending.append(request)
            self._requests.send(request)
        return [QaOutcome(first.line_id, first.take_id, None,
                          f"{ErrorCode.QA_WORKER}: the QA process stopped while checking this take")]

    def close(self) -> None:
        """Stop the process (outcomes not yet collected are dropped)."""
        with self._lock:
            self._pending = []
            self._shutdown(wait=True)

    def _shutdown(self, wait: bool) -> None:
        process, self._process = self._process, None
        for conn in (self._requests, self._results):
            if conn is not None:
                with contextlib.suppress(OSError):
                    if wait and conn is self._requests and process is not None and process.is_alive():
                        conn.send(None)
                conn.close()
        self._requests = self._results = None
        if process is not None:
            process.join(timeout=2.0 if wait else 0.1)
            if process.is_alive():
                process.kill()
                process.join(timeout=2.0)


def record(project: Project, outcome: QaOutcome) -> Take | None:
    """Store an outcome's checks on its take; returns the updated take, or None when the take
    is gone (the line was removed or re-rendered and pruned) or could not be checked."""
    if outcome.checks is None:
        return None
    try:
        line = project.line(outcome.line_id)
    except ProjectError:
        return None
    for index, take in enumerate(line.takes):
        if take.id == outcome.take_id:
            line.takes[index] = replace(take, qa=outcome.checks)
            return line.takes[index]
    return None


def placements(project: Project) -> dict[str, tuple[float, float | None]]:
    """For every line: (its start on the timeline, its slot's end or None) — one timeline pass."""
    return {slot.line_id: (slot.start, slot.slot_end) for slot in build_timeline(project)}


def overrun_of(take: Take, placement: tuple[float, float | None] | None) -> float | None:
    """How far ``take`` would run past its line's slot (0 when it fits, None without a slot)."""
    if placement is None:
        return None
    start, slot_end = placement
    if slot_end is None:
        return None
    over = start + take.duration_s - slot_end
    return round(over, 3) if over > OVERRUN_TOLERANCE_S else 0.0


def verdict_of(project: Project, take: Take, placement: tuple[float, float | None] | None) -> Verdict | None:
    """The take's verdict under the project's thresholds now; None when it is not checked yet."""
    if take.qa is None:
        return None
    return judge(take.qa, project.settings.qa, overrun_of(take, placement))


def chosen_verdicts(project: Project) -> dict[str, Verdict | None]:
    """Line id -> verdict of its chosen take (None: no take, or not checked yet)."""
    placed = placements(project)
    verdicts: dict[str, Verdict | None] = {}
    for line in project.lines:
        take = project.chosen_take(line)
        verdicts[line.id] = verdict_of(project, take, placed.get(line.id)) if take is not None else None
    return verdicts


def lines_failing_qa(project: Project) -> list[Line]:
    """Lines whose chosen take failed QA, in script order (what "Render failed QA" redoes)."""
    verdicts = chosen_verdicts(project)
    return [line for line in project.lines if (v := verdicts[line.id]) is not None and v.passed is False]


def unchecked_takes(project: Project, lines: Iterable[Line] | None = None) -> list[tuple[Line, Take]]:
    """Chosen takes that have not been checked yet (made before QA existed), or were checked by a
    recogniser QA no longer uses (pocketsphinx)."""
    found: list[tuple[Line, Take]] = []
    for line in project.lines if lines is None else lines:
        take = project.chosen_take(line)
        if take is not None and (take.qa is None or take.qa.retired):
            found.append((line, take))
    return found


class SilenceSeconds(TypedDict):
    leading: float
    inner: float  # the longest pause inside the take
    trailing: float


class ReportRow(TypedDict):
    """One take's QA as a ``dubstudio qa --json`` line; None where it was not measured."""

    line_id: str
    line: int  # its number in the script, from 1
    take: str
    recogniser: str | None
    language: str | None
    metric: str | None  # "wer" or "cer"
    wer: float | None  # the error rate, in ``metric``
    transcript: str | None
    detected_language: str | None
    language_probability: float | None
    speech_s: float | None
    expected_speech_s: float | None
    clipping: float | None
    silence_s: SilenceSeconds | None
    overrun_s: float | None
    resemblance: float | None
    passed: bool | None  # None: not checked yet
    reasons: list[str]


def error_said(row: ReportRow) -> str:
    """A row's error rate as the command line shows it, by its metric ("CER 0.12", "WER 0.00"); "—" unheard."""
    return "—" if row["wer"] is None or row["metric"] is None else f"{row['metric'].upper()} {row['wer']:.2f}"


def report_row(project: Project, line: Line, take: Take, outcome: QaOutcome | None = None,
               placement: tuple[float, float | None] | None = None) -> ReportRow:
    """One take's QA as the ``dubstudio qa --json`` line: the measurements and the verdict.

    ``outcome`` is a fresh check (else the take's stored checks are used); ``placement`` is the
    line's entry of :func:`placements`.
    """
    checks = outcome.checks if outcome is not None else take.qa
    if checks is None:
        error = outcome.error if outcome is not None and outcome.error else f"{QaCode.NOT_CHECKED}: this take has not been checked yet"
        return ReportRow(
            line_id=line.id, line=project.order_of(line.id), take=take.id, recogniser=None, language=None,
            metric=None, wer=None, transcript=None, detected_language=None, language_probability=None,
            speech_s=None, expected_speech_s=None, clipping=None, silence_s=None,
            overrun_s=overrun_of(take, placement), resemblance=None, passed=False if outcome else None,
            reasons=[error])
    verdict = judge(checks, project.settings.qa, overrun_of(take, placement))
    return ReportRow(
        line_id=line.id,
        line=project.order_of(line.id),
        take=take.id,
        recogniser=checks.recogniser,
        language=checks.language,
        metric=checks.metric,
        wer=checks.wer,
        transcript=checks.transcript,
        detected_language=checks.detected_language or None,
        language_probability=checks.language_probability,
        speech_s=round(checks.speech_s, 3),
        expected_speech_s=checks.expected_speech_s,
        clipping=checks.clipping,
        silence_s=SilenceSeconds(leading=checks.leading_silence_s, inner=checks.inner_silence_s,
                                 trailing=checks.trailing_silence_s),
        overrun_s=overrun_of(take, placement),
        resemblance=checks.resemblance,
        passed=verdict.passed,
        reasons=verdict.reasons,
    )


# --- transcripts by ear ---------------------------------------------------------------------------


def hear_character_clip(project: Project, character_id: str, model: str = DEFAULT_MODEL) -> Transcript:
    """What the character's (trimmed) clip says, heard in its language (detected when unset):
    an ``engine.hearing.qa.recognise.Transcript``. Raises NotHeard, EngineError (an unusable clip) or
    ProjectError (no clip, or a path that escapes the project)."""
    from app.project.clips import trimmed_clip
    from engine.hearing.qa.transcripts import hear_clip

    clip = trimmed_clip(project, character_id)
    if clip is None:
        raise ProjectError(f"{project.character(character_id).name} has no reference clip to hear")
    return hear_clip(clip, project.character(character_id).settings.language, model, project.settings.chinese_script)


def fill_missing_transcripts(project: Project, model: str = DEFAULT_MODEL) -> list[str]:
    """Give every character whose clip has no transcript the words heard in it, marked as heard.

    Returns one line per character for people: what was heard, or why nothing could be.
    """
    from engine.core.protocol import EngineError
    from engine.hearing.qa.recognise import NotHeard

    said: list[str] = []
    for char in project.characters:
        if not char.clip or char.transcript.strip():
            continue
        try:
            heard = hear_character_clip(project, char.id, model)
        except (NotHeard, EngineError, ProjectError) as error:
            said.append(f"{char.name}: the clip has no transcript and none could be heard ({error})")
            continue
        char.transcript, char.transcript_heard = heard.text, bool(heard.text)
        said.append(f"{char.name}: transcript heard from the clip: “{heard.text}” (check it in the studio)"
                    if heard.text else f"{char.name}: no speech heard in the clip")
    return said

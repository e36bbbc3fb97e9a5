"""The studio's transcription in a process of its own, so that its GUI thread never waits for it.

:func:`hear_project_apart` is :func:`app.project.transcription.hear_project` run in one spawned
child process (at the studio's own priority), its progress and outcome sent back through a pipe.
In the studio's process the transcription shared the GIL with the GUI thread: CTranslate2's load
of Whisper holds it (the GUI thread waited up to 0.8 s on a busy 2-core machine), and so do the
Python steps at its end; a lower priority inside the process made it worse, the low-priority
holder of the GIL waiting behind other programs (docs/transcribe.md, "The studio while it
transcribes", ``benchmarks/responsiveness.py``). The child loads the models each time (about a
second), and ends with the studio (:func:`engine.core.lifeline.hold_to_parent`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import threading
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event as ProcessEvent

from app.project import phrases
from app.project.errors import ProjectError, TranscriptionError
from app.project.phrases import Phrase
from app.project.project import Project
from app.project.transcription import (
    Progress,
    TranscribedScript,
    TranscribeRequest,
    hear_project,
)
from engine.core.codes import ErrorCode

PROCESS_NAME = "dubstudio-transcribe"
POLL_S = 0.1  # how often the waiting thread looks at Cancel and at whether the child still runs


def hear_project_apart(project: Project, request: TranscribeRequest = TranscribeRequest(), *, replace: bool = False,
                       keep: bool = False, progress: Progress | None = None,
                       cancel: threading.Event | None = None) -> TranscribedScript:
    """:func:`hear_project` in a spawned child process; the same outcome and errors. Blocks the
    calling thread (the studio's pool thread) until the child answers; Cancel reaches the child
    within POLL_S. A child that dies before it answers raises E_TRANSCRIPTION_PROCESS."""
    context = multiprocessing.get_context("spawn")  # no forked Qt state
    answers, child_end = context.Pipe(duplex=False)
    stop = context.Event()
    process = context.Process(target=_hear_in_child, args=(project, request, replace, keep, child_end, stop),
                              daemon=True, name=PROCESS_NAME)
    process.start()
    child_end.close()  # the child's end: closing ours lets a dead child read as end-of-file
    try:
        while True:
            if cancel is not None and cancel.is_set():
                stop.set()
            try:
                if not answers.poll(POLL_S):
                    continue
                kind, *body = answers.recv()
            except (EOFError, OSError):
                process.join(timeout=1.0)
                raise TranscriptionError(Phrase(phrases.TRANSCRIPTION_PROCESS_STOPPED, status=process.exitcode),
                                         ErrorCode.TRANSCRIPTION_PROCESS) from None
            if kind == "progress" and progress is not None:
                progress(*body)
            elif kind == "heard":
                heard: TranscribedScript = body[0]
                return heard
            elif kind == "failed":
                raise TranscriptionError(body[0], ErrorCode(body[1]))
    finally:
        answers.close()
        process.join(timeout=2.0)
        if process.is_alive():
            process.kill()
            process.join(timeout=2.0)


def _hear_in_child(project: Project, request: TranscribeRequest, replace: bool, keep: bool, answers: Connection,
                   stop: ProcessEvent) -> None:
    """The child: hear the project, sending each progress report, then the outcome or the error."""
    from engine.core.lifeline import hold_to_parent

    hold_to_parent(None)  # gone the moment the studio is, even in the middle of a window
    cancel = threading.Event()

    def pass_cancel_on() -> None:
        stop.wait()
        cancel.set()

    threading.Thread(target=pass_cancel_on, daemon=True, name="cancel").start()
    sending = threading.Lock()  # progress comes from the transcription's helper threads too

    def report(stage: str, fraction: float) -> None:
        with sending:
            answers.send(("progress", stage, fraction))

    with contextlib.suppress(BrokenPipeError, OSError):  # the studio is gone: nobody to tell
        try:
            made = hear_project(project, request, replace=replace, keep=keep, cancel=cancel, progress=report)
        except ProjectError as error:
            with sending:
                answers.send(("failed", error.message, error.code.value))
            return
        with sending:
            answers.send(("heard", made))

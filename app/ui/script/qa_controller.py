"""Take QA in the studio: every finished take is checked off the GUI thread.

Checks run in the project layer's :class:`~app.project.qa.QaWorker`, a separate process at the
render's CPU priority, so the GUI never waits for them. A timer collects results
while checks are pending (and only then); each result is stored with its take, the project is
saved as after a take, and the table is told which lines changed. The checks are a queue fed
as takes finish, in another process than the studio's, not operations of :mod:`app.ui.tasks`
(docs/seams.md).

No take is left "Checking…" by an edit made while its check runs. A result that arrives for
a take the project no longer holds (the script was replaced, the line deleted, while the check
ran) is kept by the take's id, and when an undo or redo brings the take back the result is
recorded then (a take's audio and text never change, so the measurement still holds).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from app.project import ProjectError, SaveError, Take
from app.project.qa import (
    QaOutcome,
    QaRequest,
    QaWorker,
    record,
    request_for,
    unchecked_takes,
)
from app.ui.language import fill, said_error, say
from app.ui.window.document import Document
from engine.hearing.whisper import DEFAULT_MODEL

log = logging.getLogger(__name__)

POLL_MS = 250
KEPT_RESULTS = 1000  # results kept for takes that are gone (an undo may bring them back)


class QaRunner(Protocol):
    """What the controller needs from :class:`~app.project.qa.QaWorker`."""

    @property
    def pending(self) -> int: ...

    def submit(self, request: QaRequest) -> None: ...

    def poll(self, timeout: float = 0.0) -> list[QaOutcome]: ...

    def close(self) -> None: ...


class QaController(QObject):
    """Checks the document's takes in the background and records the results."""

    checked = Signal(frozenset)  # the line ids whose chosen take's QA changed
    message = Signal(str)  # problems to show the user (error codes included)

    def __init__(self, document: Document, make_runner: Callable[[], QaRunner] = QaWorker,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self._make_runner = make_runner
        self._runner: QaRunner | None = None  # started with the first check
        self.recogniser_model: Callable[[], str] = lambda: DEFAULT_MODEL  # the window reads the settings
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.collect)
        self._gone: dict[str, QaOutcome] = {}  # take id -> result that came when the take was not in the project
        document.changed.connect(self._take_back_results)

    @property
    def pending(self) -> int:
        """Takes sent for checking whose result has not arrived yet."""
        return self._runner.pending if self._runner is not None else 0

    def check(self, line_id: str, take: Take) -> None:
        """Check one take (a finished render calls this)."""
        project = self._doc.project
        try:
            request = request_for(project, project.line(line_id), take, self.recogniser_model())
        except ProjectError as exc:
            self.message.emit(said_error(exc))
            return
        if self._runner is None:
            self._runner = self._make_runner()
        self._runner.submit(request)
        self._timer.start()
        if self._doc.qa_errors.pop(take.id, None) is not None:  # "Checking…" again, not "QA error"
            self._doc.notify_render(frozenset({line_id}))

    def errored_lines(self) -> list[str]:
        """Lines whose chosen take's check could not run (their QA column says "QA error")."""
        project = self._doc.project
        return [line.id for line in project.lines
                if (take := project.chosen_take(line)) is not None and take.id in self._doc.qa_errors]

    def unjudged_lines(self) -> list[str]:
        """Lines whose chosen take has no verdict: being checked ("Checking…") or not checked
        ("QA error"); *Check QA again* is there for all of them."""
        project = self._doc.project
        return [line.id for line in project.lines if (take := project.chosen_take(line)) is not None and take.qa is None]

    def recheck(self, line_ids: list[str] | None = None) -> int:
        """Check again the chosen takes of these lines (None: every line whose take has no
        verdict); returns how many were sent."""
        project = self._doc.project
        sent = 0
        for line_id in self.unjudged_lines() if line_ids is None else line_ids:
            take = project.chosen_take(project.line(line_id))
            if take is not None:
                self.check(line_id, take)
                sent += 1
        return sent

    def check_unchecked(self) -> int:
        """Check every chosen take that has no QA yet (older takes); returns how many."""
        todo = unchecked_takes(self._doc.project)
        for line, take in todo:
            self.check(line.id, take)
        return len(todo)

    def collect(self) -> None:
        """Record the results that have arrived; the timer calls this while checks are pending."""
        if self._runner is None:
            return
        outcomes = self._runner.poll()
        if not self._runner.pending:
            self._timer.stop()
        changed: set[str] = set()
        errored: set[str] = set()
        for outcome in outcomes:
            if outcome.checks is None:
                # Shown in the QA column (with the reason) until the take is checked again.
                self._doc.qa_errors[outcome.take_id] = outcome.error
                errored.add(outcome.line_id)
                self.message.emit(fill(self.tr("QA of line {order}: {error}"), order=self._order(outcome.line_id),
                                                                               error=say(outcome.error)))
            elif record(self._doc.project, outcome) is not None:
                self._doc.qa_errors.pop(outcome.take_id, None)
                changed.add(outcome.line_id)
            else:  # the take is not in the project now; an undo may bring it back
                self._gone[outcome.take_id] = outcome
                while len(self._gone) > KEPT_RESULTS:
                    del self._gone[next(iter(self._gone))]
        if errored:
            self._doc.notify_render(frozenset(errored))
            self.checked.emit(frozenset(errored))
        self._recorded(changed)

    def _take_back_results(self) -> None:
        """After an edit, undo or redo: record the kept results of the takes it brought back."""
        changed: set[str] = set()
        for line in self._doc.project.lines:
            for take in line.takes:
                outcome = self._gone.get(take.id)
                if take.qa is None and outcome is not None:
                    del self._gone[take.id]
                    if record(self._doc.project, QaOutcome(line.id, take.id, outcome.checks)) is not None:
                        changed.add(line.id)
        self._recorded(changed)

    def _recorded(self, changed: set[str]) -> None:
        """Save the results just stored on these lines' takes and tell the table."""
        if not changed:
            return
        try:
            self._doc.save_after_take(self._doc.project)
        except SaveError as exc:
            self.message.emit(fill(self.tr("the QA results could not be saved: {error}"), error=said_error(exc)))
        self._doc.notify_render(frozenset(changed))
        self.checked.emit(frozenset(changed))

    def close(self) -> None:
        """Stop checking (the document is closing); results not yet in are dropped."""
        self._timer.stop()
        self._gone.clear()
        if self._runner is not None:
            self._runner.close()
            self._runner = None

    def _order(self, line_id: str) -> str:
        try:
            return str(self._doc.project.order_of(line_id))
        except ProjectError:
            return "(removed)"

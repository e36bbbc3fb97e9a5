"""An open project as seen by the studio: the model, its undo stack, and Qt signals.

Every user edit goes through :meth:`Document.push`, which runs an undoable command from
``app.project`` and turns its :class:`~app.project.Change` into the ``changed`` signal; render
results (takes, status) are written by the render session and announced with
:meth:`Document.notify_render`. Views and item models listen to these two signals only, so
there is exactly one way the project changes under them.

A document holds the project's lock (:mod:`app.project.lock`) while it is open. Without it
(another studio or a ``dubstudio render`` has the project) it is *read-only*: edits and saves
are refused with E_PROJECT_LOCKED, and ``read_only`` says who holds the project.

Nothing unsaved is ever dropped silently: a failed save (or a failed save after a render's
take) leaves the document dirty, and ``save_failed`` fires once per run of failures so the
window can show a blocking error instead of a status-bar line that scrolls away.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, QTimer, Signal

from app.project import Change, Command, CommandStack, Project, ProjectError, SaveError
from app.project.lock import ProjectLock
from app.ui.language import said_error
from engine.core.codes import ErrorCode

log = logging.getLogger(__name__)


class Document(QObject):
    """One open project with undo/redo, dirty tracking and autosave."""

    changed = Signal(Change)  # after every push, undo and redo
    render_changed = Signal(frozenset)  # the line ids whose takes/status changed
    undo_state_changed = Signal()  # can_undo/can_redo/texts/clean may differ now
    saved = Signal(str)  # the project file
    error = Signal(str)  # an edit or a save failed; the message has an error code
    save_failed = Signal(str)  # the first of a run of failed saves; the message has an error code

    def __init__(
        self,
        project: Project,
        parent: QObject | None = None,
        *,
        lock: ProjectLock | None = None,
        read_only: str = "",
    ) -> None:
        """``lock`` is the project's lock, released by :meth:`close`; ``read_only`` says why
        there is none ("open in dubstudio render (pid ...)") and makes the document refuse
        edits and saves."""
        super().__init__(parent)
        self.project = project
        self.lock = lock
        self.read_only = read_only
        # Take id -> why its QA check could not run ("CODE: message"). Known to this session
        # only: the take itself is fine, and the next check (re-render, reopen) may well work.
        self.qa_errors: dict[str, str] = {}
        self.stack = CommandStack(project)
        self.stack.add_listener(self._on_change)
        self._autosave = QTimer(self)
        self._autosave.timeout.connect(self.autosave)
        self._unsaved_takes = False  # a take's save failed: project.json lacks what is in memory
        self._save_failing = False

    # --- edits ----------------------------------------------------------------------------

    def push(self, command: Command) -> bool:
        """Run an edit; on a refused edit emit ``error`` and return False (nothing changed)."""
        if self.read_only:
            self.error.emit(self._read_only_message("cannot be edited"))
            return False
        try:
            self.stack.push(command)
        except ProjectError as exc:
            self.error.emit(said_error(exc))
            return False
        return True

    def undo(self) -> None:
        self.stack.undo()

    def redo(self) -> None:
        self.stack.redo()

    def _on_change(self, change: Change) -> None:
        self.changed.emit(change)
        self.undo_state_changed.emit()

    def notify_render(self, line_ids: frozenset[str]) -> None:
        """The render session changed these lines' takes or status.

        Nothing to mark unsaved: the session saves the project itself after every take and
        failure, and the statuses it sets meanwhile (queued, rendering) are never saved.
        """
        self.render_changed.emit(frozenset(line_ids))

    # --- saving -------------------------------------------------------------------------------

    @property
    def is_dirty(self) -> bool:
        return not self.stack.is_clean or self._unsaved_takes

    def _read_only_message(self, what: str) -> str:
        return f"{ErrorCode.PROJECT_LOCKED.value}: the project is read-only here ({self.read_only}) and {what}"

    def save(self) -> bool:
        """Save atomically; on failure the file on disk is untouched, the document stays dirty,
        and ``error`` (plus ``save_failed`` for the first failure of a run) fires."""
        if self.read_only:
            self.error.emit(self._read_only_message("cannot be saved"))
            return False
        try:
            self.project.save()
        except ProjectError as exc:
            self._save_failed(str(exc))
            return False
        self._mark_saved()
        return True

    def save_after_take(self, project: Project) -> None:
        """The render session's save hook: it raises SaveError, which the session reports;
        the take stays in memory and the document dirty, so a later save records it."""
        try:
            project.save()
        except SaveError as exc:
            self._unsaved_takes = True
            self.undo_state_changed.emit()
            self._save_failed(str(exc))
            raise
        self._mark_saved()

    def _save_failed(self, message: str) -> None:
        self.error.emit(message)
        if not self._save_failing:  # autosave would otherwise raise a dialog every minute
            self._save_failing = True
            self.save_failed.emit(message)

    def _mark_saved(self) -> None:
        self._unsaved_takes = self._save_failing = False
        self.stack.mark_clean()
        self.undo_state_changed.emit()
        self.saved.emit(str(self.project.project_file))

    def close(self) -> None:
        """Stop autosaving and release the project's lock (the owner saved first if it wanted)."""
        self.set_autosave(0)
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def set_autosave(self, seconds: int) -> None:
        """Save every ``seconds`` when there is something to save (0 turns it off)."""
        if seconds > 0 and not self.read_only:
            self._autosave.start(seconds * 1000)
        else:
            self._autosave.stop()

    def autosave(self) -> None:
        if self.is_dirty:
            self.save()

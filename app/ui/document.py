"""An open project as seen by the studio: the model, its undo stack, and Qt signals.

Every user edit goes through :meth:`Document.push`, which runs an undoable command from
``app.project`` and turns its :class:`~app.project.Change` into the ``changed`` signal; render
results (takes, status) are written by the render session and announced with
:meth:`Document.notify_render`. Views and item models listen to these two signals only, so
there is exactly one way the project changes under them.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, QTimer, Signal

from app.project import Change, Command, CommandStack, Project, ProjectError

log = logging.getLogger(__name__)


class Document(QObject):
    """One open project with undo/redo, dirty tracking and autosave."""

    changed = Signal(object)  # Change, after every push, undo and redo
    render_changed = Signal(object)  # frozenset of line ids whose takes/status changed
    undo_state_changed = Signal()  # can_undo/can_redo/texts/clean may differ now
    saved = Signal(str)  # the project file
    error = Signal(str)  # an edit or a save failed; the message has an error code

    def __init__(self, project: Project, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.project = project
        # Take id -> why its QA check could not run ("CODE: message"). Known to this session
        # only: the take itself is fine, and the next check (re-render, reopen) may well work.
        self.qa_errors: dict[str, str] = {}
        self.stack = CommandStack(project)
        self.stack.add_listener(self._on_change)
        self._autosave = QTimer(self)
        self._autosave.timeout.connect(self.autosave)

    # --- edits ----------------------------------------------------------------------------

    def push(self, command: Command) -> bool:
        """Run an edit; on a refused edit emit ``error`` and return False (nothing changed)."""
        try:
            self.stack.push(command)
        except ProjectError as exc:
            self.error.emit(str(exc))
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
        return not self.stack.is_clean

    def save(self) -> bool:
        """Save atomically; on failure the file on disk is untouched and ``error`` fires."""
        try:
            self.project.save()
        except (ProjectError, OSError) as exc:
            self.error.emit(str(exc))
            return False
        self._mark_saved()
        return True

    def save_after_take(self, project: Project) -> None:
        """The render session's save hook: it raises SaveError, which the session reports."""
        project.save()
        self._mark_saved()

    def _mark_saved(self) -> None:
        self.stack.mark_clean()
        self.undo_state_changed.emit()
        self.saved.emit(str(self.project.project_file))

    def set_autosave(self, seconds: int) -> None:
        """Save every ``seconds`` when there is something to save (0 turns it off)."""
        if seconds > 0:
            self._autosave.start(seconds * 1000)
        else:
            self._autosave.stop()

    def autosave(self) -> None:
        if self.is_dirty:
            self.save()

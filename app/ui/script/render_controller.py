"""Rendering from the studio: render sessions fed by the bridge's events on the GUI thread.

The project layer's :class:`~app.project.render.RenderSession` does the work (submitting, takes
on disk, statuses, progress); this controller owns the sessions the studio starts, forwards
every engine event to them, and turns their updates into document notifications and signals.
One batch runs at a time; a line played before it has a take gets its own one-line session,
so it can start while a batch is running.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication, QObject, Signal, Slot

from app.project import ProjectError, Take
from app.project.readiness import spoken_languages
from app.project.render import RenderProgress, RenderSession, RenderUpdate, select_lines
from app.ui.engine.bridge import EngineBridge
from app.ui.engine.use_notice import accept_use_notices
from app.ui.language import fill, said_error, say
from app.ui.settings.store import Settings
from app.ui.window.document import Document
from engine.core.codes import ErrorCode
from engine.core.protocol import Priority

log = logging.getLogger(__name__)

MAX_IN_FLIGHT = 16  # jobs of one batch in the engine's queue at once; auditions jump ahead


class RenderController(QObject):
    """Starts, cancels and retries renders; reports progress."""

    progress = Signal(RenderProgress)  # the batch's
    take_finished = Signal(str, Take)  # line id, the new take (written to disk and saved)
    running_changed = Signal(bool)  # a batch started or ended
    message = Signal(str)  # problems to show the user (error codes included)

    def __init__(self, document: Document, bridge: EngineBridge, settings: Settings,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self._bridge = bridge
        self._settings = settings
        self._batch: RenderSession | None = None
        self._singles: list[RenderSession] = []
        bridge.engine_event.connect(self._on_event)

    # --- state ------------------------------------------------------------------------------

    @property
    def batch(self) -> RenderSession | None:
        return self._batch

    @property
    def is_running(self) -> bool:
        return self._batch is not None and not self._batch.finished

    def job_of(self, line_id: str) -> tuple[RenderSession, str] | None:
        """The session and job currently rendering a line, to stream it while it renders."""
        for session in self._sessions():
            job_id = session.job_id_of(line_id)
            if job_id is not None:
                return session, job_id
        return None

    def _sessions(self) -> list[RenderSession]:
        return ([self._batch] if self._batch is not None else []) + self._singles

    # --- actions ------------------------------------------------------------------------------

    def render(self, line_ids: Iterable[str] | None = None, *, stale_only: bool = False) -> bool:
        """Render these lines (None: all), optionally only the stale ones; False if refused.

        Each line is fitted to its slot as its own Fit setting says (a property the line keeps,
        so a later render of any kind fits it the same way).
        """
        if self.is_running:
            self.message.emit(fill(self.tr("{code}: a batch is already running; cancel it or wait for it to finish"), code=ErrorCode.RENDER))
            return False
        session = self._new_session(line_ids, stale_only, Priority.BATCH, listening=False)
        if session is None:
            return False
        update = self._start(session)
        if update is None:
            return False
        self._batch = session
        self.running_changed.emit(True)
        self._apply(session, update)
        return True

    def render_line_now(self, line_id: str) -> str | None:
        """Render one line at once in its own session; returns its job id (None if refused)."""
        session = self._new_session([line_id], False, Priority.INTERACTIVE, listening=True)  # played as it streams
        if session is None:
            return None
        update = self._start(session)
        if update is None:
            return None
        self._singles.append(session)
        self._apply(session, update)
        return session.job_id_of(line_id)

    def _start(self, session: RenderSession) -> RenderUpdate | None:
        try:
            return session.start(self._bridge)
        except ProjectError as exc:
            self.message.emit(said_error(exc))
            return None

    def _new_session(self, line_ids: Iterable[str] | None, stale_only: bool,
                     priority: Priority, listening: bool) -> RenderSession | None:
        if not self._bridge.is_ready:
            self.message.emit(fill(self.tr("{code}: the engine is not ready yet"), code=ErrorCode.ENGINE_START))
            return None
        if self._doc.read_only:  # rendering writes takes and saves the project
            self.message.emit(fill(self.tr("{code}: the project is read-only here ({reason}); it cannot be rendered"), code=ErrorCode.PROJECT_LOCKED, reason=self._doc.read_only))
            return None
        ready = self._bridge.ready
        lines = select_lines(self._doc.project, line_ids, stale_only=stale_only)
        if ready is not None and not accept_use_notices(self._settings, ready.backend.name,
                                                        spoken_languages(self._doc.project, lines)):
            self.message.emit(self.tr("Nothing rendered: the voice was not accepted. Choose another speech backend "
                                      "in Settings › Voices engine, or accept its notice at the next render"))
            return None
        return RenderSession(
            self._doc.project,
            line_ids,
            stale_only=stale_only,
            save=self._doc.save_after_take,
            max_in_flight=MAX_IN_FLIGHT,
            priority=priority,
            listening=listening,
        )

    def cancel(self) -> None:
        if self._batch is not None and not self._batch.finished:
            self._apply(self._batch, self._batch.cancel())

    def retry_failed(self) -> bool:
        """Queue the last batch's failed lines again; False when there are none."""
        batch = self._batch
        if batch is None or not batch.failed_lines:
            self.message.emit(self.tr("Nothing to retry: the last render has no failed lines"))
            return False
        was_running = self.is_running
        self._apply(batch, batch.retry_failed())
        if not was_running and self.is_running:
            self.running_changed.emit(True)
        return True

    def detach(self) -> None:
        """Stop listening to the engine (the document is closing)."""
        self._bridge.engine_event.disconnect(self._on_event)

    # --- events -------------------------------------------------------------------------------

    @Slot(object)
    def _on_event(self, event: object) -> None:
        for session in self._sessions():
            update = session.handle_event(event)  # type: ignore[arg-type]
            if update:
                self._apply(session, update)

    def _apply(self, session: RenderSession, update: RenderUpdate) -> None:
        if update.lines:
            self._doc.notify_render(update.lines)
        for line_id, take in update.takes:
            self.take_finished.emit(line_id, take)
        for error in update.errors:
            self.message.emit(say(error))  # a phrase would lose its template in the signal
        if session is self._batch:
            self.progress.emit(update.progress)
            if update.finished:
                self.running_changed.emit(False)
        elif update.finished and session in self._singles:
            self._singles.remove(session)


def progress_bar_text(progress: RenderProgress) -> str:
    """What the bar itself says: lines rendered, then any that failed or were cancelled.

    The bar fills with the lines that were worked on (rendered or failed), never with the
    cancelled ones, so a cancelled batch reads "3 of 6 rendered · 3 cancelled", not "6 / 6".
    """
    parts = [fill(QCoreApplication.translate("RenderController", "{done} of {total} rendered"), done=progress.done, total=progress.total)]
    if progress.failed:
        parts.append(fill(QCoreApplication.translate("RenderController", "{count} failed"), count=progress.failed))
    if progress.cancelled:
        parts.append(fill(QCoreApplication.translate("RenderController", "{count} cancelled"), count=progress.cancelled))
    return " · ".join(parts)


def format_eta(progress: RenderProgress) -> str:
    """The label beside the bar (which has the counts): time left, or how the batch ended."""
    if progress.completed >= progress.total:
        ended = QCoreApplication.translate("RenderController", "Cancelled after {time}") if progress.cancelled else QCoreApplication.translate("RenderController", "Finished in {time}")
        return fill(ended, time=_duration(progress.elapsed_s))
    if progress.eta_s is None:
        return QCoreApplication.translate("RenderController", "estimating time left…")
    return fill(QCoreApplication.translate("RenderController", "about {time} left"), time=_duration(progress.eta_s))


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return fill(QCoreApplication.translate("RenderController", "{seconds} s"), seconds=seconds)
    minutes, secs = divmod(seconds, 60)
    return fill(QCoreApplication.translate("RenderController", "{minutes} min {seconds:02d} s"), minutes=minutes, seconds=secs)

"""Playback from the studio: takes, A/B comparisons, lines streamed while they render, and
auditions of a character's voice, all through the window's one :class:`Player`.

The controller lives as long as the window. It feeds the player the bridge's audio chunks for
whatever streams, ends a stream when its job ends (saying why when the one playing failed), and
passes on the player's one notice that there is no audio device. What it plays comes from the
open project's document, which each call names.
"""

from __future__ import annotations

import numpy as np
import soundfile as sf
from PySide6.QtCore import QObject, Signal

from app.project import LineStatus, ProjectError
from app.project.render import NoVoice, voice_spec
from app.ui.engine.bridge import EngineBridge
from app.ui.engine.use_notice import accept_use_notices
from app.ui.language import fill, said_error, shown_message
from app.ui.playback.player import Player, read_mono
from app.ui.script.render_controller import RenderController
from app.ui.settings.store import Settings
from app.ui.window.document import Document
from engine.core.codes import ErrorCode
from engine.core.languages import line_language
from engine.core.protocol import AudioChunk, Job, JobFailed, JobFinished, Priority

AB_PAUSE_S = 0.6  # between the two takes of an A/B: long enough to hear where one ends
STREAM_RATE = 22050  # a stream's rate until the engine has said its own
UNREADABLE = (sf.LibsndfileError, RuntimeError, OSError, ProjectError)  # what reading a take may raise


class PlaybackController(QObject):
    """Plays takes and streams; reports through ``message``."""

    message = Signal(str, int)  # for the status bar: the text, how long it shows (0: until the next)

    def __init__(self, player: Player, bridge: EngineBridge, settings: Settings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.player = player
        self._bridge = bridge
        self._settings = settings
        player.device_missing.connect(self._on_device_missing)
        bridge.chunk.connect(self._on_chunk)
        bridge.job_finished.connect(self._on_job_end)
        bridge.job_failed.connect(self._on_job_end)

    def play_line(self, document: Document, renders: RenderController, line_id: str) -> None:
        """Play the line's chosen take, or stream it while it renders (rendering it if needed)."""
        project = document.project
        line = project.line(line_id)
        rendering = renders.job_of(line_id)
        if rendering is not None:
            session, job_id = rendering
            chunks = session.chunks_of(line_id)
            if not chunks and line.status is LineStatus.QUEUED:  # the transport would read "0.0 / 0.0 s"
                self.message.emit(self.tr("Line %1 waits for its turn in the render; it plays as soon as its "
                                          "first audio arrives").replace("%1", str(project.order_of(line_id))), 0)
            self._stream(job_id, chunks)
            return
        take = project.chosen_take(line)
        if take is not None:
            self.play_take(document, line_id, take.id)
            return
        if line.status is LineStatus.FAILED and line.error:
            self.message.emit(fill(self.tr("Line {order} failed last time: {error}; rendering it again"), order=project.order_of(line_id), error=shown_message(line.error)), 0)
        new_job = renders.render_line_now(line_id)
        if new_job is not None:
            self._stream(new_job, [])

    def play_take(self, document: Document, line_id: str, take_id: str) -> None:
        project = document.project
        take = project.take(project.line(line_id), take_id)
        try:
            pcm, rate = read_mono(project.take_path(take))
        except UNREADABLE as exc:
            self.message.emit(fill(self.tr("{code}: cannot play {path}: {error}"), code=ErrorCode.TAKE_UNREADABLE, path=take.path, error=said_error(exc)), 15000)
            return
        self.player.play(f"take:{take.id}", pcm, rate)

    def compare_takes(self, document: Document, line_id: str, take_a: str, take_b: str) -> bool:
        """A/B: play one take, a short pause, then the other, as one clip (Stop ends it)."""
        project = document.project
        line = project.line(line_id)
        takes = [project.take(line, take_id) for take_id in (take_a, take_b)]
        try:
            (a, rate), (b, rate_b) = (read_mono(project.take_path(take)) for take in takes)
        except UNREADABLE as exc:
            self.message.emit(fill(self.tr("{code}: cannot compare the takes of line {order}: {error}"), code=ErrorCode.TAKE_UNREADABLE, order=project.order_of(line_id), error=said_error(exc)), 0)
            return False
        if rate_b != rate:
            self.message.emit(fill(self.tr("{code}: the takes of line {order} have different sample rates ({rate} and "
                                      "{rate_b} Hz); play them one by one"), code=ErrorCode.TAKE_UNREADABLE, order=project.order_of(line_id), rate=rate, rate_b=rate_b), 0)
            return False
        numbers = [[t.id for t in line.takes].index(take.id) + 1 for take in takes]
        self.player.play(f"ab:{take_a}:{take_b}", np.concatenate([a, np.zeros(int(AB_PAUSE_S * rate), a.dtype), b]), rate)
        self.message.emit(fill(self.tr("A/B: take {a} (in use), then take {b}"), a=numbers[0], b=numbers[1]), 8000)
        return True

    def audition(self, document: Document, character_id: str, text: str) -> str | None:
        """Speak ``text`` in a character's voice now (interactive priority), streaming it;
        returns the key it plays under (its job id), None when it cannot start."""
        if not self._bridge.is_ready:
            self.message.emit(fill(self.tr("{code}: the engine is not ready yet"), code=ErrorCode.ENGINE_START), 8000)
            return None
        try:
            spec = voice_spec(document.project, character_id)
        except NoVoice as exc:
            self.message.emit(said_error(exc), 15000)
            return None
        ready = self._bridge.ready
        language = line_language(spec.settings.language, text)
        if ready is not None and not accept_use_notices(self._settings, ready.backend.name, [language]):
            self.message.emit(self.tr("Not auditioned: the voice was not accepted"), 8000)
            return None
        job = Job(text=text, voice=spec, priority=Priority.INTERACTIVE, listening=True)  # played as it streams
        self._bridge.submit(job)
        self._stream(job.job_id, [])
        return job.job_id

    def _stream(self, job_id: str, chunks: list[np.ndarray]) -> None:
        ready = self._bridge.ready
        rate = ready.backend.sample_rate if ready is not None else STREAM_RATE
        self.player.begin_stream(job_id, rate)
        for pcm in chunks:
            self.player.feed(job_id, pcm, rate)

    def _on_chunk(self, chunk: AudioChunk) -> None:
        self.player.feed(chunk.job_id, chunk.pcm, chunk.sample_rate)

    def _on_job_end(self, event: JobFinished | JobFailed) -> None:
        if isinstance(event, JobFailed):
            if event.resubmitted:
                self.player.restart_stream(event.job_id)
                return
            if event.job_id == self.player.playing_key:
                self.message.emit(f"{event.code.value}: {event.message}", 15000)
        self.player.end_stream(event.job_id)

    def _on_device_missing(self, notice: str) -> None:
        self.message.emit(notice, 0)

"""Hearing the original: a stretch of the video's own audio (a line's slot, a clip candidate)
played through the window's one :class:`Player`, as Subtitle Edit plays a subtitle's stretch.

The stretch is decoded off the GUI thread (:func:`app.project.transcription.original_audio`,
PyAV through the hearing layer's decoder) and played under a key of its own, so whoever asked
can show what plays: :class:`OriginalAudio` says ``changed(key)`` when one of its stretches
starts or stops, and asking for the stretch that plays stops it (Play turns into Stop). With no
audio device the player plays silently in real time, as it does for takes, and
:meth:`OriginalAudio.silent_notice` says so for a dialog to show.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Signal

from app.project import Project, ProjectError
from app.project.transcription import line_span, original_audio
from app.ui.language import fill, said_error
from app.ui.playback.player import Player
from app.ui.tasks import TaskRunner
from engine.core.codes import ErrorCode


class OriginalAudio(QObject):
    """Plays stretches of a project's original audio and says which of them plays."""

    changed = Signal(str)  # the key of this object's stretch that plays now, "" when none does
    failed = Signal(str)  # why a stretch cannot be heard, with its code

    def __init__(self, player: Player, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.player = player
        self._runner = runner
        self._wanted = ""  # the stretch asked for last, being decoded or playing
        self._open = True  # False once its owner closed: a stretch decoded after that is not played
        player.started.connect(self._on_started)
        player.stopped.connect(self._on_stopped)

    @property
    def playing(self) -> str:
        """The key of the stretch this object plays now; "" when none."""
        return self._wanted if self._wanted and self.player.playing_key == self._wanted else ""

    def toggle(self, project: Project, key: str, start: float, end: float) -> None:
        """Play ``start``-``end`` s of the project's video under ``key``; stop it when it plays."""
        if self.playing == key:
            self.player.stop()
            return
        self._wanted = key

        def heard(cut: tuple[np.ndarray, int]) -> None:
            if self._wanted != key:
                return  # something else was asked for while this one was decoded
            pcm, rate = cut
            if not len(pcm):
                self._wanted = ""
                self.failed.emit(fill(self.tr("{code}: the video's audio ends before {start:.1f} s: nothing to hear "
                                         "there"), code=ErrorCode.NO_AUDIO_STREAM.value, start=start))
                return
            self.player.play(key, pcm, rate)

        def refused(error: BaseException) -> None:
            if self._wanted == key:
                self._wanted = ""
            self.failed.emit(said_error(error))

        self._runner.run(lambda: original_audio(project, start, end), heard, refused, alive=lambda: self._open)

    def toggle_line(self, project: Project, line_id: str) -> str | None:
        """Play (or stop) the line's stretch of the original; its key, None when it has none
        (``failed`` says why)."""
        try:
            start, end = line_span(project, line_id)
        except ProjectError as error:
            self.failed.emit(said_error(error))
            return None
        key = self.line_key(line_id)
        self.toggle(project, key, start, end)
        return key

    @staticmethod
    def line_key(line_id: str) -> str:
        return f"original:{line_id}"

    def close(self) -> None:
        """Its owner closes: stop this object's stretch (nothing else that plays), and play none
        decoded after this."""
        if not self._open:
            return
        self._open = False
        if self.playing:
            self.player.stop()
        self._wanted = ""
        self.player.started.disconnect(self._on_started)
        self.player.stopped.disconnect(self._on_stopped)

    def silent_notice(self) -> str:
        """What to say when nothing can be heard (no audio output device); "" when there is one."""
        if self.player.check_output().is_real:
            return ""
        return self.tr("No audio output device: the original plays silently (the time still runs).")

    def _on_started(self, key: str) -> None:
        if key == self._wanted:
            self.changed.emit(key)

    def _on_stopped(self, key: str) -> None:
        if key == self._wanted:
            self._wanted = ""
            self.changed.emit("")


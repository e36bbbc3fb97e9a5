"""The timeline's transport: play the dub from the playhead, pause, shuttle (J/K/L), seek.

Audio is the clock. The transport streams the :class:`~app.ui.timeline.programme.Programme`
into the studio's one :class:`~app.ui.playback.player.Player` in short blocks, a quarter of a second
ahead of what the sound card has taken, and reads the time back from the frames the card has
consumed; the playhead and the video follow that, never a timer of their own. So the picture
cannot drift from the sound, and when the machine stalls both wait together.

Blocks are made on the GUI thread by the display tick (:meth:`tick`); the audio callback only
copies from the player's ring buffer. Changing speed or direction restarts the stream at the
current time, so what is queued never plays at the old speed.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from app.ui.playback.player import Player
from app.ui.timeline.programme import Programme
from engine.core.numbers import Range

SHUTTLE_SPEEDS = (1.0, 2.0, 4.0, 8.0)  # each J or L press doubles, as in video editors
# The original audio's level under the dub while the timeline plays (its slider; the export
# follows the project settings): by default audible for timing, never in the way; the lowest is off.
DEFAULT_GUIDE_DB = -12
GUIDE_LEVEL_DB = Range("guide level", -40, 6, whole=True, unit="dB", hint="(-40 = off)", default=DEFAULT_GUIDE_DB)


def guide_gain(db: float) -> float:
    """The linear gain of a guide level (its lowest: silence)."""
    return 0.0 if db <= GUIDE_LEVEL_DB.low else float(10 ** (db / 20))


class Transport(QObject):
    """Play/pause/shuttle/seek over a programme, reporting the time heard."""

    changed = Signal()  # started, paused, changed speed, or reached an end
    KEY = "timeline"  # what the player shows as playing
    BLOCK_S = 0.05
    AHEAD_S = 0.25  # what is queued beyond the sound card: a level change is heard this late at most

    def __init__(self, player: Player, programme: Programme, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._player = player
        self._programme = programme
        self._position = 0.0  # the time while paused
        self._speed = 0.0  # 0 = paused; negative = backwards
        self._origin = 0.0  # programme time where the current stream began
        self._fed = 0  # frames handed to the player in this stream
        self._ended = False
        self._restarting = False
        self._end_s = 0.0
        self.guide_gain = guide_gain(DEFAULT_GUIDE_DB)  # linear gain of the original audio under the dub
        player.stopped.connect(self._on_player_stopped)

    # --- state ------------------------------------------------------------------------------

    @property
    def playing(self) -> bool:
        return self._speed != 0.0

    @property
    def speed(self) -> float:
        return self._speed

    @property
    def end_s(self) -> float:
        return self._end_s

    def set_end(self, seconds: float) -> None:
        """How long the programme is (the video, or the last line): playing stops there."""
        self._end_s = max(0.0, seconds)
        if not self.playing:
            self._position = min(self._position, self._end_s)

    @property
    def position(self) -> float:
        """The time being heard (or the playhead, when paused)."""
        if not self.playing or self._player.playing_key != self.KEY:
            return self._position
        return self._clamp(self._origin + self._speed * self._player.position_s)

    def _clamp(self, seconds: float) -> float:
        return min(max(0.0, seconds), self._end_s)

    # --- commands ---------------------------------------------------------------------------

    def play(self, speed: float = 1.0) -> None:
        """Play from the playhead at ``speed`` (from the start again when at the end)."""
        here = self.position
        if speed > 0 and here >= self._end_s - 1e-3:
            here = 0.0
        self._start(here, speed)

    def pause(self) -> None:
        if not self.playing:
            return
        self._position = self.position
        self._speed = 0.0
        self._restarting = True
        try:
            self._player.stop()
        finally:
            self._restarting = False
        self.changed.emit()

    def toggle(self) -> None:
        """Space: pause when playing (at any speed), else play forward at 1×."""
        if self.playing:
            self.pause()
        else:
            self.play(1.0)

    def shuttle_forward(self) -> None:
        """L: play forward; each further press doubles the speed (up to 8×)."""
        self.play(self._next_speed(+1))

    def shuttle_backward(self) -> None:
        """J: play backwards; each further press doubles the speed (up to 8×)."""
        self.play(self._next_speed(-1))

    def _next_speed(self, direction: int) -> float:
        current = abs(self._speed) if self._speed * direction > 0 else 0.0
        faster = next((s for s in SHUTTLE_SPEEDS if s > current), SHUTTLE_SPEEDS[-1])
        return direction * faster

    def seek(self, seconds: float) -> None:
        """Move the playhead; playing goes on from there."""
        target = self._clamp(seconds)
        if self.playing:
            self._start(target, self._speed)
        else:
            self._position = target

    # --- streaming --------------------------------------------------------------------------

    def _start(self, position: float, speed: float) -> None:
        self._restarting = True  # begin_stream stops our own previous stream first
        try:
            self._player.begin_stream(self.KEY, self._programme.rate)
        finally:
            self._restarting = False
        self._origin, self._speed, self._fed, self._ended = position, speed, 0, False
        self._position = position
        self.tick()
        self.changed.emit()

    def tick(self) -> None:
        """Keep :data:`AHEAD_S` of audio queued (the display timer calls this)."""
        if not self.playing or self._player.playing_key != self.KEY:
            return
        rate = self._programme.rate
        block = int(self.BLOCK_S * rate)
        while not self._ended and self._fed / rate - self._player.position_s < self.AHEAD_S:
            here = self._origin + self._speed * self._fed / rate
            left_s = (self._end_s - here) if self._speed > 0 else here  # programme time to the end
            frames = block
            if left_s <= block * abs(self._speed) / rate:
                frames = max(0, int(left_s / abs(self._speed) * rate))
                self._ended = True
            if frames:
                pcm = self._programme.block(here, frames, self._speed, self.guide_gain)
                self._player.feed(self.KEY, pcm, rate)
                self._fed += frames
            if self._ended:
                self._player.end_stream(self.KEY)  # stops once what is queued has been heard

    def _on_player_stopped(self, key: str) -> None:
        """The stream ended (at an end of the programme) or something else took the player."""
        if key != self.KEY or self._restarting or not self.playing:
            return
        self._position = self._clamp(self._origin + self._speed * self._player.position_s)
        self._speed = 0.0
        self.changed.emit()

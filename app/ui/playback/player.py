"""Streamed playback: engine chunks (or a take's samples) into a ring buffer, out to a device.

The audio callback runs on PortAudio's thread at a deadline, so it only copies from a
preallocated ring buffer and counts frames; everything else (resampling, queueing chunks,
moving the playhead) happens on the GUI thread, driven by one timer (Friture's pattern). The
ring buffer has a single writer (the GUI thread) and a single reader (the callback); each side
only advances its own index, so no lock is needed.

When there is no output device (no PortAudio, no device, as in CI) the player says so once
through ``device_missing`` and plays into a :class:`ClockOutput` that consumes audio in real
time, so the playhead, the stop button and streamed rendering all behave the same.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Protocol

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal, Slot

from engine.core.audio_io import read_audio, resample

log = logging.getLogger(__name__)

Callback = Callable[[np.ndarray, int], None]  # (out buffer of shape (frames, 1), frames)


class RingBuffer:
    """A fixed float32 ring with one writer thread and one reader thread.

    ``_write`` and ``_read`` only grow; each is written by one side only, and Python's int
    assignment is atomic, so the reader never sees a half-updated index.
    """

    def __init__(self, capacity: int) -> None:
        self._buf = np.zeros(capacity, dtype=np.float32)
        self._cap = capacity
        self._write = 0
        self._read = 0

    @property
    def capacity(self) -> int:
        return self._cap

    def available(self) -> int:
        """Frames written but not yet read."""
        return self._write - self._read

    def space(self) -> int:
        return self._cap - self.available()

    def write(self, data: np.ndarray) -> int:
        """Copy as much of ``data`` as fits; returns the frames written (writer side only)."""
        n = min(len(data), self.space())
        if n <= 0:
            return 0
        start = self._write % self._cap
        first = min(n, self._cap - start)
        self._buf[start : start + first] = data[:first]
        self._buf[: n - first] = data[first:n]
        self._write += n
        return n

    def read_into(self, out: np.ndarray) -> int:
        """Fill ``out`` from the ring, zero the rest; returns the frames read (reader side only)."""
        n = min(len(out), self.available())
        start = self._read % self._cap
        first = min(n, self._cap - start)
        out[:first] = self._buf[start : start + first]
        out[first:n] = self._buf[: n - first]
        out[n:] = 0.0
        self._read += n
        return n

    def clear(self) -> None:
        """Drop unread frames. Only call while no reader is running (stream stopped)."""
        self._read = self._write


class OutputStream(Protocol):
    def start(self) -> None: ...
    def stop(self) -> None: ...
    def close(self) -> None: ...


class AudioOutput(Protocol):
    """Opens a mono float32 output stream that calls ``callback`` for each block it needs."""

    name: str
    is_real: bool

    def open(self, sample_rate: int, callback: Callback) -> OutputStream: ...


@dataclass(frozen=True)
class DeviceInfo:
    index: int
    name: str
    default_rate: int


def _sounddevice() -> ModuleType | None:
    """The sounddevice module, or None when PortAudio itself is missing."""
    try:
        import sounddevice
    except OSError:  # "PortAudio library not found"
        return None
    return sounddevice


def list_devices(kind: str) -> list[DeviceInfo]:
    """Devices with ``kind`` ("output" or "input") channels; empty when audio is unavailable."""
    sd = _sounddevice()
    if sd is None:
        return []
    key = "max_output_channels" if kind == "output" else "max_input_channels"
    try:
        devices = sd.query_devices()
    except Exception:  # noqa: BLE001 - PortAudio errors differ by host API; no devices is the honest answer
        return []
    return [
        DeviceInfo(i, str(d["name"]), int(d["default_samplerate"]))
        for i, d in enumerate(devices)
        if int(d.get(key, 0)) > 0
    ]


def has_input_device() -> bool:
    return bool(list_devices("input"))


class SoundDeviceOutput:
    """A real device through sounddevice (PortAudio)."""

    is_real = True

    def __init__(self, device: DeviceInfo) -> None:
        self._device = device
        self.name = device.name

    def open(self, sample_rate: int, callback: Callback) -> OutputStream:
        import sounddevice as sd

        def _cb(outdata: np.ndarray, frames: int, _time: object, _status: object) -> None:
            callback(outdata, frames)

        stream: OutputStream = sd.OutputStream(
            samplerate=sample_rate, channels=1, dtype="float32", device=self._device.index, callback=_cb
        )
        return stream


class _ClockStream:
    """Pulls audio at real-time speed from a GUI timer, like a sound card with no speaker."""

    def __init__(self, sample_rate: int, callback: Callback) -> None:
        self._rate = sample_rate
        self._callback = callback
        self._timer = QTimer()
        self._timer.setInterval(20)
        self._timer.timeout.connect(self._tick)
        self._last = 0.0
        self._block = np.zeros((0, 1), dtype=np.float32)

    def start(self) -> None:
        self._last = time.monotonic()
        self._timer.start()

    def _tick(self) -> None:
        now = time.monotonic()
        frames = int((now - self._last) * self._rate)
        if frames <= 0:
            return
        self._last += frames / self._rate
        if len(self._block) < frames:
            self._block = np.zeros((frames, 1), dtype=np.float32)
        self._callback(self._block[:frames], frames)

    def stop(self) -> None:
        self._timer.stop()

    def close(self) -> None:
        self._timer.stop()


class ClockOutput:
    """No device: audio is consumed (and discarded) in real time so playback still 'runs'."""

    is_real = False
    name = "no output device"

    def open(self, sample_rate: int, callback: Callback) -> OutputStream:
        return _ClockStream(sample_rate, callback)


class _ManualStream:
    def __init__(self, owner: NullOutput, callback: Callback) -> None:
        self._owner = owner
        self._callback = callback
        self.running = False

    def start(self) -> None:
        self.running = True

    def stop(self) -> None:
        self.running = False

    def close(self) -> None:
        self.running = False
        if self._owner.stream is self:
            self._owner.stream = None


class NullOutput:
    """For tests: nothing is played until the test calls :meth:`pull`, which runs the callback.

    Pulled samples are kept in ``played`` so a test can check exactly what would have sounded.
    """

    is_real = False
    name = "null"

    def __init__(self) -> None:
        self.stream: _ManualStream | None = None
        self.sample_rate = 0
        self.played: list[np.ndarray] = []

    def open(self, sample_rate: int, callback: Callback) -> OutputStream:
        self.sample_rate = sample_rate
        self.stream = _ManualStream(self, callback)
        return self.stream

    def pull(self, frames: int) -> np.ndarray:
        """Run the audio callback for ``frames`` frames (as the device thread would)."""
        out = np.zeros((frames, 1), dtype=np.float32)
        if self.stream is not None and self.stream.running:
            self.stream._callback(out, frames)
            self.played.append(out[:, 0].copy())
        return out[:, 0]


def default_output(device_name: str = "") -> AudioOutput | None:
    """The configured output device (by name), the first one, or None when there is none."""
    devices = list_devices("output")
    if not devices:
        return None
    chosen = next((d for d in devices if d.name == device_name), devices[0])
    return SoundDeviceOutput(chosen)


class Player(QObject):
    """Plays one thing at a time: a whole array, or a stream of engine chunks for one job.

    Signals: ``started(str)`` with the id of what plays, ``position(float)`` seconds heard so
    far, ``stopped(str)`` when it ends or is stopped, ``device_missing(str)`` once.
    """

    started = Signal(str)
    position = Signal(float)
    stopped = Signal(str)
    device_missing = Signal(str)

    RING_SECONDS = 4.0  # what the callback can reach; the rest waits in ``_pending``
    TICK_MS = 30

    def __init__(self, output: AudioOutput | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._output: AudioOutput | None = output
        self._missing_reported = False
        self._stream: OutputStream | None = None
        self._ring: RingBuffer | None = None
        self._pending: deque[np.ndarray] = deque()
        self._rate = 0
        self._key = ""
        self._open_ended = False  # a stream still receiving chunks
        self._played = 0  # frames the callback has consumed (written by the callback only)
        self._queued = 0  # frames handed to the player for this item
        self._timer = QTimer(self)
        self._timer.setInterval(self.TICK_MS)
        self._timer.timeout.connect(self._tick)

    # --- device -------------------------------------------------------------------------------

    def set_output(self, output: AudioOutput | None) -> None:
        self.stop()
        self._output = output

    def check_output(self) -> AudioOutput:
        """The output to play into; says once (``device_missing``) when there is no device."""
        if self._output is None:
            self._output = ClockOutput()
        if isinstance(self._output, ClockOutput) and not self._missing_reported:
            self._missing_reported = True
            self.device_missing.emit(self.tr("No audio output device: playback is silent (rendering still works)."))
        return self._output

    # --- state --------------------------------------------------------------------------------

    @property
    def playing_key(self) -> str:
        """What plays now ("" when idle): a job id, a take path, a voice id."""
        return self._key

    @property
    def sample_rate(self) -> int:
        return self._rate

    @property
    def position_s(self) -> float:
        return self._played / self._rate if self._rate else 0.0

    @property
    def queued_s(self) -> float:
        return self._queued / self._rate if self._rate else 0.0

    # --- playing ------------------------------------------------------------------------------

    def play(self, key: str, pcm: np.ndarray, sample_rate: int) -> None:
        """Play a whole array (a take, a reference clip)."""
        self._begin(key, sample_rate, open_ended=False)
        self._enqueue(pcm)
        self._tick()

    def begin_stream(self, key: str, sample_rate: int) -> None:
        """Start a stream that :meth:`feed` fills; it ends after :meth:`end_stream` drains."""
        self._begin(key, sample_rate, open_ended=True)

    def feed(self, key: str, pcm: np.ndarray, sample_rate: int) -> None:
        """Add a chunk to the stream ``key`` (ignored when something else plays now)."""
        if key != self._key:
            return
        if sample_rate != self._rate:
            pcm = resample(pcm, sample_rate, self._rate)
        self._enqueue(pcm)
        self._tick()

    def end_stream(self, key: str) -> None:
        """No more chunks for ``key``: stop once what was queued has been heard."""
        if key == self._key:
            self._open_ended = False
            self._tick()

    def restart_stream(self, key: str) -> None:
        """The engine restarted this job from its first chunk: drop what was not heard yet."""
        if key != self._key or self._stream is None:
            return
        self._stream.stop()
        self._pending.clear()
        assert self._ring is not None
        self._ring.clear()
        self._queued = self._played
        self._stream.start()

    def stop(self) -> None:
        """Stop now; emits ``stopped`` for what was playing."""
        if not self._key:
            return
        key = self._key
        self._close_stream()
        self.position.emit(self.position_s)
        self.stopped.emit(key)

    # --- internals ----------------------------------------------------------------------------

    def _begin(self, key: str, sample_rate: int, open_ended: bool) -> None:
        self.stop()
        output = self.check_output()
        self._key = key
        self._rate = sample_rate
        self._open_ended = open_ended
        self._played = 0
        self._queued = 0
        self._pending.clear()
        self._ring = RingBuffer(max(1024, int(self.RING_SECONDS * sample_rate)))
        try:
            self._stream = output.open(sample_rate, self._callback)
            self._stream.start()
        except Exception as exc:  # noqa: BLE001 - a device that refuses the format: fall back to silence
            log.warning("audio output failed (%s); playing silently", exc)
            self._output = ClockOutput()
            self._missing_reported = False
            self.check_output()
            self._stream = self._output.open(sample_rate, self._callback)
            self._stream.start()
        self._timer.start()
        self.started.emit(key)

    def _enqueue(self, pcm: np.ndarray) -> None:
        data = np.ascontiguousarray(pcm, dtype=np.float32).reshape(-1)
        if len(data):
            self._pending.append(data)
            self._queued += len(data)

    def _callback(self, out: np.ndarray, frames: int) -> None:
        # Audio thread: copy only.
        ring = self._ring
        if ring is None:
            out.fill(0.0)
            return
        self._played += ring.read_into(out[:, 0])

    def _close_stream(self) -> None:
        self._timer.stop()
        if self._stream is not None:
            try:
                self._stream.stop()
                self._stream.close()
            except Exception:  # the device vanished mid-play; we are stopping anyway
                log.exception("closing the audio stream failed")
        self._stream = None
        self._ring = None
        self._pending.clear()
        self._key = ""
        self._open_ended = False

    @Slot()
    def _tick(self) -> None:
        """GUI thread: top up the ring, move the playhead, notice the end."""
        ring = self._ring
        if ring is None:
            return
        while self._pending and ring.space() > 0:
            head = self._pending[0]
            n = ring.write(head)
            if n < len(head):
                self._pending[0] = head[n:]
                break
            self._pending.popleft()
        self.position.emit(self.position_s)
        if not self._open_ended and not self._pending and ring.available() == 0 and self._played >= self._queued:
            self.stop()


def read_mono(path: Path) -> tuple[np.ndarray, int]:
    """A sound file as float32 mono samples and its rate, ready for :meth:`Player.play`."""
    return read_audio(path)  # a pipe is refused, never waited on

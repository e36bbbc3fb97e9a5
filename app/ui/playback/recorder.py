"""Recording a reference clip from a microphone (only offered when an input device exists).

The input callback runs on PortAudio's thread and only appends a copy of each block to a list
(list.append is atomic under the GIL); joining, level checks and writing happen on the GUI
thread after :meth:`Recorder.stop`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import numpy as np

from app.project.fsutil import atomic_write_wav
from engine.core.codes import ErrorCode

RECORD_RATE = 48000


class InputStream(Protocol):
    def start(self) -> None: ...
    def stop(self) -> None: ...
    def close(self) -> None: ...


StreamFactory = Callable[[int, Callable[[np.ndarray], None]], InputStream]


def _sounddevice_input(sample_rate: int, on_block: Callable[[np.ndarray], None]) -> InputStream:
    import sounddevice as sd

    def callback(indata: np.ndarray, _frames: int, _time: object, _status: object) -> None:
        on_block(indata[:, 0].copy())

    return sd.InputStream(samplerate=sample_rate, channels=1, dtype="float32", callback=callback)


class Recorder:
    """Start, stop, get the take as a WAV file."""

    def __init__(self, open_stream: StreamFactory = _sounddevice_input, sample_rate: int = RECORD_RATE) -> None:
        self._open = open_stream
        self.sample_rate = sample_rate
        self._blocks: list[np.ndarray] = []
        self._stream: InputStream | None = None

    @property
    def recording(self) -> bool:
        return self._stream is not None

    def start(self) -> None:
        self._blocks = []
        self._stream = self._open(self.sample_rate, self._blocks.append)
        self._stream.start()

    def stop(self) -> np.ndarray:
        """Stop and return what was recorded (mono float32)."""
        stream, self._stream = self._stream, None
        if stream is not None:
            stream.stop()
            stream.close()
        return np.concatenate(self._blocks) if self._blocks else np.zeros(0, dtype=np.float32)

    def stop_to_file(self, path: Path) -> Path:
        """Stop and write the recording as a WAV at ``path``; raises ValueError when silent."""
        audio = self.stop()
        if audio.size < self.sample_rate // 2 or float(np.abs(audio).max(initial=0.0)) < 1e-3:
            raise ValueError(f"{ErrorCode.CLIP_SILENT}: the recording is empty or silent; check the microphone")
        atomic_write_wav(path, audio, self.sample_rate)
        return path

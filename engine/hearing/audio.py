"""A recording's audio as hearing takes it: 16 kHz mono, decoded block by block or in windows.

A two-hour video never sits in memory decoded: :func:`audio_windows` holds about four minutes at
a time, each window cut in a quiet moment so no word is split between two.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core.audio_io import AudioError, AudioStream
from engine.core.codes import ErrorCode
from engine.core.files import FileError
from engine.core.silence import quiet_cut
from engine.hearing import HearingError

SAMPLE_RATE = 16000  # what Whisper and the GE2E encoder both take
WINDOW_S = 240.0  # decoded audio held at once: 15 MiB of float32
WINDOW_CUT_SEARCH_S = 30.0  # a window ends in the quietest moment of its last 30 s


@dataclass(frozen=True)
class AudioWindow:
    start_s: float
    audio: np.ndarray  # float32 mono at SAMPLE_RATE


def probe_audio(path: Path, stream_index: int | None) -> float:
    """The duration of the audio stream (for progress); E_NO_AUDIO_STREAM / E_AUDIO_UNREADABLE."""
    with _open_stream(path, stream_index) as stream:
        return stream.duration_s or 0.0


def _open_stream(path: Path, stream_index: int | None) -> AudioStream:
    """The recording's audio stream, or a coded error."""
    try:
        return AudioStream(path, stream_index)
    except AudioError as error:
        if error.no_stream:
            raise HearingError(ErrorCode.NO_AUDIO_STREAM, f"{error}: there is no dialogue to transcribe") from None
        raise HearingError(ErrorCode.AUDIO_UNREADABLE, f"cannot read {path.name}: {error}") from error
    except FileError as error:
        raise HearingError(ErrorCode.AUDIO_UNREADABLE, error.message) from None


def decode_blocks(path: Path, stream_index: int | None, rate: int | None = None,
                  cancel: threading.Event | None = None, start_s: float = 0.0) -> Iterator[tuple[int, np.ndarray]]:
    """(rate, mono float32 block) in order from ``start_s``, resampled to ``rate`` (default: the
    stream's own)."""
    with _open_stream(path, stream_index) as stream:
        out_rate = rate or stream.sample_rate
        try:
            for block in stream.blocks(mono=True, rate=out_rate, start_s=start_s):
                if cancel is not None and cancel.is_set():
                    raise HearingError(ErrorCode.CANCELLED, "transcription cancelled")
                yield out_rate, block
        except AudioError as error:
            raise HearingError(ErrorCode.AUDIO_UNREADABLE,
                               f"cannot decode the audio of {path.name}: {error}") from error


def audio_windows(path: Path, stream_index: int | None, cancel: threading.Event | None = None,
                  window_s: float = WINDOW_S) -> Iterator[AudioWindow]:
    """The recording at 16 kHz mono, ``window_s`` at a time, each cut in a quiet moment so no
    word is split between two windows."""
    pending: list[np.ndarray] = []
    held = 0
    start = 0
    limit = int(window_s * SAMPLE_RATE)
    for _, block in decode_blocks(path, stream_index, SAMPLE_RATE, cancel):
        pending.append(block)
        held += len(block)
        if held < limit:
            continue
        audio = np.concatenate(pending)
        cut = quiet_cut(audio, SAMPLE_RATE, max(0.0, window_s - WINDOW_CUT_SEARCH_S), window_s, 20.0, frame_s=0.3)
        cut = limit if cut is None else cut
        yield AudioWindow(start / SAMPLE_RATE, audio[:cut])
        start += cut
        pending, held = [audio[cut:]], len(audio) - cut
    if held:
        yield AudioWindow(start / SAMPLE_RATE, np.concatenate(pending))

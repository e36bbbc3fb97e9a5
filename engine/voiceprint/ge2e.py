"""The GE2E speaker encoder (resemblyzer 0.1.4's ``VoiceEncoder``) without torch.

The same network and the same preprocessing, so its embeddings are resemblyzer's (cosine
≥ 0.999 on real speech, checked by tests/engine/voiceprint/test_ge2e.py against embeddings resemblyzer
computed once): the clip is resampled to 16 kHz (soxr HQ, as librosa does), raised to
-30 dBFS RMS when quieter, and its long silences cut by WebRTC's VAD; 40 mel bands of the
power spectrum (25 ms Hann window, 10 ms hop, librosa's Slaney filterbank) feed a 3-layer
LSTM of 256 units whose last hidden state goes through a linear layer, a ReLU and an L2 norm.
Partial utterances of 160 frames, 1.3 a second, are embedded in one batch and averaged.

The preprocessing is numpy; the network runs on onnxruntime (already here for Piper): its
LSTM kernel is one native call per clip, about 5x faster than the same LSTM stepped frame by
frame in numpy, and it holds the interpreter lock for none of it, where a numpy loop takes it
back hundreds of times per clip from the engine's synthesis threads (docs/ge2e.md). The weights
are resemblyzer's released ``pretrained.pt`` converted once by scripts/convert-ge2e into an
ONNX graph (data only: a protobuf, no pickle), under resources/ge2e/ with its licence.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.core.audio_io import resample
from engine.core.paths import RESOURCES
from engine.voiceprint.session import open_encoder_session

SAMPLE_RATE = 16000
WINDOW = 400  # 25 ms
HOP = 160  # 10 ms
MEL_BANDS = 40
PARTIAL_FRAMES = 160  # 1.6 s per partial utterance
PARTIALS_PER_S = 1.3
MIN_LAST_COVERAGE = 0.75  # a last partial less covered than this is dropped (unless it is the only one)
NORM_TARGET_DBFS = -30.0
VAD_WINDOW = 480  # 30 ms
VAD_AVERAGE_WINDOWS = 8  # the VAD's flags are smoothed over this many windows
VAD_MAX_SILENCE_WINDOWS = 6  # shorter gaps between voiced windows are kept
VAD_MODE = 3  # WebRTC's most aggressive
INT16_MAX = 2**15 - 1
EMBEDDING_SIZE = 256
MODEL_PATH = RESOURCES / "ge2e" / "ge2e-resemblyzer-0.1.4.onnx"
MODEL_INPUT = "mels"  # (frames, partials, 40), time first
MODEL_OUTPUT = "raw"  # (partials, 256): the ReLU's output, before the L2 norm


def slaney_mel_filters(rate: int = SAMPLE_RATE, n_fft: int = WINDOW, bands: int = MEL_BANDS) -> np.ndarray:
    """Triangular mel filters on the Slaney scale (linear to 1 kHz, logarithmic above), each
    normalised to unit area: librosa.filters.mel's defaults. Shape (bands, n_fft // 2 + 1)."""
    min_log_hz, linear_step = 1000.0, 200.0 / 3
    min_log_mel, log_step = min_log_hz / linear_step, np.log(6.4) / 27.0

    def to_mel(hz: np.ndarray) -> np.ndarray:
        return np.where(hz >= min_log_hz, min_log_mel + np.log(np.maximum(hz, min_log_hz) / min_log_hz) / log_step,
                        hz / linear_step)

    def to_hz(mel: np.ndarray) -> np.ndarray:
        return np.where(mel >= min_log_mel, min_log_hz * np.exp(log_step * (mel - min_log_mel)), mel * linear_step)

    edges = to_hz(np.linspace(to_mel(np.array(0.0)), to_mel(np.array(rate / 2.0)), bands + 2))
    bins = np.linspace(0.0, rate / 2.0, n_fft // 2 + 1)
    widths = np.diff(edges)
    ramps = edges[:, None] - bins[None, :]
    rising = -ramps[:-2] / widths[:-1, None]
    falling = ramps[2:] / widths[1:, None]
    filters: np.ndarray = np.maximum(0.0, np.minimum(rising, falling)) * (2.0 / (edges[2:] - edges[:-2]))[:, None]
    return filters.astype(np.float32)


def mel_frames(wav: np.ndarray) -> np.ndarray:
    """The mel power spectrogram resemblyzer feeds its network (not a log-mel): frames centred
    on each hop of the zero-padded audio, shape (frames, 40)."""
    padded = np.pad(np.asarray(wav, dtype=np.float32), WINDOW // 2)
    frames = np.lib.stride_tricks.sliding_window_view(padded, WINDOW)[::HOP]
    window = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(WINDOW) / WINDOW)).astype(np.float32)  # periodic Hann
    power = np.abs(np.fft.rfft(frames * window, axis=1)) ** 2
    mel_power: np.ndarray = power.astype(np.float32) @ _MEL_FILTERS.T
    return mel_power.astype(np.float32)


_MEL_FILTERS = slaney_mel_filters()


def normalize_volume(wav: np.ndarray, target_dbfs: float = NORM_TARGET_DBFS) -> np.ndarray:
    """``wav`` raised to ``target_dbfs`` RMS when it is quieter (never lowered)."""
    rms = float(np.sqrt(np.mean(np.square(wav * INT16_MAX, dtype=np.float64))))
    if rms == 0.0:
        return wav
    change_db = target_dbfs - 20.0 * np.log10(rms / INT16_MAX)
    return wav if change_db < 0 else (wav * 10.0 ** (change_db / 20.0)).astype(np.float32)


def trim_long_silences(wav: np.ndarray) -> np.ndarray:
    """``wav`` (16 kHz) without its silences longer than about 0.2 s, as WebRTC's VAD finds them
    in 30 ms windows (smoothed over 8, voiced runs widened by 6 on each side)."""
    import webrtcvad

    wav = wav[: len(wav) - len(wav) % VAD_WINDOW]
    pcm = np.round(wav * INT16_MAX).astype("<i2").tobytes()  # out-of-range samples wrap, as resemblyzer's do
    vad = webrtcvad.Vad(VAD_MODE)
    step = 2 * VAD_WINDOW
    voiced = np.array([vad.is_speech(pcm[start:start + step], SAMPLE_RATE) for start in range(0, len(pcm), step)],
                      dtype=np.float64)
    if voiced.size == 0:
        return wav
    # A moving average centred like resemblyzer's (zeros before and after), then rounded.
    padded = np.concatenate([np.zeros((VAD_AVERAGE_WINDOWS - 1) // 2), voiced, np.zeros(VAD_AVERAGE_WINDOWS // 2)])
    average = np.convolve(padded, np.ones(VAD_AVERAGE_WINDOWS) / VAD_AVERAGE_WINDOWS, mode="valid")
    mask = np.round(average).astype(bool)
    from scipy.ndimage import binary_dilation

    mask = binary_dilation(mask, np.ones(VAD_MAX_SILENCE_WINDOWS + 1))
    kept: np.ndarray = wav[np.repeat(mask, VAD_WINDOW)]
    return kept


def preprocess(audio: np.ndarray, rate: int) -> np.ndarray:
    """The 16 kHz audio the network hears: resampled, raised to -30 dBFS, long silences cut.
    When the VAD finds no voice at all, the whole (resampled, raised) clip is kept."""
    wav = normalize_volume(resample(np.asarray(audio, dtype=np.float32), rate, SAMPLE_RATE))
    trimmed = trim_long_silences(wav)
    return trimmed if len(trimmed) else wav


def partial_starts(samples: int) -> list[int]:
    """The first mel frame of each partial utterance of ``samples`` 16 kHz samples; the last one
    may reach past the end (the audio is padded with zeros to it)."""
    frames = int(np.ceil((samples + 1) / HOP))
    step = int(round(SAMPLE_RATE / PARTIALS_PER_S / HOP))
    starts = list(range(0, max(1, frames - PARTIAL_FRAMES + step + 1), step))
    coverage = (samples - starts[-1] * HOP) / (PARTIAL_FRAMES * HOP)
    if coverage < MIN_LAST_COVERAGE and len(starts) > 1:
        starts.pop()
    return starts


class Ge2eEncoder:
    """The network in an onnxruntime session; safe to call from several threads at once."""

    def __init__(self, model_path: Path = MODEL_PATH) -> None:
        # One thread: embeddings run beside synthesis, which the cores are for.
        self._session = open_encoder_session(model_path, "GE2E", 1, (MODEL_INPUT, MEL_BANDS),
                                             (MODEL_OUTPUT, EMBEDDING_SIZE))

    def embed_frames(self, mels: np.ndarray) -> np.ndarray:
        """Unit-length embeddings of a batch of partial utterances, shape (batch, frames, 40) →
        (batch, 256)."""
        time_first = np.ascontiguousarray(np.asarray(mels, dtype=np.float32).transpose(1, 0, 2))
        raw = np.asarray(self._session.run([MODEL_OUTPUT], {MODEL_INPUT: time_first})[0], dtype=np.float32)
        unit: np.ndarray = raw / np.linalg.norm(raw, axis=1, keepdims=True)
        return unit

    def embed_preprocessed(self, wav: np.ndarray) -> np.ndarray:
        """The utterance embedding of preprocessed 16 kHz audio: its partials' embeddings
        averaged and normalised to unit length."""
        starts = partial_starts(len(wav))
        end = (starts[-1] + PARTIAL_FRAMES) * HOP
        mel = mel_frames(np.pad(wav, (0, max(0, end - len(wav)))))
        partials = np.stack([mel[start:start + PARTIAL_FRAMES] for start in starts])
        mean = self.embed_frames(partials).mean(axis=0)
        unit: np.ndarray = mean / np.linalg.norm(mean)
        return unit.astype(np.float32)

    def embed(self, audio: np.ndarray, rate: int) -> np.ndarray:
        """The 256-d unit-length embedding of ``audio`` (mono float, any rate)."""
        return self.embed_preprocessed(preprocess(audio, rate))


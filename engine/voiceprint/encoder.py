"""The speaker encoder: which voice a recording holds, as a unit vector; alike voices lie close."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from engine.core.audio_io import resample
from engine.core.reference import ReferenceClip
from engine.voiceprint import campplus, ge2e


class SpeakerEncoder:
    """GE2E speaker embeddings (resemblyzer's network, run by :mod:`engine.voiceprint.ge2e` without torch),
    256-d and L2-normalised; loaded on first use.

    Resemblance, wherever it is shown (a prepared voice, a take's QA), is :meth:`resemblance`:
    the cosine of two such embeddings, 1 for the same recording, about 0.75-0.9 for two takes of
    one speaker, about 0.3-0.6 for different speakers of the same sex and language.
    """

    # The id names what the embeddings are, not the code computing them: the port gives
    # resemblyzer's embeddings (cosine 1.000000 on every reference clip), so voices cached
    # under this id before the port stay valid and are not prepared again.
    encoder_id = "ge2e-resemblyzer"

    def __init__(self) -> None:
        self._encoder: ge2e.Ge2eEncoder | None = None
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        """Load the network (tens of ms) and run it once, so its first real use pays nothing more."""
        noise = np.random.default_rng(0).normal(0.0, 0.1, ge2e.SAMPLE_RATE).astype(np.float32)
        self.embed(ReferenceClip(noise, ge2e.SAMPLE_RATE, 1.0))

    def embed(self, clip: ReferenceClip) -> np.ndarray:
        """The clip's embedding; safe from several threads at once (each call has its own state)."""
        with self._lock:
            if self._encoder is None:
                self._encoder = ge2e.Ge2eEncoder()
        return self._encoder.embed(clip.audio, clip.sample_rate)

    def resemblance(self, audio: np.ndarray, sample_rate: int, reference: np.ndarray) -> float:
        """How much ``audio`` sounds like the speaker of the ``reference`` embedding: the cosine of
        their GE2E embeddings (both unit length, so their dot product)."""
        clip = ReferenceClip(np.asarray(audio, dtype=np.float32), sample_rate, len(audio) / sample_rate)
        return float(np.dot(self.embed(clip), reference))

    def embed_many(self, pieces: Sequence[np.ndarray], sample_rate: int) -> np.ndarray:
        """Embeddings of several pieces of one rate, one row each."""
        return np.array([self.embed(ReferenceClip(np.asarray(piece, dtype=np.float32), sample_rate,
                                                  len(piece) / sample_rate)) for piece in pieces],
                        dtype=np.float32).reshape(len(pieces), ge2e.EMBEDDING_SIZE)


class CamppSpeakerEncoder:
    """CAM++ speaker embeddings (3D-Speaker's network, run by :mod:`engine.voiceprint.campplus`
    without torch), 192-d and L2-normalised; loaded on first use.

    It parts voices far better than GE2E on real speech (a window AUC of 0.99 against 0.89 on
    the transcription benchmark's recordings, docs/campplus.md), so it is the encoder that
    finds who speaks when. Its cosines are on another scale from GE2E's (two halves of one
    speaker's clean clip 0.59 or more, of two speakers' a median of 0.04): the two kinds of
    embedding are never compared.
    """

    encoder_id = "campplus-3dspeaker-zh-en"

    def __init__(self, threads: int = campplus.THREADS) -> None:
        # One thread: on the busy 2-core machine two cost 40-50 % more CPU and were slower
        # (the 60 s meeting's windows: 0.048-0.054 CPU s per second of audio against 0.075-0.077).
        self._threads = threads
        self._encoder: campplus.CamppEncoder | None = None
        self._lock = threading.Lock()

    def _network(self) -> campplus.CamppEncoder:
        with self._lock:
            if self._encoder is None:
                self._encoder = campplus.CamppEncoder(threads=self._threads)
            return self._encoder

    def embed(self, clip: ReferenceClip) -> np.ndarray:
        """The clip's embedding; safe from several threads at once."""
        return self._network().embed(clip.audio, clip.sample_rate)

    def embed_many(self, pieces: Sequence[np.ndarray], sample_rate: int) -> np.ndarray:
        """Embeddings of several pieces of one rate, one row each, run in batches."""
        if sample_rate != campplus.SAMPLE_RATE:
            pieces = [resample(np.asarray(piece, dtype=np.float32), sample_rate, campplus.SAMPLE_RATE) for piece in pieces]
        return self._network().embed_many(pieces)

    def resemblance(self, audio: np.ndarray, sample_rate: int, reference: np.ndarray) -> float:
        """The cosine of ``audio``'s CAM++ embedding with the ``reference`` CAM++ embedding."""
        return float(np.dot(self._network().embed(np.asarray(audio, dtype=np.float32), sample_rate), reference))


class VoiceEmbedder(Protocol):
    """What finding speakers needs of an encoder (either of the two above)."""

    encoder_id: str

    def embed(self, clip: ReferenceClip) -> np.ndarray: ...

    def embed_many(self, pieces: Sequence[np.ndarray], sample_rate: int) -> np.ndarray: ...

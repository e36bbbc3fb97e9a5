"""The dialogue-separation plug-in: its STFT, chunking and overlap-add on ONNX models of the MDX-Net
signature built by the tests (a fixed mask, so the right answer is known), run through onnxruntime;
and its download through the model manager from a local fake hub: resumed, checked by size and
sha256, a bad file refused and removed."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest

from engine.core.audio_io import read_audio
from engine.core.downloads import DownloadError
from engine.core.protocol import EngineError, ErrorCode
from engine.hearing import separation
from engine.hearing.separation import SEPARATION_MODELS, Separator
from tests.cosyvoice.test_models import FakeHub
from tests.engine.hearing.separation_models import (
    SMALL,
    build_mask_model,
    low_band_mask,
    tone,
)
from tests.engine.helpers import VOICES

RATE = 44_100


def _separate(separator: Separator, audio: np.ndarray, cuts: list[int] | None = None) -> tuple[np.ndarray, ...]:
    blocks = np.split(audio, cuts) if cuts else [audio]
    parts = list(separator.separate(blocks))
    return tuple(np.concatenate([getattr(part, kind) for part in parts]) for kind in ("mix", "voices", "rest"))


@pytest.fixture
def mask_model(tmp_path: Path) -> tuple[Separator, np.ndarray, np.ndarray]:
    """A low-band mask model on a stereo mix whose "voices" (1 and 1.5 kHz) sit under the mask's
    edge (bin 40, VOICE_BINS) and whose "music" (6 and 8 kHz) above it: 2.5 s, many chunks."""
    spec = build_mask_model(tmp_path / "mask.onnx", SMALL, low_band_mask())
    voices = np.stack([tone(1000, 2.5), tone(1500, 2.5)], axis=1)
    music = np.stack([tone(8000, 2.5, amplitude=0.2), tone(6000, 2.5, amplitude=0.2)], axis=1)
    return Separator(tmp_path / "mask.onnx", spec, threads=1), voices, music


def test_the_declared_model_is_uvr_s_kim_vocal_2_signature() -> None:
    spec = SEPARATION_MODELS[separation.DEFAULT_SEPARATION_MODEL]
    assert (spec.n_fft, spec.hop, spec.dim_f, spec.dim_t, spec.sample_rate) == (7680, 1024, 3072, 256, 44_100)
    assert spec.chunk == 261_120 and spec.kept == 253_440  # 5.9 s a run, chunks 2.9 s apart
    assert spec.size == 66_759_214 and len(spec.sha256) == 64 and len(spec.revision) == 40


def test_the_stft_round_trip_is_exact_for_audio_inside_the_model_s_band(tmp_path: Path) -> None:
    spec = build_mask_model(tmp_path / "identity.onnx", SMALL, np.ones(SMALL.dim_f))
    separator = Separator(tmp_path / "identity.onnx", spec, threads=1)
    # Real speech, kept to the band the model sees (above its three silenced bins, below dim_f).
    speech, _ = read_audio(VOICES / "maya.wav", RATE)
    spectrum = np.fft.rfft(speech)
    hertz = np.fft.rfftfreq(len(speech), 1 / RATE)
    spectrum[(hertz < 600) | (hertz > 15_000)] = 0
    band = np.fft.irfft(spectrum, n=len(speech)).astype(np.float32)
    stereo = np.stack([band, 0.5 * band[::-1]], axis=1)
    chunk = stereo[RATE: RATE + SMALL.chunk]
    # Within n_fft of a chunk's ends the frames saw reflected audio (the separator drops the outer
    # n_fft / 2 and gives the next n_fft / 2 little weight); inside, the round trip is exact.
    inner = slice(SMALL.n_fft, -SMALL.n_fft)
    back = separator.waveform(separator.spectrogram(chunk))
    assert np.abs(back[inner] - chunk[inner]).max() < 1e-4 * np.abs(chunk).max()  # measured 7e-6
    mix, voices, rest = _separate(separator, stereo)
    assert np.array_equal(mix, stereo)
    error = voices - stereo
    assert np.sqrt(np.mean(error ** 2)) < 1e-3 * np.sqrt(np.mean(stereo ** 2))  # measured 1.1e-4
    assert np.sqrt(np.mean(rest ** 2)) < 1e-3 * np.sqrt(np.mean(stereo ** 2))


def test_a_mask_model_parts_the_voices_from_the_music_within_tolerance(
        mask_model: tuple[Separator, np.ndarray, np.ndarray], tmp_path: Path) -> None:
    separator, voices, music = mask_model
    model_file = tmp_path / "mask.onnx"
    mix, heard, rest = _separate(separator, voices + music)
    assert len(heard) == len(rest) == len(voices)  # as many samples out as in
    assert np.array_equal(mix, voices + music)
    inside = slice(SMALL.n_fft, -SMALL.n_fft)  # where the tones start and stop they are no pure tones
    assert np.abs(heard[inside] - voices[inside]).max() < 2e-4  # measured 1.3e-5 (the tones' peak: 0.3)
    assert np.abs(rest[inside] - music[inside]).max() < 2e-4
    # compensate scales the voices the model gives, as UVR does, and the rest is what is left.
    louder = Separator(model_file, dataclasses.replace(separator.spec, compensate=1.5), threads=1)
    _, heard_louder, rest_louder = _separate(louder, voices + music)
    assert np.allclose(heard_louder, 1.5 * heard, atol=1e-5)
    assert np.allclose(rest_louder, voices + music - 1.5 * heard, atol=1e-5)


def test_how_the_input_is_cut_changes_nothing(mask_model: tuple[Separator, np.ndarray, np.ndarray]) -> None:
    separator, voices, music = mask_model
    whole = _separate(separator, voices + music)
    cuts = list(np.cumsum(np.random.default_rng(3).integers(1, 9000, 40)))
    cuts = [cut for cut in cuts if cut < len(voices)]
    pieces = _separate(separator, voices + music, cuts)
    for one, other in zip(whole, pieces, strict=True):
        assert np.array_equal(one, other)


def test_short_mono_and_empty_inputs(mask_model: tuple[Separator, np.ndarray, np.ndarray]) -> None:
    separator, voices, _ = mask_model
    mono = voices[:1000, 0]
    mix, heard, _ = _separate(separator, mono)
    assert mix.shape == heard.shape == (1000, 2)  # shorter than a chunk: padded, then cut back
    assert np.array_equal(mix[:, 0], mix[:, 1])
    assert list(separator.separate([])) == []
    assert list(separator.separate([np.zeros((0, 2), dtype=np.float32)])) == []


def test_a_model_of_another_signature_is_refused(tmp_path: Path) -> None:
    build_mask_model(tmp_path / "narrow.onnx", SMALL, np.ones(128), dim_f=128)
    with pytest.raises(EngineError, match=r"not a model of a built mask model's signature") as caught:
        Separator(tmp_path / "narrow.onnx", SMALL)
    assert caught.value.code is ErrorCode.SEPARATION_MODEL_MISSING
    (tmp_path / "junk.onnx").write_bytes(b"not a model")
    with pytest.raises(EngineError, match="onnxruntime cannot load junk.onnx") as junk:
        Separator(tmp_path / "junk.onnx", SMALL)
    assert junk.value.code is ErrorCode.SEPARATION_MODEL_MISSING


# --- the download, from a local fake hub ---------------------------------------------------------


@pytest.fixture
def hub_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DUBSTUDIO_MODELS_DIR", str(tmp_path / "models"))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    return tmp_path


def _served(tmp_path: Path) -> tuple[Path, separation.SeparationModelSpec]:
    """A hub repository holding the built model where the spec says, beside another model."""
    served = tmp_path / "served"
    spec = build_mask_model(served / SMALL.path, SMALL, low_band_mask(), ballast_mb=24)
    (served / "models" / "other.onnx").write_bytes(b"another model the download must not fetch")
    return served, spec


def test_the_download_resumes_checks_size_and_sha256_and_fetches_only_its_file(hub_env: Path) -> None:
    served, spec = _served(hub_env)
    assert not separation.model_available(spec)
    with pytest.raises(EngineError, match="dubstudio models download test-mask") as missing:
        separation.separation_model_path(spec)
    assert missing.value.code is ErrorCode.SEPARATION_MODEL_MISSING
    with FakeHub(served, cut_once={spec.path}, repo=spec.hub_repo) as hub:
        with pytest.raises(DownloadError, match="run the download again to resume"):
            separation.download_separation_model(spec, endpoint=hub.endpoint)
        assert not separation.model_available(spec)
        report = separation.download_separation_model(spec, endpoint=hub.endpoint)
    assert report.ok, report.problems
    assert [name for name, _ in hub.ranges] == [spec.path]  # resumed, not restarted
    assert set(hub.gets) == {spec.path}  # the repository's other file was never fetched
    path = separation.separation_model_path(spec)
    assert path == hub_env / "models" / "separation-test-mask" / spec.path
    separator = Separator(path, spec, threads=1)
    assert len(list(separator.separate([np.zeros((5000, 2), dtype=np.float32)]))) > 0


def test_a_file_with_another_sha256_is_refused_and_removed(hub_env: Path) -> None:
    served, spec = _served(hub_env)
    data = bytearray((served / spec.path).read_bytes())
    data[-1] ^= 0x01  # the same size, one bit flipped: only the hash sees it
    (served / spec.path).write_bytes(bytes(data))
    with FakeHub(served, cut_once=set(), repo=spec.hub_repo) as hub:
        report = separation.download_separation_model(spec, endpoint=hub.endpoint)
    assert not report.ok
    assert "sha256 differs from the declared one" in report.summary()
    assert "removed; run the download again" in report.summary()
    assert not (separation.model_folder(spec) / spec.path).exists()
    shutil.rmtree(served)
    served, _ = _served(hub_env)  # the hub fixed: the next download is whole and checked
    with FakeHub(served, cut_once=set(), repo=spec.hub_repo) as hub:
        assert separation.download_separation_model(spec, endpoint=hub.endpoint).ok

"""The GE2E port (engine/voiceprint/ge2e.py) against resemblyzer itself, and a studio engine without torch.

The reference embeddings (tests/engine/data/ge2e_reference.npz) were computed once by
resemblyzer 0.1.4 on torch (scripts/convert-ge2e), from the bundled voices and from real
recorded speech (tests/engine/data/ge2e/, see its NOTICE.md), so these tests need no torch.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from engine.core.paths import REPO_ROOT
from engine.core.protocol import ErrorCode
from engine.core.reference import load_reference_clip
from engine.voiceprint import ge2e
from engine.voiceprint.encoder import SpeakerEncoder
from tests.engine.helpers import VOICES
from tests.engine.torch_guard import guarded_environment, tried_imports
from tests.engine.voiceprint.references import (
    MATCH,
    damaged_model_error,
    decode,
    reference_embeddings,
)


def test_the_port_gives_resemblyzers_embeddings_on_real_speech() -> None:
    references = reference_embeddings("ge2e")
    recorded = [name for name in references if name.startswith("tests/")]
    assert len(references) >= 6 and len(recorded) >= 3  # the bundled voices and real recordings
    encoder = ge2e.Ge2eEncoder()
    for name, expected in references.items():
        embedding = encoder.embed(*decode(REPO_ROOT / name))
        assert embedding.shape == (ge2e.EMBEDDING_SIZE,) and abs(np.linalg.norm(embedding) - 1.0) < 1e-5
        assert float(np.dot(embedding, expected)) >= MATCH, name


def test_the_two_recorded_speakers_stay_apart_and_each_near_herself() -> None:
    """Not a property of the port alone: that the embeddings still tell these speakers apart."""
    references = reference_embeddings("ge2e")
    diane, sheila, both = (references[f"tests/engine/data/ge2e/{name}.flac"] for name in ("diane", "sheila", "conversation"))
    assert float(np.dot(diane, sheila)) < float(np.dot(diane, both)) and float(np.dot(diane, sheila)) < float(np.dot(sheila, both))


def test_the_engines_encoder_is_the_port_under_resemblyzers_id() -> None:
    """SpeakerEncoder embeds the trimmed, normalised clip the engine prepares with the port;
    its id is unchanged, so voices cached with resemblyzer's embeddings stay valid."""
    encoder = SpeakerEncoder()
    clip = load_reference_clip(VOICES / "maya.wav")
    embedding = encoder.embed(clip)
    assert np.array_equal(embedding, ge2e.Ge2eEncoder().embed(clip.audio, clip.sample_rate))
    untrimmed = reference_embeddings("ge2e")["resources/voices/maya.wav"]
    assert float(np.dot(embedding, untrimmed)) > 0.95  # the same recording, less its silence
    assert encoder.resemblance(clip.audio, clip.sample_rate, embedding) == pytest.approx(1.0, abs=1e-5)
    assert SpeakerEncoder.encoder_id == "ge2e-resemblyzer"


def test_the_mel_filters_are_slaneys_and_the_partials_cover_the_clip() -> None:
    filters = ge2e.slaney_mel_filters()
    assert filters.shape == (ge2e.MEL_BANDS, ge2e.WINDOW // 2 + 1) and (filters >= 0).all()
    assert (filters.sum(axis=1) > 0).all()  # no empty band at 16 kHz and 400 points
    # Slaney's normalisation: each triangle's area in Hz is 1
    bin_hz = ge2e.SAMPLE_RATE / ge2e.WINDOW
    assert np.allclose(filters.sum(axis=1) * bin_hz, 1.0, atol=0.08)
    for seconds in (0.5, 1.6, 5.0, 30.0):
        samples = int(seconds * ge2e.SAMPLE_RATE)
        starts = ge2e.partial_starts(samples)
        assert starts[0] == 0 and (starts[-1] + ge2e.PARTIAL_FRAMES) * ge2e.HOP >= samples * ge2e.MIN_LAST_COVERAGE
    assert len(ge2e.partial_starts(int(5.0 * ge2e.SAMPLE_RATE))) == 5  # 1.3 per second, 1.6 s each


def test_a_damaged_encoder_file_is_an_error_that_says_what_to_do(tmp_path: Path) -> None:
    error = damaged_model_error(ge2e.MODEL_PATH, ge2e.Ge2eEncoder, tmp_path)
    assert error.code is ErrorCode.BACKEND and "GE2E speaker encoder" in error.message
    assert "reinstall DubStudio" in error.message


def test_the_guard_refuses_torch(tmp_path: Path) -> None:
    """The check below means something: under the guard, importing torch fails."""
    done = subprocess.run([sys.executable, "-c", "import torch"], env=guarded_environment(tmp_path),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "torch is refused" in done.stderr
    assert tried_imports(tmp_path).startswith("torch\n")  # and the attempt is recorded


def test_the_engine_speaks_and_embeds_with_torch_refused(tmp_path: Path) -> None:
    """A real `say`: the engine process starts, prepares a new voice (its GE2E embedding and
    resemblance figures) and speaks, while every process refuses torch, resemblyzer, librosa
    and numba."""
    env = guarded_environment(tmp_path)
    out = tmp_path / "line.wav"
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "say", "We leave at dawn, and nobody looks back.",
         "--voice", str(VOICES / "maya.wav"), "--out", str(out), "--json", "--cache-dir", str(tmp_path / "cache")],
        env=env, capture_output=True, text=True, timeout=300, cwd=REPO_ROOT)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert 0.0 < report["resemblance"] <= 1.0 and 0.0 < report["resemblance_plain"] <= 1.0
    assert sf.info(str(out)).duration > 1.0
    assert len(list((tmp_path / "marks").iterdir())) >= 2  # the guard ran in the CLI and in the engine
    assert not tried_imports(tmp_path)  # nothing on the way even reached for them


IMPORT_EVERY_MODULE = """
import importlib, pkgutil
for package in ("engine", "app"):
    for info in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
        try:
            importlib.import_module(info.name)
        except Exception as error:
            print(f"{info.name}: {type(error).__name__}: {error}")
"""


def test_every_module_of_the_studio_and_the_engine_imports_with_torch_refused(tmp_path: Path) -> None:
    """The CosyVoice modules name torch only inside functions, run in their own environment;
    nothing else may need it (or librosa, resemblyzer, numba) even to be imported."""
    env = {**guarded_environment(tmp_path), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", IMPORT_EVERY_MODULE], env=env, capture_output=True, text=True,
                          timeout=300, cwd=REPO_ROOT)
    assert done.returncode == 0, done.stderr
    refused = [line for line in done.stdout.splitlines() if "is refused" in line]
    assert not refused, refused
    assert not tried_imports(tmp_path)

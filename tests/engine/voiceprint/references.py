"""What both speaker-encoder ports are checked against: the embeddings their original pipelines
computed once (tests/engine/data/*_reference.npz), and the clips decoded as those pipelines read them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from engine.core.codes import EngineError
from engine.core.paths import REPO_ROOT

DATA = REPO_ROOT / "tests" / "engine" / "data"
MATCH = 0.999  # the cosine a port must reach with its original's embedding of the same clip


def reference_embeddings(name: str) -> dict[str, np.ndarray]:
    """The embeddings in ``tests/engine/data/{name}_reference.npz``, by clip path."""
    with np.load(DATA / f"{name}_reference.npz", allow_pickle=False) as data:
        return {clip: np.array(data[clip]) for clip in data.files if clip != "meta"}


def decode(path: Path) -> tuple[np.ndarray, int]:
    """A clip as mono float32 and its rate."""
    audio, rate = sf.read(str(path), dtype="float32", always_2d=True)
    return audio.mean(axis=1), int(rate)


def damaged_model_error(model: Path, open_encoder: Callable[[Path], object], folder: Path) -> EngineError:
    """The error an encoder gives when its model file is cut short (a copy in ``folder``)."""
    broken = folder / model.name
    broken.write_bytes(model.read_bytes()[:1000])
    with pytest.raises(EngineError) as raised:
        open_encoder(broken)
    return raised.value

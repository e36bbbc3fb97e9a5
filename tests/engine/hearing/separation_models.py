"""ONNX models of the MDX-Net separation signature, built here with the ``onnx`` package: no
separation weights exist in this repository. Each returns its input times a fixed mask, so what a
correct STFT, chunking and overlap-add must give is known."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import numpy as np

from engine.hearing.separation import SeparationModelSpec

# A small spec of the same family: 4 × 192 bins × 32 frames a run (3968 samples), so tests are quick.
SMALL = SeparationModelSpec(
    name="test-mask", title="a built mask model", separates="the low band", licence="built by the tests",
    hub_repo="DubStudio/test-separation", revision="0" * 40, path="models/test_mask.onnx",
    size=0, sha256="", n_fft=512, hop=128, dim_f=192, dim_t=32,
)
VOICE_BINS = 40  # the built "voices": every bin under 40 × 44100 / 512 ≈ 3.4 kHz


def build_mask_model(path: Path, spec: SeparationModelSpec, mask: np.ndarray,
                     dim_f: int | None = None, ballast_mb: int = 0) -> SeparationModelSpec:
    """Write an ONNX model whose output is its input times ``mask`` (one gain per bin, (dim_f,)),
    input and output named as UVR's ([batch, 4, dim_f, dim_t]); ``spec`` with its size and sha256.
    ``ballast_mb`` of unused weights make the file large enough for a download to be cut mid-way
    (the hub client writes 10 MB at a time)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    bins = spec.dim_f if dim_f is None else dim_f
    gains = np.broadcast_to(mask.astype(np.float32)[None, None, :, None], (1, 4, bins, 1)).copy()
    shape: list[str | int] = ["batch", 4, bins, spec.dim_t]
    graph = helper.make_graph(
        [helper.make_node("Mul", ["input", "mask"], ["output"])],
        "mask_separation",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, shape)],
        [numpy_helper.from_array(gains, "mask")]
        + ([numpy_helper.from_array(np.arange(ballast_mb << 18, dtype=np.float32), "ballast")] if ballast_mb else []),
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, path)
    data = path.read_bytes()
    return dataclasses.replace(spec, size=len(data), sha256=hashlib.sha256(data).hexdigest())


def low_band_mask(spec: SeparationModelSpec = SMALL) -> np.ndarray:
    mask = np.zeros(spec.dim_f, dtype=np.float32)
    mask[:VOICE_BINS] = 1.0
    return mask


def tone(frequency: float, seconds: float, rate: int = 44_100, amplitude: float = 0.3) -> np.ndarray:
    return (amplitude * np.sin(2 * np.pi * frequency * np.arange(int(seconds * rate)) / rate)).astype(np.float32)

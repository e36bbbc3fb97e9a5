"""Soak: many jobs through one engine, its resident memory sampled as they go (issue 20).

Closed loop at ``--users`` (2) users on ``--voices`` (2) voices, short and medium lines
alternating, for ``--jobs`` (1,000) measured jobs after ``--warmup`` (100). The engine's RSS
(from /proc, Linux) is sampled every ``--every`` (50) jobs; the verdict compares the last
sample with the first one after warm-up (target: under 5 % growth).

Run: .venv/bin/python benchmarks/soak.py [--jobs 1000] [--users 2] [--every 50] [--json OUT]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after PYTHONPATH, so another engine tree can be measured

from engine.core.protocol import AudioChunk, Job, JobFailed, JobFinished, VoiceSpec
from engine.synthesis.client.local import EngineClient
from engine.synthesis.config import EngineConfig

GROWTH_TARGET = 0.05


def rss_mb(pid: int) -> float:
    """Resident set of a process in MB (VmRSS from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def texts() -> list[str]:
    lines = []
    for name in ("short.txt", "medium.txt"):
        for line in (ROOT / "resources/texts/en" / name).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                lines.append(line.strip())
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=1000, help="measured jobs, after the warm-up")
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--users", type=int, default=2)
    parser.add_argument("--voices", type=int, default=2, choices=(1, 2, 3))
    parser.add_argument("--every", type=int, default=50, help="jobs between RSS samples")
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    clips = sorted((ROOT / "resources/voices").glob("*.wav"))[: args.voices]
    voices = [VoiceSpec(str(clip), clip.with_suffix(".txt").read_text().strip()) for clip in clips]
    lines = itertools.cycle(texts())
    config = EngineConfig(backend="piper", slots=args.slots)
    total = args.warmup + args.jobs
    samples: list[tuple[int, float, float]] = []  # (measured jobs done, seconds, RSS MB)
    failures = 0
    with EngineClient(config) as client:
        pid = client.pid
        assert pid is not None
        submitted = done = 0
        in_flight: set[str] = set()
        started = time.monotonic()

        def submit() -> None:
            nonlocal submitted
            job = Job(text=next(lines), voice=voices[submitted % len(voices)], listening=True)
            client.submit(job)
            in_flight.add(job.job_id)
            submitted += 1

        for _ in range(args.users):
            submit()
        while done < total:
            event = client.get_event(timeout=120)
            if event is None:
                raise SystemExit("no event from the engine for 120 s")
            if isinstance(event, AudioChunk) or not isinstance(event, (JobFinished, JobFailed)):
                continue
            if event.job_id not in in_flight or (isinstance(event, JobFailed) and event.resubmitted):
                continue
            in_flight.discard(event.job_id)
            failures += isinstance(event, JobFailed)
            done += 1
            measured = done - args.warmup
            if measured >= 0 and measured % args.every == 0:
                samples.append((measured, time.monotonic() - started, rss_mb(pid)))
                print(f"{measured:5d} jobs  {samples[-1][1]:7.1f} s  RSS {samples[-1][2]:8.1f} MB", flush=True)
            if submitted < total:
                submit()
    base, end = samples[0][2], samples[-1][2]
    half = min(samples, key=lambda s: abs(s[0] - args.jobs / 2))[2]
    growth = end / base - 1
    print(f"{args.jobs} jobs at {args.users} users, {len(voices)} voices, {failures} failed; RSS after warm-up "
          f"{base:.1f} MB, half-way {half:.1f}, end {end:.1f}: {growth:+.1%} "
          f"({'under' if growth < GROWTH_TARGET else 'NOT under'} the {GROWTH_TARGET:.0%} target)")
    if args.json:
        Path(args.json).write_text(json.dumps({"samples": samples, "growth": growth, "failures": failures,
                                               "cores": os.cpu_count()}, indent=1))


if __name__ == "__main__":
    main()

"""CosyVoice2 batched (max_batch > 1) against unbatched (max_batch = 1), closed loop, same run.

Two engines on the same synthetic model folder (tiny by default) stay up side by side; an
idle one costs nothing. Each level (``--levels``, users) runs ``--rounds`` times on each
engine, alternating which goes first, on everyday dialogue lines (the bundled English
"medium" texts: two sentences each). The table gives first-audio p50/p95, stalls per job and
audio seconds per wall second, and the engine process's CPU seconds per audio second (the
cost of the audio whatever share of a busy machine the engine got: on a shared machine wall
time says as much about the neighbours as about the engine); the ratio line compares the sums
of each engine's rounds. The load average goes with each round and the whole run.

Run: .venv/bin/python benchmarks/batching.py [--levels 2,4,8] [--jobs-per-user 3] [--rounds 2]
         [--batch 8] [--slots 2] [--size tiny|full] [--model-dir DIR] [--json OUT]
(``scripts/cosyvoice-env`` first; the synthetic folder is built in a temporary folder unless
``--model-dir`` names one.)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

from engine.load import Plan, TextSet, VoiceSet
from engine.load.runner import LoadRunner
from engine.load.stats import LevelStats
from engine.load.workload import JobSource
from engine.synthesis.backends import COSYVOICE2_ENVIRONMENT
from engine.synthesis.client.local import EngineClient
from engine.synthesis.config import EngineConfig


def engine(python: Path, model_dir: Path, cache_dir: str, slots: int, max_batch: int) -> EngineClient:
    client = EngineClient(EngineConfig(backend="cosyvoice2", backend_options={
        "model_dir": str(model_dir), "device": "cpu", "max_batch": max_batch}, slots=slots, python=str(python),
        cache_dir=cache_dir, auto_retry=False))
    client.start()
    return client


VOICES = len(VoiceSet.bundled().voices)


def engine_cpu_s(client: EngineClient) -> float:
    """CPU seconds the engine process has used (all its threads)."""
    if client.pid is None:
        raise RuntimeError("the engine is not running")
    times = psutil.Process(client.pid).cpu_times()
    return float(times.user + times.system)


def measure(client: EngineClient, users: int, jobs: int) -> tuple[LevelStats, float]:
    """One closed-loop round: its statistics and the engine's CPU seconds during it."""
    source = JobSource(TextSet.bundled(("en",), kinds=("medium",)), VoiceSet.bundled())
    cpu_before = engine_cpu_s(client)
    try:
        report = LoadRunner(client, Plan(levels=(users,), jobs_per_level=jobs, warmup_jobs=0), source).run()
    finally:
        source.close()
    return report.levels[0], engine_cpu_s(client) - cpu_before


def summary(runs: list[tuple[LevelStats, float]]) -> dict[str, Any]:
    """One variant's rounds at one level: throughput and CPU per audio second over all rounds,
    the worst round's first-audio p50 and p95."""
    stats = [run for run, _ in runs]
    audio = sum(s.audio_per_wall_s * s.duration_s for s in stats)
    wall = sum(s.duration_s for s in stats)
    return {"audio_per_wall_s": audio / wall, "cpu_per_audio_s": sum(cpu for _, cpu in runs) / audio,
            "first_audio_p50": max(s.first_audio_s.p50 or 0.0 for s in stats),
            "first_audio_p95": max(s.first_audio_s.p95 or 0.0 for s in stats),
            "stalls_per_job": sum(s.stalls_per_job for s in stats) / len(stats),
            "jobs": sum(s.jobs for s in stats), "errors": sum(s.errors for s in stats)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="2,4,8")
    parser.add_argument("--jobs-per-user", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--batch", type=int, default=8, help="max_batch of the batched engine")
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--size", choices=("tiny", "full"), default="tiny")
    parser.add_argument("--model-dir", default=None)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    python = COSYVOICE2_ENVIRONMENT.interpreter()
    if python is None:
        sys.exit("build the CosyVoice environment first: bash scripts/cosyvoice-env")
    levels = [int(level) for level in args.levels.split(",")]
    with tempfile.TemporaryDirectory() as work:
        model_dir = Path(args.model_dir) if args.model_dir else Path(work) / f"CosyVoice2-{args.size}"
        if not args.model_dir:
            subprocess.run([str(python), "-m", "engine.synthesis.backends.cosyvoice_synthetic", str(model_dir), "--size",
                            args.size], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        load_before = os.getloadavg()
        started = time.monotonic()
        clients = {"unbatched": engine(python, model_dir, work, args.slots, 1),
                   "batched": engine(python, model_dir, work, args.slots, args.batch)}
        results: dict[int, dict[str, Any]] = {}
        try:
            for client in clients.values():  # every bundled voice prepared, outside the rounds
                measure(client, VOICES, VOICES)
            for level in levels:
                runs: dict[str, list[tuple[LevelStats, float]]] = {name: [] for name in clients}
                for round_index in range(args.rounds):
                    order = list(clients) if round_index % 2 == 0 else list(reversed(clients))
                    for name in order:
                        stats, cpu = measure(clients[name], level, args.jobs_per_user * level)
                        runs[name].append((stats, cpu))
                        print(f"  {level} users, round {round_index + 1}, {name}: "
                              f"{stats.audio_per_wall_s:.2f} audio s/s, first audio p95 "
                              f"{stats.first_audio_s.p95:.2f} s, {cpu / (stats.audio_per_wall_s * stats.duration_s):.2f} "
                              f"CPU s per audio s, load {os.getloadavg()[0]:.1f}", flush=True)
                results[level] = {name: summary(stats) for name, stats in runs.items()}
        finally:
            for client in clients.values():
                client.close()
        load_after = os.getloadavg()
    model = f"the model folder {args.model_dir}" if args.model_dir else f"{args.size} synthetic"
    print(f"\nCosyVoice2 {model} on the CPU ({os.cpu_count()} cores), {args.slots} slots, batched "
          f"max_batch={args.batch}; {args.rounds} interleaved rounds per level, {args.jobs_per_user} jobs per user; "
          f"load {load_before[0]:.1f} -> {load_after[0]:.1f}; {time.monotonic() - started:.0f} s")
    print(f"{'users':>6}{'variant':>11}{'jobs':>6}{'err':>5}{'1st p50':>9}{'p95':>7}{'stalls/job':>12}"
          f"{'audio s/s':>11}{'CPU s/audio s':>15}")
    for level, variants in results.items():
        for name, r in variants.items():
            print(f"{level:6d}{name:>11}{r['jobs']:6d}{r['errors']:5d}{r['first_audio_p50']:9.2f}"
                  f"{r['first_audio_p95']:7.2f}{r['stalls_per_job']:12.2f}{r['audio_per_wall_s']:11.2f}"
                  f"{r['cpu_per_audio_s']:15.2f}")
        batched, unbatched = variants["batched"], variants["unbatched"]
        print(f"{'':6}{'ratio':>11}  audio s/s batched/unbatched "
              f"{batched['audio_per_wall_s'] / unbatched['audio_per_wall_s']:.2f}x, first-audio p95 "
              f"{batched['first_audio_p95'] / unbatched['first_audio_p95']:.2f}x, CPU per audio s "
              f"{batched['cpu_per_audio_s'] / unbatched['cpu_per_audio_s']:.2f}x")
    if args.json:
        Path(args.json).write_text(json.dumps({"levels": results, "load_before": load_before,
                                               "load_after": load_after, "args": vars(args)}, indent=2))


if __name__ == "__main__":
    main()

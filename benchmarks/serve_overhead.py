"""What serving through Ray Serve costs, measured in one run (a benchmark, not a test).

1. First audio through the server against the local engine at 1, 4 and 16 closed-loop users:
   the same engine (Piper, the same slots) in-process-spawned vs in one Serve replica reached
   over HTTP on loopback; p50/p95 of each and the difference in ms.
2. Cancel: client cancel -> the engine's cancel confirmation (wall clocks of one machine).
3. Memory (PSS, so shared pages count once) of a 2-replica server, by kind of process.
4. Autoscaling 1 -> 2 replicas under load: from the load's start to Serve starting a second
   replica, and to that replica serving.

Run: .venv/bin/python benchmarks/serve_overhead.py [--slots 2] [--jobs 24] [--json OUT.json]
Needs the `serve` extra (scripts/serve-env). Everything listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.load import BenchSession, BenchSettings, Plan  # noqa: E402
from engine.protocol import AudioChunk, Job, JobFailed, JobFinished, VoiceSpec  # noqa: E402
from engine.remote import RemoteConfig, RemoteEngineClient  # noqa: E402

USERS = (1, 4, 16)
VOICE = VoiceSpec(str(ROOT / "resources" / "voices" / "maya.wav"),
                  (ROOT / "resources" / "voices" / "maya.txt").read_text().strip())
LONG = " ".join(f"Sentence {n} keeps this engine busy for a while longer." for n in range(1, 30))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A `dubstudio serve` subprocess on loopback, stopped with SIGTERM like an admin would."""

    def __init__(self, *args: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.NamedTemporaryFile("w+", prefix="dubstudio-serve-", suffix=".log", delete=False)
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port), "--num-cpus", "4", *args],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
        while "ready at" not in Path(self.log.name).read_text():
            if self.process.poll() is not None or time.monotonic() - self.started > 600:
                raise RuntimeError(f"the server did not start; see {self.log.name}")
            time.sleep(0.5)
        self.ready_s = time.monotonic() - self.started
        self.client = RemoteEngineClient(RemoteConfig(self.url))
        self.wait(lambda s: len(s["replicas"]) >= 1)

    def stats(self) -> dict[str, Any]:
        return self.client.server_stats()

    def wait(self, check: Callable[[dict[str, Any]], bool], timeout: float = 300.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            stats = self.stats()
            if check(stats):
                return stats
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting on the server: {json.dumps(stats)[:500]}")
            time.sleep(0.25)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(120)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)


def bench(slots: int, jobs: int, remote: RemoteConfig | None, cache_dir: str) -> dict[int, dict[str, float]]:
    plan = Plan(levels=USERS, jobs_per_level=jobs, warmup_jobs=2)
    settings = BenchSettings(slots=slots, plan=plan, remote=remote, cache_dir=cache_dir)
    report = BenchSession(settings).run()
    return {s.level: {"p50": s.first_audio_s.p50 or 0.0, "p95": s.first_audio_s.p95 or 0.0, "errors": s.errors}
            for s in report.levels}


def cancel_latency(server: Server, rounds: int) -> list[float]:
    """Seconds from the client's cancel to the engine confirming it (replica's wall clock)."""
    client = RemoteEngineClient(RemoteConfig(server.url))
    client.start()
    samples = []
    for _ in range(rounds):
        before = {r["replica_id"]: r.get("last_cancel_at") for r in server.stats()["replicas"]}
        job = Job(LONG, VOICE)
        client.submit(job)
        while not isinstance(event := client.get_event(60), AudioChunk):
            if isinstance(event, (JobFinished, JobFailed)):
                raise RuntimeError(f"the job ended before it could be cancelled: {event}")
        cancelled_at = time.time()
        client.cancel(job.job_id)
        while not isinstance(client.get_event(60), JobFailed):
            pass
        stats = server.wait(lambda s: any(r.get("last_cancel_at") != before.get(r["replica_id"])
                                          for r in s["replicas"]), timeout=30)
        confirmed = max(r["last_cancel_at"] for r in stats["replicas"] if r.get("last_cancel_at"))
        samples.append(confirmed - cancelled_at)
    return samples


def memory(server: Server) -> dict[str, float]:
    """PSS in MB of everything the server started, by kind (engine processes, replicas, Ray)."""
    import psutil

    kinds: dict[str, float] = {}
    root = psutil.Process(server.process.pid)
    for proc in [root, *root.children(recursive=True)]:
        try:
            pss = proc.memory_full_info().pss / 2**20
            name = " ".join(proc.cmdline())
        except psutil.Error:
            continue
        if "multiprocessing" in name:
            kind = "engine processes" if "spawn_main" in name else "multiprocessing helpers"
        elif "ServeReplica:dubstudio:engine" in name:
            kind = "engine replicas (Ray workers)"
        elif "ray::Serve" in name or "ray::Proxy" in name:
            kind = "serve (controller, proxy, ingress, registry)"
        elif proc.pid == root.pid:
            kind = "dubstudio serve (driver)"
        else:
            kind = "ray (gcs, raylet, agents, idle workers)"
        kinds[kind] = kinds.get(kind, 0.0) + pss
    kinds["total"] = sum(kinds.values())
    return {k: round(v) for k, v in kinds.items()}


def autoscale(slots: int) -> dict[str, float]:
    server = Server("--autoscale", "1,2", "--slots", str(slots))
    try:
        client = RemoteEngineClient(RemoteConfig(server.url))
        client.start()
        stop = threading.Event()
        load_started = time.monotonic()
        # Keep 4 x slots jobs in flight (twice what one replica's target allows): the next job
        # as soon as one ends, from the client's one event consumer.
        for _ in range(4 * slots):
            client.submit(Job(LONG, VOICE))

        def refill() -> None:
            while not stop.is_set():
                event = client.get_event(1.0)
                if isinstance(event, (JobFinished, JobFailed)):
                    client.submit(Job(LONG, VOICE))

        threading.Thread(target=refill, daemon=True).start()
        server.wait(lambda s: sum(v for k, v in s["deployments"]["engine-piper"]["replica_states"].items()
                                           if k != "STOPPING") >= 2, timeout=300)
        decided = time.monotonic() - load_started
        server.wait(lambda s: len([r for r in s["replicas"] if r["backend"] == "piper"]) >= 2, timeout=300)
        serving = time.monotonic() - load_started
        stop.set()
        client.close()
        return {"scale_decided_s": round(decided, 1), "second_replica_serving_s": round(serving, 1)}
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slots", type=int, default=2, help="engine slots, local and per replica (default 2)")
    parser.add_argument("--jobs", type=int, default=24, help="measured jobs per level (default 24)")
    parser.add_argument("--cancels", type=int, default=5, help="cancel samples (default 5)")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="dubstudio-serve-bench-")
    figures: dict[str, Any] = {"load": os.getloadavg(), "slots": args.slots}

    local = bench(args.slots, args.jobs, None, cache)
    server = Server("--replicas", "1", "--slots", str(args.slots), "--cache-dir", cache)
    try:
        figures["server_start_s"] = round(server.ready_s, 1)
        remote = bench(args.slots, args.jobs, RemoteConfig(server.url), cache)
        figures["cancel_s"] = [round(s, 4) for s in cancel_latency(server, args.cancels)]
    finally:
        server.stop()
    figures["first_audio"] = {users: {"local": local[users], "server": remote[users]} for users in USERS}
    two = Server("--replicas", "2", "--slots", str(args.slots), "--cache-dir", cache)
    try:
        two.wait(lambda s: len(s["replicas"]) == 2)
        figures["memory_2_replicas_mb"] = memory(two)
    finally:
        two.stop()
    figures["autoscale"] = autoscale(args.slots)
    figures["load_after"] = os.getloadavg()

    print(f"load average before {figures['load'][0]:.1f}, after {figures['load_after'][0]:.1f}; "
          f"{args.slots} slot(s), {args.jobs} jobs per level, closed loop, Piper")
    print("\nfirst audio (s)     local p50  p95   server p50  p95   overhead p50  p95 (ms)")
    for users in USERS:
        lo, re = local[users], remote[users]
        print(f"  {users:2d} user(s)       {lo['p50']:6.3f} {lo['p95']:6.3f}     {re['p50']:6.3f} {re['p95']:6.3f}"
              f"     {1000 * (re['p50'] - lo['p50']):+8.0f} {1000 * (re['p95'] - lo['p95']):+6.0f}"
              + ("   errors!" if lo["errors"] or re["errors"] else ""))
    cancels = sorted(figures["cancel_s"])
    print(f"\ncancel -> engine confirmed: median {1000 * cancels[len(cancels) // 2]:.0f} ms, "
          f"max {1000 * cancels[-1]:.0f} ms over {len(cancels)}")
    print(f"server start (head + deploy + engine): {figures['server_start_s']} s")
    print("\nmemory of a 2-replica server (PSS, MB):")
    for kind, mb in figures["memory_2_replicas_mb"].items():
        print(f"  {kind:48s} {mb:6d}")
    scale = figures["autoscale"]
    print(f"\nautoscaling 1 -> 2 replicas under {4 * args.slots} streams: Serve started a replica after "
          f"{scale['scale_decided_s']} s, it served after {scale['second_replica_serving_s']} s")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

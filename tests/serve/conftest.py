"""One real `dubstudio serve` for the suite: a local Ray head, 2 CPU replicas of Piper, HTTPS
with a self-signed certificate and a bearer token, all on 127.0.0.1. Marker `serve`
(scripts/test-serve); nothing here imports Ray, so the default suite collects it cheaply.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine.synthesis.client.remote import RemoteConfig, RemoteEngineClient

READY_TIMEOUT_S = 420.0  # Ray head + 4 deployments + 2 engine loads on a busy 2-core machine
STOP_TIMEOUT_S = 90.0
# Piper without its random noise speaks the same text the same way twice: local and remote
# runs can be compared sample for sample.
DETERMINISTIC = ("--backend-option", "noise_scale=0", "--backend-option", "noise_w=0")
MAX_TEXT_CHARS = 2000
MAX_CLIP_MB = 1.0


@dataclass
class Server:
    url: str
    token: str
    token_file: Path
    ca_file: Path
    process: subprocess.Popen[str]
    log: Path
    engine_pids: set[int]

    def client(self, token: str | None = "same", **options: Any) -> RemoteEngineClient:
        return RemoteEngineClient(RemoteConfig(self.url, token=self.token if token == "same" else token,
                                               ca_file=str(self.ca_file), **options))

    def stats(self) -> dict[str, Any]:
        stats = self.client().server_stats()
        self.engine_pids.update(r["engine_pid"] for r in stats["replicas"] if r.get("engine_pid"))
        return stats

    def wait_stats(self, check: Any, timeout: float = 60.0) -> dict[str, Any]:
        """Poll /stats (replicas publish every 2 s) until ``check(stats)`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            stats = self.stats()
            if check(stats):
                return stats
            if time.monotonic() > deadline:
                raise AssertionError(f"the server's stats never got there: {json.dumps(stats)[:2000]}")
            time.sleep(0.5)

    def cli(self) -> list[str]:
        """The arguments that point a command at this server."""
        return ["--engine-url", self.url, "--token-file", str(self.token_file), "--engine-ca", str(self.ca_file)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def dubstudio(*args: str) -> list[str]:
    return [sys.executable, "-m", "app.cli", *args]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("server")
    token = "test-token-" + os.urandom(12).hex()
    token_file = folder / "token"
    token_file.write_text(token + "\n")
    token_file.chmod(0o600)
    cert, key = self_signed(folder)
    port = free_port()
    log = folder / "server.log"
    command = dubstudio("serve", "--port", str(port), "--num-cpus", "2", "--replicas", "2", "--slots", "1",
                        "--token-file", str(token_file), "--tls-cert", str(cert), "--tls-key", str(key),
                        "--max-text-chars", str(MAX_TEXT_CHARS), "--max-clip-mb", str(MAX_CLIP_MB),
                        "--cache-dir", str(folder / "cache"), *DETERMINISTIC)
    # Ray's session folder holds Unix sockets, whose paths may not pass 107 bytes: a short one.
    ray_dir = tempfile.mkdtemp(prefix="ds-ray-", dir="/tmp")
    env = {**os.environ, "RAY_TMPDIR": ray_dir, "PYTHONUNBUFFERED": "1"}
    out = log.open("w")
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=out, text=True, env=env,
                               start_new_session=True)
    ready = threading.Event()
    lines: list[str] = []

    def watch() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            out.write(line)
            out.flush()
            if "ready at" in line:
                ready.set()

    threading.Thread(target=watch, daemon=True).start()
    url = f"https://127.0.0.1:{port}"
    started = time.monotonic()
    while not ready.wait(1.0):
        if process.poll() is not None or time.monotonic() - started > READY_TIMEOUT_S:
            _stop(process)
            if process.stdout is not None:
                process.stdout.close()
            out.close()
            shutil.rmtree(ray_dir, ignore_errors=True)
            raise AssertionError(f"dubstudio serve did not start (exit {process.returncode}); log:\n"
                                 + log.read_text()[-6000:])
    running = Server(url, token, token_file, cert, process, log, set())
    # Both replicas have published their stats (and engine pids) before tests count on them.
    running.wait_stats(lambda s: len(s["replicas"]) == 2, timeout=120)
    try:
        yield running
    finally:
        _stop(process)
        if process.stdout is not None:
            process.stdout.close()
        out.close()
        shutil.rmtree(ray_dir, ignore_errors=True)
        leftovers = [pid for pid in running.engine_pids if _alive(pid)]
        for pid in leftovers:
            os.kill(pid, signal.SIGKILL)
        assert not leftovers, f"engine processes outlived the server: {leftovers}"


def _stop(process: subprocess.Popen[str]) -> None:
    """SIGTERM (the command's clean stop), then the whole session group if it hangs."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead already: its parent just has not reaped it
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def health(url: str, ca_file: Path) -> Any:
    import ssl

    context = ssl.create_default_context(cafile=str(ca_file))
    with urllib.request.urlopen(f"{url}/health", context=context, timeout=10) as response:
        return json.loads(response.read())

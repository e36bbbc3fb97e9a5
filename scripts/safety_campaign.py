"""A campaign of bad inputs and faults against one DubStudio tree (issue 20's own campaign).

Each try runs a real `dubstudio` command (or, for what has no command, a few lines of the
project API) in a fresh scratch folder and records how it ended: the exit status and the last
line it printed, TRACEBACK when Python printed one, or STILL RUNNING when it had not ended after
``--timeout`` seconds (then killed: a hang, or a bench that should never have started). Run it
against two trees to compare them:

    .venv/bin/python scripts/safety_campaign.py --tree /path/to/old/tree --json old.json
    .venv/bin/python scripts/safety_campaign.py --json new.json
    .venv/bin/python scripts/safety_campaign.py --compare old.json new.json   # a markdown table

The surfaces are those issue 20 names: video import, media paths and facts in project.json,
video export, qa, serve and the CLI's extremes. Nothing here starts an engine, so it runs in a
few minutes on two cores; serve stops at its option checks (no Ray cluster is started).

``--serve`` attacks a running server instead (issue 34): it starts ``dubstudio serve`` on
127.0.0.1 with a token, one Piper replica and small limits (the serve extra must be installed:
scripts/serve-env), sends it bad requests, oversized bodies, bad tokens, malformed HTTP framing and
messages, slow clients and absurd numbers, and stops it. Each try has an expected answer (a status
and a code, or a job stream's end) and is marked held or NOT HELD; after each one ``/health`` must
still answer, and after the stop no engine may be left. About 45 tries, each bounded by
``--timeout``, in 5-10 minutes with the server's start.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Try:
    name: str
    args: list[str]  # after `dubstudio`; "{d}" is the scratch folder
    setup: Callable[[Path], None] = lambda d: None
    python: str = ""  # instead of a command: a snippet run with the tree's packages ({d} filled in)


def sample(d: Path, with_take: bool = True) -> None:
    """The sample project at d/p with one synthetic take per line, and a 3 s video at d/v.mp4."""
    shutil.copytree(ROOT / "resources" / "sample_project", d / "p")
    sys.path.insert(0, str(ROOT))
    import numpy as np
    import soundfile as sf

    from tests.app.project.media_fixtures import make_video

    make_video(d / "v.mp4", seconds=3.0)
    data = json.loads((d / "p" / "project.json").read_text())
    (d / "p" / "takes").mkdir(exist_ok=True)
    if with_take:
        for line in data["lines"]:
            rel = f"takes/{line['id']}.wav"
            sf.write(str(d / "p" / rel), (0.2 * np.sin(np.arange(22050) / 8)).astype(np.float32), 22050)
            line["takes"] = [{"id": f"t{line['id']}", "path": rel, "fingerprint": "x", "duration_s": 1.0, "sample_rate": 22050,
                              "backend": "piper", "text": line["text"]}]
            line["chosen_take"] = f"t{line['id']}"
    (d / "p" / "project.json").write_text(json.dumps(data))


def edit_project(d: Path, change: Callable[[dict], None]) -> None:
    path = d / "p" / "project.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def with_video(d: Path, **facts: object) -> None:
    sample(d)
    (d / "p" / "media").mkdir(exist_ok=True)
    shutil.copy(d / "v.mp4", d / "p" / "media" / "v.mp4")

    def change(data: dict) -> None:
        data["video"] = {"path": "media/v.mp4", "duration_s": 3.0, "fps": 25.0, "width": 160, "height": 96,
                         "codec": "h264", "audio_streams": [], "subtitle_streams": [], **facts}

    edit_project(d, change)


def fifo(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    os.mkfifo(path)


def video_is(d: Path, make: Callable[[Path], None]) -> None:
    with_video(d)
    target = d / "p" / "media" / "v.mp4"
    target.unlink()
    make(target)


EXPORT_VIDEO = "from app.project import Project; from app.project.video_export import export_video; " \
               "print(export_video(Project.load('{d}/p')).files)"
MIX = "from app.project import Project; from app.project.export import export_mix; print(export_mix(Project.load('{d}/p')).files)"

TRIES = [
    # video import (`new`)
    Try("new --video FIFO", ["new", "{d}/n", "--video", "{d}/fifo.mp4"], lambda d: fifo(d / "fifo.mp4")),
    Try("new --subtitles FIFO", ["new", "{d}/n", "--video", "{d}/v.mp4", "--subtitles", "{d}/s.srt"],
        lambda d: (sample(d), fifo(d / "s.srt"))),
    Try("new --voice NAME=FIFO", ["new", "{d}/n", "--video", "{d}/v.mp4", "--voice", "Maya={d}/c.wav"],
        lambda d: (sample(d), fifo(d / "c.wav"))),
    Try("new --voice a 10 min 1 s clip", ["new", "{d}/n", "--video", "{d}/v.mp4", "--voice", "Maya={d}/c.wav"],
        lambda d: (sample(d), __import__("soundfile").write(str(d / "c.wav"), __import__("numpy").zeros(8000 * 601),
                                                            8000))),
    Try("new --video a text file", ["new", "{d}/n", "--video", "{d}/t.mp4"], lambda d: (d / "t.mp4").write_text("hi")),
    Try("new --video an audio-only WAV", ["new", "{d}/n", "--video", str(ROOT / "resources/voices/maya.wav")]),
    Try("new PROJECT_DIR is a file", ["new", "{d}/f", "--video", "{d}/v.mp4"],
        lambda d: (sample(d), (d / "f").write_text("x"))),
    Try("new PROJECT_DIR a dangling symlink", ["new", "{d}/l", "--video", "{d}/v.mp4"],
        lambda d: (sample(d), (d / "l").symlink_to(d / "nowhere" / "x"))),
    Try("new --link, video inside PROJECT_DIR", ["new", "{d}/n", "--video", "{d}/n/v.mp4", "--link"],
        lambda d: (sample(d), (d / "n").mkdir(), shutil.copy(d / "v.mp4", d / "n" / "v.mp4"))),
    Try("new --subtitle-stream 99", ["new", "{d}/n", "--video", "{d}/v.mp4", "--subtitle-stream", "99"], sample),
    Try("new --subtitles with a NUL byte", ["new", "{d}/n", "--video", "{d}/v.mp4", "--subtitles", "{d}/s.srt"],
        lambda d: (sample(d), (d / "s.srt").write_bytes(b"1\n00:00:01,000 --> 00:00:02,000\nHi\x00 there\n"))),
    Try("new into a folder left by a killed new", ["new", "{d}/n", "--video", "{d}/v.mp4"],
        lambda d: (sample(d), (d / "n" / "voices").mkdir(parents=True), (d / "n" / ".dubstudio-new").write_text(
            '{"before": [], "created_folder": true}'))),
    # media facts and paths in project.json
    Try("project.json video.duration_s 1e12", ["qa", "{d}/p"], lambda d: with_video(d, duration_s=1e12)),
    Try("project.json video.width -5", ["qa", "{d}/p"], lambda d: with_video(d, width=-5)),
    Try("project.json video.fps 1e300", ["qa", "{d}/p"], lambda d: with_video(d, fps=1e300)),
    Try("project.json audio sample_rate 10**12", ["qa", "{d}/p"], lambda d: with_video(
        d, audio_streams=[{"index": 1, "codec": "aac", "channels": 2, "sample_rate": 10**12}])),
    Try("project.json video.path ../outside.mp4", ["qa", "{d}/p"], lambda d: (with_video(d), edit_project(
        d, lambda data: data["video"].update(path="../v.mp4")))),
    Try("project.json guide_audio is a FIFO (mix)", [], lambda d: (sample(d), fifo(d / "p" / "media" / "guide.flac"),
                                                                  edit_project(d, lambda data: data.update(
                                                                      guide_audio="media/guide.flac",
                                                                      settings={"guide_mix": "duck"}))), MIX),
    Try("a take is a FIFO (mix)", [], lambda d: (sample(d), fifo(d / "p" / "takes" / "line01.wav")), MIX),
    # video export
    Try("export video: the video is a FIFO", [], lambda d: video_is(d, fifo), EXPORT_VIDEO),
    Try("export video: an audio file as the video", [], lambda d: video_is(
        d, lambda t: shutil.copy(ROOT / "resources/voices/maya.wav", t)), EXPORT_VIDEO),
    Try("export video: the video is a folder", [], lambda d: video_is(d, lambda t: t.mkdir()), EXPORT_VIDEO),
    Try("export video: duration_s claims 3 h", [], lambda d: with_video(d, duration_s=10_800.0),
        EXPORT_VIDEO.replace("print(export_video(Project.load('{d}/p')).files)",
                             "r = export_video(Project.load('{d}/p')); print(f'{{r.duration_s:.1f}} s of dub')")),
    Try("export video: exports/ is a hard link target", [], lambda d: (with_video(d), (d / "p" / "exports").mkdir(),
                                                                       (d / "mine").write_text("mine"),
                                                                       os.link(d / "mine", d / "p/exports/Sample.mp4")),
        EXPORT_VIDEO.replace("Project.load('{d}/p')", "Project.load('{d}/p'), '{d}/p/exports/Sample.mp4'")),
    # qa
    Try("qa: a take is a FIFO", ["qa", "{d}/p", "--lines", "1"], lambda d: (sample(d), fifo(d / "p" / "takes" / "line01.wav"))),
    Try("qa --save: the lock is a FIFO", ["qa", "{d}/p", "--save"], lambda d: (sample(d), fifo(d / "p/.dubstudio.lock"))),
    Try("qa --save: the lock is a hard link out", ["qa", "{d}/p", "--save"],
        lambda d: (sample(d), (d / "mine").write_text("mine"), os.link(d / "mine", d / "p/.dubstudio.lock"))),
    Try("qa --lines 0", ["qa", "{d}/p", "--lines", "0"], sample),
    Try("qa through a symlinked project folder", ["qa", "{d}/link", "--lines", "1"],
        lambda d: (sample(d), (d / "link").symlink_to(d / "p"))),
    # serve (stops at its checks: nothing starts)
    Try("serve --token-file FIFO", ["serve", "--token-file", "{d}/t"], lambda d: fifo(d / "t")),
    Try("serve --max-clip-mb nan", ["serve", "--max-clip-mb", "nan"]),
    Try("serve --clip-store-mb -1", ["serve", "--clip-store-mb", "-1"]),
    Try("serve --job-timeout inf", ["serve", "--job-timeout", "inf"]),
    Try("serve --max-text-chars 0", ["serve", "--max-text-chars", "0"]),
    Try("serve --replica-cpus nan", ["serve", "--replica-cpus", "nan"]),
    Try("serve --gpus-per-replica inf", ["serve", "--gpus-per-replica", "inf"]),
    Try("serve --clip-store-mb below --max-clip-mb", ["serve", "--clip-store-mb", "4", "--max-clip-mb", "32"]),
    # CLI extremes
    Try("bench --seconds nan", ["bench", "--seconds", "nan"]),
    Try("bench --think inf", ["bench", "--think", "inf"]),
    Try("bench --timeout nan", ["bench", "--timeout", "nan"]),
    Try("bench --objective-p95-first-audio nan", ["bench", "--objective-p95-first-audio", "nan"]),
    Try("bench --objective-max-error-rate 5", ["bench", "--objective-max-error-rate", "5"]),
    Try("bench --rate inf --mode open", ["bench", "--mode", "open", "--rate", "inf"]),
    Try("bench --warmup -1", ["bench", "--warmup", "-1"]),
    Try("bench --fail-under 0", ["bench", "--fail-under", "0"]),
    Try("bench --slots 100000", ["bench", "--slots", "100000"]),
    Try("bench --texts FIFO", ["bench", "--texts", "{d}/t.txt"], lambda d: fifo(d / "t.txt")),
    Try("say --engine-load-timeout nan", ["say", "hi", "--out", "{d}/o.wav", "--engine-load-timeout", "nan"]),
    Try("say --voice FIFO", ["say", "hi", "--out", "{d}/o.wav", "--voice", "{d}/c.wav"], lambda d: fifo(d / "c.wav")),
    Try("render --max-active 0", ["render", "{d}/p", "--max-active", "0"], sample),
]


def run_try(tree: Path, attempt: Try, timeout: float) -> str:
    with tempfile.TemporaryDirectory(prefix="campaign-") as scratch:
        d = Path(scratch)
        attempt.setup(d)
        if attempt.python:  # a coded ProjectError ends it like a command: its line, exit 1
            snippet = attempt.python.format(d=d)
            code = f"import sys\nfrom app.project.errors import ProjectError\ntry:\n    {snippet}\n" \
                   "except ProjectError as error:\n    sys.exit(str(error))\n"
            command = [sys.executable, "-c", code]
        else:
            command = [sys.executable, "-m", "app.cli", *[a.format(d=d) for a in attempt.args]]
        process = subprocess.Popen(command, cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True, env={**os.environ, "PYTHONPATH": str(tree)})
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return f"STILL RUNNING after {timeout:.0f} s (killed)"
        text = (err.strip() or out.strip()).splitlines()
        if "Traceback (most recent call last)" in err:
            return f"TRACEBACK, exit {process.returncode}: {text[-1][:110] if text else ''}"
        last = next((line for line in reversed(text) if line.strip() and not line.startswith(" ")), "")
        return f"exit {process.returncode}: {last[:110]}"


# --- serve: a running server attacked over HTTP (issue 34) -----------------------------------

SERVE_READY_S = 600.0  # a Ray head, the deployments and one engine's load on a busy 2-core machine
SERVE_LIMITS = {"max_text_chars": 2000, "max_clip_mb": 1.0}


@dataclass
class Server:
    """A `dubstudio serve` the campaign started: where it listens, its token, the clip uploaded."""

    port: int
    token: str
    clip: str  # the sha256 of a clip the server holds
    timeout: float
    process: subprocess.Popen[str]
    log: Path
    errors: list[str] = field(default_factory=list)  # the last line of each traceback its logs hold, once stopped

    def request(self, method: str, path: str, body: bytes | Iterable[bytes] | None = None,
                headers: dict[str, str] | None = None,
                token: str | None = "") -> str:
        """The answer to one request, in a few words ("401 E_UNAUTHORIZED", "200 stream: JobFailed
        E_BAD_SETTING"); ``token`` "" sends the server's own, None none."""
        sent = {"Authorization": f"Bearer {token or self.token}"} if token is not None else {}
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        try:
            connection.request(method, path, body=body, headers={**sent, **(headers or {})})
            return answer(connection.getresponse())
        finally:
            connection.close()

    def job_body(self, change: Callable[[dict[str, Any]], None] = lambda job: None, text: str = "Hello there.",
                 **extra: Any) -> bytes:
        """The body of a job speaking ``text`` in the uploaded clip's voice, its JSON changed by ``change``."""
        sys.path.insert(0, str(ROOT))
        from engine.core.protocol import Job, VoiceSpec
        from engine.synthesis.client.wire import to_json

        job = to_json(Job(text, VoiceSpec("clip.wav", "What is said in the clip.")))
        change(job)
        return json.dumps({"job": job, "clip": self.clip, **extra}).encode()

    def job(self, change: Callable[[dict[str, Any]], None] = lambda job: None, **extra: Any) -> str:
        """POST /v1/jobs of a short line, its JSON changed by ``change``."""
        return self.request("POST", "/v1/jobs", self.job_body(change, **extra), {"Content-Type": "application/json"})

    def raw(self, data: bytes, *, trickle: bytes = b"", wait_s: float = 5.0) -> str:
        """What the server answers to ``data`` sent on a bare socket, then ``trickle`` a byte a
        second, in a few words; it may also close, or wait for more."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=wait_s) as sock:
            try:
                sock.sendall(data)
                for byte in trickle:
                    time.sleep(1.0)
                    sock.send(bytes([byte]))
                reply = sock.recv(65536)
            except TimeoutError:
                return f"no answer after {wait_s:.0f} s (waiting for more)"
            except OSError:
                reply = b""
        first = reply.split(b"\r\n", 1)[0].decode("latin-1")
        return f"{first.split(' ', 2)[1]} (raw)" if first.startswith("HTTP/") else "closed without an answer"

    def healthy(self) -> bool:
        try:
            return self.request("GET", "/health", token=None).startswith("200")
        except OSError:
            return False

    def stats(self) -> dict[str, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        try:
            connection.request("GET", "/stats", headers={"Authorization": f"Bearer {self.token}"})
            return dict(json.loads(connection.getresponse().read()))
        finally:
            connection.close()


def answer(response: http.client.HTTPResponse) -> str:
    """A response in a few words: its status and code, or how its job stream ended."""
    sys.path.insert(0, str(ROOT))
    from engine.synthesis.client.wire import WireError, read_frame

    if response.getheader("content-type", "").startswith("application/x-dubstudio-frames"):
        last = "nothing"
        try:
            while (event := read_frame(response)) is not None:
                last = f"{type(event).__name__} {getattr(event, 'code', '') or ''}".strip()
        except WireError as error:
            last += f", then a broken frame ({error})"
        return f"{response.status} stream: {last}"
    body = response.read(1 << 20)
    try:
        code = json.loads(body).get("code") or ""
    except (ValueError, AttributeError):
        code = body[:60].decode("utf-8", "replace")
    return f"{response.status} {code}".strip()


@contextlib.contextmanager
def running_server(tree: Path, scratch: Path, timeout: float) -> Iterator[Server]:
    """`dubstudio serve` from ``tree`` on a free port of 127.0.0.1, until it is ready; stopped after."""
    token = "campaign-" + os.urandom(16).hex()
    token_file = scratch / "token"
    token_file.write_text(token + "\n")
    token_file.chmod(0o600)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    log = scratch / "server.log"
    command = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--num-cpus", "2",
               "--replicas", "1", "--slots", "1", "--token-file", str(token_file), "--job-timeout", "60",
               "--max-text-chars", str(SERVE_LIMITS["max_text_chars"]), "--max-clip-mb", str(SERVE_LIMITS["max_clip_mb"]),
               "--cache-dir", str(scratch / "cache")]
    ray_dir = tempfile.mkdtemp(prefix="ds-ray-", dir="/tmp")  # Ray's socket paths may not pass 107 bytes
    env = {**os.environ, "PYTHONPATH": str(tree), "RAY_TMPDIR": ray_dir, "PYTHONUNBUFFERED": "1"}
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=tree, stdout=out, stderr=subprocess.STDOUT, text=True, env=env,
                                   start_new_session=True)
    server = Server(port, token, "", timeout, process, log)
    try:
        deadline = time.monotonic() + SERVE_READY_S
        while "ready at" not in log.read_text():
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"dubstudio serve did not start (exit {process.returncode}):\n{log.read_text()[-3000:]}")
            time.sleep(1.0)
        clip = (ROOT / "resources" / "voices" / "maya.wav").read_bytes()
        server.clip = hashlib.sha256(clip).hexdigest()
        assert server.request("PUT", f"/v1/clips/{server.clip}?suffix=.wav", clip).startswith("200")
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(120)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)
        server.errors = logged_errors([log, *Path(ray_dir).rglob("*.log"), *Path(ray_dir).rglob("*.err")])
        shutil.rmtree(ray_dir, ignore_errors=True)


RAY_PREFIX = re.compile(r"^(\x1b\[[0-9;]*m)?\([^)]*pid=\d+[^)]*\)(\x1b\[[0-9;]*m)? ?")  # "(ServeReplica:… pid=12) "
# Ray's report that a task was cancelled: what the ingress does to a replica's stream when its
# client goes away (docs/serving.md, Cancel), logged with a traceback though nothing failed.
EXPECTED_ERRORS = ("TaskCancelledError",)
EXCEPTION_LINE = re.compile(r"[A-Za-z_][\w.]*(: |$)")  # "RecursionError: …", "starlette.requests.ClientDisconnect"


def logged_errors(logs: list[Path]) -> list[str]:
    """The exceptions that end the Python tracebacks in ``logs`` (the server's and Ray's own:
    one error shows in several), each once, but a cancelled task's."""
    found: dict[str, None] = {}
    for path in logs:
        text = path.read_text(errors="replace") if path.is_file() else ""
        lines = [RAY_PREFIX.sub("", line) for line in text.splitlines()]
        for n, line in enumerate(lines):
            if "Traceback (most recent call last)" in line:
                end = next((later for later in lines[n + 1:] if EXCEPTION_LINE.match(later)), "")
                if not any(expected in end for expected in EXPECTED_ERRORS):
                    found[end.strip()[:120]] = None
    return list(found)


def slow_headers(server: Server) -> str:
    """Twenty connections that send a request's headers a byte at a time (slowloris) while
    /health is asked: answered, and how long it took."""
    stop = threading.Event()

    def drip() -> None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            for byte in b"GET /v1/info HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000:
                if stop.wait(0.5):
                    return
                sock.send(bytes([byte]))

    threads = [threading.Thread(target=drip, daemon=True) for _ in range(20)]
    for thread in threads:
        thread.start()
    time.sleep(3.0)
    started = time.monotonic()
    healthy = server.healthy()
    took = time.monotonic() - started
    stop.set()
    for thread in threads:
        thread.join(10)
    return f"health {'answered' if healthy else 'FAILED'} in {took:.1f} s with 20 slow clients"


def abandoned_stream(server: Server, read_first: bool) -> str:
    """A long job whose client reads nothing (or its first frame) and goes away once the engine
    runs it: does the engine cancel it (counted failed, never finished, nothing left running)?"""
    before = server.stats()["totals"]
    body = server.job_body(text=" ".join(["A long line to keep the engine busy for a while."] * 30))
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=server.timeout)
    connection.request("POST", "/v1/jobs", body, {"Authorization": f"Bearer {server.token}"})
    response = connection.getresponse()
    if read_first:
        response.read(9)
    deadline = time.monotonic() + 30.0  # replicas publish their stats every 2 s
    while server.stats()["totals"]["running"] == 0 and time.monotonic() < deadline:
        time.sleep(0.5)
    connection.close()
    dropped = time.monotonic()
    while time.monotonic() < dropped + 60.0:
        totals = server.stats()["totals"]
        if totals["running"] == 0 and totals["jobs_failed"] > before["jobs_failed"]:
            finished = totals["jobs_finished"] > before["jobs_finished"]
            return f"{response.status}, dropped; " + ("it FINISHED anyway" if finished else
                                                      f"cancelled by the engine within {time.monotonic() - dropped:.0f} s")
        time.sleep(1.0)
    return f"{response.status}, dropped; the job was still RUNNING (or never failed) 60 s later"


def set_in(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change of a job's JSON: the field at ``path`` ("voice.settings.speed") set to ``value``."""
    def change(job: dict[str, Any]) -> None:
        *parents, name = path.split(".")
        for parent in parents:
            job = job[parent]
        job[name] = value
    return change


@dataclass(frozen=True)
class ServeTry:
    name: str
    attack: Callable[[Server], str]
    holds: str  # a pattern its answer must match to have held


JSON = {"Content-Type": "application/json"}
A_HASH = "0" * 64
SERVE_TRIES = [
    # bad tokens
    ServeTry("no token", lambda s: s.request("GET", "/v1/info", token=None), "^401 E_UNAUTHORIZED"),
    ServeTry("a wrong token", lambda s: s.request("GET", "/v1/info", token="x" * 40), "^401 E_UNAUTHORIZED"),
    ServeTry("the token with one more character", lambda s: s.request("GET", "/v1/info", token=s.token + "x"),
             "^401 E_UNAUTHORIZED"),
    ServeTry("the token as Basic", lambda s: s.request("GET", "/v1/info", token=None,
                                                       headers={"Authorization": f"Basic {s.token}"}), "^401"),
    ServeTry("a token of 60 KiB", lambda s: s.request("GET", "/v1/info", token="t" * 60_000), "^(401|431|400)"),
    ServeTry("a token with bytes that are not ASCII", lambda s: s.raw(
        b"GET /v1/info HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \xff\xfe\xe9\r\n\r\n"), "^(401|400)"),
    ServeTry("a job without a token, with a 10 MB body", lambda s: s.request("POST", "/v1/jobs", b"x" * 10_000_000,
                                                                            token=None), "^(401|413)"),
    ServeTry("/stats without a token", lambda s: s.request("GET", "/stats", token=None), "^401"),
    # bad requests
    ServeTry("a job body that is not JSON", lambda s: s.request("POST", "/v1/jobs", b"{not json", JSON),
             "^400 E_BAD_REQUEST"),
    ServeTry("a job body that is a JSON list", lambda s: s.request("POST", "/v1/jobs", b"[1, 2]", JSON),
             "^400 E_BAD_REQUEST"),
    ServeTry("JSON nested 30,000 deep", lambda s: s.request("POST", "/v1/jobs", b"[" * 30_000 + b"]" * 30_000, JSON),
             "^400 E_BAD_REQUEST"),
    ServeTry("a job without a clip", lambda s: s.request("POST", "/v1/jobs", b'{"job": {}}', JSON),
             "^400 E_BAD_REQUEST"),
    ServeTry("a job naming a clip never uploaded", lambda s: s.request(
        "POST", "/v1/jobs", json.dumps({"job": {}, "clip": A_HASH}).encode(), JSON), "^409 E_CLIP_MISSING"),
    ServeTry("a job that is a string", lambda s: s.request(
        "POST", "/v1/jobs", json.dumps({"job": "speak", "clip": s.clip}).encode(), JSON), "^400 E_BAD_REQUEST"),
    ServeTry("a job whose text is a number", lambda s: s.job(set_in("text", 5)), "^400 E_BAD_REQUEST"),
    ServeTry("a job with a field no job has", lambda s: s.job(set_in("shell", "rm -rf /")), "^400 E_BAD_REQUEST"),
    ServeTry("a message of an unknown type", lambda s: s.job(set_in("type", "Exec")), "^400 E_BAD_REQUEST"),
    ServeTry("a backend the server does not run", lambda s: s.job(backend="../../etc"), "^404 E_BAD_REQUEST"),
    ServeTry("a clip id that climbs out", lambda s: s.request("PUT", "/v1/clips/..%2F..%2Fetc%2Fpasswd", b"x"),
             "^(400|404)"),
    ServeTry("a clip suffix with a path in it", lambda s: s.request("PUT", f"/v1/clips/{A_HASH}?suffix=/../../x.wav",
                                                                    b"x"), "^400 E_BAD_REQUEST"),
    ServeTry("a clip whose bytes are not its hash", lambda s: s.request("PUT", f"/v1/clips/{A_HASH}", b"RIFF"),
             "^400 E_BAD_REQUEST"),
    ServeTry("a voice that is not a voice", lambda s: s.request(
        "POST", "/v1/voices", json.dumps({"voice": [1], "clip": s.clip}).encode(), JSON), "^400 E_BAD_REQUEST"),
    ServeTry("an unknown path", lambda s: s.request("GET", "/v1/admin"), "^404"),
    ServeTry("DELETE on the jobs", lambda s: s.request("DELETE", "/v1/jobs"), "^405"),
    # oversized bodies
    ServeTry("a text over --max-text-chars", lambda s: s.job(set_in("text", "word " * 1000)), "^413 E_TEXT_TOO_LONG"),
    ServeTry("a 5 MB job body", lambda s: s.job(set_in("text", "a" * 5_000_000)), "^413 E_TEXT_TOO_LONG"),
    ServeTry("a clip declaring 10 GB", lambda s: s.raw(
        f"PUT /v1/clips/{A_HASH} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {s.token}\r\n"
        "Content-Length: 10000000000\r\n\r\n".encode()), "^413"),
    ServeTry("a 3 MB clip sent in chunks, no length", lambda s: s.request(
        "PUT", f"/v1/clips/{A_HASH}", iter([b"\0" * 65536] * 48)), "^413 E_CLIP_TOO_LARGE"),
    ServeTry("a Content-Length of 2**64", lambda s: s.raw(
        f"POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {s.token}\r\n"
        f"Content-Length: {2**64}\r\n\r\n{{}}".encode()), "^(400|413)"),
    # malformed framing
    ServeTry("a chunk size that is not hex", lambda s: s.raw(
        f"POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {s.token}\r\nTransfer-Encoding: chunked\r\n\r\n"
        "zz\r\n{}\r\n0\r\n\r\n".encode()), "^400|closed"),
    ServeTry("a negative Content-Length", lambda s: s.raw(
        b"POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n"), "^400|closed"),
    ServeTry("a body shorter than its Content-Length", lambda s: s.raw(
        f"POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {s.token}\r\n"
        "Content-Length: 1000\r\n\r\n{\"job\"".encode()), "^400|closed|no answer"),
    ServeTry("bytes that are not HTTP", lambda s: s.raw(os.urandom(4096)), "^400|closed"),
    ServeTry("a request line of 100 KB", lambda s: s.raw(b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\n\r\n"),
             "^(400|414|431)|closed"),
    # slow clients
    ServeTry("20 clients sending headers a byte at a time", slow_headers, "^health answered"),
    ServeTry("a body trickled a byte a second for 10 s", lambda s: s.raw(
        f"POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {s.token}\r\nContent-Length: 100\r\n\r\n".encode(),
        trickle=b'{"job": {"te'), "^400|closed|no answer"),
    ServeTry("a job stream never read, then dropped", lambda s: abandoned_stream(s, read_first=False),
             "cancelled by the engine"),
    ServeTry("a job stream dropped after its first frame", lambda s: abandoned_stream(s, read_first=True),
             "cancelled by the engine"),
    # absurd numbers
    ServeTry("speed 1e308", lambda s: s.job(set_in("voice.settings.speed", 1e308)), "E_BAD_SETTING"),
    ServeTry("speed NaN", lambda s: s.job(set_in("voice.settings.speed", float("nan"))), "E_BAD_SETTING"),
    ServeTry("pitch -Infinity", lambda s: s.job(set_in("voice.settings.pitch_semitones", float("-inf"))),
             "E_BAD_SETTING"),
    ServeTry("variant 10**30", lambda s: s.job(set_in("variant", 10**30)), "E_BAD_REQUEST"),
    ServeTry("variant -1", lambda s: s.job(set_in("variant", -1)), "E_BAD_REQUEST"),
    ServeTry("priority 99", lambda s: s.job(set_in("priority", 99)), "^400 E_BAD_REQUEST"),
    ServeTry("a job id of 100,000 characters", lambda s: s.job(set_in("job_id", "j" * 100_000)),
             "^(400|413) E_"),
    ServeTry("a job id with a path in it", lambda s: s.job(set_in("job_id", "../../../etc/passwd")),
             "stream: JobFinished|^400 E_BAD_REQUEST"),
    ServeTry("a good job, after all this", lambda s: s.job(), "^200 stream: JobFinished"),
]


def run_serve(tree: Path, timeout: float, only: str) -> dict[str, str]:
    """Every serve try against one server; each answer prefixed held or NOT HELD."""
    results: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="campaign-serve-") as scratch, \
            running_server(tree, Path(scratch), timeout) as server:
        engines = {r["engine_pid"] for r in server.stats()["replicas"] if r.get("engine_pid")}
        for attempt in (t for t in SERVE_TRIES if only in t.name):
            try:
                said = attempt.attack(server)
            except (OSError, http.client.HTTPException) as error:
                said = f"{type(error).__name__}: {error}"
            held = re.search(attempt.holds, said) is not None
            if not server.healthy():
                said, held = f"{said}; /health no longer answers", False
            results[attempt.name] = f"{'held' if held else 'NOT HELD'}: {said}"[:160]
            print(f"{attempt.name}: {results[attempt.name]}", flush=True)
            engines |= {r["engine_pid"] for r in server.stats()["replicas"] if r.get("engine_pid")}
    left = [pid for pid in engines if _alive(pid)]
    results["the server stopped: no engine left"] = "held" if not left else f"NOT HELD: engines {left} still run"
    results["no traceback in the server's logs"] = "held" if not server.errors else \
        f"NOT HELD: {len(server.errors)}, e.g. {server.errors[0]}"
    for name in ("the server stopped: no engine left", "no traceback in the server's logs"):
        print(f"{name}: {results[name]}", flush=True)
    for error in server.errors:
        print(f"  {error}", file=sys.stderr)
    return results


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", default=str(ROOT), help="the DubStudio tree to try (default: this one)")
    parser.add_argument("--timeout", type=float, default=25.0)
    parser.add_argument("--json", default=None)
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--only", default="", metavar="TEXT", help="run only the tries whose name holds TEXT")
    parser.add_argument("--serve", action="store_true",
                        help="attack a `dubstudio serve` started on 127.0.0.1 instead (needs scripts/serve-env)")
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(Path(p).read_text()) for p in args.compare)
        def cell(text: str) -> str:  # scratch folders differ from run to run: not worth a column's width
            return re.sub(r"/tmp/campaign-[^/ ]+/?", "…/", text).replace("|", "\\|")

        print("| try | before | after |\n|---|---|---|")
        for name in before:
            print(f"| {name} | {cell(before[name])} | {cell(after.get(name, ''))} |")
        return
    results = {}
    started = time.monotonic()
    if args.serve:
        results = run_serve(Path(args.tree), args.timeout, args.only)
        held = sum(outcome.startswith("held") for outcome in results.values())
        print(f"{held} of {len(results)} held", file=sys.stderr)
    for attempt in (t for t in TRIES if args.only in t.name and not args.serve):
        results[attempt.name] = run_try(Path(args.tree), attempt, args.timeout)
        print(f"{attempt.name}: {results[attempt.name]}", flush=True)
    print(f"{len(results)} tries in {time.monotonic() - started:.0f} s", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()

"""RemoteEngineClient: the engine client for a DubStudio server (``dubstudio serve``).

It has the interface of :class:`engine.synthesis.client.local.EngineClient` (start, submit, cancel,
prepare_voice, request_stats, get_event, wake, close) and hands out the same events with the
same ErrorCodes, so the studio, ``render``, ``say``, ``bench`` and the load core run on either.
It needs only the standard library (and numpy for audio): the studio never joins a Ray cluster.

How it maps onto HTTP (docs/serving.md):
- each job is one ``POST /v1/jobs`` whose response streams the job's events as frames
  (engine.synthesis.client.wire) on a thread of its own; the events of all jobs meet in one queue that
  :meth:`get_event` reads, as with the local engine;
- a reference clip is uploaded once per server by content hash (``PUT /v1/clips/SHA256``) and
  jobs name it by that hash; the server routes a voice to the replica that holds it;
- cancel closes the job's connection: the server cancels the engine job at once;
- a broken connection (network fault, replica crash) follows the local client's rule: a job
  that was already speaking is reported failed-retryable and resubmitted (up to
  ``max_retries`` times), a job still queued is resubmitted silently, in both cases on a new
  connection that waits for the server to come back for up to ``reconnect_window_s``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import http.client
import json
import os
import queue
import socket
import ssl
import threading
import time
import urllib.parse
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from engine.core.audio_io import file_digest
from engine.core.files import FileError, read_regular_file
from engine.core.protocol import (
    EngineReady,
    EngineStopped,
    ErrorCode,
    Event,
    Job,
    JobFailed,
    JobFinished,
    JobStarted,
    RequestFailed,
    StartProgress,
    Stats,
    VoicePrepared,
    VoiceSpec,
)
from engine.synthesis.client.local import EngineStartError
from engine.synthesis.client.wire import WireError, from_json, read_frame, to_json

RETRY_BACKOFF_S = (0.25, 0.5, 1.0, 2.0)  # waits between attempts to reach the server again
PREPARE_TIMEOUT_S = 600.0  # a voice on a cold replica: clip fetch, speaker encoder load, conditioning
STATS_SUMS = ("slots", "queued", "running", "jobs_finished", "jobs_failed", "cache_memory_hits",
              "cache_disk_hits", "cache_misses", "cache_rebuilt", "computing", "warming_up")  # a server's Stats: these summed over replicas


@dataclass
class RemoteConfig:
    """Where the server is and how to talk to it."""

    url: str  # http(s)://host:port of a `dubstudio serve`
    token: str | None = None  # the bearer token, when the server asks for one
    backend: str | None = None  # None: the server's first backend
    ca_file: str | None = None  # a CA or self-signed certificate to trust for https
    auto_retry: bool = True  # resubmit jobs whose stream broke while they were speaking
    max_retries: int = 2
    connect_timeout_s: float = 10.0
    reconnect_window_s: float = 30.0  # how long a job keeps trying to reach the server

    def validate(self) -> None:
        parts = urllib.parse.urlsplit(self.url)
        try:
            parts.port  # noqa: B018 - parsing it is the check
        except ValueError:
            parts = parts._replace(scheme="")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise EngineStartError(ErrorCode.BAD_REQUEST,
                                   f"The engine URL must look like http://HOST:PORT or https://HOST:PORT, not {self.url!r}")


def read_token_file(path: str | os.PathLike[str]) -> str:
    """A bearer token from a file (first line, stripped); EngineStartError when it cannot be read."""
    try:
        token = read_regular_file(path).decode("utf-8").strip()  # a named pipe is refused, not waited on
    except (OSError, UnicodeDecodeError) as error:
        raise EngineStartError(ErrorCode.UNAUTHORIZED, f"Cannot read the token file {path}: {error}") from None
    if not token:
        raise EngineStartError(ErrorCode.UNAUTHORIZED, f"The token file {path} is empty")
    return token


class RemoteError(Exception):
    """The server refused a request: an ErrorCode and its sentence."""

    def __init__(self, code: ErrorCode, message: str, status: int = 0) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
        self.status = status


class _Broken(Exception):
    """The connection failed or the server reported a retryable failure mid-job."""


@dataclass
class _RemoteJob:
    job: Job
    running: bool = False
    attempts: int = 0
    cancelled: bool = False
    connection: http.client.HTTPConnection | None = None
    wake: threading.Event = dataclasses.field(default_factory=threading.Event)


class RemoteEngineClient:
    """An engine on a DubStudio server, behind the local client's interface (module docstring)."""

    def __init__(self, config: RemoteConfig) -> None:
        self.config = config  # checked on first use, so a bad URL is reported like any failed start
        self._endpoint: tuple[str, int, ssl.SSLContext | None] | None = None  # host, port, TLS context
        self._events: queue.Queue[Event] = queue.Queue()
        self._jobs: dict[str, _RemoteJob] = {}
        self._lock = threading.Lock()
        self._uploaded: set[str] = set()
        self._upload_locks: dict[str, threading.Lock] = {}
        self._closing = False
        self.ready: EngineReady | None = None
        self.engine_start_s = 0.0  # start() to the server's answer
        self.restarts = 0  # connections that broke mid-job and were made again
        self.server_info: dict[str, Any] = {}
        self.backend = config.backend

    # --- lifecycle ------------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """No engine process runs on this computer."""
        return None

    @property
    def target(self) -> str:
        return self.config.url

    def start(self, on_progress: StartProgress | None = None) -> EngineReady:
        """Ask the server what it runs; EngineStartError (E_ENGINE_START, E_UNAUTHORIZED) if it cannot.

        ``on_progress`` is there for the local client's interface: a server's engines are
        running already, so there are no start-up stages to report.
        """
        started = time.monotonic()
        query = f"?backend={urllib.parse.quote(self.config.backend)}" if self.config.backend else ""
        try:
            info = self._request_json("GET", f"/v1/info{query}")
        except RemoteError as error:
            raise EngineStartError(error.code, error.message) from None
        except (OSError, http.client.HTTPException) as error:
            raise EngineStartError(ErrorCode.ENGINE_START,
                                   f"Cannot reach the engine server at {self.config.url}: {error}") from None
        try:
            ready = from_json(info["ready"], EngineReady)
        except (KeyError, WireError) as error:
            raise EngineStartError(ErrorCode.ENGINE_START, f"{self.config.url} is not a DubStudio server: {error}") from None
        self.server_info = info
        self.backend = info.get("backend", self.backend)
        # The server's capacity, as one engine: every replica's slots.
        slots = int(info.get("slots_per_replica", ready.slots)) * max(1, int(info.get("replicas", 1)))
        self.ready = dataclasses.replace(ready, slots=slots, pid=0)
        self.engine_start_s = time.monotonic() - started
        return self.ready

    def close(self, timeout: float = 5.0) -> None:
        """Cancel every job still streaming and wait briefly for their threads."""
        self._closing = True
        with self._lock:
            jobs = list(self._jobs.values())
        for item in jobs:
            self._interrupt(item)

    def __enter__(self) -> RemoteEngineClient:
        if self.ready is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- requests -------------------------------------------------------------------------

    def submit(self, job: Job) -> float:
        """Start a job on its own thread; returns the monotonic time of submission."""
        item = _RemoteJob(job)
        with self._lock:
            if job.job_id in self._jobs:
                self._emit(JobFailed(job.job_id, ErrorCode.DUPLICATE_JOB, f"Job {job.job_id} is already queued or running"))
                return time.monotonic()
            self._jobs[job.job_id] = item
        submitted = time.monotonic()
        threading.Thread(target=self._run_job, args=(item,), name="remote-job", daemon=True).start()
        return submitted

    def cancel(self, job_id: str) -> None:
        with self._lock:
            item = self._jobs.get(job_id)
        if item is not None:
            item.cancelled = True
            self._interrupt(item)

    def set_slots(self, slots: int) -> None:
        """A server's slots are its administrator's choice (``dubstudio serve --slots``): ignored."""

    def prepare_voice(self, voice: VoiceSpec) -> str:
        request_id = uuid.uuid4().hex
        threading.Thread(target=self._prepare, args=(voice, request_id), name="remote-prepare", daemon=True).start()
        return request_id

    def request_stats(self) -> str:
        request_id = uuid.uuid4().hex
        threading.Thread(target=self._stats, args=(request_id,), name="remote-stats", daemon=True).start()
        return request_id

    def wake(self) -> None:
        """Make a get_event() blocked in another thread return EngineStopped('wake')."""
        self._emit(EngineStopped("wake"))

    def server_stats(self) -> dict[str, Any]:
        """The server's GET /stats: replicas, queue depth, cache hits, GPU memory (blocking)."""
        return self._request_json("GET", "/stats")

    def ping(self) -> float:
        """Seconds for one round trip to the server (GET /health); raises OSError when down."""
        started = time.monotonic()
        self._request_json("GET", "/health")
        return time.monotonic() - started

    # --- events ---------------------------------------------------------------------------

    def get_event(self, timeout: float | None = None) -> Event | None:
        """The next event, or None after ``timeout`` seconds (None: wait as long as it takes)."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def _emit(self, event: Event) -> None:
        self._events.put(event)

    # --- HTTP -----------------------------------------------------------------------------

    def _connect(self, timeout: float | None) -> http.client.HTTPConnection:
        if self._endpoint is None:
            self.config.validate()
            parts = urllib.parse.urlsplit(self.config.url)
            context = None
            if parts.scheme == "https":
                try:
                    context = ssl.create_default_context(cafile=self.config.ca_file)
                except (OSError, ssl.SSLError) as error:
                    raise EngineStartError(ErrorCode.BAD_REQUEST,
                                           f"Cannot use the certificate {self.config.ca_file}: {error}") from None
            self._endpoint = (parts.hostname or "", parts.port or (443 if context else 80), context)
        host, port, context = self._endpoint
        if context is not None:
            return http.client.HTTPSConnection(host, port, timeout=timeout, context=context)
        return http.client.HTTPConnection(host, port, timeout=timeout)

    def _headers(self, **extra: str) -> dict[str, str]:
        headers = {"User-Agent": "dubstudio-remote", **extra}
        if self.config.token:
            headers["Authorization"] = f"Bearer {self.config.token}"
        return headers

    def _request(self, method: str, path: str, body: bytes | None = None, content_type: str = "application/json",
                 timeout: float | None = None) -> tuple[int, bytes]:
        connection = self._connect(timeout or self.config.connect_timeout_s)
        try:
            connection.request(method, path, body=body, headers=self._headers(**{"Content-Type": content_type}))
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def _request_json(self, method: str, path: str, payload: Any = None,
                      timeout: float | None = None) -> dict[str, Any]:
        body = None if payload is None else json.dumps(payload).encode()
        status, data = self._request(method, path, body, timeout=timeout)
        if status != 200:
            raise _refusal(status, data)
        return cast(dict[str, Any], json.loads(data))  # every endpoint answers a JSON object

    # --- clips ----------------------------------------------------------------------------

    def _clip_id(self, voice: VoiceSpec) -> str:
        """The clip's sha256, uploaded to the server once (for this client's lifetime)."""
        path = Path(voice.clip_path)
        try:
            clip_id = file_digest(path)  # a named pipe is refused, not waited on
        except FileError as error:
            if path.is_dir():
                raise RemoteError(ErrorCode.CLIP_MISSING, f"Reference clip is not a file: {path}") from None
            code = ErrorCode.CLIP_MISSING if error.code is ErrorCode.READ_FAILED else ErrorCode.CLIP_UNREADABLE
            raise RemoteError(code, f"Reference clip: {error.message}") from None
        except OSError:
            raise RemoteError(ErrorCode.CLIP_MISSING, f"Reference clip not found: {path}") from None
        if clip_id in self._uploaded:
            return clip_id
        with self._lock:
            lock = self._upload_locks.setdefault(clip_id, threading.Lock())
        with lock:  # jobs of the same new voice upload it once
            if clip_id not in self._uploaded:
                status, _ = self._request("HEAD", f"/v1/clips/{clip_id}")
                if status == 404:
                    suffix = urllib.parse.quote(path.suffix or ".wav")
                    status, reply = self._request("PUT", f"/v1/clips/{clip_id}?suffix={suffix}",
                                                  read_regular_file(path),
                                                  "application/octet-stream")
                    if status != 200:
                        raise _refusal(status, reply)
                elif status != 200:
                    raise _refusal(status, b"")
                self._uploaded.add(clip_id)
        return clip_id

    # --- one job, on its own thread -------------------------------------------------------

    def _run_job(self, item: _RemoteJob) -> None:
        job = item.job
        try:
            while True:
                try:
                    self._stream(item)
                    return
                except RemoteError as error:
                    if error.code is ErrorCode.CLIP_MISSING and error.status == 409 and item.attempts == 0:
                        self._uploaded.clear()  # the server forgot the clip (restart, store full): upload again
                        item.attempts += 1
                        continue
                    self._end(item, JobFailed(job.job_id, error.code, error.message))
                    return
                except (_Broken, OSError, http.client.HTTPException, WireError) as error:
                    if item.cancelled or self._closing:
                        self._end(item, JobFailed(job.job_id, ErrorCode.CANCELLED,
                                                  "Cancelled while speaking" if item.running else "Cancelled before it started"))
                        return
                    if not self._retry(item, error):
                        return
        except Exception as error:  # noqa: BLE001 - a job thread never dies silently
            self._end(item, JobFailed(job.job_id, ErrorCode.BACKEND, f"{type(error).__name__}: {error}"))

    def _stream(self, item: _RemoteJob) -> None:
        """One attempt: send the job, relay its frames until it ends (raises on faults)."""
        job = item.job
        if item.cancelled:
            raise _Broken("cancelled")
        clip_id = self._clip_id(job.voice)
        body = json.dumps({"job": to_json(job), "clip": clip_id, "backend": self.backend}).encode()
        connection = self._connect(self.config.connect_timeout_s)
        with self._lock:
            item.connection = connection
        if item.cancelled:  # cancelled while we connected: the interrupt may have missed this connection
            raise _Broken("cancelled")
        try:
            connection.request("POST", "/v1/jobs", body=body, headers=self._headers(**{"Content-Type": "application/json"}))
            response = connection.getresponse()
            if response.status != 200:
                raise _refusal(response.status, response.read())
            if connection.sock is not None:
                connection.sock.settimeout(None)  # a long line may take minutes; cancel closes the socket
            while (event := read_frame(response)) is not None:
                if isinstance(event, JobStarted):
                    item.running = True
                elif isinstance(event, JobFailed) and event.retryable and not event.resubmitted:
                    raise _Broken(event.message)  # the replica or its engine died: our rule decides
                if isinstance(event, (JobFinished, JobFailed)):
                    self._end(item, event)
                    return
                self._emit(event)
            raise _Broken("the server closed the stream before the job ended")
        finally:
            with self._lock:
                item.connection = None
            connection.close()

    def _retry(self, item: _RemoteJob, error: Exception) -> bool:
        """The local client's rule after a fault; True when the job should be sent again."""
        job = item.job
        reason = str(error) or type(error).__name__
        if item.running:
            item.attempts += 1
            again = self.config.auto_retry and item.attempts <= self.config.max_retries
            self._emit(JobFailed(job.job_id, ErrorCode.ENGINE_CRASHED,
                                 f"The connection to the engine server broke while speaking this line ({reason})"
                                 + ("; it was queued again" if again else ""),
                                 retryable=True, resubmitted=again))
            if not again:
                self._forget(item)
                return False
            item.running = False
            self.restarts += 1
        if not self._wait_for_server(item):
            if not item.cancelled:
                self._end(item, JobFailed(job.job_id, ErrorCode.SERVER_UNREACHABLE,
                                          f"The engine server at {self.config.url} did not answer for "
                                          f"{self.config.reconnect_window_s:.0f} s ({reason})", retryable=True))
            else:
                self._end(item, JobFailed(job.job_id, ErrorCode.CANCELLED, "Cancelled before it started"))
            return False
        return True

    def _wait_for_server(self, item: _RemoteJob) -> bool:
        """Back off until the server answers /health again; False after the reconnect window."""
        deadline = time.monotonic() + self.config.reconnect_window_s
        for attempt in range(10_000):
            wait = RETRY_BACKOFF_S[min(attempt, len(RETRY_BACKOFF_S) - 1)]
            if item.wake.wait(min(wait, max(0.0, deadline - time.monotonic()))) or item.cancelled or self._closing:
                return False
            try:
                self.ping()
                return True
            except (OSError, http.client.HTTPException, RemoteError, ValueError):
                if time.monotonic() >= deadline:
                    return False
        return False

    def _end(self, item: _RemoteJob, event: Event) -> None:
        self._forget(item)
        self._emit(event)

    def _forget(self, item: _RemoteJob) -> None:
        with self._lock:
            self._jobs.pop(item.job.job_id, None)

    def _interrupt(self, item: _RemoteJob) -> None:
        """Wake a job's thread: out of its back-off wait, or out of its read (the socket closes)."""
        item.wake.set()
        with self._lock:
            connection = item.connection
        if connection is not None and connection.sock is not None:
            with contextlib.suppress(OSError):  # already closed
                connection.sock.shutdown(socket.SHUT_RDWR)

    # --- voices and stats -----------------------------------------------------------------

    def _prepare(self, voice: VoiceSpec, request_id: str) -> None:
        try:
            clip_id = self._clip_id(voice)
            reply = self._request_json("POST", "/v1/voices",
                                       {"voice": to_json(voice), "clip": clip_id, "backend": self.backend},
                                       timeout=PREPARE_TIMEOUT_S)
            event = from_json(reply)
            if not isinstance(event, (VoicePrepared, RequestFailed)):
                raise WireError(f"unexpected reply {type(event).__name__}")
            self._emit(dataclasses.replace(event, request_id=request_id))
        except RemoteError as error:
            self._emit(RequestFailed(request_id, error.code, error.message))
        except (OSError, http.client.HTTPException, WireError, ValueError) as error:
            self._emit(RequestFailed(request_id, ErrorCode.SERVER_UNREACHABLE,
                                     f"Cannot reach the engine server at {self.config.url}: {error}"))

    def _stats(self, request_id: str) -> None:
        try:
            stats = self.server_stats()
        except RemoteError as error:
            self._emit(RequestFailed(request_id, error.code, error.message))
            return
        except (OSError, http.client.HTTPException, ValueError) as error:
            self._emit(RequestFailed(request_id, ErrorCode.SERVER_UNREACHABLE, f"Cannot reach {self.config.url}: {error}"))
            return
        replicas = [r for r in stats.get("replicas", []) if r.get("backend") == self.backend]
        sums = {key: int(sum(r.get(key) or 0 for r in replicas)) for key in STATS_SUMS}
        self._emit(Stats(request_id=request_id, pid=0, backend=self.backend or "", **sums,
                         prepare_s_total=round(sum(r.get("prepare_s_total") or 0.0 for r in replicas), 4),
                         uptime_s=max((r.get("uptime_s") or 0.0 for r in replicas), default=0.0)))


def _refusal(status: int, body: bytes) -> RemoteError:
    """The server's JSON refusal ({"code", "message"}) as a RemoteError."""
    try:
        data = json.loads(body)
        code = ErrorCode(data["code"])
        message = str(data["message"])
    except (ValueError, KeyError, TypeError):
        code = ErrorCode.UNAUTHORIZED if status in (401, 403) else ErrorCode.BAD_REQUEST
        message = f"the server answered HTTP {status}"
    return RemoteError(code, message, status)

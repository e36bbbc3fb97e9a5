"""The Ray Serve application behind ``dubstudio serve``.

Three deployments:

- ``engine-<backend>`` (one per backend): each replica owns one DubStudio engine, the same
  engine process, protocol, voice cache and slots as on a laptop, through an EngineClient.
  A job is an async generator from end to end, so when a client goes away Serve cancels it and
  the replica sends the engine a CancelJob within milliseconds. Requests are multiplexed by
  the clip's content hash: Serve routes a voice to the replica that already holds it.
- ``registry`` (one replica): the clips uploaded by content hash (an LRU bounded in bytes),
  which replicas fetch once each, and the latest stats every replica publishes.
- ``ingress`` (FastAPI): the HTTP API (docs/serving.md), bearer-token checks, size limits,
  and the relay of each job's frames (engine.synthesis.client.wire) to its client. The studio never joins the
  Ray cluster; it only speaks HTTP to this.
"""

import asyncio
import collections
import dataclasses
import hashlib
import hmac
import logging
import os
import re
import socket
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from ray import serve
from ray.exceptions import RayError
from ray.serve.exceptions import BackPressureError
from ray.serve.handle import DeploymentHandle
from starlette.requests import ClientDisconnect

from engine.core.files import atomic_write_bytes
from engine.core.protocol import (
    JOB_END_EVENTS,
    EngineRestarted,
    ErrorCode,
    Event,
    Job,
    JobEvent,
    JobFailed,
    RequestFailed,
    Stats,
    VoicePrepared,
    VoiceSpec,
)
from engine.synthesis.client.local import EngineClient
from engine.synthesis.client.wire import (
    MEDIA_TYPE,
    WireError,
    encode_frame,
    from_json,
    to_json,
)
from engine.synthesis.config import EngineConfig
from engine.synthesis.serve.config import APP_NAME, INGRESS_MAX_ONGOING, ServeOptions

log = logging.getLogger("dubstudio.serve")

STATS_EVERY_S = 2.0  # how often a replica publishes its stats to the registry
STATS_STALE_S = 10.0  # a replica silent this long is gone (killed, or its node left)
REPLY_TIMEOUT_S = 300.0  # voice preparation on a cold replica includes the speaker encoder
CLIP_ID = re.compile(r"[0-9a-f]{64}")
SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,8}")


# Replicas log warnings and errors, not a line per call (the ingress keeps its access log).
QUIET = {"enable_access_log": False}


def _error(status: int, code: ErrorCode | str, message: str) -> JSONResponse:
    return JSONResponse({"code": code.value if isinstance(code, ErrorCode) else code, "message": message},
                        status_code=status)


# --- registry ------------------------------------------------------------------------------


@serve.deployment(name="registry", num_replicas=1, max_ongoing_requests=INGRESS_MAX_ONGOING,
                  ray_actor_options={"num_cpus": 0}, logging_config=QUIET)
class Registry:
    """Uploaded clips by content hash (LRU, bounded in bytes) and each replica's latest stats."""

    def __init__(self, max_bytes: int) -> None:
        self._max_bytes = max_bytes
        self._clips: collections.OrderedDict[str, tuple[bytes, str]] = collections.OrderedDict()
        self._bytes = 0
        self._stats: dict[str, tuple[float, dict[str, Any]]] = {}

    async def has_clip(self, clip_id: str) -> bool:
        if clip_id in self._clips:
            self._clips.move_to_end(clip_id)
            return True
        return False

    async def put_clip(self, clip_id: str, data: bytes, suffix: str) -> None:
        if clip_id in self._clips:
            return
        self._clips[clip_id] = (data, suffix)
        self._bytes += len(data)
        while self._bytes > self._max_bytes and len(self._clips) > 1:
            _, (old, _) = self._clips.popitem(last=False)
            self._bytes -= len(old)

    async def get_clip(self, clip_id: str) -> tuple[bytes, str] | None:
        return self._clips.get(clip_id)

    async def report(self, stats: dict[str, Any]) -> None:
        self._stats[stats["replica_id"]] = (time.monotonic(), stats)

    async def snapshot(self) -> dict[str, Any]:
        now = time.monotonic()
        for replica, (seen, _) in list(self._stats.items()):
            if now - seen > STATS_STALE_S:
                del self._stats[replica]
        replicas = [{**stats, "age_s": round(now - seen, 2)} for seen, stats in self._stats.values()]
        return {"replicas": sorted(replicas, key=lambda r: (r["backend"], r["replica_id"])),
                "clips": len(self._clips), "clip_bytes": self._bytes}


# --- engine replicas -----------------------------------------------------------------------


def _gpu_memory_mb() -> float | None:
    """Memory used on the GPUs Ray gave this replica (None without one)."""
    import ray

    ids = ray.get_gpu_ids()
    if not ids:
        return None
    try:
        import pynvml

        pynvml.nvmlInit()
        try:
            return sum(int(pynvml.nvmlDeviceGetMemoryInfo(pynvml.nvmlDeviceGetHandleByIndex(int(i))).used)
                       for i in ids) / 2**20
        finally:
            pynvml.nvmlShutdown()
    except Exception:  # noqa: BLE001 - no NVML (a driver without it): leave the figure out rather than fail stats
        return None


class EngineReplica:
    """One DubStudio engine as a Serve replica (deployed once per backend by :func:`build_app`)."""

    def __init__(self, engine: EngineConfig, job_timeout_s: float, clip_dir: str, registry: DeploymentHandle[Any]) -> None:
        # The client resubmits nothing itself: a retryable failure goes to the remote client,
        # which applies the one resubmission rule (and may land on another replica).
        self._client = EngineClient(dataclasses.replace(engine, auto_retry=False))
        self._ready = self._client.start()
        self._backend = engine.backend
        self._job_timeout_s = job_timeout_s
        self._clip_dir = Path(clip_dir)
        self._clip_dir.mkdir(parents=True, exist_ok=True)
        self._registry = registry
        context = serve.get_replica_context()
        self._replica_id = context.replica_id.unique_id
        self._lock = threading.Lock()
        self._jobs: dict[str, Callable[[JobEvent], object]] = {}  # engine job id -> deliver
        self._replies: dict[str, Callable[[Event], object]] = {}  # request id -> deliver
        self._restarts = 0
        # Wall clocks of the last cancel handed to the engine and of its confirmation (benchmarks).
        self._last_cancel_sent_at: float | None = None
        self._last_cancel_at: float | None = None
        self._closing = threading.Event()
        self._pump = threading.Thread(target=self._pump_events, name="engine-events", daemon=True)
        self._pump.start()
        threading.Thread(target=self._publish_stats, name="engine-stats", daemon=True).start()

    # --- the engine's events, on the pump thread ---------------------------------------------

    def _pump_events(self) -> None:
        while not self._closing.is_set():
            event = self._client.get_event(timeout=0.5)
            if event is None:
                continue
            if isinstance(event, EngineRestarted):
                self._restarts += 1
                log.warning("engine restarted (exit code %s)", event.exit_code)
                continue
            if isinstance(event, JobFailed) and event.code is ErrorCode.CANCELLED:
                self._last_cancel_at = time.time()  # benchmarks compare it with the client's cancel
            if isinstance(event, JobEvent):
                with self._lock:
                    to_job = self._jobs.get(event.job_id)
                if to_job is not None:
                    to_job(event)
            elif isinstance(event, (VoicePrepared, RequestFailed, Stats)):
                with self._lock:
                    reply_to = self._replies.pop(event.request_id, None)
                if reply_to is not None:
                    reply_to(event)

    def _ask(self, send: Callable[[], str], deliver: Callable[[Event], object]) -> None:
        """Send a request and route its reply to ``deliver`` (registered before it can arrive)."""
        with self._lock:
            self._replies[send()] = deliver

    async def _reply(self, send: Callable[[], str]) -> Event:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Event] = loop.create_future()
        self._ask(send, lambda event: loop.call_soon_threadsafe(future.set_result, event))
        return await asyncio.wait_for(future, REPLY_TIMEOUT_S)

    # --- voices -----------------------------------------------------------------------------

    @serve.multiplexed(max_num_models_per_replica=256)
    async def clip_path(self, clip_id: str) -> str:
        """The clip's file on this node, fetched from the registry the first time (the "model"
        Serve multiplexes on: requests for a voice go to replicas that already hold it)."""
        found = next(self._clip_dir.glob(f"{clip_id}.*"), None)
        if found is not None:
            return str(found)
        stored = await self._registry.get_clip.remote(clip_id)
        if stored is None:
            raise KeyError(clip_id)
        data, suffix = stored
        # Other replicas on this node read the same folder: they see all of the file or none.
        return str(atomic_write_bytes(self._clip_dir / f"{clip_id}{suffix}", data))

    async def _voice(self, voice: VoiceSpec) -> VoiceSpec:
        clip = await self.clip_path(serve.get_multiplexed_model_id())
        return dataclasses.replace(voice, clip_path=clip)

    # --- requests -----------------------------------------------------------------------------

    async def info(self) -> dict[str, Any]:
        return to_json(self._ready)

    async def run_job(self, job_data: dict[str, Any]) -> AsyncIterator[bytes]:
        """Run one job and yield its events as frames until it ends.

        The engine sees a job id made here, so clients can never collide or reach each other's
        jobs; events go back under the client's id. Serve cancels this generator when the
        client disconnects: the engine gets the cancel at once.
        """
        job: Job = from_json(job_data, Job)
        client_id = job.job_id
        try:
            voice = await self._voice(job.voice)
        except KeyError:
            yield encode_frame(JobFailed(client_id, ErrorCode.CLIP_MISSING,
                                         "The server no longer holds this voice's clip; upload it again"))
            return
        engine_job = dataclasses.replace(job, voice=voice, job_id=uuid.uuid4().hex)
        loop = asyncio.get_running_loop()
        events: asyncio.Queue[JobEvent] = asyncio.Queue()
        with self._lock:
            self._jobs[engine_job.job_id] = lambda event: loop.call_soon_threadsafe(events.put_nowait, event)
        deadline = loop.time() + self._job_timeout_s
        ended = False
        try:
            self._client.submit(engine_job)
            while True:
                try:
                    event = await asyncio.wait_for(events.get(), max(0.0, deadline - loop.time()))
                except TimeoutError:
                    yield encode_frame(JobFailed(client_id, ErrorCode.JOB_TIMEOUT,
                                                 f"The job ran past the server's limit of {self._job_timeout_s:.0f} s"))
                    return
                yield encode_frame(dataclasses.replace(event, job_id=client_id))
                if isinstance(event, JOB_END_EVENTS):
                    ended = True
                    return
        finally:
            with self._lock:
                self._jobs.pop(engine_job.job_id, None)
            if not ended:  # cancelled, timed out or abandoned: stop the engine's work too
                self._client.cancel(engine_job.job_id)
                self._last_cancel_sent_at = time.time()

    async def prepare(self, voice_data: dict[str, Any]) -> dict[str, Any]:
        """Prepare a voice in this replica's engine; the reply as JSON (VoicePrepared or RequestFailed)."""
        try:
            voice = await self._voice(from_json(voice_data, VoiceSpec))
        except KeyError:
            return to_json(RequestFailed("", ErrorCode.CLIP_MISSING, "The server no longer holds this clip"))
        return to_json(await self._reply(lambda: self._client.prepare_voice(voice)))

    # --- health and stats ---------------------------------------------------------------------

    def check_health(self) -> None:
        """Serve restarts a replica whose engine is gone for good or whose event pump died."""
        if not self._pump.is_alive():
            raise RuntimeError("the engine event pump stopped")
        if self._client.pid is None:
            raise RuntimeError("the engine process is gone")

    def _stats(self, engine: Stats | None) -> dict[str, Any]:
        with self._lock:
            streams = len(self._jobs)
        stats: dict[str, Any] = {
            "replica_id": self._replica_id, "backend": self._backend, "node": socket.gethostname(),
            "pid": os.getpid(), "engine_pid": self._client.pid, "streams": streams,
            "engine_restarts": self._restarts, "gpu_memory_mb": _gpu_memory_mb(),
            "last_cancel_sent_at": self._last_cancel_sent_at, "last_cancel_at": self._last_cancel_at,
        }
        if engine is not None:
            stats.update({k: v for k, v in dataclasses.asdict(engine).items() if k not in ("request_id", "pid")})
        return stats

    def _publish_stats(self) -> None:
        """Every few seconds, tell the registry how this replica is doing (the ingress reads it)."""
        while not self._closing.wait(STATS_EVERY_S):
            reply: collections.deque[Event] = collections.deque(maxlen=1)
            got = threading.Event()

            def deliver(event: Event) -> None:
                reply.append(event)
                got.set()

            try:
                self._ask(self._client.request_stats, deliver)
                got.wait(STATS_EVERY_S)
                engine = reply[0] if reply and isinstance(reply[0], Stats) else None
                self._registry.report.remote(self._stats(engine)).result(timeout_s=STATS_EVERY_S * 2)
            except Exception:  # the registry restarting, a timeout: the next round tries again
                log.debug("stats not published", exc_info=True)

    def __del__(self) -> None:
        self._closing.set()
        self._client.close()


# --- ingress -------------------------------------------------------------------------------

api = FastAPI(title="DubStudio engine server", docs_url=None, redoc_url=None, openapi_url=None)


@serve.deployment(name="ingress", max_ongoing_requests=INGRESS_MAX_ONGOING, ray_actor_options={"num_cpus": 0})
@serve.ingress(api)
class Ingress:
    """The HTTP API: checks, limits and the relay of job streams (the API is in docs/serving.md)."""

    def __init__(self, engines: dict[str, DeploymentHandle[Any]], registry: DeploymentHandle[Any],
                 token: str | None, limits: dict[str, Any], slots: int) -> None:
        self._engines = engines
        self._default = next(iter(engines))
        self._registry = registry
        self._token = token
        self._limits = limits
        self._slots = slots
        self._ready: dict[str, dict[str, Any]] = {}  # backend -> EngineReady JSON of a replica
        self._streams = 0
        self._jobs_total = 0

    # --- checks -------------------------------------------------------------------------------

    def _refused(self, request: Request) -> JSONResponse | None:
        """None when the request may go on; else the response that refuses it."""
        if self._token is None:
            return None
        given = request.headers.get("authorization", "")
        scheme, _, token = given.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(token.strip().encode(), self._token.encode()):
            return _error(401, ErrorCode.UNAUTHORIZED, "A valid bearer token is required (Authorization: Bearer …)")
        return None

    def _backend(self, name: str | None) -> str | JSONResponse:
        name = name or self._default
        if name not in self._engines:
            return _error(404, ErrorCode.BAD_REQUEST, f"This server has no backend {name!r}; it has "
                                                      f"{', '.join(self._engines)}")
        return name

    async def _body(self, request: Request, limit: int, code: ErrorCode, what: str) -> bytes | JSONResponse:
        """The request body, refused with ``code`` once it passes ``limit`` bytes."""
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            return _error(413, code, f"{what} is {int(declared)} bytes; this server takes at most {limit}")
        parts: list[bytes] = []
        size = 0
        try:
            async for part in request.stream():
                size += len(part)
                if size > limit:
                    return _error(413, code, f"{what} is over this server's limit of {limit} bytes")
                parts.append(part)
        except ClientDisconnect:  # gone before the whole body came: nobody to answer, nothing to log
            return _error(400, ErrorCode.BAD_REQUEST, f"the client went away before sending all of {what}")
        return b"".join(parts)

    async def _engine_request(self, request: Request) -> tuple[dict[str, Any], str] | JSONResponse:
        """What every request for an engine checks first: the token, a JSON body within the
        limits, and a backend this server has. The body and the backend's name, or the refusal."""
        if (refused := self._refused(request)) is not None:
            return refused
        data = await self._json_body(request)
        if isinstance(data, JSONResponse):
            return data
        name = self._backend(data.get("backend"))
        if isinstance(name, JSONResponse):
            return name
        return data, name

    async def _json_body(self, request: Request) -> dict[str, Any] | JSONResponse:
        # Text is the only large part of a job: its limit bounds the whole body.
        body = await self._body(request, self._limits["max_text_chars"] * 4 + 65536, ErrorCode.TEXT_TOO_LONG,
                                "the request")
        if isinstance(body, JSONResponse):
            return body
        try:
            import json

            data = json.loads(body)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes (a 500 before)
            return _error(400, ErrorCode.BAD_REQUEST, "the request body is not JSON (or is nested too deeply)")
        if not isinstance(data, dict) or not isinstance(data.get("clip"), str) or not CLIP_ID.fullmatch(data["clip"]):
            return _error(400, ErrorCode.BAD_REQUEST, "the request needs 'clip': the clip's sha256 (64 hex digits)")
        if not await self._registry.has_clip.remote(data["clip"]):
            return _error(409, ErrorCode.CLIP_MISSING, "upload the clip first (PUT /v1/clips/SHA256)")
        return data

    # --- endpoints ----------------------------------------------------------------------------

    @api.get("/health")
    async def health(self) -> dict[str, Any]:
        """Open to all (load balancers, the studio's round-trip time); says nothing private."""
        return {"status": "ok"}

    @api.get("/v1/info")
    async def info(self, request: Request, backend: str | None = None) -> Any:
        if (refused := self._refused(request)) is not None:
            return refused
        name = self._backend(backend)
        if isinstance(name, JSONResponse):
            return name
        if name not in self._ready:
            self._ready[name] = await self._engines[name].info.remote()
        snapshot = await self._registry.snapshot.remote()
        replicas = sum(1 for r in snapshot["replicas"] if r["backend"] == name)
        return {"backend": name, "backends": list(self._engines), "ready": self._ready[name],
                "slots_per_replica": self._slots, "replicas": replicas, "limits": self._limits}

    @api.head("/v1/clips/{clip_id}")
    async def has_clip(self, clip_id: str, request: Request) -> Response:
        if (refused := self._refused(request)) is not None:
            return refused
        known = CLIP_ID.fullmatch(clip_id) and await self._registry.has_clip.remote(clip_id)
        return Response(status_code=200 if known else 404)

    @api.put("/v1/clips/{clip_id}")
    async def put_clip(self, clip_id: str, request: Request, suffix: str = ".wav") -> Any:
        if (refused := self._refused(request)) is not None:
            return refused
        if not CLIP_ID.fullmatch(clip_id) or not SUFFIX.fullmatch(suffix):
            return _error(400, ErrorCode.BAD_REQUEST, "a clip is named by its sha256 (64 hex digits) and a suffix")
        data = await self._body(request, self._limits["max_clip_bytes"], ErrorCode.CLIP_TOO_LARGE,
                                "the reference clip")
        if isinstance(data, JSONResponse):
            return data
        if hashlib.sha256(data).hexdigest() != clip_id:
            return _error(400, ErrorCode.BAD_REQUEST, "the clip's bytes do not match its sha256")
        await self._registry.put_clip.remote(clip_id, data, suffix.lower())
        return {"clip": clip_id, "bytes": len(data)}

    @api.post("/v1/voices")
    async def prepare(self, request: Request) -> Any:
        checked = await self._engine_request(request)
        if isinstance(checked, JSONResponse):
            return checked
        data, name = checked
        try:
            from_json(data.get("voice"), VoiceSpec)
        except WireError as error:
            return _error(400, ErrorCode.BAD_REQUEST, f"bad voice: {error}")
        handle = self._engines[name].options(multiplexed_model_id=data["clip"])
        try:
            return await handle.prepare.remote(data["voice"])
        except BackPressureError:
            return _error(503, ErrorCode.QUEUE_FULL, "Every engine replica is full; try again shortly")
        except RayError as error:
            return _error(503, ErrorCode.ENGINE_CRASHED, f"The engine replica failed: {type(error).__name__}")

    @api.post("/v1/jobs")
    async def submit(self, request: Request) -> Any:
        """Run a job; the response streams its events as frames (engine.synthesis.client.wire) until it ends."""
        checked = await self._engine_request(request)
        if isinstance(checked, JSONResponse):
            return checked
        data, name = checked
        try:
            job: Job = from_json(data.get("job"), Job)
        except WireError as error:
            return _error(400, ErrorCode.BAD_REQUEST, f"bad job: {error}")
        if len(job.text) > self._limits["max_text_chars"]:
            return _error(413, ErrorCode.TEXT_TOO_LONG, f"The line has {len(job.text)} characters; this server "
                                                        f"speaks at most {self._limits['max_text_chars']} at once")
        handle = self._engines[name].options(multiplexed_model_id=data["clip"], stream=True)
        self._jobs_total += 1
        return StreamingResponse(self._relay(handle.run_job.remote(data["job"]), job.job_id), media_type=MEDIA_TYPE)

    async def _relay(self, stream: Any, job_id: str) -> AsyncIterator[bytes]:
        """Hand a replica's frames to the client. A client that goes away ends this generator
        early; the replica's stream is then cancelled explicitly (dropping it would not be)."""
        self._streams += 1
        finished = False
        try:
            try:
                async for frame in stream:
                    yield frame
            except BackPressureError:
                yield encode_frame(JobFailed(job_id, ErrorCode.QUEUE_FULL,
                                             "Every engine replica is full and the wait list too; try again shortly"))
            except RayError as error:  # the replica died (killed, out of memory, its node left)
                yield encode_frame(JobFailed(job_id, ErrorCode.ENGINE_CRASHED,
                                             f"The engine replica stopped while speaking this line ({type(error).__name__})",
                                             retryable=True))
            finished = True
        finally:
            self._streams -= 1
            if not finished:
                stream.cancel()

    @api.get("/stats")
    async def stats(self, request: Request) -> Any:
        """Replicas (with each engine's queue, slots, cache hits, GPU memory), deployments and totals."""
        if (refused := self._refused(request)) is not None:
            return refused
        snapshot = await self._registry.snapshot.remote()
        replicas = snapshot["replicas"]
        totals = {key: sum(r.get(key) or 0 for r in replicas)
                  for key in ("slots", "queued", "running", "computing", "streams", "jobs_finished", "jobs_failed",
                              "cache_memory_hits", "cache_disk_hits", "cache_misses", "engine_restarts")}
        gpu = [r["gpu_memory_mb"] for r in replicas if r.get("gpu_memory_mb") is not None]
        return {
            "replicas": replicas,
            "deployments": await asyncio.to_thread(self._deployments),
            "totals": {**totals, "replicas": len(replicas), "gpu_memory_mb": sum(gpu) if gpu else None},
            # Jobs the ingress relays that no engine holds yet wait in Serve's router.
            "queue_depth": totals["queued"] + max(0, self._streams - totals["streams"]),
            "ingress": {"streams": self._streams, "jobs_total": self._jobs_total},
            "clip_store": {"clips": snapshot["clips"], "bytes": snapshot["clip_bytes"]},
            "limits": self._limits,
        }

    @staticmethod
    def _deployments() -> dict[str, Any]:
        """Each deployment's status and replica counts, from Serve's controller."""
        status = serve.status().applications.get(APP_NAME)
        if status is None:
            return {}
        return {name: {"status": str(d.status.value if hasattr(d.status, "value") else d.status),
                       "replica_states": {str(k.value if hasattr(k, "value") else k): v
                                          for k, v in d.replica_states.items()}}
                for name, d in status.deployments.items()}


# --- the application -----------------------------------------------------------------------


def build_app(options: ServeOptions, cluster_gpus: float, clip_dir: str) -> Any:
    """The bound application: the ingress over one engine deployment per backend and the registry."""
    # @serve.deployment gives the classes bind(); mypy does not apply class decorators.
    registry = Registry.bind(options.clip_store_bytes)  # type: ignore[attr-defined]
    engines = {}
    for engine in options.engines:
        engine = dataclasses.replace(engine, slots=options.slots)
        deployment = serve.deployment(**options.deployment_options(engine, cluster_gpus))(EngineReplica)
        engines[engine.backend] = deployment.bind(engine, options.job_timeout_s, clip_dir, registry)
    return Ingress.bind(engines, registry, options.token, options.limits(), options.slots)  # type: ignore[attr-defined]


def app_builder(config: dict[str, Any]) -> Any:
    """Serve's application builder, for clusters run by a Serve config rather than by
    ``dubstudio serve``: a RayService on KubeRay (``import_path: engine.synthesis.serve.app:app_builder``
    with ``args``), or ``serve run engine.synthesis.serve.app:app_builder token_file=F slots=2``.
    The settings are those of :func:`engine.synthesis.serve.config.options_from_config`."""
    import ray

    from engine.synthesis.serve.config import clip_folder, options_from_config

    options = options_from_config(config)
    return build_app(options, float(ray.cluster_resources().get("GPU", 0)), clip_folder(config.get("cache_dir")))

"""What a DubStudio server is told: where it listens, who may use it, its limits and sizes.

Plain data and checks, no Ray: ``dubstudio serve`` validates everything here before it starts
a cluster, so a missing token or a bad certificate path is a one-line error, not a traceback
from inside a replica.
"""

from __future__ import annotations

import ipaddress
import os
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.files import read_regular_file
from engine.core.numbers import Range, RangeError, ranges
from engine.core.protocol import DEFAULT_BACKEND, SLOTS, ErrorCode
from engine.synthesis.config import EngineConfig
from engine.synthesis.scheduler import default_max_active

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
MIN_TOKEN_CHARS = 16
DEFAULT_MAX_TEXT_CHARS = 5000  # a long paragraph; a dubbing line is a sentence or two
DEFAULT_MAX_CLIP_MB = 32.0  # 30 s of speech is all a voice uses; 32 MB holds it in any usual format
DEFAULT_JOB_TIMEOUT_S = 600.0
DEFAULT_CLIP_STORE_MB = 512.0
INGRESS_MAX_ONGOING = 1000  # streams one ingress replica relays at once: hundreds of clients
ROUTER_MAX_QUEUED = 1000  # jobs that wait for an engine replica before new ones get E_QUEUE_FULL
APP_NAME = "dubstudio"
MB = 2**20
# What each server limit may be, declared once: ServeOptions.validate and `dubstudio serve`'s
# options read it (named as the options). A check like ``value > 0`` lets NaN through; a Range refuses it.
SERVE_RANGES = ranges(
    Range("--port", 1, 65535, whole=True),
    Range("--num-cpus", 1, 100_000, whole=True),
    Range("--replicas", 1, 1000, whole=True),
    Range("--target-ongoing", 1, 100_000, whole=True),
    Range("--replica-cpus", 0.01, 1024.0),
    Range("--gpus-per-replica", 0.0, 64.0),
    Range("--max-text-chars", 1, 1_000_000, whole=True),
    Range("--max-clip-mb", 0.001, 4096.0, unit="MB"),
    Range("--job-timeout", 0.001, 7 * 24 * 3600.0, unit="s"),
    Range("--clip-store-mb", 1.0, 65536.0, unit="MB"),
    code=ErrorCode.BAD_OPTION,
)


class ServeConfigError(ValueError):
    """A server option that cannot work; the message says which and what to do."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name other than localhost may resolve anywhere


def read_token(path: str | os.PathLike[str]) -> str:
    """The bearer token in a file: long enough, and readable by its owner only."""
    file = Path(path)
    try:
        mode = file.stat().st_mode
        token = read_regular_file(file).decode("utf-8").strip()  # a named pipe is refused, not waited on
    except (OSError, UnicodeDecodeError) as error:
        raise ServeConfigError(f"cannot read the token file {file}: {error}") from None
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ServeConfigError(f"the token file {file} is readable by others; run: chmod 600 {file}")
    if len(token) < MIN_TOKEN_CHARS or any(ch.isspace() for ch in token):
        raise ServeConfigError(f"the token in {file} must be one word of at least {MIN_TOKEN_CHARS} characters "
                               "(e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(32))')")
    return token


def clip_folder(cache_dir: str | None) -> str:
    """Where replicas keep the clips they fetched (by content hash), on each node."""
    return str(Path(cache_dir or tempfile.gettempdir()) / "dubstudio-server-clips")


def replica_max_ongoing(slots: int, max_active: int | None) -> int:
    """Requests one engine replica takes at once: the jobs its engine streams at once
    (``max_active``, by default 4 per slot) and one more per slot waiting in the engine's own
    queue, where its scheduler orders them by deadline (interactive first) and admits the next
    the moment a stream ends. The rest wait in Serve's router, where the autoscaler counts them."""
    return (max_active or default_max_active(slots)) + slots


def default_target_ongoing(slots: int) -> int:
    """Ongoing requests per replica the autoscaler aims at when not told: two per slot, half
    the engine's default admission cap, so replicas are added before streams start to wait.
    Better: the capacity the stress panel measured for one replica (docs/serving.md)."""
    return 2 * slots


@dataclass
class ServeOptions:
    """Everything ``dubstudio serve`` deploys; :meth:`validate` before use."""

    engines: list[EngineConfig] = field(default_factory=lambda: [EngineConfig()])  # one deployment each
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    token: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    replicas: int = 1
    autoscale: tuple[int, int] | None = None  # (min, max) replicas; None: a fixed count
    slots: int = 1  # pieces each replica's engine computes at once
    target_ongoing: int | None = None  # autoscaling: requests per replica to aim at (None: by slots)
    replica_cpus: float = 1.0  # Ray CPUs each engine replica reserves
    gpus_per_replica: float | None = None  # None: 1 when the cluster has GPUs (CPU-only backends: 0)
    max_text_chars: int = DEFAULT_MAX_TEXT_CHARS
    max_clip_bytes: int = int(DEFAULT_MAX_CLIP_MB * 2**20)
    job_timeout_s: float = DEFAULT_JOB_TIMEOUT_S
    clip_store_bytes: int = int(DEFAULT_CLIP_STORE_MB * 2**20)
    upscale_delay_s: float = 3.0  # how long load must stay high before a replica is added
    downscale_delay_s: float = 120.0  # engines are slow to start: keep one a while after a burst

    def validate(self) -> None:
        self._validate_access()
        self._validate_numbers()

    def _validate_access(self) -> None:
        """The backends, the token a public address needs, and TLS's two files."""
        if not self.engines:
            raise ServeConfigError("give at least one --backend")
        names = [e.backend for e in self.engines]
        if len(set(names)) != len(names):
            raise ServeConfigError(f"each backend once: {', '.join(names)}")
        if not is_loopback(self.host) and not self.token:
            raise ServeConfigError(f"refusing to listen on {self.host} without a token: anyone who reaches it could "
                                   "use the engines; pass --token-file F (or keep the default 127.0.0.1)")
        if bool(self.tls_cert) != bool(self.tls_key):
            raise ServeConfigError("TLS needs both --tls-cert and --tls-key")
        for path in (self.tls_cert, self.tls_key):
            if path and not Path(path).is_file():
                raise ServeConfigError(f"no such file: {path}")

    def _validate_numbers(self) -> None:
        """Each number within its range (docs/limits.md), and the clip store above one clip."""
        if self.autoscale is not None:
            low, high = self.autoscale
            if high < low:
                raise ServeConfigError(f"--autoscale MIN,MAX needs 1 <= MIN <= MAX, not {low},{high}")
        values = {
            "--port": self.port, "--replicas": self.replicas, "--target-ongoing": self.target_ongoing,
            "--replica-cpus": self.replica_cpus, "--gpus-per-replica": self.gpus_per_replica,
            "--max-text-chars": self.max_text_chars, "--max-clip-mb": self.max_clip_bytes / MB,
            "--job-timeout": self.job_timeout_s, "--clip-store-mb": self.clip_store_bytes / MB,
        }
        if self.autoscale is not None:
            values["--replicas"] = self.autoscale[0]
        try:
            SLOTS.check(self.slots)
            for name, value in values.items():
                if value is not None:
                    SERVE_RANGES[name].check(value)
        except RangeError as error:
            raise ServeConfigError(str(error)) from None
        if self.clip_store_bytes < self.max_clip_bytes:
            raise ServeConfigError(f"--clip-store-mb ({self.clip_store_bytes / MB:g}) must hold at least one clip "
                                   f"of --max-clip-mb ({self.max_clip_bytes / MB:g})")

    @property
    def scheme(self) -> str:
        return "https" if self.tls_cert else "http"

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"

    def gpus_for(self, backend: str, cluster_gpus: float) -> float:
        """A GPU per replica when the cluster has GPUs and the backend can use one (its
        descriptor has CUDA options); Piper runs on the CPU and takes none."""
        if self.gpus_per_replica is not None:
            return self.gpus_per_replica
        from engine.synthesis.backends import descriptor

        return 1.0 if cluster_gpus > 0 and descriptor(backend).can_use_gpu else 0.0

    def deployment_options(self, engine: EngineConfig, cluster_gpus: float) -> dict[str, Any]:
        """Ray Serve options of one backend's engine deployment."""
        options: dict[str, Any] = {
            "name": f"engine-{engine.backend}",
            "max_ongoing_requests": replica_max_ongoing(self.slots, engine.max_active),
            "max_queued_requests": ROUTER_MAX_QUEUED,
            "ray_actor_options": {"num_cpus": self.replica_cpus,
                                  "num_gpus": self.gpus_for(engine.backend, cluster_gpus)},
            # An engine loads its model before it is healthy; CosyVoice2 on a cold disk takes minutes.
            "health_check_period_s": 10.0,
            "health_check_timeout_s": 60.0,
            "graceful_shutdown_timeout_s": 20.0,
            "logging_config": {"enable_access_log": False},  # warnings and errors, not a line per job
        }
        if self.autoscale is None:
            options["num_replicas"] = self.replicas
        else:
            low, high = self.autoscale
            options["autoscaling_config"] = {
                "min_replicas": low,
                "max_replicas": high,
                "initial_replicas": low,
                # Autoscale on ongoing requests (streams): the replica's measured capacity, or by slots.
                "target_ongoing_requests": self.target_ongoing or default_target_ongoing(self.slots),
                "upscale_delay_s": self.upscale_delay_s,
                "downscale_delay_s": self.downscale_delay_s,
            }
        return options

    def limits(self) -> dict[str, Any]:
        """The limits clients are told (GET /v1/info) and the ingress enforces."""
        return {"max_text_chars": self.max_text_chars, "max_clip_bytes": self.max_clip_bytes,
                "job_timeout_s": self.job_timeout_s}


def options_from_config(config: dict[str, Any]) -> ServeOptions:
    """ServeOptions from a Serve config's ``args`` (a RayService on KubeRay, or ``serve run``
    with ``key=value`` arguments, where every value arrives as text). The HTTP host, port and
    TLS belong to the Serve config's ``http_options`` there; a cluster's proxy listens beyond
    loopback, so a token file is required. Keys (all optional but ``token_file``): backends
    (list or comma-separated), slots, replicas, autoscale ("MIN,MAX"), replica_cpus,
    gpus_per_replica, max_text_chars, max_clip_mb, job_timeout_s, clip_store_mb, cache_dir, max_active,
    target_ongoing,
    backend_options ({backend: {option: value}}), engine_python ({backend: interpreter}).
    """
    known = {"backends", "slots", "max_active", "target_ongoing", "replicas", "autoscale", "replica_cpus", "gpus_per_replica", "max_text_chars",
             "max_clip_mb", "job_timeout_s", "clip_store_mb", "cache_dir", "backend_options", "engine_python",
             "token_file"}
    unknown = set(config) - known
    if unknown:
        raise ServeConfigError(f"unknown setting(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
    if not config.get("token_file"):
        raise ServeConfigError("a cluster's proxy is reachable from other machines: give token_file")
    backends = config.get("backends", [DEFAULT_BACKEND])
    if isinstance(backends, str):
        backends = [b.strip() for b in backends.split(",") if b.strip()]
    options_by_backend = config.get("backend_options", {})
    pythons = config.get("engine_python", {})
    cache_dir = config.get("cache_dir")
    max_active = int(config["max_active"]) if config.get("max_active") else None
    engines = [EngineConfig(backend=name, backend_options=dict(options_by_backend.get(name, {})),
                            python=pythons.get(name), cache_dir=cache_dir, max_active=max_active)
               for name in backends]
    autoscale = config.get("autoscale")
    if isinstance(autoscale, str):
        low, _, high = autoscale.partition(",")
        autoscale = (int(low), int(high or low))
    try:
        options = ServeOptions(
            engines=engines, host="0.0.0.0", token=read_token(config["token_file"]),
            replicas=int(config.get("replicas", 1)), autoscale=(int(autoscale[0]), int(autoscale[1])) if autoscale else None,
            slots=int(config.get("slots", 1)),
            target_ongoing=int(config["target_ongoing"]) if config.get("target_ongoing") else None,
            replica_cpus=float(config.get("replica_cpus", 1.0)),
            gpus_per_replica=float(config["gpus_per_replica"]) if "gpus_per_replica" in config else None,
            max_text_chars=int(config.get("max_text_chars", DEFAULT_MAX_TEXT_CHARS)),
            max_clip_bytes=int(float(config.get("max_clip_mb", DEFAULT_MAX_CLIP_MB)) * 2**20),
            job_timeout_s=float(config.get("job_timeout_s", DEFAULT_JOB_TIMEOUT_S)),
            clip_store_bytes=int(float(config.get("clip_store_mb", DEFAULT_CLIP_STORE_MB)) * 2**20),
        )
    except (TypeError, ValueError) as error:
        raise ServeConfigError(f"bad setting: {error}") from None
    options.validate()
    return options

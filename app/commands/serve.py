"""`dubstudio serve`: share engines with a team through Ray Serve (docs/serving.md).

Starts a local Ray head (or joins a cluster with --address), deploys one engine deployment
per backend behind an HTTP ingress, prints the URL, and runs until Ctrl-C or SIGTERM, when it
removes what it deployed (and stops the local head it started). Needs the `serve` extra:
``pip install -e ".[serve]"`` (scripts/test-serve installs it too).

Exit codes: 0 stopped cleanly, 2 bad options (nothing started), 3 Ray or the deployment failed.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING

from app.commands.common import add_engine_arguments, engine_config_from_args, how_many
from app.commands.exit_codes import ExitCode, exit_statuses
from engine.core.codes import ErrorCode
from engine.core.numbers import number_argument
from engine.core.protocol import DEFAULT_BACKEND

if TYPE_CHECKING:
    from app.commands.common import Subparsers
    from engine.synthesis.serve.config import ServeOptions



def _replica_range(text: str) -> tuple[int, int]:
    low, sep, high = text.partition(",")
    try:
        return int(low), int(high if sep else low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected MIN,MAX like 1,4 (got {text!r})") from None


def add_parser(subparsers: Subparsers) -> None:
    from engine.synthesis.serve import config as c

    parser = subparsers.add_parser(
        "serve", help="serve engines to a team over HTTP (Ray Serve)",
        description="Serve DubStudio engines to other computers: one engine per replica, one deployment per "
                    "backend, an HTTP API for the studio, render, say and bench (--engine-url). "
                    + exit_statuses((ExitCode.OK, "stopped"), (ExitCode.BAD_INPUT, "bad options"),
                                    (ExitCode.ENGINE, "Ray or the deployment failed")))
    where = parser.add_argument_group("where")
    where.add_argument("--address", default=None, metavar="RAY_ADDRESS",
                       help="join this Ray cluster (e.g. 10.0.0.5:6379 or auto); default: start a local head")
    where.add_argument("--num-cpus", type=number_argument(c.SERVE_RANGES["--num-cpus"]), default=None,
                       help="CPUs the local head offers Ray (default: the core count); engine replicas each "
                            "reserve --replica-cpus")
    where.add_argument("--host", default=c.DEFAULT_HOST,
                       help=f"address to listen on (default {c.DEFAULT_HOST}: this computer only; anything else "
                            "needs --token-file)")
    where.add_argument("--port", type=number_argument(c.SERVE_RANGES["--port"]), default=c.DEFAULT_PORT, help=f"HTTP port (default {c.DEFAULT_PORT})")
    safety = parser.add_argument_group("security and limits")
    safety.add_argument("--token-file", default=None, metavar="F",
                        help="file holding the bearer token every request must carry (chmod 600)")
    safety.add_argument("--tls-cert", default=None, metavar="F", help="TLS certificate (PEM): serve HTTPS")
    safety.add_argument("--tls-key", default=None, metavar="F", help="TLS private key (PEM)")
    safety.add_argument("--max-text-chars", type=number_argument(c.SERVE_RANGES["--max-text-chars"]), default=c.DEFAULT_MAX_TEXT_CHARS,
                        help=f"longest line a job may speak (default {c.DEFAULT_MAX_TEXT_CHARS}); longer: "
                             f"{ErrorCode.TEXT_TOO_LONG}")
    safety.add_argument("--max-clip-mb", type=number_argument(c.SERVE_RANGES["--max-clip-mb"]), default=c.DEFAULT_MAX_CLIP_MB,
                        help=f"largest reference clip upload (default {c.DEFAULT_MAX_CLIP_MB:g} MB); larger: "
                             f"{ErrorCode.CLIP_TOO_LARGE}")
    safety.add_argument("--job-timeout", type=number_argument(c.SERVE_RANGES["--job-timeout"]), default=c.DEFAULT_JOB_TIMEOUT_S, metavar="S",
                        help=f"a job still running after S seconds is cancelled: {ErrorCode.JOB_TIMEOUT} "
                             f"(default {c.DEFAULT_JOB_TIMEOUT_S:.0f})")
    safety.add_argument("--clip-store-mb", type=number_argument(c.SERVE_RANGES["--clip-store-mb"]), default=c.DEFAULT_CLIP_STORE_MB,
                        help=f"memory for uploaded clips, oldest dropped first (default {c.DEFAULT_CLIP_STORE_MB:g})")
    size = parser.add_argument_group("replicas")
    count = size.add_mutually_exclusive_group()
    count.add_argument("--replicas", type=number_argument(c.SERVE_RANGES["--replicas"]), default=1, metavar="N", help="engine replicas per backend (default 1)")
    count.add_argument("--autoscale", type=_replica_range, default=None, metavar="MIN,MAX",
                       help="scale each backend between MIN and MAX replicas on ongoing requests")
    size.add_argument("--target-ongoing", type=number_argument(c.SERVE_RANGES["--target-ongoing"]), default=None, metavar="N",
                      help="autoscaling: streams per replica to aim at (default 2 x --slots; better: the capacity "
                           "the stress panel measured for one replica)")
    size.add_argument("--replica-cpus", type=number_argument(c.SERVE_RANGES["--replica-cpus"]), default=1.0,
                      help="Ray CPUs each engine replica reserves (default 1)")
    size.add_argument("--gpus-per-replica", type=number_argument(c.SERVE_RANGES["--gpus-per-replica"]), default=None,
                      help="GPUs each engine replica takes (default: 1 when the cluster has GPUs, 0 for piper)")
    add_engine_arguments(parser)
    parser.set_defaults(func=run)
    # A server may run several backends: --backend repeats (the engine group's flag stays the one spelling).
    for action in parser._actions:
        if action.dest == "backend":
            action.default, action.nargs = None, "+"
            action.help = "backends to serve, each its own deployment (default: piper)"


def options_from_args(args: argparse.Namespace) -> ServeOptions:
    """The ServeOptions the arguments describe; raises ServeConfigError when they cannot work."""
    from engine.synthesis.config import default_slots
    from engine.synthesis.serve.config import ServeOptions, read_token

    engines = [engine_config_from_args(args, backend) for backend in args.backend or [DEFAULT_BACKEND]]
    options = ServeOptions(
        engines=engines, host=args.host, port=args.port,
        token=read_token(args.token_file) if args.token_file else None,
        tls_cert=args.tls_cert, tls_key=args.tls_key,
        replicas=args.replicas, autoscale=args.autoscale,
        slots=args.slots or default_slots(), target_ongoing=args.target_ongoing, replica_cpus=args.replica_cpus, gpus_per_replica=args.gpus_per_replica,
        max_text_chars=args.max_text_chars, max_clip_bytes=int(args.max_clip_mb * 2**20),
        job_timeout_s=args.job_timeout, clip_store_bytes=int(args.clip_store_mb * 2**20),
    )
    options.validate()
    return options


def run(args: argparse.Namespace) -> int:
    from engine.synthesis.serve.config import ServeConfigError

    try:
        options = options_from_args(args)
    except ServeConfigError as error:
        print(f"dubstudio serve: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    local_head = args.address is None
    if local_head:
        # A single-machine cluster: Ray's own services talk over loopback (127.0.0.1) instead of the
        # machine's network address; only the HTTP port is for other computers (--host). Ray reads
        # this when imported, and its processes inherit it.
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    try:
        import ray
        from ray import serve
    except ImportError:
        print('dubstudio serve: Ray Serve is not installed; run: pip install -e ".[serve]"', file=sys.stderr)
        return ExitCode.BAD_INPUT

    started = time.monotonic()
    try:
        if local_head:
            ray.init(num_cpus=args.num_cpus, include_dashboard=False, namespace="dubstudio", configure_logging=False)
        else:
            ray.init(address=args.address, namespace="dubstudio", configure_logging=False)
        from engine.synthesis.serve.app import build_app
        from engine.synthesis.serve.config import APP_NAME, clip_folder

        clip_dir = clip_folder(args.cache_dir)
        serve.start(http_options={"host": options.host, "port": options.port, "location": "HeadOnly",
                                  "ssl_certfile": options.tls_cert, "ssl_keyfile": options.tls_key})
        cluster_gpus = float(ray.cluster_resources().get("GPU", 0))
        serve.run(build_app(options, cluster_gpus, clip_dir), name=APP_NAME, route_prefix="/", blocking=False)
    except Exception as error:  # noqa: BLE001 - Ray raises many kinds; each ends the same way
        print(f"dubstudio serve: {ErrorCode.ENGINE_START}: {type(error).__name__}: {error}", file=sys.stderr)
        _shutdown(local_head)
        return ExitCode.ENGINE
    # After ray.init, which installs its own SIGTERM handler in this process: ours stops cleanly.
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    names = ", ".join(e.backend for e in options.engines)
    sizing = (f"{options.autoscale[0]}-{options.autoscale[1]} replicas (autoscaled)" if options.autoscale
              else how_many(options.replicas, "replica"))
    print(f"dubstudio serve: ready at {options.url} in {time.monotonic() - started:.1f} s: {names}, {sizing} of "
          f"{how_many(options.slots, 'slot')}{', token required' if options.token else ''}; Ctrl-C stops", flush=True)
    while not stop.wait(1.0):
        pass
    print("dubstudio serve: stopping ...", file=sys.stderr, flush=True)
    _shutdown(local_head)
    return ExitCode.OK


def _shutdown(local_head: bool) -> None:
    """Remove what this command deployed; a local head goes entirely, a shared cluster stays."""
    import ray
    from ray import serve

    from engine.synthesis.serve.config import APP_NAME

    if not ray.is_initialized():
        return
    try:
        if local_head:
            serve.shutdown()
        else:
            serve.delete(APP_NAME)
    except Exception as error:  # noqa: BLE001 - stopping anyway
        print(f"dubstudio serve: while stopping: {type(error).__name__}: {error}", file=sys.stderr)
    ray.shutdown()

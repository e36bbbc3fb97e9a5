"""`dubstudio bench`: a headless load test of the speech engine with a capacity verdict.

Prints the per-level table and the verdict; writes JSON, CSV and HTML reports on request
(docs/bench.md documents them). Ctrl-C (or SIGTERM) stops the run gracefully: jobs in flight
are cancelled and the reports cover what finished.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.commands.common import (
    add_client_arguments,
    engine_config_from_args,
    how_many,
    remote_config_from_args,
)
from app.commands.exit_codes import ExitCode
from engine.core.files import FileError
from engine.core.numbers import RangeError, number_argument
from engine.core.protocol import DEFAULT_BACKEND, ErrorCode
from engine.load.plans import LEVEL, PLAN_RANGES
from engine.load.probe import PRESETS, ProbePreset
from engine.load.runner import BenchError
from engine.load.stats import OBJECTIVE_RANGES

if TYPE_CHECKING:
    from app.commands.common import Subparsers
    from engine.load import BenchReport, BenchSession, BenchSettings, Plan
    from engine.load.runner import Observer, Progress


def _replicas(count: object) -> str:
    """A server's replicas as its report gives them: a number, or nothing when it did not say."""
    return how_many(count, "replica") if isinstance(count, int) else "replicas unknown"


def _levels(text: str) -> tuple[int, ...]:
    """``--levels``: whole numbers like 1,2,4, each within LEVEL."""
    try:
        levels = tuple(int(part) for part in text.replace(" ", "").split(",") if part)
    except ValueError:
        levels = ()
    if not levels:
        raise argparse.ArgumentTypeError(f"levels must be whole numbers like 1,2,4 (got {text!r})")
    try:
        for level in levels:
            LEVEL.check(level)
    except RangeError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return levels


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="load-test the speech engine and report its capacity",
        description="Run the engine under increasing load (levels) and report first-audio and total latency, "
                    "throughput, errors, playback stalls and engine load per level, with a capacity verdict.",
    )
    add_client_arguments(parser, default_backend=None)
    parser.add_argument("--probe", choices=list(PRESETS), default=None,
                        help="a hardware probe preset: "
                        + "; ".join(f"{name} = {p.label}" for name, p in PRESETS.items())
                        + ". It picks the backend, builds its full-size synthetic model folder when no --model-dir is "
                          "given, steps through levels 1,2,4,8,16 for 60 s each and stops at the first that misses "
                          "the objective; the options below still override it")

    plan = parser.add_argument_group("load plan")
    plan.add_argument("--levels", type=_levels, default=None,
                      help="comma-separated levels: users (closed) or multiples of --rate (open); default 1,2,4")
    hold = plan.add_mutually_exclusive_group()
    hold.add_argument("--jobs-per-level", type=number_argument(PLAN_RANGES["jobs_per_level"]), metavar="K",
                      help="measured jobs per level (default 10)")
    hold.add_argument("--seconds", type=number_argument(PLAN_RANGES["seconds_per_level"]), metavar="S", help="seconds of submissions per level")
    plan.add_argument("--warmup", type=number_argument(PLAN_RANGES["warmup_jobs"]), default=None, metavar="N",
                      help="warm-up jobs per level, excluded from statistics (default 1)")
    plan.add_argument("--warmup-mode", choices=("concurrent", "sequential"), default="concurrent",
                      help="concurrent: warm-up jobs are the level's first jobs, under its load; sequential: "
                           "they run one at a time before the level's load starts (default concurrent)")
    plan.add_argument("--mode", choices=("closed", "open"), default="closed",
                      help="closed: N users wait for their jobs; open: jobs arrive at a rate (default closed)")
    plan.add_argument("--rate", type=number_argument(PLAN_RANGES["rate"]), default=0.5, metavar="R",
                      help="open loop: arrivals per second per level unit (default 0.5)")
    plan.add_argument("--arrivals", choices=("poisson", "constant"), default="poisson",
                      help="open loop: arrival process (default poisson)")
    plan.add_argument("--max-in-flight", type=number_argument(PLAN_RANGES["max_in_flight"]), metavar="N",
                      help="open loop: at most N jobs in flight; later arrivals wait (latency still counts)")
    plan.add_argument("--think", type=number_argument(PLAN_RANGES["think_s"]), default=0.0, metavar="S",
                      help="closed loop: seconds a user pauses between jobs (default 0)")
    plan.add_argument("--seed", type=int, default=0, help="seed of the Poisson arrivals (default 0)")
    plan.add_argument("--timeout", type=number_argument(PLAN_RANGES["job_timeout_s"]), default=None, metavar="S",
                      help=f"a job not done after S seconds is cancelled and counted as {ErrorCode.TIMEOUT} (default 300)")

    work = parser.add_argument_group("workload")
    work.add_argument("--texts", metavar="FILE", help="UTF-8 file, one text per line (default: bundled sets)")
    work.add_argument("--language", choices=("auto", "en", "zh", "all"), default="auto",
                      help="bundled text sets: auto picks those the backend speaks (default auto)")
    work.add_argument("--voices", nargs="+", metavar="CLIP", help="reference clips (default: bundled voices)")
    work.add_argument("--cache", choices=("warm", "cold"), default="warm",
                      help="warm: voices prepared before the run; cold: every job brings a new voice")

    objective = parser.add_argument_group("objective (for the verdict)")
    objective.add_argument("--objective-p95-first-audio", type=number_argument(OBJECTIVE_RANGES["p95_first_audio_s"]), default=1.5, metavar="S",
                           help="p95 first-audio latency limit in seconds (default 1.5)")
    objective.add_argument("--objective-p95-total", type=number_argument(OBJECTIVE_RANGES["p95_total_s"]), metavar="S",
                           help="optional p95 total latency limit in seconds")
    objective.add_argument("--objective-max-error-rate", type=number_argument(OBJECTIVE_RANGES["max_error_rate"]), default=0.0, metavar="F",
                           help="allowed fraction of failed jobs (default 0)")
    objective.add_argument("--objective-max-stalls", type=number_argument(OBJECTIVE_RANGES["max_stalls_per_job"]), default=0.0, metavar="N",
                           help="allowed playback stalls per job (default 0)")
    objective.add_argument("--fail-under", type=number_argument(LEVEL), metavar="LEVEL",
                           help=f"exit with {ExitCode.FAILED:d} when the capacity is below LEVEL (for CI)")

    out = parser.add_argument_group("reports")
    out.add_argument("--json", metavar="OUT.json", help="full report: levels, verdict, every job")
    out.add_argument("--csv", metavar="OUT.csv", help="the per-level table")
    out.add_argument("--jobs-csv", metavar="OUT.csv", help="one row per job")
    out.add_argument("--html", metavar="OUT.html", help="one self-contained page with table and plots")
    out.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    parser.set_defaults(func=run)


def _plan(args: argparse.Namespace, probe: ProbePreset | None) -> Plan:
    """The plan the arguments describe; a probe's plan where they say nothing."""
    from engine.load import Plan
    from engine.load.plans import Arrivals, Mode, WarmupMode

    base = probe.plan if probe is not None else Plan()
    hold = {"jobs_per_level": args.jobs_per_level, "seconds_per_level": None} if args.jobs_per_level else (
        {"jobs_per_level": None, "seconds_per_level": args.seconds} if args.seconds else {})
    given = {"levels": args.levels, "warmup_jobs": args.warmup, "job_timeout_s": args.timeout}
    return dataclasses.replace(
        base,
        mode=Mode(args.mode),
        warmup_mode=WarmupMode(args.warmup_mode),
        think_s=args.think,
        rate=args.rate,
        arrivals=Arrivals(args.arrivals),
        max_in_flight=args.max_in_flight,
        seed=args.seed,
        **hold,
        **{key: value for key, value in given.items() if value is not None},
    )


def _probe_model(args: argparse.Namespace, probe: ProbePreset) -> None:
    """A probe without --model-dir uses its synthetic folder, built here when missing."""
    from engine.core.protocol import EngineError
    from engine.load.probe import ensure_probe_model
    from engine.synthesis.backends import descriptor
    from engine.synthesis.backends.setup import SetupError

    python = descriptor(probe.backend).engine_python(args.engine_python)
    if not args.quiet:
        print(f"probe: {probe.label}: the synthetic {probe.synthetic_size} model folder (built once, if missing)",
              file=sys.stderr, flush=True)
    try:
        args.model_dir = ensure_probe_model(
            probe, python, None if args.quiet else (lambda line: print(f"  {line.text}", file=sys.stderr, flush=True)))
    except SetupError as error:
        raise EngineError(ErrorCode.PROBE_MODEL, str(error)) from None


def _settings(args: argparse.Namespace) -> BenchSettings:
    from engine.load import BenchSettings, Objective
    from engine.synthesis.config import EngineConfig

    probe = PRESETS[args.probe] if args.probe else None
    backend = args.backend or (probe.backend if probe is not None else DEFAULT_BACKEND)
    if probe is not None and backend != probe.backend:
        raise BenchError(f"{ErrorCode.PROBE}: --probe {probe.name} runs the {probe.backend} backend, not {backend}")
    plan = _plan(args, probe)
    objective = Objective(
        p95_first_audio_s=args.objective_p95_first_audio,
        max_error_rate=args.objective_max_error_rate,
        max_stalls_per_job=args.objective_max_stalls,
        p95_total_s=args.objective_p95_total,
    )
    languages = {"auto": None, "en": ("en",), "zh": ("zh",), "all": ("en", "zh")}[args.language]
    args.backend = backend  # what the server (--engine-url) or the local engine is to run
    remote = remote_config_from_args(args)
    if probe is not None and remote is None and not args.model_dir:
        _probe_model(args, probe)  # a server probes the model it serves
    # A server's engines are configured on the server: only a local engine needs its options checked.
    engine = engine_config_from_args(args, backend) if remote is None else EngineConfig(backend=args.backend)
    return BenchSettings(
        engine=engine,
        remote=remote,
        plan=plan,
        objective=objective,
        texts_file=args.texts,
        text_languages=languages,
        voices=tuple(args.voices or ()),
        cache=args.cache,
        probe=probe.name if probe is not None else None,
    )


def _progress(quiet: bool) -> Observer:
    from engine.load import JobEnded, LevelFinished, LevelStarted, RunStarted

    def show(message: Progress) -> None:
        if quiet:
            return
        if isinstance(message, RunStarted):
            e = message.engine
            where = (f" on {e['target']} ({_replicas(e.get('replicas'))})" if e.get("target", "local") != "local" else "")
            line = f"engine ready{where}: {e['backend']}, {how_many(e['slots'], 'slot')}, started in {e['engine_start_s']:.1f} s"
        elif isinstance(message, LevelStarted):
            line = f"level {message.label} ..."
        elif isinstance(message, JobEnded):
            r = message.record
            if r.status == "ok":
                detail = f"first audio {r.first_audio_s or 0:.2f} s, total {r.total_s or 0:.2f} s, {r.chunks} chunks"
            else:
                detail = r.error or r.status
            warm = " (warm-up)" if r.warmup else ""
            line = f"  job {r.index} {r.text_kind}{warm}: {detail}"
        elif isinstance(message, LevelFinished):
            s = message.stats
            line = f"  done: p95 first audio {s.first_audio_s.p95 or 0:.2f} s, {s.jobs_per_s:.2f} jobs/s"
        else:
            return
        print(line, file=sys.stderr, flush=True)

    return show


def _run_stoppably(session: BenchSession) -> tuple[dict[str, Any], bool]:
    """Run the session; ``{"report": ...}`` or ``{"error": ..., "exit"?: ...}``, and whether
    Ctrl-C stopped it."""
    from engine.load import WorkloadError

    result: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            result["report"] = session.run()
        except WorkloadError as error:  # a text or voice file that cannot be used
            result["error"], result["exit"] = str(error), ExitCode.BAD_INPUT
        except BenchError as error:  # the engine did not start, or failed the run
            result["error"] = str(error)
        except Exception as error:  # noqa: BLE001 - shown with a code instead of a thread traceback
            result["error"] = f"{ErrorCode.BENCH}: {type(error).__name__}: {error}"
        finally:
            done.set()

    # The run happens on a worker thread so Ctrl-C here can stop it cleanly (the engine itself
    # ignores SIGINT). Waiting uses an Event, not Thread.join: a join interrupted by Ctrl-C can
    # make a running thread look finished (CPython gh-90882).
    thread = threading.Thread(target=work, name="bench-runner")
    thread.start()
    interrupted = False
    while not done.is_set():
        try:
            done.wait(0.2)
        except KeyboardInterrupt:
            interrupted = True
            print("stopping: cancelling jobs in flight ...", file=sys.stderr, flush=True)
            session.stop()
    thread.join()
    return result, interrupted


def _show(report: BenchReport, args: argparse.Namespace) -> int | None:
    """Print the report and write the files asked for; the exit status of a failed write."""
    from engine.load import format_table
    from engine.load.report import hardware_line
    from engine.synthesis.backends.cosyvoice_models import synthetic_banner

    print(hardware_line(report))
    warning = synthetic_banner(report.engine)
    if warning:
        print(f"NOTE: {warning}")
    print(format_table(report.levels))
    print()
    print(report.verdict.sentence)
    for path, write in ((args.json, report.write_json), (args.csv, report.write_csv),
                        (args.jobs_csv, report.write_jobs_csv), (args.html, report.write_html)):
        if path:
            try:
                write(path)
            except FileError as error:  # already says what and why, with a code
                print(f"dubstudio bench: {error}", file=sys.stderr)
                return ExitCode.SAVE_FAILED
            print(f"wrote {Path(path)}", file=sys.stderr)
    return None


def run(args: argparse.Namespace) -> int:
    from engine.core.protocol import EngineError
    from engine.load import BenchSession, PlanError, WorkloadError
    from engine.synthesis.client.local import EngineStartError

    try:
        settings = _settings(args)
        session = BenchSession(settings, _progress(args.quiet))
    except EngineStartError as error:
        print(f"dubstudio bench: {error.code.value}: {error}", file=sys.stderr)
        return ExitCode.ENGINE
    except (BenchError, PlanError, WorkloadError, EngineError) as error:  # the settings, texts, voices, probe
        print(f"dubstudio bench: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    result, interrupted = _run_stoppably(session)
    if "error" in result:
        print(f"dubstudio bench: {result['error']}", file=sys.stderr)
        return result.get("exit", ExitCode.ENGINE)
    report = result["report"]
    if (status := _show(report, args)) is not None:
        return status
    if interrupted:
        return ExitCode.INTERRUPTED
    if args.fail_under is not None and (report.verdict.capacity_level or 0) < args.fail_under:
        return ExitCode.FAILED
    return ExitCode.OK

"""What several headless commands share: the options that choose and size the engine.

The backends, their options, their help and their checks come from the backend descriptors
(engine.synthesis.backends), so a new backend or option shows up here without an edit.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import signal
import sys
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.commands.exit_codes import ExitCode
from engine.core.numbers import number_argument
from engine.core.protocol import (
    DEFAULT_BACKEND,
    SLOTS,
    EngineClientProtocol,
    EngineError,
    ErrorCode,
)
from engine.synthesis.backends import DESCRIPTORS, OptionError, descriptor
from engine.synthesis.client import connect
from engine.synthesis.config import (
    ENGINE_LOAD_TIMEOUT,
    ENGINE_START_TIMEOUT,
    MAX_ACTIVE,
)

if TYPE_CHECKING:
    from engine.core.downloads import DownloadProgress, ValidationReport
    from engine.synthesis.client.remote import RemoteConfig
    from engine.synthesis.config import EngineConfig

    # What cli.py's add_subparsers hands each command's add_parser.
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def run_interruptible(name: str, command: Callable[[], int]) -> int:
    """Run a command so that Ctrl+C or SIGTERM end it cleanly with status 130, never a traceback
    (and a reader that closes the pipe of its output, with 141).

    SIGTERM (``kill``, a service manager, a CI timeout) is made to act like Ctrl+C: Python
    raises KeyboardInterrupt where the main thread is, so every ``finally`` and cleanup on
    the way up runs (jobs cancelled, a half-made project removed, temp files deleted), and
    the interrupt ends here with one line instead of a traceback. A signal that comes while
    that line is printed is ignored: everything it could stop has already stopped. The
    previous handlers come back afterwards (tests run commands in their own process).
    """
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.default_int_handler)
    try:
        status = int(command() or 0)
        sys.stdout.flush()  # here, not at exit, where a closed pipe is a traceback Python prints
        return status
    except BrokenPipeError:
        # The reader of our output has gone (| head): say nothing more on a pipe no one reads.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ExitCode.OUTPUT_CLOSED
    except KeyboardInterrupt:
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        print(f"dubstudio {name}: interrupted", file=sys.stderr)
        _forget_unhandled_interrupt()
        return ExitCode.INTERRUPTED
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _forget_unhandled_interrupt() -> None:
    """CPython marks an interrupt "unhandled" when it passes through code run by a nested
    PyRun_* call (an import of some extension modules does that) even though we caught it
    here, and then ends the process by SIGINT (status -2) instead of our 130: seen in CI when
    SIGTERM landed during the command's imports. The interrupt was handled; clear the mark."""
    import ctypes

    # Another interpreter, or the symbol not exported: nothing to clear.
    with contextlib.suppress(AttributeError, ValueError, OSError):
        ctypes.c_int.in_dll(ctypes.pythonapi, "_Py_UnhandledKeyboardInterrupt").value = 0


def backend_option_help() -> str:
    """The options each backend takes, for ``--backend-option``'s help."""
    per_backend = "; ".join(f"{d.name}: {d.option_names()}" for d in DESCRIPTORS.values())
    return f"a backend option, repeatable ({per_backend}); `dubstudio backends` says what each takes"


def add_engine_arguments(parser: argparse.ArgumentParser, default_backend: str | None = DEFAULT_BACKEND) -> None:
    """The options that choose and size the engine, the same for every command.

    ``default_backend=None`` (the studio) means "not given": the settings decide.
    """
    group = parser.add_argument_group("engine")
    group.add_argument("--backend", default=default_backend, choices=list(DESCRIPTORS),
                       help="speech backend: " + "; ".join(f"{d.name} = {d.label}" for d in DESCRIPTORS.values())
                       + (f" (default {default_backend})" if default_backend else ""))
    group.add_argument("--slots", type=number_argument(SLOTS), default=None,
                       help=f"pieces the engine computes at once, {SLOTS.describe()} "
                            "(default: by cores, or by GPU memory on a GPU)")
    group.add_argument("--max-active", type=number_argument(MAX_ACTIVE), default=None, metavar="N",
                       help="jobs the engine streams at once; later ones wait for first audio (default: 4 per slot)")
    group.add_argument("--model-dir", default=None,
                       help="model folder, for backends that need one ("
                       + ", ".join(d.name for d in DESCRIPTORS.values() if d.needs_model_folder) + ")")
    group.add_argument("--engine-python", default=None,
                       help="Python interpreter that runs the engine (default: the backend's own environment, "
                            "e.g. .venv-cosyvoice for cosyvoice2; this interpreter for piper)")
    group.add_argument("--backend-option", action="append", default=[], metavar="KEY=VALUE",
                       help=backend_option_help())
    group.add_argument("--cache-dir", default=None, help="voice cache folder (default: the user cache folder)")
    group.add_argument("--engine-start-timeout", type=number_argument(ENGINE_START_TIMEOUT),
                       default=ENGINE_START_TIMEOUT.default, metavar="S",
                       help="seconds the engine's interpreter may take to start running "
                            f"(default {ENGINE_START_TIMEOUT.default:g}); past it the engine is killed")
    group.add_argument("--engine-load-timeout", type=number_argument(ENGINE_LOAD_TIMEOUT),
                       default=ENGINE_LOAD_TIMEOUT.default, metavar="S",
                       help=f"seconds the engine may then take to load its model (default {ENGINE_LOAD_TIMEOUT.default:g}); "
                            "past it the engine is killed")


def add_client_arguments(parser: argparse.ArgumentParser, default_backend: str | None = DEFAULT_BACKEND) -> None:
    """What :func:`engine_client_from_args` reads: the engine's options, and the server whose
    engines a command may use instead of one on this computer."""
    add_engine_arguments(parser, default_backend)
    _add_remote_arguments(parser)


def _add_remote_arguments(parser: argparse.ArgumentParser) -> None:
    """Use an engine on a DubStudio server (``dubstudio serve``) instead of one on this computer."""
    group = parser.add_argument_group("engine server")
    group.add_argument("--engine-url", default=None, metavar="URL",
                       help="use the engines of a DubStudio server (http(s)://HOST:PORT from `dubstudio serve`) "
                            "instead of starting one here; --backend picks among the server's backends")
    group.add_argument("--token-file", default=None, metavar="F", help="file holding the server's bearer token")
    group.add_argument("--engine-ca", default=None, metavar="F",
                       help="certificate (PEM) to trust for an https server with its own certificate")


def remote_config_from_args(args: argparse.Namespace) -> RemoteConfig | None:
    """The RemoteConfig of --engine-url, or None for an engine on this computer."""
    if not getattr(args, "engine_url", None):
        return None
    from engine.synthesis.client.remote import RemoteConfig, read_token_file

    token = read_token_file(args.token_file) if args.token_file else None
    config = RemoteConfig(url=args.engine_url, token=token, backend=args.backend, ca_file=args.engine_ca)
    config.validate()
    return config


def engine_client_from_args(args: argparse.Namespace) -> EngineClientProtocol:
    """An engine client: on the server of --engine-url, else a local engine from the engine options.

    Raises EngineStartError (with its code) when the server options are unusable.
    """
    remote = remote_config_from_args(args)
    return connect(remote if remote is not None else engine_config_from_args(args))


def engine_config_from_args(args: argparse.Namespace, backend: str | None = None,
                            base_options: Mapping[str, Any] | None = None) -> EngineConfig:
    """The EngineConfig the engine arguments describe, options checked against the backend's
    descriptor; ``base_options`` (the studio's stored ones) apply where the arguments say
    nothing. A bad option, a missing model folder or a missing environment prints a coded
    message and exits with status 2 (before any engine starts)."""
    from engine.synthesis.config import EngineConfig

    name = backend or args.backend
    try:
        spec = descriptor(name)
        options = {**(base_options or {}), **spec.parse_assignments(args.backend_option)}
        if args.model_dir:
            if spec.model_option is None:
                raise OptionError(name, "", "takes no model folder; drop --model-dir")
            options[spec.model_option] = str(Path(args.model_dir).resolve())
        if spec.model_option is not None and spec.needs_model_folder and spec.model_option not in options:
            print(f"dubstudio: {ErrorCode.BAD_OPTION}: --backend {name} needs --model-dir DIR "
                  f"({spec.option(spec.model_option).help})", file=sys.stderr)
            raise SystemExit(ExitCode.BAD_INPUT)
        options = spec.validate(options)
        python = spec.engine_python(args.engine_python)
    except EngineError as error:
        print(f"dubstudio: {error.code.value}: {error.message}", file=sys.stderr)
        raise SystemExit(ExitCode.BAD_INPUT) from None
    if spec.use_notice:  # a voice whose use is restricted says so before it speaks (zh-baker: non-commercial)
        print(f"dubstudio: note: {spec.use_notice}", file=sys.stderr)
    return EngineConfig(backend=name, backend_options=options, slots=args.slots, max_active=args.max_active,
                        python=python, cache_dir=args.cache_dir, handshake_timeout_s=args.engine_start_timeout,
                        load_timeout_s=args.engine_load_timeout)


def note_use_notices(backend: str, languages: Iterable[str]) -> None:
    """Before the first job: the use notice of each restricted voice (a non-commercial one) that
    ``backend`` speaks ``languages`` with, where ``backend`` is not that voice itself
    (:func:`engine_config_from_args` said it then)."""
    from engine.synthesis.backends import use_notices

    for voice, notice in use_notices(backend, languages).items():
        if voice != backend:
            print(f"dubstudio: note: {backend} speaks these lines with {voice}. {notice}", file=sys.stderr)


def add_recogniser_option(parser: argparse.ArgumentParser) -> None:
    """``--recogniser-model``, the same for every command that hears (qa, render --qa, say, new)."""
    from engine.hearing.whisper import DEFAULT_MODEL, WHISPER_MODELS

    parser.add_argument("--recogniser-model", default=DEFAULT_MODEL, metavar="MODEL",
                        help=f"the Whisper model that listens: {', '.join(WHISPER_MODELS)} (the larger ones once "
                             f"downloaded with `dubstudio qa --download-model`), or a model folder "
                             f"(default {DEFAULT_MODEL})")


def check_recogniser_model(command: str, model: str) -> ExitCode | None:
    """None when --recogniser-model ``model`` can be used; else ``command`` prints why
    (E_BAD_OPTION or E_WHISPER_MODEL_MISSING, with how to fix it) and gets the status to end
    with, BAD_INPUT: the one check of every command that hears, before it does anything."""
    from engine.hearing.whisper import model_path

    try:
        model_path(model)
    except EngineError as error:
        print(f"dubstudio {command}: --recogniser-model: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    return None


def render_next(root: Path, has_picture: bool) -> str:
    """The command that renders and exports a project that is ready, to be copied as it is: the
    folder quoted for the shell when it holds a space or anything else the shell reads."""
    return f"dubstudio render {shlex.quote(str(root))} --fit --export {'video' if has_picture else 'mix'}"


def how_many(count: int, noun: str, plural: str = "") -> str:
    """``count`` and the noun in the number it takes ("1 slot", "3 slots", "2 replicas"): the
    command line speaks English; the studio's counts are its catalogues' plural forms."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def in_columns(text: str, width: int) -> str:
    """``text`` cut and padded to ``width`` terminal columns: a Chinese, Japanese or Korean
    character (and any other wide one) takes two, so a table of names stays aligned."""
    shown, used = "", 0
    for char in text:
        size = 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
        if used + size > width:
            break
        shown, used = shown + char, used + size
    return shown + " " * (width - used)


def parse_line_list(text: str, count: int) -> list[int]:
    """1-based line numbers from ``"1,3,5-8"``; raises ValueError with the bad part."""
    numbers: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        first, sep, last = part.partition("-")
        try:
            low, high = int(first), int(last) if sep else int(first)
        except ValueError:
            raise ValueError(f"{part!r} is not a line number or range") from None
        if low < 1 or high > count or low > high:
            raise ValueError(f"{part!r} is outside 1-{count}")
        numbers.extend(range(low, high + 1))
    return sorted(set(numbers))


def run_download(command: str, download: Callable[[Callable[[DownloadProgress], None]], ValidationReport],
                 progress_line: Callable[[DownloadProgress], str], *, failed: str, incomplete: str,
                 ready: Callable[[], str]) -> ExitCode:
    """Run ``download`` (handed the progress callback) with its progress on stderr when that is a
    terminal, then say how it ended: ``failed`` (with the error) or ``incomplete`` (with the
    check's summary) after ``command``'s name, exit 1; else ``ready()``, exit 0."""
    from engine.core.downloads import DownloadError

    err = sys.stderr

    def progress(report: DownloadProgress) -> None:
        if err.isatty():
            err.write(f"\r{progress_line(report)}")
            err.flush()

    try:
        report = download(progress)
    except DownloadError as error:
        print(f"\n{command}: {failed}: {error}", file=err)
        return ExitCode.FAILED
    if not report.ok:
        print(f"\n{command}: {incomplete}: {report.summary()}", file=err)
        return ExitCode.FAILED
    print(f"\n{ready()}", file=err)
    return ExitCode.OK

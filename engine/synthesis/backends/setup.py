"""Setting a backend up on this machine: its environment, its model folder, its device.

Qt-free and light (no torch here): the studio's "Voices engine" page calls these from worker
threads; ``dubstudio bench --probe`` and ``benchmarks/gpu_probe.sh`` from the command line.
Each long step runs as a child process (the environment build script, the synthetic model
builder, the downloader), so a cancel takes effect at once — the child's whole process group
is stopped — and its output arrives line by line as it is printed, with a progress fraction
when the line says how far it got.
"""

from __future__ import annotations

import collections
import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from engine.core.paths import REPO_ROOT
from engine.synthesis.backends.descriptor import Environment

CANCELLED = -int(signal.SIGTERM)  # the exit status of a cancelled run
STOP_GRACE_S = 5.0  # after SIGTERM, how long a child may tidy up before SIGKILL
TAIL_LINES = 40
SYNTHETIC_SIZES = ("tiny", "full")

# "cosyvoice-env: step 3/8: ..." (the build scripts) -> the step's start as a fraction.
_STEP = re.compile(r"^[\w.-]+: step (\d+)/(\d+)\b")
# "12.5 of 4,500 MB, file 3/12 ..." (dubstudio cosyvoice download) -> bytes done as a fraction.
_BYTES = re.compile(r"([\d,]+(?:\.\d+)?) of ([\d,]+(?:\.\d+)?) MB, file \d+/\d+")


class SetupError(RuntimeError):
    """A set-up step failed; the message says which and how to go on."""


@dataclass(frozen=True)
class OutputLine:
    """One line a set-up step printed, and how far along the step is (0–1) when it says so."""

    text: str
    progress: float | None = None


def progress_of(text: str) -> float | None:
    """The progress a line reports: a build step, or bytes of a download; None otherwise."""
    step = _STEP.match(text)
    if step:
        number, steps = int(step.group(1)), int(step.group(2))
        return max(0.0, min(1.0, (number - 1) / steps)) if steps else None
    size = _BYTES.search(text)
    if size:
        done, total = (float(group.replace(",", "")) for group in size.groups())
        return max(0.0, min(1.0, done / total)) if total else None
    return None


class CommandRun:
    """A child process whose output lines reach ``on_output`` as they are printed.

    Call :meth:`run` from a worker thread (it blocks); :meth:`cancel` from any thread stops
    the child and everything it started (it runs in its own session), politely first.
    """

    def __init__(self, command: Sequence[str], on_output: Callable[[OutputLine], None] | None = None,
                 cwd: str | os.PathLike[str] = REPO_ROOT, env: dict[str, str] | None = None) -> None:
        self.command = [str(part) for part in command]
        self.on_output = on_output
        self.cwd = str(cwd)
        self.env = env
        self.tail: collections.deque[str] = collections.deque(maxlen=TAIL_LINES)
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._cancelled = False

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def run(self) -> int:
        """Run to the end; the exit status (``CANCELLED`` after :meth:`cancel`)."""
        with self._lock:
            if self._cancelled:
                return CANCELLED
            self._process = subprocess.Popen(
                self.command, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, start_new_session=True,
            )
        process = self._process
        assert process.stdout is not None
        pending = b""
        with cast(io.BufferedReader, process.stdout) as reader:
            while chunk := reader.read1(65536):
                # Progress bars redraw with \r; treat it as a line end so each redraw is seen.
                parts = re.split(rb"\r\n|\r|\n", pending + chunk)
                pending = parts.pop()
                for part in parts:
                    self._emit(part)
        if pending:
            self._emit(pending)
        status = process.wait()
        return CANCELLED if self._cancelled else status

    def _emit(self, raw: bytes) -> None:
        text = raw.decode("utf-8", errors="replace").rstrip()
        if not text:
            return
        self.tail.append(text)
        if self.on_output is not None:
            self.on_output(OutputLine(text, progress_of(text)))

    def cancel(self) -> None:
        """Stop the child's process group: SIGTERM, then SIGKILL if it lingers."""
        with self._lock:
            self._cancelled = True
            process = self._process
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return

        def finish() -> None:
            try:
                process.wait(STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)

        threading.Thread(target=finish, name="setup-cancel", daemon=True).start()

    def failure(self, what: str) -> SetupError:
        """An error naming the step and quoting its last lines."""
        last = "\n".join(list(self.tail)[-8:])
        return SetupError(f"{what} failed (exit status {self._process.returncode if self._process else '?'})"
                          + (f":\n{last}" if last else ""))


# --- the environment ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EnvironmentState:
    built: bool
    python: str | None
    usable: bool  # the interpreter imports the backend's stack
    message: str


def check_environment(environment: Environment, timeout_s: float = 120.0) -> EnvironmentState:
    """Whether a backend's environment is built and imports its stack (a few seconds: it
    imports torch once)."""
    python = environment.interpreter()
    if python is None or not environment.is_built():
        return EnvironmentState(False, str(python) if python else None, False,
                                f"not built ({environment.size_hint}); it goes to {environment.folder()}")
    try:
        done = subprocess.run(environment.check_command(python), capture_output=True, text=True, timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired) as error:
        return EnvironmentState(True, str(python), False, f"built, but its interpreter does not run: {error}")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return EnvironmentState(True, str(python), False, f"built, but broken ({last}): build it again")
    return EnvironmentState(True, str(python), True, f"built at {environment.folder()}")


def build_environment_run(environment: Environment, on_output: Callable[[OutputLine], None] | None = None,
                          ) -> CommandRun:
    """The run that builds (or refreshes) the environment with its build script."""
    return CommandRun(environment.build_command(), on_output)


# --- model folders -----------------------------------------------------------------------------


def default_synthetic_folder(size: str) -> Path:
    """Where synthetic CosyVoice2 folders go unless told otherwise: the user's data folder
    (a full one is 4.3 GB, so not the cache, which people clear)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("DubStudio", "DubStudio")) / "models" / f"CosyVoice2-0.5B-synthetic-{size}"


def synthetic_run(python: str | os.PathLike[str], folder: str | os.PathLike[str], size: str,
                  on_output: Callable[[OutputLine], None] | None = None, force: bool = False) -> CommandRun:
    """The run that builds a synthetic CosyVoice2 folder with the real classes (under the
    CosyVoice environment's interpreter); its last output line is the folder's facts (JSON)."""
    if size not in SYNTHETIC_SIZES:
        raise SetupError(f"synthetic size must be one of {', '.join(SYNTHETIC_SIZES)}, not {size!r}")
    command = [str(python), "-m", "engine.synthesis.backends.cosyvoice_synthetic", str(folder), "--size", size]
    return CommandRun(command + (["--force"] if force else []), on_output)


def synthetic_facts(run: CommandRun) -> dict[str, Any]:
    """The facts a finished synthetic build printed last."""
    for line in reversed(run.tail):
        if line.startswith("{"):
            facts: dict[str, Any] = json.loads(line)
            return facts
    raise run.failure("building the synthetic model folder")


def ensure_synthetic_model(python: str | os.PathLike[str], folder: str | os.PathLike[str], size: str,
                           on_output: Callable[[OutputLine], None] | None = None,
                           hold: Callable[[CommandRun], None] | None = None) -> dict[str, Any]:
    """A usable synthetic folder of ``size`` at ``folder``: kept when it is one already, built
    otherwise (seconds for tiny, about a minute and 4.3 GB for full). ``hold`` receives the
    run before it starts, so a caller can cancel it."""
    from engine.synthesis.backends.cosyvoice_models import (
        model_kind,
        validate_model_dir,
    )

    if model_kind(Path(folder)) == {"kind": "synthetic", "size": size} and validate_model_dir(Path(folder)).ok:
        return {"size": size, "built": False}
    run = synthetic_run(python, folder, size, on_output)
    if hold is not None:
        hold(run)
    status = run.run()
    if run.cancelled:
        raise SetupError("building the synthetic model folder was cancelled")
    if status != 0:
        raise run.failure("building the synthetic model folder")
    return {**synthetic_facts(run), "built": True}


# --- the device --------------------------------------------------------------------------------


def probe_device(python: str | os.PathLike[str] | None, device: str = "auto",
                 timeout_s: float = 180.0) -> dict[str, Any]:
    """The device facts (engine.synthesis.backends.device) as the given interpreter's torch sees them.

    Never raises: a failure is an ``error`` entry, shown where the device would be.
    """
    command = [str(python or sys.executable), "-m", "engine.synthesis.backends.device", "--device", device]
    try:
        done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired) as error:
        return {"error": f"cannot ask the engine's interpreter about its device: {error}"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": f"the engine's interpreter cannot describe its device: {last}"}
    facts: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return facts

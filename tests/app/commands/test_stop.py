"""Killing or terminating `say`, `render`, `bench`, `new` or `qa` never leaves an engine behind
(issue 10), nor a traceback.

SIGTERM stops a command as Ctrl+C does: exit status 130, finished takes kept, a partial bench
report written, no traceback. SIGKILL cannot be handled by the command, so the engine notices
its parent is gone and ends itself. Each case runs the installed console script as a user
would and waits (with a generous bound, never a timing assertion) for the engine to be gone.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from app.project.media import attach_video
from app.project.new_project import NEW_MARKER
from engine.core.paths import REPO_ROOT, SAMPLE_PROJECT
from tests.app.project.conftest import make_project
from tests.engine.synthesis.test_lifeline import (
    kill_if_alive,
    read_line_with,
    wait_gone,
)

DUBSTUDIO = str(Path(sys.executable).parent / "dubstudio")
PYTHON_M_DUBSTUDIO = [sys.executable, "-m", "app.cli"]  # how a command runs under `python -m`
LONG_TEXT = " ".join(["The lighthouse keeper swore she saw a ship drift past the rocks."] * 60)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="signals and process groups are POSIX")


def long_project(tmp_path: Path) -> Path:
    """The sample project with its lines repeated, so a render is still going when it is stopped."""
    project = tmp_path / "project"
    shutil.copytree(SAMPLE_PROJECT, project)
    data = json.loads((project / "project.json").read_text())
    base = data["lines"]
    data["lines"] = [dict(line, id=f"{line['id']}_{k}", order=k * len(base) + i + 1,
                          start=line["start"] + 30 * k, end=line["end"] + 30 * k)
                     for k in range(6) for i, line in enumerate(base)]
    (project / "project.json").write_text(json.dumps(data))
    return project


def engine_of(command: subprocess.Popen[str], limit: float = 300.0) -> int:
    """The pid of the command's engine once it runs our code (it then leads its own group)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        for child in psutil.Process(command.pid).children():
            try:
                if "spawn_main" in " ".join(child.cmdline()) and os.getpgid(child.pid) == child.pid:
                    return child.pid
            except (psutil.Error, ProcessLookupError):
                pass
        assert command.poll() is None, "the command ended before its engine started"
        time.sleep(0.1)
    raise AssertionError("no engine started")


def run_and_stop(tmp_path: Path, command: str, how: signal.Signals) -> tuple[int, str, int]:
    """Start ``command``, stop it with ``how`` once it is working; (exit status, stderr, engine pid)."""
    if command == "say":
        args = ["say", LONG_TEXT, "--out", str(tmp_path / "out.wav")]
        busy = None  # say prints nothing before it ends: stop it once its engine runs
    elif command == "render":
        args = ["render", str(long_project(tmp_path)), "--no-progress"]
        busy = "[1/"  # one take written, the others rendering
    else:
        args = ["bench", "--levels", "2", "--jobs-per-level", "40", "--warmup", "0",
                "--json", str(tmp_path / "report.json")]
        busy = "  job 0"
    with subprocess.Popen([DUBSTUDIO, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          cwd=tmp_path) as process:  # the context closes the pipes whatever happens
        return _stop(process, command, how, busy)


def _stop(process: subprocess.Popen[str], command: str, how: signal.Signals, busy: str | None) -> tuple[int, str, int]:
    engine = 0
    try:
        engine = engine_of(process)
        if busy is not None:
            assert process.stderr is not None
            read_line_with(process.stderr, busy)
        process.send_signal(how)
        _, err = process.communicate(timeout=120)
        return process.returncode, err, engine
    finally:
        if process.poll() is None:
            process.kill()
        if engine:
            assert wait_gone(engine), f"the engine of {command} outlived it ({how.name})"
            kill_if_alive(engine)


@pytest.mark.parametrize("command", ["say", "render", "bench"])
def test_sigkill_never_orphans_the_engine(tmp_path, command):
    status, _, _ = run_and_stop(tmp_path, command, signal.SIGKILL)
    assert status == -signal.SIGKILL  # and run_and_stop saw the engine go


def test_sigterm_stops_say_cleanly(tmp_path):
    status, err, _ = run_and_stop(tmp_path, "say", signal.SIGTERM)
    assert status == 130 and "interrupted; nothing was written" in err and "Traceback" not in err
    assert not (tmp_path / "out.wav").exists()


def test_sigterm_stops_render_cleanly_and_keeps_finished_takes(tmp_path):
    status, err, _ = run_and_stop(tmp_path, "render", signal.SIGTERM)
    assert status == 130 and "Traceback" not in err, err
    data = json.loads((tmp_path / "project" / "project.json").read_text())
    takes = [take for line in data["lines"] for take in line["takes"]]
    assert takes and all((tmp_path / "project" / take["path"]).is_file() for take in takes)


def test_sigterm_stops_bench_cleanly_with_a_partial_report(tmp_path):
    status, err, _ = run_and_stop(tmp_path, "bench", signal.SIGTERM)
    assert status == 130 and "Traceback" not in err, err
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["stopped"] is True and report["verdict"]["complete"] is False
    assert any(job["status"] == "ok" for job in report["jobs"])


def wait_until_signals_are_handled(process: subprocess.Popen[str]) -> None:
    """Until the command has installed its SIGTERM handler (SigCgt in /proc), so the signal
    lands inside the command and not in the interpreter's own start-up."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            status = Path(f"/proc/{process.pid}/status").read_text()
        except FileNotFoundError:
            return
        caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
        if caught & (1 << (signal.SIGTERM - 1)):
            return
        time.sleep(0.01)
    raise AssertionError("the command never installed its signal handlers")


@pytest.mark.parametrize("args", [
    ["new", "{tmp}/dub", "--video", "{video}", "--guide"],
    ["qa", "{tmp}/scene", "--save"],
    ["render", "{tmp}/scene", "--export", "video"],
], ids=["new", "qa", "render"])
def test_sigterm_in_a_command_exits_130_without_a_traceback(tmp_path: Path, video: Path, args: list[str]) -> None:
    scene = make_project(tmp_path / "scene")
    scene.video = attach_video(scene, video)
    scene.save()
    command = [a.format(tmp=tmp_path, video=video) for a in args]
    process = subprocess.Popen([*PYTHON_M_DUBSTUDIO, *command], cwd=REPO_ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    wait_until_signals_are_handled(process)
    process.send_signal(signal.SIGTERM)
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert not (tmp_path / "dub").exists() or (tmp_path / "dub" / NEW_MARKER).exists() is False


def test_an_interrupt_seen_by_a_nested_pyrun_still_exits_130(tmp_path: Path) -> None:
    """CPython ends a ``python -m`` process (how dubstudio runs) by SIGINT (-2) when an
    interrupt ever passed through a nested PyRun_* call, even one caught later: a SIGTERM
    during some imports did that in CI."""
    (tmp_path / "interrupt_probe.py").write_text(textwrap.dedent("""
        import ctypes, sys
        from app.commands.common import run_interruptible
        def command():
            ctypes.pythonapi.PyRun_SimpleString(b"raise KeyboardInterrupt")  # marks it unhandled
            raise KeyboardInterrupt
        sys.exit(run_interruptible("test", command))
    """), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "interrupt_probe"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 130 and "dubstudio test: interrupted" in done.stderr


def test_sigint_ends_new_the_same_way(tmp_path: Path, video: Path) -> None:
    process = subprocess.Popen([*PYTHON_M_DUBSTUDIO, "new", str(tmp_path / "dub"), "--video", str(video)],
                               cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_until_signals_are_handled(process)
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 130 and "Traceback" not in err


def test_a_reader_that_stops_reading_ends_the_command_quietly_with_141() -> None:
    """``dubstudio cast list --json | head``: the pipe's reader closed before the output was
    written, and the command ended in a BrokenPipeError traceback (status 1)."""
    with subprocess.Popen([*PYTHON_M_DUBSTUDIO, "backends"], cwd=REPO_ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # the reader is gone before a word is written
        err = process.stderr.read()
        status = process.wait(timeout=120)
    assert status == 141, err
    assert "Traceback" not in err and "BrokenPipeError" not in err, err

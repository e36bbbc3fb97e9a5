"""Killing or terminating `say`, `render` and `bench` never leaves an engine behind (issue 10).

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
import time
from pathlib import Path

import psutil
import pytest

from engine.core.paths import SAMPLE_PROJECT
from tests.engine.synthesis.test_lifeline import (
    kill_if_alive,
    read_line_with,
    wait_gone,
)

DUBSTUDIO = str(Path(sys.executable).parent / "dubstudio")
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

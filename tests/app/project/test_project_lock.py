"""The project lock: one writer at a time, who holds it said in words, a dead holder's lock taken
over, and a lock file that is a hard link, a named pipe or cannot be written refused with a code."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.cli import main as cli_main
from app.project import Project, ProjectLockedError, SaveError
from app.project.lock import LOCK_FILE, ProjectLock
from engine.core.codes import ErrorCode
from tests.engine.helpers import POSIX_ONLY, returns_at_once


def test_a_second_writer_is_told_who_holds_the_project(project: Project) -> None:
    with ProjectLock.acquire(project.root, "dubstudio render") as lock:
        assert (project.root / LOCK_FILE).exists()
        with pytest.raises(ProjectLockedError) as caught:
            ProjectLock.acquire(project.root, "DubStudio studio")
        assert caught.value.code is ErrorCode.PROJECT_LOCKED
        assert f"dubstudio render (pid {os.getpid()} on " in str(caught.value)
        assert lock.held
    assert not (project.root / LOCK_FILE).exists()
    ProjectLock.acquire(project.root, "again").release()


def test_two_renders_of_one_project_never_run_at_once(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    """The report: two renders of one folder wrote 12 take files while project.json listed 6."""
    with ProjectLock.acquire(project.root, "dubstudio render"):
        assert cli_main(["render", str(project.root)]) == 6
    err = capsys.readouterr().err
    assert "E_PROJECT_LOCKED" in err and "dubstudio render (pid" in err
    assert not list(project.takes_dir.iterdir())


def test_the_lock_of_a_killed_process_is_taken_over(project: Project) -> None:
    script = textwrap.dedent(f"""
        import time
        from app.project.lock import ProjectLock
        lock = ProjectLock.acquire({str(project.root)!r}, "doomed render")
        print("locked", flush=True)
        time.sleep(600)
    """)
    with subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
            with pytest.raises(ProjectLockedError, match=f"doomed render \\(pid {holder.pid} "):
                ProjectLock.acquire(project.root, "studio")
        finally:
            holder.send_signal(signal.SIGKILL)
    assert (project.root / LOCK_FILE).exists()  # a dead process cleans nothing up...
    with ProjectLock.acquire(project.root, "studio"):  # ...but its lock is taken over
        assert json.loads((project.root / LOCK_FILE).read_text())["pid"] == os.getpid()


def test_a_lock_that_cannot_be_written_is_a_coded_error_not_a_traceback(project: Project) -> None:
    """On a full disk, render's project lock died with an OSError traceback while writing its holder.

    A real failing write, without root or a full disk: a child process whose file size limit is
    0 bytes can create the (empty) lock file but not write into it (EFBIG).
    """
    script = textwrap.dedent(f"""
        import resource, signal, sys
        from app.cli import main
        from app.project import SaveError
        from app.project.lock import ProjectLock
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write, not a killed process
        hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard))
        try:
            ProjectLock.acquire({str(project.root)!r}, "studio")
        except SaveError as error:
            print(error.code.value, error.message, flush=True)
        print("render exit", main(["render", {str(project.root)!r}]), flush=True)
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        ProjectLock.acquire({str(project.root)!r}, "studio").release()  # nothing was left held
        print("locked again", flush=True)
    """)
    before = project.project_file.read_bytes()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    refused, render, again = done.stdout.splitlines()
    assert refused.startswith(f"E_SAVE_FAILED cannot write the project lock {project.root / LOCK_FILE}: File too large")
    assert render == "render exit 2" and "E_SAVE_FAILED: cannot write the project lock" in done.stderr
    assert again == "locked again"
    assert not (project.root / LOCK_FILE).exists() and project.project_file.read_bytes() == before


@POSIX_ONLY
def test_a_lock_hard_linked_to_a_file_outside_is_never_written(project: Project, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    os.link(outside, project.root / LOCK_FILE)
    assert cli_main(["render", str(project.root)]) == 2
    err = capsys.readouterr().err
    assert "E_NOT_REGULAR_FILE" in err and "hard-linked" in err
    assert outside.read_text() == "precious"


@POSIX_ONLY
def test_a_lock_file_that_is_a_fifo_is_a_coded_error(project: Project) -> None:
    os.mkfifo(project.root / LOCK_FILE)
    error = returns_at_once(lambda: ProjectLock.acquire(project.root, "test"))
    assert isinstance(error, SaveError) and error.code is ErrorCode.NOT_REGULAR_FILE

"""The engine never outlives the process that started it, and a stuck start-up is ended.

Issue 10: killing ``render``, ``bench`` or ``say`` left the engine synthesising for 84 s of CPU,
then idling at 700 MB for ever; an engine interpreter that hung at start was reported only
after 300 s and left its children behind. Each test kills or starves a real process and then
waits (with a generous bound: never a timing assertion) for what must disappear to be gone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator

import psutil
import pytest

from engine.core.paths import REPO_ROOT
from engine.core.protocol import EngineStarting, ErrorCode, Job, JobFinished
from engine.synthesis.client.local import EngineClient, EngineStartError, collect
from engine.synthesis.config import EngineConfig
from tests.engine.helpers import sample_voice

GONE_WITHIN_S = 60.0  # a bound for the wait, generous for a loaded machine; the engine exits in well under 1 s
LONG_TEXT = " ".join(["The lighthouse keeper swore she saw a ship drift past the rocks."] * 60)

posix_only = pytest.mark.skipif(os.name != "posix", reason="process groups and shell scripts are POSIX")


def wait_gone(pid: int, limit: float = GONE_WITHIN_S) -> bool:
    """True once ``pid`` no longer runs (a zombie left for a reaper counts as gone)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.1)
    return False


def kill_if_alive(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def read_line_with(stream, marker: str, limit: float = 300.0) -> str:
    """Read ``stream`` line by line until one contains ``marker``; that line."""
    deadline = time.monotonic() + limit
    for line in stream:
        if marker in line:
            return line
        if time.monotonic() > deadline:
            break
    raise AssertionError(f"no line with {marker!r}")


# A parent that starts an engine, makes it speak a long text, reports the engine's pid once the
# first chunk arrived (the engine is mid-synthesis) and then waits to be killed.
PARENT = textwrap.dedent("""
    import sys, time
    from engine.synthesis.client.local import EngineClient
    from engine.synthesis.config import EngineConfig
    from engine.core.protocol import AudioChunk, Job
    from tests.engine.helpers import sample_voice
    client = EngineClient(EngineConfig(python=sys.argv[2] if len(sys.argv) > 2 else None))
    client.start()
    job = Job(sys.argv[1], sample_voice())
    client.submit(job)
    while not isinstance(client.get_event(), AudioChunk):
        pass
    print("engine", client.ready.pid, flush=True)
    time.sleep(600)
""")


def start_parent(*extra: str) -> tuple[subprocess.Popen[str], int]:
    parent = subprocess.Popen([sys.executable, "-c", PARENT, LONG_TEXT, *extra], cwd=REPO_ROOT,
                              stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    engine = int(read_line_with(parent.stdout, "engine").split()[1])
    return parent, engine


@contextlib.contextmanager
def then_killing_the_parent(parent: subprocess.Popen[str], engine: int) -> Iterator[None]:
    """After the body's checks, kills the parent: the engine must end with it (and is killed
    anyway, so no test leaves one behind)."""
    try:
        yield
        parent.kill()
        parent.wait()
        assert wait_gone(engine), "the engine outlived its killed parent"
    finally:
        kill_if_alive(engine)
        parent.stdout.close()  # type: ignore[union-attr]


def test_engine_ends_when_its_client_is_killed_mid_synthesis():
    parent, engine = start_parent()
    with then_killing_the_parent(parent, engine):
        assert psutil.Process(engine).status() != psutil.STATUS_ZOMBIE


@posix_only
def test_engine_under_a_wrapper_interpreter_ends_through_the_parent_pipe(tmp_path):
    # A wrapper that does not exec sits between the client and the engine, so the kernel's
    # parent-death signal watches the wrapper; the watch on the spawn pipe must end the engine.
    wrapper = tmp_path / "python-wrapper"
    wrapper.write_text(f'#!/bin/sh\n"{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    parent, engine = start_parent(str(wrapper))
    with then_killing_the_parent(parent, engine):
        assert psutil.Process(engine).ppid() != parent.pid  # really behind the wrapper


def test_engine_started_from_a_thread_that_ended_keeps_running():
    # The studio starts its engine from a reader thread; Linux's parent-death signal follows the
    # starting *thread*, so an engine must not die when that thread ends.
    client = EngineClient()
    starter = threading.Thread(target=client.start)
    starter.start()
    starter.join()
    try:
        assert client.ready is not None
        _, end = collect(client, Job("Still here after the thread that started me ended.", sample_voice()))
        assert isinstance(end, JobFinished)
    finally:
        client.close()


@posix_only
def test_an_interpreter_that_hangs_at_start_is_killed_with_its_children(tmp_path):
    child_pid_file = tmp_path / "child.pid"
    hanging = tmp_path / "hanging-python"
    hanging.write_text(f"#!/bin/sh\nsleep 600 &\necho $! > {child_pid_file}\nwait\n")
    hanging.chmod(0o755)
    client = EngineClient(EngineConfig(python=str(hanging), handshake_timeout_s=3))
    with pytest.raises(EngineStartError) as caught:
        client.start()
    assert caught.value.code is ErrorCode.ENGINE_START
    assert f"interpreter ({hanging}) did not start within 3 s" in str(caught.value)
    assert client.pid is not None and wait_gone(client.pid, limit=5)
    child = int(child_pid_file.read_text())
    try:
        assert wait_gone(child), "the hung interpreter's child was left behind"
    finally:
        kill_if_alive(child)
    client.close()


def test_a_load_past_its_deadline_is_stopped_and_names_the_stage():
    client = EngineClient(EngineConfig(load_timeout_s=0.01))  # no model loads in 10 ms
    stages: list[EngineStarting] = []
    with pytest.raises(EngineStartError) as caught:
        client.start(on_progress=stages.append)
    assert caught.value.code is ErrorCode.ENGINE_START
    assert "did not finish loading embedded within 0.01 s (stuck at: loading embedded)" in str(caught.value)
    assert [s.stage for s in stages][:2] == ["started", "loading embedded"]
    assert client.pid is not None and wait_gone(client.pid, limit=5)
    client.close()


def test_start_up_reports_its_stages_then_ready():
    stages: list[EngineStarting] = []
    client = EngineClient()
    try:
        ready = client.start(on_progress=stages.append)
        assert ready.pid == stages[0].pid
        # "warming up": what a job's first piece needs runs before ready, so no job waits on it.
        assert [s.stage for s in stages] == ["started", "loading embedded", "opening the voice cache", "warming up"]
        assert os.name != "posix" or os.getpgid(ready.pid) == ready.pid  # it leads its own group
    finally:
        client.close()

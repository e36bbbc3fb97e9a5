"""Set-up steps as child processes: live lines, progress from what they print, cancel of the group."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from engine.synthesis.backends import COSYVOICE2_ENVIRONMENT
from engine.synthesis.backends.setup import (
    CANCELLED,
    CommandRun,
    OutputLine,
    check_environment,
    probe_device,
    progress_of,
)


def test_progress_is_read_from_build_steps_and_download_lines() -> None:
    assert progress_of("cosyvoice-env: step 3/8: openai-whisper") == pytest.approx(0.25)
    assert progress_of("cosyvoice_synthetic: step 1/5: loading torch") == 0.0
    assert progress_of("1,234.5 of 4,937 MB, file 3/14 llm.pt") == pytest.approx(1234.5 / 4937)
    assert progress_of("Collecting numpy") is None
    assert progress_of("0.0 of ? MB, file 0/3") is None


def test_lines_arrive_as_printed_including_carriage_return_redraws() -> None:
    seen: list[OutputLine] = []
    run = CommandRun(["bash", "-c", r"echo 'x: step 1/2: first'; printf '1 of 4 MB, file 1/1\r2 of 4 MB, file 1/1\n'; "
                                    r"echo oops >&2; exit 3"], seen.append)
    assert run.run() == 3
    assert [line.text for line in seen] == ["x: step 1/2: first", "1 of 4 MB, file 1/1", "2 of 4 MB, file 1/1",
                                            "oops"]
    assert [line.progress for line in seen] == [0.0, 0.25, 0.5, None]
    assert "exit status 3" in str(run.failure("the step")) and "oops" in str(run.failure("the step"))


def test_cancel_stops_the_child_and_what_it_started(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    started = threading.Event()
    run = CommandRun(["bash", "-c", f"sleep 300 & echo $! > {pid_file}; echo started; wait"],
                     lambda line: started.set() if line.text == "started" else None)
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(run.run()))
    worker.start()
    assert started.wait(30)
    grandchild = psutil.Process(int(pid_file.read_text()))
    run.cancel()
    worker.join(30)
    assert result == [CANCELLED] and run.cancelled
    deadline = time.monotonic() + 10
    while grandchild.is_running() and grandchild.status() != psutil.STATUS_ZOMBIE and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not grandchild.is_running() or grandchild.status() == psutil.STATUS_ZOMBIE


def test_a_cancel_before_the_start_runs_nothing() -> None:
    run = CommandRun(["bash", "-c", "echo never"])
    run.cancel()
    assert run.run() == CANCELLED and not run.tail


def test_a_missing_environment_and_a_broken_interpreter_are_reported(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(COSYVOICE2_ENVIRONMENT.folder_env, str(tmp_path / "env"))
    monkeypatch.delenv(COSYVOICE2_ENVIRONMENT.python_env, raising=False)
    state = check_environment(COSYVOICE2_ENVIRONMENT)
    assert not state.built and not state.usable and state.message.startswith("not built")
    facts = probe_device(tmp_path / "no-python")
    assert "error" in facts and "cannot ask" in facts["error"]


def test_the_device_probe_describes_this_interpreters_torch() -> None:
    facts = probe_device(sys.executable)
    assert facts["device"] == "cpu" and facts["cuda_available"] is False  # the build machines have no GPU
    # the studio's environment has no torch (issue 19); a developer's older .venv may still
    assert (facts["torch"] is None or facts["torch"].startswith("2.")) and facts["fp16_supported"] is False
    assert probe_device(sys.executable, "cuda:0")["error"].startswith("E_ENGINE_START: device 'cuda:0'")

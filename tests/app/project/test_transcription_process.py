"""The studio's transcription in a process of its own (app.project.transcription_process): the
script comes back as in-process, Cancel reaches the child, and a child that dies is an error with
its code; the real Whisper base and CAM++ on a real LibriSpeech clip (tests/data/hearing, CC BY 4.0)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from multiprocessing.process import BaseProcess
from pathlib import Path

import pytest

from app.cli import main as cli_main
from app.project.errors import TranscriptionError
from app.project.project import Project
from app.project.transcription import TranscribeRequest
from app.project.transcription_process import PROCESS_NAME, hear_project_apart
from engine.core.codes import ErrorCode

CLIP = Path(__file__).resolve().parents[2] / "data" / "hearing" / "libri_1688_a.flac"


def clip_project(folder: Path) -> Project:
    assert cli_main(["new", str(folder / "project"), "--audio", str(CLIP), "--no-subtitles"]) == 0
    return Project.load(folder / "project")


def transcribing_child() -> BaseProcess:
    (child,) = [process for process in multiprocessing.active_children() if process.name == PROCESS_NAME]
    return child


def test_the_script_comes_back_from_a_child_process_at_the_studios_priority(tmp_path: Path) -> None:
    project = clip_project(tmp_path)
    seen: list[tuple[str, int]] = []  # each report's stage and the child's nice value then
    made = hear_project_apart(project, TranscribeRequest(), progress=lambda stage, _fraction: seen.append(
        (stage, os.getpriority(os.PRIO_PROCESS, transcribing_child().pid or 0))))
    assert {stage for stage, _nice in seen} >= {"loading", "listening", "cutting"}
    assert {nice for _stage, nice in seen} == {os.getpriority(os.PRIO_PROCESS, 0)}  # not below the studio's
    assert [line.text.split(",")[0] for line in made.lines] == ["I don't think Mr. Hale"]
    assert [path.parent.name for path in made.written.made] == ["voices"] and made.written.made[0].is_file()
    assert not [process for process in multiprocessing.active_children() if process.name == PROCESS_NAME]


def test_cancel_reaches_the_child(tmp_path: Path) -> None:
    cancel = threading.Event()
    with pytest.raises(TranscriptionError) as raised:
        hear_project_apart(clip_project(tmp_path), TranscribeRequest(), cancel=cancel,
                           progress=lambda stage, _fraction: cancel.set() if stage == "listening" else None)
    assert raised.value.code is ErrorCode.CANCELLED
    assert not list((tmp_path / "project" / "voices").glob("speaker-*"))  # nothing of it kept


def test_a_child_that_dies_is_an_error_with_its_code(tmp_path: Path) -> None:
    def kill(_stage: str, _fraction: float) -> None:
        os.kill(transcribing_child().pid or 0, signal.SIGKILL)

    with pytest.raises(TranscriptionError) as raised:
        hear_project_apart(clip_project(tmp_path), TranscribeRequest(), progress=kill)
    assert raised.value.code is ErrorCode.TRANSCRIPTION_PROCESS and "-9" in str(raised.value)

"""A named pipe where a file should be is refused at once, never waited on: a take or a guide track
in the mix, a take that QA hears, a video, a clip, a script, a token file. Each case runs the real
code path (the CLI where a user would); nothing stands in for a decoder.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.project import ExportError, ImportFormatError, MediaError, Project
from app.project.export import export_mix, mixdown
from app.project.media import probe_video
from app.project.qa import read_take
from app.project.script_io import import_script
from engine.core.codes import ErrorCode
from engine.core.paths import REPO_ROOT
from tests.app.commands.test_stop import PYTHON_M_DUBSTUDIO
from tests.engine.helpers import POSIX_ONLY, returns_at_once

from .conftest import add_fake_take, tone

pytestmark = POSIX_ONLY


def dubstudio(*args: str, **options: Any) -> subprocess.CompletedProcess[str]:
    options.setdefault("timeout", 300)
    return subprocess.run([*PYTHON_M_DUBSTUDIO, *args], capture_output=True, text=True, cwd=REPO_ROOT, **options)


def test_a_take_that_is_a_fifo_fails_the_mix_at_once(project: Project) -> None:
    take = add_fake_take(project, project.lines[0], tone(1.0))
    path = project.take_path(take)
    path.unlink()
    os.mkfifo(path)
    error = returns_at_once(lambda: export_mix(project))
    assert isinstance(error, ExportError) and "named pipe" in str(error)


def test_a_guide_track_that_is_a_fifo_fails_the_mix_at_once(project: Project) -> None:
    add_fake_take(project, project.lines[0], tone(1.0))
    project.media_dir.mkdir(exist_ok=True)
    os.mkfifo(project.media_dir / "guide.flac")
    project.guide_audio = "media/guide.flac"
    project.settings = dataclasses.replace(project.settings, guide_mix="duck")
    error = returns_at_once(lambda: mixdown(project))
    assert isinstance(error, ExportError) and "named pipe" in str(error)


def test_qa_of_a_take_that_is_a_fifo_is_an_error_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "take.wav"
    os.mkfifo(fifo)
    error = returns_at_once(lambda: read_take(fifo))
    assert isinstance(error, OSError) and "named pipe" in str(error)


def test_dubstudio_qa_with_a_take_that_is_a_fifo_reports_it_and_ends(project: Project) -> None:
    take = add_fake_take(project, project.lines[0], tone(1.0))
    project.save()
    path = project.take_path(take)
    path.unlink()
    os.mkfifo(path)
    done = dubstudio("qa", str(project.root), "--lines", "1", timeout=300)
    assert "named pipe" in done.stdout + done.stderr and "Traceback" not in done.stderr


def test_serve_token_file_on_a_fifo_exits_2_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "token"
    os.mkfifo(fifo)
    done = dubstudio("serve", "--token-file", str(fifo), timeout=120)
    assert done.returncode == 2 and "named pipe" in done.stderr and "Traceback" not in done.stderr


def test_a_video_or_clip_that_is_a_fifo_is_refused_at_once(project: Project, tmp_path: Path) -> None:
    fifo = tmp_path / "video.mp4"
    os.mkfifo(fifo)
    error = returns_at_once(lambda: probe_video(fifo))
    assert isinstance(error, MediaError) and "named pipe" in str(error)
    from app.project.clips import import_clip

    error = returns_at_once(lambda: import_clip(project, fifo))
    assert error is not None and "named pipe" in str(error)


def test_a_clip_that_is_a_fifo_has_no_fingerprint_and_blocks_nothing(project: Project) -> None:
    clip = project.root / "voices" / "maya.wav"
    clip.unlink()
    os.mkfifo(clip)
    found: list[Any] = []
    assert returns_at_once(lambda: found.append(project.fingerprint(project.lines[0]))) is None
    assert found == [None]  # cannot render: what the table shows, instead of a frozen studio


def test_importing_a_fifo_is_refused_at_once(project: Project, tmp_path: Path) -> None:
    """The report: importing a FIFO hung (here the suite's timeout would fail the test)."""
    fifo = tmp_path / "script.srt"
    os.mkfifo(fifo)
    with pytest.raises(ImportFormatError, match="named pipe") as caught:
        import_script(fifo, project)
    assert caught.value.code is ErrorCode.NOT_REGULAR_FILE

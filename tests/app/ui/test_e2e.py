"""The real program: `dubstudio PROJECT_DIR` starts, opens the project, draws, and quits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.commands.exit_codes import ExitCode
from app.project.sample import copy_sample_project
from tests.app.ui.paths import REPO


def _dubstudio() -> list[str]:
    """The installed console script, or the same entry point through the module."""
    script = Path(sys.executable).parent / "dubstudio"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "app.cli"]


def test_dubstudio_opens_a_project_and_quits(tmp_path: Path) -> None:
    project = copy_sample_project(tmp_path / "scene")  # never the bundled copy: it must stay pristine
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),  # QSettings: not the user's settings
        "DUBSTUDIO_CACHE_DIR": str(tmp_path / "cache"),
    }
    done = subprocess.run(
        [*_dubstudio(), str(project.root), "--quit-after-load"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "window up: 'The Ship With No Crew (sample) — DubStudio'; project opened: True" in done.stdout
    assert "Traceback" not in done.stderr
    assert (tmp_path / "config" / "DubStudio" / "DubStudio.ini").is_file()  # settings were written


def test_dubstudio_reports_a_folder_that_is_not_a_project(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = subprocess.run(
        [*_dubstudio(), str(tmp_path), "--quit-after-load"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == ExitCode.BAD_INPUT  # a folder that is not a project: bad input
    assert "project opened: False" in done.stdout

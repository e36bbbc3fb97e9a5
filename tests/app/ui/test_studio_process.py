"""The studio, killed, never leaves its engine behind (issue 10).

The real program in a subprocess under Qt's offscreen platform, with its own settings and
cache folders; it is killed once its engine runs, and the engine must then go (a bounded wait,
never a timing assertion).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from app.paths import SAMPLE_PROJECT
from tests.app.test_commands_stop import engine_of
from tests.engine.test_lifeline import kill_if_alive, wait_gone

pytestmark = pytest.mark.skipif(os.name != "posix", reason="signals and process groups are POSIX")


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=lambda s: s.name)
def test_a_killed_studio_leaves_no_engine(tmp_path, how):
    project = tmp_path / "project"
    shutil.copytree(SAMPLE_PROJECT, project)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "HOME": str(tmp_path / "home"), "DUBSTUDIO_CACHE_DIR": str(tmp_path / "cache")}
    studio = subprocess.Popen([str(Path(sys.executable).parent / "dubstudio"), str(project)], env=env, cwd=tmp_path,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    engine = 0
    try:
        engine = engine_of(studio)
        studio.send_signal(how)
        assert studio.wait(timeout=60) == -how
        assert wait_gone(engine), f"the studio's engine outlived it ({how.name})"
    finally:
        if studio.poll() is None:
            studio.kill()
        if engine:
            kill_if_alive(engine)

"""The studio, killed, never leaves its engine behind; stopped, it closes as its window does (issue 10).

The real program in a subprocess under Qt's offscreen platform, with its own settings and
cache folders; it is signalled once its engine runs, and the engine must then go (a bounded
wait, never a timing assertion). SIGTERM and Ctrl+C close the window the normal way: the
project is saved and its lock released, exit status 130 as the commands give.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from app.commands.exit_codes import ExitCode
from app.project.lock import LOCK_FILE
from engine.core.paths import SAMPLE_PROJECT
from tests.app.commands.test_stop import engine_of
from tests.engine.synthesis.test_lifeline import kill_if_alive, wait_gone

pytestmark = pytest.mark.skipif(os.name != "posix", reason="signals and process groups are POSIX")


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
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
        assert (project / LOCK_FILE).exists()  # the studio holds the project
        studio.send_signal(how)
        if how is signal.SIGKILL:
            assert studio.wait(timeout=60) == -how
            assert (project / LOCK_FILE).exists()  # stale: the next opener takes it over
        else:  # closed as by its close button: the project saved and released
            assert studio.wait(timeout=60) == ExitCode.INTERRUPTED
            assert not (project / LOCK_FILE).exists()
        assert wait_gone(engine), f"the studio's engine outlived it ({how.name})"
    finally:
        if studio.poll() is None:
            studio.kill()
        if engine:
            kill_if_alive(engine)

"""The frozen desktop build, run as a user would (marker `package`; scripts/test-package).

The bundle in dist/dubstudio (scripts/package) must start the studio under Qt's offscreen
platform, render the sample project headless (its engine is a child of the same frozen
executable) and export a mix, each exiting 0 with no traceback and no missing module or
library. It needs no display and no sound card. A missing bundle fails: it is never skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FROZEN = Path(os.environ.get("DUBSTUDIO_FROZEN", ROOT / "dist" / "dubstudio" / "dubstudio"))
BROKEN = (
    "Traceback (most recent call last)",
    "ModuleNotFoundError",
    "ImportError",
    "could not find or load the Qt platform plugin",
    "error while loading shared libraries",
    "Fatal Python error",
)
TIMEOUT_S = 600  # the frozen engine loads its model and prepares two voices on a cold cache

pytestmark = pytest.mark.package


@pytest.fixture(scope="module")
def frozen() -> Path:
    assert FROZEN.is_file(), f"no frozen build at {FROZEN}: build it with scripts/package"
    return FROZEN


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    project = tmp_path / "sample"
    shutil.copytree(ROOT / "resources" / "sample_project", project)
    return project


def run_frozen(frozen: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "HOME": str(tmp_path / "home"),  # the sample copy and recent projects stay in here
        "DUBSTUDIO_CACHE_DIR": str(tmp_path / "cache"),
    }
    done = subprocess.run([str(frozen), *args], env=env, capture_output=True, text=True, timeout=TIMEOUT_S,
                          cwd=tmp_path)
    output = done.stdout + done.stderr
    broken = [marker for marker in BROKEN if marker in output]
    assert not broken, f"{broken} in the output:\n{output[-4000:]}"
    return done


def test_frozen_studio_opens_the_sample_project_offscreen(frozen, sample, tmp_path):
    done = run_frozen(frozen, tmp_path, str(sample), "--quit-after-load")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "project opened: True" in done.stdout


def test_frozen_render_speaks_and_exports_the_sample_project(frozen, sample, tmp_path):
    done = run_frozen(frozen, tmp_path, "render", str(sample), "--no-progress", "--export", "mix")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Rendered 6 of 6 lines" in done.stderr
    assert len(list((sample / "takes").glob("*.wav"))) == 6
    assert list((sample / "exports").rglob("*.wav")), "no mix exported"

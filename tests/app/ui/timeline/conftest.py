"""The timeline's tests' scene: one generated project per test module, copied for each test."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.app.ui.timeline.fixtures import make_dub_project


@pytest.fixture(scope="module")
def template(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One generated project (video, guide, timed lines with takes), made once per module: six
    lines over 12 s, or the module's SCENE = (lines, seconds)."""
    lines, seconds = getattr(request.module, "SCENE", (6, 12.0))
    root = tmp_path_factory.mktemp("timeline") / "scene"
    make_dub_project(root, lines=lines, seconds=seconds)
    return root


@pytest.fixture
def project_dir(template: Path, tmp_path: Path) -> Path:
    """A copy of the module's scene that the test may change."""
    root = tmp_path / "scene"
    shutil.copytree(template, root)
    return root

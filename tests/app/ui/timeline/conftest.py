"""The timeline's tests' scene: one generated project per test module, copied for each test."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.app.ui.timeline.fixtures import make_dub_project


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One generated project (video, guide, six timed lines with takes), made once per module."""
    root = tmp_path_factory.mktemp("timeline") / "scene"
    make_dub_project(root, lines=6, seconds=12.0)
    return root


@pytest.fixture
def project_dir(template: Path, tmp_path: Path) -> Path:
    """A copy of the module's scene that the test may change."""
    root = tmp_path / "scene"
    shutil.copytree(template, root)
    return root

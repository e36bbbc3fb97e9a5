"""Fixtures shared by the studio's, the project layer's and the commands' tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.project.media_fixtures import make_video


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3 s video with picture and sound, made once per test module."""
    return make_video(tmp_path_factory.mktemp("media") / "scene.mp4", seconds=3.0)

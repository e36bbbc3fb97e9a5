"""Fixtures shared by the studio's, the project layer's and the commands' tests."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tests.app.project.media_fixtures import make_video
from tests.engine.hearing.scenes import Turn


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3 s video with picture and sound, made once per test module."""
    return make_video(tmp_path_factory.mktemp("media") / "scene.mp4", seconds=3.0)


TranscribedScene = Callable[[Sequence[str], Path, str], list[Turn]]


@pytest.fixture(scope="session")
def transcribed_scene(tmp_path_factory: pytest.TempPathFactory) -> TranscribedScene:
    """``copy(voices, folder, video_name)``: the scene of those recordings one after another
    (tests/engine/hearing/scenes.py make_scene) as ``folder/video_name``, and what `dubstudio new
    --transcribe --language en` made of it as ``folder/p``; returns the scene's turns.

    Each scene is heard once per test session (tens of seconds of Whisper and CAM++) and copied
    for every test that asks for it: the tests that start from the same transcription and then
    change the project only read or edit their own copy."""
    from app.cli import main as cli_main
    from tests.engine.hearing.scenes import make_scene

    made: dict[tuple[tuple[str, ...], str], tuple[list[Turn], Path]] = {}

    def copy(voices: Sequence[str], folder: Path, video_name: str = "scene.mp4") -> list[Turn]:
        key = (tuple(voices), video_name)
        if key not in made:
            template = tmp_path_factory.mktemp("transcribed")
            turns = make_scene(template / video_name, voices)
            assert cli_main(["new", str(template / "p"), "--video", str(template / video_name), "--transcribe",
                             "--language", "en"]) == 0
            made[key] = (turns, template)
        turns, template = made[key]
        shutil.copytree(template, folder, dirs_exist_ok=True)
        return list(turns)

    return copy

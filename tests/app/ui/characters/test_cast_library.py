"""Project › Save to cast library and Cast from library in the studio (offscreen, inline tasks,
the real CAM++ encoder, real LibriSpeech speech): episode 1's cast saved, episode 2's voices cast
from it with each match explained in Messages, one undo taking the casting back."""

from __future__ import annotations

from pathlib import Path

from app.project.cast import open_library
from app.ui.characters.cast_controller import CastController
from app.ui.window.main_window import MainWindow
from engine.core.protocol import VoiceSettings
from tests.app.project.test_cast import episode
from tests.app.ui.timeline.test_video_workflows import window  # noqa: F401 - the fixture (pytest passes it by name)


def test_save_the_cast_then_cast_the_next_episode_from_it(window: MainWindow, tmp_path: Path) -> None:
    episode(tmp_path / "episode-1", {"Anna": "libri_3080_a", "Ben": "libri_1688_a"},
            Ben=VoiceSettings(speed=1.1, instruction="gruff", language="en"))
    assert window.open_project(tmp_path / "episode-1")
    assert window.actions_["save_to_cast"].isEnabled() and window.actions_["cast_from_library"].isEnabled()
    CastController.of(window).save_to_library(tmp_path / "cast")
    assert sorted(m.character.name for m in open_library(tmp_path / "cast").members) == ["Anna", "Ben"]
    assert "2 new, 0 updated" in window.messages.notifications.notifications[0].text()

    episode(tmp_path / "episode-2", {"Speaker 1": "libri_1688_c", "Speaker 2": "libri_2414_a"})
    assert window.open_project(tmp_path / "episode-2")
    assert window.document is not None
    project = window.document.project
    CastController.of(window).cast_from_library(tmp_path / "cast")
    assert [c.name for c in project.characters] == ["Ben", "Speaker 2"]
    assert project.characters[0].settings.instruction == "gruff" and project.clip_path(project.characters[0]).is_file()
    said = [note.text() for note in window.messages.notifications.notifications]
    assert any("Speaker 1 is Ben from the cast library (voice cosine" in text for text in said)
    assert any("Speaker 2 is a new voice" in text for text in said)
    window.document.undo()
    assert [c.name for c in project.characters] == ["Speaker 1", "Speaker 2"]

"""Project › Save to cast library and Cast from library in the studio (offscreen, inline tasks,
the real CAM++ encoder, real LibriSpeech speech): episode 1's cast saved, episode 2's voices cast
from it with each match explained in Messages, one undo taking the casting back."""

from __future__ import annotations

from pathlib import Path

from app.project.cast import open_library
from app.ui.characters.cast_controller import CastController
from app.ui.window.main_window import MainWindow
from app.ui.window.notifications import Level
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
    assert any("Ben from the cast library speaks here (voice cosine" in text for text in said)
    assert any("Speaker 2 is a new voice" in text for text in said)
    assert any("Cast 1 of 2 characters from the library" in text for text in said), said
    # A sure cast and a new voice are news, not a ⚠ to fix (before, both were warnings)
    assert all(note.level == Level.INFO for note in window.messages.notifications.notifications)
    window.document.undo()
    assert [c.name for c in project.characters] == ["Speaker 1", "Speaker 2"]


def test_casting_a_project_with_nothing_to_match_says_so_and_what_to_do(window: MainWindow, tmp_path: Path) -> None:
    """Episode 1 cast from the library it was saved to: its characters already bear the library's
    names. It said "Cast 0 of 0 character(s) …; Messages says how sure each match is"."""
    episode(tmp_path / "episode-1", {"Anna": "libri_3080_a"})
    assert window.open_project(tmp_path / "episode-1")
    CastController.of(window).save_to_library(tmp_path / "cast")
    CastController.of(window).cast_from_library(tmp_path / "cast")
    said = window.messages.notifications.notifications[0].text()  # the newest
    assert "Nothing to match against the library" in said and "Give the others a clip first" in said, said


def test_an_unsure_match_is_accepted_undone_and_rejected_on_the_characters_panel(window: MainWindow,
                                                                                tmp_path: Path) -> None:
    from app.project.cast import (
        OFFERS_FILE,
        CastMatch,
        offers_of,
        offers_text,
        read_offers,
    )

    episode(tmp_path / "episode-1", {"Anna": "libri_3080_a"})
    assert window.open_project(tmp_path / "episode-1")
    CastController.of(window).save_to_library(tmp_path / "cast")
    project = episode(tmp_path / "episode-2", {"Speaker 1": "libri_3080_b", "Speaker 2": "libri_2414_a"})
    first, second = project.characters
    project.media_dir.mkdir(exist_ok=True)  # as Cast from library leaves an unsure match (0.40-0.50)
    offers = offers_of([CastMatch(first.id, "Speaker 1", "Anna", 0.47)], tmp_path / "cast")
    (project.media_dir / OFFERS_FILE).write_text(offers_text(project, offers), encoding="utf-8")
    assert window.open_project(tmp_path / "episode-2")
    panel = window.characters
    assert panel is not None and window.document is not None
    project = window.document.project
    panel.select(second.id)
    assert not panel.cast_offer.isVisibleTo(panel)
    panel.select(first.id)
    assert panel.cast_offer.isVisibleTo(panel) and "may be Anna from the cast library" in panel.cast_offer.label.text()
    panel.cast_offer.accept_button.click()
    anna = project.character(first.id)
    assert anna.name == "Anna" and anna.transcript == "Anna's words" and project.clip_path(anna) is not None
    assert not panel.cast_offer.isVisibleTo(panel)
    window.document.undo()
    assert project.character(first.id).name == "Speaker 1" and panel.cast_offer.isVisibleTo(panel)
    panel.cast_offer.reject_button.click()
    assert not panel.cast_offer.isVisibleTo(panel) and read_offers(project) == []
    assert project.character(first.id).name == "Speaker 1"


def test_the_cast_library_browser_lists_plays_and_removes(window: MainWindow, tmp_path: Path) -> None:
    episode(tmp_path / "episode-1", {"Anna": "libri_3080_a", "Ben": "libri_1688_a"})
    assert window.open_project(tmp_path / "episode-1")
    CastController.of(window).save_to_library(tmp_path / "cast")
    assert window.actions_["browse_cast"].isEnabled()
    dialog = CastController.of(window).browse_library(tmp_path / "cast")
    assert dialog is not None and dialog.table.rowCount() == 2
    rows = [[dialog.table.item(row, column).text() for column in range(4)] for row in range(2)]
    assert rows == [["Anna", "English (en)", "1", "episode-1"], ["Ben", "English (en)", "1", "episode-1"]]  # named, not "en"
    dialog.table.selectRow(1)
    dialog.play_selected()
    assert window.player.playing_key.startswith("cast:") and "Ben" in window.player.playing_key
    window.player.stop()
    ben_clip = tmp_path / "cast" / (open_library(tmp_path / "cast").member("Ben").character.clip or "")  # type: ignore[union-attr]
    assert ben_clip.is_file()
    dialog.remove("Ben")
    assert [m.character.name for m in open_library(tmp_path / "cast").members] == ["Anna"]
    assert dialog.table.rowCount() == 1 and not ben_clip.exists()
    assert "Removed Ben" in dialog.status.text()


def test_a_library_made_on_the_command_line_speaks_the_chinese_studio_s_default_names(
        chinese: None, window: MainWindow, tmp_path: Path) -> None:
    # `dubstudio cast add` keeps English default names; before, the Chinese studio listed them as
    # "Speaker 1" and cast them into a project of "说话人 N" voices as "Speaker 1", and a swap of
    # two default numbers ("说话人 2" is the library's first voice) was refused as a name clash.
    from app.cli import main as cli_main

    episode(tmp_path / "episode-1", {"Speaker 1": "libri_1688_a", "Speaker 2": "libri_3080_a", "Anna": "libri_2414_a"})
    assert cli_main(["cast", "add", str(tmp_path / "cast"), str(tmp_path / "episode-1")]) == 0
    episode(tmp_path / "episode-2", {"说话人 2": "libri_1688_b", "说话人 1": "libri_3080_b"})
    assert window.open_project(tmp_path / "episode-2")
    assert window.document is not None
    project = window.document.project
    dialog = CastController.of(window).browse_library(tmp_path / "cast")
    assert dialog is not None
    assert [dialog.table.item(row, 0).text() for row in range(3)] == ["说话人 1", "说话人 2", "Anna"]
    dialog.reject()
    CastController.of(window).cast_from_library(tmp_path / "cast")
    assert [c.name for c in project.characters] == ["说话人 1", "说话人 2"]  # the voices swapped numbers
    assert project.clip_path(project.characters[0]).name.startswith("说话人_1-cast")  # type: ignore[union-attr]
    said = [note.text() for note in window.messages.notifications.notifications]
    assert any("演员库中的 说话人 1 在这里说话" in text for text in said), said
    assert [m.character.name for m in open_library(tmp_path / "cast").members] == ["Speaker 1", "Speaker 2", "Anna"]
    window.document.undo()
    assert [c.name for c in project.characters] == ["说话人 2", "说话人 1"]

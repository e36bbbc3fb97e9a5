"""Hearing the original (issue 34, the studio): a line's stretch of the video's own audio from the
script table (Ctrl+Shift+Space, its context menu), from the Split dialog's lines, and a clip
candidate's Play in Choose from the video, each showing what plays and turning Play into Stop.
Offscreen, inline tasks, the null audio output (no device: the dialogs say so); the video is a
real H.264/AAC file with a 440 Hz tone."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from app.project import EditLine
from app.project.transcription import CANDIDATES_FILE
from app.ui.engine.bridge import EngineBridge
from app.ui.playback.player import NullOutput, Player
from app.ui.settings.store import Settings
from app.ui.tasks import SyncTaskRunner
from app.ui.timeline.video_clips import ChooseFromVideoDialog, SplitCharacterDialog
from app.ui.window.main_window import MainWindow
from tests.app.ui.timeline.fixtures import make_dub_project


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("original") / "scene"
    make_dub_project(root, lines=6, seconds=12.0, guide=False)
    return root


@pytest.fixture
def project_dir(template: Path, tmp_path: Path) -> Path:
    root = tmp_path / "scene"
    shutil.copytree(template, root)
    shutil.copy(template.parent / "scene-source.mp4", tmp_path / "scene-source.mp4")
    return root


@pytest.fixture
def window(qtbot: QtBot, settings: Settings, null_output: NullOutput, tmp_path: Path,
           project_dir: Path) -> Iterator[MainWindow]:
    win = MainWindow(settings, SyncTaskRunner(), null_output, bridge=EngineBridge(), projects_dir=tmp_path / "p")
    qtbot.addWidget(win)
    assert win.open_project(project_dir)
    yield win
    win.close()


def test_a_line_plays_its_stretch_of_the_original_from_the_table(window: MainWindow, null_output: NullOutput) -> None:
    script, player = window.script, window.player
    assert script is not None and window.document is not None
    project = window.document.project
    play_original = window.actions_["play_original"]
    assert play_original.shortcut() == QKeySequence("Ctrl+Shift+Space") and play_original.isEnabled()
    taken = [action.shortcut() for name, action in window.actions_.items() if name != "play_original"]
    taken += [action.shortcut() for action in window.timeline.actions_.values()]  # type: ignore[union-attr]
    assert play_original.shortcut() not in taken  # Ctrl+Space is the dub's transport
    assert script.table in play_original.associatedObjects() and window.timeline in play_original.associatedObjects()
    menu = script.context_menu()
    assert play_original in menu.actions()

    line = project.lines[2]  # 4.0 to 5.6 s
    script.select_line(line.id)
    play_original.trigger()
    assert player.playing_key == f"original:{line.id}"
    assert player.sample_rate == 48000 and player.queued_s == pytest.approx(1.6, abs=0.05)
    heard = null_output.pull(4800)
    assert np.sqrt(np.mean(heard ** 2)) > 0.05  # the video's tone, not silence
    assert "Playing the original under line 3" in window.statusBar().currentMessage()
    play_original.trigger()  # again: it stops
    assert player.playing_key == ""

    # A line without an end plays to the next line's start; one without a start says why.
    window.document.push(EditLine(line.id, end=None))
    play_original.trigger()
    assert player.queued_s == pytest.approx(project.lines[3].start - line.start, abs=0.05)
    player.stop()
    window.document.push(EditLine(line.id, start=None))
    play_original.trigger()
    assert player.playing_key == "" and "E_INVALID_VALUE" in window.statusBar().currentMessage()


def test_the_sample_project_without_a_video_has_no_original_to_play(idle_window: MainWindow) -> None:
    assert not idle_window.actions_["play_original"].isEnabled()


def test_the_split_dialog_plays_each_line_and_its_button_stops_it(window: MainWindow) -> None:
    assert window.document is not None and window.characters is not None
    project = window.document.project
    maya = project.characters[0]
    window.characters.select(maya.id)
    dialog = window.characters._split()
    assert isinstance(dialog, SplitCharacterDialog) and dialog.play_button.isEnabled()
    first = project.lines_of(maya.id)[0]
    dialog.lines.setCurrentRow(0)
    dialog.play_button.click()
    assert window.player.playing_key == f"original:{first.id}"
    assert dialog.lines.item(0).text().startswith("▶ ") and not dialog.lines.item(1).text().startswith("▶ ")
    assert dialog.play_button.text() == "■ Stop" and "No audio output device" in dialog.note.text()
    dialog.play_button.click()
    assert window.player.playing_key == "" and dialog.play_button.text() == "▶ Play the original"
    assert not dialog.lines.item(0).text().startswith("▶ ")
    dialog.lines.setCurrentRow(1)
    dialog.play_button.click()
    dialog.reject()  # closing it stops what it plays
    assert window.player.playing_key == ""


def test_a_candidate_play_shows_what_plays_and_turns_into_stop(qtbot: QtBot, project_dir: Path) -> None:
    from app.project import Project

    project = Project.load(project_dir)
    maya = project.characters[0]
    project.media_dir.mkdir(parents=True, exist_ok=True)
    (project.media_dir / CANDIDATES_FILE).write_text(json.dumps({"characters": {maya.id: [
        {"start": 1.0, "end": 3.0, "text": "One", "score": 0.8, "snr_db": 31.0, "purity": 0.2},
        {"start": 6.0, "end": 7.5, "text": "Two", "score": 0.7, "snr_db": 30.0, "purity": 0.1}]}}),
        encoding="utf-8")
    player = Player(NullOutput())
    dialog = ChooseFromVideoDialog(project, maya.id, SyncTaskRunner(), player)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == 2 and dialog.play_button.text() == "Play"
    dialog.play_button.click()
    assert player.playing_key.startswith("candidate:") and player.queued_s == pytest.approx(2.0, abs=0.05)
    assert dialog.table.item(0, 0).text().startswith("▶ ") and not dialog.table.item(1, 0).text().startswith("▶ ")
    assert dialog.play_button.text() == "■ Stop"
    assert dialog.note.text().startswith("▶ Playing") and "No audio output device" in dialog.note.text()
    dialog.play_button.click()  # Stop
    assert player.playing_key == "" and dialog.play_button.text() == "Play" and dialog.note.text() == "Stopped"
    assert not dialog.table.item(0, 0).text().startswith("▶ ")
    dialog.table.selectRow(1)
    dialog.play_button.click()
    assert dialog.table.item(1, 0).text().startswith("▶ ")
    dialog.reject()
    assert player.playing_key == ""

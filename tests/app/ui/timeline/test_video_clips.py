"""The Choose-from-video dialog finds its candidates off the GUI thread and says so meanwhile."""

from __future__ import annotations

import json
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.project import Project
from app.project.model import Character
from app.project.sample import copy_sample_project
from app.project.transcription import CANDIDATES_FILE
from app.ui.playback.player import NullOutput, Player
from app.ui.tasks import SyncTaskRunner, ThreadTaskRunner
from app.ui.timeline.video_clips import ChooseFromVideoDialog


def _sample_with_one_candidate(tmp_path: Path) -> tuple[Project, Character]:
    """The sample project with one candidate stretch for Maya, as a project transcribed before
    voiceprints were kept offers it (media/transcript.json)."""
    project = copy_sample_project(tmp_path / "sample")
    maya = project.characters[0]
    project.media_dir.mkdir(parents=True, exist_ok=True)
    (project.media_dir / CANDIDATES_FILE).write_text(json.dumps({"characters": {maya.id: [
        {"start": 1.0, "end": 7.5, "text": "Where were you last night?", "score": 0.8, "snr_db": 31.0,
         "purity": 0.05}]}}), encoding="utf-8")
    return project, maya


def test_candidates_are_found_in_the_background_with_a_busy_note(qtbot: QtBot, tmp_path: Path) -> None:
    project, maya = _sample_with_one_candidate(tmp_path)
    runner = ThreadTaskRunner()
    dialog = ChooseFromVideoDialog(project, maya.id, runner, Player(NullOutput()))
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
    # The outcome comes back through the event loop, so the dialog is still looking: it says so
    # and nothing can be chosen yet.
    assert dialog.note.text() == "Finding the candidates…" and not ok.isEnabled() and not dialog.candidates
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1, timeout=30_000)
    assert ok.isEnabled() and dialog.play_button.isEnabled() and dialog.note.text() == ""
    assert dialog.chosen() == dialog.candidates[0] and "purity +0.05" in dialog.table.item(0, 0).toolTip()


def test_candidates_found_after_the_dialog_closed_are_dropped(qtbot: QtBot, tmp_path: Path) -> None:
    project = copy_sample_project(tmp_path / "sample")
    runner = ThreadTaskRunner()
    dialog = ChooseFromVideoDialog(project, project.characters[0].id, runner, Player(NullOutput()))
    qtbot.addWidget(dialog)
    dialog.reject()
    runner.wait_idle()
    assert runner.pending == 0 and dialog.note.text() == "Finding the candidates…"


def test_a_project_without_candidates_says_why(qtbot: QtBot, tmp_path: Path) -> None:
    project = copy_sample_project(tmp_path / "sample")
    runner = ThreadTaskRunner()
    dialog = ChooseFromVideoDialog(project, project.characters[0].id, runner, Player(NullOutput()))
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.note.text().startswith("No candidates"), timeout=30_000)
    assert dialog.table.rowCount() == 0 and not dialog.play_button.isEnabled()


def test_a_candidates_length_is_written_in_the_studios_language(chinese: None, qtbot: QtBot, tmp_path: Path) -> None:
    """The Chinese studio listed a candidate's length as "6.5 s", where every other time says 秒."""
    project, maya = _sample_with_one_candidate(tmp_path)
    dialog = ChooseFromVideoDialog(project, maya.id, SyncTaskRunner(), Player(NullOutput()))
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == 1 and dialog.table.item(0, 1).text() == "6.5 秒"

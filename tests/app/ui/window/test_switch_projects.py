"""Switching projects in the shown studio: a project with no character and no video has no
timeline track, and its timeline draws (a Python error in a paint override ends the whole
program under PySide6, so this once was a crash, not a failure)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.project import Project
from app.ui.window.main_window import MainWindow


def test_a_shown_studio_switches_between_an_empty_project_and_the_sample(
        idle_window: MainWindow, tmp_path: Path, qtbot: QtBot) -> None:
    empty = Project.create(tmp_path / "empty", "Empty")
    empty.save()
    assert idle_window.open_project(empty.root)
    canvas = idle_window.session.timeline.canvas
    qtbot.waitUntil(lambda: canvas.renders > 0)  # its timeline, without a track, was drawn
    assert canvas.tracks == []
    assert idle_window.open_sample()
    qtbot.wait(50)
    assert idle_window.open_project(empty.root)
    qtbot.wait(50)
    assert idle_window.session.project.title == "Empty"

"""Where file dialogs open: the last folder used for that kind of file, else the project folder,
else the projects folder; remembered across restarts through the settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog

from app.ui.folders import PROJECTS, Folders
from app.ui.settings.store import Settings


def test_start_folder_follows_last_use_then_project_then_home(tmp_path: Path, settings: Settings) -> None:
    home, project, clips = tmp_path / "projects", tmp_path / "projects" / "Scene 1", tmp_path / "clips"
    for folder in (project, clips):
        folder.mkdir(parents=True)
    open_project: list[Path] = []
    folders = Folders(settings, lambda: open_project[0] if open_project else None, home)
    assert folders.start("clips") == home  # nothing open, nothing used yet
    open_project.append(project)
    assert folders.start("clips") == project and folders.start("scripts") == project
    assert folders.start(PROJECTS) == home  # beside the open project, not inside it
    folders.remember("clips", clips / "maya.wav")
    assert folders.start("clips") == clips and folders.start("scripts") == project  # one memory per kind

    # Remembered in the settings file: a restarted studio opens the same folder.
    settings.sync()
    again = Folders(Settings(QSettings(settings.file_name, QSettings.Format.IniFormat)), lambda: None, home)
    assert again.start("clips") == clips
    clips.rmdir()  # a remembered folder that is gone is skipped
    assert again.start("clips") == home


def test_a_corrupt_setting_falls_back_to_nothing_remembered(tmp_path: Path, settings: Settings) -> None:
    settings._q.setValue(Settings.last_folders.key, "not json at all {")
    assert settings.last_folders == {}
    settings._q.setValue(Settings.last_folders.key, '{"clips": 3}')
    assert settings.last_folders == {}
    assert Folders(settings, lambda: None, tmp_path).start("clips") == tmp_path


def test_dialogs_open_there_and_remember_the_choice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                    settings: Settings) -> None:
    project, other = tmp_path / "p", tmp_path / "elsewhere"
    for folder in (project, other):
        folder.mkdir()
    asked: list[tuple[str, str]] = []

    def save_dialog(_parent: object, _title: str, start: str, _filter: str) -> tuple[str, str]:
        asked.append(("save", start))
        return str(other / "bench.json"), ""

    def folder_dialog(_parent: object, _title: str, start: str) -> str:
        asked.append(("folder", start))
        return str(other / "New project")

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_dialog))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(folder_dialog))
    folders = Folders(settings, lambda: project, tmp_path)
    assert folders.save_file(None, "reports", "Export", "bench.json") == str(other / "bench.json")
    assert folders.save_file(None, "reports", "Export", "bench.json")
    assert folders.folder(None, PROJECTS, "New project") == str(other / "New project")
    assert folders.start(PROJECTS) == other  # the folder that holds the new project
    assert asked == [("save", str(project / "bench.json")), ("save", str(other / "bench.json")),
                     ("folder", str(tmp_path))]

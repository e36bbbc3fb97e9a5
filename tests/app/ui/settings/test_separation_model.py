"""Project settings › Music and effects from: the choice of a separation model, and its download
(``dubstudio models download`` in a child process, from a local fake hub) with what went wrong
said in the dialog. No separation weights ship: the hub serves a file that is not the model."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.project import MUSIC_EFFECTS_SOURCES, EditProject, Project
from app.ui.settings.project_dialog import ProjectSettingsDialog
from app.ui.tasks import SyncTaskRunner
from engine.hearing import separation
from tests.cosyvoice.test_models import FakeHub
from tests.engine.hearing.separation_models import (
    SMALL,
    build_mask_model,
    low_band_mask,
)


@pytest.fixture
def models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DUBSTUDIO_MODELS_DIR", str(tmp_path / "models"))  # the child process reads it too
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    return tmp_path / "models"


def test_the_model_is_chosen_in_project_settings_and_its_download_says_what_went_wrong(
        qtbot: QtBot, tmp_path: Path, models: Path) -> None:
    project = Project.create(tmp_path / "proj", "Separation")
    dialog = ProjectSettingsDialog(project, runner=SyncTaskRunner())
    qtbot.addWidget(dialog)
    source = dialog.music_effects_source
    assert tuple(source.itemData(i) for i in range(source.count())) == MUSIC_EFFECTS_SOURCES
    assert not source.isEnabled() and dialog.separation_model.isHidden()  # the dub only: nothing to choose
    dialog.guide_mix.setCurrentIndex(dialog.guide_mix.findData("music-effects"))
    source.setCurrentIndex(source.findData("model"))
    row = dialog.separation_model
    assert source.isEnabled() and not row.isHidden()
    assert "not downloaded yet (67 MB, once)" in row.state.text() and row.download_button.isEnabled()
    command = dialog.command()
    assert isinstance(command, EditProject)
    assert command.new["guide_mix"] == "music-effects" and command.new["music_effects_source"] == "model"

    # The hub's file at the model's path is not the model: refused, removed, and said in words.
    served = tmp_path / "served"
    (served / row.spec.path).parent.mkdir(parents=True)
    (served / row.spec.path).write_bytes(b"a page of HTML, say, where the model should be")
    with FakeHub(served, cut_once=set(), repo=row.spec.hub_repo) as hub:
        row.hub_endpoint = hub.endpoint
        row.download()
    assert "The download failed:" in row.state.text() and "not the declared file" in row.state.text()
    assert not (separation.model_folder(row.spec) / row.spec.path).exists()
    assert row.download_button.isEnabled()


def test_a_downloaded_model_is_said_to_be_checked(qtbot: QtBot, tmp_path: Path, models: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    spec = dataclasses.replace(SMALL, name=separation.DEFAULT_SEPARATION_MODEL)
    spec = build_mask_model(separation.model_folder(spec) / spec.path, spec, low_band_mask())
    monkeypatch.setitem(separation.SEPARATION_MODELS, spec.name, spec)
    project = Project.create(tmp_path / "proj", "Separation")
    project.settings.guide_mix, project.settings.music_effects_source = "music-effects", "model"
    dialog = ProjectSettingsDialog(project)  # shown on its own: no runner, no download
    qtbot.addWidget(dialog)
    assert dialog.separation_model.state.text() == "a built mask model: downloaded and checked"
    assert not dialog.separation_model.download_button.isEnabled()
    assert not dialog.separation_model.separate_button.isEnabled()  # no runner, and no original audio
    assert dialog.command() is None  # nothing changed

    # With the video's audio, Separate now makes the M&E the exports reuse.
    from app.project.media import attach_video
    from app.project.music_effects import SEPARATED_FILE
    from tests.app.project.media_fixtures import make_video

    project.video = attach_video(project, make_video(tmp_path / "source.mp4", seconds=3.0))
    dialog = ProjectSettingsDialog(project, runner=SyncTaskRunner())
    qtbot.addWidget(dialog)
    row = dialog.separation_model
    assert row.separate_button.isEnabled()
    row.separate_button.click()
    assert row.state.text() == "Music and effects separated by a built mask model; exports use them."
    assert (project.root / SEPARATED_FILE).is_file()


def test_the_model_row_shown_in_an_open_dialog_has_room_for_its_wrapped_words(qtbot: QtBot, tmp_path: Path,
                                                                              models: Path) -> None:
    """Choosing the separation model in the open dialog shows its row: the dialog grows so the
    row's two lines ("…: not downloaded yet (67 MB, once)") are whole, not cut in half."""
    dialog = ProjectSettingsDialog(Project.create(tmp_path / "proj", "Separation"), runner=SyncTaskRunner())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.guide_mix.setCurrentIndex(dialog.guide_mix.findData("music-effects"))
    dialog.music_effects_source.setCurrentIndex(dialog.music_effects_source.findData("model"))
    state = dialog.separation_model.state
    qtbot.waitUntil(lambda: state.isVisible() and state.width() > 0)
    assert state.heightForWidth(state.width()) > state.fontMetrics().height() * 1.5  # it wraps at this width
    assert state.height() >= state.heightForWidth(state.width())

"""The settings dialog and the welcome screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from app.ui.settings.dialog import SettingsDialog
from app.ui.settings.store import Settings
from app.ui.tasks import SyncTaskRunner
from app.ui.window.welcome import WelcomePage
from engine.core.protocol import EngineError, ErrorCode
from engine.synthesis.backends import COSYVOICE2_ENVIRONMENT, DESCRIPTORS, EMBEDDED
from engine.synthesis.voices import KEY_HEX_DIGITS


def test_settings_dialog_shows_cache_size_clears_and_applies(qtbot: QtBot, tmp_path: Path, settings: Settings) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / f"{'a' * KEY_HEX_DIGITS}.npz").write_bytes(b"x" * 2048)  # a cache entry
    (cache / "mine.npz").write_bytes(b"not the cache's")  # the folder is a setting: it may hold other files
    settings.cache_dir = str(cache)
    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    general = dialog.general
    assert general.cache_size.text().startswith("2.0 KB")
    assert not general.output.isEnabled()  # no audio device on this machine / in CI
    general.clear_cache.click()
    assert general.cache_size.text().startswith("0 B") and [p.name for p in cache.iterdir()] == ["mine.npz"]
    assert not dialog.engine_changed()
    general.slots.setValue(2)
    general.autosave.setValue(30)
    dialog.accept()
    assert settings.engine_slots == 2 and settings.autosave_s == 30
    assert dialog.engine_changed()


def test_backend_options_form_comes_from_the_descriptor_and_refuses_bad_values(
        qtbot: QtBot, settings: Settings) -> None:
    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    page = dialog.voices_engine
    assert [page.backend.itemData(i) for i in range(page.backend.count())] == list(DESCRIPTORS)
    form = page.form
    for option in EMBEDDED.options:  # every option of the default backend (Piper's too) has its field
        assert form.editor(option.name) is not None
    assert not page.environment_group.isVisibleTo(page) and not page.model_group.isVisibleTo(page)
    noise = form.editor("noise_scale")
    assert isinstance(noise, QLineEdit) and noise.placeholderText() == "automatic"
    noise.setText("7")
    dialog.accept()
    assert dialog.result() != dialog.DialogCode.Accepted  # refused, with the reason
    assert "E_BAD_OPTION" in dialog.error.text() and "'noise_scale'" in dialog.error.text()
    noise.setText("0.4")
    dialog.accept()
    assert settings.options_for("embedded") == {"noise_scale": 0.4}
    assert dialog.engine_changed()
    assert settings.engine_config().backend_options == {"noise_scale": 0.4}


def test_choosing_cosyvoice2_shows_its_setup_and_keeps_its_options(
        qtbot: QtBot, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(COSYVOICE2_ENVIRONMENT.folder_env, str(tmp_path / "no-env"))  # not built here
    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    page = dialog.voices_engine
    page.backend.setCurrentIndex(page.backend.findData("cosyvoice2"))
    assert page.environment_group.isVisibleTo(page) and page.model_group.isVisibleTo(page)
    assert page.environment_state.text().startswith("Not built")
    assert not page.synthetic_buttons["tiny"].isEnabled()  # the real classes build it: needs the environment
    with pytest.raises(KeyError):  # the model folder has its own group, not a form field
        page.form.editor("model_dir")
    dialog.accept()
    assert "'model_dir'" in dialog.error.text() and "required" in dialog.error.text()
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "synthetic.json").write_text('{"size": "tiny"}')
    page.model_dir.setText(str(folder))
    assert page.synthetic_banner.isVisibleTo(page)
    assert "random weights: speech is noise; for speed and hardware probes only" in page.synthetic_banner.text()
    page.form.editor("device").setText("cuda:1")  # type: ignore[attr-defined]
    page.validate_model()
    report = page.model_report.toPlainText()
    assert "NOT usable" in report and "cosyvoice2.yaml: missing (the model config)" in report
    assert "What to do" in report
    dialog.accept()
    assert settings.engine_backend == "cosyvoice2"
    stored = settings.options_for("cosyvoice2")
    assert stored["model_dir"] == str(folder) and stored["device"] == "cuda:1" and stored["fp16"] is False
    with pytest.raises(EngineError) as caught:  # the environment is not built: say how to build it
        settings.engine_config()
    assert caught.value.code is ErrorCode.ENGINE_START and "scripts/cosyvoice-env" in caught.value.message


def test_welcome_lists_recent_projects(qtbot: QtBot, tmp_path: Path) -> None:
    page = WelcomePage()
    qtbot.addWidget(page)
    page.set_recent([])
    assert page.recent.count() == 1 and not page.recent.item(0).flags()
    page.set_recent([str(tmp_path)])
    with qtbot.waitSignal(page.open_recent) as opened:
        page.recent.itemActivated.emit(page.recent.item(0))
    assert opened.args == [str(tmp_path)]
    with qtbot.waitSignal(page.open_sample):
        page.sample_button.click()


def test_on_a_server_only_the_backend_choice_applies(qtbot: QtBot, settings: Settings) -> None:
    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    page = dialog.voices_engine
    page.backend.setCurrentIndex(page.backend.findData("cosyvoice2"))
    page.location.setCurrentIndex(page.location.findData("server"))
    for group in (page.environment_group, page.model_group, page.device_group, page.options_group):
        assert not group.isVisibleTo(page)  # the server's administrator sets these up
    assert page.server_note.isVisibleTo(page) and not dialog.general.slots.isEnabled()
    page.server_url.setText("https://gpu.lan:8765")
    dialog.accept()  # no model folder needed here: the server has its own
    assert dialog.error.text() == "" and settings.engine_location == "server"
    assert settings.engine_backend == "cosyvoice2" and settings.server() is not None


def test_a_recogniser_folder_is_taken_only_when_it_holds_a_whisper_model(
        qtbot: QtBot, tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """Folder… took any folder (take QA and transcription then failed on it); now a folder that is
    not a faster-whisper model is refused, naming the files it lacks and what to do."""
    from PySide6.QtWidgets import QFileDialog

    from engine.hearing.whisper import whisper_model_dir

    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    general = dialog.general
    model = str(whisper_model_dir("tiny.en"))
    chosen = [str(tmp_path / "photos"), model]
    (tmp_path / "photos").mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *_args: chosen.pop(0)))
    before = general.recogniser.currentData()
    general._browse_model()
    assert general.recogniser.currentData() == before
    said = general.recogniser_problem.text()
    assert "is not a faster-whisper model folder (config.json, model.bin" in said and "--download-model" in said, said
    general._browse_model()  # a real model's folder
    assert general.recogniser.currentData() == model and general.recogniser_problem.text() == ""


def test_no_audio_output_device_is_said_on_its_field(qtbot: QtBot, settings: Settings,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a device the field showed a greyed "System default", the reason only in a tooltip."""
    import app.ui.settings.dialog as settings_dialog

    monkeypatch.setattr(settings_dialog, "list_devices", lambda _kind: [])
    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    output = dialog.general.output
    assert not output.isEnabled() and output.currentText() == "None found: playback is silent"
    dialog.general.apply()
    assert settings.output_device == ""  # the system default, as before

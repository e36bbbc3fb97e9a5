"""The settings dialog and the welcome screen."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.ui.settings import Settings
from app.ui.settings_dialog import SettingsDialog
from app.ui.tasks import SyncTaskRunner
from app.ui.welcome import WelcomePage


def test_settings_dialog_shows_cache_size_clears_and_applies(qtbot: QtBot, tmp_path: Path, settings: Settings) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "voice.npz").write_bytes(b"x" * 2048)
    settings.cache_dir = str(cache)
    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    assert dialog.cache_size.text().startswith("2.0 KB")
    assert not dialog.output.isEnabled()  # no audio device on this machine / in CI
    dialog.clear_cache.click()
    assert dialog.cache_size.text().startswith("0 B") and cache.is_dir()
    assert not dialog.engine_changed()
    dialog.slots.setValue(2)
    dialog.autosave.setValue(30)
    dialog.accept()
    assert settings.engine_slots == 2 and settings.autosave_s == 30
    assert dialog.engine_changed()


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

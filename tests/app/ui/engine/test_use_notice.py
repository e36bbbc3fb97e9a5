"""A voice whose use is restricted (zh-baker: non-commercial data) shows its licence where it is
chosen and asks once before its first use; declined, the backend in use stays."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.ui.settings.dialog import SettingsDialog
from app.ui.settings.store import Settings
from app.ui.tasks import SyncTaskRunner
from tests.app.ui.conftest import OFFSCREEN_NOISE

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def _choose(qtbot: QtBot, settings: Settings, name: str, monkeypatch: pytest.MonkeyPatch,
            answer: QMessageBox.StandardButton) -> list[str]:
    asked: list[str] = []

    def question(_parent: object, title: str, text: str, *_args: object) -> QMessageBox.StandardButton:
        asked.append(text)
        return answer

    monkeypatch.setattr(QMessageBox, "question", question)
    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    page = dialog.voices_engine
    page.backend.setCurrentIndex(page.backend.findData(name))
    assert "NON-COMMERCIAL" in page.summary.text()  # the licence, where the backend is chosen
    page.apply()
    page.shutdown()
    return asked


def test_a_non_commercial_voice_asks_once_and_a_no_keeps_the_backend(
        qtbot: QtBot, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.engine_backend = "piper"
    asked = _choose(qtbot, settings, "zh-baker", monkeypatch, QMessageBox.StandardButton.No)
    assert len(asked) == 1 and "NON-COMMERCIAL" in asked[0]
    assert settings.engine_backend == "piper"
    asked = _choose(qtbot, settings, "zh-baker", monkeypatch, QMessageBox.StandardButton.Yes)
    assert len(asked) == 1 and settings.engine_backend == "zh-baker"
    asked = _choose(qtbot, settings, "embedded", monkeypatch, QMessageBox.StandardButton.Yes)
    assert len(asked) == 1 and settings.engine_backend == "embedded"  # its Mandarin voice: asked for it too
    assert _choose(qtbot, settings, "zh-baker", monkeypatch, QMessageBox.StandardButton.No) == []  # once
    assert settings.engine_backend == "zh-baker"

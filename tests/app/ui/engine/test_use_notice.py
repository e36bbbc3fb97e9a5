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


def _answering(monkeypatch: pytest.MonkeyPatch, answer: QMessageBox.StandardButton) -> list[str]:
    """Every question the studio asks gets ``answer``; the list collects their texts."""
    asked: list[str] = []

    def question(_parent: object, title: str, text: str, *_args: object) -> QMessageBox.StandardButton:
        asked.append(text)
        return answer

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def _choose(qtbot: QtBot, settings: Settings, name: str, monkeypatch: pytest.MonkeyPatch,
            answer: QMessageBox.StandardButton) -> list[str]:
    asked = _answering(monkeypatch, answer)
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
    assert asked == [] and settings.engine_backend == "embedded"  # its Mandarin voice, accepted already
    assert _choose(qtbot, settings, "zh-baker", monkeypatch, QMessageBox.StandardButton.No) == []  # once
    assert settings.engine_backend == "zh-baker"


def test_accepting_the_mandarin_voice_once_covers_the_embedded_voices(
        qtbot: QtBot, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.engine_backend = "piper"
    asked = _choose(qtbot, settings, "embedded", monkeypatch, QMessageBox.StandardButton.Yes)
    assert len(asked) == 1 and settings.accepted_notices == ["zh-baker"]  # the voice that needs it
    assert _choose(qtbot, settings, "zh-baker", monkeypatch, QMessageBox.StandardButton.Yes) == []


def test_the_default_embedded_voices_ask_before_the_first_chinese_line_renders(
        qtbot: QtBot, settings: Settings, monkeypatch: pytest.MonkeyPatch, engine_bridge, tmp_path) -> None:
    from app.project import EditLine
    from tests.app.ui.conftest import make_window

    assert engine_bridge.ready.backend.name == "embedded"  # the default backend
    asked = _answering(monkeypatch, QMessageBox.StandardButton.No)
    win = make_window(qtbot, settings, tmp_path, engine_bridge)
    assert win.open_sample()
    session = win.session
    said: list[str] = []
    session.renders.message.connect(said.append)
    english, chinese = session.project.lines[0], session.project.lines[1]
    session.document.push(EditLine(chinese.id, text="我们明天早上出发。"))
    assert not session.render_lines([chinese.id])  # declined: nothing starts
    assert len(asked) == 1 and "NON-COMMERCIAL" in asked[0] and said and "not accepted" in said[-1]
    assert session.render_lines([english.id])  # Piper's English line needs no notice
    assert len(asked) == 1
    session.renders.cancel()
    win.close()


def test_an_audition_in_chinese_asks_first_and_a_no_plays_nothing(
        qtbot: QtBot, settings: Settings, monkeypatch: pytest.MonkeyPatch, engine_bridge, tmp_path) -> None:
    from tests.app.ui.conftest import make_window

    asked = _answering(monkeypatch, QMessageBox.StandardButton.No)
    win = make_window(qtbot, settings, tmp_path, engine_bridge)
    assert win.open_sample()
    character = win.session.project.characters[0]
    assert win.playback.audition(win.session.document, character.id, "你好，我们明天见。") is None
    assert len(asked) == 1
    win.close()


def test_the_chinese_studio_asks_in_chinese(chinese: None, settings: Settings,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The notice a Chinese team reads before its first Chinese line was in English in the
    Chinese studio (its licence terms included)."""
    from app.ui.engine.use_notice import accept_use_notices

    titles: list[str] = []

    def question(_parent: object, title: str, text: str, *_args: object) -> QMessageBox.StandardButton:
        titles.append(title)
        asked.append(text)
        return QMessageBox.StandardButton.No

    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", question)
    assert not accept_use_notices(settings, "embedded", ["zh"])
    assert len(asked) == 1 and "仅限非商业用途" in asked[0] and "NON-COMMERCIAL" not in asked[0]
    # Its title read "使用 zh-baker（内置普通话女声；…） 之前", the voice's long name inside the sentence.
    assert titles[0].startswith("使用前请确认：zh-baker（") and not titles[0].endswith(" 之前")

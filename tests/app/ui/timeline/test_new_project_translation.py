"""New project from a video offers the chosen translator and any target language (issue 31):
Whisper into English while it hears, or the OpenAI-compatible endpoint last used (a local
chat-completions server the test starts: a protocol stand-in, no language model runs here)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from app.ui.timeline.video_dialogs import TRANSCRIBE
from app.ui.window.main_window import MainWindow
from engine.translation import keys
from tests.app.ui.timeline.test_video_workflows import window  # noqa: F401 - the fixture (pytest passes it by name)
from tests.engine.hearing.scenes import make_scene
from tests.engine.translation.chat_server import Asked, answer, chat_server


@pytest.fixture(autouse=True)
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "config"))
    monkeypatch.setattr(keys, "keyring_usable", lambda: False)


def chinese(asked: Asked) -> tuple[int, object, dict[str, str]]:
    return answer({number: f"中文{number}" for number in asked.lines})


def test_without_an_endpoint_whisper_into_english_is_the_only_translator(window: MainWindow, tmp_path: Path) -> None:
    from tests.app.project.media_fixtures import make_video

    dialog = window.video.new_from_video()
    dialog.set_video(make_video(tmp_path / "scene.mp4"))
    dialog.folder.setText(str(tmp_path / "new"))
    dialog.subtitles.setCurrentIndex(dialog.subtitles.findData(TRANSCRIBE))
    dialog.translate.setChecked(True)
    chat = dialog.translator.findData("openai")
    assert not dialog.translator.model().item(chat).isEnabled()  # nothing to send the lines to yet
    zh = dialog.target.findData("zh")
    assert not dialog.target.model().item(zh).isEnabled()  # Whisper writes English only
    request = dialog.request()
    assert request is not None and (request.translator, request.translate_to) == ("whisper", "en")
    dialog.translate.setChecked(False)
    request = dialog.request()
    assert request is not None and request.translate_to is None
    dialog.reject()


def test_new_project_from_video_translates_into_chinese_through_the_endpoint(window: MainWindow,
                                                                              tmp_path: Path) -> None:
    make_scene(tmp_path / "scene.mp4", ["maya", "rex"])
    with chat_server(chinese) as server:
        keys.remember_endpoint(server.url, "scripted")
        dialog = window.video.new_from_video()
        dialog.set_video(tmp_path / "scene.mp4")
        dialog.subtitles.setCurrentIndex(dialog.subtitles.findData(TRANSCRIBE))
        dialog.translate.setChecked(True)
        dialog.translator.setCurrentIndex(dialog.translator.findData("openai"))
        assert dialog.target.model().item(dialog.target.findData("zh")).isEnabled()
        dialog.target.setCurrentIndex(dialog.target.findData("zh"))
        request = dialog.request()
        assert request is not None and (request.translator, request.translate_to) == ("openai", "zh")
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert window.document is not None
    project = window.document.project
    assert server.asked and project.lines
    assert all(line.text.startswith("中文") and line.draft and line.source_text for line in project.lines)
    assert project.target_language == "zh" and {c.settings.language for c in project.characters} == {"zh"}
    assert all(not line.source_text.startswith("中文") for line in project.lines)  # the transcription, kept

"""Words the studio showed in English under zh_CN although they are its own (issue 31, checked
again): the Stress tab's field tooltips, the notice that there is no audio device, and the
Transcribe dialog's language list (the names of the one language table), the backends' licences, an export's name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QAbstractSpinBox
from pytestqt.qtbot import QtBot

from app.project.sample import copy_sample_project
from app.ui.engine.voices_engine_page import VoicesEnginePage
from app.ui.folders import Folders
from app.ui.language import shown_message
from app.ui.playback.player import Player
from app.ui.settings.store import Settings
from app.ui.stress.controls import RunControls
from app.ui.tasks import Operation, SyncTaskRunner
from app.ui.timeline.transcribe_dialog import TranscribeDialog
from app.ui.window.main_window import MainWindow

ENGLISH_WORD = re.compile(r"\b[a-z]{3,}\b")  # a lower-case English word (codes and p95 aside)


def test_the_stress_fields_tooltips_are_chinese(chinese: None, qtbot: QtBot) -> None:
    controls = RunControls(Folders())
    qtbot.addWidget(controls)
    tips = [spin.toolTip() for spin in controls.findChildren(QAbstractSpinBox) if spin.toolTip()]
    assert len(tips) >= 7 and not [tip for tip in tips if ENGLISH_WORD.search(tip)], tips
    assert "到时仍未完成的任务会被取消，并计为一次错误（E_TIMEOUT）" in tips


def test_the_no_audio_device_notice_is_chinese(chinese: None, qtbot: QtBot) -> None:
    player = Player()
    with qtbot.waitSignal(player.device_missing) as said:
        player.check_output()
    assert said.args == ["没有音频输出设备：播放将没有声音（渲染照常进行）。"]


def test_the_transcribe_dialogs_languages_are_named_in_chinese(chinese: None, qtbot: QtBot, tmp_path: Path) -> None:
    project = copy_sample_project(tmp_path / "sample")
    dialog = TranscribeDialog(None, project, "base", Folders())
    qtbot.addWidget(dialog)
    names = [dialog.language.itemText(i) for i in range(dialog.language.count())]
    assert "中文（粤语）（yue）" in names and "日语（ja）" in names, names
    assert not [name for name in names if ENGLISH_WORD.search(re.sub(r"（[a-z]+）", "", name).lower())], names


def test_a_video_that_cannot_be_read_is_explained_in_chinese(chinese: None, qtbot: QtBot, tmp_path: Path) -> None:
    from app.ui.tasks import SyncTaskRunner
    from app.ui.timeline.video_dialogs import NewFromVideoDialog

    not_a_video = tmp_path / "notes.mp4"
    not_a_video.write_text("not a video", encoding="utf-8")
    dialog = NewFromVideoDialog(SyncTaskRunner(), Folders(), tmp_path / "projects")
    qtbot.addWidget(dialog)
    dialog.set_video(str(not_a_video))
    shown = dialog.problem.text()
    assert shown.startswith("无法读取视频。") and shown.endswith("(E_VIDEO_UNREADABLE)"), shown


def test_the_voices_engine_page_says_each_backends_licence_in_chinese(chinese: None, qtbot: QtBot,
                                                                       settings: Settings) -> None:
    """The licence under a backend's summary was English in the Chinese studio: the words a user
    must read before using zh-baker (non-commercial only) among them."""
    page = VoicesEnginePage(settings, SyncTaskRunner())
    qtbot.addWidget(page)
    for name in ("embedded", "zh-baker"):
        page.backend.setCurrentIndex(page.backend.findData(name))
        shown = page.summary.text()
        assert "仅限非商业用途" in shown and "NON-COMMERCIAL" not in shown, shown
    page.backend.setCurrentIndex(page.backend.findData("piper"))
    assert "许可" in page.summary.text() and "inside" not in page.summary.text(), page.summary.text()


def test_an_export_is_named_by_its_menu_label_not_its_key(chinese: None, idle_window: MainWindow) -> None:
    """Export › Subtitles as SRT said "正在导出 srt…", and Cancel "正在取消 all 导出": the export's
    key, not its name."""
    operations: list[Operation] = []
    idle_window.runner.started.connect(operations.append)
    idle_window.export("srt")
    srt = QCoreApplication.translate("formats", "Subtitles as SRT")
    assert srt != "Subtitles as SRT" and [operation.name for operation in operations] == [f"正在导出“{srt}”"]
    idle_window.exports.cancelled.emit("all")
    shown = idle_window.statusBar().currentMessage()
    assert "全部导出（交付文件夹）" in shown and "all" not in shown, shown


def test_a_message_said_in_chinese_ends_with_a_chinese_full_stop(chinese: None, idle_window: MainWindow) -> None:
    """A message said before it crossed a signal (the export's refusal, the M&E stem's) was closed
    with an English full stop in the error dialog: "…再导出. (E_EXPORT)"."""
    errors: list[str] = []
    idle_window.exports.failed.connect(lambda _kind, message: errors.append(message))
    idle_window.export("mix")
    shown = shown_message(errors[0])
    assert shown.startswith("无法完成导出。") and shown.endswith("再导出。(E_EXPORT)"), shown
    assert shown_message("E_EXPORT: the file is locked") == "无法完成导出。 The file is locked. (E_EXPORT)"  # English stays English


def test_a_list_inside_a_chinese_sentence_is_parted_by_the_chinese_list_comma(chinese: None, tmp_path: Path) -> None:
    """The status bar said "正在渲染 3 句台词（选中）…，第 1, 2, 3 句" with English commas."""
    from app.ui.window.document_session import render_scope

    project = copy_sample_project(tmp_path / "sample")
    said = render_scope(project, project.lines[:3], "选中")
    assert "第 1、2、3 句" in said and "1, 2" not in said, said


def test_render_all_and_render_stale_name_their_scope_in_chinese(chinese: None, idle_window: MainWindow,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Render › Render all said "正在渲染 6 句台词（all）", Render stale "（stale）"."""
    from app.ui.window.actions import ENTRIES, ActionSpec

    session = idle_window.session
    assert session is not None
    monkeypatch.setattr(session.renders, "render", lambda *_args, **_kwargs: True)  # as if the engine took them
    said: list[str] = []
    session.notice.connect(said.append)
    for spec in ENTRIES:
        if isinstance(spec, ActionSpec) and spec.name in ("render_all", "render_stale"):
            spec.run(idle_window)
    assert len(said) == 2 and "（全部）" in said[0] and "（过期）" in said[1], said


def test_an_exports_summary_names_it_by_its_menu_label(chinese: None, idle_window: MainWindow) -> None:
    """Export all's summary said "已导出 all：…" (the CLI's key), the subtitles' "已导出 srt：…"."""
    idle_window.export("srt")
    said = idle_window.messages.notifications.notifications[0].text()
    assert said.startswith("ℹ 已导出字幕（SRT）：") and "srt：" not in said, said


def test_a_cosyvoice_model_folders_report_is_said_in_chinese(chinese: None, qtbot: QtBot, settings: Settings,
                                                              tmp_path: Path) -> None:
    """Settings › Voices engine › Validate wrote its verdict and what to do in English (f-strings),
    "NOT usable — 1 problem(s)", in the Chinese studio."""
    page = VoicesEnginePage(settings, SyncTaskRunner())
    qtbot.addWidget(page)
    page.backend.setCurrentIndex(page.backend.findData("cosyvoice2"))
    folder = tmp_path / "model"
    folder.mkdir()
    page.model_dir.setText(str(folder))
    page.validate_model()
    verdict, *_, advice = page.model_report.toPlainText().splitlines()
    assert verdict.startswith(f"✗ {folder}：不可用") and "problem" not in verdict, verdict
    assert advice.startswith("怎么办：") and "Download" not in advice, advice

"""The main window on the sample project, with the real embedded engine and a null output."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.project import EditProject, LineStatus, Project, SaveError
from app.project.render import RenderProgress
from app.ui.characters.voices import VoiceState
from app.ui.engine.bridge import EngineBridge
from app.ui.playback.player import NullOutput
from app.ui.script.lines_model import Column
from app.ui.script.render_controller import format_eta, progress_bar_text
from app.ui.settings.dialog import SettingsDialog
from app.ui.settings.store import Settings
from app.ui.tasks import SyncTaskRunner
from app.ui.window.export_controller import export_label
from app.ui.window.main_window import MainWindow
from engine.core.codes import ErrorCode
from tests.app.ui.paths import ARTIFACTS

ENGINE_TIMEOUT_MS = 120_000


@pytest.fixture
def window(
    qtbot: QtBot,
    settings: Settings,
    sync_runner: SyncTaskRunner,
    null_output: NullOutput,
    engine_bridge: EngineBridge,
    tmp_path: Path,
) -> Iterator[MainWindow]:
    win = MainWindow(settings, sync_runner, null_output, bridge=engine_bridge, projects_dir=tmp_path / "projects")
    qtbot.addWidget(win)
    yield win
    win.close()


def _pull_until(qtbot: QtBot, output: NullOutput, done: Callable[[], bool]) -> None:
    """Play (pull audio from the null device) while waiting, as a sound card would."""

    def step() -> bool:
        output.pull(2048)
        return bool(done())

    qtbot.waitUntil(step, timeout=ENGINE_TIMEOUT_MS)


def test_opens_the_sample_project_and_saves_a_screenshot(qtbot: QtBot, window: MainWindow,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    assert window.pages.currentWidget() is window.welcome
    assert window.open_sample()
    project = window.document.project  # type: ignore[union-attr]
    assert project.root == window.projects_dir / "Sample project"
    assert window.script is not None and window.characters is not None
    assert window.script.model.rowCount() == len(project.lines) >= 6
    assert window.characters.list.count() == len(project.characters) == 2
    assert window.tabs.tabText(0) == "Script" and window.tabs.tabText(1) == "Characters"
    assert "ready" in window.engine.label.text()
    assert window.settings.recent_projects[0] == str(project.root.resolve())

    # render the first lines so the picture shows takes, durations and statuses
    assert window.renders is not None
    ids = [line.id for line in project.lines[:3]]
    with qtbot.waitSignal(window.renders.running_changed, timeout=ENGINE_TIMEOUT_MS, check_params_cb=lambda r: not r):
        window.session.render_lines(ids)
    window.script.select_line(ids[1])
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "main-window.png"
    assert window.grab().save(str(shot))
    assert shot.stat().st_size > 10_000

    window.tabs.setCurrentWidget(window.characters)
    assert window.grab().save(str(ARTIFACTS / "characters.png"))

    window.tabs.setCurrentIndex(window.tabs.count() - 1)  # the Stress tab is built on first show
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Stress"
    panel = window.tabs.currentWidget()
    assert type(panel).__name__ == "StressPanel"
    # Settings closed with OK but the studio's engine unchanged: the panel keeps its own target.
    panel.target.slots.setValue(5)  # type: ignore[attr-defined]
    monkeypatch.setattr(SettingsDialog, "exec", lambda self: SettingsDialog.DialogCode.Accepted)
    window.show_settings()
    assert panel.target.slots.value() == 5  # type: ignore[attr-defined]


def test_audition_streams_a_real_voice(qtbot: QtBot, window: MainWindow, null_output: NullOutput) -> None:
    window.open_sample()
    assert window.characters is not None and window.document is not None
    maya = window.document.project.characters[0]
    window.characters.select(maya.id)
    window.tabs.setCurrentWidget(window.characters)
    qtbot.waitUntil(lambda: window.voices.status(maya.id).state is VoiceState.PREPARED, timeout=ENGINE_TIMEOUT_MS)
    assert "Voice prepared" in window.characters.voice_status.text()
    # issue 8: "Resemblance to the clip: 0.66 (plain voice: 0.48)", explained in its tooltip
    resemblance = window.characters.resemblance
    assert re.fullmatch(r"Resemblance to the clip: 0\.\d\d \(plain voice: 0\.\d\d\)", resemblance.text())
    assert "GE2E" in resemblance.toolTip() and "not a clone" in resemblance.toolTip()

    window.characters.sample.setText("Hello, this is Maya.")
    window.characters.audition_button.click()
    job_id = window.player.playing_key
    assert job_id  # streaming started before any audio arrived
    assert window.characters.audition_button.text() == "■ Stop"  # playing state, and the way to stop it
    _pull_until(qtbot, null_output, lambda: window.player.playing_key != job_id)
    heard = np.concatenate(null_output.played)
    assert np.abs(heard).max() > 0.05  # speech, not silence
    assert null_output.sample_rate == window.bridge.ready.backend.sample_rate  # type: ignore[union-attr]
    assert window.characters.audition_button.text() == "▶ Audition"

    window.characters.audition_button.click()  # a second audition, stopped with the same button
    assert window.player.playing_key and window.characters.audition_button.text() == "■ Stop"
    window.characters.audition_button.click()
    assert window.player.playing_key == "" and window.characters.audition_button.text() == "▶ Audition"


def test_render_play_choose_and_undo(qtbot: QtBot, window: MainWindow, null_output: NullOutput) -> None:
    window.open_sample()
    doc, script, renders = window.document, window.script, window.renders
    assert doc is not None and script is not None and renders is not None
    first, second = doc.project.lines[0], doc.project.lines[1]
    script.select_line(first.id)
    with qtbot.waitSignal(renders.running_changed, timeout=ENGINE_TIMEOUT_MS, check_params_cb=lambda r: not r):
        assert window.session.render_lines([first.id, second.id])
    assert doc.project.status(first) is LineStatus.DONE
    take = doc.project.chosen_take(first)
    assert take is not None and doc.project.take_path(take).is_file()
    assert script.progress.value() == 2 and script.progress.text() == "2 of 2 rendered"
    assert script.progress_label.text().startswith("Finished in")
    assert script.model.index(0, 4).data() == "Done"

    window.session.play_current_line()
    assert window.player.playing_key == f"take:{take.id}"
    _pull_until(qtbot, null_output, lambda: not window.player.playing_key)

    # a second take, then go back to the first through the take chooser; undo restores it
    with qtbot.waitSignal(renders.running_changed, timeout=ENGINE_TIMEOUT_MS, check_params_cb=lambda r: not r):
        window.session.render_lines([first.id])
    assert len(first.takes) == 2 and first.chosen_take != take.id
    window.session.choose_take(first.id, take.id)
    assert first.chosen_take == take.id
    assert window.actions_["undo"].text() == "&Undo Choose take"
    window.actions_["undo"].trigger()
    assert first.chosen_take == first.takes[1].id
    window.actions_["redo"].trigger()
    assert first.chosen_take == take.id

    # exports land in exports/ (the runner is synchronous in tests)
    for kind in ("lines", "mix", "stems", "srt", "csv"):
        window.export(kind)
        assert f"Exported {export_label(kind)}" in window.statusBar().currentMessage()
    exports = doc.project.exports_dir
    assert (exports / "mix.wav").is_file() and (exports / "script.srt").is_file() and (exports / "script.csv").is_file()
    assert sorted(p.name for p in (exports / "lines").glob("*.wav")) == ["001_Maya.wav", "002_Rex.wav"]
    assert {p.name for p in (exports / "stems").iterdir()} >= {"Maya.wav", "Rex.wav"}

    # editing the text makes the line stale
    script.model.setData(script.model.index(0, 1), "Rex, did you see the lights?")
    assert doc.project.status(first) is LineStatus.STALE
    assert window.save() and not doc.is_dirty


def test_play_streams_a_line_that_has_no_take(qtbot: QtBot, window: MainWindow, null_output: NullOutput) -> None:
    window.open_sample()
    assert window.document is not None and window.renders is not None
    line = window.document.project.lines[2]
    window.playback.play_line(window.session.document, window.session.renders, line.id)
    job = window.renders.job_of(line.id)
    assert job is not None and window.player.playing_key == job[1]
    _pull_until(qtbot, null_output, lambda: window.document.project.status(line) is LineStatus.DONE  # type: ignore[union-attr]
                and not window.player.playing_key)
    assert np.abs(np.concatenate(null_output.played)).max() > 0.05


def test_edits_undo_and_filters(window: MainWindow) -> None:
    window.open_sample()
    doc, script = window.document, window.script
    assert doc is not None and script is not None
    project = doc.project
    n = len(project.lines)
    rex = project.characters[1]
    script.select_line(project.lines[0].id)
    window.session.add_line()
    assert len(project.lines) == n + 1 and project.lines[1].text == ""
    window.session.assign_character(rex.id)
    assert project.lines[1].character_id == rex.id
    window.session.move_lines(-1)
    assert project.lines[0].character_id == rex.id and project.lines[0].text == ""
    script.character_filter.setCurrentIndex(script.character_filter.findData(rex.id))
    assert script.proxy.rowCount() == len(project.lines_of(rex.id))
    for _ in range(3):
        window.session.document.undo()
    assert len(project.lines) == n
    assert not window.actions_["undo"].isEnabled()


def test_import_srt_as_one_undo_step(tmp_path: Path, window: MainWindow) -> None:
    window.open_sample()
    assert window.document is not None
    project = window.document.project
    n, chars = len(project.lines), len(project.characters)
    srt_file = tmp_path / "scene.srt"
    srt_file.write_text(
        "1\r\n00:00:01,000 --> 00:00:02,000\r\nNell: First.\r\n\r\n2\r\n00:00:02,500 --> 00:00:03,000\r\n[Maya] Second.\r\n",
        encoding="utf-8-sig",
    )
    assert window.session.import_file(srt_file, "srt")
    assert len(project.lines) == n + 2 and len(project.characters) == chars + 1
    window.session.document.undo()
    assert len(project.lines) == n and len(project.characters) == chars
    bad = tmp_path / "bad.srt"
    bad.write_text("1\n00:00:01,000 --> nonsense\nhello\n", encoding="utf-8")
    assert not window.session.import_file(bad, "srt")
    assert "E_IMPORT" in window.statusBar().currentMessage()


def test_import_into_a_script_with_lines_asks_replace_add_or_cancel(tmp_path: Path, window: MainWindow) -> None:
    window.open_sample()
    assert window.document is not None
    project = window.document.project
    before = [line.id for line in project.lines]
    srt_file = tmp_path / "scene.srt"
    srt_file.write_text("1\n00:00:01,000 --> 00:00:02,000\nNell: First.\n\n2\n00:00:02,500 --> 00:00:03,000\nSecond.\n",
                        encoding="utf-8")

    def answer(label: str | None) -> None:
        window.import_path(srt_file, "srt")
        box = window.findChildren(QMessageBox, "importBox")[-1]
        assert box.isVisible() and f"{len(project.lines)} line" in box.text() and "scene.srt" in box.text()
        if label is None:
            box.reject()
        else:
            next(b for b in box.buttons() if b.text() == label).click()

    answer(None)  # Cancel: nothing imported
    assert [line.id for line in project.lines] == before
    answer("Add")
    assert len(project.lines) == len(before) + 2 and set(before) <= {line.id for line in project.lines}
    window.session.document.undo()
    answer("Replace")
    assert [line.text for line in project.lines] == ["First.", "Second."]
    assert window.session.document.stack.undo_text == "Replace the script with scene.srt"
    window.session.document.undo()  # one step brings every old line back, in its place
    assert [line.id for line in project.lines] == before


def test_a_bilingual_subtitle_file_asks_which_language_to_dub(tmp_path: Path, window: MainWindow) -> None:
    from tests.app.project.test_bilingual import BILINGUAL_SRT

    window.open_sample()
    assert window.session is not None
    session = window.session
    project = session.project
    before = len(project.lines)
    srt_file = tmp_path / "bilingual.srt"
    srt_file.write_text(BILINGUAL_SRT, encoding="utf-8")
    assert not session.import_file(srt_file, "srt")  # nothing yet: the window asks
    box = window.findChildren(QMessageBox, "bilingualBox")[-1]
    assert box.isVisible() and "bilingual.srt" in box.text()
    languages = (project.language, project.target_language, [c.settings.language for c in project.characters])
    next(b for b in box.buttons() if "(en)" in b.text()).click()
    assert len(project.lines) == before + 3
    assert [line.source_text for line in project.lines if line.source_text] == ["你好，我们明天见。", "好的。", "走吧！"]
    assert "Hi, see you tomorrow." in [line.text for line in project.lines]
    # The choice sets the language the project dubs into (the dub's track is tagged with it, the
    # next bilingual import is not asked again), as `dubstudio new --keep-language en` does.
    assert (project.target_language, project.language) == ("en", languages[0] or "zh")
    assert session.document.stack.undo_text == "Import bilingual.srt"
    window.session.document.undo()  # one step: the lines and the languages
    assert (project.language, project.target_language, [c.settings.language for c in project.characters]) == languages
    assert len(project.lines) == before
    project.target_language = "zh"  # the language the project dubs into is kept without asking
    assert session.import_file(srt_file, "srt")
    assert "走吧！" in [line.text for line in project.lines]
    assert "Let's go!" in [line.source_text for line in project.lines]


def test_split_a_line_at_the_text_cursor_and_merge_it_back_with_undo(window: MainWindow) -> None:
    from PySide6.QtWidgets import QPlainTextEdit

    window.open_sample()
    session = window.session
    project = session.project
    before = [(line.id, line.text) for line in project.lines]
    line = project.lines[4]  # "Then we row out at first light. Together."
    session.script.edit_line_text(line.id)
    table = session.script.table
    editor = table.indexWidget(table.currentIndex())
    assert isinstance(editor, QPlainTextEdit)
    cursor = editor.textCursor()
    cursor.setPosition(line.text.index("Together"))
    editor.setTextCursor(cursor)
    window.actions_["split_line"].trigger()
    assert [x.text for x in project.lines[4:6]] == ["Then we row out at first light.", "Together."]
    assert session.selected() == [x.id for x in project.lines[4:6]]
    assert session.document.stack.undo_text == "Split line" and table.indexWidget(table.currentIndex()) is None
    window.actions_["merge_lines"].trigger()  # the two selected parts
    assert project.lines[4].text == "Then we row out at first light. Together." and len(project.lines) == len(before)
    session.document.undo()
    session.document.undo()
    assert [(x.id, x.text) for x in project.lines] == before
    session.script.select_line(project.lines[0].id)  # one line, not edited: merged with the next
    window.actions_["merge_lines"].trigger()
    assert project.lines[0].text == f"{before[0][1]} {before[1][1]}"
    session.document.undo()
    assert [(x.id, x.text) for x in project.lines] == before


def test_find_and_replace_in_the_studio_is_one_undo_step(window: MainWindow) -> None:
    window.open_sample()
    session = window.session
    project = session.project
    before = [line.text for line in project.lines]
    window.actions_["find_replace"].trigger()
    dialog = session.find_and_replace()
    assert dialog.isVisible() and not dialog.replace_all.isEnabled()  # nothing to find yet
    dialog.find_text.setText("light")
    dialog.replacement.setText("LAMP")
    dialog.replace_all.click()
    changed = [n for n, line in enumerate(project.lines) if line.text != before[n]]
    assert changed and all("LAMP" in project.lines[n].text for n in changed)
    assert dialog.result_label.text().startswith(f"Replaced in {len(changed)} line")
    assert session.document.stack.undo_text.startswith("Replace 'light' in")
    dialog.replace_all.click()  # nothing left to replace
    assert "No line has" in dialog.result_label.text()
    session.document.undo()
    assert [line.text for line in project.lines] == before


def test_tab_leaves_the_script_table_and_the_current_cell_is_framed(window: MainWindow, qtbot: QtBot) -> None:
    from PySide6.QtTest import QTest

    window.open_sample()
    window.show()
    qtbot.waitExposed(window)
    table = window.session.script.table
    assert not table.tabKeyNavigation() and "item:focus" in table.styleSheet()
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    QTest.keyClick(table, Qt.Key.Key_Tab)
    assert not table.hasFocus()  # focus moved on to the next control


def test_render_progress_texts_name_what_failed_and_what_was_cancelled() -> None:
    running = RenderProgress(total=6, done=2, failed=1, cancelled=0, rendering=2, queued=1, elapsed_s=4.0, eta_s=8.0)
    assert progress_bar_text(running) == "2 of 6 rendered · 1 failed"
    assert format_eta(running) == "about 8 s left"
    cancelled = RenderProgress(total=6, done=2, failed=0, cancelled=4, rendering=0, queued=0, elapsed_s=75.0,
                               eta_s=None)
    assert progress_bar_text(cancelled) == "2 of 6 rendered · 4 cancelled"
    assert format_eta(cancelled) == "Cancelled after 1 min 15 s"
    finished = RenderProgress(total=1, done=1, failed=0, cancelled=0, rendering=0, queued=0, elapsed_s=3.0, eta_s=0)
    assert (progress_bar_text(finished), format_eta(finished)) == ("1 of 1 rendered", "Finished in 3 s")


def test_cancel_then_retry_failed(qtbot: QtBot, window: MainWindow) -> None:
    window.open_sample()
    doc, renders = window.document, window.renders
    assert doc is not None and renders is not None
    project = doc.project
    with qtbot.waitSignal(renders.running_changed, timeout=ENGINE_TIMEOUT_MS, check_params_cb=lambda r: not r):
        window.session.render_lines(None)
        assert window.actions_["cancel_render"].isEnabled()
        window.actions_["cancel_render"].trigger()
    assert all(line.status not in (LineStatus.QUEUED, LineStatus.RENDERING) for line in project.lines)
    assert renders.batch is not None and renders.batch.progress.cancelled >= 1
    # The bar shows what was rendered and what was cancelled, never "6 / 6".
    progress, script = renders.batch.progress, window.script
    assert script is not None
    assert script.progress.value() == progress.done + progress.failed < script.progress.maximum() == 6
    assert script.progress.text().endswith(f"{progress.cancelled} cancelled")
    assert script.progress_label.text().startswith("Cancelled after")

    # a line without a character fails at once; give it one and retry just the failures
    orphan = project.lines[5]
    window.script.select_line(orphan.id)  # type: ignore[union-attr]
    window.session.assign_character(None)
    with qtbot.waitSignal(renders.running_changed, timeout=ENGINE_TIMEOUT_MS, check_params_cb=lambda r: not r):
        window.session.render_lines([orphan.id])
    assert orphan.status is LineStatus.FAILED and orphan.error.startswith("E_NO_CHARACTER")
    assert window.actions_["retry_failed"].isEnabled()
    window.session.assign_character(project.characters[1].id)
    with qtbot.waitSignal(renders.running_changed, timeout=ENGINE_TIMEOUT_MS, check_params_cb=lambda r: not r):
        window.actions_["retry_failed"].trigger()
    assert project.status(orphan) is LineStatus.DONE


def test_takes_are_checked_in_the_background_and_failed_qa_renders_again(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.open_sample()
    doc, script, renders, qa = window.document, window.script, window.renders, window.qa
    assert doc is not None and script is not None and renders is not None and qa is not None
    rex_line = doc.project.lines[3]  # "The harbour master never had to pay our debts."
    with qtbot.waitSignal(qa.checked, timeout=ENGINE_TIMEOUT_MS):  # rendered, then checked off the GUI thread
        assert window.session.render_lines([rex_line.id])
    take = doc.project.chosen_take(rex_line)
    assert take is not None and take.qa is not None and take.qa.wer is not None
    assert script.model.index(3, Column.QA).data() == "✓ Passed"
    script.select_line(rex_line.id)
    assert "QA ✓" in script.takes.item(0).text()
    assert not window.actions_["render_failed_qa"].isEnabled()

    # The user tightens a threshold: the take now fails, the filter finds it, and one click redoes it.
    doc.project.settings.qa = type(doc.project.settings.qa)(min_resemblance=0.99)
    doc.notify_render(frozenset())
    window.update_actions()
    assert script.model.index(3, Column.QA).data() == "✗ Unlike voice"
    script.status_filter.setCurrentIndex(script.status_filter.findData("failed_qa"))
    assert [script.proxy.index(r, Column.TEXT).data() for r in range(script.proxy.rowCount())] == [rex_line.text]
    assert window.actions_["render_failed_qa"].isEnabled()
    with qtbot.waitSignal(qa.checked, timeout=ENGINE_TIMEOUT_MS):
        window.actions_["render_failed_qa"].trigger()
    assert len(rex_line.takes) == 2 and rex_line.takes[1].qa is not None
    script.status_filter.setCurrentIndex(0)  # all statuses again
    script.select_line(rex_line.id)
    assert "QA ✗" in script.takes.item(1).text() and "QA_UNLIKE_VOICE" in script.takes.item(1).toolTip()
    assert all(len(line.takes) == 0 for line in doc.project.lines if line is not rex_line)


def test_a_second_studio_opens_the_project_read_only_and_says_so(
    qtbot: QtBot, window: MainWindow, settings: Settings, sync_runner: SyncTaskRunner, null_output: NullOutput,
    engine_bridge: EngineBridge, tmp_path: Path,
) -> None:
    """Issue 10: two writers of one project folder lost takes; the second one now only reads."""
    assert window.open_sample()
    root = window.document.project.root  # type: ignore[union-attr]
    other = MainWindow(settings, sync_runner, null_output, bridge=engine_bridge, projects_dir=tmp_path / "other")
    qtbot.addWidget(other)
    assert other.open_project(root)
    doc = other.document
    assert doc is not None and doc.read_only.startswith(f"open in DubStudio studio (pid {os.getpid()} on ")
    assert other.windowTitle().endswith("[read-only] — DubStudio")
    assert other.save_label.text().startswith("Read-only: open in DubStudio studio")
    for name in ("save", "add_line", "render_all", "render_stale"):
        assert not other.actions_[name].isEnabled(), name
    assert not other.menus["file/import"].isEnabled() and not other.menus["file/export"].isEnabled()
    assert other.actions_["play_line"].isEnabled()  # looking and listening stay possible
    box = other.findChildren(QMessageBox, "messageBox")[-1]
    assert box.windowTitle() == "Opened read-only" and "DubStudio studio (pid" in box.text()
    with qtbot.waitSignal(doc.error) as error:
        assert not doc.push(EditProject(title="Not mine"))
    assert error.args[0].startswith("E_PROJECT_LOCKED")
    assert not doc.save() and not other.session.render_lines(None)
    other.close()
    assert window.document.push(EditProject(title="Still mine")) and window.save()  # type: ignore[union-attr]
    assert Project.load(root).title == "Still mine"


def test_a_failed_save_shows_a_blocking_error_and_keeps_the_changes(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 10: a failed save must never pass silently or drop the unsaved state."""
    assert window.open_sample()
    doc = window.document
    assert doc is not None
    root = doc.project.root

    def disk_full(self: Project) -> None:
        raise SaveError(f"cannot write {self.project_file}: No space left on device", ErrorCode.DISK_FULL)

    doc.push(EditProject(title="Unsaved title"))
    monkeypatch.setattr(Project, "save", disk_full)
    assert not window.save()
    box = window.findChildren(QMessageBox, "messageBox")[-1]
    assert box.windowTitle() == "Cannot save the project" and "E_DISK_FULL" in box.text()
    assert box.isVisible() and box.windowModality() is Qt.WindowModality.WindowModal  # blocks the window
    assert doc.is_dirty and window.save_label.text() == "Unsaved changes"

    window.close()  # closing would lose the changes: the window stays, and offers a choice
    assert window.document is doc and doc.project.title == "Unsaved title"
    discard = window.findChild(QMessageBox, "discardBox")
    assert discard is not None and discard.isVisible()
    discard.reject()  # Cancel

    monkeypatch.undo()  # space was freed
    assert window.save() and Project.load(root).title == "Unsaved title"

    doc.push(EditProject(title="Lost on purpose"))
    monkeypatch.setattr(Project, "save", disk_full)
    window.close()
    choice = window.findChildren(QMessageBox, "discardBox")[-1]
    next(b for b in choice.buttons() if b.text() == "Close without saving").click()
    assert window.document is None and not window.isVisible()
    monkeypatch.undo()
    assert Project.load(root).title == "Unsaved title"


def test_render_with_fit_fits_an_overrunning_take_and_shows_it(qtbot: QtBot, window: MainWindow) -> None:
    window.open_sample()
    doc, script, renders, timeline = window.document, window.script, window.renders, window.timeline
    assert doc is not None and script is not None and renders is not None and timeline is not None
    line = doc.project.lines[4]  # "Then we row out at first light. Together."
    script.select_line(line.id)
    with qtbot.waitSignal(renders.running_changed, timeout=ENGINE_TIMEOUT_MS, check_params_cb=lambda r: not r):
        assert window.session.render_lines([line.id])
    natural = doc.project.duration(line)
    assert natural is not None and line.start is not None
    # Shrink the slot to 80 % of the take: rendering with fit speaks faster so it fits again. (Not
    # closer: Piper's length varies by up to ~12 % between syntheses of a short line, and at 85 %
    # a shorter new take needed only rate 1.04.)
    line.end = round(line.start + 0.80 * natural, 3)
    # Fit borrows the silence before the next line first: start the next line where this one
    # ends, so there is none to borrow and the take must be spoken faster.
    later = [other for other in doc.project.lines if other.start is not None and other.start > line.start]
    if later:
        following = min(later, key=lambda other: other.start or 0.0)
        following.start = line.end
    doc.notify_render(frozenset({line.id}))
    assert timeline.canvas.clip(line.id).slot.overrun_s > 0  # type: ignore[union-attr]
    with qtbot.waitSignal(renders.running_changed, timeout=ENGINE_TIMEOUT_MS, check_params_cb=lambda r: not r):
        window.actions_["render_fit"].trigger()
    take = doc.project.chosen_take(line)
    assert take is not None and take.fit is not None and take.fit.rate > 1.05
    row = script.model.row_of(line.id)
    assert script.model.index(row, Column.FIT).data().startswith("rate ")
    clip = timeline.canvas.clip(line.id)
    assert clip is not None and clip.fit.startswith("fitted: rate ") and clip.slot.overrun_s == 0


def test_an_imports_warnings_are_listed_as_chinese_writes_them(tmp_path: Path, window: MainWindow,
                                                               chinese: None) -> None:
    """The warnings after an import's summary are parted by the language's separator: ；in Chinese,
    with no ASCII "; " between two Chinese sentences."""
    window.open_sample()
    srt_file = tmp_path / "scene.srt"
    srt_file.write_text("1\n00:00:01,000 --> 00:00:02,000\nNell: First.\n\n2\n00:00:02,500 --> 00:00:03,000\n \n\n"
                        "3\n00:00:03,500 --> 00:00:04,000\n \n\n4\n00:00:04,500 --> 00:00:05,000\nNell: Last.\n",
                        encoding="utf-8")
    assert window.session.import_file(srt_file, "srt")
    shown = window.statusBar().currentMessage()
    assert "第 2 条字幕没有文字，已跳过；scene.srt 第 10 行：第 3 条字幕没有文字，已跳过" in shown, shown  # the name, not the path
    assert "; " not in shown, shown

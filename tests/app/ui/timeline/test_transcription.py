"""The studio's side of transcribing a video (offscreen, inline tasks, the real Whisper base and
GE2E): "Transcribe the dialogue" in New project from video with its progress, Choose from the
video on the Characters panel, and merging and splitting characters, all undoable."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialogButtonBox, QProgressBar
from pytestqt.qtbot import QtBot

from app.project.sample import copy_sample_project
from app.project.transcription_process import PROCESS_NAME
from app.ui.characters.cast_controller import CastController
from app.ui.folders import Folders
from app.ui.tasks import STEPS, Operation
from app.ui.timeline.transcribe_dialog import TranscribeDialog
from app.ui.timeline.video_clips import (
    STAGES,
    ChooseFromVideoDialog,
    SplitCharacterDialog,
)
from app.ui.timeline.video_dialogs import NO_SUBTITLES, TRANSCRIBE
from app.ui.window.main_window import MainWindow
from app.ui.window.notifications import Level
from tests.app.project.test_cast import episode
from tests.app.ui.timeline.test_video_workflows import window  # noqa: F401 - the fixture (pytest passes it by name)
from tests.engine.hearing.scenes import make_scene, voice_at


def create_project(window: MainWindow, source: Path, subtitles: str) -> None:
    """File › New project from ``source``, its script from ``subtitles`` (TRANSCRIBE, NO_SUBTITLES…)."""
    dialog = window.video.new_from_video()
    dialog.set_video(source)
    dialog.subtitles.setCurrentIndex(dialog.subtitles.findData(subtitles))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def test_transcribe_the_dialogue_then_choose_clips_merge_and_split(window: MainWindow, tmp_path: Path) -> None:
    turns = make_scene(tmp_path / "scene.mp4", ["maya", "rex", "maya", "rex"])
    dialog = window.video.new_from_video()
    dialog.set_video(tmp_path / "scene.mp4")
    dialog.subtitles.setCurrentIndex(dialog.subtitles.findData(TRANSCRIBE))
    assert dialog.translate.isEnabled() and not dialog.translate.isChecked()
    request = dialog.request()
    assert request is not None and request.transcribe and request.translate_to is None
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert window.document is not None
    project = window.document.project
    assert [c.name for c in project.characters] == ["Speaker 1", "Speaker 2"] and project.language == "en"
    panel = window.characters
    assert panel is not None

    # Choose from the video: the candidates of Speaker 2, the chosen one becomes the clip (undoable)
    second = project.characters[1]
    panel.select(second.id)
    before = second.clip
    chooser = panel.choose_from_video()
    assert isinstance(chooser, ChooseFromVideoDialog) and chooser.table.rowCount() >= 1
    candidate = chooser.candidates[0]
    assert voice_at(turns, candidate.start, candidate.end) == voice_at(turns, *_span(project, second.id))
    chooser.use()
    assert second.clip != before and second.clip.startswith("voices/") and second.transcript == candidate.text
    window.document.undo()
    assert second.clip == before

    # From the script: a line's slot of the original becomes its character's clip (undoable)
    line = project.lines_of(second.id)[-1]
    assert line.start is not None and line.end is not None
    script = window.script
    assert script is not None
    script.select_line(line.id)
    use_audio = script.context_menu().findChild(QAction, "useLineAudio")
    assert use_audio is not None and use_audio.isEnabled()
    use_audio.trigger()
    assert second.clip != before and second.clip.startswith("voices/") and second.clip_purity is not None
    assert panel.current_id == second.id and abs(panel.waveform.duration - (line.end - line.start)) < 0.05
    assert second.transcript == (line.source_text or line.text)
    window.document.undo()
    assert second.clip == before
    script.select_lines([other.id for other in project.lines[:2]])  # one line at a time
    assert not script.context_menu().findChild(QAction, "useLineAudio").isEnabled()

    # Merge Speaker 2 into Speaker 1, undo; split two lines off Speaker 1 into a new character
    first = project.characters[0]
    panel.select(second.id)
    assert panel.merge_into(first.id)
    assert [c.name for c in project.characters] == ["Speaker 1"] and all(line.character_id == first.id
                                                                           for line in project.lines)
    window.document.undo()
    assert [c.name for c in project.characters] == ["Speaker 1", "Speaker 2"]
    panel.select(first.id)
    splitter = panel._split()
    assert isinstance(splitter, SplitCharacterDialog)
    splitter.lines.item(0).setCheckState(Qt.CheckState.Checked)
    moved = splitter.checked()
    splitter.accept()
    new = project.character_by_name("Speaker 1 2")
    assert new is not None and [line.id for line in project.lines_of(new.id)] == moved
    window.document.undo()
    assert project.character_by_name("Speaker 1 2") is None


def _span(project, character_id: str) -> tuple[float, float]:
    line = project.lines_of(character_id)[0]
    return line.start, line.end


def test_transcribing_an_open_project_replaces_its_script_undoably(window: MainWindow, tmp_path: Path) -> None:
    make_scene(tmp_path / "scene.mp4", ["rex", "narrator"])
    create_project(window, tmp_path / "scene.mp4", NO_SUBTITLES)
    assert window.document is not None and window.document.project.lines == []
    action = window.actions_["transcribe"]
    assert action.isEnabled() and action in window.menus["project"].actions()
    operations: list[Operation] = []
    shown: list[tuple[str, int]] = []  # the dialog's label and bar as the work reports

    def watch(operation: Operation) -> None:  # the transcription runs as an operation, its stages in its dialog
        if operation.name is None:
            return  # a quick query the new script starts (the timeline's takes, the cast's clips)
        operations.append(operation)
        dialog = operation.dialog
        bar = dialog.findChild(QProgressBar) if dialog is not None else None
        assert dialog is not None and bar is not None and dialog.isModal()
        bar.valueChanged.connect(lambda value: shown.append((dialog.labelText(), value)))
        # the work runs in a child process, so the GUI thread shares no GIL with it (docs/transcribe.md)
        bar.valueChanged.connect(lambda _value: apart.append(any(
            child.name == PROCESS_NAME for child in multiprocessing.active_children())))

    apart: list[bool] = []  # at each move of the bar: whether the transcription's process ran
    window.runner.started.connect(watch)
    action.trigger()
    asking = window.video.dialog
    assert isinstance(asking, TranscribeDialog) and not asking.asks  # an empty script: nothing to lose
    asking.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    project = window.document.project
    assert len(project.characters) == 2 and project.lines and project.language == "en"
    assert [operation.name for operation in operations] == ["transcribing the dialogue"]
    assert operations[0].dialog is None and window.runner.busy is None and action.isEnabled()
    assert [value for _label, value in shown] == sorted(value for _label, value in shown) and shown[-1][1] == STEPS
    assert apart and all(apart)
    # every stage shows (an estimate of listening, "listening:estimated", only while Whisper is slow)
    assert {label.split("…")[0] for label, _value in shown} >= {label for key, label in STAGES.items() if ":" not in key}
    # the bar moves while Whisper listens, not only at the end of the recording (tests/engine/hearing
    # and benchmarks/transcribe_progress.py show its estimates between Whisper's segments moving).
    listening = sorted({value for label, value in shown if label.startswith(STAGES["listening"])})
    assert len(listening) >= 2 and listening[0] < listening[-1]
    window.document.undo()
    assert project.lines == [] and project.characters == [] and project.language == ""


def test_the_source_column_shows_beside_translated_lines(window: MainWindow, tmp_path: Path) -> None:
    from app.project import AddLines, Line, Project
    from app.ui.script.lines_model import Column

    project = Project.create(tmp_path / "translated", "Translated")
    speaker = project.make_character("Speaker 1")
    project.characters.append(speaker)
    project.lines = [Line(id="l1", text="I wanted to submit this idea.", character_id=speaker.id, start=0.5, end=2.0,
                          source_text="Je voulais soumettre cette idée.", draft=True)]
    project.save()
    assert window.open_project(project.root)
    script = window.script
    assert script is not None and not script.table.isColumnHidden(Column.SOURCE)
    model = script.model
    assert model.index(0, Column.SOURCE).data() == "Je voulais soumettre cette idée."
    assert "machine translation" in model.index(0, Column.TEXT).data(Qt.ItemDataRole.ToolTipRole)
    assert model.setData(model.index(0, Column.TEXT), "I wanted to put this idea forward.")
    line = window.document.project.lines[0]
    assert not line.draft and line.source_text == "Je voulais soumettre cette idée."
    window.document.undo()
    assert line.draft and line.text == "I wanted to submit this idea."
    window.document.push(AddLines([Line(id="l2", text="Plain.", character_id=speaker.id)]))
    assert not script.table.isColumnHidden(Column.SOURCE)


def test_transcribing_a_script_with_lines_and_takes_asks_first_and_can_keep_them(window: MainWindow,
                                                                                 tmp_path: Path) -> None:
    from app.project import AddLines, Line
    from tests.app.project.conftest import add_fake_take, tone

    make_scene(tmp_path / "scene.mp4", ["rex", "narrator"])
    create_project(window, tmp_path / "scene.mp4", NO_SUBTITLES)
    assert window.document is not None
    project = window.document.project
    hero = project.make_character("Hero")
    old = [Line(id="l1", text="Once upon a time.", character_id=hero.id, start=0.0, end=1.0),
           Line(id="l2", text="The end.", character_id=hero.id)]
    window.document.push(AddLines(old, characters=[hero]))
    add_fake_take(project, old[0], tone(1.0))
    operations: list[Operation] = []
    window.runner.started.connect(lambda operation: operations.append(operation) if operation.name else None)

    asking = window.video.transcribe_dialogue()
    assert isinstance(asking, TranscribeDialog) and asking.asks and asking.replace.isChecked()
    assert "2 lines with 1 rendered take." in asking.loss.text()
    asking.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    assert operations == [] and [line.id for line in project.lines] == ["l1", "l2"]  # Cancel: nothing happens

    asking = window.video.transcribe_dialogue()
    assert asking is not None
    asking.keep.setChecked(True)
    asking.speakers.setCurrentIndex(asking.speakers.findData(2))
    asking.language.setCurrentIndex(asking.language.findData("en"))
    choice = asking.choice()
    assert choice.keep and choice.speakers == 2 and choice.language == "en" and choice.cast_library is None
    asking.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert [operation.name for operation in operations] == ["transcribing the dialogue"]
    assert {"l1", "l2"} < {line.id for line in project.lines} and len(project.lines) > 2  # kept, and added to
    assert len(project.line("l1").takes) == 1 and len(project.characters) == 3
    window.document.undo()
    assert [line.id for line in project.lines] == ["l1", "l2"] and [c.name for c in project.characters] == ["Hero"]


def test_the_transcribe_dialog_counts_in_words_and_shows_its_whole_placeholder(qtbot: QtBot, tmp_path: Path) -> None:
    """It said "6 line(s) with 0 rendered take(s)", and its cast library field, at the dialog's own
    size, cut its placeholder to "none: every voic…"."""
    project = copy_sample_project(tmp_path / "sample")
    dialog = TranscribeDialog(None, project, "base", Folders())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert f"The script has {len(project.lines)} lines with 0 rendered takes." in dialog.loss.text()
    library = dialog.library
    assert library.placeholderText() == "none: every voice becomes a new character"
    assert library.width() >= library.fontMetrics().horizontalAdvance(library.placeholderText()) + 12


@pytest.mark.slow  # real models for many seconds: scripts/test-slow (CI runs it)
def test_a_replacing_transcription_removes_the_voices_it_no_longer_hears_and_says_so(window: MainWindow,
                                                                                    tmp_path: Path) -> None:
    from app.cli import main as cli_main
    from app.project import Project

    make_scene(tmp_path / "one.mp4", ["libri_1688_a", "libri_3080_a", "libri_1688_b"])
    assert cli_main(["new", str(tmp_path / "p"), "--video", str(tmp_path / "one.mp4"), "--transcribe",
                     "--language", "en"]) == 0
    video = Project.load(tmp_path / "p").video_path()
    assert video is not None
    make_scene(video, ["libri_1688_c", "libri_2414_a", "libri_1688_b"])  # a re-cut episode: 3080's voice is gone
    assert window.open_project(tmp_path / "p") and window.document is not None
    project = window.document.project
    before = [c.name for c in project.characters]
    asking = window.video.transcribe_dialogue()
    assert isinstance(asking, TranscribeDialog) and asking.asks and asking.replace.isChecked()
    asking.language.setCurrentIndex(asking.language.findData("en"))
    asking.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    gone = [name for name in before if project.character_by_name(name) is None]
    assert len(gone) == 1 and all(project.lines_of(c.id) for c in project.characters)
    said = [note.text() for note in window.messages.notifications.notifications]
    assert any(f"{gone[0]} has no line in the new transcription" in text and "removed" in text for text in said)
    window.document.undo()
    assert [c.name for c in project.characters] == before


def test_the_chinese_studio_names_the_voices_it_hears_in_chinese(chinese: None, window: MainWindow,
                                                                 tmp_path: Path) -> None:
    # Before, the voices were "Speaker 1", "Speaker 2" whatever the studio's language.
    make_scene(tmp_path / "scene.mp4", ["libri_1688_a", "libri_3080_a"])
    create_project(window, tmp_path / "scene.mp4", TRANSCRIBE)
    assert window.document is not None
    assert [c.name for c in window.document.project.characters] == ["说话人 1", "说话人 2"]


def test_a_recording_with_no_picture_makes_a_project_whose_finished_video_is_refused(window: MainWindow,
                                                                                      tmp_path: Path) -> None:
    # A radio drama's dialogue as a FLAC: before, New project refused it (E_NO_VIDEO_STREAM).
    make_scene(tmp_path / "drama.flac", ["libri_1688_a", "libri_3080_a"])
    dialog = window.video.new_from_video()
    dialog.set_video(tmp_path / "drama.flac")
    assert dialog.info is not None and not dialog.info.has_picture and dialog.problem.text() == ""
    assert dialog.facts.text().startswith("No picture: a recording · 0:18 · 1 audio")
    dialog.subtitles.setCurrentIndex(dialog.subtitles.findData(TRANSCRIBE))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert window.document is not None and window.timeline is not None
    project = window.document.project
    assert project.video is not None and not project.video.has_picture and project.guide_audio
    assert [c.name for c in project.characters] == ["Speaker 1", "Speaker 2"] and len(project.lines) == 2
    assert window.timeline.preview._message.startswith("No picture: drama.flac is a recording")
    panel = window.characters
    assert panel is not None
    panel.select(project.characters[1].id)
    chooser = panel.choose_from_video()  # the recording's own speech, as from a video
    assert isinstance(chooser, ChooseFromVideoDialog) and chooser.table.rowCount() >= 1
    chooser.reject()
    refused: list[str] = []
    window.exports.failed.connect(lambda _kind, message: refused.append(message))
    window.export("video")
    assert len(refused) == 1 and refused[0].startswith("E_NO_VIDEO_STREAM: the project has no picture")
    assert window.exports.options_dialog is None  # nothing asked: there is no video to make


def test_voices_cast_from_the_library_when_transcribing_are_news_not_warnings(window: MainWindow,
                                                                               tmp_path: Path) -> None:
    # Episode 2 of a series whose episode 1 was saved to the cast library. Before, every outcome,
    # "Speaker 2 is Ben from the cast library (…, sure)" too, was a ⚠ warning, and the badge said
    # there was something to fix after casting that went right.
    episode(tmp_path / "episode-1", {"Ben": "libri_1688_a"})
    assert window.open_project(tmp_path / "episode-1")
    CastController.of(window).save_to_library(tmp_path / "cast")
    make_scene(tmp_path / "episode-2.flac", ["libri_3080_a", "libri_1688_b"])
    create_project(window, tmp_path / "episode-2.flac", NO_SUBTITLES)
    assert window.document is not None
    transcribe = window.video.transcribe_dialogue()
    assert transcribe is not None
    transcribe.library.setText(str(tmp_path / "cast"))
    transcribe.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert sorted(c.name for c in window.document.project.characters)[0] == "Ben"
    notes = window.messages.notifications.notifications
    cast = [n for n in notes if "Ben from the cast library speaks here" in n.text()]
    new = [n for n in notes if "is a new voice" in n.text()]
    assert len(cast) == 1 and len(new) == 1, [n.text() for n in notes]
    assert cast[0].level == Level.INFO and new[0].level == Level.INFO

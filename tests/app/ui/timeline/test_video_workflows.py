"""The studio's video workflows in the real window (offscreen, no engine needed): the timeline
under the script with a shared selection, a new project from a video, the gaps after an import,
sorting by time, the Fit column, project settings, and the video export with progress and cancel.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import av
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialogButtonBox, QProgressBar, QPushButton
from pytestqt.qtbot import QtBot

from app.project import EditLine, Fit, MoveLines, Project, Take, voice_gaps
from app.ui.engine.bridge import EngineBridge
from app.ui.playback.player import NullOutput
from app.ui.script.gaps_dialog import CHARACTER_ROLE, LINE_ROLE, VoiceGapsDialog
from app.ui.script.lines_model import Column
from app.ui.settings.project_dialog import ProjectSettingsDialog
from app.ui.settings.store import Settings
from app.ui.tasks import STEPS, Operation, QueryOp, SyncTaskRunner, ThreadTaskRunner
from app.ui.timeline.video_dialogs import NO_SUBTITLES, NewFromVideoDialog
from app.ui.window.export_controller import ExportController
from app.ui.window.main_window import MainWindow
from tests.app.project.media_fixtures import make_video
from tests.app.ui.paths import ARTIFACTS

SRT = (
    "1\n00:00:04,000 --> 00:00:05,500\nNell: The tide is turning.\n\n"
    "2\n00:00:00,500 --> 00:00:02,000\n[Maya] Look over there.\n\n"
    "3\n00:00:02,500 --> 00:00:03,500\nSomebody shouts from the pier.\n"
)


@pytest.fixture
def window(qtbot: QtBot, settings: Settings, sync_runner: SyncTaskRunner, null_output: NullOutput,
           tmp_path: Path) -> Iterator[MainWindow]:
    """The studio with an engine that is never started: nothing here renders."""
    win = MainWindow(settings, sync_runner, null_output, bridge=EngineBridge(), projects_dir=tmp_path / "projects")
    qtbot.addWidget(win)
    yield win
    win.close()


def test_the_timeline_sits_under_the_script_and_they_share_the_selection(
    qtbot: QtBot, window: MainWindow, project_dir: Path
) -> None:
    assert window.open_project(project_dir)
    script, timeline = window.script, window.timeline
    assert script is not None and timeline is not None
    assert window.tabs.tabText(0) == "Script" and window.tabs.widget(0).isAncestorOf(timeline)
    assert [a.text() for a in window.menus["playback/timeline"].actions()][:2] == ["Play / pause", "Shuttle backwards"]
    # table → timeline
    script.select_lines(["l2", "l4"])
    assert timeline.canvas.selected == ["l2", "l4"]
    # timeline → table (a click on a clip selects only that line, in the table too)
    window.resize(1200, 760)
    window.show()
    qtbot.waitExposed(window)
    qtbot.mouseClick(timeline.canvas, Qt.MouseButton.LeftButton, pos=timeline.canvas.clip_rect("l5").center().toPoint())
    assert script.selected_line_ids() == ["l5"] and script.current_line_id() == "l5"
    assert timeline.canvas.selected == ["l5"]
    # a click on empty track space clears both
    empty = QPoint(int(timeline.canvas.x_of(11.8)), int(timeline.canvas.clip_rect("l0").center().y()))
    qtbot.mouseClick(timeline.canvas, Qt.MouseButton.LeftButton, pos=empty)
    assert timeline.canvas.selected == [] and script.table.selectionModel().selectedRows() == []
    ARTIFACTS.mkdir(exist_ok=True)
    script.select_lines(["l3"])
    timeline.seek(6.5)
    qtbot.waitUntil(lambda: timeline.preview.frame_time is not None and abs(timeline.preview.frame_time - 6.5) < 0.04)
    assert window.grab().save(str(ARTIFACTS / "timeline-window.png"))


def test_new_project_from_a_video_with_subtitles_lists_the_gaps_at_once(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    video = make_video(tmp_path / "scene.mkv", seconds=6.0, subtitles_srt=SRT)
    dialog = window.video.new_from_video()
    assert isinstance(dialog, NewFromVideoDialog)
    dialog.set_video(video)  # probed at once with the inline runner
    assert "160×96" in dialog.facts.text() and "1 subtitle stream" in dialog.facts.text()
    assert dialog.subtitles.currentText().startswith("The video's subtitle stream #")
    assert dialog.guide.isChecked() and dialog.title.text() == "scene"
    assert dialog.folder.text() == str(window.projects_dir / "scene")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

    assert window.document is not None and window.timeline is not None
    project = window.document.project
    assert project.video is not None and project.guide_audio == "media/guide.flac"
    assert [line.start for line in project.lines] == [0.5, 2.5, 4.0]  # time order, not file order
    assert [t.label for t in window.timeline.canvas.tracks] == ["Original audio", "Maya", "Nell", "No character"]
    gaps = window.video.dialog
    assert isinstance(gaps, VoiceGapsDialog) and gaps.isVisible()
    items = [gaps.list.item(n) for n in range(gaps.list.count())]
    texts = [item.text() for item in items]
    assert any("'Maya' has no reference clip" in t for t in texts)
    assert any("'Nell' has no reference clip" in t for t in texts)
    assert any(t.startswith("Line 2 has no character") for t in texts)
    # The same list lasts in Messages (issue 21)
    kept = window.messages.notifications.notifications[0]
    assert "3 things to fix before rendering" in kept.headline and "'Nell' has no reference clip" in kept.headline
    # Each entry goes to what needs fixing, and the list steps aside (it stayed on top of the editor)
    line_item = next(item for item in items if item.data(LINE_ROLE))
    gaps.list.itemDoubleClicked.emit(line_item)
    assert window.script is not None and window.script.current_line_id() == project.lines[1].id
    assert not gaps.isVisible()
    gaps = window.video.show_gaps(voice_gaps(project), "Checking")
    assert gaps is not None
    character_item = next(gaps.list.item(n) for n in range(gaps.list.count()) if gaps.list.item(n).data(CHARACTER_ROLE))
    gaps.list.itemDoubleClicked.emit(character_item)
    assert window.tabs.currentWidget() is window.characters and not gaps.isVisible()
    assert window.characters is not None and window.characters.current_id == character_item.data(CHARACTER_ROLE)


def test_new_from_video_picks_the_srt_beside_it_and_previews_the_script(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QFileDialog

    folder = tmp_path / "footage"
    folder.mkdir()
    video = make_video(folder / "scene.mp4", seconds=6.0)
    (folder / "scene.SRT").write_text(SRT, encoding="utf-8")
    dialog = window.video.new_from_video()
    dialog.set_video(video)
    assert dialog.subtitles.currentData() == "srt" and dialog.srt.text() == str(folder / "scene.SRT")
    preview = dialog.preview.text().splitlines()
    assert preview[0] == "3 lines, 2 characters: Maya (1), Nell (1), no character (1)"
    assert preview[1].startswith("0:00.500 ") and len(preview) == 4  # the first lines, in the one time format
    asked: list[str] = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda _p, _t, start, _f: (asked.append(start), ("", ""))[1])
    dialog.choose_srt.click()
    assert asked == [str(folder)]  # the subtitles dialog opens in the video's folder
    dialog.reject()


def test_new_from_video_without_subtitles_says_why_create_waits(window: MainWindow, tmp_path: Path) -> None:
    """A video alone: "Script from" offers a subtitle file first and Create project stayed greyed
    out, with nothing to say why or what else to choose."""
    video = make_video(tmp_path / "scene.mp4", seconds=2.0)
    dialog = window.video.new_from_video()
    dialog.set_video(video)
    create = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert dialog.subtitles.currentData() == "srt" and not create.isEnabled()
    assert dialog.preview.text().startswith("Choose the subtitle file, or take the script from elsewhere")
    dialog.subtitles.setCurrentIndex(dialog.subtitles.findData("transcribe"))
    assert create.isEnabled() and dialog.preview.text() == ""
    dialog.reject()


def test_new_project_from_a_recording_transcribes_its_dialogue_unless_subtitles_sit_beside_it(
        window: MainWindow, tmp_path: Path) -> None:
    # A podcast's FLAC: before, "Script from" offered a subtitle file first, as for a video, and
    # Create project waited for a file a recording rarely comes with.
    import shutil

    speech = Path(__file__).resolve().parents[3] / "data" / "hearing" / "libri_1688_a.flac"
    recording = shutil.copy(speech, tmp_path / "episode.flac")
    dialog = window.video.new_from_video()
    dialog.set_video(recording)
    assert dialog.info is not None and not dialog.info.has_picture
    assert dialog.subtitles.currentData() == "transcribe"
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    (tmp_path / "episode.srt").write_text(SRT, encoding="utf-8")  # subtitles beside it: the script
    dialog.set_video(Path(recording).with_suffix(".flac"))
    assert dialog.subtitles.currentData() == "srt" and dialog.srt.text() == str(tmp_path / "episode.srt")
    dialog.reject()


def test_new_from_video_picks_the_ass_subtitles_beside_it_and_previews_them(window: MainWindow, tmp_path: Path) -> None:
    # Fansubs of a Chinese drama come as ASS; the dialog looked for an SRT only and read the
    # chosen file as SRT, so an .ass beside the video was neither found nor readable.
    folder = tmp_path / "footage"
    folder.mkdir()
    video = make_video(folder / "第3集.mp4", seconds=6.0)
    (folder / "第3集.ass").write_text(
        "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
        "Dialogue: 0,0:00:00.50,0:00:02.00,Default,林晓雨,0,0,0,,{\\an8}我们终于见面了……\n", encoding="utf-8")
    dialog = window.video.new_from_video()
    dialog.set_video(video)
    assert dialog.subtitles.currentData() == "srt" and dialog.srt.text() == str(folder / "第3集.ass")
    assert dialog.preview.text().splitlines()[0] == "1 line, 1 character: 林晓雨 (1)"
    dialog.reject()


def test_a_bad_video_is_refused_with_its_code(window: MainWindow, tmp_path: Path) -> None:
    not_video = tmp_path / "notes.mp4"
    not_video.write_text("not a video", encoding="utf-8")
    dialog = window.video.new_from_video()
    dialog.set_video(not_video)
    assert "E_VIDEO_UNREADABLE" in dialog.problem.text()
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    assert window.document is None


def test_an_import_says_at_once_what_cannot_render(window: MainWindow, tmp_path: Path) -> None:
    assert window.open_sample()
    srt = tmp_path / "more.srt"
    srt.write_text("1\n00:01:00,000 --> 00:01:02,000\nNell: Late arrival.\n\n"
                   "2\n00:01:03,000 --> 00:01:04,000\nNo speaker here.\n", encoding="utf-8")
    assert window.session.import_file(srt, "srt")
    gaps = window.video.dialog
    assert isinstance(gaps, VoiceGapsDialog)
    texts = [gaps.list.item(n).text() for n in range(gaps.list.count())]
    assert len(texts) == 2 and "'Nell' has no reference clip; 1 line waits for it" in texts[0]
    assert "no character" in texts[1]
    assert "2 things to fix before rendering" in window.statusBar().currentMessage()


def test_the_start_header_sorts_the_script_by_time_as_one_undo_step(window: MainWindow, project_dir: Path) -> None:
    assert window.open_project(project_dir)
    document, script = window.document, window.script
    assert document is not None and script is not None
    document.push(MoveLines(["l0"], 5))  # line 1 now last in the script, first in time
    script.table.horizontalHeader().sectionClicked.emit(Column.TEXT)  # other columns do not sort
    assert document.project.lines[-1].id == "l0"
    script.table.horizontalHeader().sectionClicked.emit(Column.START)
    assert [line.id for line in document.project.lines] == [f"l{n}" for n in range(6)]
    assert window.actions_["undo"].text() == "&Undo Sort lines by start time"
    window.session.document.undo()
    assert document.project.lines[-1].id == "l0"


def test_fit_per_line_and_as_the_project_default(qtbot: QtBot, window: MainWindow, project_dir: Path) -> None:
    assert window.open_project(project_dir)
    document, script = window.document, window.script
    assert document is not None and script is not None and window.timeline is not None
    project = document.project
    model = script.model
    assert model.index(0, Column.FIT).data() == ""
    assert model.setData(model.index(0, Column.FIT), "on")
    assert project.lines[0].fit is True and model.index(0, Column.FIT).data() == "on render"
    assert window.actions_["undo"].text() == "&Undo Fit to slot"
    # A fitted take shows what was done, in the table and on its clip.
    line = project.lines[1]
    take = project.chosen_take(line)
    assert take is not None
    fitted = Take(**{**vars(take), "id": "fitted", "fit": Fit(rate=1.12, natural_s=1.5, slot_s=1.34)})
    project.add_take(line, fitted)
    document.notify_render(frozenset({line.id}))
    assert model.index(1, Column.FIT).data() == "rate 1.12×"
    assert model.index(1, Column.FIT).data(Qt.ItemDataRole.ToolTipRole).startswith("fitted: rate 1.12×")
    clip = window.timeline.canvas.clip(line.id)
    assert clip is not None and clip.fit == "fitted: rate 1.12×"
    assert "1 fitted" in window.timeline.fit_label.text()

    # Project settings: fit by default, the web loudness preset; one undo takes both back.
    dialog = window.video.edit_settings()
    assert isinstance(dialog, ProjectSettingsDialog)
    assert dialog.loudness.currentData() == "ebu-r128" and not dialog.target.isEnabled()
    dialog.fit_default.setChecked(True)
    dialog.loudness.setCurrentIndex(dialog.loudness.findData("web"))
    assert dialog.target.value() == -16.0
    dialog.accept()
    assert project.settings.fit_default and project.settings.loudness_target_lufs == -16.0
    assert model.index(2, Column.FIT).data() == "on render"  # follows the new default
    script.select_line(project.lines[-1].id)
    window.session.add_line()  # after the last line of a timed script: a slot of its own, fitted into
    added = project.lines[-1]
    assert window.session.document.push(EditLine(added.id, text="And one more thing."))
    assert added.start is not None and added.end is not None
    assert model.index(len(project.lines) - 1, Column.FIT).data() == "on render"
    # Untimed and last: an open slot, nothing to fit into.
    assert window.session.document.push(EditLine(added.id, start=None, end=None))
    assert model.index(len(project.lines) - 1, Column.FIT).data() == ""
    window.session.document.undo()
    window.session.document.undo()
    window.session.document.undo()
    window.session.document.undo()
    assert not project.settings.fit_default and project.settings.loudness_target_lufs == -23.0
    dialog = window.video.edit_settings()
    assert isinstance(dialog, ProjectSettingsDialog)
    dialog.loudness.setCurrentIndex(dialog.loudness.findData("off"))
    dialog.accept()
    assert project.settings.loudness_target_lufs is None
    dialog = window.video.edit_settings()
    assert isinstance(dialog, ProjectSettingsDialog) and dialog.command() is None  # nothing changed


def test_export_video_shows_progress_and_reports_the_loudness(qtbot: QtBot, window: MainWindow, project_dir: Path) -> None:
    assert window.open_project(project_dir)
    assert window.actions_["export_video"].isEnabled()
    window.export("video")
    options = window.exports.options_dialog
    assert options is not None and options.target.text().endswith("Timeline_scene.mp4")
    options.container.setCurrentIndex(options.container.findData("mkv"))
    options.keep_original.setChecked(True)
    options.language.setText("eng")
    progress: list[float] = []
    operations: list[Operation] = []

    def watch(operation: Operation) -> None:  # the export runs as an operation: its dialog shows the progress
        operations.append(operation)
        bar = operation.dialog.findChild(QProgressBar) if operation.dialog is not None else None
        assert bar is not None
        bar.valueChanged.connect(lambda value: progress.append(value / STEPS))

    window.runner.started.connect(watch)
    options.accept()
    out = project_dir / "exports" / "Timeline_scene.mkv"
    assert out.is_file()
    assert [operation.name for operation in operations] == ["exporting “Video”"]
    assert progress and progress == sorted(progress) and progress[-1] == 1.0
    message = window.statusBar().currentMessage()
    assert "Exported Video" in message and "LUFS" in message
    with av.open(str(out)) as container:
        assert len(container.streams.video) == 1 and len(container.streams.audio) == 2
        assert container.streams.audio[0].metadata.get("language") == "eng"
    assert operations[0].dialog is None and window.runner.busy is None  # closed when done
    assert window.actions_["export_video"].isEnabled()


def test_cancelling_a_video_export_writes_nothing(qtbot: QtBot, window: MainWindow, project_dir: Path) -> None:
    project = Project.load(project_dir)
    runner = ThreadTaskRunner()
    operations: list[Operation] = []
    runner.started.connect(operations.append)
    controller = ExportController(runner, window)
    with qtbot.waitSignal(controller.cancelled, timeout=60_000) as cancelled:
        assert controller.start(project, "video")
        dialog = operations[0].dialog
        assert dialog is not None and dialog.isVisible() and runner.busy == "exporting “Video”"
        assert not controller.start(project, "mix")  # one export at a time
        cancel = dialog.findChild(QPushButton)
        assert cancel is not None and cancel.text() == "Cancel"
        cancel.click()
        assert "Cancelling" in dialog.labelText() and dialog.isVisible()
    assert cancelled.args == ["video"] and controller.running is None and operations[0].dialog is None
    assert runner.busy is None and len(operations) == 1
    exports = project_dir / "exports"
    assert not list(exports.glob("*.mp4")) and not [p for p in exports.iterdir() if p.name.startswith(".")]


def test_while_an_operation_runs_no_project_switch_export_or_transcription_starts(
    window: MainWindow, project_dir: Path
) -> None:
    """The studio is busy with a running operation: the actions whose rule reads that are off and
    say which operation holds them; the others stay as they were, and all come back after."""
    assert window.open_project(project_dir)
    held = ("new", "new_from_video", "open", "open_sample", "set_video", "add_guide", "transcribe", "export_mix",
            "export_video")
    actions = window.actions_
    assert all(actions[name].isEnabled() for name in held) and window.menus["file/recent"].isEnabled()
    during: dict[str, tuple[bool, str]] = {}

    def work(_operation: Operation) -> None:
        during.update({name: (actions[name].isEnabled(), actions[name].toolTip()) for name in (*held, "save")})
        during["recent"] = (window.menus["file/recent"].isEnabled(), "")

    window.runner.start(QueryOp(work, name="testing the rules"))
    assert all(during[name] == (False, "Not while testing the rules") for name in held), during
    assert during["recent"][0] is False and during["save"][0] is True
    assert all(actions[name].isEnabled() for name in held) and window.menus["file/recent"].isEnabled()
    assert actions["transcribe"].toolTip().startswith("Replace the script") and actions["open"].toolTip() == "Open project folder"


def test_a_project_without_video_cannot_export_one(window: MainWindow) -> None:
    assert window.open_sample()
    assert not window.actions_["export_video"].isEnabled()
    window.export("video")
    assert "E_EXPORT" in window.statusBar().currentMessage()


def test_the_welcome_screen_makes_a_project_from_a_video_and_cancel_keeps_the_fields(
        window: MainWindow, tmp_path: Path) -> None:
    from PySide6.QtWidgets import QPushButton

    video = make_video(tmp_path / "scene.mp4", seconds=6.0)
    button = window.welcome.findChild(QPushButton, "newFromVideo")
    assert button is not None and button.text() == "New project from video…"
    button.click()
    dialog = window.video.dialog
    assert isinstance(dialog, NewFromVideoDialog) and dialog.isVisible()
    dialog.set_video(video)
    dialog.subtitles.setCurrentIndex(dialog.subtitles.findData(NO_SUBTITLES))
    dialog.title.setText("My scene")
    dialog.folder.setText(str(tmp_path / "mine"))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    assert not dialog.isVisible() and window.document is None
    again = window.video.new_from_video()  # within the session, what was filled in is still there
    assert again is dialog and again.isVisible()
    assert (again.video.text(), again.title.text(), again.folder.text()) == (str(video), "My scene",
                                                                              str(tmp_path / "mine"))
    assert again.subtitles.currentData() == NO_SUBTITLES
    again.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert window.document is not None and window.document.project.title == "My scene"
    fresh = window.video.new_from_video()  # once a project was made, the next dialog starts empty
    assert fresh is not dialog and fresh.title.text() == ""
    fresh.reject()


def test_new_from_video_asks_which_audio_track_holds_the_dialogue_when_there_are_several(
        window: MainWindow, tmp_path: Path) -> None:
    """A client's MKV with a silent French dub first and the English original second: the dialog
    offered no choice, and the guide (and a transcription) came from the dub."""
    import numpy as np
    import soundfile as sf

    plain = make_video(tmp_path / "plain.mp4", seconds=1.0)
    dialog = window.video.new_from_video()
    assert isinstance(dialog, NewFromVideoDialog)
    dialog.set_video(plain)
    assert not dialog._form.isRowVisible(dialog.dialogue)  # one track: nothing to choose
    video = make_video(tmp_path / "two.mkv", seconds=2.0, tone_hz=None, audio_tracks=(("fre", None), ("eng", 440.0)))
    dialog.set_video(video)
    dialog.folder.setText(str(tmp_path / "two"))
    assert dialog._form.isRowVisible(dialog.dialogue)
    assert [dialog.dialogue.itemText(n) for n in range(2)] == ["Audio stream #1 (fre, aac)", "Audio stream #2 (eng, aac)"]
    dialog.dialogue.setCurrentIndex(1)
    dialog.subtitles.setCurrentIndex(dialog.subtitles.findData(NO_SUBTITLES))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert window.document is not None
    project = window.document.project
    assert project.video is not None and project.video.dialogue_stream == 2
    guide, _rate = sf.read(str(project.resolve(project.guide_audio or "")))
    assert float(np.sqrt(np.mean(np.square(guide)))) > 0.1  # the English original, not the silent dub


def test_set_video_asks_which_audio_track_holds_the_dialogue_when_there_are_several(
        window: MainWindow, project_dir: Path, tmp_path: Path) -> None:
    """Project › Set video… with a client's MKV holding a silent French dub first and the English
    original second always took the first: the guide was the silent dub. It asks now, offering
    the track tagged with the project's language first."""
    import numpy as np
    import soundfile as sf

    from app.ui.timeline.video_dialogs import DialogueTrackDialog

    assert window.open_project(project_dir) and window.document is not None
    project = window.document.project
    project.language = "en"
    video = make_video(tmp_path / "two.mkv", seconds=2.0, tone_hz=None, audio_tracks=(("fre", None), ("deu", 440.0)))
    window.video.set_video(video)
    dialog = window.video.dialog
    assert isinstance(dialog, DialogueTrackDialog)
    assert not (project.root / "media" / "two.mkv").exists()  # nothing copied before the choice
    assert [dialog.tracks.itemText(n) for n in range(2)] == ["Audio stream #1 (fre, aac)", "Audio stream #2 (deu, aac)"]
    assert dialog.tracks.currentIndex() == 0  # no track tagged English: the first
    dialog.tracks.setCurrentIndex(1)
    dialog.accept()
    assert project.video is not None and project.video.dialogue_stream == 2
    guide, _rate = sf.read(str(project.resolve(project.guide_audio or "")))
    assert float(np.sqrt(np.mean(np.square(guide)))) > 0.1  # the German original, not the silent dub

    project.language = "de"  # the track tagged with the project's language is offered first
    window.video.set_video(video)
    again = window.video.dialog
    assert isinstance(again, DialogueTrackDialog) and again is not dialog and again.tracks.currentData() == 2
    again.reject()  # nothing changes
    assert project.video.dialogue_stream == 2


def test_set_video_takes_a_recording_with_no_picture(window: MainWindow, tmp_path: Path) -> None:
    """Project › Set video… refused a recording (a radio drama's dialogue, a podcast), telling the
    user to run `dubstudio new --audio`: a project made from a video could never dub one. It is
    the project's source now, its sound the guide, the preview saying there is no picture."""
    import shutil

    assert window.open_sample()
    recording = shutil.copy(Path(__file__).resolve().parents[3] / "data" / "hearing" / "libri_1688_a.flac",
                            tmp_path / "radio drama.flac")
    window.video.set_video(Path(recording))
    project = window.document.project if window.document else None
    assert project is not None and project.video is not None, window.statusBar().currentMessage()
    assert not project.video.has_picture and project.video.duration_s > 5
    assert project.guide_audio is not None and (project.root / project.guide_audio).is_file()
    assert window.timeline is not None and window.timeline.preview._message.startswith("No picture: radio_drama.flac")

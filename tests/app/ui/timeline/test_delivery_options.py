"""The studio's delivery options (issue 33): subtitles burned into the exported picture, from the
video's dialog and from Export all's, and the client's M&E stem from the Project menu."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import av
import numpy as np
import pytest
import soundfile as sf
from pytestqt.qtbot import QtBot

from app.project.music_effects import STEM_FILE
from app.ui.engine.bridge import EngineBridge
from app.ui.language import shown_message
from app.ui.playback.player import NullOutput
from app.ui.settings.store import Settings
from app.ui.tasks import SyncTaskRunner
from app.ui.window.main_window import MainWindow
from engine.core.audio_io import read_audio
from tests.app.project.conftest import VOICES

SCENE = (4, 8.0)  # the scene's lines and seconds (tests/app/ui/timeline/conftest.py): a short one


@pytest.fixture
def window(qtbot: QtBot, settings: Settings, sync_runner: SyncTaskRunner, null_output: NullOutput,
           tmp_path: Path, project_dir: Path) -> Iterator[MainWindow]:
    """The studio with the project open and an engine that is never started: nothing renders."""
    win = MainWindow(settings, sync_runner, null_output, bridge=EngineBridge(), projects_dir=tmp_path / "projects")
    qtbot.addWidget(win)
    assert win.open_project(project_dir)
    yield win


def text_in_bottom_half(video: Path, source: Path, seconds: float) -> int:
    """How many pixels of the bottom half of ``video`` differ from ``source`` at ``seconds``."""
    pictures = []
    for path in (source, video):
        with av.open(str(path)) as container:
            pictures.append(next(frame.to_ndarray(format="gray") for frame in container.decode(video=0)
                                 if frame.time is not None and frame.time >= seconds))
    change = np.abs(pictures[1].astype(int) - pictures[0].astype(int))
    return int((change[change.shape[0] // 2:] > 64).sum())


def first_line(window: MainWindow) -> tuple[Path, float]:
    """The open project's source video and a time inside its first line."""
    assert window.session is not None
    project = window.session.project
    source, start = project.video_path(), project.lines[0].start
    assert source is not None and start is not None
    return source, start + 0.3


def test_the_video_dialog_burns_the_subtitles_and_says_what_it_costs(window: MainWindow, project_dir: Path) -> None:
    window.export("video")
    options = window.exports.options_dialog
    assert options is not None and options.burn.currentData() == ""
    assert not options.burn_cost.isVisibleTo(options)
    assert options.burn.findData("source") == -1  # the script is not translated: only the dub's text
    options.burn.setCurrentIndex(options.burn.findData("target"))
    assert options.burn_cost.isVisibleTo(options) and "5–20×" in options.burn_cost.text()
    assert options.problem.text() == "" and options.options().burn_subtitles == "target"
    options.accept()
    out = project_dir / "exports" / "Timeline_scene.mp4"
    assert "Exported Video" in window.statusBar().currentMessage()
    assert text_in_bottom_half(out, *first_line(window)) > 50


def test_export_all_asks_for_the_video_options_then_the_folder(
        window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["", str(tmp_path / "client")])  # first the folder dialog is cancelled, then a folder chosen
    (tmp_path / "client").mkdir()
    monkeypatch.setattr(window.folders, "folder", lambda *_args: next(answers))
    for _ in range(2):
        window.export("all")
        options = window.exports.options_dialog
        assert options is not None and options.windowTitle() == "Export all: the video"
        assert "delivery folder you choose next" in options.target.text()
        options.burn.setCurrentIndex(options.burn.findData("target"))
        options.accept()
    assert [p.name for p in (tmp_path / "client").iterdir()] == ["Timeline_scene delivery"]  # once: the first was cancelled
    delivered = tmp_path / "client" / "Timeline_scene delivery" / "Timeline_scene.mp4"
    assert text_in_bottom_half(delivered, *first_line(window)) > 50


def test_the_client_stem_is_checked_then_put_under_the_dub_undoably(
        qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    session = window.session
    assert session is not None and session.project.video is not None
    assert window.actions_["import_music_effects"].isEnabled()
    voice, _ = read_audio(VOICES / "rex.wav", 48_000)
    errors: list[str] = []
    window.video.error.disconnect()  # a dialog would open; the message is what is checked
    window.video.error.connect(lambda _title, message: errors.append(message))
    short = tmp_path / "short.wav"
    sf.write(str(short), np.stack([voice[:48_000], voice[:48_000]], axis=1), 48_000)
    window.video.import_music_effects(short)
    assert len(errors) == 1 and errors[0].startswith("E_STEM_MISMATCH: the stem short.wav lasts 1.00 s")
    # headed as what it is (it was E_TIME_RANGE's "That time is out of range.")
    assert shown_message(errors[0]).startswith("The music-and-effects stem does not fit this video.")
    assert session.project.settings.guide_mix == "replace"
    stem = tmp_path / "client_me.wav"
    length = int(round(session.project.video.duration_s * 48_000))
    bed = 0.05 * np.resize(voice, length)
    sf.write(str(stem), np.stack([bed, bed[::-1]], axis=1), 48_000, subtype="FLOAT")
    window.video.import_music_effects(stem)
    assert session.project.settings.guide_mix == "music-effects" and (session.project.root / STEM_FILE).is_file()
    assert "M&E: client stem client_me.wav" in window.statusBar().currentMessage()
    window.export("mix")
    assert "M&E: client stem" in window.statusBar().currentMessage()

    # Project › Remove the M&E stem: out of the mix in one undo step, the file kept aside.
    window.update_actions()
    remove = window.actions_["remove_music_effects"]
    assert remove.isEnabled()
    remove.trigger()
    assert session.project.settings.guide_mix == "replace" and not (session.project.root / STEM_FILE).exists()
    assert window.statusBar().currentMessage() == "The M&E stem is out of the mix; Undo brings it back"
    assert not remove.isEnabled()
    session.document.undo()
    assert session.project.settings.guide_mix == "music-effects" and (session.project.root / STEM_FILE).is_file()
    assert remove.isEnabled()
    session.document.undo()
    assert session.project.settings.guide_mix == "replace"


def test_an_export_of_the_takes_refuses_a_script_without_any_before_asking_anything(
        idle_window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """Export all asked for the video's options and the folder, then said "nothing to mix"; now it
    says at once that nothing is rendered and what to do."""
    asked: list[str] = []
    monkeypatch.setattr(idle_window.folders, "folder", lambda *_args: asked.append("folder") or "")
    errors: list[str] = []
    idle_window.exports.failed.connect(lambda _kind, message: errors.append(message))
    idle_window.export("all")
    assert asked == [] and idle_window.exports.options_dialog is None and idle_window.runner.busy is None
    assert len(errors) == 1 and errors[0].startswith("E_EXPORT: no line has a rendered take yet; render the lines "
                                                     "first (Render › Render all)"), errors
    session = idle_window.session
    assert session is not None and not idle_window.exports.refuses(session.project, "srt")  # the script as text

"""A stretch dragged over the timeline's original-audio track becomes a character's voice clip
(offscreen, inline tasks, a project transcribed from real LibriSpeech speech by the real Whisper
base and CAM++): the menu offers it per character, the clip is cut with its purity, one undo
takes it back; a region too short for a clip is offered disabled, saying why."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from app.project.transcription import AUTO_CLIP
from app.ui.window.main_window import MainWindow
from engine.hearing.clips import MIN_PURITY
from tests.app.conftest import TranscribedScene
from tests.app.ui.timeline.test_video_workflows import window  # noqa: F401 - the fixture (pytest passes it by name)
from tests.engine.hearing.scenes import voice_at


def _guide_y(window: MainWindow) -> int:
    """A height on the original-audio track."""
    assert window.timeline is not None
    canvas = window.timeline.canvas
    return int(canvas.track_top(next(index for index, track in enumerate(canvas.tracks) if track.guide)) + 5)


def _drag(qtbot: QtBot, window: MainWindow, start: float, end: float) -> None:
    assert window.timeline is not None
    canvas, y = window.timeline.canvas, _guide_y(window)
    qtbot.mousePress(canvas, Qt.MouseButton.LeftButton, pos=QPoint(int(canvas.x_of(start)), y))
    qtbot.mouseMove(canvas, QPoint(int(canvas.x_of(end)), y))
    qtbot.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=QPoint(int(canvas.x_of(end)), y))


def test_a_region_of_the_original_audio_becomes_a_character_s_clip(qtbot: QtBot, window: MainWindow, tmp_path: Path,
                                                                    transcribed_scene: TranscribedScene) -> None:
    turns = transcribed_scene(["libri_1688_a", "libri_3080_a", "libri_1688_b"], tmp_path, "scene.mp4")
    assert window.open_project(tmp_path / "p")
    window.resize(1200, 760)
    window.show()
    qtbot.waitExposed(window)
    assert window.document is not None and window.timeline is not None and window.characters is not None
    project = window.document.project
    anna = next(c for c in project.characters
                if {voice_at(turns, line.start or 0.0, line.end or 0.0) for line in project.lines_of(c.id)}
                == {"libri_3080_a"})
    before = anna.clip
    assert before is not None and AUTO_CLIP.fullmatch(before)

    _drag(qtbot, window, turns[1].start + 0.3, turns[1].end - 0.3)
    region = window.timeline.canvas.region
    assert region is not None and abs(region[0] - (turns[1].start + 0.3)) < 0.2
    menu = window.timeline.guide_menu()
    use = menu.findChild(QMenu, "useRegion")
    assert use is not None and use.isEnabled()
    names = [action.text() for action in use.actions()]
    assert names == [c.name for c in project.characters]
    next(a for a in use.actions() if a.objectName() == f"useRegion:{anna.id}").trigger()
    assert anna.clip != before and anna.clip is not None and anna.clip.startswith("voices/")
    assert anna.clip_purity is not None and anna.clip_purity >= MIN_PURITY
    panel = window.characters
    assert panel.current_id == anna.id and abs(panel.waveform.duration - (region[1] - region[0])) < 0.1
    assert "Purity" in panel.clip_quality.text() and "⚠" not in panel.clip_quality.text()
    window.document.undo()
    assert anna.clip == before

    _drag(qtbot, window, turns[1].start + 0.3, turns[1].start + 1.3)  # one second: too short for a clip
    short = window.timeline.guide_menu().findChild(QMenu, "useRegion")
    assert short is not None and not short.isEnabled() and "2 to 15 s" in short.menuAction().toolTip()
    qtbot.mouseClick(window.timeline.canvas, Qt.MouseButton.LeftButton,
                     pos=QPoint(int(window.timeline.canvas.x_of(2.0)), _guide_y(window)))
    assert window.timeline.canvas.region is None  # a click only moves the playhead

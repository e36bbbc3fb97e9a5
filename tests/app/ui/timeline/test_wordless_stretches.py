"""Speech the transcription heard no words in, on the timeline (issue 32; offscreen, the real
window, a video of real speech): each stretch is drawn hatched on the original-audio track with
a tooltip naming the character it sounds like, and the track's menu on it adds a line there,
ready to type, that one undo takes back.

The stretch is written into media/transcript.json as the transcription writes it (real speech
that Whisper still gives no words could not be made on demand; see
tests/app/project/test_project_transcription_wordless.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QPlainTextEdit
from pytestqt.qtbot import QtBot

from app.cli import main as cli_main
from app.project import Line, Project
from app.project.model import PALETTE
from app.project.transcription import (
    WrittenFiles,
    _write_candidates,
    wordless_stretches,
)
from app.ui.timeline.canvas import wordless_tooltip
from app.ui.window.main_window import MainWindow
from engine.hearing.transcribe import Transcription
from engine.hearing.unheard import Unheard
from tests.app.ui.timeline.test_video_workflows import window  # noqa: F401 - the fixture (pytest passes it by name)
from tests.engine.hearing.scenes import make_scene


def scene_with_a_wordless_turn(folder: Path) -> tuple[Project, float, float]:
    """Maya, Rex, Maya (real voices) with the original as the guide track; Maya's turns are lines
    and Rex's turn is speech the transcription heard no words in, like his: (project, its start, end)."""
    turns = make_scene(folder / "scene.mp4", ["maya", "rex", "maya"])
    assert cli_main(["new", str(folder / "p"), "--video", str(folder / "scene.mp4"), "--guide"]) == 0
    project = Project.load(folder / "p")
    maya, rex = project.make_character("Maya", colour=PALETTE[0]), project.make_character("Rex", colour=PALETTE[1])
    project.characters += [maya, rex]
    project.lines = [Line(id=f"l{n}", text=turn.text, character_id=maya.id, start=round(turn.start, 3),
                          end=round(turn.end, 3)) for n, turn in enumerate(turns) if turn.voice == "maya"]
    project.save()
    heard = Transcription(turns[-1].end, "en", 0.99, [], 2, no_words=[Unheard(turns[1].start, turns[1].end, 1)])
    _write_candidates(project, heard, [maya, rex], WrittenFiles(project.root))
    return project, round(turns[1].start, 3), round(turns[1].end, 3)  # as the file keeps them


def test_a_wordless_stretch_is_drawn_and_its_menu_adds_a_line_there(qtbot: QtBot, window: MainWindow,
                                                                      tmp_path: Path) -> None:
    _, start, end = scene_with_a_wordless_turn(tmp_path)
    assert window.open_project(tmp_path / "p")
    window.resize(1200, 760)
    window.show()
    qtbot.waitExposed(window)
    timeline, document = window.timeline, window.document
    assert timeline is not None and document is not None and window.script is not None
    canvas = timeline.canvas
    project = document.project
    rex = project.character_by_name("Rex")
    assert rex is not None
    (stretch,) = canvas.wordless
    assert (stretch.start, stretch.end, stretch.character_id, stretch.name) == (start, end, rex.id, "Rex")
    assert wordless_tooltip(stretch).startswith("Speech with no words heard (≈ Rex)")

    # Drawn: the middle of the stretch on the original-audio track has its colour, hatched.
    guide = next(index for index, track in enumerate(canvas.tracks) if track.guide)
    rect = canvas.wordless_rect(stretch, guide)
    assert canvas.wordless_at(rect.center()) == stretch
    assert canvas.wordless_at(QPointF(canvas.x_of(start - 1.0), rect.center().y())) is None
    image: QImage = canvas.grab().toImage()
    row = int(rect.top() + 3)

    def colours(left: float, right: float) -> list[str]:
        return [image.pixelColor(int(x), row).name() for x in np.linspace(left, right, 60)]

    inside, before = colours(rect.left() + 4, rect.right() - 4), colours(canvas.x_of(0.5), rect.left() - 4)
    assert inside.count(rex.colour.lower()) >= 5  # the hatch lines, in Rex's colour
    assert len(set(inside)) >= 2  # over a tint: lines and the space between them
    assert rex.colour.lower() not in before  # Maya's turn before it is not marked
    menu = timeline.guide_menu((start + end) / 2)
    add = next(action for action in menu.actions() if action.objectName() == "addWordlessLine")
    assert add.text() == "Add a line here" and add.isEnabled()
    assert not any(a.objectName() == "addWordlessLine" for a in timeline.guide_menu(start - 1.0).actions())
    add.trigger()
    QApplication.processEvents()
    added = next(line for line in project.lines if line.character_id == rex.id)
    assert (added.start, added.end, added.text) == (start, end, "")
    assert [line.start for line in project.lines] == sorted(line.start or 0.0 for line in project.lines)
    assert window.script.current_line_id() == added.id
    assert canvas.wordless == [] and wordless_stretches(project) == []  # the line covers it now
    table = window.script.table
    editor = table.indexWidget(table.currentIndex())
    assert isinstance(editor, QPlainTextEdit)  # its text is open to type in
    editor.insertPlainText("Listen to me carefully.")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert added.text == "Listen to me carefully."
    document.undo()
    document.undo()
    assert all(line.character_id != rex.id for line in project.lines)
    assert [s.start for s in canvas.wordless] == [start]

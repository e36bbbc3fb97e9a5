"""A line added with Ctrl+Return to a timed script gets timecodes its Start and End cells show,
where the timeline draws its slot (issue 34: the cells stayed empty while the timeline showed one)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.project.timecode import format_clock
from app.ui.script.lines_model import Column
from app.ui.window.main_window import MainWindow


def _cell(window: MainWindow, line_id: str, column: Column) -> str:
    assert window.script is not None
    model = window.script.model
    return str(model.data(model.index(model.row_of(line_id), column), Qt.ItemDataRole.DisplayRole) or "")


def test_a_line_added_with_ctrl_return_shows_its_slot_in_start_and_end(qtbot: QtBot, idle_window: MainWindow) -> None:
    window = idle_window
    assert window.document is not None and window.script is not None and window.timeline is not None
    project = window.document.project
    second, third = project.lines[1], project.lines[2]  # 0:04.600-0:10.600, then 0:11.000
    assert second.end is not None and third.start is not None
    window.script.select_line(second.id)
    count = len(project.lines)
    qtbot.keyClick(window.script.table, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert len(project.lines) == count + 1
    added = project.lines[2]
    assert added.text == "" and added.character_id == second.character_id
    # 0.4 s of silence, too little for the gaps on both sides: the new line takes all of it.
    assert (added.start, added.end) == (second.end, third.start)
    start_cell, end_cell = _cell(window, added.id, Column.START), _cell(window, added.id, Column.END)
    assert (start_cell, end_cell) == (format_clock(added.start), format_clock(added.end))  # no longer empty
    # The timeline draws the clip exactly there.
    canvas = window.timeline.canvas
    rect = canvas.clip_rect(added.id)
    assert rect.left() == pytest.approx(canvas.x_of(added.start), abs=0.01)
    assert rect.right() == pytest.approx(canvas.x_of(added.end), abs=0.01)
    editor = window.script.table.focusWidget()  # the new line's text is being edited: leave it empty
    assert editor is not None
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    window.document.undo()  # one step takes it back
    assert len(project.lines) == count and all(line.id != added.id for line in project.lines)

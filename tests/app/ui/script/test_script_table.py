"""The script table as a dubber sees it at the default window size (issue 21): the text column
takes the spare width, a multi-line editor, a line's own speed and instruction and its fit, kept
by every render, and renders that say beforehand which lines they cover and which are too long."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from app.project import EditLine, Project
from app.project.fit import too_long
from app.project.qa import overrun_of, placements
from app.ui.engine.bridge import EngineBridge
from app.ui.script.lines_model import Column
from app.ui.settings.store import Settings
from app.ui.window.main_window import MainWindow
from app.ui.window.notifications import Level
from tests.app.ui.conftest import make_window

ENGINE_TIMEOUT_MS = 120_000


def test_the_text_column_takes_the_spare_width_at_the_default_size(qtbot: QtBot, idle_window: MainWindow) -> None:
    script = idle_window.script
    assert script is not None
    table = script.table
    widths = {column: table.columnWidth(column) for column in Column}
    others = sum(width for column, width in widths.items() if column is not Column.TEXT)
    # the Text column was about 120 px beside wide narrow ones; now it has the spare width
    assert widths[Column.TEXT] > 2.5 * max(w for c, w in widths.items() if c is not Column.TEXT)
    assert widths[Column.TEXT] >= 0.3 * table.viewport().width()
    assert widths[Column.TEXT] + others <= table.viewport().width() + 1  # no sideways scrolling
    metrics = table.fontMetrics()
    for column in Column:
        if column.sample and not table.isColumnHidden(column):  # each narrow column holds its widest usual value whole
            assert widths[column] >= metrics.horizontalAdvance(column.sample)
    # a line wraps over two lines of text instead of eliding to a few words ("Rex, did you see…")
    assert table.wordWrap() and table.rowHeight(0) >= 2 * metrics.lineSpacing()
    first = script.proxy.index(0, Column.TEXT)
    text = str(first.data())
    assert metrics.horizontalAdvance(text) > widths[Column.TEXT]  # longer than one row...
    assert metrics.horizontalAdvance(text) < 2 * (widths[Column.TEXT] - 10)  # ...and shown whole on two


def test_the_text_editor_is_multi_line_enter_keeps_shift_enter_breaks(qtbot: QtBot, idle_window: MainWindow) -> None:
    script = idle_window.script
    assert script is not None and idle_window.document is not None
    line = idle_window.document.project.lines[0]
    script.edit_line_text(line.id)
    editor = script.table.findChild(QPlainTextEdit, "lineTextEditor")
    assert editor is not None and editor.height() >= 3 * editor.fontMetrics().lineSpacing()
    editor.setPlainText("")
    editor.insertPlainText("First half")
    qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    editor.insertPlainText("second half")
    assert line.text != "First half\nsecond half"  # not kept yet
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert line.text == "First half\nsecond half"
    assert idle_window.document.stack.undo_text == "Edit text"


@pytest.fixture
def window(qtbot: QtBot, settings: Settings, tmp_path: Path, engine_bridge: EngineBridge) -> Iterator[MainWindow]:
    win = make_window(qtbot, settings, tmp_path, engine_bridge)
    yield win
    win.close()


def test_fit_is_a_line_property_every_render_keeps_and_renders_say_what_they_cover(
    qtbot: QtBot, window: MainWindow
) -> None:
    assert window.open_sample()
    doc, script, renders = window.document, window.script, window.renders
    assert doc is not None and script is not None and renders is not None
    project = doc.project
    line = project.lines[4]  # "Then we row out at first light. Together."
    script.select_line(line.id)
    with qtbot.waitSignal(renders.running_changed, timeout=ENGINE_TIMEOUT_MS, check_params_cb=lambda r: not r):
        window.actions_["render_selected"].trigger()
    assert window.messages.notifications.notifications[0].headline == "Rendering 1 line (selected), line 5"
    natural = project.duration(line)
    assert natural is not None and line.start is not None and line.fit is None

    # Render with fit: the line keeps "fit" (saved, undoable), and the render says so
    doc.push(EditLine(line.id, end=round(line.start + 0.8 * natural, 3)))
    with qtbot.waitSignal(renders.running_changed, timeout=ENGINE_TIMEOUT_MS, check_params_cb=lambda r: not r):
        window.actions_["render_fit"].trigger()
    assert line.fit is True
    assert window.messages.notifications.notifications[0].headline == "Rendering 1 line (selected): 1 fitted to its slot, line 5"
    assert doc.save()
    stored = json.loads((project.root / "project.json").read_text(encoding="utf-8"))
    assert next(entry for entry in stored["lines"] if entry["id"] == line.id)["fit"] is True
    assert Project.load(project.root).line(line.id).fit is True

    # A later Render stale (after a text edit, now about 1.5x its slot) fits it again, within the
    # total speed-up limit: inside its slot, or left over it and flagged too long with what it needs
    doc.push(EditLine(line.id, text="Then we row out at first light, all of us. Together, at last."))
    with qtbot.waitSignal(renders.running_changed, timeout=ENGINE_TIMEOUT_MS, check_params_cb=lambda r: not r):
        window.actions_["render_stale"].trigger()
    assert window.messages.notifications.notifications[0].headline.startswith("Rendering ")
    assert "(stale): 1 fitted to its slot" in window.messages.notifications.notifications[0].headline
    take = project.chosen_take(line)
    assert take is not None and take.fit is not None and take.text.startswith("Then we row out at first light, all")
    assert take.fit.rate * take.fit.stretch <= project.settings.fit_max_total * 1.01
    over = overrun_of(take, placements(project)[line.id]) or 0.0
    assert over == 0.0 or too_long(project, line) == pytest.approx(over, abs=0.01)


def test_dragging_a_line_onto_the_same_characters_line_warns(idle_window: MainWindow) -> None:
    doc, timeline = idle_window.document, idle_window.timeline
    assert doc is not None and timeline is not None
    maya = doc.project.characters[0].id
    first, second = [line for line in doc.project.lines if line.character_id == maya][:2]
    assert first.end is not None and second.start is not None
    timeline._on_drag("move", [second.id], (first.end - 1.0) - second.start)  # onto the last second of the first
    note = idle_window.messages.notifications.notifications[0]
    assert note.level is Level.WARNING
    assert "now overlaps line" in note.headline and "of the same character" in note.headline
    assert idle_window.messages.badge.text() == "⚠ 1 message"


def test_a_line_has_its_own_speed_and_instruction_over_its_characters(idle_window: MainWindow) -> None:
    from app.project import LineStatus
    from tests.app.project.conftest import add_fake_take
    from tests.app.project.media_fixtures import speech_like

    doc, script = idle_window.document, idle_window.script
    assert doc is not None and script is not None
    project = doc.project
    line = project.lines[1]
    add_fake_take(project, line, speech_like(1.0, seed=1))
    doc.notify_render(frozenset({line.id}))
    script.select_line(line.id)
    delivery = script.delivery
    assert delivery.isEnabled() and delivery.speed.value() == delivery.speed.minimum()  # the character's
    own = project.character(line.character_id).settings.speed  # type: ignore[arg-type]
    assert delivery.speed.text() == "As character" and f"({own:.2f}×)" in delivery.speed.toolTip()
    assert project.status(line) is LineStatus.DONE
    delivery.speed.setValue(1.2)
    delivery.instruction.setText("whisper")
    delivery.instruction.editingFinished.emit()
    assert (line.speed, line.instruction) == (1.2, "whisper") and doc.stack.undo_text == "Edit line"
    assert project.delivery(line).speed == 1.2 and project.status(line) is LineStatus.STALE  # heard differently
    from app.project.render import voice_spec
    assert voice_spec(project, line.character_id, line).settings.instruction == "whisper"  # type: ignore[arg-type]
    assert voice_spec(project, line.character_id).settings.instruction == ""  # type: ignore[arg-type]  # auditions
    doc.undo()
    assert line.speed is None and line.instruction is None and project.status(line) is LineStatus.DONE
    assert delivery.speed.value() == delivery.speed.minimum() and delivery.instruction.text() == ""


def test_render_selected_with_nothing_selected_says_so(idle_window: MainWindow) -> None:
    assert idle_window.script is not None
    idle_window.script.table.clearSelection()
    idle_window.script.table.setCurrentIndex(idle_window.script.proxy.index(-1, -1))
    idle_window.session.render_selected()
    assert idle_window.messages.notifications.notifications[0].headline == "Nothing to render: select the lines to render first"


def test_a_render_says_beforehand_which_lines_are_likely_too_long(idle_window: MainWindow) -> None:
    from app.ui.window.document_session import render_scope

    doc = idle_window.document
    assert doc is not None
    project = doc.project
    doc.push(EditLine(project.lines[2].id, text="A line far too long to be said in the short slot it has been given."))
    said = render_scope(project, project.lines, "all")
    assert said.startswith("Rendering 6 lines (all), lines 1, 2, 3, 4, 5, 6")
    assert said.endswith("; likely too long for its slot without fit: line 3")
    doc.push(EditLine(project.lines[2].id, fit=True))  # fitted: the render will make it fit
    assert "likely too long" not in render_scope(project, project.lines, "all")


def test_a_line_has_its_own_language_in_its_delivery_and_the_language_column(idle_window: MainWindow) -> None:
    """A Mandarin speaker's one English sentence (issue 32): set in the line's delivery, the
    Language column appears and says it; edited there with the language table's combo; undone."""
    from PySide6.QtWidgets import QComboBox

    from app.ui.script.columns import Column as Columns

    doc, script = idle_window.document, idle_window.script
    assert doc is not None and script is not None
    project = doc.project
    line = project.lines[1]
    assert script.table.isColumnHidden(Columns.LANGUAGE)  # no line has a language of its own: Text keeps the room
    script.select_line(line.id)
    combo = script.delivery.language
    # One wording for "follow the character" in the delivery and the Language column (before: "Character's" here,
    # "As character" in the column's editor, "As its character" in its tooltip).
    assert combo.isEnabled() and combo.currentData() == "" and combo.currentText() == "As character: English"
    combo.setCurrentIndex(combo.findData("zh"))
    combo.activated.emit(combo.currentIndex())
    assert line.language == "zh" and doc.stack.undo_text == "Change line language"
    assert project.spoken_language(line) == "zh" and not script.table.isColumnHidden(Columns.LANGUAGE)
    metrics = script.table.fontMetrics()
    assert script.table.columnWidth(Columns.LANGUAGE) >= metrics.horizontalAdvance(Columns.LANGUAGE.sample)
    cell = script.model.index(1, Columns.LANGUAGE)
    assert cell.data() == "Chinese (Mandarin)" and "spoken in Chinese (Mandarin)" in cell.data(Qt.ItemDataRole.ToolTipRole)
    # The column's editor: "As character" and the table's languages; choosing one is an undoable edit.
    editor = script.table.itemDelegateForColumn(Columns.LANGUAGE).createEditor(script.table.viewport(), None, cell)  # type: ignore[arg-type]
    assert isinstance(editor, QComboBox)
    assert editor.itemText(0) == "As character" and editor.findData("ja") > 0
    assert script.model.setData(cell, "ja") and line.language == "ja"
    assert script.model.setData(cell, "") and line.language is None
    assert cell.data(Qt.ItemDataRole.ToolTipRole).startswith("As character: spoken in English.")
    assert script.table.isColumnHidden(Columns.LANGUAGE) and combo.currentData() == ""
    doc.undo()
    assert line.language == "ja" and combo.currentData() == "ja"

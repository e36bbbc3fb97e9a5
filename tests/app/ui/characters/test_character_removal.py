"""Removing a character that has lines asks whether to give them to another character, remove
them too, or cancel (issue 21)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.ui.characters.character_removal import RemoveCharacterDialog
from app.ui.window.main_window import MainWindow


def test_removing_a_character_with_lines_asks_reassign_remove_or_cancel(qtbot: QtBot, idle_window: MainWindow) -> None:
    doc, panel = idle_window.document, idle_window.characters
    assert doc is not None and panel is not None
    project = doc.project
    maya, rex = project.characters
    maya_lines = [line.id for line in project.lines_of(maya.id)]
    assert maya_lines
    panel.select(maya.id)

    def dialog() -> RemoveCharacterDialog:
        found = idle_window.findChild(RemoveCharacterDialog)
        assert found is not None and found.isVisible()
        return found

    panel.remove_button.click()
    dialog().reject()  # Cancel: nothing changed
    assert [c.id for c in project.characters] == [maya.id, rex.id]
    qtbot.waitUntil(lambda: idle_window.findChild(RemoveCharacterDialog) is None)

    panel.remove_button.click()
    chosen = dialog()
    assert chosen.reassign.isChecked() and chosen.target.currentData() == rex.id
    chosen.ok.click()
    assert [c.id for c in project.characters] == [rex.id]
    assert all(project.line(i).character_id == rex.id for i in maya_lines)
    doc.undo()  # one step brings Maya back with her lines
    assert [c.id for c in project.characters] == [maya.id, rex.id]
    assert all(project.line(i).character_id == maya.id for i in maya_lines)
    qtbot.waitUntil(lambda: idle_window.findChild(RemoveCharacterDialog) is None)

    panel.select(maya.id)
    panel.remove_button.click()
    dialog().remove_lines.setChecked(True)
    dialog().ok.click()
    assert not {line.id for line in project.lines} & set(maya_lines)
    assert doc.stack.undo_text == f"Remove character {maya.name} and its lines ({len(maya_lines)})"


def test_the_question_words_one_line_and_many_by_the_catalogue(qtbot: QtBot, idle_window: MainWindow) -> None:
    """"it" or "them" comes from the catalogue's plural forms, never from English words the code
    put into a translated sentence."""
    doc = idle_window.document
    assert doc is not None
    project = doc.project
    maya, _ = project.characters
    count = len(project.lines_of(maya.id))
    assert count > 1
    many = RemoveCharacterDialog(project, maya.id)
    qtbot.addWidget(many)
    assert "What becomes of them?" in many.findChild(QLabel, "removeQuestion").text()
    assert many.remove_lines.text() == "Remove them too"
    for line in project.lines_of(maya.id)[1:]:
        project.line(line.id).character_id = None
    one = RemoveCharacterDialog(project, maya.id)
    qtbot.addWidget(one)
    assert "speaks 1 line. What becomes of it?" in one.findChild(QLabel, "removeQuestion").text()
    assert (one.remove_lines.text(), one.reassign.text(), one.unassign.text()) == (
        "Remove it too", "Give it to", "Keep it without a character (it will not render)")

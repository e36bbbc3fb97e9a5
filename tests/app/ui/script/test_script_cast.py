"""The script table's context menu fixes a transcription's cast: assign the selected lines to a
character, merge their character into another, split them off into a new one; each is one
undo step, and the menu offers only what the selection allows."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from app.project import AddCharacter, AddLines, Line, Project
from app.ui.script.script_panel import ScriptPanel
from app.ui.window.document import Document
from tests.app.ui.script.test_qa_errors import _actions


@pytest.fixture
def panel(tmp_path: Path, qtbot: QtBot) -> ScriptPanel:
    project = Project.create(tmp_path / "proj", "Cast")
    document = Document(project)
    for name in ("Speaker 1", "Speaker 2"):
        document.push(AddCharacter(project.make_character(name)))
    one, two = (c.id for c in project.characters)
    document.push(AddLines([Line(id=f"l{n}", text=f"Line {n}.", character_id=owner)
                            for n, owner in enumerate((one, two, one, one), 1)]))
    document.stack.clear()
    widget = ScriptPanel(document, _actions())
    qtbot.addWidget(widget)
    return widget


def _owners(panel: ScriptPanel) -> list[str | None]:
    project = panel._doc.project
    return [project.character(line.character_id).name if line.character_id else None for line in project.lines]


def _entry(menu: QMenu, name: str) -> QAction:
    found = menu.findChild(QMenu, name)
    action = found.menuAction() if found is not None else menu.findChild(QAction, name)
    assert action is not None, name
    return action


def _titles(menu: QMenu) -> list[str]:
    return [action.text() for action in menu.actions() if not action.isSeparator()]


def test_assign_to_character_gives_the_selected_lines_in_one_undo_step(panel: ScriptPanel) -> None:
    panel.select_lines(["l1", "l3"])
    menu = panel.context_menu()
    assign = _entry(menu, "assignToCharacter").menu()
    assert isinstance(assign, QMenu) and _titles(assign) == ["Speaker 1", "Speaker 2", "No character"]
    next(a for a in assign.actions() if a.text() == "Speaker 2").trigger()
    assert _owners(panel) == ["Speaker 2", "Speaker 2", "Speaker 2", "Speaker 1"]
    next(a for a in panel.context_menu().findChild(QMenu, "assignToCharacter").actions()
         if a.text() == "No character").trigger()
    assert _owners(panel) == [None, "Speaker 2", None, "Speaker 1"]
    panel._doc.undo()
    assert _owners(panel) == ["Speaker 2", "Speaker 2", "Speaker 2", "Speaker 1"]
    panel._doc.undo()
    assert _owners(panel) == ["Speaker 1", "Speaker 2", "Speaker 1", "Speaker 1"]


def test_merge_into_gives_all_of_the_character_s_lines_and_removes_it_undoably(panel: ScriptPanel) -> None:
    panel.select_lines(["l2"])
    merge = _entry(panel.context_menu(), "mergeInto")
    assert merge.isEnabled() and merge.text() == "Merge Speaker 2 into"
    assert _titles(merge.menu()) == ["Speaker 1"]  # not into itself
    merge.menu().actions()[0].trigger()
    assert [c.name for c in panel._doc.project.characters] == ["Speaker 1"]
    assert _owners(panel) == ["Speaker 1"] * 4
    panel._doc.undo()
    assert [c.name for c in panel._doc.project.characters] == ["Speaker 1", "Speaker 2"]
    assert _owners(panel) == ["Speaker 1", "Speaker 2", "Speaker 1", "Speaker 1"]


def test_split_selected_lines_into_a_new_character_undoably(panel: ScriptPanel) -> None:
    panel.select_lines(["l3", "l4"])
    split = _entry(panel.context_menu(), "splitSelected")
    assert split.isEnabled()
    split.trigger()
    assert [c.name for c in panel._doc.project.characters] == ["Speaker 1", "Speaker 2", "Speaker 1 2"]
    assert _owners(panel) == ["Speaker 1", "Speaker 2", "Speaker 1 2", "Speaker 1 2"]
    panel._doc.undo()
    assert [c.name for c in panel._doc.project.characters] == ["Speaker 1", "Speaker 2"]
    assert _owners(panel) == ["Speaker 1", "Speaker 2", "Speaker 1", "Speaker 1"]


def test_merge_and_split_need_the_selected_lines_to_be_one_character_s(panel: ScriptPanel) -> None:
    panel.select_lines(["l1", "l2"])  # two characters: which would be merged or split is unclear
    menu = panel.context_menu()
    assert not _entry(menu, "mergeInto").isEnabled() and not _entry(menu, "splitSelected").isEnabled()
    assert _entry(menu, "assignToCharacter").isEnabled()
    assert not panel.split_selected() and not panel.merge_selected_into(panel._doc.project.characters[0].id)
    assert not panel._doc.stack.can_undo  # nothing was done
    assert _owners(panel) == ["Speaker 1", "Speaker 2", "Speaker 1", "Speaker 1"]

"""Removing a character that has lines: ask first what becomes of them.

A character's lines would otherwise silently lose their voice. The dialog offers to give them
to another character, to remove them with it, or to cancel; whichever is chosen is one undoable
step (:func:`removal_command`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.project import (
    AssignCharacter,
    Command,
    Macro,
    Project,
    RemoveCharacter,
    RemoveLines,
)
from app.ui.language import fill


class LinesFate(enum.Enum):
    """What happens to a removed character's lines."""

    REASSIGN = "reassign"  # to another character
    REMOVE = "remove"  # with the character
    UNASSIGN = "unassign"  # kept, without a character (the only choice when no other exists)


def removal_command(project: Project, character_id: str, fate: LinesFate, to: str | None = None) -> Command:
    """Remove the character, and deal with its lines as ``fate`` says, as one undoable step."""
    name = project.character(character_id).name
    lines = [line.id for line in project.lines_of(character_id)]
    remove = RemoveCharacter(character_id)
    if not lines or fate is LinesFate.UNASSIGN:
        return Macro([remove], fill(QCoreApplication.translate("RemoveCharacterDialog", "Remove character {name}"), name=name))
    if fate is LinesFate.REMOVE:
        return Macro([RemoveLines(lines), remove], fill(QCoreApplication.translate(
            "RemoveCharacterDialog", "Remove character {name} and its lines ({count})"), name=name, count=len(lines)))
    if to is None:
        raise ValueError("reassigning needs the character to give the lines to")
    other = project.character(to).name
    return Macro([AssignCharacter(lines, to), remove], fill(QCoreApplication.translate(
        "RemoveCharacterDialog", "Remove character {name}, its lines to {other}"), name=name, other=other))


class RemoveCharacterDialog(QDialog):
    """Asks what becomes of the lines of a character about to be removed."""

    def __init__(self, project: Project, character_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("removeCharacterDialog")
        self._project = project
        self._character_id = character_id
        char = project.character(character_id)
        count = len(project.lines_of(character_id))
        self.setWindowTitle(fill(self.tr("Remove {name}?"), name=char.name))
        # "it" or "them" by the count: the catalogue's plural forms, so each language words it its way.
        question = QLabel(fill(self.tr("{name} speaks %n line(s). What becomes of them?", "", count), name=char.name))
        question.setObjectName("removeQuestion")
        question.setWordWrap(True)
        self.reassign = QRadioButton(self.tr("Give them to", "", count))
        self.target = QComboBox()
        self.target.setObjectName("reassignTo")
        for other in project.characters:
            if other.id != character_id:
                self.target.addItem(other.name, other.id)
        self.remove_lines = QRadioButton(self.tr("Remove them too", "", count))
        self.unassign = QRadioButton(self.tr("Keep them without a character (they will not render)", "", count))
        group = QButtonGroup(self)
        for button in (self.reassign, self.remove_lines, self.unassign):
            group.addButton(button)
        has_other = self.target.count() > 0
        self.reassign.setEnabled(has_other)
        self.target.setEnabled(has_other)
        (self.reassign if has_other else self.unassign).setChecked(True)
        self.reassign.toggled.connect(self.target.setEnabled)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.addButton(fill(self.tr("Remove {name}"), name=char.name), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(question)
        layout.addWidget(self.reassign)
        layout.addWidget(self.target)
        layout.addWidget(self.remove_lines)
        layout.addWidget(self.unassign)
        layout.addWidget(buttons)

    def command(self) -> Command:
        """The removal as chosen (call after the dialog was accepted)."""
        if self.reassign.isChecked():
            return removal_command(self._project, self._character_id, LinesFate.REASSIGN, self.target.currentData())
        fate = LinesFate.REMOVE if self.remove_lines.isChecked() else LinesFate.UNASSIGN
        return removal_command(self._project, self._character_id, fate)


def ask_to_remove(parent: QWidget, project: Project, character_id: str, push: Callable[[Command], object]) -> None:
    """Remove a character: at once when it has no lines, else after the dialog (Cancel: nothing).

    The dialog is opened, not exec()'d, so nothing blocks; ``push`` gets the chosen command.
    """
    if not project.lines_of(character_id):
        push(removal_command(project, character_id, LinesFate.UNASSIGN))
        return
    dialog = RemoveCharacterDialog(project, character_id, parent)
    dialog.accepted.connect(lambda: push(dialog.command()))
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()

"""What the Characters panel's editor parts share: the character shown and the one way to edit
it, fields that commit once, when editing ends (one undoable edit, never one per keystroke),
the character's colour as an icon, and a row of widgets as one form field."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor, QFocusEvent, QIcon, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QPlainTextEdit, QWidget

from app.project import Character
from app.ui.tasks import TaskRunner
from app.ui.window.document import Document


@dataclass(frozen=True)
class ShownCharacter:
    """What each part of the editor works with: the document, the runner of background work,
    the id of the character shown (None when none), the one way to edit it (``edit(**changes)``:
    one undoable EditCharacter) and ``owner``, the panel, which parents the parts and dialogs."""

    document: Document
    runner: TaskRunner
    current: Callable[[], str | None]
    edit: Callable[..., None]
    owner: QWidget

    def character(self) -> Character | None:
        current = self.current()
        return self.document.project.character(current) if current else None


def colour_icon(colour: str, size: int = 14) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(colour))
    return QIcon(pixmap)


def row_widget(layout: QHBoxLayout) -> QWidget:
    """A row of widgets as one widget, without margins, to stand as one form field."""
    box = QWidget()
    layout.setContentsMargins(0, 0, 0, 0)
    box.setLayout(layout)
    return box


class CommitLineEdit(QLineEdit):
    """A line edit that reports its text once, when editing finishes and only if it changed."""

    committed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._shown = ""
        self.editingFinished.connect(self._finish)

    def show_text(self, text: str) -> None:
        self._shown = text
        self.setText(text)

    def _finish(self) -> None:
        if self.text() != self._shown:
            self._shown = self.text()
            self.committed.emit(self.text())


class CommitTextEdit(QPlainTextEdit):
    """A plain text edit that reports its text when it loses focus, if it changed."""

    committed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._shown = ""

    def show_text(self, text: str) -> None:
        self._shown = text
        self.setPlainText(text)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        if self.toPlainText() != self._shown:
            self._shown = self.toPlainText()
            self.committed.emit(self._shown)

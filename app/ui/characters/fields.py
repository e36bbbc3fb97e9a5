"""What the Characters panel's editor parts share: the character shown and the one way to edit
it, fields that commit once, when editing ends (one undoable edit, never one per keystroke),
the character's colour as an icon, and a row of widgets (or a wrapped label) as one form
field as tall as its text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QSize, Signal
from PySide6.QtGui import QColor, QFocusEvent, QIcon, QPixmap, QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit, QWidget

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


class FittedRow(QWidget):
    """A form field as tall as its word-wrapped labels need at the width it is given. Qt hints a
    widget holding a wrapped label at the height the text takes at a narrow width of its own, and
    a form's row keeps that hint: two lines of warning stood in five lines' height, an empty band
    above them (found by k42d)."""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(hint.width(), self.heightForWidth(self.width())) if self.hasHeightForWidth() else hint

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # the height its text needs changed with the width


def row_widget(layout: QHBoxLayout) -> QWidget:
    """A row of widgets as one widget, without margins, to stand as one form field."""
    box = FittedRow()
    layout.setContentsMargins(0, 0, 0, 0)
    box.setLayout(layout)
    return box


def wrapped_field(label: QLabel) -> QWidget:
    """A word-wrapped label as a form field as tall as its text."""
    label.setWordWrap(True)
    row = QHBoxLayout()
    row.addWidget(label)
    return row_widget(row)


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

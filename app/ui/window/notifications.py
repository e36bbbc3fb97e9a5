"""Messages that last: a list of what went wrong (and what a long operation reported), with a badge.

The status bar shows a message for seconds; a problem needs a place that stays until it is read.
Every problem the studio reports goes into :class:`NotificationList` (the window docks it), in
words first (:func:`app.project.messages.explain`), the detail under it and the code last, and
the status bar's :class:`NotificationBadge` counts the ones not yet seen.
"""

from __future__ import annotations

import datetime as _dt
import enum
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.project.messages import explain
from app.ui.language import explained as studio_explained
from app.ui.language import fill


class Level(enum.IntEnum):
    """How much a message matters; the badge counts warnings and errors."""

    INFO = 0
    WARNING = 1
    ERROR = 2


LEVEL_MARK = {Level.INFO: "ℹ", Level.WARNING: "⚠", Level.ERROR: "✗"}
LEVEL_COLOUR = {Level.INFO: "#4e79a7", Level.WARNING: "#b8860b", Level.ERROR: "#d62728"}
MAX_KEPT = 200  # the oldest messages go first past this


def level_of(message: str) -> Level:
    """Errors carry an ``E_`` code, QA findings a ``QA_`` code; anything else is information."""
    code = explain(message).code
    if code.startswith("E_"):
        return Level.ERROR
    return Level.WARNING if code else Level.INFO


@dataclass(frozen=True)
class Notification:
    level: Level
    headline: str
    detail: str
    code: str
    when: str  # local time, HH:MM:SS
    message: str = ""  # as reported (its tooltip)

    def text(self) -> str:
        """The list entry: the headline, then the detail and the code on their own lines."""
        parts = [f"{LEVEL_MARK[self.level]} {self.headline}"]
        if self.detail:
            parts.append(self.detail)
        parts.append(f"{self.when}" + (f" · {self.code}" if self.code else ""))
        return "\n".join(parts)


class NotificationList(QWidget):
    """The messages, newest first, each wrapped in full (never cut); Clear empties the list."""

    unseen_changed = Signal(int, int)  # warnings and errors not yet seen, the worst Level among them

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("notifications")
        self.list = QListWidget()
        self.list.setObjectName("notificationList")
        self.list.setWordWrap(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setSpacing(3)
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)  # re-wrap the entries when the dock is resized
        self.empty = QLabel(self.tr("No messages. Problems and reports appear here, and stay until you clear them."))
        self.empty.setWordWrap(True)
        self.empty.setStyleSheet("color: #6b6b6b")
        clear = QPushButton(self.tr("Clear"))
        clear.clicked.connect(self.clear)
        row = QHBoxLayout()
        row.addWidget(self.empty, 1)
        row.addStretch(0)  # keeps Clear at the right when the hint is hidden
        row.addWidget(clear)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.list, 1)
        layout.addLayout(row)
        self.notifications: list[Notification] = []
        self._unseen: list[Level] = []
        # The other projects' messages, by project (see show_project), and whose are shown now.
        self._kept: dict[str, tuple[list[Notification], list[Level]]] = {}
        self._shown_for = ""

    def show_project(self, key: str) -> None:
        """Show the messages of project ``key`` (its folder; "" while none is open), keeping the
        ones shown now for their own project: each project lists its own, for the session."""
        if key == self._shown_for:
            return
        self._kept[self._shown_for] = (self.notifications, self._unseen)
        self._shown_for = key
        self.notifications, self._unseen = self._kept.pop(key, ([], []))
        self.list.clear()
        for note in self.notifications:  # newest first
            self.list.addItem(self._item(note))
        self.empty.setVisible(not self.notifications)
        self._emit_unseen()

    def add(self, message: str, level: Level | None = None) -> Notification:
        """Keep ``message`` (``"CODE: detail"`` or plain words); ``level`` defaults from its code."""
        explained = studio_explained(message)
        # A detail that says the problem whole comes with no headline: it heads the entry itself.
        headline, detail = (explained.headline, explained.detail) if explained.headline else (explained.detail, "")
        note = Notification(level if level is not None else level_of(message), headline,
                            detail, explained.code, _dt.datetime.now().strftime("%H:%M:%S"), message)
        self.notifications.insert(0, note)
        self.list.insertItem(0, self._item(note))
        while self.list.count() > MAX_KEPT:
            self.list.takeItem(self.list.count() - 1)
            self.notifications.pop()
        self.empty.setVisible(False)
        if note.level >= Level.WARNING:
            self._unseen.append(note.level)
            self._emit_unseen()
        return note

    @staticmethod
    def _item(note: Notification) -> QListWidgetItem:
        item = QListWidgetItem(note.text())
        if note.level is Level.ERROR:
            item.setForeground(QColor(LEVEL_COLOUR[Level.ERROR]))
        item.setToolTip(note.message)
        return item

    def mark_seen(self) -> None:
        self._unseen.clear()
        self._emit_unseen()

    def clear(self) -> None:
        self.list.clear()
        self.notifications.clear()
        self.empty.setVisible(True)
        self.mark_seen()

    def _emit_unseen(self) -> None:
        self.unseen_changed.emit(len(self._unseen), max(self._unseen, default=Level.INFO))


class NotificationBadge(QToolButton):
    """The status bar's way into the list: "Messages", with a count of the unseen problems."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("notificationBadge")
        self.setAutoRaise(True)
        self.setCheckable(True)
        self.setToolTip(self.tr("Show the messages: problems stay listed here until you clear them"))
        self.show_unseen(0, Level.INFO)

    def show_unseen(self, count: int, worst: int) -> None:
        if count:
            self.setText(fill(self.tr("{mark} %n message(s)", "", count), mark=LEVEL_MARK[Level(worst)]))
            self.setStyleSheet(f"color: {LEVEL_COLOUR[Level(worst)]}; font-weight: bold")
        else:
            self.setText(self.tr("Messages"))
            self.setStyleSheet("")

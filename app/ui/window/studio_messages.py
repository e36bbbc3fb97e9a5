"""What the studio tells the user: passing messages on the status bar, problems kept in the
Messages dock (which the status bar's badge opens), and dialogs for errors of an explicit action.

Every message with an error code is a problem: it is listed in the dock in words
(:func:`app.project.messages.explain`) and stays on the bar until the next message.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMessageBox

from app.ui.language import shown_message
from app.ui.window.notifications import (
    Level,
    NotificationBadge,
    NotificationList,
    level_of,
)

MESSAGES_HEIGHT = 150  # the Messages dock's first height: four or five entries
SAY_MS = 15000  # how long the bar shows what a controller or panel reports


class StudioMessages(QObject):
    """The window's status bar messages, its Messages dock and its message boxes."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self._window = window
        self.notifications = NotificationList()
        self.dock = QDockWidget(self.tr("Messages"), window)
        self.dock.setObjectName("messagesDock")
        self.dock.setWidget(self.notifications)
        # At the bottom, full width: messages are long sentences, and the script keeps its columns.
        window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.dock)
        window.resizeDocks([self.dock], [MESSAGES_HEIGHT], Qt.Orientation.Vertical)
        self.dock.hide()
        self.badge = NotificationBadge()
        self.badge.toggled.connect(self.dock.setVisible)
        self.dock.visibilityChanged.connect(self._on_shown)
        self.notifications.unseen_changed.connect(self.badge.show_unseen)

    def show_project(self, root: Path | None) -> None:
        """The Messages list of the project at ``root`` (None: no project open): each project
        keeps its own while the studio runs; none is written to disk."""
        self.notifications.show_project(str(root) if root is not None else "")

    def status(self, message: str, timeout_ms: int = 0) -> None:
        """A passing message on the status bar; a problem (one with a code) is also kept in the
        Messages list, in words, and stays on the bar until the next message."""
        if level_of(message) >= Level.WARNING:
            self.notifications.add(message)
            timeout_ms = 0
        self._window.statusBar().showMessage(shown_message(message), timeout_ms)

    def say(self, message: str) -> None:
        """What a controller or panel reports, on the bar for a while."""
        self.status(message, SAY_MS)

    def notify(self, message: str, level: Level = Level.INFO, timeout_ms: int = SAY_MS) -> None:
        """A report worth keeping whole (an export's summary, what a render covers): listed and shown."""
        self.notifications.add(message, level)
        self._window.statusBar().showMessage(message, timeout_ms)

    def warn(self, message: str) -> None:
        """Something to fix (an edit's or a video step's problem), listed."""
        self.notify(message, Level.WARNING)

    def error(self, title: str, message: str) -> None:
        """Errors the user caused by an explicit action get a dialog, in words with the code last;
        the status bar and the Messages list keep them."""
        self.status(message)
        self.show_box(QMessageBox.Icon.Warning, title, shown_message(message))

    def inform(self, title: str, text: str) -> None:
        """Something to know before going on (a project opened read-only), in a dialog."""
        self.show_box(QMessageBox.Icon.Information, title, text)

    def show_box(self, icon: QMessageBox.Icon, title: str, message: str) -> None:
        box = QMessageBox(icon, title, message, QMessageBox.StandardButton.Ok, self._window)
        box.setObjectName("messageBox")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): tests and scripted runs must never block on it

    def offer_to_discard(self, discard: Callable[[], object]) -> None:
        """The project could not be saved on closing: ask whether to close anyway (``discard``)."""
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Close without saving?"),
                          self.tr("The project could not be saved, so closing now would lose your unsaved changes."),
                          QMessageBox.StandardButton.Cancel, self._window)
        box.setObjectName("discardBox")
        button = box.addButton(self.tr("Close without saving"), QMessageBox.ButtonRole.DestructiveRole)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(_result: int) -> None:
            if box.clickedButton() is button:
                discard()

        box.finished.connect(chosen)
        box.open()

    def _on_shown(self, visible: bool) -> None:
        self.badge.setChecked(visible)
        if visible:
            self.notifications.mark_seen()

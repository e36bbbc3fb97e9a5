"""A column of controls that scrolls up and down and is never cut at its sides.

A plain :class:`QScrollArea` asks for a bounded size and may be made narrower than its content,
which then loses its right edge (the Stress tab's Browse buttons, cut at the pane's edge in
English and Chinese alike). :class:`ControlsColumn` asks for its content's whole size, so a
layout shows the content whole where it has the room, and it is never narrower than the
content's minimum width plus the scroll bar: when the room is short it scrolls vertically, and
only vertically.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


class ControlsColumn(QScrollArea):
    """``content`` in a vertically scrolling area as wide as the content needs."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidget(content)
        # Sized here, not by QScrollArea: a content with word-wrapped labels would be given its
        # preferred height and scroll though its least height fits.
        self.setWidgetResizable(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content.installEventFilter(self)  # its minimum size changes as rows show and hide

    def _chrome_width(self) -> int:
        """The frame on both sides and the vertical scroll bar, which may appear at any time."""
        return 2 * self.frameWidth() + self.verticalScrollBar().sizeHint().width()

    def sizeHint(self) -> QSize:
        content = self.widget()
        if content is None:
            return super().sizeHint()
        hint = content.sizeHint()
        return QSize(hint.width() + self._chrome_width(), hint.height() + 2 * self.frameWidth())

    def minimumSizeHint(self) -> QSize:
        content = self.widget()
        if content is None:
            return super().minimumSizeHint()
        return QSize(content.minimumSizeHint().width() + self._chrome_width(), super().minimumSizeHint().height())

    def _fit_content(self) -> None:
        """The content fills the view, and is no smaller than its least size (then it scrolls)."""
        content = self.widget()
        if content is None:
            return
        view, least = self.viewport().size(), content.minimumSizeHint()
        width, height = max(view.width(), least.width()), least.height()
        layout = content.layout()
        if layout is not None and layout.hasHeightForWidth():  # wrapped words need their rows
            height = max(height, layout.totalMinimumHeightForWidth(width))
        content.resize(width, max(view.height(), height))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_content()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
            self._fit_content()
        return super().eventFilter(watched, event)

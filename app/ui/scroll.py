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
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


class ControlsColumn(QScrollArea):
    """``content`` in a vertically scrolling area as wide as the content needs."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidget(content)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content.installEventFilter(self)  # its minimum width changes as rows show and hide

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

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
        return super().eventFilter(watched, event)

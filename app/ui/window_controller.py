"""Parts of the window's work with no widget of their own (casting from a library, translating):
each is made when first asked for, then found again as the window's child of its name."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Self

from PySide6.QtCore import QObject

if TYPE_CHECKING:
    from app.ui.window.main_window import MainWindow


class WindowController(QObject):
    """The window's one controller of its kind: ``of(window)`` finds it or makes it, so the window
    needs no field for it."""

    object_name: ClassVar[str]  # how the window finds it among its children

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName(self.object_name)
        self.window = window

    @classmethod
    def of(cls, window: MainWindow) -> Self:
        found = window.findChild(cls, cls.object_name)
        return found if isinstance(found, cls) else cls(window)

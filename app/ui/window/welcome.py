"""The first screen: open the sample project in one click, a recent project, or start one."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class WelcomePage(QWidget):
    """Buttons for the ways into a project; the window does the opening."""

    open_sample = Signal()
    new_project = Signal()
    new_from_video = Signal()
    open_folder = Signal()
    open_recent = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        title = QLabel(self.tr("<h1>DubStudio</h1>"))
        subtitle = QLabel(self.tr("Dub short videos with many character voices."))
        self.sample_button = QPushButton(self.tr("▶  Open the sample project"))
        self.sample_button.setObjectName("openSample")
        self.sample_button.setToolTip(self.tr("A short two-character scene with its voices; render and listen in one click"))
        self.sample_button.setMinimumHeight(44)
        self.sample_button.clicked.connect(self.open_sample)
        new = QPushButton(self.tr("New project…"))
        new.clicked.connect(self.new_project)
        from_video = QPushButton(self.tr("New project from video…"))
        from_video.setObjectName("newFromVideo")
        from_video.setToolTip(self.tr("A project that dubs a video: its subtitles or its transcribed dialogue "
                                      "become the script"))
        from_video.clicked.connect(self.new_from_video)
        open_ = QPushButton(self.tr("Open project folder…"))
        open_.clicked.connect(self.open_folder)
        self.recent = QListWidget()
        self.recent.setObjectName("recentProjects")
        self.recent.itemActivated.connect(lambda item: self.open_recent.emit(item.data(Qt.ItemDataRole.UserRole)))

        buttons = QHBoxLayout()
        buttons.addWidget(new)
        buttons.addWidget(from_video)
        buttons.addWidget(open_)
        column = QVBoxLayout()
        column.addWidget(title)
        column.addWidget(subtitle)
        column.addSpacing(16)
        column.addWidget(self.sample_button)
        column.addLayout(buttons)
        column.addSpacing(16)
        column.addWidget(QLabel(self.tr("Recent projects")))
        column.addWidget(self.recent, 1)
        box = QWidget()
        box.setLayout(column)
        box.setMaximumWidth(560)
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        outer.addWidget(box, 2)
        outer.addStretch(1)

    def set_recent(self, paths: list[str]) -> None:
        self.recent.clear()
        for path in paths:
            item = QListWidgetItem(f"{Path(path).name}    {path}")
            item.setData(Qt.ItemDataRole.UserRole, path)
            self.recent.addItem(item)
        if not paths:
            placeholder = QListWidgetItem(self.tr("No recent projects yet"))
            placeholder.setFlags(Qt.ItemFlag.NoItemFlags)
            self.recent.addItem(placeholder)

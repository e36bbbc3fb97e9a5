"""Project › Browse the cast library…: the characters of a cast library folder (name, language,
recordings, the episodes they came from), each clip played, a character removed.

Reading, decoding and removing run off the GUI thread (app.ui.tasks); a removal holds the
library's lock while it writes (app.project.cast.writing: a second writer waits, then fails with
E_CAST_LOCKED, and nothing is lost) and asks first.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.project.cast import CastLibrary, open_library, remove_member, writing
from app.project.model import said_name
from app.ui.language import fill, language_label, listed, say
from app.ui.playback.player import read_mono
from app.ui.tasks import TaskRunner
from engine.core.languages import LANGUAGES

PlayClip = Callable[[str, np.ndarray, int], None]  # (key, pcm, rate), as the studio's player plays


class CastLibraryDialog(QDialog):
    """The library at ``folder``, listed; ``play`` plays a clip."""

    def __init__(self, parent: QWidget | None, folder: Path, runner: TaskRunner, play: PlayClip) -> None:
        super().__init__(parent)
        self.setObjectName("castLibraryDialog")
        self.setWindowTitle(self.tr("Cast library"))
        self.folder = folder
        self._runner = runner
        self._play = play
        self.library: CastLibrary | None = None
        self.where = QLabel(fill(self.tr("Cast library: {folder}"), folder=folder))
        self.where.setWordWrap(True)
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("castTable")
        self.table.setHorizontalHeaderLabels([self.tr("Name"), self.tr("Language"), self.tr("Recordings"),
                                              self.tr("Saved from")])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setMinimumSectionSize(90)  # "Anna" and "en" not squeezed to their edges
        self.table.verticalHeader().hide()
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.doubleClicked.connect(lambda _index: self.play_selected())
        self.status = QLabel("")
        self.status.setObjectName("castStatus")
        self.status.setWordWrap(True)
        self.play_button = QPushButton(self.tr("▶ Play clip"))
        self.play_button.setObjectName("playCastClip")
        self.play_button.clicked.connect(self.play_selected)
        self.remove_button = QPushButton(self.tr("Remove…"))
        self.remove_button.setObjectName("removeCastMember")
        self.remove_button.setToolTip(self.tr("Take the character out of the library (its clip and voiceprints "
                                              "too); projects cast from it keep their copies"))
        self.remove_button.clicked.connect(self._ask_to_remove)
        buttons = QHBoxLayout()
        buttons.addWidget(self.play_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.where)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        self.resize(640, 380)
        self._update_buttons()
        self.load()

    def load(self) -> None:
        """Read the library again (in the background) and list it."""
        self.status.setText(self.tr("Reading the cast library…"))
        self._runner.run(lambda: open_library(self.folder), self._fill, self._failed)

    def _fill(self, library: CastLibrary) -> None:
        self.library = library
        self.table.setRowCount(len(library.members))
        for row, member in enumerate(library.members):
            character = member.character
            language = character.settings.language
            # Its name in the studio's language where the one table knows it ("中文（普通话）（zh）"), else the code
            shown_language = language_label(language) if language in LANGUAGES else language or "—"
            # A default name in the studio's language ("说话人 1"); the row keeps the stored one
            cells = [say(said_name(character.name)), shown_language, str(len(member.voiceprints)), listed(member.sources)]
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, character.name)
                self.table.setItem(row, column, item)
        self.table.resizeColumnsToContents()
        self.status.setText(self.tr("%n character(s)", "", len(library.members)) if library.members
                            else self.tr("The library is empty: Project › Save to cast library… fills it"))
        if library.members and not self.table.selectedItems():
            self.table.selectRow(0)
        self._update_buttons()

    def _failed(self, error: BaseException) -> None:
        self.status.setText(str(error))
        self._update_buttons()

    def selected_name(self) -> str | None:
        items = self.table.selectedItems()
        return str(items[0].data(Qt.ItemDataRole.UserRole)) if items else None

    def _update_buttons(self) -> None:
        chosen = self.selected_name() is not None
        self.play_button.setEnabled(chosen)
        self.remove_button.setEnabled(chosen)

    def play_selected(self) -> None:
        """Decode the chosen character's clip off the GUI thread and play it."""
        name, library = self.selected_name(), self.library
        member = library.member(name) if library is not None and name is not None else None
        path = library.clip_path(member) if library is not None and member is not None else None
        if path is None:
            return
        self._runner.run(lambda: read_mono(path), lambda result: self._play(f"cast:{path}", *result), self._failed)

    def _ask_to_remove(self) -> None:
        name = self.selected_name()
        if name is None:
            return
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Remove from the cast library"),
                          fill(self.tr("Remove {name} from the cast library? Projects already cast from it keep their "
                                  "copy of the clip."), name=name),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.finished.connect(lambda result: self.remove(name) if result == QMessageBox.StandardButton.Yes else None)
        box.open()

    def remove(self, name: str) -> None:
        """Take ``name`` out of the library (under its lock, in the background), then list it again."""
        folder = self.folder

        def work() -> None:
            with writing(folder, "DubStudio (Remove from cast library)") as library:
                remove_member(library, name)

        def removed(_nothing: None) -> None:
            self.load()
            self.status.setText(fill(self.tr("Removed {name} from the cast library"), name=name))

        self.status.setText(fill(self.tr("Removing {name}…"), name=name))
        self._runner.run(work, removed, self._failed)

"""The list shown right after an import: lines without a character, characters without a clip.

Both used to surface only as failed renders. The dialog lists them at once (from
:func:`app.project.voice_gaps`), and double-clicking an entry goes to it: a line is selected in
the script, a character opens on the Characters tab, so each gap is one click from its fix.
It is not modal: the user can fix things with the list still open.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.project import VoiceGaps
from app.ui.language import fill, say

LINE_ROLE = Qt.ItemDataRole.UserRole + 1
CHARACTER_ROLE = Qt.ItemDataRole.UserRole + 2


class VoiceGapsDialog(QDialog):
    """Lists what stops lines from rendering; ``line_chosen``/``character_chosen`` on double-click."""

    line_chosen = Signal(str)
    character_chosen = Signal(str)

    def __init__(self, gaps: VoiceGaps, what: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("voiceGapsDialog")
        self.setWindowTitle(self.tr("Some lines cannot be rendered yet"))
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        count = len(gaps.lines_without_character) + len(gaps.characters_without_clip)
        intro = QLabel(
            fill(self.tr("{what} left %n thing(s) to fix before rendering. Double-click one to go to it (the list stays in Messages).", "", count), what=what)
        )
        intro.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("voiceGapsList")
        self.list.setWordWrap(True)
        sentences = [say(sentence) for sentence in gaps.describe()]  # the lines' sentences first, then the characters'
        split = len(gaps.lines_without_character)
        for sentence, character in zip(sentences[split:], gaps.characters_without_clip):
            item = QListWidgetItem(fill(self.tr("{sentence}: give it a reference clip"), sentence=sentence[0].upper() + sentence[1:]))
            item.setData(CHARACTER_ROLE, character.character_id)
            item.setToolTip(self.tr("Double-click to open the character"))
            self.list.addItem(item)
        for sentence, line in zip(sentences[:split], gaps.lines_without_character):
            item = QListWidgetItem(f"{sentence[0].upper()}{sentence[1:]}")
            item.setData(LINE_ROLE, line.line_id)
            item.setToolTip(self.tr("Double-click to select the line and assign a character"))
            self.list.addItem(item)
        self.list.itemDoubleClicked.connect(self._go)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)
        self.resize(560, 320)

    def _go(self, item: QListWidgetItem) -> None:
        # The list steps aside for the editor it opens (it would stay on top of it); the window's
        # Messages list keeps the same things to fix.
        line_id = item.data(LINE_ROLE)
        character_id = item.data(CHARACTER_ROLE)
        self.close()
        if line_id:
            self.line_chosen.emit(str(line_id))
        elif character_id:
            self.character_chosen.emit(str(character_id))

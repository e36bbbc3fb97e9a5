"""How one line is spoken: its own speed, instruction (schema 5) and language over its character's.

Shown under the takes of the current line. Left at "As character", a line follows its
character; a value here is one undoable edit and makes the line's take stale, as a change of
the character's settings would.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLineEdit, QWidget

from app.project import EditLine, UnknownIdError
from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.language import declared, fill, language_label
from app.ui.script.speed_box import SpeedBox
from app.ui.window.document import Document
from engine.core.languages import LANGUAGES
from engine.core.numbers import Range

# A line's speed, instruction or language left to its character's: one wording wherever the studio
# offers it (this panel, the script's Language column and its tooltip; "Character's" here and "As
# character" there named one choice two ways). Translated in the "LineDelivery" context.
FOLLOWS_CHARACTER = QT_TRANSLATE_NOOP("LineDelivery", "As character")
LINE_SPEED_TIP = QT_TRANSLATE_NOOP("LineDelivery", "This line's speaking rate (1 = the voice's own), over its character's")


class LineDelivery(QGroupBox):
    """Speed, instruction and language of the current line, each blank to follow the character."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Delivery of this line"))
        self.setObjectName("lineDelivery")
        self._doc = document
        self._line_id = ""
        self.speed = SpeedBox(none_text=self.tr(FOLLOWS_CHARACTER))  # its lowest value: none of the line's own
        self.speed.setObjectName("lineSpeed")
        self.speed.editingFinished.connect(self._apply)
        self.instruction = QLineEdit()
        self.instruction.setObjectName("lineInstruction")
        self.instruction.setClearButtonEnabled(True)
        self.instruction.setToolTip(self.tr("How to say this line (e.g. “whisper”, “angry”), over its character's; backends that take instructions (CosyVoice2) use it"))
        self.instruction.editingFinished.connect(self._apply)
        # A Mandarin speaker's one English sentence: the English voice speaks it, timed and checked as English.
        self.language = QComboBox()
        self.language.setObjectName("lineLanguage")
        # As narrow as the speed box: sized to its longest name it widened the panel and took the script's room.
        self.language.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.language.setMinimumContentsLength(8)
        self.language.addItem(self.tr(FOLLOWS_CHARACTER), "")
        for code in LANGUAGES:
            self.language.addItem(language_label(code), code)
        self.language.setToolTip(self.tr("The language this line is in, when it is not its character's: the voice "
                                         "of that language speaks it, and its timing, subtitles and QA follow it"))
        self.language.activated.connect(self._apply_language)
        form = QFormLayout(self)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # a narrow box puts fields under labels
        form.addRow(self.tr("Speed"), self.speed)
        form.addRow(self.tr("Say it"), self.instruction)
        form.addRow(self.tr("Language"), self.language)
        self.show_line("")

    def set_speeds(self, speeds: Range) -> None:
        """Offer the speeds the running backend speaks at (its capabilities)."""
        self.speed.set_range(speeds)

    def show_line(self, line_id: str) -> None:
        self._line_id = line_id
        project = self._doc.project
        try:
            line = project.line(line_id) if line_id else None
        except UnknownIdError:  # removed meanwhile
            line = None
        self.setEnabled(line is not None and line.character_id is not None and not self._doc.read_only)
        for widget in (self.speed, self.instruction, self.language):
            widget.blockSignals(True)
        self.instruction.setText("" if line is None or line.instruction is None else line.instruction)
        own = project.character(line.character_id).settings if line is not None and line.character_id else None
        self.speed.show_speed(None if line is None else line.speed,
                              fill(self.tr("{tip} ({speed:.2f}×)"), tip=self.tr(LINE_SPEED_TIP), speed=own.speed)
                              if own is not None else
                              fill(self.tr("{tip}; lowest: {follows}"), tip=self.tr(LINE_SPEED_TIP),
                                                                          follows=self.tr(FOLLOWS_CHARACTER)))
        self.instruction.setPlaceholderText(
            fill(self.tr("{follows}: {instruction}"), follows=self.tr(FOLLOWS_CHARACTER),
                                                       instruction=own.instruction or self.tr("none"))
            if own is not None else "")
        self.language.setCurrentIndex(max(0, self.language.findData(line.language or "" if line is not None else "")))
        spoken = project.spoken_language(line) if line is not None else ""
        self.language.setItemText(0, fill(self.tr("{follows}: {language}"), follows=self.tr(FOLLOWS_CHARACTER),
                                          language=declared("languages", LANGUAGES[spoken].name))
                                  if own is not None and line is not None and line.language is None and spoken in LANGUAGES
                                  else self.tr(FOLLOWS_CHARACTER))
        for widget in (self.speed, self.instruction, self.language):
            widget.blockSignals(False)

    def _apply(self) -> None:
        if not self._line_id:
            return
        line = self._doc.project.line(self._line_id)
        speed = self.speed.picked()
        instruction = self.instruction.text().strip() or None
        speed_changed, instruction_changed = speed != line.speed, instruction != line.instruction
        if speed_changed and instruction_changed:
            self._doc.push(EditLine(self._line_id, speed=speed, instruction=instruction))
        elif speed_changed:
            self._doc.push(EditLine(self._line_id, speed=speed))
        elif instruction_changed:
            self._doc.push(EditLine(self._line_id, instruction=instruction))

    def _apply_language(self) -> None:
        if not self._line_id:
            return
        language = self.language.currentData() or None
        if language != self._doc.project.line(self._line_id).language:
            self._doc.push(EditLine(self._line_id, language=language))

"""Project › Transcribe the dialogue asks first: how many speakers (auto or N), the language (auto
or a code), the Whisper model, a cast library to cast the voices from, and, on a project that
has lines or takes, whether to replace them or keep them (with what would leave the script).

The dialog only collects choices; :class:`app.ui.timeline.video_controller.VideoController` runs
the transcription (app.project.transcription) off the GUI thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.project import Project
from app.ui.dialog_parts import ok_cancel
from app.ui.folders import Folders
from app.ui.language import fill, language_label
from engine.core.languages import LANGUAGES
from engine.hearing.speakers import SPEAKER_COUNT
from engine.hearing.whisper import WHISPER_MODELS

CAST_LIBRARIES = "cast-libraries"  # the folder kind the file dialog remembers (app.ui.folders)
PLACEHOLDER_MARGIN = 16  # pixels: a line edit's frame and text margins around its placeholder


@dataclass(frozen=True)
class TranscribeChoice:
    """What the dialog was accepted with."""

    speakers: int | None  # None: found from the voices
    language: str  # "auto" or a Whisper code
    model: str
    keep: bool  # the old lines stay beside the new ones (else they are replaced)
    cast_library: str | None  # a cast library folder to cast the voices from


class TranscribeDialog(QDialog):
    """The choices before a transcription; ``chosen`` carries a :class:`TranscribeChoice`."""

    chosen = Signal(object)

    def __init__(self, parent: QWidget | None, project: Project, model: str, folders: Folders) -> None:
        super().__init__(parent)
        self.setObjectName("transcribeDialog")
        self.setWindowTitle(self.tr("Transcribe the dialogue"))
        self._folders = folders

        self.speakers = QComboBox()
        self.speakers.addItem(self.tr("Find from the voices"), None)
        for count in range(int(SPEAKER_COUNT.low), int(SPEAKER_COUNT.high) + 1):
            self.speakers.addItem(str(count), count)
        self.speakers.setToolTip(self.tr("How many people speak; give the number when you know it"))

        self.language = QComboBox()
        self.language.setEditable(True)
        self.language.addItem(self.tr("Detect it"), "auto")
        for code in LANGUAGES:
            self.language.addItem(language_label(code), code)
        self.language.setToolTip(self.tr("The dialogue's language, or type any Whisper language code (pt, vi…)"))

        self.model = QComboBox()
        self.model.setEditable(True)
        for name, spec in WHISPER_MODELS.items():
            if spec.multilingual:
                self.model.addItem(name, name)
        found = self.model.findData(model)
        if found >= 0:
            self.model.setCurrentIndex(found)
        else:
            self.model.setEditText(model)
        self.model.setToolTip(self.tr("The Whisper model: a larger downloaded one (Settings) hears better and slower"))

        self.library = QLineEdit()
        self.library.setPlaceholderText(self.tr("none: every voice becomes a new character"))
        # Wide enough for its placeholder, which says what an empty field does.
        self.library.setMinimumWidth(self.library.fontMetrics().horizontalAdvance(self.library.placeholderText())
                                     + PLACEHOLDER_MARGIN)
        self.library.setToolTip(self.tr("A cast library (a shared folder of a series' characters): a voice that "
                                        "surely matches one of its characters becomes that character"))
        browse = QPushButton(self.tr("Choose…"))
        browse.clicked.connect(self._choose_library)
        library_row = QHBoxLayout()
        library_row.addWidget(self.library, 1)
        library_row.addWidget(browse)

        form = QFormLayout()
        form.addRow(self.tr("Speakers"), self.speakers)
        form.addRow(self.tr("Language"), self.language)
        form.addRow(self.tr("Model"), self.model)
        form.addRow(self.tr("Cast from library"), library_row)
        layout = QVBoxLayout(self)
        layout.addLayout(form)

        lines = len(project.lines)
        takes = sum(len(line.takes) for line in project.lines)
        self.replace = QRadioButton(self.tr("Replace the script"))
        self.keep = QRadioButton(self.tr("Keep the script and add the transcribed lines"))
        self.loss = QLabel()
        self.loss.setWordWrap(True)
        if lines or takes:
            self.loss.setText(fill(self.tr("The script has {lines} with {takes}. Replace takes them all out of the "
                                           "script (Edit › Undo brings them back; the take files stay in takes/). "
                                           "Keep adds the transcribed lines beside them."),
                                   lines=self.tr("%n line(s)", "", lines),
                                   takes=self.tr("%n rendered take(s)", "", takes)))
            self.replace.setChecked(True)
            layout.addWidget(self.loss)
            layout.addWidget(self.replace)
            layout.addWidget(self.keep)
        self.asks = bool(lines or takes)

        self.buttons = ok_cancel(self, self.tr("Transcribe"), self._accept)
        layout.addWidget(self.buttons)

    def _choose_library(self) -> None:
        chosen = self._folders.folder(self, CAST_LIBRARIES, self.tr("Choose a cast library folder"))
        if chosen:
            self.library.setText(chosen)

    def choice(self) -> TranscribeChoice:
        """What is chosen now."""
        language = self.language.currentData() if self.language.currentText() == self.language.itemText(
            self.language.currentIndex()) else self.language.currentText().strip()
        model = self.model.currentText().strip() or str(self.model.itemData(0))
        library = self.library.text().strip()
        return TranscribeChoice(self.speakers.currentData(), str(language or "auto"), model,
                                self.asks and self.keep.isChecked(), str(Path(library)) if library else None)

    def _accept(self) -> None:
        self.chosen.emit(self.choice())
        self.accept()

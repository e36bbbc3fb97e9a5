"""The studio's side of transcribing a video: progress with Cancel, the Characters panel's
*Choose from the video*, and the cast edits after a transcription.

- :func:`transcription_progress` is how a transcription's operation shows itself: the stage
  (listening, telling the voices apart, choosing clips) and how far, with Cancel.

- :class:`ChooseFromVideoDialog` lists the stretches of the original where the character speaks
  alone (kept by the transcription in ``media/transcript.json``) with their words and score;
  *Play* auditions one from the video, *Use this clip* cuts it into ``voices/`` and makes it the
  character's clip (one undoable edit).
- :class:`SplitCharacterDialog` picks the lines a new character takes over, for two actors the
  transcription heard as one; merging is one choice of the other character (see the panel).

The cutting and decoding are the Qt-free functions of :mod:`app.project.transcription`, run on
the task runner.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.project import Project
from app.project.timecode import format_clock
from app.project.transcription import (
    ClipCandidate,
    candidate_audio,
    clip_candidates,
    cut_candidate,
)
from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.dialog_parts import ok_cancel
from app.ui.tasks import ProgressSpec, TaskRunner

COLUMNS = (QT_TRANSLATE_NOOP("ChooseFromVideoDialog", "When"), QT_TRANSLATE_NOOP("ChooseFromVideoDialog", "Length"),
           QT_TRANSLATE_NOOP("ChooseFromVideoDialog", "Score"), QT_TRANSLATE_NOOP("ChooseFromVideoDialog", "Words"))


class ChooseFromVideoDialog(QDialog):
    """The character's clip candidates from the original, to audition and pick."""

    # The EditCharacter changes that make the chosen stretch the clip; they cross as a QVariantMap,
    # which keeps str keys only (all a change has: they are EditCharacter's keyword arguments).
    picked = Signal(dict)

    def __init__(self, project: Project, character_id: str, runner: TaskRunner,
                 play_clip: Callable[[str, np.ndarray, int], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chooseFromVideoDialog")
        self._project = project
        self._character = project.character(character_id)
        self._runner = runner
        self._play_clip = play_clip
        self.candidates: list[ClipCandidate] = []
        self._closed = False  # the candidates found after it closed are not wanted
        self.finished.connect(self._on_finished)
        self.setWindowTitle(self.tr("Choose {name}'s clip from the video").format(name=self._character.name))
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("clipCandidates")
        self.table.setHorizontalHeaderLabels([self.tr(title) for title in COLUMNS])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setWordWrap(True)
        self.note = QLabel(self.tr("Finding the candidates…"))
        self.note.setObjectName("chooseFromVideoNote")
        self.note.setWordWrap(True)
        self.play_button = QPushButton(self.tr("Play"))
        self.play_button.setObjectName("playCandidate")
        self.play_button.clicked.connect(self.play)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Close)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Use this clip"))
        self.buttons.accepted.connect(self.use)
        self.buttons.rejected.connect(self.reject)
        self._enable_choosing()
        actions = QHBoxLayout()
        actions.addWidget(self.play_button)
        actions.addStretch(1)
        actions.addWidget(self.buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.note)
        layout.addLayout(actions)
        self.resize(720, 360)
        # Finding them again from the voiceprints reads the video's embeddings: off the GUI thread.
        runner.run(lambda: clip_candidates(project, character_id), self._show_candidates,
                   lambda error: self.note.setText(str(error)), alive=lambda: not self._closed)

    def _on_finished(self, _result: int) -> None:
        self._closed = True

    def _enable_choosing(self) -> None:
        for button in (self.play_button, self.buttons.button(QDialogButtonBox.StandardButton.Ok)):
            button.setEnabled(bool(self.candidates))

    def _show_candidates(self, candidates: list[ClipCandidate]) -> None:
        self.candidates = candidates
        self.table.setRowCount(len(candidates))
        for row, candidate in enumerate(candidates):
            cells = (f"{format_clock(candidate.start)}–{format_clock(candidate.end)}",
                     f"{candidate.end - candidate.start:.1f} s", f"{candidate.score:.2f}", candidate.text)
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(self.tr("{text}\n\nSNR {snr_db:.0f} dB, purity {purity:+.2f} (how much more it sounds like this speaker than the nearest other)").format(text=candidate.text, snr_db=candidate.snr_db, purity=candidate.purity))
                self.table.setItem(row, column, item)
        self.table.resizeColumnsToContents()
        self.table.resizeRowsToContents()
        if candidates:
            self.table.selectRow(0)
        self.note.setText("" if candidates else
                          self.tr("No candidates: this character was not found by transcribing the video (Project › Transcribe the dialogue), or says too little alone."))
        self._enable_choosing()

    def chosen(self) -> ClipCandidate | None:
        rows = self.table.selectionModel().selectedRows()
        return self.candidates[rows[0].row()] if rows else None

    def play(self) -> None:
        candidate = self.chosen()
        if candidate is None:
            return
        key = f"candidate:{self._character.id}:{candidate.start}"
        self._runner.run(lambda: candidate_audio(self._project, candidate),
                         lambda cut: self._play_clip(key, cut[0], cut[1]),
                         lambda error: self.note.setText(str(error)))

    def use(self) -> None:
        candidate = self.chosen()
        if candidate is None:
            return
        self.buttons.setEnabled(False)
        self.note.setText(self.tr("Cutting the clip from the video…"))

        def done(changes: dict[str, Any]) -> None:
            self.picked.emit(changes)
            self.accept()

        def failed(error: BaseException) -> None:
            self.buttons.setEnabled(True)
            self.note.setText(str(error))

        self._runner.run(lambda: cut_candidate(self._project, self._character, candidate), done, failed)


class SplitCharacterDialog(QDialog):
    """Which of a character's lines go to a new character."""

    def __init__(self, project: Project, character_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("splitCharacterDialog")
        name = project.character(character_id).name
        self.setWindowTitle(self.tr("Split {name}").format(name=name))
        self.lines = QListWidget()
        self.lines.setObjectName("splitLines")
        for line in project.lines_of(character_id):
            when = format_clock(line.start) + "  " if line.start is not None else ""
            item = QListWidgetItem(f"{when}{line.text}")
            item.setData(Qt.ItemDataRole.UserRole, line.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.lines.addItem(item)
        buttons = ok_cancel(self, self.tr("Give them to a new character"))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Tick the lines another actor says; they move from {name} to a new character.").format(name=name)))
        layout.addWidget(self.lines, 1)
        layout.addWidget(buttons)
        self.resize(560, 420)

    def checked(self) -> list[str]:
        return [self.lines.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.lines.count())
                if self.lines.item(i).checkState() == Qt.CheckState.Checked]


STAGES = {  # translated where shown (transcription_progress)
    "loading": QT_TRANSLATE_NOOP("Transcription", "Loading the speech models"),
    "listening": QT_TRANSLATE_NOOP("Transcription", "Listening to the dialogue"),
    "speakers": QT_TRANSLATE_NOOP("Transcription", "Telling the voices apart"),
    "clips": QT_TRANSLATE_NOOP("Transcription", "Choosing each voice's clip"),
    "cutting": QT_TRANSLATE_NOOP("Transcription", "Cutting each voice's clip into voices/"),
}
# Each stage's share of the bar: its share of the time a 58 s two-voice scene took (tiny.en,
# loaded models 5.6 s, listening 63.8 s, the rest under a second each).
STAGE_WEIGHTS = {"loading": 6.0, "listening": 64.0, "speakers": 1.0, "clips": 1.0, "cutting": 1.0}


def transcription_progress(parent: QWidget) -> ProgressSpec:
    """A transcription's dialog: its stage, how far, and Cancel (the work stops at its next window
    or segment); the window waits for it, as its script is about to be replaced."""
    stages = {key: QCoreApplication.translate("Transcription", str(label)) for key, label in STAGES.items()}
    return ProgressSpec(parent, "Transcribing the dialogue", stages["loading"],
                        "Cancelling the transcription", stages=stages, weights=STAGE_WEIGHTS, modal=True)

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

from typing import Any

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
    clip_candidates,
    cut_candidate,
)
from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.dialog_parts import ok_cancel
from app.ui.language import fill, number
from app.ui.playback.original import OriginalAudio
from app.ui.playback.player import Player
from app.ui.tasks import ProgressSpec, TaskRunner

COLUMNS = (QT_TRANSLATE_NOOP("ChooseFromVideoDialog", "When"), QT_TRANSLATE_NOOP("ChooseFromVideoDialog", "Length"),
           QT_TRANSLATE_NOOP("ChooseFromVideoDialog", "Score"), QT_TRANSLATE_NOOP("ChooseFromVideoDialog", "Words"))


class ChooseFromVideoDialog(QDialog):
    """The character's clip candidates from the original, to audition and pick."""

    # The EditCharacter changes that make the chosen stretch the clip; they cross as a QVariantMap,
    # which keeps str keys only (all a change has: they are EditCharacter's keyword arguments).
    picked = Signal(dict)

    def __init__(self, project: Project, character_id: str, runner: TaskRunner, player: Player,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chooseFromVideoDialog")
        self._project = project
        self._character = project.character(character_id)
        self._runner = runner
        self.originals = OriginalAudio(player, runner, self)
        self.originals.changed.connect(self._show_playing)
        self.originals.failed.connect(self._say)
        player.position.connect(self._on_position)
        self._player = player
        self.candidates: list[ClipCandidate] = []
        self._closed = False  # the candidates found after it closed are not wanted
        self.finished.connect(self._on_finished)
        self.setWindowTitle(fill(self.tr("Choose {name}'s clip from the video"), name=self._character.name))
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
        self._player.position.disconnect(self._on_position)
        self.originals.close()

    def _enable_choosing(self) -> None:
        for button in (self.play_button, self.buttons.button(QDialogButtonBox.StandardButton.Ok)):
            button.setEnabled(bool(self.candidates))

    def _show_candidates(self, candidates: list[ClipCandidate]) -> None:
        self.candidates = candidates
        self.table.setRowCount(len(candidates))
        for row, candidate in enumerate(candidates):
            cells = (self._when(candidate), fill(self.tr("{seconds:.1f} s"), seconds=candidate.end - candidate.start),
                     number(candidate.score, 2), candidate.text)
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(fill(self.tr("{text}\n\nSNR {snr_db:.0f} dB, purity {purity:+.2f} (how much more it sounds like this speaker than the nearest other)"), text=candidate.text, snr_db=candidate.snr_db, purity=candidate.purity))
                self.table.setItem(row, column, item)
        self.table.resizeColumnsToContents()
        # room for the ▶ that marks the candidate playing, so the time never elides to "▶ …"
        self.table.setColumnWidth(0, self.table.columnWidth(0) + self.table.fontMetrics().horizontalAdvance("▶ "))
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
        """Play the chosen candidate from the video, or stop the one that plays (the button is
        its Stop button meanwhile)."""
        if self._playing_row() is not None:
            self._player.stop()
            return
        candidate = self.chosen()
        if candidate is None:
            return
        self.note.setText(fill(self.tr("Cutting {when} from the video…"), when=self._when(candidate)))
        self.originals.toggle(self._project, self._key(candidate), candidate.start, candidate.end)

    def _key(self, candidate: ClipCandidate) -> str:
        return f"candidate:{self._character.id}:{candidate.start}"

    @staticmethod
    def _when(candidate: ClipCandidate) -> str:
        return f"{format_clock(candidate.start)}–{format_clock(candidate.end)}"

    def _playing_row(self) -> int | None:
        key = self.originals.playing
        return next((row for row, candidate in enumerate(self.candidates) if self._key(candidate) == key), None)

    def _show_playing(self, _key: str) -> None:
        """The row that plays is marked, the note says so (or that it stopped), Play is Stop."""
        row = self._playing_row()
        for index, candidate in enumerate(self.candidates):
            cell = self.table.item(index, 0)
            if cell is not None:
                cell.setText(("▶ " if index == row else "") + self._when(candidate))
        self.play_button.setText(self.tr("■ Stop") if row is not None else self.tr("Play"))
        if row is not None:
            notice = self.originals.silent_notice()
            self._say(fill(self.tr("▶ Playing {when}"), when=self._when(self.candidates[row]))
                      + (f" — {notice}" if notice else ""))
        elif self.candidates:
            self._say(self.tr("Stopped"))

    def _on_position(self, seconds: float) -> None:
        row = self._playing_row()
        if row is not None:
            notice = self.originals.silent_notice()
            self._say(fill(self.tr("▶ Playing {when}: {seconds:.1f} s"), when=self._when(self.candidates[row]), seconds=seconds) + (f" — {notice}" if notice else ""))

    def _say(self, text: str) -> None:
        self.note.setText(text)

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
    """Which of a character's lines go to a new character; each line's original can be heard
    (Play, or a double click) to tell the two actors apart."""

    def __init__(self, project: Project, character_id: str, runner: TaskRunner, player: Player,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("splitCharacterDialog")
        self._project = project
        self._player = player
        self.originals = OriginalAudio(player, runner, self)
        self.originals.changed.connect(self._show_playing)
        self.originals.failed.connect(self._say)
        self.finished.connect(lambda _result: self.originals.close())
        name = project.character(character_id).name
        self.setWindowTitle(fill(self.tr("Split {name}"), name=name))
        self.lines = QListWidget()
        self.lines.setObjectName("splitLines")
        for line in project.lines_of(character_id):
            item = QListWidgetItem(self._label(line.id))
            item.setData(Qt.ItemDataRole.UserRole, line.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.lines.addItem(item)
        self.lines.itemDoubleClicked.connect(lambda _item: self.play())
        self.play_button = QPushButton(self.tr("▶ Play the original"))
        self.play_button.setObjectName("playSplitLine")
        self.play_button.setToolTip(self.tr("Hear the selected line in the video (double-click a line does the same)"))
        self.play_button.clicked.connect(self.play)
        self.play_button.setEnabled(project.video_path() is not None and self.lines.count() > 0)
        if project.video_path() is None:
            self.play_button.setToolTip(self.tr("The project has no video to hear the lines in"))
        self.note = QLabel("")
        self.note.setObjectName("splitNote")
        self.note.setWordWrap(True)
        if self.lines.count():
            self.lines.setCurrentRow(0)
        buttons = ok_cancel(self, self.tr("Give them to a new character"))
        actions = QHBoxLayout()
        actions.addWidget(self.play_button)
        actions.addStretch(1)
        actions.addWidget(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(fill(self.tr("Tick the lines another actor says; they move from {name} to a new character."), name=name)))
        layout.addWidget(self.lines, 1)
        layout.addWidget(self.note)
        layout.addLayout(actions)
        self.resize(560, 420)

    def checked(self) -> list[str]:
        return [self.lines.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.lines.count())
                if self.lines.item(i).checkState() == Qt.CheckState.Checked]

    def play(self) -> None:
        """Play the current line's original, or stop the one that plays (Play is Stop meanwhile)."""
        if self.originals.playing:
            self._player.stop()
            return
        item = self.lines.currentItem()
        if item is not None:
            self.originals.toggle_line(self._project, str(item.data(Qt.ItemDataRole.UserRole)))

    def _label(self, line_id: str, playing: bool = False) -> str:
        line = self._project.line(line_id)
        when = format_clock(line.start) + "  " if line.start is not None else ""
        return ("▶ " if playing else "") + f"{when}{line.text}"

    def _show_playing(self, key: str) -> None:
        for index in range(self.lines.count()):
            item = self.lines.item(index)
            line_id = str(item.data(Qt.ItemDataRole.UserRole))
            item.setText(self._label(line_id, playing=bool(key) and key == OriginalAudio.line_key(line_id)))
        self.play_button.setText(self.tr("■ Stop") if key else self.tr("▶ Play the original"))
        notice = self.originals.silent_notice() if key else ""
        self._say(notice)

    def _say(self, text: str) -> None:
        self.note.setText(text)


STAGES = {  # translated where shown (transcription_progress)
    "loading": QT_TRANSLATE_NOOP("Transcription", "Loading the speech models"),
    "listening": QT_TRANSLATE_NOOP("Transcription", "Listening to the dialogue"),
    # Between Whisper's stretches the engine estimates how far it is from its speed (engine/hearing/transcribe.py).
    "listening:estimated": QT_TRANSLATE_NOOP("Transcription", "Listening to the dialogue (estimated from Whisper's speed)"),
    "speakers": QT_TRANSLATE_NOOP("Transcription", "Telling the voices apart"),
    "clips": QT_TRANSLATE_NOOP("Transcription", "Choosing each voice's clip"),
    "cutting": QT_TRANSLATE_NOOP("Transcription", "Cutting each voice's clip into voices/"),
}
# A new project's lines translated once transcribed (New project from a video), when asked for.
TRANSLATING, TRANSLATING_LABEL = "translating", QT_TRANSLATE_NOOP("Transcription", "Translating the lines")
# Each stage's share of the bar: its share of the time a 58 s two-voice scene took (tiny.en,
# loaded models 5.6 s, listening 63.8 s, the rest under a second each).
STAGE_WEIGHTS = {"loading": 6.0, "listening": 64.0, "speakers": 1.0, "clips": 1.0, "cutting": 1.0,
                 TRANSLATING: 16.0}  # a guess: a local model's answers for a scene's lines


def transcription_progress(parent: QWidget, translating: bool = False) -> ProgressSpec:
    """A transcription's dialog: its stage, how far, and Cancel (the work stops at its next window
    or segment); the window waits for it, as its script is about to be replaced. ``translating``:
    the lines are translated afterwards, a stage of its own."""
    stages = {key: QCoreApplication.translate("Transcription", str(label)) for key, label in STAGES.items()}
    if translating:
        stages[TRANSLATING] = QCoreApplication.translate("Transcription", TRANSLATING_LABEL)
    return ProgressSpec(parent, QCoreApplication.translate("Transcription", "Transcribing the dialogue"),
                        stages["loading"], QCoreApplication.translate("Transcription", "Cancelling the transcription"),
                        stages=stages, weights=STAGE_WEIGHTS, modal=True)

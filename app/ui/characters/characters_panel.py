"""The characters tab: a list of voices and an editor for the selected one.

Every field commits one undoable EditCharacter when the user finishes editing it (focus out,
Enter, a finished drag of the trim region), never per keystroke. Changing anything that shapes
the voice (clip, trim, transcript, language, settings) makes the engine prepare it again,
which is how the "prepared" indicator stays truthful.

At about 830 lines it is over the ~600 the project aims at: the list, the editor and the clip's
life (loading, trimming, recording, hearing its transcript, playing it) all follow the one
selected character and its undo stack. Its constructor is cut into builders; the transcript
hearing (about 90 lines) is the part that would leave first, as a child widget.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor, QFocusEvent, QIcon, QPixmap
from PySide6.QtWidgets import (
    QColorDialog,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.project import AddCharacter, Change, EditCharacter, Project, ProjectError
from app.project.clips import import_clip
from app.project.fsutil import safe_filename
from app.project.model import MIN_CLIP_PURITY, MIN_CLIP_WARN_S, clip_warning
from app.project.qa import hear_character_clip
from app.project.transcription import cut_line, cut_region
from app.project.translatable import QT_TRANSLATE_NOOP
from app.project.undo import MergeCharacters, SplitCharacter
from app.ui.characters.cast_offer import CastOfferRow
from app.ui.characters.character_removal import ask_to_remove
from app.ui.characters.voices import VoiceState, VoiceStates
from app.ui.characters.waveform import WaveformView
from app.ui.folders import Folders
from app.ui.language import fill, number
from app.ui.playback.player import Player, read_mono
from app.ui.playback.recorder import Recorder
from app.ui.script.speed_box import SpeedBox
from app.ui.tasks import TaskRunner
from app.ui.timeline.video_clips import ChooseFromVideoDialog, SplitCharacterDialog
from app.ui.window.document import Document
from engine.core.codes import ErrorCode
from engine.core.files import FileError
from engine.core.languages import SAMPLE_SENTENCES, sample_sentence
from engine.core.protocol import PITCH, Capabilities, VoiceSettings
from engine.core.reference import transcript_beside
from engine.hearing.qa.transcripts import mismatch
from engine.hearing.whisper import DEFAULT_MODEL as DEFAULT_RECOGNISER_MODEL
from engine.synthesis.voices import RESEMBLANCE_EXPLAINED

if TYPE_CHECKING:
    from engine.hearing.qa.recognise import Transcript

# Marked for the panel's context; shown through its tr().
PLAY_REFERENCE = QT_TRANSLATE_NOOP("CharactersPanel", "▶ Play reference")
PLAY_AUDITION = QT_TRANSLATE_NOOP("CharactersPanel", "▶ Audition")
STOP = QT_TRANSLATE_NOOP("CharactersPanel", "■ Stop")
AUDIO_FILTER = QT_TRANSLATE_NOOP("CharactersPanel", "Audio files (*.wav *.flac *.ogg *.mp3 *.m4a *.aac *.aif *.aiff "
                                                    "*.opus *.wma);;All files (*)")
CHARACTER_SPEED_TIP = QT_TRANSLATE_NOOP("CharactersPanel", "This character's speaking rate (1 = the voice's own, 2 = "
                                                           "twice as fast)")


def split_off(project: Project, character_id: str, line_ids: list[str]) -> SplitCharacter:
    """The edit that gives ``line_ids`` to a new character "<name> N" (the first free N from 2)
    speaking the same language; from the Characters panel and the script table alike."""
    base, n = project.character(character_id).name, 2
    while project.character_by_name(f"{base} {n}") is not None:
        n += 1
    language = project.character(character_id).settings.language
    return SplitCharacter(character_id, line_ids, project.make_character(f"{base} {n}",
                                                                         settings=VoiceSettings(language=language)))


class _ClipHearing(NamedTuple):
    """What hearing a character's clip depends on: the clip and its trim, the transcript it is
    compared with, and the language and model that hear it."""

    character_id: str
    clip: str
    clip_start: float
    clip_end: float | None
    transcript: str
    language: str
    model: str

    def same_clip(self, other: _ClipHearing) -> bool:
        return (self.character_id, self.clip, self.clip_start, self.clip_end) == (
            other.character_id, other.clip, other.clip_start, other.clip_end)


def colour_icon(colour: str, size: int = 14) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(colour))
    return QIcon(pixmap)


class _CommitLineEdit(QLineEdit):
    """A line edit that reports its text once, when editing finishes and only if it changed."""

    committed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._shown = ""
        self.editingFinished.connect(self._finish)

    def show_text(self, text: str) -> None:
        self._shown = text
        self.setText(text)

    def _finish(self) -> None:
        if self.text() != self._shown:
            self._shown = self.text()
            self.committed.emit(self.text())


class _CommitTextEdit(QPlainTextEdit):
    """A plain text edit that reports its text when it loses focus, if it changed."""

    committed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._shown = ""

    def show_text(self, text: str) -> None:
        self._shown = text
        self.setPlainText(text)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        if self.toPlainText() != self._shown:
            self._shown = self.toPlainText()
            self.committed.emit(self._shown)


class CharactersPanel(QWidget):
    """Lists characters and edits the selected one.

    Playback goes through callbacks the window provides: ``play_clip(key, pcm, rate)`` for the
    reference clip and ``audition(character_id, text)`` to speak a sample sentence (it returns
    the key it plays under, None when refused). With the window's ``player`` the buttons show
    what plays and turn into Stop buttons while it does.
    """

    def __init__(
        self,
        document: Document,
        voices: VoiceStates,
        runner: TaskRunner,
        play_clip: Callable[[str, np.ndarray, int], None],
        audition: Callable[[str, str], str | None],
        can_record: bool,
        parent: QWidget | None = None,
        player: Player | None = None,
        folders: Folders | None = None,
    ) -> None:
        super().__init__(parent)
        self._doc = document
        self._voices = voices
        self._runner = runner
        self._play_clip = play_clip
        self._audition = audition
        self._player = player
        self._silent_player: Player | None = None  # the dialogs' when the window lent no player (tests)
        self._folders = folders or Folders(project_dir=lambda: document.project.root)
        self._current: str | None = None
        self._clip_audio: tuple[str, np.ndarray, int] | None = None  # (clip rel path, pcm, rate)
        self._audition_key = ""  # what the last audition plays under (a job id)
        self._playing = ""  # what the player plays now, when it is this panel's
        # The Whisper model the studio's settings chose (the window sets it).
        self.recogniser_model: Callable[[], str] = lambda: DEFAULT_RECOGNISER_MODEL
        # What each clip hearing was found to be: a warning, or "" for a match.
        self._transcript_checks: dict[_ClipHearing, str] = {}
        # Characters whose clip was replaced here while they kept their transcript.
        self._replaced_clips: set[str] = set()

        left = self._build_list()
        self._build_clip_fields(can_record)
        self._build_voice_fields()
        scroll = self._build_editor()

        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(scroll)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([220, 700])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(splitter)

        document.changed.connect(self._on_change)
        voices.changed.connect(self._on_voice_changed)
        if player is not None:
            player.started.connect(self._on_play_started)
            player.stopped.connect(self._on_play_stopped)
            player.position.connect(self._on_play_position)
        self._fill_list()

    # --- building (once, in the order the widgets are made: it is the focus order) -------------

    def _build_list(self) -> QWidget:
        """The character list and its buttons (add, remove, merge, split)."""
        self.list = QListWidget()
        self.list.setObjectName("characterList")
        self.list.setIconSize(QSize(14, 14))
        # Long names wrap onto a second line instead of being cut off at the list's edge.
        self.list.setWordWrap(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setSpacing(1)
        self.list.currentItemChanged.connect(self._on_select)
        add = QPushButton(self.tr("Add"))
        add.setToolTip(self.tr("Add a character"))
        add.clicked.connect(self._add)
        self.remove_button = QPushButton(self.tr("Remove"))
        self.remove_button.clicked.connect(self._remove)
        self.merge_button = QPushButton(self.tr("Merge…"))
        self.merge_button.setObjectName("mergeCharacter")
        self.merge_button.setToolTip(self.tr("Give this character's lines to another and remove it (one actor heard as two)"))
        self.merge_button.clicked.connect(self._merge)
        self.split_button = QPushButton(self.tr("Split…"))
        self.split_button.setObjectName("splitCharacter")
        self.split_button.setToolTip(self.tr("Give some of this character's lines to a new character (two actors heard as one)"))
        self.split_button.clicked.connect(self._split)
        self.dialog: QDialog | None = None  # the cast dialog open now (tests drive it)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(QLabel(self.tr("<b>Characters</b>")))
        left_layout.addWidget(self.list, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(self.remove_button)
        left_layout.addLayout(buttons)
        cast_buttons = QHBoxLayout()
        cast_buttons.addWidget(self.merge_button)
        cast_buttons.addWidget(self.split_button)
        left_layout.addLayout(cast_buttons)
        return left

    def _build_clip_fields(self, can_record: bool) -> None:
        """The editor's name, colour, reference clip (import, record, play, trim) and transcript."""
        self.name = _CommitLineEdit()
        self.name.setObjectName("characterName")
        self.name.committed.connect(lambda v: self._edit(name=v))
        self.cast_offer = CastOfferRow(self._doc, self._runner)
        self.colour = QPushButton()
        self.colour.setToolTip(self.tr("Colour used for this character in the script"))
        self.colour.setMaximumWidth(140)
        self.colour.clicked.connect(self._pick_colour)
        self.clip_label = QLabel(self.tr("No reference clip"))
        self.clip_label.setWordWrap(True)
        self.clip_quality = QLabel("")  # the clip's purity, and a warning when it may clone badly
        self.clip_quality.setObjectName("clipQuality")
        self.clip_quality.setWordWrap(True)
        self.import_button = QPushButton(self.tr("Import clip…"))
        self.import_button.clicked.connect(self._import_clip)
        self.from_video_button = QPushButton(self.tr("Choose from the video…"))
        self.from_video_button.setObjectName("chooseFromVideo")
        self.from_video_button.setToolTip(self.tr("Pick this character's cleanest stretch of the original dialogue as the clip"))
        self.from_video_button.clicked.connect(self.choose_from_video)
        self.recorder = Recorder()
        self.record_button = QPushButton(self.tr("● Record"))
        self.record_button.setObjectName("recordButton")
        self.record_button.clicked.connect(self._toggle_record)
        self.record_button.setEnabled(can_record)
        self.record_button.setToolTip(
            self.tr("Record a reference clip from the microphone")
            if can_record
            else self.tr("No microphone (audio input device) was found")
        )
        self.play_reference = QPushButton(self.tr(PLAY_REFERENCE))
        self.play_reference.setObjectName("playReferenceButton")
        self.play_reference.clicked.connect(self._play_reference)
        self.waveform = WaveformView()
        self.waveform.setObjectName("waveform")
        self.waveform.trim_changed.connect(self._on_trim)
        self.trim_label = QLabel("")
        self.transcript = _CommitTextEdit()
        self.transcript.setPlaceholderText(self.tr("What is said in the clip (helps voice cloning)"))
        self.transcript.setMaximumHeight(64)
        self.transcript.committed.connect(lambda v: self._edit(transcript=v.strip(), transcript_heard=False))
        self.transcript_note = QLabel("")
        self.transcript_note.setObjectName("transcriptNote")
        self.transcript_note.setWordWrap(True)
        self.hear_button = QPushButton(self.tr("Hear it from the clip"))
        self.hear_button.setObjectName("hearTranscript")
        self.hear_button.setToolTip(self.tr("Replace the transcript with the words Whisper hears in the (trimmed) clip"))
        self.hear_button.clicked.connect(lambda: self._hear_transcript(replace_typed=True))

    def _build_voice_fields(self) -> None:
        """The voice settings, the audition and what the engine says of the voice."""
        self.language = _CommitLineEdit()
        self.language.setPlaceholderText(self.tr("backend default"))
        self.language.setMaximumWidth(120)
        self.language.committed.connect(lambda v: self._edit_setting(language=v.strip()))
        self.speed = SpeedBox()
        self.speed.editingFinished.connect(lambda: self._edit_setting(speed=self.speed.picked()))
        self.pitch = QDoubleSpinBox()
        self.pitch.setRange(PITCH.low, PITCH.high)
        self.pitch.setSingleStep(0.5)
        self.pitch.setSuffix(self.tr(" st"))
        self.pitch.editingFinished.connect(
            lambda: self._edit_setting(pitch_semitones=round(self.pitch.value(), 2))
        )
        self.instruction = _CommitLineEdit()
        self.instruction.setPlaceholderText(self.tr("e.g. speak softly (backends with instructions)"))
        self.instruction.committed.connect(lambda v: self._edit_setting(instruction=v.strip()))
        self.sample = QLineEdit(sample_sentence("en"))
        self.audition_button = QPushButton(self.tr(PLAY_AUDITION))
        self.audition_button.setObjectName("auditionButton")
        self.audition_button.setToolTip(self.tr("Speak the sample sentence in this voice (streams as it renders)"))
        self.audition_button.clicked.connect(self._on_audition)
        self.playing_label = QLabel("")
        self.playing_label.setObjectName("playingLabel")
        self.playing_label.setMinimumWidth(150)
        self.audition_label = QLabel("")  # the audition's elapsed time, beside its button
        self.audition_label.setObjectName("auditionTime")
        self.audition_label.setMinimumWidth(self.audition_label.fontMetrics().horizontalAdvance("▶ 88.8 s") + 8)
        self.voice_status = QLabel("")
        self.voice_status.setObjectName("voiceStatus")
        self.voice_status.setWordWrap(True)
        self.resemblance = QLabel("")
        self.resemblance.setObjectName("voiceResemblance")
        self.resemblance.setToolTip(RESEMBLANCE_EXPLAINED)

    def _build_editor(self) -> QScrollArea:
        """Lays the selected character's fields out as a form in a scroll area."""
        clip_row = QHBoxLayout()
        clip_row.addWidget(self.import_button)
        clip_row.addWidget(self.from_video_button)
        clip_row.addWidget(self.record_button)
        clip_row.addWidget(self.play_reference)
        clip_row.addWidget(self.playing_label)
        clip_row.addStretch(1)
        settings_row = QHBoxLayout()
        settings_row.addWidget(QLabel(self.tr("Speed")))
        settings_row.addWidget(self.speed)
        settings_row.addWidget(QLabel(self.tr("Pitch")))
        settings_row.addWidget(self.pitch)
        settings_row.addWidget(QLabel(self.tr("Language")))
        settings_row.addWidget(self.language)
        settings_row.addStretch(1)
        audition_row = QHBoxLayout()
        audition_row.addWidget(self.sample, 1)
        audition_row.addWidget(self.audition_button)
        audition_row.addWidget(self.audition_label)

        form = QFormLayout()
        form.addRow(self.tr("Name"), self.name)
        form.addRow("", self.cast_offer)
        form.addRow(self.tr("Colour"), self.colour)
        form.addRow(self.tr("Reference"), self.clip_label)
        form.addRow("", _wrap(clip_row))
        form.addRow(self.tr("Trim (s)"), self.waveform)
        form.addRow("", self.trim_label)
        form.addRow("", self.clip_quality)
        form.addRow(self.tr("Transcript"), self.transcript)
        transcript_row = QHBoxLayout()
        transcript_row.addWidget(self.transcript_note, 1)
        transcript_row.addWidget(self.hear_button)
        form.addRow("", _wrap(transcript_row))
        form.addRow(self.tr("Voice"), _wrap(settings_row))
        form.addRow(self.tr("Instruction"), self.instruction)
        form.addRow(self.tr("Audition"), _wrap(audition_row))
        form.addRow(self.tr("Engine"), self.voice_status)
        form.addRow("", self.resemblance)
        self.editor = QWidget()
        editor_layout = QVBoxLayout(self.editor)
        editor_layout.addLayout(form)
        editor_layout.addStretch(1)  # keep the rows together at the top
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.editor)
        return scroll


    # --- public -------------------------------------------------------------------------------

    @property
    def current_id(self) -> str | None:
        return self._current

    def select(self, character_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == character_id:
                self.list.setCurrentRow(row)
                return

    def set_capabilities(self, capabilities: Capabilities) -> None:
        """Enable what the running backend supports, and offer the speeds it speaks at."""
        instructions, languages = capabilities.instructions, capabilities.languages
        self.instruction.setEnabled(instructions)
        self.instruction.setToolTip("" if instructions else self.tr("The current backend does not take instructions"))
        self.language.setToolTip(fill(self.tr("Languages of this backend: {join}"), join=', '.join(languages)) if languages else "")
        self.speed.set_range(capabilities.speed)

    def set_playhead(self, seconds: float | None) -> None:
        self.waveform.set_playhead(seconds)

    # --- list ---------------------------------------------------------------------------------

    def _item_text(self, character_id: str) -> str:
        char = self._doc.project.character(character_id)
        count = len(self._doc.project.lines_of(character_id))
        return char.name + "\n" + self.tr("%n line(s)", "", count)

    def _update_counts(self) -> None:
        for row in range(self.list.count()):
            item = self.list.item(row)
            item.setText(self._item_text(item.data(Qt.ItemDataRole.UserRole)))
            item.setToolTip(item.text().replace("\n", " · "))

    def _fill_list(self) -> None:
        keep = self._current
        self.list.blockSignals(True)
        self.list.clear()
        project = self._doc.project
        for char in project.characters:
            item = QListWidgetItem(colour_icon(char.colour), self._item_text(char.id))
            item.setToolTip(item.text().replace("\n", " · "))
            item.setData(Qt.ItemDataRole.UserRole, char.id)
            self.list.addItem(item)
        self.list.blockSignals(False)
        ids = [c.id for c in project.characters]
        if keep in ids:
            self.select(keep)  # type: ignore[arg-type]
        elif ids:
            self.list.setCurrentRow(0)
        else:
            self._show(None)

    def _on_select(self, item: QListWidgetItem | None, _previous: QListWidgetItem | None = None) -> None:
        self._show(item.data(Qt.ItemDataRole.UserRole) if item is not None else None)

    def _add(self) -> None:
        project = self._doc.project
        n = len(project.characters) + 1
        name = f"Character {n}"
        while project.character_by_name(name) is not None:
            n += 1
            name = f"Character {n}"
        char = project.make_character(name)
        if self._doc.push(AddCharacter(char)):
            self.select(char.id)
            self.name.setFocus()
            self.name.selectAll()

    def _remove(self) -> None:
        if self._current is not None:  # a character with lines asks first what becomes of them
            ask_to_remove(self, self._doc.project, self._current, self._doc.push)

    # --- editor -------------------------------------------------------------------------------

    def _show(self, character_id: str | None) -> None:
        self._current = character_id
        self.editor.setEnabled(character_id is not None)
        self.remove_button.setEnabled(character_id is not None)
        self.merge_button.setEnabled(character_id is not None and len(self._doc.project.characters) > 1)
        self.split_button.setEnabled(character_id is not None)
        self.cast_offer.show_for(character_id)
        if character_id is None:
            self.name.show_text("")
            self.clip_label.setText(self.tr("Add a character to give it a voice."))
            self.waveform.set_audio(None, 0, "Add a character to give it a voice")
            self.clip_quality.setText("")
            self.voice_status.setText("")
            self.resemblance.setText("")
            return
        char = self._doc.project.character(character_id)
        self.name.show_text(char.name)
        self.colour.setText(char.colour)
        self.colour.setIcon(colour_icon(char.colour))
        self.transcript.show_text(char.transcript)
        self.language.show_text(char.settings.language)
        if self.sample.text().strip() in ("", *SAMPLE_SENTENCES.values()):  # not a sentence of the user's
            # What the voice says is content in its language, not interface text.
            self.sample.setText(sample_sentence(char.settings.language or self._doc.project.language or "en"))
        self.speed.show_speed(char.settings.speed, self.tr(CHARACTER_SPEED_TIP))
        self.pitch.setValue(char.settings.pitch_semitones)
        self.instruction.show_text(char.settings.instruction)
        self.waveform.set_colour(char.colour)
        self.play_reference.setEnabled(bool(char.clip))
        self.audition_button.setEnabled(bool(char.clip))
        self.clip_label.setText(char.clip or self.tr("No reference clip: import one (WAV, FLAC, MP3, …)"))
        self._load_clip()
        self._show_voice_status()
        self._show_transcript_check()
        if self._voices.status(character_id).state is VoiceState.UNKNOWN:
            self._voices.prepare(self._doc.project, character_id)

    def _load_clip(self) -> None:
        char = self._doc.project.character(self._current) if self._current else None
        if char is None or not char.clip:
            self._clip_audio = None
            self.waveform.set_audio(None, 0)
            self.trim_label.setText("")
            self.clip_quality.setText("")
            return
        rel = char.clip
        if self._clip_audio is not None and self._clip_audio[0] == rel:
            self._show_trim()
            return
        self._clip_audio = None
        self.waveform.set_audio(None, 0, "Reading the clip…")  # never the previous character's clip
        self._show_clip_quality(None)  # the purity now; the length once the clip is read
        path = self._doc.project.resolve(rel)

        def moved_on() -> bool:  # the user chose another character or clip while this one decoded
            return self._current is None or self._doc.project.character(self._current).clip != rel

        def loaded(result: tuple[np.ndarray, int]) -> None:
            if moved_on():
                return
            pcm, rate = result
            self._clip_audio = (rel, pcm, rate)
            self.waveform.set_audio(pcm, rate)
            self._show_trim()

        def failed(exc: BaseException) -> None:
            if moved_on():
                return
            self.clip_label.setText(fill(self.tr("{rel}: cannot read ({exc})"), rel=rel, exc=exc))
            self.waveform.set_audio(None, 0, self.tr("The clip cannot be read: import it again or record one"))

        self._runner.run(lambda: read_mono(path), loaded, failed)

    def _show_trim(self) -> None:
        if self._current is None:
            return
        char = self._doc.project.character(self._current)
        self.waveform.set_trim(char.clip_start, char.clip_end)
        end = self.waveform.duration if char.clip_end is None else char.clip_end
        self.trim_label.setText(
            fill(self.tr("Using {clip_start:.2f} s – {end:.2f} s of {duration:.2f} s (drag the edges of the highlighted region)"), clip_start=char.clip_start, end=end, duration=self.waveform.duration)
        )
        self._show_clip_quality(end - char.clip_start)

    def _show_clip_quality(self, seconds: float | None) -> None:
        """Show the clip's purity (a clip cut from the video has one) and warn, with why in the
        tooltip, when clip_warning finds it impure or too short; ``seconds`` (trimmed) or None
        while unknown."""
        char = self._doc.project.character(self._current) if self._current else None
        if char is None or not char.clip:
            self.clip_quality.setText("")
            self.clip_quality.setToolTip("")
            return
        purity = char.clip_purity
        purity_text = "" if purity is None else ("+" if purity >= 0 else "") + number(purity, 2)
        reasons = []
        if clip_warning(purity, None) is not None:
            reasons.append(fill(self.tr("It may hold another voice: its purity {purity} is under {least} (how much "
                                   "more it sounds like this character than like the nearest other)."), purity=purity_text, least=number(MIN_CLIP_PURITY, 2)))
        if clip_warning(None, seconds) is not None and seconds is not None:
            reasons.append(fill(self.tr("It is short: {seconds} s; a clip of {least} s or more clones better."), seconds=number(seconds, 1), least=number(MIN_CLIP_WARN_S)))
        score = fill(self.tr("Purity {purity}"), purity=purity_text) if purity is not None else ""
        if reasons:
            self.clip_quality.setText(" ".join(filter(None, ["⚠", self.tr("Check this clip"), score])))
            self.clip_quality.setToolTip("\n".join(reasons))
        else:
            self.clip_quality.setText(score)
            self.clip_quality.setToolTip(self.tr("How much more the clip sounds like this character than like "
                                                 "the nearest other (from the video)") if score else "")

    # --- transcripts by ear ----------------------------------------------------------------------

    def _transcript_key(self) -> _ClipHearing | None:
        char = self._doc.project.character(self._current) if self._current else None
        if char is None or not char.clip:
            return None
        return _ClipHearing(char.id, char.clip, char.clip_start, char.clip_end, char.transcript,
                            char.settings.language, self.recogniser_model())

    def _show_transcript_check(self) -> None:
        """Say whether the transcript was heard, and warn when a typed one does not match the
        (trimmed) clip; the clip is heard in the background, once per clip, trim and text."""
        key = self._transcript_key()
        self.hear_button.setEnabled(key is not None)
        if key is None or self._current is None:
            self.transcript_note.setText("")
            return
        char = self._doc.project.character(self._current)
        if not char.transcript.strip():
            self.transcript_note.setText(self.tr("No transcript: it will be heard from the clip when one is imported"))
            return
        # Only a trim or a new clip can part a transcript from its clip; hearing every clip shown
        # would keep a core busy whenever one browses the cast.
        suspect = char.trimmed or char.id in self._replaced_clips
        if key not in self._transcript_checks:
            self.transcript_note.setText(self.tr("Heard from the clip: check it") if char.transcript_heard else "")
            self.transcript_note.setStyleSheet("")
            if suspect:
                self._check_transcript(key)
            return
        warning = self._transcript_checks[key]
        heard = self.tr("Heard from the clip: check it. ") if char.transcript_heard else ""
        self.transcript_note.setText(f"{heard}⚠ {warning}" if warning else heard.strip())
        self.transcript_note.setStyleSheet("color: #d62728" if warning else "")

    def _check_transcript(self, key: _ClipHearing) -> None:
        character_id, transcript, model = key.character_id, key.transcript, key.model
        project = self._doc.project
        thresholds = project.settings.qa

        def heard(result: Transcript) -> None:
            found = mismatch(transcript, result, thresholds)
            self._transcript_checks[key] = str(found) if found is not None else ""
            if self._transcript_key() == key:
                self._show_transcript_check()

        def failed(exc: BaseException) -> None:
            self._transcript_checks[key] = ""  # nothing to compare with: no warning, the error is shown
            if self._transcript_key() == key:
                self.transcript_note.setText(fill(self.tr("The clip could not be heard: {exc}"), exc=exc))

        self._runner.run(lambda: hear_character_clip(project, character_id, model), heard, failed)

    def _hear_transcript(self, replace_typed: bool = False) -> None:
        """Fill the transcript with what the clip says (marked as heard): when it is empty, or on request."""
        key = self._transcript_key()
        if key is None:
            return
        character_id, model = key.character_id, key.model
        project = self._doc.project
        self.transcript_note.setText(self.tr("Listening to the clip…"))
        self.hear_button.setEnabled(False)

        def heard(result: Transcript) -> None:
            current = self._transcript_key()
            if current is None or not current.same_clip(key):
                return  # another character or clip is shown now
            if replace_typed or not self._doc.project.character(character_id).transcript.strip():
                self._edit(transcript=result.text, transcript_heard=True)
            self._show_transcript_check()

        def failed(exc: BaseException) -> None:
            self.hear_button.setEnabled(True)
            self.transcript_note.setText(fill(self.tr("No transcript could be heard: {exc}"), exc=exc))

        self._runner.run(lambda: hear_character_clip(project, character_id, model), heard, failed)

    def _show_voice_status(self) -> None:
        if self._current is None:
            return
        status = self._voices.status(self._current)
        text = {
            VoiceState.UNKNOWN: self.tr("Not prepared yet"),
            VoiceState.PREPARING: self.tr("Preparing the voice…"),
            VoiceState.PREPARED: self.tr("✔ Voice prepared"),
            VoiceState.FAILED: self.tr("✖ Cannot prepare this voice"),
        }[status.state]
        self.voice_status.setText(f"{text}: {status.detail}" if status.detail else text)
        self.resemblance.setText(status.resemblance)

    def _on_voice_changed(self, character_id: str) -> None:
        if character_id == self._current:
            self._show_voice_status()

    def _on_change(self, change: Change) -> None:
        if change.structure or change.characters:
            for character_id in change.characters:
                if any(c.id == character_id for c in self._doc.project.characters):
                    self._voices.forget(character_id)
            self._fill_list()
            if self._current is not None and self._current in change.characters:
                self._show(self._current)
        elif change.lines:
            self._update_counts()  # a line may have moved to another character

    # --- edits ----------------------------------------------------------------------------------

    def _edit(self, **changes: Any) -> None:
        if self._current is None:
            return
        if not self._doc.push(EditCharacter(self._current, **changes)):
            self._show(self._current)  # refused: show the stored values again

    def _edit_setting(self, **changes: Any) -> None:
        if self._current is None:
            return
        char = self._doc.project.character(self._current)
        settings = replace(char.settings, **changes)
        if settings != char.settings:
            self._edit(settings=settings)

    def _pick_colour(self) -> None:
        if self._current is None:
            return
        char = self._doc.project.character(self._current)
        colour = QColorDialog.getColor(QColor(char.colour), self, f"Colour of {char.name}")
        if colour.isValid():
            self._edit(colour=colour.name())

    def _on_trim(self, start: float, end: float) -> None:
        char = self._doc.project.character(self._current) if self._current else None
        if char is None:
            return
        new_end = None if end < 0 else round(end, 3)
        new_start = round(start, 3)
        if (new_start, new_end) != (char.clip_start, char.clip_end):
            self._edit(clip_start=new_start, clip_end=new_end)

    def import_clip_file(self, source: str) -> bool:
        """Copy an audio file into the project and make it the current character's clip."""
        if self._current is None:
            return False
        try:
            rel = import_clip(self._doc.project, source)
        except ProjectError as exc:
            self._doc.error.emit(str(exc))
            return False
        changes: dict[str, Any] = {"clip": rel, "clip_start": 0.0, "clip_end": None, "clip_purity": None}
        char = self._doc.project.character(self._current)
        if char.transcript:
            self._replaced_clips.add(char.id)
        else:
            try:
                transcript = transcript_beside(source)
            except FileError as exc:  # the clip is still imported; type the transcript instead
                self._doc.error.emit(f"{exc} (the clip was imported without it)")
            else:
                if transcript:
                    changes["transcript"], changes["transcript_heard"] = transcript, False
        self._edit(**changes)
        if not self._doc.project.character(self._current).transcript.strip():
            self._hear_transcript()
        return True

    def choose_from_video(self) -> ChooseFromVideoDialog | None:
        """The current character's candidates from the original; the one used becomes the clip."""
        if self._current is None:
            return None
        character_id = self._current
        dialog = ChooseFromVideoDialog(self._doc.project, character_id, self._runner, self._dialog_player(), self)
        dialog.picked.connect(lambda changes: self._doc.push(EditCharacter(character_id, **changes)))
        dialog.finished.connect(lambda _result: dialog.deleteLater())
        self.dialog = dialog
        dialog.open()
        return dialog

    def _dialog_player(self) -> Player:
        """The player a dialog plays the original through: the window's (one thing plays at a
        time), or a silent one of the panel's own when it was given none."""
        if self._player is not None:
            return self._player
        if self._silent_player is None:
            self._silent_player = Player(parent=self)
        return self._silent_player

    def use_line_audio(self, line_id: str) -> None:
        """Cut the line's slot from the video into its character's clip (one undoable edit), in
        the background, then show that character."""
        project = self._doc.project
        self._runner.run(lambda: cut_line(project, line_id), self._use_cut, lambda exc: self._doc.error.emit(str(exc)))

    def use_region(self, character_id: str, start: float, end: float) -> None:
        """Cut ``start``-``end`` of the video (a region of the timeline's original-audio track)
        into the character's clip, as :meth:`use_line_audio`."""
        project = self._doc.project
        self._runner.run(lambda: (character_id, cut_region(project, character_id, start, end)), self._use_cut,
                         lambda exc: self._doc.error.emit(str(exc)))

    def _use_cut(self, result: tuple[str, dict[str, Any]]) -> None:
        """Push a clip cut from the video and show the character (its purity shows, and the
        panel warns of an impure or short clip)."""
        character_id, changes = result
        if self._doc.push(EditCharacter(character_id, **changes)):
            self.select(character_id)

    def merge_into(self, kept_id: str) -> bool:
        """Merge the current character into ``kept_id`` (undoable) and show that one."""
        if self._current is None or not self._doc.push(MergeCharacters(kept_id, self._current)):
            return False
        self.select(kept_id)
        return True

    def _merge(self) -> None:
        if self._current is None:
            return
        project = self._doc.project
        others = [c for c in project.characters if c.id != self._current]
        if not others:
            return
        name, ok = QInputDialog.getItem(self, self.tr("Merge characters"), fill(self.tr("Give {name}'s lines to:"), name=project.character(self._current).name), [c.name for c in others], 0, False)
        if ok:
            self.merge_into(next(c.id for c in others if c.name == name))

    def _split(self) -> SplitCharacterDialog | None:
        if self._current is None:
            return None
        character_id = self._current
        dialog = SplitCharacterDialog(self._doc.project, character_id, self._runner, self._dialog_player(), self)

        def accepted() -> None:
            ids = dialog.checked()
            split = split_off(self._doc.project, character_id, ids)
            if ids and self._doc.push(split):
                self.select(split.new.id)

        dialog.accepted.connect(accepted)
        dialog.finished.connect(lambda _result: dialog.deleteLater())
        self.dialog = dialog
        dialog.open()
        return dialog

    def _import_clip(self) -> None:
        path = self._folders.open_file(self, "clips", self.tr("Import a reference clip"), self.tr(AUDIO_FILTER))
        if path:
            self.import_clip_file(path)

    def _toggle_record(self) -> None:
        """First click records from the microphone; the second makes it the character's clip."""
        if not self.recorder.recording:
            try:
                self.recorder.start()
            except Exception as exc:  # noqa: BLE001 - PortAudio reports device problems with many types
                self._doc.error.emit(f"{ErrorCode.RECORD}: cannot record from the microphone: {exc}")
                return
            self.record_button.setText(self.tr("■ Stop recording"))
            return
        self.record_button.setText(self.tr("● Record"))
        if self._current is None:
            self.recorder.stop()
            return
        name = safe_filename(self._doc.project.character(self._current).name, "voice") + "_recording.wav"
        # Written outside the project, then imported (copied into voices/) like any clip.
        with tempfile.TemporaryDirectory() as tmp:
            try:
                path = self.recorder.stop_to_file(Path(tmp) / name)
            except (ValueError, ProjectError) as exc:
                self._doc.error.emit(str(exc))
                return
            self.import_clip_file(str(path))

    def _play_reference(self) -> None:
        if self._playing.startswith("clip:") and self._player is not None:
            self._player.stop()  # the button is a Stop button while the reference plays
            return
        if self._current is None or self._clip_audio is None:
            return
        char = self._doc.project.character(self._current)
        _rel, pcm, rate = self._clip_audio
        start = int(char.clip_start * rate)
        stop = len(pcm) if char.clip_end is None else int(char.clip_end * rate)
        self._play_clip(f"clip:{char.id}:{char.clip_start}", pcm[start:stop], rate)

    def _on_audition(self) -> None:
        if self._playing and self._playing == self._audition_key and self._player is not None:
            self._player.stop()  # the button is a Stop button while the audition plays
            return
        if self._current is None:
            return
        language = self._doc.project.character(self._current).settings.language or self._doc.project.language
        key = self._audition(self._current, self.sample.text().strip() or sample_sentence(language)) or ""
        self._audition_key = key
        if key and self._player is not None and self._player.playing_key == key:
            self._on_play_started(key)  # it started before its key was known here

    # --- what plays -----------------------------------------------------------------------------

    def _on_play_started(self, key: str) -> None:
        mine = key.startswith("clip:") or (bool(key) and key == self._audition_key)
        self._playing = key if mine else ""
        self._show_playing(0.0)

    def _on_play_stopped(self, _key: str) -> None:
        self._playing = ""
        self._show_playing(0.0)

    def _on_play_position(self, seconds: float) -> None:
        if self._playing:
            self._show_playing(seconds)

    def _show_playing(self, seconds: float) -> None:
        """Buttons and the label say what plays: the reference, the audition, or nothing."""
        reference = self._playing.startswith("clip:")
        audition = bool(self._playing) and not reference
        self.play_reference.setText(self.tr(STOP) if reference else self.tr(PLAY_REFERENCE))
        self.play_reference.setToolTip(self.tr("Stop the reference clip") if reference else self.tr("Play the trimmed reference clip"))
        self.audition_button.setText(self.tr(STOP) if audition else self.tr(PLAY_AUDITION))
        # Each time beside the button that plays it (the audition's was 300 px from its button).
        self.playing_label.setText(fill(self.tr("▶ Playing the reference: {seconds:.1f} s"), seconds=seconds) if reference else "")
        self.audition_label.setText(fill(self.tr("▶ {seconds:.1f} s"), seconds=seconds) if audition else "")


def _wrap(layout: QHBoxLayout) -> QWidget:
    box = QWidget()
    layout.setContentsMargins(0, 0, 0, 0)
    box.setLayout(layout)
    return box

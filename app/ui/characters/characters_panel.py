"""The characters tab: a list of voices and an editor for the selected one.

Every field commits one undoable EditCharacter when the user finishes editing it (focus out,
Enter, a finished drag of the trim region), never per keystroke. Changing anything that shapes
the voice (clip, trim, transcript, language, settings) makes the engine prepare it again,
which is how the "prepared" indicator stays truthful.

The panel holds the list, lays the editor out as one form, follows the selected character and
says what plays (reference or audition). The editor's parts live beside it, each making its
widgets and doing its job for the character shown: the reference clip (reference_clip.py), its
transcript and hearing it (transcript_hearing.py), the voice settings and the engine's word on
the voice (voice_settings.py), the cast library's offer (cast_offer.py), and the edits that
reach into the video or across the cast (cast_edits.py). The panel keeps its parts' widgets as
its own attributes too (``panel.waveform``, ``panel.speed``...): the window and tests reach them so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QColorDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.project import AddCharacter, Change, EditCharacter, ProjectError
from app.project.clips import import_clip
from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.characters.cast_edits import CastEdits
from app.ui.characters.cast_offer import CastOfferRow
from app.ui.characters.character_removal import ask_to_remove
from app.ui.characters.fields import (
    CommitLineEdit,
    ShownCharacter,
    colour_icon,
    row_widget,
    wrapped_field,
)
from app.ui.characters.reference_clip import ReferenceClip
from app.ui.characters.transcript_hearing import TranscriptHearing
from app.ui.characters.voice_settings import VoiceSettingsFields
from app.ui.characters.voices import VoiceState, VoiceStates
from app.ui.folders import Folders
from app.ui.language import fill, said_error
from app.ui.playback.player import Player
from app.ui.playback.recorder import Recorder
from app.ui.tasks import TaskRunner
from app.ui.timeline.video_clips import ChooseFromVideoDialog, SplitCharacterDialog
from app.ui.window.document import Document
from engine.core.files import FileError
from engine.core.languages import SAMPLE_SENTENCES, sample_sentence
from engine.core.protocol import Capabilities
from engine.core.reference import transcript_beside

# Marked for the panel's context; shown through its tr().
PLAY_REFERENCE = QT_TRANSLATE_NOOP("CharactersPanel", "▶ Play reference")
PLAY_AUDITION = QT_TRANSLATE_NOOP("CharactersPanel", "▶ Audition")
STOP = QT_TRANSLATE_NOOP("CharactersPanel", "■ Stop")


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
        self._folders = folders or Folders(project_dir=lambda: document.project.root)
        self._current: str | None = None
        self._audition_key = ""  # what the last audition plays under (a job id)
        self._playing = ""  # what the player plays now, when it is this panel's
        self._shown = ShownCharacter(document, runner, lambda: self._current, self._edit, self)
        self.cast = CastEdits(self._shown, player, self.select)

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
        self.merge_button.clicked.connect(self.cast.merge)
        self.split_button = QPushButton(self.tr("Split…"))
        self.split_button.setObjectName("splitCharacter")
        self.split_button.setToolTip(self.tr("Give some of this character's lines to a new character (two actors heard as one)"))
        self.split_button.clicked.connect(self._split)
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
        self.name = CommitLineEdit()
        self.name.setObjectName("characterName")
        self.name.committed.connect(lambda v: self._edit(name=v))
        self.cast_offer = CastOfferRow(self._doc, self._runner)
        self.colour = QPushButton()
        self.colour.setToolTip(self.tr("Colour used for this character in the script"))
        self.colour.setMaximumWidth(140)
        self.colour.clicked.connect(self._pick_colour)
        self.clip = ReferenceClip(self._shown, self._folders, self.import_clip_file, can_record)
        self.clip_label, self.clip_quality, self.waveform = self.clip.label, self.clip.quality, self.clip.waveform
        self.import_button, self.record_button, self.trim_label = (self.clip.import_button, self.clip.record_button,
                                                                   self.clip.trim_label)
        self.clip.from_video_button.clicked.connect(self.choose_from_video)
        self.waveform.trim_changed.connect(self._on_trim)
        self.play_reference = QPushButton(self.tr(PLAY_REFERENCE))
        self.play_reference.setObjectName("playReferenceButton")
        self.play_reference.clicked.connect(self._play_reference)
        self.hearing = TranscriptHearing(self._shown)
        self.transcript, self.transcript_note = self.hearing.transcript, self.hearing.note

    def _build_voice_fields(self) -> None:
        """The voice settings (voice_settings.py), the audition and what the engine says of the voice."""
        self.voice = VoiceSettingsFields(self._shown, self._voices)
        self.language, self.speed, self.pitch = self.voice.language, self.voice.speed, self.voice.pitch
        self.instruction, self.voice_status, self.resemblance = (self.voice.instruction, self.voice.status,
                                                                 self.voice.resemblance)
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

    def _build_editor(self) -> QScrollArea:
        """Lays the selected character's fields out as a form in a scroll area."""
        clip_row = QHBoxLayout()
        clip_row.addWidget(self.import_button)
        clip_row.addWidget(self.clip.from_video_button)
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
        form.addRow(self.tr("Reference"), wrapped_field(self.clip_label))
        form.addRow("", row_widget(clip_row))
        form.addRow(self.tr("Trim (s)"), self.waveform)
        form.addRow("", self.trim_label)
        form.addRow("", wrapped_field(self.clip_quality))
        form.addRow(self.tr("Transcript"), self.transcript)
        transcript_row = QHBoxLayout()
        transcript_row.addWidget(self.transcript_note, 1)
        transcript_row.addWidget(self.hearing.hear_button)
        form.addRow("", row_widget(transcript_row))
        form.addRow(self.tr("Voice"), row_widget(settings_row))
        form.addRow(self.tr("Instruction"), self.instruction)
        form.addRow(self.tr("Audition"), row_widget(audition_row))
        form.addRow(self.tr("Engine"), wrapped_field(self.voice_status))
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
        self.voice.set_capabilities(capabilities)

    def set_playhead(self, seconds: float | None) -> None:
        self.waveform.set_playhead(seconds)

    @property
    def recorder(self) -> Recorder:
        """The microphone the Record button records from (a test lends a fake one)."""
        return self.clip.recorder

    @recorder.setter
    def recorder(self, recorder: Recorder) -> None:
        self.clip.recorder = recorder

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
            self.clip.show(None)
            self.voice.show(None)
            return
        char = self._doc.project.character(character_id)
        self.name.show_text(char.name)
        self.colour.setText(char.colour)
        self.colour.setIcon(colour_icon(char.colour))
        if self.sample.text().strip() in ("", *SAMPLE_SENTENCES.values()):  # not a sentence of the user's
            # What the voice says is content in its language, not interface text.
            self.sample.setText(sample_sentence(char.settings.language or self._doc.project.language or "en"))
        self.play_reference.setEnabled(bool(char.clip))
        self.audition_button.setEnabled(bool(char.clip))
        self.clip.show(character_id)
        self.voice.show(character_id)
        self.hearing.show(character_id)
        if self._voices.status(character_id).state is VoiceState.UNKNOWN:
            self._voices.prepare(self._doc.project, character_id)

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
            self._doc.error.emit(said_error(exc))
            return False
        changes: dict[str, Any] = {"clip": rel, "clip_start": 0.0, "clip_end": None, "clip_purity": None}
        char = self._doc.project.character(self._current)
        if char.transcript:
            self.hearing.clip_replaced(char.id)
        else:
            try:
                transcript = transcript_beside(source)
            except FileError as exc:  # the clip is still imported; type the transcript instead
                self._doc.error.emit(fill(self.tr("{error} (the clip was imported without it)"), error=said_error(exc)))
            else:
                if transcript:
                    changes["transcript"], changes["transcript_heard"] = transcript, False
        self._edit(**changes)
        if not self._doc.project.character(self._current).transcript.strip():
            self.hearing.hear()
        return True

    def choose_from_video(self) -> ChooseFromVideoDialog | None:
        return self.cast.choose_from_video()

    def use_line_audio(self, line_id: str) -> None:
        self.cast.use_line_audio(line_id)

    def use_region(self, character_id: str, start: float, end: float) -> None:
        self.cast.use_region(character_id, start, end)

    def merge_into(self, kept_id: str) -> bool:
        return self.cast.merge_into(kept_id)

    def _split(self) -> SplitCharacterDialog | None:
        return self.cast.split()

    def _play_reference(self) -> None:
        if self._playing.startswith("clip:") and self._player is not None:
            self._player.stop()  # the button is a Stop button while the reference plays
            return
        trimmed = self.clip.trimmed()
        if trimmed is not None:
            self._play_clip(*trimmed)

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


"""The transcript of a character's reference clip, and hearing it with Whisper.

An imported clip without a transcript gets the words Whisper hears in it (marked as heard, for
the user to check); "Hear it from the clip" replaces a typed one on request. A typed transcript
is compared with the (trimmed) clip only when a trim or a new clip may have parted them, once
per clip, trim and text, and a mismatch is shown as a warning under the field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QPushButton

from app.project.qa import hear_character_clip
from app.ui.characters.fields import CommitTextEdit, ShownCharacter
from app.ui.language import fill, said_error, say
from engine.hearing.qa.transcripts import mismatch
from engine.hearing.whisper import DEFAULT_MODEL as DEFAULT_RECOGNISER_MODEL

if TYPE_CHECKING:
    from engine.hearing.qa.recognise import Transcript


class ClipHearing(NamedTuple):
    """What hearing a character's clip depends on: the clip and its trim, the transcript it is
    compared with, and the language and model that hear it."""

    character_id: str
    clip: str
    clip_start: float
    clip_end: float | None
    transcript: str
    language: str
    model: str

    def same_clip(self, other: ClipHearing) -> bool:
        return (self.character_id, self.clip, self.clip_start, self.clip_end) == (
            other.character_id, other.clip, other.clip_start, other.clip_end)


class TranscriptHearing(QObject):
    """The transcript field, its note and the Hear button of the character shown."""

    def __init__(self, shown: ShownCharacter) -> None:
        super().__init__(shown.owner)
        self._shown = shown
        self._doc = shown.document
        # The Whisper model the studio's settings chose (the window sets it).
        self.recogniser_model: Callable[[], str] = lambda: DEFAULT_RECOGNISER_MODEL
        # What each clip hearing was found to be: a warning, or "" for a match.
        self._checks: dict[ClipHearing, str] = {}
        # Characters whose clip was replaced here while they kept their transcript.
        self._replaced_clips: set[str] = set()
        self.transcript = CommitTextEdit()
        self.transcript.setPlaceholderText(self.tr("What is said in the clip (helps voice cloning)"))
        self.transcript.setMaximumHeight(64)
        self.transcript.committed.connect(lambda v: self._shown.edit(transcript=v.strip(), transcript_heard=False))
        self.note = QLabel("")
        self.note.setObjectName("transcriptNote")
        self.note.setWordWrap(True)
        self.hear_button = QPushButton(self.tr("Hear it from the clip"))
        self.hear_button.setObjectName("hearTranscript")
        self.hear_button.setToolTip(self.tr("Replace the transcript with the words Whisper hears in the (trimmed) clip"))
        self.hear_button.clicked.connect(lambda: self.hear(replace_typed=True))

    def show(self, character_id: str) -> None:
        self.transcript.show_text(self._doc.project.character(character_id).transcript)
        self.show_check()

    def clip_replaced(self, character_id: str) -> None:
        """The character's clip was replaced while it kept its transcript: it is worth checking."""
        self._replaced_clips.add(character_id)

    def _key(self) -> ClipHearing | None:
        char = self._shown.character()
        if char is None or not char.clip:
            return None
        return ClipHearing(char.id, char.clip, char.clip_start, char.clip_end, char.transcript,
                           char.settings.language, self.recogniser_model())

    def show_check(self) -> None:
        """Say whether the transcript was heard, and warn when a typed one does not match the
        (trimmed) clip; the clip is heard in the background, once per clip, trim and text."""
        key = self._key()
        self.hear_button.setEnabled(key is not None)
        char = self._shown.character()
        if key is None or char is None:
            self.note.setText("")
            return
        if not char.transcript.strip():
            self.note.setText(self.tr("No transcript: it will be heard from the clip when one is imported"))
            return
        # Only a trim or a new clip can part a transcript from its clip; hearing every clip shown
        # would keep a core busy whenever one browses the cast.
        suspect = char.trimmed or char.id in self._replaced_clips
        if key not in self._checks:
            self.note.setText(self.tr("Heard from the clip: check it") if char.transcript_heard else "")
            self.note.setStyleSheet("")
            if suspect:
                self._check(key)
            return
        warning = self._checks[key]
        heard = self.tr("Heard from the clip: check it. ") if char.transcript_heard else ""
        self.note.setText(f"{heard}⚠ {warning}" if warning else heard.strip())
        self.note.setStyleSheet("color: #d62728" if warning else "")

    def _check(self, key: ClipHearing) -> None:
        character_id, transcript, model = key.character_id, key.transcript, key.model
        project = self._doc.project
        thresholds = project.settings.qa

        def heard(result: Transcript) -> None:
            found = mismatch(transcript, result, thresholds)
            self._checks[key] = say(found.said()) if found is not None else ""
            if self._key() == key:
                self.show_check()

        def failed(exc: BaseException) -> None:
            self._checks[key] = ""  # nothing to compare with: no warning, the error is shown
            if self._key() == key:
                self.note.setText(fill(self.tr("The clip could not be heard: {exc}"), exc=said_error(exc)))

        self._shown.runner.run(lambda: hear_character_clip(project, character_id, model), heard, failed)

    def hear(self, replace_typed: bool = False) -> None:
        """Fill the transcript with what the clip says (marked as heard): when it is empty, or on request."""
        key = self._key()
        if key is None:
            return
        character_id, model = key.character_id, key.model
        project = self._doc.project
        self.note.setText(self.tr("Listening to the clip…"))
        self.hear_button.setEnabled(False)

        def heard(result: Transcript) -> None:
            current = self._key()
            if current is None or not current.same_clip(key):
                return  # another character or clip is shown now
            if replace_typed or not self._doc.project.character(character_id).transcript.strip():
                self._shown.edit(transcript=result.text, transcript_heard=True)
            self.show_check()

        def failed(exc: BaseException) -> None:
            self.hear_button.setEnabled(True)
            self.note.setText(fill(self.tr("No transcript could be heard: {exc}"), exc=said_error(exc)))

        self._shown.runner.run(lambda: hear_character_clip(project, character_id, model), heard, failed)

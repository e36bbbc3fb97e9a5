"""How a character's voice is set on the Characters panel (language, speed, pitch, instruction)
and what the engine says of it (prepared or not, and how much the result resembles the clip).

Each field commits one undoable edit of the character's settings when editing ends; what the
running backend cannot take is disabled, with why in its tooltip.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QLabel

from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.characters.fields import CommitLineEdit, ShownCharacter
from app.ui.characters.voices import VoiceState, VoiceStates
from app.ui.language import VOICE_WORDS, declared, fill, language_label, shown_message
from app.ui.script.speed_box import SpeedBox
from engine.core.languages import LANGUAGES
from engine.core.protocol import PITCH, Capabilities
from engine.synthesis.voices import RESEMBLANCE_EXPLAINED

# Marked for this context; shown through its tr().
CHARACTER_SPEED_TIP = QT_TRANSLATE_NOOP("VoiceSettingsFields", "This character's speaking rate (1 = the voice's "
                                                               "own, 2 = twice as fast)")


class VoiceSettingsFields(QObject):
    """The voice fields of the character shown; ``voices`` says how its voice is prepared."""

    def __init__(self, shown: ShownCharacter, voices: VoiceStates) -> None:
        super().__init__(shown.owner)
        self._shown = shown
        self._voices = voices
        # The language by its name in the studio's language, chosen from the one table; the
        # setting keeps its code ("" leaves it to the backend).
        self.language = QComboBox()
        self.language.setObjectName("characterLanguage")
        self.language.addItem(self.tr("backend default"), "")
        for code in LANGUAGES:
            self.language.addItem(language_label(code), code)
        self.language.activated.connect(lambda _index: self._edit_setting(language=self.language.currentData()))
        self.speed = SpeedBox()
        self.speed.editingFinished.connect(lambda: self._edit_setting(speed=self.speed.picked()))
        self.pitch = QDoubleSpinBox()
        self.pitch.setRange(PITCH.low, PITCH.high)
        self.pitch.setSingleStep(0.5)
        self.pitch.setSuffix(self.tr(" st"))
        self.pitch.editingFinished.connect(
            lambda: self._edit_setting(pitch_semitones=round(self.pitch.value(), 2))
        )
        self.instruction = CommitLineEdit()
        self.instruction.setPlaceholderText(self.tr("e.g. speak softly (backends with instructions)"))
        self.instruction.committed.connect(lambda v: self._edit_setting(instruction=v.strip()))
        self.status = QLabel("")
        self.status.setObjectName("voiceStatus")
        self.status.setWordWrap(True)
        self.resemblance = QLabel("")
        self.resemblance.setObjectName("voiceResemblance")
        self.resemblance.setToolTip(declared(VOICE_WORDS, RESEMBLANCE_EXPLAINED))
        voices.changed.connect(self._on_voice_changed)

    def set_capabilities(self, capabilities: Capabilities) -> None:
        """Enable what the running backend supports, and offer the speeds it speaks at."""
        instructions, languages = capabilities.instructions, capabilities.languages
        self.instruction.setEnabled(instructions)
        self.instruction.setToolTip("" if instructions else self.tr("The current backend does not take instructions"))
        self.language.setToolTip(fill(self.tr("Languages of this backend: {join}"), join=', '.join(languages)) if languages else "")
        self.speed.set_range(capabilities.speed)

    def show(self, character_id: str | None) -> None:
        if character_id is None:
            self.status.setText("")
            self.resemblance.setText("")
            return
        settings = self._shown.document.project.character(character_id).settings
        self._show_language(settings.language)
        self.speed.show_speed(settings.speed, self.tr(CHARACTER_SPEED_TIP))
        self.pitch.setValue(settings.pitch_semitones)
        self.instruction.show_text(settings.instruction)
        self._show_status()

    def _show_language(self, code: str) -> None:
        """Select ``code``; one the table lacks that a project already holds ("auto", "pt") is
        offered as its code, so showing the character never changes its language."""
        found = self.language.findData(code)
        if found < 0:
            self.language.addItem(code, code)
            found = self.language.count() - 1
        self.language.setCurrentIndex(found)

    def _show_status(self) -> None:
        current = self._shown.current()
        if current is None:
            return
        status = self._voices.status(current)
        text = {
            VoiceState.UNKNOWN: self.tr("Not prepared yet"),
            VoiceState.PREPARING: self.tr("Preparing the voice…"),
            VoiceState.PREPARED: self.tr("✔ Voice prepared"),
            VoiceState.FAILED: self.tr("✖ Cannot prepare this voice"),
        }[status.state]
        self.status.setText(fill(self.tr("{state}: {detail}"), state=text, detail=shown_message(status.detail))
                            if status.detail else text)
        self.resemblance.setText(status.resemblance)

    def _on_voice_changed(self, character_id: str) -> None:
        if character_id == self._shown.current():
            self._show_status()

    def _edit_setting(self, **changes: Any) -> None:
        char = self._shown.character()
        if char is None:
            return
        settings = replace(char.settings, **changes)
        if settings != char.settings:
            self._shown.edit(settings=settings)

"""What the engine needs to speak as a character, and the studio's view of prepared voices.

:func:`app.project.render.voice_spec` builds the VoiceSpec for auditions as for batch renders;
:class:`VoiceStates` remembers what the engine said about each character's voice
(PrepareVoice → VoicePrepared or RequestFailed).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from app.project import Project
from app.project.render import NoVoice, voice_spec
from app.ui.engine.bridge import EngineBridge
from app.ui.language import fill, say, separator
from engine.core.protocol import EngineError, RequestFailed, VoicePrepared
from engine.synthesis.voices import RESEMBLANCE_KEYS


class VoiceState(enum.Enum):
    UNKNOWN = "unknown"
    PREPARING = "preparing"
    PREPARED = "prepared"
    FAILED = "failed"


@dataclass(frozen=True)
class VoiceStatus:
    state: VoiceState
    detail: str = ""  # "was in the disk cache", the error message, ...
    resemblance: str = ""  # "Resemblance to the clip: 0.66 (plain voice: 0.48)", once prepared


class VoiceStates(QObject):
    """Asks the engine to prepare characters' voices and remembers the answers."""

    changed = Signal(str)  # character id

    def __init__(self, bridge: EngineBridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self._status: dict[str, VoiceStatus] = {}
        self._requests: dict[str, str] = {}  # request id -> character id
        bridge.voice_prepared.connect(self._on_prepared)
        bridge.request_failed.connect(self._on_failed)

    def status(self, character_id: str) -> VoiceStatus:
        return self._status.get(character_id, VoiceStatus(VoiceState.UNKNOWN))

    def forget(self, character_id: str) -> None:
        """The voice changed (clip, trim, transcript): what the engine said no longer holds."""
        self._status.pop(character_id, None)
        self._requests = {r: c for r, c in self._requests.items() if c != character_id}
        self.changed.emit(character_id)

    def prepare(self, project: Project, character_id: str) -> None:
        """Ask the engine to prepare (or find in its cache) the character's voice."""
        try:
            spec = voice_spec(project, character_id)
        except NoVoice as exc:
            self._set(character_id, VoiceStatus(VoiceState.FAILED, str(exc)))
            return
        if not self._bridge.is_ready:
            self._set(character_id, VoiceStatus(VoiceState.UNKNOWN, self.tr("the engine is not ready yet")))
            return
        request_id = self._bridge.prepare_voice(spec)
        self._requests[request_id] = character_id
        self._set(character_id, VoiceStatus(VoiceState.PREPARING))

    def _set(self, character_id: str, status: VoiceStatus) -> None:
        self._status[character_id] = status
        self.changed.emit(character_id)

    @Slot(object)
    def _on_prepared(self, event: VoicePrepared) -> None:
        character_id = self._requests.pop(event.request_id, None)
        if character_id is None:
            return
        if event.cache == "miss":
            detail = fill(self.tr("prepared now in {seconds:.1f} s, kept in the cache"), seconds=event.prepare_s)
        elif event.cache == "memory":
            detail = self.tr("found in the engine's memory")
        else:
            detail = self.tr("found in the cache on disk")
        warnings = event.summary.get("warnings")
        if warnings:
            detail += " · " + separator().join(say(w) for w in warnings)  # the clip's notes, said (ClipPhrase)
        self._set(character_id, VoiceStatus(VoiceState.PREPARED, detail, self._resemblance(event.summary)))

    def _resemblance(self, summary: Mapping[str, Any]) -> str:
        """The prepared voice's resemblance figures in the studio's language (as resemblance_text
        says them in English for the commands)."""
        adapted, plain = (summary.get(name) for name in RESEMBLANCE_KEYS)
        if adapted is None:
            return self.tr("Resemblance to the clip: not measured")
        if plain is None:
            return fill(self.tr("Resemblance to the clip: {adapted:.2f}"), adapted=adapted)
        return fill(self.tr("Resemblance to the clip: {adapted:.2f} (plain voice: {plain:.2f})"),
                    adapted=adapted, plain=plain)

    @Slot(object)
    def _on_failed(self, event: RequestFailed) -> None:
        character_id = self._requests.pop(event.request_id, None)
        if character_id is not None:
            self._set(character_id, VoiceStatus(VoiceState.FAILED, str(EngineError(event.code, event.message))))

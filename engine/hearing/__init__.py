"""Hearing a video's dialogue: Whisper transcription, speakers, reference clips (no Qt, no app).

``whisper`` loads the recogniser models that ship in registry packages; ``transcribe`` turns a
media file's audio into timed lines (in windows, so memory stays bounded on a long video);
``speakers`` finds who speaks each line; ``clips`` picks and cuts each speaker's cleanest
stretch as a reference clip. The studio's project layer (``app.project.transcription``) makes a
project's characters and script from the result.
"""

from __future__ import annotations

import enum


class HearingErrorCode(str, enum.Enum):
    """Why transcribing a recording failed; stable strings shown to people and matched by tests."""

    NO_AUDIO_STREAM = "E_NO_AUDIO_STREAM"  # the same code the project layer uses for a video
    AUDIO_UNREADABLE = "E_AUDIO_UNREADABLE"
    NO_SPEECH = "E_NO_SPEECH"  # silence or music only: voice activity detection found no speech
    UNKNOWN_LANGUAGE = "E_UNKNOWN_LANGUAGE"  # a language Whisper does not know
    BAD_SPEAKER_COUNT = "E_BAD_SPEAKER_COUNT"
    TRANSLATION_TARGET = "E_TRANSLATION_TARGET"  # no translator for that target language
    CANCELLED = "E_CANCELLED"


class HearingError(Exception):
    """A transcription that cannot go on; ``str()`` is ``"CODE: sentence"``."""

    def __init__(self, code: HearingErrorCode, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code.value}: {message}")

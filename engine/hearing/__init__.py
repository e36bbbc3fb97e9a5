"""Hearing: Whisper, a video's dialogue, its speakers and take QA; run in the caller's process
(the studio, a command) or take QA's worker process, never in the engine process.

``whisper`` loads the recogniser models that ship in registry packages; ``audio`` decodes a
recording for hearing and ``lines`` cuts heard words into lines; ``transcribe`` turns a
media file's audio into timed lines (in windows, so memory stays bounded on a long video);
``speakers`` finds who speaks each line; ``clips`` picks and cuts each speaker's cleanest
stretch as a reference clip. The studio's project layer (``app.project.transcription``) makes a
project's characters and script from the result. ``qa`` checks takes.
"""

from __future__ import annotations

from engine.core.codes import ErrorCode


class HearingError(Exception):
    """A transcription that cannot go on; ``str()`` is ``"CODE: sentence"``."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code.value}: {message}")

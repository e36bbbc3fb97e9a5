"""Translation: a project's lines put into the language a team dubs into, by a translator it chooses.

``registry`` declares the translators once (name, label, what each needs, whether it works
offline); the studio's Translate dialog, ``dubstudio translate`` and ``new --translate-to`` read it.
``lines`` holds what goes in and comes out (a line with its budget, a translated line with its
fit), ``glossary`` the names and terms a team fixes, ``chat`` the translator that speaks to an
OpenAI-compatible chat-completions endpoint (Ollama, llama.cpp's server, vLLM, hosted ones), and
``keys`` where that endpoint's key is kept. Whisper's own translate task (into English only, while
it hears) stays in :mod:`engine.hearing.transcribe`. Nothing here touches a project: the project
layer (``app.project.translation``) applies the result as one edit, or nothing at all.
"""

from __future__ import annotations

from engine.core.codes import ErrorCode
from engine.core.phrases import CODED, Phrase


class TranslationError(Exception):
    """A translation that cannot go on; ``str()`` is ``"CODE: sentence"``."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code.value}: {message}")

    def __str__(self) -> str:
        """A coded phrase when the message is one (engine/translation/wording.py), as EngineError's."""
        if isinstance(self.message, Phrase):
            return Phrase(CODED, code=self.code.value, detail=self.message)
        return super().__str__()

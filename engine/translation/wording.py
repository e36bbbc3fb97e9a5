"""Why a translation cannot go on, declared once: the sentences of TranslationError.

Each is a :class:`engine.core.phrases.Phrase` of the ``translation`` context: the CLI and the
logs see the English sentence, the studio says it in its language (``app.ui.language.say``);
``scripts/translations`` hands :data:`TEMPLATES` to pyside6-lupdate. What a server said (its
status and message) and a model's name stay as they came.
"""

from __future__ import annotations

from typing import ClassVar

from engine.core.phrases import Phrase


class TranslationPhrase(Phrase):
    """A sentence of the translators, translated in the ``translation`` context."""

    context: ClassVar[str] = "translation"


BAD_URL = "the endpoint's base URL must be http(s)://HOST[:PORT]/PATH, got {url}"
NO_MODEL = "the endpoint needs a model name (--model)"
KEY_LINE_BREAK = "the API key holds a line break"
ANSWERED_TWICE = "the model {model} answered twice with what cannot be used: {reason}"
AFTER_TRIES = "{reason} ({tries} tries)"
CANCELLED = "translation cancelled; no line was changed"
NO_ANSWER_IN_TIME = "{where} did not answer within {seconds:g} s"
CANNOT_REACH = "cannot reach {where}: {error}"
KEY_REFUSED = "the endpoint refused the key ({answer}); set the right key for it"
RATE_LIMIT = "the endpoint's rate limit was hit ({answer})"
CONTEXT_TOO_SMALL = "the model's context cannot hold the request: {detail}"
ANSWERED = "the endpoint answered {answer}"
ANSWERED_ELSEWHERE = "the endpoint answered {answer} (is {url} a chat-completions endpoint, and {model} its model?)"
ANSWER_TOO_BIG = "the answer is over {limit} bytes"
NOT_A_COMPLETION = "the endpoint's answer is not a chat completion ({data})"
CUT_OFF = "the model's answer was cut off at its length limit"
NO_TEXT = "the chat completion holds no text"

TEMPLATES = (BAD_URL, NO_MODEL, KEY_LINE_BREAK, ANSWERED_TWICE, AFTER_TRIES, CANCELLED, NO_ANSWER_IN_TIME, CANNOT_REACH,
             KEY_REFUSED, RATE_LIMIT, CONTEXT_TOO_SMALL, ANSWERED, ANSWERED_ELSEWHERE, ANSWER_TOO_BIG, NOT_A_COMPLETION,
             CUT_OFF, NO_TEXT)


def answer(status: int, detail: str) -> str:
    """A server's status and message as a sentence quotes them: "401: invalid api key"."""
    return f"{status}: {detail}" if detail else str(status)

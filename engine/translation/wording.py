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

# the glossary's refusals (glossary.py), the keys file's (keys.py), the registry's (registry.py)
GLOSSARY_TOO_BIG = "a glossary holds at most {limit} entries, this one {count}"
GLOSSARY_ENTRY = "glossary entry {number}"
GLOSSARY_FIELDS = {"source": "source", "target": "target", "note": "note"}  # an entry's fields, as sentences name them
NOT_TEXT = "{where}: {name} must be text, got {value}"
EMPTY_WORDING = "{where}: the {name} wording is empty"
WORDING_TOO_LONG = "{where}: the {name} is {length} characters long; at most {limit}"
CONTROL_IN_WORDING = "{where}: the {name} holds a control character"
UNKNOWN_KIND = "{where}: kind must be one of {kinds}, got {value}"
TRANSLATED_TWICE = "{where}: {source} is already translated as {target}"
CANNOT_READ_KEYS = "cannot read the translator keys in {path}: {error}"
NOT_A_KEYS_FILE = "{path} is not a file of translator keys"
CANNOT_KEEP_KEY = "cannot keep the translator key in {path}: {error}"
NOT_A_LANGUAGE_CODE = "{value} is not a language code (write one like en, zh, ja, pt-BR)"
TARGETS_ONLY = "{translator} translates into {targets} only, not {code}; choose the openai translator for other languages"
NO_TRANSLATOR = "no translator {name}; there are {names}"

TEMPLATES = (BAD_URL, NO_MODEL, KEY_LINE_BREAK, ANSWERED_TWICE, AFTER_TRIES, CANCELLED, NO_ANSWER_IN_TIME, CANNOT_REACH,
             KEY_REFUSED, RATE_LIMIT, CONTEXT_TOO_SMALL, ANSWERED, ANSWERED_ELSEWHERE, ANSWER_TOO_BIG, NOT_A_COMPLETION,
             CUT_OFF, NO_TEXT, GLOSSARY_TOO_BIG, GLOSSARY_ENTRY, *GLOSSARY_FIELDS.values(), NOT_TEXT, EMPTY_WORDING,
             WORDING_TOO_LONG, CONTROL_IN_WORDING, UNKNOWN_KIND, TRANSLATED_TWICE, CANNOT_READ_KEYS, NOT_A_KEYS_FILE,
             CANNOT_KEEP_KEY, NOT_A_LANGUAGE_CODE, TARGETS_ONLY, NO_TRANSLATOR)


def answer(status: int, detail: str) -> str:
    """A server's status and message as a sentence quotes them: "401: invalid api key"."""
    return f"{status}: {detail}" if detail else str(status)

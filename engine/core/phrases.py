"""A sentence made for people that keeps how it was made, so a studio can say it in its language.

The engine and the project layer have no Qt, yet some of their sentences reach the studio (the
load test's verdict, readiness problems, undo texts). Each is a :class:`Phrase`: the English
sentence itself (commands, logs and saved reports use it as the ``str`` it is) that also keeps
its **template** and **arguments**. ``app.ui.language.say`` translates the template in the
phrase's translation ``context`` and fills it again. The tables of templates are declared where
the sentences are made (``app/project/phrases.py``, ``engine/load/wording.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

# A coded error whose detail is a phrase ("E_INVALID_VALUE: speed must be …"): the code stays, the
# studio says the detail in its language.
CODED = "{code}: {detail}"
# A list said as nested pairs, so a translation may change its separator ("a, b, c"; "a、b、c").
COMMA_LIST = "{first}, {rest}"


class Phrase(str):
    """An English sentence made from a declared template and its arguments.

    It is the sentence (``str(phrase)``, ``phrase == "…"``, ``phrase.startswith(…)`` all see the
    English); ``template`` and ``arguments`` let the studio make it again in its own language.
    An argument may be a Phrase itself (a problem inside a sentence), translated in turn."""

    context: ClassVar[str] = "phrases"  # the translation context the studio looks its template up in
    template: str
    arguments: dict[str, Any]

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        _KINDS.setdefault(cls.context, cls)  # the kind a record of this context is made again as

    def __new__(cls, template: str, /, **arguments: Any) -> Self:
        made = super().__new__(cls, template.format(**arguments))
        made.template = template
        made.arguments = arguments
        return made

    @classmethod
    def counted(cls, count: int, one: str, many: str, /, **arguments: Any) -> Self:
        """The phrase of ``one`` (for a count of 1) or ``many`` (any other count), with ``count``."""
        return cls(one if count == 1 else many, count=count, **arguments)

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:  # copies and pickles keep the template
        return (self.template,), self.arguments


def counted(count: int, one: str, many: str, /, **arguments: Any) -> Phrase:
    """The phrase of ``one`` (for a count of 1) or ``many`` (any other count), with ``count``."""
    return Phrase.counted(count, one, many, **arguments)


_KINDS: dict[str, type[Phrase]] = {Phrase.context: Phrase}


def joined(kind: type[Phrase], parts: Sequence[str], template: str = COMMA_LIST) -> str:
    """``parts`` as one list ("a, b, c" with :data:`COMMA_LIST`), a ``kind`` phrase whose separators a
    translation in ``kind``'s context may change ("a，b，c"); "" for none."""
    if not parts:
        return ""
    sentence = parts[-1]
    for part in reversed(parts[:-1]):
        sentence = kind(template, first=part, rest=sentence)
    return sentence


def phrase_record(text: object) -> str | dict[str, Any]:
    """``text`` as JSON can keep it: a phrase as its context, template and arguments (a phrase
    among them kept the same way), so a sentence stored on disk (a voice's notes in the voice
    cache) is said in the studio's language when read back; other text as it is."""
    if not isinstance(text, Phrase):
        return str(text)
    # A number stays a number (its template formats it); anything else JSON cannot hold (a path) as its text.
    arguments = {name: value if isinstance(value, int | float | None) else phrase_record(value)
                 for name, value in text.arguments.items()}
    return {"context": text.context, "template": text.template, "arguments": arguments}


def phrase_from_record(record: object) -> str:
    """The sentence :func:`phrase_record` kept: a phrase again, or the text as it was stored (a
    record of an unknown context, or one whose arguments no longer fit its template, is its
    template's English as stored, never an error)."""
    if not isinstance(record, dict):
        return str(record)
    template, arguments = record.get("template"), record.get("arguments")
    if not isinstance(template, str) or not isinstance(arguments, dict):
        return str(record)
    kind = _KINDS.get(str(record.get("context")), Phrase)
    try:
        return kind(template, **{name: phrase_from_record(value) if isinstance(value, dict | str) else value
                                 for name, value in arguments.items()})
    except (KeyError, IndexError, ValueError):
        return template


def keep_phrase(stored: dict[str, Any], key: str) -> dict[str, Any]:
    """``stored`` (what a file keeps) with the sentence under ``key`` also kept as its phrase record
    under ``{key}_phrase`` when it is a phrase. ``key`` keeps the English sentence for the commands
    and older readers, which ignore the record."""
    record = phrase_record(stored[key])
    return stored | {f"{key}_phrase": record} if isinstance(record, dict) else stored


def stored_phrase(stored: Mapping[str, Any], key: str, sentence: str) -> str:
    """The ``sentence`` read from ``stored[key]``, a phrase again from its record (:func:`keep_phrase`)
    when the record says the same English; else the sentence as stored (a file from before the
    record, or one whose sentence was edited by hand)."""
    said = phrase_from_record(stored.get(f"{key}_phrase"))
    return said if isinstance(said, Phrase) and said == sentence else sentence

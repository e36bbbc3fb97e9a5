"""A glossary: the characters' names and the terms a team fixes, the same in every line.

Each entry maps a wording in the original to the one the translation must use. It is sent with
each request (the entries whose source wording the batch holds), and each answer is checked:
a line whose source holds an entry's source wording must hold the entry's target wording.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.core.codes import ErrorCode
from engine.translation import TranslationError, wording
from engine.translation.wording import TranslationPhrase

KINDS = ("name", "term")  # a character's name, or any other fixed wording
MAX_ENTRIES = 1000
MAX_WORDING = 200  # characters in an entry's source or target wording


@dataclass(frozen=True)
class GlossaryEntry:
    source: str  # the wording in the original ("张伟")
    target: str  # the wording the translation must use ("Zhang Wei")
    kind: str = "term"
    note: str = ""  # what a translator should know ("a nickname; keep it informal")

    def to_dict(self) -> dict[str, str]:
        return {"source": self.source, "target": self.target, "kind": self.kind, "note": self.note}


def validate_glossary(entries: Sequence[GlossaryEntry]) -> None:
    """Raise TranslationError (E_INVALID_VALUE) naming the first entry that cannot be used: an
    empty or over-long wording, an unknown kind, a control character, or a source wording given
    twice with two different targets."""
    if len(entries) > MAX_ENTRIES:
        raise TranslationError(ErrorCode.INVALID_VALUE,
                               TranslationPhrase(wording.GLOSSARY_TOO_BIG, limit=MAX_ENTRIES, count=len(entries)))
    seen: dict[str, str] = {}
    for number, entry in enumerate(entries, 1):
        where = TranslationPhrase(wording.GLOSSARY_ENTRY, number=number)
        for field in ("source", "target", "note"):
            value = getattr(entry, field)
            name = TranslationPhrase(wording.GLOSSARY_FIELDS[field])
            if not isinstance(value, str):
                raise TranslationError(ErrorCode.INVALID_VALUE, TranslationPhrase(wording.NOT_TEXT, where=where, name=name,
                                                                                   value=repr(value)))
            if field != "note" and not value.strip():
                raise TranslationError(ErrorCode.INVALID_VALUE, TranslationPhrase(wording.EMPTY_WORDING, where=where,
                                                                                   name=name))
            if len(value) > MAX_WORDING:
                raise TranslationError(ErrorCode.INVALID_VALUE,
                                       TranslationPhrase(wording.WORDING_TOO_LONG, where=where, name=name,
                                                         length=len(value), limit=MAX_WORDING))
            if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
                raise TranslationError(ErrorCode.INVALID_VALUE, TranslationPhrase(wording.CONTROL_IN_WORDING, where=where,
                                                                                   name=name))
        if entry.kind not in KINDS:
            raise TranslationError(ErrorCode.INVALID_VALUE,
                                   TranslationPhrase(wording.UNKNOWN_KIND, where=where, kinds=", ".join(KINDS),
                                                     value=repr(entry.kind)))
        key = entry.source.strip().casefold()
        if key in seen and seen[key] != entry.target.strip():
            raise TranslationError(ErrorCode.INVALID_VALUE,
                                   TranslationPhrase(wording.TRANSLATED_TWICE, where=where, source=repr(entry.source),
                                                     target=repr(seen[key])))
        seen[key] = entry.target.strip()


def entries_in(entries: Iterable[GlossaryEntry], text: str) -> list[GlossaryEntry]:
    """The entries whose source wording ``text`` holds (case does not matter)."""
    folded = text.casefold()
    return [entry for entry in entries if entry.source.strip().casefold() in folded]


def missing_terms(entries: Iterable[GlossaryEntry], source: str, translation: str) -> tuple[str, ...]:
    """The target wordings the translation of ``source`` should hold and does not."""
    folded = translation.casefold()
    return tuple(entry.target for entry in entries_in(entries, source) if entry.target.strip().casefold() not in folded)

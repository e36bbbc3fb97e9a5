"""Problems in words: a ``"CODE: detail"`` string as a headline for people, the detail, the code.

Errors travel as ``"CODE: detail"`` strings (``str(ProjectError)``, engine failures, QA findings).
The studio shows :func:`explain`'s headline (each code's own, from the one table in
engine.core.codes), the detail under it, and the code last, for a bug report or a search; the CLI
keeps printing the plain string. A code the table does not know (from a newer engine or server)
still shows, under a headline that says what kind of problem it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.project.translatable import QT_TRANSLATE_NOOP
from engine.core.codes import code_named
from engine.core.languages import join_pieces
from engine.core.phrases import CODED, Phrase

_CODED = re.compile(r"^((?:E|QA)_[A-Z0-9_]+):\s*(.*)$", re.DOTALL)
# The headlines of codes the table does not know (from a newer engine or server).
UNKNOWN_QA_HEADLINE = QT_TRANSLATE_NOOP("messages", "A take did not pass a check.")
UNKNOWN_ERROR_HEADLINE = QT_TRANSLATE_NOOP("messages", "Something went wrong.")
# A detail made a sentence: the full stop a language writes after it.
FULL_STOP = QT_TRANSLATE_NOOP("messages", "{sentence}.")
# Between sentences listed one after another (the warnings after a summary): "; " / "；".
SEPARATOR = QT_TRANSLATE_NOOP("messages", "; ")


@dataclass(frozen=True)
class Explained:
    """A problem for people: a headline, what happened in detail, and the code ("" if none)."""

    headline: str
    detail: str
    code: str

    def __str__(self) -> str:
        # Joined the way the language writes: no space after a full-width mark ("…语言。这句台词…").
        return join_pieces(part for part in (self.headline, self.detail, f"({self.code})" if self.code else "") if part)


def explain(message: str) -> Explained:
    """``"E_NO_CLIP: line 3: Maya has no clip"`` -> headline from the table, the rest as detail.
    A detail of a code whose details say the problem whole (``detail_says_it``) comes without
    the headline: one sentence and the code, not the same thing twice.

    A coded phrase (``str(EngineError)`` of a phrase, :data:`engine.core.phrases.CODED`) keeps its
    detail a phrase, which the studio says in its language and makes a sentence (:func:`sentence`);
    a detail in words ends with an English full stop, which the studio makes its language's where
    the detail is in Chinese (app.ui.language.translated)."""
    if isinstance(message, Phrase) and message.template == CODED:
        code, detail = str(message.arguments["code"]), message.arguments["detail"]
        said = detail if isinstance(detail, Phrase) else sentence(str(detail))
        return Explained(_headline(code, said), said, code)
    text = message.strip()
    match = _CODED.match(text)
    if match is None:
        return Explained(text, "", "")
    code, detail = match.group(1), match.group(2).strip()
    return Explained(_headline(code, detail), sentence(detail), code)


def _headline(code: str, detail: str) -> str:
    known = code_named(code)
    if known is not None and known.detail_says_it and detail:
        return ""
    if known is not None:
        headline = known.headline
    else:
        headline = UNKNOWN_QA_HEADLINE if code.startswith("QA_") else UNKNOWN_ERROR_HEADLINE
    return headline


def sentence(detail: str, full_stop: str = FULL_STOP) -> str:
    """The detail as a sentence: a capital first letter (unless it starts with a name such as
    ``lines.srt``, which keeps its case) and a full stop (``full_stop`` in the studio's language)."""
    if not detail:
        return ""
    if detail.split()[0].isalpha():
        detail = detail[0].upper() + detail[1:]
    return detail if detail[-1] in ".!?…)”\"。！？" else full_stop.format(sentence=detail)

"""Marking strings for the studio's translation in code that has no Qt (docs/translations.md).

``pyside6-lupdate`` reads the source and collects the strings passed to a function named
``QT_TRANSLATE_NOOP``, whatever module defines it; this one returns its text unchanged, so the
project layer and the commands keep English, and the studio translates the same string where it
shows it, with ``QCoreApplication.translate(context, text)``.
"""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pyside6-lupdate looks for
    """``text``, marked for translation in ``context``."""
    del context  # only lupdate reads it
    return text

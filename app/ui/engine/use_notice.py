"""Asking before a restricted voice (a non-commercial one, such as zh-baker) first speaks.

A voice whose descriptor carries a use notice is asked about once, before its first line, and
the answer "yes" is remembered in the settings (``accepted_notices``). Under the embedded voices
(the default backend) that is the first render that holds a Chinese line; chosen directly in
Settings › Voices engine, it is the choosing.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from app.ui.language import BACKEND_NAMES, OPTION_WORDS, declared, fill
from app.ui.settings.store import Settings
from engine.synthesis.backends import DESCRIPTORS, use_notices


def accept_use_notices(settings: Settings, backend: str, languages: Iterable[str],
                       parent: QWidget | None = None) -> bool:
    """Whether ``backend`` may speak ``languages``: True at once when no voice that would speak
    them has a use notice, or the user accepted each before; else the user is asked, voice by
    voice, and a "no" refuses (nothing is remembered then)."""
    for voice, notice in use_notices(backend, languages).items():
        if voice in settings.accepted_notices:
            continue
        label = declared(BACKEND_NAMES, DESCRIPTORS[voice].label)
        answer = QMessageBox.question(
            parent, fill(QCoreApplication.translate("UseNotice", "Before you use {0}"), label),
            declared(OPTION_WORDS, notice) + "\n\n" + QCoreApplication.translate("UseNotice", "Use this voice?"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return False
        settings.accepted_notices = [*settings.accepted_notices, voice]
    return True

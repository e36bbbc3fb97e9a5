"""What the studio's dialogs and pages are made of alike: the OK and Cancel buttons they end
with, the grey hint under a form and the red line that says what is wrong."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel


def ok_cancel(dialog: QDialog, ok_text: str = "", on_ok: Callable[[], None] | None = None) -> QDialogButtonBox:
    """OK and Cancel for ``dialog``: OK, named ``ok_text`` when it starts something ("Export"),
    calls ``on_ok`` (which may refuse and keep the dialog open) or accepts; Cancel rejects."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    if ok_text:
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok_text)
    buttons.accepted.connect(on_ok or dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


def hint_label(text: str) -> QLabel:
    """A grey, wrapped sentence that explains the form it stands in."""
    hint = QLabel(text)
    hint.setWordWrap(True)
    hint.setStyleSheet("color: palette(placeholder-text)")
    return hint


def problem_label(name: str = "") -> QLabel:
    """A red, wrapped line, empty until something is wrong; ``name`` is its object name, for tests."""
    problem = QLabel("")
    if name:
        problem.setObjectName(name)
    problem.setWordWrap(True)
    problem.setStyleSheet("color: #d62728")
    return problem

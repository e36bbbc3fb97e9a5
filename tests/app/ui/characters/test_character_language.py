"""A character's language on the Characters panel is chosen by its name in the studio's language
from the one table of languages (engine.core.languages), and stored as its code; a code the table
lacks that the project already holds stays, shown as its code (found by k42d: the field showed a
raw "zh" to type over)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.project import EditCharacter
from app.ui.characters.characters_panel import CharactersPanel
from app.ui.language import language_label
from app.ui.window.document import Document
from engine.core.languages import LANGUAGES
from tests.app.ui.characters.test_characters_panel import panel  # noqa: F401 (a fixture)


def _choose(widget: CharactersPanel, code: str) -> None:
    """Pick ``code``'s entry as the user would (activated, not a programmatic change)."""
    index = widget.language.findData(code)
    assert index >= 0
    widget.language.setCurrentIndex(index)
    widget.language.activated.emit(index)


def test_the_language_is_chosen_by_name_and_stored_as_its_code(
        panel: tuple[CharactersPanel, Document, list[Any]]) -> None:
    widget, doc, _ = panel
    offered = [widget.language.itemData(i) for i in range(widget.language.count())]
    assert offered[1:] == list(LANGUAGES)  # "" first: the backend's default
    _choose(widget, "zh")
    assert doc.project.characters[0].settings.language == "zh"
    assert widget.language.currentText() == language_label("zh") == "Chinese (Mandarin) (zh)"
    doc.undo()
    assert widget.language.currentData() == doc.project.characters[0].settings.language


def test_a_code_the_table_lacks_is_kept_and_shown_as_its_code(
        panel: tuple[CharactersPanel, Document, list[Any]]) -> None:
    widget, doc, _ = panel
    first, second = doc.project.characters[:2]
    doc.push(EditCharacter(second.id, settings=replace(second.settings, language="pt")))
    widget.list.setCurrentRow(1)
    assert widget.language.currentText() == "pt" and widget.language.currentData() == "pt"
    widget.list.setCurrentRow(0)
    widget.list.setCurrentRow(1)
    assert doc.project.characters[1].settings.language == "pt"  # showing it changed nothing


def test_the_language_names_are_in_chinese(chinese: None,
                                           panel: tuple[CharactersPanel, Document, list[Any]]) -> None:
    widget, _, _ = panel
    assert widget.language.itemText(widget.language.findData("en")) == "英语（en）"
    assert widget.language.itemText(0) == "后端默认"

"""The audition sentence follows the character's language (issue 31): a Chinese voice auditions a
Chinese sentence, not an English one; a sentence the user typed stays."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.project import EditCharacter
from app.ui.characters.characters_panel import CharactersPanel
from app.ui.window.document import Document
from engine.core.languages import (
    LANGUAGES,
    SAMPLE_SENTENCES,
    detect_language,
    sample_sentence,
)
from tests.app.ui.characters.test_characters_panel import panel  # noqa: F401 (a fixture)


def test_every_language_of_the_table_has_an_audition_sentence_in_that_language() -> None:
    assert set(SAMPLE_SENTENCES) == set(LANGUAGES)
    for code in ("en", "zh", "ja", "ko", "ru", "ar", "th"):
        assert detect_language(sample_sentence(code)) == code
    assert sample_sentence("zh_CN") == "你好！这就是我在这个项目里的声音。" and sample_sentence("xx") == SAMPLE_SENTENCES["en"]


def test_the_audition_sentence_follows_the_characters_language(
        panel: tuple[CharactersPanel, Document, list[Any]]) -> None:
    widget, doc, _ = panel
    first, second = doc.project.characters[:2]
    doc.push(EditCharacter(second.id, settings=replace(second.settings, language="zh")))
    spoken: list[str] = []
    widget._audition = lambda _character_id, text: spoken.append(text) or None
    widget.list.setCurrentRow(1)
    assert widget.sample.text() == sample_sentence("zh")
    widget.audition_button.click()
    assert spoken == [sample_sentence("zh")]
    widget.list.setCurrentRow(0)
    assert widget.sample.text() == sample_sentence(first.settings.language or "en")
    widget.sample.setText("My own line.")  # typed by the user: kept whichever voice is shown
    widget.list.setCurrentRow(1)
    assert widget.sample.text() == "My own line."

"""The Characters panel's wrapped notes stand as tall as their text: the short clip's warning sat
under an empty band the height of three lines (found by k42d, shots/en-06-characters.png), since a
form row keeps the height Qt hints for a wrapped label at a narrow width of its own."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QTabWidget
from pytestqt.qtbot import QtBot

from app.project import EditCharacter
from app.ui.characters.characters_panel import CharactersPanel
from app.ui.window.document import Document
from tests.app.ui.characters.test_characters_panel import panel  # noqa: F401 (a fixture)


def test_the_short_clips_warning_is_as_tall_as_its_text(
        qtbot: QtBot, panel: tuple[CharactersPanel, Document, list[Any]]) -> None:
    widget, doc, _ = panel
    doc.push(EditCharacter(doc.project.characters[0].id, clip_purity=0.67, clip_end=3.9))
    tabs = QTabWidget()  # as in the main window: a tab does not pass its page's height for width on
    tabs.addTab(widget, "Characters")
    tabs.resize(1200, 760)
    tabs.show()
    try:
        qtbot.waitExposed(tabs)
        quality = widget.clip_quality
        assert quality.text().startswith("⚠") and quality.text().endswith("Purity +0.67")
        field = quality.parentWidget()  # the form row's field
        assert field is not None

        def fitted() -> bool:  # once the layout has settled at the tab's width
            return field.height() == quality.height() == quality.heightForWidth(quality.width())

        qtbot.waitUntil(fitted)
        assert "nearest other" in quality.toolTip()  # what the purity measures
    finally:  # the panel is the fixture's to close
        tabs.removeTab(0)
        widget.setParent(None)
        tabs.deleteLater()


def test_the_purity_is_explained_in_chinese(
        chinese: None, qtbot: QtBot, panel: tuple[CharactersPanel, Document, list[Any]]) -> None:
    widget, doc, _ = panel
    doc.push(EditCharacter(doc.project.characters[0].id, clip_purity=0.67))
    assert widget.clip_quality.text() == "纯度 +0.67"
    assert widget.clip_quality.toolTip().startswith("纯度：这段音频听起来比最接近的其他声音更像这个角色")

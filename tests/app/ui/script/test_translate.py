"""Project › Translate… and Edit › Shorten to fit in the studio, on the sample project, against a
local chat-completions server (a protocol stand-in; no language model runs here)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtWidgets import QTableWidgetItem

from app.ui.script.translate_dialog import TranslateDialog
from app.ui.script.translation_controller import TranslationController
from engine.translation import keys
from engine.translation.glossary import GlossaryEntry
from tests.engine.translation.chat_server import Asked, answer, chat_server

if TYPE_CHECKING:
    from app.ui.window.main_window import MainWindow

SECRET = "sk-studio-test-key-7"


@pytest.fixture(autouse=True)
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "config"))
    monkeypatch.setattr(keys, "keyring_usable", lambda: False)
    return tmp_path / "config"


def spanish(asked: Asked) -> tuple[int, Any, dict[str, str]]:
    if asked.shortening:
        return answer({n: "Corto." for n in asked.lines})
    return answer({n: f"ES {entry['text']}" for n, entry in asked.lines.items()})


def filled_dialog(window: MainWindow, url: str, selected: list[str]) -> TranslateDialog:
    assert window.session is not None
    dialog = TranslateDialog(window, window.session.project, selected)
    dialog.base_url.setText(url)
    dialog.model.setText("scripted")
    dialog.key.setText(SECRET)
    dialog.language.setEditText("es")
    dialog._add_entry(GlossaryEntry("Maya", "Maya", "name"))
    return dialog


def test_translate_puts_drafts_in_as_one_undoable_edit_and_keeps_the_key_apart(
        idle_window: MainWindow, config: Path, tmp_path: Path) -> None:
    session = idle_window.session
    assert session is not None
    project = session.project
    originals = [line.text for line in project.lines]
    with chat_server(spanish) as server:
        dialog = filled_dialog(idle_window, server.url, [])
        assert dialog.all_lines.isChecked() and not dialog.selected_lines.isEnabled()
        choice = dialog.choice()
        assert choice.request.target_language == "es" and choice.new_key == SECRET
        TranslationController.of(idle_window).start(choice)
    # a line over its slot's budget was asked once for a shorter version ("Corto."), and says so
    shortened = [bool(line.budget and line.budget.shortened) for line in project.lines]
    assert [line.text for line in project.lines] == [
        "Corto." if short else f"ES {text}" for text, short in zip(originals, shortened)]
    assert any(shortened) and not all(shortened)
    assert all(line.budget is not None and line.budget.unit == "letters" for line in project.lines if line.end)
    assert all(line.draft for line in project.lines) and [line.source_text for line in project.lines] == originals
    assert project.target_language == "es" and {c.settings.language for c in project.characters} == {"es"}
    assert [entry.source for entry in project.glossary] == ["Maya"]
    assert server.asked[0].headers["Authorization"] == f"Bearer {SECRET}"
    assert keys.load_key(server.url) == SECRET and keys.remembered_endpoint() == (server.url, "scripted")
    idle_window.save()
    assert SECRET not in project.project_file.read_text(encoding="utf-8")
    assert all(SECRET not in path.read_text(errors="replace") for path in tmp_path.rglob("*.ini"))
    session.document.undo()  # the translation
    assert [line.text for line in project.lines] == originals and not any(line.draft for line in project.lines)
    assert project.target_language == "" and [entry.source for entry in project.glossary] == ["Maya"]
    session.document.undo()  # then the glossary, its own edit
    assert project.glossary == []


def test_a_failed_translation_says_why_and_changes_nothing(idle_window: MainWindow, monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    session = idle_window.session
    assert session is not None
    before = [(line.text, line.draft) for line in session.project.lines]
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(idle_window.messages, "error", lambda title, message: shown.append((title, message)))
    with chat_server(lambda asked: (401, {"error": {"message": "bad key"}}, {})) as server:
        TranslationController.of(idle_window).start(filled_dialog(idle_window, server.url, []).choice())
    assert [(line.text, line.draft) for line in session.project.lines] == before
    assert len(shown) == 1 and "E_TRANSLATOR_KEY" in shown[0][1] and SECRET not in shown[0][1]


def test_shorten_to_fit_shortens_the_selected_lines_as_an_undoable_edit(idle_window: MainWindow) -> None:
    session = idle_window.session
    assert session is not None
    project = session.project
    first, second = project.lines[0], project.lines[1]
    before = (first.text, second.text)
    with chat_server(spanish) as server:
        keys.remember_endpoint(server.url, "scripted")
        idle_window.script.select_lines([first.id])
        idle_window.actions_["shorten_to_fit"].trigger()
    assert server.asked[0].shortening and list(server.asked[0].lines) == ["1"]
    preview = TranslationController.of(idle_window).preview  # nothing changes before it is applied
    assert preview is not None and preview.isVisible() and first.text == before[0]
    table = preview.table
    assert [table.item(0, column).text() for column in (0, 1)] == [before[0], "Corto."]
    assert table.item(0, 2).text().split()[1] == "letters" and table.item(0, 3).text().endswith("fits")
    preview.accept()
    assert (first.text, first.draft, second.text) == ("Corto.", True, before[1])
    session.document.undo()
    assert (first.text, second.text) == before


def test_shorten_to_fit_keeps_the_lines_the_preview_unticks_or_dismisses(idle_window: MainWindow) -> None:
    from PySide6.QtCore import Qt

    session = idle_window.session
    assert session is not None
    first, second = session.project.lines[0], session.project.lines[1]
    before = (first.text, second.text)
    controller = TranslationController.of(idle_window)
    with chat_server(spanish) as server:
        keys.remember_endpoint(server.url, "scripted")
        idle_window.script.select_lines([first.id, second.id])
        idle_window.actions_["shorten_to_fit"].trigger()
        assert controller.preview is not None
        controller.preview.reject()  # Cancel: the answer is dropped
        assert (first.text, second.text) == before and not session.document.stack.can_undo
        idle_window.actions_["shorten_to_fit"].trigger()
    preview = controller.preview
    assert preview is not None and preview.table.rowCount() == 2
    preview.table.item(1, 0).setCheckState(Qt.CheckState.Unchecked)  # keep the second's wording
    preview.accept()
    assert (first.text, second.text) == ("Corto.", before[1])
    session.document.undo()
    assert (first.text, second.text) == before


def test_the_source_column_says_each_translation_s_budget_and_fit_and_accept_keeps_a_draft(
        idle_window: MainWindow) -> None:
    from PySide6.QtCore import Qt

    from app.ui.script.columns import Column

    session = idle_window.session
    assert session is not None
    project = session.project
    with chat_server(spanish) as server:
        TranslationController.of(idle_window).start(filled_dialog(idle_window, server.url, []).choice())
    model = idle_window.script.model

    def tip(row: int) -> str:
        return str(model.data(model.index(row, Column.SOURCE), Qt.ItemDataRole.ToolTipRole))

    line = project.lines[0]
    assert line.budget is not None and line.source_text in tip(0)
    assert f"fits its slot: {line.budget.length(line.text)} of {line.budget.limit} letters" in tip(0)
    line.text = "far too long " * 20  # a person's wording that outgrows the slot
    assert "runs past its slot" in tip(0) and "Shorten to fit" in tip(0)
    idle_window.script.select_lines([project.lines[0].id, project.lines[1].id])
    idle_window.actions_["accept_translation"].trigger()
    assert [line.draft for line in project.lines[:3]] == [False, False, True]
    session.document.undo()
    assert [line.draft for line in project.lines[:3]] == [True, True, True]


def test_the_dialog_reads_the_glossary_table_and_the_language_table(idle_window: MainWindow) -> None:
    session = idle_window.session
    assert session is not None
    dialog = TranslateDialog(idle_window, session.project, [session.project.lines[0].id])
    assert dialog.selected_lines.isChecked()
    assert dialog.language.findData("zh") >= 0 and dialog.target_language() == "en"
    dialog._add_names(session.project)
    entries = dialog.entries()
    assert [entry.source for entry in entries] == [c.name for c in session.project.characters]
    assert {(entry.kind, entry.target) for entry in entries} == {("name", "")}  # to be given their translation
    dialog.glossary.setItem(0, 1, QTableWidgetItem("Translated name"))
    assert dialog.entries()[0].target == "Translated name"
    dialog._add_names(session.project)  # the names already there are not added twice
    assert len(dialog.entries()) == len(entries)


def test_every_line_keeps_a_translation_a_person_made_and_says_so(idle_window: MainWindow) -> None:
    """A line imported from bilingual subtitles holds a person's translation with its original beside
    it: translating every line kept it and said how many were kept."""
    session = idle_window.session
    assert session is not None
    project = session.project
    project.target_language = "es"
    first = project.lines[0]
    first.source_text, first.text = first.text, "Una traducción hecha a mano."
    with chat_server(spanish) as server:
        TranslationController.of(idle_window).start(filled_dialog(idle_window, server.url, []).choice())
    assert project.lines[0].text == "Una traducción hecha a mano." and not project.lines[0].draft
    assert all(line.draft for line in project.lines[1:] if line.text)
    assert first.source_text not in [entry["text"] for asked in server.asked for entry in asked.lines.values()]
    assert "; kept 1 line already translated by a person" in idle_window.statusBar().currentMessage()


@pytest.mark.parametrize(("studio", "script", "offered"), [
    ("zh_CN", "Did you see the lights?", "zh"),  # a Chinese team dubbing an English video: it offered English
    ("zh_CN", "你看见那些灯了吗？", "en"),
    ("en_US", "Did you see the lights?", "en"),
])
def test_the_language_offered_is_another_than_the_script_s(idle_window: MainWindow, studio: str, script: str,
                                                            offered: str) -> None:
    from PySide6.QtCore import QLocale

    from app.project import EditLine

    session = idle_window.session
    assert session is not None
    project = session.project
    for line in project.lines:
        session.document.push(EditLine(line.id, text=script))
    project.language = ""
    before = QLocale()
    QLocale.setDefault(QLocale(studio))  # as install_translations sets the studio's language
    try:
        dialog = TranslateDialog(idle_window, project, [])
        assert dialog.language.currentData() == offered
        project.target_language = "ja"  # the one the project dubs into, once it has one
        assert TranslateDialog(idle_window, project, []).language.currentData() == "ja"
    finally:
        QLocale.setDefault(before)

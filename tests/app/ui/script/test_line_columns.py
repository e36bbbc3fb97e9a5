"""The script table's columns as objects: each carries its own edit, flags and sort (issue 23)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.project import EditLine, SortLinesByTime, Take
from app.ui.script.lines_model import Column, LinesModel
from app.ui.window.document import Document
from tests.app.ui.script.test_lines_model import _texts, doc  # noqa: F401 (doc is a fixture)


def _timed(doc: Document) -> None:
    """Starts out of time order: l4 (1 s), then l2 (3 s) with untimed l3 after it, then l1 (9 s)."""
    for n, start in ((1, 9.0), (2, 3.0), (4, 1.0)):
        doc.push(EditLine(f"l{n}", start=start))
    doc.stack.clear()


def test_only_start_sorts_the_script_and_by_time(doc: Document) -> None:
    _timed(doc)
    model = LinesModel(doc)
    before = _texts(model)
    for column in Column:
        if column is not Column.START:
            assert column.spec.sort(doc.project.lines) is None
            model.sort(column)
            assert _texts(model) == before and not doc.stack.can_undo, column.title
    model.sort(Column.START, Qt.SortOrder.DescendingOrder)  # a timeline has one order
    assert _texts(model) == before
    assert isinstance(Column.START.spec.sort(doc.project.lines), SortLinesByTime)
    model.sort(Column.START)
    assert _texts(model) == [f"Line number {n}." for n in (4, 5, 6, 2, 3, 1)]
    assert Column.START.spec.sort(doc.project.lines) is None  # in time order now: another click adds no step
    model.sort(Column.START)
    doc.undo()
    assert _texts(model) == before and not doc.stack.can_undo


def test_writing_back_what_an_editor_starts_from_changes_nothing(doc: Document) -> None:
    _timed(doc)
    model = LinesModel(doc)
    line = doc.project.line("l1")
    for n in (1, 2):
        doc.project.add_take(line, Take(id=f"t{n}", path=f"takes/l1_t{n}.wav", fingerprint="", duration_s=float(n)))
    line.source_text = "Ligne numéro un."
    for column in Column:
        spec = column.spec
        assert spec.can_edit(line) is column.editable, column.title
        assert spec.write(line, spec.edit_value(model, line)) is None, column.title
        flags = model.flags(model.index(0, column))
        assert bool(flags & Qt.ItemFlag.ItemIsEditable) is column.editable, column.title


def test_each_editable_column_makes_its_own_edit(doc: Document) -> None:
    model = LinesModel(doc)
    line = doc.project.line("l1")
    rex = doc.project.characters[1]
    edits = {
        Column.CHARACTER: (rex.id, lambda: line.character_id == rex.id),
        Column.TEXT: ("New words.", lambda: line.text == "New words."),
        Column.START: ("0:02.5", lambda: line.start == 2.5),
        Column.END: ("00:00:04,000", lambda: line.end == 4.0),
        Column.FIT: ("off", lambda: line.fit is False),
        Column.SOURCE: ("Nouveaux mots.", lambda: line.source_text == "Nouveaux mots."),
    }
    before = (line.character_id, line.text, line.start, line.end, line.fit, line.source_text)
    for column, (value, done) in edits.items():
        assert model.setData(model.index(0, column), value) and done(), column.title
    assert not model.setData(model.index(0, Column.STATUS), "Done")  # read-only: no edit to make
    errors: list[str] = []
    doc.error.connect(errors.append)
    assert not model.setData(model.index(0, Column.START), "soon")  # unreadable: refused in words
    assert line.start == 2.5 and errors[0].startswith("E_INVALID_VALUE: line 1: ")
    for _column in edits:  # one undoable step each
        doc.undo()
    assert (line.character_id, line.text, line.start, line.end, line.fit, line.source_text) == before
    assert not doc.stack.can_undo


def test_a_draft_stays_a_draft_until_its_text_is_edited(doc: Document) -> None:
    model = LinesModel(doc)
    line = doc.project.line("l2")
    line.source_text, line.draft = "Ligne numéro deux.", True
    text = model.index(1, Column.TEXT)
    assert text.data(Qt.ItemDataRole.ForegroundRole).color().name() == "#7b5ea7"
    assert "A machine translation to check" in text.data(Qt.ItemDataRole.ToolTipRole)
    assert model.setData(model.index(1, Column.SOURCE), "Ligne deux.") and line.draft  # the original: still a draft
    assert model.setData(text, "Line two, checked.") and not line.draft
    assert text.data(Qt.ItemDataRole.ForegroundRole) is None

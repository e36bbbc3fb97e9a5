"""The document: edits through undo, dirty tracking, autosave, and a failed save that changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.project import EditProject, Project, SaveError
from app.ui.window.document import Document
from engine.core import files


def test_edit_marks_dirty_and_autosave_writes_it(qtbot: QtBot, tmp_path: Path) -> None:
    doc = Document(Project.create(tmp_path / "p", "Before"))
    assert not doc.is_dirty
    assert doc.push(EditProject(title="After"))
    assert doc.is_dirty
    with qtbot.waitSignal(doc.saved):
        doc.set_autosave(1)
    assert not doc.is_dirty
    assert Project.load(tmp_path / "p").title == "After"
    doc.set_autosave(0)


def test_refused_edit_reports_an_error_code(qtbot: QtBot, tmp_path: Path) -> None:
    doc = Document(Project.create(tmp_path / "p"))
    with qtbot.waitSignal(doc.error) as error:
        assert not doc.push(EditProject(gap_s=-1.0))
    assert error.args[0].startswith("E_INVALID_VALUE")
    assert not doc.stack.can_undo


def test_failed_save_keeps_the_good_file(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = Document(Project.create(tmp_path / "p", "Good"))
    good = (tmp_path / "p" / "project.json").read_bytes()
    doc.push(EditProject(title="Newer"))

    def disk_full(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", disk_full)
    with qtbot.waitSignal(doc.error) as error:
        assert not doc.save()
    assert error.args[0].startswith("E_DISK_FULL")
    assert (tmp_path / "p" / "project.json").read_bytes() == good
    assert doc.is_dirty


def test_a_take_whose_save_failed_keeps_the_document_dirty(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = Document(Project.create(tmp_path / "p"))
    assert not doc.is_dirty

    def disk_full(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", disk_full)
    with qtbot.waitSignal(doc.save_failed) as failed, pytest.raises(SaveError):
        doc.save_after_take(doc.project)  # as the render session calls it after writing a take
    assert failed.args[0].startswith("E_DISK_FULL") and doc.is_dirty
    with qtbot.assertNotEmitted(doc.save_failed):  # one dialog per run of failures, not one per autosave
        assert not doc.save()
    monkeypatch.undo()
    with qtbot.waitSignal(doc.saved):
        assert doc.save()
    assert not doc.is_dirty

"""The project's QA thresholds in the studio (Project › Project settings): a form within the
project file's limits, one undoable edit, and verdicts that follow at once."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.project import AddCharacter, AddLines, EditProject, Line, Project, Take
from app.ui.script.lines_model import Column, LinesModel
from app.ui.settings.project_dialog import ProjectSettingsDialog
from app.ui.settings.qa_thresholds import FIELDS, QaThresholdsBox
from app.ui.window.document import Document
from engine.hearing.qa.checks import QA_THRESHOLD_RANGES, QaThresholds, TakeChecks


def test_every_threshold_has_a_field_within_the_project_files_limits(qtbot: QtBot) -> None:
    assert list(FIELDS) == [f.name for f in fields(QaThresholds)] == list(QA_THRESHOLD_RANGES)
    box = QaThresholdsBox(QaThresholds())
    qtbot.addWidget(box)
    clipping = box.spins["max_clipping"]
    assert clipping.suffix() == " %" and clipping.value() == pytest.approx(0.1) and clipping.maximum() == 100.0
    assert box.spins["min_resemblance"].minimum() == -1.0
    assert box.thresholds() == QaThresholds()


def test_an_untouched_form_gives_back_the_stored_values_exactly(qtbot: QtBot) -> None:
    odd = QaThresholds(max_wer=0.7349, max_clipping=0.00123, max_overrun_s=0.333)
    box = QaThresholdsBox(odd)
    qtbot.addWidget(box)
    assert box.spins["max_clipping"].value() == pytest.approx(0.12)  # shown rounded
    assert box.thresholds() == odd  # but not changed by being shown
    box.spins["max_wer"].setValue(0.5)
    box.spins["max_clipping"].setValue(0.2)
    assert box.thresholds() == replace(odd, max_wer=0.5, max_clipping=0.002)
    box.defaults_button.click()
    assert box.thresholds() == QaThresholds()


def _checks() -> TakeChecks:
    return TakeChecks(checked="2026-01-01T10:00:00+00:00", duration_s=2.0, language="en",
                      recogniser="faster-whisper-1.2.1/base", transcript="line number one", wer=0.2, clipping=0.0,
                      leading_silence_s=0.05, inner_silence_s=0.2, trailing_silence_s=0.2, resemblance=0.6)


def test_new_thresholds_are_one_undoable_edit_and_verdicts_follow(qtbot: QtBot, tmp_path: Path) -> None:
    project = Project.create(tmp_path / "proj", "QA thresholds")
    doc = Document(project)
    char = project.make_character("Maya")
    doc.push(AddCharacter(char))
    doc.push(AddLines([Line(id="l1", text="Line number one.", character_id=char.id)]))
    project.add_take(project.line("l1"), Take(id="t1", path="takes/l1.wav", fingerprint="", duration_s=2.0,
                                              qa=_checks()))
    model = LinesModel(doc)
    assert model.index(0, Column.QA).data() == "✓ Passed"  # WER 0.20 under the default

    dialog = ProjectSettingsDialog(project)
    qtbot.addWidget(dialog)
    assert dialog.command() is None  # shown and left alone: nothing to undo
    dialog.qa.spins["max_wer"].setValue(0.1)
    command = dialog.command()
    assert isinstance(command, EditProject) and set(command.new) == {"qa"}
    assert doc.push(command)
    assert project.settings.qa.max_wer == 0.1 and model.index(0, Column.QA).data() == "✗ Misheard"
    assert doc.is_dirty and "project settings" in doc.stack.undo_text
    doc.undo()
    assert project.settings.qa == QaThresholds() and model.index(0, Column.QA).data() == "✓ Passed"
    saved = Project.load(project.root) if doc.save() else None
    assert saved is not None and saved.settings.qa == QaThresholds()

"""A take whose QA check cannot run says so in the QA column, with the reason, until it is
checked again — it never keeps saying "Checking…"."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from app.project import AddLines, Line, Take
from app.ui.script.lines_model import QA_ROLE, Column, LinesModel, QaState
from app.ui.script.qa_controller import QaController
from app.ui.script.script_panel import ScriptPanel
from app.ui.window.document import Document
from tests.app.ui.script.helpers import InlineQaRunner, document_with_maya


@pytest.fixture(scope="module")
def runner() -> InlineQaRunner:
    return InlineQaRunner()  # the speaker encoder loads once for the module


@pytest.fixture
def doc(tmp_path: Path, qapp: object) -> Document:
    document, maya = document_with_maya(tmp_path / "proj", "QA errors")
    project = document.project
    document.push(AddLines([Line(id=f"l{n}", text=f"Line number {n}.", character_id=maya.id) for n in (1, 2)]))
    for line_id in ("l1", "l2"):
        take = project.takes_dir / f"{line_id}.wav"
        take.write_bytes(b"RIFF, but not a sound file")  # cannot be read: the check cannot run
        project.add_take(project.line(line_id), Take(id=f"t{line_id}", path=f"takes/{line_id}.wav",
                                                     fingerprint="", duration_s=2.0))
    document.stack.clear()
    return document


def test_a_check_that_cannot_run_shows_qa_error_with_the_reason_until_checked_again(
    qtmodeltester: ModelTester, qtbot: QtBot, doc: Document, runner: InlineQaRunner,
) -> None:
    model = LinesModel(doc)
    qtmodeltester.check(model, force_py=True)
    qa = QaController(doc, lambda: runner)
    assert [model.index(r, Column.QA).data() for r in range(2)] == ["Checking…", "Checking…"]

    with qtbot.waitSignal(qa.checked, timeout=60_000):
        assert qa.check_unchecked() == 2
    for row in range(2):
        index = model.index(row, Column.QA)
        assert index.data() == "⚠ QA error" and index.data(QA_ROLE) == QaState.ERROR.value
        tip = index.data(Qt.ItemDataRole.ToolTipRole)
        assert tip.startswith("The QA check could not run: E_TAKE_UNREADABLE: cannot read l")
        assert "Check QA again" in tip
    assert qa.errored_lines() == ["l1", "l2"]

    # The takes list says it too, with the reason.
    panel = ScriptPanel(doc, _actions())
    qtbot.addWidget(panel)
    panel.select_line("l1")
    item = panel.takes.item(0)
    assert "QA error" in item.text() and "E_TAKE_UNREADABLE" in item.toolTip()

    # The take is made readable (say, a disk came back): checking again clears the error.
    tone = 0.3 * np.sin(2 * np.pi * 220 * np.arange(22050) / 22050)
    sf.write(doc.project.takes_dir / "l1.wav", tone.astype(np.float32), 22050)
    with qtbot.waitSignal(qa.checked, timeout=60_000):
        assert qa.recheck(["l1"]) == 1
    first, second = (model.index(r, Column.QA) for r in range(2))
    assert first.data(QA_ROLE) not in (QaState.ERROR.value, QaState.PENDING.value)
    assert doc.project.line("l1").takes[0].qa is not None
    assert second.data() == "⚠ QA error" and qa.errored_lines() == ["l2"]
    qa.close()


def _actions() -> dict[str, QAction]:
    """The window's actions the script panel lays out (only their names matter here)."""
    names = ("add_line", "remove_lines", "move_up", "move_down", "play_line", "render_selected", "render_failed_qa",
             "recheck_qa", "render_all", "render_stale", "cancel_render", "retry_failed", "stop", "play_original")
    return {name: QAction(name) for name in names}

"""Issue 33: a check in flight when the script is replaced (Project › Transcribe the dialogue)
and the replacement undone left its line "Checking…" for ever, with *Check QA again* greyed out.
The sequence, on real takes and the real checker: takes land and are sent for checking, the
script is replaced while their checks run, the results arrive, Edit › Undo brings the lines back."""

from __future__ import annotations

from pathlib import Path

import pytest
import soundfile as sf
from pytestqt.qtbot import QtBot

from app.project import AddLines, Line, Take
from app.project.transcription import ReplaceScript
from app.ui.script.lines_model import QA_ROLE, Column, LinesModel, QaState
from app.ui.script.qa_controller import QaController
from app.ui.window.document import Document
from tests.app.ui.script.helpers import InlineQaRunner, document_with_maya
from tests.engine.helpers import joe_says

TEXTS = {"l1": "Oh, hello.", "l2": "I told you the keys were on the kitchen table."}


@pytest.fixture(scope="module")
def runner() -> InlineQaRunner:
    return InlineQaRunner(held=True)  # the speaker encoder loads once for the module


@pytest.fixture
def doc(tmp_path: Path, qapp: object) -> Document:
    document, maya = document_with_maya(tmp_path / "proj", "Lost checks")
    document.push(AddLines([Line(id=line_id, text=text, character_id=maya.id) for line_id, text in TEXTS.items()]))
    document.stack.clear()
    return document


def render_all(doc: Document, qa: QaController) -> None:
    """Select all, render: each take lands and is sent for checking, as the render session does."""
    project = doc.project
    for line_id, text in TEXTS.items():
        pcm, rate = joe_says(text)
        sf.write(project.takes_dir / f"{line_id}.wav", pcm, rate)
        take = Take(id=f"t{line_id}", path=f"takes/{line_id}.wav", fingerprint="", duration_s=len(pcm) / rate,
                    text=text)
        project.add_take(project.line(line_id), take)
        qa.check(line_id, take)


def qa_states(model: LinesModel) -> list[str]:
    return [model.index(row, Column.QA).data(QA_ROLE) for row in range(model.rowCount())]


@pytest.mark.slow  # real models for many seconds: scripts/test-slow (CI runs it)
def test_a_check_lost_to_a_replaced_script_comes_back_with_undo(qtbot: QtBot, doc: Document,
                                                                 runner: InlineQaRunner) -> None:
    model = LinesModel(doc)
    qa = QaController(doc, lambda: runner)
    render_all(doc, qa)
    assert qa_states(model) == [QaState.PENDING.value] * 2
    assert qa.unjudged_lines() == ["l1", "l2"]  # Check QA again is there while they are checked

    # Transcribe the dialogue replaces the script while both checks run.
    maya = doc.project.characters[0]
    assert doc.push(ReplaceScript([Line(id="n1", text="Something else.", character_id=maya.id, start=0.0)], [], "en"))
    runner.release()
    with qtbot.waitSignal(doc.render_changed, timeout=60_000, raising=False):
        qa.collect()  # the results arrive for takes the project no longer holds

    doc.undo()  # the old script, and its takes, come back
    qtbot.waitUntil(lambda: QaState.PENDING.value not in qa_states(model), timeout=10_000)
    assert qa_states(model) == [QaState.PASSED.value] * 2
    assert all(line.takes[0].qa is not None for line in doc.project.lines)
    assert qa.unjudged_lines() == []
    qa.close()


def test_check_qa_again_sends_a_take_without_a_verdict(qtbot: QtBot, doc: Document, runner: InlineQaRunner) -> None:
    model = LinesModel(doc)
    qa = QaController(doc, lambda: runner)
    render_all(doc, qa)
    runner.close()  # the checks are lost (nothing ever comes back for them)
    assert qa.recheck() == 2  # every take without a verdict, "Checking…" ones included
    runner.release()
    qtbot.waitUntil(lambda: qa_states(model) == [QaState.PASSED.value] * 2, timeout=60_000)
    qa.close()

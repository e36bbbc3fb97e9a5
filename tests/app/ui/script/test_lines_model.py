"""The lines table model: Qt's model tester, edits through undo, reordering, filtering."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from app.project import (
    AddCharacter,
    AddLines,
    AssignCharacter,
    Line,
    LineStatus,
    RemoveLines,
    Take,
)
from app.ui.script.lines_model import (
    CHARACTER_ID_ROLE,
    Column,
    LineFilterProxy,
    LinesModel,
)
from app.ui.window.document import Document
from engine.hearing.qa.checks import TakeChecks
from tests.app.ui.script.helpers import document_with_maya


@pytest.fixture
def doc(tmp_path: Path, qapp: object) -> Document:
    document, maya = document_with_maya(tmp_path / "proj", "Test")
    rex = document.project.make_character("Rex")
    document.push(AddCharacter(rex))
    lines = [
        Line(id=f"l{n}", text=f"Line number {n}.", character_id=(maya.id if n % 2 else rex.id)) for n in range(1, 7)
    ]
    document.push(AddLines(lines))
    document.stack.clear()
    return document


def _texts(model: LinesModel | LineFilterProxy) -> list[str]:
    return [model.index(r, Column.TEXT).data() for r in range(model.rowCount())]


def test_model_passes_qt_model_tester(qtmodeltester: ModelTester, doc: Document) -> None:
    model = LinesModel(doc)
    qtmodeltester.check(model, force_py=True)
    proxy = LineFilterProxy()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy, force_py=True)


def test_structural_edits_keep_the_model_consistent(qtmodeltester: ModelTester, doc: Document) -> None:
    model = LinesModel(doc)
    qtmodeltester.check(model, force_py=True)  # keeps watching every signal from here on
    maya = doc.project.characters[0]
    doc.push(AddLines([Line(id="new", text="Inserted.", character_id=maya.id)], index=2))
    assert _texts(model)[2] == "Inserted."
    doc.push(RemoveLines(["l1", "l4"]))
    assert _texts(model) == ["Line number 2.", "Inserted.", "Line number 3.", "Line number 5.", "Line number 6."]
    assert model.move_lines(["l6"], 0)
    assert _texts(model)[0] == "Line number 6."
    assert model.headerData(0, Qt.Orientation.Vertical) == "1"
    for _ in range(3):
        doc.undo()
    assert _texts(model) == [f"Line number {n}." for n in range(1, 7)]
    doc.redo()
    assert model.rowCount() == 7


def test_persistent_indexes_follow_a_move(doc: Document) -> None:
    from PySide6.QtCore import QPersistentModelIndex

    model = LinesModel(doc)
    tracked = QPersistentModelIndex(model.index(4, Column.TEXT))  # "Line number 5."
    model.move_lines(["l5"], 0)
    assert tracked.row() == 0 and tracked.data() == "Line number 5."


def test_inline_edits_are_undoable(doc: Document) -> None:
    model = LinesModel(doc)
    text = model.index(0, Column.TEXT)
    assert model.flags(text) & Qt.ItemFlag.ItemIsEditable
    assert model.setData(text, "Changed.")
    assert text.data() == "Changed."
    assert model.setData(model.index(0, Column.START), "00:00:01,500")  # SRT style is read as typed...
    assert model.index(0, Column.START).data() == "0:01.500"  # ...and shown in the studio's one format
    errors: list[str] = []
    doc.error.connect(errors.append)
    assert not model.setData(model.index(0, Column.END), "00:00:01,000")  # ends before it starts
    assert not model.setData(model.index(0, Column.END), "soon")
    assert [e.split(":")[0] for e in errors] == ["E_TIME_RANGE", "E_INVALID_VALUE"]  # as at load and import
    rex = doc.project.characters[1]
    assert model.setData(model.index(0, Column.CHARACTER), rex.id)
    assert model.index(0, Column.CHARACTER).data() == "Rex"
    doc.undo()
    doc.undo()
    doc.undo()
    assert text.data() == "Line number 1." and model.index(0, Column.START).data() == ""


def test_assign_many_and_filter_by_character_and_status(qtbot: QtBot, doc: Document) -> None:
    model = LinesModel(doc)
    proxy = LineFilterProxy()
    proxy.setSourceModel(model)
    maya, rex = doc.project.characters
    proxy.set_character(maya.id)
    assert _texts(proxy) == ["Line number 1.", "Line number 3.", "Line number 5."]
    doc.push(AssignCharacter(["l2", "l4"], maya.id))
    assert proxy.rowCount() == 5
    assert all(proxy.index(r, 0).data(CHARACTER_ID_ROLE) == maya.id for r in range(proxy.rowCount()))
    proxy.set_character(None)
    proxy.set_status(LineStatus.FAILED)
    assert proxy.rowCount() == 0
    line = doc.project.line("l3")
    line.status, line.error = LineStatus.FAILED, "E_BACKEND: boom"
    doc.notify_render(frozenset({"l3"}))
    assert _texts(proxy) == ["Line number 3."]
    assert proxy.index(0, Column.STATUS).data(Qt.ItemDataRole.ToolTipRole) == "The voice model failed. Boom. (E_BACKEND)"
    proxy.set_status(None)
    proxy.set_text("number 6")
    assert _texts(proxy) == ["Line number 6."]


def test_takes_duration_stale_and_choice(doc: Document) -> None:
    model = LinesModel(doc)
    project = doc.project
    line = project.line("l1")
    fingerprint = project.fingerprint(line)
    assert fingerprint is not None
    for n in (1, 2):
        project.add_take(line, Take(id=f"t{n}", path=f"takes/l1_t{n}.wav", fingerprint=fingerprint, duration_s=float(n)))
    line.status = LineStatus.DONE
    doc.notify_render(frozenset({"l1"}))
    assert model.index(0, Column.STATUS).data() == "Done"
    assert model.index(0, Column.TAKE).data() == "2 of 2"
    assert model.index(0, Column.DURATION).data() == "2.00 s"
    assert model.flags(model.index(0, Column.TAKE)) & Qt.ItemFlag.ItemIsEditable
    assert model.setData(model.index(0, Column.TAKE), "t1")
    assert model.index(0, Column.TAKE).data() == "1 of 2"
    assert model.setData(model.index(0, Column.TEXT), "Different words.")
    assert model.index(0, Column.STATUS).data() == "Stale"
    doc.push(AssignCharacter(["l1"], None))
    assert model.index(0, Column.CHARACTER).data() == "—"
    assert not model.index(0, 0).parent().isValid() and model.rowCount(model.index(0, 0)) == 0
    assert model.index(0, Column.TEXT, QModelIndex()).isValid()


def test_drop_reorders_lines(doc: Document) -> None:
    model = LinesModel(doc)
    data = model.mimeData([model.index(0, 0), model.index(1, 0)])
    assert model.canDropMimeData(data, Qt.DropAction.MoveAction, 4, 0, QModelIndex())
    model.dropMimeData(data, Qt.DropAction.MoveAction, 4, 0, QModelIndex())
    assert _texts(model)[:4] == ["Line number 3.", "Line number 4.", "Line number 1.", "Line number 2."]
    assert doc.stack.undo_text == "Move 2 lines"


def test_sorting_by_start_reorders_the_script_undoably(qtmodeltester: ModelTester, doc: Document) -> None:
    from app.project import EditLine

    model = LinesModel(doc)
    qtmodeltester.check(model, force_py=True)
    for n, start in ((1, 9.0), (2, 3.0), (4, 1.0)):
        doc.push(EditLine(f"l{n}", start=start))
    model.sort(Column.TEXT)  # only Start sorts
    assert _texts(model)[0] == "Line number 1."
    model.sort(Column.START)
    # l4 (1 s), l2 (3 s) with untimed l3 after it, l1 (9 s); l5 and l6 travel with l4.
    assert _texts(model) == [f"Line number {n}." for n in (4, 5, 6, 2, 3, 1)]
    assert doc.stack.undo_text == "Sort lines by start time"
    doc.undo()
    assert _texts(model)[0] == "Line number 1."


def _checks(**changes: object) -> TakeChecks:
    base: dict[str, object] = dict(checked="2026-01-01T10:00:00+00:00", duration_s=2.0, language="en",
                                   recogniser="pocketsphinx-5.1.1/en-us", transcript="line number one", wer=0.0,
                                   clipping=0.0, leading_silence_s=0.05, inner_silence_s=0.2,
                                   trailing_silence_s=0.2, resemblance=0.6)
    return TakeChecks(**{**base, **changes})  # type: ignore[arg-type]


def test_qa_column_shows_verdicts_with_findings_and_filters_failed_qa(
    qtmodeltester: ModelTester, doc: Document
) -> None:
    model = LinesModel(doc)
    proxy = LineFilterProxy()
    proxy.setSourceModel(model)
    qtmodeltester.check(model, force_py=True)  # watches every signal the QA results cause
    project = doc.project
    assert model.headerData(Column.QA, Qt.Orientation.Horizontal) == "QA"
    assert model.index(0, Column.QA).data() == ""  # no take yet
    qa = {
        "l1": _checks(),
        "l2": _checks(wer=1.0, transcript="something else entirely", clipping=0.02),
        "l3": _checks(transcript=None, wer=None, recogniser="", language="zh"),
        "l4": None,  # rendered, not checked yet
    }
    for line_id, checks in qa.items():
        project.add_take(project.line(line_id), Take(id=f"t{line_id}", path=f"takes/{line_id}.wav",
                                                     fingerprint="", duration_s=2.0, qa=checks))
    doc.notify_render(frozenset(qa))
    shown = [model.index(row, Column.QA).data() for row in range(4)]
    assert shown == ["✓ Passed", "✗ Misheard +1", "Not checked", "Checking…"]  # the worst finding names it
    failed_tip = model.index(1, Column.QA).data(Qt.ItemDataRole.ToolTipRole)
    assert failed_tip.startswith("QA_UNINTELLIGIBLE: the recogniser heard “something else entirely”")
    assert "QA_CLIPPING" in failed_tip and "Resemblance to the character's clip: 0.60" in failed_tip
    assert "QA_NOT_CHECKED" in model.index(2, Column.QA).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(0, Column.QA).data(Qt.ItemDataRole.ToolTipRole).startswith("Passed every check.")

    proxy.set_failed_qa(True)
    assert _texts(proxy) == ["Line number 2."]
    # A timecode edit can make a passing take overrun its slot: the verdict follows at once.
    assert model.setData(model.index(0, Column.START), "00:00:00,000")
    assert model.setData(model.index(0, Column.END), "00:00:01,000")
    assert model.index(0, Column.QA).data() == "✗ Too long"
    assert _texts(proxy) == ["Line number 1.", "Line number 2."]
    # A stricter project threshold fails the unchecked-language take too (silences are always measured).
    project.settings.qa = type(project.settings.qa)(max_clipping=0.0, max_inner_silence_s=0.1)
    doc.notify_render(frozenset())
    assert model.index(2, Column.QA).data() == "✗ Long pause"
    proxy.set_failed_qa(False)
    assert proxy.rowCount() == 6


def test_every_column_is_declared_once() -> None:
    assert [c.title for c in Column] == ["Character", "Text", "Start", "End", "Status", "Duration", "Take", "QA", "Fit",
                                         "Language", "Source"]
    assert [c for c in Column if c.editable] == [
        Column.CHARACTER, Column.TEXT, Column.START, Column.END, Column.TAKE, Column.FIT, Column.LANGUAGE, Column.SOURCE]
    assert Column(7) is Column.QA and Column.TEXT.width == 0  # the one column that stretches


def test_an_overrun_is_a_finding_in_every_cell_that_shows_it(doc: Document) -> None:
    """Issue 21: no "✓ Passed every check" beside a red overrun; the QA cell and Duration agree."""
    from app.project import EditLine

    model = LinesModel(doc)
    project = doc.project
    doc.push(EditLine("l1", start=0.0, end=2.0))
    project.add_take(project.line("l1"), Take(id="t1", path="takes/l1.wav", fingerprint="", duration_s=2.11,
                                              qa=_checks()))
    doc.notify_render(frozenset({"l1"}))
    # 0.11 s past the slot, inside the 0.25 s QA allows: a warning in both cells, never a pass
    assert model.index(0, Column.QA).data() == "⚠ Runs long"
    tip = model.index(0, Column.QA).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("QA_OVERRUN: the take runs 0.11 s past its slot") and "Passed every check" not in tip
    duration = model.index(0, Column.DURATION)
    assert duration.data() == "⚠ 2.11 s"
    assert duration.data(Qt.ItemDataRole.ForegroundRole).color().name() == "#b8860b"
    assert "0.11 s longer than its slot (0:00.000–0:02.000)" in duration.data(Qt.ItemDataRole.ToolTipRole)
    # past the limit: a failure named by its worst finding, and red in Duration too
    doc.push(EditLine("l1", end=1.5))
    assert model.index(0, Column.QA).data() == "✗ Too long"
    assert model.index(0, Column.DURATION).data(Qt.ItemDataRole.ForegroundRole).color().name() == "#d62728"
    # fitting inside the slot: passed in both
    doc.push(EditLine("l1", end=3.0))
    assert model.index(0, Column.QA).data() == "✓ Passed"
    assert model.index(0, Column.DURATION).data() == "2.11 s"
    # a fast text whose take fits: QA passes, so the cell has no ⚠ either; the tooltip still says it
    doc.push(EditLine("l1", text="Fifty-four characters of text said in a three second slot."))
    assert model.index(0, Column.QA).data() == "✓ Passed" and model.index(0, Column.DURATION).data() == "2.11 s"
    assert "Fast: 19.3 characters/s" in model.index(0, Column.DURATION).data(Qt.ItemDataRole.ToolTipRole)


def test_duration_warns_of_fast_lines_overlaps_and_likely_overruns_before_rendering(doc: Document) -> None:
    """Subtitle Edit's characters per second, with words per minute and the voice's expected length."""
    from app.project import EditLine
    from app.project.timing import line_timings

    model = LinesModel(doc)
    long_text = "This sentence is far too long to be said in the little time it is given here."
    doc.push(EditLine("l2", text=long_text, start=0.0, end=2.0))  # 77 characters in 2 s
    doc.push(EditLine("l4", start=10.0, end=14.0))
    timing = line_timings(doc.project)["l2"]
    assert timing.cps == pytest.approx(len(long_text) / 2.0) and timing.cps > timing.rules.cps_fast
    assert timing.wpm == pytest.approx(len(long_text.split()) * 30.0)
    assert timing.likely_too_long and timing.pace.takes == 0  # the typical pace: no takes yet
    cell = model.index(1, Column.DURATION)
    assert cell.data().startswith("⚠ ≈") and cell.data().endswith(" s")  # the expected length, before rendering
    tip = cell.data(Qt.ItemDataRole.ToolTipRole)
    assert f"Too fast to say naturally: {len(long_text) / 2:.1f} characters/s" in tip and "Likely too long" in tip
    assert "words/min over a 2.00 s slot" in tip
    relaxed = model.index(3, Column.DURATION)  # "Line number 4." over 4 s
    assert not relaxed.data().startswith("⚠") and "3.5 characters/s" in relaxed.data(Qt.ItemDataRole.ToolTipRole)

    # l1 and l3 are Maya's; timed on top of each other, both say so
    doc.push(EditLine("l1", start=20.0, end=23.0))
    doc.push(EditLine("l3", start=21.0, end=24.0))
    assert line_timings(doc.project)["l1"].overlaps == (3,)
    assert "Overlaps line 3 of the same character" in model.index(0, Column.DURATION).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(2, Column.DURATION).data().startswith("⚠")


def test_a_voice_pace_is_measured_from_its_takes(doc: Document) -> None:
    from app.project.timing import TYPICAL_CPS, voice_paces

    project = doc.project
    maya = project.line("l1").character_id
    for n in (1, 3):
        line = project.line(f"l{n}")
        project.add_take(line, Take(id=f"t{n}", path=f"takes/l{n}.wav", fingerprint="", duration_s=2.8,
                                    text=line.text))  # 14 characters in 2.8 s: 5 a second, a slow voice
    pace = voice_paces(project)[maya]
    assert pace.takes == 2 and pace.cps == pytest.approx(5.0)
    assert voice_paces(project)[project.line("l2").character_id].cps == pytest.approx(TYPICAL_CPS)


def test_a_line_the_engines_backend_cannot_speak_is_flagged(qtmodeltester: ModelTester, doc: Document) -> None:
    """Issue 30: a Chinese line showed nothing until Piper babbled it."""
    from app.project import EditLine
    from engine.synthesis.backends import COSYVOICE2, PIPER

    model = LinesModel(doc)
    qtmodeltester.check(model)
    status = model.index(0, Column.STATUS)
    doc.push(EditLine("l1", text="甚至出现交易几乎停滞的情况"))
    assert not status.data().startswith("⚠")  # no backend offered yet: nothing to judge by
    model.set_capabilities(PIPER.capabilities)
    assert status.data().startswith("⚠ ") and status.data(Qt.ItemDataRole.ForegroundRole).color().name() == "#b8860b"
    tip = status.data(Qt.ItemDataRole.ToolTipRole)
    assert "cannot speak this line's language" in tip and "E_LANGUAGE_UNSUPPORTED" in tip and "cosyvoice2" in tip
    assert "(or its character's, for all its lines)" in tip  # it follows its character: either may be set
    doc.push(EditLine("l1", language="zh"))  # its own language: the character's would change nothing
    tip = status.data(Qt.ItemDataRole.ToolTipRole)
    assert "from the line's own language" in tip and "set the line's own language to it" in tip
    assert "character's" not in tip
    doc.push(EditLine("l1", language=None))
    assert not model.index(1, Column.STATUS).data().startswith("⚠")  # the English lines are fine
    doc.push(EditLine("l1", text="Back in English."))  # an edit clears the flag
    assert not status.data().startswith("⚠")
    doc.push(EditLine("l1", text="我们去Starbucks喝杯咖啡"))
    assert status.data().startswith("⚠")
    model.set_capabilities(COSYVOICE2.capabilities)  # a backend that speaks Chinese
    assert not status.data().startswith("⚠")


def test_the_flag_says_why_in_chinese(chinese: None, doc: Document) -> None:
    """Under zh_CN the tooltip's detail (the engine's refusal) is said in Chinese, not only its first line."""
    from app.project import EditLine
    from engine.synthesis.backends import PIPER

    model = LinesModel(doc)
    doc.push(EditLine("l1", text="甚至出现交易几乎停滞的情况"))
    model.set_capabilities(PIPER.capabilities)
    tip = model.index(0, Column.STATUS).data(Qt.ItemDataRole.ToolTipRole)
    assert "这句台词是中文（普通话）（zh，依据台词文字的书写系统），Piper 后端说不了" in tip, tip
    assert "the line is in" not in tip and tip.endswith("(E_LANGUAGE_UNSUPPORTED)")  # the code last, not first
    assert "E_LANGUAGE_UNSUPPORTED:" not in tip

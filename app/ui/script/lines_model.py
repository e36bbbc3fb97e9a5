"""The script lines as a Qt table model, and the proxy that filters them.

The model keeps a row cache (row -> line id, plus each line's shown status) and changes it only
when the document says something changed, emitting the matching Qt signals: precise
``dataChanged`` for edits and render results, row removals/insertions and a layout change for
structural edits (Anki's browser table follows the same idea). Status involves hashing the
character's clip, so it is computed once per change instead of on every paint.

Each column is a :class:`LineColumn` that carries its own behaviour: what it shows, what an
editor starts from, the edit it makes, its tooltip, colour and whether it sorts (Picard's
item-view columns do the same). The model only dispatches a role to the column.

Edits made in the table become undoable commands pushed to the :class:`Document`; the model
itself never writes to the project.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from PySide6.QtCore import (
    QAbstractTableModel,
    QByteArray,
    QCoreApplication,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor

from app.project import (
    Change,
    Character,
    ChooseTake,
    Command,
    EditLine,
    Fit,
    Line,
    LineStatus,
    MoveLines,
    Project,
    SortLinesByTime,
)
from app.project.qa import chosen_verdicts, overrun_of, placements
from app.project.readiness import LineInUnspokenLanguage, language_gaps
from app.project.timecode import format_clock, parse_time
from app.project.timing import LineTiming, line_timings
from app.project.undo import time_order
from app.ui.window.document import Document
from engine.core.codes import ErrorCode, QaCode
from engine.core.protocol import Capabilities
from engine.hearing.qa.checks import Finding, TakeChecks, Verdict
from engine.synthesis.backends import declared_languages

ModelIndex = QModelIndex | QPersistentModelIndex

MIME_LINES = "application/x-dubstudio-line-ids"


LINE_ID_ROLE = Qt.ItemDataRole.UserRole + 1
CHARACTER_ID_ROLE = Qt.ItemDataRole.UserRole + 2
STATUS_ROLE = Qt.ItemDataRole.UserRole + 3  # the LineStatus value string
QA_ROLE = Qt.ItemDataRole.UserRole + 4  # QaState value of the chosen take


class QaState(str, enum.Enum):
    """What the QA column shows for a line's chosen take."""

    NO_TAKE = ""
    PENDING = "pending"  # not checked yet (being checked, or made before QA existed)
    PASSED = "passed"
    RUNS_LONG = "runs_long"  # passed, but runs past its slot by less than the QA limit: a finding still
    FAILED = "failed"
    UNCHECKED = "unchecked"  # no recogniser for the language; nothing else failed
    ERROR = "error"  # the check itself could not run (unreadable take, checker crashed)


QA_TEXT = {
    QaState.NO_TAKE: "",
    QaState.PENDING: "Checking…",
    QaState.PASSED: "✓ Passed",
    QaState.RUNS_LONG: "⚠ Runs long",
    QaState.FAILED: "✗ Failed",
    QaState.UNCHECKED: "Not checked",
    QaState.ERROR: "⚠ QA error",
}
QA_COLOUR = {
    QaState.PENDING: "#8a8a8a",
    QaState.PASSED: "#3b8a3e",
    QaState.RUNS_LONG: "#b8860b",
    QaState.FAILED: "#d62728",
    QaState.UNCHECKED: "#b8860b",
    QaState.ERROR: "#c45100",
}

STATUS_TEXT = {
    LineStatus.NOT_RENDERED: "Not rendered",
    LineStatus.QUEUED: "Queued",
    LineStatus.RENDERING: "Rendering…",
    LineStatus.DONE: "Done",
    LineStatus.FAILED: "Failed",
    LineStatus.STALE: "Stale",
}
STATUS_COLOUR = {
    LineStatus.NOT_RENDERED: "#8a8a8a",
    LineStatus.QUEUED: "#4e79a7",
    LineStatus.RENDERING: "#f28e2b",
    LineStatus.DONE: "#3b8a3e",
    LineStatus.FAILED: "#d62728",
    LineStatus.STALE: "#b8860b",
}
UNASSIGNED = "—"
WARNING_COLOUR = "#b8860b"  # a timing warning, an overrun within the QA limit
ESTIMATE_COLOUR = "#8a8a8a"  # an expected length, before there is a take
DRAFT_COLOUR = "#7b5ea7"  # a machine translation nobody has checked

# The QA cell names the worst finding, in the order a dubber fixes them; the tooltip has all.
FINDING_LABELS: dict[str, str] = {
    QaCode.SILENT: "Silent",
    QaCode.UNINTELLIGIBLE: "Misheard",
    QaCode.OVERRUN: "Too long",
    QaCode.UNLIKE_VOICE: "Unlike voice",
    QaCode.CLIPPING: "Clipped",
    QaCode.LEADING_SILENCE: "Silence",
    QaCode.INNER_SILENCE: "Long pause",
    QaCode.TRAILING_SILENCE: "Silence",
}


def worst_first(findings: tuple[Finding, ...]) -> list[Finding]:
    """The failing findings (not the not-checked note), the worst first."""
    order = list(FINDING_LABELS)
    failing = [f for f in findings if f.code != QaCode.NOT_CHECKED]
    return sorted(failing, key=lambda f: order.index(f.code) if f.code in order else len(order))

# A line's own fit choice (Line.fit) as the Fit column edits it: None follows the project.
FIT_CHOICES: dict[str, bool | None] = {"default": None, "on": True, "off": False}
FITTED_COLOUR = "#2f6f3e"


@dataclass(frozen=True)
class LineColumn:
    """One column of the script table: its layout and what it does with a line.

    Layout: title, least width in pixels (0: the one column that stretches), alignment, and a
    ``sample`` (its widest usual value): a column with one is sized to it or its title,
    whichever is wider, so the stretching Text column gets the room that is left. The base
    shows nothing and edits nothing; each column overrides what it has.
    """

    title: str
    width: int = 0
    right_aligned: bool = False
    sample: str = ""
    header_tip: str | None = None

    editable: ClassVar[bool] = False  # whether write() can change a line

    def display(self, model: LinesModel, line: Line) -> str:
        return ""

    def edit_value(self, model: LinesModel, line: Line) -> str:
        """What an editor starts from: the shown text, unless the column edits an id or a choice."""
        return self.display(model, line)

    def can_edit(self, line: Line) -> bool:
        return self.editable

    def write(self, line: Line, value: object) -> Command | None:
        """The undoable edit that puts ``value`` in the cell, None when it changes nothing;
        ValueError, in words, when the value cannot be read."""
        return None

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        return None

    def colour(self, model: LinesModel, line: Line) -> str | None:
        """The text's colour, when it says something (a status, a warning, a draft)."""
        return None

    def swatch(self, model: LinesModel, line: Line) -> str | None:
        """A colour shown before the text."""
        return None

    def sort(self, lines: Sequence[Line]) -> Command | None:
        """The undoable reorder a click on the header makes, None when it makes none: script
        order is data (a slot ends where the next line starts), so no view-only sorting."""
        return None


class CharacterColumn(LineColumn):
    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        char = _character(model.project, line)
        return char.name if char is not None else UNASSIGNED

    def edit_value(self, model: LinesModel, line: Line) -> str:
        return line.character_id or ""

    def write(self, line: Line, value: object) -> Command | None:
        new = str(value) if value else None
        return None if new == line.character_id else EditLine(line.id, character_id=new)

    def tooltip(self, model: LinesModel, line: Line) -> str | None:  # the full name, when the column is narrow
        char = _character(model.project, line)
        return char.name if char is not None else "No character: double-click to choose one"

    def swatch(self, model: LinesModel, line: Line) -> str | None:
        char = _character(model.project, line)
        return char.colour if char is not None else None


class TextColumn(LineColumn):
    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        return line.text

    def write(self, line: Line, value: object) -> Command | None:
        if value == line.text:
            return None
        if line.draft:  # the translation was read and corrected: no longer a draft
            return EditLine(line.id, text=str(value), draft=False)
        return EditLine(line.id, text=str(value))

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        if line.draft:
            return f"{line.text}\n\nA machine translation to check: editing the text marks it checked."
        return line.text or None

    def colour(self, model: LinesModel, line: Line) -> str | None:
        return DRAFT_COLOUR if line.draft else None


class SourceColumn(LineColumn):
    """The original a translated line came from (issue 18); the panel shows it when there is one."""

    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        return line.source_text

    def write(self, line: Line, value: object) -> Command | None:
        return None if value == line.source_text else EditLine(line.id, source_text=str(value))

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        return line.source_text or None


@dataclass(frozen=True)
class TimeColumn(LineColumn):
    """A line's own start or end timecode, read as typed (SRT style too) and shown one way."""

    key: str = "start"  # the Line field: "start" or "end"
    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        seconds = getattr(line, self.key)
        return format_clock(seconds) if seconds is not None else ""

    def write(self, line: Line, value: object) -> Command | None:
        text = str(value or "").strip()
        seconds = parse_time(text) if text else None
        if seconds == getattr(line, self.key):
            return None
        return EditLine(line.id, start=seconds) if self.key == "start" else EditLine(line.id, end=seconds)


class StartColumn(TimeColumn):
    def sort(self, lines: Sequence[Line]) -> Command | None:
        """Time order, as one undoable step (:class:`SortLinesByTime`): untimed lines stay after
        the line before them. Only this column sorts."""
        in_order = [line.id for line in time_order(lines)] == [line.id for line in lines]
        return None if in_order else SortLinesByTime()


class StatusColumn(LineColumn):
    """The line's render status; ⚠ where the engine's backend cannot speak the line's language."""

    def display(self, model: LinesModel, line: Line) -> str:
        mark = "⚠ " if model.language_gap(line) is not None else ""
        return mark + STATUS_TEXT[model.status_of(line)]

    def colour(self, model: LinesModel, line: Line) -> str | None:
        return WARNING_COLOUR if model.language_gap(line) is not None else STATUS_COLOUR[model.status_of(line)]

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        if (gap := model.language_gap(line)) is not None:
            return QCoreApplication.translate(
                "LinesModel", "The engine's voice cannot speak this line's language: it will not be rendered.\n"
                "Render it with a backend that speaks it, or set the character's language.") + "\n" + gap.problem
        status = model.status_of(line)
        if status is LineStatus.FAILED and line.error:
            return line.error
        if status is LineStatus.STALE:
            return "Text, character, clip or voice settings changed since this take was rendered."
        return None


class DurationColumn(LineColumn):
    def display(self, model: LinesModel, line: Line) -> str:
        duration = model.project.duration(line)
        timing = model.timing_of(line)
        mark = "⚠ " if model.duration_colour(line) in (WARNING_COLOUR, STATUS_COLOUR[LineStatus.FAILED]) else ""
        if duration is not None:
            return f"{mark}{duration:.2f} s"
        # Before rendering: the length this voice's pace predicts, so a long line shows early.
        return f"{mark}≈{timing.expected_s:.1f} s" if timing is not None and line.text.strip() else ""

    def colour(self, model: LinesModel, line: Line) -> str | None:
        return model.duration_colour(line)

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        """The take's overrun, then the pace warnings, then the figures (CPS, WPM, expected length)."""
        timing = model.timing_of(line)
        text: list[str] = []
        over = model.overrun(line)
        placement = model.placement_of(line)
        if over > 0 and placement is not None and placement[1] is not None:
            text.append(f"The take is {over:.2f} s longer than its slot "
                        f"({format_clock(placement[0])}–{format_clock(placement[1])}).")
        if timing is not None:
            has_take = model.project.chosen_take(line) is not None
            text += [w for w in timing.warnings() if not (has_take and w.startswith("Likely too long"))]
            if line.text.strip():
                text.append(timing.describe())
        return "\n".join(text) or None


class TakeColumn(LineColumn):
    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        if not line.takes:
            return ""
        ids = [t.id for t in line.takes]
        number = ids.index(line.chosen_take) + 1 if line.chosen_take in ids else 0
        return f"{number} of {len(ids)}" if number else f"– of {len(ids)}"

    def edit_value(self, model: LinesModel, line: Line) -> str:
        return line.chosen_take or ""

    def can_edit(self, line: Line) -> bool:
        return len(line.takes) >= 2  # one take leaves nothing to choose

    def write(self, line: Line, value: object) -> Command | None:
        return None if not value or value == line.chosen_take else ChooseTake(line.id, str(value))


class QaColumn(LineColumn):
    def display(self, model: LinesModel, line: Line) -> str:
        state = model.qa_state(line)
        verdict = model.verdict_of(line) if state is QaState.FAILED else None
        failing = worst_first(verdict.findings) if verdict else []
        if not failing:
            return QA_TEXT[state]
        label = f"✗ {FINDING_LABELS.get(failing[0].code, 'Failed')}"
        return f"{label} +{len(failing) - 1}" if len(failing) > 1 else label

    def colour(self, model: LinesModel, line: Line) -> str | None:
        state = model.qa_state(line)
        return None if state is QaState.NO_TAKE else QA_COLOUR[state]

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        take = model.project.chosen_take(line)
        if take is None:
            return None
        qa_errors = model.document.qa_errors
        if take.qa is None and take.id in qa_errors:
            return qa_error_tooltip(qa_errors[take.id])
        if take.qa is None:
            return "This take has not been checked yet; QA runs in the background after each render."
        verdict = model.verdict_of(line)
        findings = tuple(worst_first(verdict.findings)) + tuple(
            f for f in verdict.findings if f.code == QaCode.NOT_CHECKED) if verdict else ()
        over = model.overrun(line)
        if over > 0 and not any(f.code == QaCode.OVERRUN for f in findings):
            limit = model.project.settings.qa.max_overrun_s
            findings = (Finding(QaCode.OVERRUN, f"the take runs {over:.2f} s past its slot, within the "
                                              f"{limit:.2f} s QA allows (a warning, not a failure)"),) + findings
        return qa_tooltip(take.qa, findings)


class FitColumn(LineColumn):
    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        fitted = _fitted(model.project, line)
        if fitted is not None:  # "rate 1.12×": the column says it is the fit (full text in the tooltip)
            return fitted.describe().removeprefix("fitted: ")
        return "on render" if model.project.wants_fit(line) else ""

    def edit_value(self, model: LinesModel, line: Line) -> str:
        return next(key for key, value in FIT_CHOICES.items() if value is line.fit)

    def write(self, line: Line, value: object) -> Command | None:
        if not isinstance(value, str) or value not in FIT_CHOICES or FIT_CHOICES[value] is line.fit:
            return None
        return EditLine(line.id, fit=FIT_CHOICES[value])

    def colour(self, model: LinesModel, line: Line) -> str | None:
        return FITTED_COLOUR if _fitted(model.project, line) is not None else None

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        project = model.project
        default = "on" if project.settings.fit_default else "off"
        choice = {None: f"the project's default ({default})", True: "always", False: "never"}[line.fit]
        text = [f"Fit to slot: {choice}. Double-click to change."]
        fitted = _fitted(project, line)
        if fitted is not None:
            text.insert(0, f"{fitted.describe()}: {fitted.natural_s:.2f} s of speech into a {fitted.slot_s:.2f} s slot")
        return "\n".join(text)


def _character(project: Project, line: Line) -> Character | None:
    if line.character_id is None:
        return None
    return next((c for c in project.characters if c.id == line.character_id), None)


def _fitted(project: Project, line: Line) -> Fit | None:
    take = project.chosen_take(line)
    return take.fit if take is not None else None


class Column(enum.IntEnum):
    """The table's columns in order, each a :class:`LineColumn` (``column.spec``). ``Column(n)``
    looks one up by position; the view and the model both read them.

    A line's order number is the vertical header, not a column: it is derived from the row,
    and a column whose every value shifts when a row is inserted would make each insertion
    look like an edit of all the rows below."""

    spec: LineColumn

    # ``Column(n)`` looks a column up by position; the default only tells type checkers so.
    def __new__(cls, position: int, spec: LineColumn | None = None) -> Column:
        member = int.__new__(cls, position)
        member._value_ = position
        if spec is not None:
            member.spec = spec
        return member

    CHARACTER = (0, CharacterColumn("Character", 90))  # sized to the project's names (script_panel)
    TEXT = (1, TextColumn("Text"))
    START = (2, StartColumn("Start", 60, True, "00:00.000",
                            "Click to put the script in time order (one undoable step)", key="start"))
    END = (3, TimeColumn("End", 60, True, "00:00.000", key="end"))
    STATUS = (4, StatusColumn("Status", 60, sample="Not rendered"))
    DURATION = (5, DurationColumn("Duration", 60, True, "⚠ ≈10.0 s"))
    TAKE = (6, TakeColumn("Take", 44, sample="2 of 3"))
    QA = (7, QaColumn("QA", 60, sample="✗ Unlike voice"))
    FIT = (8, FitColumn("Fit", 60, sample="stretch 1.08×",  # "rate 1.25× + stretch 1.08×" wraps to two
                        header_tip="Fit to slot: speak faster (then time-stretch) when a take is longer than its slot"))
    SOURCE = (9, SourceColumn("Source", 240))  # shown when a line has a source text

    @property
    def title(self) -> str:
        return self.spec.title

    @property
    def width(self) -> int:
        return self.spec.width

    @property
    def editable(self) -> bool:
        return self.spec.editable

    @property
    def right_aligned(self) -> bool:
        return self.spec.right_aligned

    @property
    def sample(self) -> str:
        return self.spec.sample


class LinesModel(QAbstractTableModel):
    """Rows are the project's lines in script order; columns are :class:`Column`."""

    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self._ids: list[str] = []
        self._lines: dict[str, Line] = {}
        self._rows: dict[str, int] = {}
        self._status: dict[str, LineStatus] = {}
        self._verdicts: dict[str, Verdict | None] | None = None  # chosen takes' QA, computed on demand
        self._placements: dict[str, tuple[float, float | None]] | None = None  # (start, slot end) per line
        self._timings: dict[str, LineTiming] | None = None  # pace against the slot, computed on demand
        self._capabilities: Capabilities | None = None  # the engine's backend, once offered
        self._language_gaps: dict[str, LineInUnspokenLanguage] | None = None  # computed on demand
        self._snapshot()
        document.changed.connect(self._on_change)
        document.render_changed.connect(self._on_render)

    @property
    def document(self) -> Document:
        return self._doc

    @property
    def project(self) -> Project:
        return self._doc.project

    # --- cache --------------------------------------------------------------------------------

    def _snapshot(self) -> None:
        self._ids = [line.id for line in self._doc.project.lines]
        self._lines = {line.id: line for line in self._doc.project.lines}
        self._reindex()
        self._status.clear()

    def _reindex(self) -> None:
        self._rows = {line_id: row for row, line_id in enumerate(self._ids)}

    def status_of(self, line: Line) -> LineStatus:
        status = self._status.get(line.id)
        if status is None:
            status = self._status[line.id] = self._doc.project.status(line)
        return status

    def set_capabilities(self, capabilities: Capabilities) -> None:
        """The engine's backend (declared, or the running engine's): lines in a language it does
        not declare are flagged in the Status column."""
        self._capabilities = capabilities
        self._language_gaps = None
        self._emit_column(Column.STATUS)

    def language_gap(self, line: Line) -> LineInUnspokenLanguage | None:
        """Why the engine's backend cannot speak ``line`` (None: it can, or no backend offered yet)."""
        if self._capabilities is None:
            return None
        if self._language_gaps is None:
            caps = self._capabilities
            gaps = language_gaps(self._doc.project, caps.name, caps.languages, declared_languages())
            self._language_gaps = {gap.line_id: gap for gap in gaps}
        return self._language_gaps.get(line.id)

    def verdict_of(self, line: Line) -> Verdict | None:
        # Verdicts depend on the timeline (a slot ends where the next line starts), so any
        # change recomputes them all: one timeline pass, not one per row.
        if self._verdicts is None:
            self._verdicts = chosen_verdicts(self._doc.project)
        return self._verdicts.get(line.id)

    def placement_of(self, line: Line) -> tuple[float, float | None] | None:
        if self._placements is None:
            self._placements = placements(self._doc.project)
        return self._placements.get(line.id)

    def timing_of(self, line: Line) -> LineTiming | None:
        """The line's pace against its slot (see :mod:`app.project.timing`)."""
        if self._timings is None:
            self._timings = line_timings(self._doc.project)
        return self._timings.get(line.id)

    def qa_state(self, line: Line) -> QaState:
        take = self._doc.project.chosen_take(line)
        if take is None:
            return QaState.NO_TAKE
        verdict = self.verdict_of(line)
        if verdict is None:
            return QaState.ERROR if take.id in self._doc.qa_errors else QaState.PENDING
        if verdict.passed is not False and self.overrun(line) > 0:
            return QaState.RUNS_LONG  # never "passed" beside an overrun the Duration cell shows
        return {True: QaState.PASSED, False: QaState.FAILED, None: QaState.UNCHECKED}[verdict.passed]

    def line_at(self, row: int) -> Line:
        return self._lines[self._ids[row]]

    def row_of(self, line_id: str) -> int:
        """The row of a line, or -1."""
        return self._rows.get(line_id, -1)

    def line_ids(self, rows: list[int]) -> list[str]:
        return [self._ids[r] for r in sorted(set(rows)) if 0 <= r < len(self._ids)]

    # --- reacting to the document ----------------------------------------------------------

    def _on_change(self, change: Change) -> None:
        if change.structure:
            self._apply_structure()
        self._refresh(change.lines)
        if change.characters or change.project:
            # Renames and colour changes show in every row of the character; cheap to redraw.
            self._status.clear()
            self._language_gaps = None  # a character's language decides its lines'
            self._emit_all()

    def _on_render(self, line_ids: frozenset[str]) -> None:
        self._refresh(line_ids)

    def _refresh(self, line_ids: frozenset[str]) -> None:
        # A new take or timecode can move any later line's slot, and a voice's measured pace.
        self._placements = None
        self._language_gaps = None  # an edited text may be in another language now
        if self._verdicts is not None:
            self._verdicts = None
            self._emit_column(Column.QA)
        if self._timings is not None:
            # Recomputed now, so only the rows whose pace changed are redrawn (and re-filtered:
            # the whole column was 40 ms an edit at 2000 lines).
            before, self._timings = self._timings, line_timings(self._doc.project)
            changed = sorted(self._rows[i] for i, timing in self._timings.items()
                             if i in self._rows and before.get(i) != timing)
            for first, last in _runs(changed):
                self.dataChanged.emit(self.index(first, Column.DURATION), self.index(last, Column.DURATION))
        rows = [self._rows[i] for i in line_ids if i in self._rows]
        for line_id in line_ids:
            self._status.pop(line_id, None)
        # Contiguous runs keep the number of signals small for bulk edits.
        for first, last in _runs(sorted(rows)):
            self.dataChanged.emit(self.index(first, 0), self.index(last, len(Column) - 1))

    def _emit_column(self, column: Column) -> None:
        if self._ids:
            self.dataChanged.emit(self.index(0, column), self.index(len(self._ids) - 1, column))

    def _emit_all(self) -> None:
        if self._ids:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._ids) - 1, len(Column) - 1))

    def _apply_structure(self) -> None:
        """Bring the row cache to the project's line order with the finest Qt signals."""
        new_ids = [line.id for line in self._doc.project.lines]
        new_set = set(new_ids)
        # 1. removals, bottom-up in contiguous runs
        gone = [row for row, line_id in enumerate(self._ids) if line_id not in new_set]
        for first, last in reversed(_runs(gone)):
            self.beginRemoveRows(QModelIndex(), first, last)
            del self._ids[first : last + 1]
            self.endRemoveRows()
        self._reindex()
        # 2. reorder of the lines that stay
        kept = set(self._ids)
        target = [line_id for line_id in new_ids if line_id in kept]
        if target != self._ids:
            self.layoutAboutToBeChanged.emit()
            new_rows = {line_id: row for row, line_id in enumerate(target)}
            old = self.persistentIndexList()
            moved = [self.index(new_rows[self._ids[i.row()]], i.column()) for i in old]
            self._ids = target
            self._reindex()
            self.changePersistentIndexList(old, moved)
            self.layoutChanged.emit()
        # 3. insertions, top-down
        self._lines.update({line.id: line for line in self._doc.project.lines})
        for row, line_id in enumerate(new_ids):
            if row >= len(self._ids) or self._ids[row] != line_id:
                self.beginInsertRows(QModelIndex(), row, row)
                self._ids.insert(row, line_id)
                self._reindex()
                self.endInsertRows()
        for line_id in list(self._lines):
            if line_id not in new_set:
                del self._lines[line_id]
                self._status.pop(line_id, None)
        # Order numbers (the vertical header) of rows after the first change may differ now.
        if self._ids:
            self.headerDataChanged.emit(Qt.Orientation.Vertical, 0, len(self._ids) - 1)

    # --- Qt model API -------------------------------------------------------------------------

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(Column)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            return Column(section).spec.header_tip if 0 <= section < len(Column) else None
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(Column):
            return Column(section).title
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self._ids):
            return str(section + 1)
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled
        flags = (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemIsDragEnabled
            | Qt.ItemFlag.ItemIsDropEnabled
        )
        if Column(index.column()).spec.can_edit(self.line_at(index.row())):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._ids)):
            return None
        line = self.line_at(index.row())
        column = Column(index.column()).spec
        if role == LINE_ID_ROLE:
            return line.id
        if role == CHARACTER_ID_ROLE:
            return line.character_id or ""
        if role == STATUS_ROLE:
            return self.status_of(line).value
        if role == QA_ROLE:
            return self.qa_state(line).value
        if role == Qt.ItemDataRole.DisplayRole:
            return column.display(self, line)
        if role == Qt.ItemDataRole.EditRole:
            return column.edit_value(self, line)
        if role == Qt.ItemDataRole.DecorationRole:
            return QColor(swatch) if (swatch := column.swatch(self, line)) else None
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor(colour)) if (colour := column.colour(self, line)) else None
        if role == Qt.ItemDataRole.ToolTipRole:
            return column.tooltip(self, line)
        if role == Qt.ItemDataRole.TextAlignmentRole and column.right_aligned:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def overrun(self, line: Line) -> float:
        """How far the chosen take runs past its slot: the one figure the Duration and QA cells share."""
        take = self._doc.project.chosen_take(line)
        if take is None:
            return 0.0
        return overrun_of(take, self.placement_of(line)) or 0.0

    def duration_colour(self, line: Line) -> str | None:
        over = self.overrun(line)
        if over > self._doc.project.settings.qa.max_overrun_s:
            return STATUS_COLOUR[LineStatus.FAILED]
        if over > 0:
            return WARNING_COLOUR
        if self._doc.project.chosen_take(line) is not None:
            # A take that fits is judged by QA; its pace warnings stay in the tooltip, so the cell
            # never says ⚠ beside a QA pass.
            return None
        timing = self.timing_of(line)
        if timing is not None and timing.warned:  # before rendering: what the pace predicts
            return WARNING_COLOUR
        return ESTIMATE_COLOUR

    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        try:
            command = Column(index.column()).spec.write(self.line_at(index.row()), value)
        except ValueError as exc:
            self._doc.error.emit(f"{ErrorCode.INVALID_VALUE}: line {index.row() + 1}: {exc}")
            return False
        return command is not None and self._doc.push(command)

    # --- drag and drop reordering ---------------------------------------------------------------

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        return [MIME_LINES]

    def mimeData(self, indexes: list[QModelIndex]) -> QMimeData:  # type: ignore[override]
        data = QMimeData()
        ids = self.line_ids([i.row() for i in indexes if i.isValid()])
        data.setData(MIME_LINES, QByteArray(json.dumps(ids).encode()))
        return data

    def canDropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: ModelIndex
    ) -> bool:
        return action == Qt.DropAction.MoveAction and data.hasFormat(MIME_LINES)

    def dropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: ModelIndex
    ) -> bool:
        if not self.canDropMimeData(data, action, row, column, parent):
            return False
        try:
            ids = [str(i) for i in json.loads(bytes(data.data(MIME_LINES).data()).decode())]
        except (ValueError, UnicodeDecodeError):
            return False
        ids = [i for i in ids if i in self._rows]
        if not ids:
            return False
        if row < 0:
            row = parent.row() if parent.isValid() else len(self._ids)
        self.move_lines(ids, row)
        return False  # the move is done; the view must not remove the dragged rows itself

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """A header click: the reorder its column makes, as one undoable step (only Start makes
        one: time order, see :meth:`LineColumn.sort`); only the ascending order makes sense for a
        timeline."""
        if 0 <= column < len(Column) and order == Qt.SortOrder.AscendingOrder:
            command = Column(column).spec.sort(self._doc.project.lines)
            if command is not None:
                self._doc.push(command)

    def move_lines(self, line_ids: list[str], before_row: int) -> bool:
        """Move lines so they sit just before ``before_row`` (a row of the current order)."""
        moving = set(line_ids)
        to_index = sum(1 for line_id in self._ids[:before_row] if line_id not in moving)
        ordered = [i for i in self._ids if i in moving]
        if [self._ids.index(i) for i in ordered] == list(range(to_index, to_index + len(ordered))):
            return False  # dropped where they already are
        return self._doc.push(MoveLines(ordered, to_index))


def _runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted row numbers as (first, last) runs of consecutive rows."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and row == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


class LineFilterProxy(QSortFilterProxyModel):
    """Shows only lines of one character and/or one status, and/or containing some text."""

    NO_CHARACTER = "\0none"  # filter value for unassigned lines

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._character: str | None = None
        self._status: str | None = None
        self._failed_qa = False
        self._text = ""

    def set_character(self, character_id: str | None) -> None:
        """``None`` shows all characters; :data:`NO_CHARACTER` shows unassigned lines."""
        self.beginFilterChange()
        self._character = character_id
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_status(self, status: LineStatus | None) -> None:
        self.beginFilterChange()
        self._status = status.value if status is not None else None
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_failed_qa(self, only_failed: bool) -> None:
        """Show only lines whose chosen take failed QA."""
        self.beginFilterChange()
        self._failed_qa = only_failed
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_text(self, text: str) -> None:
        self.beginFilterChange()
        self._text = text.strip().casefold()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: ModelIndex) -> bool:
        model = self.sourceModel()
        index = model.index(source_row, Column.TEXT, source_parent)
        if self._character is not None:
            char = model.data(index, CHARACTER_ID_ROLE)
            wanted = "" if self._character == self.NO_CHARACTER else self._character
            if char != wanted:
                return False
        if self._status is not None and model.data(index, STATUS_ROLE) != self._status:
            return False
        if self._failed_qa and model.data(index, QA_ROLE) != QaState.FAILED.value:
            return False
        if self._text and self._text not in str(model.data(index, Qt.ItemDataRole.DisplayRole)).casefold():
            return False
        return True


def qa_error_tooltip(error: str) -> str:
    """Why a take's QA check could not run, and how to run it again."""
    return (f"The QA check could not run: {error}\n"
            "The take itself is kept. Check QA again (Render menu or right-click), or render the line again.")


def qa_tooltip(checks: TakeChecks, findings: tuple[Finding, ...]) -> str:
    """The findings first (what to fix), then what was measured (why)."""
    lines = [str(finding) for finding in findings] or ["Passed every check."]
    lines.append("")
    if checks.wer is not None:
        what = "Character" if checks.metric == "cer" else "Word"
        lines.append(f"{what} error rate {checks.wer:.2f} ({checks.language}); {checks.recogniser} heard "
                     f"“{checks.transcript}”")
    if checks.expected_speech_s:
        lines.append(f"Speech: {checks.speech_s:.2f} s where the text needs about {checks.expected_speech_s:.2f} s")
    lines.append(f"Clipping: {checks.clipping:.2%} of samples at full scale")
    lines.append(f"Silence: {checks.leading_silence_s:.2f} s before, longest pause {checks.inner_silence_s:.2f} s, "
                 f"{checks.trailing_silence_s:.2f} s after")
    if checks.resemblance is not None:
        lines.append(f"Resemblance to the character's clip: {checks.resemblance:.2f} (GE2E cosine, 1 = same voice)")
    lines.append(f"Checked {checks.checked.replace('T', ' ')[:16]} UTC" +
                 (f" with {checks.recogniser}" if checks.recogniser else ""))
    return "\n".join(lines)

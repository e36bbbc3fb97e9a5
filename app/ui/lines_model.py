"""The script lines as a Qt table model, and the proxy that filters them.

The model keeps a row cache (row -> line id, plus each line's shown status) and changes it only
when the document says something changed, emitting the matching Qt signals: precise
``dataChanged`` for edits and render results, row removals/insertions and a layout change for
structural edits (Anki's browser table follows the same idea). Status involves hashing the
character's clip, so it is computed once per change instead of on every paint.

Edits made in the table become undoable commands pushed to the :class:`Document`; the model
itself never writes to the project.
"""

from __future__ import annotations

import enum
import json
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QByteArray,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor

from app.project import Change, ChooseTake, EditLine, Fit, Line, LineStatus, MoveLines, SortLinesByTime
from app.project.qa import chosen_verdicts, overrun_of, placements
from app.project.timecode import format_clock, parse_time
from app.project.timing import LineTiming, line_timings
from app.project.undo import time_order
from engine.qa.checks import NOT_CHECKED, Finding, TakeChecks, Verdict
from app.ui.document import Document

ModelIndex = QModelIndex | QPersistentModelIndex

MIME_LINES = "application/x-dubstudio-line-ids"


class Column(enum.IntEnum):
    """The table's columns, each declared once: (position, title, width in pixels or 0 to
    stretch, editable, right-aligned, sample). The view and the model both read these. A
    column with a ``sample`` (its widest usual value) is sized to it or its title, whichever is
    wider, so the stretching Text column gets the room that is left; ``width`` is then the least.

    A line's order number is the vertical header, not a column: it is derived from the row,
    and a column whose every value shifts when a row is inserted would make each insertion
    look like an edit of all the rows below."""

    title: str
    width: int
    editable: bool
    right_aligned: bool
    sample: str

    # ``Column(n)`` looks a column up by position; the defaults only tell type checkers so.
    def __new__(cls, position: int, title: str = "", width: int = 0, editable: bool = False,
                right_aligned: bool = False, sample: str = "") -> "Column":
        member = int.__new__(cls, position)
        member._value_ = position
        member.title, member.width, member.editable, member.right_aligned = title, width, editable, right_aligned
        member.sample = sample
        return member

    CHARACTER = (0, "Character", 90, True)  # sized to the project's names (script_panel)
    TEXT = (1, "Text", 0, True)
    START = (2, "Start", 60, True, True, "00:00.000")
    END = (3, "End", 60, True, True, "00:00.000")
    STATUS = (4, "Status", 60, False, False, "Not rendered")
    DURATION = (5, "Duration", 60, False, True, "⚠ ≈10.0 s")
    TAKE = (6, "Take", 44, True, False, "2 of 3")
    QA = (7, "QA", 60, False, False, "✗ Unlike voice")
    FIT = (8, "Fit", 60, True, False, "stretch 1.08×")  # "rate 1.25× + stretch 1.08×" wraps to two
    SOURCE = (9, "Source", 240, True)  # the original a translated line came from (shown when there is one)

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
    "QA_SILENT": "Silent",
    "QA_UNINTELLIGIBLE": "Misheard",
    "QA_OVERRUN": "Too long",
    "QA_UNLIKE_VOICE": "Unlike voice",
    "QA_CLIPPING": "Clipped",
    "QA_LEADING_SILENCE": "Silence",
    "QA_INNER_SILENCE": "Long pause",
    "QA_TRAILING_SILENCE": "Silence",
}


def worst_first(findings: tuple[Finding, ...]) -> list[Finding]:
    """The failing findings (not the not-checked note), the worst first."""
    order = list(FINDING_LABELS)
    failing = [f for f in findings if f.code != NOT_CHECKED]
    return sorted(failing, key=lambda f: order.index(f.code) if f.code in order else len(order))

# A line's own fit choice (Line.fit) as the Fit column edits it: None follows the project.
FIT_CHOICES: dict[str, bool | None] = {"default": None, "on": True, "off": False}
FITTED_COLOUR = "#2f6f3e"


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
        self._snapshot()
        document.changed.connect(self._on_change)
        document.render_changed.connect(self._on_render)

    # --- cache --------------------------------------------------------------------------------

    def _snapshot(self) -> None:
        self._ids = [line.id for line in self._doc.project.lines]
        self._lines = {line.id: line for line in self._doc.project.lines}
        self._reindex()
        self._status.clear()

    def _reindex(self) -> None:
        self._rows = {line_id: row for row, line_id in enumerate(self._ids)}

    def _status_of(self, line: Line) -> LineStatus:
        status = self._status.get(line.id)
        if status is None:
            status = self._status[line.id] = self._doc.project.status(line)
        return status

    def _verdict_of(self, line: Line) -> Verdict | None:
        # Verdicts depend on the timeline (a slot ends where the next line starts), so any
        # change recomputes them all: one timeline pass, not one per row.
        if self._verdicts is None:
            self._verdicts = chosen_verdicts(self._doc.project)
        return self._verdicts.get(line.id)

    def _placement_of(self, line: Line) -> tuple[float, float | None] | None:
        if self._placements is None:
            self._placements = placements(self._doc.project)
        return self._placements.get(line.id)

    def timing_of(self, line: Line) -> LineTiming | None:
        """The line's pace against its slot (see :mod:`app.project.timing`)."""
        if self._timings is None:
            self._timings = line_timings(self._doc.project)
        return self._timings.get(line.id)

    def _qa_state(self, line: Line) -> QaState:
        take = self._doc.project.chosen_take(line)
        if take is None:
            return QaState.NO_TAKE
        verdict = self._verdict_of(line)
        if verdict is None:
            return QaState.ERROR if take.id in self._doc.qa_errors else QaState.PENDING
        if verdict.passed is not False and self._overrun(line) > 0:
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
            self._emit_all()

    def _on_render(self, line_ids: frozenset[str]) -> None:
        self._refresh(line_ids)

    def _refresh(self, line_ids: frozenset[str]) -> None:
        # A new take or timecode can move any later line's slot, and a voice's measured pace.
        self._placements = None
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
            if section == Column.START:
                return "Click to put the script in time order (one undoable step)"
            if section == Column.FIT:
                return "Fit to slot: speak faster (then time-stretch) when a take is longer than its slot"
            return None
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
        column = Column(index.column())
        if column.editable and not (column is Column.TAKE and len(self.line_at(index.row()).takes) < 2):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._ids)):
            return None
        line = self.line_at(index.row())
        column = Column(index.column())
        if role == LINE_ID_ROLE:
            return line.id
        if role == CHARACTER_ID_ROLE:
            return line.character_id or ""
        if role == STATUS_ROLE:
            return self._status_of(line).value
        if role == QA_ROLE:
            return self._qa_state(line).value
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(line, column)
        if role == Qt.ItemDataRole.EditRole:
            return self._edit_value(line, column)
        if role == Qt.ItemDataRole.DecorationRole and column is Column.CHARACTER:
            char = self._character(line)
            return QColor(char.colour) if char is not None else None
        if role == Qt.ItemDataRole.ForegroundRole:
            if column is Column.STATUS:
                return QBrush(QColor(STATUS_COLOUR[self._status_of(line)]))
            if column is Column.DURATION and (colour := self._duration_colour(line)):
                return QBrush(QColor(colour))
            if column is Column.QA and (state := self._qa_state(line)) is not QaState.NO_TAKE:
                return QBrush(QColor(QA_COLOUR[state]))
            if column is Column.FIT and self._fitted(line) is not None:
                return QBrush(QColor(FITTED_COLOUR))
            if column is Column.TEXT and line.draft:
                return QBrush(QColor(DRAFT_COLOUR))
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(line, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column.right_aligned:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _character(self, line: Line) -> Any:
        if line.character_id is None:
            return None
        return next((c for c in self._doc.project.characters if c.id == line.character_id), None)

    def _overrun(self, line: Line) -> float:
        """How far the chosen take runs past its slot: the one figure the Duration and QA cells share."""
        take = self._doc.project.chosen_take(line)
        if take is None:
            return 0.0
        return overrun_of(take, self._placement_of(line)) or 0.0

    def _duration_colour(self, line: Line) -> str | None:
        over = self._overrun(line)
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

    def _display(self, line: Line, column: Column) -> Any:
        if column is Column.CHARACTER:
            char = self._character(line)
            return char.name if char is not None else UNASSIGNED
        if column is Column.TEXT:
            return line.text
        if column is Column.SOURCE:
            return line.source_text
        if column is Column.START:
            return format_clock(line.start) if line.start is not None else ""
        if column is Column.END:
            return format_clock(line.end) if line.end is not None else ""
        if column is Column.STATUS:
            return STATUS_TEXT[self._status_of(line)]
        if column is Column.DURATION:
            duration = self._doc.project.duration(line)
            timing = self.timing_of(line)
            mark = "⚠ " if self._duration_colour(line) in (WARNING_COLOUR, STATUS_COLOUR[LineStatus.FAILED]) else ""
            if duration is not None:
                return f"{mark}{duration:.2f} s"
            # Before rendering: the length this voice's pace predicts, so a long line shows early.
            return f"{mark}≈{timing.expected_s:.1f} s" if timing is not None and line.text.strip() else ""
        if column is Column.TAKE:
            if not line.takes:
                return ""
            ids = [t.id for t in line.takes]
            number = ids.index(line.chosen_take) + 1 if line.chosen_take in ids else 0
            return f"{number} of {len(ids)}" if number else f"– of {len(ids)}"
        if column is Column.QA:
            state = self._qa_state(line)
            verdict = self._verdict_of(line) if state is QaState.FAILED else None
            failing = worst_first(verdict.findings) if verdict else []
            if not failing:
                return QA_TEXT[state]
            label = f"✗ {FINDING_LABELS.get(failing[0].code, 'Failed')}"
            return f"{label} +{len(failing) - 1}" if len(failing) > 1 else label
        if column is Column.FIT:
            fitted = self._fitted(line)
            if fitted is not None:  # "rate 1.12×": the column says it is the fit (full text in the tooltip)
                return fitted.describe().removeprefix("fitted: ")
            return "on render" if self._doc.project.wants_fit(line) else ""
        return None

    def _fitted(self, line: Line) -> Fit | None:
        take = self._doc.project.chosen_take(line)
        return take.fit if take is not None else None

    def _edit_value(self, line: Line, column: Column) -> Any:
        if column is Column.CHARACTER:
            return line.character_id or ""
        if column is Column.TAKE:
            return line.chosen_take or ""
        if column is Column.FIT:
            return next(key for key, value in FIT_CHOICES.items() if value is line.fit)
        return self._display(line, column)

    def _tooltip(self, line: Line, column: Column) -> str | None:
        if column is Column.STATUS:
            status = self._status_of(line)
            if status is LineStatus.FAILED and line.error:
                return line.error
            if status is LineStatus.STALE:
                return "Text, character, clip or voice settings changed since this take was rendered."
        if column is Column.DURATION:
            return self._duration_tooltip(line)
        if column is Column.TEXT:
            if line.draft:
                return f"{line.text}\n\nA machine translation to check: editing the text marks it checked."
            return line.text or None
        if column is Column.SOURCE:
            return line.source_text or None
        if column is Column.CHARACTER:  # the full name, when the column is too narrow for it
            char = self._character(line)
            return char.name if char is not None else "No character: double-click to choose one"
        if column is Column.QA:
            take = self._doc.project.chosen_take(line)
            if take is None:
                return None
            if take.qa is None and take.id in self._doc.qa_errors:
                return qa_error_tooltip(self._doc.qa_errors[take.id])
            if take.qa is None:
                return "This take has not been checked yet; QA runs in the background after each render."
            verdict = self._verdict_of(line)
            findings = tuple(worst_first(verdict.findings)) + tuple(
                f for f in verdict.findings if f.code == NOT_CHECKED) if verdict else ()
            over = self._overrun(line)
            if over > 0 and not any(f.code == "QA_OVERRUN" for f in findings):
                limit = self._doc.project.settings.qa.max_overrun_s
                findings = (Finding("QA_OVERRUN", f"the take runs {over:.2f} s past its slot, within the "
                                                  f"{limit:.2f} s QA allows (a warning, not a failure)"),) + findings
            return qa_tooltip(take.qa, findings)
        if column is Column.FIT:
            return self._fit_tooltip(line)
        return None

    def _duration_tooltip(self, line: Line) -> str | None:
        """The take's overrun, then the pace warnings, then the figures (CPS, WPM, expected length)."""
        timing = self.timing_of(line)
        text: list[str] = []
        over = self._overrun(line)
        placement = self._placement_of(line)
        if over > 0 and placement is not None and placement[1] is not None:
            text.append(f"The take is {over:.2f} s longer than its slot "
                        f"({format_clock(placement[0])}–{format_clock(placement[1])}).")
        if timing is not None:
            has_take = self._doc.project.chosen_take(line) is not None
            text += [w for w in timing.warnings() if not (has_take and w.startswith("Likely too long"))]
            if line.text.strip():
                text.append(timing.describe())
        return "\n".join(text) or None

    def _fit_tooltip(self, line: Line) -> str:
        project = self._doc.project
        default = "on" if project.settings.fit_default else "off"
        choice = {None: f"the project's default ({default})", True: "always", False: "never"}[line.fit]
        text = [f"Fit to slot: {choice}. Double-click to change."]
        fitted = self._fitted(line)
        if fitted is not None:
            text.insert(0, f"{fitted.describe()}: {fitted.natural_s:.2f} s of speech into a {fitted.slot_s:.2f} s slot")
        return "\n".join(text)

    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        line = self.line_at(index.row())
        column = Column(index.column())
        if column is Column.TEXT:
            if value == line.text:
                return False
            if line.draft:  # the translation was read and corrected: no longer a draft
                return self._doc.push(EditLine(line.id, text=str(value), draft=False))
            return self._doc.push(EditLine(line.id, text=str(value)))
        if column is Column.SOURCE:
            return value != line.source_text and self._doc.push(EditLine(line.id, source_text=str(value)))
        if column is Column.CHARACTER:
            new = str(value) if value else None
            if new == line.character_id:
                return False
            return self._doc.push(EditLine(line.id, character_id=new))
        if column in (Column.START, Column.END):
            text = str(value or "").strip()
            try:
                seconds = parse_time(text) if text else None
            except ValueError as exc:
                self._doc.error.emit(f"E_INVALID_VALUE: line {index.row() + 1}: {exc}")
                return False
            if column is Column.START:
                return seconds != line.start and self._doc.push(EditLine(line.id, start=seconds))
            return seconds != line.end and self._doc.push(EditLine(line.id, end=seconds))
        if column is Column.TAKE:
            if not value or value == line.chosen_take:
                return False
            return self._doc.push(ChooseTake(line.id, str(value)))
        if column is Column.FIT:
            if value not in FIT_CHOICES or FIT_CHOICES[value] is line.fit:
                return False
            return self._doc.push(EditLine(line.id, fit=FIT_CHOICES[value]))
        return False

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
        """Sorting by Start reorders the script by time (one undoable step); other columns don't sort.

        Script order is meaningful (a line's slot ends where the next one starts), so this is
        a real, undoable reorder (:class:`SortLinesByTime`), not a view-only sort; only the
        ascending order makes sense for a timeline.
        """
        if column == Column.START and order == Qt.SortOrder.AscendingOrder:
            if [line.id for line in time_order(self._doc.project.lines)] != self._ids:
                self._doc.push(SortLinesByTime())

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

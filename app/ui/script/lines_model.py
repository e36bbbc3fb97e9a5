"""The script lines as a Qt table model, and the proxy that filters them.

The model keeps a row cache (row -> line id, plus each line's shown status) and changes it only
when the document says something changed, emitting the matching Qt signals: precise
``dataChanged`` for edits and render results, row removals/insertions and a layout change for
structural edits (Anki's browser table follows the same idea). Status involves hashing the
character's clip, so it is computed once per change instead of on every paint.

Each column is a :class:`~app.ui.script.columns.LineColumn` (in :mod:`app.ui.script.columns`)
that carries its own behaviour: what it shows, what an editor starts from, the edit it makes, its
tooltip, colour and whether it sorts (Picard's item-view columns do the same). The model only
dispatches a role to the column.

Edits made in the table become undoable commands pushed to the :class:`Document`; the model
itself never writes to the project.
"""

from __future__ import annotations

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

from app.project import (
    Change,
    Line,
    LineStatus,
    MoveLines,
    Project,
)
from app.project.qa import chosen_verdicts, overrun_of, placements
from app.project.readiness import LineInUnspokenLanguage, language_gaps
from app.project.timing import LineTiming, line_timings
from app.ui.language import fill, said_error
from app.ui.script.columns import (
    ESTIMATE_COLOUR,
    STATUS_COLOUR,
    WARNING_COLOUR,
    Column,
    QaState,
)
from app.ui.window.document import Document
from engine.core.codes import ErrorCode
from engine.core.protocol import Capabilities
from engine.hearing.qa.checks import Verdict
from engine.synthesis.backends import declared_languages

ModelIndex = QModelIndex | QPersistentModelIndex

MIME_LINES = "application/x-dubstudio-line-ids"


LINE_ID_ROLE = Qt.ItemDataRole.UserRole + 1
CHARACTER_ID_ROLE = Qt.ItemDataRole.UserRole + 2
STATUS_ROLE = Qt.ItemDataRole.UserRole + 3  # the LineStatus value string
QA_ROLE = Qt.ItemDataRole.UserRole + 4  # QaState value of the chosen take


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
            tip = Column(section).spec.header_tip if 0 <= section < len(Column) else None
            return self.tr(tip) if tip else None
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(Column):
            return self.tr(Column(section).title)  # marked in columns.py for this context
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
            # said here: the signal carries a plain string, and a range's refusal is a phrase
            detail = fill(self.tr("line {row}: {detail}"), row=index.row() + 1, detail=said_error(exc))
            self._doc.error.emit(f"{ErrorCode.INVALID_VALUE.value}: {detail}")  # the code as explain() reads it
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
        return not self._text or self._text in str(model.data(index, Qt.ItemDataRole.DisplayRole)).casefold()

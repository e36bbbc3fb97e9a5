"""Edit › Shorten to fit, before it applies: each line's wording now and the shorter one, its
budget and whether each fits, with a box to leave a line as it is.

The translator's answer changes nothing until the user applies it; what is applied is one
undoable edit (:class:`~app.project.translation.ApplyTranslation`) of the lines still ticked.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.project import Project
from app.project.translation import ApplyTranslation
from app.ui.language import fill
from engine.translation.lines import Budget

FITS, RUNS_OVER = QColor("#e8f5e9"), QColor("#fdecea")  # the QA column's pass and fail colours
SPARE_PX = 16  # beside a figure column's text, so no font cuts its last character


class ShortenPreview(QDialog):
    """The shorter wordings of ``edit`` beside the lines' current ones; :meth:`chosen` is the edit
    of the ticked lines (None when none is)."""

    def __init__(self, project: Project, edit: ApplyTranslation, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Shorten to fit"))
        self.setObjectName("shortenPreview")
        self._edit = edit
        fits = sum(1 for result in edit.results if result.fits)
        budgeted = sum(1 for result in edit.results if result.budget is not None)
        intro = QLabel(fill(self.tr(
            "The translator's shorter wordings: {fits} of {budgeted} lines with a slot would fit it. Untick a line to "
            "keep its wording; Apply changes the ticked ones (Edit › Undo brings the old wording back)."),
            fits=fits, budgeted=budgeted))
        intro.setWordWrap(True)
        self.table = QTableWidget(len(edit.results), 4)
        self.table.setObjectName("shortenPreviewTable")
        self.table.setHorizontalHeaderLabels([self.tr("Now"), self.tr("Shorter"), self.tr("Budget"), self.tr("Fit")])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        for row, result in enumerate(edit.results):
            line = project.line(result.id)
            now = QTableWidgetItem(line.text)
            now.setFlags(now.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            now.setCheckState(Qt.CheckState.Checked)
            now.setToolTip(self.tr("Untick to keep this wording"))
            cells = [now, QTableWidgetItem(result.text), QTableWidgetItem(self._budget(result.budget)),
                     QTableWidgetItem(self._fit(result.budget, line.text, result.text))]
            if result.budget is not None:
                colour = QBrush(FITS if result.fits else RUNS_OVER)
                for cell in cells[1:]:
                    cell.setBackground(colour)
            for column, cell in enumerate(cells):
                self.table.setItem(row, column, cell)
            self.table.setVerticalHeaderItem(row, QTableWidgetItem(str(project.order_of(result.id))))
        header = self.table.horizontalHeader()
        for column in (2, 3):  # the figures whole, with room to spare; the wordings share the rest
            self.table.resizeColumnToContents(column)
            header.resizeSection(column, header.sectionSize(column) + SPARE_PX)
        for column in (0, 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        # The wordings wrap: their rows grow to them whenever the columns get their widths.
        header.sectionResized.connect(lambda *_: self._fit_rows())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        apply = buttons.addButton(self.tr("Apply"), QDialogButtonBox.ButtonRole.AcceptRole)
        apply.setObjectName("shortenApply")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(820, 420)

    def _fit_rows(self) -> None:
        self.table.resizeRowsToContents()
        for row in range(self.table.rowCount()):  # the wrapped text's last line whole, descenders too
            self.table.setRowHeight(row, self.table.rowHeight(row) + SPARE_PX // 2)

    def _budget(self, budget: Budget | None) -> str:
        if budget is None:
            return self.tr("no slot")
        unit = self.tr("letters") if budget.unit == "letters" else self.tr("characters")
        return fill(self.tr("{limit} {unit}"), limit=budget.limit, unit=unit)

    def _fit(self, budget: Budget | None, old: str, new: str) -> str:
        if budget is None:
            return fill(self.tr("{old} → {new} characters"), old=len(old), new=len(new))
        verdict = self.tr("fits") if budget.fits(new) else self.tr("runs over")
        return fill(self.tr("{old} → {new}: {verdict}"), old=budget.length(old), new=budget.length(new),
                    verdict=verdict)

    def chosen(self) -> ApplyTranslation | None:
        """The edit of the ticked lines, or None when every line is unticked."""
        ticked = [result for row, result in enumerate(self._edit.results)
                  if (item := self.table.item(row, 0)) is not None and item.checkState() == Qt.CheckState.Checked]
        if not ticked:
            return None
        return ApplyTranslation(ticked, self._edit.target_language, shorten=True)

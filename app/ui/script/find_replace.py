"""Edit › Find and replace: every occurrence of a text in the script's lines replaced as one
undoable edit (:func:`app.project.replace_in_lines`), in every line or the selected ones."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

# (find, replacement, match case, only the selected lines) -> how many lines changed
Replacer = Callable[[str, str, bool, bool], int]


class FindReplaceDialog(QDialog):
    """Find, Replace with, Match case, Only the selected lines; Replace all says how many lines
    changed and stays open for the next replacement."""

    def __init__(self, replace: Replacer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("findReplaceDialog")
        self.setWindowTitle(self.tr("Find and replace"))
        self._replace = replace
        self.find_text = QLineEdit()
        self.find_text.setObjectName("findText")
        self.replacement = QLineEdit()
        self.replacement.setObjectName("replaceText")
        self.match_case = QCheckBox(self.tr("Match case"))
        self.selected_only = QCheckBox(self.tr("Only the selected lines"))
        self.result_label = QLabel("")
        self.result_label.setObjectName("replaceResult")
        self.result_label.setWordWrap(True)
        self.replace_all = QPushButton(self.tr("Replace all"))
        self.replace_all.setDefault(True)
        self.replace_all.clicked.connect(self._replace_all)
        self.find_text.textChanged.connect(self._update)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.replace_all, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(self.tr("Find"), self.find_text)
        form.addRow(self.tr("Replace with"), self.replacement)
        form.addRow("", self.match_case)
        form.addRow("", self.selected_only)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.result_label)
        layout.addWidget(buttons)
        self._update()

    def _update(self) -> None:
        self.replace_all.setEnabled(bool(self.find_text.text()))

    def _replace_all(self) -> None:
        find = self.find_text.text()
        count = self._replace(find, self.replacement.text(), self.match_case.isChecked(),
                              self.selected_only.isChecked())
        if count:
            self.result_label.setText(self.tr("Replaced in %n line(s); Edit › Undo takes it back.", "", count))
        else:
            self.result_label.setText(self.tr("No line has “%1”.").replace("%1", find))

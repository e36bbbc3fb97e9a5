"""A backend's options as a form, built from its descriptor (engine.synthesis.backends).

Each option gets the widget its kind asks for: a check box, a spin box, a choice list, or a
text field (with Browse… for folders and files); an option the backend decides for itself
when left empty (threads, a noise scale) is a text field whose placeholder says so. The
options marked advanced sit under a toggle. Values are checked by the descriptor itself, so
the form says exactly what the engine would refuse, naming the option.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.language import OPTION_WORDS, declared, fill
from app.ui.spin_boxes import whole_spin
from engine.synthesis.backends import (
    BackendDescriptor,
    BackendOption,
    OptionError,
    OptionKind,
    OptionValue,
)


class _Field:
    """One option's widget with a getter and a setter of its value."""

    def __init__(self, option: BackendOption, widget: QWidget, get: Callable[[], OptionValue],
                 put: Callable[[Any], None], editor: QWidget) -> None:
        self.option = option
        self.widget = widget  # what goes into the form row
        self.get = get
        self.put = put
        self.editor = editor  # what gets enabled or disabled


class BackendOptionsForm(QWidget):
    """The options of one backend; ``values()`` returns what is set, checked and typed."""

    changed = Signal()

    def __init__(self, spec: BackendDescriptor, exclude: tuple[str, ...] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self._fields: dict[str, _Field] = {}
        basic = QFormLayout()
        advanced = QFormLayout()
        for option in spec.options:
            if option.name in exclude:
                continue
            field = self._make_field(option)
            field.editor.setObjectName(f"option_{option.name}")
            field.editor.setToolTip(declared(OPTION_WORDS, option.help))
            self._fields[option.name] = field
            label = QLabel(declared(OPTION_WORDS, option.label))
            label.setToolTip(declared(OPTION_WORDS, option.help))
            (advanced if option.advanced else basic).addRow(label, field.widget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(basic)
        self._advanced_box = QWidget()
        self._advanced_box.setLayout(advanced)
        self._advanced_box.setVisible(False)
        self.advanced_toggle = QToolButton()
        self.advanced_toggle.setObjectName("advancedOptions")
        self.advanced_toggle.setText(self.tr("Advanced options"))
        self.advanced_toggle.setCheckable(True)
        self.advanced_toggle.setArrowType(Qt.ArrowType.RightArrow)
        # With an arrow a tool button shows only the arrow unless told to show its text too.
        self.advanced_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.advanced_toggle.toggled.connect(self._show_advanced)
        if advanced.rowCount():
            layout.addWidget(self.advanced_toggle)
            layout.addWidget(self._advanced_box)
        self.reset()

    # --- building ---------------------------------------------------------------------------

    def _make_field(self, option: BackendOption) -> _Field:
        kind = option.kind
        if kind is OptionKind.BOOL:
            box = QCheckBox()
            box.toggled.connect(self.changed)
            return _Field(option, box, box.isChecked, lambda v: box.setChecked(bool(v)), box)
        if option.range is not None and option.range.whole and option.default is not None:
            spin = whole_spin(option.range)
            spin.valueChanged.connect(self.changed)
            return _Field(option, spin, spin.value, lambda v: spin.setValue(int(v)), spin)
        if kind is OptionKind.CHOICE:
            combo = QComboBox()
            combo.addItems(list(option.choices))
            combo.currentTextChanged.connect(self.changed)
            return _Field(option, combo, combo.currentText, lambda v: combo.setCurrentText(str(v)), combo)
        # Text, paths, and numbers the backend decides when left empty.
        edit = QLineEdit()
        edit.setPlaceholderText(self.tr("automatic") if option.default is None else str(option.default))
        edit.textChanged.connect(self.changed)
        widget: QWidget = edit
        if kind in (OptionKind.FOLDER, OptionKind.FILE):
            browse = QPushButton(self.tr("Browse…"))
            browse.clicked.connect(lambda: self._browse(option, edit))
            widget = row(edit, browse)
        return _Field(option, widget, edit.text, lambda v: edit.setText("" if v is None else str(v)), edit)

    def _browse(self, option: BackendOption, edit: QLineEdit) -> None:
        if option.kind is OptionKind.FOLDER:
            path = QFileDialog.getExistingDirectory(self, declared(OPTION_WORDS, option.label), edit.text())
        else:
            path, _ = QFileDialog.getOpenFileName(self, declared(OPTION_WORDS, option.label), edit.text())
        if path:
            edit.setText(path)

    def _show_advanced(self, shown: bool) -> None:
        self._advanced_box.setVisible(shown)
        arrow = self.advanced_toggle.arrowType()
        self.advanced_toggle.setArrowType(arrow.DownArrow if shown else arrow.RightArrow)

    # --- values ------------------------------------------------------------------------------

    def editor(self, name: str) -> QWidget:
        return self._fields[name].editor

    def reset(self) -> None:
        """Every field at its default (empty where the backend decides)."""
        for field in self._fields.values():
            field.put(field.option.default)

    def set_values(self, values: dict[str, Any]) -> None:
        """Show stored values; unknown names are ignored (a backend may have dropped one)."""
        self.reset()
        for name, value in values.items():
            if name in self._fields and value is not None:
                self._fields[name].put(value)

    def values(self) -> dict[str, Any]:
        """The set options, typed; an empty field is left out. Raises OptionError naming the
        option for a value the engine would refuse."""
        raw: dict[str, Any] = {}
        for name, field in self._fields.items():
            value = field.get()
            if isinstance(value, str) and not value.strip():
                continue
            raw[name] = field.option.coerce(value, self.spec.name)
        return raw

    def problem(self) -> OptionError | None:
        """What is wrong with the form right now, or None."""
        try:
            self.values()
        except OptionError as error:
            return error
        return None

    def set_device_facts(self, facts: dict[str, Any]) -> None:
        """Enable each option only where the device has what it needs (a CUDA GPU, fp16, ...)."""
        for field in self._fields.values():
            needs = field.option.needs_device
            if not needs:
                continue
            usable = bool(facts.get(needs))
            field.editor.setEnabled(usable)
            reason = {"cuda_available": self.tr("needs a CUDA GPU; torch sees none"),
                      "fp16_supported": self.tr("needs a GPU with native half precision (compute capability 5.3+)"),
                      }.get(needs) or fill(self.tr("needs {needs}, which is not installed in the engine's environment"),
                                           needs=needs)
            help_text = declared(OPTION_WORDS, field.option.help)
            field.editor.setToolTip(help_text if usable else fill(self.tr("{help} — {reason}"), help=help_text,
                                                                  reason=reason))
            if not usable and isinstance(field.editor, QCheckBox):
                field.editor.setChecked(False)


def row(*widgets: QWidget) -> QWidget:
    """Widgets side by side in one form row; text fields and labels take the spare width."""
    box = QWidget()
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        stretch = 1 if isinstance(widget, (QLineEdit, QLabel)) else 0
        layout.addWidget(widget, stretch, Qt.AlignmentFlag.AlignVCenter)
    return box

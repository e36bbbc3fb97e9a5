"""Finds user-visible strings in the studio's source that do not go through Qt's translation.

The rule, read from the source (static, so it also covers code no test runs): a string **sink**
is an argument that Qt shows to the user, named in :data:`METHOD_SINKS` (``label.setText(x)``,
``menu.addMenu(x)``, ``box.addButton(x, role)``…), :data:`CLASS_SINKS` (``QLabel(x)``,
``QAction(x)``, ``QMessageBox(icon, title, text)``, and the studio's own declaration tables such
as ``ActionSpec(name, label, …)``) or :data:`STATIC_SINKS` (``QMessageBox.warning(parent,
title, text)``, ``QFileDialog.getSaveFileName(parent, caption, dir, filter)``). A sink's
argument is **untranslated** when it is words written in the source that reach Qt as they are:

- a string constant holding a letter (``"…"`` or ``"0"`` are not words; ``" s"`` is: a unit);
- an f-string, a ``+`` or ``%`` of one, or ``"…".format(…)`` (a translator must see the whole
  sentence with its placeholders: ``self.tr("{n} lines").format(n=n)``, or ``%n`` for plurals);
- a name bound at the module's top level to such a string (``WAITING_TIP = "…"``), or an entry
  of a module-level dict of them (``PRESET_LABELS[key]``, ``PRESET_LABELS.get(key)``);
- a list, tuple or conditional expression holding one.

The sentences ``app/project`` and ``app/commands`` make for the studio (readiness problems,
timing warnings, undo texts, report lines) are :class:`app.project.phrases.Phrase` objects, whose
template must be one of that module's declared ones: ``Phrase("…")`` or ``counted(n, "…", "…")``
with words written in place is untranslated, and so is an undo text given as words (``self.text =
"Edit"``, ``Macro(edits, f"Replace {n}")``, ``AddLines(lines, 0, [], "Import")``): the Edit menu
shows it.

Wrapped means passed through ``tr``, ``translate`` or ``QT_TRANSLATE_NOOP``/``QT_TR_NOOP``
(the marker for declarations read elsewhere, translated where shown). ``tr()`` of an f-string is
untranslated too: lupdate cannot collect it; ``tr(…).format(…)`` is refused wherever it is (its numbers
would be Python's, "1.5" under a German locale: ``fill(self.tr(…), …)`` writes them the locale's way); so is ``translate()`` with a variable count, whose
plural forms lupdate does not see (it reads them from ``self.tr(text, "", count)`` only). Words a
studio widget hands to its Qt base class are a sink too (``super().__init__("Take QA", parent)``).
What a studio function named ``…tooltip`` or ``…display`` returns is shown too (a table
cell's text, the takes' QA tooltip). Calls on a logger (``log.warning("…")``) are not sinks: logs stay English.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

Positions = tuple[tuple[int, ...], tuple[str, ...]]  # positional indexes, keyword names

TEXT: Positions = ((0,), ("text",))
# obj.method(...): the arguments that are shown.
METHOD_SINKS: dict[str, Positions] = {
    "setText": TEXT, "setToolTip": TEXT, "setStatusTip": TEXT, "setWhatsThis": TEXT,
    "setWindowTitle": TEXT, "setPlaceholderText": TEXT, "setTitle": TEXT, "setLabelText": TEXT,
    "setSpecialValueText": TEXT, "setSuffix": TEXT, "setPrefix": TEXT, "setFormat": TEXT,
    "setInformativeText": TEXT, "setDetailedText": TEXT, "setCancelButtonText": TEXT,
    "setWindowIconText": TEXT, "setAccessibleName": TEXT, "setAccessibleDescription": TEXT,
    "showMessage": TEXT, "addMenu": ((0, 1), ("title",)), "addAction": ((0, 1), ("text",)),
    "addTab": ((1, 2), ("label",)), "insertTab": ((2, 3), ("label",)), "setTabText": ((1,), ()),
    "setTabToolTip": ((1,), ()), "setItemText": ((1,), ()), "setItemToolTip": ((1,), ()),
    "addItem": TEXT, "addItems": TEXT, "insertItem": ((1,), ()), "insertItems": ((1,), ()),
    "setHorizontalHeaderLabels": TEXT, "setVerticalHeaderLabels": TEXT, "setHeaderLabels": TEXT,
    "setHeaderLabel": TEXT, "addRow": ((0,), ("labelText",)), "insertRow": ((1,), ()),
    "addButton": ((0,), ("text",)), "setButtonText": ((1,), ()), "addSection": TEXT,
    "setLabel": ((1,), ("text",)), "setHtml": TEXT, "setPlainText": TEXT,  # setLabel: pyqtgraph's (axis, text)
    "set_message": TEXT,  # the video preview's text in place of a picture (app/ui/timeline/video.py)
    # The studio's file dialogs (app/ui/folders.py: parent, kind, title, then a filter or a name).
    "open_file": ((2, 3), ("title", "file_filter")), "open_files": ((2, 3), ("title", "file_filter")),
    "save_file": ((2, 4), ("title", "file_filter")), "folder": ((2,), ("title",)),
    # The studio's own ways to tell the user something (app/ui/window/studio_messages.py).
    "set_audio": ((2,), ("hint",)),  # app/ui/characters/waveform.py: the words over an empty waveform
    "say": TEXT, "status": ((0,), ("message",)), "notify": ((0,), ("message",)), "warn": ((0,), ("message",)),
    "error": ((0, 1), ("title", "message")), "inform": ((0, 1), ("title", "text")),
}
# Class(...): Qt widgets that take their text when made, and the declaration tables of app/ui.
CLASS_SINKS: dict[str, Positions] = {
    "QAction": ((0, 1), ("text",)), "QLabel": TEXT, "QPushButton": ((0, 1), ("text",)), "QCheckBox": TEXT,
    "QRadioButton": TEXT, "QGroupBox": ((0,), ("title",)), "QMenu": ((0,), ("title",)),
    "QDockWidget": ((0,), ("title",)), "QCommandLinkButton": ((0, 1), ("text", "description")),
    "QListWidgetItem": TEXT, "QTableWidgetItem": TEXT, "QTreeWidgetItem": ((0,), ("strings",)),
    "QMessageBox": ((1, 2), ("title", "text")), "QProgressDialog": ((0, 1), ("labelText", "cancelButtonText")),
    "QToolButton": ((), ()), "QLineEdit": ((), ()),
    "ActionSpec": ((1, 5), ("label", "tip")), "MenuSpec": ((1,), ("label",)),
    "Option": ((2,), ("title",)),
    "whole_spin": ((1,), ("special",)), "whole_field": ((3,), ("special",)),  # app/ui/spin_boxes.py: the lowest value's text
    "ProgressSpec": ((1, 2, 3), ("title", "label", "cancelling")),  # app/ui/tasks.py's progress dialog
    # Undo texts (the Edit menu's "Undo …") and the phrases of app/project/phrases.py.
    "Macro": ((1,), ("text",)), "AddLines": ((3,), ("text",)),
    "Phrase": ((0,), ()), "LanguageName": ((0,), ()), "counted": ((1, 2), ()),
}
# Class.function(...): static dialogs.
STATIC_SINKS: dict[str, Positions] = {
    **{f"QMessageBox.{kind}": ((1, 2), ("title", "text")) for kind in ("warning", "information", "critical",
                                                                       "question", "about")},
    **{f"QFileDialog.{kind}": ((1, 3), ("caption", "filter")) for kind in ("getOpenFileName", "getOpenFileNames",
                                                                          "getSaveFileName")},
    "QFileDialog.getExistingDirectory": ((1,), ("caption",)),
    **{f"QInputDialog.{kind}": ((1, 2), ("title", "label")) for kind in ("getText", "getInt", "getDouble",
                                                                         "getItem", "getMultiLineText")},
}
# Functions whose result the studio shows (a table cell's text, a tooltip): their returns are sinks.
SHOWN_RETURNS = ("tooltip", "display")
WRAPPERS = frozenset({"tr", "translate", "QT_TRANSLATE_NOOP", "QT_TR_NOOP", "QT_TRANSLATE_NOOP3"})
LOGGERS = frozenset({"log", "logger", "logging", "_log", "LOG", "LOGGER"})


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    sink: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.sink}: {self.text}"


def _words(text: str) -> bool:
    return any(character.isalpha() for character in text)


def _call_name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


class _Checker(ast.NodeVisitor):
    def __init__(self, path: str, tree: ast.Module) -> None:
        self.path = path
        self.findings: list[Finding] = []
        # Module-level names bound to words: a constant passed by name is the same string.
        self.constants: dict[str, str] = {}
        # Module-level dicts whose values are words: an entry shown by key is the same string.
        self.tables: dict[str, str] = {}
        for statement in tree.body:
            if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                text = self._bare_words(statement.value, follow_names=False)
                table = self._table_words(statement.value)
                for target in targets:
                    if isinstance(target, ast.Name) and text is not None:
                        self.constants[target.id] = text
                    if isinstance(target, ast.Name) and table is not None:
                        self.tables[target.id] = table

    def _table_words(self, node: ast.expr) -> str | None:
        """The first untranslated value of a dict literal (``{"loud": "Broadcast"}``), else None."""
        if not isinstance(node, ast.Dict):
            return None
        for value in node.values:
            text = self._bare_words(value, follow_names=False)
            if text is not None:
                return text
        return None

    def _bare_words(self, node: ast.expr, follow_names: bool = True) -> str | None:
        """The source of ``node`` when it is words that reach Qt untranslated, else None."""
        if isinstance(node, ast.Constant):
            return repr(node.value) if isinstance(node.value, str) and _words(node.value) else None
        if isinstance(node, ast.JoinedStr):
            parts = [value.value for value in node.values if isinstance(value, ast.Constant)]
            return ast.unparse(node) if any(isinstance(p, str) and _words(p) for p in parts) else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
            if self._bare_words(node.left, follow_names) or self._bare_words(node.right, follow_names):
                return ast.unparse(node)
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            return ast.unparse(node) if self._bare_words(node.func.value, follow_names) else None
        if isinstance(node, ast.IfExp):
            return self._bare_words(node.body, follow_names) or self._bare_words(node.orelse, follow_names)
        if isinstance(node, ast.List | ast.Tuple):
            for element in node.elts:
                found = self._bare_words(element, follow_names)
                if found:
                    return found
            return None
        if follow_names and isinstance(node, ast.Name) and node.id in self.constants:
            return f"{node.id} = {self.constants[node.id]}"
        table = node.value if isinstance(node, ast.Subscript) else (
            node.func.value if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get" else None)
        if follow_names and isinstance(table, ast.Name) and table.id in self.tables:
            return f"{ast.unparse(node)}: {table.id} holds {self.tables[table.id]}"
        return None

    def _check(self, node: ast.Call, sink: str, positions: Positions) -> None:
        indexes, keywords = positions
        arguments = [node.args[i] for i in indexes if i < len(node.args)]
        arguments += [k.value for k in node.keywords if k.arg in keywords]
        for argument in arguments:
            text = self._bare_words(argument)
            if text is not None:
                self.findings.append(Finding(self.path, argument.lineno, sink, text))

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Attribute) and target.attr == "text":  # a command's undo text
                text = self._bare_words(node.value)
                if text is not None:
                    self.findings.append(Finding(self.path, node.lineno, "an undo text", text))
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.name.endswith(SHOWN_RETURNS) and not self.path.startswith(("app/project/", "app/commands/")):
            for statement in ast.walk(node):
                if isinstance(statement, ast.Return) and statement.value is not None:
                    text = self._bare_words(statement.value)
                    if text is not None:
                        self.findings.append(Finding(self.path, statement.lineno, f"what {node.name}() returns", text))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = _call_name(func)
        if name == "format" and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) \
                and _call_name(func.value.func) in WRAPPERS:
            self.findings.append(Finding(self.path, node.lineno, "a translated template filled by str.format (use fill)",
                                         ast.unparse(node)))
        if name in WRAPPERS:
            text_argument = node.args[1] if name == "translate" and len(node.args) > 1 else (
                node.args[0] if node.args else None)
            if isinstance(text_argument, ast.JoinedStr):
                self.findings.append(Finding(self.path, node.lineno, f"{name}() of an f-string",
                                             ast.unparse(text_argument)))
            qt_translate = name == "translate" and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id in ("QCoreApplication", "QApplication", "QGuiApplication")
            count = node.args[3] if qt_translate and len(node.args) > 3 else None
            if count is not None and not isinstance(count, ast.Constant):
                # pyside6-lupdate reads a count's plural forms from tr() alone: translate() with a
                # variable count is collected as a plain string (or, with a call, not at all).
                self.findings.append(Finding(self.path, node.lineno, "translate() with a count (use self.tr)",
                                             ast.unparse(node)))
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                f"{func.value.id}.{name}" in STATIC_SINKS:
            self._check(node, f"{func.value.id}.{name}", STATIC_SINKS[f"{func.value.id}.{name}"])
        elif isinstance(func, ast.Name) and name in CLASS_SINKS:
            self._check(node, name, CLASS_SINKS[name])
        elif name == "__init__" and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) \
                and _call_name(func.value.func) == "super" and not self.path.startswith("app/project/"):
            # A widget's own text given to its Qt base (QGroupBox's title, QLabel's text); errors of
            # app/project keep English messages, so only the studio's classes are read.
            self._check(node, "super().__init__", ((0, 1), ("title", "text")))
        elif isinstance(func, ast.Attribute) and name in METHOD_SINKS:
            receiver = func.value
            if not (isinstance(receiver, ast.Name) and receiver.id in LOGGERS):
                self._check(node, name, METHOD_SINKS[name])
        self.generic_visit(node)


def check_source(source: str, path: str = "<source>") -> list[Finding]:
    """Every untranslated user-visible string in ``source``."""
    tree = ast.parse(source, path)
    checker = _Checker(path, tree)
    checker.visit(tree)
    return checker.findings


def check_tree(root: Path, folder: str) -> Iterator[Finding]:
    """Every finding in the ``.py`` files under ``root / folder``, paths relative to ``root``."""
    for path in sorted((root / folder).rglob("*.py")):
        yield from check_source(path.read_text(encoding="utf-8"), path.relative_to(root).as_posix())

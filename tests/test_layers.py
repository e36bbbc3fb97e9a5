"""The layers' import rules, read from the source (static, so it also covers code no test runs).

``engine/`` runs headless in its own process, possibly under another interpreter that has no
Qt and no studio: it never imports Qt or ``app``. ``app/project/`` is the project model the
headless ``render`` command shares with the studio: it never imports Qt (nor ``app.ui``,
which is Qt), and it reaches the engine only through the modules in
:data:`PROJECT_ENGINE_ENTRY_POINTS` (the vocabulary, the file and audio rules, the checks and hearing it
shares), never its process, scheduler, backends or load tests. ``app/commands/`` are headless
commands: they never import Qt or ``app.ui``. See docs/architecture.md.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
QT = ("PySide6", "PySide2", "PyQt5", "PyQt6", "shiboken6", "shiboken2", "pyqtgraph", "qtpy")
RULES = {
    "engine": QT + ("app",),
    "app/project": QT + ("app.ui",),
    "app/commands": QT + ("app.ui",),
}
# What of the engine the project model may use: the shared vocabulary and rules, not the machinery.
PROJECT_ENGINE_ENTRY_POINTS = (
    "engine.protocol", "engine.codes", "engine.files", "engine.audio_io", "engine.numbers", "engine.text",
    "engine.voices", "engine.lifeline", "engine.qa", "engine.hearing",
)


def imported_modules(source: str, module: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source``, the module at dotted path
    ``module``; relative imports are resolved, and ``importlib.import_module("x")`` /
    ``__import__("x")`` with a literal name count too."""
    found: list[tuple[int, str]] = []
    package = module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((node.lineno, name))
            if name == "engine":  # `from engine import files` names the module engine.files
                found += [(node.lineno, f"engine.{alias.name}") for alias in node.names]
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in ("import_module", "__import__"):
                found.append((node.lineno, node.args[0].value))
    return found


def violations(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    problems = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for line, name in imported_modules(path.read_text(encoding="utf-8"), module):
            if any(name == bad or name.startswith(bad + ".") for bad in forbidden):
                problems.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    return problems


@pytest.mark.parametrize("folder", RULES)
def test_layer_imports_nothing_it_must_not(folder):
    assert list((ROOT / folder).rglob("*.py")), f"no sources under {folder}"
    assert violations(folder, RULES[folder]) == []


def test_the_checker_finds_every_kind_of_import():
    source = (
        "import PySide6.QtCore\n"
        "from app.ui import main\n"
        "from . import sibling\n"
        "from ..ui import player\n"
        "def late():\n"
        "    import importlib\n"
        "    importlib.import_module('pyqtgraph')\n"
        "    __import__('app')\n"
    )
    names = [name for _, name in imported_modules(source, "app.project.model")]
    assert names == ["PySide6.QtCore", "app.ui", "app.project", "app.ui", "importlib", "pyqtgraph", "app"]


def test_the_project_reaches_the_engine_only_through_its_entry_points():
    problems = []
    for path in sorted((ROOT / "app/project").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for line, name in imported_modules(path.read_text(encoding="utf-8"), module):
            if name == "engine" or not name.startswith("engine."):
                continue
            if not any(name == entry or name.startswith(entry + ".") for entry in PROJECT_ENGINE_ENTRY_POINTS):
                problems.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert problems == []


def test_from_engine_import_names_the_module():
    names = [name for _, name in imported_modules("from engine import client\n", "app.project.model")]
    assert names == ["engine", "engine.client"]

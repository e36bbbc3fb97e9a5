"""The layers' import rules, read from the source (static, so it also covers code no test runs).

``engine/`` runs headless, in the engine process and in the callers' processes, possibly under
another interpreter that has no Qt and no studio: it never imports Qt or ``app``. Inside it,
each subpackage reaches only the parts below it (:data:`ENGINE_REACH`): the shared core
imports nothing else of the engine, the speaker encoder only the core, hearing and synthesis
never each other. What runs only inside the engine process (:data:`ENGINE_PROCESS_ONLY`) is
imported by nothing outside :mod:`engine.synthesis`. ``app/project/`` is the project model the
headless ``render`` command shares with the studio: no Qt, and no synthesis (it speaks to an
engine through the protocol, with a client it is handed). ``app/commands/`` are headless
commands: no Qt. See docs/architecture.md.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
QT = ("PySide6", "PySide2", "PyQt5", "PyQt6", "shiboken6", "shiboken2", "pyqtgraph", "qtpy")
ENGINE_PARTS = ("engine.core", "engine.voiceprint", "engine.hearing", "engine.synthesis", "engine.load",
                "engine.translation")
# The modules that run only in the engine process: the studio, hearing and the bench start an
# engine through a client (engine.synthesis.client) and never hold its machinery.
ENGINE_PROCESS_ONLY = (
    "engine.synthesis.process", "engine.synthesis.scheduler", "engine.synthesis.batching",
    "engine.synthesis.jobs", "engine.synthesis.allocator", "engine.synthesis.background",
    "engine.synthesis.backends.piper", "engine.synthesis.backends.vits", "engine.synthesis.backends.adaptation",
    "engine.synthesis.backends.cosyvoice2", "engine.synthesis.backends.cosyvoice_llm",
    "engine.synthesis.backends.cosyvoice_batch", "engine.synthesis.backends.cosyvoice_synthetic",
    "engine.synthesis.backends.mandarin", "engine.synthesis.backends.own_voice", "engine.synthesis.backends.embedded",
)
# Which parts of the engine each folder may import (any module under them).
ENGINE_REACH = {
    "engine/core": ("engine.core",),
    "engine/voiceprint": ("engine.core", "engine.voiceprint"),
    "engine/hearing": ("engine.core", "engine.voiceprint", "engine.hearing"),
    "engine/synthesis": ("engine.core", "engine.voiceprint", "engine.synthesis"),
    "engine/load": ("engine.core", "engine.load", "engine.synthesis"),
    "engine/translation": ("engine.core", "engine.translation"),
    "app/project": ("engine.core", "engine.voiceprint", "engine.hearing", "engine.translation"),
    "app/commands": ENGINE_PARTS,
    "app/ui": ENGINE_PARTS,
}
FORBIDDEN = {
    "engine": QT + ("app",),
    "app/project": QT + ("app.ui", "app.commands"),
    "app/commands": QT + ("app.ui",),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_lines(tree: ast.AST) -> set[int]:
    """Lines inside ``if TYPE_CHECKING:`` blocks: imports there never run."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imported_modules(source: str, module: str, is_package: bool = False,
                     runtime_only: bool = False) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source``, the module at dotted path
    ``module`` (``is_package``: an ``__init__``); relative imports are resolved; ``from
    package import name`` also names ``package.name`` (which is the module when ``name`` is
    one); ``importlib.import_module("x")`` / ``__import__("x")`` with a literal name count
    too. ``runtime_only`` leaves out the imports under ``if TYPE_CHECKING:``."""
    found: list[tuple[int, str]] = []
    package = module if is_package else module.rsplit(".", 1)[0]
    tree = ast.parse(source)
    skipped = _type_checking_lines(tree) if runtime_only else set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((node.lineno, name))
            found += [(node.lineno, f"{name}.{alias.name}") for alias in node.names if alias.name != "*"]
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in ("import_module", "__import__"):
                found.append((node.lineno, node.args[0].value))
    return found


def _imports_under(folder: str) -> list[tuple[str, int, str]]:
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for line, name in imported_modules(source, module_name(path), path.name == "__init__.py"):
            found.append((str(path.relative_to(ROOT)), line, name))
    return found


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


@pytest.mark.parametrize("folder", FORBIDDEN)
def test_layer_imports_nothing_it_must_not(folder: str) -> None:
    assert list((ROOT / folder).rglob("*.py")), f"no sources under {folder}"
    problems = [f"{path}:{line} imports {name}" for path, line, name in _imports_under(folder)
                if _under(name, FORBIDDEN[folder])]
    assert problems == []


@pytest.mark.parametrize("folder", ENGINE_REACH)
def test_each_part_reaches_only_the_engine_parts_below_it(folder: str) -> None:
    assert list((ROOT / folder).rglob("*.py")), f"no sources under {folder}"
    problems = [f"{path}:{line} imports {name}" for path, line, name in _imports_under(folder)
                if _under(name, ENGINE_PARTS) and not _under(name, ENGINE_REACH[folder])]
    assert problems == []


@pytest.mark.parametrize("folder", ["app", "engine/hearing", "engine/load", "engine/voiceprint", "engine/core"])
def test_the_engine_process_machinery_stays_in_the_engine_process(folder: str) -> None:
    problems = [f"{path}:{line} imports {name}" for path, line, name in _imports_under(folder)
                if _under(name, ENGINE_PROCESS_ONLY)]
    assert problems == []


def test_every_engine_module_lives_in_a_part() -> None:
    """A module dropped at the top of engine/ would belong to no process."""
    loose = sorted(p.name for p in (ROOT / "engine").glob("*.py") if p.name != "__init__.py")
    assert loose == []
    parts = sorted(p.name for p in (ROOT / "engine").iterdir() if (p / "__init__.py").exists())
    assert parts == sorted(part.split(".")[1] for part in ENGINE_PARTS)


def test_the_checker_finds_every_kind_of_import() -> None:
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
    assert names == ["PySide6.QtCore", "app.ui", "app.ui.main", "app.project", "app.project.sibling", "app.ui",
                     "app.ui.player", "importlib", "pyqtgraph", "app"]


def test_a_package_resolves_its_relative_imports_from_itself() -> None:
    names = [name for _, name in imported_modules("from .local import X\n", "engine.synthesis.client", True)]
    assert names == ["engine.synthesis.client.local", "engine.synthesis.client.local.X"]


def test_type_only_imports_can_be_left_out() -> None:
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from app.ui import main\nimport os\n"
    names = [name for _, name in imported_modules(source, "app.x", runtime_only=True)]
    assert names == ["typing", "typing.TYPE_CHECKING", "os"]

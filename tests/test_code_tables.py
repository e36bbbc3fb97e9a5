"""The one table of codes (engine.core.codes) and the one of exit codes (app.commands.exit_codes).

Every code the sources name is a member of the table, no code is spelled out as a string
outside it, every command ends with a member of the exit table, and the docs list both.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from app.commands.exit_codes import ExitCode
from engine.core.codes import ErrorCode, QaCode, code_named

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ROOT / "app" / "commands"
CODE = re.compile(r"(?<![\w.])(?:E|QA)_[A-Z0-9]+(?:_[A-Z0-9]+)*(?![\w*])")  # E_CLIP_* is a wildcard, not a code
TABLE = ROOT / "engine" / "core" / "codes.py"


def _sources() -> list[Path]:
    return sorted(path for folder in ("app", "engine") for path in (ROOT / folder).rglob("*.py"))


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (a module's, class's or function's first statement)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _strings(source: str) -> list[tuple[int, str, bool]]:
    """(line, text, whether it is a docstring) of every string in ``source``; an f-string's
    literal parts count, its expressions do not (their own strings do)."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = [(node.lineno, node.value, id(node) in docs) for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    return sorted(found, key=lambda item: item[0])


def _comments(source: str) -> list[tuple[int, str]]:
    return [(token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT]


def test_no_two_codes_share_a_value_and_each_has_a_headline() -> None:
    for table in (ErrorCode, QaCode):
        assert len(table.__members__) == len(table)  # an enum makes a repeated value an alias
        assert all(code.headline.endswith(".") for code in table)
    assert {code.value for code in ErrorCode}.isdisjoint(code.value for code in QaCode)
    assert code_named("E_NO_CLIP") is ErrorCode.NO_CLIP and code_named("QA_SILENT") is QaCode.SILENT
    assert code_named("E_NOT_A_CODE") is None


def test_every_code_the_sources_name_is_in_the_table() -> None:
    unknown = []
    for path in _sources():
        source = path.read_text(encoding="utf-8")
        texts = [(line, text) for line, text, _ in _strings(source)] + _comments(source)
        unknown += [f"{path.relative_to(ROOT)}:{line} {code}" for line, text in texts
                    for code in CODE.findall(text) if code_named(code) is None]
    assert unknown == []


def test_no_code_is_spelled_out_outside_the_table() -> None:
    loose = []
    for path in _sources():
        if path == TABLE:
            continue
        loose += [f"{path.relative_to(ROOT)}:{line} {text!r}" for line, text, docstring
                  in _strings(path.read_text(encoding="utf-8")) if not docstring and CODE.search(text)]
    assert loose == []  # write f"{ErrorCode.X}: ..." so that each code is spelled once


def test_the_scan_sees_codes_in_strings_and_f_strings_apart_from_docstrings_and_names() -> None:
    source = ('"""Raises E_DOC."""\n'
              'x = "E_ONE"\n'
              "y = f\"E_TWO: {E_NAME} {code or 'E_THREE'}\"\n"
              "def f():\n"
              "    '''E_FOUR'''\n"
              "    return 'E_CLIP_*'  # E_FIVE\n")
    found = [(line, CODE.findall(text), docstring) for line, text, docstring in _strings(source) if CODE.search(text)]
    assert sorted(found) == [(1, ["E_DOC"], True), (2, ["E_ONE"], False), (3, ["E_THREE"], False),
                             (3, ["E_TWO"], False), (5, ["E_FOUR"], True)]
    assert [CODE.findall(text) for _, text in _comments(source)] == [["E_FIVE"]]


def test_every_code_in_the_table_is_used() -> None:
    text = "\n".join(path.read_text(encoding="utf-8") for path in _sources() if path != TABLE)
    unused = [f"{table.__name__}.{code.name}" for table in (ErrorCode, QaCode) for code in table
              if f"{table.__name__}.{code.name}" not in text and code.value not in text]
    assert unused == []


def test_the_docs_list_every_code_and_only_codes_of_the_table() -> None:
    documented: set[str] = set()
    for page in sorted((ROOT / "docs").glob("*.md")):
        documented |= set(re.findall(r"`((?:E|QA)_[A-Z0-9_]+)`", page.read_text(encoding="utf-8")))
    names = {match for path in _sources()  # a constant's name (QA_THRESHOLD_RANGES) is no code
             for match in re.findall(r"^(\w+)\s*[:=]", path.read_text(encoding="utf-8"), re.M)}
    table = {code.value for code in ErrorCode} | {code.value for code in QaCode}
    assert sorted(table - documented) == []  # list it in docs/commands.md
    assert sorted(documented - table - names) == []  # a code the docs name but nothing raises


def test_no_two_exit_codes_share_a_number() -> None:
    assert len(ExitCode.__members__) == len(ExitCode)


def _literal_exits(path: Path) -> list[str]:
    """``return 3`` in a command's run function, or ``SystemExit(2)`` / ``sys.exit(2)`` anywhere."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("run"):
            found += [f"{path.name}:{ret.lineno} return {ret.value.value}" for ret in ast.walk(node)
                      if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Constant)
                      and isinstance(ret.value.value, int)]
        if (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, int) and ast.unparse(node.func) in ("SystemExit", "sys.exit")):
            found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    return found


def test_every_command_ends_with_a_member_of_the_table() -> None:
    sources = sorted(COMMANDS.glob("*.py")) + [ROOT / "app" / "cli.py", ROOT / "app" / "ui" / "main.py"]
    assert [problem for path in sources for problem in _literal_exits(path)] == []
    constants = [f"{path.name}: {match.group(0)}" for path in sources
                 for match in re.finditer(r"^EXIT_\w+\s*=.*$", path.read_text(encoding="utf-8"), re.M)]
    assert constants == []  # a command's own exit constants would be a second table


def test_the_checker_finds_literal_exit_statuses(tmp_path: Path) -> None:
    source = tmp_path / "command.py"
    source.write_text("import sys\ndef run(args):\n    if args:\n        return 3\n    sys.exit(2)\n"
                      "def helper():\n    return 1\n")
    assert _literal_exits(source) == ["command.py:4 return 3", "command.py:5 sys.exit(2)"]


def test_docs_list_every_exit_code_with_its_number() -> None:
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    section = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    listed = [int(number) for number in re.findall(r"^\| `(\d+)` \|", section, re.M)]
    assert listed == [code.value for code in ExitCode]

"""The one table of exit codes: every command returns its members, and docs/commands.md lists them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from app.commands.exit_codes import ExitCode

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ROOT / "app" / "commands"


def test_no_two_exit_codes_share_a_number() -> None:
    assert len(ExitCode.__members__) == len(ExitCode)  # an enum makes a repeated value an alias


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

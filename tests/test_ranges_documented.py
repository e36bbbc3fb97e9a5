"""docs/limits.md lists every declared range (issue 29), so the page and the code cannot drift.

Every module of engine/ and app/ that declares a Range is imported, and every Range it holds (a
constant, a table's entry, a backend option's, a setting's) must have its row in the page: its
name, what it takes, its default and its code, as the code declares them.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

from engine.core.numbers import UNITS, Range

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "limits.md"
DECLARES = re.compile(r"\bRange\(")


def _declaring_modules() -> list[str]:
    paths = [path for folder in ("engine", "app") for path in sorted((ROOT / folder).rglob("*.py"))
             if DECLARES.search(path.read_text(encoding="utf-8")) and path.name != "numbers.py"]
    return [".".join(path.relative_to(ROOT).with_suffix("").parts) for path in paths]


def _ranges_in(value: object, depth: int = 0) -> Iterator[Range]:
    """The ranges a module-level value holds: itself, a table's entries, a descriptor's options,
    a settings class's options."""
    if depth > 4:
        return
    if isinstance(value, Range):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _ranges_in(item, depth + 1)
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _ranges_in(item, depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _ranges_in(getattr(value, field.name), depth + 1)
    elif isinstance(value, type):
        for item in vars(value).values():
            yield from _ranges_in(getattr(item, "range", None), depth + 1)


def declared_ranges() -> list[Range]:
    found: dict[Range, None] = {}
    for name in _declaring_modules():
        for value in vars(importlib.import_module(name)).values():
            found.update(dict.fromkeys(_ranges_in(value)))
    return list(found)


def row(allowed: Range) -> str:
    """A range's row in docs/limits.md, up to the columns people write (where, read by)."""
    takes = f"{'whole numbers ' if allowed.whole else ''}{allowed.describe()}"
    if allowed.owner:
        takes += f" on {allowed.owner}"
    default = "—" if allowed.default is None else f"{allowed.default:g}"
    return f"| `{allowed.name}` | {takes} | {default} | `{allowed.code}` |"


def test_every_declared_unit_is_one_the_studio_translates() -> None:
    assert {allowed.unit for allowed in declared_ranges() if allowed.unit} <= set(UNITS)


def test_the_search_finds_the_ranges_of_every_kind_of_declaration() -> None:
    names = {allowed.name for allowed in declared_ranges()}
    # a protocol constant, a table's entry, a backend option's, a studio setting's, the timeline's
    assert {"speed", "warmup_jobs", "noise_scale", "autosave_s", "guide level", "time", "--port"} <= names


def test_the_limits_page_lists_every_declared_range() -> None:
    page = DOC.read_text(encoding="utf-8")
    missing = [row(allowed) for allowed in declared_ranges() if row(allowed) not in page]
    assert not missing, "docs/limits.md lacks these rows (add them, then where and who reads):\n" + "\n".join(missing)

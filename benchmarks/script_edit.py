"""What one edit of a line costs the script tab, by script length (a benchmark).

Builds timed scripts of --lines lengths (one character, lines of typical length, no takes: every
Duration cell shows the voice's expected length, the costliest case for the timing aids), opens
each in the real ScriptPanel at the default window's width, then edits --edits lines one at a
time (each edit an undoable command, its Qt signals, the redraw). It prints the milliseconds per
edit and, as the figure to compare between runs, the ratio of the longest script's cost to the
shortest's (the timing aids are one timeline pass: about linear; rows sized to their contents
were far worse, which is why rows have a fixed height).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/script_edit.py [--lines 200 2000] [--edits 20]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from app.project import EditLine, Line, Project
from app.ui.script.script_panel import ScriptPanel
from app.ui.window.document import Document

ACTIONS = ("play_line", "render_selected", "render_failed_qa", "recheck_qa", "add_line", "remove_lines", "move_up",
           "move_down", "render_all", "render_stale", "cancel_render", "retry_failed", "stop")


def per_edit_ms(app: QApplication, lines: int, edits: int, folder: Path) -> float:
    project = Project.create(folder / f"script-{lines}", f"{lines} lines")
    char = project.make_character("Maya")
    project.characters.append(char)
    project.lines = [Line(id=f"l{n}", text=f"Line {n}: a typical line of dialogue, long enough to wrap once.",
                          character_id=char.id, start=n * 3.0, end=n * 3.0 + 2.5) for n in range(lines)]
    document = Document(project)
    panel = ScriptPanel(document, {name: QAction(name) for name in ACTIONS})
    panel.resize(1200, 500)
    panel.show()
    app.processEvents()
    step = max(1, lines // edits)
    started = time.perf_counter()
    for n in range(edits):
        document.push(EditLine(f"l{(n * step) % lines}", text=f"Edited line {n}."))
        app.processEvents()
    elapsed = time.perf_counter() - started
    panel.close()
    return elapsed / edits * 1000


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[200, 2000])
    parser.add_argument("--edits", type=int, default=20)
    args = parser.parse_args(argv)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as folder:
        costs = {n: per_edit_ms(app, n, args.edits, Path(folder)) for n in sorted(args.lines)}
    for lines, ms in costs.items():
        print(f"{lines:6d} lines: {ms:7.1f} ms an edit")
    shortest, longest = min(costs), max(costs)
    if longest != shortest:
        print(f"cost ratio {longest}/{shortest} lines: {costs[longest] / costs[shortest]:.1f} "
              f"(script length ratio {longest / shortest:.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

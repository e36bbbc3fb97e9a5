"""Importing big SRT files: time per cue must stay flat as the file grows (linear import).

One command, one table: ``.venv/bin/python benchmarks/srt_import.py [--cues 25000,50000,100000]``.
Each size is parsed (``import_srt``) and applied to a project as one undoable command
(``AddLines``), as the studio's File > Import does; the last column is the time per 1,000 cues,
which a quadratic step would make grow with the size.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.project import CommandStack, Project
from app.project.script_io import import_srt
from app.project.timecode import format_timecode


def make_srt(cues: int) -> bytes:
    """``cues`` subtitles, 0.8 s apart (100k fit in a day, the longest a project holds), four speakers."""
    blocks = []
    for n in range(cues):
        start = n * 0.8
        blocks.append(f"{n + 1}\n{format_timecode(start)} --> {format_timecode(start + 0.6)}\n"
                      f"Speaker{n % 4}: line number {n + 1} of the script.\n")
    return "\n".join(blocks).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cues", default="25000,50000,100000", help="comma-separated sizes")
    args = parser.parse_args()
    print(f"{'cues':>8} {'parse s':>9} {'apply s':>9} {'total s':>9} {'ms/1k cues':>11}")
    with tempfile.TemporaryDirectory() as folder:
        for cues in (int(part) for part in args.cues.split(",")):
            source = Path(folder) / f"{cues}.srt"
            source.write_bytes(make_srt(cues))
            project = Project.create(Path(folder) / f"p{cues}")
            started = time.perf_counter()
            result = import_srt(source, project)
            parsed = time.perf_counter()
            CommandStack(project).push(result.command())
            applied = time.perf_counter()
            assert len(project.lines) == cues
            total = applied - started
            print(f"{cues:>8} {parsed - started:>9.2f} {applied - parsed:>9.2f} {total:>9.2f} "
                  f"{total / cues * 1e6:>11.1f}")


if __name__ == "__main__":
    main()

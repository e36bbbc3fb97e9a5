"""Python processes that refuse to import torch and the rest of what the studio runs without."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What the studio must run without (issue 19): the GE2E encoder was their only reason to be here.
REFUSED = ("torch", "resemblyzer", "librosa", "numba")

GUARD = r"""
import importlib.abc, os, sys

REFUSED = set(os.environ["DUBSTUDIO_REFUSE_IMPORTS"].split(","))

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in REFUSED:
            import traceback
            with open(os.path.join(os.environ["DUBSTUDIO_GUARD_MARKS"], f"{os.getpid()}.tried"), "a") as log:
                log.write(name + "\n" + "".join(traceback.format_stack(limit=12)) + "\n")
            raise ModuleNotFoundError(f"{name} is refused: the studio runs without it", name=name)
        return None

sys.meta_path.insert(0, Refuse())
open(os.path.join(os.environ["DUBSTUDIO_GUARD_MARKS"], str(os.getpid())), "w").close()
"""


def guarded_environment(tmp_path: Path) -> dict[str, str]:
    """An environment whose every Python process (the CLI and the engine it spawns) refuses
    to import torch and the rest: a sitecustomize that installs a meta-path finder."""
    guard = tmp_path / "guard"
    marks = tmp_path / "marks"
    guard.mkdir(parents=True)
    marks.mkdir(parents=True)
    (guard / "sitecustomize.py").write_text(GUARD)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(guard), str(ROOT)]),
            "DUBSTUDIO_REFUSE_IMPORTS": ",".join(REFUSED), "DUBSTUDIO_GUARD_MARKS": str(marks)}


def tried_imports(tmp_path: Path) -> str:
    """What the guarded processes tried to import of the refused modules, with where from
    (empty when nothing did)."""
    return "".join(path.read_text() for path in sorted((tmp_path / "marks").glob("*.tried")))

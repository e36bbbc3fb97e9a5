"""The bundled sample project, so a first-time user hears something in one click.

The copy in ``resources/`` is never rendered into (it may sit in a read-only install), so
the studio copies it to a folder of the user's before opening it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from app.project import phrases
from app.project.errors import ProjectFileError
from app.project.model import (
    CACHE_DIR,
    EXPORTS_DIR,
    PROJECT_FILE,
    TAKES_DIR,
    LineStatus,
)
from app.project.phrases import Phrase
from app.project.project import Project
from engine.core.paths import SAMPLE_PROJECT

__all__ = ["SAMPLE_PROJECT", "copy_project", "copy_sample_project"]


def copy_project(source: str | os.PathLike[str], dest: str | os.PathLike[str], *, with_takes: bool = True) -> Project:
    """Copy a project folder to ``dest`` (which must not hold a project) and open the copy.

    The regenerable ``.cache`` folder is left out; ``with_takes=False`` also leaves out takes
    and exports, giving a fresh project with the same voices and script.
    """
    source, dest = Path(source), Path(dest)
    if not (source / PROJECT_FILE).is_file():
        raise ProjectFileError(Phrase(phrases.NOT_A_PROJECT, folder=source, file=PROJECT_FILE))
    if (dest / PROJECT_FILE).exists():
        raise ProjectFileError(Phrase(phrases.ALREADY_A_PROJECT, folder=dest))
    skip = {CACHE_DIR} if with_takes else {CACHE_DIR, TAKES_DIR, EXPORTS_DIR}

    def top_level_skips(directory: str, names: list[str]) -> list[str]:
        return [n for n in names if n in skip] if Path(directory) == source else []

    shutil.copytree(source, dest, dirs_exist_ok=True, ignore=top_level_skips)
    project = Project.load(dest)
    if not with_takes:
        for line in project.lines:
            line.takes.clear()
            line.chosen_take = None
            line.status, line.error = LineStatus.NOT_RENDERED, ""
        project.save()
    project.ensure_folders()
    return project


def copy_sample_project(dest: str | os.PathLike[str]) -> Project:
    """A fresh, writable copy of the bundled sample project at ``dest``."""
    return copy_project(SAMPLE_PROJECT, dest, with_takes=False)

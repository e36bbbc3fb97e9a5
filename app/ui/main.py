"""``dubstudio [PROJECT_DIR]``: start the studio.

``--quit-after-load`` (or ``DUBSTUDIO_QUIT_AFTER_LOAD=1``) closes the window as soon as the
project is open and drawn, and the exit status says whether it opened: this is how CI and
the packaged build's smoke test check that the real program comes up.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from app.ui.settings import APP_NAME, ORG_NAME


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="dubstudio", description="DubStudio, the dubbing studio")
    parser.add_argument("project", nargs="?", help="a project folder to open")
    parser.add_argument(
        "--quit-after-load",
        action="store_true",
        default=os.environ.get("DUBSTUDIO_QUIT_AFTER_LOAD") == "1",
        help="close once the window is up (smoke tests); exit status 0 when the project opened",
    )
    return parser.parse_args(argv)


def run_studio(argv: list[str]) -> int:
    """Run the studio until its window closes; returns the exit status."""
    args = _parse(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from PySide6.QtWidgets import QApplication

    from app.ui.main_window import MainWindow
    from app.ui.settings import Settings
    from app.ui.tasks import ThreadTaskRunner

    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    app.setOrganizationName(ORG_NAME)
    app.setApplicationName(APP_NAME)
    window = MainWindow(Settings(), ThreadTaskRunner())
    window.show()
    opened = True
    if args.project:
        opened = window.open_project(args.project)
    if args.quit_after_load:
        title = window.windowTitle()
        print(f"dubstudio: window up: {title!r}; project opened: {opened}", flush=True)
        window.quit_after_load()
        app.exec()
        return 0 if opened else 1
    return int(app.exec())

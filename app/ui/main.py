"""``dubstudio [PROJECT_DIR]``: start the studio.

``--quit-after-load`` (or ``DUBSTUDIO_QUIT_AFTER_LOAD=1``) closes the window as soon as the
project is open and drawn, and the exit status says whether it opened: this is how CI and
the packaged build's smoke test check that the real program comes up.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
from types import FrameType
from typing import TYPE_CHECKING

from app.commands.common import add_engine_arguments, engine_config_from_args
from app.commands.exit_codes import ExitCode
from app.ui.settings.store import APP_NAME, ORG_NAME, Settings

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from engine.synthesis.config import EngineConfig

ENGINE_ARGUMENTS = ("backend", "model_dir", "engine_python", "backend_option", "slots", "max_active", "cache_dir")


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="dubstudio", description="DubStudio, the dubbing studio. The engine options below override the "
                                      "settings for this session (e.g. --backend cosyvoice2 --model-dir DIR).")
    parser.add_argument("project", nargs="?", help="a project folder to open")
    parser.add_argument(
        "--quit-after-load",
        action="store_true",
        default=os.environ.get("DUBSTUDIO_QUIT_AFTER_LOAD") == "1",
        help="close once the window is up (smoke tests); exit status 0 when the project opened",
    )
    add_engine_arguments(parser, default_backend=None)
    return parser.parse_args(argv)


def engine_override(args: argparse.Namespace, settings: Settings) -> EngineConfig | None:
    """The engine the command line asks for, None when it names none. Options not given come
    from the settings of that backend (its stored model folder and options)."""
    if not any(getattr(args, name) for name in ENGINE_ARGUMENTS):
        return None
    backend = args.backend or settings.engine_backend
    args.engine_python = args.engine_python or settings.python_for(backend) or None
    args.slots = args.slots or settings.engine_slots or None
    args.cache_dir = args.cache_dir or settings.cache_dir or None
    config: EngineConfig = engine_config_from_args(args, backend, base_options=settings.options_for(backend))
    return config


def close_on_stop_signals(window: QWidget) -> list[int]:
    """Make SIGTERM (a logout, ``kill``, a service manager) and Ctrl+C close the studio as its
    close button does: unsaved changes are saved (a failed save keeps the window, asking what to
    do), the engine is stopped, the settings are written. A second signal ends the studio at once.

    Returns a list that holds the signal number once one has arrived (for the exit status).
    Python runs signal handlers only between bytecodes, and the Qt event loop waits in C++: a
    timer hands the interpreter a moment to run them five times a second.
    """
    from PySide6.QtCore import QTimer

    received: list[int] = []

    def close(signum: int, _frame: FrameType | None) -> None:
        for stop_signal in (signal.SIGTERM, signal.SIGINT):
            signal.signal(stop_signal, signal.SIG_DFL)  # a second signal is not asked twice
        received.append(signum)
        QTimer.singleShot(0, window.close)

    for stop_signal in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop_signal, close)
    wake = QTimer(window)
    wake.timeout.connect(lambda: None)
    wake.start(200)
    return received


def run_studio(argv: list[str]) -> int:
    """Run the studio until its window closes; returns the exit status."""
    args = _parse(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from PySide6.QtWidgets import QApplication

    from app.ui.language import install_translations
    from app.ui.tasks import ThreadTaskRunner
    from app.ui.window.main_window import MainWindow

    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    app.setOrganizationName(ORG_NAME)
    app.setApplicationName(APP_NAME)
    settings = Settings()
    # Before any widget is built: widgets translate their strings once, as they are made.
    install_translations(app, settings.language)
    override = engine_override(args, settings)  # a bad option exits here, with its code
    window = MainWindow(settings, ThreadTaskRunner(), engine_override=override)
    window.show()
    opened = True
    if args.project:
        opened = window.open_project(args.project)
    if args.quit_after_load:
        title = window.windowTitle()
        print(f"dubstudio: window up: {title!r}; project opened: {opened}", flush=True)
        # The menu bar as shown, in the interface's language (the translation's smoke test reads it).
        menus = [action.text() for action in window.menuBar().actions()]
        print(f"dubstudio: menus: {json.dumps(menus, ensure_ascii=False)}", flush=True)
        window.quit_after_load()
        app.exec()
        return ExitCode.OK if opened else ExitCode.BAD_INPUT
    stopped_by = close_on_stop_signals(window)
    status = int(app.exec())
    return ExitCode.INTERRUPTED if stopped_by else status

"""`dubstudio`: the studio by default, headless subcommands for automation.

Each subcommand lives in its own module under ``app.commands`` and exposes
``add_parser(subparsers)``; modules are imported only when their command runs, so
``dubstudio say`` never loads Qt.
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import os
import sys

# subcommand -> module in app.commands
COMMANDS = {
    "new": "new",
    "transcribe": "transcribe",
    "say": "say",
    "bench": "bench",
    "render": "render",
    "qa": "qa",
    "cosyvoice": "cosyvoice",
    "backends": "backends",
    "serve": "serve",
    "translate": "translate",
    "cast": "cast",
    "models": "models",
}


def _load_command(name: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dubstudio")
    sub = parser.add_subparsers(dest="command", required=True)
    module = importlib.import_module(f"app.commands.{COMMANDS[name]}")
    module.add_parser(sub)
    return parser


def _print_help() -> None:
    """Every subcommand with its one line (each module's own ``help``), not just their names:
    the modules are imported for it, which loads no model and no Qt."""
    parser = argparse.ArgumentParser(
        prog="dubstudio", usage="dubstudio [PROJECT_DIR] | dubstudio COMMAND [options] (dubstudio COMMAND --help)",
        description="With no command (or a project folder) the studio opens; a command runs headless.")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    for module in COMMANDS.values():
        importlib.import_module(f"app.commands.{module}").add_parser(sub)
    parser.print_help()


def _run(args: list[str]) -> int:
    parsed = _load_command(args[0]).parse_args(args)
    return int(parsed.func(parsed) or 0)


def main(argv: list[str] | None = None) -> int:
    multiprocessing.freeze_support()
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in COMMANDS:
        from app.commands.common import run_interruptible

        return run_interruptible(args[0], lambda: _run(args))
    # "dubstudio help" is the help too, unless a project folder is called that: it opened the
    # studio on a folder "help" (and on a machine without a screen, Qt aborted).
    if args and (args[0] in ("-h", "--help") or args == ["help"] and not os.path.exists("help")):
        _print_help()
        return 0
    from app.ui.main import run_studio

    return run_studio(args)


if __name__ == "__main__":
    sys.exit(main())

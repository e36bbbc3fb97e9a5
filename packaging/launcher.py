"""Entry script of the frozen build: the same `dubstudio` command as the installed one.

``app.cli.main`` calls ``multiprocessing.freeze_support()`` first, which is what lets the
engine's spawned child process start from the frozen executable.
"""

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())

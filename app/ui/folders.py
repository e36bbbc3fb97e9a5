"""Where the studio's file dialogs open: the last folder used for that kind of file, else the
open project's folder, else the studio's projects folder — never the program's own folder.

Each dialog names a *kind* ("clips", "scripts", "bench-reports", …) so that importing a clip
does not send the next script import into the clips' folder. The last folder of each kind is
kept in the settings (when the studio gives them), so it survives a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

from app.ui.settings.store import Settings

PROJECTS = "projects"
"""The kind of the project folder dialogs: they remember the folder that *holds* projects, so
the next New/Open starts beside the last project rather than inside it."""


class Folders:
    """Start folders for file dialogs, and the dialogs themselves (which remember the choice).

    ``project_dir`` returns the open project's folder (None without one); ``home`` is the last
    resort (the studio's projects folder, created lazily by whoever writes there). Without
    ``settings`` the folders are remembered for this session only (the standalone stress window,
    tests).
    """

    def __init__(self, settings: Settings | None = None,
                 project_dir: Callable[[], Path | None] = lambda: None,
                 home: Path | None = None) -> None:
        self._settings = settings
        self._project_dir = project_dir
        self._home = home or Path.home()
        self._session: dict[str, str] = {}

    # --- where to start ---------------------------------------------------------------------

    def _remembered(self) -> dict[str, str]:
        return self._settings.last_folders if self._settings is not None else self._session

    def start(self, kind: str) -> Path:
        """The folder a dialog of ``kind`` opens in: the last one used, if it still exists."""
        last = self._remembered().get(kind)
        if last and Path(last).is_dir():
            return Path(last)
        project = self._project_dir()
        if project is not None and project.is_dir():
            return project.parent if kind == PROJECTS else project
        return self._home if self._home.is_dir() else Path.home()

    def remember(self, kind: str, chosen: str | Path) -> None:
        """Remember the folder of a file (or a folder) the user chose in a dialog of ``kind``."""
        path = Path(chosen)
        folder = path if path.is_dir() else path.parent
        folders = dict(self._remembered())
        folders[kind] = str(folder)
        if self._settings is not None:
            self._settings.last_folders = folders
        else:
            self._session = folders

    # --- the dialogs ------------------------------------------------------------------------

    def open_file(self, parent: QWidget | None, kind: str, title: str, file_filter: str = "",
                  start: Path | None = None) -> str:
        """Ask for one existing file; "" when cancelled."""
        # ``start`` opens where the file surely is (subtitles beside their video), else where the last one was.
        path, _ = QFileDialog.getOpenFileName(parent, title, str(start or self.start(kind)), file_filter)
        if path:
            self.remember(kind, path)
        return path

    def open_files(self, parent: QWidget | None, kind: str, title: str, file_filter: str = "") -> list[str]:
        """Ask for existing files; [] when cancelled."""
        paths, _ = QFileDialog.getOpenFileNames(parent, title, str(self.start(kind)), file_filter)
        if paths:
            self.remember(kind, paths[0])
        return list(paths)

    def save_file(self, parent: QWidget | None, kind: str, title: str, name: str, file_filter: str = "") -> str:
        """Ask where to write a file called ``name`` by default; "" when cancelled."""
        path, _ = QFileDialog.getSaveFileName(parent, title, str(self.start(kind) / name), file_filter)
        if path:
            self.remember(kind, path)
        return path

    def folder(self, parent: QWidget | None, kind: str, title: str) -> str:
        """Ask for a folder; "" when cancelled."""
        path = QFileDialog.getExistingDirectory(parent, title, str(self.start(kind)))
        if path:
            self.remember(kind, Path(path).parent if kind == PROJECTS else path)
        return path

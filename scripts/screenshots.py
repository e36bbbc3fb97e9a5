"""Take the README's pictures from the real studio (run it under Xvfb: see scripts/screenshots).

It opens a fresh copy of the sample project in a real main window with the embedded engine
(Piper), renders its first lines, gives it a generated video (colour bars, the tests' own
media maker), and saves the window as PNGs: the script, the timeline with video (its tracks
given more room, the playhead inside a line so the preview shows its caption), the Characters
tab, the Stress tab after a short real run, and the settings dialog. ``--size WxH`` (repeatable)
chooses the window sizes; the first is the README's, the others get their size in the file name.
``--language zh_CN`` shows the studio in that language (the file names end in ``-zh_CN``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_SIZE = (1200, 760)  # the main window's own default size
ENGINE_TIMEOUT_S = 180.0


def _wait(app: object, predicate: object, timeout_s: float = ENGINE_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit(f"screenshots: gave up after {timeout_s:.0f} s")
        app.processEvents()  # type: ignore[attr-defined]
        time.sleep(0.02)


def _settle(app: object, seconds: float = 0.6) -> None:
    _wait(app, lambda end=time.monotonic() + seconds: time.monotonic() > end)


def _size(text: str) -> tuple[int, int]:
    width, height = text.lower().split("x")
    return int(width), int(height)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"), help="folder for the PNGs")
    parser.add_argument("--size", action="append", default=[], help="window size WxH (repeatable)")
    parser.add_argument("--render", type=int, default=4, help="how many lines to render first")
    parser.add_argument("--no-stress-run", action="store_true", help="show the Stress tab before any run")
    parser.add_argument("--language", default="en",
                        help="the interface's language (a code of app/ui/language.py's LANGUAGES, e.g. zh_CN); "
                             "pictures in another language than English get it in their names")
    parser.add_argument("--no-engine", action="store_true",
                        help="never start the engine (nothing rendered, no Stress run): the interface alone, for a "
                             "machine too loaded to start one")
    args = parser.parse_args(argv)
    sizes = [_size(text) for text in args.size] or [DEFAULT_SIZE]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QSplitter

    from app.project.media import attach_video
    from app.ui.language import install_translations
    from app.ui.playback.player import NullOutput
    from app.ui.settings.store import Settings
    from app.ui.tasks import SyncTaskRunner
    from app.ui.window.main_window import MainWindow
    from tests.app.project.media_fixtures import make_video

    app = QApplication.instance() or QApplication([sys.argv[0]])
    install_translations(app, args.language)  # as the studio does, before any widget is built
    language = "" if args.language == "en" else f"-{args.language}"
    work = Path(tempfile.mkdtemp(prefix="dubstudio-shots-"))
    settings = Settings(QSettings(str(work / "settings.ini"), QSettings.Format.IniFormat))
    from app.ui.engine.bridge import EngineBridge

    idle = {"bridge": EngineBridge()} if args.no_engine else {}  # a bridge that is never started
    window = MainWindow(settings, SyncTaskRunner(), NullOutput(), projects_dir=work / "projects", **idle)
    window.resize(*sizes[0])
    window.show()
    if not args.no_engine:
        _wait(app, lambda: window.bridge.is_ready)
    assert window.open_sample() and window.document is not None and window.renders is not None
    project = window.document.project
    video = make_video(work / "scene.mp4", seconds=max(12.0, (project.lines[-1].end or 10.0) + 1), size=(320, 180))
    project.video = attach_video(project, video)
    window.document.save()
    window.open_project(project.root)  # reopened, so the timeline shows the video
    ids = [line.id for line in window.document.project.lines[: 0 if args.no_engine else args.render]]
    if ids:
        window.session.render_lines(ids)
        _wait(app, lambda: not window.renders.is_running)
        _wait(app, lambda: window.qa is None or window.qa.pending == 0)  # the QA column with its verdicts
    assert window.script is not None and window.timeline is not None
    lines = window.document.project.lines
    window.script.select_line(lines[1].id if len(lines) > 1 else lines[0].id)

    def shoot(name: str, size: tuple[int, int]) -> None:
        window.resize(*size)
        _settle(app)
        suffix = ("" if size == sizes[0] else f"-{size[0]}x{size[1]}") + language
        path = out / f"{name}{suffix}.png"
        window.grab().save(str(path))
        print(f"screenshots: {path}")

    window.tabs.setCurrentIndex(window.tabs.count() - 1)  # the Stress tab, built on first show
    from app.ui.stress import StressPanel

    stress = window.tabs.currentWidget()
    assert isinstance(stress, StressPanel)
    if not (args.no_stress_run or args.no_engine):
        stress.controls.levels_edit.setText("1,2")
        stress.controls.hold_spin.setValue(4)
        assert stress.start()
        _wait(app, lambda: not stress.is_running(), timeout_s=600)

    second = window.document.project.lines[1]
    for size in sizes:
        window.tabs.setCurrentIndex(0)
        editor = window.tabs.currentWidget()
        assert isinstance(editor, QSplitter)
        editor.setSizes([size[1] * 62 // 100, size[1] * 38 // 100])
        shoot("main-window", size)
        editor.setSizes([size[1] * 52 // 100, size[1] * 48 // 100])  # the tracks more room, the takes box still whole
        window.timeline.seek((second.start or 0.0) + 1.0)  # inside line 2: its caption on the picture
        shoot("timeline", size)
        window.tabs.setCurrentIndex(1)
        shoot("characters", size)
        window.tabs.setCurrentIndex(window.tabs.count() - 1)
        shoot("stress-panel", size)
    # The settings dialog at its own size, on its General page (the language is chosen there).
    from app.ui.settings.dialog import SettingsDialog

    dialog = SettingsDialog(settings, SyncTaskRunner(), window)
    dialog.pages.setCurrentWidget(dialog.general)
    dialog.show()
    _settle(app)
    path = out / f"settings{language}.png"
    dialog.grab().save(str(path))
    print(f"screenshots: {path}")
    dialog.reject()
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

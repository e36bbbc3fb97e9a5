"""Qt fixtures for the studio's tests: offscreen, isolated settings, null audio, inline tasks, and
the studio's window on the sample project."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QSettings

from app.ui.playback.player import NullOutput
from app.ui.settings.store import Settings
from app.ui.tasks import SyncTaskRunner

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

    from app.ui.engine.bridge import EngineBridge
    from app.ui.window.main_window import MainWindow



@pytest.fixture(scope="session", autouse=True)
def english_plurals(qapp: QCoreApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The studio shows English with its plural forms' catalogue ("%n line(s)": "1 line", "2 lines";
    app/ui/language.py), built here from translations/dubstudio_en.ts as scripts/bootstrap builds it."""
    import subprocess
    import sys

    from PySide6.QtCore import QLocale, QTranslator

    from engine.core.paths import REPO_ROOT

    folder = tmp_path_factory.mktemp("translations")
    lrelease = str(Path(sys.executable).parent / "pyside6-lrelease")
    subprocess.run([lrelease, "-silent",
                    str(REPO_ROOT / "translations" / "dubstudio_en.ts"), "-qm", str(folder / "dubstudio_en.qm")],
                   check=True)
    translator = QTranslator()
    assert translator.load(QLocale(QLocale.Language.English), "dubstudio", "_", str(folder))
    QCoreApplication.installTranslator(translator)
    yield
    QCoreApplication.removeTranslator(translator)


@pytest.fixture
def chinese(qapp: object, tmp_path: Path) -> Iterator[None]:
    """The studio's zh_CN catalogue, compiled from translations/dubstudio_zh_CN.ts and installed for one test."""
    import subprocess
    import sys

    from PySide6.QtCore import QLocale, QTranslator

    from engine.core.paths import REPO_ROOT

    lrelease = str(Path(sys.executable).parent / "pyside6-lrelease")
    subprocess.run([lrelease, "-silent", str(REPO_ROOT / "translations" / "dubstudio_zh_CN.ts"),
                    "-qm", str(tmp_path / "dubstudio_zh_CN.qm")], check=True)
    translator = QTranslator()
    assert translator.load(QLocale("zh_CN"), "dubstudio", "_", str(tmp_path))
    QCoreApplication.installTranslator(translator)
    yield
    QCoreApplication.removeTranslator(translator)


@pytest.fixture
def settings(tmp_path: Path, qapp: object) -> Settings:
    """Settings in a throwaway INI file, so tests never touch the user's configuration."""
    return Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def null_output() -> NullOutput:
    return NullOutput()


@pytest.fixture
def sync_runner() -> SyncTaskRunner:
    return SyncTaskRunner()


def wait_until(predicate: Callable[[], bool], timeout_s: float = 120.0) -> None:
    """Spin the Qt event loop until ``predicate()`` holds (for fixtures, where qtbot is absent)."""
    import time

    from PySide6.QtCore import QCoreApplication

    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"condition not met within {timeout_s:.0f} s")
        QCoreApplication.processEvents()
        time.sleep(0.01)


@pytest.fixture(scope="module")
def engine_bridge(qapp: object, tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineBridge]:
    """One real embedded engine (Piper) per test module, with a private voice cache."""
    from app.ui.engine.bridge import EngineBridge
    from engine.synthesis.config import EngineConfig

    bridge = EngineBridge(EngineConfig(slots=1, cache_dir=str(tmp_path_factory.mktemp("voice-cache"))))
    bridge.start()
    try:
        wait_until(lambda: bridge.is_ready)
        yield bridge
    finally:
        bridge.stop()


# The offscreen platform cannot size native windows and says so on every show(); that is
# about the platform plugin, not our code, so only this exact message is let through.
OFFSCREEN_NOISE = r"^This plugin does not support propagateSizeHints\(\)$"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


DEFAULT_SIZE = (1200, 760)  # the studio's window at first start


def make_window(qtbot: QtBot, settings: Settings, tmp_path: Path, bridge: EngineBridge) -> MainWindow:
    """The studio's main window over ``bridge``, its projects folder in ``tmp_path``."""
    from app.ui.window.main_window import MainWindow

    win = MainWindow(settings, SyncTaskRunner(), NullOutput(), bridge=bridge, projects_dir=tmp_path / "projects")
    qtbot.addWidget(win)
    return win


@pytest.fixture
def idle_window(qtbot: QtBot, settings: Settings, tmp_path: Path) -> Iterator[MainWindow]:
    """The studio on the sample project with an engine that never starts (nothing renders)."""
    from app.ui.engine.bridge import EngineBridge

    win = make_window(qtbot, settings, tmp_path, EngineBridge())
    assert win.open_sample()
    win.resize(*DEFAULT_SIZE)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()

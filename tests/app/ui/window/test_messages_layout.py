"""Opening the Messages list at the default 1200×760 window never pushes a timeline track out of
view: Messages take their height from the script, whose takes box scrolls (issue 34; before, a
project with the original audio and three characters lost its third character's track)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QScrollArea
from pytestqt.qtbot import QtBot

from app.project import Line
from app.project.clips import import_clip
from app.ui.settings.store import Settings
from app.ui.window.main_window import MainWindow
from tests.app.project.conftest import VOICES
from tests.app.ui.conftest import DEFAULT_SIZE
from tests.app.ui.timeline.fixtures import make_dub_project


@pytest.fixture(params=[0, 2], ids=["three characters", "five characters"])
def dub_window(request: pytest.FixtureRequest, qtbot: QtBot, settings: Settings, tmp_path: Path) -> Iterator[MainWindow]:
    """The studio at its default size on a project with the original audio and three characters
    (or five: six tracks, as many as the timeline keeps in view before its tracks scroll)."""
    from app.ui.engine.bridge import EngineBridge
    from app.ui.playback.player import NullOutput
    from app.ui.tasks import SyncTaskRunner

    project = make_dub_project(tmp_path / "scene", lines=8)
    for name, clip in (("Ava", "maya"), ("Ben", "rex"))[: request.param]:
        char = project.make_character(name, clip=import_clip(project, VOICES / f"{clip}.wav"))
        project.characters.append(char)
        project.lines.append(Line(id=f"x{name}", text="One more line.", character_id=char.id, start=11.0, end=11.8))
    project.save()
    window = MainWindow(settings, SyncTaskRunner(), NullOutput(), bridge=EngineBridge(), projects_dir=tmp_path / "projects")
    qtbot.addWidget(window)
    assert window.open_project(project.root)
    window.resize(*DEFAULT_SIZE)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()


def _open_messages(qtbot: QtBot, window: MainWindow) -> None:
    for n in range(4):
        window.messages.warn(f"E_IMPORT_FORMAT: lines.srt, line {n}: malformed timecode line")
    window.messages.badge.click()
    qtbot.waitUntil(lambda: window.messages.dock.isVisible() and window.messages.dock.height() > 100)


def _assert_every_track_in_view(window: MainWindow) -> None:
    assert window.timeline is not None
    canvas = window.timeline.canvas
    assert canvas.max_top() == 0 and not window.timeline.vbar.isVisible()
    last = len(canvas.tracks) - 1
    assert canvas.track_top(last) + canvas.track_height(last) <= canvas.height()


def test_opening_messages_keeps_every_track_of_the_timeline_in_view(qtbot: QtBot, dub_window: MainWindow) -> None:
    window = dub_window
    assert window.timeline is not None and window.script is not None
    assert [track.label for track in window.timeline.canvas.tracks][:4] == ["Original audio", "Maya", "Rex", "Narrator"]
    _assert_every_track_in_view(window)
    takes = window.script.findChild(QScrollArea, "takesScroll")
    assert takes is not None and not takes.verticalScrollBar().isVisible()  # whole while there is room
    _open_messages(qtbot, window)
    _assert_every_track_in_view(window)
    assert window.size().height() == DEFAULT_SIZE[1]  # the window did not grow past its size
    table = window.script.table
    assert table.viewport().height() >= 3 * table.rowHeight(0)  # the script keeps rows to work in
    window.messages.badge.click()  # closed again: the tracks get their room back
    qtbot.waitUntil(lambda: not window.messages.dock.isVisible())
    _assert_every_track_in_view(window)

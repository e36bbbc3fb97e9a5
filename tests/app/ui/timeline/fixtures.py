"""A dubbing project for the timeline's tests and benchmark: a video, a guide, timed lines, takes.

Everything is generated in the folder given (PyAV colour bars with a tone, speech-shaped takes);
nothing is committed media.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from app.project import Line, Project
from app.project.clips import import_clip
from app.project.media import attach_video, extract_guide
from tests.app.project.conftest import VOICES, add_fake_take
from tests.app.project.media_fixtures import make_video, speech_like

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

    from app.ui.playback.player import NullOutput
    from app.ui.timeline.panel import TimelinePanel

CHARACTERS = ("maya", "rex", "narrator")
OVERRUN_EVERY = 5  # every fifth line's take runs 30 % past its slot, so overruns are on screen


def make_dub_project(
    root: Path,
    *,
    lines: int = 6,
    seconds: float = 12.0,
    video: bool = True,
    guide: bool = True,
    size: tuple[int, int] = (320, 180),
) -> Project:
    """``lines`` timed lines spread over ``seconds``, three characters, a take for each line."""
    project = Project.create(root, "Timeline scene")
    for key in CHARACTERS:
        char = project.make_character(key.title(), clip=import_clip(project, VOICES / f"{key}.wav"))
        char.id = key
        project.characters.append(char)
    step = seconds / lines
    project.lines = [
        Line(id=f"l{n}", text=f"Line number {n} says something.", character_id=CHARACTERS[n % len(CHARACTERS)],
             start=round(n * step, 3), end=round(n * step + 0.8 * step, 3))
        for n in range(lines)
    ]
    for n, line in enumerate(project.lines):
        length = 0.8 * step * (1.3 if n % OVERRUN_EVERY == OVERRUN_EVERY - 1 else 0.85)
        add_fake_take(project, line, speech_like(length, seed=n))
    if video:
        source = make_video(root.parent / f"{root.name}-source.mp4", seconds=seconds, size=size)
        project.video = attach_video(project, source)
        if guide:
            project.guide_audio = extract_guide(project)
    project.save()
    return project


@contextlib.contextmanager
def shown_panel(qtbot: QtBot, project: Project, output: NullOutput) -> Iterator[TimelinePanel]:
    """The timeline panel on ``project``, shown at its tests' size (1100 x 320), closed after."""
    from app.ui.playback.player import Player
    from app.ui.tasks import SyncTaskRunner
    from app.ui.timeline.panel import TimelinePanel
    from app.ui.window.document import Document

    panel = TimelinePanel(Document(project), Player(output), SyncTaskRunner())
    qtbot.addWidget(panel)
    panel.resize(1100, 320)
    panel.show()
    qtbot.waitExposed(panel)
    yield panel
    panel.close_panel()

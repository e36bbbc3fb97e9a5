"""Quiet takes' waveforms are drawn peak-normalised on the timeline, and their real level is said on
the clip and in its tooltip (issue 34: a quiet clip showed an almost flat waveform)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from app.project import Line, Project
from app.project.clips import import_clip
from app.ui.playback.player import NullOutput, Player
from app.ui.tasks import SyncTaskRunner
from app.ui.timeline.canvas import TimelineCanvas, clip_tooltip
from app.ui.timeline.drawing import LabelRole
from app.ui.timeline.panel import TimelinePanel
from app.ui.waveform_gain import FILL, display_gain, needs_level_tag, peak_dbfs
from app.ui.window.document import Document
from tests.app.project.conftest import VOICES, add_fake_take
from tests.app.project.media_fixtures import speech_like
from tests.app.ui.paths import ARTIFACTS

QUIET, LOUD = 0.1, 4.0  # times speech_like's level (a peak of about 0.2): about -34 and -1.5 dBFS


@pytest.fixture
def panel(qtbot: QtBot, tmp_path: Path, null_output: NullOutput) -> Iterator[TimelinePanel]:
    """Maya's line has a quiet take, Rex's a loud one, each 2 s in a 2.5 s slot."""
    project = Project.create(tmp_path / "levels", "Levels")
    for key in ("maya", "rex"):
        char = project.make_character(key.title(), clip=import_clip(project, VOICES / f"{key}.wav"))
        char.id = key
        project.characters.append(char)
    project.lines = [Line(id="quiet", text="A whisper.", character_id="maya", start=0.5, end=3.0),
                     Line(id="loud", text="A shout.", character_id="rex", start=3.5, end=6.0)]
    add_fake_take(project, project.lines[0], speech_like(2.0, seed=1) * QUIET)
    add_fake_take(project, project.lines[1], speech_like(2.0, seed=2) * LOUD)
    project.save()
    widget = TimelinePanel(Document(project), Player(null_output), SyncTaskRunner())
    qtbot.addWidget(widget)
    widget.resize(1100, 320)
    widget.show()
    qtbot.waitExposed(widget)
    qtbot.waitUntil(lambda: len(widget.canvas.audio) == 2)
    yield widget
    widget.close_panel()


def _wave_extent(canvas: TimelineCanvas, line_id: str) -> float:
    """How much of its clip's waveform band the drawn waveform spans, top to bottom (0…1)."""
    clip = canvas.clip(line_id)
    assert clip is not None
    image: QImage = canvas.grab().toImage()
    ratio = image.devicePixelRatio()
    rect = canvas.clip_rect(line_id)
    band = QRectF(rect.left(), rect.top() + 13, rect.width(), rect.height() - 15)  # where drawing.py draws it
    wave = QColor(canvas.tracks[clip.track].colour).darker(140).rgb()
    rows = [y for y in range(int(band.top()), int(band.bottom()))
            if any(image.pixel(int(x * ratio), int(y * ratio)) == wave
                   for x in range(int(band.left()) + 4, int(band.right()) - 4, 2))]
    return (max(rows) - min(rows) + 1) / band.height() if rows else 0.0


def test_a_quiet_take_is_drawn_as_large_as_a_loud_one_and_says_its_level(panel: TimelinePanel) -> None:
    canvas = panel.canvas
    ARTIFACTS.mkdir(exist_ok=True)
    panel.grab().save(str(ARTIFACTS / "timeline-quiet-take.png"))
    quiet, loud = (canvas.audio[clip.take] for clip in canvas.clips if clip.take is not None)
    assert peak_dbfs(quiet.peak) == pytest.approx(-34, abs=2) and peak_dbfs(loud.peak) > -3
    assert quiet.display_gain == pytest.approx(FILL / quiet.peak)  # peak-normalised, not capped at 8×
    # As drawn: both waveforms span most of their band (the quiet one was a sixth of it at 8×).
    assert _wave_extent(canvas, "quiet") >= 0.8 and _wave_extent(canvas, "loud") >= 0.8
    # The real level is said where the drawing is enlarged, and only there.
    levels = {label.line_id: label.text for label in canvas.labels() if label.role is LabelRole.LEVEL}
    assert levels == {"quiet": f"peak {peak_dbfs(quiet.peak):.0f} dB"}
    assert needs_level_tag(quiet.peak) and not needs_level_tag(loud.peak)
    quiet_clip = canvas.clip("quiet")
    assert quiet_clip is not None
    tip = clip_tooltip(quiet_clip, quiet)
    assert f"peak {peak_dbfs(quiet.peak):.1f} dBFS (its waveform is drawn {quiet.display_gain:.0f}× larger)" in tip


def test_the_display_gain_normalises_peaks_and_leaves_silence_flat() -> None:
    assert display_gain(0.5) == pytest.approx(FILL / 0.5)
    assert display_gain(0.01) == pytest.approx(95.0)  # -40 dBFS: drawn 95× (it was 8×)
    assert display_gain(0.0) == 1.0 and display_gain(float("nan")) == 1.0
    assert display_gain(1e-6) == 1000.0  # below -60 dBFS: noise, not blown up to full height
    assert peak_dbfs(1.0) == 0.0 and peak_dbfs(0.0) == -np.inf

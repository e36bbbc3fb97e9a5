"""The timeline's clip labels at the default window: words over the clip's rows, not "3 · The ha…"
(issue 34), and overrun labels that never cover other words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontMetrics
from pytestqt.qtbot import QtBot

from app.project import Line, Project
from app.project.clips import import_clip
from app.ui.playback.player import NullOutput
from app.ui.timeline.canvas import clip_tooltip
from app.ui.timeline.drawing import HEADER_W, Label, LabelRole, wrapped_label
from app.ui.timeline.panel import TimelinePanel
from tests.app.project.conftest import VOICES, add_fake_take
from tests.app.project.media_fixtures import speech_like
from tests.app.ui.paths import ARTIFACTS
from tests.app.ui.timeline.fixtures import shown_panel


def test_a_label_wraps_over_the_rows_a_clip_holds_and_only_the_last_is_elided(qapp: object) -> None:
    metrics = QFontMetrics(QFont())
    label = "4 · The harbour master never had to pay our debts, not once in all those years."
    width = metrics.horizontalAdvance("master never had to")
    rows = wrapped_label(metrics, label, width, 3)
    assert len(rows) == 3 and all(metrics.horizontalAdvance(row) <= width for row in rows)
    assert rows[0] == "4 · The harbour" and rows[1] == "master never had to"  # whole words, nothing lost
    assert rows[2].endswith("…") and rows[2].startswith("pay our")  # the rest, elided on the last row
    assert wrapped_label(metrics, "5 · Short.", width, 3) == ["5 · Short."]
    assert " ".join(wrapped_label(metrics, label, width * 4, 3)) == label


# --- overrun labels on a crowded timeline ------------------------------------------------------


@pytest.fixture
def crowded(qtbot: QtBot, tmp_path: Path, null_output: NullOutput) -> Iterator[TimelinePanel]:
    """Two characters, 16 short lines a little apart, every take 60 % longer than its slot: each
    overrun's hatch and "+0.48 s" reach over the next clips of its track at the default zoom."""
    project = Project.create(tmp_path / "crowded", "Crowded")
    for key in ("maya", "rex"):
        char = project.make_character(key.title(), clip=import_clip(project, VOICES / f"{key}.wav"))
        char.id = key
        project.characters.append(char)
    project.lines = [Line(id=f"l{n}", text=f"Quick line {n} here.", character_id=("maya", "rex")[n // 2 % 2],
                          start=round(n * 0.9, 3), end=round(n * 0.9 + 0.8, 3)) for n in range(16)]
    for n, line in enumerate(project.lines):
        add_fake_take(project, line, speech_like(0.8 * (1.6 + 0.02 * (n % 3)), seed=n))
    project.save()
    with shown_panel(qtbot, project, null_output) as panel:
        yield panel


def _assert_no_label_covers_another(labels: list[Label]) -> None:
    for n, first in enumerate(labels):
        for second in labels[n + 1:]:
            assert not first.rect.intersects(second.rect), (first, second)


def test_an_overrun_label_writes_its_unit_in_the_studios_language(chinese: None, crowded: TimelinePanel) -> None:
    """The Chinese studio drew "+0.48 s" on the timeline, where every other time says 秒."""
    crowded.canvas.zoom(2.5, 0.0)  # room for the label in full
    said = [label.text for label in crowded.canvas.labels() if label.role is LabelRole.OVERRUN]
    assert said and all(text.startswith("+") and not text.endswith(" s") for text in said), said
    assert any(text.endswith(" 秒") for text in said), said


def test_overrun_labels_never_cover_each_other_or_the_clips_words(crowded: TimelinePanel) -> None:
    canvas = crowded.canvas
    overruns = [clip for clip in canvas.clips if clip.slot.overrun_s > 0]
    assert len(overruns) == 16  # every take runs past its slot
    labels = canvas.labels()
    ARTIFACTS.mkdir(exist_ok=True)
    crowded.grab().save(str(ARTIFACTS / "timeline-crowded-overruns.png"))
    assert sum(label.role is LabelRole.TEXT for label in labels) >= 16  # every clip still shows its order
    _assert_no_label_covers_another(labels)
    for label in (label for label in labels if label.role is LabelRole.OVERRUN):
        clip = canvas.clip(label.line_id)
        assert clip is not None and label.text.startswith(f"+{clip.slot.overrun_s:.2f}")
        for other in canvas.clips:  # never over another clip of its track: whose would it be?
            if other.track == clip.track and other is not clip:
                assert not label.rect.intersects(canvas.clip_rect(other.line_id))
    # Zoomed in, there is room: every overrun in view says by how much, still without overlaps.
    canvas.zoom(2.5, 0.0)
    labels = canvas.labels()
    _assert_no_label_covers_another(labels)
    in_view = {clip.line_id for clip, rect in canvas._drawing.visible_clips()
               if rect.right() < canvas.width() - 60 and rect.left() > HEADER_W}
    assert len(in_view) >= 4
    told = {label.line_id for label in labels if label.role is LabelRole.OVERRUN}
    assert in_view <= told
    # A label that fits nowhere is still in the clip's tooltip.
    assert "runs 0.48 s past its slot" in clip_tooltip(overruns[0])

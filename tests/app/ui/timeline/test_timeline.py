"""The timeline panel offscreen: clips where their timecodes say, drags, undo, selection, transport."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from pytestqt.qtbot import QtBot

from app.project import Project
from app.project.timeline import build_timeline
from app.ui.playback.player import NullOutput
from app.ui.timeline.canvas import HEADER_W, RULER_H
from app.ui.timeline.panel import TimelinePanel
from app.ui.timeline.programme import PREVIEW_RATE
from tests.app.ui.paths import ARTIFACTS
from tests.app.ui.timeline.fixtures import shown_panel

FPS = 25


@pytest.fixture
def project(project_dir: Path) -> Project:
    return Project.load(project_dir)


@pytest.fixture
def panel(qtbot: QtBot, project: Project, null_output: NullOutput) -> Iterator[TimelinePanel]:
    with shown_panel(qtbot, project, null_output) as widget:
        yield widget


def _centre(panel: TimelinePanel, line_id: str) -> QPoint:
    return panel.canvas.clip_rect(line_id).center().toPoint()


def test_clips_sit_at_the_x_of_their_timecodes_on_their_characters_track(panel: TimelinePanel) -> None:
    canvas = panel.canvas
    project = panel._doc.project
    assert [t.label for t in canvas.tracks] == ["Original audio", "Maya", "Rex", "Narrator"]
    for scale_change in (lambda: None, lambda: canvas.zoom(3.0, 100.0), lambda: canvas.set_left(2.5)):
        scale_change()
        px = canvas.scale.px_per_s
        for line in project.lines:
            rect = canvas.clip_rect(line.id)
            assert rect.left() == pytest.approx(HEADER_W + (line.start - canvas.scale.left_s) * px, abs=0.01)
            assert rect.width() == pytest.approx((line.end - line.start) * px, abs=0.01)
            track = next(n for n, t in enumerate(canvas.tracks) if t.key == line.character_id)
            assert canvas.track_top(track) <= rect.top() < rect.bottom() <= canvas.track_top(track) + canvas.track_height(track)
    # Every take is loaded and drawn; the fifth line's take overruns its slot, and says by how much.
    assert all(clip.take is not None and clip.take in canvas._audio for clip in canvas.clips)
    overrun = canvas.clip("l4")
    assert overrun is not None and overrun.slot.overrun_s > 0.3
    assert "1 overrun" in panel.fit_label.text()


def test_a_drag_moves_a_line_and_undo_restores_it(qtbot: QtBot, panel: TimelinePanel) -> None:
    canvas, project = panel.canvas, panel._doc.project
    line = project.line("l1")
    start, end = line.start, line.end
    assert start is not None and end is not None
    canvas.snapping = False
    press = _centre(panel, "l1")
    step = int(round(0.5 * canvas.scale.px_per_s))
    qtbot.mousePress(canvas, Qt.MouseButton.LeftButton, pos=press)
    qtbot.mouseMove(canvas, press + QPoint(step // 2, 0))
    qtbot.mouseMove(canvas, press + QPoint(step, 0))
    qtbot.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=press + QPoint(step, 0))
    moved = step / canvas.scale.px_per_s
    assert line.start == pytest.approx(start + moved, abs=0.002)
    assert line.end == pytest.approx(end + moved, abs=0.002)
    assert canvas.clip_rect("l1").left() == pytest.approx(canvas.x_of(line.start), abs=0.01)
    assert panel._doc.stack.undo_text == "Move line"
    panel._doc.undo()
    assert (line.start, line.end) == (start, end)
    assert canvas.clip_rect("l1").left() == pytest.approx(canvas.x_of(start), abs=0.01)
    panel._doc.redo()
    assert line.start == pytest.approx(start + moved, abs=0.002)


def test_a_drag_snaps_to_the_next_line_and_an_edge_drag_changes_the_slot(qtbot: QtBot, panel: TimelinePanel) -> None:
    canvas, project = panel.canvas, panel._doc.project
    l1, l2 = project.line("l1"), project.line("l2")
    assert l1.end is not None and l2.start is not None
    # Drag line 1's end edge to within a few pixels of line 2's start: it lands exactly there.
    edge = canvas.clip_rect("l1")
    press = QPoint(int(edge.right()) - 2, int(edge.center().y()))
    target_x = int(canvas.x_of(l2.start)) - 3
    qtbot.mousePress(canvas, Qt.MouseButton.LeftButton, pos=press)
    qtbot.mouseMove(canvas, QPoint(target_x - 20, press.y()))
    qtbot.mouseMove(canvas, QPoint(target_x, press.y()))
    qtbot.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=QPoint(target_x, press.y()))
    assert l1.end == pytest.approx(l2.start, abs=1e-6)
    assert panel._doc.stack.undo_text == "Change slot end"
    # Drag line 4 (Maya, 6.0 s) far past line 5: it is reordered in the script, and undo puts it back.
    order = [line.id for line in project.lines]
    press = _centre(panel, "l3")
    distance = int(round(3.3 * canvas.scale.px_per_s))
    qtbot.mousePress(canvas, Qt.MouseButton.LeftButton, pos=press)
    qtbot.mouseMove(canvas, press + QPoint(distance // 2, 0))
    qtbot.mouseMove(canvas, press + QPoint(distance, 0), )
    qtbot.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=press + QPoint(distance, 0))
    new_order = [line.id for line in project.lines]
    assert new_order != order and new_order.index("l3") > new_order.index("l4")
    starts = [line.start for line in project.lines]
    assert starts == sorted(starts)  # type: ignore[type-var]
    panel._doc.undo()
    assert [line.id for line in project.lines] == order


def test_keyboard_transport_plays_the_dub_with_the_picture_in_step(
    qtbot: QtBot, panel: TimelinePanel, null_output: NullOutput
) -> None:
    canvas, transport = panel.canvas, panel.transport
    canvas.setFocus()
    qtbot.keyClick(canvas, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)  # Space alone plays the line
    assert transport.playing and transport.speed == 1.0
    # Play 2 s as a sound card would, in 20 ms blocks, the display timer running between them.
    block = PREVIEW_RATE // 50
    for _ in range(100):
        null_output.pull(block)
        panel._on_display()
    assert transport.position == pytest.approx(2.0, abs=0.06)
    heard = np.abs(np.concatenate(null_output.played))
    take_s = panel._doc.project.duration(panel._doc.project.line("l1"))  # line 1: 0.0 s to its take's end
    assert take_s is not None and 1.0 < take_s < 1.5
    guide_only = heard[int((take_s + 0.05) * PREVIEW_RATE) : int(1.95 * PREVIEW_RATE)]
    assert 0.02 < guide_only.max() < 0.08  # the guide's tone (0.2) at -12 dB, and nothing else
    assert heard[int(0.1 * PREVIEW_RATE) : int(take_s * PREVIEW_RATE)].max() > 2 * guide_only.max()  # the dub
    qtbot.waitUntil(lambda: panel.preview.frame_time is not None and abs(panel.preview.frame_time - 2.0) <= 1.5 / FPS)
    assert canvas.playhead == pytest.approx(transport.position, abs=0.05)

    qtbot.keyClick(canvas, Qt.Key.Key_K)
    paused = transport.position
    assert not transport.playing and paused == pytest.approx(2.0, abs=0.06)
    qtbot.keyClick(canvas, Qt.Key.Key_L)
    qtbot.keyClick(canvas, Qt.Key.Key_L)
    assert transport.speed == 2.0
    qtbot.keyClick(canvas, Qt.Key.Key_J)
    assert transport.speed == -1.0
    qtbot.keyClick(canvas, Qt.Key.Key_J)
    assert transport.speed == -2.0
    qtbot.keyClick(canvas, Qt.Key.Key_K)
    qtbot.keyClick(canvas, Qt.Key.Key_End)
    assert transport.position == pytest.approx(transport.end_s)
    qtbot.keyClick(canvas, Qt.Key.Key_Home)
    assert transport.position == 0.0
    qtbot.waitUntil(lambda: panel.preview.frame_time == 0.0)
    qtbot.keyClick(canvas, Qt.Key.Key_Right)
    qtbot.keyClick(canvas, Qt.Key.Key_Right)
    assert transport.position == pytest.approx(2 / FPS, abs=1e-3)
    qtbot.waitUntil(lambda: panel.preview.frame_time == pytest.approx(2 / FPS))
    # Playing to the end stops there by itself.
    transport.seek(transport.end_s - 0.1)
    qtbot.keyClick(canvas, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)  # Space alone plays the line
    for _ in range(20):
        null_output.pull(block)
        panel._on_display()
    qtbot.waitUntil(lambda: not transport.playing)  # the player notices the end on its own tick
    assert transport.position == pytest.approx(transport.end_s, abs=0.03)


def test_seeking_backwards_shows_the_earlier_frame(qtbot: QtBot, panel: TimelinePanel) -> None:
    for seconds in (8.0, 0.5, 11.96, 3.0):
        panel.seek(seconds)
        qtbot.waitUntil(lambda s=seconds: panel.preview.frame_time is not None and abs(panel.preview.frame_time - s) < 1 / FPS)
    assert panel.preview._image is not None and panel.preview._image.width() > 100


def test_clicks_select_seek_and_zoom(qtbot: QtBot, panel: TimelinePanel) -> None:
    canvas = panel.canvas
    picked: list[list[str]] = []
    panel.selection_changed.connect(picked.append)
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=_centre(panel, "l2"))
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, _centre(panel, "l4"))
    assert picked[-1] == ["l2", "l4"] and canvas.selected == ["l2", "l4"]
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, _centre(panel, "l5"))
    assert canvas.selected == ["l2", "l3", "l4", "l5"]
    ruler = QPoint(int(canvas.x_of(7.0)), RULER_H // 2)
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=ruler)
    assert panel.transport.position == pytest.approx(7.0, abs=1 / canvas.scale.px_per_s)
    px = canvas.scale.px_per_s
    canvas.setFocus()
    qtbot.keyClick(canvas, Qt.Key.Key_Plus)
    assert canvas.scale.px_per_s > px
    qtbot.keyClick(canvas, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert canvas.scale.px_per_s == pytest.approx(px)
    assert canvas.hit(QPointF(HEADER_W - 5, RULER_H + 10)) is None


def test_render_changes_and_edits_redraw_the_clips(panel: TimelinePanel) -> None:
    project = panel._doc.project
    renders = panel.canvas.renders
    line = project.line("l2")
    panel._doc.notify_render(frozenset({line.id}))  # e.g. a new take, or a status change
    assert panel.canvas.renders == renders  # drawn lazily, on the next paint
    panel.canvas.repaint()
    assert panel.canvas.renders == renders + 1
    slots = {s.line_id: s for s in build_timeline(project)}
    assert panel.canvas.clip("l2").slot == slots["l2"]  # type: ignore[union-attr]


def test_timeline_screenshot(qtbot: QtBot, panel: TimelinePanel) -> None:
    panel.canvas.set_selection(["l3"])
    panel.seek(4.4)
    qtbot.waitUntil(lambda: panel.preview.frame_time is not None and abs(panel.preview.frame_time - 4.4) < 1 / FPS)
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "timeline.png"
    assert panel.grab().save(str(shot))
    assert shot.stat().st_size > 10_000


def test_escape_drops_a_drag_in_progress(qtbot: QtBot, panel: TimelinePanel) -> None:
    canvas, line = panel.canvas, panel._doc.project.line("l2")
    before = (line.start, line.end)
    press = _centre(panel, "l2")
    qtbot.mousePress(canvas, Qt.MouseButton.LeftButton, pos=press)
    qtbot.mouseMove(canvas, press + QPoint(40, 0))
    qtbot.keyClick(canvas, Qt.Key.Key_Escape)
    qtbot.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=press + QPoint(40, 0))
    assert (line.start, line.end) == before and not panel._doc.stack.can_undo


def test_the_preview_shows_a_sideways_stored_picture_as_players_turn_it(qtbot: QtBot, tmp_path: Path) -> None:
    """A phone's portrait video (stored 160x96, display rotation 90) was previewed lying on its
    side. The white square in the stored picture's top-left corner shows at the bottom left."""
    import av
    from PySide6.QtCore import QSize

    from app.ui.timeline.video import _to_image
    from tests.app.project.media_fixtures import make_video

    video = make_video(tmp_path / "phone.mp4", seconds=0.2, rotation=90)
    with av.open(str(video)) as container:
        image = _to_image(next(container.decode(video=0)), QSize(400, 400))
    assert (image.width(), image.height()) == (240, 400)  # portrait, fitted to the height
    square = image.pixelColor(40, 380)
    assert min(square.red(), square.green(), square.blue()) > 200

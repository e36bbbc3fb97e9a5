"""The timeline's Qt-free parts: time scale, ticks, snapping, drag edits, and the programme."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.project import CommandStack, Line
from app.project.timeline import build_timeline
from app.ui.timeline.edits import (
    MIN_SLOT_S,
    Retime,
    move,
    resize_end,
    resize_start,
    retime_command,
)
from app.ui.timeline.programme import (
    PEAKS_PER_S,
    PREVIEW_RATE,
    AudioLibrary,
    Placement,
    Programme,
    chosen_takes,
    envelope,
    load_audio,
    load_many,
    placements,
)
from app.ui.timeline.scale import (
    MAX_PX_PER_S,
    MIN_PX_PER_S,
    TimeScale,
    format_ruler,
    snap_delta,
    tick_steps,
    tick_times,
)
from tests.app.project.conftest import add_fake_take, make_project, tone

# --- scale and snapping --------------------------------------------------------------------------


def test_zoom_keeps_the_time_under_the_anchor_and_stays_in_bounds() -> None:
    scale = TimeScale(px_per_s=40.0, left_s=10.0)
    anchor = 300.0
    before = scale.time_of(anchor)
    scale.zoom(2.0, anchor)
    assert scale.px_per_s == 80.0 and scale.time_of(anchor) == pytest.approx(before)
    for _ in range(100):
        scale.zoom(2.0, anchor)
    assert scale.px_per_s == MAX_PX_PER_S
    for _ in range(100):
        scale.zoom(0.5, anchor)
    assert scale.px_per_s == MIN_PX_PER_S and scale.left_s == 0.0  # never scrolls before 0:00
    scale.fit(120.0, 960.0)
    assert scale.px_per_s == 8.0 and scale.x_of(120.0) == 960.0


def test_ruler_ticks_leave_room_for_labels_at_every_zoom() -> None:
    for px_per_s in (MIN_PX_PER_S, 5.0, 40.0, 333.0, MAX_PX_PER_S):
        major, minor = tick_steps(px_per_s)
        assert minor <= major
        assert major * px_per_s >= 90 or major == 600.0
    assert tick_times(0.95, 3.1, 1.0) == [1.0, 2.0, 3.0]
    assert tick_times(0.0, 0.3, 0.1) == [0.0, 0.1, 0.2, 0.3]  # rounded: no 0.30000000000000004 labels
    assert format_ruler(65.0, 5.0) == "1:05" and format_ruler(65.2, 0.2) == "1:05.2" and format_ruler(3.04, 0.04) == "0:03.04"


def test_snapping_picks_the_closest_edge_within_reach() -> None:
    # A clip 2.0-3.0 dragged by +0.95 s: its end (3.95) is 0.05 from a target at 4.0.
    snapped = snap_delta([2.0, 3.0], 0.95, [4.0, 10.0], tolerance_s=0.1)
    assert snapped.delta_s == pytest.approx(1.0) and snapped.target_s == 4.0
    # The start is closer to 3.0 than the end is to 4.0: the start wins.
    snapped = snap_delta([2.0, 3.0], 0.98, [3.0, 4.1], tolerance_s=0.2)
    assert snapped.delta_s == pytest.approx(1.0) and snapped.target_s == 3.0
    assert snap_delta([2.0], 0.5, [4.0], tolerance_s=0.1) == snap_delta([2.0], 0.5, [], 0.1)
    assert snap_delta([2.0], 0.5, [4.0], tolerance_s=0.1).target_s is None


# --- drag edits ----------------------------------------------------------------------------------


def test_moving_a_line_shifts_both_timecodes_and_undo_restores_them(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    stack = CommandStack(project)
    slot = build_timeline(project)[1]  # l2: 4.0-6.5
    command = retime_command(project, move(project, [slot], 0.5), "Move line")
    assert command is not None and command.text == "Move line"
    stack.push(command)
    assert (project.line("l2").start, project.line("l2").end) == (4.5, 7.0)
    stack.undo()
    assert (project.line("l2").start, project.line("l2").end) == (4.0, 6.5)
    assert retime_command(project, move(project, [slot], 0.0), "Move line") is None  # nothing changed


def test_a_group_move_never_goes_before_zero_and_keeps_its_spacing(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    slots = build_timeline(project)[:2]  # 0.5 and 4.0
    retimes = move(project, slots, -3.0)
    assert [r.start for r in retimes] == [0.0, 3.5]
    assert [r.end for r in retimes] == [3.0, 6.0]


def test_a_line_moved_past_another_moves_in_the_script_too(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    stack = CommandStack(project)
    before = [line.id for line in project.lines]
    slot = build_timeline(project)[0]  # l1 at 0.5 moves to 12.5: after l5 (12.0), before l6 (14.5)
    command = retime_command(project, move(project, [slot], 12.0), "Move line")
    assert command is not None
    stack.push(command)
    order = [line.id for line in project.lines]
    assert order.index("l1") == order.index("l5") + 1 and order.index("l6") == order.index("l1") + 1
    assert (project.line("l1").start, project.line("l1").end) == (12.5, 15.5)
    stack.undo()
    assert [line.id for line in project.lines] == before and project.line("l1").start == 0.5


def test_several_lines_moved_into_others_land_in_time_order(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    timeline = build_timeline(project)
    moving = [timeline[0], timeline[1]]  # l1 0.5, l2 4.0 → 13.0 and 16.5, around l6 (14.5)
    stack = CommandStack(project)
    command = retime_command(project, move(project, moving, 12.5), "Move 2 lines")
    assert command is not None
    stack.push(command)
    starts = [(line.id, line.start) for line in project.lines if line.start is not None]
    assert [s for _, s in starts] == sorted(s for _, s in starts)
    assert [line.id for line in project.lines][-3:] == ["l1", "l6", "l2"]


def test_resizing_edges_keeps_a_minimum_slot(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    slot = build_timeline(project)[1]  # 4.0-6.5
    assert resize_start(project, slot, 5.0) == Retime("l2", 5.0, 6.5)
    assert resize_start(project, slot, 9.0).start == pytest.approx(6.5 - MIN_SLOT_S)
    assert resize_start(project, slot, -1.0).start == 0.0
    assert resize_end(project, slot, 7.25) == Retime("l2", 4.0, 7.25)
    assert resize_end(project, slot, 1.0).end == pytest.approx(4.0 + MIN_SLOT_S)
    # An untimed line gets explicit timecodes from where the timeline shows it.
    untimed = build_timeline(project)[2]
    retime = resize_end(project, untimed, untimed.start + 2.0)
    stack = CommandStack(project)
    command = retime_command(project, [retime], "Change slot end")
    assert command is not None
    stack.push(command)
    assert project.line("l3").start == pytest.approx(untimed.start, abs=1e-3)
    assert project.line("l3").end == pytest.approx(untimed.start + 2.0, abs=1e-3)


# --- the programme -------------------------------------------------------------------------------


def test_envelope_and_loading_resample_to_the_preview_rate(tmp_path: Path) -> None:
    low, high = envelope(np.array([0.0, 1.0, -1.0, 0.5, 0.2], dtype=np.float32), 2)
    assert list(low) == [0.0, -1.0, 0.2] and list(high) == [1.0, 0.5, 0.2]
    path = tmp_path / "take.wav"
    sf.write(str(path), np.stack([tone(1.0, 44100), tone(1.0, 44100)], axis=1), 44100)
    audio = load_audio(path)
    assert abs(audio.duration_s - 1.0) < 1e-3 and audio.pcm.dtype == np.float32
    assert len(audio.high) == PEAKS_PER_S and audio.high.max() == pytest.approx(0.25, abs=0.01)
    assert audio.display_gain == pytest.approx(0.95 / audio.high.max(), rel=0.05)
    broken = tmp_path / "broken.wav"
    broken.write_bytes(b"RIFF not really")
    loaded = load_many([path, broken])
    assert isinstance(loaded[broken], str) and loaded[broken].startswith("E_TAKE_UNREADABLE")
    library = AudioLibrary()
    library.add(loaded)
    assert library.get(path) is not None and library.error(broken) is not None
    assert library.missing([path, broken, tmp_path / "new.wav"]) == [tmp_path / "new.wav"]
    library.retain([path])
    assert library.error(broken) is None and library.get(path) is not None


def test_the_programme_places_takes_at_their_timecodes_with_the_guide_under_them() -> None:
    programme = Programme()
    rate = PREVIEW_RATE
    take = np.full(rate // 2, 0.5, dtype=np.float32)  # 0.5 s of a constant level
    programme.set_dialogue([Placement(rate, take, 0.5)])  # at 1.0 s, gain 0.5
    programme.set_guide(np.full(3 * rate, 0.1, dtype=np.float32))
    assert programme.duration_s == 3.0
    mix = programme.read(0, 2 * rate, guide_gain=0.0)
    assert not mix[: rate].any() and np.allclose(mix[rate : rate + rate // 2], 0.25) and not mix[rate + rate // 2 :].any()
    with_guide = programme.read(0, 2 * rate, guide_gain=0.5)
    assert np.allclose(with_guide[: rate], 0.05) and np.allclose(with_guide[rate : rate + 10], 0.30)
    assert not programme.read(-rate, rate, 0.0).any()  # before 0:00 is silence
    # Backwards: the block ending at 1.25 s, reversed; 2×: twice the time squeezed into the block.
    backwards = programme.block(1.25, rate // 2, -1.0, 0.0)
    assert np.allclose(backwards[: rate // 4], 0.25) and not backwards[rate // 4 + 1 :].any()
    fast = programme.block(0.5, rate // 2, 2.0, 0.0)  # covers 0.5-1.5 s
    assert not fast[: rate // 4 - 1].any() and np.allclose(fast[rate // 4 + 1 :], 0.25)


def test_placements_follow_the_chosen_takes_and_the_loudness_target(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    first = add_fake_take(project, project.lines[0], tone(0.5))
    add_fake_take(project, project.lines[1], tone(0.5))
    project.lines[0].takes[0] = type(first)(**{**vars(first), "loudness_lufs": -33.0})
    library = AudioLibrary()
    takes = chosen_takes(project)
    assert list(takes) == ["l1", "l2"] and takes["l1"] == project.take_path(project.lines[0].takes[0])
    library.add(load_many([takes["l1"]]))
    items = placements(project, build_timeline(project), takes, library)
    assert len(items) == 1  # the second take is not loaded yet: it joins when it is
    assert items[0].begin == int(0.5 * PREVIEW_RATE) and items[0].gain == pytest.approx(10 ** (10 / 20))
    project.settings.loudness_target_lufs = None
    assert placements(project, build_timeline(project), takes, library)[0].gain == 1.0
    project.lines.append(Line(id="new", text="No take."))
    assert len(placements(project, build_timeline(project), chosen_takes(project), library)) == 1

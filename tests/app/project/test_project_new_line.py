"""Where a new line goes in time (issue 34): after the line before it, before the next one."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.project import Line, Project
from app.project.timeline import MIN_SLOT_S, NEW_LINE_S, build_timeline, new_line_timing


def _project(tmp_path: Path, timed: bool) -> Project:
    project = Project.create(tmp_path / "p", "New lines")
    spans = [(1.0, 3.0), (3.5, 6.0), (12.0, 13.0)]
    project.lines = [Line(id=f"l{n}", text=f"Line {n} has a few words.", start=span[0] if timed else None,
                          end=span[1] if timed else None) for n, span in enumerate(spans)]
    return project


def test_a_new_line_follows_the_one_before_and_ends_before_the_next(tmp_path: Path) -> None:
    project = _project(tmp_path, timed=True)
    gap = project.settings.gap_s
    assert new_line_timing(project, 0) == (0.0, pytest.approx(1.0 - gap))  # at the top: from 0:00
    assert new_line_timing(project, 2) == (pytest.approx(6.0 + gap), pytest.approx(6.0 + gap + NEW_LINE_S))
    assert new_line_timing(project, 3) == (pytest.approx(13.0 + gap), pytest.approx(13.0 + gap + NEW_LINE_S))
    # 0.5 s between 3.0 and 3.5 leaves no room with the gaps: the new line takes the silence.
    assert new_line_timing(project, 1) == (3.0, 3.5)
    # Less silence than the shortest slot: the shortest slot, overlapping the next line.
    project.lines[1].start = 3.1
    assert new_line_timing(project, 1) == (3.0, pytest.approx(3.0 + MIN_SLOT_S))
    project.lines[1].start = 3.5
    # After a line without an end timecode: from where its estimated length ends.
    project.lines[1].end = None
    slots = build_timeline(project)
    assert new_line_timing(project, 2) == (pytest.approx(slots[1].end + gap), pytest.approx(slots[1].end + gap + NEW_LINE_S))


def test_a_script_without_timecodes_stays_without(tmp_path: Path) -> None:
    project = _project(tmp_path, timed=False)
    assert all(new_line_timing(project, n) is None for n in range(4))

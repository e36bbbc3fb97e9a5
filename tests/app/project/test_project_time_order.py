"""Timed imports keep time order; the script can be sorted by start; gaps are listed at once.

The bug this guards: SRT cues at 00:00:27 were inserted between the lines at 11 s and 14 s,
because an import landed after the selected row whatever its timecodes said.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.project import (
    AddLines,
    CommandStack,
    EditLine,
    EditProject,
    InvalidValueError,
    Line,
    Project,
    SortLinesByTime,
    voice_gaps,
)
from app.project.script_io import import_csv, import_plain, import_srt
from app.project.undo import merge_by_time, time_order

LATE_SRT = """1
00:00:27,000 --> 00:00:29,000
Maya: The tide turns at half past.

2
00:00:08,000 --> 00:00:09,500
[Narrator] Earlier that night.

3
00:00:13,000 --> 00:00:13,800
Rex: Now!
"""


def starts(project: Project) -> list[float | None]:
    return [line.start for line in project.lines]


def test_srt_cues_land_by_timecode_wherever_the_cursor_is(project: Project, tmp_path: Path) -> None:
    # The fixture's script: 0.5, 4.0, untimed, untimed, 12.0, 14.5 s.
    path = tmp_path / "late.srt"
    path.write_text(LATE_SRT, encoding="utf-8")
    result = import_srt(path, project)
    stack = CommandStack(project)
    stack.push(result.command(index=1))  # as if line 1 were selected: the index is ignored
    assert starts(project) == [0.5, 4.0, None, None, 8.0, 12.0, 13.0, 14.5, 27.0]
    texts = [line.text for line in project.lines]
    assert texts[4] == "Earlier that night." and texts[-1] == "The tide turns at half past."
    stack.undo()
    assert starts(project) == [0.5, 4.0, None, None, 12.0, 14.5]


def test_untimed_scripts_still_go_where_asked(project: Project, tmp_path: Path) -> None:
    path = tmp_path / "extra.txt"
    path.write_text("Maya: One more.\nRex: And another.\n", encoding="utf-8")
    result = import_plain(path, project)
    CommandStack(project).push(result.command(index=2))
    assert [line.text for line in project.lines[2:4]] == ["One more.", "And another."]


def test_partly_timed_csv_keeps_untimed_rows_after_their_timed_predecessor(project: Project, tmp_path: Path) -> None:
    path = tmp_path / "partial.csv"
    path.write_text("character,text,start\nMaya,At ten.,10\nRex,Right after.,\nMaya,At two.,2\n", encoding="utf-8")
    CommandStack(project).push(import_csv(path, project).command())
    texts = [line.text for line in project.lines]
    assert texts.index("At two.") < texts.index("At ten.") < texts.index("Right after.")
    assert texts.index("Right after.") < texts.index("Then we row out at dawn.")  # that one starts at 12 s


def test_merge_keeps_both_orders_and_puts_existing_first_on_ties() -> None:
    old = [Line("a", "a", start=1.0), Line("b", "b"), Line("c", "c", start=5.0)]
    new = [Line("x", "x", start=5.0), Line("y", "y", start=0.0), Line("z", "z")]
    merged = [line.id for line in merge_by_time(old, new)]
    # y (0 s) first, untimed z travelling with it (it follows y in its file); untimed b stays
    # with a; x ties with c (5 s) and goes after the existing line.
    assert merged == ["y", "z", "a", "b", "c", "x"]


def test_sort_by_start_is_one_undoable_step(project: Project) -> None:
    stack = CommandStack(project)
    stack.push(EditLine("l1", start=20.0, end=21.0))
    before = [line.id for line in project.lines]
    stack.push(SortLinesByTime())
    assert [line.id for line in project.lines] == ["l2", "l3", "l4", "l5", "l6", "l1"]
    assert [line.id for line in time_order(project.lines)] == [line.id for line in project.lines]
    stack.undo()
    assert [line.id for line in project.lines] == before


def test_import_lists_lines_without_character_and_characters_without_clip(project: Project, tmp_path: Path) -> None:
    path = tmp_path / "new.srt"
    path.write_text(
        "1\n00:00:20,000 --> 00:00:21,000\nGuest: Hello?\n\n"
        "2\n00:00:22,000 --> 00:00:23,000\nNobody said who speaks this.\n\n"
        "3\n00:00:24,000 --> 00:00:25,000\nMaya: I did.\n",
        encoding="utf-8",
    )
    result = import_srt(path, project)
    CommandStack(project).push(result.command())
    gaps = voice_gaps(project, [line.id for line in result.lines])
    assert [g.text for g in gaps.lines_without_character] == ["Nobody said who speaks this."]
    assert [(c.name, c.line_count) for c in gaps.characters_without_clip] == [("Guest", 1)]  # Maya has a clip
    described = gaps.describe()
    assert described[0].startswith("line 8 has no character") and "'Guest' has no reference clip" in described[1]
    assert not voice_gaps(make_ready(project))


def make_ready(project: Project) -> Project:
    """Drop the lines and characters that cannot render, leaving a ready project."""
    project.lines = [line for line in project.lines if line.character_id is not None]
    project.characters = [c for c in project.characters if c.clip]
    project.lines = [line for line in project.lines if line.character_id in {c.id for c in project.characters}]
    return project


def test_a_missing_clip_file_is_a_gap(project: Project) -> None:
    project.resolve(project.character("rex").clip or "").unlink()
    gaps = voice_gaps(project)
    assert [(c.name, c.missing_file) for c in gaps.characters_without_clip] == [("Rex", "voices/rex.wav")]
    assert "missing clip" in gaps.describe()[0]


def test_fit_and_loudness_settings_are_undoable_and_checked(project: Project) -> None:
    stack = CommandStack(project)
    stack.push(EditLine("l2", fit=True))
    assert project.wants_fit(project.line("l2")) and not project.wants_fit(project.line("l1"))
    stack.push(EditProject(fit_default=True, loudness_target_lufs=-16.0))
    assert project.wants_fit(project.line("l1")) and project.settings.loudness_target_lufs == -16.0
    stack.undo()
    assert project.settings.fit_default is False and project.settings.loudness_target_lufs == -23.0
    with pytest.raises(InvalidValueError, match="fit_max_rate"):
        stack.push(EditProject(fit_max_rate=3.0))
    with pytest.raises(InvalidValueError, match="guide_mix"):
        stack.push(EditProject(guide_mix="louder"))
    with pytest.raises(InvalidValueError, match="unknown project setting"):
        EditProject(volume=11)
    project.save()
    again = Project.load(project.root)
    assert again.line("l2").fit is True and again.settings.fit_default is False


def test_add_lines_by_time_into_an_empty_project(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "empty")
    lines = [Line("b", "b", start=3.0), Line("a", "a", start=1.0)]
    CommandStack(project).push(AddLines(lines, by_time=True))
    assert [line.id for line in project.lines] == ["a", "b"]

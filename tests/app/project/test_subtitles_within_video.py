"""Delivered subtitles never run past the video's end: a client's QC refuses a cue after the last picture."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.project import Line, Project
from app.project.export import export_subtitles
from app.project.model import VideoInfo
from app.project.script_io import import_srt
from app.project.video_export import _cues, burned_cues

from .conftest import add_fake_take, tone


def _eight_second_video(tmp_path: Path) -> Project:
    """Lines at 2.0 s, at 7.5 s (its 1.5 s take would end at 9.0 s) and at 8.5 s, on an 8.0 s video."""
    project = Project.create(tmp_path / "p", "P")
    project.video = VideoInfo(path="media/scene.mp4", duration_s=8.0, fps=25.0, width=640, height=360, codec="h264")
    maya = project.make_character("Maya")
    project.characters.append(maya)
    project.lines = [Line(id=f"l{n}", text=text, character_id=maya.id, start=start, end=end)
                     for n, (text, start, end) in enumerate([("Look out.", 2.0, 3.0), ("The ship!", 7.5, 8.0),
                                                            ("Too late.", 8.5, 9.5)], 1)]
    add_fake_take(project, project.line("l2"), tone(1.5))
    return project


def _last_end(text: str) -> float:
    """The latest end time of the cues of an SRT, VTT or ASS file's text, in seconds."""
    ends = [int(h) * 3600 + int(m) * 60 + float(f"{s}.{frac}") for h, m, s, frac in
            re.findall(r"(?:-->\s*|Dialogue: \d+,[^,]+,)(\d+):(\d\d):(\d\d)[.,](\d+)", text)]
    return max(ends)


@pytest.mark.parametrize("kind", ["srt", "vtt", "ass"])
def test_no_subtitle_file_has_a_cue_past_the_videos_end_and_the_user_is_told(tmp_path: Path, kind: str) -> None:
    project = _eight_second_video(tmp_path)
    result = export_subtitles(project, tmp_path / "out", kind=kind)
    text = result.files[0].read_text(encoding="utf-8")
    assert _last_end(text) == 8.0  # the cue that ended at 9.0 s ends with the picture
    assert "The ship!" in text and "Too late." not in text  # one starting after the end is left out
    assert result.notes == [
        "the subtitles of lines 2 ran past the end of the video (8.00 s) and now end there",
        "the subtitles of lines 3 start after the end of the video (8.00 s) and were left out",
    ]


def test_the_videos_soft_and_burned_subtitles_end_with_the_picture_too(tmp_path: Path) -> None:
    project = _eight_second_video(tmp_path)
    notes: list[str] = []
    soft, burned = _cues(project, notes), burned_cues(project, "target", notes)
    assert [(start, end) for start, end, _text in soft] == [(2.0, 3.0), (7.5, 8.0)]
    assert [(start, end) for start, end, _text in burned] == [(2.0, 3.0), (7.5, 8.0)]
    assert len(dict.fromkeys(notes)) == 2


def test_without_a_video_nothing_is_cut(tmp_path: Path) -> None:
    project = _eight_second_video(tmp_path)
    project.video = None
    result = export_subtitles(project, tmp_path / "out", kind="srt")
    assert _last_end(result.files[0].read_text(encoding="utf-8")) == 9.5 and result.notes == []


def test_an_import_says_which_cues_run_past_the_videos_end(tmp_path: Path) -> None:
    project = _eight_second_video(tmp_path)
    srt_text = ("1\n00:00:02,000 --> 00:00:03,000\nLook out.\n\n2\n00:00:07,500 --> 00:00:09,000\nThe ship!\n\n"
                "3\n00:00:08,500 --> 00:00:09,500\nToo late.\n")
    result = import_srt(srt_text.encode(), project)
    assert len(result.lines) == 3  # kept as the file times them: the exports cut them at the end
    assert result.warnings == ["input: the cues at 00:00:07,500, 00:00:08,500 run past the end of the video (8.00 s); "
                               "what is past it will be neither heard nor shown"]

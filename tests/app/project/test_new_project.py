"""`dubstudio new` and new_project_from_video where it can go wrong: a symlinked folder, a clip
over ten minutes (not ready, unless a trim keeps less), a video already inside, and a `new`
killed half-way, which the next `new` of the folder resumes keeping what was there."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import soundfile as sf

from app.cli import main as cli_main
from app.project import Project, ProjectFileError
from app.project.lock import LOCK_FILE
from app.project.media import probe_video
from app.project.new_project import NEW_MARKER, VoiceSource, new_project_from_video
from app.project.readiness import voice_gaps
from engine.core.paths import REPO_ROOT
from tests.app.commands.test_stop import (
    PYTHON_M_DUBSTUDIO,
    wait_until_signals_are_handled,
)
from tests.engine.helpers import POSIX_ONLY, returns_at_once

from .conftest import VOICES, tone

pytestmark = POSIX_ONLY
SRT = "1\n00:00:00,500 --> 00:00:02,000\nMaya: Did you see the lights?\n\n"


def ten_minutes_and_a_second(path: Path) -> Path:
    """A clip of sound 1 s over the engine's limit (sound, so a trim of it is a usable clip)."""
    sf.write(str(path), tone(601.0, rate=8000), 8000, subtype="PCM_16")
    return path


def test_new_on_a_dangling_symlink_creates_nothing_at_its_target(tmp_path: Path, video: Path) -> None:
    target = tmp_path / "elsewhere" / "dub"
    link = tmp_path / "dub"
    link.symlink_to(target)
    with pytest.raises(ProjectFileError, match="does not exist"):
        new_project_from_video(link, video)
    assert not target.exists() and not (tmp_path / "elsewhere").exists()


def test_new_through_a_symlink_to_an_empty_folder_makes_it_there(tmp_path: Path, video: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    made = new_project_from_video(link, video, subtitles=None, use_subtitle_stream=False)
    assert made.project.root == real and (real / "project.json").is_file()
    assert not (real / NEW_MARKER).exists() and not (real / LOCK_FILE).exists()


def test_new_with_a_clip_over_ten_minutes_is_not_ready(tmp_path: Path, video: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    clip = ten_minutes_and_a_second(tmp_path / "long.wav")
    srt = tmp_path / "s.srt"
    srt.write_text(SRT)
    code = cli_main(["new", str(tmp_path / "dub"), "--video", str(video), "--subtitles", str(srt),
                     "--voice", f"Maya={clip}"])
    out = capsys.readouterr().out
    assert code == 1 and "E_CLIP_TOO_LONG" in out and "Ready" not in out


def test_a_trim_under_the_limit_is_ready_and_a_fifo_clip_is_not(project: Project, tmp_path: Path) -> None:
    maya = project.character("maya")
    maya.clip = "voices/long.wav"
    ten_minutes_and_a_second(project.root / maya.clip)
    assert [c.unusable and "E_CLIP_TOO_LONG" in c.unusable for c in voice_gaps(project).characters_without_clip] \
        == [True]
    maya.clip_end = 300.0
    assert not voice_gaps(project)
    os.remove(project.root / maya.clip)
    os.mkfifo(project.root / maya.clip)
    found: list[Any] = []
    assert returns_at_once(lambda: found.append(voice_gaps(project))) is None
    assert "named pipe" in found[0].describe()[0]


def test_a_project_made_from_a_video_fits_its_takes_into_their_slots(tmp_path: Path, video: Path) -> None:
    """Dubbing to picture: a take that runs past its slot talks over the next line, so a project
    made from a video fits by default (the studio's New project and `dubstudio new` alike)."""
    srt = tmp_path / "s.srt"
    srt.write_text(SRT)
    new_project_from_video(tmp_path / "dub", video, subtitles=srt)
    project = Project.load(tmp_path / "dub")
    assert project.settings.fit_default and [project.wants_fit(line) for line in project.lines] == [True]


def test_new_link_with_the_video_already_inside_works(tmp_path: Path, video: Path) -> None:
    root = tmp_path / "dub"
    (root / "media").mkdir(parents=True)
    inside = root / "media" / "scene.mp4"
    inside.write_bytes(video.read_bytes())
    assert cli_main(["new", str(root), "--video", str(inside), "--link", "--no-subtitles"]) == 0
    project = Project.load(root)
    assert project.video is not None and project.video.path == "media/scene.mp4"
    assert sorted(p.name for p in (root / "media").iterdir()) == ["scene.mp4"]


def test_new_killed_on_the_spot_is_resumed_by_the_next_new(tmp_path: Path, video: Path) -> None:
    root = tmp_path / "dub"
    process = subprocess.Popen([*PYTHON_M_DUBSTUDIO, "new", str(root), "--video", str(video), "--guide"],
                               cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_until_signals_are_handled(process)
    deadline = time.monotonic() + 120
    while not (root / NEW_MARKER).exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    process.kill()
    process.communicate(timeout=60)
    # Whatever it had made, the next `new` of the folder takes it again.
    assert cli_main(["new", str(root), "--video", str(video), "--guide", "--no-subtitles"]) == 0
    project = Project.load(root)
    assert project.guide_audio and not (root / NEW_MARKER).exists()
    assert sorted(p.name for p in (root / "media").iterdir()) == ["guide.flac", "scene.mp4"]


def test_a_half_made_folder_left_by_a_kill_is_resumed_keeping_what_was_there(tmp_path: Path,
                                                                                     video: Path) -> None:
    root = tmp_path / "dub"
    (root / "media").mkdir(parents=True)
    (root / "notes.txt").write_text("mine")
    # What a `new` killed after its first steps leaves: its marker, its folders, half a copy.
    (root / NEW_MARKER).write_text(json.dumps({"before": ["notes.txt"], "created_folder": False}))
    (root / "voices").mkdir()
    (root / "media" / "scene.mp4").write_bytes(b"half a copy")
    made = new_project_from_video(root, video, use_subtitle_stream=False,
                                  voices=[VoiceSource("Maya", VOICES / "maya.wav")])
    assert not made.gaps and (root / "notes.txt").read_text() == "mine"
    assert probe_video(root / "media" / "scene.mp4").duration_s > 2.5
    assert not (root / NEW_MARKER).exists()


CHINESE_ASS = """[Script Info]
ScriptType: v4.00+

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,黑体,60,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:00.50,0:00:01.50,Default,林晓雨,0,0,0,,{\\an8}第3集，我们终于见面了……
Dialogue: 0,0:00:01.60,0:00:02.40,Default,王总,0,0,0,,{\\i1}「你好。」{\\i0}他说。
"""
CHINESE_VTT = """WEBVTT

00:00.500 --> 00:01.500 align:start position:10% line:0
<v 林晓雨>第3集，我们终于见面了……</v>

00:01.600 --> 00:02.400 position:50% size:80%
<v 王总><i>「你好。」</i>他说。
"""


@pytest.mark.parametrize(("name", "text"), [("drama.ass", CHINESE_ASS), ("drama.vtt", CHINESE_VTT)])
def test_new_reads_ass_and_webvtt_subtitles_as_the_studio_imports_them(tmp_path: Path, video: Path, name: str,
                                                                        text: str) -> None:
    # A Chinese team's subtitles come as ASS (override tags, styles) or WebVTT (cue settings,
    # voice tags) as often as SRT; `new --subtitles` read every file as SRT and refused them.
    subtitles = tmp_path / name
    subtitles.write_text(text, encoding="utf-8-sig")
    code = cli_main(["new", str(tmp_path / "dub"), "--video", str(video), "--subtitles", str(subtitles)])
    project = Project.load(tmp_path / "dub")
    assert code == 1  # made; the two characters have no clip yet
    assert [(project.character(line.character_id or "").name, line.text, line.start, line.end)
            for line in project.lines] == [("林晓雨", "第3集，我们终于见面了……", 0.5, 1.5),
                                           ("王总", "「你好。」他说。", 1.6, 2.4)]


def test_a_voice_whose_transcript_file_is_missing_says_so_not_that_the_clip_is(
        tmp_path: Path, video: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clip = VOICES / "maya.wav"
    code = cli_main(["new", str(tmp_path / "dub"), "--video", str(video),
                     "--voice", f"Maya={clip}:{tmp_path / 'missing.txt'}"])
    err = capsys.readouterr().err
    assert code == 2 and "E_INVALID_VALUE" in err and "transcript file not found" in err, err
    assert not (tmp_path / "dub").exists()


def test_new_reads_a_teams_excel_sheet_given_as_its_subtitles(tmp_path: Path, video: Path) -> None:
    """A Chinese team's timed script as Excel saves it (GBK CSV, a Chinese header): `new --subtitles`
    read it as SRT and refused it at line 1 ('not a valid subtitle block')."""
    sheet = tmp_path / "第一集.csv"
    sheet.write_bytes("角色,台词,开始时间,结束时间\r\n林晓雨,你好。,0.5,1.5\r\n王总,再见。,1.6,2.4\r\n".encode("gbk"))
    code = cli_main(["new", str(tmp_path / "dub"), "--video", str(video), "--subtitles", str(sheet)])
    project = Project.load(tmp_path / "dub")
    assert code == 1  # made; the two characters have no clip yet
    assert [(project.character(line.character_id or "").name, line.text, line.start, line.end)
            for line in project.lines] == [("林晓雨", "你好。", 0.5, 1.5), ("王总", "再见。", 1.6, 2.4)]

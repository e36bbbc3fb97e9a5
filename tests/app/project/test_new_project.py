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

"""`dubstudio say` with a clip that has no transcript beside it hears one (real base model, a real
Mandarin recording), says so, and reports it in --json; a given transcript is never replaced."""

import json
import shutil

import pytest

from engine.hearing.qa.wer import error_rate
from tests.app.commands.test_say import say
from tests.engine.hearing.qa.test_checks import ZH_CLIP, ZH_TEXT


@pytest.mark.slow  # real models for many seconds: scripts/test-slow (CI runs it)
def test_say_hears_the_transcript_of_a_clip_without_one(tmp_path):
    clip = tmp_path / "lin.wav"  # no lin.txt beside it
    shutil.copy(ZH_CLIP, clip)
    result = say("Hello there.", "--voice", str(clip), "--out", str(tmp_path / "line.wav"), "--json",
                 cache_dir=tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    assert "no transcript beside the clip; heard" in result.stderr
    heard = json.loads(result.stdout)["transcript_heard"]
    assert heard is not None and error_rate(ZH_TEXT, heard, "zh") <= 0.2, heard
    given = say("Hello there.", "--voice", str(clip), "--transcript", ZH_TEXT, "--out", str(tmp_path / "line.wav"),
                "--json", cache_dir=tmp_path / "cache")
    assert given.returncode == 0 and json.loads(given.stdout)["transcript_heard"] is None


@pytest.mark.parametrize(("content", "code"), [
    ("This is a text file, not audio.\n" * 50, "E_CLIP_UNREADABLE"),  # renamed .wav
    ("", "E_CLIP_UNREADABLE"),  # empty
])
def test_a_clip_the_ear_cannot_read_is_refused_once_with_its_code_before_any_engine(tmp_path, content, code):
    clip = tmp_path / "voice.wav"  # no voice.txt beside it: the clip would be heard
    clip.write_text(content)
    out = tmp_path / "line.wav"
    result = say("Hello there.", "--voice", str(clip), "--out", str(out), cache_dir=tmp_path / "cache")
    assert result.returncode == 2
    assert result.stderr.count(code) == 1, result.stderr  # was said twice: by the ear, then by the engine
    assert "none could be heard" not in result.stderr and not out.exists()

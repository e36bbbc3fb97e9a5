"""`dubstudio say`, run as a user would: the installed console script in a subprocess."""

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from tests.engine.helpers import VOICES

DUBSTUDIO = shutil.which("dubstudio", path=str(Path(sys.executable).parent))


def say(*args, cache_dir):
    return subprocess.run([DUBSTUDIO, "say", *args, "--cache-dir", str(cache_dir)],
                          capture_output=True, text=True, timeout=300)


def test_say_writes_a_wav_and_reports_timings(tmp_path):
    out = tmp_path / "line.wav"
    result = say("Hello there. We leave at dawn.", "--voice", str(VOICES / "rex.wav"), "--out", str(out), "--json",
                 cache_dir=tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["sample_rate"] == 22050 and report["chunks"] >= 2 and report["voice_cache"] == "miss"
    assert 0 < report["first_audio_s"] <= report["total_s"] and report["engine_start_s"] > 0
    # issue 8: how much the voice sounds like its clip, adapted and as the model's own voice
    assert 0.0 < report["resemblance"] <= 1.0 and 0.0 < report["resemblance_plain"] <= 1.0
    audio, rate = sf.read(str(out))
    assert rate == 22050 and abs(len(audio) / rate - report["audio_s"]) < 0.01
    # A clip under 30 s has nothing to note (test_say_tells_what_the_voice_noted_about_its_clip: a long one)
    assert report["voice_warnings"] == [] and "the voice's clip" not in result.stderr
    again = json.loads(say("Again.", "--voice", str(VOICES / "rex.wav"), "--out", str(out), "--json",
                           cache_dir=tmp_path / "cache").stdout)
    assert again["voice_cache"] == "hit"
    assert (again["resemblance"], again["resemblance_plain"]) == (report["resemblance"], report["resemblance_plain"])


@pytest.mark.slow  # real models for many seconds: scripts/test-slow (CI runs it)
def test_say_reports_bad_input_with_a_code(tmp_path):
    result = say("   ", "--out", str(tmp_path / "x.wav"), cache_dir=tmp_path / "cache")
    assert result.returncode == 2 and "E_EMPTY_TEXT" in result.stderr and "Traceback" not in result.stderr
    result = say("Hi.", "--voice", str(tmp_path / "nope.wav"), "--out", str(tmp_path / "x.wav"),
                 cache_dir=tmp_path / "cache")
    assert result.returncode == 2 and "E_CLIP_MISSING" in result.stderr
    assert not (tmp_path / "x.wav").exists()


@pytest.mark.slow  # real models for many seconds: scripts/test-slow (CI runs it)
def test_say_streams_into_a_named_device_and_never_replaces_it(tmp_path):
    """Issue 10: --out onto a mknod copy of /dev/null turned the device into a WAV file."""
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.stat("/dev/null").st_rdev)
    except PermissionError:
        pytest.skip("mknod needs root")
    result = say("Hi there.", "--voice", str(VOICES / "rex.wav"), "--out", str(device), cache_dir=tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(device.lstat().st_mode)


def test_say_refuses_a_symlink_out_before_speaking(tmp_path):
    kept = tmp_path / "kept.wav"
    kept.write_bytes(b"mine")
    link = tmp_path / "link.wav"
    link.symlink_to(kept)
    result = say("Hi there.", "--out", str(link), cache_dir=tmp_path / "cache")
    assert result.returncode == 2 and "E_NOT_REGULAR_FILE" in result.stderr and "Traceback" not in result.stderr
    assert link.is_symlink() and kept.read_bytes() == b"mine"
    assert not (tmp_path / "cache").exists()  # refused before the engine started


@pytest.mark.parametrize(("option", "value"), [("--speed", "nan"), ("--pitch", "nan"), ("--speed", "inf"),
                                               ("--speed", "0"), ("--speed", "-5"), ("--pitch", "99"),
                                               ("--speed", "fast")])
def test_say_refuses_numbers_out_of_range_with_a_code(tmp_path, option, value):
    # Issue 10: NaN and infinity gave tracebacks or 0.1 s of audio; 0 and -5 were silently clamped.
    result = say("Hi.", "--out", str(tmp_path / "x.wav"), f"{option}={value}", cache_dir=tmp_path / "cache")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "E_BAD_SETTING" in result.stderr and (f"got {value}" in result.stderr or f"got {value!r}" in result.stderr)
    assert not (tmp_path / "x.wav").exists()


def test_say_help_states_the_ranges():
    result = subprocess.run([DUBSTUDIO, "say", "--help"], capture_output=True, text=True, timeout=60)
    text = " ".join(result.stdout.split())
    assert "speaking rate, from 0.25 to 4×" in text and "extra pitch shift, from -24 to 24 semitones" in text


def test_an_unknown_backend_is_one_clear_line_without_a_traceback(tmp_path):
    result = say("Hi.", "--out", str(tmp_path / "x.wav"), "--backend", "nosuch", cache_dir=tmp_path / "cache")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "nosuch" in result.stderr
    assert not (tmp_path / "x.wav").exists()


def test_say_refuses_a_binary_transcript_beside_the_clip_with_a_code(tmp_path):
    clip = tmp_path / "voice.wav"
    clip.write_bytes((VOICES / "rex.wav").read_bytes())
    clip.with_suffix(".txt").write_bytes(bytes(range(256)) * 4)
    result = say("Hi there.", "--voice", str(clip), "--out", str(tmp_path / "x.wav"), cache_dir=tmp_path / "cache")
    assert result.returncode == 2 and "E_TEXT_ENCODING" in result.stderr and "Traceback" not in result.stderr


def test_say_refuses_an_unusable_recogniser_model_as_qa_and_new_do(tmp_path):
    """Issue 34: say printed E_WHISPER_MODEL_MISSING, spoke with no transcript and exited 0."""
    clip = tmp_path / "clip.wav"
    shutil.copy(VOICES / "maya.wav", clip)  # no maya.txt beside it: say would hear the clip
    for model, code in (("nosuch", "E_BAD_OPTION"), (str(tmp_path / "empty-folder"), "E_WHISPER_MODEL_MISSING")):
        (tmp_path / "empty-folder").mkdir(exist_ok=True)
        result = say("Hi.", "--voice", str(clip), "--out", str(tmp_path / "x.wav"), "--recogniser-model", model,
                     cache_dir=tmp_path / "cache")
        assert result.returncode == 2 and f"dubstudio say: --recogniser-model: {code}" in result.stderr, result.stderr
        assert not (tmp_path / "x.wav").exists()


def test_say_tells_what_the_voice_noted_about_its_clip(tmp_path):
    # A long recording given as the voice: only its first 30 s are used, which the studio showed and say did not.
    speech, rate = sf.read(str(VOICES / "rex.wav"), dtype="float32")
    long_clip = tmp_path / "interview.wav"
    sf.write(str(long_clip), np.tile(speech, int(40 * rate / len(speech)) + 1), rate)
    transcript = (VOICES / "rex.txt").read_text(encoding="utf-8").strip()
    result = say("Hello there.", "--voice", str(long_clip), "--transcript", transcript, "--out", str(tmp_path / "l.wav"),
                 "--json", cache_dir=tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["voice_warnings"] == ["clip cut to its first 30 s"]
    assert "the voice's clip: clip cut to its first 30 s" in result.stderr


def test_a_short_chinese_line_into_a_folder_with_spaces_is_one_chunk(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A short Chinese line is spoken in one piece: the report said "in 1 chunks"."""
    from app.cli import main

    out = tmp_path / "输出 目录" / "你好 世界.wav"
    out.parent.mkdir()
    assert main(["say", "你好，我们明天见。", "--out", str(out), "--cache-dir", str(tmp_path / "cache")]) == 0
    shown = capsys.readouterr()
    assert f"wrote {out}: " in shown.out and " of audio in 1 chunk; " in shown.out
    assert "NON-COMMERCIAL" in shown.err  # the Mandarin voice's notice, before it speaks
    assert sf.info(str(out)).duration > 1.0

"""Issue 20 (safety, round three): the 23 cases of the campaign and a variant of each class.

A files outside the project changed or created; B hangs on a FIFO; C memory sized by a claimed
duration; D tracebacks and wrong codes; E NaN, infinity and negatives; F "Ready" that is not,
symlinked roots and interrupted `new`. Each case runs the real code path (the CLI where the
campaign used it); nothing stands in for a decoder, a lock or a signal.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf

from app.cli import main as cli_main
from app.project import Project
from app.project.errors import ExportError, MediaError, ProjectFileError, SaveError
from app.project.export import export_mix, mixdown
from app.project.fsutil import atomic_write_wav
from app.project.lock import LOCK_FILE, ProjectLock
from app.project.media import attach_video, extract_guide, probe_video
from app.project.new_project import NEW_MARKER, VoiceSource, new_project_from_video
from app.project.qa import read_take
from app.project.readiness import voice_gaps
from app.project.script_io import ImportFormatError, import_csv, import_srt
from app.project.video_export import export_video
from engine.core.codes import ErrorCode
from tests.engine.helpers import returns_at_once

from .conftest import VOICES, add_fake_take, make_project, tone
from .media_fixtures import make_video

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs, hard links and signals as on POSIX")
DUBSTUDIO = [sys.executable, "-m", "app.cli"]
ROOT = Path(__file__).resolve().parents[3]
SRT = "1\n00:00:00,500 --> 00:00:02,000\nMaya: Did you see the lights?\n\n"


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_video(tmp_path_factory.mktemp("media") / "scene.mp4", seconds=3.0)


def dubstudio(*args: str, **options: Any) -> subprocess.CompletedProcess[str]:
    options.setdefault("timeout", 300)
    return subprocess.run([*DUBSTUDIO, *args], capture_output=True, text=True, cwd=ROOT, **options)


def wait_until_signals_are_handled(process: subprocess.Popen[str]) -> None:
    """Until the command has installed its SIGTERM handler (SigCgt in /proc), so the signal
    lands inside the command and not in the interpreter's own start-up."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            status = Path(f"/proc/{process.pid}/status").read_text()
        except FileNotFoundError:
            return
        caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
        if caught & (1 << (signal.SIGTERM - 1)):
            return
        time.sleep(0.01)
    raise AssertionError("the command never installed its signal handlers")


def ten_minutes_and_a_second(path: Path) -> Path:
    """A clip of sound 1 s over the engine's limit (sound, so a trim of it is a usable clip)."""
    sf.write(str(path), tone(601.0, rate=8000), 8000, subtype="PCM_16")
    return path


# --- A. Files outside the project changed or created ----------------------------------------


def test_a1_a_lock_hard_linked_to_a_file_outside_is_never_written(project: Project, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    os.link(outside, project.root / LOCK_FILE)
    assert cli_main(["render", str(project.root)]) == 2
    err = capsys.readouterr().err
    assert "E_NOT_REGULAR_FILE" in err and "hard-linked" in err
    assert outside.read_text() == "precious"


def test_a2_new_on_a_dangling_symlink_creates_nothing_at_its_target(tmp_path: Path, video: Path) -> None:
    target = tmp_path / "elsewhere" / "dub"
    link = tmp_path / "dub"
    link.symlink_to(target)
    with pytest.raises(ProjectFileError, match="does not exist"):
        new_project_from_video(link, video)
    assert not target.exists() and not (tmp_path / "elsewhere").exists()


def test_variant_a_new_through_a_symlink_to_an_empty_folder_makes_it_there(tmp_path: Path, video: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    made = new_project_from_video(link, video, subtitles=None, use_subtitle_stream=False)
    assert made.project.root == real and (real / "project.json").is_file()
    assert not (real / NEW_MARKER).exists() and not (real / LOCK_FILE).exists()


def test_variant_a_a_take_over_a_hard_link_is_refused(project: Project, tmp_path: Path) -> None:
    outside = tmp_path / "mine.wav"
    outside.write_bytes(b"mine")
    take = project.root / "takes" / "l1_x.wav"
    take.parent.mkdir(exist_ok=True)
    os.link(outside, take)
    with pytest.raises(SaveError) as raised:
        atomic_write_wav(take, np.zeros(10, dtype=np.float32), 22050, inside=project.root)
    assert raised.value.code is ErrorCode.NOT_REGULAR_FILE and outside.read_bytes() == b"mine"


# --- B. Hangs on a FIFO ---------------------------------------------------------------------


def test_b1_a_take_that_is_a_fifo_fails_the_mix_at_once(project: Project) -> None:
    take = add_fake_take(project, project.lines[0], tone(1.0))
    path = project.take_path(take)
    path.unlink()
    os.mkfifo(path)
    error = returns_at_once(lambda: export_mix(project))
    assert isinstance(error, ExportError) and "named pipe" in str(error)


def test_b2_a_guide_track_that_is_a_fifo_fails_the_mix_at_once(project: Project) -> None:
    add_fake_take(project, project.lines[0], tone(1.0))
    project.media_dir.mkdir(exist_ok=True)
    os.mkfifo(project.media_dir / "guide.flac")
    project.guide_audio = "media/guide.flac"
    project.settings = dataclasses.replace(project.settings, guide_mix="duck")
    error = returns_at_once(lambda: mixdown(project))
    assert isinstance(error, ExportError) and "named pipe" in str(error)


def test_b3_qa_of_a_take_that_is_a_fifo_is_an_error_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "take.wav"
    os.mkfifo(fifo)
    error = returns_at_once(lambda: read_take(fifo))
    assert isinstance(error, OSError) and "named pipe" in str(error)


def test_b3_dubstudio_qa_with_a_take_that_is_a_fifo_reports_it_and_ends(project: Project) -> None:
    take = add_fake_take(project, project.lines[0], tone(1.0))
    project.save()
    path = project.take_path(take)
    path.unlink()
    os.mkfifo(path)
    done = dubstudio("qa", str(project.root), "--lines", "1", timeout=300)
    assert "named pipe" in done.stdout + done.stderr and "Traceback" not in done.stderr


def test_b4_serve_token_file_on_a_fifo_exits_2_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "token"
    os.mkfifo(fifo)
    done = dubstudio("serve", "--token-file", str(fifo), timeout=120)
    assert done.returncode == 2 and "named pipe" in done.stderr and "Traceback" not in done.stderr


def test_variant_b_a_video_or_clip_that_is_a_fifo_is_refused_at_once(project: Project, tmp_path: Path) -> None:
    fifo = tmp_path / "video.mp4"
    os.mkfifo(fifo)
    error = returns_at_once(lambda: probe_video(fifo))
    assert isinstance(error, MediaError) and "named pipe" in str(error)
    from app.project.clips import import_clip

    error = returns_at_once(lambda: import_clip(project, fifo))
    assert error is not None and "named pipe" in str(error)


def test_variant_b_a_clip_that_is_a_fifo_has_no_fingerprint_and_blocks_nothing(project: Project) -> None:
    clip = project.root / "voices" / "maya.wav"
    clip.unlink()
    os.mkfifo(clip)
    found: list[Any] = []
    assert returns_at_once(lambda: found.append(project.fingerprint(project.lines[0]))) is None
    assert found == [None]  # cannot render: what the table shows, instead of a frozen studio


# --- C. Unbounded memory from a duration ------------------------------------------------------


def claims_30000_s(path: Path) -> Path:
    """A 2 kB video whose last frame is stamped 30,000 s in: its container lasts 8.3 h."""
    import av

    with av.open(str(path), "w") as out:
        stream = out.add_stream("libx264", rate=25)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        for pts in (0, 1, 30_000 * 25):
            frame = av.VideoFrame.from_ndarray(np.zeros((48, 64, 3), np.uint8), format="rgb24")
            frame.pts = pts
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))
    return path


def test_c1_a_video_claiming_30000_s_is_refused_by_new(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    claim = claims_30000_s(tmp_path / "claim.mp4")
    assert claim.stat().st_size < 10_000
    assert cli_main(["new", str(tmp_path / "dub"), "--video", str(claim)]) == 2
    assert "E_TIME_RANGE" in capsys.readouterr().err and not (tmp_path / "dub").exists()


def test_variant_c_a_claim_under_the_limit_is_refused_at_its_limit_too(tmp_path: Path, video: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import app.project.media as media

    monkeypatch.setitem(media.MEDIA_RANGES, "duration_s",  # the 3 s video is over this limit
                        dataclasses.replace(media.MEDIA_RANGES["duration_s"], high=2.0))
    with pytest.raises(MediaError) as raised:
        new_project_from_video(tmp_path / "dub", video)
    assert raised.value.code is ErrorCode.TIME_RANGE and not (tmp_path / "dub").exists()


def test_c2_a_huge_duration_in_project_json_is_refused_at_load(project: Project, video: Path) -> None:
    project.video = attach_video(project, video)
    project.save()
    data = json.loads(project.project_file.read_text())
    data["video"]["duration_s"] = 1e12
    project.project_file.write_text(json.dumps(data))
    with pytest.raises(ProjectFileError, match="duration_s"):
        Project.load(project.root)


def test_c3_the_export_pads_the_dub_to_the_real_picture_not_the_claim(project: Project, video: Path) -> None:
    add_fake_take(project, project.lines[0], tone(1.0))
    project.video = dataclasses.replace(attach_video(project, video), duration_s=3 * 3600.0)  # a claim
    result = export_video(project)
    assert 3.0 <= result.duration_s < 5.0  # the picture's 3 s (and the encoder's last frame), not 3 h


def test_variant_c_a_guide_is_decoded_no_longer_than_the_limit(project: Project, video: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import app.project.media as media

    project.video = attach_video(project, video)
    monkeypatch.setattr(media, "MAX_MEDIA_S", 1.0)
    with pytest.raises(MediaError) as raised:
        extract_guide(project)
    assert raised.value.code is ErrorCode.TIME_RANGE
    assert not list(project.media_dir.glob("*.flac")) and not list(project.media_dir.glob(".*.tmp"))


# --- D. Tracebacks and wrong codes ------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["new", "{tmp}/dub", "--video", "{video}", "--guide"],
    ["qa", "{tmp}/scene", "--save"],
    ["render", "{tmp}/scene", "--export", "video"],
], ids=["new", "qa", "render"])
def test_d1_sigterm_in_a_command_exits_130_without_a_traceback(tmp_path: Path, video: Path, args: list[str]) -> None:
    scene = make_project(tmp_path / "scene")
    scene.video = attach_video(scene, video)
    scene.save()
    command = [a.format(tmp=tmp_path, video=video) for a in args]
    process = subprocess.Popen([*DUBSTUDIO, *command], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    wait_until_signals_are_handled(process)
    process.send_signal(signal.SIGTERM)
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert not (tmp_path / "dub").exists() or (tmp_path / "dub" / NEW_MARKER).exists() is False


def test_variant_d_an_interrupt_seen_by_a_nested_pyrun_still_exits_130(tmp_path: Path) -> None:
    """CPython ends a ``python -m`` process (how dubstudio runs) by SIGINT (-2) when an
    interrupt ever passed through a nested PyRun_* call, even one caught later: a SIGTERM
    during some imports did that in CI."""
    (tmp_path / "interrupt_probe.py").write_text(textwrap.dedent("""
        import ctypes, sys
        from app.commands.common import run_interruptible
        def command():
            ctypes.pythonapi.PyRun_SimpleString(b"raise KeyboardInterrupt")  # marks it unhandled
            raise KeyboardInterrupt
        sys.exit(run_interruptible("test", command))
    """), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "interrupt_probe"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 130 and "dubstudio test: interrupted" in done.stderr


def test_variant_d_sigint_ends_new_the_same_way(tmp_path: Path, video: Path) -> None:
    process = subprocess.Popen([*DUBSTUDIO, "new", str(tmp_path / "dub"), "--video", str(video)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_until_signals_are_handled(process)
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 130 and "Traceback" not in err


def test_d2_serve_max_clip_mb_nan_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        cli_main(["serve", "--max-clip-mb", "nan"])
    assert raised.value.code == 2
    assert "argument --max-clip-mb: E_BAD_OPTION: --max-clip-mb must be a number from 0.001 to 4096 MB, got nan" \
        in capsys.readouterr().err


def test_d3_a_lock_file_that_is_a_fifo_is_a_coded_error(project: Project) -> None:
    os.mkfifo(project.root / LOCK_FILE)
    error = returns_at_once(lambda: ProjectLock.acquire(project.root, "test"))
    assert isinstance(error, SaveError) and error.code is ErrorCode.NOT_REGULAR_FILE


def test_d4_an_srt_with_nul_bytes_is_refused_with_its_line(project: Project, tmp_path: Path, video: Path) -> None:
    srt = tmp_path / "nul.srt"
    srt.write_bytes(b"1\n00:00:01,000 --> 00:00:02,000\nMaya: Hel\x00lo\n\n")
    with pytest.raises(ImportFormatError) as raised:
        import_srt(srt, project)
    assert raised.value.code is ErrorCode.IMPORT_ENCODING and raised.value.line_no == 3
    assert cli_main(["new", str(tmp_path / "dub"), "--video", str(video), "--subtitles", str(srt)]) == 2
    assert not (tmp_path / "dub").exists()


def test_variant_d_a_csv_with_a_control_character_is_refused(project: Project) -> None:
    with pytest.raises(ImportFormatError, match="U\\+0001"):
        import_csv(b"character,text\nMaya,Hi\x01 there\n", project)


def test_d5_an_audio_file_in_place_of_the_video_is_no_video_stream(project: Project, video: Path) -> None:
    add_fake_take(project, project.lines[0], tone(1.0))
    project.video = attach_video(project, video)
    sf.write(str(project.root / project.video.path), tone(1.0), 22050, format="WAV")  # the video replaced by audio
    with pytest.raises(MediaError) as raised:
        export_video(project)
    assert raised.value.code is ErrorCode.NO_VIDEO_STREAM


def test_variant_d_a_text_file_in_place_of_the_video_is_unreadable(project: Project, video: Path) -> None:
    add_fake_take(project, project.lines[0], tone(1.0))
    project.video = attach_video(project, video)
    (project.root / project.video.path).write_text("not a video")
    with pytest.raises(MediaError) as raised:
        export_video(project)
    assert raised.value.code is ErrorCode.VIDEO_UNREADABLE


# --- E. NaN, infinity and negatives -----------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["bench", "--seconds", "nan"], ["bench", "--think", "inf"], ["bench", "--timeout", "nan"],
    ["bench", "--objective-p95-first-audio", "nan"], ["serve", "--clip-store-mb", "-1"],
    # variants: other numbers of the same commands
    ["bench", "--rate", "inf"], ["bench", "--warmup", "-1"], ["bench", "--objective-max-error-rate", "nan"],
    ["bench", "--slots", "0"], ["say", "x", "--out", "x.wav", "--engine-start-timeout", "inf"],
    ["serve", "--job-timeout", "nan"], ["serve", "--port", "70000"], ["serve", "--replica-cpus=-inf"],
], ids=lambda args: " ".join(args))
def test_e_numbers_that_are_not_finite_or_in_range_are_usage_errors(args: list[str],
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        cli_main(args)
    err = capsys.readouterr().err
    assert raised.value.code == 2 and re.search(r"must be a (whole )?number (from|at least) ", err), err


# --- F. Readiness and leftovers ---------------------------------------------------------------


def test_f1_new_with_a_clip_over_ten_minutes_is_not_ready(tmp_path: Path, video: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    clip = ten_minutes_and_a_second(tmp_path / "long.wav")
    srt = tmp_path / "s.srt"
    srt.write_text(SRT)
    code = cli_main(["new", str(tmp_path / "dub"), "--video", str(video), "--subtitles", str(srt),
                     "--voice", f"Maya={clip}"])
    out = capsys.readouterr().out
    assert code == 1 and "E_CLIP_TOO_LONG" in out and "Ready" not in out


def test_variant_f_a_trim_under_the_limit_is_ready_and_a_fifo_clip_is_not(project: Project, tmp_path: Path) -> None:
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


def test_f2_new_link_with_the_video_already_inside_works(tmp_path: Path, video: Path) -> None:
    root = tmp_path / "dub"
    (root / "media").mkdir(parents=True)
    inside = root / "media" / "scene.mp4"
    inside.write_bytes(video.read_bytes())
    assert cli_main(["new", str(root), "--video", str(inside), "--link", "--no-subtitles"]) == 0
    project = Project.load(root)
    assert project.video is not None and project.video.path == "media/scene.mp4"
    assert sorted(p.name for p in (root / "media").iterdir()) == ["scene.mp4"]


def test_f3_a_project_opened_through_a_symlinked_root_writes_takes_inside(project: Project, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(project.root)
    opened = Project.load(link)
    assert opened.root == project.root.resolve()
    rel = "takes/l1_new.wav"
    atomic_write_wav(opened.resolve(rel), tone(0.5), 22050, inside=opened.root)
    by_link = Project(root=link, title="x")  # a root given as the link itself, as the studio may
    atomic_write_wav(by_link.resolve("takes/l2_new.wav"), tone(0.5), 22050, inside=by_link.root)
    assert (project.root / rel).is_file() and (project.root / "takes/l2_new.wav").is_file()


def test_f3_a_render_through_a_symlinked_project_folder_renders(tmp_path: Path) -> None:
    real = tmp_path / "real"
    shutil.copytree(ROOT / "resources" / "sample_project", real)
    link = tmp_path / "link"
    link.symlink_to(real)
    assert cli_main(["render", str(link), "--lines", "1", "--slots", "1", "--no-progress"]) == 0
    line = Project.load(real).lines[0]
    assert line.takes and (real / line.takes[0].path).is_file()


def test_f4_new_killed_on_the_spot_is_resumed_by_the_next_new(tmp_path: Path, video: Path) -> None:
    root = tmp_path / "dub"
    process = subprocess.Popen([*DUBSTUDIO, "new", str(root), "--video", str(video), "--guide"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
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


def test_variant_f_a_half_made_folder_left_by_a_kill_is_resumed_keeping_what_was_there(tmp_path: Path,
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

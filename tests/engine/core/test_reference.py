"""Issue 20 (safety, round three), the engine side: one way to open what we read (regular files
only, a FIFO refused at once), one writer that refuses hard-linked targets, and one check of
every number from outside (finite and in range)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf

from engine.core import files
from engine.core.files import FileError
from engine.core.protocol import EngineError, ErrorCode
from engine.core.reference import check_reference_clip, load_reference_clip
from engine.core.text import control_character
from engine.load.plans import Plan, PlanError
from engine.load.runner import BenchError, BenchSettings
from engine.load.stats import Objective
from engine.synthesis.serve.config import ServeConfigError, ServeOptions, read_token
from tests.engine.helpers import VOICES, returns_at_once, tone_clip

pytestmark = pytest.mark.skipif(os.name != "posix", reason="named pipes and hard links as on POSIX")


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.wav"
    os.mkfifo(path)
    return path


# --- A: the writer refuses hard-linked targets ------------------------------------------------


def test_a_hard_linked_target_is_never_written_and_the_other_file_stays(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    inside = tmp_path / "project" / "project.json"
    inside.parent.mkdir()
    os.link(outside, inside)
    with pytest.raises(FileError) as raised:
        files.atomic_write_text(inside, "{}", inside=tmp_path / "project")
    assert raised.value.code is ErrorCode.NOT_REGULAR_FILE and "hard-linked" in raised.value.message
    assert outside.read_text() == "precious" and inside.read_text() == "precious"


def test_variant_a_take_written_over_a_hard_link_is_refused_too(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.wav"
    outside.write_bytes(b"not yours")
    take = tmp_path / "takes" / "l1.wav"
    take.parent.mkdir()
    os.link(outside, take)
    with pytest.raises(FileError) as raised:
        files.atomic_write_wav(take, np.zeros(100, dtype=np.float32), 22050, inside=tmp_path)
    assert raised.value.code is ErrorCode.NOT_REGULAR_FILE
    assert outside.read_bytes() == b"not yours"
    assert not [p for p in take.parent.iterdir() if p.name.endswith(".tmp")]


def test_a_folder_written_through_the_real_path_of_a_symlinked_root_stays_inside(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    written = files.atomic_write_text(real / "takes" / "a.txt", "x", inside=link)
    assert written == real / "takes" / "a.txt" and written.read_text() == "x"
    with pytest.raises(FileError) as raised:
        files.atomic_write_text(tmp_path / "other" / "a.txt", "x", inside=link)
    assert raised.value.code is ErrorCode.PATH_ESCAPE


# --- B: every file we read is opened without blocking ------------------------------------------


@pytest.mark.parametrize("read", [files.read_regular_file, files.read_audio, files.audio_info, files.open_regular_file],
                         ids=["bytes", "audio", "audio-info", "handle"])
def test_a_named_pipe_is_refused_at_once_by_every_reader(fifo: Path, read: Callable[[Path], Any]) -> None:
    error = returns_at_once(lambda: read(fifo))
    assert isinstance(error, FileError) and error.code is ErrorCode.NOT_REGULAR_FILE
    assert "named pipe" in error.message


def test_read_audio_reads_a_regular_file_as_soundfile_does(tmp_path: Path) -> None:
    path = tmp_path / "a.wav"
    sf.write(str(path), np.linspace(-0.5, 0.5, 800, dtype=np.float32), 8000, subtype="FLOAT")
    audio, rate = files.read_audio(path, dtype="float32")
    assert rate == 8000 and audio.shape == (800,) and files.audio_info(path).frames == 800


def test_a_reference_clip_that_is_a_pipe_is_unreadable_not_a_hang(fifo: Path) -> None:
    for check in (load_reference_clip, check_reference_clip):
        error = returns_at_once(lambda: check(fifo))
        assert isinstance(error, EngineError) and error.code is ErrorCode.CLIP_UNREADABLE
        assert "named pipe" in error.message


def test_serve_token_file_on_a_fifo_is_refused_at_once(fifo: Path) -> None:
    error = returns_at_once(lambda: read_token(fifo))
    assert isinstance(error, ServeConfigError) and "named pipe" in str(error)


def test_variant_b_a_client_token_file_on_a_fifo_is_refused_at_once(fifo: Path) -> None:
    from engine.synthesis.client.local import EngineStartError
    from engine.synthesis.client.remote import read_token_file

    error = returns_at_once(lambda: read_token_file(fifo))
    assert isinstance(error, EngineStartError) and error.code is ErrorCode.UNAUTHORIZED and "named pipe" in str(error)


def test_a_clip_over_the_length_limit_is_refused_by_the_check_render_makes(tmp_path: Path) -> None:
    clip = tone_clip(tmp_path / "long.wav", seconds=601.0, rate=8000)  # 10 min 1 s
    with pytest.raises(EngineError) as raised:
        check_reference_clip(clip)
    assert raised.value.code is ErrorCode.CLIP_TOO_LONG
    check_reference_clip(clip, 0.0, 300.0)  # a trim to 5 min is what the render would use: fine
    check_reference_clip(VOICES / "maya.wav")


def test_the_ready_check_hears_what_the_render_would_refuse_in_the_trimmed_part(tmp_path: Path) -> None:
    """Silence, or under a second of speech, in the part a trim keeps is refused as the engine
    refuses that part (E_CLIP_SILENT, E_CLIP_TOO_SHORT), not only a bad file or length."""
    silent = tmp_path / "silent.wav"
    sf.write(str(silent), np.zeros(16000 * 3, dtype=np.float32), 16000)
    speech, rate = sf.read(str(VOICES / "maya.wav"), dtype="float32")
    short = tmp_path / "short.wav"  # what the render hands the engine for a 0.6 s trim
    sf.write(str(short), speech[: int(0.6 * rate)], rate)
    for path, end, code in ((silent, None, ErrorCode.CLIP_SILENT), (VOICES / "maya.wav", 0.6, ErrorCode.CLIP_TOO_SHORT)):
        with pytest.raises(EngineError) as checked:
            check_reference_clip(path, 0.0, end)
        assert checked.value.code is code
    for path, code in ((silent, ErrorCode.CLIP_SILENT), (short, ErrorCode.CLIP_TOO_SHORT)):
        with pytest.raises(EngineError) as loaded:
            load_reference_clip(path)
        assert loaded.value.code is code


# --- E: numbers (the Range check itself: tests/engine/test_ranges.py) ---------------------------


@pytest.mark.parametrize("change", [
    {"seconds_per_level": math.nan, "jobs_per_level": None}, {"think_s": math.inf}, {"job_timeout_s": math.nan},
    {"mode": "open", "rate": math.inf}, {"warmup_jobs": -1}, {"levels": (1, True)}, {"jobs_per_level": 2.5},
])
def test_a_plan_with_nan_infinity_or_negatives_never_runs(change: dict[str, Any]) -> None:
    from engine.load.plans import Mode

    if change.get("mode") == "open":
        change = {**change, "mode": Mode.OPEN}
    with pytest.raises(PlanError, match="E_PLAN"):
        Plan(**change).validate()


@pytest.mark.parametrize("change", [{"p95_first_audio_s": math.nan}, {"p95_total_s": math.inf},
                                    {"max_error_rate": 2.0}, {"max_stalls_per_job": -1.0}])
def test_an_objective_that_cannot_be_judged_is_refused(change: dict[str, float]) -> None:
    with pytest.raises(BenchError, match="^E_BENCH: "):
        BenchSettings(objective=Objective(**change)).validate()


@pytest.mark.parametrize("change", [
    {"max_clip_bytes": int(-1 * 2**20)}, {"job_timeout_s": math.nan}, {"clip_store_bytes": -2**20},
    {"replica_cpus": math.nan}, {"port": 70000}, {"max_text_chars": 0},
])
def test_server_limits_must_be_finite_and_in_range(change: dict[str, Any]) -> None:
    with pytest.raises(ServeConfigError):
        ServeOptions(**change).validate()
    ServeOptions().validate()


# --- D: text that is not text -------------------------------------------------------------------


def test_control_characters_are_found_and_named() -> None:
    assert control_character("Hel\x00lo") == (3, "U+0000")
    assert control_character("bell\x07") == (4, "U+0007")
    assert control_character("tab\tand\nnew line\r") is None

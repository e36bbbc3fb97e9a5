"""The tree's one opener and one atomic writer: atomic replace, only regular files (a hard-linked
target or a named pipe refused at once), streams, folders kept inside, disk full."""

from __future__ import annotations

import io
import os
import stat
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf

from engine.core import files
from engine.core.codes import ErrorCode
from engine.core.files import (
    NEW_FILE_MODE,
    FileError,
    atomic_write_bytes,
    atomic_write_wav,
    ensure_dir,
)
from tests.engine.helpers import POSIX_ONLY, returns_at_once


def _device_copy_of_dev_null(path: Path) -> Path:
    """What the issue did: a character device with /dev/null's numbers, made with mknod."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.stat("/dev/null").st_rdev)
    except PermissionError:
        pytest.skip("mknod needs root")
    return path


def test_new_files_get_the_usual_mode_and_replaced_files_keep_theirs(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    atomic_write_bytes(target, b"one")
    assert stat.S_IMODE(target.stat().st_mode) == NEW_FILE_MODE != 0o600
    target.chmod(0o640)
    atomic_write_bytes(target, b"two")
    assert target.read_bytes() == b"two" and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temp file left behind


def test_a_device_node_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    device = _device_copy_of_dev_null(tmp_path / "null")
    with pytest.raises(FileError) as caught:
        atomic_write_wav(device, np.zeros(100), 22050)
    assert caught.value.code is ErrorCode.NOT_REGULAR_FILE and "character device" in str(caught.value)
    assert stat.S_ISCHR(device.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


def test_a_named_device_is_streamed_into_never_replaced(tmp_path: Path) -> None:
    device = _device_copy_of_dev_null(tmp_path / "null")
    atomic_write_wav(device, np.zeros(100), 22050, stream_special=True)
    assert stat.S_ISCHR(device.lstat().st_mode)


def test_a_fifo_gets_the_whole_wav_streamed_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    atomic_write_wav(fifo, np.full(2205, 0.5), 22050, stream_special=True)
    reader.join(10)
    audio, rate = sf.read(io.BytesIO(received[0]), dtype="float32")
    assert rate == 22050 and len(audio) == 2205 and stat.S_ISFIFO(fifo.lstat().st_mode)
    with pytest.raises(FileError, match="named pipe"):  # not named by the user: refused
        atomic_write_bytes(fifo, b"x")


@pytest.mark.parametrize("kind", ["symlink to a file", "dangling symlink", "folder"])
def test_symlinks_and_folders_are_never_replaced(tmp_path: Path, kind: str) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    target = tmp_path / "target"
    if kind == "folder":
        target.mkdir()
    else:
        if kind == "symlink to a file":
            elsewhere.write_text("keep me")
        target.symlink_to(elsewhere)
    with pytest.raises(FileError) as caught:
        atomic_write_bytes(target, b"new", stream_special=True)
    assert caught.value.code is ErrorCode.NOT_REGULAR_FILE
    assert target.is_symlink() == (kind != "folder")
    if kind == "symlink to a file":
        assert elsewhere.read_text() == "keep me"


def test_inside_refuses_a_symlinked_folder_and_creates_nothing_outside(tmp_path: Path) -> None:
    root, outside = tmp_path / "project", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "exports").symlink_to(outside)
    with pytest.raises(FileError) as caught:
        atomic_write_bytes(root / "exports" / "stems" / "a.wav", b"x", inside=root)
    assert caught.value.code is ErrorCode.PATH_ESCAPE
    assert list(outside.iterdir()) == []  # not even the stems/ folder
    (root / "inner").mkdir()
    (root / "alias").symlink_to(root / "inner")  # a link that stays inside is fine
    written = atomic_write_bytes(root / "alias" / "deep" / "b.txt", b"y", inside=root)
    assert written == (root / "inner" / "deep" / "b.txt").resolve() and written.read_bytes() == b"y"
    with pytest.raises(FileError, match="not inside"):
        ensure_dir(tmp_path / "sibling", inside=root)


def test_disk_full_gives_a_coded_error_keeps_the_old_file_and_prints_no_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "take.wav"
    atomic_write_wav(target, np.zeros(1000), 22050)
    before = target.read_bytes()
    real_mkstemp = tempfile.mkstemp

    def full_disk(*args: object, **kwargs: object) -> tuple[int, str]:
        fd, name = real_mkstemp(*args, **kwargs)  # type: ignore[call-overload]
        os.close(fd)
        os.unlink(name)
        return os.open("/dev/full", os.O_WRONLY), name  # every write fails with ENOSPC, like a full disk

    monkeypatch.setattr(files.tempfile, "mkstemp", full_disk)
    for write in (lambda: atomic_write_wav(target, np.ones(100_000) * 0.1, 22050),
                  lambda: atomic_write_bytes(target, b"x" * 100_000)):
        with pytest.raises(FileError) as caught:
            write()
        assert caught.value.code is ErrorCode.DISK_FULL and "No space left" in str(caught.value)
    assert target.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["take.wav"]
    assert "Traceback" not in capfd.readouterr().err  # soundfile's C callbacks printed one before


def test_a_failing_writer_leaves_nothing_and_says_why(tmp_path: Path) -> None:
    def broken(handle: object) -> None:
        raise ValueError("cannot encode this")

    with pytest.raises(FileError) as caught:
        files.atomic_write(tmp_path / "x.bin", broken)
    assert caught.value.code is ErrorCode.SAVE_FAILED and "cannot encode this" in str(caught.value)
    assert list(tmp_path.iterdir()) == []


# --- what may be read and written: hard links, named pipes ------------------------------------


@POSIX_ONLY
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


@POSIX_ONLY
def test_a_take_written_over_a_hard_link_is_refused_too(tmp_path: Path) -> None:
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


@POSIX_ONLY
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


@POSIX_ONLY
@pytest.mark.parametrize("read", [files.read_regular_file, files.read_audio, files.audio_info, files.open_regular_file],
                         ids=["bytes", "audio", "audio-info", "handle"])
def test_a_named_pipe_is_refused_at_once_by_every_reader(fifo: Path, read: Callable[[Path], Any]) -> None:
    error = returns_at_once(lambda: read(fifo))
    assert isinstance(error, FileError) and error.code is ErrorCode.NOT_REGULAR_FILE
    assert "named pipe" in error.message


@POSIX_ONLY
def test_read_audio_reads_a_regular_file_as_soundfile_does(tmp_path: Path) -> None:
    path = tmp_path / "a.wav"
    sf.write(str(path), np.linspace(-0.5, 0.5, 800, dtype=np.float32), 8000, subtype="FLOAT")
    audio, rate = files.read_audio(path, dtype="float32")
    assert rate == 8000 and audio.shape == (800,) and files.audio_info(path).frames == 800

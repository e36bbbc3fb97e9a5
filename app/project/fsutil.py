"""Safe paths inside a project folder and atomic file writes.

A project folder is meant to be zipped and sent to a colleague, so every path stored in
``project.json`` is relative, uses forward slashes, and must stay inside the folder: a path
that escapes (``../x``, ``/etc/x``, ``C:\\x``, or a symlink pointing out) is refused, because
opening a shared project must never read or overwrite files elsewhere on the machine.

Anything a user made is written atomically: a temp file in the same folder, flushed and
fsynced, then ``os.replace``d over the target, so a crash or a full disk leaves either the old
file or the new one, never half of either.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Callable

import numpy as np

from app.project.errors import PathEscapeError, SaveError

_UNSAFE_NAME = re.compile(r"[^\w.\-]+", re.UNICODE)

# mkstemp creates files as 0600; new files should get the usual permissions instead.
_UMASK = os.umask(0)
os.umask(_UMASK)


def check_relative(rel: str) -> str:
    """Return ``rel`` normalised to forward slashes, or raise if it could leave the folder.

    This is purely lexical (no file system access) so it also guards paths in files we have
    not extracted yet; :func:`resolve_inside` adds the symlink check.
    """
    if not isinstance(rel, str) or not rel.strip():
        raise PathEscapeError(f"Empty path {rel!r} in project")
    text = rel.replace("\\", "/")
    if PureWindowsPath(rel).drive or PureWindowsPath(rel).root or text.startswith("/"):
        raise PathEscapeError(f"Path {rel!r} is absolute; project paths must be relative to the project folder")
    parts = PurePosixPath(text).parts
    if any(part == ".." for part in parts):
        raise PathEscapeError(f"Path {rel!r} points outside the project folder")
    return PurePosixPath(*[p for p in parts if p != "."]).as_posix()


def resolve_inside(root: Path, rel: str) -> Path:
    """The absolute path of ``rel`` under ``root``; raises PathEscapeError if it escapes.

    Symlinks are resolved so a link inside the folder cannot smuggle a path out of it.
    """
    clean = check_relative(rel)
    root_real = Path(root).resolve()
    target = (root_real / clean).resolve()
    if target != root_real and root_real not in target.parents:
        raise PathEscapeError(f"Path {rel!r} resolves outside the project folder ({target})")
    return root_real / clean


def relative_to_root(root: Path, path: Path) -> str:
    """The project-relative, forward-slash form of an absolute path inside ``root``."""
    root_real = Path(root).resolve()
    target = Path(path).resolve()
    try:
        rel = target.relative_to(root_real)
    except ValueError:
        raise PathEscapeError(f"{path} is not inside the project folder {root_real}") from None
    return check_relative(rel.as_posix())


def safe_filename(name: str, fallback: str = "untitled") -> str:
    """A file-name-safe version of ``name`` (letters, digits, ``_.-``), never empty."""
    cleaned = _UNSAFE_NAME.sub("_", name.strip()).strip("._")
    return cleaned[:60] or fallback


def unique_path(directory: Path, stem: str, suffix: str) -> Path:
    """``directory/stem+suffix``, or ``stem_2``, ``stem_3``... when taken."""
    candidate = directory / f"{stem}{suffix}"
    n = 2
    while candidate.exists():
        candidate = directory / f"{stem}_{n}{suffix}"
        n += 1
    return candidate


def _fsync_dir(directory: Path) -> None:
    # Makes the rename itself durable on POSIX; Windows cannot open directories.
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777  # keep the replaced file's permissions
    except FileNotFoundError:
        return 0o666 & ~_UMASK


def atomic_write(path: Path, write: Callable[[io.BufferedWriter], None]) -> None:
    """Write ``path`` through ``write(handle)`` into a temp file, then replace atomically.

    On any failure the temp file is removed, the target is untouched and SaveError is raised
    (with the original exception chained) so callers need to handle one type only.
    """
    path = Path(path)
    directory = path.parent
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as error:
        raise SaveError(f"Cannot write {path}: {error}") from error
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            if hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), _mode_for(path))
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
        _fsync_dir(directory)
    except BaseException as error:
        tmp.unlink(missing_ok=True)
        if isinstance(error, SaveError):
            raise
        if isinstance(error, Exception):
            raise SaveError(f"Cannot write {path}: {error}") from error
        raise  # KeyboardInterrupt and friends: cleaned up, then propagate unchanged


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Atomically replace ``path`` with ``data``."""
    def write(handle: io.BufferedWriter) -> None:
        handle.write(data)

    atomic_write(path, write)


def atomic_write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Atomically replace ``path`` with ``text`` (newlines written as given)."""
    atomic_write_bytes(path, text.encode(encoding))


def atomic_write_wav(path: Path, pcm: np.ndarray, sample_rate: int, subtype: str = "PCM_16") -> None:
    """Atomically write mono or multi-channel float audio as a WAV file."""
    import soundfile as sf

    data = np.asarray(pcm, dtype=np.float32)

    def write(handle: io.BufferedWriter) -> None:
        sf.write(handle, np.clip(data, -1.0, 1.0), sample_rate, format="WAV", subtype=subtype)

    atomic_write(path, write)

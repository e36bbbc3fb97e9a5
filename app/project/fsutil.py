"""Safe paths inside a project folder and atomic file writes.

A project folder is meant to be zipped and sent to a colleague, so every path stored in
``project.json`` is relative, uses forward slashes, and must stay inside the folder: a path
that escapes (``../x``, ``/etc/x``, ``C:\\x``, or a symlink pointing out) is refused, because
opening a shared project must never read or overwrite files elsewhere on the machine.

Anything a user made is written atomically by the tree's one writer, :mod:`engine.core.files`
(temp file in the same verified folder, fsync, rename; only regular files are replaced); the
wrappers here turn its errors into the project layer's SaveError and PathEscapeError.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import IO

import numpy as np

from app.project import phrases
from app.project.errors import PathEscapeError, ProjectError, SaveError
from app.project.phrases import Phrase
from engine.core import files
from engine.core.codes import ErrorCode
from engine.core.files import FileError

_UNSAFE_NAME = re.compile(r"[^\w.\-]+", re.UNICODE)

def check_relative(rel: str) -> str:
    """Return ``rel`` normalised to forward slashes, or raise if it could leave the folder.

    This is purely lexical (no file system access) so it also guards paths in files we have
    not extracted yet; :func:`resolve_inside` adds the symlink check.
    """
    if not isinstance(rel, str) or not rel.strip():
        raise PathEscapeError(Phrase(phrases.EMPTY_PATH, path=repr(rel)))
    text = rel.replace("\\", "/")
    if PureWindowsPath(rel).drive or PureWindowsPath(rel).root or text.startswith("/"):
        raise PathEscapeError(Phrase(phrases.ABSOLUTE_PATH, path=repr(rel)))
    parts = PurePosixPath(text).parts
    if any(part == ".." for part in parts):
        raise PathEscapeError(Phrase(phrases.PATH_OUTSIDE, path=repr(rel)))
    return PurePosixPath(*[p for p in parts if p != "."]).as_posix()


def resolve_inside(root: Path, rel: str) -> Path:
    """The absolute path of ``rel`` under ``root``; raises PathEscapeError if it escapes.

    Symlinks are resolved so a link inside the folder cannot smuggle a path out of it.
    """
    clean = check_relative(rel)
    root_real = Path(root).resolve()
    target = (root_real / clean).resolve()
    if target != root_real and root_real not in target.parents:
        raise PathEscapeError(Phrase(phrases.PATH_RESOLVES_OUTSIDE, path=repr(rel), target=target))
    return root_real / clean


def bound_to(root: Path, path: Path) -> Path | None:
    """The folder a write to ``path`` must stay inside: ``root`` when ``path`` names a place in
    the project folder (so, after symlinks, it must resolve inside it), None when the user
    chose a place elsewhere on purpose."""
    root_abs = Path(os.path.normpath(Path(root).absolute()))
    target = Path(os.path.normpath(Path(path).absolute()))
    return root_abs if target == root_abs or root_abs in target.parents else None


def relative_to_root(root: Path, path: Path) -> str:
    """The project-relative, forward-slash form of an absolute path inside ``root``."""
    root_real = Path(root).resolve()
    target = Path(path).resolve()
    try:
        rel = target.relative_to(root_real)
    except ValueError:
        raise PathEscapeError(Phrase(phrases.NOT_INSIDE_PROJECT, path=path, folder=root_real)) from None
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


@contextlib.contextmanager
def _project_errors() -> Iterator[None]:
    """Turn the shared writer's FileError into the project layer's own error types."""
    try:
        yield
    except FileError as error:
        if error.code is ErrorCode.PATH_ESCAPE:
            raise PathEscapeError(error.message) from error
        raise SaveError(error.message, error.code) from error


def ensure_dir(directory: Path, inside: Path | None = None) -> Path:
    """:func:`engine.core.files.ensure_dir` with project errors (PathEscapeError, SaveError)."""
    with _project_errors():
        return files.ensure_dir(directory, inside)


def atomic_write(
    path: Path, write: Callable[[IO[bytes]], None], *, inside: Path | None = None, stream_special: bool = False
) -> Path:
    """The tree's one atomic writer (:func:`engine.core.files.atomic_write`), raising SaveError.

    SaveError carries the writer's code: E_NOT_REGULAR_FILE, E_DISK_FULL or E_SAVE_FAILED;
    a folder outside ``inside`` raises PathEscapeError.
    """
    with _project_errors():
        return files.atomic_write(path, write, inside=inside, stream_special=stream_special)


def atomic_write_bytes(path: Path, data: bytes, *, inside: Path | None = None) -> Path:
    """Atomically replace ``path`` with ``data``."""
    with _project_errors():
        return files.atomic_write_bytes(path, data, inside=inside)


def atomic_write_text(path: Path, text: str, encoding: str = "utf-8", *, inside: Path | None = None) -> Path:
    """Atomically replace ``path`` with ``text`` (newlines written as given)."""
    with _project_errors():
        return files.atomic_write_text(path, text, encoding, inside=inside)


def atomic_write_wav(
    path: Path, pcm: np.ndarray, sample_rate: int, subtype: str = "PCM_16", *, inside: Path | None = None,
    stream_special: bool = False,
) -> Path:
    """Atomically write mono or multi-channel float audio as a WAV file."""
    with _project_errors():
        return files.atomic_write_wav(path, pcm, sample_rate, subtype, inside=inside, stream_special=stream_special)


def atomic_write_wav_blocks(
    path: Path, blocks: Iterable[np.ndarray], sample_rate: int, channels: int, subtype: str = "PCM_16", *,
    inside: Path | None = None,
) -> Path:
    """Atomically write float audio that arrives block by block as a WAV file (a long mix). What
    making the blocks raises of our own (a Cancel, a bed that cannot be read) reaches the caller
    as itself, not as a failed save; the temporary file is removed either way."""
    raised: list[ProjectError] = []

    def guarded() -> Iterator[np.ndarray]:
        try:
            yield from blocks
        except ProjectError as error:
            raised.append(error)
            raise

    try:
        with _project_errors():
            return files.atomic_write_wav_blocks(path, guarded(), sample_rate, channels, subtype, inside=inside)
    except SaveError:
        if raised:
            raise raised[0] from None
        raise


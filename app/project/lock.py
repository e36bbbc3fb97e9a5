"""An advisory lock on a project folder, so two processes never write one project at once.

Two ``dubstudio render`` runs of the same folder once wrote 12 take files while project.json
listed 6: each saved its own idea of the project over the other's. Whoever writes a project
(the studio, ``render``) first takes :class:`ProjectLock`; a second one learns who holds it and
exits (``render``) or opens the project read-only (the studio).

The lock is ``.dubstudio.lock`` in the project folder, holding the holder's pid, host, program
and start time as JSON so the refusal can say who it is. Exclusion itself comes from an OS
lock on that open file (``flock`` on POSIX, ``msvcrt.locking`` on Windows), which the OS drops
when the process ends however it ends (even SIGKILL): a lock left by a dead process is simply
taken over by the next one, with no pid guessing. The file is removed on release.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import socket
import stat
import sys
from pathlib import Path
from typing import IO

from app.project import phrases
from app.project.errors import ProjectLockedError, SaveError
from app.project.phrases import Phrase
from app.project.project import Project
from engine.core import files
from engine.core.codes import ErrorCode

LOCK_FILE = ".dubstudio.lock"

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(handle: IO[bytes]) -> bool:
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:
    import fcntl

    def _try_lock(handle: IO[bytes]) -> bool:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


def describe_holder(info: dict[str, object]) -> str:
    """``render (pid 4242 on studio-pc, since 2025-01-01 10:00:00 UTC)``, from a lock file's JSON."""
    program = info.get("program") or Phrase(phrases.ANOTHER_DUBSTUDIO)
    since = str(info.get("since") or "").replace("T", " ").replace("+00:00", " UTC")
    where = Phrase(phrases.HOLDER_PROCESS, pid=info.get("pid", "?"), host=info.get("host") or Phrase(phrases.UNKNOWN_HOST))
    if since:
        return Phrase(phrases.HOLDER_SINCE, program=program, where=where, since=since)
    return Phrase(phrases.HOLDER, program=program, where=where)


class ProjectLock:
    """A held lock on one project folder; release it with :meth:`release` (or ``with``)."""

    def __init__(self, root: Path, handle: IO[bytes]) -> None:
        self.root = root
        self.path = root / LOCK_FILE
        self._handle: IO[bytes] | None = handle

    @classmethod
    def acquire(cls, root: str | os.PathLike[str], program: str) -> ProjectLock:
        """Lock ``root`` for ``program`` (e.g. ``"dubstudio render"``).

        Raises ProjectLockedError (E_PROJECT_LOCKED) naming the holder when another live
        process has it, and SaveError when the lock file cannot be made or written (a
        read-only folder: E_SAVE_FAILED; a full disk: E_DISK_FULL).
        """
        root = Path(root).absolute()
        path = root / LOCK_FILE
        for _attempt in range(10):
            try:
                # No O_TRUNC: the holder's details must survive our failed attempt to read them.
                # O_NONBLOCK: a named pipe put there must not stall the open (it is refused below).
                fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0), 0o644)
            except OSError as error:
                raise _lock_write_error("create", path, error) from error
            try:
                _check_lock_file(path, os.fstat(fd))
            except SaveError:
                os.close(fd)
                raise
            if hasattr(os, "set_blocking"):
                os.set_blocking(fd, True)
            handle = os.fdopen(fd, "r+b")
            if not _try_lock(handle):
                holder = _read_holder(handle)
                handle.close()
                raise ProjectLockedError(
                    Phrase(phrases.OPEN_ELSEWHERE, folder=root, holder=describe_holder(holder)), describe_holder(holder)
                )
            # The previous holder may have removed the file between our open and our lock; then
            # we hold a lock on a file nobody else can find: start over with the current one.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path, follow_symlinks=False))
            except FileNotFoundError:
                same = False
            if same:
                try:
                    _write_holder(handle, program)
                except OSError as error:  # e.g. a full disk: the lock is ours, so its file goes too
                    with contextlib.suppress(OSError):
                        path.unlink(missing_ok=True)
                    with contextlib.suppress(OSError):  # close() retries the failed flush, and fails again
                        handle.close()
                    raise _lock_write_error("write", path, error) from error
                return cls(root, handle)
            handle.close()
        raise ProjectLockedError(Phrase(phrases.LOCK_CHANGING_HANDS, folder=root))

    @property
    def held(self) -> bool:
        return self._handle is not None

    def release(self) -> None:
        """Remove the lock file and drop the lock (safe to call twice)."""
        handle, self._handle = self._handle, None
        if handle is None:
            return
        # A read-only folder cannot lose the file; the OS lock still goes with close().
        with contextlib.suppress(OSError):
            self.path.unlink(missing_ok=True)  # before unlocking, so nobody locks the old file
        handle.close()

    def __enter__(self) -> ProjectLock:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()


def load_locked(path: str | os.PathLike[str], program: str) -> tuple[Project, ProjectLock]:
    """Load the project at ``path`` and lock it for ``program``.

    The project is read again once the lock is held, so what the caller edits is what is on
    disk now, not what an earlier holder had not yet saved when we first looked. Raises what
    Project.load and ProjectLock.acquire raise.
    """
    root = Project.load(path).root  # a clear error for a folder that is not a project
    lock = ProjectLock.acquire(root, program)
    try:
        return Project.load(root), lock
    except BaseException:
        lock.release()
        raise


def _lock_write_error(action: str, path: Path, error: OSError) -> SaveError:
    """A lock that cannot be made says why with the writer's code (E_DISK_FULL, E_SAVE_FAILED)."""
    code = files.code_of_write_error(error)
    return SaveError(f"cannot {action} the project lock {path}: {error.strerror or error}", code)


def _check_lock_file(path: Path, info: os.stat_result) -> None:
    """Only a regular file with no other name is ours to write the holder into.

    O_NOFOLLOW stops a symlink, but not a hard link: one to a file outside the project would
    have that file overwritten with the holder's JSON. A pipe or device is refused too.
    """
    if not stat.S_ISREG(info.st_mode):
        raise SaveError(Phrase(phrases.LOCK_NOT_REGULAR, file=path),
                        ErrorCode.NOT_REGULAR_FILE)
    if info.st_nlink > 1:
        raise SaveError(Phrase(phrases.LOCK_HARD_LINKED, file=path, count=info.st_nlink - 1),
                        ErrorCode.NOT_REGULAR_FILE)


def _read_holder(handle: IO[bytes]) -> dict[str, object]:
    try:
        handle.seek(0)
        data = json.loads(handle.read(4096) or b"{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_holder(handle: IO[bytes], program: str) -> None:
    info = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "program": program,
        "since": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    }
    handle.seek(0)
    handle.truncate()
    handle.write(json.dumps(info).encode())
    handle.flush()


__all__ = ["LOCK_FILE", "ProjectLock", "describe_holder", "load_locked"]

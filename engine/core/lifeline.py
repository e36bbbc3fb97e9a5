"""The engine's tie to the process that started it, and the client's way to end an engine.

An engine outlives its parent only by mistake: when the studio or a command is killed
(SIGKILL, SIGTERM, a crash, out of memory) nobody can read its audio any more, yet it would
go on synthesising and then idle for ever. So the engine, first thing at start-up:

* leads its own process group, so whatever it starts can be ended with it;
* on Linux asks the kernel for SIGKILL when its parent dies (``PR_SET_PDEATHSIG``): that
  works even when the interpreter is wedged in native code;
* watches the parent's pipe from a thread on every platform: multiprocessing's spawn keeps
  the write end of a pipe open in the parent, so its read end in the engine becomes
  readable (end of file) the moment the parent is gone, whatever the interpreter the engine
  runs under. The thread then ends the engine's process group.

Both are set up in the engine's own interpreter (spawn starts a fresh one, possibly another
environment's, so nothing can be inherited from the parent).

On the client's side :func:`kill_engine` ends an engine with everything it started, also an
interpreter that hung before it could lead its own group.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
EXIT_PARENT_GONE = 70  # the engine's exit status when it stopped because its parent died


def lead_process_group() -> None:
    """Make this process the leader of a new process group (POSIX), so it can be ended whole."""
    if hasattr(os, "setpgid"):
        with contextlib.suppress(OSError):  # already a session or group leader: nothing to do
            os.setpgid(0, 0)


def exit_with_group(status: int = EXIT_PARENT_GONE) -> None:
    """End this process at once, and the processes it started when it leads their group.

    ``os._exit``: no clean-up may wait on a parent that will never read (a full pipe would
    block a flush for ever), and worker threads in the middle of synthesis must not keep
    the process alive.
    """
    if hasattr(os, "killpg") and os.getpgid(0) == os.getpid():
        with contextlib.suppress(OSError):
            os.killpg(os.getpid(), signal.SIGKILL)  # this process included
    os._exit(status)


def _parent_death_signal(parent_pid: int) -> None:
    """Linux: have the kernel SIGKILL this process when its parent dies."""
    if not sys.platform.startswith("linux") or os.getppid() != parent_pid:
        return  # not Linux, or a wrapper interpreter sits between: the pipe watch covers it
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return  # no prctl in this libc: the pipe watch covers it
    if os.getppid() != parent_pid:  # the parent died before the request took effect
        exit_with_group()


def _watch_parent_pipe() -> None:
    """Start a thread that ends this process when the parent's end of the spawn pipe closes."""
    import multiprocessing
    import multiprocessing.connection

    parent = multiprocessing.parent_process()
    if parent is None:  # not started by multiprocessing: no parent pipe to watch
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        exit_with_group()

    threading.Thread(target=watch, name="engine-parent-watch", daemon=True).start()


def hold_to_parent(parent_pid: int | None) -> None:
    """Tie this engine's life to its parent's: called first thing in the engine process."""
    lead_process_group()
    if parent_pid is not None:
        _parent_death_signal(parent_pid)
    _watch_parent_pipe()


def kill_engine(pid: int) -> None:
    """End an engine process and everything it started (from the client's side).

    Its descendants are listed before anything is killed (a killed parent's children are
    re-parented and would be lost from view), then its process group goes when it leads one
    (it made one at start-up), then whatever is left of the tree. An interpreter that hung
    before it ran any of our code leads no group, so the tree walk is what ends it.
    """
    import psutil

    try:
        root = psutil.Process(pid)
        tree = [root, *root.children(recursive=True)]
    except psutil.Error:
        return
    if hasattr(os, "killpg"):
        with contextlib.suppress(OSError):
            if os.getpgid(pid) == pid:
                os.killpg(pid, signal.SIGKILL)
    for process in tree:  # not waited for here: the caller reaps its own child (Process.join)
        with contextlib.suppress(psutil.Error):
            process.kill()

"""One low-priority thread for the engine's work that nobody is waiting to hear.

Warming imports after start-up and finishing a voice's preparation (its speaker embedding,
resemblance and cache entry) must not slow the jobs that are speaking. The tasks run one at a
time, in order, on a thread that lowers its own CPU priority; on Linux, where every thread has
its own nice value, a running job's pieces then get the cores first. Elsewhere the thread
runs at normal priority (nice is per process there), which is slower for jobs but still right.

The thread ends when it runs out of tasks and starts again with the next one, so an idle
engine (or a test that opens many caches) holds no thread for it.
"""

from __future__ import annotations

import collections
import logging
import os
import sys
import threading
from collections.abc import Callable

# A nice-10 thread gets about a tenth of a core that a normal one also wants: a job's first
# piece barely notices it, and on an idle core it runs at full speed.
BACKGROUND_NICE = 10

log = logging.getLogger(__name__)


class BackgroundWork:
    """Runs tasks one after another on a low-priority thread; a task that raises is logged."""

    def __init__(self, name: str, nice: int = BACKGROUND_NICE) -> None:
        self.name = name
        self.nice = nice
        self._tasks: collections.deque[Callable[[], None]] = collections.deque()
        self._lock = threading.Condition()
        self._running = False

    def submit(self, task: Callable[[], None]) -> None:
        with self._lock:
            self._tasks.append(task)
            if self._running:
                return
            self._running = True
        threading.Thread(target=self._run, name=self.name, daemon=True).start()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every task submitted so far has run; False when ``timeout`` passed first."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._running, timeout)

    def _run(self) -> None:
        lower_thread_priority(self.nice)
        while True:
            with self._lock:
                if not self._tasks:
                    self._running = False
                    self._lock.notify_all()
                    return
                task = self._tasks.popleft()
            try:
                task()
            except Exception:  # a failed task must not end the ones after it
                log.exception("%s: a background task failed", self.name)


def lower_thread_priority(nice: int) -> None:
    """Raise the calling thread's nice value by ``nice`` (Linux: per thread; elsewhere nothing)."""
    if not sys.platform.startswith("linux") or nice <= 0:
        return
    try:
        thread_id = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread_id, min(19, os.getpriority(os.PRIO_PROCESS, thread_id) + nice))
    except OSError:
        pass  # not allowed here: the work then runs at normal priority, which is still correct

"""The engine process's C allocator policy (glibc only): keep the memory a model call frees.

Piper's sessions run with onnxruntime's CPU arena off (it grew without bound, see
``PiperBackend.set_slots``), so every call mallocs its tensors afresh: tens of MB for a
sentence. glibc's defaults hand such blocks back to the kernel when they are freed (blocks
over a threshold that starts at 128 KiB are mmapped; a freed heap top over 128 KiB is
trimmed), so every call faulted its pages in again: 20,000-40,000 minor faults, about 15 %
of a call's CPU time spent in the kernel zeroing pages (measured with getrusage). A fresh
engine's first job paid the most, since even the warm-up's pages were gone.

Blocks under MMAP_THRESHOLD_BYTES come from the heap, up to TRIM_THRESHOLD_BYTES of freed
heap stays mapped, and one arena serves every thread, so the pages the warm-up (main thread)
faulted in serve the slots' jobs. A call then faults a few hundred pages.
"""

from __future__ import annotations

import contextlib
import ctypes
import sys
from collections.abc import Callable, Iterator

MMAP_THRESHOLD_BYTES = 32 << 20  # larger blocks are still mmapped (and given back at once)
SHORT_LIVED_MMAP_BYTES = 128 << 10  # glibc's own default, inside short_lived_allocations()
TRIM_THRESHOLD_BYTES = 256 << 20  # the most freed memory the heap keeps mapped
# mallopt's parameters (glibc's malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
_applied = False  # keep_freed_memory() took effect in this process


def keep_freed_memory() -> bool:
    """Apply the policy to this process; call it before any thread starts (the arena count
    binds only threads that have not allocated yet). False where the C library is not glibc
    or refuses a setting: nothing is lost then, calls just fault their pages as before."""
    global _applied
    mallopt = _mallopt()
    if mallopt is None:
        return False
    settings = ((_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES), (_M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES),
                (_M_ARENA_MAX, 1))
    _applied = all(mallopt(parameter, value) == 1 for parameter, value in settings)
    return _applied


def _mallopt() -> Callable[[int, int], int] | None:
    """glibc's mallopt, from the C library this process already runs on; None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        mallopt: Callable[[int, int], int] = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return None
    return mallopt


@contextlib.contextmanager
def short_lived_allocations() -> Iterator[None]:
    """Inside, blocks over SHORT_LIVED_MMAP_BYTES are mmapped, so they go back to the kernel
    as soon as they are freed; the policy and a trimmed heap after. For a one-off burst no call
    reuses, such as parsing a model's graph: on the heap its tens of MB of copies stayed mapped
    (RSS +70 MB after the warm-up, measured). Nothing changes where the policy is not applied."""
    mallopt = _mallopt() if _applied else None
    if mallopt is None:
        yield
        return
    mallopt(_M_MMAP_THRESHOLD, SHORT_LIVED_MMAP_BYTES)
    try:
        yield
    finally:
        mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
        ctypes.CDLL(None).malloc_trim(0)

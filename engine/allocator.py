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

import ctypes
import sys

MMAP_THRESHOLD_BYTES = 32 << 20  # larger blocks are still mmapped (and given back at once)
TRIM_THRESHOLD_BYTES = 256 << 20  # the most freed memory the heap keeps mapped
# mallopt's parameters (glibc's malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8


def keep_freed_memory() -> bool:
    """Apply the policy to this process; call it before any thread starts (the arena count
    binds only threads that have not allocated yet). False where the C library is not glibc
    or refuses a setting: nothing is lost then, calls just fault their pages as before."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library this process already runs on
    except (OSError, AttributeError):
        return False
    settings = ((_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES), (_M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES),
                (_M_ARENA_MAX, 1))
    return all(mallopt(parameter, value) == 1 for parameter, value in settings)

"""The engine's allocator policy (engine/synthesis/allocator.py): memory a model call frees stays mapped
for the next call, whichever thread makes it. Each case runs in a fresh interpreter, since the
policy is process-wide and binds only threads that have not allocated yet; it counts page
faults, not time."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

# Tensor-sized blocks (1 MiB, over glibc's first mmap threshold) allocated, touched and freed:
# twice on the main thread (as the warm-up does), then once on a new thread (a slot's first job).
_PROBE = textwrap.dedent("""
    import json, resource, sys, threading
    import numpy as np
    from engine.synthesis.allocator import keep_freed_memory
    applied = keep_freed_memory() if sys.argv[1] == "policy" else None
    BLOCKS, SIZE = 64, 1 << 20

    def faults_of_one_round():
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        blocks = [np.ones(SIZE, np.uint8) for _ in range(BLOCKS)]
        del blocks
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

    main_rounds = [faults_of_one_round() for _ in range(3)]
    on_thread = []
    worker = threading.Thread(target=lambda: on_thread.append(faults_of_one_round()))
    worker.start()
    worker.join()
    print(json.dumps({"applied": applied, "main": main_rounds, "thread": on_thread[0]}))
""")
PAGES = 64 * (1 << 20) // 4096  # the pages one round touches


def _faults(mode: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _PROBE, mode], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the policy is glibc's")
def test_freed_blocks_are_reused_by_the_next_round_and_by_a_new_thread() -> None:
    policy = _faults("policy")
    assert policy["applied"] is True
    assert policy["main"][0] > PAGES // 2  # the first round faults its pages in
    assert max(policy["main"][1:]) < PAGES // 10, policy  # later rounds find them mapped
    assert policy["thread"] < PAGES // 10, policy  # so does a thread that never allocated


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the policy is glibc's")
def test_without_the_policy_a_new_thread_faults_its_pages_again() -> None:
    """The control: what the policy changes is real on this C library."""
    default = _faults("default")
    assert min(default["main"][1:]) > PAGES // 2, default  # every round faults its pages again
    assert default["thread"] > PAGES // 2, default


def test_the_warm_up_speaks_a_piece_as_long_as_the_longest_first_piece() -> None:
    """Its tensors' pages are the ones a job's first piece needs (engine/synthesis/backends/piper.py)."""
    from engine.core.text import FIRST_CUT_SLACK, FIRST_PIECE_CHARS, split_for_streaming
    from engine.synthesis.backends.piper import WARM_UP_TEXT

    assert len(WARM_UP_TEXT) >= FIRST_CUT_SLACK * FIRST_PIECE_CHARS
    assert len(split_for_streaming(WARM_UP_TEXT, len(WARM_UP_TEXT))) == 1  # spoken as one piece


# A one-off burst (a model's graph parsed): 64 MiB in 256 KiB blocks, freed, then resident memory.
_BURST = textwrap.dedent("""
    import json, sys
    import numpy as np
    from engine.synthesis.allocator import keep_freed_memory, short_lived_allocations

    def resident_mib():
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * 4096 / 2**20

    keep_freed_memory()
    before = resident_mib()
    if sys.argv[1] == "short-lived":
        with short_lived_allocations():
            blocks = [np.ones(1 << 18, np.uint8) for _ in range(256)]
            del blocks
    else:
        blocks = [np.ones(1 << 18, np.uint8) for _ in range(256)]
        del blocks
    print(json.dumps({"kept_mib": resident_mib() - before}))
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the policy is glibc's")
@pytest.mark.parametrize(("mode", "most_kept_mib", "least_kept_mib"), [("short-lived", 8, None), ("policy", None, 48)])
def test_a_short_lived_burst_goes_back_to_the_kernel_when_freed(mode: str, most_kept_mib: int | None,
                                                                least_kept_mib: int | None) -> None:
    """Under the policy alone, the burst's 64 MiB stay mapped (the control); inside
    short_lived_allocations they are given back."""
    done = subprocess.run([sys.executable, "-c", _BURST, mode], capture_output=True, text=True, check=True)
    kept = json.loads(done.stdout)["kept_mib"]
    assert (most_kept_mib is None or kept < most_kept_mib) and (least_kept_mib is None or kept > least_kept_mib), kept

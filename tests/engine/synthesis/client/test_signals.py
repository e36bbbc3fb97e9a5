"""Ctrl+C or SIGTERM never lands inside a read of the engine's event queue.

Raised mid-read, KeyboardInterrupt left half a message in the pipe and every later read hung
(a render stopped with Ctrl+C waited forever for its cancellations). The client holds the
signals while it reads and lets them act right after.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator

import pytest

from engine.synthesis.client.local import signals_held


@pytest.fixture
def python_ctrl_c() -> Iterator[None]:
    """Ctrl+C as a fresh Python program has it (KeyboardInterrupt), whatever ran before in this process."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_a_signal_during_the_read_acts_once_the_read_is_done(python_ctrl_c: None) -> None:
    reached_end_of_read = False
    with pytest.raises(KeyboardInterrupt), signals_held():
        signal.raise_signal(signal.SIGINT)
        reached_end_of_read = True  # the read would complete here, its message whole
    assert reached_end_of_read
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


def test_without_a_signal_nothing_changes() -> None:
    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    with signals_held():
        pass
    assert {number: signal.getsignal(number) for number in before} == before


def test_other_threads_read_as_before() -> None:
    seen: list[object] = []

    def read() -> None:
        with signals_held():
            seen.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=read)
    thread.start()
    thread.join()
    assert seen == [signal.getsignal(signal.SIGINT)]  # handlers are only the main thread's to change

"""How the Piper backend divides the cores between the jobs running at once."""

import os

import pytest

from engine.backends.piper import PiperBackend


@pytest.fixture(scope="module")
def backend():
    piper = PiperBackend()
    piper.load()
    return piper


def threads_of(voice) -> int:
    return int(voice.session.get_session_options().intra_op_num_threads)


@pytest.mark.parametrize(("cores", "slots", "running", "expected"), [
    (4, 2, 1, 4),  # alone: every core
    (4, 2, 2, 2),  # two at once: half each
    (4, 3, 3, 1),  # never more threads than cores in all
    (2, 1, 1, 2),
])
def test_a_job_gets_the_cores_divided_by_the_jobs_running(backend, monkeypatch, cores, slots, running, expected):
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    backend.set_slots(slots)
    backend._active = running
    try:
        voice = backend._voice_for_now()
    finally:
        backend._active = 0
    assert threads_of(voice) == expected
    assert running * threads_of(voice) <= cores

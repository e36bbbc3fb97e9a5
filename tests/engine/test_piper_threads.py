"""How the Piper backend divides the cores between the pieces computed at once."""

import os

import numpy as np
import pytest

from engine.backends.base import VoiceProfile
from engine.backends.piper import PiperBackend
from engine.protocol import VoiceSettings


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


def _profile() -> VoiceProfile:
    return VoiceProfile("plain", np.zeros(1, dtype=np.float32), PiperBackend().plain_conditioning())


def test_only_pieces_being_computed_divide_the_cores(backend, monkeypatch):
    """Jobs parked between pieces (the scheduler serves others meanwhile) take no cores."""
    backend.set_slots(2)
    seen: list[int] = []
    voice_class = type(next(iter(backend._voices.values())))
    original = voice_class.phoneme_ids_to_audio

    def counting(self, *args, **kwargs):
        seen.append(backend._active)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(voice_class, "phoneme_ids_to_audio", counting)
    text = "One sentence here. Another one there. And a third."
    streams = [backend.synthesize(text, _profile(), VoiceSettings(), lambda: False) for _ in range(2)]
    pieces = [next(streams[0]), next(streams[1]), next(streams[0])]  # both jobs started, interleaved
    assert seen == [1, 1, 1] and backend._active == 0
    assert not any(piece.last for piece in pieces)
    rest = list(streams[1])
    assert [piece.last for piece in rest] == [False, True]  # the final piece says so


def test_a_piece_being_adapted_divides_the_cores_too(backend, monkeypatch):
    """A model call that begins while another piece is adapted gets half the cores, not all:
    the other piece's next model call follows at once, and two calls on every core each
    would oversubscribe them."""
    import engine.backends.piper as piper_module

    backend.set_slots(2)
    during_adaptation: list[int] = []
    original = piper_module.adapt_piece

    def counting(*args, **kwargs):
        during_adaptation.append(backend._active)
        return original(*args, **kwargs)

    monkeypatch.setattr(piper_module, "adapt_piece", counting)
    list(backend.synthesize("Counted while adapted.", _profile(), VoiceSettings(), lambda: False))
    assert during_adaptation and all(count == 1 for count in during_adaptation)
    assert backend._active == 0


def test_sessions_stop_spinning_after_each_call(backend):
    """onnxruntime's pool spins on after a call by default, taking a core from the adaptation
    that follows it (or from another slot's piece)."""
    backend.set_slots(2)
    for voice in backend._voices.values():
        assert voice.session.get_session_options().get_session_config_entry("session.force_spinning_stop") == "1"

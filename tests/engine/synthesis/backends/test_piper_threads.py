"""How the Piper backend divides the cores between the pieces computed at once."""

import os

import numpy as np
import pytest

from engine.core.protocol import VoiceSettings
from engine.synthesis.backends.base import VoiceProfile
from engine.synthesis.backends.piper import PiperBackend


@pytest.fixture(scope="module")
def backend():
    piper = PiperBackend()
    piper.load()
    return piper


def threads_of(sessions) -> int:
    counts = {int(session.get_session_options().intra_op_num_threads) for session in (sessions.encoder, sessions.decoder)}
    assert len(counts) == 1  # the encoder and the decoder of a piece run on as many threads
    return counts.pop()


@pytest.mark.parametrize(("cores", "slots", "running", "expected"), [
    (4, 2, 1, 4),  # alone: every core
    (4, 2, 2, 2),  # two at once: half each
    (4, 3, 3, 1),  # never more threads than cores in all
    (2, 1, 1, 2),
])
def test_a_job_gets_the_cores_divided_by_the_jobs_running(backend, monkeypatch, cores, slots, running, expected):
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    backend.set_slots(slots)
    backend._pieces.active = running
    try:
        sessions = backend._sessions_for_now()
    finally:
        backend._pieces.active = 0
    assert threads_of(sessions) == expected
    assert running * threads_of(sessions) <= cores


def _profile() -> VoiceProfile:
    return VoiceProfile("plain", np.zeros(1, dtype=np.float32), PiperBackend().plain_conditioning())


def test_only_pieces_being_computed_divide_the_cores(backend, monkeypatch):
    """Jobs parked between pieces (the scheduler serves others meanwhile) take no cores."""
    backend.set_slots(2)
    seen: list[int] = []
    session_class = type(next(iter(backend._sessions.values())).encoder)
    original = session_class.run

    def counting(self, *args, **kwargs):
        seen.append(backend._pieces.active)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(session_class, "run", counting)
    text = "One sentence here. Another one there. And a third."
    streams = [backend.synthesize(text, _profile(), VoiceSettings(), lambda: False) for _ in range(2)]
    pieces = [next(streams[0]), next(streams[1]), next(streams[0])]  # both jobs started, interleaved
    assert seen == [1] * 6 and backend._pieces.active == 0  # each piece: its encoder, then its decoder
    assert not any(piece.last for piece in pieces)
    rest = list(streams[1])
    assert [piece.last for piece in rest] == [False, True]  # the final piece says so


def test_a_piece_being_adapted_divides_the_cores_too(backend, monkeypatch):
    """A model call that begins while another piece is adapted gets half the cores, not all:
    the other piece's next model call follows at once, and two calls on every core each
    would oversubscribe them."""
    import engine.synthesis.backends.own_voice as own_voice  # where the backends adapt their pieces

    backend.set_slots(2)
    during_adaptation: list[int] = []
    original = own_voice.adapt_piece

    def counting(*args, **kwargs):
        during_adaptation.append(backend._pieces.active)
        return original(*args, **kwargs)

    monkeypatch.setattr(own_voice, "adapt_piece", counting)
    list(backend.synthesize("Counted while adapted.", _profile(), VoiceSettings(), lambda: False))
    assert during_adaptation and all(count == 1 for count in during_adaptation)
    assert backend._pieces.active == 0


def test_sessions_stop_spinning_after_each_call(backend):
    """onnxruntime's pool spins on after a call by default, taking a core from the adaptation
    that follows it (or from another slot's piece)."""
    backend.set_slots(2)
    for sessions in backend._sessions.values():
        for session in (sessions.encoder, sessions.decoder):
            assert session.get_session_options().get_session_config_entry("session.force_spinning_stop") == "1"


def test_the_first_piece_is_decoded_in_an_early_window_only_when_computed_alone(backend, monkeypatch):
    """The early window costs extra decoding: a first piece computed beside another piece is
    decoded in one call, one computed alone in two (its first second, then the rest)."""
    backend.set_slots(2)
    decoders = {id(sessions.decoder) for sessions in backend._sessions.values()}
    session_class = type(next(iter(backend._sessions.values())).decoder)
    original = session_class.run
    decoded: list[int] = []

    def counting(self, *args, **kwargs):
        if id(self) in decoders:
            decoded.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(session_class, "run", counting)
    text = "The lighthouse keeper swore she saw a ship drift past the rocks."
    list(backend._speak(text, 1.0, np.random.default_rng(0), lambda: False))
    assert len(decoded) == 2
    decoded.clear()
    backend._pieces.active = 1  # another job's piece is computing
    try:
        list(backend._speak(text, 1.0, np.random.default_rng(0), lambda: False))
    finally:
        backend._pieces.active = 0
    assert len(decoded) == 1

"""The player with a null output: the callback copies exactly what was queued, in order."""

from __future__ import annotations

import types

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.ui.playback.player import (
    ClockOutput,
    NullOutput,
    Player,
    RingBuffer,
    default_output,
    has_input_device,
    list_devices,
)


def heard_to_the_end(qtbot: QtBot, player: Player, output: NullOutput, frames: int) -> np.ndarray:
    """Ends the stream "job", plays ``frames`` more (the player stops) and returns all it played."""
    player.end_stream("job")
    with qtbot.waitSignal(player.stopped):
        output.pull(frames)
    return np.concatenate(output.played)


def test_ring_buffer_wraps_and_zero_fills() -> None:
    ring = RingBuffer(8)
    assert ring.write(np.arange(6, dtype=np.float32)) == 6
    out = np.ones(4, dtype=np.float32)
    assert ring.read_into(out) == 4
    assert list(out) == [0, 1, 2, 3]
    assert ring.write(np.arange(10, 20, dtype=np.float32)) == 6  # only the free space
    out = np.ones(10, dtype=np.float32)
    assert ring.read_into(out) == 8
    assert list(out) == [4, 5, 10, 11, 12, 13, 14, 15, 0, 0]


def test_plays_an_array_then_stops(qtbot: QtBot, null_output: NullOutput) -> None:
    player = Player(null_output)
    pcm = np.linspace(-1, 1, 3000, dtype=np.float32)
    with qtbot.waitSignal(player.started):
        player.play("take", pcm, 16000)
    assert player.playing_key == "take"
    for _ in range(4):
        null_output.pull(1000)
    with qtbot.waitSignal(player.stopped) as blocker:
        pass
    assert blocker.args == ["take"]
    heard = np.concatenate(null_output.played)
    np.testing.assert_array_equal(heard[:3000], pcm)
    assert not heard[3000:].any()
    assert player.playing_key == ""


def test_streams_chunks_as_they_arrive(qtbot: QtBot, null_output: NullOutput) -> None:
    player = Player(null_output)
    player.begin_stream("job", 8000)
    null_output.pull(100)  # nothing yet: silence, playhead still at 0
    assert player.position_s == 0.0
    player.feed("job", np.full(400, 0.5, dtype=np.float32), 8000)
    player.feed("other", np.full(400, 0.9, dtype=np.float32), 8000)  # not what plays: ignored
    null_output.pull(300)
    assert player.position_s == 300 / 8000
    player.feed("job", np.full(200, 0.25, dtype=np.float32), 8000)
    heard = heard_to_the_end(qtbot, player, null_output, 400)
    assert np.count_nonzero(heard == 0.5) == 400
    assert np.count_nonzero(heard == 0.25) == 200
    assert np.count_nonzero(heard == 0.9) == 0


def test_restart_drops_unheard_audio(qtbot: QtBot, null_output: NullOutput) -> None:
    player = Player(null_output)
    player.begin_stream("job", 8000)
    player.feed("job", np.full(500, 0.5, dtype=np.float32), 8000)
    null_output.pull(100)
    player.restart_stream("job")
    player.feed("job", np.full(50, 0.75, dtype=np.float32), 8000)
    heard = heard_to_the_end(qtbot, player, null_output, 200)
    assert np.count_nonzero(heard == 0.5) == 100
    assert np.count_nonzero(heard == 0.75) == 50


def test_resamples_chunks_to_the_stream_rate(null_output: NullOutput) -> None:
    player = Player(null_output)
    player.begin_stream("job", 16000)
    player.feed("job", np.zeros(800, dtype=np.float32), 8000)
    assert abs(player.queued_s - 0.1) < 0.002


def test_no_device_is_reported_once_and_playback_still_ends(qtbot: QtBot) -> None:
    player = Player(None)
    with qtbot.waitSignal(player.device_missing):
        player.check_output()
    assert isinstance(player.check_output(), ClockOutput)
    messages: list[str] = []
    player.device_missing.connect(messages.append)
    with qtbot.waitSignal(player.stopped, timeout=5000):
        player.play("short", np.zeros(80, dtype=np.float32), 8000)  # 10 ms, consumed by the clock
    assert messages == []


def test_device_lists_with_and_without_portaudio(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.ui.playback import player as player_module

    devices = [
        {"name": "Mic", "max_input_channels": 1, "max_output_channels": 0, "default_samplerate": 48000.0},
        {"name": "Speakers", "max_input_channels": 0, "max_output_channels": 2, "default_samplerate": 44100.0},
    ]
    fake = types.SimpleNamespace(query_devices=lambda: devices)
    monkeypatch.setattr(player_module, "_sounddevice", lambda: fake)
    assert [d.name for d in list_devices("output")] == ["Speakers"]
    assert has_input_device()
    output = default_output("no such device")
    assert output is not None and output.is_real and output.name == "Speakers"

    monkeypatch.setattr(player_module, "_sounddevice", lambda: None)  # PortAudio missing
    assert list_devices("output") == [] and default_output() is None and not has_input_device()

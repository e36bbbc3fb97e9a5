"""The bridge's event table: every engine event has its own signal, carrying what it declares."""

from __future__ import annotations

from typing import get_args

import numpy as np
from pytestqt.qtbot import QtBot

from app.ui.engine.bridge import EVENT_SIGNALS, EngineBridge, EngineStartFailed
from engine.core.protocol import (
    AudioChunk,
    Capabilities,
    EngineReady,
    EngineRestarted,
    EngineStarting,
    EngineStopped,
    ErrorCode,
    Event,
    JobFailed,
    JobFinished,
    JobQueued,
    JobStarted,
    JobTiming,
    RequestFailed,
    SlotsChanged,
    Stats,
    VoicePrepared,
)

CAPS = Capabilities("piper", 22050, True, ("en",), False, False, False)
ONE_OF_EACH: list[object] = [
    EngineStarting(7, "loading piper", 0.5),
    EngineReady(CAPS, 2, 7, 1.5),
    EngineStartFailed("E_ENGINE_START: no such backend"),
    JobQueued("j1", 0),
    JobStarted("j1", 0.1),
    AudioChunk("j1", 0, np.zeros(4, np.float32), 22050, "Hi."),
    JobFinished("j1", JobTiming(0.1, 0.0, "memory", 0.2, 0.3, 0.5, 1)),
    JobFailed("j2", ErrorCode.CANCELLED, "Cancelled"),
    VoicePrepared("r1", "key", "miss", 0.4, {}),
    RequestFailed("r2", ErrorCode.BAD_SETTING, "speed out of range"),
    SlotsChanged(3),
    Stats("r3", 7, "piper", 2, 0, 0, 1, 0, 0, 0, 1, 0, 0.4, 9.0),
    EngineRestarted(("j3",), -9),
    EngineStopped("shutdown"),
]


def test_every_engine_event_type_has_a_signal() -> None:
    """A new event in engine.core.protocol's Event fails here until the table names its signal."""
    events = set(get_args(Event)) | {EngineStartFailed}
    assert set(EVENT_SIGNALS) == events
    assert {type(ev) for ev in ONE_OF_EACH} == events
    signals = [relay.signal for relay in EVENT_SIGNALS.values()]
    assert len(set(signals)) == len(signals)  # one signal per event type
    assert all(hasattr(EngineBridge, name) for name in signals)


def test_each_event_is_emitted_on_its_signal_with_what_it_carries(qtbot: QtBot) -> None:
    bridge = EngineBridge()
    heard: dict[str, list[object]] = {}
    for relay in EVENT_SIGNALS.values():
        getattr(bridge, relay.signal).connect(lambda value, name=relay.signal: heard.setdefault(name, []).append(value))
    everything: list[object] = []
    bridge.engine_event.connect(everything.append)
    for ev in ONE_OF_EACH:
        bridge._dispatch(ev)
    assert everything == ONE_OF_EACH
    for ev in ONE_OF_EACH:
        relay = EVENT_SIGNALS[type(ev)]
        assert heard[relay.signal] == [ev if relay.field is None else getattr(ev, relay.field)]
    assert heard["slots_changed"] == [3] and heard["stopped"] == ["shutdown"]
    assert bridge.ready == ONE_OF_EACH[1]  # the bridge keeps the engine's EngineReady

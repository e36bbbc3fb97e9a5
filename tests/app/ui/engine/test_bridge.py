"""The bridge with the real embedded engine: events arrive as signals on the GUI thread."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.ui.engine.bridge import EngineBridge
from engine.core.protocol import (
    LOADING,
    AudioChunk,
    BackendName,
    EnginePhrase,
    EngineReady,
    EngineStarting,
    Job,
    JobFinished,
    Priority,
    VoiceSpec,
)
from engine.synthesis.config import EngineConfig
from tests.app.ui.paths import REPO

VOICE = VoiceSpec(str(REPO / "resources/voices/maya.wav"), (REPO / "resources/voices/maya.txt").read_text().strip())
START_TIMEOUT_MS = 120_000


def test_bridge_delivers_real_engine_events_on_the_gui_thread(qtbot: QtBot, tmp_path: Path) -> None:
    bridge = EngineBridge(EngineConfig(slots=1, cache_dir=str(tmp_path / "cache")))
    seen: list[tuple[object, threading.Thread]] = []
    bridge.engine_event.connect(lambda ev: seen.append((ev, threading.current_thread())))
    stages: list[str] = []
    bridge.engine_starting.connect(lambda ev: stages.append(ev.stage))
    try:
        with qtbot.waitSignal(bridge.engine_ready, timeout=START_TIMEOUT_MS) as ready:
            bridge.start()
        assert isinstance(ready.args[0], EngineReady)
        assert bridge.pid is not None
        # The start-up stages came first, for the status bar: the handshake, then the loading.
        assert stages[0] == "started" and "loading embedded" in stages
        # Each stage crossed the process boundary as the phrase it was made (the studio says it).
        loading = stages[stages.index("loading embedded")]
        assert isinstance(loading, EnginePhrase) and loading.template == LOADING
        assert isinstance(loading.arguments["backend"], BackendName)
        assert all(isinstance(ev, EngineStarting) for ev, _ in seen[: len(stages)])

        job = Job("Hello from the bridge.", VOICE, Priority.INTERACTIVE)
        chunks: list[AudioChunk] = []
        bridge.chunk.connect(lambda c: chunks.append(c) if c.job_id == job.job_id else None)
        with qtbot.waitSignal(
            bridge.job_finished, timeout=START_TIMEOUT_MS, check_params_cb=lambda ev: ev.job_id == job.job_id
        ) as finished:
            bridge.submit(job)
        assert isinstance(finished.args[0], JobFinished)
        assert chunks and chunks[0].seq == 0 and chunks[0].pcm.size > 0
        assert {t for _, t in seen} == {threading.main_thread()}
    finally:
        with qtbot.waitSignal(bridge.stopped):
            bridge.stop()
    assert not bridge.running
    with pytest.raises(RuntimeError, match="E_ENGINE_START"):
        bridge.submit(Job("late", VOICE))


def test_bridge_reports_a_failed_start(qtbot: QtBot, tmp_path: Path) -> None:
    bridge = EngineBridge(EngineConfig(backend="no-such-backend", cache_dir=str(tmp_path)))
    with qtbot.waitSignal(bridge.start_failed, timeout=START_TIMEOUT_MS) as failed:
        bridge.start()
    assert failed.args[0].startswith("E_")
    assert not bridge.running

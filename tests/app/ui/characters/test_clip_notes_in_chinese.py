"""A note the engine gives about a character's clip reaches the Characters panel in the studio's
language: a clip of 40 s is cut to its first 30 s, and under zh_CN the panel says so in Chinese."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pytestqt.qtbot import QtBot

from app.project.sample import copy_sample_project
from app.ui.characters.characters_panel import CharactersPanel
from app.ui.characters.voices import VoiceStates
from app.ui.engine.bridge import EngineBridge
from app.ui.tasks import SyncTaskRunner
from app.ui.window.document import Document
from engine.core.audio_io import read_audio
from engine.core.files import atomic_write_wav
from tests.app.ui.paths import REPO


def test_a_long_clips_note_shows_in_chinese(chinese: None, qtbot: QtBot, tmp_path: Path,
                                            engine_bridge: EngineBridge) -> None:
    audio, rate = read_audio(REPO / "resources" / "voices" / "narrator.wav")
    long_clip = atomic_write_wav(tmp_path / "long.wav", np.tile(audio, int(40 * rate / len(audio)) + 1), rate)
    doc = Document(copy_sample_project(tmp_path / "sample"))
    panel = CharactersPanel(doc, VoiceStates(engine_bridge), SyncTaskRunner(), lambda *a: None, lambda *a: None,
                            can_record=False)
    qtbot.addWidget(panel)
    panel._add()
    assert panel.import_clip_file(str(long_clip))
    qtbot.waitUntil(lambda: "✔" in panel.voice_status.text(), timeout=120_000)  # prepared by the real engine
    assert "参考音频已截取前 30 秒" in panel.voice_status.text()
    assert "clip cut" not in panel.voice_status.text()

"""The characters panel without an engine: edits, clip import, trim, reference playback, recording."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.project.sample import copy_sample_project
from app.ui.bridge import EngineBridge
from app.ui.characters_panel import CharactersPanel
from app.ui.document import Document
from app.ui.recorder import Recorder
from app.ui.tasks import SyncTaskRunner
from app.ui.voices import VoiceStates

from tests.app.ui.paths import REPO


class _FakeInput:
    """An input stream that delivers prepared blocks when started."""

    def __init__(self, rate: int, on_block: Callable[[np.ndarray], None]) -> None:
        self._on_block = on_block
        self._rate = rate

    def start(self) -> None:
        t = np.arange(self._rate) / self._rate
        for block in np.array_split((0.3 * np.sin(2 * np.pi * 220 * t)).astype(np.float32), 10):
            self._on_block(block)

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.fixture
def panel(qtbot: QtBot, tmp_path: Path) -> tuple[CharactersPanel, Document, list[Any]]:
    project = copy_sample_project(tmp_path / "sample")
    doc = Document(project)
    played: list[Any] = []
    voices = VoiceStates(EngineBridge())  # never started: statuses stay "not ready"
    widget = CharactersPanel(
        doc, voices, SyncTaskRunner(), lambda *a: played.append(a), lambda *a: played.append(a), can_record=True
    )
    qtbot.addWidget(widget)
    return widget, doc, played


def test_lists_and_edits_characters_with_undo(panel: tuple[CharactersPanel, Document, list[Any]]) -> None:
    widget, doc, _ = panel
    project = doc.project
    assert widget.list.count() == 2 and widget.current_id == project.characters[0].id
    assert widget.waveform.duration > 1.0  # the clip was decoded and drawn
    widget.name.setText("Maya Lee")
    widget.name.editingFinished.emit()
    assert project.characters[0].name == "Maya Lee"
    widget.name.setText("Rex")  # taken: refused, the stored name comes back
    widget.name.editingFinished.emit()
    assert project.characters[0].name == "Maya Lee" and widget.name.text() == "Maya Lee"
    doc.undo()
    assert project.characters[0].name == "Maya" and widget.name.text() == "Maya"


def test_trim_marks_lines_stale_and_plays_the_trimmed_reference(
    panel: tuple[CharactersPanel, Document, list[Any]],
) -> None:
    widget, doc, played = panel
    maya = doc.project.characters[0]
    widget.waveform.trim_changed.emit(0.5, 3.0)
    assert (maya.clip_start, maya.clip_end) == (0.5, 3.0)
    assert "0.50 s – 3.00 s" in widget.trim_label.text()
    widget.play_reference.click()
    key, pcm, rate = played[-1]
    assert key.startswith("clip:") and abs(len(pcm) / rate - 2.5) < 0.01


def test_add_character_import_clip_and_transcript(panel: tuple[CharactersPanel, Document, list[Any]]) -> None:
    widget, doc, _ = panel
    widget._add()
    new = doc.project.characters[-1]
    assert widget.current_id == new.id and widget.list.count() == 3
    assert not widget.audition_button.isEnabled()
    assert widget.import_clip_file(str(REPO / "resources/voices/narrator.wav"))
    assert new.clip is not None and doc.project.resolve(new.clip).is_file()
    assert new.transcript == (REPO / "resources/voices/narrator.txt").read_text(encoding="utf-8").strip()
    assert widget.audition_button.isEnabled() and widget.waveform.duration > 1.0
    assert not widget.import_clip_file(str(REPO / "pyproject.toml"))  # not audio: refused, clear error


def test_record_with_a_fake_microphone(panel: tuple[CharactersPanel, Document, list[Any]]) -> None:
    widget, doc, _ = panel
    widget.recorder = Recorder(_FakeInput, sample_rate=16000)
    maya = doc.project.characters[0]
    widget.record_button.click()
    assert widget.record_button.text().startswith("■")
    widget.record_button.click()
    assert maya.clip is not None and maya.clip.endswith("Maya_recording.wav")
    assert abs(widget.waveform.duration - 1.0) < 0.01


def test_voice_state_without_a_clip_says_why(panel: tuple[CharactersPanel, Document, list[Any]]) -> None:
    widget, doc, _ = panel
    assert "Not prepared" in widget.voice_status.text()  # the engine is not running
    widget._add()
    assert "E_NO_CLIP" in widget.voice_status.text()

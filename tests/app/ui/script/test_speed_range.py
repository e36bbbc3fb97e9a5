"""The Characters and line-delivery speed boxes offer the ready backend's own speed range
(``Capabilities.speed``, issue 23), and a speed stored outside it stays stored."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.project import EditCharacter, EditLine
from app.ui.engine.bridge import EngineBridge
from app.ui.playback.player import NullOutput
from app.ui.script.line_delivery import FOLLOWS_CHARACTER
from app.ui.script.speed_box import NONE_STEP, SpeedBox
from app.ui.settings.store import Settings
from app.ui.tasks import SyncTaskRunner
from app.ui.window.main_window import MainWindow
from engine.core.numbers import Range
from engine.core.protocol import SPEED
from engine.synthesis.backends import COSYVOICE2_SPEED, PIPER


@pytest.fixture
def window(qtbot: QtBot, settings: Settings, sync_runner: SyncTaskRunner, null_output: NullOutput,
           engine_bridge: EngineBridge, tmp_path: Path) -> Iterator[MainWindow]:
    win = MainWindow(settings, sync_runner, null_output, bridge=engine_bridge, projects_dir=tmp_path / "projects")
    qtbot.addWidget(win)
    assert win.open_sample()
    yield win
    win.close()


def spans(box: SpeedBox) -> tuple[float, float]:
    return round(box.minimum(), 2), round(box.maximum(), 2)


def assert_boxes_span(window: MainWindow, speeds: Range) -> None:
    assert window.characters is not None and window.script is not None
    assert spans(window.characters.speed) == (speeds.low, speeds.high)
    # the line's box has one more value below the range: "As character", none of its own
    assert spans(window.script.delivery.speed) == (round(speeds.low - NONE_STEP, 2), speeds.high)


def test_the_speed_boxes_span_the_ready_backends_declared_range(window: MainWindow, engine_bridge: EngineBridge) -> None:
    piper = engine_bridge.ready
    assert piper is not None and piper.backend.speed == PIPER.capabilities.speed == SPEED
    assert_boxes_span(window, SPEED)  # the real Piper engine is up: the engine's whole range

    # A CosyVoice2-like engine comes up (the event as the bridge would deliver it to the controller).
    cosyvoice_like = dataclasses.replace(piper, backend=replace(piper.backend, speed=COSYVOICE2_SPEED))
    window.engine.bridge.engine_ready.emit(cosyvoice_like)
    assert_boxes_span(window, COSYVOICE2_SPEED)
    assert (COSYVOICE2_SPEED.low, COSYVOICE2_SPEED.high) == (0.5, 2.0)

    window.engine.bridge.engine_ready.emit(piper)  # back on Piper: the whole range again
    assert_boxes_span(window, SPEED)


def test_a_character_speed_outside_the_backends_range_stays_stored_and_is_marked(
        window: MainWindow, engine_bridge: EngineBridge) -> None:
    assert window.characters is not None and window.document is not None and engine_bridge.ready is not None
    panel, doc = window.characters, window.document
    char = doc.project.characters[0]
    panel.select(char.id)
    assert doc.push(EditCharacter(char.id, settings=replace(char.settings, speed=3.0)))
    ready = engine_bridge.ready
    window.engine.bridge.engine_ready.emit(
        dataclasses.replace(ready, backend=replace(ready.backend, speed=COSYVOICE2_SPEED)))

    assert panel.speed.value() == 2.0  # shown clamped to CosyVoice2's range ...
    assert "engine will refuse" in panel.speed.toolTip() and COSYVOICE2_SPEED.refusal(3.0) in panel.speed.toolTip()
    panel.speed.editingFinished.emit()  # ... leaving the box writes no clamp back
    assert doc.project.character(char.id).settings.speed == 3.0

    panel.speed.setValue(1.5)  # the user picks a speed within the range: that is stored
    panel.speed.editingFinished.emit()
    assert doc.project.character(char.id).settings.speed == 1.5
    assert "refuse" not in panel.speed.toolTip()
    window.engine.bridge.engine_ready.emit(ready)


def test_a_line_speed_below_the_backends_range_shows_as_its_lowest_not_as_none(window: MainWindow,
                                                                             engine_bridge: EngineBridge) -> None:
    assert window.script is not None and window.document is not None and engine_bridge.ready is not None
    doc, delivery = window.document, window.script.delivery
    line = next(line for line in doc.project.lines if line.character_id)
    assert doc.push(EditLine(line.id, speed=0.3))
    delivery.set_speeds(COSYVOICE2_SPEED)
    delivery.show_line(line.id)
    assert delivery.speed.value() == 0.5 and delivery.speed.text() != FOLLOWS_CHARACTER
    assert "engine will refuse" in delivery.speed.toolTip()
    delivery.speed.editingFinished.emit()
    assert doc.project.line(line.id).speed == 0.3  # stored as it was
    delivery.speed.setValue(delivery.speed.minimum())  # the user picks "As character": no speed of its own
    delivery.speed.editingFinished.emit()
    assert doc.project.line(line.id).speed is None
    delivery.set_speeds(SPEED)


def test_typing_or_stepping_to_the_clamped_speed_stores_it(window: MainWindow, engine_bridge: EngineBridge,
                                                            qtbot: QtBot) -> None:
    assert window.characters is not None and window.script is not None and window.document is not None
    assert engine_bridge.ready is not None
    panel, delivery, doc = window.characters, window.script.delivery, window.document
    char = doc.project.characters[0]
    panel.select(char.id)
    assert doc.push(EditCharacter(char.id, settings=replace(char.settings, speed=3.0)))
    panel.speed.set_range(COSYVOICE2_SPEED)
    assert panel.speed.value() == 2.0
    panel.speed.lineEdit().selectAll()
    qtbot.keyClicks(panel.speed.lineEdit(), "2")  # the user types the very value the box shows
    panel.speed.editingFinished.emit()
    assert doc.project.character(char.id).settings.speed == 2.0

    line = next(line for line in doc.project.lines if line.character_id)
    assert doc.push(EditLine(line.id, speed=0.3))
    delivery.set_speeds(COSYVOICE2_SPEED)
    delivery.show_line(line.id)
    assert delivery.speed.value() == 0.5
    delivery.speed.stepBy(1)  # up and back down to the clamped value: picked, not the stored one
    delivery.speed.stepBy(-1)
    delivery.speed.editingFinished.emit()
    assert doc.project.line(line.id).speed == 0.5
    panel.speed.set_range(SPEED)
    delivery.set_speeds(SPEED)

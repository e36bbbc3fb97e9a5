"""Playing lines: Space has one meaning, play the current line; A/B plays the take in use, then
another (issue 21)."""

from __future__ import annotations

import pytest

from app.ui.window.main_window import MainWindow


def test_space_has_one_meaning_play_the_current_line(idle_window: MainWindow) -> None:
    from PySide6.QtGui import QKeySequence

    play_line, transport = idle_window.actions_["play_line"], idle_window.timeline.actions_["play"]  # type: ignore[union-attr]
    assert play_line.shortcut() == QKeySequence("Space") and transport.shortcut() == QKeySequence("Ctrl+Space")
    assert idle_window.timeline in play_line.associatedObjects()  # the timeline plays the line on Space too
    assert idle_window.script.table in play_line.associatedObjects()  # type: ignore[union-attr]
    assert not [name for name, action in idle_window.actions_.items() if action.text() in ("▲", "▼")]


def test_a_b_plays_the_take_in_use_then_another(idle_window: MainWindow) -> None:
    import numpy as np

    from tests.app.project.conftest import add_fake_take
    from tests.app.project.media_fixtures import speech_like

    doc, script = idle_window.document, idle_window.script
    assert doc is not None and script is not None
    line = doc.project.lines[0]
    first = add_fake_take(doc.project, line, speech_like(1.0, seed=1))
    add_fake_take(doc.project, line, speech_like(1.5, seed=2))
    line.chosen_take = first.id
    doc.notify_render(frozenset({line.id}))
    script.select_line(line.id)
    assert script.compare_button.isEnabled()
    script.compare_button.click()  # nothing else selected: the newest other take is B
    assert idle_window.player.playing_key.startswith(f"ab:{first.id}:")
    assert idle_window.player.queued_s == pytest.approx(1.0 + 0.6 + 1.5, abs=0.01)
    assert "A/B: take 1 (in use), then take 2" in idle_window.statusBar().currentMessage()
    assert np.isfinite(idle_window.player.queued_s)

"""A quiet reference clip's waveform is drawn peak-normalised, with its real level in words
(issue 34: quiet clips showed an almost flat waveform)."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf
from pytestqt.qtbot import QtBot

from app.ui.characters.waveform import WaveformView
from app.ui.waveform_gain import FILL, peak_dbfs
from tests.app.project.conftest import VOICES


def _y_range(view: WaveformView) -> tuple[float, float]:
    low, high = view._plot.getViewBox().viewRange()[1]
    return float(low), float(high)


def test_a_quiet_clip_fills_the_view_and_says_its_level(qtbot: QtBot) -> None:
    voice, rate = sf.read(str(VOICES / "maya.wav"), dtype="float32")
    loud = voice / np.abs(voice).max() * 0.9
    quiet = loud * 0.02  # about -35 dBFS: a clip recorded far from the microphone
    view = WaveformView()
    qtbot.addWidget(view)
    view.resize(500, 130)
    view.show()
    qtbot.waitExposed(view)

    view.set_audio(quiet, rate)
    peak = float(np.abs(quiet).max())
    low, high = _y_range(view)
    assert high == pytest.approx(peak / FILL, rel=0.15) and low == pytest.approx(-peak / FILL, rel=0.15)
    assert view.level.isVisible() and view.level.text() == f"peak {peak_dbfs(peak):.0f} dB"
    assert view.level.text() == "peak -35 dB"  # 0.9 × 0.02 = 0.018

    view.set_audio(loud, rate)  # loud: drawn at its own size, nothing to say
    low, high = _y_range(view)
    assert high == pytest.approx(1.0, rel=0.15) and not view.level.isVisible()
    view.set_audio(None, 0)
    assert not view.level.isVisible() and _y_range(view)[1] == pytest.approx(1.0, rel=0.15)

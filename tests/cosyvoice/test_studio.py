"""The studio on CosyVoice2 (tiny synthetic model): set up from Settings, clone, render, mix.

The window starts its own engine from the settings (backend cosyvoice2, the model folder,
the CosyVoice environment), as a user's studio does; audio goes to a null output.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.project import AddLines, EditCharacter, EditLine, Line, LineStatus
from app.project.export import DELIVERY_RATE, export_mix, mixdown, read_take
from app.project.model import new_id
from app.project.render import voice_spec
from app.ui.playback.player import NullOutput
from app.ui.settings.store import Settings
from app.ui.tasks import SyncTaskRunner
from app.ui.window.main_window import MainWindow
from engine.synthesis.backends.cosyvoice_models import SYNTHETIC_BANNER
from tests.app.ui.conftest import OFFSCREEN_NOISE

pytestmark = [pytest.mark.cosyvoice, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]

ENGINE_TIMEOUT_MS = 600_000


@pytest.fixture
def studio_settings(tmp_path: Path, qapp: object, tiny_model: Path, cosyvoice_python: Path) -> Settings:
    """What a user sets on the Voices engine page: cosyvoice2, its model folder."""
    settings = Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    settings.engine_backend = "cosyvoice2"
    settings.backend_options = {"cosyvoice2": {"model_dir": str(tiny_model)}}
    settings.engine_pythons = {"cosyvoice2": str(cosyvoice_python)}
    settings.engine_slots = 2
    settings.cache_dir = str(tmp_path / "voices")
    return settings


@pytest.fixture
def window(qtbot: QtBot, studio_settings: Settings, tmp_path: Path) -> Iterator[MainWindow]:
    output = NullOutput()
    win = MainWindow(studio_settings, SyncTaskRunner(), output, projects_dir=tmp_path / "projects")
    qtbot.addWidget(win)
    win.null_output = output  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: win.bridge.is_ready, timeout=ENGINE_TIMEOUT_MS)
    yield win
    win.close()


def test_the_studio_clones_and_renders_the_sample_project(qtbot: QtBot, window: MainWindow) -> None:
    ready = window.bridge.ready
    assert ready is not None and ready.backend.name == "cosyvoice2" and ready.backend.sample_rate == 24000
    assert window.engine.label.text().startswith("Engine: this computer · cosyvoice2 · cpu · 2 slot(s)")
    assert window.engine.banner.isVisibleTo(window) and SYNTHETIC_BANNER in window.engine.banner.text()
    assert ready.facts["model_kind"] == "synthetic" and ready.facts["torch"]

    assert window.open_sample()
    doc, characters = window.document, window.characters
    assert doc is not None and characters is not None and window.renders is not None
    project = doc.project
    assert characters.instruction.isEnabled()  # cosyvoice2 takes instructions
    # Rex speaks with an instruction (instruct2); Maya gets a Chinese line although her
    # transcript is English (cross-lingual); the other lines clone zero-shot.
    rex = project.character("rex")
    doc.push(EditCharacter("rex", settings=replace(rex.settings, instruction="Speak slowly, in a low voice.")))
    doc.push(AddLines([Line(id=new_id(), text="我们明天早上见。", character_id="maya")], len(project.lines)))
    assert voice_spec(project, "rex").settings.instruction == "Speak slowly, in a low voice."

    # An audition streams at 24 kHz through the player.
    output: NullOutput = window.null_output  # type: ignore[attr-defined]
    window.playback.audition(window.session.document, "maya", "Is anybody there?")
    qtbot.waitUntil(lambda: output.sample_rate == 24000, timeout=ENGINE_TIMEOUT_MS)

    def pulled_to_the_end() -> bool:
        output.pull(4800)
        return not window.player.playing_key

    qtbot.waitUntil(pulled_to_the_end, timeout=ENGINE_TIMEOUT_MS)

    with qtbot.waitSignal(window.renders.running_changed, timeout=ENGINE_TIMEOUT_MS,
                          check_params_cb=lambda running: not running):
        assert window.session.render_lines(None)
    assert project.settings.backend == "cosyvoice2"  # the project remembers what made its takes
    takes = []
    for line in project.lines:
        assert project.status(line) is LineStatus.DONE, (line.text, line.error)
        take = project.chosen_take(line)
        assert take is not None and take.backend == "cosyvoice2"
        info = sf.info(str(project.take_path(take)))
        assert info.samplerate == 24000 and info.frames > 2400
        takes.append(take)

    # The mix: every take at its slot, at 24 kHz, nothing resampled. Levels as rendered here, so
    # the sum can be checked sample by sample; the export below normalises to the project's target.
    target = project.settings
    project.settings = replace(target, loudness_target_lufs=None)
    audio = mixdown(project)
    project.settings = target
    assert audio.sample_rate == 24000 and audio.missing == []
    expected = np.zeros_like(audio.mix)
    for slot in audio.slots:
        take = project.chosen_take(project.line(slot.line_id))
        assert take is not None
        pcm, rate = read_take(project, take)
        assert rate == 24000
        begin = int(round(slot.start * rate))
        expected[begin: begin + len(pcm)] += pcm
    np.testing.assert_allclose(audio.mix, expected * audio.gain, atol=1e-6)
    result = export_mix(project)
    written, rate = sf.read(str(result.files[0]), dtype="float32")
    # The delivered mix is at the delivery rate (48 kHz), the takes resampled: the same length in time.
    assert rate == DELIVERY_RATE and abs(len(written) - len(audio.mix) * DELIVERY_RATE // 24000) <= 2

    # Stale detection works as with Piper: an edited line is stale until rendered again.
    first = project.lines[0]
    doc.push(EditLine(first.id, text=first.text + " Really."))
    assert project.status(first) is LineStatus.STALE
    window.playback.play_take(window.session.document, first.id, takes[0].id)
    assert window.player.playing_key == f"take:{takes[0].id}" and output.sample_rate == 24000

"""Each settings form takes its ranges and choices from their one declaration (issue 23): the
studio's Settings (Option), the project's settings (PROJECT_SETTING_RANGES), the engine's slots
(MAX_SLOTS) and the backends' options (their descriptors)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QSpinBox
from pytestqt.qtbot import QtBot

from app.project import GUIDE_MIXES, LOUDNESS_PRESETS, Project, ProjectSettings
from app.project.errors import InvalidValueError
from app.project.model import PROJECT_SETTING_RANGES
from app.ui.engine.backend_form import BackendOptionsForm
from app.ui.folders import Folders
from app.ui.settings.dialog import SettingsDialog
from app.ui.settings.project_dialog import FIELDS, ProjectSettingsDialog
from app.ui.settings.store import ENGINE_LOCATIONS, Settings
from app.ui.stress.target import TargetBox
from app.ui.tasks import SyncTaskRunner
from engine.core.protocol import MAX_SLOTS
from engine.synthesis.backends import COSYVOICE2, DESCRIPTORS, OptionKind


def test_the_general_pages_spin_boxes_span_their_options_declared_range(qtbot: QtBot, settings: Settings) -> None:
    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    for spin, option in ((dialog.general.slots, Settings.engine_slots), (dialog.general.autosave, Settings.autosave_s)):
        assert (spin.minimum(), spin.maximum(), spin.singleStep()) == (option.minimum, option.maximum, option.step)
    assert Settings.engine_slots.maximum == MAX_SLOTS  # the engine's one maximum, not a dialog's own
    assert dialog.general.slots.specialValueText() == "Automatic" and dialog.general.autosave.specialValueText() == "Off"


def test_the_stress_panels_slots_take_the_engines_maximum(qtbot: QtBot) -> None:
    target = TargetBox(Folders())
    qtbot.addWidget(target)
    assert (target.slots.minimum(), target.slots.maximum()) == (0, MAX_SLOTS)  # 0: the engine decides


def test_a_backend_forms_whole_number_options_span_their_declared_range(qtbot: QtBot) -> None:
    for spec in DESCRIPTORS.values():
        form = BackendOptionsForm(spec)
        qtbot.addWidget(form)
        for option in spec.options:
            editor = form.editor(option.name)
            if option.kind is OptionKind.INT and option.default is not None:
                assert isinstance(editor, QSpinBox)
                assert (editor.minimum(), editor.maximum()) == (option.minimum, option.maximum)
    assert COSYVOICE2.option("trt_concurrent").maximum == 64  # one such option, so the loop above saw one


def test_the_project_settings_dialog_spans_the_project_models_ranges(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = ProjectSettingsDialog(Project.create(tmp_path / "proj", "Ranges"))
    qtbot.addWidget(dialog)
    shown = {"fit_max_rate": dialog.fit_max_rate, "loudness_target_lufs": dialog.target,
             "true_peak_dbtp": dialog.ceiling, "guide_gain_db": dialog.guide_gain, "duck_db": dialog.duck_db}
    assert set(shown) == set(FIELDS)
    for name, spin in shown.items():
        assert (spin.minimum(), spin.maximum()) == PROJECT_SETTING_RANGES[name], name
        assert dialog.findChild(type(spin), f"setting_{name}") is spin
    guide = [dialog.guide_mix.itemData(i) for i in range(dialog.guide_mix.count())]
    assert tuple(guide) == GUIDE_MIXES
    presets = [dialog.loudness.itemData(i) for i in range(dialog.loudness.count())]
    assert presets[:len(LOUDNESS_PRESETS)] == list(LOUDNESS_PRESETS)


@pytest.mark.parametrize("name", sorted(PROJECT_SETTING_RANGES))
def test_the_project_model_refuses_each_setting_just_outside_its_declared_range(name: str) -> None:
    low, high = PROJECT_SETTING_RANGES[name]
    for value in (low, high):
        ProjectSettings(**{name: value}).validate()
    for value in (low - 0.01, high + 0.01):
        with pytest.raises(InvalidValueError, match=f"setting {name} must be between {low:g} and {high:g}"):
            ProjectSettings(**{name: value}).validate()


def test_an_option_outside_its_limits_is_refused_when_set_and_read_as_its_default(settings: Settings) -> None:
    with pytest.raises(ValueError, match=rf"expected a number from 0 to {MAX_SLOTS}, got {MAX_SLOTS + 1}"):
        settings.engine_slots = MAX_SLOTS + 1
    settings.engine_slots = MAX_SLOTS
    assert settings.engine_slots == MAX_SLOTS
    settings._q.setValue(Settings.engine_slots.key, 64)  # written by an older studio (its dialog went to 64)
    assert settings.engine_slots == Settings.engine_slots.default
    with pytest.raises(ValueError, match="expected one of local, server"):
        settings.engine_location = "moon"
    assert Settings.engine_location.choices == ENGINE_LOCATIONS
    assert Settings.engine_backend.choices == tuple(DESCRIPTORS)

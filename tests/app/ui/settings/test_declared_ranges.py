"""Each settings form takes its ranges and choices from their one declaration (issue 23): the
studio's Settings (Option), the project's settings (PROJECT_SETTING_RANGES), the engine's slots
(SLOTS) and the backends' options (their descriptors)."""

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
from engine.core.numbers import RangeError
from engine.core.protocol import SLOTS
from engine.synthesis.backends import COSYVOICE2, DESCRIPTORS, OptionKind


def test_the_general_pages_spin_boxes_span_their_options_declared_range(qtbot: QtBot, settings: Settings) -> None:
    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    for spin, option in ((dialog.general.slots, Settings.engine_slots), (dialog.general.autosave, Settings.autosave_s)):
        assert option.range is not None
        assert (spin.minimum(), spin.maximum(), spin.suffix()) == (option.range.low, option.range.high,
                                                                   option.range.suffix)
    assert Settings.engine_slots.range is not None
    assert Settings.engine_slots.range.high == SLOTS.high  # the engine's one maximum, not a dialog's own
    assert dialog.general.slots.specialValueText() == "Automatic" and dialog.general.autosave.specialValueText() == "Off"


def test_the_stress_panels_slots_take_the_engines_maximum(qtbot: QtBot) -> None:
    target = TargetBox(Folders())
    qtbot.addWidget(target)
    assert (target.slots.minimum(), target.slots.maximum()) == (0, SLOTS.high)  # 0: the engine decides


def test_a_backend_forms_whole_number_options_span_their_declared_range(qtbot: QtBot) -> None:
    for spec in DESCRIPTORS.values():
        form = BackendOptionsForm(spec)
        qtbot.addWidget(form)
        for option in spec.options:
            editor = form.editor(option.name)
            if option.kind is OptionKind.INT and option.default is not None:
                assert isinstance(editor, QSpinBox) and option.range is not None
                assert (editor.minimum(), editor.maximum()) == (option.range.low, option.range.high)
    trt = COSYVOICE2.option("trt_concurrent")
    assert trt.default is not None and trt.range is not None and trt.range.high == 64  # the loop above saw one


def test_the_project_settings_dialog_spans_the_project_models_ranges(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = ProjectSettingsDialog(Project.create(tmp_path / "proj", "Ranges"))
    qtbot.addWidget(dialog)
    shown = {"fit_max_rate": dialog.fit_max_rate, "fit_max_total": dialog.fit_max_total,
             "fit_borrow_s": dialog.fit_borrow_s, "loudness_target_lufs": dialog.target,
             "true_peak_dbtp": dialog.ceiling, "guide_gain_db": dialog.guide_gain, "duck_db": dialog.duck_db}
    assert set(shown) == set(FIELDS)
    for name, spin in shown.items():
        declared = PROJECT_SETTING_RANGES[name]
        assert (spin.minimum(), spin.maximum(), spin.suffix()) == (declared.low, declared.high, declared.suffix), name
        assert dialog.findChild(type(spin), f"setting_{name}") is spin
    guide = [dialog.guide_mix.itemData(i) for i in range(dialog.guide_mix.count())]
    assert tuple(guide) == GUIDE_MIXES
    presets = [dialog.loudness.itemData(i) for i in range(dialog.loudness.count())]
    assert presets[:len(LOUDNESS_PRESETS)] == list(LOUDNESS_PRESETS)


@pytest.mark.parametrize("name", sorted(PROJECT_SETTING_RANGES))
def test_the_project_model_refuses_each_setting_just_outside_its_declared_range(name: str) -> None:
    declared = PROJECT_SETTING_RANGES[name]
    for value in (declared.low, declared.high):
        ProjectSettings(**{name: value}).validate()
    for value in (declared.low - 0.01, declared.high + 0.01):
        with pytest.raises(InvalidValueError) as caught:
            ProjectSettings(**{name: value}).validate()
        assert (caught.value.code, caught.value.message) == (declared.code, declared.refusal(value))


def test_an_option_outside_its_limits_is_refused_when_set_and_read_as_its_default(settings: Settings) -> None:
    most = int(SLOTS.high)
    with pytest.raises(RangeError, match=rf"slots must be a whole number from 0 to {most} \(0 = automatic\), "
                                         rf"got {most + 1}$"):
        settings.engine_slots = most + 1
    settings.engine_slots = most
    assert settings.engine_slots == most
    settings._q.setValue(Settings.engine_slots.key, 64)  # written by an older studio (its dialog went to 64)
    assert settings.engine_slots == Settings.engine_slots.default
    with pytest.raises(ValueError, match="expected one of local, server"):
        settings.engine_location = "moon"
    assert Settings.engine_location.choices == ENGINE_LOCATIONS
    assert Settings.engine_backend.choices == tuple(DESCRIPTORS)

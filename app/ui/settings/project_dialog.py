"""Project › Project settings: fitting takes to slots, loudness, the guide in the export, and
when take QA fails a take.

These are the project's own settings (:class:`~app.project.ProjectSettings`, saved in
project.json and used by the headless ``render``/``--export`` too), unlike the studio's
Settings dialog. OK pushes one :class:`~app.project.EditProject` with what changed, so a
single undo restores the previous values.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.project import (
    GUIDE_MIXES,
    LOUDNESS_PRESETS,
    MUSIC_EFFECTS_SOURCES,
    EditProject,
    Project,
    ProjectSettings,
)
from app.project.model import PROJECT_SETTING_RANGES
from app.project.translatable import QT_TRANSLATE_NOOP
from app.project.translation import SetTargetLanguage
from app.project.undo import Command, Macro
from app.ui.dialog_parts import hint_label, ok_cancel
from app.ui.language import language_label
from app.ui.settings.qa_thresholds import QaThresholdsBox
from app.ui.settings.separation_model import SeparationModelRow
from app.ui.spin_boxes import number_spin
from app.ui.tasks import TaskRunner
from engine.core.languages import LANGUAGES
from engine.hearing.chinese import CHINESE_SCRIPTS, SIMPLIFIED, TRADITIONAL

# The loudness choices: a named preset, a target of one's own, or no normalisation at all.
PRESET_LABELS = {
    "ebu-r128": QT_TRANSLATE_NOOP("ProjectDialog", "EBU R128 broadcast (−23 LUFS)"),
    "web": QT_TRANSLATE_NOOP("ProjectDialog", "Web and streaming (−16 LUFS)"),
}
CUSTOM, OFF = "custom", "off"
GUIDE_MIX_LABELS = {
    "replace": QT_TRANSLATE_NOOP("ProjectDialog", "Replaced by the dub (dialogue only)"),
    "music-effects": QT_TRANSLATE_NOOP("ProjectDialog",
                                       "Its music and effects under the dub (the original dialogue taken out)"),
    "duck": QT_TRANSLATE_NOOP("ProjectDialog", "Kept under the dub, lowered while lines play"),
}
MUSIC_EFFECTS_LABELS = {
    "channels": str(QT_TRANSLATE_NOOP("ProjectDialog", "The source's channels (its centre taken out)")),
    "model": str(QT_TRANSLATE_NOOP("ProjectDialog", "A separation model (hears the voices anywhere, mono too)")),
}

# The numeric settings the dialog shows: name -> (step, decimals); each range and unit is the
# project model's (PROJECT_SETTING_RANGES).
FIELDS: dict[str, tuple[float, int]] = {
    "fit_max_rate": (0.05, 2),
    "fit_max_total": (0.05, 2),
    "fit_borrow_s": (0.1, 2),
    "loudness_target_lufs": (0.5, 1),
    "true_peak_dbtp": (0.5, 1),
    "guide_gain_db": (1.0, 1),
    "duck_db": (1.0, 1),
}


def _spin(name: str, value: float) -> QDoubleSpinBox:
    step, decimals = FIELDS[name]
    spin = number_spin(PROJECT_SETTING_RANGES[name], step, decimals)
    spin.setObjectName(f"setting_{name}")
    spin.setValue(value)
    return spin


class ProjectSettingsDialog(QDialog):
    """Edits a project's title, fit, loudness, guide and QA settings; :meth:`command` says what changed."""

    def __init__(self, project: Project, parent: QWidget | None = None, runner: TaskRunner | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Project settings"))
        self.setObjectName("projectSettingsDialog")
        self._project = project
        self._runner = runner  # for the separation model's download
        settings = project.settings

        self.title = QLineEdit(project.title)

        fit_box = self._build_fit_box(settings)
        loud_box = self._build_loudness_box(settings)
        guide_box = self._build_guide_box(settings)

        # How transcribed Chinese is written (Project › Transcribe the dialogue, dubstudio transcribe).
        self.chinese_script = QComboBox()
        self.chinese_script.setObjectName("setting_chinese_script")
        script_labels = {SIMPLIFIED: self.tr("Simplified (简体)"), TRADITIONAL: self.tr("Traditional (繁體)")}
        for key in CHINESE_SCRIPTS:
            self.chinese_script.addItem(script_labels[key], key)
        self.chinese_script.setCurrentIndex(self.chinese_script.findData(settings.chinese_script))
        self.chinese_script.setToolTip(self.tr("The characters transcribed Chinese lines are written in"))

        # The language the project dubs into: its characters speak it, and translations go into it.
        self.target_language = QComboBox()
        self.target_language.setObjectName("setting_target_language")
        self.target_language.addItem(self.tr("The original's (no translation)"), "")
        for code in LANGUAGES:
            self.target_language.addItem(language_label(code), code)
        if self.target_language.findData(project.target_language) < 0:  # a code without rules of its own
            self.target_language.addItem(project.target_language, project.target_language)
        self.target_language.setCurrentIndex(self.target_language.findData(project.target_language))
        self.target_language.setToolTip(self.tr(
            "The language the project dubs into: every character's voice speaks it, and Translate writes into it"))

        buttons = ok_cancel(self)
        title_form = QFormLayout()
        title_form.addRow(self.tr("Title"), self.title)
        title_form.addRow(self.tr("Target language"), self.target_language)
        title_form.addRow(self.tr("Chinese script"), self.chinese_script)
        self.qa = QaThresholdsBox(settings.qa)
        # Two columns: the QA group beside the others keeps the dialog within a laptop's height.
        mix_column = QVBoxLayout()
        mix_column.addWidget(fit_box)
        mix_column.addWidget(loud_box)
        mix_column.addWidget(guide_box)
        mix_column.addStretch(1)
        qa_column = QVBoxLayout()
        qa_column.addWidget(self.qa)
        qa_column.addStretch(1)
        columns = QHBoxLayout()
        columns.addLayout(mix_column)
        columns.addLayout(qa_column)
        layout = QVBoxLayout(self)
        layout.addLayout(title_form)
        layout.addLayout(columns)
        layout.addWidget(buttons)
        self._on_preset()
        self._on_guide_mix()

    def _build_fit_box(self, settings: ProjectSettings) -> QGroupBox:
        """Fit to slot: the default and the fastest speaking rate."""
        self.fit_default = QCheckBox(self.tr("Fit every line's take into its slot when rendering"))
        self.fit_default.setChecked(settings.fit_default)
        self.fit_default.setToolTip(self.tr("Lines can still choose for themselves in the script's Fit column"))
        self.fit_max_rate = _spin("fit_max_rate", settings.fit_max_rate)
        self.fit_max_rate.setToolTip(self.tr("Up to this speaking rate the voice simply speaks faster; beyond it the rest is time-stretched (Rubber Band). 1.25× is where speech starts to sound rushed."))
        fit_box = QGroupBox(self.tr("Fit to slot"))
        fit_form = QFormLayout(fit_box)
        fit_form.addRow(self.fit_default)
        fit_form.addRow(self.tr("Fastest speaking rate"), self.fit_max_rate)
        self.fit_max_total = _spin("fit_max_total", settings.fit_max_total)
        self.fit_max_total.setToolTip(self.tr(
            "Faster speaking and time-stretch together never speed a take up more than this; a line that still "
            "does not fit is flagged “too long” with the seconds it needs."))
        fit_form.addRow(self.tr("Total speed-up limit"), self.fit_max_total)
        self.fit_borrow_s = _spin("fit_borrow_s", settings.fit_borrow_s)
        self.fit_borrow_s.setToolTip(self.tr(
            "A line with an end time may run on into the silence after it by this much, never past the next "
            "line's start, before anything is sped up."))
        fit_form.addRow(self.tr("Run into the silence after a line"), self.fit_borrow_s)
        return fit_box

    def _build_loudness_box(self, settings: ProjectSettings) -> QGroupBox:
        """The loudness target (a preset, another, or off) and the true-peak ceiling."""
        self.loudness = QComboBox()
        self.loudness.setObjectName("loudnessPreset")
        for key in LOUDNESS_PRESETS:
            self.loudness.addItem(QCoreApplication.translate("ProjectDialog", PRESET_LABELS[key]), key)
        self.loudness.addItem(self.tr("Another target"), CUSTOM)
        self.loudness.addItem(self.tr("Off: keep the takes' levels"), OFF)
        target = settings.loudness_target_lufs
        self.target = _spin("loudness_target_lufs", target if target is not None else LOUDNESS_PRESETS["ebu-r128"])
        preset = next((key for key, value in LOUDNESS_PRESETS.items() if target is not None and abs(value - target) < 1e-6),
                      CUSTOM if target is not None else OFF)
        self.loudness.setCurrentIndex(self.loudness.findData(preset))
        self.loudness.currentIndexChanged.connect(self._on_preset)
        self.ceiling = _spin("true_peak_dbtp", settings.true_peak_dbtp)
        self.ceiling.setToolTip(self.tr("No peak of the mix (between samples too) goes above this"))
        loud_box = QGroupBox(self.tr("Loudness of the mix and the video"))
        loud_form = QFormLayout(loud_box)
        loud_form.addRow(self.tr("Target"), self.loudness)
        loud_form.addRow(self.tr("Integrated loudness"), self.target)
        loud_form.addRow(self.tr("True-peak ceiling"), self.ceiling)
        hint = hint_label(self.tr("Every take is brought to the target, then the whole mix (ITU-R BS.1770)."))
        loud_form.addRow(hint)
        return loud_box

    def _build_guide_box(self, settings: ProjectSettings) -> QGroupBox:
        """How the original audio goes into the exported mix: how, its level, the dip under lines."""
        self.guide_mix = QComboBox()
        for key in GUIDE_MIXES:
            self.guide_mix.addItem(QCoreApplication.translate("ProjectDialog", GUIDE_MIX_LABELS[key]), key)
        self.guide_mix.setCurrentIndex(self.guide_mix.findData(settings.guide_mix))
        self.guide_mix.currentIndexChanged.connect(self._on_guide_mix)
        self.guide_gain = _spin("guide_gain_db", settings.guide_gain_db)
        self.duck_db = _spin("duck_db", settings.duck_db)
        self.duck_db.setToolTip(self.tr("How far the original audio dips while a line plays"))
        guide_box = QGroupBox(self.tr("Original audio in the exported mix and video"))
        guide_form = QFormLayout(guide_box)
        guide_form.addRow(self.tr("Original audio"), self.guide_mix)
        self.music_effects_source = QComboBox()
        self.music_effects_source.setObjectName("setting_music_effects_source")
        for key in MUSIC_EFFECTS_SOURCES:
            self.music_effects_source.addItem(QCoreApplication.translate("ProjectDialog", MUSIC_EFFECTS_LABELS[key]), key)
        self.music_effects_source.setCurrentIndex(self.music_effects_source.findData(settings.music_effects_source))
        self.music_effects_source.setToolTip(self.tr(
            "Where the music and effects come from when the client supplied no stem: the centre channel dropped "
            "(5.1) or filtered out (stereo), or a downloaded model that takes the voices out"))
        self.music_effects_source.currentIndexChanged.connect(self._on_guide_mix)
        guide_form.addRow(self.tr("Music and effects from"), self.music_effects_source)
        self.separation_model = SeparationModelRow(self._runner, self._project)
        guide_form.addRow("", self.separation_model)
        guide_form.addRow(self.tr("Its level"), self.guide_gain)
        guide_form.addRow(self.tr("Dip under lines"), self.duck_db)
        if not self._project.guide_audio:
            guide_box.setToolTip(self.tr("This project has no original audio yet (Project › Add the original audio)"))
        return guide_box

    def _on_preset(self) -> None:
        key = self.loudness.currentData()
        if key in LOUDNESS_PRESETS:
            self.target.setValue(LOUDNESS_PRESETS[key])
        self.target.setEnabled(key == CUSTOM)
        self.ceiling.setEnabled(key != OFF)

    def _on_guide_mix(self) -> None:
        ducking = self.guide_mix.currentData() == "duck"
        self.guide_gain.setEnabled(ducking)
        self.duck_db.setEnabled(ducking)
        music_effects = self.guide_mix.currentData() == "music-effects"
        self.music_effects_source.setEnabled(music_effects)
        self.separation_model.setVisible(music_effects and self.music_effects_source.currentData() == "model")
        self._grow_to_fit()

    def _grow_to_fit(self) -> None:
        """Grow to the height the wrapped labels need at this width: a window's minimum height
        ignores wrapping, so the model row's two lines were cut in half when it appeared. Before
        the first show Qt sizes the dialog itself."""
        if not self.isVisible():
            return
        layout = self.layout()
        assert layout is not None  # made in __init__
        layout.activate()
        needed = self.heightForWidth(self.width())
        if needed > self.height():
            self.resize(self.width(), needed)

    def values(self) -> dict[str, Any]:
        """Every setting as the dialog shows it (title included)."""
        key = self.loudness.currentData()
        return {
            "title": self.title.text().strip() or self._project.title,
            "fit_default": self.fit_default.isChecked(),
            "fit_max_rate": round(self.fit_max_rate.value(), 2),
            "fit_max_total": round(self.fit_max_total.value(), 2),
            "fit_borrow_s": round(self.fit_borrow_s.value(), 2),
            "loudness_target_lufs": None if key == OFF else round(self.target.value(), 1),
            "true_peak_dbtp": round(self.ceiling.value(), 1),
            "guide_mix": self.guide_mix.currentData(),
            "music_effects_source": self.music_effects_source.currentData(),
            "guide_gain_db": round(self.guide_gain.value(), 1),
            "duck_db": round(self.duck_db.value(), 1),
            "qa": self.qa.thresholds(),
            "chinese_script": self.chinese_script.currentData(),
        }

    def command(self) -> Command | None:
        """The undoable edit for what changed (one, even when the target language changed with
        settings), or None when nothing did."""
        settings = self._project.settings
        changed = {
            key: value for key, value in self.values().items()
            if value != (self._project.title if key == "title" else getattr(settings, key))
        }
        commands: list[Command] = [EditProject(**changed)] if changed else []
        target = str(self.target_language.currentData())
        if target != self._project.target_language:
            commands.append(SetTargetLanguage(target))
        if len(commands) > 1:
            return Macro(commands, self.tr("Edit project settings"))
        return commands[0] if commands else None

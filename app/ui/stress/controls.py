"""The stress panel's run settings: the load, the workload and the objective, as form groups.

Each group turns its fields into the load core's own objects (:class:`~engine.load.Plan`,
:class:`~engine.load.Objective`, the texts and voices), so the panel and ``dubstudio bench``
describe a run with the same words, and a bad value is refused with the core's error code.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QRegularExpression
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLayout,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.folders import Folders
from app.ui.language import fill
from app.ui.spin_boxes import decimals_for, number_spin, unit_suffix, whole_spin
from engine.core.codes import ErrorCode
from engine.core.numbers import Range
from engine.core.paths import SAMPLE_VOICES
from engine.load import Objective, Plan, PlanError
from engine.load.plans import PLAN_RANGES, Arrivals, Mode, WarmupMode
from engine.load.stats import OBJECTIVE_RANGES

TEXT_CHOICES = ((QT_TRANSLATE_NOOP("RunControls", "Bundled, as the backend speaks"), None),
                (QT_TRANSLATE_NOOP("RunControls", "Bundled English"), ("en",)),
                (QT_TRANSLATE_NOOP("RunControls", "Bundled Chinese"), ("zh",)),
                (QT_TRANSLATE_NOOP("RunControls", "Bundled English + Chinese"), ("en", "zh")),
                (QT_TRANSLATE_NOOP("RunControls", "From a file…"), "file"))
CLIP_FILTER = QT_TRANSLATE_NOOP("RunControls", "Audio (*.wav *.flac *.ogg *.mp3);;All files (*)")
NO_CAP = 0  # the cap field's "no cap", below the declared least cap of 1


@dataclass(frozen=True)
class Workload:
    """What the users say and in which voices."""

    texts_file: str | None
    text_languages: tuple[str, ...] | None
    voices: tuple[str, ...]
    cache: str  # "warm" or "cold"


DEFAULT_PLAN = Plan()
DEFAULT_OBJECTIVE = Objective()
PERCENT = 100.0  # the error rate is a fraction in the objective and a percent on screen


def number_field(allowed: Range, value: float, tip: str) -> QDoubleSpinBox:
    """A field over a declared range: its unit, and the decimals its lowest value needs."""
    spin = number_spin(allowed)
    spin.setValue(value)
    spin.setToolTip(tip)
    return spin


def whole_field(allowed: Range, value: int, tip: str, special: str = "") -> QSpinBox:
    spin = whole_spin(allowed, special)
    spin.setValue(value)
    spin.setToolTip(tip)
    return spin


def explain_rows(form: QFormLayout, tips: dict[QWidget | QLayout, str]) -> None:
    """A plain-words tooltip on each row's label (what a load-testing term means), and on its
    field when the field has no tip of its own."""
    for field, tip in tips.items():
        label = form.labelForField(field)
        if label is not None:
            label.setToolTip(tip)
        if isinstance(field, QWidget) and not field.toolTip():
            field.setToolTip(tip)


class RunControls(QWidget):
    """Load, workload and objective; :meth:`plan`, :meth:`workload` and :meth:`objective`."""

    def __init__(self, folders: Folders, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._folders = folders
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self._load_box())
        column.addWidget(self._workload_box())
        column.addWidget(self._objective_box())
        self.sync_enabled()

    # --- building -------------------------------------------------------------------------------

    def _load_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Load"))
        form = QFormLayout(box)
        self.mode_combo = QComboBox()
        self.mode_combo.addItem(self.tr("Closed loop (users)"), Mode.CLOSED.value)
        self.mode_combo.addItem(self.tr("Open loop (arrival rate)"), Mode.OPEN.value)
        self.mode_combo.currentIndexChanged.connect(self.sync_enabled)
        form.addRow(self.tr("Mode"), self.mode_combo)
        self.levels_edit = QLineEdit("1,2,4")
        self.levels_edit.setValidator(QRegularExpressionValidator(QRegularExpression(r"^\s*\d+(\s*,\s*\d+)*\s*,?\s*$")))
        self.levels_edit.setToolTip(self.tr("Users (closed loop) or multiples of the rate (open loop), e.g. 1,2,4,8"))
        form.addRow(self.tr("Levels"), self.levels_edit)
        self.hold_combo = QComboBox()
        self.hold_combo.addItems([self.tr("jobs per level"), self.tr("seconds per level")])
        self.hold_spin = QDoubleSpinBox()
        self.hold_spin.setToolTip(self.tr("How long each level is held"))
        self.hold_combo.currentIndexChanged.connect(self._hold_range)
        self._hold_range()
        self.hold_spin.setValue(float(DEFAULT_PLAN.jobs_per_level or 0))
        hold = QHBoxLayout()
        hold.addWidget(self.hold_spin)
        hold.addWidget(self.hold_combo)
        form.addRow(self.tr("Hold"), hold)
        self.warmup_spin = whole_field(PLAN_RANGES["warmup_jobs"], DEFAULT_PLAN.warmup_jobs,
                                       self.tr("Jobs per level left out of the statistics"))
        self.warmup_mode = QComboBox()
        self.warmup_mode.addItem(self.tr("under the level's load"), WarmupMode.CONCURRENT.value)
        self.warmup_mode.addItem(self.tr("one at a time, first"), WarmupMode.SEQUENTIAL.value)
        self.warmup_mode.setToolTip(self.tr("Sequential warm-up jobs run alone before the level starts, so they load nothing"))
        warmup = QHBoxLayout()
        warmup.addWidget(self.warmup_spin)
        warmup.addWidget(self.warmup_mode, 1)
        form.addRow(self.tr("Warm-up jobs"), warmup)
        self.think_spin = number_field(PLAN_RANGES["think_s"], DEFAULT_PLAN.think_s,
                                       self.tr("Closed loop: pause between a user's jobs"))
        form.addRow(self.tr("Think time"), self.think_spin)
        self.rate_spin = number_field(PLAN_RANGES["rate"], DEFAULT_PLAN.rate,
                                      self.tr("Open loop: arrivals per second per level unit"))
        form.addRow(self.tr("Rate"), self.rate_spin)
        self.arrivals_combo = QComboBox()
        self.arrivals_combo.addItem(self.tr("Poisson"), Arrivals.POISSON.value)
        self.arrivals_combo.addItem(self.tr("Constant"), Arrivals.CONSTANT.value)
        form.addRow(self.tr("Arrivals"), self.arrivals_combo)
        self.cap_spin = whole_field(dataclasses.replace(PLAN_RANGES["max_in_flight"], low=NO_CAP), NO_CAP,
                                    self.tr("Open loop: at most this many jobs in flight; latency still counts "
                                            "from arrival"), special=self.tr("no cap"))
        form.addRow(self.tr("Max in flight"), self.cap_spin)
        self.timeout_spin = number_field(PLAN_RANGES["job_timeout_s"], DEFAULT_PLAN.job_timeout_s,
                                         fill(self.tr("A job not finished by then is cancelled and counts "
                                                      "as an error ({code})"), code=ErrorCode.TIMEOUT))
        form.addRow(self.tr("Job timeout"), self.timeout_spin)
        self.stop_after_miss = QCheckBox(self.tr("Stop after the first level that misses"))
        self.stop_after_miss.setToolTip(self.tr("Step up the levels until the objective fails: higher levels would only miss more"))
        form.addRow(self.stop_after_miss)
        explain_rows(form, {
            self.mode_combo: self.tr(
                "How the load is made. Closed loop: a number of simulated users, each sending its next line "
                "only when the last one has finished (like dubbers at their desks). Open loop: lines arrive "
                "at a set rate whether or not the engine keeps up (like requests to a server)."),
            self.levels_edit: self.tr(
                "The loads to try, one after another: numbers of users (closed loop) or multiples of the "
                "rate (open loop). Each is one column of the table."),
            hold: self.tr("How long each load level lasts: a number of lines (jobs) or of seconds."),
            warmup: self.tr(
                "Warm-up jobs: the first lines of each level, left out of the figures, because the first "
                "line after a change is slower (models and voices are still loading)."),
            self.think_spin: self.tr("Closed loop: how long a simulated user pauses between two lines."),
            self.rate_spin: self.tr("Open loop: how many lines arrive per second at level 1."),
            self.arrivals_combo: self.tr(
                "Open loop: Poisson spaces the arrivals at random, as real users do; Constant spaces "
                "them evenly."),
            self.cap_spin: self.tr("Open loop: the most lines the engine is given at once; the others wait."),
        })
        return box

    def _workload_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Workload"))
        form = QFormLayout(box)
        self.texts_combo = QComboBox()
        for title, data in TEXT_CHOICES:
            self.texts_combo.addItem(self.tr(title), data)
        self.texts_combo.currentIndexChanged.connect(self.sync_enabled)
        form.addRow(self.tr("Texts"), self.texts_combo)
        self.texts_edit = QLineEdit()
        self.texts_edit.setPlaceholderText(self.tr("one text per line, UTF-8"))
        self.browse_texts = QPushButton(self.tr("Browse…"))
        self.browse_texts.clicked.connect(self._browse_texts)
        row = QHBoxLayout()
        row.addWidget(self.texts_edit)
        row.addWidget(self.browse_texts)
        form.addRow(self.tr("Text file"), row)
        self.voices_list = QListWidget()
        self.voices_list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.voices_list.setMaximumHeight(80)
        for clip in sorted((SAMPLE_VOICES).glob("*.wav")):
            self._add_voice(str(clip))
        add_voice = QPushButton(self.tr("Add…"))
        add_voice.clicked.connect(self._add_voices)
        remove_voice = QPushButton(self.tr("Remove"))
        remove_voice.clicked.connect(self._remove_voices)
        buttons = QHBoxLayout()
        buttons.addWidget(add_voice)
        buttons.addWidget(remove_voice)
        buttons.addStretch(1)
        form.addRow(self.tr("Voices"), self.voices_list)
        form.addRow("", buttons)
        self.cache_combo = QComboBox()
        self.cache_combo.addItem(self.tr("Warm (voices prepared first)"), "warm")
        self.cache_combo.addItem(self.tr("Cold (a new voice every job)"), "cold")
        form.addRow(self.tr("Voice cache"), self.cache_combo)
        explain_rows(form, {self.cache_combo: self.tr(
            "Warm: each voice is prepared before the run, as in a studio session. Cold: every line brings "
            "a new voice, the worst case.")})
        return box

    def _objective_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Objective"))
        form = QFormLayout(box)
        self.objective_spin = number_field(OBJECTIVE_RANGES["p95_first_audio_s"], DEFAULT_OBJECTIVE.p95_first_audio_s,
                                           self.tr("A level passes when its p95 first audio is at most this"))
        form.addRow(self.tr("p95 first audio ≤"), self.objective_spin)
        self.error_rate_spin = number_spin(OBJECTIVE_RANGES["max_error_rate"], scale=PERCENT)
        self.error_rate_spin.setValue(DEFAULT_OBJECTIVE.max_error_rate * PERCENT)
        self.error_rate_spin.setToolTip(self.tr("Allowed failed jobs, percent"))
        form.addRow(self.tr("Errors ≤ (%)"), self.error_rate_spin)
        self.stalls_spin = number_field(OBJECTIVE_RANGES["max_stalls_per_job"], DEFAULT_OBJECTIVE.max_stalls_per_job,
                                        self.tr("Allowed playback stalls per job"))
        form.addRow(self.tr("Stalls per job ≤"), self.stalls_spin)
        explain_rows(form, {
            self.objective_spin: self.tr(
                "p95 first audio: 95 of every 100 lines start to sound within this many seconds (the "
                "slowest 5 are allowed to be later). A level passes only when it keeps this."),
            self.stalls_spin: self.tr(
                "A stall: the listener runs out of audio in the middle of a line and hears a gap."),
        })
        return box

    # --- values ---------------------------------------------------------------------------------

    def plan(self) -> Plan:
        """The load as a plan; raises PlanError (E_PLAN) saying which field to change."""
        levels_text = self.levels_edit.text().replace(" ", "")
        try:
            levels = tuple(int(part) for part in levels_text.split(",") if part)
        except ValueError:
            raise PlanError(f"{ErrorCode.PLAN}: levels must be whole numbers like 1,2,4") from None
        by_jobs = self.hold_combo.currentIndex() == 0
        plan = Plan(
            mode=Mode(self.mode_combo.currentData()),
            levels=levels,
            jobs_per_level=int(self.hold_spin.value()) if by_jobs else None,
            seconds_per_level=None if by_jobs else float(self.hold_spin.value()),
            warmup_jobs=self.warmup_spin.value(),
            warmup_mode=WarmupMode(self.warmup_mode.currentData()),
            think_s=self.think_spin.value(),
            rate=self.rate_spin.value(),
            arrivals=Arrivals(self.arrivals_combo.currentData()),
            max_in_flight=self.cap_spin.value() or None,
            job_timeout_s=self.timeout_spin.value(),
            stop_after_miss=self.stop_after_miss.isChecked(),
        )
        plan.validate()
        return plan

    def objective(self) -> Objective:
        return Objective(
            p95_first_audio_s=self.objective_spin.value(),
            max_error_rate=self.error_rate_spin.value() / PERCENT,
            max_stalls_per_job=self.stalls_spin.value(),
        )

    def workload(self) -> Workload:
        """The texts and voices; raises ValueError (E_TEXTS) when a text file is chosen but not given."""
        choice = self.texts_combo.currentData()
        texts_file = self.texts_edit.text().strip() if choice == "file" else None
        if choice == "file" and not texts_file:
            raise ValueError(f"{ErrorCode.TEXTS}: choose a text file (one text per line, UTF-8)")
        voices = tuple(self.voices_list.item(i).toolTip() for i in range(self.voices_list.count()))
        return Workload(texts_file=texts_file, text_languages=None if choice == "file" else choice,
                        voices=voices, cache=str(self.cache_combo.currentData()))

    def show_plan(self, plan: Plan, objective: Objective) -> None:
        """Fill the fields from a plan and objective (a preset)."""
        self.mode_combo.setCurrentIndex(self.mode_combo.findData(plan.mode.value))
        self.levels_edit.setText(",".join(str(level) for level in plan.levels))
        by_jobs = plan.jobs_per_level is not None
        self.hold_combo.setCurrentIndex(0 if by_jobs else 1)
        held = plan.jobs_per_level if plan.jobs_per_level is not None else plan.seconds_per_level
        self.hold_spin.setValue(float(held or 0))
        self.warmup_spin.setValue(plan.warmup_jobs)
        self.warmup_mode.setCurrentIndex(self.warmup_mode.findData(plan.warmup_mode.value))
        self.think_spin.setValue(plan.think_s)
        self.rate_spin.setValue(plan.rate)
        self.arrivals_combo.setCurrentIndex(self.arrivals_combo.findData(plan.arrivals.value))
        self.cap_spin.setValue(plan.max_in_flight or NO_CAP)
        self.timeout_spin.setValue(plan.job_timeout_s)
        self.stop_after_miss.setChecked(plan.stop_after_miss)
        self.objective_spin.setValue(objective.p95_first_audio_s)
        self.error_rate_spin.setValue(objective.max_error_rate * PERCENT)
        self.stalls_spin.setValue(objective.max_stalls_per_job)

    # --- internals ------------------------------------------------------------------------------

    def _hold_range(self) -> None:
        """The hold is a number of jobs or of seconds, each with its own declared range."""
        held = PLAN_RANGES["jobs_per_level" if self.hold_combo.currentIndex() == 0 else "seconds_per_level"]
        self.hold_spin.setDecimals(0 if held.whole else decimals_for(held.low))
        self.hold_spin.setRange(held.low, held.high)
        self.hold_spin.setSuffix(unit_suffix(held))

    def sync_enabled(self) -> None:
        open_loop = self.mode_combo.currentData() == Mode.OPEN.value
        for widget in (self.rate_spin, self.arrivals_combo, self.cap_spin):
            widget.setEnabled(open_loop)
        self.think_spin.setEnabled(not open_loop)
        from_file = self.texts_combo.currentData() == "file"
        self.texts_edit.setEnabled(from_file)
        self.browse_texts.setEnabled(from_file)

    def _add_voice(self, path: str) -> None:
        """A clip in the list: its name shown, the whole path in the tooltip (and used)."""
        self.voices_list.addItem(Path(path).name)
        self.voices_list.item(self.voices_list.count() - 1).setToolTip(path)

    def _browse_texts(self) -> None:
        path = self._folders.open_file(self, "bench-texts", self.tr("Texts to speak"), self.tr("Text files (*.txt);;All files (*)"))
        if path:
            self.texts_edit.setText(path)

    def _add_voices(self) -> None:
        for path in self._folders.open_files(self, "clips", self.tr("Reference clips"), self.tr(CLIP_FILTER)):
            self._add_voice(path)

    def _remove_voices(self) -> None:
        for item in self.voices_list.selectedItems():
            self.voices_list.takeItem(self.voices_list.row(item))

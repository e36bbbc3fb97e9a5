"""The Stress panel: choose a target, set up a load test, watch it live, read the verdict.

Layout, at the studio's default window size: a toolbar (preset, Start, Stop, Export) and a
status line on top, so the controls are never below the fold; the settings in a scrolling
column on the left (target, load, workload, objective); on the right the live plots, one tab
per measure, over the per-level table and the verdict (a splitter between them).

The target is the panel's own — an engine it starts on this computer (any backend, its
options, interpreter and slots) or a DubStudio server — so the studio's engine and its
auditioning are neither disturbed nor counted. The preset "Hardware probe: CosyVoice2-0.5B
(synthetic weights)" fills the settings from :mod:`engine.load.probe` and, on Start, builds
the full-size synthetic model folder when it is missing before stepping through the levels.

The run happens on a worker thread. Progress reaches the GUI only through a queue drained by
ONE redraw timer, which also pushes new points to the plots; a lag probe measures how late
the event loop runs, to show the window stays responsive under load.

At about 640 lines it is a little over the ~600 the project aims at: starting, following and
exporting a run share the run's state (the worker, its report); the target, the load controls
and the plots are already their own modules.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QIODevice,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QBrush, QColor, QHideEvent, QPixmap, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.folders import Folders
from app.ui.language import MEASURE_NAMES, PROBE_NAMES, declared, explained, fill, say
from app.ui.scroll import ControlsColumn
from app.ui.stress.controls import RunControls
from app.ui.stress.lag import LagProbe
from app.ui.stress.plots import LivePlots
from app.ui.stress.target import TargetBox
from app.ui.stress.worker import (
    BenchWorker,
    Prepare,
    PrepareContext,
    Preparing,
    SessionFactory,
)
from engine.core.codes import ErrorCode
from engine.core.files import FileError, atomic_write_bytes
from engine.core.protocol import DEFAULT_BACKEND, EngineError
from engine.load import (
    BenchReport,
    BenchSession,
    BenchSettings,
    JobEnded,
    LevelFinished,
    LevelStarted,
    LevelStats,
    PlanError,
    RunFailed,
    RunFinished,
    RunStarted,
    SampleTaken,
)
from engine.load.probe import PRESETS, ProbePreset, probe_settings
from engine.load.records import JobRecord
from engine.load.report import TABLE_COLUMNS, hardware_line, table_rows
from engine.load.runner import engine_label
from engine.load.wording import SEMICOLON_LIST, joined
from engine.synthesis.backends import OptionError, descriptor
from engine.synthesis.backends.cosyvoice_models import synthetic_banner
from engine.synthesis.config import EngineConfig

REDRAW_MS = 100  # 10 frames per second: smooth enough, and cheap
# The panel's engine runs a little "nicer" than the window: when synthesis saturates the CPU
# the GUI thread still gets a core at once. The engine alone still uses every idle cycle.
ENGINE_NICE = 10
CUSTOM = ""  # the preset combo's entry for settings of one's own
# The per-level table stands on its side: a row per measure, a column per level. Its 28 measures
# never fitted across the pane (it scrolled sideways); levels are few, measures read downwards.
MEASURES = TABLE_COLUMNS[1:]  # the first, the level, heads each column
GPU_ROWS = [i for i, column in enumerate(MEASURES) if column.header.startswith("gpu")]
EXPORTS = (("json", "JSON report", "JSON (*.json)"), ("csv", "Per-level table (CSV)", "CSV (*.csv)"),
           ("png", "Plots (PNG)", "PNG image (*.png)"), ("html", "Web page (HTML)", "Web page (*.html)"))
# The results table's "ok" row (whether the level met the objective), said in the studio's language.
OK_ROW = [column.header for column in TABLE_COLUMNS[1:]].index("ok")


def measure_label(header: str, group: str) -> str:
    """A row's name in the studio's language: the report's column header, with its group when
    the header alone repeats ("first audio p50" and "total p50", not two "p50")."""
    repeated = sum(1 for column in TABLE_COLUMNS if column.header == header) > 1
    if not repeated:
        return declared(MEASURE_NAMES, header)
    group = re.split(r"\s*[(（]", declared(MEASURE_NAMES, group))[0]  # "first audio (s)": the unit goes
    return fill(QCoreApplication.translate("StressPanel", "{group} {measure}"), group=group,
                measure=declared(MEASURE_NAMES, header))


class StressPanel(QWidget):
    """A tab of the studio. See :meth:`start`, :meth:`stop`, :attr:`report` and the exports."""

    run_started = Signal()
    run_finished = Signal(BenchReport)  # also when stopped early
    run_failed = Signal(str)  # message with an error code

    def __init__(self, parent: QWidget | None = None, engine_config: EngineConfig | None = None,
                 session_factory: SessionFactory = BenchSession, folders: Folders | None = None) -> None:
        super().__init__(parent)
        self._factory = session_factory
        self._folders = folders or Folders()
        self._worker: BenchWorker | None = None
        self._ended: BenchWorker | None = None  # a finished run whose thread may still close its engine
        self._report: BenchReport | None = None
        self._jobs_done = 0
        self._errors = 0
        self._in_flight = 0
        self._levels_total = 0  # levels of the running plan (the levels field may be edited meanwhile)
        self._level_text = ""
        self._build()
        self._redraw_timer = QTimer(self)
        self._redraw_timer.setInterval(REDRAW_MS)
        self._redraw_timer.timeout.connect(self._redraw)
        self.lag = LagProbe(parent=self)  # runs while the panel is shown or a run goes
        self.set_engine_config(engine_config or EngineConfig())
        self._sync_enabled()

    # --- public API -----------------------------------------------------------------------

    @property
    def report(self) -> BenchReport | None:
        """The last finished (or stopped) run's report; None before one ends."""
        return self._report

    def is_running(self) -> bool:
        return self._worker is not None

    def set_engine_config(self, config: EngineConfig) -> None:
        """Target an engine on this computer as ``config`` describes it (the studio's, as a
        starting point); the user may change any of it here for the panel's runs."""
        self.target.set_engine_config(config)

    def probe(self) -> ProbePreset | None:
        """The hardware probe the preset combo names, or None for a run of one's own."""
        name = self.preset_combo.currentData()
        return PRESETS[name] if name else None

    def choose_preset(self, name: str) -> None:
        """Pick a preset by name ("" for a run of one's own) and fill the settings from it."""
        self.preset_combo.setCurrentIndex(max(0, self.preset_combo.findData(name)))

    def settings(self) -> BenchSettings:
        """The bench the controls describe (not for a probe that must build its model first).

        Raises PlanError, ValueError or EngineError with a coded message for the user.
        """
        plan, objective, work = self.controls.plan(), self.controls.objective(), self.controls.workload()
        common: dict[str, Any] = dict(plan=plan, objective=objective, texts_file=work.texts_file,
                                      text_languages=work.text_languages, voices=work.voices, cache=work.cache,
                                      engine_nice=ENGINE_NICE, probe=self.preset_combo.currentData() or None)
        if self.target.is_server():
            server = self.target.server()
            return BenchSettings(engine=EngineConfig(backend=server.backend or DEFAULT_BACKEND), remote=server, **common)
        return BenchSettings(engine=self.target.engine(), **common)

    def start(self) -> bool:
        """Start a run with the current controls; False (and a message) when they are invalid."""
        if self._worker is not None:
            return False
        try:
            plan: BenchSettings | Prepare = self._probe_preparation() or self.settings()
            worker = BenchWorker(plan, self._factory)
            levels = self.controls.plan().levels
            objective_s = self.controls.objective().p95_first_audio_s
        except (PlanError, ValueError, EngineError, OptionError, RuntimeError) as error:
            self._show_error(str(error))
            return False
        self._report = None
        self._jobs_done = self._errors = self._in_flight = 0
        self._levels_total = len(levels)
        self._level_text = ""
        self.table.setColumnCount(0)
        self._show_gpu_columns(False)
        self.verdict_label.setText("")
        self.hardware_label.setText("")
        self.banner.setVisible(False)
        self.plots.reset(objective_s)
        self.lag.reset()
        self.lag.start()
        self._worker = worker
        worker.start()
        self._redraw_timer.start()
        self.status_label.setStyleSheet("")
        self.status_label.setText(fill(self.tr("Starting: {describe}…"), describe=self.target.describe()))
        self._sync_enabled()
        self.run_started.emit()
        return True

    def stop(self) -> None:
        """Stop the run: jobs in flight are cancelled; the report covers what finished."""
        if self._worker is not None:
            self._worker.stop()
            self.status_label.setText(self.tr("Stopping…"))
            self.stop_button.setEnabled(False)

    def shutdown(self, timeout_s: float = 20.0) -> None:
        """Stop and wait for the runner and its engine to end; call when the studio closes."""
        if self._worker is not None:
            self._worker.stop()
            self._worker.join(timeout_s)
            self._redraw()
        if self._ended is not None:
            self._ended.join(timeout_s)
            self._ended = None

    def export_json(self, path: str | os.PathLike[str]) -> None:
        self._require_report().write_json(path)

    def export_csv(self, path: str | os.PathLike[str]) -> None:
        """The per-level table as CSV."""
        self._require_report().write_csv(path)

    def export_png(self, path: str | os.PathLike[str]) -> None:
        """Every live plot, one under the other."""
        atomic_write_bytes(path, self._plots_png(), stream_special=True)

    def export_html(self, path: str | os.PathLike[str]) -> None:
        """One self-contained page: the report's table and plots, plus these live plots as PNG."""
        self._require_report().write_html(path, images=[("Live plots of the run", self._plots_png())])

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.lag.start()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        if self._worker is None:  # a hidden tab need not wake the CPU 50 times a second
            self.lag.stop()

    # --- building the widget --------------------------------------------------------------

    def _build(self) -> None:
        self._build_toolbar()
        status_row = self._build_status_row()
        scroll = self._build_settings()
        right = self._build_results()

        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(scroll)
        main.addWidget(right)
        main.setStretchFactor(1, 1)
        main.setChildrenCollapsible(False)
        main.setSizes([390, 800])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.toolbar)
        layout.addLayout(status_row)
        layout.addWidget(main, 1)

    def _build_toolbar(self) -> None:
        """The toolbar: preset, Start, Stop, Export."""
        self.toolbar = QToolBar("Stress run")
        self.toolbar.setObjectName("stressToolbar")
        self.toolbar.setMovable(False)
        self.preset_combo = QComboBox()
        self.preset_combo.setObjectName("stressPreset")
        self.preset_combo.addItem(self.tr("Run of my own"), CUSTOM)
        for preset in PRESETS.values():
            self.preset_combo.addItem(declared(PROBE_NAMES, preset.label), preset.name)
        self.preset_combo.setToolTip(self.tr("A preset fills the settings; a hardware probe also builds its model when missing"))
        self.preset_combo.currentIndexChanged.connect(self._on_preset)
        self.toolbar.addWidget(QLabel(self.tr(" Preset ")))
        self.toolbar.addWidget(self.preset_combo)
        self.toolbar.addSeparator()
        self.start_button = self._tool_button(self.tr("▶ Start"), self.start, self.tr("Start a run with these settings"))
        self.start_button.setObjectName("stressStart")
        self.stop_button = self._tool_button(self.tr("■ Stop"), self.stop, self.tr(
            "Stop: jobs in flight are cancelled; the report covers the levels that finished"))
        self.stop_button.setObjectName("stressStop")
        self.toolbar.addSeparator()
        export_menu = QMenu(self)
        self.export_actions: dict[str, QAction] = {}
        for kind, title, _filter in EXPORTS:
            action = export_menu.addAction(title)
            action.triggered.connect(lambda _=False, k=kind: self._export_dialog(k))
            self.export_actions[kind] = action
        self.export_button = QToolButton()
        self.export_button.setText(self.tr("Export"))
        self.export_button.setMenu(export_menu)
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.toolbar.addWidget(self.export_button)

    def _build_status_row(self) -> QHBoxLayout:
        """What the run is doing, the preparing bar and the GUI's event-loop lag."""
        self.status_label = QLabel(self.tr("Choose a target and a load, then press Start."))
        self.status_label.setObjectName("stressStatus")
        self.status_label.setWordWrap(True)
        self.preparing = QProgressBar()
        self.preparing.setObjectName("stressPreparing")
        self.preparing.setMaximumWidth(200)
        self.preparing.setVisible(False)
        self.lag_label = QLabel(self.tr("Event-loop lag: –"))
        self.lag_label.setToolTip(self.tr("How late a 20 ms timer fires on the GUI thread: what a click would wait"))
        status_row = QHBoxLayout()
        status_row.setContentsMargins(6, 0, 6, 0)
        status_row.addWidget(self.status_label, 1)
        status_row.addWidget(self.preparing)
        status_row.addWidget(self.lag_label)
        return status_row

    def _build_settings(self) -> ControlsColumn:
        """The target and the load, in a scrolling column."""
        self.target = TargetBox(self._folders)
        self.target.changed.connect(self._on_target_changed)
        self.controls = RunControls(self._folders)
        column = QWidget()
        column_layout = QVBoxLayout(column)
        column_layout.setContentsMargins(0, 0, 4, 0)
        column_layout.addWidget(self.target)
        column_layout.addWidget(self.controls)
        column_layout.addStretch(1)
        scroll = ControlsColumn(column)  # never narrower than its rows: a Browse… button is never cut
        scroll.setObjectName("stressSettings")
        return scroll

    def _build_results(self) -> QWidget:
        """The live plots, the levels table, the verdict and the hardware found."""
        self.plots = LivePlots()
        self.banner = QLabel("")
        self.banner.setObjectName("stressBanner")
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background: #fff4ce; color: #5c4400; padding: 4px; border: 1px solid #e0c060")
        self.banner.setVisible(False)
        self.hardware_label = QLabel("")
        self.hardware_label.setObjectName("stressHardware")
        self.hardware_label.setWordWrap(True)
        self.hardware_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(len(MEASURES), 0)
        self.table.setObjectName("stressLevels")
        for index, spec in enumerate(MEASURES):
            header = QTableWidgetItem(measure_label(spec.header, spec.group))
            header.setToolTip(declared(MEASURE_NAMES, spec.tip))  # what the measure means
            self.table.setVerticalHeaderItem(index, header)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.verdict_label = QLabel("")
        self.verdict_label.setObjectName("stressVerdict")
        self.verdict_label.setWordWrap(True)
        self.verdict_label.setToolTip(self.tr(
            "The capacity: the highest level at which it and every lower level met the objective. A level "
            "that passes above one that missed is not counted: it was a lucky sample."))
        self.verdict_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.table, 1)
        rows = self.table.verticalHeader().defaultSectionSize()
        self.table.setMinimumHeight(self.table.horizontalHeader().sizeHint().height() + 3 * rows + 20)
        self._show_gpu_columns(False)  # until a level measures a GPU
        results = QSplitter(Qt.Orientation.Vertical)
        results.setObjectName("stressResults")
        results.addWidget(self.plots)
        results.addWidget(bottom)
        results.setStretchFactor(0, 3)
        results.setStretchFactor(1, 2)
        results.setChildrenCollapsible(False)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.banner)
        right_layout.addWidget(results, 1)
        # Below the splitter, where the layout gives wrapped text its height: inside it the
        # verdict was squeezed over the table's scroll bar.
        right_layout.addWidget(self.verdict_label)
        right_layout.addWidget(self.hardware_label)
        return right

    def _tool_button(self, text: str, slot: Callable[[], object], tip: str) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        button.clicked.connect(lambda _=False: slot())
        self.toolbar.addWidget(button)
        return button

    def _sync_enabled(self) -> None:
        running = self._worker is not None
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        self.preset_combo.setEnabled(not running)
        self.target.setEnabled(not running)
        self.controls.setEnabled(not running)
        ready = self._report is not None and not running
        for action in self.export_actions.values():
            action.setEnabled(ready)
        self.export_button.setEnabled(ready)

    # --- presets and the probe ------------------------------------------------------------

    def _on_preset(self) -> None:
        probe = self.probe()
        if probe is None:
            return
        spec = descriptor(probe.backend)
        self.target.location.setCurrentIndex(self.target.location.findData("local"))
        self.target.set_backend(probe.backend)
        if spec.model_option:  # empty: the preset's synthetic folder, built when missing
            editor = self.target.form(probe.backend).editor(spec.model_option)
            if isinstance(editor, QLineEdit):  # a folder option: its text field
                editor.setText("")
                editor.setPlaceholderText(fill(self.tr("synthetic {synthetic_size} size (built if missing)"), synthetic_size=probe.synthetic_size))
                editor.setToolTip(fill(self.tr("Empty: the {synthetic_size}-size synthetic model folder in your data folder, built on Start when it is missing. Or give a real model folder."), synthetic_size=probe.synthetic_size))
        self.controls.show_plan(probe.plan, probe.objective)
        self.status_label.setStyleSheet("")
        self.status_label.setText(fill(self.tr("{label}: levels {join} until the objective fails. Press Start."), label=probe.label, join=', '.join(map(str, probe.plan.levels))))

    def _on_target_changed(self) -> None:
        """A probe stays chosen only while the target is the probe's backend on this computer."""
        probe = self.probe()
        if probe is not None and not self.target.is_server() and self.target.backend_name() != probe.backend:
            self.preset_combo.blockSignals(True)
            self.preset_combo.setCurrentIndex(0)
            self.preset_combo.blockSignals(False)

    def _probe_preparation(self) -> Prepare | None:
        """For a probe on this computer: what makes its settings on the worker thread (the model
        folder may have to be built first); None for anything else."""
        probe = self.probe()
        if probe is None or self.target.is_server():
            return None
        spec = descriptor(probe.backend)
        form = self.target.form(probe.backend)
        options = form.values()  # typed and checked; the model folder may be left empty
        model_dir = str(options.pop(spec.model_option, "") or "") if spec.model_option else ""
        plan, objective, work = self.controls.plan(), self.controls.objective(), self.controls.workload()
        python = self.target.python.text().strip() or None
        slots = self.target.slots.value() or None
        cache_dir = self.target.engine_cache_dir

        def prepare(context: PrepareContext) -> BenchSettings:
            settings = probe_settings(
                probe, model_dir=model_dir or None, python=python, backend_options=options, slots=slots, plan=plan,
                objective=objective, cache_dir=cache_dir,
                on_output=lambda line: context.say(line.text, line.progress),
                hold=lambda run: context.hold(run.cancel))
            return replace(settings, texts_file=work.texts_file, text_languages=work.text_languages,
                           voices=work.voices, cache=work.cache, engine_nice=ENGINE_NICE)

        return prepare

    # --- dialogs --------------------------------------------------------------------------

    def _export_dialog(self, kind: str) -> None:
        _kind, title, file_filter = next(entry for entry in EXPORTS if entry[0] == kind)
        path = self._folders.save_file(self, "bench-reports", fill(self.tr("Export the {lower}"), lower=title.lower()), f"bench.{kind}",
                                       file_filter)
        if not path:
            return
        export = {"json": self.export_json, "csv": self.export_csv, "png": self.export_png, "html": self.export_html}
        try:
            export[kind](path)
        except FileError as error:  # says what and why, with a code
            self._show_error(str(error))
            return
        self.status_label.setStyleSheet("")
        self.status_label.setText(fill(self.tr("Exported {path}"), path=path))

    # --- the run, seen from the GUI thread ------------------------------------------------

    def _redraw(self) -> None:
        """The one redraw timer: drain the runner's messages, then push new points once."""
        worker = self._worker
        if worker is not None:
            for message in worker.drain():
                self._take(message)
        self.plots.redraw()
        lag = self.lag.recent()
        if lag is not None:
            self.lag_label.setText(fill(self.tr("Event-loop lag (10 s): p50 {value:.0f} ms · p99 {value2:.0f} ms · max {value3:.0f} ms"), value=lag['p50_ms'], value2=lag['p99_ms'], value3=lag['max_ms']))
        if self._worker is not None and self._level_text:
            self.status_label.setText(fill(self.tr("{level_text} · {jobs_done} jobs done · {in_flight} in flight · {errors} errors"), level_text=self._level_text, jobs_done=self._jobs_done, in_flight=self._in_flight, errors=self._errors))

    def _take(self, message: object) -> None:
        if isinstance(message, Preparing):
            self._show_preparing(message)
        elif isinstance(message, RunStarted):
            self._show_run_started(message)
        elif isinstance(message, LevelStarted):
            self._level_text = fill(self.tr("Level {label} ({number}/{total})"), label=say(message.label),
                                    number=message.level_index + 1, total=self._levels_total)
            self.plots.mark_level(message.t_s, say(message.label))
        elif isinstance(message, JobEnded):
            self._count_job(message.record)
        elif isinstance(message, SampleTaken):
            self._in_flight = message.sample.in_flight
            self.plots.add_sample(message.sample)
        elif isinstance(message, LevelFinished):
            self._add_row(message.stats)
        elif isinstance(message, RunFinished):
            self._finish(message.report)
        elif isinstance(message, RunFailed):
            self._fail(message.message)

    def _show_preparing(self, message: Preparing) -> None:
        self.status_label.setText(fill(self.tr("Getting ready: {text}"), text=message.text))
        self.preparing.setVisible(True)
        self.preparing.setRange(0, 0 if message.fraction is None else 100)
        if message.fraction is not None:
            self.preparing.setValue(round(message.fraction * 100))

    def _show_run_started(self, message: RunStarted) -> None:
        self.preparing.setVisible(False)
        engine = message.engine
        self._level_text = fill(self.tr("{engine} ready in {seconds:.1f} s with {slots} slots; preparing voices, "
                                        "then waiting for its warm-up"),
                                engine=say(engine_label(engine)), seconds=engine["engine_start_s"], slots=engine["slots"])
        banner = synthetic_banner(engine)
        if banner is not None:
            self.banner.setText(say(banner))
            self.banner.setVisible(True)

    def _count_job(self, record: JobRecord) -> None:
        if record.status == "ok":
            self._jobs_done += 1
        elif record.status == "error":
            self._errors += 1
        self.plots.add_job(record)

    def _add_row(self, stats: LevelStats) -> None:
        column = self.table.columnCount()
        self.table.insertColumn(column)
        _level, *values = table_rows([stats])[0]
        level = say(stats.label) if stats.complete else fill(self.tr("{level} (stopped)"), level=say(stats.label))
        values[OK_ROW] = (self.tr("no") if not stats.meets_objective else self.tr("yes") if stats.reached
                          else self.tr("not reached"))
        if not stats.meets_objective:
            brush, tip = QBrush(QColor("#fdecea")), say(joined(stats.objective_misses, SEMICOLON_LIST))
        elif not stats.reached:  # its load never happened: neither a pass nor a miss
            brush, tip = QBrush(QColor("#eeeeee")), fill(self.tr("not reached: {why}"), why=say(stats.not_reached or ""))
        else:
            brush, tip = QBrush(QColor("#e8f5e9")), self.tr("meets the objective")
        head = QTableWidgetItem(level)
        head.setToolTip(tip)
        self.table.setHorizontalHeaderItem(column, head)
        for row, value in enumerate(values):
            item = QTableWidgetItem(value)
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setBackground(brush)
            item.setToolTip(tip)
            self.table.setItem(row, column, item)
        if stats.gpu_util_pct is not None:
            self._show_gpu_columns(True)

    def _show_gpu_columns(self, shown: bool) -> None:
        for row in GPU_ROWS:
            self.table.setRowHidden(row, not shown)

    def _finish(self, report: BenchReport) -> None:
        lag = self.lag.session()
        if lag is not None:
            report.config["gui_event_loop_lag_ms"] = {k: round(v, 2) for k, v in lag.items()}
        self._report = report
        self._end_worker()
        self.verdict_label.setText(fill(self.tr("<b>Verdict.</b> {sentence}"), sentence=say(report.verdict.sentence)))
        target = report.engine.get("target", "local")
        replicas = report.engine.get("replicas")
        where = self.tr("this computer") if target == "local" else fill(
            self.tr("{target}, %n replica(s)", "", replicas) if isinstance(replicas, int) else self.tr("{target}, replicas unknown"),
            target=target)
        self.hardware_label.setText(fill(self.tr("<b>Measured on</b> {where}: {hardware_line}"), where=where, hardware_line=say(hardware_line(report))))
        warning = synthetic_banner(report.engine)
        if warning:
            self.banner.setText(say(warning))
            self.banner.setVisible(True)
        done = self.tr("Stopped") if report.stopped else self.tr("Finished")
        lag_text = "" if lag is None else fill(self.tr(" GUI lag during the run: p99 {lag:.0f} ms."), lag=lag["p99_ms"])
        self.status_label.setText(fill(self.tr("{done} in {wall_s:.0f} s: {count} jobs.{lag_text}"), done=done, wall_s=report.wall_s, count=len(report.jobs), lag_text=lag_text))
        self.run_finished.emit(report)

    def _fail(self, message: str) -> None:
        self._end_worker()
        self._show_error(message)
        self.run_failed.emit(message)

    def _end_worker(self) -> None:
        # The run is over; its thread still closes the engine, which must not block the GUI.
        self._ended, self._worker = self._worker, None
        self._redraw_timer.stop()
        self.preparing.setVisible(False)
        if not self.isVisible():
            self.lag.stop()
        self.plots.redraw()
        self._sync_enabled()

    def _show_error(self, message: str) -> None:
        """A coded message in words: its headline and detail in the studio's language, the code last."""
        self.status_label.setStyleSheet("color: #b00020")
        self.status_label.setText(str(explained(message)))

    def _require_report(self) -> BenchReport:
        if self._report is None:
            raise RuntimeError(f"{ErrorCode.NO_REPORT}: no finished run to export yet")
        return self._report

    def _plots_png(self) -> bytes:
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        QPixmap.fromImage(self.plots.image()).save(buffer, "PNG")
        buffer.close()
        return bytes(data.data())

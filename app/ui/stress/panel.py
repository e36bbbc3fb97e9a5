"""The Stress panel: set up a load test, watch it live, read the verdict, export the report.

The run happens on a worker thread with its own engine process (so the studio's engine and
its auditioning are neither disturbed nor counted). Progress reaches the GUI only through a
queue drained by ONE redraw timer, which also pushes new points to the plots; a lag probe
measures how late the event loop runs, to show the window stays responsive under load.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QHideEvent, QRegularExpressionValidator, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.ui.stress.lag import LagProbe
from app.ui.stress.plots import LivePlots
from app.ui.stress.worker import BenchWorker, SessionFactory
from engine.client import EngineConfig
from engine.files import FileError, atomic_write_bytes
from engine.load import (
    BenchReport,
    BenchSession,
    BenchSettings,
    JobEnded,
    LevelFinished,
    LevelStarted,
    LevelStats,
    Objective,
    Plan,
    RunFailed,
    RunFinished,
    RunStarted,
    SampleTaken,
)
from engine.load.plans import Arrivals, Mode
from engine.load.report import TABLE_COLUMNS, table_rows
from engine.load.workload import resources_dir

REDRAW_MS = 100  # 10 frames per second: smooth enough, and cheap
# The panel's engine runs a little "nicer" than the window: when synthesis saturates the CPU
# the GUI thread still gets a core at once. The engine alone still uses every idle cycle.
ENGINE_NICE = 10
TEXT_CHOICES = (("Bundled, as the backend speaks", None), ("Bundled English", ("en",)),
                ("Bundled Chinese", ("zh",)), ("Bundled English + Chinese", ("en", "zh")),
                ("From a file…", "file"))


class StressPanel(QWidget):
    """A tab of the studio. See :meth:`start`, :meth:`stop`, :attr:`report` and the exports."""

    run_started = Signal()
    run_finished = Signal(object)  # BenchReport (also when stopped early)
    run_failed = Signal(str)  # message with an error code

    def __init__(self, parent: QWidget | None = None, engine_config: EngineConfig | None = None,
                 session_factory: SessionFactory = BenchSession) -> None:
        super().__init__(parent)
        self._engine = engine_config or EngineConfig()
        self._factory = session_factory
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
        self.set_engine_config(self._engine)
        self._sync_enabled()

    # --- public API -----------------------------------------------------------------------

    @property
    def report(self) -> BenchReport | None:
        """The last finished (or stopped) run's report; None before one ends."""
        return self._report

    def is_running(self) -> bool:
        return self._worker is not None

    def set_engine_config(self, config: EngineConfig) -> None:
        """Backend, its options, interpreter and cache folder for the next run.

        The studio's slot count becomes the panel's default; the user may change it per run.
        """
        self._engine = config
        self.backend_label.setText(config.backend)
        self.slots_spin.setValue(config.slots or 0)

    def settings(self) -> BenchSettings:
        """The bench the controls describe; raises ValueError with a message for the user."""
        levels_text = self.levels_edit.text().replace(" ", "")
        try:
            levels = tuple(int(part) for part in levels_text.split(",") if part)
        except ValueError:
            raise ValueError("E_PLAN: levels must be whole numbers like 1,2,4") from None
        by_jobs = self.hold_combo.currentIndex() == 0
        plan = Plan(
            mode=Mode(self.mode_combo.currentData()),
            levels=levels,
            jobs_per_level=int(self.hold_spin.value()) if by_jobs else None,
            seconds_per_level=None if by_jobs else float(self.hold_spin.value()),
            warmup_jobs=self.warmup_spin.value(),
            think_s=self.think_spin.value(),
            rate=self.rate_spin.value(),
            arrivals=Arrivals(self.arrivals_combo.currentData()),
            max_in_flight=self.cap_spin.value() or None,
        )
        plan.validate()
        objective = Objective(
            p95_first_audio_s=self.objective_spin.value(),
            max_error_rate=self.error_rate_spin.value() / 100.0,
            max_stalls_per_job=self.stalls_spin.value(),
        )
        choice = self.texts_combo.currentData()
        texts_file = self.texts_edit.text().strip() if choice == "file" else None
        if choice == "file" and not texts_file:
            raise ValueError("E_TEXTS: choose a text file (one text per line, UTF-8)")
        voices = tuple(self.voices_list.item(i).text() for i in range(self.voices_list.count()))
        return BenchSettings(
            backend=self._engine.backend,
            backend_options=dict(self._engine.backend_options),
            slots=self.slots_spin.value() or None,
            plan=plan,
            objective=objective,
            texts_file=texts_file,
            text_languages=None if choice == "file" else choice,
            voices=voices,
            cache=self.cache_combo.currentData(),
            cache_dir=self._engine.cache_dir,
            python=self._engine.python,
            engine_nice=ENGINE_NICE,
        )

    def start(self) -> bool:
        """Start a run with the current controls; False (and a message) when they are invalid."""
        if self._worker is not None:
            return False
        try:
            settings = self.settings()
            worker = BenchWorker(settings, self._factory)
        except (ValueError, RuntimeError) as error:  # PlanError, WorkloadError, BenchError
            self._show_error(str(error))
            return False
        self._report = None
        self._jobs_done = self._errors = self._in_flight = 0
        self._levels_total = len(settings.plan.levels)
        self._level_text = ""
        self.table.setRowCount(0)
        self.verdict_label.setText("")
        self.plots.reset(settings.objective.p95_first_audio_s)
        self.lag.reset()
        self.lag.start()
        self._worker = worker
        worker.start()
        self._redraw_timer.start()
        self.status_label.setStyleSheet("")
        self.status_label.setText("Starting the engine…")
        self._sync_enabled()
        self.run_started.emit()
        return True

    def stop(self) -> None:
        """Stop the run: jobs in flight are cancelled; the report covers what finished."""
        if self._worker is not None:
            self._worker.stop()
            self.status_label.setText("Stopping…")
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
        """The live plots as they are on screen."""
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
        controls = QWidget()
        column = QVBoxLayout(controls)

        engine_box = QGroupBox("Engine")
        form = QFormLayout(engine_box)
        self.backend_label = QLabel(self._engine.backend)
        form.addRow("Backend", self.backend_label)
        self.slots_spin = QSpinBox()
        self.slots_spin.setRange(0, 16)
        self.slots_spin.setSpecialValueText("auto")
        self.slots_spin.setToolTip("Jobs the engine runs at once; auto picks by CPU cores")
        form.addRow("Slots", self.slots_spin)
        column.addWidget(engine_box)

        load_box = QGroupBox("Load")
        form = QFormLayout(load_box)
        self.mode_combo = QComboBox()
        self.mode_combo.addItem("Closed loop (users)", Mode.CLOSED.value)
        self.mode_combo.addItem("Open loop (arrival rate)", Mode.OPEN.value)
        self.mode_combo.currentIndexChanged.connect(self._sync_enabled)
        form.addRow("Mode", self.mode_combo)
        self.levels_edit = QLineEdit("1,2,4")
        self.levels_edit.setValidator(QRegularExpressionValidator(r"^\s*\d+(\s*,\s*\d+)*\s*,?\s*$"))
        self.levels_edit.setToolTip("Users (closed loop) or multiples of the rate (open loop), e.g. 1,2,4,8")
        form.addRow("Levels", self.levels_edit)
        self.hold_combo = QComboBox()
        self.hold_combo.addItems(["jobs per level", "seconds per level"])
        self.hold_spin = QDoubleSpinBox()
        self.hold_spin.setDecimals(0)
        self.hold_spin.setRange(1, 100000)
        self.hold_spin.setValue(10)
        hold = QHBoxLayout()
        hold.addWidget(self.hold_spin)
        hold.addWidget(self.hold_combo)
        form.addRow("Hold", hold)
        self.warmup_spin = QSpinBox()
        self.warmup_spin.setRange(0, 1000)
        self.warmup_spin.setValue(1)
        self.warmup_spin.setToolTip("Jobs per level run first and left out of the statistics")
        form.addRow("Warm-up jobs", self.warmup_spin)
        self.think_spin = self._seconds_spin(0.0, 0.0, 600.0, "Closed loop: pause between a user's jobs")
        form.addRow("Think time (s)", self.think_spin)
        self.rate_spin = self._seconds_spin(0.5, 0.01, 1000.0, "Open loop: arrivals per second per level unit")
        form.addRow("Rate (jobs/s)", self.rate_spin)
        self.arrivals_combo = QComboBox()
        self.arrivals_combo.addItem("Poisson", Arrivals.POISSON.value)
        self.arrivals_combo.addItem("Constant", Arrivals.CONSTANT.value)
        form.addRow("Arrivals", self.arrivals_combo)
        self.cap_spin = QSpinBox()
        self.cap_spin.setRange(0, 1000)
        self.cap_spin.setSpecialValueText("no cap")
        self.cap_spin.setToolTip("Open loop: at most this many jobs in flight; latency still counts from arrival")
        form.addRow("Max in flight", self.cap_spin)
        column.addWidget(load_box)

        work_box = QGroupBox("Workload")
        form = QFormLayout(work_box)
        self.texts_combo = QComboBox()
        for title, data in TEXT_CHOICES:
            self.texts_combo.addItem(title, data)
        self.texts_combo.currentIndexChanged.connect(self._sync_enabled)
        form.addRow("Texts", self.texts_combo)
        self.texts_edit = QLineEdit()
        self.texts_edit.setPlaceholderText("one text per line, UTF-8")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse_texts)
        self._browse_texts_button = browse
        row = QHBoxLayout()
        row.addWidget(self.texts_edit)
        row.addWidget(browse)
        form.addRow("Text file", row)
        self.voices_list = QListWidget()
        self.voices_list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.voices_list.setMaximumHeight(90)
        for clip in sorted((resources_dir() / "voices").glob("*.wav")):
            self.voices_list.addItem(str(clip))
        add_voice = QPushButton("Add…")
        add_voice.clicked.connect(self._add_voices)
        remove_voice = QPushButton("Remove")
        remove_voice.clicked.connect(self._remove_voices)
        buttons = QHBoxLayout()
        buttons.addWidget(add_voice)
        buttons.addWidget(remove_voice)
        form.addRow("Voices", self.voices_list)
        form.addRow("", buttons)
        self.cache_combo = QComboBox()
        self.cache_combo.addItem("Warm (voices prepared first)", "warm")
        self.cache_combo.addItem("Cold (a new voice every job)", "cold")
        form.addRow("Voice cache", self.cache_combo)
        column.addWidget(work_box)

        objective_box = QGroupBox("Objective")
        form = QFormLayout(objective_box)
        self.objective_spin = self._seconds_spin(1.5, 0.05, 600.0, "A level passes when its p95 first audio is at most this")
        form.addRow("p95 first audio ≤ (s)", self.objective_spin)
        self.error_rate_spin = self._seconds_spin(0.0, 0.0, 100.0, "Allowed failed jobs, percent")
        form.addRow("Errors ≤ (%)", self.error_rate_spin)
        self.stalls_spin = self._seconds_spin(0.0, 0.0, 100.0, "Allowed playback stalls per job")
        form.addRow("Stalls per job ≤", self.stalls_spin)
        column.addWidget(objective_box)

        self.start_button = QPushButton("Start")
        self.start_button.clicked.connect(self.start)
        self.stop_button = QPushButton("Stop")
        self.stop_button.clicked.connect(self.stop)
        run_row = QHBoxLayout()
        run_row.addWidget(self.start_button)
        run_row.addWidget(self.stop_button)
        column.addLayout(run_row)

        export_box = QGroupBox("Export")
        export_row = QHBoxLayout(export_box)
        self.export_buttons: dict[str, QPushButton] = {}
        for kind, title in (("json", "JSON"), ("csv", "CSV"), ("png", "PNG"), ("html", "HTML")):
            button = QPushButton(title)
            button.clicked.connect(lambda _=False, k=kind: self._export_dialog(k))
            export_row.addWidget(button)
            self.export_buttons[kind] = button
        column.addWidget(export_box)
        column.addStretch(1)

        scroll = QScrollArea()
        scroll.setWidget(controls)
        scroll.setWidgetResizable(True)
        scroll.setMinimumWidth(330)
        scroll.setMaximumWidth(420)

        self.plots = LivePlots()
        self.status_label = QLabel("Set up a run and press Start.")
        self.status_label.setWordWrap(True)
        self.lag_label = QLabel("Event-loop lag: –")
        self.lag_label.setToolTip("How late a 20 ms timer fires on the GUI thread: what a click would wait")
        self.table = QTableWidget(0, len(TABLE_COLUMNS))
        self.table.setHorizontalHeaderLabels([column.header for column in TABLE_COLUMNS])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.verdict_label = QLabel("")
        self.verdict_label.setWordWrap(True)
        self.verdict_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        status_row = QHBoxLayout()
        status_row.addWidget(self.status_label, 1)
        status_row.addWidget(self.lag_label)
        bottom_layout.addLayout(status_row)
        # Room for the header and four levels, so finished levels stay in view beside the plots.
        rows = self.table.verticalHeader().defaultSectionSize()
        self.table.setMinimumHeight(self.table.horizontalHeader().sizeHint().height() + 4 * rows + 6)
        bottom_layout.addWidget(self.table, 1)
        bottom_layout.addWidget(self.verdict_label)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.plots)
        splitter.addWidget(bottom)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)

        layout = QHBoxLayout(self)
        layout.addWidget(scroll)
        layout.addWidget(splitter, 1)

    @staticmethod
    def _seconds_spin(value: float, low: float, high: float, tip: str) -> QDoubleSpinBox:
        spin = QDoubleSpinBox()
        spin.setDecimals(2)
        spin.setRange(low, high)
        spin.setValue(value)
        spin.setToolTip(tip)
        return spin

    def _sync_enabled(self) -> None:
        running = self._worker is not None
        open_loop = self.mode_combo.currentData() == Mode.OPEN.value
        for widget in (self.rate_spin, self.arrivals_combo, self.cap_spin):
            widget.setEnabled(open_loop)
        self.think_spin.setEnabled(not open_loop)
        from_file = self.texts_combo.currentData() == "file"
        self.texts_edit.setEnabled(from_file)
        self._browse_texts_button.setEnabled(from_file)
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        for button in self.export_buttons.values():
            button.setEnabled(self._report is not None and not running)

    # --- dialogs --------------------------------------------------------------------------

    def _browse_texts(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Texts to speak", "", "Text files (*.txt);;All files (*)")
        if path:
            self.texts_edit.setText(path)

    def _add_voices(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Reference clips", "",
                                                "Audio (*.wav *.flac *.ogg *.mp3);;All files (*)")
        for path in paths:
            self.voices_list.addItem(path)

    def _remove_voices(self) -> None:
        for item in self.voices_list.selectedItems():
            self.voices_list.takeItem(self.voices_list.row(item))

    def _export_dialog(self, kind: str) -> None:
        filters = {"json": "JSON (*.json)", "csv": "CSV (*.csv)", "png": "PNG image (*.png)", "html": "Web page (*.html)"}
        path, _ = QFileDialog.getSaveFileName(self, f"Export {kind.upper()}", f"bench.{kind}", filters[kind])
        if not path:
            return
        export = {"json": self.export_json, "csv": self.export_csv, "png": self.export_png, "html": self.export_html}
        try:
            export[kind](path)
        except FileError as error:  # says what and why, with a code
            self._show_error(str(error))
            return
        self.status_label.setText(f"Exported {path}")

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
            self.lag_label.setText(f"Event-loop lag (10 s): p50 {lag['p50_ms']:.0f} ms · "
                                   f"p99 {lag['p99_ms']:.0f} ms · max {lag['max_ms']:.0f} ms")
        if self._worker is not None and self._level_text:
            self.status_label.setText(f"{self._level_text} · {self._jobs_done} jobs done · "
                                      f"{self._in_flight} in flight · {self._errors} errors")

    def _take(self, message: object) -> None:
        if isinstance(message, RunStarted):
            engine = message.engine
            self.backend_label.setText(f"{engine['backend']} ({engine['slots']} slots)")
            self._level_text = f"Engine ready in {engine['engine_start_s']:.1f} s; preparing voices"
        elif isinstance(message, LevelStarted):
            self._level_text = f"Level {message.label} ({message.level_index + 1}/{self._levels_total})"
            self.plots.mark_level(message.t_s, message.label)
        elif isinstance(message, JobEnded):
            record = message.record
            if record.status == "ok":
                self._jobs_done += 1
            elif record.status == "error":
                self._errors += 1
            self.plots.add_job(record)
        elif isinstance(message, SampleTaken):
            self._in_flight = message.sample.in_flight
            self.plots.add_sample(message.sample)
        elif isinstance(message, LevelFinished):
            self._add_row(message.stats)
        elif isinstance(message, RunFinished):
            self._finish(message.report)
        elif isinstance(message, RunFailed):
            self._fail(message.message)

    def _add_row(self, stats: LevelStats) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        values = table_rows([stats])[0]
        if not stats.meets_objective:
            brush, tip = QBrush(QColor("#fdecea")), "; ".join(stats.objective_misses)
        elif not stats.reached:  # its load never happened: neither a pass nor a miss
            brush, tip = QBrush(QColor("#eeeeee")), f"not reached: {stats.not_reached}"
        else:
            brush, tip = QBrush(QColor("#e8f5e9")), "meets the objective"
        for column, value in enumerate(values):
            item = QTableWidgetItem(value)
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setBackground(brush)
            item.setToolTip(tip)
            self.table.setItem(row, column, item)

    def _finish(self, report: BenchReport) -> None:
        lag = self.lag.session()
        if lag is not None:
            report.config["gui_event_loop_lag_ms"] = {k: round(v, 2) for k, v in lag.items()}
        self._report = report
        self._end_worker()
        self.verdict_label.setText(f"<b>Verdict.</b> {report.verdict.sentence}")
        done = "Stopped" if report.stopped else "Finished"
        lag_text = "" if lag is None else f" GUI lag during the run: p99 {lag['p99_ms']:.0f} ms."
        self.status_label.setText(f"{done} in {report.wall_s:.0f} s: {len(report.jobs)} jobs.{lag_text}")
        self.run_finished.emit(report)

    def _fail(self, message: str) -> None:
        self._end_worker()
        self._show_error(message)
        self.run_failed.emit(message)

    def _end_worker(self) -> None:
        # The run is over; its thread still closes the engine, which must not block the GUI.
        self._ended, self._worker = self._worker, None
        self._redraw_timer.stop()
        if not self.isVisible():
            self.lag.stop()
        self.plots.redraw()
        self._sync_enabled()

    def _show_error(self, message: str) -> None:
        self.status_label.setStyleSheet("color: #b00020")
        self.status_label.setText(message)

    def _require_report(self) -> BenchReport:
        if self._report is None:
            raise RuntimeError("E_NO_REPORT: no finished run to export yet")
        return self._report

    def _plots_png(self) -> bytes:
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        self.plots.grab().save(buffer, "PNG")
        buffer.close()
        return bytes(data.data())

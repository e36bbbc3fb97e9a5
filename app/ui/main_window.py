"""The studio's main window: welcome screen, then the script, characters and stress tabs.

The window wires the parts together and owns what lives as long as it does: the settings, the
engine bridge (started at once, in the background, so it is ready by the first click), the
player, and the open :class:`Document`. Project edits go through the document; renders through
the :class:`RenderController`; audio through the :class:`Player`.
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path
from typing import Any, Callable

import numpy as np
import platformdirs
import soundfile as sf
from PySide6.QtCore import QByteArray, Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.project import (
    AddLines,
    AssignCharacter,
    ChooseTake,
    EditLine,
    Line,
    LineStatus,
    Macro,
    MoveLines,
    Project,
    ProjectError,
    ProjectLockedError,
    RemoveLines,
    SaveError,
    SortLinesByTime,
    voice_gaps,
)
from app.project.export import ExportResult
from app.project.export_registry import EXPORTS, export_format
from app.project.lock import load_locked
from app.project.messages import explain
from app.project.model import new_id
from app.project.qa import QaWorker, lines_failing_qa
from app.project.render import NoVoice, select_lines, voice_spec
from app.project.sample import copy_sample_project
from app.project.timing import line_timings
from app.project.script_io import ScriptImport, import_csv, import_plain, import_srt
from app.ui.bridge import EngineBridge
from app.ui.engine_status import EngineStatus
from app.ui.export_controller import ExportController
from app.ui.folders import PROJECTS, Folders
from app.ui.characters_panel import CharactersPanel
from app.ui.document import Document
from app.ui.notifications import Level, NotificationBadge, NotificationList, level_of
from app.ui.player import AudioOutput, Player, default_output, has_input_device, read_mono
from app.ui.qa_controller import QaController, QaRunner
from app.ui.render_controller import RenderController
from app.ui.script_panel import ScriptPanel
from app.ui.settings import Settings
from app.ui.settings_dialog import SettingsDialog
from app.ui.tasks import TaskRunner
from app.ui.timeline import TimelinePanel
from app.ui.timeline.transport import Transport
from app.ui.video_controller import VideoController
from app.ui.voices import VoiceStates
from app.ui.voices_engine_page import BANNER_STYLE
from app.ui.welcome import WelcomePage
from engine.backends import descriptor
from engine.backends.cosyvoice_models import synthetic_banner
from engine.client import EngineConfig
from engine.protocol import (
    AudioChunk,
    Capabilities,
    EngineError,
    EngineReady,
    Job,
    JobFailed,
    JobFinished,
    Priority,
)
from engine.remote import RemoteConfig

log = logging.getLogger(__name__)

SAMPLE_FOLDER_NAME = "Sample project"
MESSAGES_HEIGHT = 150  # the Messages dock's first height: four or five entries
AB_PAUSE_S = 0.6  # between the two takes of an A/B: long enough to hear where one ends
STRESS_TAB = "Stress"
IMPORTERS: dict[str, tuple[str, Callable[..., ScriptImport]]] = {
    "srt": ("Subtitles (*.srt)", import_srt),
    "csv": ("CSV or TSV (*.csv *.tsv *.tab *.txt)", import_csv),
    "script": ("Script (*.txt *.md *.fountain);;All files (*)", import_plain),
}


def _stress_available() -> bool:
    """Whether the Stress panel (built by another team in app.ui.stress) is installed.

    Only looked up here; it is imported the first time its tab is shown, so the studio starts
    without paying for it and a broken panel cannot stop the studio from starting.
    """
    return importlib.util.find_spec("app.ui.stress") is not None


def describe_engine(config: EngineConfig | RemoteConfig) -> str:
    """"CosyVoice2-0.5B (voice cloning), model /m/CosyVoice2-0.5B" for status lines."""
    if isinstance(config, RemoteConfig):
        return f"{config.backend or 'the default backend'} on the server {config.url}"
    spec = descriptor(config.backend)
    text = spec.label
    if spec.model_option and config.backend_options.get(spec.model_option):
        text += f", model {config.backend_options[spec.model_option]}"
    return text


def studio_engine(settings: Settings) -> EngineConfig | RemoteConfig:
    """Where the studio's engine runs: a server's (Settings: Engine = a server) or this computer's,
    its options checked (raises EngineError when this computer's engine is not set up)."""
    return settings.server() or settings.engine_config()


def render_scope(project: Project, lines: list[Line], scope: str) -> str:
    """What a render covers, for the status bar and the Messages list:
    "Rendering 3 lines (stale): 1 fitted to its slot, lines 2, 5, 6"."""
    count = len(lines)
    text = f"Rendering {count} line{'s' if count != 1 else ''} ({scope})"
    fitted = sum(1 for line in lines if project.wants_fit(line))
    if fitted:
        text += f": {fitted} fitted to {'its slot' if fitted == 1 else 'their slots'}"
    orders = [str(project.order_of(line.id)) for line in lines]
    if 0 < count <= 12:
        text += f", line{'s' if count != 1 else ''} {', '.join(orders)}"
    # Said before the takes exist: lines the voice's pace will not fit, and that will not be fitted.
    timings = line_timings(project)
    long = [str(project.order_of(line.id)) for line in lines
            if not project.wants_fit(line) and (timing := timings.get(line.id)) is not None and timing.likely_too_long]
    if long:
        text += (f"; likely too long for {'its slot' if len(long) == 1 else 'their slots'} without fit: "
                 f"line{'s' if len(long) != 1 else ''} {', '.join(long[:12])}")
    return text


def _same_folder(root: Path, path: str | Path) -> bool:
    """Whether ``path`` (a project folder or its project.json) is the project at ``root``."""
    target = Path(path)
    if target.name == "project.json":
        target = target.parent
    try:
        return target.resolve() == root.resolve()
    except OSError:
        return False


class MainWindow(QMainWindow):
    """The studio. Pass ``output`` to choose the audio device (tests pass a NullOutput) and
    ``qa_runner`` to choose what checks takes (default: a low-priority QA process), and
    ``engine_override`` to run another engine than the settings say (the command line's
    ``--backend``/``--model-dir``; it lasts until the engine settings are changed)."""

    def __init__(
        self,
        settings: Settings,
        runner: TaskRunner,
        output: AudioOutput | None = None,
        bridge: EngineBridge | None = None,
        projects_dir: Path | None = None,
        engine_override: EngineConfig | None = None,
        parent: QWidget | None = None,
        qa_runner: Callable[[], QaRunner] = QaWorker,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.settings = settings
        self.runner = runner
        self.projects_dir = projects_dir or Path(platformdirs.user_documents_dir()) / "DubStudio"
        self.document: Document | None = None
        self.renders: RenderController | None = None
        self.qa: QaController | None = None
        self._make_qa_runner = qa_runner
        self.script: ScriptPanel | None = None
        self.timeline: TimelinePanel | None = None
        self._editor: QSplitter | None = None  # the Script tab: the script above the timeline
        self.characters: CharactersPanel | None = None
        self._stress: Any = None  # the StressPanel once built (or a label saying why not)
        self.folders = Folders(settings, lambda: self.document.project.root if self.document else None,
                               self.projects_dir)
        self._discard_on_close = False  # the user chose to close although the save failed
        self._engine_override = engine_override
        self._engine_problem = ""  # why the settings' engine cannot start, when it cannot

        self.engine_label = EngineStatus(runner)
        self.engine_banner = QLabel("")  # says when the engine's speech is noise (synthetic weights)
        self.engine_banner.setObjectName("engineBanner")
        self.engine_banner.setStyleSheet(BANNER_STYLE)
        self.engine_banner.setWordWrap(True)
        self.engine_banner.setVisible(False)

        self._owns_bridge = bridge is None  # an injected bridge (tests) outlives the window
        self.bridge = bridge if bridge is not None else EngineBridge(self.engine_config(), parent=self)
        self.bridge.engine_ready.connect(self._on_engine_ready)
        self.bridge.engine_starting.connect(self.engine_label.show_stage)
        self.bridge.start_failed.connect(self._on_engine_failed)
        self.bridge.stopped.connect(self._on_engine_stopped)
        self.bridge.restarted.connect(
            lambda ev: self._status(f"The engine stopped unexpectedly and was restarted; {len(ev.resubmitted)} job(s) queued again")
        )
        self.bridge.chunk.connect(self._on_chunk)
        self.bridge.job_finished.connect(self._on_job_end)
        self.bridge.job_failed.connect(self._on_job_end)
        self.voices = VoiceStates(self.bridge, self)

        self.player = Player(output if output is not None else default_output(settings.output_device), self)
        self.player.device_missing.connect(self._status)
        self.player.position.connect(self._on_playhead)
        self.player.stopped.connect(self._on_play_stopped)
        self.player.started.connect(lambda _key: self._update_actions())
        self._stream_rate = 22050  # replaced by the engine's rate when it is ready

        self.video = VideoController(self, runner, self.folders, self.projects_dir, self.open_project)
        self.video.transcription_model = lambda: self.settings.recogniser_model
        self.video.message.connect(lambda message: self._status(message, 15000))
        self.video.error.connect(self._error)
        self.video.warning.connect(lambda message: self.notify(message, Level.WARNING))
        self.video.line_chosen.connect(self._show_line)
        self.video.character_chosen.connect(self._show_character)
        self.exports = ExportController(runner, self)
        self.exports.finished.connect(self._on_exported)
        self.exports.failed.connect(lambda _kind, message: self._error("Export failed", message))
        self.exports.cancelled.connect(
            lambda kind: self._status(f"The {kind} export was cancelled; nothing was written", 15000))

        # Problems stay listed here (a dock the status bar's badge opens) until cleared.
        self.notifications = NotificationList()
        self.messages_dock = QDockWidget("Messages", self)
        self.messages_dock.setObjectName("messagesDock")
        self.messages_dock.setWidget(self.notifications)
        # At the bottom, full width: messages are long sentences, and the script keeps its columns.
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.messages_dock)
        self.resizeDocks([self.messages_dock], [MESSAGES_HEIGHT], Qt.Orientation.Vertical)
        self.messages_dock.hide()
        self.badge = NotificationBadge()
        self.badge.toggled.connect(self.messages_dock.setVisible)
        self.messages_dock.visibilityChanged.connect(self._on_messages_shown)
        self.notifications.unseen_changed.connect(self.badge.show_unseen)

        self.save_label = QLabel("")
        self.statusBar().addPermanentWidget(self.badge)
        self.statusBar().addPermanentWidget(self.save_label)
        self.statusBar().addPermanentWidget(self.engine_label)

        self.welcome = WelcomePage()
        self.welcome.open_sample.connect(self.open_sample)
        self.welcome.new_project.connect(self._new_project_dialog)
        self.welcome.open_folder.connect(self._open_folder_dialog)
        self.welcome.open_recent.connect(self.open_project)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("studioTabs")
        if _stress_available():
            # Not tied to a project: it stays while projects come and go, and is built the
            # first time it is shown (it starts its own engine only when a run starts).
            self.tabs.addTab(QWidget(), STRESS_TAB)
        self.tabs.currentChanged.connect(self._on_tab)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.welcome)
        self.pages.addWidget(self.tabs)
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.engine_banner)
        column.addWidget(self.pages, 1)
        self.setCentralWidget(central)

        self.actions_: dict[str, QAction] = {}
        self._build_actions()
        self._build_menus()
        self._refresh_recent()
        self._update_title()
        self._update_actions()
        self.resize(1200, 760)
        if settings.window_geometry:
            self.restoreGeometry(QByteArray.fromBase64(settings.window_geometry.encode()))
        self.player.check_output()
        if self._owns_bridge:
            self._start_engine(self.engine_config())
        elif self.bridge.ready is not None:
            self._on_engine_ready(self.bridge.ready)  # an injected engine may be running already

    # --- actions and menus --------------------------------------------------------------------

    def _action(self, name: str, text: str, slot: Callable[[], Any], shortcut: Any = None, tip: str = "") -> QAction:
        action = QAction(text, self)
        action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.actions_[name] = action
        return action

    def _build_actions(self) -> None:
        a = self._action
        a("new", "&New project…", self._new_project_dialog, QKeySequence.StandardKey.New)
        a("new_from_video", "New project from &video…", self.video.new_from_video, "Ctrl+Shift+N",
          "A project that dubs a video: its subtitles become the script")
        a("set_video", "Set &video…", self.video.choose_video, None, "Choose the video this project dubs")
        a("add_guide", "Add the original audio as a &guide track", self.video.add_guide, None,
          "Play the video's own audio under the dub, or keep it in the export")
        a("transcribe", "&Transcribe the dialogue", self.video.transcribe_dialogue, None,
          "Replace the script with the video's own dialogue: one character per voice, clips cut from it (undoable)")
        a("project_settings", "Project &settings…", self.video.edit_settings, None,
          "Fit to slot, loudness target, original audio in the export")
        a("sort_by_time", "Sort lines by start time", self.sort_by_time, None, "Put the script in time order")
        a("open", "&Open project folder…", self._open_folder_dialog, QKeySequence.StandardKey.Open)
        a("open_sample", "Open the &sample project", self.open_sample)
        a("save", "&Save", self.save, QKeySequence.StandardKey.Save)
        a("settings", "Se&ttings…", self.show_settings, QKeySequence.StandardKey.Preferences)
        a("quit", "&Quit", self.close, QKeySequence.StandardKey.Quit)
        a("undo", "&Undo", self.undo, QKeySequence.StandardKey.Undo)
        a("redo", "&Redo", self.redo, QKeySequence.StandardKey.Redo)
        a("add_line", "Add line", self.add_line, "Ctrl+Return", "Add a line after the current one")
        a("remove_lines", "Remove", self.remove_lines, QKeySequence.StandardKey.Delete, "Remove the selected lines")
        a("move_up", "Move up", lambda: self.move_lines(-1), "Ctrl+Up", "Move the selected lines up")
        a("move_down", "Move down", lambda: self.move_lines(+1), "Ctrl+Down", "Move the selected lines down")
        a("render_all", "Render all", lambda: self.render_lines(None, scope="all"), "Ctrl+Shift+R", "Render every line")
        a("render_selected", "Render selected", self.render_selected, "Ctrl+R", "Render the selected lines")
        a("render_stale", "Render stale", lambda: self.render_lines(None, stale_only=True, scope="stale"), None,
          "Render lines that are stale, failed or not rendered yet")
        a("render_fit", "Render with fit", self.render_with_fit, "Ctrl+Alt+R",
          "Fit the selected lines (all when none is selected) to their slots from now on, and render them")
        a("cancel_render", "Cancel", self.cancel_render, None, "Cancel the running render")
        a("retry_failed", "Retry failed", self.retry_failed, None, "Render the failed lines of the last batch again")
        a("render_failed_qa", "Render failed QA", self.render_failed_qa, None,
          "Render again the lines whose chosen take failed QA (garbled, clipped, silent, too long or unlike the voice)")
        a("recheck_qa", "Check QA again", self.recheck_qa, None,
          "Run the QA check again on takes whose check could not run (the QA column says “QA error”)")
        a("play_line", "▶ Play line", self.play_current_line, "Space", "Play the line's take (or stream it while it renders)")
        a("stop", "■ Stop", self.player.stop, "Escape", "Stop playback")
        for fmt in EXPORTS:
            a(f"export_{fmt.name}", fmt.label, lambda k=fmt.name: self.export(k), None, fmt.help)  # type: ignore[misc]
        a("open_exports", "Open exports folder", self._open_exports)
        for kind, label in (("srt", "Subtitles (SRT)…"), ("csv", "CSV / TSV…"), ("script", "Plain script (Name: line)…")):
            a(f"import_{kind}", label, lambda k=kind: self._import_dialog(k))  # type: ignore[misc]
        for name in ("play_line", "stop", "remove_lines"):
            # Scoped to the table and the bars, so typing a space or pressing Delete in an
            # editor keeps its usual meaning.
            self.actions_[name].setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        for name in ("new", "new_from_video", "open", "open_sample"):
            file_menu.addAction(self.actions_[name])
        self.recent_menu = file_menu.addMenu("Open &recent")
        file_menu.addAction(self.actions_["save"])
        file_menu.addSeparator()
        self.import_menu = file_menu.addMenu("&Import")
        for kind in IMPORTERS:
            self.import_menu.addAction(self.actions_[f"import_{kind}"])
        self.export_menu = file_menu.addMenu("&Export")
        for fmt in EXPORTS:
            self.export_menu.addAction(self.actions_[f"export_{fmt.name}"])
        self.export_menu.addSeparator()
        self.export_menu.addAction(self.actions_["open_exports"])
        file_menu.addSeparator()
        file_menu.addAction(self.actions_["settings"])
        file_menu.addAction(self.actions_["quit"])
        edit = bar.addMenu("&Edit")
        edit.addAction(self.actions_["undo"])
        edit.addAction(self.actions_["redo"])
        edit.addSeparator()
        for name in ("add_line", "remove_lines", "move_up", "move_down", "sort_by_time"):
            edit.addAction(self.actions_[name])
        self.assign_menu = edit.addMenu("&Assign character")
        self.project_menu = bar.addMenu("P&roject")
        for name in ("set_video", "add_guide", "transcribe", "project_settings"):
            self.project_menu.addAction(self.actions_[name])
        self.assign_menu.aboutToShow.connect(lambda: self._fill_assign_menu(self.assign_menu))
        render = bar.addMenu("&Render")
        for name in ("render_all", "render_selected", "render_stale", "render_fit", "render_failed_qa", "recheck_qa",
                     "cancel_render", "retry_failed"):
            render.addAction(self.actions_[name])
        play = bar.addMenu("&Playback")
        play.addAction(self.actions_["play_line"])
        play.addAction(self.actions_["stop"])
        self.timeline_menu = play.addMenu("&Timeline")  # the open project's transport (filled with it)

    def _fill_assign_menu(self, menu: QMenu) -> None:
        menu.clear()
        if self.document is None:
            return
        for char in self.document.project.characters:
            menu.addAction(char.name).triggered.connect(lambda _c=False, cid=char.id: self.assign_character(cid))
        menu.addSeparator()
        menu.addAction("No character").triggered.connect(lambda _c=False: self.assign_character(None))

    def _update_actions(self) -> None:
        has_doc = self.document is not None
        writable = has_doc and not (self.document and self.document.read_only)
        running = self.renders is not None and self.renders.is_running
        ready = self.bridge.is_ready
        stack = self.document.stack if self.document else None
        undo, redo = self.actions_["undo"], self.actions_["redo"]
        undo.setEnabled(bool(stack and stack.can_undo))
        redo.setEnabled(bool(stack and stack.can_redo))
        undo.setText(f"&Undo {stack.undo_text}" if stack and stack.can_undo else "&Undo")
        redo.setText(f"&Redo {stack.redo_text}" if stack and stack.can_redo else "&Redo")
        self.actions_["play_line"].setEnabled(has_doc)
        for name in ("save", "add_line", "remove_lines", "move_up", "move_down", "sort_by_time", "set_video",
                     "project_settings"):
            self.actions_[name].setEnabled(writable)
        video = self.document.project.video if self.document else None
        self.actions_["add_guide"].setEnabled(writable and bool(video and video.audio_streams))
        self.actions_["transcribe"].setEnabled(writable and bool(video and video.audio_streams))
        for name in ("render_all", "render_selected", "render_stale", "render_fit"):
            self.actions_[name].setEnabled(writable and ready and not running)
            if not ready:
                self.actions_[name].setToolTip("Waiting for the engine to start…")
        failing = bool(self.document and lines_failing_qa(self.document.project))
        self.actions_["render_failed_qa"].setEnabled(has_doc and ready and not running and failing)
        self.actions_["recheck_qa"].setEnabled(bool(self.qa and self.qa.errored_lines()))
        self.actions_["cancel_render"].setEnabled(running)
        batch = self.renders.batch if self.renders else None
        self.actions_["retry_failed"].setEnabled(bool(batch and batch.failed_lines) and not running)
        self.actions_["stop"].setEnabled(bool(self.player.playing_key))
        self.import_menu.setEnabled(writable)
        self.export_menu.setEnabled(writable)
        self.assign_menu.setEnabled(writable)
        self.timeline_menu.setEnabled(has_doc)
        self.actions_["export_video"].setEnabled(writable and video is not None)
        if self.script is not None:
            self.script.assign_button.setEnabled(writable)

    def _update_title(self) -> None:
        if self.document is None:
            self.setWindowTitle("DubStudio")
            self.save_label.setText("")
            return
        if self.document.read_only:
            self.setWindowTitle(f"{self.document.project.title} [read-only] — DubStudio")
            self.save_label.setText(f"Read-only: {self.document.read_only}")
            return
        dirty = self.document.is_dirty
        self.setWindowTitle(f"{self.document.project.title}{' •' if dirty else ''} — DubStudio")
        self.save_label.setText("Unsaved changes" if dirty else "All changes saved")

    def _status(self, message: str, timeout_ms: int = 0) -> None:
        """A passing message on the status bar; a problem (one with a code) is also kept in the
        Messages list, in words, and stays on the bar until the next message."""
        explained = explain(message)
        if level_of(message) >= Level.WARNING:
            self.notifications.add(message)
            timeout_ms = 0
        self.statusBar().showMessage(str(explained) if explained.code else message, timeout_ms)

    def notify(self, message: str, level: Level = Level.INFO, timeout_ms: int = 15000) -> None:
        """A report worth keeping whole (an export's summary, what a render covers): listed and shown."""
        self.notifications.add(message, level)
        self.statusBar().showMessage(message, timeout_ms)

    def _on_messages_shown(self, visible: bool) -> None:
        self.badge.setChecked(visible)
        if visible:
            self.notifications.mark_seen()

    # --- projects -----------------------------------------------------------------------------

    def open_project(self, path: str | Path) -> bool:
        """Open a project folder; on failure say why and keep the current one.

        The project is locked while it is open; when another studio or a ``dubstudio render``
        holds it (or its folder cannot be written), it opens read-only and says so.
        """
        if self.document is not None and _same_folder(self.document.project.root, path):
            return True  # already open here (and locked by us: opening it again would be read-only)
        try:
            try:
                project, lock = load_locked(path, "DubStudio studio")
                document = Document(project, self, lock=lock)
            except ProjectLockedError as exc:
                document = Document(Project.load(path), self, read_only=f"open in {exc.holder}")
            except SaveError as exc:  # no lock file possible: a read-only folder
                document = Document(Project.load(path), self, read_only=f"its folder cannot be written ({exc.message})")
        except (ProjectError, OSError) as exc:
            self._error("Cannot open project", str(exc))
            return False
        if not self._set_document(document):
            document.close()
            document.deleteLater()
            return False
        if document.read_only:
            self._show_box(
                QMessageBox.Icon.Information,
                "Opened read-only",
                f"{document.project.root} is read-only here: {document.read_only}.\n\nYou can look and listen, "
                "but not edit, render or save. Close it there (or fix the folder), then open it again to edit.",
            )
            self._status(f"Opened {document.project.root} read-only")
        elif document.project.migrated_from is not None:
            self._status(f"Opened a project from schema {document.project.migrated_from}; it is saved in the new format on the next save")
        else:
            self._status(f"Opened {document.project.root}", 5000)
        if self.bridge.ready is not None:
            self._say_project_backend(self.bridge.ready.backend.name)
        return True

    def open_sample(self) -> bool:
        """Open the user's copy of the bundled sample project (made on first use)."""
        target = self.projects_dir / SAMPLE_FOLDER_NAME
        if not (target / "project.json").is_file():
            try:
                copy_sample_project(target)
            except (ProjectError, OSError) as exc:
                self._error("Cannot copy the sample project", str(exc))
                return False
        return self.open_project(target)

    def new_project(self, folder: str | Path) -> bool:
        try:
            project = Project.create(folder, Path(folder).name)
        except (ProjectError, OSError) as exc:
            self._error("Cannot create project", str(exc))
            return False
        return self.open_project(project.root)

    def _new_project_dialog(self) -> None:
        folder = self.folders.folder(self, PROJECTS, "Choose an empty folder for the new project")
        if folder:
            self.new_project(folder)

    def _open_folder_dialog(self) -> None:
        folder = self.folders.folder(self, PROJECTS, "Open a project folder")
        if folder:
            self.open_project(folder)

    def _set_document(self, document: Document) -> bool:
        """Show ``document``; False when the current one could not be saved (it stays open)."""
        if not self._close_document():
            return False
        self.document = document
        document.changed.connect(lambda _c: self._update_title())
        document.undo_state_changed.connect(self._update_title)
        document.undo_state_changed.connect(self._update_actions)
        document.error.connect(lambda msg: self._status(msg, 15000))
        document.save_failed.connect(self._on_save_failed)
        document.set_autosave(self.settings.autosave_s)
        self.renders = RenderController(document, self.bridge, self)
        self.renders.progress.connect(self._on_progress)
        self.renders.running_changed.connect(lambda _r: self._update_actions())
        self.renders.message.connect(lambda msg: self._status(msg, 15000))
        self.qa = QaController(document, self._make_qa_runner, self)
        self.qa.recogniser_model = lambda: self.settings.recogniser_model
        self.renders.take_finished.connect(self.qa.check)
        self.qa.checked.connect(lambda _ids: self._update_actions())
        self.qa.message.connect(lambda msg: self._status(msg, 15000))

        self.script = ScriptPanel(document, self.actions_)
        self.script.assign_button.setMenu(QMenu(self.script.assign_button))
        assign_popup = self.script.assign_button.menu()
        assign_popup.aboutToShow.connect(lambda: self._fill_assign_menu(assign_popup))
        self.script.current_line_changed.connect(lambda _id: self._update_actions())
        self.script.play_take.connect(self.play_take)
        self.script.compare_takes.connect(self.compare_takes)
        self.script.choose_take.connect(self.choose_take)
        self.characters = CharactersPanel(
            document, self.voices, self.runner, self.play_audio, self.audition, has_input_device(),
            player=self.player, folders=self.folders,
        )
        self.characters.recogniser_model = lambda: self.settings.recogniser_model
        # The running engine's capabilities, or until it is ready those its backend declares.
        caps = self.bridge.ready.backend if self.bridge.ready is not None else self._declared_capabilities()
        self.characters.set_capabilities(caps.instructions, caps.languages)
        self.timeline = TimelinePanel(document, self.player, self.runner)
        self.timeline.message.connect(lambda message: self._status(message, 15000))
        self.timeline.warning.connect(lambda message: self.notify(message, Level.WARNING))
        self.timeline.addAction(self.actions_["play_line"])  # Space plays the current line here too
        self.timeline.link_script(self.script)
        self.timeline_menu.addActions(self.timeline.menu_actions())
        self._editor = QSplitter(Qt.Orientation.Vertical)
        self._editor.setObjectName("scriptAndTimeline")
        self._editor.addWidget(self.script)
        self._editor.addWidget(self.timeline)
        # Half each at first: two-line rows show the script's lines whole in less height, and the
        # tracks (about 170 px before) get room for three or four characters; the grip moves it.
        self._editor.setStretchFactor(0, 1)
        self._editor.setStretchFactor(1, 1)
        self._editor.setChildrenCollapsible(False)
        self._editor.setHandleWidth(7)  # a grip one can find: drag it to give the tracks more room
        self.video.document = document
        self.tabs.blockSignals(True)
        self.tabs.insertTab(0, self._editor, "Script")
        self.tabs.insertTab(1, self.characters, "Characters")
        self.tabs.setCurrentIndex(0)
        self.tabs.blockSignals(False)
        self.pages.setCurrentWidget(self.tabs)
        self.settings.add_recent(document.project.root)
        self._refresh_recent()
        self._update_title()
        self._update_actions()
        if document.project.lines:
            self.script.select_line(document.project.lines[0].id)
        self.qa.check_unchecked()  # takes made before QA existed, or while it was not running
        return True

    def _close_document(self, discard: bool = False) -> bool:
        """Save and drop the open project (its renders are cancelled); release its lock.

        When the save fails the project stays open, unsaved state and all, and False is
        returned (the failure was already shown); ``discard`` closes it without saving.
        """
        if self.document is None:
            return True
        if self.document.is_dirty and not self.document.read_only and not discard and not self.document.save():
            return False
        self.player.stop()
        if self.renders is not None:
            self.renders.cancel()
            self.renders.detach()
            self.renders.deleteLater()
            self.renders = None
        if self.qa is not None:
            self.qa.close()
            self.qa.deleteLater()
            self.qa = None
        if self.timeline is not None:
            self.timeline.close_panel()
            self.timeline_menu.clear()
        if self.document.is_dirty and not self.document.read_only and not discard:
            self.document.save()  # what the cancelled renders and the QA worker changed meanwhile
        self.document.close()
        self.video.document = None
        self.tabs.blockSignals(True)  # removing tabs moves the current one: build nothing now
        for widget in (self._editor, self.characters):
            if widget is not None:
                self.tabs.removeTab(self.tabs.indexOf(widget))
                widget.deleteLater()
        self.tabs.blockSignals(False)
        self.script = None
        self.timeline = None
        self._editor = None
        self.characters = None
        self.document.deleteLater()
        self.document = None
        self._update_title()
        self._update_actions()
        return True

    def _on_save_failed(self, message: str) -> None:
        """A blocking error: the changes are still open here, but not on disk."""
        self._error(
            "Cannot save the project",
            f"{message}\n\nNothing was lost: your changes are still open here. Free some space or fix the "
            "folder, then save again.",
        )

    def _refresh_recent(self) -> None:
        recent = self.settings.existing_recent()
        self.welcome.set_recent(recent)
        self.recent_menu.clear()
        for path in recent:
            self.recent_menu.addAction(path).triggered.connect(lambda _c=False, p=path: self.open_project(p))
        self.recent_menu.setEnabled(bool(recent))

    def save(self) -> bool:
        if self.document is None:
            return False
        ok = self.document.save()
        if ok:
            self._status("Saved", 3000)
        return ok

    def _on_tab(self, index: int) -> None:
        if self.tabs.tabText(index) == STRESS_TAB and self._stress is None:
            self._build_stress_tab(index)

    def _build_stress_tab(self, index: int) -> None:
        panel: QWidget
        try:
            from app.ui.stress import StressPanel

            panel = StressPanel(parent=self.tabs, engine_config=self._local_engine_config() or EngineConfig(),
                                folders=self.folders)
        except Exception as exc:  # another team's panel: a failure must not take the studio down
            log.exception("the stress panel failed to load")
            label = QLabel(f"The stress panel could not be loaded: {exc}")
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            panel = label
        placeholder = self.tabs.widget(index)
        self.tabs.blockSignals(True)
        self.tabs.removeTab(index)
        self.tabs.insertTab(index, panel, STRESS_TAB)
        self.tabs.setCurrentIndex(index)
        self.tabs.blockSignals(False)
        if placeholder is not None:
            placeholder.deleteLater()
        self._stress = panel

    # --- editing --------------------------------------------------------------------------------

    def undo(self) -> None:
        if self.document is not None:
            self.document.undo()

    def redo(self) -> None:
        if self.document is not None:
            self.document.redo()

    def _selected(self) -> list[str]:
        return self.script.selected_line_ids() if self.script is not None else []

    def add_line(self) -> None:
        if self.document is None or self.script is None:
            return
        selected = self._selected()
        project = self.document.project
        index = self.script.row_after(selected)
        character = project.line(selected[-1]).character_id if selected else None
        line = Line(id=new_id(), text="", character_id=character)
        if self.document.push(AddLines([line], index)):
            self.script.edit_line_text(line.id)

    def remove_lines(self) -> None:
        ids = self._selected()
        if self.document is not None and ids:
            self.document.push(RemoveLines(ids))

    def move_lines(self, step: int) -> None:
        """Move the selected lines one row up (-1) or down (+1), keeping the selection."""
        ids = self._selected()
        if self.document is None or not ids:
            return
        project = self.document.project
        rows = [project.index_of(i) for i in ids]
        to_index = min(rows) - 1 if step < 0 else min(rows) + 1
        rest = len(project.lines) - len(ids)
        if not 0 <= to_index <= rest:
            return
        if self.document.push(MoveLines(ids, to_index)) and self.script is not None:
            self.script.select_line(ids[0])

    def assign_character(self, character_id: str | None) -> None:
        ids = self._selected()
        if self.document is not None and ids:
            self.document.push(AssignCharacter(ids, character_id))

    def choose_take(self, line_id: str, take_id: str) -> None:
        if self.document is not None:
            self.document.push(ChooseTake(line_id, take_id))

    def sort_by_time(self) -> None:
        if self.document is not None:
            self.document.push(SortLinesByTime())

    def _show_line(self, line_id: str) -> None:
        if self.script is not None and self._editor is not None:
            self.tabs.setCurrentWidget(self._editor)
            self.script.select_line(line_id)

    def _show_character(self, character_id: str) -> None:
        if self.characters is not None:
            self.tabs.setCurrentWidget(self.characters)
            self.characters.select(character_id)

    # --- import and export ----------------------------------------------------------------------

    def _import_dialog(self, kind: str) -> None:
        file_filter, _importer = IMPORTERS[kind]
        path = self.folders.open_file(self, "scripts", "Import a script", file_filter)
        if path:
            self.import_file(path, kind)

    def import_file(self, path: str | Path, kind: str) -> bool:
        """Import a script file as one undoable step (lines after the selection)."""
        if self.document is None or self.script is None:
            return False
        _filter, importer = IMPORTERS[kind]
        try:
            result = importer(path, self.document.project)
        except (ProjectError, OSError) as exc:
            self._error("Cannot import", str(exc))
            return False
        selected = self._selected()
        index = self.script.row_after(selected) if selected else None
        if not self.document.push(result.command(index)):
            return False
        summary = f"Imported {len(result.lines)} lines"
        if result.characters:
            summary += f" and {len(result.characters)} new characters ({', '.join(c.name for c in result.characters)})"
        if result.warnings:
            summary += f"; {len(result.warnings)} warning(s): " + "; ".join(result.warnings[:3])
        gaps = voice_gaps(self.document.project, [line.id for line in result.lines])
        if gaps:  # say at once what will not render, rather than at render time
            summary += f"; {len(gaps.describe())} thing(s) to fix before rendering (listed)"
            self.video.show_gaps(gaps, f"Importing {Path(path).name}")
        self._status(summary, 15000)
        return True

    def export(self, kind: str) -> None:
        """Export in the background into the project's exports/ folder (progress, Cancel).

        The video asks for its options first (container, codec, tracks, language).
        """
        if self.document is None:
            return
        project = self.document.project
        if export_format(kind).needs_video:
            self.exports.ask_video(project)
            return
        self._status(f"Exporting {kind}…")
        self.exports.start(project, kind)

    def _on_exported(self, kind: str, result: ExportResult) -> None:
        where = result.files[0].parent if result.files else "exports/"
        message = f"Exported {kind}: {len(result.files)} file(s) in {where}"
        if result.level is not None:
            message += f" · {result.level.describe()}"
        for note in result.notes:
            message += f" · {note}"
        if result.missing:
            message += f" · {len(result.missing)} line(s) without a take skipped"
        failing = lines_failing_qa(self.document.project) if self.document is not None else []
        if failing and kind != "srt" and kind != "csv":
            message += f" · {len(failing)} take(s) failed QA (filter the script by “Failed QA”)"
        if result.overruns:
            message += f" · {len(result.overruns)} take(s) overrun their slot"
            self._show_box(
                QMessageBox.Icon.Information,
                "Takes that overrun their slot",
                "\n".join(o.describe() for o in result.overruns),
            )
        # The bar may cut a long summary; the Messages list keeps it whole.
        self.notify(message, Level.WARNING if failing or result.overruns or result.missing else Level.INFO, 20000)

    def _open_exports(self) -> None:
        if self.document is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.document.project.exports_dir)))

    # --- rendering ------------------------------------------------------------------------------

    def render_lines(self, line_ids: list[str] | None, *, stale_only: bool = False, scope: str = "") -> bool:
        """Render lines (None: all), each fitted to its slot as its own Fit setting says, and say
        which lines the render covers (``scope`` names them: "selected", "stale"...)."""
        if self.renders is None or self.document is None:
            return False
        project = self.document.project
        covered = select_lines(project, line_ids, stale_only=stale_only)
        started = self.renders.render(line_ids, stale_only=stale_only)
        if started:
            self.notify(render_scope(project, covered, scope or ("all" if line_ids is None else "selected")))
        elif not covered:
            self.notify(f"Nothing to render: no {scope or 'selected'} line needs it")
        self._update_actions()
        return started

    def render_selected(self) -> None:
        ids = self._selected()
        if ids:
            self.render_lines(ids)
        else:
            self.notify("Nothing to render: select the lines to render first")

    def render_with_fit(self) -> bool:
        """Fit the selected lines (every line when none is selected) to their slots from now on
        (one undoable step: the Fit column says "Fit to slot"), then render them."""
        if self.document is None:
            return False
        ids = self._selected() or [line.id for line in self.document.project.lines]
        unfitted = [i for i in ids if self.document.project.line(i).fit is not True]
        if unfitted:
            count = len(unfitted)
            self.document.push(Macro([EditLine(i, fit=True) for i in unfitted],
                                     f"Fit {count} line{'s' if count != 1 else ''} to their slots"))
        return self.render_lines(ids, scope="selected" if self._selected() else "all")

    def render_failed_qa(self) -> bool:
        """Render again every line whose chosen take failed QA."""
        if self.document is None:
            return False
        ids = [line.id for line in lines_failing_qa(self.document.project)]
        if not ids:
            self._status("No line's take failed QA", 5000)
            return False
        return self.render_lines(ids, scope="that failed QA")

    def recheck_qa(self) -> int:
        """Check again the takes whose QA check could not run: the selected lines', else all."""
        if self.qa is None:
            return 0
        errored = self.qa.errored_lines()
        return self.qa.recheck([i for i in self._selected() if i in errored] or errored)

    def cancel_render(self) -> None:
        if self.renders is not None:
            self.renders.cancel()

    def retry_failed(self) -> None:
        if self.renders is not None and self.document is not None:
            batch = self.renders.batch
            failed = list(batch.failed_lines) if batch is not None else []
            if self.renders.retry_failed():
                self.notify(render_scope(self.document.project, failed, "failed last time, again"))
            self._update_actions()

    def _on_progress(self, progress: Any) -> None:
        if self.script is not None:
            self.script.show_progress(progress)

    # --- engine ---------------------------------------------------------------------------------

    def engine_config(self) -> EngineConfig | RemoteConfig | None:
        """The engine to run: the command line's, else the settings' (a server's, or this
        computer's); None (the reason kept for the status bar) when the settings name an engine
        on this computer that is not set up."""
        if self._engine_override is not None:
            return self._engine_override
        try:
            return studio_engine(self.settings)
        except EngineError as error:
            self._engine_problem = f"{error.code.value}: {error.message}"
            return None

    def _local_engine_config(self) -> EngineConfig | None:
        """An engine on this computer as the settings describe it (the Stress panel runs its own)."""
        try:
            return self.settings.engine_config()
        except EngineError:
            return None

    def _start_engine(self, config: EngineConfig | RemoteConfig | None, restart: bool = False) -> None:
        """Start (or restart) the studio's engine, saying where and on which backend; or say why not."""
        self.engine_banner.setVisible(False)
        if config is None:
            self.bridge.stop()
            self.engine_label.set_target(None)
            self.engine_label.show_failed(self._engine_problem, state="not set up")
            self._status(f"The engine cannot start: {self._engine_problem} — set it up in Settings → Voices engine")
            self._update_actions()
            return
        self.engine_label.set_target(config if isinstance(config, RemoteConfig) else None)
        what = describe_engine(config)
        self.engine_label.show_starting(what, restart)
        self.bridge.restart(config)  # stops the running engine, if any, first
        if restart:
            self._status(f"Restarting the engine: {what}; lines rendered with another backend become stale")
        self._update_actions()

    def _say_project_backend(self, engine_backend: str) -> None:
        """Tell when the open project's takes were made with another backend than the engine's."""
        assert self.document is not None
        project = self.document.project
        made_with = {take.backend for line in project.lines for take in line.takes if take.backend}
        others = sorted(made_with - {engine_backend})
        if others:
            self._status(f"This project's takes were made with {', '.join(others)}; the engine runs "
                         f"{engine_backend}: rendering stale lines remakes them with {engine_backend}", 20000)

    def _on_engine_ready(self, ready: EngineReady) -> None:
        caps = ready.backend
        self._stream_rate = caps.sample_rate
        self.engine_label.show_ready(ready)
        banner = synthetic_banner(ready.facts)
        self.engine_banner.setText(banner or "")
        self.engine_banner.setVisible(banner is not None)
        if self.document is not None:
            self._say_project_backend(caps.name)
        if self.characters is not None:
            self.characters.set_capabilities(caps.instructions, caps.languages)
            if self.characters.current_id is not None and self.document is not None:
                self.voices.prepare(self.document.project, self.characters.current_id)
        self._update_actions()

    def _declared_capabilities(self) -> Capabilities:
        config = self.engine_config()
        backend = config.backend if config is not None and config.backend else self.settings.engine_backend
        return descriptor(backend).capabilities

    def _on_engine_failed(self, message: str) -> None:
        self.engine_label.show_failed(message)
        self._status(f"The engine did not start: {message} (check Settings)")
        self._update_actions()

    def _on_engine_stopped(self, reason: str) -> None:
        self.engine_label.show_stopped(reason)
        self._update_actions()

    def show_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self.runner, self)
        if dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return
        self.player.set_output(default_output(self.settings.output_device))
        self.player.check_output()
        if self.document is not None:
            self.document.set_autosave(self.settings.autosave_s)
        if dialog.engine_changed():
            self._engine_override = None  # the settings now say which engine to run
            if self.renders is not None:
                self.renders.cancel()
            self._start_engine(self.engine_config(), restart=True)
            # The Stress panel follows a new studio engine; otherwise its own target stays as set.
            local = self._local_engine_config()
            if local is not None and hasattr(self._stress, "set_engine_config"):
                self._stress.set_engine_config(local)

    # --- playback -------------------------------------------------------------------------------

    def play_audio(self, key: str, pcm: np.ndarray, sample_rate: int) -> None:
        """Play a whole clip (a reference, a take)."""
        self.player.play(key, pcm, sample_rate)

    def play_current_line(self) -> None:
        if self.script is not None and self.script.current_line_id():
            self.play_line(self.script.current_line_id())

    def play_line(self, line_id: str) -> None:
        """Play the line's chosen take, or stream it while it renders (rendering it if needed)."""
        if self.document is None or self.renders is None:
            return
        project = self.document.project
        line = project.line(line_id)
        rendering = self.renders.job_of(line_id)
        if rendering is not None:
            session, job_id = rendering
            self._stream(job_id, session.chunks_of(line_id))
            return
        take = project.chosen_take(line)
        if take is not None:
            self.play_take(line_id, take.id)
            return
        if line.status is LineStatus.FAILED and line.error:
            self._status(f"Line {project.order_of(line_id)} failed last time: {line.error}; rendering it again")
        new_job = self.renders.render_line_now(line_id)
        if new_job is not None:
            self._stream(new_job, [])

    def play_take(self, line_id: str, take_id: str) -> None:
        if self.document is None:
            return
        project = self.document.project
        take = project.take(project.line(line_id), take_id)
        try:
            pcm, rate = read_mono(project.take_path(take))
        except (sf.LibsndfileError, RuntimeError, OSError, ProjectError) as exc:
            self._status(f"E_TAKE_UNREADABLE: cannot play {take.path}: {exc}", 15000)
            return
        self.player.play(f"take:{take.id}", pcm, rate)

    def compare_takes(self, line_id: str, take_a: str, take_b: str) -> bool:
        """A/B: play one take, a short pause, then the other, as one clip (Stop ends it)."""
        if self.document is None:
            return False
        project = self.document.project
        line = project.line(line_id)
        takes = [project.take(line, take_id) for take_id in (take_a, take_b)]
        try:
            (a, rate), (b, rate_b) = (read_mono(project.take_path(take)) for take in takes)
        except (sf.LibsndfileError, RuntimeError, OSError, ProjectError) as exc:
            self._status(f"E_TAKE_UNREADABLE: cannot compare the takes of line {project.order_of(line_id)}: {exc}")
            return False
        if rate_b != rate:
            self._status(f"E_TAKE_UNREADABLE: the takes of line {project.order_of(line_id)} have different sample "
                         f"rates ({rate} and {rate_b} Hz); play them one by one")
            return False
        numbers = [[t.id for t in line.takes].index(take.id) + 1 for take in takes]
        self.player.play(f"ab:{take_a}:{take_b}", np.concatenate([a, np.zeros(int(AB_PAUSE_S * rate), a.dtype), b]), rate)
        self._status(f"A/B: take {numbers[0]} (in use), then take {numbers[1]}", 8000)
        return True

    def audition(self, character_id: str, text: str) -> str | None:
        """Speak ``text`` in a character's voice now (interactive priority), streaming it;
        returns the key it plays under (its job id), None when it cannot start."""
        if self.document is None:
            return None
        if not self.bridge.is_ready:
            self._status("E_ENGINE_START: the engine is not ready yet", 8000)
            return None
        try:
            spec = voice_spec(self.document.project, character_id)
        except NoVoice as exc:
            self._status(str(exc), 15000)
            return None
        job = Job(text=text, voice=spec, priority=Priority.INTERACTIVE, listening=True)  # played as it streams
        self.bridge.submit(job)
        self._stream(job.job_id, [])
        return job.job_id

    def _stream(self, job_id: str, chunks: list[np.ndarray]) -> None:
        self.player.begin_stream(job_id, self._stream_rate)
        for pcm in chunks:
            self.player.feed(job_id, pcm, self._stream_rate)

    def _on_chunk(self, chunk: AudioChunk) -> None:
        self.player.feed(chunk.job_id, chunk.pcm, chunk.sample_rate)

    def _on_job_end(self, event: JobFinished | JobFailed) -> None:
        if isinstance(event, JobFailed):
            if event.resubmitted:
                self.player.restart_stream(event.job_id)
                return
            if event.job_id == self.player.playing_key:
                self._status(f"{event.code.value}: {event.message}", 15000)
        self.player.end_stream(event.job_id)

    def _on_playhead(self, seconds: float) -> None:
        key = self.player.playing_key
        if key == Transport.KEY:
            return  # the timeline shows its own time
        if self.script is not None:
            queued = self.player.queued_s
            self.script.playhead.setText(f"{seconds:5.1f} / {queued:.1f} s" if key else "")
        if self.characters is not None:
            if key.startswith("clip:"):
                start = float(key.rsplit(":", 1)[1])
                self.characters.set_playhead(start + seconds)
            else:
                self.characters.set_playhead(None)

    def _on_play_stopped(self, _key: str) -> None:
        if self.characters is not None:
            self.characters.set_playhead(None)
        if self.script is not None:
            self.script.playhead.setText("")
        self._update_actions()

    # --- errors and closing -----------------------------------------------------------------------

    def _error(self, title: str, message: str) -> None:
        """Errors the user caused by an explicit action get a dialog, in words with the code last;
        the status bar and the Messages list keep them."""
        self._status(message)
        explained = explain(message)
        self._show_box(QMessageBox.Icon.Warning, title, str(explained) if explained.code else message)

    def _show_box(self, icon: QMessageBox.Icon, title: str, message: str) -> None:
        box = QMessageBox(icon, title, message, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("messageBox")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): tests and scripted runs must never block on it

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.window_geometry = bytes(self.saveGeometry().toBase64().data()).decode()
        if not self._close_document(discard=self._discard_on_close):
            event.ignore()  # the save failed: keep the window and its unsaved changes
            self._offer_to_discard()
            return
        self.settings.sync()
        self.player.stop()
        if hasattr(self._stress, "shutdown"):
            self._stress.shutdown()
        if self._owns_bridge:
            self.bridge.stop()
        self.runner.wait_idle()
        event.accept()

    def _offer_to_discard(self) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Close without saving?",
            "The project could not be saved, so closing now would lose your unsaved changes.",
            QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setObjectName("discardBox")
        discard = box.addButton("Close without saving", QMessageBox.ButtonRole.DestructiveRole)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(_result: int) -> None:
            if box.clickedButton() is discard:
                self._discard_on_close = True
                self.close()

        box.finished.connect(chosen)
        box.open()

    def quit_after_load(self, delay_ms: int = 0) -> None:
        """For smoke tests: close once the event loop has drawn the window."""
        QTimer.singleShot(delay_ms, self.close)

"""The studio's main window: welcome screen, then the script, characters and stress tabs.

The window wires the parts together and owns what lives as long as it does: the settings, the
actions and menus (declared in :mod:`app.ui.window.actions`), the engine (:class:`EngineController`,
started at once, in the background, so it is ready by the first click), playback
(:class:`PlaybackController`), the status bar and its Messages list, and the open project's
:class:`DocumentSession`, which owns that project's document, panels and controllers.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs
from PySide6.QtCore import QByteArray, Qt, QTimer, QUrl
from PySide6.QtGui import QCloseEvent, QDesktopServices
from PySide6.QtWidgets import (
    QAbstractButton,
    QLabel,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.project import Project, ProjectError
from app.project.export import ExportResult
from app.project.export_registry import export_format, export_summary
from app.project.phrases import Phrase
from app.project.qa import QaWorker
from app.project.sample import copy_sample_project
from app.project.script_io import script_format
from app.ui.characters.voices import VoiceStates
from app.ui.engine.bridge import EngineBridge
from app.ui.engine.engine_controller import EngineController
from app.ui.folders import PROJECTS, Folders
from app.ui.language import fill, language_label, say
from app.ui.playback.playback_controller import PlaybackController
from app.ui.playback.player import AudioOutput, Player, default_output
from app.ui.script.qa_controller import QaRunner
from app.ui.settings.dialog import SettingsDialog
from app.ui.settings.store import Settings
from app.ui.stress.tab import StressTab
from app.ui.tasks import Operation, TaskRunner
from app.ui.timeline.video_controller import VideoController
from app.ui.window.actions import StudioState, apply_rules, build_actions, build_menus
from app.ui.window.document import Document
from app.ui.window.document_session import DocumentSession, StudioParts, open_document
from app.ui.window.export_controller import ExportController, export_label
from app.ui.window.notifications import Level
from app.ui.window.studio_messages import StudioMessages
from app.ui.window.welcome import WelcomePage
from engine.core.protocol import EngineReady
from engine.synthesis.config import EngineConfig

if TYPE_CHECKING:
    from app.ui.characters.characters_panel import CharactersPanel
    from app.ui.script.qa_controller import QaController
    from app.ui.script.render_controller import RenderController
    from app.ui.script.script_panel import ScriptPanel
    from app.ui.timeline.panel import TimelinePanel

SAMPLE_FOLDER_NAME = "Sample project"


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
        self.session: DocumentSession | None = None  # the open project
        self.folders = Folders(settings, lambda: self.session.project.root if self.session else None, self.projects_dir)
        self._discard_on_close = False  # the user chose to close although the save failed
        self.messages = StudioMessages(self)

        self._build_controllers(bridge, engine_override, output)
        self._build_pages()

        self.actions_ = build_actions(self)
        self.menus = build_menus(self.menuBar(), self.actions_)
        self.menus["edit/assign"].aboutToShow.connect(self._fill_assign_menu)
        self._parts = StudioParts(settings, runner, self.bridge, self.playback, self.voices, self.folders, qa_runner,
                                  self.actions_)
        runner.started.connect(self._on_operation)
        runner.ended.connect(self._on_operation)
        self._refresh_recent()
        self._update_title()
        self.update_actions()
        self.resize(1200, 760)
        if settings.window_geometry:
            self.restoreGeometry(QByteArray.fromBase64(settings.window_geometry.encode()))
        self.player.check_output()
        self.engine.begin()

    # --- building ---------------------------------------------------------------------------

    def _build_controllers(self, bridge: EngineBridge | None, engine_override: EngineConfig | None,
                           output: AudioOutput | None) -> None:
        """The engine, the player, playback, the video and the exports, and what their signals say."""
        self.engine = EngineController(self.settings, self.runner, bridge, engine_override, self)
        self.engine.message.connect(self.messages.status)
        self.engine.ready.connect(self._on_engine_ready)
        self.engine.changed.connect(self.update_actions)
        self.bridge = self.engine.bridge
        self.voices = VoiceStates(self.bridge, self)
        self.player: Player = Player(output if output is not None else default_output(self.settings.output_device), self)
        self.player.started.connect(self.update_actions)
        self.player.stopped.connect(self.update_actions)
        self.playback = PlaybackController(self.player, self.bridge, self.settings, self)
        self.playback.message.connect(self.messages.status)
        self.video: VideoController = VideoController(self, self.runner, self.folders, self.projects_dir, self.open_project)
        self.video.transcription_model = lambda: self.settings.recogniser_model
        self.video.message.connect(self.messages.say)
        self.video.error.connect(self.messages.error)
        self.video.warning.connect(self.messages.warn)
        self.video.notice.connect(self.messages.notify)
        self.video.line_chosen.connect(self._show_line)
        self.video.character_chosen.connect(self._show_character)
        self.exports = ExportController(self.runner, self)
        self.exports.finished.connect(self._on_exported)
        self.exports.failed.connect(lambda _kind, message: self.messages.error(self.tr("Export failed"), message))
        self.exports.cancelled.connect(
            lambda kind: self.messages.say(fill(self.tr("The export “{label}” was cancelled; nothing was written"),
                                                label=export_label(kind))))

    def _build_pages(self) -> None:
        """The status bar's badges, the welcome page, the tabs (with the stress tab) and the engine banner."""
        self.save_label = QLabel("")
        for widget in (self.messages.badge, self.save_label, self.engine.label):
            self.statusBar().addPermanentWidget(widget)

        self.welcome = WelcomePage()
        self.welcome.open_sample.connect(self.open_sample)
        self.welcome.new_project.connect(self.new_project_dialog)
        self.welcome.new_from_video.connect(self.video.new_from_video)
        self.welcome.open_folder.connect(self.open_folder_dialog)
        self.welcome.open_recent.connect(self.open_project)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("studioTabs")
        self.stress = StressTab(self.tabs, self.folders, self.engine.local_config, self)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.welcome)
        self.pages.addWidget(self.tabs)
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.engine.banner)
        column.addWidget(self.pages, 1)
        self.setCentralWidget(central)

    # --- the open project's parts, for scripts and tests (None with no project open) --------

    @property
    def document(self) -> Document | None:
        return self.session.document if self.session else None

    @property
    def script(self) -> ScriptPanel | None:
        return self.session.script if self.session else None

    @property
    def characters(self) -> CharactersPanel | None:
        return self.session.characters if self.session else None

    @property
    def timeline(self) -> TimelinePanel | None:
        return self.session.timeline if self.session else None

    @property
    def renders(self) -> RenderController | None:
        return self.session.renders if self.session else None

    @property
    def qa(self) -> QaController | None:
        return self.session.qa if self.session else None

    # --- actions and messages -----------------------------------------------------------------

    def update_actions(self) -> None:
        """Apply every action's enable rule to the window's state now."""
        state = StudioState.of(self.session, self.bridge.is_ready, bool(self.player.playing_key), self.runner.busy)
        apply_rules(self.actions_, self.menus, state)
        recent = self.menus["file/recent"]
        recent.setEnabled(not recent.isEmpty() and state.busy is None)
        if self.session is not None:
            self.session.script.assign_button.setEnabled(state.writable)

    def _on_operation(self, _operation: Operation) -> None:
        self.update_actions()  # an operation started or ended: the studio's busy state changed

    def _fill_assign_menu(self) -> None:
        if self.session is not None:
            self.session.fill_assign_menu(self.menus["edit/assign"])

    def _update_title(self) -> None:
        title, saved = self.session.title() if self.session is not None else ("DubStudio", "")
        self.setWindowTitle(title)
        self.save_label.setText(saved)

    # --- projects -----------------------------------------------------------------------------

    def open_project(self, path: str | Path) -> bool:
        """Open a project folder; on failure say why and keep the current one.

        The project is locked while it is open; when another studio or a ``dubstudio render``
        holds it (or its folder cannot be written), it opens read-only and says so.
        """
        if self.session is not None and self.session.holds(path):
            return True  # already open here (and locked by us: opening it again would be read-only)
        try:
            document = open_document(path, self)
        except (ProjectError, OSError) as exc:
            self.messages.error(self.tr("Cannot open project"), str(exc))
            return False
        if not self._close_session():
            document.close()
            document.deleteLater()
            return False
        self._open_session(document)
        return True

    def open_sample(self) -> bool:
        """Open the user's copy of the bundled sample project (made on first use)."""
        target = self.projects_dir / SAMPLE_FOLDER_NAME
        if not (target / "project.json").is_file():
            try:
                copy_sample_project(target)
            except (ProjectError, OSError) as exc:
                self.messages.error(self.tr("Cannot copy the sample project"), str(exc))
                return False
        return self.open_project(target)

    def new_project(self, folder: str | Path) -> bool:
        try:
            project = Project.create(folder, Path(folder).name)
        except (ProjectError, OSError) as exc:
            self.messages.error(self.tr("Cannot create project"), str(exc))
            return False
        return self.open_project(project.root)

    def new_project_dialog(self) -> None:
        folder = self.folders.folder(self, PROJECTS, self.tr("Choose an empty folder for the new project"))
        if folder:
            self.new_project(folder)

    def open_folder_dialog(self) -> None:
        folder = self.folders.folder(self, PROJECTS, self.tr("Open a project folder"))
        if folder:
            self.open_project(folder)

    def _open_session(self, document: Document) -> None:
        """Show ``document`` in a new session's tabs (the previous one is closed already)."""
        self.messages.show_project(document.project.root)  # before the session says anything
        session = self.session = DocumentSession(document, self._parts, self.engine.capabilities(), self)
        session.box.connect(self.messages.inform)
        session.message.connect(self.messages.status)
        session.notice.connect(self.messages.notify)
        session.warning.connect(self.messages.warn)
        session.error.connect(self.messages.error)
        session.gaps_found.connect(self.video.show_gaps)
        session.bilingual_found.connect(self.ask_bilingual)
        session.state_changed.connect(self.update_actions)
        session.state_changed.connect(self._update_title)
        self.menus["playback/timeline"].addActions(session.timeline.menu_actions())
        self.video.document = document
        session.show_in(self.tabs)
        self.pages.setCurrentWidget(self.tabs)
        self.settings.add_recent(document.project.root)
        self._refresh_recent()
        self._update_title()
        self.update_actions()
        session.begin(self.bridge.ready)

    def _close_session(self, discard: bool = False) -> bool:
        """Save and close the open project (its renders are cancelled; its lock released).

        When the save fails the project stays open, unsaved state and all, and False is
        returned (the failure was already shown); ``discard`` closes it without saving.
        """
        session = self.session
        if session is None:
            return True
        if not session.close(discard):
            return False
        self.menus["playback/timeline"].clear()
        self.video.document = None
        session.dispose(self.tabs)
        self.session = None
        self.messages.show_project(None)
        self._update_title()
        self.update_actions()
        return True

    def _refresh_recent(self) -> None:
        recent = self.settings.existing_recent()
        self.welcome.set_recent(recent)
        menu = self.menus["file/recent"]
        menu.clear()
        for path in recent:
            menu.addAction(path).triggered.connect(lambda _c=False, p=path: self.open_project(p))

    def save(self) -> bool:
        if self.session is None or not self.session.document.save():
            return False
        self.messages.status(self.tr("Saved"), 3000)
        return True

    def _show_line(self, line_id: str) -> None:
        if self.session is not None:
            self.tabs.setCurrentWidget(self.session.editor)
            self.session.script.select_line(line_id)

    def _show_character(self, character_id: str) -> None:
        if self.session is not None:
            self.tabs.setCurrentWidget(self.session.characters)
            self.session.characters.select(character_id)

    # --- import and export ----------------------------------------------------------------------

    def import_dialog(self, kind: str) -> None:
        path = self.folders.open_file(self, "scripts", self.tr("Import a script"), script_format(kind).file_filter)
        if path:
            self.import_path(path, kind)

    def import_path(self, path: str | Path, kind: str) -> None:
        """Import ``path``; a script that has lines asks first whether the file replaces them,
        is added to them, or is not imported after all."""
        session = self.session
        if session is None:
            return
        count = len(session.project.lines)
        if not count:
            session.import_file(path, kind)
            return
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Import into a script that has lines"),
                          self.tr("The script already has %n line(s). Replace them with the lines of "
                                  "%1, or add its lines to them?", "", count).replace("%1", Path(path).name),
                          QMessageBox.StandardButton.Cancel, self)
        box.setObjectName("importBox")
        replace = box.addButton(self.tr("Replace"), QMessageBox.ButtonRole.DestructiveRole)
        add = box.addButton(self.tr("Add"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(add)
        box.setInformativeText(self.tr("Either way it is one step that Edit › Undo takes back."))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(_result: int) -> None:
            clicked = box.clickedButton()
            if clicked in (replace, add) and self.session is session:
                session.import_file(path, kind, replace=clicked is replace)

        box.finished.connect(chosen)
        box.open()  # not exec(): tests and scripted runs must never block on it

    def ask_bilingual(self, path: str, kind: str, replace: bool, languages: list[str]) -> None:
        """Ask which language of a bilingual subtitle file is the script to dub (the other rows
        become each line's original), then import it so."""
        session = self.session
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("A bilingual subtitle file"),
                          fill(self.tr("Each subtitle of {name} is in two languages. Which is the script to dub? "
                                       "The other is kept as each line's original, in the Source column."),
                               name=Path(path).name),
                          QMessageBox.StandardButton.Cancel, self)
        box.setObjectName("bilingualBox")
        buttons: dict[QAbstractButton, str] = {
            box.addButton(language_label(code), QMessageBox.ButtonRole.AcceptRole): code for code in languages}
        buttons[box.addButton(self.tr("Both, as one line"), QMessageBox.ButtonRole.AcceptRole)] = ""
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(_result: int) -> None:
            code = buttons.get(box.clickedButton())
            if code is not None and self.session is session and session is not None:
                session.import_file(path, kind, replace=replace, keep_language=code)

        box.finished.connect(chosen)
        box.open()  # not exec(): tests and scripted runs must never block on it

    def export(self, kind: str) -> None:
        """Export in the background into the project's exports/ folder (progress, Cancel).

        The video asks for its options first (container, codec, tracks, language); Export all
        asks for the folder the delivery goes into.
        """
        if self.session is None:
            return
        project = self.session.project
        if self.exports.refuses(project, kind):
            return
        if export_format(kind).needs_video:
            self.exports.ask_video(project)
            return
        out_dir: Path | None = None
        if kind == "all":  # a delivery goes where the user says, not into the project
            if project.has_picture:  # its video's options first (burned-in subtitles...)
                self.exports.ask_video(project, kind, self._delivery_folder)
                return
            out_dir = self._delivery_folder()
            if out_dir is None:
                return
        self.messages.status(fill(self.tr("Exporting {label}…"), label=export_label(kind)))
        self.exports.start(project, kind, out_dir=out_dir)

    def _delivery_folder(self) -> Path | None:
        chosen = self.folders.folder(self, "deliveries", self.tr("Choose the folder to deliver into"))
        return Path(chosen) if chosen else None

    def _on_exported(self, project: Project, kind: str, result: ExportResult) -> None:
        summary = export_summary(project, export_format(kind), result,
                                 qa_hint=self.tr("filter the script by “Failed QA”"))
        if result.overruns:
            self.messages.inform(self.tr("Takes that overrun their slot"),
                                 "\n".join(say(o.describe()) for o in result.overruns))
        # The export by its menu label ("已导出字幕（SRT）"), not the key the CLI prints ("srt", "all").
        headline = summary.headline
        if isinstance(headline, Phrase):
            headline = Phrase(headline.template, **{**headline.arguments, "format": export_label(kind)})
        # The bar may cut a long summary; the Messages list keeps it whole.
        self.messages.notify(" · ".join(say(sentence) for sentence in [headline, *summary.notes]),
                             Level.WARNING if summary.needs_look else Level.INFO, 20000)

    def open_exports(self) -> None:
        if self.session is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.session.project.exports_dir)))

    # --- engine and settings ------------------------------------------------------------------

    def _on_engine_ready(self, ready: EngineReady) -> None:
        if self.session is not None:
            self.session.on_engine_ready(ready)

    def show_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self.runner, self)
        if dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return
        self.player.set_output(default_output(self.settings.output_device))
        self.player.check_output()
        if self.session is not None:
            self.session.document.set_autosave(self.settings.autosave_s)
        if dialog.engine_changed():
            if self.session is not None:
                self.session.renders.cancel()
            self.engine.apply_settings()
            self.stress.follow_engine()  # otherwise the Stress panel's own target stays as set

    # --- closing ------------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.window_geometry = bytes(self.saveGeometry().toBase64().data()).decode()
        if not self._close_session(discard=self._discard_on_close):
            event.ignore()  # the save failed: keep the window and its unsaved changes
            self.messages.offer_to_discard(self._close_discarding)
            return
        self.settings.sync()
        self.player.stop()
        self.stress.shutdown()
        self.engine.stop()
        self.runner.wait_idle()
        event.accept()

    def _close_discarding(self) -> None:
        self._discard_on_close = True
        self.close()

    def quit_after_load(self, delay_ms: int = 0) -> None:
        """For smoke tests: close once the event loop has drawn the window."""
        QTimer.singleShot(delay_ms, self.close)

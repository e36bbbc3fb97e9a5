"""Every menu command of the studio, declared once: its name, label, menu, shortcut, tip, what it
does and when it can be used.

The window builds its :class:`QAction` objects and its menu bar from :data:`ENTRIES` (the
panels' buttons and context menus show the same actions, by name), and one call,
:func:`apply_rules`, sets every action's and submenu's enabled state from a
:class:`StudioState`, a snapshot the window takes whenever something the rules read changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar

from app.project.export_registry import EXPORTS, ExportFormat
from app.project.music_effects import STEM_FILE
from app.project.qa import lines_failing_qa
from app.project.script_io import SCRIPT_FORMATS, ScriptFormat
from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.characters.cast_controller import CastController
from app.ui.language import fill, say
from app.ui.script.translation_controller import (
    TranslationController,
)
from app.ui.window.document_session import DocumentSession

if TYPE_CHECKING:
    from app.ui.window.main_window import MainWindow

WAITING_TIP = QT_TRANSLATE_NOOP("actions", "Waiting for the engine to start…")
BUSY_TIP = QT_TRANSLATE_NOOP("actions", "Not while {busy}")  # ``busy``: the running operation, "exporting the video"


@dataclass(frozen=True)
class StudioState:
    """What the enable rules read: the window's state when it last changed."""

    project_open: bool = False
    writable: bool = False  # a project is open and not read-only here
    engine_ready: bool = False
    rendering: bool = False  # a batch is running
    video: bool = False  # the project dubs a video
    video_audio: bool = False  # … that has an audio track
    music_effects_stem: bool = False  # the project holds a client's imported M&E stem
    failing_qa: bool = False  # some line's chosen take failed QA
    qa_unjudged: bool = False  # some line's chosen take has no verdict (being checked, or its check could not run)
    retryable: bool = False  # the last batch left failed lines
    playing: bool = False
    undo_text: str | None = None  # what Undo would undo; None when nothing
    redo_text: str | None = None
    busy: str | None = None  # the background operation that keeps the studio busy ("exporting the video")

    @classmethod
    def of(cls, session: DocumentSession | None, engine_ready: bool, playing: bool, busy: str | None) -> StudioState:
        if session is None:
            return cls(engine_ready=engine_ready, playing=playing, busy=busy)
        stack, video, batch = session.document.stack, session.project.video, session.renders.batch
        return cls(
            project_open=True, writable=not session.document.read_only, engine_ready=engine_ready,
            rendering=session.renders.is_running, video=video is not None,
            video_audio=bool(video and video.audio_streams),
            music_effects_stem=(session.project.root / STEM_FILE).is_file(), failing_qa=bool(lines_failing_qa(session.project)),
            qa_unjudged=bool(session.qa.unjudged_lines()), retryable=bool(batch and batch.failed_lines),
            playing=playing, undo_text=stack.undo_text if stack.can_undo else None,
            redo_text=stack.redo_text if stack.can_redo else None, busy=busy,
        )


Rule = Callable[[StudioState], bool]


def always(_state: StudioState) -> bool:
    return True


def project_open(state: StudioState) -> bool:
    return state.project_open


def writable(state: StudioState) -> bool:
    return state.writable


def renderable(state: StudioState) -> bool:
    return state.writable and state.engine_ready and not state.rendering


def in_session(act: Callable[[DocumentSession], object]) -> Callable[[MainWindow], object]:
    """What an action does to the open project (its enable rule keeps it off without one)."""
    def run(window: MainWindow) -> object:
        return act(window.session) if window.session is not None else None
    return run


@dataclass(frozen=True)
class ActionSpec:
    name: str  # the QAction's object name and its key in the window's actions
    label: str
    menu: str  # the path of the menu it is listed in: "file", "file/export"
    run: Callable[[MainWindow], object]
    shortcut: QKeySequence.StandardKey | str | None = None
    tip: str = ""
    enabled: Rule = always
    separator_before: bool = False
    local_shortcut: bool = False  # only in the table and the bars: Space or Delete in an editor keep their meaning
    waits_for_engine: bool = False  # its tip says so while the engine starts
    # Off while a background operation runs (a project switch, an export, a transcription), its
    # tip saying which: one at a time, and none on a project that is being replaced.
    off_while_busy: bool = False
    detail: Callable[[StudioState], str | None] | None = None  # said after the label ("Undo Add line")
    # The translation context of the label and tip, marked with QT_TRANSLATE_NOOP where they are
    # written: "actions" here, "formats" for the script formats' and exports' (app/project).
    context: str = "actions"

    def shown_label(self) -> str:
        return QCoreApplication.translate(self.context, self.label)

    def shown_tip(self) -> str:
        return QCoreApplication.translate(self.context, self.tip) if self.tip else ""


@dataclass(frozen=True)
class MenuSpec:
    path: str  # "file" on the menu bar, "file/recent" inside it
    label: str
    enabled: Rule | None = always  # None: the window enables it
    separator_before: bool = False


def _export(fmt: ExportFormat) -> ActionSpec:
    return ActionSpec(f"export_{fmt.name}", fmt.label, "file/export", lambda w: w.export(fmt.name), tip=fmt.help,
                      enabled=lambda s: s.writable and (s.video or not fmt.needs_video), off_while_busy=True,
                      context="formats")


def _import(fmt: ScriptFormat) -> ActionSpec:
    return ActionSpec(f"import_{fmt.name}", fmt.label, "file/import", lambda w: w.import_dialog(fmt.name),
                      enabled=writable, context="formats")


_FIT_TIP = QT_TRANSLATE_NOOP("actions", "Fit the selected lines (all when none is selected) to their slots from now "
                                        "on, and render them")
_FAILED_QA_TIP = QT_TRANSLATE_NOOP("actions", "Render again the lines whose chosen take failed QA (garbled, clipped, "
                                              "silent, too long or unlike the voice)")

# In menu order; a submenu comes before what it lists.
ENTRIES: tuple[ActionSpec | MenuSpec, ...] = (
    MenuSpec("file", QT_TRANSLATE_NOOP("actions", "&File")),
    ActionSpec("new", QT_TRANSLATE_NOOP("actions", "&New project…"), "file", lambda w: w.new_project_dialog(), QKeySequence.StandardKey.New,
               off_while_busy=True),
    ActionSpec("new_from_video", QT_TRANSLATE_NOOP("actions", "New project from &video…"), "file", lambda w: w.video.new_from_video(),
               "Ctrl+Shift+N", QT_TRANSLATE_NOOP("actions", "A project that dubs a video: its subtitles become the script"), off_while_busy=True),
    ActionSpec("open", QT_TRANSLATE_NOOP("actions", "&Open project folder…"), "file", lambda w: w.open_folder_dialog(),
               QKeySequence.StandardKey.Open, off_while_busy=True),
    ActionSpec("open_sample", QT_TRANSLATE_NOOP("actions", "Open the &sample project"), "file", lambda w: w.open_sample(), off_while_busy=True),
    # Filled by the window from the settings; enabled when it lists a project and nothing keeps the studio busy.
    MenuSpec("file/recent", QT_TRANSLATE_NOOP("actions", "Open &recent"), None),
    ActionSpec("save", QT_TRANSLATE_NOOP("actions", "&Save"), "file", lambda w: w.save(), QKeySequence.StandardKey.Save, enabled=writable),
    MenuSpec("file/import", QT_TRANSLATE_NOOP("actions", "&Import"), writable, separator_before=True),
    *(_import(fmt) for fmt in SCRIPT_FORMATS),
    MenuSpec("file/export", QT_TRANSLATE_NOOP("actions", "&Export"), writable),
    *(_export(fmt) for fmt in EXPORTS),
    ActionSpec("open_exports", QT_TRANSLATE_NOOP("actions", "Open exports folder"), "file/export", lambda w: w.open_exports(),
               separator_before=True),
    ActionSpec("settings", QT_TRANSLATE_NOOP("actions", "Se&ttings…"), "file", lambda w: w.show_settings(), QKeySequence.StandardKey.Preferences,
               separator_before=True),
    ActionSpec("quit", QT_TRANSLATE_NOOP("actions", "&Quit"), "file", lambda w: w.close(), QKeySequence.StandardKey.Quit),

    MenuSpec("edit", QT_TRANSLATE_NOOP("actions", "&Edit")),
    ActionSpec("undo", QT_TRANSLATE_NOOP("actions", "&Undo"), "edit", in_session(lambda s: s.document.undo()), QKeySequence.StandardKey.Undo,
               enabled=lambda s: s.undo_text is not None, detail=lambda s: say(s.undo_text) if s.undo_text is not None else None),
    ActionSpec("redo", QT_TRANSLATE_NOOP("actions", "&Redo"), "edit", in_session(lambda s: s.document.redo()), QKeySequence.StandardKey.Redo,
               enabled=lambda s: s.redo_text is not None, detail=lambda s: say(s.redo_text) if s.redo_text is not None else None),
    ActionSpec("add_line", QT_TRANSLATE_NOOP("actions", "Add line"), "edit", in_session(DocumentSession.add_line), "Ctrl+Return",
               QT_TRANSLATE_NOOP("actions", "Add a line after the current one"), writable, separator_before=True),
    ActionSpec("remove_lines", QT_TRANSLATE_NOOP("actions", "Remove"), "edit", in_session(DocumentSession.remove_lines),
               QKeySequence.StandardKey.Delete, QT_TRANSLATE_NOOP("actions", "Remove the selected lines"), writable, local_shortcut=True),
    ActionSpec("split_line", QT_TRANSLATE_NOOP("actions", "Split line"), "edit", in_session(DocumentSession.split_line), "Ctrl+Shift+K",
               QT_TRANSLATE_NOOP("actions", "Split the current line in two at the text cursor (at its middle when it is not being edited)"),
               writable),
    ActionSpec("merge_lines", QT_TRANSLATE_NOOP("actions", "Merge lines"), "edit", in_session(DocumentSession.merge_lines), "Ctrl+Shift+M",
               QT_TRANSLATE_NOOP("actions", "Merge the selected lines, or the current line and the next, into one"), writable),
    ActionSpec("find_replace", QT_TRANSLATE_NOOP("actions", "Find and replace…"), "edit",
               in_session(DocumentSession.find_and_replace), QKeySequence.StandardKey.Replace,
               QT_TRANSLATE_NOOP("actions", "Replace a text in every line or the selected ones (undoable)"), writable),
    ActionSpec("move_up", QT_TRANSLATE_NOOP("actions", "Move up"), "edit", in_session(lambda s: s.move_lines(-1)), "Ctrl+Up",
               QT_TRANSLATE_NOOP("actions", "Move the selected lines up"), writable),
    ActionSpec("move_down", QT_TRANSLATE_NOOP("actions", "Move down"), "edit", in_session(lambda s: s.move_lines(+1)), "Ctrl+Down",
               QT_TRANSLATE_NOOP("actions", "Move the selected lines down"), writable),
    ActionSpec("sort_by_time", QT_TRANSLATE_NOOP("actions", "Sort lines by start time"), "edit", in_session(DocumentSession.sort_by_time),
               tip=QT_TRANSLATE_NOOP("actions", "Put the script in time order"), enabled=writable),
    ActionSpec("shorten_to_fit", QT_TRANSLATE_NOOP("actions", "Shorten to fit"), "edit", lambda w: TranslationController.of(w).shorten(),
               tip=QT_TRANSLATE_NOOP("actions", "Ask the translator for a shorter wording of the selected lines that fits their slots (undoable)"),
               enabled=writable, off_while_busy=True),
    ActionSpec("accept_translation", QT_TRANSLATE_NOOP("actions", "Accept translation"), "edit",
               lambda w: TranslationController.of(w).accept(),
               tip=QT_TRANSLATE_NOOP("actions", "Keep the selected draft translations as they are: no longer drafts "
                                                "(undoable)"), enabled=writable),
    MenuSpec("edit/assign", QT_TRANSLATE_NOOP("actions", "&Assign character"), writable),  # filled with the characters when it opens

    MenuSpec("project", QT_TRANSLATE_NOOP("actions", "P&roject")),
    ActionSpec("set_video", QT_TRANSLATE_NOOP("actions", "Set &video…"), "project", lambda w: w.video.choose_video(),
               tip=QT_TRANSLATE_NOOP("actions", "Choose the video this project dubs"), enabled=writable, off_while_busy=True),
    ActionSpec("add_guide", QT_TRANSLATE_NOOP("actions", "Add the original audio as a &guide track"), "project", lambda w: w.video.add_guide(),
               tip=QT_TRANSLATE_NOOP("actions", "Play the video's own audio under the dub, or keep it in the export"),
               enabled=lambda s: s.writable and s.video_audio, off_while_busy=True),
    ActionSpec("import_music_effects", QT_TRANSLATE_NOOP("actions", "Import the client's &M&&E stem…"), "project",
               lambda w: w.video.choose_music_effects(),
               tip=QT_TRANSLATE_NOOP("actions", "Put the client's music-and-effects stem under the dub: checked against "
                                                "the video (length, rate) and kept in the project"),
               enabled=lambda s: s.writable and s.video, off_while_busy=True),
    ActionSpec("remove_music_effects", QT_TRANSLATE_NOOP("actions", "Remove the M&&E stem"), "project",
               lambda w: w.video.remove_music_effects(),
               tip=QT_TRANSLATE_NOOP("actions", "Take the client's stem out of the mix: the original audio goes back "
                                                "to what it was before the import; the file is kept (undoable)"),
               enabled=lambda s: s.writable and s.music_effects_stem, off_while_busy=True),
    ActionSpec("transcribe", QT_TRANSLATE_NOOP("actions", "&Transcribe the dialogue"), "project", lambda w: w.video.transcribe_dialogue(),
               tip=QT_TRANSLATE_NOOP("actions", "Replace the script with the video's own dialogue: one character per voice, clips cut from it (undoable)"), enabled=lambda s: s.writable and s.video_audio, off_while_busy=True),
    ActionSpec("save_to_cast", QT_TRANSLATE_NOOP("actions", "Save to cast &library…"), "project",
               lambda w: CastController.of(w).save_to_library(),
               tip=QT_TRANSLATE_NOOP("actions", "Keep every character that has a clip in a cast library folder shared "
                                                "across episodes: name, clip, transcript, settings and voiceprint"),
               enabled=writable, off_while_busy=True),
    ActionSpec("cast_from_library", QT_TRANSLATE_NOOP("actions", "&Cast from library…"), "project",
               lambda w: CastController.of(w).cast_from_library(),
               tip=QT_TRANSLATE_NOOP("actions", "Match the characters by voice against a cast library: a sure match "
                                                "takes the library character's name, clip and settings (undoable)"),
               enabled=writable, off_while_busy=True),
    ActionSpec("browse_cast", QT_TRANSLATE_NOOP("actions", "&Browse the cast library…"), "project",
               lambda w: CastController.of(w).browse_library(),
               tip=QT_TRANSLATE_NOOP("actions", "List a cast library's characters: their language and recordings, "
                                                "play a clip, remove one")),
    ActionSpec("translate", QT_TRANSLATE_NOOP("actions", "Tr&anslate…"), "project",
               lambda w: TranslationController.of(w).translate(),
               tip=QT_TRANSLATE_NOOP("actions", "Translate the script into the language the project dubs into, each "
                                                "line within its slot (undoable)"),
               enabled=writable, off_while_busy=True),
    ActionSpec("project_settings", QT_TRANSLATE_NOOP("actions", "Project &settings…"), "project", lambda w: w.video.edit_settings(),
               tip=QT_TRANSLATE_NOOP("actions", "Fit to slot, loudness target, original audio in the export"), enabled=writable),

    MenuSpec("render", QT_TRANSLATE_NOOP("actions", "&Render")),
    ActionSpec("render_all", QT_TRANSLATE_NOOP("actions", "Render all"), "render", in_session(lambda s: s.render_lines(None)),
               "Ctrl+Shift+R", QT_TRANSLATE_NOOP("actions", "Render every line"), renderable, waits_for_engine=True),
    ActionSpec("render_selected", QT_TRANSLATE_NOOP("actions", "Render selected"), "render", in_session(DocumentSession.render_selected), "Ctrl+R",
               QT_TRANSLATE_NOOP("actions", "Render the selected lines"), renderable, waits_for_engine=True),
    ActionSpec("render_stale", QT_TRANSLATE_NOOP("actions", "Render stale"), "render",
               in_session(lambda s: s.render_lines(None, stale_only=True)),
               tip=QT_TRANSLATE_NOOP("actions", "Render lines that are stale, failed or not rendered yet"), enabled=renderable,
               waits_for_engine=True),
    ActionSpec("render_fit", QT_TRANSLATE_NOOP("actions", "Render with fit"), "render", in_session(DocumentSession.render_with_fit), "Ctrl+Alt+R",
               _FIT_TIP, renderable, waits_for_engine=True),
    ActionSpec("render_failed_qa", QT_TRANSLATE_NOOP("actions", "Render failed QA"), "render", in_session(DocumentSession.render_failed_qa),
               tip=_FAILED_QA_TIP,
               enabled=lambda s: s.project_open and s.engine_ready and not s.rendering and s.failing_qa),
    ActionSpec("recheck_qa", QT_TRANSLATE_NOOP("actions", "Check QA again"), "render", in_session(DocumentSession.recheck_qa),
               tip=QT_TRANSLATE_NOOP("actions", "Run the QA check again on takes without a verdict (the QA column says “Checking…” or “QA error”)"),
               enabled=lambda s: s.qa_unjudged),
    ActionSpec("cancel_render", QT_TRANSLATE_NOOP("actions", "Cancel"), "render", in_session(lambda s: s.renders.cancel()),
               tip=QT_TRANSLATE_NOOP("actions", "Cancel the running render"), enabled=lambda s: s.rendering),
    ActionSpec("retry_failed", QT_TRANSLATE_NOOP("actions", "Retry failed"), "render", in_session(DocumentSession.retry_failed),
               tip=QT_TRANSLATE_NOOP("actions", "Render the failed lines of the last batch again"),
               enabled=lambda s: s.retryable and not s.rendering),

    MenuSpec("playback", QT_TRANSLATE_NOOP("actions", "&Playback")),
    ActionSpec("play_line", QT_TRANSLATE_NOOP("actions", "▶ Play line"), "playback", in_session(DocumentSession.play_current_line), "Space",
               QT_TRANSLATE_NOOP("actions", "Play the line's take (or stream it while it renders)"), project_open, local_shortcut=True),
    # Ctrl+Space is the dub's transport and Alt+Space the window menu on Windows and many Linux desktops.
    ActionSpec("play_original", QT_TRANSLATE_NOOP("actions", "▶ Play the original"), "playback",
               in_session(DocumentSession.play_original_line), "Ctrl+Shift+Space",
               QT_TRANSLATE_NOOP("actions", "Play the video's own audio over the current line's slot (again to stop)"),
               lambda s: s.video_audio, local_shortcut=True),
    ActionSpec("stop", QT_TRANSLATE_NOOP("actions", "■ Stop"), "playback", lambda w: w.player.stop(), "Escape", QT_TRANSLATE_NOOP("actions", "Stop playback"),
               lambda s: s.playing, local_shortcut=True),
    MenuSpec("playback/timeline", QT_TRANSLATE_NOOP("actions", "&Timeline"), project_open),  # the open project's transport, filled with it
)


def build_actions(window: MainWindow) -> dict[str, QAction]:
    """The window's actions, by name, each running its spec's ``run`` on the window."""
    actions: dict[str, QAction] = {}
    for spec in ENTRIES:
        if isinstance(spec, ActionSpec):
            action = QAction(spec.shown_label(), window)
            action.setObjectName(spec.name)
            if spec.shortcut is not None:
                action.setShortcut(QKeySequence(spec.shortcut))
            if spec.local_shortcut:
                action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            if spec.tip:
                action.setToolTip(spec.shown_tip())
                action.setStatusTip(spec.shown_tip())
            action.triggered.connect(lambda _checked=False, run=spec.run: run(window))
            actions[spec.name] = action
    return actions


def build_menus(bar: QMenuBar, actions: dict[str, QAction]) -> dict[str, QMenu]:
    """The menu bar, filled in :data:`ENTRIES` order; returns every menu by its path."""
    menus: dict[str, QMenu] = {}
    for spec in ENTRIES:
        if isinstance(spec, MenuSpec):
            parent = spec.path.rpartition("/")[0]
            if spec.separator_before:
                menus[parent].addSeparator()
            label = QCoreApplication.translate("actions", spec.label)
            menus[spec.path] = menus[parent].addMenu(label) if parent else bar.addMenu(label)
        else:
            if spec.separator_before:
                menus[spec.menu].addSeparator()
            menus[spec.menu].addAction(actions[spec.name])
    return menus


def apply_rules(actions: dict[str, QAction], menus: dict[str, QMenu], state: StudioState) -> None:
    """Enable each action and submenu as its rule says for ``state`` (and update the labels)."""
    for spec in ENTRIES:
        if isinstance(spec, MenuSpec):
            if spec.enabled is not None:
                menus[spec.path].setEnabled(spec.enabled(state))
            continue
        action = actions[spec.name]
        held = spec.off_while_busy and state.busy is not None
        action.setEnabled(spec.enabled(state) and not held)
        if spec.detail is not None:
            detail = spec.detail(state)
            label = spec.shown_label()
            action.setText(f"{label} {detail}" if detail is not None else label)
        if held:
            action.setToolTip(fill(QCoreApplication.translate("actions", BUSY_TIP), busy=state.busy))
        elif spec.waits_for_engine:
            action.setToolTip(spec.shown_tip() if state.engine_ready else
                              QCoreApplication.translate("actions", WAITING_TIP))
        elif spec.off_while_busy:
            action.setToolTip(spec.shown_tip())  # none: Qt shows the label

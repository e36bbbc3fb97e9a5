"""One open project in the studio: its document, its panels and what the user does to it.

The window makes a :class:`DocumentSession` when a project opens and closes it when the project
closes, so nothing in here asks whether a project is open: the session *is* the open project.
It owns the document (model, undo stack, lock), the render and QA controllers, and the Script
(script table above the timeline) and Characters tabs; it edits, renders and imports for the
menus and the panels, and reports through signals for the window's status bar and Messages.
What outlives a project (the engine, the player, the task runner) it borrows from the window
as :class:`StudioParts`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QSplitter, QTabWidget

from app.project import (
    AddLines,
    AssignCharacter,
    ChooseTake,
    Command,
    EditLine,
    Line,
    Macro,
    MergeLines,
    MoveLines,
    Project,
    ProjectError,
    ProjectLockedError,
    RemoveLines,
    SaveError,
    SortLinesByTime,
    SplitLine,
    VoiceGaps,
    replace_in_lines,
    voice_gaps,
)
from app.project.lock import load_locked
from app.project.model import new_id
from app.project.qa import lines_failing_qa
from app.project.render import select_lines
from app.project.script_io import script_format
from app.project.timeline import new_line_timing
from app.project.timing import line_timings
from app.project.translation import SetTargetLanguage
from app.ui.characters.characters_panel import CharactersPanel
from app.ui.characters.voices import VoiceStates
from app.ui.engine.bridge import EngineBridge
from app.ui.folders import Folders
from app.ui.language import fill, language_label, listed, said_error, say, separator
from app.ui.playback.original import OriginalAudio
from app.ui.playback.playback_controller import PlaybackController
from app.ui.playback.player import has_input_device
from app.ui.script.find_replace import FindReplaceDialog
from app.ui.script.qa_controller import QaController, QaRunner
from app.ui.script.render_controller import RenderController
from app.ui.script.script_panel import ScriptPanel
from app.ui.settings.store import Settings
from app.ui.tasks import TaskRunner
from app.ui.timeline.panel import TimelinePanel
from app.ui.timeline.transport import Transport
from app.ui.window.document import Document
from app.ui.window.studio_messages import SAY_MS
from engine.core.protocol import Capabilities, EngineReady


def open_document(path: str | Path, parent: QObject) -> Document:
    """The project at ``path``, locked for this studio; read-only (saying why) when another studio
    or a ``dubstudio render`` holds it, or its folder cannot be written. Raises ProjectError or
    OSError when it cannot be read."""
    try:
        project, lock = load_locked(path, "DubStudio studio")
        return Document(project, parent, lock=lock)
    except ProjectLockedError as exc:
        return Document(Project.load(path), parent,
                        read_only=fill(QCoreApplication.translate("DocumentSession", "open in {holder}"), holder=say(exc.holder)))
    except SaveError as exc:  # no lock file possible: a read-only folder
        return Document(Project.load(path), parent, read_only=fill(QCoreApplication.translate(
            "DocumentSession", "its folder cannot be written ({reason})"), reason=say(exc.message)))


def render_scope(project: Project, lines: list[Line], scope: str) -> str:
    """What a render covers, for the status bar and the Messages list:
    "Rendering 3 lines (stale): 1 fitted to its slot, lines 2, 5, 6"."""
    return RenderScope().describe(project, lines, scope)


class RenderScope(QObject):
    """The words of :func:`render_scope`: a QObject for its tr(), from which alone lupdate reads
    a count's plural forms."""

    def describe(self, project: Project, lines: list[Line], scope: str) -> str:
        count = len(lines)
        text = fill(self.tr("Rendering %n line(s) ({scope})", "", count), scope=scope)
        fitted = sum(1 for line in lines if project.wants_fit(line))
        if fitted:
            text += self.tr(": %n fitted to their slot(s)", "", fitted)
        orders = [str(project.order_of(line.id)) for line in lines]
        if 0 < count <= 12:
            text += fill(self.tr(", line(s) {orders}", "", count), orders=listed(orders))
        # Said before the takes exist: lines the voice's pace will not fit, and that will not be fitted.
        timings = line_timings(project)
        long = [str(project.order_of(line.id)) for line in lines
                if not project.wants_fit(line) and (timing := timings.get(line.id)) is not None
                and timing.likely_too_long]
        if long:
            text += fill(self.tr("; likely too long for their slot(s) without fit: line(s) {orders}", "",
                            len(long)), orders=listed(long[:12]))
        return text


@dataclass(frozen=True)
class StudioParts:
    """What every open project uses and outlives: the window's, lent to each session."""

    settings: Settings
    runner: TaskRunner
    bridge: EngineBridge
    playback: PlaybackController
    voices: VoiceStates
    folders: Folders
    make_qa_runner: Callable[[], QaRunner]
    actions: dict[str, QAction]  # the window's, for the panels' buttons and context menus


class DocumentSession(QObject):
    """The open project's document, controllers and panels, from opening to closing."""

    message = Signal(str, int)  # for the status bar: the text, how long it shows (0: until the next)
    notice = Signal(str)  # a report worth keeping whole in the Messages list (what a render covers)
    warning = Signal(str)  # something to fix, kept in the Messages list
    error = Signal(str, str)  # title, message (with its error code): worth a dialog
    box = Signal(str, str)  # title, text: something to know before going on, worth a dialog
    gaps_found = Signal(VoiceGaps, str)  # what an import left without a voice, and which import
    # A bilingual subtitle file whose language to dub the project does not say: its path, kind,
    # whether it replaces the script, and its two languages (the window asks, then imports again).
    bilingual_found = Signal(str, str, bool, list)
    state_changed = Signal()  # what the actions' enable rules and the window's title read may differ now

    def __init__(self, document: Document, parts: StudioParts, capabilities: Capabilities,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._parts = parts
        self._find_replace: FindReplaceDialog | None = None  # kept while the project is open
        self._player = parts.playback.player
        self.originals = OriginalAudio(self._player, parts.runner, self)  # a line's stretch of the video
        self.originals.failed.connect(self._say)
        self.originals.changed.connect(self._on_original_playing)
        document.set_autosave(parts.settings.autosave_s)
        document.error.connect(self._say)
        document.save_failed.connect(self._on_save_failed)
        document.changed.connect(self.state_changed)  # the title shows unsaved changes
        document.undo_state_changed.connect(self.state_changed)
        self.renders = RenderController(document, parts.bridge, parts.settings, self)
        self.renders.running_changed.connect(self.state_changed)
        self.renders.message.connect(self._say)
        self.qa = QaController(document, parts.make_qa_runner, self)
        self.qa.recogniser_model = self._recogniser_model
        self.renders.take_finished.connect(self.qa.check)
        self.qa.checked.connect(self.state_changed)
        self.qa.message.connect(self._say)

        self.script = ScriptPanel(document, parts.actions)
        self.renders.progress.connect(self.script.show_progress)
        assign_popup = QMenu(self.script.assign_button)
        self.script.assign_button.setMenu(assign_popup)
        assign_popup.aboutToShow.connect(partial(self.fill_assign_menu, assign_popup))
        self.script.current_line_changed.connect(self.state_changed)
        self.script.play_take.connect(partial(parts.playback.play_take, document))
        self.script.compare_takes.connect(partial(parts.playback.compare_takes, document))
        self.script.choose_take.connect(self.choose_take)
        self.characters = CharactersPanel(
            document, parts.voices, parts.runner, self._player.play, partial(parts.playback.audition, document),
            has_input_device(), player=self._player, folders=parts.folders,
        )
        self.characters.hearing.recogniser_model = self._recogniser_model
        self.script.use_line_audio.connect(self.characters.use_line_audio)
        self._offer(capabilities)
        self.timeline = TimelinePanel(document, self._player, parts.runner)
        self.timeline.message.connect(self._say)
        self.timeline.warning.connect(self.warning)
        self.timeline.use_region.connect(self.characters.use_region)
        self.timeline.add_line_at.connect(self.add_line_at)
        self.timeline.addAction(parts.actions["play_line"])  # Space plays the current line here too
        self.timeline.addAction(parts.actions["play_original"])  # and Ctrl+Shift+Space its original
        self.timeline.link_script(self.script)
        self.editor = QSplitter(Qt.Orientation.Vertical)  # the Script tab: the script above the timeline
        self.editor.setObjectName("scriptAndTimeline")
        self.editor.addWidget(self.script)
        self.editor.addWidget(self.timeline)
        # Half each at first: two-line rows show the script's lines whole in less height, and the
        # tracks (about 170 px before) get room for three or four characters; the grip moves it.
        self.editor.setStretchFactor(0, 1)
        self.editor.setStretchFactor(1, 1)
        self.editor.setChildrenCollapsible(False)
        self.editor.setHandleWidth(7)  # a grip one can find: drag it to give the tracks more room
        self._player.position.connect(self._on_playhead)
        self._player.stopped.connect(self._on_play_stopped)

    @property
    def project(self) -> Project:
        return self.document.project

    def holds(self, path: str | Path) -> bool:
        """Whether ``path`` (a project folder or its project.json) is this session's project."""
        target = Path(path)
        if target.name == "project.json":
            target = target.parent
        try:
            return target.resolve() == self.project.root.resolve()
        except OSError:
            return False

    def title(self) -> tuple[str, str]:
        """The window's title and the status bar's saved state for this project."""
        document = self.document
        if document.read_only:
            return (fill(self.tr("{title} [read-only] — DubStudio"), title=self.project.title),
                    fill(self.tr("Read-only: {reason}"), reason=document.read_only))
        dirty = document.is_dirty
        return (f"{self.project.title}{' •' if dirty else ''} — DubStudio",
                self.tr("Unsaved changes") if dirty else self.tr("All changes saved"))

    def show_in(self, tabs: QTabWidget) -> None:
        """Put the Script and Characters tabs first in ``tabs``, the Script tab current."""
        tabs.blockSignals(True)  # nothing else is built on the way
        tabs.insertTab(0, self.editor, self.tr("Script"))
        tabs.insertTab(1, self.characters, self.tr("Characters"))
        tabs.setCurrentIndex(0)
        tabs.blockSignals(False)

    def begin(self, engine: EngineReady | None) -> None:
        """Once shown: make the first line current, check the takes never checked and say how the
        project opened; ``engine`` is the running engine's, if one is up."""
        root, project = self.project.root, self.project
        if project.lines:
            self.script.select_line(project.lines[0].id)
        self.qa.check_unchecked()  # takes made before QA existed, or while it was not running
        if self.document.read_only:
            self.box.emit(self.tr("Opened read-only"), fill(self.tr(
                "{root} is read-only here: {reason}.\n\nYou can look and listen, but not edit, render or save. "
                "Close it there (or fix the folder), then open it again to edit."), root=root, reason=self.document.read_only))
            self.message.emit(fill(self.tr("Opened {root} read-only"), root=root), 0)
        elif project.migrated_from is not None:
            self.message.emit(fill(self.tr("Opened a project from schema {schema}; it is saved in the new format on the "
                                      "next save"), schema=project.migrated_from), 0)
        else:
            self.message.emit(fill(self.tr("Opened {root}"), root=root), 5000)
        if engine is not None:
            self.say_backend(engine.backend.name)

    def close(self, discard: bool = False) -> bool:
        """Save and stop everything (renders cancelled, QA stopped) and release the lock.

        When the save fails nothing is stopped and False is returned (the failure was already
        shown); ``discard`` closes without saving. The window then calls :meth:`dispose`.
        """
        document = self.document
        if document.is_dirty and not document.read_only and not discard and not document.save():
            return False
        self.originals.close()
        self._player.stop()
        self._player.position.disconnect(self._on_playhead)
        self._player.stopped.disconnect(self._on_play_stopped)
        self.renders.cancel()
        self.renders.detach()
        self.qa.close()
        self.timeline.close_panel()
        if document.is_dirty and not document.read_only and not discard:
            document.save()  # what the cancelled renders and the QA worker changed meanwhile
        document.close()
        return True

    def dispose(self, tabs: QTabWidget) -> None:
        """Once closed: take the tabs out of ``tabs`` and delete the panels, the document and the
        controllers (when control returns to Qt)."""
        tabs.blockSignals(True)  # removing tabs moves the current one: build nothing now
        for widget in (self.editor, self.characters):
            tabs.removeTab(tabs.indexOf(widget))
            widget.deleteLater()
        tabs.blockSignals(False)
        self.document.deleteLater()
        self.deleteLater()

    def on_engine_ready(self, ready: EngineReady) -> None:
        caps = ready.backend
        self.say_backend(caps.name)
        self._offer(caps)
        if self.characters.current_id is not None:
            self._parts.voices.prepare(self.project, self.characters.current_id)

    def _offer(self, capabilities: Capabilities) -> None:
        """Offer in the panels what the backend can do: instructions, languages, its speed range."""
        self.characters.set_capabilities(capabilities)
        self.script.delivery.set_speeds(capabilities.speed)
        self.script.model.set_capabilities(capabilities)

    def say_backend(self, engine_backend: str) -> None:
        """Tell when the project's takes were made with another backend than the engine's."""
        made_with = {take.backend for line in self.project.lines for take in line.takes if take.backend}
        others = sorted(made_with - {engine_backend})
        if others:
            self.message.emit(fill(self.tr("This project's takes were made with {others}; the engine runs {backend}: "
                                      "rendering stale lines remakes them with {backend}"), others=listed(others), backend=engine_backend), 20000)

    # --- editing --------------------------------------------------------------------------------

    def selected(self) -> list[str]:
        return self.script.selected_line_ids()

    def add_line(self) -> None:
        selected = self.selected()
        index = self.script.row_after(selected)
        character = self.project.line(selected[-1]).character_id if selected else None
        timing = new_line_timing(self.project, index)  # a timed script: cells that show its slot
        start, end = timing if timing is not None else (None, None)
        self._add_line(Line(id=new_id(), text="", character_id=character, start=start, end=end), index)

    def add_line_at(self, start: float, end: float, character_id: str | None) -> None:
        """A line timed over ``start``-``end`` (speech the transcription heard no words in), for
        ``character_id``'s voice, placed among the lines by time; its text ready to type."""
        self._add_line(Line(id=new_id(), text="", character_id=character_id, start=round(start, 3),
                            end=round(end, 3)), None)

    def _add_line(self, line: Line, index: int | None) -> None:
        """Add an empty line (one undoable step; at ``index``, else by its start) and edit its text."""
        if self.document.push(AddLines([line], index, by_time=index is None)):
            self.script.edit_line_text(line.id)

    def split_line(self) -> bool:
        """Split the current line in two at the text cursor when its text is being edited, else
        at the word boundary nearest its middle (one undoable step)."""
        ids = self.selected()
        if len(ids) != 1:
            self.notice.emit(self.tr("Select one line to split"))
            return False
        editing = self.script.take_text_cursor()
        text = self.project.line(ids[0]).text
        if editing is not None and editing[0] == text:
            at = editing[1]
        else:
            spaces = [n for n, char in enumerate(text) if char.isspace()]
            at = min(spaces, key=lambda n: abs(n - len(text) / 2)) if spaces else len(text) // 2
        index = self.project.index_of(ids[0])
        if not self.document.push(SplitLine(ids[0], at)):
            return False
        self.script.select_lines([line.id for line in self.project.lines[index:index + 2]])
        return True

    def merge_lines(self) -> bool:
        """Merge the selected lines (they must follow one another), or the current line with the
        next one, into one line (one undoable step)."""
        ids = self.selected()
        if len(ids) == 1:
            index = self.project.index_of(ids[0])
            if index + 1 >= len(self.project.lines):
                self.notice.emit(self.tr("The last line has no next line to merge with"))
                return False
            ids.append(self.project.lines[index + 1].id)
        if len(ids) < 2:
            self.notice.emit(self.tr("Select the lines to merge"))
            return False
        index = self.project.index_of(ids[0])
        if not self.document.push(MergeLines(ids)):
            return False
        self.script.select_line(self.project.lines[index].id)
        return True

    def replace_text(self, find: str, replacement: str, match_case: bool, selected_only: bool) -> int:
        """Replace ``find`` in every line's text (or the selected lines') as one undoable edit;
        how many lines changed."""
        command = replace_in_lines(self.project, find, replacement, match_case=match_case,
                                   line_ids=self.selected() if selected_only else None)
        if command is None or not self.document.push(command):
            return 0
        return len(command.commands)

    def find_and_replace(self) -> FindReplaceDialog:
        """Open the Find and replace dialog (kept while the project is open, with what it holds)."""
        if self._find_replace is None:
            self._find_replace = FindReplaceDialog(self.replace_text, self.script)
        self._find_replace.show()
        self._find_replace.find_text.setFocus()
        return self._find_replace

    def remove_lines(self) -> None:
        ids = self.selected()
        if ids:
            self.document.push(RemoveLines(ids))

    def move_lines(self, step: int) -> None:
        """Move the selected lines one row up (-1) or down (+1), keeping the selection."""
        ids = self.selected()
        if not ids:
            return
        rows = [self.project.index_of(i) for i in ids]
        to_index = min(rows) - 1 if step < 0 else min(rows) + 1
        if 0 <= to_index <= len(self.project.lines) - len(ids) and self.document.push(MoveLines(ids, to_index)):
            self.script.select_line(ids[0])

    def assign_character(self, character_id: str | None) -> None:
        ids = self.selected()
        if ids:
            self.document.push(AssignCharacter(ids, character_id))

    def fill_assign_menu(self, menu: QMenu) -> None:
        menu.clear()
        for char in self.project.characters:
            menu.addAction(char.name).triggered.connect(partial(self._assign_from_menu, char.id))
        menu.addSeparator()
        menu.addAction(self.tr("No character")).triggered.connect(partial(self._assign_from_menu, None))

    def _assign_from_menu(self, character_id: str | None, _checked: bool = False) -> None:
        self.assign_character(character_id)

    def choose_take(self, line_id: str, take_id: str) -> None:
        self.document.push(ChooseTake(line_id, take_id))

    def sort_by_time(self) -> None:
        self.document.push(SortLinesByTime())

    def import_file(self, path: str | Path, kind: str, *, replace: bool = False, keep_language: str | None = None) -> bool:
        """Import a script file as one undoable step: its lines added after the selection, or
        (``replace``) in place of every line the script had. A bilingual subtitle file keeps the
        rows in ``keep_language`` ("": both), else in the language the project dubs into, else
        the window is asked which (:attr:`bilingual_found`) and nothing is imported yet."""
        try:
            result = script_format(kind).reader(path, self.project)
        except (ProjectError, OSError) as exc:
            self.error.emit(self.tr("Cannot import"), said_error(exc))  # said: the signal carries plain text
            return False
        keep: str | None = ""
        if result.languages:
            dubbed = self.project.target_language or self.project.language
            keep = keep_language if keep_language is not None else dubbed if dubbed in result.languages else None
            if keep is None:
                self.bilingual_found.emit(str(path), kind, replace, list(result.languages))
                return False
            result = result.keeping(keep) if keep else result
        selected = self.selected()
        if replace:
            old_ids = [line.id for line in self.project.lines]
            command: Command = Macro([RemoveLines(old_ids), result.command(None)],
                                     fill(self.tr("Replace the script with {name}"), name=Path(path).name))
        else:
            command = result.command(self.script.row_after(selected) if selected else None)
        if keep and keep != self.project.target_language:
            # The rows kept say which language the project dubs into, the others the original's,
            # as `dubstudio new --keep-language` sets them: one undo takes both back with the lines.
            original = next(code for code in result.languages if code != keep)
            command = Macro([command, SetTargetLanguage(keep, original=original)], command.text)
        if not self.document.push(command):
            return False
        summary = self.tr("Imported %n line(s)", "", len(result.lines))
        if keep:
            summary += fill(self.tr(" (bilingual: the {kept} rows as the script, the others as each line's original)"),
                            kept=language_label(keep))
        if result.characters:
            summary += fill(self.tr(" and %n new character(s) ({names})", "", len(result.characters)), names=listed(c.name for c in result.characters))
        if result.warnings:
            summary += self.tr("; %n warning(s): ", "", len(result.warnings)) + separator().join(say(w) for w in result.warnings[:3])
        gaps = voice_gaps(self.project, [line.id for line in result.lines])
        if gaps:  # say at once what will not render, rather than at render time
            summary += self.tr("; %n thing(s) to fix before rendering (listed)", "", len(gaps.describe()))
            self.gaps_found.emit(gaps, fill(self.tr("Importing {name}"), name=Path(path).name))
        self._say(summary)
        return True

    # --- rendering and playing ------------------------------------------------------------------

    def render_lines(self, line_ids: list[str] | None, *, stale_only: bool = False, scope: str = "") -> bool:
        """Render lines (None: all), each fitted to its slot as its own Fit setting says, and say
        which lines the render covers (``scope``, said, names them: "that failed QA"; by default all,
        stale or selected)."""
        covered = select_lines(self.project, line_ids, stale_only=stale_only)
        started = self.renders.render(line_ids, stale_only=stale_only)
        # Named here, in the studio's language: the menu's "all" and "stale" were shown as they are.
        scope = scope or (self.tr("stale") if stale_only else self.tr("all") if line_ids is None else self.tr("selected"))
        if started:
            self.notice.emit(render_scope(self.project, covered, scope))
        elif not covered:
            self.notice.emit(fill(self.tr("Nothing to render: no {scope} line needs it"), scope=scope))
        self.state_changed.emit()
        return started

    def render_selected(self) -> None:
        ids = self.selected()
        if ids:
            self.render_lines(ids)
        else:
            self.notice.emit(self.tr("Nothing to render: select the lines to render first"))

    def render_with_fit(self) -> bool:
        """Fit the selected lines (every line when none is selected) to their slots from now on
        (one undoable step: the Fit column says "Fit to slot"), then render them."""
        ids = self.selected() or [line.id for line in self.project.lines]
        unfitted = [i for i in ids if self.project.line(i).fit is not True]
        if unfitted:
            count = len(unfitted)
            self.document.push(Macro([EditLine(i, fit=True) for i in unfitted],
                                     self.tr("Fit %n line(s) to their slots", "", count)))
        return self.render_lines(ids, scope=self.tr("selected") if self.selected() else self.tr("all"))

    def render_failed_qa(self) -> bool:
        """Render again every line whose chosen take failed QA."""
        ids = [line.id for line in lines_failing_qa(self.project)]
        if not ids:
            self.message.emit(self.tr("No line's take failed QA"), 5000)
            return False
        return self.render_lines(ids, scope=self.tr("that failed QA"))

    def recheck_qa(self) -> int:
        """Check again the takes without a verdict: the selected lines', else all."""
        unjudged = self.qa.unjudged_lines()
        return self.qa.recheck([i for i in self.selected() if i in unjudged] or unjudged)

    def retry_failed(self) -> None:
        batch = self.renders.batch
        failed = list(batch.failed_lines) if batch is not None else []
        if self.renders.retry_failed():
            self.notice.emit(render_scope(self.project, failed, self.tr("failed last time, again")))
        self.state_changed.emit()

    def play_current_line(self) -> None:
        line_id = self.script.current_line_id()
        if line_id:
            self._parts.playback.play_line(self.document, self.renders, line_id)

    def play_original_line(self) -> None:
        """Play the video's own audio over the current line's slot; again stops it."""
        line_id = self.script.current_line_id()
        if line_id:
            self.originals.toggle_line(self.project, line_id)

    def _on_original_playing(self, key: str) -> None:
        line_id = key.removeprefix("original:")
        if key and line_id in {line.id for line in self.project.lines}:
            self.message.emit(fill(self.tr("Playing the original under line {order} (Ctrl+Shift+Space again stops it)"), order=self.project.order_of(line_id)), SAY_MS)

    def _on_playhead(self, seconds: float) -> None:
        key = self._player.playing_key
        if key == Transport.KEY:
            return  # the timeline shows its own time
        self.script.playhead.setText(fill(self.tr("{seconds:5.1f} / {queued_s:.1f} s"), seconds=seconds, queued_s=self._player.queued_s) if key else "")
        self.characters.set_playhead(float(key.rsplit(":", 1)[1]) + seconds if key.startswith("clip:") else None)

    def _on_play_stopped(self, _key: str) -> None:
        self.characters.set_playhead(None)
        self.script.playhead.setText("")

    def _on_save_failed(self, message: str) -> None:
        """A blocking error: the changes are still open here, but not on disk."""
        self.error.emit(self.tr("Cannot save the project"), fill(self.tr(
            "{message}\n\nNothing was lost: your changes are still open here. Free some space or fix the folder, "
            "then save again."), message=message))

    def _say(self, text: str) -> None:
        self.message.emit(text, SAY_MS)

    def _recogniser_model(self) -> str:
        return self._parts.settings.recogniser_model

"""The timeline panel: transport bar, video preview, and the tracks of the open project.

It listens to the :class:`~app.ui.window.document.Document` like every other view (edits and render
results), draws the script as clips on one track per character, turns drags into undoable
commands, and plays the dub with the guide track through the studio's player. One display
timer, running only while the transport plays or a drag scrubs, moves the playhead and asks
the video decoder for the matching frame; the audio, not the timer, says what time it is.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QMargins, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QFontMetrics, QImage, QKeySequence
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QScrollBar,
    QSizePolicy,
    QSlider,
    QSplitter,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.project import Change, Line, LineStatus, Project, ProjectError
from app.project.timecode import MAX_TIME_S, format_clock
from app.project.timeline import Slot, build_timeline
from app.project.timing import overlapping_lines
from app.project.transcription import wordless_stretches
from app.ui.language import fill, listed, said_error, say
from app.ui.playback.player import Player
from app.ui.script.script_panel import ScriptPanel
from app.ui.tasks import TaskRunner
from app.ui.timeline.canvas import Clip, DragKind, TimelineCanvas, Track
from app.ui.timeline.drawing import Wordless
from app.ui.timeline.edits import (
    move,
    resize_end,
    resize_start,
    retime_command,
    visible_end,
)
from app.ui.timeline.programme import (
    Audio,
    AudioLibrary,
    Programme,
    chosen_takes,
    load_many,
    placements,
)
from app.ui.timeline.region_menu import region_menu
from app.ui.timeline.scale import ZOOM_STEP
from app.ui.timeline.transport import (
    DEFAULT_GUIDE_DB,
    GUIDE_LEVEL_DB,
    Transport,
    guide_gain,
)
from app.ui.timeline.video import FrameDecoder, VideoPreview
from app.ui.window.document import Document
from engine.core.codes import ErrorCode

log = logging.getLogger(__name__)

DISPLAY_MS = 20  # the display timer: 50 playhead updates a second, two per frame of 25 fps video
NO_CHARACTER_COLOUR = "#8a8a8a"
GUIDE_COLOUR = "#6c757d"
DEFAULT_FPS = 25.0


def _shown_status(line: Line, has_take: bool) -> LineStatus:
    """What a clip says about its line: a render in progress or failed, else taken or not.

    Not :meth:`Project.status`: telling "stale" apart hashes the character's clip, which the
    table does once per change and the timeline, redrawn as often, does not need.
    """
    if line.status in (LineStatus.FAILED, LineStatus.QUEUED, LineStatus.RENDERING):
        return line.status
    return LineStatus.DONE if has_take else LineStatus.NOT_RENDERED


class TimelinePanel(QWidget):
    """The open project's timeline, with its transport and video preview."""

    selection_changed = Signal(list)  # line ids picked on the timeline
    message = Signal(str)  # something for the status bar
    warning = Signal(str)  # a problem an edit made (kept in the window's Messages list)
    use_region = Signal(str, float, float)  # character id, start, end: that stretch of the original is its clip now
    add_line_at = Signal(float, float, object)  # start, end, character id or None: a line over speech heard with no words

    def __init__(self, document: Document, player: Player, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("timelinePanel")
        self._doc = document
        self._runner = runner
        self.library = AudioLibrary()
        self.programme = Programme()
        self.transport = Transport(player, self.programme, self)
        self.transport.changed.connect(self._on_transport)
        self._slots: dict[str, Slot] = {}
        self._captions: list[tuple[float, float, str]] = []  # (from, to, text) of each line, for the preview
        self._loading: set[Path] = set()
        self._decoder: FrameDecoder | None = None
        self._video_path: Path | None = None
        self._closed = False

        self.canvas = TimelineCanvas()
        self.canvas.selection_changed.connect(self.selection_changed)
        self.canvas.seek_requested.connect(self.seek)
        self.canvas.drag_finished.connect(self._on_drag)
        self.canvas.activated.connect(self.play_line)
        self.canvas.view_changed.connect(self._sync_scrollbars)
        self.canvas.guide_menu_requested.connect(lambda seconds, at: self.guide_menu(seconds).popup(at))
        self.preview = VideoPreview()
        self.preview.resized.connect(lambda _size: self._request_frame())
        self.hbar = QScrollBar(Qt.Orientation.Horizontal)
        self.hbar.valueChanged.connect(lambda v: self.canvas.set_left(v / self.canvas.scale.px_per_s))
        self.vbar = QScrollBar(Qt.Orientation.Vertical)
        self.vbar.valueChanged.connect(self.canvas.set_top)

        self.actions_: dict[str, QAction] = {}
        self._build_actions()
        self._build_layout()

        self._display = QTimer(self)
        self._display.setInterval(DISPLAY_MS)
        self._display.timeout.connect(self._on_display)

        document.changed.connect(self._on_change)
        document.render_changed.connect(lambda _ids: self.refresh())
        self.refresh()
        self._update_time()

    # --- building ---------------------------------------------------------------------------

    def _action(self, name: str, text: str, slot: Callable[[], object], keys: tuple[str, ...] = (),
                icon: QStyle.StandardPixmap | None = None, tip: str = "") -> QAction:
        action = QAction(text, self)
        action.setObjectName(f"timeline_{name}")
        if keys:
            action.setShortcuts([QKeySequence(k) for k in keys])
        # Only while the timeline has focus (the script table has its own arrows and Home/End).
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        if icon is not None:
            action.setIcon(self.style().standardIcon(icon))
        shown = f"{tip or text} ({' / '.join(keys)})" if keys else (tip or text)
        action.setToolTip(shown)
        action.setStatusTip(shown)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        self.actions_[name] = action
        return action

    def _build_actions(self) -> None:
        px = QStyle.StandardPixmap
        a = self._action
        # Space plays the current line everywhere (the window's action, shared with the script);
        # the whole dub from the playhead is Ctrl+Space, from the table as well.
        a("play", self.tr("Play / pause"), self.transport.toggle, ("Ctrl+Space",), px.SP_MediaPlay,
          self.tr("Play the dub from the playhead, or pause"))
        self.actions_["play"].setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        a("backward", self.tr("Shuttle backwards"), self.transport.shuttle_backward, ("J",), px.SP_MediaSeekBackward,
          self.tr("Play backwards; press again for 2×, 4×, 8×"))
        a("pause", self.tr("Pause"), self.transport.pause, ("K",), px.SP_MediaPause, self.tr("Pause"))
        a("forward", self.tr("Shuttle forwards"), self.transport.shuttle_forward, ("L",), px.SP_MediaSeekForward,
          self.tr("Play forwards; press again for 2×, 4×, 8×"))
        a("start", self.tr("Go to start"), lambda: self.seek(0.0), ("Home",), px.SP_MediaSkipBackward,
          self.tr("Go to the start"))
        a("end", self.tr("Go to end"), lambda: self.seek(self.transport.end_s), ("End",), px.SP_MediaSkipForward,
          self.tr("Go to the end"))
        a("frame_back", self.tr("Previous frame"), lambda: self.step(-1), ("Left",))
        a("frame_forward", self.tr("Next frame"), lambda: self.step(+1), ("Right",))
        a("second_back", self.tr("Back one second"), lambda: self.seek(self.transport.position - 1.0), ("Shift+Left",))
        a("second_forward", self.tr("Forward one second"), lambda: self.seek(self.transport.position + 1.0), ("Shift+Right",))
        a("zoom_in", self.tr("Zoom in"), lambda: self.canvas.zoom(ZOOM_STEP ** 2), ("Ctrl+=", "Ctrl++", "+"))
        a("zoom_out", self.tr("Zoom out"), lambda: self.canvas.zoom(ZOOM_STEP ** -2), ("Ctrl+-", "-"))
        a("zoom_fit", self.tr("Zoom to fit"), self.canvas.zoom_to_fit, ("Ctrl+0",), tip=self.tr("Show the whole programme"))
        a("scroll_back", self.tr("Scroll back"), lambda: self.canvas.scroll_pages(-0.25), ("Ctrl+Left",))
        a("scroll_forward", self.tr("Scroll forward"), lambda: self.canvas.scroll_pages(0.25), ("Ctrl+Right",))
        snap = a("snap", self.tr("Snap"), lambda: setattr(self.canvas, "snapping", self.actions_["snap"].isChecked()),
                 tip=self.tr("Snap drags to other lines and the playhead (hold Shift while dragging to leave it off)"))
        snap.setCheckable(True)
        snap.setChecked(True)
        for name, text in (("zoom_in", "+"), ("zoom_out", "−"), ("zoom_fit", self.tr("Fit"))):
            self.actions_[name].setIconText(text)

    def _build_layout(self) -> None:
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.setSpacing(2)
        for name in ("start", "backward", "play", "forward", "end"):
            bar.addWidget(self._button(name))
        self.time_label = QLabel()
        self.time_label.setObjectName("timelineTime")
        self.time_label.setStyleSheet("font-family: monospace; padding-left: 8px")
        self.speed_label = QLabel("")
        # Fixed sizes: a label whose size may change asks its parents for a new layout on every
        # setText, and the splitters above repaint the whole window for it, 50 times a second.
        self.time_label.setText(f"{format_clock(MAX_TIME_S)} / {format_clock(MAX_TIME_S)}")  # the widest it gets
        self.time_label.setFixedSize(self.time_label.sizeHint().grownBy(QMargins(0, 0, 12, 0)))
        self.speed_label.setFixedSize(QFontMetrics(self.speed_label.font()).horizontalAdvance("◀ 8×") + 12,
                                      self.time_label.height())
        bar.addWidget(self.time_label)
        bar.addWidget(self.speed_label)
        bar.addSpacing(12)
        bar.addWidget(QLabel(self.tr("Original audio")))
        self.guide_slider = QSlider(Qt.Orientation.Horizontal)
        self.guide_slider.setObjectName("guideLevel")
        self.guide_slider.setRange(int(GUIDE_LEVEL_DB.low), int(GUIDE_LEVEL_DB.high))
        self.guide_slider.setValue(DEFAULT_GUIDE_DB)
        self.guide_slider.setFixedWidth(120)
        self.guide_slider.valueChanged.connect(self._on_guide_level)
        bar.addWidget(self.guide_slider)
        self.guide_label = QLabel()
        self.guide_label.setMinimumWidth(52)
        bar.addWidget(self.guide_label)
        bar.addStretch(1)
        self.fit_label = QLabel("")
        self.fit_label.setObjectName("timelineInfo")
        bar.addWidget(self.fit_label)
        bar.addSpacing(8)
        for name in ("snap", "zoom_out", "zoom_in", "zoom_fit"):
            button = self._button(name)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            bar.addWidget(button)
        self._on_guide_level(DEFAULT_GUIDE_DB)

        tracks = QWidget()
        grid = QGridLayout(tracks)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(0)
        grid.addWidget(self.canvas, 0, 0)
        grid.addWidget(self.vbar, 0, 1)
        grid.addWidget(self.hbar, 1, 0)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.preview)
        self.splitter.addWidget(tracks)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([300, 900])
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(2)
        layout.addLayout(bar)
        layout.addWidget(self.splitter, 1)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def _button(self, name: str) -> QToolButton:
        button = QToolButton()
        button.setDefaultAction(self.actions_[name])
        button.setAutoRaise(True)
        return button

    def menu_actions(self) -> list[QAction]:
        """The transport and view actions, for the window's Playback menu."""
        names = ("play", "backward", "pause", "forward", "start", "end", "frame_back", "frame_forward",
                 "zoom_in", "zoom_out", "zoom_fit")
        return [self.actions_[n] for n in names]

    # --- content ----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Rebuild tracks and clips from the project (cheap: one timeline pass)."""
        if self._closed:
            return
        project = self._doc.project
        slots = build_timeline(project)
        takes = chosen_takes(project)
        guide_path = project.guide_path() if project.guide_audio else None
        self._slots = {slot.line_id: slot for slot in slots}
        self._captions = [(slot.start, max(slot.end, slot.slot_end or slot.end), line.text.strip())
                          for slot, line in zip(slots, project.lines) if line.text.strip()]
        tracks, clips = self._layout(project, slots, takes)
        duration = max([visible_end(s) for s in slots] + [s.end for s in slots] + [10.0])
        if project.video is not None:
            duration = max(duration, project.video.duration_s)
        guide = self.library.get(guide_path) if guide_path is not None else None
        self.programme.set_dialogue(placements(project, slots, takes, self.library))
        self.programme.set_guide(guide.pcm if guide is not None else None)
        duration = max(duration, self.programme.duration_s)
        self.transport.set_end(duration)
        video_end = project.video.duration_s if project.video is not None else None
        self.canvas.set_content(tracks, clips, duration, video_end)
        self.canvas.set_wordless(self._wordless(project))
        loaded = {path: audio for path in takes.values() if (audio := self.library.get(path)) is not None}
        self.canvas.set_audio(loaded, guide)
        self._show_guide_state(project)
        self._update_fit_label(clips)
        self._load_missing(list(takes.values()) + ([guide_path] if guide_path is not None else []))
        self._update_video(project)
        self._sync_scrollbars()
        self._update_time()

    def _layout(self, project: Project, slots: list[Slot], takes: dict[str, Path]) -> tuple[list[Track], list[Clip]]:
        tracks: list[Track] = []
        if project.guide_audio:
            tracks.append(Track("\0guide", self.tr("Original audio"), GUIDE_COLOUR, guide=True))
        row: dict[str | None, int] = {}
        for char in project.characters:
            row[char.id] = len(tracks)
            tracks.append(Track(char.id, char.name, char.colour))
        if any(slot.character_id is None for slot in slots):
            row[None] = len(tracks)
            tracks.append(Track(None, self.tr("No character"), NO_CHARACTER_COLOUR))
        lines = {line.id: line for line in project.lines}
        clips = []
        for slot in slots:
            line = lines[slot.line_id]
            take = project.chosen_take(line)
            path = takes.get(line.id)
            error = line.error or (self.library.error(path) if path is not None else None) or ""
            clips.append(Clip(
                slot, row[slot.character_id], line.text.replace("\n", " "), _shown_status(line, take is not None),
                path, take.duration_s if take is not None else None,
                say(take.fit.describe()) if take is not None and take.fit is not None else "",
                project.wants_fit(line), error,
            ))
        return tracks, clips

    def _wordless(self, project: Project) -> list[Wordless]:
        """The speech the transcription heard no words in that no line covers yet, with the
        name and colour of the character each sounds like."""
        characters = {c.id: c for c in project.characters}
        shown = []
        for stretch in wordless_stretches(project):
            character = characters.get(stretch.character_id) if stretch.character_id is not None else None
            shown.append(Wordless(stretch.start, stretch.end, stretch.character_id,
                                  character.name if character is not None else "",
                                  character.colour if character is not None else ""))
        return shown

    def _load_missing(self, wanted: list[Path]) -> None:
        """Decode the takes (and guide) not loaded yet, off the GUI thread, then show them."""
        self.library.retain(wanted)
        missing = [p for p in self.library.missing(wanted) if p not in self._loading]
        if not missing:
            return
        self._loading.update(missing)

        def done(loaded: dict[Path, Audio | str]) -> None:
            self._loading.difference_update(loaded)
            if self._closed:
                return
            self.library.add(loaded)
            self.refresh()

        def failed(error: BaseException) -> None:
            self._loading.difference_update(missing)
            self.message.emit(fill(self.tr("{code}: the timeline could not load audio: {error}"), code=ErrorCode.TAKE_UNREADABLE, error=said_error(error)))

        self._runner.run(lambda: load_many(missing), done, failed)

    def _update_fit_label(self, clips: list[Clip]) -> None:
        fitted = sum(1 for c in clips if c.fit)
        over = [c for c in clips if c.slot.overrun_s > 0]
        parts = []
        if fitted:
            parts.append(fill(self.tr("{count} fitted"), count=fitted))
        if over:
            parts.append(self.tr("%n overrun(s)", "", len(over)))
        self.fit_label.setText(" · ".join(parts))
        self.fit_label.setStyleSheet("color: #d62728" if over else "")
        self.fit_label.setToolTip("\n".join(
            fill(self.tr("line {order} runs {seconds:.2f} s past its slot"), order=c.slot.order,
                                                                             seconds=c.slot.overrun_s) for c in over
        ) or self.tr("Every rendered take fits its slot"))

    def _on_change(self, change: Change) -> None:
        self.refresh()

    # --- selection ----------------------------------------------------------------------------

    def link_script(self, script: ScriptPanel) -> None:
        """Share the selection with the script table, both ways, without echoing it back."""
        relaying = [False]

        def relay(apply: Callable[[list[str]], None]) -> Callable[[list[str]], None]:
            def handler(line_ids: list[str]) -> None:
                if not relaying[0]:
                    relaying[0] = True
                    try:
                        apply(line_ids)
                    finally:
                        relaying[0] = False
            return handler

        script.selection_changed.connect(relay(self.set_selection))
        self.selection_changed.connect(relay(script.select_lines))

    def guide_menu(self, seconds: float | None = None) -> QMenu:
        """The original-audio track's menu: the region dragged over it as a character's clip, and
        a line for the stretch of speech with no words at ``seconds`` (where it was opened)."""
        wordless = None if seconds is None else next(
            (s for s in self.canvas.wordless if s.start <= seconds <= s.end), None)
        return region_menu(self, self._doc.project, self.canvas.region, self.use_region.emit, wordless,
                           self.add_line_at.emit)

    def set_selection(self, line_ids: list[str]) -> None:
        """Select lines picked elsewhere (the script table) and bring the first into view."""
        self.canvas.set_selection(line_ids)
        if line_ids and line_ids[0] in self._slots:
            self.canvas.ensure_visible(self._slots[line_ids[0]].start)

    # --- editing ------------------------------------------------------------------------------

    def _on_drag(self, kind: str, line_ids: list[str], delta_s: float) -> None:
        project = self._doc.project
        try:
            slots = [self._slots[i] for i in line_ids]
            if kind == DragKind.MOVE.value:
                retimes = move(project, slots, delta_s)
                text = self.tr("Move line") if len(slots) == 1 else self.tr("Move %n line(s)", "", len(slots))
            elif kind == DragKind.START.value:
                retimes = [resize_start(project, slots[0], slots[0].start + delta_s)]
                text = self.tr("Change slot start")
            else:
                retimes = [resize_end(project, slots[0], visible_end(slots[0]) + delta_s)]
                text = self.tr("Change slot end")
            command = retime_command(project, retimes, text)
        except (KeyError, ProjectError) as error:  # the project changed under the drag
            self.message.emit(said_error(error))
            return
        if command is not None and self._doc.push(command):
            self._warn_overlaps(line_ids)

    def _warn_overlaps(self, line_ids: list[str]) -> None:
        """A drag that lays a line over another line of the same character says so at once."""
        project = self._doc.project
        for line_id in line_ids:
            others = overlapping_lines(project, line_id)
            if others:
                names = listed(str(order) for order in others)
                self.warning.emit(f"Line {project.order_of(line_id)} now overlaps line{'s' if len(others) > 1 else ''} "
                                  f"{names} of the same character: one voice cannot say both at once")

    # --- transport ----------------------------------------------------------------------------

    def seek(self, seconds: float) -> None:
        self.transport.seek(seconds)
        self._show_position(self.transport.position)

    def step(self, frames: int) -> None:
        """Move the playhead by whole video frames (pauses first)."""
        self.transport.pause()
        fps = self._doc.project.video.fps if self._doc.project.video and self._doc.project.video.fps else DEFAULT_FPS
        frame = math.floor(self.transport.position * fps + 1e-6) + frames
        self.seek(max(0, frame) / fps + 1e-4)

    def play_line(self, line_id: str) -> None:
        """Play the dub from a line's start (double-click on a clip)."""
        slot = self._slots.get(line_id)
        if slot is not None:
            self.transport.seek(slot.start)
            self.transport.play(1.0)

    def _on_transport(self) -> None:
        playing = self.transport.playing
        px = QStyle.StandardPixmap
        self.actions_["play"].setIcon(self.style().standardIcon(px.SP_MediaPause if playing else px.SP_MediaPlay))
        speed = self.transport.speed
        self.speed_label.setText("" if not playing or speed == 1.0 else f"{'◀' if speed < 0 else '▶'} {abs(speed):g}×")
        if playing:
            self._display.start()
        else:
            self._display.stop()
        self._show_position(self.transport.position)

    def _on_display(self) -> None:
        """The one display tick: feed audio, move the playhead, follow it, ask for the frame."""
        self.transport.tick()
        position = self.transport.position
        self._show_position(position)
        if self.transport.playing:
            self.canvas.ensure_visible(position, page=True)

    def _show_position(self, seconds: float) -> None:
        self.canvas.set_playhead(seconds)
        self._update_time()
        self._request_frame()
        self.preview.set_caption(self._caption_at(seconds))

    def _caption_at(self, seconds: float) -> str:
        """The text of the lines sounding at ``seconds`` (their slot, or their take past it)."""
        return "\n".join(text for start, end, text in self._captions if start <= seconds < end)

    def _update_time(self) -> None:
        position = self.transport.position
        self.time_label.setText(f"{format_clock(position)} / {format_clock(self.transport.end_s)}")

    def _on_guide_level(self, db: int) -> None:
        self.transport.guide_gain = guide_gain(db)
        self.guide_label.setText(self.tr("off") if db <= GUIDE_LEVEL_DB.low else fill(self.tr("{db:+d} dB"), db=db))

    def _show_guide_state(self, project: Project) -> None:
        has_guide = bool(project.guide_audio)
        self.guide_slider.setEnabled(has_guide)
        self.guide_slider.setToolTip(
            self.tr("The video's original audio under the dub while you play (the export follows the project settings)")
            if has_guide else self.tr("No original audio in this project: Project › Add the original audio as a guide track")
        )

    # --- video ------------------------------------------------------------------------------

    def _update_video(self, project: Project) -> None:
        path = project.video_path()
        if path == self._video_path:
            return
        self._close_decoder()
        self._video_path = path
        if path is None:
            self.preview.set_message(self.tr("No video\nProject › Set video… adds one"))
            return
        if project.video is not None and not project.video.has_picture:  # a radio drama, a podcast
            self.preview.set_message(fill(self.tr("No picture: {file} is a recording\n"
                                                  "Its sound is the original-audio track"), file=path.name))
            return
        if not path.is_file():
            self.preview.set_message(fill(self.tr("The video {path} is missing"), path=project.video.path if project.video else path.name))
            return
        self.preview.set_message(self.tr("Loading video…"))
        self._decoder = FrameDecoder(path, self)
        self._decoder.frame_ready.connect(self._on_frame)
        self._decoder.failed.connect(self._on_video_failed)
        self._request_frame()

    def _request_frame(self) -> None:
        if self._decoder is None:
            return
        when = self.transport.position
        if self.transport.playing:  # it arrives about one tick later: ask for the frame due then
            when += self.transport.speed * DISPLAY_MS / 1000
        self._decoder.request(when, self.preview.size() * self.preview.devicePixelRatioF())

    def _on_frame(self, image: QImage, seconds: float) -> None:
        self.preview.show_frame(image, seconds)

    def _on_video_failed(self, message: str) -> None:
        self.preview.set_message(message)
        self.message.emit(message)

    def _close_decoder(self) -> None:
        if self._decoder is not None:
            self._decoder.close()
            self._decoder.deleteLater()
            self._decoder = None

    # --- view ---------------------------------------------------------------------------------

    def _sync_scrollbars(self) -> None:
        canvas = self.canvas
        total = int(canvas.content_width())
        for bar, maximum, value, page in (
            (self.hbar, max(0, total - int(canvas.area_width)), int(canvas.scale.left_s * canvas.scale.px_per_s),
             int(canvas.area_width)),
            (self.vbar, canvas.max_top(), canvas.top_px, canvas.height()),
        ):
            bar.blockSignals(True)
            bar.setRange(0, maximum)
            bar.setPageStep(max(1, page))
            bar.setSingleStep(max(1, page // 20))
            bar.setValue(value)
            bar.blockSignals(False)
        self.vbar.setVisible(canvas.max_top() > 0)

    def sizeHint(self) -> QSize:
        return QSize(1000, 280)

    def close_panel(self) -> None:
        """Stop playing and release the video (the project is closing)."""
        self._closed = True
        self._display.stop()
        self.transport.pause()
        self._close_decoder()

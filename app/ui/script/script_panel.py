"""The script tab: filter bar, the lines table, the take chooser and the render bar.

Actions (render, play, assign, reorder) are the window's QActions, so menus, shortcuts and the
buttons here stay in step; this module lays them out and shows the selected line's takes. The
table's context menu adds the cast edits a transcription's lines need: assign them to a
character, merge their character into another, split them off into a new one (each one undo step).

Its length (about 630 lines, a little over the ~600 the project aims at) is the tab's four parts
and the context menu that ties them to the window's actions; the takes box is the next part that
could become a widget of its own.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractItemModel,
    QCoreApplication,
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
    SignalInstance,
)
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.project import AssignCharacter, Change, LineStatus
from app.project.qa import placements, verdict_of
from app.project.render import RenderProgress
from app.project.script_io import has_source_text
from app.project.undo import MergeCharacters
from app.ui.characters.cast_edits import split_off
from app.ui.characters.fields import colour_icon
from app.ui.language import fill, language_label, shown_message
from app.ui.script.columns import STATUS_TEXT, Column, finding_text, qa_error_tooltip
from app.ui.script.line_delivery import FOLLOWS_CHARACTER, LineDelivery
from app.ui.script.lines_model import LINE_ID_ROLE, LineFilterProxy, LinesModel
from app.ui.script.render_controller import format_eta, progress_bar_text
from app.ui.scroll import ControlsColumn
from app.ui.window.document import Document
from engine.core.languages import LANGUAGES

ModelIndex = QModelIndex | QPersistentModelIndex
FAILED_QA = "failed_qa"  # the status filter's entry for lines whose chosen take failed QA
TAKE_QA_MARK = {True: "✓", False: "✗", None: "?"}  # a take's QA verdict in the takes list
PROGRESS_MIN_WIDTH = 180  # room for "12 of 60 rendered · 48 cancelled"
TAKES_MIN_WIDTH = 230  # the takes box never gets narrower than its two buttons and a take's first line
CHARACTER_MAX_WIDTH = 170  # past this a name elides (its tooltip has it whole); the text needs the room
CELL_PADDING = 44  # the colour square (14 px), its margins and the cell's own
TEXT_CELL_PADDING = 14  # a plain cell's margins, for columns sized to their sample value
EDITOR_MIN_LINES = 3  # the inline text editor opens this many lines tall, however short the row
# Every row is two lines of text tall: a line of dialogue reads whole in the Text column at the
# default size, longer ones elide (the tooltip has all). Rows sized to their contents cost a text
# layout of every row on every edit (0.9 s an edit at 200 lines), so the height is fixed.
ROW_LINES = 2


class _ComboDelegate(QStyledItemDelegate):
    """Edits a cell with a combo box whose item data is the value stored in the model."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document

    def _fill(self, combo: QComboBox, index: ModelIndex) -> None:
        raise NotImplementedError

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: ModelIndex) -> QWidget:
        combo = QComboBox(parent)
        self._fill(combo, index)
        return combo

    def setEditorData(self, editor: QWidget, index: ModelIndex) -> None:
        assert isinstance(editor, QComboBox)
        editor.setCurrentIndex(max(0, editor.findData(index.data(Qt.ItemDataRole.EditRole))))

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: ModelIndex) -> None:
        assert isinstance(editor, QComboBox)
        model.setData(index, editor.currentData(), Qt.ItemDataRole.EditRole)


class TextDelegate(QStyledItemDelegate):
    """Edits a line's text in a multi-line box: Enter keeps the edit, Shift+Enter starts a new
    line, Escape drops it. The box opens at least :data:`EDITOR_MIN_LINES` tall over the rows below."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: ModelIndex) -> QWidget:
        editor = QPlainTextEdit(parent)
        editor.setObjectName("lineTextEditor")
        editor.setTabChangesFocus(True)
        editor.installEventFilter(self)
        return editor

    def setEditorData(self, editor: QWidget, index: ModelIndex) -> None:
        assert isinstance(editor, QPlainTextEdit)
        editor.setPlainText(str(index.data(Qt.ItemDataRole.EditRole) or ""))
        editor.moveCursor(editor.textCursor().MoveOperation.End)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: ModelIndex) -> None:
        assert isinstance(editor, QPlainTextEdit)
        model.setData(index, editor.toPlainText().strip(), Qt.ItemDataRole.EditRole)

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        rect = option.rect  # type: ignore[attr-defined]
        tall = editor.fontMetrics().lineSpacing() * EDITOR_MIN_LINES + 12
        editor.setGeometry(rect.x(), rect.y(), rect.width(), max(rect.height(), tall))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(watched, QPlainTextEdit) and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                    watched.insertPlainText("\n")  # a plain new line (Qt's own Shift+Enter is U+2028)
                else:
                    self.commitData.emit(watched)
                    self.closeEditor.emit(watched, QStyledItemDelegate.EndEditHint.SubmitModelCache)
                return True
        return super().eventFilter(watched, event)


class CharacterDelegate(_ComboDelegate):
    """Edits a line's character with a combo box of the project's characters."""

    def _fill(self, combo: QComboBox, index: ModelIndex) -> None:
        combo.addItem(self.tr("— no character —"), "")
        for char in self._doc.project.characters:
            combo.addItem(colour_icon(char.colour), char.name, char.id)


class FitDelegate(_ComboDelegate):
    """Chooses whether a line's takes are fitted into its slot: the project's default, always, never."""

    def _fill(self, combo: QComboBox, index: ModelIndex) -> None:
        default = "on" if self._doc.project.settings.fit_default else "off"
        combo.addItem(fill(self.tr("Project default ({default})"), default=default), "default")
        combo.addItem(self.tr("Fit to slot"), "on")
        combo.addItem(self.tr("Don't fit"), "off")


class LanguageDelegate(_ComboDelegate):
    """Chooses a line's own language: as its character, or one of the one language table's."""

    def _fill(self, combo: QComboBox, index: ModelIndex) -> None:
        combo.addItem(QCoreApplication.translate("LineDelivery", FOLLOWS_CHARACTER), "")
        for code in LANGUAGES:
            combo.addItem(language_label(code), code)


class TakeDelegate(_ComboDelegate):
    """Chooses among a line's takes in place."""

    def _fill(self, combo: QComboBox, index: ModelIndex) -> None:
        line = self._doc.project.line(index.data(LINE_ID_ROLE))
        for n, take in enumerate(line.takes, 1):
            combo.addItem(fill(self.tr("{n}: {duration_s:.2f} s · {value}"), n=n, duration_s=take.duration_s, value=take.created.replace('T', ' ')[:16]), take.id)


def _button(action: QAction) -> QToolButton:
    button = QToolButton()
    button.setDefaultAction(action)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    return button


class ScriptPanel(QWidget):
    """The lines of the script and everything done to them."""

    current_line_changed = Signal(str)  # line id, "" when none
    selection_changed = Signal(list)  # the selected line ids, in script order
    play_take = Signal(str, str)  # line id, take id
    compare_takes = Signal(str, str, str)  # line id, the take in use (A), another take (B)
    choose_take = Signal(str, str)  # line id, take id
    use_line_audio = Signal(str)  # line id: its slot of the original becomes its character's clip

    def __init__(self, document: Document, actions: dict[str, QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self.model = LinesModel(document, self)
        self.proxy = LineFilterProxy(self)
        self.proxy.setSourceModel(self.model)

        filters = self._build_filters(actions)
        self._build_table(actions)
        self._build_takes()

        # The takes box scrolls when the script is made low (the window's Messages open under it),
        # so the script gives up its height and the timeline below keeps every track.
        takes_scroll = ControlsColumn(self.takes_box)
        takes_scroll.setObjectName("takesScroll")
        splitter = QSplitter()
        splitter.addWidget(self.table)
        splitter.addWidget(takes_scroll)
        splitter.setStretchFactor(0, 1)
        splitter.setCollapsible(1, False)
        self.takes_box.setMinimumWidth(TAKES_MIN_WIDTH)
        splitter.setSizes([1000, TAKES_MIN_WIDTH])  # the script table gets the room; the takes box its least

        bar = self._build_bar(actions)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(filters)
        layout.addWidget(splitter, 1)
        layout.addLayout(bar)

        document.changed.connect(self._on_change)
        document.render_changed.connect(self._on_render)
        self._fill_character_filter()
        self._show_optional_columns()

    # --- building (once, in the order the widgets are made: it is the focus order) -------------

    def _build_filters(self, actions: dict[str, QAction]) -> QHBoxLayout:
        """The filter bar: character, status, search, and the line buttons."""
        self.character_filter = QComboBox()
        self.character_filter.setObjectName("characterFilter")
        self.character_filter.currentIndexChanged.connect(self._apply_character_filter)
        self.status_filter = QComboBox()
        self.status_filter.addItem(self.tr("All statuses"), None)
        for status in LineStatus:
            self.status_filter.addItem(QCoreApplication.translate("LinesModel", STATUS_TEXT[status]), status.value)
        self.status_filter.insertSeparator(self.status_filter.count())
        self.status_filter.addItem(self.tr("Failed QA"), FAILED_QA)
        self.status_filter.currentIndexChanged.connect(self._apply_status_filter)
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search text…"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.set_text)
        filters = QHBoxLayout()
        filters.addWidget(QLabel(self.tr("Show")))
        filters.addWidget(self.character_filter)
        filters.addWidget(self.status_filter)
        filters.addWidget(self.search, 1)
        for name in ("add_line", "remove_lines", "move_up", "move_down"):
            filters.addWidget(_button(actions[name]))
        self.assign_button = QToolButton()
        self.assign_button.setText(self.tr("Assign to…"))
        self.assign_button.setToolTip(self.tr("Give the selected lines to a character"))
        self.assign_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        filters.addWidget(self.assign_button)
        return filters

    def _build_table(self, actions: dict[str, QAction]) -> None:
        """The lines table: editing, drag to reorder, its delegates, column widths and context menu."""
        self.table = QTableView()
        self.table.setObjectName("linesTable")
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.table.setDragEnabled(True)
        self.table.setAcceptDrops(True)
        self.table.setDropIndicatorShown(True)
        self.table.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.table.setWordWrap(True)  # a long line reads over ROW_LINES lines
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setAlternatingRowColors(True)
        # Tab moves on to the next control, as in a form: arrows move between cells. Rows are
        # selected whole, so the current cell is framed to show where typing would go.
        self.table.setTabKeyNavigation(False)
        self.table.setStyleSheet("QTableView::item:focus { border: 2px solid palette(highlight); }")
        self.table.setItemDelegateForColumn(Column.TEXT, TextDelegate(self.table))
        self.table.setItemDelegateForColumn(Column.SOURCE, TextDelegate(self.table))
        self.table.setItemDelegateForColumn(Column.CHARACTER, CharacterDelegate(self._doc, self.table))
        self.table.setItemDelegateForColumn(Column.TAKE, TakeDelegate(self._doc, self.table))
        self.table.setItemDelegateForColumn(Column.FIT, FitDelegate(self._doc, self.table))
        self.table.setItemDelegateForColumn(Column.LANGUAGE, LanguageDelegate(self._doc, self.table))
        header = self.table.horizontalHeader()
        header.setSectionsClickable(True)
        header.sectionClicked.connect(lambda column: self.model.sort(column))  # only Start sorts: by time
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column in Column:
            if column.width:
                self.table.setColumnWidth(column, self._content_width(column))
            else:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        rows = self.table.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(max(26, self.table.fontMetrics().lineSpacing() * ROW_LINES + 8))
        self.table.verticalHeader().setToolTip(self.tr("Order in the script (drag rows to reorder)"))
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(
            lambda at: self.context_menu().popup(self.table.viewport().mapToGlobal(at)))
        for name in ("play_line", "play_original", "render_selected", "render_failed_qa", "recheck_qa", "add_line", "remove_lines",
                     "move_up", "move_down"):
            self.table.addAction(actions[name])  # in the context menu, and their shortcuts work in the table
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row)
        self.table.selectionModel().selectionChanged.connect(lambda _s, _d: self.selection_changed.emit(self.selected_line_ids()))

    def _build_takes(self) -> None:
        """The takes box: the selected line's takes, play, A/B, use, its error and its delivery."""
        self.takes_box = QGroupBox(self.tr("Takes"))
        self.takes = QListWidget()
        self.takes.setObjectName("takesList")
        # Two short lines per take, wrapped rather than cut off when the panel is narrow.
        self.takes.setWordWrap(True)
        self.takes.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.takes.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.takes.setSpacing(2)
        self.takes.itemDoubleClicked.connect(lambda _item: self._take_action(self.choose_take))
        play_take = QPushButton(self.tr("▶ Play take"))
        play_take.clicked.connect(lambda: self._take_action(self.play_take))
        use_take = QPushButton(self.tr("Use this take"))
        use_take.clicked.connect(lambda: self._take_action(self.choose_take))
        self.compare_button = QPushButton(self.tr("A/B"))
        self.compare_button.setObjectName("compareTakes")
        self.compare_button.setToolTip(self.tr("Play the take in use (A), then the selected take (B), to compare them"))
        self.compare_button.clicked.connect(self._compare)
        self.delivery = LineDelivery(self._doc)
        self.line_error = QLabel("")
        self.line_error.setWordWrap(True)
        self.line_error.setStyleSheet("color: #d62728")
        takes_layout = QVBoxLayout(self.takes_box)
        takes_layout.addWidget(self.takes, 1)
        take_buttons = QHBoxLayout()
        take_buttons.addWidget(play_take, 2)
        take_buttons.addWidget(self.compare_button, 1)
        takes_layout.addLayout(take_buttons)
        takes_layout.addWidget(use_take)  # its own row: three buttons side by side were cut at the box's width
        takes_layout.addWidget(self.line_error)
        takes_layout.addWidget(self.delivery)

    def _build_bar(self, actions: dict[str, QAction]) -> QHBoxLayout:
        """The render and playback bar: render buttons, progress, play and stop, the playhead."""
        self.progress = QProgressBar()
        self.progress.setObjectName("renderProgress")
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setTextVisible(False)  # until a render starts
        self.progress.setMinimumWidth(PROGRESS_MIN_WIDTH)
        self.progress_label = QLabel(self.tr("Nothing rendering"))
        self.progress_label.setObjectName("renderStatus")
        # A long status must never widen the window: the label gives way (its tooltip keeps it all).
        self.progress_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.progress_label.setMinimumWidth(0)  # squeezed, it gives way: never under the buttons
        self.playhead = QLabel("")
        self.playhead.setObjectName("playhead")
        self.playhead.setMinimumWidth(90)
        bar = QHBoxLayout()
        for name in ("render_all", "render_selected", "render_stale", "render_failed_qa", "cancel_render",
                     "retry_failed"):
            bar.addWidget(_button(actions[name]))
        bar.addWidget(self.progress, 3)
        bar.addWidget(self.progress_label, 2)  # shares the room left over (see its size policy)
        bar.addSpacing(16)
        bar.addWidget(_button(actions["play_line"]))
        bar.addWidget(_button(actions["stop"]))
        bar.addWidget(self.playhead)
        return bar

    # --- rendering --------------------------------------------------------------------------

    def show_progress(self, progress: RenderProgress) -> None:
        """The render bar: rendered lines fill it; failed and cancelled ones are named in it."""
        self.progress.setTextVisible(True)
        self.progress.setRange(0, max(1, progress.total))
        self.progress.setValue(progress.done + progress.failed)
        self.progress.setFormat(progress_bar_text(progress))
        self.progress_label.setText(format_eta(progress))
        self.progress_label.setToolTip(f"{progress_bar_text(progress)} · {format_eta(progress)}")

    # --- selection --------------------------------------------------------------------------

    def selected_line_ids(self) -> list[str]:
        """Selected lines in script order (the current line if nothing is selected)."""
        rows = {self.proxy.mapToSource(i).row() for i in self.table.selectionModel().selectedRows()}
        if not rows:
            current = self.table.currentIndex()
            if current.isValid():
                rows = {self.proxy.mapToSource(current).row()}
        return self.model.line_ids(sorted(rows))

    def current_line_id(self) -> str:
        current = self.table.currentIndex()
        return str(current.data(LINE_ID_ROLE)) if current.isValid() else ""

    def select_line(self, line_id: str, column: Column = Column.TEXT) -> None:
        row = self.model.row_of(line_id)
        if row < 0:
            return
        index = self.proxy.mapFromSource(self.model.index(row, column))
        if index.isValid():
            self.table.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            )
            self.table.scrollTo(index)

    def select_lines(self, line_ids: list[str]) -> None:
        """Select these lines (the first becomes current and is scrolled to); others are deselected."""
        indexes = [self.proxy.mapFromSource(self.model.index(self.model.row_of(i), Column.TEXT))
                   for i in line_ids if self.model.row_of(i) >= 0]
        indexes = [i for i in indexes if i.isValid()]  # filtered out of view: cannot be selected
        selection = QItemSelection()
        for index in indexes:
            selection.select(index, index)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        model = self.table.selectionModel()
        if indexes:
            model.setCurrentIndex(indexes[0], QItemSelectionModel.SelectionFlag.NoUpdate)
            self.table.scrollTo(indexes[0])
        model.select(selection, flags)

    def edit_line_text(self, line_id: str) -> None:
        self.select_line(line_id)
        self.table.edit(self.table.currentIndex())

    def take_text_cursor(self) -> tuple[str, int] | None:
        """The line text being edited and its cursor position, the edit kept and the box closed;
        None when no line's text is being edited."""
        current = self.table.currentIndex()
        editor = self.table.indexWidget(current)
        if current.column() != Column.TEXT or not isinstance(editor, QPlainTextEdit):
            return None
        text, at = editor.toPlainText(), editor.textCursor().position()
        delegate = self.table.itemDelegateForColumn(Column.TEXT)
        delegate.commitData.emit(editor)  # the typing is kept, as Enter would keep it
        delegate.closeEditor.emit(editor, QStyledItemDelegate.EndEditHint.NoHint)
        return text.strip(), max(0, at - (len(text) - len(text.lstrip())))

    def row_after(self, line_ids: list[str]) -> int:
        """The source row just after the last of ``line_ids`` (for inserting new lines)."""
        rows = [self.model.row_of(i) for i in line_ids]
        return max(rows) + 1 if rows else self.model.rowCount()

    # --- the cast, from the table -------------------------------------------------------------

    def context_menu(self) -> QMenu:
        """The table's menu: the line actions, then *Assign to character*, *Merge <name> into*
        (when the selected lines are all one character's) and *Split selected lines into a new
        character*."""
        menu = QMenu(self.table)
        menu.setObjectName("linesContextMenu")
        menu.addActions(self.table.actions())
        menu.addSeparator()
        project, ids = self._doc.project, self.selected_line_ids()
        assign = menu.addMenu(self.tr("Assign to character"))
        assign.setObjectName("assignToCharacter")
        for char in project.characters:
            assign.addAction(colour_icon(char.colour), char.name).triggered.connect(
                lambda _checked=False, to=char.id: self.assign_selected(to))
        assign.addSeparator()
        assign.addAction(self.tr("No character")).triggered.connect(lambda _checked=False: self.assign_selected(None))
        assign.setEnabled(bool(ids))
        owner = self._sole_character(ids)
        merge = menu.addMenu(fill(self.tr("Merge {name} into"), name=project.character(owner).name) if owner else self.tr("Merge into"))
        merge.setObjectName("mergeInto")
        merge.setToolTip(self.tr("Give all of this character's lines to another and remove it (one actor heard as two)"))
        for char in project.characters:
            if char.id != owner:
                merge.addAction(colour_icon(char.colour), char.name).triggered.connect(
                    lambda _checked=False, into=char.id: self.merge_selected_into(into))
        merge.setEnabled(owner is not None and len(project.characters) > 1)
        split = menu.addAction(self.tr("Split selected lines into a new character"))
        split.setObjectName("splitSelected")
        split.setToolTip(self.tr("Give the selected lines to a new character (two actors heard as one)"))
        split.triggered.connect(lambda _checked=False: self.split_selected())
        split.setEnabled(owner is not None)
        menu.addSeparator()
        use_audio = menu.addAction(self.tr("Use this line's original audio as the voice clip"))
        use_audio.setObjectName("useLineAudio")
        use_audio.setToolTip(self.tr("Cut this line's slot from the video's audio and make it the clip of "
                                     "the line's character (undoable)"))
        timed = [line for line in project.lines_by_ids(ids)
                 if line.character_id is not None and line.start is not None and line.end is not None]
        use_audio.triggered.connect(lambda _checked=False: self.use_line_audio.emit(ids[0]))
        use_audio.setEnabled(len(ids) == 1 and len(timed) == 1 and project.video_path() is not None)
        return menu

    def _sole_character(self, line_ids: list[str]) -> str | None:
        """The one character all ``line_ids`` belong to; None when they are several or none."""
        owners = {line.character_id for line in self._doc.project.lines_by_ids(line_ids)}
        return owners.pop() if len(owners) == 1 and None not in owners else None

    def assign_selected(self, character_id: str | None) -> bool:
        """Give the selected lines to ``character_id`` (None: no character), one undo step."""
        ids = self.selected_line_ids()
        return bool(ids) and self._doc.push(AssignCharacter(ids, character_id))

    def merge_selected_into(self, kept_id: str) -> bool:
        """Merge the selected lines' character into ``kept_id``: all its lines go there and it is
        removed, one undo step."""
        owner = self._sole_character(self.selected_line_ids())
        return owner is not None and self._doc.push(MergeCharacters(kept_id, owner))

    def split_selected(self) -> bool:
        """Give the selected lines (all one character's) to a new character, one undo step."""
        ids = self.selected_line_ids()
        owner = self._sole_character(ids)
        return owner is not None and self._doc.push(split_off(self._doc.project, owner, ids))

    # --- filters ------------------------------------------------------------------------------

    def _content_width(self, column: Column) -> int:
        """A narrow column's width: its title or its widest usual value, whichever is wider."""
        metrics = self.table.fontMetrics()
        bold = self.table.horizontalHeader().fontMetrics()
        widest = max(metrics.horizontalAdvance(column.sample), bold.horizontalAdvance(column.title) + 8)
        return max(column.width, widest + TEXT_CELL_PADDING)

    def _fit_character_column(self) -> None:
        """Widen the Character column to the longest name (within bounds), so names show whole."""
        metrics = self.table.fontMetrics()
        names = [char.name for char in self._doc.project.characters]
        widest = max((metrics.horizontalAdvance(name) for name in names), default=0)
        needed = widest + CELL_PADDING
        self.table.setColumnWidth(Column.CHARACTER, min(max(Column.CHARACTER.width, needed), CHARACTER_MAX_WIDTH))

    def _fill_character_filter(self) -> None:
        keep = self.character_filter.currentData()
        self.character_filter.blockSignals(True)
        self.character_filter.clear()
        self.character_filter.addItem(self.tr("All characters"), None)
        for char in self._doc.project.characters:
            self.character_filter.addItem(colour_icon(char.colour), char.name, char.id)
        self.character_filter.addItem(self.tr("No character"), LineFilterProxy.NO_CHARACTER)
        index = self.character_filter.findData(keep)
        self.character_filter.setCurrentIndex(max(0, index))
        self.character_filter.blockSignals(False)
        self._apply_character_filter()
        self._fit_character_column()

    def _apply_status_filter(self) -> None:
        wanted = self.status_filter.currentData()
        self.proxy.set_failed_qa(wanted == FAILED_QA)
        self.proxy.set_status(LineStatus(wanted) if wanted not in (None, FAILED_QA) else None)

    def _apply_character_filter(self) -> None:
        self.proxy.set_character(self.character_filter.currentData())

    # --- takes --------------------------------------------------------------------------------

    def _on_current_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        line_id = str(current.data(LINE_ID_ROLE)) if current.isValid() else ""
        self._show_takes(line_id)
        self.current_line_changed.emit(line_id)

    def _show_takes(self, line_id: str) -> None:
        self.delivery.show_line(line_id)
        self.compare_button.setEnabled(False)
        self.takes.clear()
        self.line_error.setText("")
        if not line_id or self.model.row_of(line_id) < 0:
            self.takes_box.setTitle(self.tr("Takes"))
            return
        project = self._doc.project
        line = project.line(line_id)
        self.takes_box.setTitle(fill(self.tr("Takes of line {order_of}"), order_of=project.order_of(line_id)))
        current_fp = project.fingerprint(line)
        placement = placements(project).get(line_id)
        for n, take in enumerate(line.takes, 1):
            chosen = take.id == line.chosen_take
            verdict = verdict_of(project, take, placement)
            name = fill(self.tr("Take {number}"), number=n)
            first = ["● " + name if chosen else name, fill(self.tr("{seconds:.2f} s"), seconds=take.duration_s)]
            qa_error = self._doc.qa_errors.get(take.id) if verdict is None else None
            if verdict is not None:
                first.append(fill(self.tr("QA {mark}"), mark=TAKE_QA_MARK[verdict.passed]))
            elif qa_error is not None:
                first.append(self.tr("QA error"))
            second = [take.created.replace("T", " ")[:16]]
            if take.fingerprint != current_fp:
                second.append(self.tr("stale"))
            if chosen:
                second.append(self.tr("in use"))
            item = QListWidgetItem(" · ".join(first) + "\n" + " · ".join(second))
            findings = "\n".join(map(finding_text, verdict.findings)) if verdict is not None else qa_error_tooltip(qa_error) if qa_error else ""
            item.setToolTip(f"{take.text}\n{findings}".strip())
            item.setData(Qt.ItemDataRole.UserRole, take.id)
            self.takes.addItem(item)
            if take.id == line.chosen_take:
                self.takes.setCurrentItem(item)
        self.compare_button.setEnabled(len(line.takes) > 1 and line.chosen_take is not None)
        if not line.takes:
            placeholder = QListWidgetItem(self.tr("Not rendered yet"))
            placeholder.setFlags(Qt.ItemFlag.NoItemFlags)
            self.takes.addItem(placeholder)
        if line.status is LineStatus.FAILED and line.error:
            self.line_error.setText(shown_message(line.error))

    def _compare(self) -> None:
        """A/B: the take in use against the selected one (another, or the one before it)."""
        line_id = self.current_line_id()
        if not line_id:
            return
        line = self._doc.project.line(line_id)
        ids = [take.id for take in line.takes]
        item = self.takes.currentItem()
        other = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if line.chosen_take not in ids or len(ids) < 2:
            return
        if other in (None, line.chosen_take):  # nothing else selected: the newest other take
            other = next(i for i in reversed(ids) if i != line.chosen_take)
        self.compare_takes.emit(line_id, line.chosen_take, other)

    def _take_action(self, signal: SignalInstance) -> None:
        item = self.takes.currentItem()
        line_id = self.current_line_id()
        take_id = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if line_id and take_id:
            signal.emit(line_id, take_id)

    def _on_change(self, change: Change) -> None:
        if change.characters or change.structure:
            self._fill_character_filter()
        if change.lines or change.structure:
            self._show_optional_columns()
        line_id = self.current_line_id()
        if line_id and (line_id in change.lines or change.structure):
            self._show_takes(line_id)

    def _show_optional_columns(self) -> None:
        """The Source column only where lines keep an original (a transcription translated them),
        the Language column only where a line has a language of its own (set in the line's
        delivery, or by a transcription): at the default size the Text column needs the room."""
        self.table.setColumnHidden(Column.SOURCE, not has_source_text(self._doc.project))
        self.table.setColumnHidden(Column.LANGUAGE, not any(line.language for line in self._doc.project.lines))

    def _on_render(self, line_ids: frozenset[str]) -> None:
        line_id = self.current_line_id()
        if line_id in line_ids:
            self._show_takes(line_id)

"""The Characters panel's edits that reach into the video or across the cast: a clip chosen
from the original's candidates or cut from a line's slot or a timeline region, and merging or
splitting characters (one actor heard as two, two heard as one). Each is one undoable edit,
after which the panel shows the character it leaves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QInputDialog

from app.project import EditCharacter, Project
from app.project.transcription import cut_line, cut_region
from app.project.undo import MergeCharacters, SplitCharacter
from app.ui.characters.fields import ShownCharacter
from app.ui.language import fill, said_error
from app.ui.playback.player import Player
from app.ui.timeline.video_clips import ChooseFromVideoDialog, SplitCharacterDialog
from engine.core.protocol import VoiceSettings

_Dialog = TypeVar("_Dialog", bound=QDialog)


def split_off(project: Project, character_id: str, line_ids: list[str]) -> SplitCharacter:
    """The edit that gives ``line_ids`` to a new character "<name> N" (the first free N from 2)
    speaking the same language; from the Characters panel and the script table alike."""
    base, n = project.character(character_id).name, 2
    while project.character_by_name(f"{base} {n}") is not None:
        n += 1
    language = project.character(character_id).settings.language
    return SplitCharacter(character_id, line_ids, project.make_character(f"{base} {n}",
                                                                         settings=VoiceSettings(language=language)))


class CastEdits(QObject):
    """These edits for the character shown; ``select(id)`` shows a character. The dialogs play
    the original through ``player``."""

    def __init__(self, shown: ShownCharacter, player: Player | None, select: Callable[[str], None]) -> None:
        super().__init__(shown.owner)
        self._shown = shown
        self._doc = shown.document
        self._player = player
        self._silent_player: Player | None = None  # the dialogs' when the window lent no player (tests)
        self._select = select
        self.dialog: QDialog | None = None  # the cast dialog open now (tests drive it)

    def choose_from_video(self) -> ChooseFromVideoDialog | None:
        """The current character's candidates from the original; the one used becomes the clip."""
        character_id = self._shown.current()
        if character_id is None:
            return None
        dialog = ChooseFromVideoDialog(self._doc.project, character_id, self._shown.runner, self._dialog_player(),
                                       self._shown.owner)
        dialog.picked.connect(lambda changes: self._doc.push(EditCharacter(character_id, **changes)))
        return self._open(dialog)

    def _dialog_player(self) -> Player:
        """The player a dialog plays the original through: the window's (one thing plays at a
        time), or a silent one of the panel's own when it was given none."""
        if self._player is not None:
            return self._player
        if self._silent_player is None:
            self._silent_player = Player(parent=self._shown.owner)
        return self._silent_player

    def use_line_audio(self, line_id: str) -> None:
        """Cut the line's slot from the video into its character's clip (one undoable edit), in
        the background, then show that character."""
        project = self._doc.project
        self._shown.runner.run(lambda: cut_line(project, line_id), self._use_cut, lambda exc: self._doc.error.emit(said_error(exc)))

    def use_region(self, character_id: str, start: float, end: float) -> None:
        """Cut ``start``-``end`` of the video (a region of the timeline's original-audio track)
        into the character's clip, as :meth:`use_line_audio`."""
        project = self._doc.project
        self._shown.runner.run(lambda: (character_id, cut_region(project, character_id, start, end)), self._use_cut,
                         lambda exc: self._doc.error.emit(said_error(exc)))

    def _use_cut(self, result: tuple[str, dict[str, Any]]) -> None:
        """Push a clip cut from the video and show the character (its purity shows, and the
        panel warns of an impure or short clip)."""
        character_id, changes = result
        if self._doc.push(EditCharacter(character_id, **changes)):
            self._select(character_id)

    def merge_into(self, kept_id: str) -> bool:
        """Merge the current character into ``kept_id`` (undoable) and show that one."""
        current = self._shown.current()
        if current is None or not self._doc.push(MergeCharacters(kept_id, current)):
            return False
        self._select(kept_id)
        return True

    def merge(self) -> None:
        """Ask which character takes the current one's lines, then merge into it."""
        current = self._shown.current()
        if current is None:
            return
        project = self._doc.project
        others = [c for c in project.characters if c.id != current]
        if not others:
            return
        name, ok = QInputDialog.getItem(self._shown.owner, self.tr("Merge characters"), fill(self.tr("Give {name}'s lines to:"), name=project.character(current).name), [c.name for c in others], 0, False)
        if ok:
            self.merge_into(next(c.id for c in others if c.name == name))

    def split(self) -> SplitCharacterDialog | None:
        """Ask which of the current character's lines go to a new character, then split them off."""
        character_id = self._shown.current()
        if character_id is None:
            return None
        dialog = SplitCharacterDialog(self._doc.project, character_id, self._shown.runner, self._dialog_player(),
                                      self._shown.owner)

        def accepted() -> None:
            ids = dialog.checked()
            split = split_off(self._doc.project, character_id, ids)
            if ids and self._doc.push(split):
                self._select(split.new.id)

        dialog.accepted.connect(accepted)
        return self._open(dialog)

    def _open(self, dialog: _Dialog) -> _Dialog:
        """Open ``dialog`` (window-modal), deleted when it closes."""
        dialog.finished.connect(lambda _result: dialog.deleteLater())
        self.dialog = dialog
        dialog.open()
        return dialog

"""Undo and redo for every edit a user makes to a project, without Qt.

Each edit is a :class:`Command` with ``do`` and ``undo``; a :class:`CommandStack` runs them and
keeps the history. The studio wraps the stack (e.g. to enable menu actions) instead of using
QUndoStack, so the same edits work in tests and headless tools, and the project model never
depends on Qt.

Every ``do``/``undo`` returns a :class:`Change` naming what it touched, so table models can
emit precise ``dataChanged`` signals and reset only on structural changes. Commands capture
the old values the first time they run, so a command object must be pushed exactly once.

Render results (new takes, render status) are not commands: audio on disk is not something
"undo" should delete, and commands only restore the fields they changed, so the two never
fight over a line.

Its length (about 850 lines, over the ~600 the project aims at) is one small Command class per
kind of edit, each with its do and undo; the stack itself is short.
"""

from __future__ import annotations

import abc
import enum
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, Final

from app.project import phrases
from app.project.errors import InvalidValueError, UnknownIdError
from app.project.fsutil import check_relative
from app.project.model import (
    Character,
    Line,
    LineStatus,
    ProjectSettings,
    VideoInfo,
    check_id,
    name_key,
    new_id,
    validate_character,
    validate_line,
)
from app.project.phrases import Phrase, counted
from app.project.project import Project
from engine.core.languages import join_pieces


@dataclass(frozen=True)
class Change:
    """What an edit touched. ``structure`` means rows were added, removed or reordered."""

    lines: frozenset[str] = frozenset()
    characters: frozenset[str] = frozenset()
    structure: bool = False
    project: bool = False  # title or project settings

    def __or__(self, other: Change) -> Change:
        return Change(
            self.lines | other.lines,
            self.characters | other.characters,
            self.structure or other.structure,
            self.project or other.project,
        )

    def __bool__(self) -> bool:
        return bool(self.lines or self.characters or self.structure or self.project)


NO_CHANGE = Change()


class Command(abc.ABC):
    """One undoable edit."""

    #: Shown in the Edit menu as "Undo <text>".
    text: str = Phrase(phrases.EDIT)

    @abc.abstractmethod
    def do(self, project: Project) -> Change:
        """Apply the edit (first run and every redo); validate before changing anything."""

    @abc.abstractmethod
    def undo(self, project: Project) -> Change:
        """Restore exactly what :meth:`do` changed."""

    def merge(self, other: Command) -> bool:
        """Absorb ``other`` (already done) into this command; True if it did."""
        return False


# --- lines -----------------------------------------------------------------------------------


class AddLines(Command):
    """Insert lines (and any characters they need) at ``index``; also how imports land.

    Importing a script is one command so a single undo takes the whole import back, including
    the characters it created. With ``by_time`` the lines are merged into the script by their
    start timecodes instead (``index`` is ignored; see :func:`merge_by_time`), which is how
    timed subtitles must land: a cue at 00:00:27 belongs after the line at 00:00:14, wherever
    the cursor happens to be.
    """

    def __init__(
        self,
        lines: Sequence[Line],
        index: int | None = None,
        characters: Sequence[Character] = (),
        text: str | None = None,
        *,
        by_time: bool = False,
    ) -> None:
        self.lines = list(lines)
        self.characters = list(characters)
        self.index = index
        self.by_time = by_time
        self.text = text or counted(len(self.lines), phrases.ADD_LINE, phrases.ADD_LINES)

    def do(self, project: Project) -> Change:
        known = {c.id for c in project.characters} | {c.id for c in self.characters}
        existing = {line.id for line in project.lines}
        for char in self.characters:
            validate_character(char)
        for line in self.lines:
            check_id(line.id, "line id")
            if line.id in existing:
                raise InvalidValueError(Phrase(phrases.LINE_ID_TAKEN, id=line.id))
            if line.character_id is not None and line.character_id not in known:
                raise UnknownIdError(Phrase(phrases.NO_CHARACTER_WITH_ID, id=repr(line.character_id)))
            validate_line(line, Phrase(phrases.A_LINE))
        project.characters.extend(self.characters)
        if self.by_time:
            project.lines[:] = merge_by_time(project.lines, self.lines)
        else:
            index = len(project.lines) if self.index is None else max(0, min(self.index, len(project.lines)))
            self.index = index
            project.lines[index:index] = self.lines
        return Change(
            frozenset(line.id for line in self.lines), frozenset(c.id for c in self.characters), structure=True
        )

    def undo(self, project: Project) -> Change:
        ids = {line.id for line in self.lines}
        project.lines[:] = [line for line in project.lines if line.id not in ids]
        char_ids = {c.id for c in self.characters}
        project.characters[:] = [c for c in project.characters if c.id not in char_ids]
        return Change(frozenset(ids), frozenset(char_ids), structure=True)


def _time_keys(lines: Sequence[Line]) -> list[float]:
    """Each line's start, or for an untimed line the start of the timed line before it.

    An untimed line follows the previous line in the mix, so it keeps that place when lines
    are ordered by time; untimed lines before any timed one count as time 0.
    """
    keys: list[float] = []
    last = 0.0
    for line in lines:
        if line.start is not None:
            last = line.start
        keys.append(last)
    return keys


def merge_by_time(existing: Sequence[Line], new: Sequence[Line]) -> list[Line]:
    """``existing`` with ``new`` merged in by start time; both keep their own order.

    Each new line goes before the first existing line that starts strictly later (so at equal
    times the existing line comes first); untimed lines travel with the line before them.
    Neither list is re-sorted, so a hand-made order among existing lines is never changed.
    """
    new_sorted = sorted(zip(_time_keys(new), range(len(new))))
    merged: list[Line] = []
    old_keys = _time_keys(existing)
    k = 0
    for key, line in zip(old_keys, existing):
        while k < len(new_sorted) and new_sorted[k][0] < key:
            merged.append(new[new_sorted[k][1]])
            k += 1
        merged.append(line)
    merged.extend(new[i] for _, i in new_sorted[k:])
    return merged


def time_order(lines: Sequence[Line]) -> list[Line]:
    """The lines sorted by start time (stable; untimed lines stay after their predecessor)."""
    keys = _time_keys(lines)
    return [line for _, _, line in sorted(zip(keys, range(len(lines)), lines), key=lambda item: item[:2])]


class SortLinesByTime(Command):
    """Reorder the script by start time, as one undoable step (the table's "sort by start").

    Script order matters beyond looks: a line's slot ends at the next line's start, and
    untimed lines follow the line before them; so this reorders the project, not a view.
    """

    text = "Sort lines by start time"

    def __init__(self) -> None:
        self.before: list[str] = []

    def do(self, project: Project) -> Change:
        self.before = [line.id for line in project.lines]
        project.lines[:] = time_order(project.lines)
        return Change(frozenset(self.before), structure=True)

    def undo(self, project: Project) -> Change:
        by_id = {line.id: line for line in project.lines}
        project.lines[:] = [by_id[i] for i in self.before]
        return Change(frozenset(self.before), structure=True)


class RemoveLines(Command):
    """Remove lines; undo puts the same Line objects (with their takes) back in place."""

    def __init__(self, line_ids: Iterable[str]) -> None:
        self.line_ids = list(dict.fromkeys(line_ids))
        self.removed: list[tuple[int, Line]] = []
        self.text = counted(len(self.line_ids), phrases.REMOVE_LINE, phrases.REMOVE_LINES)

    def do(self, project: Project) -> Change:
        project.lines_by_ids(self.line_ids)  # raises on unknown ids before changing anything
        wanted = set(self.line_ids)
        self.removed = [(n, line) for n, line in enumerate(project.lines) if line.id in wanted]
        project.lines[:] = [line for line in project.lines if line.id not in wanted]
        return Change(frozenset(wanted), structure=True)

    def undo(self, project: Project) -> Change:
        for index, line in self.removed:  # ascending, so each index is right when reached
            project.lines.insert(index, line)
        return Change(frozenset(self.line_ids), structure=True)


class MoveLines(Command):
    """Move lines (kept in their relative order) so the first lands at ``to_index``.

    ``to_index`` is a position in the list *without* the moved lines, which is what a
    drag-and-drop between rows means.
    """

    def __init__(self, line_ids: Iterable[str], to_index: int) -> None:
        self.line_ids = list(dict.fromkeys(line_ids))
        self.to_index = to_index
        self.before: list[str] = []
        self.text = counted(len(self.line_ids), phrases.MOVE_LINE, phrases.MOVE_LINES)

    def do(self, project: Project) -> Change:
        moving = project.lines_by_ids(self.line_ids)
        self.before = [line.id for line in project.lines]
        ids = {line.id for line in moving}
        rest = [line for line in project.lines if line.id not in ids]
        index = max(0, min(self.to_index, len(rest)))
        project.lines[:] = rest[:index] + moving + rest[index:]
        return Change(frozenset(self.before), structure=True)

    def undo(self, project: Project) -> Change:
        by_id = {line.id: line for line in project.lines}
        project.lines[:] = [by_id[i] for i in self.before]
        return Change(frozenset(self.before), structure=True)


class _Unset(enum.Enum):
    """A keyword argument not given, told apart from None, which is a value (the project default)."""

    UNSET = enum.auto()


_UNSET: Final = _Unset.UNSET


class EditLine(Command):
    """Change a line's text, timecodes and/or character.

    With ``typing=True`` consecutive text edits of the same line merge into one undo step, so
    undo after typing a sentence does not remove it a keystroke at a time.
    """

    def __init__(
        self,
        line_id: str,
        *,
        text: str | _Unset = _UNSET,
        start: float | None | _Unset = _UNSET,
        end: float | None | _Unset = _UNSET,
        character_id: str | None | _Unset = _UNSET,
        fit: bool | None | _Unset = _UNSET,
        speed: float | None | _Unset = _UNSET,
        instruction: str | None | _Unset = _UNSET,
        source_text: str | _Unset = _UNSET,
        draft: bool | _Unset = _UNSET,
        language: str | None | _Unset = _UNSET,
        typing: bool = False,
    ) -> None:
        self.line_id = line_id
        self.new: dict[str, Any] = {
            k: v
            for k, v in (
                ("text", text), ("start", start), ("end", end), ("character_id", character_id), ("fit", fit), ("speed", speed), ("instruction", instruction),
                ("source_text", source_text), ("draft", draft), ("language", language),
            )
            if v is not _UNSET
        }
        if not self.new:
            raise InvalidValueError(Phrase(phrases.EDIT_LINE_NOTHING))
        self.old: dict[str, Any] = {}
        self.typing = typing
        template = {"text": phrases.EDIT_TEXT, "character_id": phrases.CHANGE_CHARACTER, "fit": phrases.FIT_TO_SLOT,
                    "speed": phrases.CHANGE_LINE_SPEED, "instruction": phrases.CHANGE_LINE_DELIVERY,
                    "source_text": phrases.EDIT_SOURCE_TEXT, "draft": phrases.MARK_TRANSLATION_CHECKED,
                    "language": phrases.CHANGE_LINE_LANGUAGE}.get(
            next(iter(self.new)) if len(self.new) == 1 else "", phrases.EDIT_LINE
        )
        self.text = Phrase(phrases.EDIT_TIMECODE if set(self.new) <= {"start", "end"} else template)

    def do(self, project: Project) -> Change:
        line = project.line(self.line_id)
        validate_line(replace(line, **self.new), Phrase(phrases.LINE_NUMBER, order=project.order_of(line.id)))
        if self.new.get("character_id") is not None:
            project.character(self.new["character_id"])
        if "text" in self.new and not isinstance(self.new["text"], str):
            raise InvalidValueError(Phrase(phrases.LINE_TEXT_NOT_TEXT))
        if "fit" in self.new and self.new["fit"] not in (True, False, None):
            raise InvalidValueError(Phrase(phrases.BAD_LINE_FIT))
        if self.new.get("instruction") is not None and not isinstance(self.new["instruction"], str):
            raise InvalidValueError(Phrase(phrases.INSTRUCTION_NOT_TEXT))
        if "source_text" in self.new and not isinstance(self.new["source_text"], str):
            raise InvalidValueError(Phrase(phrases.SOURCE_TEXT_NOT_TEXT))
        if "draft" in self.new and not isinstance(self.new["draft"], bool):
            raise InvalidValueError(Phrase(phrases.BAD_DRAFT))
        if not self.old:
            self.old = {k: getattr(line, k) for k in self.new}
        for key, value in self.new.items():
            setattr(line, key, value)
        return Change(frozenset({line.id}))

    def undo(self, project: Project) -> Change:
        line = project.line(self.line_id)
        for key, value in self.old.items():
            setattr(line, key, value)
        return Change(frozenset({line.id}))

    def merge(self, other: Command) -> bool:
        if (
            isinstance(other, EditLine)
            and self.typing
            and other.typing
            and other.line_id == self.line_id
            and set(self.new) == set(other.new) == {"text"}
        ):
            self.new = dict(other.new)  # keep our `old`: one undo returns to before the typing
            return True
        return False


class AssignCharacter(Command):
    """Give many lines the same character (or none) in one undo step."""

    def __init__(self, line_ids: Iterable[str], character_id: str | None) -> None:
        self.line_ids = list(dict.fromkeys(line_ids))
        self.character_id = character_id
        self.old: dict[str, str | None] = {}
        self.text = Phrase(phrases.ASSIGN_CHARACTER)

    def do(self, project: Project) -> Change:
        lines = project.lines_by_ids(self.line_ids)
        if self.character_id is not None:
            project.character(self.character_id)
        self.old = {line.id: line.character_id for line in lines}
        for line in lines:
            line.character_id = self.character_id
        return Change(frozenset(self.old))

    def undo(self, project: Project) -> Change:
        for line_id, character_id in self.old.items():
            project.line(line_id).character_id = character_id
        return Change(frozenset(self.old))


class ChooseTake(Command):
    """Make another of a line's takes the one used for playback and export."""

    def __init__(self, line_id: str, take_id: str) -> None:
        self.line_id = line_id
        self.take_id = take_id
        self.old: tuple[str | None, LineStatus, str] | None = None
        self.text = Phrase(phrases.CHOOSE_TAKE)

    def do(self, project: Project) -> Change:
        line = project.line(self.line_id)
        project.take(line, self.take_id)
        self.old = (line.chosen_take, line.status, line.error)
        line.chosen_take = self.take_id
        if line.status is not LineStatus.QUEUED and line.status is not LineStatus.RENDERING:
            line.status, line.error = LineStatus.DONE, ""
        return Change(frozenset({line.id}))

    def undo(self, project: Project) -> Change:
        line = project.line(self.line_id)
        assert self.old is not None
        line.chosen_take, status, error = self.old
        if line.status is not LineStatus.QUEUED and line.status is not LineStatus.RENDERING:
            line.status, line.error = status, error
        return Change(frozenset({line.id}))


# --- characters --------------------------------------------------------------------------------


def _check_character_name(characters: Sequence[Character], name: str, own_id: str | None) -> None:
    if not isinstance(name, str) or not name.strip():
        raise InvalidValueError(Phrase(phrases.CHARACTER_WITHOUT_NAME))
    other = next((c for c in characters if name_key(c.name) == name_key(name)), None)  # as Project.character_by_name
    if other is not None and other.id != own_id:
        # Importers match speakers to characters by name, so names must be unique.
        raise InvalidValueError(Phrase(phrases.CHARACTER_NAME_EXISTS, name=repr(name.strip())))


class AddCharacter(Command):
    """Add a character (make one with Project.make_character)."""

    def __init__(self, character: Character, index: int | None = None) -> None:
        self.character = character
        self.index = index
        self.text = Phrase(phrases.ADD_CHARACTER, name=character.name)

    def do(self, project: Project) -> Change:
        if any(c.id == self.character.id for c in project.characters):
            raise InvalidValueError(Phrase(phrases.CHARACTER_ID_TAKEN, id=self.character.id))
        _check_character_name(project.characters, self.character.name, None)
        validate_character(self.character)
        index = len(project.characters) if self.index is None else self.index
        project.characters.insert(index, self.character)
        return Change(characters=frozenset({self.character.id}), structure=True)

    def undo(self, project: Project) -> Change:
        project.characters.remove(self.character)
        return Change(characters=frozenset({self.character.id}), structure=True)


class RemoveCharacter(Command):
    """Remove a character; its lines become unassigned (and get it back on undo)."""

    def __init__(self, character_id: str) -> None:
        self.character_id = character_id
        self.index = -1
        self.character: Character | None = None
        self.orphaned: list[str] = []
        self.text = Phrase(phrases.REMOVE_CHARACTER)

    def do(self, project: Project) -> Change:
        self.character = project.character(self.character_id)
        self.index = project.characters.index(self.character)
        self.orphaned = [line.id for line in project.lines_of(self.character_id)]
        project.characters.pop(self.index)
        for line_id in self.orphaned:
            project.line(line_id).character_id = None
        return Change(frozenset(self.orphaned), frozenset({self.character_id}), structure=True)

    def undo(self, project: Project) -> Change:
        assert self.character is not None
        project.characters.insert(self.index, self.character)
        for line_id in self.orphaned:
            project.line(line_id).character_id = self.character_id
        return Change(frozenset(self.orphaned), frozenset({self.character_id}), structure=True)


_CHARACTER_FIELDS = {f.name for f in fields(Character)} - {"id"}


class EditCharacter(Command):
    """Change any of a character's fields: name, colour, clip, trim, transcript, language, settings.

    Pass ``settings=replace(character.settings, speed=1.2)`` to change one setting. Lines of
    the character are reported as changed too, since their stale status may flip.
    """

    def __init__(self, character_id: str, **changes: Any) -> None:
        unknown = set(changes) - _CHARACTER_FIELDS
        if unknown:
            raise InvalidValueError(Phrase(phrases.NO_CHARACTER_FIELDS, fields=str(sorted(unknown))))
        if not changes:
            raise InvalidValueError(Phrase(phrases.EDIT_CHARACTER_NOTHING))
        self.character_id = character_id
        self.new = changes
        self.old: dict[str, Any] = {}
        self.text = Phrase(phrases.RENAME_CHARACTER if set(changes) == {"name"} else phrases.EDIT_CHARACTER)

    def do(self, project: Project) -> Change:
        if "name" in self.new:
            _check_character_name(project.characters, self.new["name"], self.character_id)
        return self.apply(project)

    def apply(self, project: Project) -> Change:
        """Make the change, its name already checked (by ``do``, or by EditCharacters with the others')."""
        char = project.character(self.character_id)
        if "clip" in self.new and self.new["clip"] is not None:
            self.new["clip"] = check_relative(self.new["clip"])
        validate_character(replace(char, **self.new))
        if not self.old:
            self.old = {k: getattr(char, k) for k in self.new}
        for key, value in self.new.items():
            setattr(char, key, value)
        return Change(frozenset(line.id for line in project.lines_of(char.id)), frozenset({char.id}))

    def undo(self, project: Project) -> Change:
        char = project.character(self.character_id)
        for key, value in self.old.items():
            setattr(char, key, value)
        return Change(frozenset(line.id for line in project.lines_of(char.id)), frozenset({char.id}))


class EditProject(Command):
    """Change the title and/or any project setting (see :class:`ProjectSettings`).

    ``EditProject(title="Scene 2")``, ``EditProject(fit_default=True, fit_max_rate=1.2)``,
    ``EditProject(loudness_target_lufs=LOUDNESS_PRESETS["web"])``. Unknown setting names and
    values out of range are refused before anything changes.
    """

    def __init__(self, *, title: str | _Unset = _UNSET, **settings: Any) -> None:
        known = {f.name for f in fields(ProjectSettings)}
        unknown = sorted(set(settings) - known)
        if unknown:
            raise InvalidValueError(Phrase(phrases.UNKNOWN_SETTINGS, names=", ".join(unknown)))
        self.new: dict[str, Any] = dict(settings)
        if title is not _UNSET:
            self.new["title"] = title
        self.old: dict[str, Any] = {}
        self.text = Phrase(phrases.EDIT_PROJECT_SETTINGS)

    def do(self, project: Project) -> Change:
        settings = {k: v for k, v in self.new.items() if k != "title"}
        replace(project.settings, **settings).validate()
        if "title" in self.new and not isinstance(self.new["title"], str):
            raise InvalidValueError(Phrase(phrases.TITLE_NOT_TEXT))
        self.old = {k: (project.title if k == "title" else getattr(project.settings, k)) for k in self.new}
        self._apply(project, self.new)
        return Change(frozenset(line.id for line in project.lines), project=True)

    def undo(self, project: Project) -> Change:
        self._apply(project, self.old)
        return Change(frozenset(line.id for line in project.lines), project=True)

    @staticmethod
    def _apply(project: Project, values: dict[str, Any]) -> None:
        for key, value in values.items():
            if key == "title":
                project.title = value
            else:
                setattr(project.settings, key, value)


class SetVideo(Command):
    """Attach, replace or remove the project's video and guide track (one undo step).

    The files themselves are brought in first by :func:`app.project.media.attach_video` and
    ``extract_guide``; this command only changes what the project points at, so undo never
    deletes a file the user may still want.
    """

    def __init__(self, video: VideoInfo | None, guide_audio: str | None = None) -> None:
        self.video = video
        self.guide_audio = guide_audio
        self.old: tuple[VideoInfo | None, str | None] | None = None
        self.text = Phrase(phrases.SET_VIDEO if video is not None else phrases.REMOVE_VIDEO)

    def do(self, project: Project) -> Change:
        for rel in (self.video.path if self.video else None, self.guide_audio):
            if rel is not None:
                project.resolve(rel)  # refuses paths that leave the project
        self.old = (project.video, project.guide_audio)
        project.video, project.guide_audio = self.video, self.guide_audio
        return Change(project=True)

    def undo(self, project: Project) -> Change:
        assert self.old is not None
        project.video, project.guide_audio = self.old
        return Change(project=True)


class Macro(Command):
    """Several commands as one undo step (e.g. import a clip and set its trim)."""

    def __init__(self, commands: Sequence[Command], text: str) -> None:
        self.commands = list(commands)
        self.text = text

    def do(self, project: Project) -> Change:
        change = NO_CHANGE
        done: list[Command] = []
        try:
            for command in self.commands:
                change |= self._step(command, project)
                done.append(command)
        except Exception:
            for command in reversed(done):  # all or nothing
                command.undo(project)
            raise
        return change

    def _step(self, command: Command, project: Project) -> Change:
        return command.do(project)

    def undo(self, project: Project) -> Change:
        change = NO_CHANGE
        for command in reversed(self.commands):
            change |= command.undo(project)
        return change


class EditCharacters(Macro):
    """Several characters' fields as one step, their new names checked against the names all will
    have: casting from a library may swap two default names ("Speaker 2" becomes the library's
    "Speaker 1" as "Speaker 1" becomes "Speaker 2"), which one rename after another refused."""

    def __init__(self, changes: dict[str, dict[str, Any]], text: str) -> None:
        self.edits = [EditCharacter(character_id, **fields) for character_id, fields in changes.items()]
        super().__init__(self.edits, text)

    def do(self, project: Project) -> Change:
        renamed = {edit.character_id: edit.new["name"] for edit in self.edits if "name" in edit.new}
        after = [replace(c, name=renamed.get(c.id, c.name)) for c in project.characters]
        for character_id, name in renamed.items():
            _check_character_name(after, name, character_id)
        return super().do(project)

    def _step(self, command: Command, project: Project) -> Change:
        assert isinstance(command, EditCharacter)
        return command.apply(project)  # its name checked above, with the others'


def _fresh(line: Line, **values: Any) -> Line:
    """A new line from ``line``'s settings with ``values``: a new id, and no takes, since the
    audio of the old line does not say the new text."""
    return replace(line, id=new_id(), takes=[], chosen_take=None, status=LineStatus.NOT_RENDERED, error="",
                   **values)


class _ReplaceLines(Command):
    """Put new lines where consecutive old ones were; undo puts the same old Line objects back."""

    def __init__(self, old_ids: Sequence[str], text: str) -> None:
        self.old_ids = list(old_ids)
        self.text = text
        self.index = -1
        self.old: list[Line] = []
        self.new: list[Line] = []

    @abc.abstractmethod
    def make(self, project: Project, old: list[Line]) -> list[Line]:
        """The lines that take the old ones' place (checked by validate_line)."""

    def do(self, project: Project) -> Change:
        old = project.lines_by_ids(self.old_ids)  # in script order
        self.index = project.index_of(old[0].id)
        if project.lines[self.index:self.index + len(old)] != old:
            raise InvalidValueError(Phrase(phrases.LINES_NOT_ADJACENT))
        if not self.new:  # the first run makes them; a redo puts the same ones back
            self.new = self.make(project, old)
            for line in self.new:
                validate_line(line, self.text.lower())
        self.old = old
        project.lines[self.index:self.index + len(old)] = self.new
        return Change(frozenset(self.old_ids) | {line.id for line in self.new}, structure=True)

    def undo(self, project: Project) -> Change:
        project.lines[self.index:self.index + len(self.new)] = self.old
        return Change(frozenset(self.old_ids) | {line.id for line in self.new}, structure=True)


class SplitLine(_ReplaceLines):
    """Split a line in two at a character position of its text (the text cursor in the studio).

    Its slot is shared by the two parts in proportion to their letters, so each keeps a time
    when the line had both; the source text (of a translated line) stays with the first part.
    """

    def __init__(self, line_id: str, at: int) -> None:
        super().__init__([line_id], Phrase(phrases.SPLIT_LINE))
        self.at = at

    def make(self, project: Project, old: list[Line]) -> list[Line]:
        (line,) = old
        first, second = line.text[:self.at].strip(), line.text[self.at:].strip()
        if not first or not second:
            raise InvalidValueError(Phrase(phrases.SPLIT_NEEDS_WORDS))
        middle: float | None = None
        if line.start is not None and line.end is not None:
            share = len(first) / (len(first) + len(second))
            middle = round(line.start + (line.end - line.start) * share, 3)
        return [_fresh(line, text=first, end=middle if middle is not None else line.end),
                _fresh(line, text=second, start=middle, source_text="")]


class MergeLines(_ReplaceLines):
    """Merge consecutive lines into one: their texts joined (without spaces inside a Chinese
    sentence), from the first start to the last end, spoken by the first line's character."""

    def __init__(self, line_ids: Sequence[str]) -> None:
        super().__init__(line_ids, Phrase(phrases.MERGE_LINES, count=len(line_ids)))
        if len(line_ids) < 2:
            raise InvalidValueError(Phrase(phrases.MERGE_NEEDS_TWO))

    def make(self, project: Project, old: list[Line]) -> list[Line]:
        starts = [line.start for line in old if line.start is not None]
        ends = [line.end for line in old if line.end is not None]
        return [_fresh(old[0], text=join_pieces(line.text for line in old),
                       source_text=join_pieces(line.source_text for line in old),
                       start=min(starts) if starts else None, end=max(ends) if ends else None,
                       draft=any(line.draft for line in old))]


def replace_in_lines(project: Project, find: str, replacement: str, *, match_case: bool = False,
                     line_ids: Iterable[str] | None = None) -> Macro | None:
    """Every occurrence of ``find`` in the lines' text (``line_ids``: only those) replaced, as one
    undoable edit ("Replace 'ship' in 2 lines"); None when no line has it."""
    if not find:
        raise InvalidValueError(Phrase(phrases.NOTHING_TO_FIND))
    pattern = re.compile(re.escape(find), 0 if match_case else re.IGNORECASE)
    lines = project.lines if line_ids is None else project.lines_by_ids(line_ids)
    edits: list[Command] = []
    for line in lines:
        changed = pattern.sub(lambda _match: replacement, line.text)
        if changed != line.text:
            edits.append(EditLine(line.id, text=changed))
    if not edits:
        return None
    return Macro(edits, counted(len(edits), phrases.REPLACE_ONE, phrases.REPLACE, find=find))


class MergeCharacters(Command):
    """Merge ``absorbed`` into ``kept``: its lines go to ``kept`` and it is removed (one undo step).

    For a transcription that heard one actor as two speakers; ``kept`` keeps its name, colour
    and clip.
    """

    def __init__(self, kept_id: str, absorbed_id: str) -> None:
        self.kept_id, self.absorbed_id = kept_id, absorbed_id
        self.parts: list[Command] = []
        self.text = Phrase(phrases.MERGE_CHARACTERS)

    def do(self, project: Project) -> Change:
        if self.kept_id == self.absorbed_id:
            raise InvalidValueError(Phrase(phrases.MERGE_INTO_ITSELF))
        project.character(self.kept_id)
        lines = [line.id for line in project.lines_of(project.character(self.absorbed_id).id)]
        self.parts = [AssignCharacter(lines, self.kept_id), RemoveCharacter(self.absorbed_id)]
        return Macro(self.parts, self.text).do(project)

    def undo(self, project: Project) -> Change:
        return Macro(self.parts, self.text).undo(project)


class SplitCharacter(Command):
    """Give some of a character's lines to a new character (one undo step): for two actors a
    transcription heard as one speaker. Make ``new`` with Project.make_character."""

    def __init__(self, character_id: str, line_ids: Iterable[str], new: Character) -> None:
        self.character_id = character_id
        self.line_ids = list(dict.fromkeys(line_ids))
        self.new = new
        self.text = Phrase(phrases.SPLIT_CHARACTER, name=new.name)
        self.parts: list[Command] = [AddCharacter(new), AssignCharacter(self.line_ids, new.id)]

    def do(self, project: Project) -> Change:
        if not self.line_ids:
            raise InvalidValueError(Phrase(phrases.CHOOSE_LINES_TO_SPLIT))
        others = [line.id for line in project.lines_by_ids(self.line_ids) if line.character_id != self.character_id]
        if others:
            raise InvalidValueError(Phrase(phrases.LINES_NOT_OF_CHARACTER, count=len(others),
                                                 name=project.character(self.character_id).name))
        return Macro(self.parts, self.text).do(project)

    def undo(self, project: Project) -> Change:
        return Macro(self.parts, self.text).undo(project)


# --- the stack ---------------------------------------------------------------------------------


class CommandStack:
    """The undo history of one project.

    ``push`` runs a command; if it raises, nothing changed and nothing is recorded. Listeners
    are called with the Change after every push, undo and redo (the studio turns them into Qt
    signals). ``is_clean`` tells whether the project matches what was last saved.
    """

    def __init__(self, project: Project, limit: int = 1000) -> None:
        self.project = project
        self.limit = limit
        self._undo: list[Command] = []
        self._redo: list[Command] = []
        self._clean: int | None = 0  # len(_undo) at the last save; None = unreachable
        self._listeners: list[Callable[[Change], None]] = []

    def add_listener(self, listener: Callable[[Change], None]) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[Change], None]) -> None:
        self._listeners.remove(listener)

    def _notify(self, change: Change) -> Change:
        for listener in list(self._listeners):
            listener(change)
        return change

    def push(self, command: Command) -> Change:
        change = command.do(self.project)
        top = self._undo[-1] if self._undo else None
        if self._redo and self._clean is not None and self._clean > len(self._undo):
            self._clean = None  # the saved state was in the redo branch we are discarding
        self._redo.clear()
        if top is not None and self._clean != len(self._undo) and top.merge(command):
            return self._notify(change)
        self._undo.append(command)
        if len(self._undo) > self.limit:
            self._undo.pop(0)
            self._clean = None if self._clean in (None, 0) else self._clean - 1
        return self._notify(change)

    def undo(self) -> Change:
        if not self._undo:
            return NO_CHANGE
        command = self._undo.pop()
        change = command.undo(self.project)
        self._redo.append(command)
        return self._notify(change)

    def redo(self) -> Change:
        if not self._redo:
            return NO_CHANGE
        command = self._redo.pop()
        change = command.do(self.project)
        self._undo.append(command)
        return self._notify(change)

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_text(self) -> str:
        return self._undo[-1].text if self._undo else ""

    @property
    def redo_text(self) -> str:
        return self._redo[-1].text if self._redo else ""

    @property
    def is_clean(self) -> bool:
        return self._clean == len(self._undo)

    def mark_clean(self) -> None:
        """Call after saving: the current state is what is on disk."""
        self._clean = len(self._undo)

    def clear(self) -> None:
        self._undo.clear()
        self._redo.clear()
        self._clean = 0


__all__ = [
    "NO_CHANGE",
    "AddCharacter",
    "AddLines",
    "AssignCharacter",
    "Change",
    "ChooseTake",
    "Command",
    "CommandStack",
    "EditCharacter",
    "EditCharacters",
    "EditLine",
    "EditProject",
    "Macro",
    "MergeCharacters",
    "MoveLines",
    "RemoveCharacter",
    "RemoveLines",
    "SplitCharacter",
]

"""What stops a project from rendering, found before anything is sent to the engine.

An import can create characters nobody has given a reference clip yet, and lines whose
speaker the script did not name. Both used to surface only as failed renders; the importer,
``dubstudio new`` and the studio call :func:`voice_gaps` right after an import and show the
list at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from app.project.errors import ProjectError
from app.project.model import Project

TEXT_PREVIEW = 50  # characters of a line's text shown in a list


@dataclass(frozen=True)
class LineWithoutCharacter:
    line_id: str
    order: int  # 1-based, as the table shows it
    text: str


@dataclass(frozen=True)
class CharacterWithoutClip:
    character_id: str
    name: str
    line_count: int  # how many lines wait for this voice
    missing_file: str | None = None  # the clip it names, when that file is gone


@dataclass(frozen=True)
class VoiceGaps:
    """Lines that have no character and characters that have no clip (empty = ready)."""

    lines_without_character: tuple[LineWithoutCharacter, ...] = ()
    characters_without_clip: tuple[CharacterWithoutClip, ...] = field(default=())

    def __bool__(self) -> bool:
        return bool(self.lines_without_character or self.characters_without_clip)

    def describe(self) -> list[str]:
        """One sentence per problem, for a terminal or a message box."""
        out: list[str] = []
        for line in self.lines_without_character:
            text = line.text if len(line.text) <= TEXT_PREVIEW else line.text[: TEXT_PREVIEW - 1] + "…"
            out.append(f"line {line.order} has no character: {text!r}")
        for char in self.characters_without_clip:
            lines = f"{char.line_count} line waits" if char.line_count == 1 else f"{char.line_count} lines wait"
            problem = f"has a missing clip ({char.missing_file})" if char.missing_file else "has no reference clip"
            out.append(f"character {char.name!r} {problem}; {lines} for it")
        return out


def voice_gaps(project: Project, line_ids: Iterable[str] | None = None) -> VoiceGaps:
    """The gaps among ``line_ids`` (default: every line) and the characters they use.

    With ``line_ids`` (e.g. the lines an import just added) only those lines and their
    characters are checked, plus characters that have no lines at all yet when no ids are
    given, since a character created for nothing is still something the user must fix.
    """
    wanted = None if line_ids is None else set(line_ids)
    lines = [(n, line) for n, line in enumerate(project.lines, 1) if wanted is None or line.id in wanted]
    no_character = tuple(
        LineWithoutCharacter(line.id, n, line.text) for n, line in lines if line.character_id is None
    )
    counts: dict[str, int] = {}
    for _, line in lines:
        if line.character_id is not None:
            counts[line.character_id] = counts.get(line.character_id, 0) + 1
    no_clip: list[CharacterWithoutClip] = []
    for char in project.characters:
        if wanted is not None and char.id not in counts:
            continue
        if not char.clip:
            no_clip.append(CharacterWithoutClip(char.id, char.name, counts.get(char.id, 0)))
        elif not _clip_exists(project, char.clip):
            no_clip.append(CharacterWithoutClip(char.id, char.name, counts.get(char.id, 0), char.clip))
    return VoiceGaps(no_character, tuple(no_clip))


def _clip_exists(project: Project, rel: str) -> bool:
    try:
        return project.resolve(rel).is_file()
    except ProjectError:
        return False

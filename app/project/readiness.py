"""What stops a project from rendering, found before anything is sent to the engine.

An import can create characters nobody has given a reference clip yet, and lines whose
speaker the script did not name; a clip can also be one the engine refuses (over its length
limit, not audio, a named pipe), checked here by the engine's own checks. All used to surface
only as failed renders; the importer,
``dubstudio new`` and the studio call :func:`voice_gaps` right after an import and show the
list at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from app.project import phrases
from app.project.errors import ProjectError
from app.project.model import Character, Line
from app.project.phrases import Phrase, counted
from app.project.project import Project
from engine.core.languages import language_refusal
from engine.core.protocol import EngineError
from engine.core.reference import check_reference_clip

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
    unusable: str | None = None  # why the engine would refuse the clip it names (code: sentence)


@dataclass(frozen=True)
class VoiceGaps:
    """Lines that have no character and characters that have no clip (empty = ready)."""

    lines_without_character: tuple[LineWithoutCharacter, ...] = ()
    characters_without_clip: tuple[CharacterWithoutClip, ...] = field(default=())

    def __bool__(self) -> bool:
        return bool(self.lines_without_character or self.characters_without_clip)

    def describe(self) -> list[str]:
        """One sentence per problem, for a terminal or a message box (each a Phrase, which the
        studio says in its language)."""
        out: list[str] = []
        for line in self.lines_without_character:
            text = line.text if len(line.text) <= TEXT_PREVIEW else line.text[: TEXT_PREVIEW - 1] + "…"
            out.append(Phrase(phrases.LINE_WITHOUT_CHARACTER, order=line.order, quoted=repr(text)))
        for char in self.characters_without_clip:
            if char.unusable:
                problem = Phrase(phrases.CLIP_REFUSED, why=char.unusable)
            elif char.missing_file:
                problem = Phrase(phrases.CLIP_MISSING, file=char.missing_file)
            else:
                problem = Phrase(phrases.NO_CLIP)
            waiting = counted(char.line_count, phrases.ONE_LINE_WAITS, phrases.LINES_WAIT)
            out.append(Phrase(phrases.CHARACTER_PROBLEM, quoted=repr(char.name), problem=problem, waiting=waiting))
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
        elif (refused := _clip_refused(project, char)) is not None:
            no_clip.append(CharacterWithoutClip(char.id, char.name, counts.get(char.id, 0), char.clip, refused))
    return VoiceGaps(no_character, tuple(no_clip))


def _clip_exists(project: Project, rel: str) -> bool:
    try:
        return project.resolve(rel).exists()  # a pipe or folder there is refused by _clip_refused, in words
    except ProjectError:
        return False


def _clip_refused(project: Project, char: Character) -> str | None:
    """Why the engine would refuse this character's clip (which it names), by the engine's own
    checks over the trimmed part: a regular file, audio it decodes, within its length limit,
    not silent, at least a second of speech."""
    try:
        check_reference_clip(project.resolve(char.clip or ""), char.clip_start, char.clip_end)
    except ProjectError as error:
        return str(error)
    except EngineError as error:
        return f"{error.code.value}: {error.message}"
    return None


@dataclass(frozen=True)
class LineInUnspokenLanguage:
    """A line in a language the backend does not declare: the engine would refuse it."""

    line_id: str
    order: int  # 1-based, as the table shows it
    language: str  # the line's language code (its character's, else its script's)
    problem: str  # "E_LANGUAGE_UNSUPPORTED: …", naming the backends that speak it and the fix

    def describe(self) -> str:
        return Phrase(phrases.LINE_PROBLEM, order=self.order, problem=self.problem)


def language_gaps(project: Project, backend: str, declared: Iterable[str],
                  registry: Mapping[str, Iterable[str]],
                  line_ids: Iterable[str] | None = None) -> tuple[LineInUnspokenLanguage, ...]:
    """The lines among ``line_ids`` (default: every line with a character) that ``backend``,
    declaring ``declared`` languages, cannot speak, by the engine's own check
    (:func:`engine.core.languages.language_refusal`); ``registry`` maps each backend to its
    declared languages, to name the ones that can. Found before a render starts, so the
    user sees every such line at once with how to fix it."""
    wanted = None if line_ids is None else set(line_ids)
    declared = tuple(declared)
    found: list[LineInUnspokenLanguage] = []
    for order, line in enumerate(project.lines, 1):
        if line.character_id is None or (wanted is not None and line.id not in wanted):
            continue
        language = project.delivery(line).language
        refusal = language_refusal(line.text, language, backend, declared, registry, set_on_line=line.language is not None)
        if refusal is not None:
            found.append(LineInUnspokenLanguage(line.id, order, project.spoken_language(line), str(refusal)))
    return tuple(found)


def spoken_languages(project: Project, lines: Iterable[Line]) -> set[str]:
    """The languages ``lines`` are spoken in (each its character's, else its script's: the
    engine's own reading, :func:`app.project.model.spoken_language`)."""
    return {project.spoken_language(line) for line in lines if line.character_id}

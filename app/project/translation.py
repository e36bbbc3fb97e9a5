"""A project's lines translated into its target language, through the translator a team chose
(``dubstudio translate``, ``new --translate-to``, the studio's Translate dialog and its
"Shorten to fit").

Each line goes to the translator as its original (``source_text`` when it already has one, else
its text), with its character's name and its budget: the slot's seconds times the target
language's typical pace (:func:`budget_for`). The translator's whole result comes back first;
only then is it applied, as one undoable edit (:class:`ApplyTranslation`): every chosen line at
once or, when anything failed or was cancelled, none. A translated line keeps its original in
``source_text``, is marked a draft until a person accepts it, and records its budget. The
project's target language is set with it, and its characters' languages follow.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from app.project import phrases
from app.project.errors import InvalidValueError, ProjectError
from app.project.model import Line, LineBudget, validate_line
from app.project.phrases import Phrase, counted, language_name
from app.project.project import Project
from app.project.undo import Change, Command
from engine.core.codes import ErrorCode
from engine.core.languages import detect_language, language_code, rules_for
from engine.translation import TranslationError
from engine.translation.chat import ChatTranslator, Endpoint
from engine.translation.glossary import GlossaryEntry, validate_glossary
from engine.translation.lines import Budget, SourceLine, TranslatedLine
from engine.translation.registry import LANGUAGE_CODE, TEXT_TRANSLATOR, translator_named

Progress = Callable[[int, int], None]  # (lines done, lines in all)


class TranslateError(ProjectError):
    """The lines could not be translated; the project is as it was. The code says why."""

    default_code = ErrorCode.TRANSLATOR_FAILED


@dataclass(frozen=True)
class TranslateRequest:
    """What to translate into, with which translator and endpoint, and which lines (None: all)."""

    target_language: str
    endpoint: Endpoint
    translator: str = TEXT_TRANSLATOR
    line_ids: tuple[str, ...] | None = None
    batch_lines: int = 20


def budget_for(line: Line, language: str) -> Budget | None:
    """How much of ``language`` the line's slot holds: its seconds times the language's natural
    pace (``speech_rate``, in its ``rate_unit``, from the one language table); None for a line
    with no slot (no start and end)."""
    if line.start is None or line.end is None or line.end <= line.start:
        return None
    rules = rules_for(language)
    return Budget(max(1, int((line.end - line.start) * rules.speech_rate)), rules.rate_unit)


def source_lines(project: Project, target_language: str) -> list[SourceLine]:
    """Every line of the script as the translator sees it: its original, who says it, its budget,
    and its language where it has one of its own (an untranslated line's, :attr:`Line.language`)."""
    names = {character.id: character.name for character in project.characters}
    return [SourceLine(id=line.id, text=line.source_text or line.text,
                       speaker=names.get(line.character_id or "", ""), budget=budget_for(line, target_language),
                       start=line.start, end=line.end, current=line.text if line.source_text else "",
                       language="" if line.source_text else line.language or "")
            for line in project.lines]


def kept_translations(project: Project, target_language: str) -> list[str]:
    """The lines that already hold a translation into ``target_language`` that a person wrote or
    accepted: a bilingual subtitle file's rows (its original kept as ``source_text``), a sheet's
    translated rows (re-imported into a project that does not say its target yet: those whose
    text is written in ``target_language``), or a draft marked checked. Translating "every line"
    keeps them: a team that imports its subtitles with their translation does not want it replaced
    by a machine's draft. Naming them translates them."""
    if not target_language or project.target_language not in ("", target_language):
        return []  # their text is in another language than the one asked for

    def in_target(line: Line) -> bool:  # a sheet re-imported into a project that does not say its target yet
        return bool(project.target_language) or detect_language(line.text) == language_code(target_language)

    return [line.id for line in project.lines
            if line.source_text.strip() and line.text.strip() and not line.draft and in_target(line)]


def chosen_ids(project: Project, line_ids: Sequence[str] | None, target_language: str = "") -> list[str]:
    """The ids to translate, in script order: those given (each must exist), else every line with
    text but those a person already translated into ``target_language`` (:func:`kept_translations`)."""
    if line_ids is None:
        kept = set(kept_translations(project, target_language))
        return [line.id for line in project.lines if (line.source_text or line.text).strip() and line.id not in kept]
    project.lines_by_ids(line_ids)  # an unknown id is E_UNKNOWN_ID before any request
    wanted = set(line_ids)
    return [line.id for line in project.lines if line.id in wanted]


def make_translator(request: TranslateRequest, cancel: threading.Event | None = None,
                    progress: Progress | None = None) -> ChatTranslator:
    """The translator ``request`` names, ready to send (TranslateError E_TRANSLATOR / E_TRANSLATION_TARGET)."""
    try:
        descriptor = translator_named(request.translator)
        descriptor.check_target(request.target_language)
        if descriptor.hears:
            raise TranslationError(ErrorCode.TRANSLATOR,
                                   f"{descriptor.label} translates only while it transcribes the video "
                                   "(transcribe --translate-to en); choose openai to translate the script")
        return ChatTranslator(request.endpoint, batch_lines=request.batch_lines, cancel=cancel, progress=progress)
    except TranslationError as error:
        raise TranslateError(error.message, error.code) from None


def translate_project(project: Project, request: TranslateRequest, translator: ChatTranslator) -> ApplyTranslation:
    """The edit that puts the chosen lines' translations into the project (not pushed: the caller
    pushes it, the studio on its GUI thread). Raises TranslateError with the translator's code
    (E_TRANSLATOR_UNREACHABLE, E_TRANSLATOR_KEY, E_CANCELLED...) having changed nothing."""
    ids = chosen_ids(project, request.line_ids, request.target_language)
    if not ids and request.line_ids is None and kept_translations(project, request.target_language):
        raise TranslateError(Phrase(phrases.EVERY_LINE_TRANSLATED, language=language_name(rules_for(request.target_language)),
                                    count=len(project.lines)), ErrorCode.EMPTY_TEXT)
    if not ids:
        raise TranslateError(Phrase(phrases.NOTHING_TO_TRANSLATE), ErrorCode.EMPTY_TEXT)
    try:
        results = translator.translate(source_lines(project, request.target_language), set(ids),
                                       project.language, request.target_language, project.glossary)
    except TranslationError as error:
        raise TranslateError(error.message, error.code) from None
    return ApplyTranslation(results, request.target_language)


def shorten_lines(project: Project, line_ids: Sequence[str], translator: ChatTranslator,
                  language: str = "") -> ApplyTranslation:
    """The edit that puts a shorter wording of each line's text in (the "Shorten to fit" action):
    within its budget when it has a slot, else shorter than it is. Nothing changes on a failure."""
    language = language or project.target_language or project.language
    if not language:
        raise TranslateError(Phrase(phrases.TARGET_LANGUAGE_FIRST), ErrorCode.TRANSLATION_TARGET)
    by_id = {line.id: line for line in project.lines_by_ids(line_ids)}
    wanted = [line for line in source_lines(project, language) if line.id in by_id]
    lines = [replace(line, current=by_id[line.id].text) for line in wanted if by_id[line.id].text.strip()]
    if not lines:
        raise TranslateError(Phrase(phrases.NOTHING_TO_SHORTEN), ErrorCode.EMPTY_TEXT)
    try:
        results = translator.shorten(lines, language, project.glossary)
    except TranslationError as error:
        raise TranslateError(error.message, error.code) from None
    return ApplyTranslation(results, project.target_language or language, shorten=True)


class ApplyTranslation(Command):
    """The translated (or shortened) lines in at once: each line's text, its original kept in
    ``source_text``, the draft mark, its budget; the project's target language set and its
    characters' languages with it. One undo puts everything back."""

    def __init__(self, results: Sequence[TranslatedLine], target_language: str, shorten: bool = False) -> None:
        self.results = list(results)
        self.target_language = target_language
        self.shorten = shorten
        self.old_lines: dict[str, tuple[str, str, bool, LineBudget | None, str | None]] = {}
        self.old_languages: dict[str, str] = {}
        self.old_target = ""
        count = len(self.results)
        self.text = counted(count, phrases.SHORTEN_ONE, phrases.SHORTEN) if shorten else \
            counted(count, phrases.TRANSLATE_ONE, phrases.TRANSLATE)

    @property
    def missing_terms(self) -> dict[str, tuple[str, ...]]:
        """The glossary wordings each line's translation still leaves out, by line id."""
        return {result.id: result.missing_terms for result in self.results if result.missing_terms}

    def do(self, project: Project) -> Change:
        lines = {line.id: line for line in project.lines_by_ids([result.id for result in self.results])}
        updated = {result.id: self._updated(lines[result.id], result) for result in self.results}
        for number, line in enumerate(updated.values(), 1):  # every check before any change
            validate_line(line, Phrase(phrases.TRANSLATED_LINE, number=number))
        self.old_lines = {i: (line.text, line.source_text, line.draft, line.budget, line.language)
                          for i, line in lines.items()}
        self.old_target = project.target_language
        for line_id, line in updated.items():
            original = lines[line_id]
            original.text, original.source_text, original.draft, original.budget, original.language = (
                line.text, line.source_text, line.draft, line.budget, line.language)
        self.old_languages = dub_into(project, self.target_language)
        return Change(frozenset(updated), frozenset(self.old_languages), project=True)

    def _updated(self, line: Line, result: TranslatedLine) -> Line:
        budget = None if result.budget is None else LineBudget(
            result.budget.limit, result.budget.unit, result.first_length or 0, result.shortened)
        if self.shorten:  # a shorter wording of the same translation: the original stays as it is
            return replace(line, text=result.text, draft=True, budget=budget or line.budget)
        # The translation is in the target language, its character's: a line's own language was the original's.
        return replace(line, text=result.text, source_text=line.source_text or line.text, draft=True, budget=budget,
                       language=None)

    def undo(self, project: Project) -> Change:
        for line_id, (text, source_text, draft, budget, language) in self.old_lines.items():
            line = project.line(line_id)
            line.text, line.source_text, line.draft, line.budget, line.language = text, source_text, draft, budget, language
        restore_languages(project, self.old_target, self.old_languages)
        return Change(frozenset(self.old_lines), frozenset(self.old_languages), project=True)


def dub_into(project: Project, language: str) -> dict[str, str]:
    """The project's target language set to ``language``, and every character's language with it
    (its voice speaks the dub); returns each character's language before, by id."""
    before = {c.id: c.settings.language for c in project.characters}
    project.target_language = language
    for character in project.characters:
        character.settings = replace(character.settings, language=language)
    return before


def restore_languages(project: Project, target: str, languages: dict[str, str]) -> None:
    project.target_language = target
    for character in project.characters:
        if character.id in languages:
            character.settings = replace(character.settings, language=languages[character.id])


class SetTargetLanguage(Command):
    """The language the project dubs into (Project settings), and its characters' languages with
    it, as one undoable edit; "" goes back to the original's language (no translation), and the
    characters then take the project's language. ``original`` is the original's language, set
    too when the project does not say it yet (a bilingual subtitle file names both)."""

    def __init__(self, language: str, *, original: str = "") -> None:
        language, original = language.strip(), original.strip()
        for code in (language, original):
            if code and not LANGUAGE_CODE.match(code):
                raise InvalidValueError(Phrase(phrases.NOT_A_LANGUAGE, value=repr(code)))
        self.language, self.original = language, original
        self.old_target = self.old_original = ""
        self.old_languages: dict[str, str] = {}
        self.text = Phrase(phrases.SET_TARGET_LANGUAGE, language=language_name(rules_for(language))) if language \
            else Phrase(phrases.NO_TARGET_LANGUAGE)

    def do(self, project: Project) -> Change:
        self.old_target, self.old_original = project.target_language, project.language
        project.language = project.language or self.original
        spoken = self.language or project.language
        self.old_languages = dub_into(project, spoken)
        project.target_language = self.language
        return Change(frozenset(line.id for line in project.lines), frozenset(self.old_languages), project=True)

    def undo(self, project: Project) -> Change:
        restore_languages(project, self.old_target, self.old_languages)
        project.language = self.old_original
        return Change(frozenset(line.id for line in project.lines), frozenset(self.old_languages), project=True)


class AcceptTranslations(Command):
    """A person read the translated lines and accepts them as they are: no longer drafts."""

    def __init__(self, line_ids: Sequence[str]) -> None:
        self.line_ids = list(dict.fromkeys(line_ids))
        self.accepted: list[str] = []
        self.text = counted(len(self.line_ids), phrases.ACCEPT_TRANSLATION, phrases.ACCEPT_TRANSLATIONS)

    def do(self, project: Project) -> Change:
        lines = project.lines_by_ids(self.line_ids)
        self.accepted = [line.id for line in lines if line.draft]
        for line in lines:
            line.draft = False
        return Change(frozenset(self.accepted))

    def undo(self, project: Project) -> Change:
        for line in project.lines_by_ids(self.accepted):
            line.draft = True
        return Change(frozenset(self.accepted))


class EditGlossary(Command):
    """Replace the project's glossary (checked: no empty or doubled wording)."""

    def __init__(self, entries: Sequence[GlossaryEntry]) -> None:
        self.entries = list(entries)
        self.old: list[GlossaryEntry] = []
        self.text = Phrase(phrases.EDIT_GLOSSARY)

    def do(self, project: Project) -> Change:
        try:
            validate_glossary(self.entries)
        except TranslationError as error:
            raise InvalidValueError(error.message, error.code) from None
        self.old = list(project.glossary)
        project.glossary[:] = self.entries
        return Change(project=True)

    def undo(self, project: Project) -> Change:
        project.glossary[:] = self.old
        return Change(project=True)

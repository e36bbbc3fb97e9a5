"""project.json: a project's parts written, and read back with every load-time check.

Writing gives the same bytes for the same project (keys in a fixed order, two-space indent,
UTF-8, no NaN), atomically. Reading trusts nothing in the file: every value must have its type,
ids their form, paths must stay inside the project, times and the video's probed facts their
ranges, and each part what :mod:`app.project.model` requires of it on an edit too; anything
else is a ProjectFileError that says where (``lines[2].takes[0]``). Older schemas are
upgraded before (:mod:`app.project.migrations`); :class:`app.project.project.Project` loads
and saves through here.

Its length (about 610 lines, a little over the ~600 the project aims at) is one reader and one
writer per record of project.json, side by side so a field's two directions are read together.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypedDict

from app.project import phrases
from app.project.errors import (
    InvalidValueError,
    PathEscapeError,
    ProjectFileError,
    SaveError,
)
from app.project.fsutil import atomic_write_bytes, check_relative, resolve_inside
from app.project.limits import MEDIA_RANGES
from app.project.migrations import CURRENT_SCHEMA
from app.project.model import (
    PALETTE,
    PROJECT_FILE,
    TRANSIENT_STATUSES,
    AudioStreamInfo,
    Character,
    Fit,
    Line,
    LineBudget,
    LineStatus,
    ProjectSettings,
    SubtitleStreamInfo,
    Take,
    VideoInfo,
    check_id,
    validate_character,
    validate_line,
)
from app.project.phrases import Phrase
from app.project.timecode import TimeRangeError, check_time
from engine.core import files
from engine.core.codes import ErrorCode
from engine.core.numbers import RangeError
from engine.core.phrases import keep_phrase, stored_phrase
from engine.core.protocol import VARIANT, VoiceSettings
from engine.hearing.qa.checks import QaThresholds, QaValueError, TakeChecks
from engine.translation import TranslationError
from engine.translation.glossary import GlossaryEntry, validate_glossary
from engine.translation.registry import LANGUAGE_CODE

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from app.project.project import Project

MAX_NESTING = 32  # project.json is about 6 levels deep; far deeper is damage or an attack


# --- the parts -------------------------------------------------------------------------------


def _get(data: dict[str, Any], key: str, kinds: type | tuple[type, ...], where: str, default: Any = ...) -> Any:
    if key not in data or data[key] is None:
        if default is ...:
            raise ProjectFileError(Phrase(phrases.MISSING_KEY, where=where, key=key))
        return default
    value = data[key]
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        raise ProjectFileError(Phrase(phrases.WRONG_TYPE, where=where, key=key, value=repr(value)))
    if not isinstance(value, kinds):
        raise ProjectFileError(Phrase(phrases.WRONG_TYPE, where=where, key=key, value=repr(value)))
    return value


def _opt_float(data: dict[str, Any], key: str, where: str) -> float | None:
    value = _get(data, key, (int, float), where, None)
    if value is None:
        return None
    if not math.isfinite(value) or value < 0:
        raise ProjectFileError(Phrase(phrases.NOT_NON_NEGATIVE, where=where, key=key, value=repr(value)))
    return float(value)


def _number_or_none(data: dict[str, Any], key: str, where: str) -> float | None:
    """A number as a float, or None; the validator of what holds it checks its range."""
    value = _get(data, key, (int, float), where, None)
    return None if value is None else float(value)


def _opt_time(data: dict[str, Any], key: str, where: str) -> float | None:
    """An optional time in seconds, 0 to 24 h (a start of 1e9 would make the mix allocate terabytes)."""
    value = _get(data, key, (int, float), where, None)
    if value is None:
        return None
    try:
        return check_time(value, f"'{key}'")
    except TimeRangeError as error:
        raise ProjectFileError(Phrase(phrases.AT_FILE, where=where, problem=error.args[0]), ErrorCode.TIME_RANGE) from None


@contextlib.contextmanager
def _read_as_file_error(where: str) -> Iterator[None]:
    """A value the model refuses (InvalidValueError) is the file's fault: ProjectFileError with
    the same code, its message led by ``where`` in the file (none: the message says where)."""
    try:
        yield
    except InvalidValueError as error:
        raise ProjectFileError(Phrase(phrases.AT_FILE, where=where, problem=error.message) if where else error.message,
                               error.code) from None


def _id(data: dict[str, Any], key: str, where: str, default: Any = ...) -> Any:
    value = _get(data, key, str, where, default)
    if value is None:
        return None
    with _read_as_file_error(where):
        return check_id(value, f"'{key}'")


def _rel_path(value: str, where: str) -> str:
    try:
        return check_relative(value)
    except PathEscapeError as error:
        raise PathEscapeError(Phrase(phrases.AT_FILE, where=where, problem=error.message)) from None


# project.json keeps a character's language beside its settings, not among them: it is also the
# language QA hears the lines in. Every other voice setting is stored under "settings".
_LANGUAGE_KEY = "language"
_STORED_SETTINGS = tuple(f.name for f in fields(VoiceSettings) if f.name != _LANGUAGE_KEY)


def _voice_settings_from_dict(data: dict[str, Any], language: str, where: str) -> VoiceSettings:
    """A character's stored settings (missing ones take the defaults); their ranges are checked
    by :func:`validate_character`."""
    defaults = VoiceSettings()
    values: dict[str, Any] = {}
    for name in _STORED_SETTINGS:
        default = getattr(defaults, name)
        if isinstance(default, str):
            values[name] = _get(data, name, str, where, default)
        else:
            values[name] = float(_get(data, name, (int, float), where, default))
    return VoiceSettings(**values, language=language)


def character_to_dict(char: Character) -> dict[str, Any]:
    stored = {
        "id": char.id,
        "name": char.name,
        "colour": char.colour,
        "clip": char.clip,
        "clip_start": char.clip_start,
        "clip_end": char.clip_end,
        "transcript": char.transcript,
        "transcript_heard": char.transcript_heard,
        _LANGUAGE_KEY: char.settings.language,
        "settings": {name: getattr(char.settings, name) for name in _STORED_SETTINGS},
    }
    if char.clip_purity is not None:  # only a clip cut from the video has one; files without it are as before
        stored["clip_purity"] = char.clip_purity
    return stored


def character_from_dict(data: object, where: str) -> Character:
    if not isinstance(data, dict):
        raise ProjectFileError(Phrase(phrases.EXPECTED_OBJECT, where=where))
    settings = _get(data, "settings", dict, where, {})
    clip = _get(data, "clip", str, where, None)
    char = Character(
        id=_id(data, "id", where),
        name=_get(data, "name", str, where),
        colour=_get(data, "colour", str, where, PALETTE[0]),
        clip=_rel_path(clip, where) if clip else None,
        clip_start=_opt_time(data, "clip_start", where) or 0.0,
        clip_end=_opt_time(data, "clip_end", where),
        transcript=_get(data, "transcript", str, where, ""),
        transcript_heard=_get(data, "transcript_heard", bool, where, False),
        clip_purity=_opt_number(data, "clip_purity", where),
        settings=_voice_settings_from_dict(settings, _get(data, _LANGUAGE_KEY, str, where, ""), f"{where}.settings"),
    )
    with _read_as_file_error(where):
        validate_character(char)
    return char


def take_to_dict(take: Take) -> dict[str, Any]:
    return {**vars_of(take), "fit": None if take.fit is None else vars_of(take.fit),
            "qa": take.qa.to_dict() if take.qa is not None else None}


def _opt_number(data: dict[str, Any], key: str, where: str) -> float | None:
    """A finite number that may be negative (levels in dB), or None."""
    value = _get(data, key, (int, float), where, None)
    if value is None:
        return None
    if not math.isfinite(value):
        raise ProjectFileError(Phrase(phrases.NOT_FINITE, where=where, key=key, value=repr(value)))
    return float(value)


def fit_from_dict(data: object, where: str) -> Fit | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ProjectFileError(Phrase(phrases.FIT_NOT_OBJECT, where=where))
    fit = Fit(
        rate=_opt_float(data, "rate", where) or 1.0,
        stretch=_opt_float(data, "stretch", where) or 1.0,
        natural_s=_opt_float(data, "natural_s", where) or 0.0,
        slot_s=_opt_float(data, "slot_s", where) or 0.0,
    )
    if fit.rate <= 0 or fit.stretch <= 0:
        raise ProjectFileError(Phrase(phrases.FIT_NOT_POSITIVE, where=where))
    return fit


def take_from_dict(data: object, where: str) -> Take:
    if not isinstance(data, dict):
        raise ProjectFileError(Phrase(phrases.EXPECTED_OBJECT, where=where))
    return Take(
        id=_id(data, "id", where),
        path=_rel_path(_get(data, "path", str, where), where),
        fingerprint=_get(data, "fingerprint", str, where, ""),
        created=_get(data, "created", str, where, ""),
        duration_s=_opt_time(data, "duration_s", where) or 0.0,
        sample_rate=_media_fact(data, "sample_rate", int, where, 0),
        backend=_get(data, "backend", str, where, ""),
        text=_get(data, "text", str, where, ""),
        fit=fit_from_dict(data.get("fit"), f"{where}.fit"),
        loudness_lufs=_opt_number(data, "loudness_lufs", where),
        true_peak_dbtp=_opt_number(data, "true_peak_dbtp", where),
        qa=_take_qa(data.get("qa"), where),
        variant=_variant(data, where),
    )


def _variant(data: dict[str, Any], where: str) -> int:
    value = _get(data, "variant", int, where, 0)
    try:
        VARIANT.check(value)
    except RangeError as error:
        raise ProjectFileError(Phrase(phrases.AT_FILE, where=where, problem=error.message)) from None
    return int(value)


def _take_qa(data: object, where: str) -> TakeChecks | None:
    if data is None:
        return None
    try:
        return TakeChecks.from_dict(data)
    except QaValueError as error:
        raise ProjectFileError(Phrase(phrases.AT_FILE, where=f"{where}.qa", problem=str(error))) from None


def line_to_dict(line: Line, order: int) -> dict[str, Any]:
    status = line.status
    if status in TRANSIENT_STATUSES:
        # A file saved mid-render must not reopen showing jobs that no engine is running.
        status = LineStatus.DONE if line.chosen_take else LineStatus.NOT_RENDERED
    return keep_phrase({  # a render error is kept as its template too, said after a reload
        "id": line.id,
        "order": order,
        "character": line.character_id,
        "text": line.text,
        "start": line.start,
        "end": line.end,
        "status": status.value,
        "error": line.error,
        "chosen_take": line.chosen_take,
        "fit": line.fit,
        "speed": line.speed,
        "instruction": line.instruction,
        "source_text": line.source_text,
        "draft": line.draft,
        "budget": None if line.budget is None else vars_of(line.budget),
        "takes": [take_to_dict(t) for t in line.takes],
        # Written only where set, so a project with no line in another language saves as before.
        **({} if line.language is None else {"language": line.language}),
    }, "error")


def line_from_dict(data: object, where: str) -> Line:
    if not isinstance(data, dict):
        raise ProjectFileError(Phrase(phrases.EXPECTED_OBJECT, where=where))
    raw_status = _get(data, "status", str, where, LineStatus.NOT_RENDERED.value)
    try:
        status = LineStatus(raw_status)
    except ValueError:
        raise ProjectFileError(Phrase(phrases.UNKNOWN_STATUS, where=where, value=repr(raw_status))) from None
    takes = [take_from_dict(t, f"{where}.takes[{i}]") for i, t in enumerate(_get(data, "takes", list, where, []))]
    chosen = _id(data, "chosen_take", where, None)
    if chosen is not None and chosen not in {t.id for t in takes}:  # the render writes both at once
        raise ProjectFileError(Phrase(phrases.UNKNOWN_CHOSEN_TAKE, where=where, take=repr(chosen),
                                      takes=", ".join(repr(t.id) for t in takes) or Phrase(phrases.NONE)))
    if status in TRANSIENT_STATUSES or status is LineStatus.STALE:
        status = LineStatus.DONE if chosen else LineStatus.NOT_RENDERED
    line = Line(
        id=_id(data, "id", where),
        text=_get(data, "text", str, where, ""),
        character_id=_id(data, "character", where, None),
        start=_number_or_none(data, "start", where),
        end=_number_or_none(data, "end", where),
        takes=takes,
        chosen_take=chosen,
        status=status,
        error=stored_phrase(data, "error", _get(data, "error", str, where, "")),
        fit=_get(data, "fit", bool, where, None),
        speed=_number_or_none(data, "speed", where),
        instruction=_get(data, "instruction", str, where, None),
        source_text=_get(data, "source_text", str, where, ""),
        draft=_get(data, "draft", bool, where, False),
        budget=_budget(data, where),
        language=_get(data, "language", str, where, None),  # absent in files before it: the character's
    )
    with _read_as_file_error(""):
        validate_line(line, where)
    return line


def _budget(data: dict[str, Any], where: str) -> LineBudget | None:
    """A translated line's budget (its values are checked with the line by validate_line)."""
    raw = _get(data, "budget", dict, where, None)
    if raw is None:
        return None
    at = f"{where}.budget"
    return LineBudget(limit=_get(raw, "limit", int, at), unit=_get(raw, "unit", str, at),
                      first_length=_get(raw, "first_length", int, at, 0),
                      shortened=_get(raw, "shortened", bool, at, False))


def glossary_from_list(items: list[Any]) -> list[GlossaryEntry]:
    """The project's glossary as stored, each entry checked (glossary[N] names a bad one)."""
    entries = []
    for index, item in enumerate(items):
        where = f"glossary[{index}]"
        if not isinstance(item, dict):
            raise ProjectFileError(Phrase(phrases.EXPECTED_OBJECT, where=where))
        entries.append(GlossaryEntry(source=_get(item, "source", str, where), target=_get(item, "target", str, where),
                                     kind=_get(item, "kind", str, where, "term"), note=_get(item, "note", str, where, "")))
    try:
        validate_glossary(entries)
    except TranslationError as error:
        raise ProjectFileError(Phrase(phrases.AT_FILE, where="glossary", problem=error.message), error.code) from None
    return entries


NULLABLE_SETTINGS = frozenset({"loudness_target_lufs"})  # None is a choice ("off"), not "missing"


def settings_to_dict(settings: ProjectSettings) -> dict[str, Any]:
    data = {f.name: getattr(settings, f.name) for f in fields(ProjectSettings) if f.name != "qa"}
    data["qa"] = settings.qa.to_dict()  # the one nested group
    return data


def settings_from_dict(data: dict[str, Any]) -> ProjectSettings:
    """Settings from project.json: unknown keys are ignored, missing ones take defaults."""
    defaults = ProjectSettings()
    values: dict[str, Any] = {}
    try:
        values["qa"] = QaThresholds.from_dict(_get(data, "qa", dict, "settings", {}))
    except RangeError as error:
        raise ProjectFileError(Phrase(phrases.AT_FILE, where="settings.qa", problem=error.message), error.code) from None
    except QaValueError as error:
        raise ProjectFileError(Phrase(phrases.AT_FILE, where="settings", problem=str(error))) from None
    for f in fields(ProjectSettings):
        if f.name == "qa":
            continue
        default = getattr(defaults, f.name)
        if isinstance(default, bool):
            kinds: type | tuple[type, ...] = bool
        elif isinstance(default, str):
            kinds = str
        else:
            kinds = (int, float)
        if f.name in NULLABLE_SETTINGS and f.name in data and data[f.name] is None:
            values[f.name] = None  # explicitly off, not missing
            continue
        value = _get(data, f.name, kinds, "settings", default)
        values[f.name] = float(value) if kinds == (int, float) else value
    settings = ProjectSettings(**values)
    with _read_as_file_error("settings"):
        settings.validate()
    return settings


def video_to_dict(video: VideoInfo) -> dict[str, Any]:
    return {**vars_of(video), "audio_streams": [vars_of(a) for a in video.audio_streams],
            "subtitle_streams": [vars_of(t) for t in video.subtitle_streams]}


def vars_of(item: DataclassInstance) -> dict[str, Any]:
    """A flat dataclass as a dict (asdict without deep copies)."""
    return {f.name: getattr(item, f.name) for f in fields(item)}


def _objects(data: dict[str, Any], key: str, where: str) -> list[tuple[dict[str, Any], str]]:
    """The objects of a list field, each with its place for error messages."""
    items = _get(data, key, list, where, [])
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise ProjectFileError(Phrase(phrases.EXPECTED_OBJECT, where=f"{where}.{key}[{i}]"))
    return [(item, f"{where}.{key}[{i}]") for i, item in enumerate(items)]


def _media_fact(data: dict[str, Any], key: str, kinds: type | tuple[type, ...], where: str, default: Any) -> Any:
    """A probed fact read back (or a take's sample rate, measured as it was written): the type it
    was stored as, within the probe's own range (app.project.limits), so a hand-edited
    ``duration_s: 1e12`` cannot size an allocation nor a ``sample_rate`` of -5 a resampling."""
    value = _get(data, key, kinds, where, default)
    if value is None or value is default:
        return value
    try:
        MEDIA_RANGES[key].check(value)
    except RangeError as error:
        raise ProjectFileError(Phrase(phrases.AT_FILE, where=where, problem=error.message)) from None
    return float(value) if kinds is not int else value


def video_from_dict(data: object, where: str = "video") -> VideoInfo | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ProjectFileError(Phrase(phrases.EXPECTED_OBJECT, where=where))
    audio = [
        AudioStreamInfo(
            index=_get(a, "index", int, at),
            codec=_get(a, "codec", str, at, ""),
            channels=_media_fact(a, "channels", int, at, 0),
            sample_rate=_media_fact(a, "sample_rate", int, at, 0),
            language=_get(a, "language", str, at, ""),
            title=_get(a, "title", str, at, ""),
        )
        for a, at in _objects(data, "audio_streams", where)
    ]
    subtitles = [
        SubtitleStreamInfo(
            index=_get(t, "index", int, at),
            codec=_get(t, "codec", str, at, ""),
            text=_get(t, "text", bool, at, False),
            language=_get(t, "language", str, at, ""),
            title=_get(t, "title", str, at, ""),
        )
        for t, at in _objects(data, "subtitle_streams", where)
    ]
    return VideoInfo(
        path=_rel_path(_get(data, "path", str, where), where),
        duration_s=_media_fact(data, "duration_s", (int, float), where, 0.0),
        fps=_media_fact(data, "fps", (int, float), where, 0.0),
        width=_media_fact(data, "width", int, where, 0),
        height=_media_fact(data, "height", int, where, 0),
        codec=_get(data, "codec", str, where, ""),
        frame_count=_media_fact(data, "frame_count", int, where, None),
        audio_streams=tuple(audio),
        subtitle_streams=tuple(subtitles),
        dialogue_stream=_get(data, "dialogue_stream", int, where, None),
    )


def parse_project_json(text: str, file: Path) -> dict[str, Any]:
    """The object in a project.json's text; ProjectFileError for anything a project cannot be.

    Python's json reads NaN and Infinity, which no number in a project may be (and which
    the next save could not write back), and recurses once per nesting level, so a file
    nested 100,000 deep would end in a RecursionError: both are refused with a message.
    """

    def refuse_constant(name: str) -> NoReturn:
        raise ProjectFileError(Phrase(phrases.NOT_A_JSON_NUMBER, file=file, name=name))

    try:
        data = json.loads(text, parse_constant=refuse_constant)
    except json.JSONDecodeError as error:
        raise ProjectFileError(Phrase(phrases.NOT_JSON, file=file, line=error.lineno, error=error.msg)) from error
    except RecursionError:
        raise ProjectFileError(Phrase(phrases.FAR_TOO_DEEP, file=file)) from None
    if not isinstance(data, dict):
        raise ProjectFileError(Phrase(phrases.NOT_A_PROJECT_OBJECT, file=file))
    if _nesting(data) > MAX_NESTING:
        raise ProjectFileError(Phrase(phrases.TOO_DEEP, file=file, limit=MAX_NESTING))
    return data


def _nesting(data: object) -> int:
    """How deeply lists and objects nest in ``data``, counted without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if depth <= MAX_NESTING:  # no need to walk further once past the limit
            stack.extend((child, depth + 1) for child in children)
    return deepest


# --- the whole file --------------------------------------------------------------------------


class ProjectFields(TypedDict):
    """What project.json holds of a :class:`Project`, read and checked (its folder is its own)."""

    title: str
    settings: ProjectSettings
    video: VideoInfo | None
    guide_audio: str | None
    language: str
    target_language: str
    glossary: list[GlossaryEntry]
    characters: list[Character]
    lines: list[Line]


def project_fields(data: dict[str, Any]) -> ProjectFields:
    """A current-schema project's parts, checking types, ids and references."""
    guide = _get(data, "guide_audio", str, "project", None)
    title = _get(data, "title", str, "project", "Untitled")
    settings = settings_from_dict(_get(data, "settings", dict, "settings", {}))
    video = video_from_dict(data.get("video"))
    guide_audio = _rel_path(guide, "guide_audio") if guide else None
    language = _get(data, "language", str, "project", "")
    target_language = _get(data, "target_language", str, "project", "")
    if target_language and not LANGUAGE_CODE.match(target_language):
        raise ProjectFileError(Phrase(phrases.BAD_TARGET_LANGUAGE, value=repr(target_language)))
    glossary = glossary_from_list(_get(data, "glossary", list, "project", []))
    characters = [
        character_from_dict(c, f"characters[{i}]")
        for i, c in enumerate(_get(data, "characters", list, "project", []))
    ]
    raw_lines = _get(data, "lines", list, "project", [])
    lines = [line_from_dict(item, f"lines[{i}]") for i, item in enumerate(raw_lines)]
    # Honour hand-edited "order" values; ties keep file order.
    orders = [item.get("order", i + 1) if isinstance(item, dict) else i + 1 for i, item in enumerate(raw_lines)]
    keyed = sorted(range(len(lines)), key=lambda i: (orders[i] if isinstance(orders[i], (int, float)) else i + 1, i))
    ordered = [lines[i] for i in keyed]
    _check_integrity(characters, ordered)
    return {"title": title, "settings": settings, "video": video, "guide_audio": guide_audio,
            "language": language, "target_language": target_language, "glossary": glossary,
            "characters": characters, "lines": ordered}


def _check_integrity(characters: list[Character], lines: list[Line]) -> None:
    char_ids = [c.id for c in characters]
    if len(set(char_ids)) != len(char_ids):
        raise ProjectFileError(Phrase(phrases.SHARED_CHARACTER_ID))
    line_ids = [line.id for line in lines]
    if len(set(line_ids)) != len(line_ids):
        raise ProjectFileError(Phrase(phrases.SHARED_LINE_ID))
    known = set(char_ids)
    for n, line in enumerate(lines, 1):
        if line.character_id is not None and line.character_id not in known:
            raise ProjectFileError(Phrase(phrases.UNKNOWN_CHARACTER, order=n, id=line.id,
                                                   character=repr(line.character_id)))


def project_to_dict(project: Project) -> dict[str, Any]:
    return {
        "schema_version": CURRENT_SCHEMA,
        "app": "DubStudio",
        "title": project.title,
        "settings": settings_to_dict(project.settings),
        "video": None if project.video is None else video_to_dict(project.video),
        "guide_audio": project.guide_audio,
        "language": project.language,
        "target_language": project.target_language,
        "glossary": [entry.to_dict() for entry in project.glossary],
        "characters": [character_to_dict(c) for c in project.characters],
        "lines": [line_to_dict(line, n) for n, line in enumerate(project.lines, 1)],
    }


def read_project_json(root: Path) -> dict[str, Any]:
    """The object in the project.json of the folder ``root``, as stored (any schema)."""
    file = root / PROJECT_FILE
    if not os.path.lexists(file):
        raise ProjectFileError(Phrase(phrases.NOT_A_PROJECT, folder=root, file=PROJECT_FILE))
    try:
        text = files.read_regular_file(resolve_inside(root, PROJECT_FILE)).decode("utf-8-sig")
    except files.FileError as error:
        raise ProjectFileError(Phrase(phrases.CANNOT_READ_PROJECT, file=file, error=error.message)) from error
    except UnicodeDecodeError as error:
        raise ProjectFileError(Phrase(phrases.NOT_UTF8, file=file, error=str(error))) from error
    return parse_project_json(text, file)


def write_project_json(project: Project) -> None:
    """Write project.json atomically; on any failure the previous file stays as it was.

    Serialisation happens before the file system is touched, so a value JSON cannot hold
    fails without side effects. While the project was loaded from an older schema
    (``migrated_from``), the old file is first kept as ``project.v<N>.json.bak``.
    """
    try:
        blob = (json.dumps(project_to_dict(project), indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode()
    except (TypeError, ValueError) as error:  # a value JSON cannot hold (NaN, an object...)
        raise SaveError(Phrase(phrases.CANNOT_SAVE, file=project.project_file, error=str(error))) from error
    if project.migrated_from is not None and project.project_file.exists():
        backup = project.root / f"project.v{project.migrated_from}.json.bak"
        if not os.path.lexists(backup):
            try:
                old = files.read_regular_file(project.project_file)
            except files.FileError as error:
                raise SaveError(Phrase(phrases.CANNOT_BACK_UP, file=project.project_file, error=error.message)) from error
            atomic_write_bytes(backup, old, inside=project.root)
    atomic_write_bytes(project.project_file, blob, inside=project.root)

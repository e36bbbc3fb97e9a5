"""Schema versions of ``project.json`` and the migrations between them.

A project file names its ``schema_version``. Opening an older file runs the functions of
:data:`MIGRATIONS` in order, each turning the dict of version N into the dict of version N+1,
so a file from any past release opens through one short, individually tested step per
release. Migrations work on plain JSON dicts (never on model classes) because the model only
knows the current schema; a migration written today must keep working after the model moves on.

To change the schema: append a function to :data:`MIGRATIONS` (``CURRENT_SCHEMA`` follows),
update the model's (de)serialisation, and add a test that opens a file of the old version.

History
  1  prototype layout: characters as a dict keyed by name with flat settings, lines naming
     their ``speaker``, SRT-style timecode strings, and at most one ``take`` path per line.
  2  characters and lines carry stable ids; settings are nested; times are seconds; every
     line keeps a list of takes with render fingerprints and a chosen take.
  3  a project may dub a video (``video``: path and probed facts; ``guide_audio``: its original
     audio); lines may be fitted to their slot (``fit``) and takes record the fit and their
     loudness; settings gain fit, loudness and guide-mix options.
  4  take QA: every take has ``qa`` (what checking it measured, null until checked) and the
     settings hold ``qa`` thresholds.
  5  a line may have its own delivery (``speed``, ``instruction``; null: its character's).
  6  take QA hears with Whisper: thresholds still at schema 4's defaults move to Whisper's
     (the word-error limit was 0.75 only because pocketsphinx misheard clean takes), and the
     new ones (character errors, speech time, language) are written out.
"""

from __future__ import annotations

import copy
import re
import uuid
from collections.abc import Callable
from typing import Any

from app.project import phrases
from app.project.errors import MigrationError, ProjectFileError, SchemaTooNewError
from app.project.phrases import Phrase

JsonDict = dict[str, Any]

_TIMECODE = re.compile(r"^\s*(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?\s*$")
_V1_PALETTE = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#46f0f0")


def _v1_time(value: object, where: str) -> float | None:
    """v1 stored times as ``HH:MM:SS,mmm`` strings (or sometimes plain numbers)."""
    if value is None or value == "":
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        match = _TIMECODE.match(value)
        if match:
            hours, minutes, seconds, millis = match.groups()
            return (
                int(hours or 0) * 3600
                + int(minutes) * 60
                + int(seconds)
                + (int(millis.ljust(3, "0")) / 1000 if millis else 0.0)
            )
    raise MigrationError(Phrase(phrases.OLD_TIME_UNREADABLE, where=where, value=repr(value)))


def _new_id() -> str:
    return uuid.uuid4().hex[:12]


def migrate_v1_to_v2(data: JsonDict) -> JsonDict:
    """Give characters and lines ids, nest settings, turn timecodes into seconds, list takes.

    Takes from v1 get an empty fingerprint: nobody recorded what produced them, so they show as
    stale (their audio is kept and still exportable) instead of pretending to be current.
    """
    characters, ids_by_name = _v1_characters(data.get("characters") or {})
    lines = [_v1_line(n, line, characters, ids_by_name) for n, line in enumerate(data.get("lines") or [])]
    return {
        "schema_version": 2,
        "title": data.get("name") or data.get("title") or "Untitled",
        "settings": {"backend": data.get("backend", "piper"), "gap_s": float(data.get("gap", 0.3))},
        "characters": characters,
        "lines": lines,
    }


def _v1_characters(characters_in: object) -> tuple[list[JsonDict], dict[str, str]]:
    """v1's characters (an object keyed by name) as v2's list, and their ids by folded name."""
    if not isinstance(characters_in, dict):
        raise MigrationError(Phrase(phrases.V1_CHARACTERS_NOT_OBJECT))
    characters: list[JsonDict] = []
    ids_by_name: dict[str, str] = {}
    for n, (name, spec) in enumerate(characters_in.items()):
        spec = spec or {}
        if not isinstance(spec, dict):
            raise MigrationError(Phrase(phrases.V1_CHARACTER_NOT_OBJECT, name=repr(name)))
        char_id = _new_id()
        ids_by_name[name.casefold()] = char_id
        characters.append(
            {
                "id": char_id,
                "name": name,
                "colour": spec.get("color") or spec.get("colour") or _V1_PALETTE[n % len(_V1_PALETTE)],
                "clip": spec.get("clip") or None,
                "clip_start": 0.0,
                "clip_end": None,
                "transcript": spec.get("transcript", ""),
                "language": spec.get("language", ""),
                "settings": {
                    "speed": float(spec.get("speed", 1.0)),
                    "pitch_semitones": float(spec.get("pitch", 0.0)),
                    "instruction": spec.get("emotion", ""),
                },
            }
        )
    return characters, ids_by_name


def _v1_speaker(speaker: str, characters: list[JsonDict], ids_by_name: dict[str, str]) -> str | None:
    """A v1 line's speaker as a character id; v1 allowed speakers without a character entry, and
    each becomes a character here."""
    if not speaker:
        return None
    speaker_id = ids_by_name.get(speaker.casefold())
    if speaker_id is None:
        speaker_id = _new_id()
        ids_by_name[speaker.casefold()] = speaker_id
        characters.append(
            {
                "id": speaker_id,
                "name": speaker,
                "colour": _V1_PALETTE[len(characters) % len(_V1_PALETTE)],
                "clip": None,
                "clip_start": 0.0,
                "clip_end": None,
                "transcript": "",
                "language": "",
                "settings": {"speed": 1.0, "pitch_semitones": 0.0, "instruction": ""},
            }
        )
    return speaker_id


def _v1_line(n: int, line: object, characters: list[JsonDict], ids_by_name: dict[str, str]) -> JsonDict:
    """The v1 line at index ``n`` as a v2 line, with its take (if any) listed."""
    if not isinstance(line, dict):
        raise MigrationError(Phrase(phrases.OLD_LINE_NOT_OBJECT, version=1, number=n + 1))
    speaker_id = _v1_speaker(line.get("speaker") or "", characters, ids_by_name)
    takes: list[JsonDict] = []
    chosen = None
    if line.get("take"):
        chosen = _new_id()
        takes.append(
            {
                "id": chosen,
                "path": line["take"],
                "fingerprint": "",
                "created": "",
                "duration_s": float(line.get("duration", 0.0)),
                "sample_rate": 0,
                "backend": "",
                "text": line.get("text", ""),
            }
        )
    return {
        "id": _new_id(),
        "order": n + 1,
        "character": speaker_id,
        "text": line.get("text", ""),
        "start": _v1_time(line.get("start"), Phrase(phrases.OLD_LINE, version=1, number=n + 1)),
        "end": _v1_time(line.get("end"), Phrase(phrases.OLD_LINE, version=1, number=n + 1)),
        "status": "done" if takes else "not_rendered",
        "error": "",
        "takes": takes,
        "chosen_take": chosen,
    }


def migrate_v2_to_v3(data: JsonDict) -> JsonDict:
    """Add the video, fit and loudness fields with the values that mean "none yet".

    A v2 project has no video and no fitted takes. Its takes' loudness is unknown (None): the
    mixer measures such takes when it needs the figure, so nothing is guessed here. Settings
    keep what the file had; the new ones take their defaults when the project is read.
    """
    current = dict(data)
    current.setdefault("video", None)
    current.setdefault("guide_audio", None)
    lines = current.get("lines") or []
    if not isinstance(lines, list):
        raise MigrationError(Phrase(phrases.OLD_KEY_NOT_LIST, version=2, key="lines"))
    upgraded: list[JsonDict] = []
    for n, line in enumerate(lines):
        if not isinstance(line, dict):
            raise MigrationError(Phrase(phrases.OLD_LINE_NOT_OBJECT, version=2, number=n + 1))
        takes = line.get("takes") or []
        if not isinstance(takes, list):
            raise MigrationError(Phrase(phrases.OLD_TAKES_NOT_LIST, version=2, number=n + 1))
        new_takes = [
            {**take, "fit": None, "loudness_lufs": None, "true_peak_dbtp": None} if isinstance(take, dict) else take
            for take in takes
        ]
        upgraded.append({**line, "fit": None, "takes": new_takes})
    current["lines"] = upgraded
    return current


def migrate_v3_to_v4(data: JsonDict) -> JsonDict:
    """Add take QA: no take has been checked yet, and the thresholds are the defaults of the
    release that introduced them (written out, so a later change of defaults never silently
    re-judges an existing project)."""
    current = dict(data)
    settings = current.get("settings") or {}
    if not isinstance(settings, dict):
        raise MigrationError(Phrase(phrases.OLD_KEY_NOT_OBJECT, version=3, key="settings"))
    current["settings"] = {**settings, "qa": dict(V4_QA_DEFAULTS)}
    lines = current.get("lines") or []
    if not isinstance(lines, list):
        raise MigrationError(Phrase(phrases.OLD_KEY_NOT_LIST, version=3, key="lines"))
    upgraded: list[JsonDict] = []
    for n, line in enumerate(lines):
        if not isinstance(line, dict):
            raise MigrationError(Phrase(phrases.OLD_LINE_NOT_OBJECT, version=3, number=n + 1))
        takes = line.get("takes") or []
        if not isinstance(takes, list) or not all(isinstance(t, dict) for t in takes):
            raise MigrationError(Phrase(phrases.OLD_TAKES_NOT_OBJECTS, version=3, number=n + 1))
        upgraded.append({**line, "takes": [{**take, "qa": None} for take in takes]})
    current["lines"] = upgraded
    return current


# The QA thresholds as schema 4 introduced them (see engine.hearing.qa.checks.QaThresholds).
V4_QA_DEFAULTS: JsonDict = {
    "max_wer": 0.75,
    "max_clipping": 0.001,
    "max_leading_silence_s": 1.0,
    "max_inner_silence_s": 1.5,
    "max_trailing_silence_s": 1.5,
    "max_overrun_s": 0.25,
    "min_resemblance": 0.25,
}

def migrate_v4_to_v5(data: JsonDict) -> JsonDict:
    """Add each line's own delivery (speed, instruction), none yet: its character's is used."""
    current = dict(data)
    lines = current.get("lines") or []
    if not isinstance(lines, list) or not all(isinstance(line, dict) for line in lines):
        raise MigrationError(Phrase(phrases.OLD_KEY_NOT_OBJECTS, version=4, key="lines"))
    current["lines"] = [{**line, "speed": None, "instruction": None} for line in lines]
    return current


# The QA thresholds as schema 6 set them for Whisper (see engine.hearing.qa.checks.QaThresholds).
V6_QA_DEFAULTS: JsonDict = {
    **V4_QA_DEFAULTS,
    "max_wer": 0.3,
    "max_cer": 0.35,
    "min_duration_ratio": 0.67,
    "min_language_confidence": 0.9,
}


def migrate_v5_to_v6(data: JsonDict) -> JsonDict:
    """Re-aim take QA at Whisper: a threshold still at schema 4's default takes schema 6's; one
    the user changed is kept; thresholds schema 4 did not have are written out."""
    current = dict(data)
    settings = current.get("settings") or {}
    if not isinstance(settings, dict):
        raise MigrationError(Phrase(phrases.OLD_KEY_NOT_OBJECT, version=5, key="settings"))
    qa = settings.get("qa") or {}
    if not isinstance(qa, dict):
        raise MigrationError(Phrase(phrases.OLD_KEY_NOT_OBJECT, version=5, key="settings.qa"))
    moved = {name: V6_QA_DEFAULTS[name] if qa.get(name, V4_QA_DEFAULTS.get(name)) == V4_QA_DEFAULTS.get(name)
             else qa[name] for name in V6_QA_DEFAULTS}
    current["settings"] = {**settings, "qa": {**qa, **moved}}
    return current


MIGRATIONS: list[Callable[[JsonDict], JsonDict]] = [migrate_v1_to_v2, migrate_v2_to_v3, migrate_v3_to_v4,
                                                    migrate_v4_to_v5, migrate_v5_to_v6]
"""``MIGRATIONS[i]`` turns schema ``i + 1`` into schema ``i + 2``."""

CURRENT_SCHEMA = len(MIGRATIONS) + 1


def schema_version_of(data: JsonDict) -> int:
    """The schema version a loaded ``project.json`` declares (v1 called the key ``version``)."""
    version = data.get("schema_version", data.get("version"))
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ProjectFileError(Phrase(phrases.NO_SCHEMA_VERSION, value=repr(version)))
    return version


def migrate(data: JsonDict) -> tuple[JsonDict, int]:
    """Bring ``data`` up to :data:`CURRENT_SCHEMA`; returns (new dict, version it started at).

    The input dict is not modified, so a failed migration leaves the caller's copy intact.
    """
    start = schema_version_of(data)
    if start > CURRENT_SCHEMA:
        raise SchemaTooNewError(Phrase(phrases.SCHEMA_TOO_NEW, schema=start, readable=CURRENT_SCHEMA))
    current = copy.deepcopy(data)
    for version in range(start, CURRENT_SCHEMA):
        step = MIGRATIONS[version - 1]
        try:
            current = step(current)
        except MigrationError:
            raise
        except Exception as error:  # a bad old file: say which step broke, keep the cause
            raise MigrationError(Phrase(phrases.MIGRATION_FAILED, version=version, next=version + 1,
                                        error=str(error))) from error
        current["schema_version"] = version + 1
    return current, start

"""The project model: characters, script lines, takes, and the folder that holds them.

A project is a folder that can be zipped and shared::

    project.json   this model, written atomically (see :meth:`Project.save`)
    voices/        reference clips, copied in on import so the folder is self-contained
    takes/         every rendered take as WAV, kept when a line is re-rendered
    exports/       mixes, stems, per-line WAVs, subtitles and the finished video
    media/         the video being dubbed (when copied in) and its original audio (guide track)

The model is plain dataclasses with no Qt, so the headless ``dubstudio render`` command and
the studio share it. Edits the user makes go through :mod:`app.project.undo` (so they can be
undone); only the render session writes render results (takes, status) directly, because
rendered audio on disk is not something "undo" should delete.

Line order is the order of :attr:`Project.lines`; ``order`` in the file and
:meth:`Project.order_of` are derived from it (1-based) so the two can never disagree.
"""

from __future__ import annotations

import datetime as _dt
import enum
import hashlib
import json
import math
import os
import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from app.project.errors import (
    InvalidValueError,
    PathEscapeError,
    ProjectFileError,
    SaveError,
    UnknownIdError,
)
from app.project.fsutil import (
    atomic_write_bytes,
    check_relative,
    ensure_dir,
    resolve_inside,
)
from app.project.limits import MEDIA_RANGES
from app.project.migrations import CURRENT_SCHEMA, migrate
from app.project.timecode import TimeRangeError, check_time, format_clock
from engine.core import files
from engine.core.audio_io import (
    file_digest,  # the studio polls it: kept per (path, size, mtime)
)
from engine.core.codes import ErrorCode
from engine.core.numbers import Range, RangeError, ranges
from engine.core.protocol import (
    DEFAULT_BACKEND,
    SPEED,
    VARIANT,
    VoiceSettings,
)
from engine.hearing.qa.checks import QaThresholds, QaValueError, TakeChecks

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

PROJECT_FILE = "project.json"
VOICES_DIR = "voices"
TAKES_DIR = "takes"
EXPORTS_DIR = "exports"
MEDIA_DIR = "media"
CACHE_DIR = ".cache"  # regenerable files (trimmed clips); safe to leave out of a shared zip

PALETTE = (
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1",
    "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac",
)  # fmt: skip


MAX_NESTING = 32  # project.json is about 6 levels deep; far deeper is damage or an attack
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""What an id may be. Ids become parts of file names (``takes/<line>_<take>.wav``), so a crafted
id like ``../../tmp/x`` must never load."""


def new_id() -> str:
    """A short random id; unique enough within one project and readable in project.json."""
    return uuid.uuid4().hex[:12]


def check_id(value: str, what: str) -> str:
    """``value`` when it is a valid id (letters, digits, ``_-``; 1-64); InvalidValueError (E_BAD_ID) otherwise."""
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise InvalidValueError(
            f"{what} {value!r} is not a valid id (1-64 letters, digits, '_' or '-', not starting with '_' or '-')",
            ErrorCode.BAD_ID,
        )
    return value


def now_iso() -> str:
    """Now, in UTC, as ISO 8601 (take timestamps)."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


class LineStatus(str, enum.Enum):
    """What the table shows for a line. STALE is derived, never stored (see Project.status)."""

    NOT_RENDERED = "not_rendered"
    QUEUED = "queued"
    RENDERING = "rendering"
    DONE = "done"
    FAILED = "failed"
    STALE = "stale"


# Statuses a render in progress sets; a file saved mid-render is reopened without them.
TRANSIENT_STATUSES = frozenset({LineStatus.QUEUED, LineStatus.RENDERING})


@dataclass
class Character:
    """A voice: name, colour, reference clip (project-relative) with trim, and settings."""

    id: str
    name: str
    colour: str = PALETTE[0]
    clip: str | None = None  # relative to the project folder, usually voices/<file>
    clip_start: float = 0.0  # trim, seconds into the clip
    clip_end: float | None = None  # None = to the end of the clip
    transcript: str = ""  # what is said in the (trimmed) clip; helps cloning backends
    transcript_heard: bool = False  # the transcript was heard from the clip (engine.hearing.qa.transcripts), not typed
    settings: VoiceSettings = field(default_factory=VoiceSettings)  # speed, pitch, instruction, language

    @property
    def trimmed(self) -> bool:
        return self.clip_start > 0 or self.clip_end is not None


@dataclass(frozen=True)
class Fit:
    """What fitting a take into its slot did (see app.project.fit).

    ``rate`` is how much faster the re-synthesized speech is than the natural take (its
    natural length over its fitted length, what a listener hears; the engine's speed setting
    that produced it may be a little higher), ``stretch`` the time-stretch factor applied
    after that (1.0 = none; >1 shortens), ``natural_s`` the spoken length before fitting and
    ``slot_s`` the slot it was fitted into. The table and timeline show :meth:`describe`.
    """

    rate: float = 1.0
    stretch: float = 1.0
    natural_s: float = 0.0
    slot_s: float = 0.0

    def describe(self) -> str:
        """``"fitted: rate 1.12×"`` or ``"fitted: rate 1.25× + stretch 1.08×"``."""
        parts = [f"rate {self.rate:.2f}×"]
        if self.stretch > 1.0005:
            parts.append(f"stretch {self.stretch:.2f}×")
        return "fitted: " + " + ".join(parts)


@dataclass(frozen=True)
class Take:
    """One rendered version of a line, with the fingerprint of what produced it.

    ``fit`` is set when the take was fitted into its slot (faster rate, maybe a stretch); the
    fingerprint stays the line's own, since fitting follows the slot, not the voice.
    ``loudness_lufs`` is the integrated loudness (ITU-R BS.1770; None when the take is too
    short to measure) and ``true_peak_dbtp`` the 4× oversampled peak, both measured when the
    take is written; the mixer normalises dialogue with them.
    """

    id: str
    path: str  # relative, takes/<line>_<take>.wav
    fingerprint: str  # see render_fingerprint(); "" when unknown (migrated takes)
    created: str = ""  # ISO 8601, UTC
    duration_s: float = 0.0
    sample_rate: int = 0
    backend: str = ""
    text: str = ""  # the text that was spoken, shown when choosing between takes
    fit: Fit | None = None
    loudness_lufs: float | None = None
    true_peak_dbtp: float | None = None
    qa: TakeChecks | None = None  # what take QA measured (app.project.qa); None = not checked yet
    variant: int = 0  # the reading (engine.core.protocol.Job.variant): the same one is the same audio


@dataclass
class Line:
    """One script line. ``status`` holds the last render outcome; use Project.status() to show it."""

    id: str
    text: str
    character_id: str | None = None
    start: float | None = None  # seconds into the video; None = follows the previous line
    end: float | None = None
    takes: list[Take] = field(default_factory=list)
    chosen_take: str | None = None
    status: LineStatus = LineStatus.NOT_RENDERED
    error: str = ""  # the last render error, "CODE: message"
    fit: bool | None = None  # fit the take into its slot; None = the project's default
    # Delivery of this line alone, over the character's: None (and "" for none set) keeps the character's.
    speed: float | None = None
    instruction: str | None = None
    source_text: str = ""  # the line as said in the original, kept when ``text`` is a translation
    draft: bool = False  # a machine translation nobody has checked yet


GUIDE_MIXES = ("replace", "duck")
"""How the original audio enters the dub mix: left out, or kept under the dialogue, ducked."""

LOUDNESS_PRESETS: dict[str, float] = {"ebu-r128": -23.0, "web": -16.0}
"""Named integrated-loudness targets (LUFS): EBU R128 broadcast, and web/streaming."""

PROJECT_SETTING_RANGES = ranges(
    Range("gap_s", 0.0, 60.0, unit="s"),
    Range("fit_max_rate", 1.0, 2.0, unit="×"),
    Range("loudness_target_lufs", -40.0, -5.0, unit="LUFS"),
    Range("true_peak_dbtp", -12.0, 0.0, unit="dBTP"),
    Range("guide_gain_db", -60.0, 12.0, unit="dB"),
    Range("duck_db", -60.0, 0.0, unit="dB"),
    Range("duck_attack_s", 0.0, 2.0, unit="s"),
    Range("duck_release_s", 0.0, 5.0, unit="s"),
    code=ErrorCode.INVALID_VALUE,
)
"""The numbers each of :class:`ProjectSettings`' numeric fields takes (its ``validate`` and
the Project settings dialog read them)."""


@dataclass
class ProjectSettings:
    """Per-project settings that affect rendering and export.

    Fit: ``fit_default`` fits every line whose own ``fit`` is None; a fit first re-synthesizes
    faster (up to ``fit_max_rate``, default 1.25×, past which speech sounds rushed), then
    time-stretches the rest. Loudness: dialogue and the mix are normalised to
    ``loudness_target_lufs`` (None = leave levels as rendered) under a true-peak ceiling.
    Guide: with ``guide_mix`` "duck" the original audio plays at ``guide_gain_db`` and dips
    by ``duck_db`` while a line plays, fading over ``duck_attack_s``/``duck_release_s``.
    """

    backend: str = DEFAULT_BACKEND  # the backend takes are expected from; part of the fingerprint
    gap_s: float = 0.3  # silence between lines without timecodes in the mix
    fit_default: bool = False
    fit_max_rate: float = 1.25
    loudness_target_lufs: float | None = LOUDNESS_PRESETS["ebu-r128"]
    true_peak_dbtp: float = -1.0
    guide_mix: str = "replace"
    guide_gain_db: float = 0.0
    duck_db: float = -18.0
    duck_attack_s: float = 0.08
    duck_release_s: float = 0.35
    qa: QaThresholds = field(default_factory=QaThresholds)  # where take QA findings become failures

    def validate(self) -> None:
        """Raise InvalidValueError naming the first setting out of its range (with its range's code)."""
        try:
            for name, allowed in PROJECT_SETTING_RANGES.items():
                value = getattr(self, name)
                if value is not None or name != "loudness_target_lufs":
                    allowed.check(value)
            self.qa.validate()
        except RangeError as error:
            raise InvalidValueError(error.message, error.code) from None
        if self.guide_mix not in GUIDE_MIXES:
            raise InvalidValueError(f"setting guide_mix must be one of {', '.join(GUIDE_MIXES)}, got {self.guide_mix!r}")
        if not isinstance(self.fit_default, bool):
            raise InvalidValueError(f"setting fit_default must be true or false, got {self.fit_default!r}")


@dataclass(frozen=True)
class AudioStreamInfo:
    """An audio stream of the video, as probed (index is the container's stream index)."""

    index: int
    codec: str
    channels: int
    sample_rate: int
    language: str = ""
    title: str = ""


@dataclass(frozen=True)
class SubtitleStreamInfo:
    """A subtitle stream of the video; only text subtitles (``text``) can be imported."""

    index: int
    codec: str
    text: bool
    language: str = ""
    title: str = ""


@dataclass(frozen=True)
class VideoInfo:
    """The video a project dubs: where it is (project-relative) and what a probe found.

    The facts are stored so the studio and the exports know the length, frame rate and
    streams without opening the file; :func:`app.project.media.probe_video` fills them.
    """

    path: str  # relative to the project folder (copied into media/, or already inside)
    duration_s: float
    fps: float
    width: int
    height: int
    codec: str
    frame_count: int | None = None  # from the container when it says so
    audio_streams: tuple[AudioStreamInfo, ...] = ()
    subtitle_streams: tuple[SubtitleStreamInfo, ...] = ()


# --- fingerprints ----------------------------------------------------------------------------


def render_fingerprint(text: str, character: Character, clip_digest: str, backend: str,
                       settings: VoiceSettings | None = None) -> str:
    """A hash of everything that decides how a line sounds; ``settings`` is the delivery the
    line is spoken with (default: the character's own, see :meth:`Project.delivery`).

    A take whose fingerprint differs from the line's current one is stale. The character's id
    is included (reassigning a line to another character means another voice even when both
    share a clip); its name and colour are not (renaming changes nothing audible).
    """
    delivery = character.settings if settings is None else settings
    material = {
        "text": text.strip(),
        "character": character.id,
        "clip": clip_digest,
        "transcript": character.transcript.strip(),
        "trim": [round(character.clip_start, 3), None if character.clip_end is None else round(character.clip_end, 3)],
        "speed": round(delivery.speed, 4),
        "pitch": round(delivery.pitch_semitones, 4),
        "instruction": delivery.instruction.strip(),
        "language": delivery.language.strip(),
        "backend": backend,
    }
    blob = json.dumps(material, sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(blob).hexdigest()[:32]


# --- (de)serialisation -----------------------------------------------------------------------


def _get(data: dict[str, Any], key: str, kinds: type | tuple[type, ...], where: str, default: Any = ...) -> Any:
    if key not in data or data[key] is None:
        if default is ...:
            raise ProjectFileError(f"{where}: missing '{key}'")
        return default
    value = data[key]
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        raise ProjectFileError(f"{where}: '{key}' has the wrong type ({value!r})")
    if not isinstance(value, kinds):
        raise ProjectFileError(f"{where}: '{key}' has the wrong type ({value!r})")
    return value


def _opt_float(data: dict[str, Any], key: str, where: str) -> float | None:
    value = _get(data, key, (int, float), where, None)
    if value is None:
        return None
    if not math.isfinite(value) or value < 0:
        raise ProjectFileError(f"{where}: '{key}' must be a non-negative number ({value!r})")
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
        raise ProjectFileError(f"{where}: {error}", ErrorCode.TIME_RANGE) from None


def _id(data: dict[str, Any], key: str, where: str, default: Any = ...) -> Any:
    value = _get(data, key, str, where, default)
    if value is None:
        return None
    try:
        return check_id(value, f"'{key}'")
    except InvalidValueError as error:
        raise ProjectFileError(f"{where}: {error.message}", error.code) from None


def _rel_path(value: str, where: str) -> str:
    try:
        return check_relative(value)
    except PathEscapeError as error:
        raise PathEscapeError(f"{where}: {error.message}") from None


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
    return {
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


def character_from_dict(data: object, where: str) -> Character:
    if not isinstance(data, dict):
        raise ProjectFileError(f"{where}: expected an object")
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
        settings=_voice_settings_from_dict(settings, _get(data, _LANGUAGE_KEY, str, where, ""), f"{where}.settings"),
    )
    try:
        validate_character(char)
    except InvalidValueError as error:
        raise ProjectFileError(f"{where}: {error.message}", error.code) from None
    return char


def validate_character(char: Character) -> None:
    """Everything a character must satisfy, at load and on every edit (InvalidValueError)."""
    check_id(char.id, "character id")
    if char.clip is not None:
        check_relative(char.clip)
    for value, what in ((char.clip_start, "start"), (char.clip_end, "end")):
        if value is not None:
            try:
                check_time(value, f"{char.name}'s clip trim {what}")
            except TimeRangeError as error:
                raise InvalidValueError(str(error), ErrorCode.TIME_RANGE) from None
    if char.clip_end is not None and char.clip_end < char.clip_start:
        raise InvalidValueError(f"{char.name}'s clip trim ends ({char.clip_end:.3f} s) before it starts "
                                f"({char.clip_start:.3f} s)")
    if char.clip_end is not None and char.clip_end - char.clip_start < 0.1:
        raise InvalidValueError(f"{char.name}'s clip trim keeps less than 0.1 s")
    if not isinstance(char.settings, VoiceSettings):
        raise InvalidValueError("settings must be a VoiceSettings")
    try:
        char.settings.check()  # the engine's ranges, checked here so a bad value is refused at load
    except RangeError as error:
        raise InvalidValueError(error.message, error.code) from None


def take_to_dict(take: Take) -> dict[str, Any]:
    return {
        "id": take.id,
        "path": take.path,
        "fingerprint": take.fingerprint,
        "created": take.created,
        "duration_s": take.duration_s,
        "sample_rate": take.sample_rate,
        "backend": take.backend,
        "text": take.text,
        "fit": None if take.fit is None else {
            "rate": take.fit.rate, "stretch": take.fit.stretch,
            "natural_s": take.fit.natural_s, "slot_s": take.fit.slot_s,
        },
        "loudness_lufs": take.loudness_lufs,
        "true_peak_dbtp": take.true_peak_dbtp,
        "qa": take.qa.to_dict() if take.qa is not None else None,
        "variant": take.variant,
    }


def _opt_number(data: dict[str, Any], key: str, where: str) -> float | None:
    """A finite number that may be negative (levels in dB), or None."""
    value = _get(data, key, (int, float), where, None)
    if value is None:
        return None
    if not math.isfinite(value):
        raise ProjectFileError(f"{where}: '{key}' must be a finite number ({value!r})")
    return float(value)


def fit_from_dict(data: object, where: str) -> Fit | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ProjectFileError(f"{where}: 'fit' must be an object")
    fit = Fit(
        rate=_opt_float(data, "rate", where) or 1.0,
        stretch=_opt_float(data, "stretch", where) or 1.0,
        natural_s=_opt_float(data, "natural_s", where) or 0.0,
        slot_s=_opt_float(data, "slot_s", where) or 0.0,
    )
    if fit.rate <= 0 or fit.stretch <= 0:
        raise ProjectFileError(f"{where}: fit rate and stretch must be positive")
    return fit


def take_from_dict(data: object, where: str) -> Take:
    if not isinstance(data, dict):
        raise ProjectFileError(f"{where}: expected an object")
    return Take(
        id=_id(data, "id", where),
        path=_rel_path(_get(data, "path", str, where), where),
        fingerprint=_get(data, "fingerprint", str, where, ""),
        created=_get(data, "created", str, where, ""),
        duration_s=_opt_time(data, "duration_s", where) or 0.0,
        sample_rate=int(_get(data, "sample_rate", int, where, 0)),
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
        raise ProjectFileError(f"{where}: {error.message}") from None
    return int(value)


def _take_qa(data: object, where: str) -> TakeChecks | None:
    if data is None:
        return None
    try:
        return TakeChecks.from_dict(data)
    except QaValueError as error:
        raise ProjectFileError(f"{where}.qa: {error}") from None


def line_to_dict(line: Line, order: int) -> dict[str, Any]:
    status = line.status
    if status in TRANSIENT_STATUSES:
        # A file saved mid-render must not reopen showing jobs that no engine is running.
        status = LineStatus.DONE if line.chosen_take else LineStatus.NOT_RENDERED
    return {
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
        "takes": [take_to_dict(t) for t in line.takes],
    }


def validate_line(line: Line, what: str) -> None:
    """What a line's values must satisfy wherever it comes from: loaded from project.json,
    edited, imported. Each time is one a project may hold and the end is not before the start
    (E_TIME_RANGE); a line's own speed is in the engine's range. InvalidValueError naming
    ``what`` ("line 3", "subtitle 2", "lines[2]") otherwise."""
    for key in ("start", "end"):
        value = getattr(line, key)
        if value is not None:
            try:
                check_time(value, key)
            except TimeRangeError as error:
                raise InvalidValueError(f"{what}: {error}", ErrorCode.TIME_RANGE) from None
    if line.start is not None and line.end is not None and line.end < line.start:
        raise InvalidValueError(f"{what} ends ({format_clock(line.end)}) before it starts "
                                f"({format_clock(line.start)})", ErrorCode.TIME_RANGE)
    if line.speed is not None:
        try:
            SPEED.check(line.speed)
        except RangeError as error:
            raise InvalidValueError(f"{what}: {error.message}", error.code) from None


def line_from_dict(data: object, where: str) -> Line:
    if not isinstance(data, dict):
        raise ProjectFileError(f"{where}: expected an object")
    raw_status = _get(data, "status", str, where, LineStatus.NOT_RENDERED.value)
    try:
        status = LineStatus(raw_status)
    except ValueError:
        raise ProjectFileError(f"{where}: unknown status {raw_status!r}") from None
    takes = [take_from_dict(t, f"{where}.takes[{i}]") for i, t in enumerate(_get(data, "takes", list, where, []))]
    chosen = _id(data, "chosen_take", where, None)
    if chosen is not None and chosen not in {t.id for t in takes}:
        chosen = takes[-1].id if takes else None
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
        error=_get(data, "error", str, where, ""),
        fit=_get(data, "fit", bool, where, None),
        speed=_number_or_none(data, "speed", where),
        instruction=_get(data, "instruction", str, where, None),
        source_text=_get(data, "source_text", str, where, ""),
        draft=_get(data, "draft", bool, where, False),
    )
    try:
        validate_line(line, where)
    except InvalidValueError as error:
        raise ProjectFileError(error.message, error.code) from None
    return line


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
        raise ProjectFileError(f"settings.qa: {error.message}", error.code) from None
    except QaValueError as error:
        raise ProjectFileError(f"settings: {error}") from None
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
    try:
        settings.validate()
    except InvalidValueError as error:
        raise ProjectFileError(f"settings: {error.message}", error.code) from None
    return settings


def video_to_dict(video: VideoInfo) -> dict[str, Any]:
    return {
        "path": video.path,
        "duration_s": video.duration_s,
        "fps": video.fps,
        "width": video.width,
        "height": video.height,
        "codec": video.codec,
        "frame_count": video.frame_count,
        "audio_streams": [vars_of(a) for a in video.audio_streams],
        "subtitle_streams": [vars_of(t) for t in video.subtitle_streams],
    }


def vars_of(item: DataclassInstance) -> dict[str, Any]:
    """A flat dataclass as a dict (asdict without deep copies)."""
    return {f.name: getattr(item, f.name) for f in fields(item)}


def _objects(data: dict[str, Any], key: str, where: str) -> list[tuple[dict[str, Any], str]]:
    """The objects of a list field, each with its place for error messages."""
    items = _get(data, key, list, where, [])
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise ProjectFileError(f"{where}.{key}[{i}]: expected an object")
    return [(item, f"{where}.{key}[{i}]") for i, item in enumerate(items)]


def _media_fact(data: dict[str, Any], key: str, kinds: type | tuple[type, ...], where: str, default: Any) -> Any:
    """A probed fact read back: the type it was stored as, within the probe's own range
    (app.project.limits), so a hand-edited ``duration_s: 1e12`` cannot size an allocation."""
    value = _get(data, key, kinds, where, default)
    if value is None or value is default:
        return value
    try:
        MEDIA_RANGES[key].check(value)
    except RangeError as error:
        raise ProjectFileError(f"{where}: {error.message}") from None
    return float(value) if kinds is not int else value


def video_from_dict(data: object, where: str = "video") -> VideoInfo | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ProjectFileError(f"{where}: expected an object")
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
    )


def parse_project_json(text: str, file: Path) -> dict[str, Any]:
    """The object in a project.json's text; ProjectFileError for anything a project cannot be.

    Python's json reads NaN and Infinity, which no number in a project may be (and which
    the next save could not write back), and recurses once per nesting level, so a file
    nested 100,000 deep would end in a RecursionError: both are refused with a message.
    """

    def refuse_constant(name: str) -> NoReturn:
        raise ProjectFileError(f"{file} holds {name}, which is not a number JSON allows (was it edited by hand?)")

    try:
        data = json.loads(text, parse_constant=refuse_constant)
    except json.JSONDecodeError as error:
        raise ProjectFileError(f"{file} is not valid JSON (line {error.lineno}: {error.msg})") from error
    except RecursionError:
        raise ProjectFileError(f"{file} is nested far too deeply to be a project") from None
    if not isinstance(data, dict):
        raise ProjectFileError(f"{file} does not hold a project object")
    if _nesting(data) > MAX_NESTING:
        raise ProjectFileError(f"{file} is nested more than {MAX_NESTING} levels deep; a project is about 6")
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


# --- the project -----------------------------------------------------------------------------


@dataclass(eq=False)
class Project:
    """A loaded project. Identity matters (the UI holds one), so equality is by object."""

    root: Path
    title: str = "Untitled"
    characters: list[Character] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    settings: ProjectSettings = field(default_factory=ProjectSettings)
    video: VideoInfo | None = None  # the video being dubbed (see app.project.media)
    guide_audio: str | None = None  # the video's original audio, extracted once (relative)
    language: str = ""  # the original dialogue's language (ISO code) as transcribed; "" = unknown
    migrated_from: int | None = None  # schema version the file had when loaded, if older

    # -- folders --

    @property
    def project_file(self) -> Path:
        return self.root / PROJECT_FILE

    @property
    def voices_dir(self) -> Path:
        return self.root / VOICES_DIR

    @property
    def takes_dir(self) -> Path:
        return self.root / TAKES_DIR

    @property
    def exports_dir(self) -> Path:
        return self.root / EXPORTS_DIR

    @property
    def cache_dir(self) -> Path:
        return self.root / CACHE_DIR

    @property
    def media_dir(self) -> Path:
        return self.root / MEDIA_DIR

    def video_path(self) -> Path | None:
        """Absolute path of the project's video, or None when it has none."""
        return self.resolve(self.video.path) if self.video else None

    def guide_path(self) -> Path | None:
        """Absolute path of the extracted original audio (guide track), or None."""
        return self.resolve(self.guide_audio) if self.guide_audio else None

    def resolve(self, rel: str) -> Path:
        """Absolute path of a project-relative path; raises PathEscapeError if it escapes."""
        return resolve_inside(self.root, rel)

    # -- creation, loading, saving --

    @classmethod
    def create(cls, root: str | os.PathLike[str], title: str = "Untitled") -> Project:
        """Make a new, empty project folder (it may exist but must not hold a project)."""
        root = Path(root).absolute()
        if (root / PROJECT_FILE).exists():
            raise ProjectFileError(f"{root} already holds a project")
        project = cls(root=root, title=title)
        project.ensure_folders()
        project.save()
        return project

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Project:
        """Open a project folder (or its project.json), migrating older schemas in memory.

        The file on disk is only rewritten by the next save, which first keeps a backup of the
        old-schema file (``project.v<N>.json.bak``) so a migration can never lose the original.
        """
        path = Path(path).absolute()
        # Resolved once: every path inside is checked against the real folder, so a project
        # opened through a symlinked folder works like one opened directly.
        root = (path.parent if path.name == PROJECT_FILE else path).resolve()
        file = root / PROJECT_FILE
        if not os.path.lexists(file):
            raise ProjectFileError(f"{root} is not a DubStudio project (no {PROJECT_FILE})")
        try:
            text = files.read_regular_file(resolve_inside(root, PROJECT_FILE)).decode("utf-8-sig")
        except files.FileError as error:
            raise ProjectFileError(f"cannot read {file}: {error.message}") from error
        except UnicodeDecodeError as error:
            raise ProjectFileError(f"cannot read {file}: it is not UTF-8 text ({error})") from error
        data, version = migrate(parse_project_json(text, file))
        project = cls.from_dict(root, data)
        project.migrated_from = version if version < CURRENT_SCHEMA else None
        return project  # folders are made when first written to: the folder may be read-only

    @classmethod
    def from_dict(cls, root: Path, data: dict[str, Any]) -> Project:
        """Build from a current-schema dict, checking types, ids and references."""
        guide = _get(data, "guide_audio", str, "project", None)
        project = cls(
            root=Path(root),
            title=_get(data, "title", str, "project", "Untitled"),
            settings=settings_from_dict(_get(data, "settings", dict, "settings", {})),
            video=video_from_dict(data.get("video")),
            guide_audio=_rel_path(guide, "guide_audio") if guide else None,
            language=_get(data, "language", str, "project", ""),
        )
        project.characters = [
            character_from_dict(c, f"characters[{i}]")
            for i, c in enumerate(_get(data, "characters", list, "project", []))
        ]
        raw_lines = _get(data, "lines", list, "project", [])
        lines = [line_from_dict(item, f"lines[{i}]") for i, item in enumerate(raw_lines)]
        # Honour hand-edited "order" values; ties keep file order.
        orders = [item.get("order", i + 1) if isinstance(item, dict) else i + 1 for i, item in enumerate(raw_lines)]
        keyed = sorted(range(len(lines)), key=lambda i: (orders[i] if isinstance(orders[i], (int, float)) else i + 1, i))
        project.lines = [lines[i] for i in keyed]
        project._check_integrity()
        return project

    def _check_integrity(self) -> None:
        char_ids = [c.id for c in self.characters]
        if len(set(char_ids)) != len(char_ids):
            raise ProjectFileError("two characters share an id")
        line_ids = [line.id for line in self.lines]
        if len(set(line_ids)) != len(line_ids):
            raise ProjectFileError("two lines share an id")
        known = set(char_ids)
        for n, line in enumerate(self.lines, 1):
            if line.character_id is not None and line.character_id not in known:
                raise ProjectFileError(f"line {n} ({line.id}) names unknown character {line.character_id!r}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": CURRENT_SCHEMA,
            "app": "DubStudio",
            "title": self.title,
            "settings": settings_to_dict(self.settings),
            "video": None if self.video is None else video_to_dict(self.video),
            "guide_audio": self.guide_audio,
            "language": self.language,
            "characters": [character_to_dict(c) for c in self.characters],
            "lines": [line_to_dict(line, n) for n, line in enumerate(self.lines, 1)],
        }

    def save(self) -> None:
        """Write project.json atomically; on any failure the previous file stays as it was.

        Serialisation happens before the file system is touched, so a value JSON cannot hold
        fails without side effects. The first save after a migration keeps the old file as
        ``project.v<N>.json.bak``.
        """
        try:
            blob = (json.dumps(self.to_dict(), indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode()
        except (TypeError, ValueError) as error:  # a value JSON cannot hold (NaN, an object...)
            raise SaveError(f"cannot save {self.project_file}: {error}") from error
        if self.migrated_from is not None and self.project_file.exists():
            backup = self.root / f"project.v{self.migrated_from}.json.bak"
            if not os.path.lexists(backup):
                try:
                    old = files.read_regular_file(self.project_file)
                except files.FileError as error:
                    raise SaveError(f"cannot keep a backup of {self.project_file}: {error.message}") from error
                atomic_write_bytes(backup, old, inside=self.root)
        atomic_write_bytes(self.project_file, blob, inside=self.root)
        self.migrated_from = None

    def ensure_folders(self) -> None:
        """Make the project's folders; each must resolve inside the project (PathEscapeError)."""
        for folder in (self.voices_dir, self.takes_dir, self.exports_dir):
            ensure_dir(folder, inside=self.root)

    # -- look-ups --

    def character(self, character_id: str) -> Character:
        for char in self.characters:
            if char.id == character_id:
                return char
        raise UnknownIdError(f"no character with id {character_id!r}")

    def character_by_name(self, name: str) -> Character | None:
        """Case-insensitive match on the name, as importers and the CLI need it."""
        folded = name.strip().casefold()
        return next((c for c in self.characters if c.name.strip().casefold() == folded), None)

    def line(self, line_id: str) -> Line:
        for line in self.lines:
            if line.id == line_id:
                return line
        raise UnknownIdError(f"no line with id {line_id!r}")

    def index_of(self, line_id: str) -> int:
        """0-based position of a line in the script."""
        for n, line in enumerate(self.lines):
            if line.id == line_id:
                return n
        raise UnknownIdError(f"no line with id {line_id!r}")

    def order_of(self, line_id: str) -> int:
        """1-based order number shown in the table and used in export file names."""
        return self.index_of(line_id) + 1

    def lines_of(self, character_id: str) -> list[Line]:
        return [line for line in self.lines if line.character_id == character_id]

    def next_colour(self) -> str:
        """The first palette colour no character uses yet (cycles when all are taken)."""
        used = {c.colour.lower() for c in self.characters}
        return next((c for c in PALETTE if c not in used), PALETTE[len(self.characters) % len(PALETTE)])

    def make_character(self, name: str, **fields: Any) -> Character:
        """A new Character with a fresh id and colour; not added (push AddCharacter for that)."""
        name = name.strip()
        if not name:
            raise InvalidValueError("a character needs a name")
        fields.setdefault("colour", self.next_colour())
        return Character(id=new_id(), name=name, **fields)

    # -- clips, takes, status --

    def clip_path(self, character: Character) -> Path | None:
        """Absolute path of the character's reference clip, or None when it has none."""
        return self.resolve(character.clip) if character.clip else None

    def take(self, line: Line, take_id: str) -> Take:
        for take in line.takes:
            if take.id == take_id:
                return take
        raise UnknownIdError(f"line {line.id} has no take {take_id!r}")

    def chosen_take(self, line: Line) -> Take | None:
        if line.chosen_take is None:
            return None
        return next((t for t in line.takes if t.id == line.chosen_take), None)

    def take_path(self, take: Take) -> Path:
        return self.resolve(take.path)

    def duration(self, line: Line) -> float | None:
        """Seconds of the chosen take, or None before the line has one."""
        take = self.chosen_take(line)
        return take.duration_s if take else None

    def fingerprint(self, line: Line, backend: str | None = None) -> str | None:
        """The fingerprint a take rendered now would carry; None if the line cannot render.

        ``backend`` defaults to the project's; the render session passes the engine's actual
        backend so takes record what truly produced them.
        """
        if line.character_id is None:
            return None
        try:
            char = self.character(line.character_id)
            clip = self.clip_path(char)
            if clip is None:
                return None
            digest = file_digest(clip)
        except (OSError, UnknownIdError):
            return None
        return render_fingerprint(line.text, char, digest, backend or self.settings.backend, self.delivery(line))

    def status(self, line: Line) -> LineStatus:
        """The status to show: the last render outcome, or STALE when inputs changed since."""
        if line.status in TRANSIENT_STATUSES or line.status is LineStatus.FAILED:
            return line.status
        take = self.chosen_take(line)
        if take is None:
            return LineStatus.NOT_RENDERED
        return LineStatus.DONE if take.fingerprint == self.fingerprint(line) else LineStatus.STALE

    def delivery(self, line: Line) -> VoiceSettings:
        """How the line is spoken: its character's settings, with the line's own speed and
        instruction over them where it has them (raises UnknownIdError without a character)."""
        if line.character_id is None:
            raise UnknownIdError(f"line {self.order_of(line.id)} has no character")
        own = self.character(line.character_id).settings
        return replace(own, speed=own.speed if line.speed is None else line.speed,
                       instruction=own.instruction if line.instruction is None else line.instruction)

    def wants_fit(self, line: Line) -> bool:
        """Whether this line's takes are fitted into its slot (its own choice, else the default)."""
        return self.settings.fit_default if line.fit is None else line.fit

    def lines_needing_render(self) -> list[Line]:
        """Lines a "render stale" pass should do: stale, never rendered, or failed."""
        wanted = {LineStatus.STALE, LineStatus.NOT_RENDERED, LineStatus.FAILED}
        return [line for line in self.lines if self.status(line) in wanted]

    def lines_by_ids(self, ids: Iterable[str]) -> list[Line]:
        """Lines with these ids, in script order; unknown ids raise UnknownIdError."""
        wanted = set(ids)
        found = [line for line in self.lines if line.id in wanted]
        missing = wanted - {line.id for line in found}
        if missing:
            raise UnknownIdError(f"no lines with ids {sorted(missing)}")
        return found

    def add_take(self, line: Line, take: Take, choose: bool = True) -> None:
        """Record a finished take (render results are not undoable edits)."""
        check_relative(take.path)
        line.takes.append(take)
        if choose:
            line.chosen_take = take.id


__all__ = [
    "CACHE_DIR",
    "EXPORTS_DIR",
    "GUIDE_MIXES",
    "LOUDNESS_PRESETS",
    "MEDIA_DIR",
    "PALETTE",
    "PROJECT_FILE",
    "TAKES_DIR",
    "VOICES_DIR",
    "AudioStreamInfo",
    "Character",
    "Fit",
    "Line",
    "LineStatus",
    "Project",
    "ProjectSettings",
    "SubtitleStreamInfo",
    "Take",
    "VideoInfo",
    "file_digest",
    "new_id",
    "now_iso",
    "render_fingerprint",
]

"""The studio's settings: each declared once, typed, with its default, stored with QSettings.

An :class:`Option` is a descriptor on :class:`Settings`, so ``settings.slots`` reads an int and
``settings.slots = 2`` writes one; nothing else in the studio spells a QSettings key. Values
are converted on the way out because QSettings' INI backend hands everything back as strings
(and a one-element list as a bare string), so a stored value that no longer parses falls back
to the default instead of crashing the studio.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from PySide6.QtCore import QSettings

from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.language import LANGUAGE_CODES, SYSTEM
from engine.core.files import atomic_write_text
from engine.core.numbers import Range
from engine.core.protocol import DEFAULT_BACKEND, SLOTS
from engine.hearing.whisper import DEFAULT_MODEL as DEFAULT_RECOGNISER_MODEL
from engine.synthesis.backends import DESCRIPTORS, descriptor
from engine.synthesis.client.remote import RemoteConfig

if TYPE_CHECKING:
    from engine.synthesis.config import EngineConfig

T = TypeVar("T")

APP_NAME = "DubStudio"
ORG_NAME = "DubStudio"
SCHEMA_VERSION = 2  # 2: the interpreter is kept per backend (engine/pythons), options per backend
MAX_RECENT = 10
# The slots the studio asks its engine for; 0 leaves them to the engine (EngineConfig.slots None).
ENGINE_SLOTS = dataclasses.replace(SLOTS, low=0, hint="(0 = automatic)")
# At most an hour: autosave exists so that a crash loses minutes, not a session.
AUTOSAVE_S = Range("autosave_s", 0, 3600, whole=True, unit="s", hint="(0 = off)")
ENGINE_LOCATIONS = ("local", "server")  # this computer, or a DubStudio server (docs/serving.md)
TOKEN_FILE = "server-token"  # beside the settings file, owner-only: the server's bearer token


def _to_str_list(value: object) -> list[str]:
    # Stored as JSON text: QSettings' own list handling differs between backends.
    parsed = (json.loads(value) if value else []) if isinstance(value, str) else value
    if not isinstance(parsed, list) or not all(isinstance(x, str) for x in parsed):
        raise ValueError(f"expected a list of strings, got {value!r}")
    return parsed


def _from_str_list(value: list[str]) -> str:
    return json.dumps(list(value))


def _to_str_dict(value: object) -> dict[str, str]:
    parsed = json.loads(value) if isinstance(value, str) else value
    if not isinstance(parsed, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in parsed.items()):
        raise ValueError(f"expected an object of strings, got {value!r}")
    return dict(parsed)


def _from_str_dict(value: dict[str, str]) -> str:
    return json.dumps(dict(value), sort_keys=True)


def _to_recogniser_model(value: object) -> str:
    """A Whisper model's name, or a model folder (checked when it is used, not here)."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"expected a Whisper model name or folder, got {value!r}")
    return value.strip()


def _to_json_object(value: object) -> dict[str, Any]:
    """A JSON object stored as text (per-backend options and interpreters)."""
    parsed = json.loads(value) if isinstance(value, str) else value
    if not isinstance(parsed, dict) or not all(isinstance(key, str) for key in parsed):
        raise ValueError(f"expected a JSON object, got {value!r}")
    return parsed


def _from_json_object(value: dict[str, Any]) -> str:
    return json.dumps(value, sort_keys=True)


class Option(Generic[T]):
    """One setting: its QSettings key, default, a title for the dialog (marked with
    QT_TRANSLATE_NOOP in the "Settings" context, translated where shown), its converters and
    what it takes: a number in its ``range``, or one of ``choices``. The dialog builds its
    widgets from these; a stored value outside them reads as the default, and setting one raises
    ValueError saying what the option takes (a RangeError, the range's own refusal, for a number)."""

    def __init__(
        self,
        key: str,
        default: T,
        title: str,
        convert: Callable[[Any], T],
        store: Callable[[T], object] = lambda v: v,
        *,
        range: Range | None = None,
        choices: Sequence[str] = (),
    ) -> None:
        self.key = key
        self.default = default
        self.title = title
        self.convert = convert
        self.store = store
        self.range = range
        self.choices = tuple(choices)
        self.check(default)  # a declaration that breaks its own limits fails at import

    def check(self, value: T) -> T:
        """``value`` when it is within the option's limits; ValueError naming it otherwise."""
        if self.choices and value not in self.choices:
            raise ValueError(f"{self.title}: expected one of {', '.join(self.choices)}, got {value!r}")
        if self.range is not None:
            self.range.check(value)
        return value

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type) -> Option[T]: ...
    @overload
    def __get__(self, obj: Settings, owner: type) -> T: ...
    def __get__(self, obj: Settings | None, owner: type) -> Option[T] | T:
        if obj is None:
            return self
        return obj.get(self)

    def __set__(self, obj: Settings, value: T) -> None:
        obj.set(self, value)


class Settings:
    """Typed access to the studio's QSettings; pass a QSettings to isolate (tests do)."""

    engine_location = Option("engine/location", "local", QT_TRANSLATE_NOOP("Settings", "Engine"), str, choices=ENGINE_LOCATIONS)
    server_url = Option("engine/server_url", "", QT_TRANSLATE_NOOP("Settings", "Server URL"), str)
    engine_backend = Option("engine/backend", DEFAULT_BACKEND, QT_TRANSLATE_NOOP("Settings", "Speech backend"), str, choices=tuple(DESCRIPTORS))
    engine_slots = Option("engine/slots", 0, QT_TRANSLATE_NOOP("Settings", "Parallel jobs (0 = automatic)"), int, range=ENGINE_SLOTS)
    # Backend name -> its options ({"cosyvoice2": {"model_dir": ..., "fp16": true}}): each
    # backend keeps its own, so switching back and forth loses nothing.
    backend_options: Option[dict[str, Any]] = Option(
        "engine/backend_options", {}, QT_TRANSLATE_NOOP("Settings", "Backend options"), _to_json_object, _from_json_object)
    # Backend name -> interpreter; absent: the backend's own environment (or this interpreter).
    engine_pythons: Option[dict[str, Any]] = Option(
        "engine/pythons", {}, QT_TRANSLATE_NOOP("Settings", "Interpreter that runs the engine (empty = the backend's environment)"),
        _to_json_object, _from_json_object)
    # Backends whose use notice (a non-commercial voice's) the user accepted: asked once each.
    accepted_notices: Option[list[str]] = Option("engine/accepted_notices", [], QT_TRANSLATE_NOOP("Settings", "Use notices accepted"),
                                                 _to_str_list, _from_str_list)
    cache_dir = Option("engine/cache_dir", "", QT_TRANSLATE_NOOP("Settings", "Voice cache folder (empty = default)"), str)
    output_device = Option("audio/output_device", "", QT_TRANSLATE_NOOP("Settings", "Audio output device (empty = system default)"), str)
    autosave_s = Option("project/autosave_s", 60, QT_TRANSLATE_NOOP("Settings", "Autosave every (0 = off)"), int, range=AUTOSAVE_S)
    recogniser_model = Option("qa/recogniser_model", DEFAULT_RECOGNISER_MODEL,
                              QT_TRANSLATE_NOOP("Settings", "Recogniser (take QA, transcripts by ear)"), _to_recogniser_model)
    recent_projects: Option[list[str]] = Option("project/recent", [], QT_TRANSLATE_NOOP("Settings", "Recent projects"), _to_str_list, _from_str_list)
    last_folders: Option[dict[str, str]] = Option("dialogs/last_folders", {}, QT_TRANSLATE_NOOP("Settings", "Last folder of each kind of file dialog"),
                                                  _to_str_dict, _from_str_dict)
    # The interface's language: "system" follows the system locale; read once, at start-up.
    language = Option("general/language", SYSTEM, QT_TRANSLATE_NOOP("Settings", "Language"), str, choices=LANGUAGE_CODES)
    window_geometry = Option("window/geometry", "", QT_TRANSLATE_NOOP("Settings", "Main window geometry (base64)"), str)

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self._q = qsettings if qsettings is not None else QSettings(
            QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORG_NAME, APP_NAME
        )
        self._migrate()

    def _migrate(self) -> None:
        """Bring a settings file from an older schema up to date (nothing is dropped)."""
        stored = self._q.value("meta/schema")
        if stored is not None and str(stored) == "1":
            # Schema 1 had one interpreter for whichever backend was chosen.
            python = self._q.value("engine/python")
            if python:
                self.engine_pythons = {**self.engine_pythons, self.engine_backend: str(python)}
            self._q.remove("engine/python")
        self._q.setValue("meta/schema", SCHEMA_VERSION)

    @classmethod
    def options(cls) -> list[Option[Any]]:
        """Every declared option, in declaration order."""
        return [v for v in vars(cls).values() if isinstance(v, Option)]

    @property
    def file_name(self) -> str:
        return self._q.fileName()

    def get(self, option: Option[T]) -> T:
        raw = self._q.value(option.key)
        if raw is None:
            return copy.deepcopy(option.default)  # a caller may change what it gets
        try:
            return option.check(option.convert(raw))
        except (ValueError, TypeError):
            return option.default

    def set(self, option: Option[T], value: T) -> None:
        self._q.setValue(option.key, option.store(option.check(option.convert(value))))

    def reset(self, option: Option[Any]) -> None:
        self._q.remove(option.key)

    def sync(self) -> None:
        self._q.sync()

    # --- derived values ------------------------------------------------------------------

    def add_recent(self, project_dir: str | os.PathLike[str]) -> None:
        """Put a project first in the recent list (deduplicated, capped)."""
        path = str(Path(project_dir).resolve())
        recent = [p for p in self.recent_projects if p != path]
        self.recent_projects = [path, *recent][:MAX_RECENT]

    def existing_recent(self) -> list[str]:
        """Recent projects whose folder still exists (moved or deleted ones are skipped)."""
        return [p for p in self.recent_projects if Path(p).is_dir()]

    @property
    def token_file(self) -> Path:
        return Path(self.file_name).parent / TOKEN_FILE

    def server_token(self) -> str:
        """The server's bearer token ("" when none was given); kept out of the settings file."""
        try:
            return self.token_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return ""

    def set_server_token(self, token: str) -> None:
        """Keep the token in a file only its owner can read (created so before anything is in it)."""
        path = self.token_file
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        atomic_write_text(path, token.strip())  # the one writer; it keeps the file's owner-only mode

    def server(self) -> RemoteConfig | None:
        """The server the studio's engine runs on, or None for this computer (an empty or bad URL
        is the engine start's error to report, never a silent fallback to this computer)."""
        if self.engine_location != "server":
            return None
        return RemoteConfig(self.server_url, token=self.server_token() or None, backend=self.engine_backend)

    def options_for(self, backend: str) -> dict[str, Any]:
        """The stored options of ``backend`` (unchecked; see engine_config)."""
        stored = self.backend_options.get(backend, {})
        return dict(stored) if isinstance(stored, dict) else {}

    def python_for(self, backend: str) -> str:
        """The interpreter stored for ``backend``, "" for its default."""
        return str(self.engine_pythons.get(backend, "") or "")

    def engine_config(self) -> EngineConfig:
        """The engine the settings describe, its options checked against the backend's
        descriptor. Raises EngineError (E_BAD_OPTION naming the option, E_ENGINE_START for a
        missing environment) with a message saying what to set up."""
        from engine.synthesis.config import EngineConfig

        spec = descriptor(self.engine_backend)
        options = spec.validate(self.options_for(spec.name))
        return EngineConfig(
            backend=spec.name,
            backend_options=options,
            slots=self.engine_slots or None,
            python=spec.engine_python(self.python_for(spec.name) or None),
            cache_dir=self.cache_dir or None,
        )

    def effective_cache_dir(self) -> Path:
        """The voice cache folder the engine uses: the setting, or the per-user default."""
        if self.cache_dir:
            return Path(self.cache_dir)
        from engine.synthesis.voices import (
            default_cache_dir,  # the engine's own rule, not a copy of it
        )

        return default_cache_dir()


def cache_size(path: Path) -> int:
    """Bytes of the voice cache's own files in ``path`` (0 when it does not exist).

    Only what the cache wrote counts (and is cleared): the folder is a setting and may be one
    of the user's, holding other files.
    """
    from engine.synthesis.voices import (
        cache_files,  # the engine's own names, not a copy of them
    )

    total = 0
    for file in cache_files(path):
        try:
            total += file.stat().st_size
        except OSError:
            continue  # removed while we looked
    return total


def human_size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    size = n / 1024
    for unit in ("KB", "MB"):
        if size < 1024:
            return f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"

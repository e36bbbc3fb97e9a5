"""Errors of the project layer, each with a stable code.

The studio shows ``str(error)`` to users and the CLI prints it, so every message says what
went wrong and where (file and line number when there is one). Codes are stable strings that
tests and scripts can match on without parsing prose.
"""

from __future__ import annotations

import enum
from pathlib import Path

from engine.files import FileErrorCode
from engine.hearing import HearingErrorCode
from engine.protocol import ErrorCode


class ProjectErrorCode(str, enum.Enum):
    """Why a project operation failed. The value is stable and shown to users."""

    NOT_A_PROJECT = "E_NOT_A_PROJECT"
    BAD_PROJECT_FILE = "E_BAD_PROJECT_FILE"
    SCHEMA_TOO_NEW = "E_SCHEMA_TOO_NEW"
    MIGRATION = "E_MIGRATION"
    # The shared file writer's codes (engine.files), so a failed write keeps its exact code.
    PATH_ESCAPE = FileErrorCode.PATH_ESCAPE.value
    SAVE_FAILED = FileErrorCode.SAVE_FAILED.value
    NOT_REGULAR_FILE = FileErrorCode.NOT_REGULAR_FILE.value
    DISK_FULL = FileErrorCode.DISK_FULL.value
    CLIP_IMPORT = "E_CLIP_IMPORT"
    IMPORT_FORMAT = "E_IMPORT_FORMAT"
    IMPORT_ENCODING = "E_IMPORT_ENCODING"
    UNKNOWN_ID = "E_UNKNOWN_ID"
    INVALID_VALUE = "E_INVALID_VALUE"
    EXPORT = "E_EXPORT"
    RENDER = "E_RENDER"
    VIDEO_UNREADABLE = "E_VIDEO_UNREADABLE"
    NO_VIDEO_STREAM = "E_NO_VIDEO_STREAM"
    NO_AUDIO_STREAM = "E_NO_AUDIO_STREAM"
    SUBTITLE_STREAM = "E_SUBTITLE_STREAM"
    CANCELLED = "E_CANCELLED"
    BAD_ID = "E_BAD_ID"  # an id that could not safely be part of a file name
    TIME_RANGE = "E_TIME_RANGE"  # a time that is negative, not a number, beyond 24 h, or a line's end before its start
    PROJECT_LOCKED = "E_PROJECT_LOCKED"  # another DubStudio process holds the project
    # Transcribing the video's dialogue (engine.hearing), with the hearing layer's own codes.
    AUDIO_UNREADABLE = HearingErrorCode.AUDIO_UNREADABLE.value
    NO_SPEECH = HearingErrorCode.NO_SPEECH.value
    UNKNOWN_LANGUAGE = HearingErrorCode.UNKNOWN_LANGUAGE.value
    BAD_SPEAKER_COUNT = HearingErrorCode.BAD_SPEAKER_COUNT.value
    TRANSLATION_TARGET = HearingErrorCode.TRANSLATION_TARGET.value
    WHISPER_MODEL_MISSING = ErrorCode.WHISPER_MODEL_MISSING.value
    SCRIPT_NOT_EMPTY = "E_SCRIPT_NOT_EMPTY"  # transcribing over lines without --replace


class ProjectError(Exception):
    """Base of every error this package raises on purpose."""

    default_code = ProjectErrorCode.BAD_PROJECT_FILE

    def __init__(self, message: str, code: ProjectErrorCode | None = None) -> None:
        self.code = code or self.default_code
        self.message = message
        super().__init__(f"{self.code.value}: {message}")


class ProjectFileError(ProjectError):
    """``project.json`` is missing, unreadable, not JSON, or does not describe a project."""


class SchemaTooNewError(ProjectFileError):
    """The file was written by a newer DubStudio; opening it could lose data, so we refuse."""

    default_code = ProjectErrorCode.SCHEMA_TOO_NEW


class MigrationError(ProjectFileError):
    """An older file could not be brought up to the current schema."""

    default_code = ProjectErrorCode.MIGRATION


class PathEscapeError(ProjectError):
    """A path stored in a project points outside its folder (or is absolute)."""

    default_code = ProjectErrorCode.PATH_ESCAPE


class SaveError(ProjectError):
    """Writing failed; the previous file on disk is untouched.

    The code says why: E_SAVE_FAILED, or E_DISK_FULL / E_NOT_REGULAR_FILE from the writer.
    """

    default_code = ProjectErrorCode.SAVE_FAILED


class ClipImportError(ProjectError):
    """A reference clip could not be read or copied into ``voices/``."""

    default_code = ProjectErrorCode.CLIP_IMPORT


class UnknownIdError(ProjectError, KeyError):
    """An edit named a line, character or take the project does not have."""

    default_code = ProjectErrorCode.UNKNOWN_ID

    def __str__(self) -> str:  # KeyError would repr() the message
        return Exception.__str__(self)


class InvalidValueError(ProjectError, ValueError):
    """An edit would store a value the model cannot hold (negative time, empty name...)."""

    default_code = ProjectErrorCode.INVALID_VALUE


class ImportFormatError(ProjectError):
    """A script file (SRT, CSV/TSV, plain) is malformed; ``line_no`` is 1-based."""

    default_code = ProjectErrorCode.IMPORT_FORMAT

    def __init__(
        self,
        message: str,
        *,
        line_no: int | None = None,
        source: str | Path | None = None,
        code: ProjectErrorCode | None = None,
    ) -> None:
        self.line_no = line_no
        self.source = str(source) if source is not None else None
        where = self.source or "input"
        if line_no is not None:
            where = f"{where}, line {line_no}"
        super().__init__(f"{where}: {message}", code)


class ExportError(ProjectError):
    """An export could not be produced (nothing rendered, unwritable folder...)."""

    default_code = ProjectErrorCode.EXPORT


class ProjectLockedError(ProjectError):
    """Another process (studio or render) has the project open for writing; ``holder`` says who."""

    default_code = ProjectErrorCode.PROJECT_LOCKED

    def __init__(self, message: str, holder: str = "") -> None:
        self.holder = holder
        super().__init__(message)


class RenderError(ProjectError):
    """Rendering could not start (nothing selected, engine missing...)."""

    default_code = ProjectErrorCode.RENDER


class MediaError(ProjectError):
    """A video, its audio or its subtitles could not be read or written (see ``code``)."""

    default_code = ProjectErrorCode.VIDEO_UNREADABLE


class OperationCancelled(ProjectError):
    """The user cancelled a long operation (an export, an extraction); nothing was written."""

    default_code = ProjectErrorCode.CANCELLED


class TranscriptionError(ProjectError):
    """The video's dialogue could not be transcribed (no audio, no speech, a bad option...)."""

    default_code = ProjectErrorCode.NO_SPEECH

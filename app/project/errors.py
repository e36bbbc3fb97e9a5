"""Errors of the project layer, each with a stable code.

The studio shows ``str(error)`` to users and the CLI prints it, so every message says what
went wrong and where (file and line number when there is one). The codes are engine.core.codes'
ErrorCode, the one table the engine and the commands read too: stable strings that tests and
scripts can match on without parsing prose.
"""

from __future__ import annotations

from pathlib import Path

from app.project import phrases
from app.project.phrases import Phrase
from engine.core.codes import ErrorCode
from engine.core.phrases import CODED


class ProjectError(Exception):
    """Base of every error this package raises on purpose."""

    default_code = ErrorCode.BAD_PROJECT_FILE

    def __init__(self, message: str, code: ErrorCode | None = None) -> None:
        self.code = code or self.default_code
        self.message = message
        super().__init__(f"{self.code.value}: {message}")

    def __str__(self) -> str:
        """``"CODE: message"``; a coded phrase when the message is a phrase (as EngineError's), so
        the studio says the detail in its language."""
        if isinstance(self.message, Phrase):
            return Phrase(CODED, code=self.code.value, detail=self.message)
        return super().__str__()


class ProjectFileError(ProjectError):
    """``project.json`` is missing, unreadable, not JSON, or does not describe a project."""


class SchemaTooNewError(ProjectFileError):
    """The file was written by a newer DubStudio; opening it could lose data, so we refuse."""

    default_code = ErrorCode.SCHEMA_TOO_NEW


class MigrationError(ProjectFileError):
    """An older file could not be brought up to the current schema."""

    default_code = ErrorCode.MIGRATION


class PathEscapeError(ProjectError):
    """A path stored in a project points outside its folder (or is absolute)."""

    default_code = ErrorCode.PATH_ESCAPE


class SaveError(ProjectError):
    """Writing failed; the previous file on disk is untouched.

    The code says why: E_SAVE_FAILED, or E_DISK_FULL / E_NOT_REGULAR_FILE from the writer.
    """

    default_code = ErrorCode.SAVE_FAILED


class ClipImportError(ProjectError):
    """A reference clip could not be read or copied into ``voices/``."""

    default_code = ErrorCode.CLIP_IMPORT


class UnknownIdError(ProjectError, KeyError):
    """An edit named a line, character or take the project does not have."""

    default_code = ErrorCode.UNKNOWN_ID

    def __str__(self) -> str:  # KeyError would repr() the message; a phrase stays a coded phrase
        return ProjectError.__str__(self) if isinstance(self.message, Phrase) else Exception.__str__(self)


class InvalidValueError(ProjectError, ValueError):
    """An edit would store a value the model cannot hold (negative time, empty name...)."""

    default_code = ErrorCode.INVALID_VALUE


class ImportFormatError(ProjectError):
    """A script file (SRT, CSV/TSV, plain) is malformed; ``line_no`` is 1-based."""

    default_code = ErrorCode.IMPORT_FORMAT

    def __init__(
        self,
        message: str,
        *,
        line_no: int | None = None,
        source: str | Path | None = None,
        code: ErrorCode | None = None,
    ) -> None:
        self.line_no = line_no
        self.source = str(source) if source is not None else None
        where = self.source or Phrase(phrases.INPUT)
        if line_no is not None:
            super().__init__(Phrase(phrases.AT_LINE, where=where, line=line_no, problem=message), code)
        else:
            super().__init__(Phrase(phrases.AT_FILE, where=where, problem=message), code)


class ExportError(ProjectError):
    """An export could not be produced (nothing rendered, unwritable folder...)."""

    default_code = ErrorCode.EXPORT


class ProjectLockedError(ProjectError):
    """Another process (studio or render) has the project open for writing; ``holder`` says who."""

    default_code = ErrorCode.PROJECT_LOCKED

    def __init__(self, message: str, holder: str = "") -> None:
        self.holder = holder
        super().__init__(message)


class RenderError(ProjectError):
    """Rendering could not start (nothing selected, engine missing...)."""

    default_code = ErrorCode.RENDER


class MediaError(ProjectError):
    """A video, its audio or its subtitles could not be read or written (see ``code``)."""

    default_code = ErrorCode.VIDEO_UNREADABLE


class OperationCancelled(ProjectError):
    """The user cancelled a long operation (an export, an extraction); nothing was written."""

    default_code = ErrorCode.CANCELLED


class TranscriptionError(ProjectError):
    """The video's dialogue could not be transcribed (no audio, no speech, a bad option...)."""

    default_code = ErrorCode.NO_SPEECH


class CastLibraryError(ProjectError):
    """A cast library is missing, damaged, too new (E_CAST_TOO_NEW) or held by another writer (E_CAST_LOCKED)."""

    default_code = ErrorCode.CAST_LIBRARY

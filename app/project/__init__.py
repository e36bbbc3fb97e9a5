"""DubStudio's project layer: model, undo, script import/export, rendering and audio export.

Qt-free on purpose: the studio (app/ui) and the headless ``dubstudio render`` command use the
same code. Import from here rather than from the submodules; the names below are the API the
UI builds on.
"""

from app.project.errors import (
    ClipImportError,
    ExportError,
    ImportFormatError,
    InvalidValueError,
    MigrationError,
    PathEscapeError,
    ProjectError,
    ProjectErrorCode,
    ProjectFileError,
    RenderError,
    SaveError,
    SchemaTooNewError,
    UnknownIdError,
)
from app.project.model import (
    Character,
    CharacterSettings,
    Line,
    LineStatus,
    Project,
    ProjectSettings,
    Take,
    render_fingerprint,
)
from app.project.migrations import CURRENT_SCHEMA, MIGRATIONS
from app.project.undo import (
    AddCharacter,
    AddLines,
    AssignCharacter,
    Change,
    ChooseTake,
    Command,
    CommandStack,
    EditCharacter,
    EditLine,
    EditProject,
    Macro,
    MoveLines,
    RemoveCharacter,
    RemoveLines,
)

__all__ = [
    "CURRENT_SCHEMA",
    "MIGRATIONS",
    "AddCharacter",
    "AddLines",
    "AssignCharacter",
    "Change",
    "Character",
    "CharacterSettings",
    "ChooseTake",
    "ClipImportError",
    "Command",
    "CommandStack",
    "EditCharacter",
    "EditLine",
    "EditProject",
    "ExportError",
    "ImportFormatError",
    "InvalidValueError",
    "Line",
    "LineStatus",
    "Macro",
    "MigrationError",
    "MoveLines",
    "PathEscapeError",
    "Project",
    "ProjectError",
    "ProjectErrorCode",
    "ProjectFileError",
    "ProjectSettings",
    "RemoveCharacter",
    "RemoveLines",
    "RenderError",
    "SaveError",
    "SchemaTooNewError",
    "Take",
    "UnknownIdError",
    "render_fingerprint",
]

"""A project: its folder, the parts it holds (:mod:`app.project.model`), and what the studio and
the commands ask of it.

``Project.load`` reads project.json through :mod:`app.project.codec`, upgrading an older schema
in memory (:mod:`app.project.migrations`); ``Project.save`` writes it back through the codec.
Line order is the order of :attr:`Project.lines`; ``order`` in the file and
:meth:`Project.order_of` are derived from it (1-based) so the two can never disagree.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.project import phrases
from app.project.codec import (
    project_fields,
    project_to_dict,
    read_project_json,
    write_project_json,
)
from app.project.errors import InvalidValueError, ProjectFileError, UnknownIdError
from app.project.fsutil import check_relative, ensure_dir, resolve_inside
from app.project.migrations import CURRENT_SCHEMA, migrate
from app.project.model import (
    CACHE_DIR,
    EXPORTS_DIR,
    MEDIA_DIR,
    PALETTE,
    PROJECT_FILE,
    TAKES_DIR,
    TRANSIENT_STATUSES,
    VOICES_DIR,
    Character,
    Line,
    LineStatus,
    ProjectSettings,
    Take,
    VideoInfo,
    name_key,
    new_id,
    render_fingerprint,
    set_language,
    spoken_language,
)
from app.project.phrases import Phrase
from engine.core.audio_io import file_digest
from engine.core.protocol import VoiceSettings
from engine.translation.glossary import GlossaryEntry


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
    target_language: str = ""  # the language the project dubs into; "" = the original's (no translation)
    glossary: list[GlossaryEntry] = field(default_factory=list)  # names and terms every translation keeps
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

    @property
    def has_picture(self) -> bool:
        """Whether the project dubs a video with a picture (not a recording, nor nothing yet)."""
        return self.video is not None and self.video.has_picture

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
            raise ProjectFileError(Phrase(phrases.ALREADY_A_PROJECT, folder=root))
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
        data, version = migrate(read_project_json(root))
        project = cls.from_dict(root, data)
        project.migrated_from = version if version < CURRENT_SCHEMA else None
        return project  # folders are made when first written to: the folder may be read-only

    @classmethod
    def from_dict(cls, root: Path, data: dict[str, Any]) -> Project:
        """Build from a current-schema dict, checking types, ids and references."""
        return cls(root=Path(root), **project_fields(data))

    def to_dict(self) -> dict[str, Any]:
        return project_to_dict(self)

    def save(self) -> None:
        """Write project.json atomically; on any failure the previous file stays as it was.

        The first save after a migration keeps the old file as ``project.v<N>.json.bak``.
        """
        write_project_json(self)
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
        raise UnknownIdError(Phrase(phrases.NO_CHARACTER_WITH_ID, id=repr(character_id)))

    def character_by_name(self, name: str) -> Character | None:
        """The character of that name, case and Chinese script aside (:func:`name_key`), as
        importers and the CLI need it."""
        key = name_key(name)
        return next((c for c in self.characters if name_key(c.name) == key), None)

    def line(self, line_id: str) -> Line:
        for line in self.lines:
            if line.id == line_id:
                return line
        raise UnknownIdError(Phrase(phrases.NO_LINE_WITH_ID, id=repr(line_id)))

    def index_of(self, line_id: str) -> int:
        """0-based position of a line in the script."""
        for n, line in enumerate(self.lines):
            if line.id == line_id:
                return n
        raise UnknownIdError(Phrase(phrases.NO_LINE_WITH_ID, id=repr(line_id)))

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
            raise InvalidValueError(Phrase(phrases.CHARACTER_WITHOUT_NAME))
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
        raise UnknownIdError(Phrase(phrases.NO_SUCH_TAKE, line=line.id, take=repr(take_id)))

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
        """How the line is spoken: its character's settings, with the line's own speed,
        instruction and language over them where it has them (raises UnknownIdError without a
        character). The engine reads the language to choose the voice that speaks the line."""
        if line.character_id is None:
            raise UnknownIdError(Phrase(phrases.LINE_HAS_NO_CHARACTER, order=self.order_of(line.id)))
        own = self.character(line.character_id).settings
        return replace(own, speed=own.speed if line.speed is None else line.speed,
                       instruction=own.instruction if line.instruction is None else line.instruction,
                       language=set_language(line, own.language))

    def character_language(self, line: Line) -> str:
        """The language setting of the line's character ("" for a line without one)."""
        return self.character(line.character_id).settings.language if line.character_id else ""

    def spoken_language(self, line: Line) -> str:
        """The language the line is spoken in (:func:`app.project.model.spoken_language`)."""
        return spoken_language(line, self.character_language(line))

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
            raise UnknownIdError(Phrase(phrases.NO_LINES_WITH_IDS, ids=str(sorted(missing))))
        return found

    def add_take(self, line: Line, take: Take, choose: bool = True) -> None:
        """Record a finished take (render results are not undoable edits)."""
        check_relative(take.path)
        line.takes.append(take)
        if choose:
            line.chosen_take = take.id

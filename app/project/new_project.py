"""A new project from a video: the video, its subtitles as the script, voices, a guide track.

:func:`new_project_from_video` is what ``dubstudio new`` and the studio's "New project from
video" both call, so they cannot drift apart. It creates the folder, brings the video in
(copied into ``media/`` unless it is already inside the folder), imports the subtitles from an
external SRT or from a text subtitle stream of the video (``Name:`` / ``[Name]`` prefixes
create characters), gives characters their reference clips, optionally extracts the original
audio as a guide track, saves, and returns the lines and characters that still cannot be
rendered (:class:`~app.project.readiness.VoiceGaps`), so the caller can say so at once.

Nothing is left half-made: the folder must be new, empty, or hold the video itself (used where
it is). If any step fails, everything this call put there is removed again; a call killed on
the spot (SIGKILL, a power cut) leaves a ``.dubstudio-new`` marker listing what was there before,
and the next ``new`` of that folder removes what the killed one made and starts again. The
folder is resolved once (a symlinked folder works; a link to nowhere is refused) and locked
(``.dubstudio.lock``) while the project is made.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from app.project import phrases
from app.project.clips import import_clip
from app.project.errors import (
    ClipImportError,
    InvalidValueError,
    ProjectError,
    ProjectFileError,
)
from app.project.fsutil import atomic_write_text, ensure_dir
from app.project.lock import ProjectLock
from app.project.media import (
    attach_video,
    extract_guide,
    subtitle_stream_srt,
    with_dialogue_stream,
)
from app.project.model import PROJECT_FILE, name_key
from app.project.phrases import Phrase
from app.project.project import Project
from app.project.readiness import VoiceGaps, voice_gaps
from app.project.script_io import ScriptImport, import_srt, import_subtitles
from app.project.undo import CommandStack
from engine.core import files
from engine.core.reference import transcript_beside

NEW_MARKER = ".dubstudio-new"  # in a project folder while `new` makes it


@dataclass(frozen=True)
class VoiceSource:
    """A reference clip for a character, with its transcript (text, or None for none)."""

    name: str
    clip: Path
    transcript: str | None = None


@dataclass
class NewProject:
    """What :func:`new_project_from_video` made."""

    project: Project
    imported: ScriptImport | None
    gaps: VoiceGaps
    subtitles_from: str = ""  # "file.srt", "stream #2 of video.mkv", or "" when none
    warnings: list[str] = field(default_factory=list)


def read_transcript(path: str | os.PathLike[str]) -> str:
    """A transcript file's text, decoded as forgivingly as scripts are (any common encoding)."""
    try:
        text = files.read_text_file(path)  # a regular file only: a named pipe is refused, not waited on
    except files.FileError as error:
        raise InvalidValueError(Phrase(phrases.TRANSCRIPT_PROBLEM, error=str(error))) from None
    return " ".join(text.split())


def sidecar_transcript(clip: Path) -> str | None:
    """``CLIP.txt`` beside a clip, when there is one (the convention ``say`` also follows)."""
    try:
        return " ".join(transcript_beside(clip).split()) or None
    except files.FileError as error:
        raise InvalidValueError(Phrase(phrases.TRANSCRIPT_PROBLEM, error=str(error))) from None


def new_project_from_video(
    root: str | os.PathLike[str],
    video: str | os.PathLike[str],
    *,
    subtitles: str | os.PathLike[str] | None = None,
    subtitle_stream: int | None = None,
    use_subtitle_stream: bool = True,
    voices: list[VoiceSource] | tuple[VoiceSource, ...] = (),
    guide: bool = False,
    copy_video: bool = True,
    title: str | None = None,
    make_script: Callable[[Project, CommandStack], list[str]] | None = None,
    keep_language: str | None = None,
    dialogue: tuple[int | None, str | None] = (None, None),
    picture: bool = True,
) -> NewProject:
    """Make a project at ``root`` that dubs ``video``; see the module docstring. With ``picture``
    false ``video`` may be a recording with no picture (``dubstudio new --audio``): the project
    dubs its sound, and has no finished video to export.

    ``dialogue`` says which audio track holds the dialogue when the video has several (the
    original and a dub): (stream index, None), or (None, the dialogue's language) for the track
    tagged with it; else the first (:func:`app.project.media.with_dialogue_stream`). The guide,
    the transcription, the M&E and the export's original audio all come from it.

    Bilingual subtitles (each cue in two languages) keep the rows in ``keep_language`` as the
    script and the others as each line's original; without it every line holds both, with a warning.

    ``make_script`` makes the script another way (the transcription of the video's dialogue):
    it runs once the video and guide are in, before the voices are given, and returns warnings.

    Subtitles come from ``subtitles`` (an SRT, WebVTT or ASS/SSA file, by its extension) when given, else from ``subtitle_stream``
    (a stream index), else from the video's first text subtitle stream if it has one and
    ``use_subtitle_stream`` is true. A voice for a name no subtitle uses creates that
    character, so voices can be set up before the script exists.
    """
    root = _project_folder(Path(root))
    video = Path(video)
    marker = root / NEW_MARKER
    if os.path.lexists(marker):
        before = _resume(root, marker)  # an interrupted `new`: what it had made goes, the rest stays
    elif os.path.lexists(root / PROJECT_FILE):
        raise ProjectFileError(Phrase(phrases.ALREADY_A_PROJECT, folder=root))
    elif root.is_dir() and any(root.iterdir()) and not _inside(root, video):
        raise ProjectFileError(Phrase(phrases.FOLDER_NOT_EMPTY, folder=root))
    else:
        before = sorted(child.name for child in root.iterdir()) if root.is_dir() else None
    created = before is None
    try:
        ensure_dir(root)
        lock = ProjectLock.acquire(root, "dubstudio new")
    except ProjectError:
        if created:
            _remove_made(root, [], created)
        raise
    try:
        # Written first and removed last: a `new` killed in between (even by SIGKILL) leaves
        # this marker, and the next `new` of the folder removes what that one made and resumes.
        atomic_write_text(marker, json.dumps({"before": before or [], "created_folder": created}), inside=root)
        made = _build(root, video, subtitles, subtitle_stream, use_subtitle_stream, voices, guide, copy_video, title,
                      make_script, keep_language, dialogue, picture)
        marker.unlink()
    except BaseException:
        lock.release()
        _remove_made(root, before or [], created)
        raise
    lock.release()
    return made


def _project_folder(given: Path) -> Path:
    """The real folder to make the project in, resolved once (through symlinks) and checked
    against from then on; a symlink to nowhere is refused rather than followed."""
    given = given.absolute()
    if os.path.islink(given) and not given.exists():
        raise ProjectFileError(Phrase(phrases.DANGLING_LINK, path=given, target=os.readlink(given)))
    root = given.resolve()
    if root.exists() and not root.is_dir():
        raise ProjectFileError(Phrase(phrases.FILE_NOT_FOLDER, path=root))
    return root


def _inside(root: Path, path: Path) -> bool:
    real = path.absolute().resolve()
    return root in real.parents


def _resume(root: Path, marker: Path) -> list[str] | None:
    """Clear what an interrupted `new` made (it listed what was there before it); returns that list
    (None when the folder itself was its own)."""
    try:
        state = json.loads(files.read_regular_file(marker))
        before = [str(name) for name in state["before"]]
        created = bool(state["created_folder"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ProjectFileError(Phrase(phrases.BROKEN_NEW_MARKER, file=marker, error=str(error))) from None
    _remove_made(root, before, created=False)
    return None if created else before


def _remove_made(root: Path, before: list[str], created: bool) -> None:
    """Remove what `new` put in ``root``: everything not listed in ``before`` (the folder too
    when `new` created it). Links are removed, never followed."""
    if not root.is_dir():
        return
    for child in root.iterdir():
        if child.name in before:
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)
    if created:
        with contextlib.suppress(OSError):
            root.rmdir()


def _build(
    root: Path,
    video: Path,
    subtitles: str | os.PathLike[str] | None,
    subtitle_stream: int | None,
    use_subtitle_stream: bool,
    voices: list[VoiceSource] | tuple[VoiceSource, ...],
    guide: bool,
    copy_video: bool,
    title: str | None,
    make_script: Callable[[Project, CommandStack], list[str]] | None = None,
    keep_language: str | None = None,
    dialogue: tuple[int | None, str | None] = (None, None),
    picture: bool = True,
) -> NewProject:
    names = [name_key(voice.name) for voice in voices]
    if len(set(names)) != len(names):
        raise InvalidValueError(Phrase(phrases.VOICE_GIVEN_TWICE))
    project = Project(root=root, title=title or video.stem)
    # Dubbing to picture: every line has its slot in the video, and a take that runs past it
    # talks over the next line (a transcribed English scene: all 10 Piper takes ran long).
    project.settings.fit_default = True
    project.ensure_folders()
    project.video = with_dialogue_stream(attach_video(project, video, copy=copy_video, picture=picture), *dialogue)
    if guide:
        project.guide_audio = extract_guide(project)
    stack = CommandStack(project)
    imported: ScriptImport | None = None
    source = ""
    if subtitles is not None:
        imported = import_subtitles(subtitles, project)
        source = Path(subtitles).name
    elif subtitle_stream is not None or (use_subtitle_stream and any(s.text for s in project.video.subtitle_streams)):
        video_path = project.video_path()
        assert video_path is not None
        text = subtitle_stream_srt(video_path, subtitle_stream)
        imported = import_srt(text.encode("utf-8"), project)
        chosen = subtitle_stream if subtitle_stream is not None else next(
            s.index for s in project.video.subtitle_streams if s.text)
        source = f"subtitle stream #{chosen} of {video.name}"
    warnings: list[str] = []
    if imported is not None:
        imported.source = source
        languages = imported.languages
        if languages and keep_language in languages:
            imported = imported.keeping(keep_language)
            # The file says which language the video speaks and which the team dubs into: the
            # dub's audio track is tagged with it, and a later bilingual import is not asked again.
            project.target_language = keep_language
            project.language = project.language or next(code for code in languages if code != keep_language)
        elif languages:
            warnings.append(Phrase(phrases.BILINGUAL_SUBTITLES, languages=" / ".join(languages),
                                   given=keep_language or "-"))
        stack.push(imported.command())
        warnings += imported.warnings
    if make_script is not None:
        warnings += make_script(project, stack)
    for voice in voices:
        _give_voice(project, voice)
    project.save()
    return NewProject(project, imported, voice_gaps(project), source, warnings)


def _give_voice(project: Project, voice: VoiceSource) -> None:
    """Set the character's clip (and transcript), creating the character if needed."""
    char = project.character_by_name(voice.name)
    if char is None:
        char = project.make_character(voice.name)
        project.characters.append(char)
    try:
        char.clip = import_clip(project, voice.clip)
    except ProjectError as error:
        raise ClipImportError(Phrase(phrases.VOICE_FOR, name=voice.name, problem=error.message), error.code) from None
    transcript = voice.transcript if voice.transcript is not None else sidecar_transcript(voice.clip)
    char.transcript = transcript or ""

"""Bringing reference clips into a project's ``voices/`` folder.

A clip is copied in (never linked) so the project folder stays self-contained when zipped and
shared. Common audio formats (WAV, FLAC, Ogg, MP3, AIFF) are kept byte for byte; anything else
that can be decoded (AAC in .m4a, Opus in .mka, a video's sound) is converted to 16-bit WAV, so a
project's clips stay in formats every audio tool opens. Both go through :mod:`engine.core.audio_io`.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from app.project import phrases
from app.project.errors import ClipImportError, PathEscapeError
from app.project.fsutil import (
    atomic_write,
    atomic_write_wav,
    ensure_dir,
    relative_to_root,
    safe_filename,
    unique_path,
)
from app.project.model import CACHE_DIR
from app.project.phrases import Phrase
from app.project.project import Project
from engine.core import files
from engine.core.audio_io import AudioError, audio_info, file_digest, read_audio
from engine.core.codes import ErrorCode

KEEP_SUFFIXES = frozenset({".wav", ".flac", ".ogg", ".oga", ".mp3", ".aif", ".aiff"})


def import_clip(project: Project, source: str | os.PathLike[str]) -> str:
    """Copy or convert ``source`` into ``voices/`` and return its project-relative path.

    A file already inside the project folder is used where it is. Raises ClipImportError
    with the reason when the file is missing, empty or not audio.
    """
    source = Path(source).absolute()
    try:
        files.open_regular_file(source).close()  # a pipe or folder is refused at once
    except files.FileError as error:
        raise ClipImportError(Phrase(phrases.CLIP_NOT_FOUND, path=source) if error.code is ErrorCode.READ_FAILED
                              else Phrase(phrases.CLIP_PROBLEM, problem=error.message)) from None
    try:
        return relative_to_root(project.root, source)
    except PathEscapeError:
        pass  # outside the project: copy it in
    voices = ensure_dir(project.voices_dir, inside=project.root)  # a voices/ symlinked out is refused
    stem = safe_filename(source.stem, "clip")
    suffix = source.suffix.lower()
    try:
        keep = suffix in KEEP_SUFFIXES and audio_info(source).frames > 0
        if not keep:
            audio, rate = read_audio(source)
    except (AudioError, OSError) as error:
        why = error.reason if isinstance(error, AudioError) else str(error)
        raise ClipImportError(Phrase(phrases.NOT_AUDIO, file=source.name, error=why)) from error
    if keep:
        target = unique_path(voices, stem, suffix)
        with files.open_regular_file(source) as src:
            atomic_write(target, lambda handle: shutil.copyfileobj(src, handle), inside=project.root)
        return relative_to_root(project.root, target)
    if audio.size == 0:
        raise ClipImportError(Phrase(phrases.HOLDS_NO_AUDIO, file=source.name))
    target = unique_path(voices, stem, ".wav")
    atomic_write_wav(target, audio, rate, inside=project.root)
    return relative_to_root(project.root, target)


def trimmed_clip(project: Project, character_id: str) -> Path | None:
    """The clip the engine should use for a character: the file itself, or a trimmed copy.

    The engine takes whole files, so a trim is applied by writing the trimmed audio once to
    ``.cache/clips/`` under a name derived from the source content and the trim; the engine's
    voice cache keys on content, so re-renders reuse its prepared voice.
    """
    char = project.character(character_id)
    source = project.clip_path(char)
    if source is None:
        return None
    if not char.trimmed:
        return source
    digest = file_digest(source)[:16]
    end = "end" if char.clip_end is None else f"{char.clip_end:.3f}"
    name = f"{safe_filename(char.id, 'character')}_{digest}_{char.clip_start:.3f}_{end}.wav"
    target = project.resolve(f"{CACHE_DIR}/clips/{name}")  # a .cache symlinked out is refused
    if target.is_file():
        return target
    try:
        info = audio_info(source)
        start = int(round(char.clip_start * info.sample_rate))
        stop = None if char.clip_end is None else int(round(char.clip_end * info.sample_rate))
        audio, rate = read_audio(source, start=start, stop=stop)
    except (AudioError, OSError) as error:
        raise ClipImportError(Phrase(phrases.CANNOT_READ_CLIP, file=char.clip, error=str(error))) from error
    if audio.shape[0] == 0:
        raise ClipImportError(Phrase(phrases.EMPTY_TRIM, name=char.name, start=char.clip_start, end=end))
    atomic_write_wav(target, audio, rate, inside=project.root)
    return target

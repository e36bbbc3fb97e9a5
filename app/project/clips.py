"""Bringing reference clips into a project's ``voices/`` folder.

A clip is copied in (never linked) so the project folder stays self-contained when zipped and
shared. Formats libsndfile reads natively are kept byte for byte; anything else that can be
decoded is converted to 16-bit WAV, because the engine decodes clips with libsndfile.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import soundfile as sf

from app.project.errors import ClipImportError, MediaError, PathEscapeError
from app.project.fsutil import (
    atomic_write,
    atomic_write_wav,
    ensure_dir,
    relative_to_root,
    safe_filename,
    unique_path,
)
from app.project.media import decode_audio
from app.project.model import CACHE_DIR, Project, file_digest
from engine import files
from engine.codes import ErrorCode

KEEP_SUFFIXES = frozenset({".wav", ".flac", ".ogg", ".oga", ".mp3", ".aif", ".aiff"})


def _decode_fallback(source: Path) -> tuple[np.ndarray, int]:
    """Decode formats libsndfile cannot (m4a, aac, wma, opus in mp4, ...) through FFmpeg, with
    the decoder a video's guide track goes through (:func:`app.project.media.decode_audio`)."""
    blocks: list[np.ndarray] = []
    try:
        rate, _channels = decode_audio(source, on_block=lambda block: blocks.append(block.mean(axis=1)))
    except MediaError as error:  # its words are a video's: FFmpeg's own reason, which import_clip words
        raise ValueError(getattr(error.__cause__, "strerror", None) or error.message) from error
    return (np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.float32)), rate


def import_clip(project: Project, source: str | os.PathLike[str]) -> str:
    """Copy or convert ``source`` into ``voices/`` and return its project-relative path.

    A file already inside the project folder is used where it is. Raises ClipImportError
    with the reason when the file is missing, empty or not audio.
    """
    source = Path(source).absolute()
    try:
        files.open_regular_file(source).close()  # a pipe or folder is refused at once
    except files.FileError as error:
        raise ClipImportError(f"clip not found: {source}" if error.code is ErrorCode.READ_FAILED
                              else f"clip {error.message}") from None
    try:
        return relative_to_root(project.root, source)
    except PathEscapeError:
        pass  # outside the project: copy it in
    voices = ensure_dir(project.voices_dir, inside=project.root)  # a voices/ symlinked out is refused
    stem = safe_filename(source.stem, "clip")
    suffix = source.suffix.lower()
    try:
        info = files.audio_info(source)
        readable = info.frames > 0 and info.samplerate > 0
    except (sf.LibsndfileError, RuntimeError):
        readable = False
    if readable and suffix in KEEP_SUFFIXES:
        target = unique_path(voices, stem, suffix)
        with files.open_regular_file(source) as src:
            atomic_write(target, lambda handle: shutil.copyfileobj(src, handle), inside=project.root)
        return relative_to_root(project.root, target)
    try:
        if readable:
            audio, rate = files.read_audio(source, dtype="float32", always_2d=True)
            audio = audio.mean(axis=1)
        else:
            audio, rate = _decode_fallback(source)
    except Exception as error:
        why = str(error).strip() or f"{type(error).__name__} (it is not audio this program can read)"
        raise ClipImportError(f"cannot decode {source.name} as audio: {why}") from error
    if audio.size == 0:
        raise ClipImportError(f"{source.name} holds no audio")
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
        info = files.audio_info(source)
        start = int(round(char.clip_start * info.samplerate))
        stop = None if char.clip_end is None else int(round(char.clip_end * info.samplerate))
        audio, rate = files.read_audio(source, start=start, stop=stop, dtype="float32", always_2d=True)
    except (sf.LibsndfileError, RuntimeError, OSError) as error:
        raise ClipImportError(f"cannot read clip {char.clip}: {error}") from error
    if audio.shape[0] == 0:
        raise ClipImportError(f"the trim of {char.name}'s clip ({char.clip_start:.2f} s to {end}) is empty")
    atomic_write_wav(target, audio.mean(axis=1), rate, inside=project.root)
    return target

"""A cast library: the characters of a series, kept in a folder the team shares, so episode 2
is cast from episode 1 by voice instead of by hand.

The folder holds::

    cast.json                 the characters (format, version, encoder id, one entry each)
    clips/<id>.wav            each character's reference clip (trimmed as it was in its project)
    voiceprints/<id>.npy      each character's speaker embeddings, one row per recording (a
                              plain float32 array: read with allow_pickle=False, never code)
    .dubstudio.lock           while someone writes (app.project.lock, as for projects)

Every file is written atomically (the tree's one writer) and cast.json last, so a crash leaves
the library as it was or as it was meant to be. A writer holds the folder's lock from reading
cast.json to writing it (:func:`writing`), so two writers never lose each other's characters:
the second waits up to ``wait_s`` for the first, then fails with E_CAST_LOCKED.

Matching (:func:`match_speakers`) compares a found speaker's clip with each library character's
embeddings (CAM++, the encoder transcription uses; the highest cosine over their recordings).
The thresholds were calibrated on real read speech (LibriSpeech, benchmarks/cast.py,
docs/cast.md): at or over :data:`MATCH_THRESHOLD` a voice is that character; between
:data:`OFFER_THRESHOLD` and it, the character is only offered; under it, a voice is new.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import io
import json
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from app.project import phrases
from app.project.codec import character_from_dict, character_to_dict
from app.project.errors import CastLibraryError, ProjectError, ProjectLockedError
from app.project.fsutil import (
    atomic_write_bytes,
    atomic_write_text,
    atomic_write_wav,
    ensure_dir,
    relative_to_root,
    safe_filename,
    unique_path,
)
from app.project.lock import ProjectLock
from app.project.model import (
    Character,
    default_name_in,
    default_speaker_number,
    name_key,
    new_id,
    said_name,
    same_name,
)
from app.project.phrases import Phrase
from app.project.project import Project
from engine.core import files
from engine.core.audio_io import AudioError, read_audio
from engine.core.codes import ErrorCode

if TYPE_CHECKING:
    from engine.voiceprint.encoder import VoiceEmbedder

LIBRARY_FILE = "cast.json"
FORMAT = "dubstudio-cast-library"
VERSION = 1
CLIPS_DIR = "clips"
VOICEPRINTS_DIR = "voiceprints"
MAX_RECORDINGS = 8  # embeddings kept per character (one per episode it was saved from), newest last
SAME_RECORDING = 0.999  # a clip's embedding this like a stored one is that recording again (no new voiceprint)
# CAM++ cosine of a found speaker's clip to a library character's recording (benchmarks/cast.py,
# docs/cast.md). A person's other recordings scored 0.63-0.93 on LibriSpeech read speech, 0.68 and
# up on film and interview clips, 0.73 and up across one man's speeches; strangers' best of the
# library at most 0.43 on read speech but 0.55 on films (two actresses) and 0.55-0.60 for a few of
# 31,000 LibriSpeech pairs. Sure lies between; an offer covers the band where strangers can be.
# Mandarin (docs/cast.md, *Mandarin voices*) fits the same table: own recordings 0.63 and up,
# strangers at most 0.49, and no voice of one language over 0.29 against the other's library.
MATCH_THRESHOLD = 0.58
OFFER_THRESHOLD = 0.40
OFFERS_FILE = "cast_offers.json"  # in a project's media/: the unsure matches offered to the user
WAIT_S = 30.0  # how long a writer waits for another to finish before E_CAST_LOCKED
_POLL_S = 0.1


@dataclass
class CastMember:
    """One library character: a project character (its clip path relative to the library) and
    its voice's embeddings, one row per recording, from the encoder named ``encoder_id``."""

    character: Character
    voiceprints: np.ndarray  # (recordings, dimensions), unit rows
    encoder_id: str
    added: str = ""
    updated: str = ""
    sources: list[str] = field(default_factory=list)  # the projects it was saved from


@dataclass
class CastLibrary:
    """A cast library folder as read (see the module docstring)."""

    root: Path
    members: list[CastMember] = field(default_factory=list)

    def member(self, name: str) -> CastMember | None:
        """The character called ``name`` (case, surrounding spaces and Chinese script ignored, a
        default name in any language: :func:`same_name`)."""
        return next((m for m in self.members if same_name(m.character.name, name)), None)

    def names_character(self, name: str) -> bool:
        """Whether a project character called ``name`` already is one of the library's characters.
        A default name ("Speaker 1", "说话人 1": :func:`default_speaker_number`) never is: it says
        nothing of whose voice it is, so its character is matched by voice like any unnamed one."""
        return default_speaker_number(name) is None and self.member(name) is not None

    def clip_path(self, member: CastMember) -> Path | None:
        return self.root / member.character.clip if member.character.clip else None


@dataclass(frozen=True)
class CastMatch:
    """How a found speaker (a project character) compares with the library: its best library
    character and the cosine; ``sure`` when at or over MATCH_THRESHOLD, ``offered`` when only
    over OFFER_THRESHOLD."""

    character_id: str
    found_name: str  # as the transcription named it ("Speaker 1")
    member_name: str | None
    score: float
    name_taken: bool = False  # sure, but another character of the project has the member's name: not cast
    renamed: str | None = None  # not cast, its default name given another number: a character cast took it

    @property
    def sure(self) -> bool:
        return self.member_name is not None and self.score >= MATCH_THRESHOLD

    @property
    def offered(self) -> bool:
        return self.member_name is not None and OFFER_THRESHOLD <= self.score < MATCH_THRESHOLD

    @property
    def needs_attention(self) -> bool:
        """Whether the user has something to decide or check (an unsure match, a name taken, a
        voice renumbered): a warning. A sure cast or a new voice is only information."""
        return self.offered or (self.sure and self.name_taken) or (not self.sure and self.renamed is not None)

    def describe(self) -> str:
        """``Ann is Anna from the cast library (voice cosine 0.71, sure)``, ``Anna from the cast library
        speaks here (…)`` for a voice known only by its number, and the like."""
        name = self.found_name
        member = said_name(self.member_name or "")  # a library's default name in the studio's language
        if self.sure and self.name_taken:
            return Phrase(phrases.CAST_NAME_TAKEN, name=name, member=member, score=self.score)
        if self.sure and default_speaker_number(name) is not None:  # "Speaker 6 is Speaker 2" named a voice no one sees
            return Phrase(phrases.CAST_SURE_HEARD, member=member, score=self.score)
        if self.sure:
            return Phrase(phrases.CAST_SURE, name=name, member=member, score=self.score)
        if self.offered:
            return Phrase(phrases.CAST_OFFERED, name=name, member=member, score=self.score,
                          needed=MATCH_THRESHOLD)
        if self.renamed is not None:
            return Phrase(phrases.CAST_RENUMBERED, name=name, score=self.score, renamed=self.renamed)
        return Phrase(phrases.CAST_NEW, name=name, score=self.score)


# -- reading and writing ---------------------------------------------------------------------------


def open_library(root: str | Path) -> CastLibrary:
    """Read the library at ``root``. E_CAST_LIBRARY for a missing folder or file, or a damaged
    one; E_CAST_TOO_NEW for one written by a newer DubStudio."""
    root = Path(root).absolute()
    path = root / LIBRARY_FILE
    if not root.is_dir():
        raise CastLibraryError(Phrase(phrases.NO_CAST_FOLDER_MAKE_ONE, folder=root))
    if not path.exists():
        raise CastLibraryError(Phrase(phrases.NOT_A_CAST_LIBRARY_FOLDER, folder=root, file=LIBRARY_FILE))
    try:
        data = json.loads(files.read_text_file(path))
    except files.FileError as error:
        raise CastLibraryError(Phrase(phrases.AT_FILE, where=path, problem=error.message)) from None
    except ValueError as error:
        raise CastLibraryError(Phrase(phrases.CAST_FILE_DAMAGED, file=path, error=str(error))) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CastLibraryError(Phrase(phrases.NOT_A_CAST_LIBRARY, file=path))
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
        raise CastLibraryError(Phrase(phrases.CAST_BAD_VERSION, file=path, value=repr(version)))
    if version > VERSION:
        raise CastLibraryError(Phrase(phrases.CAST_TOO_NEW, file=path, version=version, readable=VERSION),
                               ErrorCode.CAST_TOO_NEW)
    entries = data.get("characters")
    if not isinstance(entries, list):
        raise CastLibraryError(Phrase(phrases.CAST_NO_CHARACTERS, file=path))
    return CastLibrary(root, [_member_from_dict(root, entry, f"{path}: characters[{index}]")
                              for index, entry in enumerate(entries)])


def _member_from_dict(root: Path, entry: object, where: str) -> CastMember:
    if not isinstance(entry, dict):
        raise CastLibraryError(Phrase(phrases.EXPECTED_OBJECT, where=where))
    try:
        character = character_from_dict(entry.get("character"), where)
    except ProjectError as error:
        raise CastLibraryError(error.message) from None
    prints_path = root / VOICEPRINTS_DIR / f"{character.id}.npy"
    try:
        with files.open_regular_file(prints_path) as handle:
            prints = np.load(handle, allow_pickle=False)
    except (OSError, ValueError) as error:
        raise CastLibraryError(Phrase(phrases.VOICEPRINTS_UNREADABLE, where=where, file=prints_path,
                                                error=str(error))) from None
    if prints.ndim != 2 or not np.all(np.isfinite(prints)):
        raise CastLibraryError(Phrase(phrases.VOICEPRINTS_DAMAGED, where=where, file=prints_path))
    sources = entry.get("sources", [])
    return CastMember(character, prints.astype(np.float32), str(entry.get("encoder", "")), str(entry.get("added", "")),
                      str(entry.get("updated", "")), [str(s) for s in sources] if isinstance(sources, list) else [])


def _save(library: CastLibrary) -> None:
    """Each member's voiceprints, then cast.json, each atomically (the clips are written by
    :func:`add_characters` before)."""
    prints_dir = ensure_dir(library.root / VOICEPRINTS_DIR, inside=library.root)
    for member in library.members:
        buffer = io.BytesIO()
        np.save(buffer, np.asarray(member.voiceprints, dtype=np.float32), allow_pickle=False)
        atomic_write_bytes(prints_dir / f"{member.character.id}.npy", buffer.getvalue(), inside=library.root)
    data = {"format": FORMAT, "version": VERSION, "characters": [
        {"character": character_to_dict(m.character), "encoder": m.encoder_id, "added": m.added, "updated": m.updated,
         "sources": m.sources} for m in library.members]}
    atomic_write_text(library.root / LIBRARY_FILE, json.dumps(data, indent=1, ensure_ascii=False), inside=library.root)


@contextlib.contextmanager
def writing(root: str | Path, program: str, *, create: bool = False, wait_s: float = WAIT_S) -> Iterator[CastLibrary]:
    """The library at ``root``, locked for ``program`` and read once the lock is held; saved when
    the block ends without an error. With ``create`` a missing library (or folder) is made.
    Waits up to ``wait_s`` for another writer, then raises E_CAST_LOCKED naming it."""
    root = Path(root).absolute()
    if create:
        ensure_dir(root)
    elif not root.is_dir():
        raise CastLibraryError(Phrase(phrases.NO_CAST_FOLDER, folder=root))
    deadline = time.monotonic() + wait_s
    while True:
        try:
            lock = ProjectLock.acquire(root, program)
            break
        except ProjectLockedError as error:
            if time.monotonic() >= deadline:
                raise CastLibraryError(Phrase(phrases.CAST_LOCKED, folder=root,
                                              holder=error.holder or Phrase(phrases.SOMEONE_ELSE), seconds=wait_s),
                                       ErrorCode.CAST_LOCKED) from None
            time.sleep(_POLL_S)
    try:
        library = CastLibrary(root) if create and not (root / LIBRARY_FILE).exists() else open_library(root)
        yield library
        _save(library)
    finally:
        lock.release()


# -- adding, removing ------------------------------------------------------------------------------


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def _unit(vector: np.ndarray) -> np.ndarray:
    vector = np.asarray(vector, dtype=np.float32).ravel()
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


def character_audio(project: Project, character: Character) -> tuple[np.ndarray, int]:
    """The character's clip as trimmed in the project (mono float32, its own rate)."""
    path = project.clip_path(character)
    if path is None:
        raise CastLibraryError(Phrase(phrases.NO_CLIP_TO_SAVE, name=character.name), ErrorCode.NO_CLIP)
    try:
        audio, rate = read_audio(path)
    except (files.FileError, AudioError) as error:
        raise CastLibraryError(Phrase(phrases.CLIP_UNREADABLE, name=character.name, file=path, error=str(error)),
                               ErrorCode.CLIP_MISSING) from None
    start = int(character.clip_start * rate)
    stop = len(audio) if character.clip_end is None else int(character.clip_end * rate)
    return audio[start:stop], rate


def embed_audio(encoder: VoiceEmbedder, audio: np.ndarray, rate: int) -> np.ndarray:
    """The unit embedding of one clip."""
    return _unit(encoder.embed_many([audio], rate)[0])


OwnSpeech = Callable[[Character], tuple[np.ndarray, int] | None]  # a character's speech in its project's video


def add_characters(library: CastLibrary, project: Project, character_ids: Sequence[str] | None,
                   encoder: VoiceEmbedder, own_speech: OwnSpeech | None = None) -> list[tuple[str, str]]:
    """Save the project's characters (all with a clip, or those named by id or name) into the
    library under their names: a new name becomes a new library character; an existing one gets
    this clip, transcript and settings, and this recording's embedding beside its others.
    A character whose clip is a recording the library already holds (cast from it) is heard in
    ``own_speech`` instead (app.project.transcription.episode_recording: its speech in this
    episode's video), so the library learns this episode's voice. A default name ("Speaker 1")
    is no one's: a character so named that does not surely sound like the library's character of
    that name is added apart, under the lowest default number the library does not hold.
    Returns (name, "added"|"updated") per character (the name saying where it went when apart)."""
    chosen = _chosen(project, character_ids)
    done: list[tuple[str, str]] = []
    clips = ensure_dir(library.root / CLIPS_DIR, inside=library.root)
    for character in chosen:
        audio, rate = character_audio(project, character)
        vector = embed_audio(encoder, audio, rate)
        existing = library.member(character.name)
        said: str = character.name
        if existing is not None and _another_voice(existing, character.name, vector, encoder.encoder_id):
            apart = _free_default_name(library, character.name)
            said = Phrase(phrases.CAST_SAVED_APART, name=character.name, saved=apart,
                          score=match_score(existing.voiceprints, vector))
            character, existing = replace(character, name=apart), None
        if existing is not None and own_speech is not None and _stored(existing, vector, encoder.encoder_id):
            heard = own_speech(character)
            if heard is not None and len(heard[0]):
                vector = embed_audio(encoder, *heard)
        member_id = existing.character.id if existing is not None else new_id()
        clip = clips / f"{safe_filename(character.name, 'voice')}-{member_id}.wav"
        atomic_write_wav(clip, audio, rate, inside=library.root)
        stored = replace(character, id=member_id, clip=f"{CLIPS_DIR}/{clip.name}", clip_start=0.0, clip_end=None)
        source = project.root.name
        if existing is None:
            library.members.append(CastMember(stored, vector[None, :], encoder.encoder_id, _now(), _now(), [source]))
            done.append((said, "added"))
            continue
        if existing.encoder_id != encoder.encoder_id:  # embeddings of another encoder are not comparable
            existing.voiceprints = np.zeros((0, vector.size), np.float32)
        old_clip = library.clip_path(existing)
        existing.character, existing.encoder_id, existing.updated = stored, encoder.encoder_id, _now()
        # The same recording again (the project saved twice, or an episode whose character was
        # cast from this library and still has its clip) adds no voiceprint: eight copies of one
        # clip would push the other episodes' recordings out.
        if not _stored(existing, vector, encoder.encoder_id):
            existing.voiceprints = np.vstack([existing.voiceprints, vector[None, :]])[-MAX_RECORDINGS:]
        if source not in existing.sources:
            existing.sources = (existing.sources + [source])[-MAX_RECORDINGS:]
        if old_clip is not None and old_clip != clip:
            old_clip.unlink(missing_ok=True)
        done.append((character.name, "updated"))
    return done


def _another_voice(member: CastMember, name: str, vector: np.ndarray, encoder_id: str) -> bool:
    """Whether a character called ``name``, whose voice is ``vector``, is not the library's
    ``member`` of that name: only a default name can say so, and only by its voice."""
    return (default_speaker_number(name) is not None and member.encoder_id == encoder_id
            and bool(len(member.voiceprints)) and match_score(member.voiceprints, vector) < MATCH_THRESHOLD)


def _free_default_name(library: CastLibrary, name: str) -> str:
    """``name`` (a default one) with the lowest number no default name in the library holds."""
    return _renumbered(name, _default_numbers([m.character.name for m in library.members]))


def _default_numbers(names: Sequence[str]) -> set[int]:
    return {number for name in names if (number := default_speaker_number(name)) is not None}


def _renumbered(name: str, held: set[int]) -> str:
    """A default name ("Speaker 1", "说话人 1") with the lowest number not ``held`` (its template has no other digit)."""
    return re.sub(r"\d+", str(min(set(range(1, len(held) + 2)) - held)), name.strip(), count=1)


def _stored(member: CastMember, vector: np.ndarray, encoder_id: str) -> bool:
    """Whether ``vector`` (from the encoder ``encoder_id``) is the embedding of a recording
    ``member`` already holds; never for voiceprints of another encoder (another size, another scale)."""
    return (member.encoder_id == encoder_id and bool(len(member.voiceprints))
            and float(np.max(member.voiceprints @ vector)) >= SAME_RECORDING)


def _chosen(project: Project, character_ids: Sequence[str] | None) -> list[Character]:
    if not character_ids:
        return [c for c in project.characters if c.clip]
    chosen = []
    for wanted in character_ids:
        found = next((c for c in project.characters if c.id == wanted), None) or project.character_by_name(wanted)
        if found is None:
            raise CastLibraryError(Phrase(phrases.NO_SUCH_PROJECT_CHARACTER, name=repr(wanted)), ErrorCode.UNKNOWN_ID)
        chosen.append(found)
    return chosen


def remove_member(library: CastLibrary, name: str) -> None:
    """Take the character called ``name`` out of the library (its clip and voiceprints too)."""
    member = library.member(name)
    if member is None:
        raise CastLibraryError(Phrase(phrases.NO_SUCH_CAST_MEMBER, name=repr(name)), ErrorCode.UNKNOWN_ID)
    library.members.remove(member)
    clip = library.clip_path(member)
    if clip is not None:
        clip.unlink(missing_ok=True)
    (library.root / VOICEPRINTS_DIR / f"{member.character.id}.npy").unlink(missing_ok=True)


# -- matching ------------------------------------------------------------------------------------


def match_score(voiceprints: Sequence[np.ndarray] | np.ndarray, probe: np.ndarray) -> float:
    """How much ``probe`` sounds like a character with these recordings' embeddings: the highest
    cosine (all unit vectors) with any of them; -1 without any."""
    rows = np.asarray(voiceprints, dtype=np.float32).reshape(-1, np.asarray(probe).size)
    return float((rows @ _unit(probe)).max()) if len(rows) else -1.0


def match_speakers(library: CastLibrary, probes: dict[str, np.ndarray], encoder_id: str,
                   names: dict[str, str] | None = None) -> list[CastMatch]:
    """Each found speaker (character id -> its clip's embedding; ``names``: id -> its name) against
    the library: one library character per speaker at most, the surest pairs taken first."""
    names = names or {}
    usable = [m for m in library.members if m.encoder_id == encoder_id and len(m.voiceprints)]
    pairs = sorted(((match_score(m.voiceprints, vector), cid, m.character.name)
                    for cid, vector in probes.items() for m in usable), reverse=True)
    best: dict[str, CastMatch] = {}
    taken: set[str] = set()
    for score, cid, name in pairs:
        if cid in best or name in taken:
            continue
        if score >= OFFER_THRESHOLD:
            best[cid] = CastMatch(cid, names.get(cid, cid), name, score)
            taken.add(name)
    for cid in probes:
        if cid not in best:
            closest = max((match_score(m.voiceprints, probes[cid]) for m in usable), default=-1.0)
            best[cid] = CastMatch(cid, names.get(cid, cid), None, closest)
    return [best[cid] for cid in probes]


def cast_characters(project: Project, characters: Sequence[Character], library: CastLibrary,
                    encoder: VoiceEmbedder, copy_clip: Callable[[Path, str], str],
                    speaker_name: str = phrases.SPEAKER_N) -> list[CastMatch]:
    """Match ``characters`` (found by a transcription, not yet in the project; their clips are in
    the project folder) against the library. A sure match takes the library character's name,
    colour, settings, clip and transcript (``copy_clip(source_path, stem)`` copies the clip into
    the project and returns its project-relative path); an offered or new one is left as found.
    A library's default name is given in ``speaker_name``'s words (the studio's language), as the
    voices the transcription found are. The characters are changed in place; the matches say what happened, for the user."""
    probes: dict[str, np.ndarray] = {}
    for character in characters:
        if character.clip:
            audio, rate = character_audio(project, character)
            probes[character.id] = embed_audio(encoder, audio, rate)
    matches = match_speakers(library, probes, encoder.encoder_id, {c.id: c.name for c in characters})
    by_id = {c.id: c for c in characters}
    taken_names = {c.name.casefold() for c in project.characters if c.id not in by_id}
    said: list[CastMatch] = []
    for match in matches:
        member = library.member(match.member_name) if match.sure and match.member_name is not None else None
        if member is None or library.clip_path(member) is None:
            said.append(match)
            continue
        if default_name_in(member.character.name, speaker_name).casefold() in taken_names:  # two of one name: say so
            said.append(replace(match, name_taken=True))
            continue
        found = by_id[match.character_id]
        for name, value in member_changes(library, member, copy_clip, speaker_name).items():
            setattr(found, name, value)
        said.append(match)
    return _numbered_without_gaps(project, characters, library, _renumber_clashes(project, characters, library, said))


def _renumber_clashes(project: Project, characters: Sequence[Character], library: CastLibrary,
                      said: list[CastMatch]) -> list[CastMatch]:
    """A found character not cast whose default name ("Speaker 1") a character cast from the
    library now also has (the project's "Speaker 2" was the library's "Speaker 1") gets the
    lowest number no default name holds in the project, the found or the library; said in its match."""
    by_id = {c.id: c for c in characters}
    cast_names = {name_key(by_id[m.character_id].name) for m in said if by_id[m.character_id].name != m.found_name}
    numbers = _default_numbers([c.name for c in (*project.characters, *characters)]
                               + [m.character.name for m in library.members])
    renamed: list[CastMatch] = []
    for match in said:
        found = by_id[match.character_id]
        if (found.name != match.found_name or default_speaker_number(found.name) is None
                or name_key(found.name) not in cast_names):
            renamed.append(match)
            continue
        found.name = _renumbered(found.name, numbers)
        numbers.add(default_speaker_number(found.name) or 0)
        renamed.append(replace(match, renamed=found.name))
    return renamed


def _numbered_without_gaps(project: Project, characters: Sequence[Character], library: CastLibrary,
                           said: list[CastMatch]) -> list[CastMatch]:
    """New voices a transcription has just found (not yet in the project) keep their default names
    but take the lowest numbers free once the others are cast: numbered before casting, past every
    number the library holds, the one new voice of an episode whose other two were cast was
    "说话人 5" beside 说话人 1 and 2, with no 4. Nobody has seen those names yet, so nothing is said."""
    by_id = {c.id: c for c in characters}
    existing = {c.id for c in project.characters}
    fresh = sorted((by_id[m.character_id] for m in said if m.character_id not in existing and not m.sure
                    and m.renamed is None and default_speaker_number(by_id[m.character_id].name) is not None),
                   key=lambda c: default_speaker_number(c.name) or 0)
    moving = {c.id for c in fresh}
    held = _default_numbers([c.name for c in (*project.characters, *characters) if c.id not in moving]
                            + [m.character.name for m in library.members])
    names: dict[str, str] = {}
    for character in fresh:
        character.name = names[character.id] = _renumbered(character.name, held)
        held.add(default_speaker_number(character.name) or 0)
    return [replace(m, found_name=names[m.character_id]) if m.character_id in names else m for m in said]


def member_changes(library: CastLibrary, member: CastMember, copy_clip: Callable[[Path, str], str],
                   speaker_name: str = phrases.SPEAKER_N) -> dict[str, Any]:
    """What makes a project character the library's ``member``: its name (a default one in
    ``speaker_name``'s words: a default name is no identity, :func:`default_name_in`), colour,
    settings, transcript and clip (copied into the project by ``copy_clip``; E_CAST_LIBRARY without one)."""
    source = library.clip_path(member)
    if source is None:
        raise CastLibraryError(Phrase(phrases.NO_CLIP_IN_CAST, name=member.character.name, folder=library.root),
                               ErrorCode.NO_CLIP)
    cast = member.character
    name = default_name_in(cast.name, speaker_name)
    return {"name": name, "colour": cast.colour, "settings": cast.settings, "transcript": cast.transcript,
            "transcript_heard": cast.transcript_heard,
            "clip": copy_clip(source, f"{safe_filename(name, 'voice')}-cast"), "clip_start": 0.0,
            "clip_end": None, "clip_purity": cast.clip_purity}


# -- unsure matches, offered to the user --------------------------------------------------------------


@dataclass(frozen=True)
class CastOffer:
    """An unsure match kept for the user to accept or reject: the project character may be the
    library character ``member_name`` of the library at ``library`` (voice cosine ``score``)."""

    character_id: str
    library: str
    member_name: str
    score: float

    def describe(self) -> str:
        return (f"may be {self.member_name} from the cast library {self.library} (voice cosine {self.score:.2f}, "
                f"under the {MATCH_THRESHOLD:.2f} needed to be sure)")


def offers_of(matches: Sequence[CastMatch], library: str | Path) -> list[CastOffer]:
    """The unsure matches among ``matches`` as offers."""
    return [CastOffer(m.character_id, str(Path(library).absolute()), m.member_name, round(m.score, 3))
            for m in matches if m.offered and m.member_name is not None]


def read_offers(project: Project) -> list[CastOffer]:
    """The offers kept in media/cast_offers.json (none when it is missing or damaged: they only
    offer a choice, nothing depends on them)."""
    try:
        data = json.loads(files.read_text_file(project.media_dir / OFFERS_FILE))
        return [CastOffer(str(o["character"]), str(o["library"]), str(o["member"]), float(o["score"]))
                for o in data["offers"]]
    except (files.FileError, ValueError, KeyError, TypeError):
        return []


def offers_text(project: Project, offers: Sequence[CastOffer]) -> str:
    """media/cast_offers.json holding ``offers`` (one per character: the newest replaces an older
    one) beside the kept ones of characters still in the project."""
    newest = {o.character_id: o for o in offers}
    present = {c.id for c in project.characters} | set(newest)
    kept = [o for o in read_offers(project) if o.character_id in present and o.character_id not in newest]
    return _offers_json(kept + list(newest.values()))


def _offers_json(offers: Sequence[CastOffer]) -> str:
    return json.dumps({"offers": [{"character": o.character_id, "library": o.library, "member": o.member_name,
                                   "score": o.score} for o in offers]}, indent=1, ensure_ascii=False)


def pending_offer(project: Project, character_id: str) -> CastOffer | None:
    """The offer for the character, unless it already is that library character (accepted)."""
    character = next((c for c in project.characters if c.id == character_id), None)
    offer = next((o for o in read_offers(project) if o.character_id == character_id), None)
    if character is None or offer is None or same_name(character.name, offer.member_name):
        return None
    return offer


def accept_offer(project: Project, offer: CastOffer, speaker_name: str = phrases.SPEAKER_N) -> dict[str, Any]:
    """The changes that make the offered character the library's (push them as EditCharacter:
    undoable, and the offer shows again after an undo); its clip is copied into voices/ first. A
    default name is given in ``speaker_name``'s words (the studio's language)."""
    library = open_library(offer.library)
    member = library.member(offer.member_name)
    if member is None:
        raise CastLibraryError(Phrase(phrases.CAST_NO_LONGER_HAS, folder=offer.library, name=offer.member_name),
                               ErrorCode.UNKNOWN_ID)
    name = default_name_in(member.character.name, speaker_name)
    if project.character_by_name(name) is not None:
        raise CastLibraryError(Phrase(phrases.CHARACTER_NAME_TAKEN, name=name), ErrorCode.INVALID_VALUE)
    return member_changes(library, member, clip_copier(project), speaker_name)


def reject_offer(project: Project, character_id: str) -> None:
    """Forget the character's offer (written atomically)."""
    offers = read_offers(project)
    kept = [o for o in offers if o.character_id != character_id]
    if len(kept) != len(offers):
        atomic_write_text(project.media_dir / OFFERS_FILE, _offers_json(kept), inside=project.root)


def match_project_characters(project: Project, found: Sequence[Character],
                             encoder: VoiceEmbedder) -> dict[str, tuple[Character, float]]:
    """Found speakers (with clips) that surely are characters already in the project, by the
    same test as the library's: found id -> (the project's character, cosine). A transcription run
    again gives their lines to them instead of adding "Speaker 3" beside "Speaker 1"."""
    members = []
    for character in project.characters:
        if not character.clip or project.clip_path(character) is None:
            continue
        try:
            audio, rate = character_audio(project, character)
        except CastLibraryError:
            continue  # a clip gone missing cannot be heard; the character is simply not reused
        members.append(CastMember(character, embed_audio(encoder, audio, rate)[None, :], encoder.encoder_id))
    if not members:
        return {}
    probes = {c.id: embed_audio(encoder, *character_audio(project, c)) for c in found if c.clip}
    by_name = {m.character.name: m.character for m in members}
    return {m.character_id: (by_name[m.member_name], m.score)
            for m in match_speakers(CastLibrary(project.root, members), probes, encoder.encoder_id)
            if m.sure and m.member_name is not None}


def clip_copier(project: Project, made: list[Path] | None = None) -> Callable[[Path, str], str]:
    """A ``copy_clip`` for :func:`cast_characters`: a library clip copied into the project's
    voices/ (atomically, under a free name), its path added to ``made``; E_CAST_LIBRARY for a clip
    that cannot be read."""
    def copy_clip(source: Path, stem: str) -> str:
        try:
            data = files.read_regular_file(source)
        except files.FileError as error:
            raise CastLibraryError(Phrase(phrases.CAST_CLIP_UNREADABLE, file=source, error=error.message)) from None
        voices = ensure_dir(project.voices_dir, inside=project.root)
        target = atomic_write_bytes(unique_path(voices, stem, source.suffix or ".wav"), data, inside=project.root)
        if made is not None:
            made.append(target)
        return relative_to_root(project.root, target)

    return copy_clip


CAST_FIELDS = ("name", "colour", "settings", "transcript", "transcript_heard", "clip", "clip_start", "clip_end",
               "clip_purity")  # what casting a character as a library's changes (member_changes)


def cast_changes(before: Sequence[Character], after: Sequence[Character]) -> dict[str, dict[str, Any]]:
    """Per character that :func:`cast_characters` cast (``after``: copies of ``before`` it was
    given), its id -> the fields that make it the library's character, for an undoable edit."""
    return {new.id: {name: getattr(new, name) for name in CAST_FIELDS if getattr(new, name) != getattr(old, name)}
            for old, new in zip(before, after) if new.name != old.name}


def recast_from_library(project: Project, library: CastLibrary, encoder: VoiceEmbedder,
                        speaker_name: str = phrases.SPEAKER_N) -> tuple[list[CastMatch], dict[str, dict[str, Any]]]:
    """The studio's *Cast from library* on a project as it is: each character with a clip (not
    already named as a library character: a default name such as "Speaker 1" never counts as one)
    matched against the library. Returns the matches (to
    explain) and, per surely matched character id, the changes that make it the library's
    character (push them as EditCharacter edits: undoable); the library clips are copied into
    voices/ first (files are not something undo removes, as with takes). The unsure matches
    are kept in media/cast_offers.json, for the Characters panel to offer. A library's default
    name is given in ``speaker_name``'s words (the studio's language)."""
    candidates = [c for c in project.characters if c.clip and not library.names_character(c.name)]
    found = [replace(c) for c in candidates]  # copies: the project changes only through the edits
    matches = cast_characters(project, found, library, encoder, clip_copier(project), speaker_name)
    changes = cast_changes(candidates, found)
    offers = offers_of(matches, library.root)
    if offers:
        media = ensure_dir(project.media_dir, inside=project.root)
        atomic_write_text(media / OFFERS_FILE, offers_text(project, offers), inside=project.root)
    return matches, changes


__all__ = [
    "CAST_FIELDS", "MATCH_THRESHOLD", "OFFER_THRESHOLD", "CastLibrary", "CastMatch", "CastMember", "CastOffer",
    "accept_offer", "add_characters", "cast_changes", "cast_characters", "clip_copier", "match_project_characters",
    "match_score", "match_speakers", "member_changes", "offers_of", "offers_text", "open_library", "pending_offer", "read_offers", "recast_from_library",
    "reject_offer", "remove_member", "writing",
]

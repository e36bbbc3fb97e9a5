"""Reference clips and the cache of prepared voices.

Preparing a voice (decoding, trimming, a speaker embedding, the backend's conditioning) costs
tenths of seconds to seconds, so it happens once per (clip content, transcript, backend,
encoder). Results live in an in-memory LRU and on disk as ``.npz`` files holding only arrays
and a JSON string — never pickles — so a restarted engine reuses them safely.

The disk half is an optimisation and is trusted for nothing: every entry read back is checked
(types, shapes, finite values, and the ranges the backend declares in its
``conditioning_spec``) and rebuilt when it fails, whatever sits at its path (a folder, a link,
a pipe) is cleared or bypassed, and a cache folder that cannot be made or written to (read-only,
full) is reported once while the voices stay in memory and every job goes on.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import stat
import threading
import time
import zipfile
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import soundfile as sf

from engine.backends.base import Backend, ReferenceClip, VoiceProfile
from engine.files import atomic_write, read_text_file
from engine.protocol import EngineError, ErrorCode, VoiceSpec

MAX_SOURCE_S = 600.0  # refuse longer files outright: nobody means a 10-minute reference
MAX_REFERENCE_S = 30.0  # longer clips are cut: more adds nothing and slows preparation
MIN_SPEECH_S = 1.0
SILENCE_PEAK = 1e-3  # peak below -60 dBFS counts as silence
TRIM_TOP_DB = 40.0
CACHE_FORMAT = "1"
KEY_HEX_DIGITS = 40  # an entry is KEY.npz, KEY this many hex digits of a SHA-256
# What the cache writes in its folder: entries, and the atomic writer's temp files of writes that
# never finished (a killed engine). Clearing looks for these names only (see cache_files).
_CACHE_FILE = re.compile(rf"[0-9a-f]{{{KEY_HEX_DIGITS}}}\.npz|\.[0-9a-f]{{{KEY_HEX_DIGITS}}}\.npz\..+\.tmp")
MAX_EMBEDDING_DIM = 4096  # far above any speaker encoder's (GE2E 256, CAM++ 192)

log = logging.getLogger(__name__)


def load_reference_clip(path: str | os.PathLike[str]) -> ReferenceClip:
    """Decode any format libsndfile reads, downmix to mono and trim silence.

    Raises EngineError with a specific code for missing, unreadable, silent, too short and
    too long clips; stereo, any sample rate and 8/16/24/32-bit files are accepted.
    """
    path = Path(path)
    if not path.is_file():
        raise EngineError(ErrorCode.CLIP_MISSING, f"Reference clip not found: {path}")
    try:
        info = sf.info(str(path))
        if info.frames <= 0 or info.samplerate <= 0:
            raise EngineError(ErrorCode.CLIP_UNREADABLE, f"Reference clip holds no audio: {path.name}")
        if info.duration > MAX_SOURCE_S:
            raise EngineError(
                ErrorCode.CLIP_TOO_LONG,
                f"Reference clip is {info.duration / 60:.1f} min long; use one under "
                f"{MAX_SOURCE_S / 60:.0f} min (the first {MAX_REFERENCE_S:.0f} s of speech are used)",
            )
        data, rate = sf.read(str(path), dtype="float32", always_2d=True)
    except sf.LibsndfileError as error:
        raise EngineError(
            ErrorCode.CLIP_UNREADABLE, f"Cannot decode {path.name} as audio ({error.error_string})"
        ) from error
    audio = data.mean(axis=1)
    source_duration = len(audio) / rate
    if not np.isfinite(audio).all() or float(np.max(np.abs(audio), initial=0.0)) < SILENCE_PEAK:
        raise EngineError(ErrorCode.CLIP_SILENT, f"Reference clip {path.name} is silent")

    import librosa  # imported here: it is slow to import and only needed on a cache miss

    audio, _ = librosa.effects.trim(audio, top_db=TRIM_TOP_DB)
    intervals = librosa.effects.split(audio, top_db=TRIM_TOP_DB)
    speech_s = float(sum(end - start for start, end in intervals)) / rate
    if speech_s < MIN_SPEECH_S:
        raise EngineError(
            ErrorCode.CLIP_TOO_SHORT,
            f"Reference clip {path.name} has {speech_s:.2f} s of speech; at least {MIN_SPEECH_S:.0f} s is needed",
        )
    warnings: tuple[str, ...] = ()
    if len(audio) > MAX_REFERENCE_S * rate:
        audio = audio[: int(MAX_REFERENCE_S * rate)]
        warnings = (f"clip cut to its first {MAX_REFERENCE_S:.0f} s",)
    peak = float(np.max(np.abs(audio)))
    audio = (audio * (0.95 / peak)).astype(np.float32)
    return ReferenceClip(audio=audio, sample_rate=int(rate), source_duration_s=source_duration, warnings=warnings)


def transcript_beside(clip: str | os.PathLike[str]) -> str:
    """The transcript kept beside a clip (``CLIP.txt`` for ``CLIP.wav``), or "" when there is none.

    Transcripts come from many editors, so legacy encodings are decoded like scripts are
    (:func:`engine.files.decode_text`); a sidecar that is not a regular file or not text raises
    FileError with E_NOT_REGULAR_FILE or E_TEXT_ENCODING.
    """
    sidecar = Path(clip).with_suffix(".txt")
    if not os.path.lexists(sidecar):
        return ""
    return read_text_file(sidecar).strip()


class SpeakerEncoder:
    """GE2E speaker embeddings (resemblyzer), 256-d and L2-normalised; loaded on first use.

    Reference clips are embedded when a voice is prepared; take QA embeds takes with the same
    encoder, so a take's resemblance is the cosine (dot product) of the two embeddings.
    """

    encoder_id = "ge2e-resemblyzer"

    def __init__(self) -> None:
        self._encoder: Any = None
        self._lock = threading.Lock()

    def embed(self, clip: ReferenceClip) -> np.ndarray:
        with self._lock:  # the torch model is small; serialising it keeps threads predictable
            if self._encoder is None:
                import torch
                from resemblyzer import VoiceEncoder

                torch.set_num_threads(1)  # leave the cores to synthesis
                self._encoder = VoiceEncoder("cpu", verbose=False)
            import librosa
            from resemblyzer import audio as ge2e_audio

            wav = ge2e_audio.preprocess_wav(clip.audio, source_sr=clip.sample_rate)
            if len(wav) == 0:  # the VAD found no voice; embed the whole clip instead
                wav = librosa.resample(clip.audio, orig_sr=clip.sample_rate, target_sr=ge2e_audio.sampling_rate)
                wav = ge2e_audio.normalize_volume(wav, ge2e_audio.audio_norm_target_dBFS, increase_only=True)
            return np.asarray(self._encoder.embed_utterance(wav), dtype=np.float32)


class CorruptCacheEntry(Exception):
    pass


def _file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass
class CacheCounters:
    memory_hits: int = 0
    disk_hits: int = 0
    misses: int = 0
    rebuilt: int = 0
    prepare_s_total: float = 0.0


@dataclass(frozen=True)
class CacheLookup:
    profile: VoiceProfile
    source: str  # "memory", "disk" or "miss"
    seconds: float  # time spent finding or preparing the voice


class VoiceCache:
    """Prepared voices in memory (LRU) and on disk; safe to call from many worker threads."""

    def __init__(self, directory: Path, backend: Backend, backend_name: str, encoder: SpeakerEncoder,
                 capacity: int = 64) -> None:
        self.directory = directory
        self._reported: set[str] = set()  # kinds of disk trouble already logged (once each)
        self._lock = threading.Lock()
        self._on_disk = True  # False: the folder could not be made, so memory is all there is
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            self._on_disk = False
            self._report_once("folder", f"cannot make the voice cache folder {directory} ({_reason(error)}); "
                                        "voices are kept in memory only")
        self.backend = backend
        self.backend_id = f"{backend_name}:{backend.conditioning_version}"
        self.encoder = encoder
        # Embeddings of different encoders never mix: the encoder is part of every key.
        self.encoder_id = backend.speaker_encoder_id or encoder.encoder_id
        self.capacity = capacity
        self.counters = CacheCounters()
        self._memory: OrderedDict[str, VoiceProfile] = OrderedDict()
        self._digests: dict[tuple[str, int, int], str] = {}  # (path, size, mtime) -> content hash
        self._key_locks: dict[str, threading.Lock] = {}

    def key_for(self, voice: VoiceSpec) -> str:
        path = Path(voice.clip_path)
        try:
            stat = path.stat()
        except OSError:
            raise EngineError(ErrorCode.CLIP_MISSING, f"Reference clip not found: {path}") from None
        if not path.is_file():
            raise EngineError(ErrorCode.CLIP_MISSING, f"Reference clip is not a file: {path}")
        stamp = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
        digest = self._digests.get(stamp)
        if digest is None:
            digest = self._digests[stamp] = _file_digest(path)
        material = "|".join((CACHE_FORMAT, digest, voice.transcript.strip(), self.backend_id, self.encoder_id))
        return hashlib.sha256(material.encode()).hexdigest()[:KEY_HEX_DIGITS]

    def lookup(self, voice: VoiceSpec) -> CacheLookup:
        started = time.monotonic()
        key = self.key_for(voice)
        with self._lock:
            profile = self._remember(key)
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        if profile is None:
            # One thread prepares a voice; others asking for it wait and then hit memory.
            with key_lock:
                with self._lock:
                    profile = self._remember(key)
                if profile is not None:
                    source = "memory"
                else:
                    profile, source = self._load_or_prepare(key, voice)
        else:
            source = "memory"
        seconds = time.monotonic() - started
        with self._lock:
            if source == "memory":
                self.counters.memory_hits += 1
            elif source == "disk":
                self.counters.disk_hits += 1
            else:
                self.counters.misses += 1
                self.counters.prepare_s_total += seconds
        return CacheLookup(profile, source, seconds)

    def _remember(self, key: str, profile: VoiceProfile | None = None) -> VoiceProfile | None:
        """Get (or, with ``profile``, put) an entry of the LRU; caller holds ``_lock``."""
        if profile is not None:
            self._memory[key] = profile
            while len(self._memory) > self.capacity:
                self._memory.popitem(last=False)
        found = self._memory.get(key)
        if found is not None:
            self._memory.move_to_end(key)
        return found

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.npz"

    def _load_or_prepare(self, key: str, voice: VoiceSpec) -> tuple[VoiceProfile, str]:
        path = self._path(key)
        profile, path_free = self._read_disk(key, path) if self._on_disk else (None, False)
        source = "disk" if profile is not None else "miss"
        if profile is None:
            profile = self._prepare(key, voice)
            if path_free:
                self._write_disk(path, profile)
        with self._lock:
            self._remember(key, profile)
        return profile, source

    def _read_disk(self, key: str, path: Path) -> tuple[VoiceProfile | None, bool]:
        """The entry at ``path`` when it is a sound one, else None, with whatever was there
        cleared so the rebuilt entry can take its place; and whether the path is free for that."""
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return None, True
        except OSError as error:
            self._report_once("read", f"cannot read the voice cache folder {self.directory} ({_reason(error)})")
            return None, False
        if stat.S_ISREG(info.st_mode):
            try:
                profile = read_profile(path, key)
                problem = profile_problem(profile, self.backend)
            except CorruptCacheEntry as error:
                problem = str(error)
            if problem is None:
                return profile, True
        else:
            problem = f"{_kind_of(info.st_mode)} instead of a cache file"
        log.warning("voice cache: rebuilding %s: %s", path.name, problem)
        with self._lock:
            self.counters.rebuilt += 1
        return None, self._clear(path, info)

    def _clear(self, path: Path, info: os.stat_result) -> bool:
        """Remove a failed entry: a file, or a link itself (never what it points to), or an empty
        folder. A folder with something in it is left alone (the cache deletes only what could
        be its own); the rebuilt voice then lives in memory."""
        try:
            if stat.S_ISDIR(info.st_mode):
                os.rmdir(path)
            else:
                os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError as error:
            self._report_once("clear", f"cannot clear {path} ({_reason(error)}); that voice is kept in memory only")
            return False
        return True

    def _write_disk(self, path: Path, profile: VoiceProfile) -> None:
        """Store a prepared voice; a failure (read-only or full folder) is logged once, and the
        voice stays in memory: the job that prepared it goes on."""
        try:
            write_profile(path, profile)
        except OSError as error:
            self._report_once("write", f"cannot write to the voice cache folder {self.directory} "
                                       f"({_reason(error)}); voices are kept in memory only until it can")

    def _report_once(self, kind: str, message: str) -> None:
        with self._lock:
            if kind in self._reported:
                return
            self._reported.add(kind)
        log.warning("voice cache: %s", message)

    def _prepare(self, key: str, voice: VoiceSpec) -> VoiceProfile:
        clip = load_reference_clip(voice.clip_path)
        conditioning, meta = self.backend.condition(clip, voice.transcript)
        problem = self.backend.conditioning_problem(conditioning)
        if problem is not None:  # never cache what would be refused (and rebuilt) on every read
            raise EngineError(ErrorCode.BACKEND, f"The backend prepared an unusable voice: {problem}")
        if self.backend.speaker_encoder_id:
            embedding = np.asarray(self.backend.speaker_embedding(conditioning), dtype=np.float32).reshape(-1)
        else:
            embedding = self.encoder.embed(clip)
        meta = {
            **meta,
            "key": key,
            "backend": self.backend_id,
            "encoder": self.encoder_id,
            "clip_name": Path(voice.clip_path).name,
            "clip_source_s": round(clip.source_duration_s, 3),
            "clip_used_s": round(len(clip.audio) / clip.sample_rate, 3),
            "warnings": list(clip.warnings),
        }
        return VoiceProfile(key=key, embedding=embedding, conditioning=conditioning, meta=meta)


def write_profile(path: Path, profile: VoiceProfile) -> None:
    """Write a profile atomically: a reader sees the old file or the whole new one."""
    arrays: dict[str, np.ndarray] = {f"cond__{name}": value for name, value in profile.conditioning.items()}
    arrays["embedding"] = profile.embedding
    arrays["meta"] = np.array(json.dumps({**profile.meta, "format": CACHE_FORMAT, "key": profile.key}))
    atomic_write(path, lambda out: np.savez(out, **arrays))  # type: ignore[arg-type]  # stubs mistype **kwds


def read_profile(path: Path, key: str) -> VoiceProfile:
    """Read a cache entry, refusing anything truncated, corrupt, foreign or pickled.

    Opened without following a link and without blocking, so neither a symlink nor a named
    pipe swapped in at the path is read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        with os.fdopen(os.open(path, flags), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise CorruptCacheEntry(f"{path.name}: not a regular file")
            with np.load(handle, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"][()]))
                embedding = np.array(data["embedding"])
                conditioning = {name[6:]: np.array(data[name]) for name in data.files if name.startswith("cond__")}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError, json.JSONDecodeError) as error:
        raise CorruptCacheEntry(f"{path.name}: {error}") from error
    if not isinstance(meta, dict) or meta.get("format") != CACHE_FORMAT or meta.get("key") != key:
        raise CorruptCacheEntry(f"{path.name}: wrong format or key")
    return VoiceProfile(key=key, embedding=embedding, conditioning=conditioning, meta=meta)


def profile_problem(profile: VoiceProfile, backend: Backend) -> str | None:
    """Why a profile read from disk cannot be used, in words; None when it can.

    The speaker embedding must be a non-empty, finite float vector; the conditioning must
    match what the backend declares (see ``Backend.conditioning_spec``).
    """
    embedding = profile.embedding
    if embedding.dtype.kind != "f" or embedding.ndim != 1 or not 0 < embedding.size <= MAX_EMBEDDING_DIM:
        return f"the speaker embedding has type {embedding.dtype} and shape {embedding.shape}"
    if not np.isfinite(embedding).all():
        return "the speaker embedding holds NaN or infinite values"
    problem = backend.conditioning_problem(profile.conditioning)
    return None if problem is None else f"conditioning: {problem}"


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _kind_of(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a named pipe"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
    return next((name for test, name in kinds if test(mode)), "something")


def cache_files(directory: str | os.PathLike[str]) -> list[Path]:
    """The files the voice cache wrote in ``directory``: its entries and unfinished writes.

    Measuring and clearing the cache look at these only, never at the whole folder: the cache
    folder is a setting, and a user who points it at a folder of their own must not lose what
    else is in it. A link or a folder with an entry's name is not a file the cache wrote.
    """
    try:
        with os.scandir(directory) as entries:
            return [Path(entry.path) for entry in entries
                    if _CACHE_FILE.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)]
    except (FileNotFoundError, NotADirectoryError):
        return []


def clear_cache_folder(directory: str | os.PathLike[str]) -> None:
    """Delete the cache's own files in ``directory`` (:func:`cache_files`); voices are rebuilt on use."""
    for path in cache_files(directory):
        path.unlink(missing_ok=True)


def default_cache_dir() -> Path:
    """The per-user cache folder of prepared voices (overridable with DUBSTUDIO_CACHE_DIR)."""
    override = os.environ.get("DUBSTUDIO_CACHE_DIR")
    if override:
        return Path(override) / "voices"
    import platformdirs

    return Path(platformdirs.user_cache_dir("dubstudio")) / "voices"

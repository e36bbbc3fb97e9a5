"""Reference clips and the cache of prepared voices.

Preparing a voice (decoding, trimming, the backend's conditioning, a speaker embedding, the
resemblance figures) costs tenths of seconds to seconds, so it happens once per (clip content,
transcript, backend, encoder). Results live in an in-memory LRU and on disk as ``.npz`` files
holding only arrays and a JSON string — never pickles — so a restarted engine reuses them safely.

Preparation has two phases, so a job never waits for what it does not need:

1. **Conditioning** (decode and trim the clip, the backend's :meth:`~Backend.condition`): all a
   job needs to speak. :meth:`VoiceCache.lookup` returns as soon as it exists.
2. **The rest**, on a low-priority background thread (:mod:`engine.synthesis.background`): the speaker
   embedding, the resemblance of the voice to its clip (a fixed sentence in a language the
   backend speaks, rendered and compared by GE2E cosine, against the model's unadapted voice
   too) and the disk entry, which is only ever written complete. A voice preparation request (:meth:`VoiceCache.prepare`, the
   engine's PrepareVoice) waits for both; if the second phase fails, the voice still speaks and
   its summary says why the figures are missing.

The disk half is an optimisation and is trusted for nothing: every entry read back is checked
(types, shapes, finite values, and the ranges the backend declares in its
``conditioning_spec``) and rebuilt when it fails, whatever sits at its path (a folder, a link,
a pipe) is cleared or bypassed, and a cache folder that cannot be made or written to (read-only,
full) is reported once while the voices stay in memory and every job goes on. The same holds
for what the cache keeps per model in its ``models/`` folder: the data a backend derives from
its model (Piper's calibration, :meth:`Backend.model_data`) and the plain voice's embedding.

Its length (about 680 lines, over the ~600 the project aims at) is the cache's two phases and its
two stores (memory and disk), which share one lock and one key; split, the locking would be spread.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import re
import stat
import threading
import time
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import numpy as np

from engine.core.audio_io import file_digest
from engine.core.files import atomic_write
from engine.core.languages import resemblance_sentence
from engine.core.phrases import Phrase, phrase_from_record, phrase_record
from engine.core.protocol import EngineError, ErrorCode, VoiceSettings, VoiceSpec
from engine.core.reference import ReferenceClip, load_reference_clip
from engine.synthesis.backends.base import Backend, VoiceProfile
from engine.synthesis.background import BackgroundWork
from engine.voiceprint.encoder import SpeakerEncoder

CACHE_FORMAT = "2"  # 2: entries carry the resemblance figures
KEY_HEX_DIGITS = 40  # an entry is KEY.npz, KEY this many hex digits of a SHA-256
# What the cache writes in its folder: entries, and the atomic writer's temp files of writes that
# never finished (a killed engine). Clearing looks for these names only (see cache_files).
_CACHE_FILE = re.compile(rf"[0-9a-f]{{{KEY_HEX_DIGITS}}}\.npz|\.[0-9a-f]{{{KEY_HEX_DIGITS}}}\.npz\..+\.tmp")
MAX_EMBEDDING_DIM = 4096  # far above any speaker encoder's (GE2E 256, CAM++ 192)
RESEMBLANCE_KEYS = ("resemblance", "resemblance_plain")
NOTES_KEY = "warnings"  # a voice's notes in its summary (ClipPhrases, VoicePhrases), kept as phrase records on disk
# The engine must have been without work this long before each warm-up step starts: a
# closed-loop user's next job comes within milliseconds of the last one's end, a `say` job
# within milliseconds of EngineReady.
WARM_UP_QUIET_S = 0.5
MODELS_FOLDER = "models"  # inside the cache folder: what is kept per model rather than per voice
MODEL_FILE_KINDS = ("model", "plain")  # a backend's derived model data; the plain voice's embedding
MODEL_HEX_DIGITS = 24  # a model file is KIND-ID.npz, ID this many hex digits of a SHA-256
_MODEL_NAME = rf"(?:{'|'.join(MODEL_FILE_KINDS)})-[0-9a-f]{{{MODEL_HEX_DIGITS}}}\.npz"
_MODEL_FILE = re.compile(rf"{_MODEL_NAME}|\.{_MODEL_NAME}\..+\.tmp")

log = logging.getLogger(__name__)

T = TypeVar("T")


class CorruptCacheEntry(Exception):
    pass


@dataclass
class CacheCounters:
    memory_hits: int = 0
    disk_hits: int = 0
    misses: int = 0
    rebuilt: int = 0
    prepare_s_total: float = 0.0


class Completion:
    """The second phase of one voice's preparation (embedding, resemblance, disk entry).

    Always finished, whatever happens in that phase, so nobody waits on it for ever.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[VoiceProfile, float], None]] = []
        self.profile: VoiceProfile | None = None
        self.finished_at = 0.0

    def finish(self, profile: VoiceProfile) -> None:
        with self._lock:
            self.profile, self.finished_at = profile, time.monotonic()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            _call_logged(callback, profile, self.finished_at)

    def add(self, callback: Callable[[VoiceProfile, float], None]) -> None:
        """Call ``callback(profile, finished_at)`` when finished (now, if it already is)."""
        with self._lock:
            if self.profile is None:
                self._callbacks.append(callback)
                return
            profile, finished_at = self.profile, self.finished_at
        _call_logged(callback, profile, finished_at)


def _call_logged(callback: Callable[[VoiceProfile, float], None], profile: VoiceProfile, at: float) -> None:
    try:
        callback(profile, at)
    except Exception:  # one listener's fault must not stop the others
        log.exception("voice cache: a listener of a prepared voice failed")


@dataclass(frozen=True)
class CacheLookup:
    profile: VoiceProfile  # usable to speak; complete unless ``completion`` is still running
    source: str  # "memory", "disk" or "miss"
    seconds: float  # time spent finding or preparing the voice (the first phase, for a miss)
    completion: Completion | None = None  # the voice's second phase, when it had not ended yet
    asked_at: float = field(default_factory=time.monotonic)

    def when_complete(self, then: Callable[[CacheLookup], None]) -> None:
        """Call ``then`` with the complete voice (resemblance, embedding) once its second phase
        ended: at once if it had, else from the background thread. ``seconds`` then counts
        from this lookup to the end of the second phase."""
        if self.completion is None:
            then(self)
            return
        self.completion.add(lambda profile, finished_at: then(
            CacheLookup(profile, self.source, max(self.seconds, finished_at - self.asked_at), None, self.asked_at)))


@dataclass(frozen=True)
class _Entry:
    """A voice in the memory cache: its profile, and its second phase while that runs."""

    profile: VoiceProfile
    completion: Completion | None = None


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
        # Rendered with every new voice (and once per model unadapted) to measure its resemblance
        # to the clip, in a language the backend speaks (engine.core.languages).
        self.resemblance_text = resemblance_sentence(backend.capabilities.languages)
        self.encoder = encoder
        # Embeddings of different encoders never mix: the encoder is part of every key.
        self.encoder_id = backend.speaker_encoder_id or encoder.encoder_id
        self.capacity = capacity
        self.counters = CacheCounters()
        self._memory: OrderedDict[str, _Entry] = OrderedDict()
        self._key_locks: dict[str, threading.Lock] = {}
        self._background = BackgroundWork("voice-background")
        self._warming = BackgroundWork("voice-warm-up")  # its own thread: it waits, voices must not
        self._closing = False
        self._model_data_lock = threading.Lock()
        self._model_data_ready = False
        self._plain_lock = threading.Lock()
        self._plain: tuple[np.ndarray | None] | None = None  # (embedding or None,) once known

    def key_for(self, voice: VoiceSpec) -> str:
        path = Path(voice.clip_path)
        try:
            path.stat()
        except OSError:
            raise EngineError(ErrorCode.CLIP_MISSING, f"Reference clip not found: {path}") from None
        if not path.is_file():
            raise EngineError(ErrorCode.CLIP_MISSING, f"Reference clip is not a file: {path}")
        material = "|".join((CACHE_FORMAT, file_digest(path), voice.transcript.strip(), self.backend_id, self.encoder_id))
        return hashlib.sha256(material.encode()).hexdigest()[:KEY_HEX_DIGITS]

    # --- the two ways of asking for a voice ------------------------------------------------

    def lookup(self, voice: VoiceSpec) -> CacheLookup:
        """The voice, ready to speak: found, or prepared up to its conditioning (the rest of its
        preparation goes on in the background; see :meth:`CacheLookup.when_complete`)."""
        started = time.monotonic()
        key = self.key_for(voice)
        with self._lock:
            entry = self._remember(key)
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        if entry is None:
            # One thread prepares a voice; others asking for it wait and then hit memory.
            with key_lock:
                with self._lock:
                    entry = self._remember(key)
                if entry is not None:
                    source = "memory"
                else:
                    entry, source = self._load_or_prepare(key, voice)
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
        return CacheLookup(entry.profile, source, seconds, entry.completion, started)

    def prepare(self, voice: VoiceSpec) -> CacheLookup:
        """The complete voice, waiting for its second phase (embedding, resemblance, disk entry)."""
        complete: list[CacheLookup] = []
        done = threading.Event()

        def finished(lookup: CacheLookup) -> None:
            complete.append(lookup)
            done.set()

        self.lookup(voice).when_complete(finished)
        done.wait()
        return complete[0]

    def warm_up(self, wait_idle: Callable[[float], bool], then: Callable[[], None]) -> None:
        """Load, on a low-priority thread, what a new voice's preparation would otherwise wait
        for: the model's derived data, the speaker encoder and the plain voice's embedding.

        Each step starts only when ``wait_idle(WARM_UP_QUIET_S)`` returns True: the engine has
        been without work for that long (False: it is stopping, and the warm-up ends). No step
        holds a lock that a known voice's job takes, so a job arriving during a step goes on
        beside it. ``then()`` is called once every step has run.
        """
        self._warming.submit(lambda: self._warm_up(wait_idle, then))

    def _warm_up(self, wait_idle: Callable[[float], bool], then: Callable[[], None]) -> None:
        started = time.monotonic()
        for step in (self._ensure_model_data, self.encoder.warm_up, self._plain_embedding):
            if self._closing or not wait_idle(WARM_UP_QUIET_S):  # stopping: finishing voices matters, warming does not
                return
            try:
                step()
            except Exception:  # the first new voice then does it itself
                log.exception("voice cache: a warm-up step failed")
        log.info("voice cache: warmed up %.2f s after the engine was ready", time.monotonic() - started)
        then()

    def close(self, timeout: float) -> bool:
        """Let voices whose preparation is still finishing write their cache entries (up to
        ``timeout`` seconds; the warm-up is cut short). False when some could not finish."""
        self._closing = True
        return self._background.wait_idle(timeout)

    # --- memory ----------------------------------------------------------------------------

    def _remember(self, key: str, entry: _Entry | None = None) -> _Entry | None:
        """Get (or, with ``entry``, put) an entry of the LRU; caller holds ``_lock``."""
        if entry is not None:
            self._memory[key] = entry
            while len(self._memory) > self.capacity:
                self._memory.popitem(last=False)
        found = self._memory.get(key)
        if found is not None:
            self._memory.move_to_end(key)
        return found

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.npz"

    # --- preparing a voice -----------------------------------------------------------------

    def _load_or_prepare(self, key: str, voice: VoiceSpec) -> tuple[_Entry, str]:
        path = self._path(key)
        profile, path_free = (self._read_checked(path, lambda p: self._checked_profile(p, key), count=True)
                              if self._on_disk else (None, False))
        if profile is not None:
            entry = _Entry(profile)
            source = "disk"
        else:
            clip, profile = self._condition(key, voice)
            entry = _Entry(profile, Completion())
            source = "miss"
            completion = entry.completion
            target = path if path_free else None
            self._background.submit(lambda: self._finish(clip, profile, completion, target))
        with self._lock:
            self._remember(key, entry)
        return entry, source

    def _condition(self, key: str, voice: VoiceSpec) -> tuple[ReferenceClip, VoiceProfile]:
        """The first phase: the clip decoded and the backend's conditioning, all a job needs."""
        self._ensure_model_data()
        clip = load_reference_clip(voice.clip_path)
        conditioning, meta = self.backend.condition(clip, voice.transcript)
        problem = self.backend.conditioning_problem(conditioning)
        if problem is not None:  # never cache what would be refused (and rebuilt) on every read
            raise EngineError(ErrorCode.BACKEND, f"The backend prepared an unusable voice: {problem}")
        meta = {
            **meta,
            "key": key,
            "backend": self.backend_id,
            "encoder": self.encoder_id,
            "clip_name": Path(voice.clip_path).name,
            "clip_source_s": round(clip.source_duration_s, 3),
            "clip_used_s": round(len(clip.audio) / clip.sample_rate, 3),
            NOTES_KEY: list(clip.warnings),
            **{name: None for name in RESEMBLANCE_KEYS},
        }
        return clip, VoiceProfile(key=key, embedding=None, conditioning=conditioning, meta=meta)

    def _finish(self, clip: ReferenceClip, profile: VoiceProfile, completion: Completion | None,
                path: Path | None) -> None:
        """The second phase, on the background thread: embedding, resemblance, disk entry.

        Whatever fails here, the voice goes on speaking and everyone waiting hears back: the
        summary then says what could not be measured. The disk entry is written once the
        embedding exists (without one the next engine prepares the voice again).
        """
        embedding: np.ndarray | None = None
        figures: dict[str, float | None] = {name: None for name in RESEMBLANCE_KEYS}
        warnings = list(profile.meta.get(NOTES_KEY, []))
        try:
            if self.backend.speaker_encoder_id:  # the backend's own encoder (CosyVoice2's CAM++)
                embedding = np.asarray(self.backend.speaker_embedding(profile.conditioning),
                                       dtype=np.float32).reshape(-1)
                reference = self.encoder.embed(clip)  # resemblance is always GE2E's, whatever the backend's own
            else:
                embedding = reference = self.encoder.embed(clip)
            figures.update(self._resemblance(profile, reference))
        except Exception as error:  # reported in the summary; the voice still speaks
            log.warning("voice cache: %s: resemblance not measured", profile.meta.get("clip_name"), exc_info=True)
            warnings.append(VoicePhrase(NOT_MEASURED, why=_describe(error)))
        complete = VoiceProfile(profile.key, embedding, profile.conditioning,
                                {**profile.meta, **figures, NOTES_KEY: warnings})
        try:
            if path is not None and embedding is not None:  # resemblance is a figure; the entry needs the embedding
                self._write_disk(path, complete)
        finally:
            with self._lock:
                entry = self._memory.get(profile.key)
                if entry is not None and entry.completion is completion:
                    self._memory[profile.key] = _Entry(complete)
            if completion is not None:
                completion.finish(complete)

    def _resemblance(self, profile: VoiceProfile, reference: np.ndarray) -> dict[str, float | None]:
        """GE2E cosine to the clip of the voice, and of the model's own voice (None when the
        model has none: a cloning backend), each speaking :attr:`resemblance_text`."""
        adapted = self.encoder.resemblance(self._render(profile), self.backend.capabilities.sample_rate, reference)
        plain = self._plain_embedding()
        return {"resemblance": round(adapted, 3),
                "resemblance_plain": None if plain is None else round(float(np.dot(plain, reference)), 3)}

    def _render(self, profile: VoiceProfile) -> np.ndarray:
        pieces = self.backend.synthesize(self.resemblance_text, profile, VoiceSettings(), lambda: False)
        return np.concatenate([piece.pcm for piece in pieces])

    def _plain_embedding(self) -> np.ndarray | None:
        """The GE2E embedding of the model's own voice speaking :attr:`resemblance_text`: measured once
        per model and encoder, and kept in the models folder."""
        with self._plain_lock:
            if self._plain is None:
                conditioning = self.backend.plain_conditioning()
                embedding: np.ndarray | None = None
                if conditioning is not None:
                    identity = "|".join((self.backend_id, self.backend.model_identity() or "",
                                         self.encoder.encoder_id, self.resemblance_text))
                    path = self._model_file("plain", identity)
                    embedding = self._read_model_file(path, identity, _plain_problem).get("embedding")
                    if embedding is None:
                        plain = VoiceProfile("plain", None, conditioning, {})
                        embedding = self.encoder.embed(ReferenceClip(self._render(plain),
                                                                     self.backend.capabilities.sample_rate, 0.0))
                        self._write_model_file(path, identity, {"embedding": embedding})
                self._plain = (embedding,)
            return self._plain[0]

    # --- data kept per model ---------------------------------------------------------------

    def _ensure_model_data(self) -> None:
        """Hand the backend its derived model data from disk, or let it measure and store it."""
        with self._model_data_lock:
            if self._model_data_ready:
                return
            identity = self.backend.model_identity()
            if identity is not None:
                identity = f"{self.backend_id}|{identity}"
                path = self._model_file("model", identity)
                arrays = self._read_model_file(path, identity, self.backend.adopt_model_data)
                if not arrays:
                    self._write_model_file(path, identity, self.backend.model_data())
            self._model_data_ready = True

    def _model_file(self, kind: str, identity: str) -> Path | None:
        """Where data of ``kind`` for this identity lives (None: no usable cache folder)."""
        if not self._on_disk:
            return None
        folder = self.directory / MODELS_FOLDER
        try:
            folder.mkdir(exist_ok=True)
        except OSError as error:
            self._report_once("write", f"cannot write to the voice cache folder {folder} ({_reason(error)}); "
                                       "voices are kept in memory only until it can")
            return None
        return folder / f"{kind}-{hashlib.sha256(identity.encode()).hexdigest()[:MODEL_HEX_DIGITS]}.npz"

    def _read_model_file(self, path: Path | None, identity: str,
                         check: Callable[[Mapping[str, np.ndarray]], str | None]) -> dict[str, np.ndarray]:
        """The arrays of a model file when it is sound and ``check`` accepts them, else {} (and
        whatever was at the path is cleared, so it can be written again)."""
        if path is None:
            return {}

        def checked(found: Path) -> dict[str, np.ndarray]:
            arrays, meta = _read_npz(found)
            if meta.get("format") != CACHE_FORMAT or meta.get("identity") != identity:
                raise CorruptCacheEntry(f"{found.name}: wrong format or model")
            problem = check(arrays)
            if problem is not None:
                raise CorruptCacheEntry(f"{found.name}: {problem}")
            return arrays

        arrays, _ = self._read_checked(path, checked, count=False)
        return arrays or {}

    def _write_model_file(self, path: Path | None, identity: str, arrays: Mapping[str, np.ndarray]) -> None:
        if path is not None:
            self._write_disk(path, lambda out: _write_npz(out, arrays, {"format": CACHE_FORMAT, "identity": identity}))

    # --- disk ------------------------------------------------------------------------------

    def _checked_profile(self, path: Path, key: str) -> VoiceProfile:
        profile = read_profile(path, key)
        problem = profile_problem(profile, self.backend)
        if problem is not None:
            raise CorruptCacheEntry(problem)
        return profile

    def _read_checked(self, path: Path, read: Callable[[Path], T], count: bool) -> tuple[T | None, bool]:
        """What ``read`` makes of the file at ``path`` when it is a sound one, else None, with
        whatever was there cleared so the rebuilt file can take its place; and whether the path
        is free for that. ``read`` raises CorruptCacheEntry for a file it cannot use."""
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return None, True
        except OSError as error:
            self._report_once("read", f"cannot read the voice cache folder {self.directory} ({_reason(error)})")
            return None, False
        if stat.S_ISREG(info.st_mode):
            try:
                return read(path), True
            except CorruptCacheEntry as error:
                problem = str(error)
        else:
            problem = f"{_kind_of(info.st_mode)} instead of a cache file"
        log.warning("voice cache: rebuilding %s: %s", path.name, problem)
        if count:
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

    def _write_disk(self, path: Path, what: VoiceProfile | Callable[[Path], None]) -> None:
        """Store a prepared voice (or run a writer of a model file); a failure (read-only or full
        folder) is logged once, and the voice stays in memory: the job that prepared it goes on."""
        try:
            if isinstance(what, VoiceProfile):
                write_profile(path, what)
            else:
                what(path)
        except OSError as error:
            self._report_once("write", f"cannot write to the voice cache folder {self.directory} "
                                       f"({_reason(error)}); voices are kept in memory only until it can")

    def _report_once(self, kind: str, message: str) -> None:
        with self._lock:
            if kind in self._reported:
                return
            self._reported.add(kind)
        log.warning("voice cache: %s", message)


def _write_npz(path: Path, arrays: Mapping[str, np.ndarray], meta: dict[str, Any]) -> None:
    """Arrays and a JSON string, atomically: a reader sees the old file or the whole new one."""
    contents = {**arrays, "meta": np.array(json.dumps(meta))}
    atomic_write(path, lambda out: np.savez(out, **contents))  # type: ignore[arg-type]  # stubs mistype **kwds


def _read_npz(path: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and JSON meta of a cache file, refusing anything truncated, corrupt or pickled.

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
                arrays = {name: np.array(data[name]) for name in data.files if name != "meta"}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError, json.JSONDecodeError) as error:
        raise CorruptCacheEntry(f"{path.name}: {error}") from error
    if not isinstance(meta, dict):
        raise CorruptCacheEntry(f"{path.name}: its description is not a JSON object")
    return arrays, meta


def write_profile(path: Path, profile: VoiceProfile) -> None:
    """Write a complete profile atomically: a reader sees the old file or the whole new one."""
    if profile.embedding is None:
        raise ValueError("a profile is written only once its embedding is known")
    arrays: dict[str, np.ndarray] = {f"cond__{name}": value for name, value in profile.conditioning.items()}
    arrays["embedding"] = profile.embedding
    notes = [phrase_record(note) for note in profile.meta.get(NOTES_KEY, [])]
    _write_npz(path, arrays, {**profile.meta, NOTES_KEY: notes, "format": CACHE_FORMAT, "key": profile.key})


def read_profile(path: Path, key: str) -> VoiceProfile:
    """Read a cache entry, refusing anything truncated, corrupt, foreign or pickled."""
    arrays, meta = _read_npz(path)
    if meta.get("format") != CACHE_FORMAT or meta.get("key") != key:
        raise CorruptCacheEntry(f"{path.name}: wrong format or key")
    if "embedding" not in arrays:
        raise CorruptCacheEntry(f"{path.name}: no speaker embedding")
    conditioning = {name[6:]: value for name, value in arrays.items() if name.startswith("cond__")}
    notes = meta.get(NOTES_KEY, [])
    meta[NOTES_KEY] = [phrase_from_record(note) for note in notes] if isinstance(notes, list) else []
    return VoiceProfile(key=key, embedding=arrays["embedding"], conditioning=conditioning, meta=meta)


def profile_problem(profile: VoiceProfile, backend: Backend) -> str | None:
    """Why a profile read from disk cannot be used, in words; None when it can.

    The speaker embedding must be a non-empty, finite float vector; the resemblance figures
    None or cosines; the conditioning must match what the backend declares (see
    ``Backend.conditioning_spec``).
    """
    problem = _embedding_problem(profile.embedding)
    if problem is not None:
        return problem
    for name in RESEMBLANCE_KEYS:
        value = profile.meta.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                  or not math.isfinite(value) or not -1.0 <= value <= 1.0):
            return f"{name} is {value!r}, not a cosine"
    problem = backend.conditioning_problem(profile.conditioning)
    return None if problem is None else f"conditioning: {problem}"


def _embedding_problem(embedding: np.ndarray | None) -> str | None:
    if embedding is None:
        return "no speaker embedding"
    if embedding.dtype.kind != "f" or embedding.ndim != 1 or not 0 < embedding.size <= MAX_EMBEDDING_DIM:
        return f"the speaker embedding has type {embedding.dtype} and shape {embedding.shape}"
    if not np.isfinite(embedding).all():
        return "the speaker embedding holds NaN or infinite values"
    return None


def _plain_problem(arrays: Mapping[str, np.ndarray]) -> str | None:
    """Why a stored plain-voice embedding cannot be used (it must be one unit-length vector)."""
    if set(arrays) != {"embedding"}:
        return f"holds {', '.join(sorted(arrays))}, expected embedding"
    embedding = arrays["embedding"]
    problem = _embedding_problem(embedding)
    if problem is None and abs(float(np.linalg.norm(embedding)) - 1.0) > 1e-3:
        problem = "the embedding is not of unit length"
    return problem


class VoicePhrase(Phrase):
    """A note the voice cache adds to a voice's summary, translated in the ``voices`` context."""

    context: ClassVar[str] = "voices"


NOT_MEASURED = "resemblance not measured ({why})"
TEMPLATES = (NOT_MEASURED,)  # handed to lupdate by scripts/translations, with RESEMBLANCE_EXPLAINED

RESEMBLANCE_EXPLAINED = (
    "How much the voice sounds like its reference clip: the cosine of two GE2E speaker "
    "embeddings (a speaker-verification network), one of the clip and one of the voice speaking "
    "a fixed sentence. 1 would be the same recording; two recordings of one person score about "
    "0.75-0.9, different people of the same sex about 0.3-0.6. The embedded voice adapts one "
    "speaker's model to each clip (pitch, formants, timbre, pace): it is not a clone, so about "
    "0.6-0.7 is a good result for it, and the plain voice's figure shows what the adaptation "
    "gained. Each figure moves by a few hundredths between renders."
)


def resemblance_text(summary: Mapping[str, Any]) -> str:
    """A prepared voice's resemblance figures in words (as the studio and ``say`` show them)."""
    adapted, plain = (summary.get(name) for name in RESEMBLANCE_KEYS)
    if adapted is None:
        return "Resemblance to the clip: not measured"
    text = f"Resemblance to the clip: {adapted:.2f}"
    return text if plain is None else f"{text} (plain voice: {plain:.2f})"


def _describe(error: BaseException) -> str:
    if isinstance(error, EngineError):
        return f"{error.code.value}: {error.message}"
    return f"{type(error).__name__}: {error}"


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _kind_of(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a named pipe"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
    return next((name for test, name in kinds if test(mode)), "something")


def cache_files(directory: str | os.PathLike[str]) -> list[Path]:
    """The files the voice cache wrote in ``directory``: its entries, its model files (in
    ``models/``) and unfinished writes of either.

    Measuring and clearing the cache look at these only, never at the whole folder: the cache
    folder is a setting, and a user who points it at a folder of their own must not lose what
    else is in it. A link or a folder with an entry's name is not a file the cache wrote, and a
    link at ``models/`` is not followed.
    """
    found = _files_named(Path(directory), _CACHE_FILE)
    models = Path(directory) / MODELS_FOLDER
    if models.is_dir() and not models.is_symlink():
        found += _files_named(models, _MODEL_FILE)
    return found


def _files_named(folder: Path, names: re.Pattern[str]) -> list[Path]:
    """The regular files (not links) directly in ``folder`` whose whole name matches ``names``."""
    try:
        with os.scandir(folder) as entries:
            return [Path(entry.path) for entry in entries
                    if names.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)]
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

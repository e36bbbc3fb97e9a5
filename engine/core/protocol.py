"""The one contract between the engine process and its clients.

Every message that crosses the process boundary is a small frozen dataclass defined here.
Audio travels as float32 mono numpy arrays inside :class:`AudioChunk`; multiprocessing
pickles messages in transit, which is fine for IPC (caches on disk never use pickle).
This module imports nothing heavy so that any process can load it cheaply.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import numbers
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

# The one table of codes (a failure event carries one) and the error that carries one,
# re-exported: callers import both from here.
from engine.core.codes import EngineError as EngineError
from engine.core.codes import ErrorCode as ErrorCode
from engine.core.numbers import Range
from engine.core.phrases import Phrase

if TYPE_CHECKING:
    import numpy as np


class Priority(enum.IntEnum):
    """Scheduling class: interactive work is treated as due a little earlier than batch work
    (engine.synthesis.scheduler.INTERACTIVE_LEAD_S), so it overtakes batch work due about as soon."""

    INTERACTIVE = 0  # auditioning a line or a voice: a person is waiting
    BATCH = 1  # batch dubbing, benchmarks


# --- what a job is -------------------------------------------------------------------------


# A voice's settings: the engine, the project model, the CLI and the studio's spin boxes read these.
SPEED = Range("speed", 0.25, 4.0, unit="×", hint="(1 = the voice's own rate, 2 = twice as fast)",
              code=ErrorCode.BAD_SETTING)
PITCH = Range("pitch", -24.0, 24.0, unit="semitones", code=ErrorCode.BAD_SETTING)


@dataclass(frozen=True)
class VoiceSettings:
    """Per-voice settings a character carries; backends use what they support."""

    speed: float = 1.0  # >1 speaks faster
    pitch_semitones: float = 0.0  # added on top of the pitch matched to the reference clip
    instruction: str = ""  # e.g. "speak sadly" (backends with instruction support)
    language: str = ""  # ISO code of the text, "" = backend default

    def check(self, speed: Range = SPEED) -> None:
        """Raise EngineError(BAD_SETTING) unless speed and pitch are finite and in range;
        ``speed`` is the backend's own range (its capabilities), within :data:`SPEED`."""
        speed.check(self.speed)
        PITCH.check(self.pitch_semitones)


@dataclass(frozen=True)
class VoiceSpec:
    """A character's voice: a reference clip, what is said in it, and settings."""

    clip_path: str
    transcript: str = ""
    settings: VoiceSettings = field(default_factory=VoiceSettings)


@dataclass(frozen=True)
class Job:
    """One line to speak.

    ``listening`` says whether someone plays the audio as it arrives (an audition, a bench's
    simulated listener, a remote client). The engine then paces the job by its listener's
    playback: each next piece is due before the audio already delivered runs out. A render
    written to a file has no listener (``False``): its pieces get an unhurried deadline and
    fill the capacity that listeners leave free.

    ``variant`` picks the reading: the model's sampling is seeded by the voice, the text, the
    settings but the speed, and the variant (:func:`synthesis_seed`). The same
    variant is the same take, at any load and any speed (a fit pass); another is a new reading
    of the line (rendering it again).
    """

    text: str
    voice: VoiceSpec
    priority: Priority = Priority.BATCH
    job_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    listening: bool = True
    variant: int = 0


VARIANT = Range("variant", 0, 2**31 - 1, whole=True, code=ErrorCode.BAD_REQUEST)  # Job.variant: a seed's worth


def synthesis_seed(voice_key: str, text: str, settings: VoiceSettings, variant: int = 0) -> int:
    """The seed of a job's sampling: from the voice, the text, the settings but the speed, and
    the reading (``Job.variant``), so a line spoken again is the same take, whatever else the
    engine is computing, and a faster pass of it (fitting it to its slot) differs only by its
    speed."""
    unhurried = dataclasses.replace(settings, speed=1.0)
    digest = hashlib.blake2b(repr((voice_key, text, unhurried, variant)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


# --- requests: client -> engine ------------------------------------------------------------


@dataclass(frozen=True)
class SubmitJob:
    job: Job


@dataclass(frozen=True)
class CancelJob:
    job_id: str


# Slots are worker threads, each computing one piece at a time in Python. The bound keeps a
# typo (or a GPU backend's memory-based suggestion) from starting hundreds of threads; a GPU
# serves more jobs at once by batching them into one call (a backend's max_batch), not by more
# slots. The CLI, the server's configuration and the studio's spin boxes all take it from here.
SLOTS = Range("slots", 1, 16, whole=True, code=ErrorCode.BAD_OPTION)


@dataclass(frozen=True)
class SetSlots:
    slots: int


@dataclass(frozen=True)
class PrepareVoice:
    """Prepare (or look up) a voice ahead of time; answered by VoicePrepared or RequestFailed."""

    voice: VoiceSpec
    request_id: str = field(default_factory=lambda: uuid.uuid4().hex)


@dataclass(frozen=True)
class GetStats:
    request_id: str = field(default_factory=lambda: uuid.uuid4().hex)


@dataclass(frozen=True)
class Shutdown:
    pass


Request = (
    SubmitJob
    | CancelJob
    | SetSlots
    | PrepareVoice
    | GetStats
    | Shutdown
)


# --- events: engine -> client --------------------------------------------------------------


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do, so the studio can show or hide features."""

    name: str
    sample_rate: int
    streaming: bool
    languages: tuple[str, ...]
    cloning: bool
    cross_lingual: bool
    instructions: bool
    speed: Range = SPEED  # the speeds it speaks at; the engine refuses others (E_BAD_SETTING)


# The backend an engine runs when none is named: the embedded voices, which ship in the .venv and
# run on any CPU, each line spoken by the voice of its language (EMBEDDED_VOICES: Chinese by
# zh-baker, the rest by Piper; issue 30). The Mandarin voice's training data is for non-commercial
# use only: it says so before its first line (the commands print its notice, the studio asks once).
# Declared here, not in engine.synthesis.backends, so the project model (which may not import the
# backends) reads the same names.
EMBEDDED_BACKEND = "embedded"
DEFAULT_BACKEND = EMBEDDED_BACKEND
EMBEDDED_VOICES = {"zh": "zh-baker"}  # a line's language -> the embedded voice that speaks it
EMBEDDED_OTHER_VOICE = "piper"  # every other language's


def speaking_backend(backend: str, language: str) -> str:
    """The backend whose voice speaks a line in ``language`` (a language code) on ``backend``:
    itself, or under the embedded voices the one of its language. A take records this, so an
    English take made by Piper stays the same take under the embedded backend."""
    if backend != EMBEDDED_BACKEND:
        return backend
    return EMBEDDED_VOICES.get(language, EMBEDDED_OTHER_VOICE)


class BackendName(Phrase):
    """A backend's name ("embedded") inside a sentence; the studio shows it in its language
    (the ``backends`` context, beside the backends' display labels)."""

    context: ClassVar[str] = "backends"


class EnginePhrase(Phrase):
    """A sentence of the engine (a start-up stage, a model folder's banner), said by the studio
    in the ``engine`` context."""

    context: ClassVar[str] = "engine"


# The engine's start-up stages, declared once (scripts/translations hands them to lupdate).
STARTED = "started"
LOADING = "loading {backend}"  # the backend a BackendName
OPENING_CACHE = "opening the voice cache"
WARMING_UP = "warming up"
STAGES = (STARTED, LOADING, OPENING_CACHE, WARMING_UP)


@dataclass(frozen=True)
class EngineStarting:
    """Start-up progress. The first one ("started") is the handshake: the engine's interpreter
    runs our code and is tied to its parent; more follow as it loads (see EngineClient.start)."""

    pid: int
    stage: str  # a EnginePhrase of STAGES: "started", "loading piper", "opening the voice cache", ...
    elapsed_s: float  # since the engine's code began to run


@dataclass(frozen=True)
class EngineReady:
    backend: Capabilities
    slots: int
    pid: int
    start_s: float  # process start to ready, measured in the engine
    facts: dict[str, Any] = field(default_factory=dict)  # what loaded: device, versions, model kind


def plain_facts(value: Any) -> Any:
    """``value`` as plain data (str, int, float, bool, None, lists, str-keyed dicts) before it
    crosses to the client: a backend's facts may hold its library's own types (torch's
    ``__version__`` is a TorchVersion), which the studio, running without that library, could
    not unpickle."""
    if value is None or type(value) in (bool, int, float, str):
        return value
    if isinstance(value, bool) or type(value).__name__ in ("bool", "bool_"):  # numpy's bool is no bool
        return bool(value)
    if isinstance(value, numbers.Integral):  # numpy's integers too
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, dict):
        return {str(key): plain_facts(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain_facts(item) for item in value) if type(value) in (list, tuple) \
            else [plain_facts(item) for item in value]
    return str(value)


@dataclass(frozen=True)
class JobQueued:
    job_id: str
    position: int  # jobs ahead of it in the queue


@dataclass(frozen=True)
class JobStarted:
    job_id: str
    queue_wait_s: float


@dataclass(frozen=True)
class AudioChunk:
    job_id: str
    seq: int
    pcm: np.ndarray  # float32, mono, [-1, 1]
    sample_rate: int
    text: str = ""  # the piece of text this chunk speaks


@dataclass(frozen=True)
class JobTiming:
    """Where a job's time went, measured inside the engine (seconds)."""

    queue_wait_s: float
    voice_prepare_s: float
    voice_cache: str  # "memory", "disk" or "miss"
    first_chunk_s: float  # job start to first chunk sent
    synth_s: float  # job start to last chunk sent
    audio_s: float
    chunks: int
    # Seconds spent computing this job's pieces (voice preparation excluded). The rest of
    # synth_s is time the job was parked between pieces while other jobs' pieces were due first.
    compute_s: float = 0.0


@dataclass(frozen=True)
class JobFinished:
    job_id: str
    timing: JobTiming


@dataclass(frozen=True)
class JobFailed:
    job_id: str
    code: ErrorCode
    message: str
    retryable: bool = False
    resubmitted: bool = False  # the client already queued it again (after an engine crash)


@dataclass(frozen=True)
class VoicePrepared:
    request_id: str
    voice_key: str
    cache: str  # "memory", "disk" or "miss"
    prepare_s: float
    summary: dict[str, Any]  # JSON-able facts about the voice (duration, f0, warnings, ...)


@dataclass(frozen=True)
class RequestFailed:
    request_id: str
    code: ErrorCode
    message: str


@dataclass(frozen=True)
class SlotsChanged:
    slots: int


@dataclass(frozen=True)
class Stats:
    request_id: str
    pid: int
    backend: str
    slots: int
    queued: int  # jobs not started yet
    running: int  # jobs started (first piece begun) and not ended
    jobs_finished: int
    jobs_failed: int
    cache_memory_hits: int
    cache_disk_hits: int
    cache_misses: int
    cache_rebuilt: int  # corrupt disk entries detected and rebuilt
    prepare_s_total: float
    uptime_s: float
    computing: int = 0  # pieces being computed at this moment (at most the slots)
    # Engines whose warm-up (what a new voice needs, done while they have no work) is not over:
    # 0 or 1 here, summed over a server's replicas. A bench waits for 0 before it measures.
    warming_up: int = 0


@dataclass(frozen=True)
class EngineStopped:
    """The engine left its main loop (after Shutdown); also the reader's stop sentinel."""

    reason: str = "shutdown"


@dataclass(frozen=True)
class EngineRestarted:
    """The client restarted a crashed engine and resubmitted the unfinished jobs."""

    resubmitted: tuple[str, ...]
    exit_code: int | None


Event = (
    EngineStarting
    | EngineReady
    | JobQueued
    | JobStarted
    | AudioChunk
    | JobFinished
    | JobFailed
    | VoicePrepared
    | RequestFailed
    | SlotsChanged
    | Stats
    | EngineStopped
    | EngineRestarted
)

# The events of one job's stream, each with its job_id; written with |, so isinstance takes it.
JobEvent = JobQueued | JobStarted | AudioChunk | JobFinished | JobFailed

JOB_END_EVENTS = (JobFinished, JobFailed)


# --- what an engine client is ----------------------------------------------------------------

StartProgress = Callable[[EngineStarting], None]


class JobSubmitter(Protocol):
    """The part of an engine client that takes jobs: what a render session needs, which the
    studio's bridge (a client's events relayed as signals) offers as well."""

    @property
    def ready(self) -> EngineReady | None: ...  # None until the engine has started

    def submit(self, job: Job) -> float: ...  # the submit time (time.monotonic())
    def cancel(self, job_id: str) -> None: ...


class EngineClientProtocol(JobSubmitter, Protocol):
    """An engine client: the local :class:`engine.synthesis.client.local.EngineClient` and the remote
    :class:`engine.synthesis.client.remote.RemoteEngineClient` implement it, and every caller types against it.
    Its events come from one consumer's ``get_event()`` loop."""

    engine_start_s: float  # start() to EngineReady, as this client saw it
    restarts: int  # engines (or connections) that broke and were started again

    @property
    def pid(self) -> int | None: ...  # the engine's process on this computer, if any

    def start(self, on_progress: StartProgress | None = None) -> EngineReady: ...
    def set_slots(self, slots: int) -> None: ...
    def prepare_voice(self, voice: VoiceSpec) -> str: ...
    def request_stats(self) -> str: ...
    def get_event(self, timeout: float | None = None) -> Event | None: ...
    def wake(self) -> None: ...  # a blocked get_event() returns EngineStopped("wake")
    def close(self, timeout: float = ...) -> None: ...

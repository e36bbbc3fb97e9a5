"""Model folders fetched from a model hub, and what a check of one found.

Every downloadable model (CosyVoice2, Whisper's larger sizes, the dialogue-separation plug-ins)
comes through :func:`download_from_hub`: the hub's own client (huggingface_hub) resumes partial files, and
progress is reported by watching bytes land on disk, so it works across client versions. Each
model kind checks its finished folder with its own validator, which returns a
:class:`ValidationReport`.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a model folder: which file, what, and what to do."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass
class ValidationReport:
    folder: str
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if self.ok:
            return "complete"
        return "; ".join(str(problem) for problem in self.problems)

    def to_json(self) -> dict[str, Any]:
        return {
            "folder": self.folder,
            "ok": self.ok,
            "problems": [str(problem) for problem in self.problems],
            "warnings": [str(warning) for warning in self.warnings],
            "facts": self.facts,
        }


@dataclass(frozen=True)
class DownloadProgress:
    done_bytes: int
    total_bytes: int  # 0 when the hub did not say
    files_done: int
    files_total: int
    current: str


ProgressCallback = Callable[[DownloadProgress], None]


class DownloadError(RuntimeError):
    pass


@dataclass
class _DownloadState:
    """What the progress watcher reports besides bytes: the file in flight and files done."""

    current: str = ""
    done: int = 0


def _bytes_on_disk(target: Path, names: list[str]) -> int:
    """Finished files plus partial ones (huggingface_hub keeps them under .cache/huggingface)."""
    total = sum(_size(target / name) for name in names)
    partial_dir = target / ".cache" / "huggingface" / "download"
    if partial_dir.is_dir():
        total += sum(_size(path) for path in partial_dir.rglob("*.incomplete"))
    return total


def _size(path: Path) -> int:
    """A file's size, 0 when it is not there: the download renames a partial file to its
    name while the watcher lists them (it raised FileNotFoundError in the watcher's thread)."""
    try:
        return path.stat().st_size if path.is_file() else 0
    except FileNotFoundError:
        return 0


def download_from_hub(
    target: str | Path,
    repo_id: str,
    validate: Callable[[Path], ValidationReport],
    endpoint: str | None = None,
    revision: str | None = None,
    progress: ProgressCallback | None = None,
    should_stop: Callable[[], bool] | None = None,
    interval_s: float = 0.5,
    only: Collection[str] | None = None,
) -> ValidationReport:
    """Download (or finish downloading) a model into ``target`` and validate it.

    Files already complete are skipped and partial files resume where they stopped, so an
    interrupted download is continued by calling this again. ``endpoint`` points at another
    hub (a mirror, or a local test server). ``should_stop`` is checked between files. ``only``
    names the repository's files to fetch (paths inside it) when the model is one file of a
    repository holding many.
    ``validate`` checks the finished folder (each model kind has its own). A download that
    fails before any bytes land removes the folders it made (and only those): a failed first
    try leaves no empty model folder behind.
    """
    target = Path(target).expanduser()
    made = [folder for folder in (target, *target.parents) if not folder.exists()]  # deepest first
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DownloadError(f"cannot make the folder {target}: {error.strerror or error}") from error
    try:
        return _download(target, repo_id, validate, endpoint, revision, progress, should_stop, interval_s, only)
    except BaseException:
        if made and not _resumable(target):
            _remove_made(made)
        raise


def _resumable(target: Path) -> bool:
    """Whether a failed download left something in ``target`` that the next one resumes: a
    finished file, or a partial one (huggingface_hub's ``*.incomplete`` under .cache) with bytes."""
    for path in target.rglob("*"):
        inside_cache = ".cache" in path.relative_to(target).parts
        if (not inside_cache or path.suffix == ".incomplete") and path.is_file() and _size(path) > 0:
            return True
    return False


def _remove_made(made: list[Path]) -> None:
    """Remove the download's folder and the parents it made (``made``, deepest first); a parent
    that holds something by now is someone else's too and stays."""
    shutil.rmtree(made[0], ignore_errors=True)
    for folder in made[1:]:
        try:
            folder.rmdir()
        except OSError:
            return


def _listed_files(repo_id: str, siblings: list[tuple[str, int]],
                  only: Collection[str] | None) -> list[tuple[str, int]]:
    """The (name, size) of the repository's files to fetch: all but hidden ones, or those ``only`` names."""
    files = [(name, size) for name, size in siblings if not name.startswith(".")]
    if only is None:
        return files
    files = [(name, size) for name, size in files if name in only]
    missing = sorted(set(only) - {name for name, _ in files})
    if missing:
        raise DownloadError(f"{repo_id} has no {', '.join(missing)}")
    return files


def _download(
    target: Path,
    repo_id: str,
    validate: Callable[[Path], ValidationReport],
    endpoint: str | None,
    revision: str | None,
    progress: ProgressCallback | None,
    should_stop: Callable[[], bool] | None,
    interval_s: float,
    only: Collection[str] | None = None,
) -> ValidationReport:
    try:
        from huggingface_hub import HfApi, hf_hub_download
        from huggingface_hub.errors import HfHubHTTPError
    except ImportError as error:
        raise DownloadError("huggingface_hub is not installed") from error

    api = HfApi(endpoint=endpoint)
    try:
        info = api.model_info(repo_id, revision=revision, files_metadata=True)
    except (HfHubHTTPError, OSError) as error:
        raise DownloadError(f"cannot list {repo_id}: {error}") from error
    files = _listed_files(repo_id, [(s.rfilename, int(s.size or 0)) for s in info.siblings or []], only)
    names = [name for name, _ in files]
    total = sum(size for _, size in files)
    state = _DownloadState()
    finished = threading.Event()
    reporting = threading.Lock()

    def report() -> None:
        if progress is None:
            return
        # The watcher and the loop both report: one at a time, so the callback never runs twice at
        # once. Files done are read before the bytes, so a finished file's bytes are always counted.
        with reporting:
            done, current = state.done, state.current
            progress(DownloadProgress(_bytes_on_disk(target, names), total, done, len(files), current))

    def watch() -> None:
        while not finished.wait(interval_s):
            report()

    watcher = threading.Thread(target=watch, name="model-download-progress", daemon=True)
    watcher.start()
    try:
        for name, size in files:
            if should_stop is not None and should_stop():
                raise DownloadError("download stopped; run it again to resume")
            state.current = name
            path = target / name
            if not (path.is_file() and size and path.stat().st_size == size):
                try:
                    hf_hub_download(repo_id, name, revision=info.sha, local_dir=str(target), endpoint=endpoint)
                except (HfHubHTTPError, OSError) as error:
                    raise DownloadError(f"{name}: {error}; run the download again to resume") from error
            state.done += 1
            report()
    finally:
        finished.set()
        watcher.join()
    return validate(target)



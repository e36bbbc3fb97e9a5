"""What the load generator speaks: text sets, voice sets, and the jobs made from them.

Texts and voices are picked round-robin by job index, so a run is reproducible and every
level sees the same mix of short, medium and long lines.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from engine.core.audio_io import atomic_write_wav, read_audio
from engine.core.codes import ErrorCode
from engine.core.files import FileError, read_text_file
from engine.core.languages import HAN
from engine.core.paths import SAMPLE_TEXTS, SAMPLE_VOICES
from engine.core.protocol import Job, Priority, VoiceSpec
from engine.core.reference import transcript_beside

KINDS = ("short", "medium", "long")
BUNDLED_LANGUAGES = ("en", "zh")
_HAN = re.compile(f"[{HAN}]")


class WorkloadError(ValueError):
    """A text or voice set that cannot be used; the message starts with an error code."""




@dataclass(frozen=True)
class TextItem:
    text: str
    kind: str  # "short", "medium" or "long"
    language: str  # "en", "zh" or "" (the backend's default)


def classify(text: str) -> str:
    """Short, medium or long by length; CJK characters count about three Latin ones of speech."""
    weight = len(text) + 2 * len(_HAN.findall(text))
    if weight <= 60:
        return "short"
    if weight <= 180:
        return "medium"
    return "long"


def read_lines(path: Path) -> list[str]:
    """Non-empty, non-comment lines of a text file (UTF-8, or a legacy encoding it detects)."""
    try:
        raw = read_text_file(path)
    except FileError as error:
        raise WorkloadError(f"{ErrorCode.TEXTS}: {error.message}") from None
    return [line.strip() for line in raw.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _interleave(groups: Sequence[Sequence[TextItem]]) -> list[TextItem]:
    """Round-robin over groups, so consecutive jobs alternate kinds and languages."""
    result: list[TextItem] = []
    longest = max((len(g) for g in groups), default=0)
    for i in range(longest):
        result.extend(group[i] for group in groups if i < len(group))
    return result


def bundled_languages(backend_languages: Sequence[str]) -> tuple[str, ...]:
    """Which bundled sets suit a backend: Chinese when it lists "zh", English unless it is zh-only."""
    codes = [code.lower() for code in backend_languages]
    speaks_zh = any(code.startswith("zh") for code in codes)
    speaks_en = any(code.startswith("en") for code in codes)
    if speaks_zh and not speaks_en:
        return ("zh",)
    return ("en", "zh") if speaks_zh else ("en",)


@dataclass(frozen=True)
class TextSet:
    items: tuple[TextItem, ...]
    source: str  # "bundled:en,zh" or the file it came from

    @staticmethod
    def bundled(languages: Sequence[str] = ("en",), kinds: Sequence[str] = KINDS) -> TextSet:
        groups: list[list[TextItem]] = []
        for language in languages:
            if language not in BUNDLED_LANGUAGES:
                raise WorkloadError(f"{ErrorCode.TEXTS}: no bundled texts for language {language!r}; "
                                    f"bundled: {', '.join(BUNDLED_LANGUAGES)}")
            for kind in kinds:
                if kind not in KINDS:
                    raise WorkloadError(f"{ErrorCode.TEXTS}: unknown text kind {kind!r}; use {', '.join(KINDS)}")
                lines = read_lines(SAMPLE_TEXTS / language / f"{kind}.txt")
                groups.append([TextItem(line, kind, language) for line in lines])
        return TextSet(tuple(_interleave(groups)), "bundled:" + ",".join(languages))

    @staticmethod
    def from_file(path: str | Path) -> TextSet:
        """One text per line; Chinese lines are tagged "zh", others use the backend's default."""
        path = Path(path)
        lines = read_lines(path)
        if not lines:
            raise WorkloadError(f"{ErrorCode.TEXTS}: {path} holds no text (one line per text; # starts a comment)")
        items = tuple(TextItem(line, classify(line), "zh" if _HAN.search(line) else "") for line in lines)
        return TextSet(items, str(path))

    def pick(self, index: int) -> TextItem:
        return self.items[index % len(self.items)]

    def to_dict(self) -> dict[str, Any]:
        counts = {kind: sum(1 for item in self.items if item.kind == kind) for kind in KINDS}
        return {"source": self.source, "texts": len(self.items), "by_kind": counts}


@dataclass(frozen=True)
class VoiceSet:
    voices: tuple[VoiceSpec, ...]

    @staticmethod
    def from_clips(clips: Sequence[str | Path]) -> VoiceSet:
        """Voices from clip files; a transcript next to a clip (same name, ``.txt``) is used."""
        voices = []
        for clip in clips:
            path = Path(clip)
            if not path.is_file():
                raise WorkloadError(f"{ErrorCode.VOICES}: reference clip not found: {path}")
            try:
                transcript = transcript_beside(path)
            except FileError as error:
                raise WorkloadError(f"{ErrorCode.VOICES}: {error.message}") from None
            voices.append(VoiceSpec(str(path.resolve()), transcript))
        if not voices:
            raise WorkloadError(f"{ErrorCode.VOICES}: give at least one reference clip")
        return VoiceSet(tuple(voices))

    @staticmethod
    def bundled() -> VoiceSet:
        return VoiceSet.from_clips(sorted((SAMPLE_VOICES).glob("*.wav")))

    def pick(self, index: int) -> VoiceSpec:
        return self.voices[index % len(self.voices)]

    def to_dict(self) -> dict[str, Any]:
        return {"clips": [v.clip_path for v in self.voices]}


@dataclass
class JobSource:
    """Makes the jobs of a run. ``cold`` gives every job a voice the engine has never seen.

    A cold job's clip is a copy of the chosen clip with a different number of trailing zero
    samples: the file (and so its cache key) is new, while the engine's silence trimming makes
    the prepared voice the same as the original's. Every cold job therefore pays a full voice
    preparation, as if each request brought a new speaker.
    """

    texts: TextSet
    voices: VoiceSet
    cold: bool = False
    _scratch: Path | None = field(default=None, repr=False)
    _clips: dict[str, tuple[np.ndarray, int]] = field(default_factory=dict, repr=False)  # cold: decoded originals

    def make(self, index: int) -> tuple[Job, TextItem, VoiceSpec]:
        """The job of run position ``index``, its text, and the voice it was made from (the original clip)."""
        item = self.texts.pick(index)
        voice = self.voices.pick(index)
        clip_path = self._cold_clip(voice.clip_path, index) if self.cold else voice.clip_path
        spec = VoiceSpec(clip_path, voice.transcript, replace(voice.settings, language=item.language))
        # The bench stands in for listeners: the engine paces its jobs by their playback.
        return Job(item.text, spec, Priority.BATCH, listening=True), item, voice

    def _cold_clip(self, clip_path: str, index: int) -> str:
        if self._scratch is None:
            self._scratch = Path(tempfile.mkdtemp(prefix="dubstudio-bench-cold-"))
        if clip_path not in self._clips:  # decode each original once, not once per job
            self._clips[clip_path] = read_audio(clip_path, mono=False)
        data, rate = self._clips[clip_path]
        padded = np.concatenate([data, np.zeros((index + 1, data.shape[1]), dtype=np.float32)])
        target = self._scratch / f"{Path(clip_path).stem}-cold{index}.wav"
        atomic_write_wav(target, padded, rate, subtype="FLOAT")
        return str(target)

    def close(self) -> None:
        """Remove the cold clips."""
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None
        self._clips.clear()

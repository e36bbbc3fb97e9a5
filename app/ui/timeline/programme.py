"""The dub as the timeline plays it: chosen takes at their timecodes, plus the guide (no Qt).

The transport asks for short blocks (a tenth of a second) just ahead of what is being heard,
so nothing is mixed in advance: moving a line, choosing another take or changing the guide
level is heard within one block. A block is the sum of the takes that overlap it, each at the
gain that brings it to the project's loudness target (as the exported mix does), plus the
guide track at the level the user set.

Audio is kept decoded, mono, at :data:`PREVIEW_RATE` in an :class:`AudioLibrary`, with a
min/max envelope (:data:`PEAKS_PER_S` points a second) that the timeline draws as waveforms.
Decoding is slow (file reads, resampling), so callers run :func:`load_audio` on a worker and
hand the results to the library on the GUI thread.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from app.project import Project
from app.project.loudness import gain_for
from app.project.timeline import Slot
from app.ui.waveform_gain import display_gain
from engine.core.audio_io import AudioError, read_audio
from engine.core.codes import ErrorCode

PREVIEW_RATE = 24_000  # speech needs no more, and it halves the work of 48 kHz
PEAKS_PER_S = 200  # envelope points per second: 5 px apart at the timeline's highest zoom


@dataclass(frozen=True)
class Audio:
    """Decoded mono audio at :data:`PREVIEW_RATE` with its min/max envelope."""

    pcm: np.ndarray
    low: np.ndarray
    high: np.ndarray

    @property
    def duration_s(self) -> float:
        return len(self.pcm) / PREVIEW_RATE

    @cached_property
    def peak(self) -> float:
        """The largest sample magnitude (full scale 1.0)."""
        return float(max(self.high.max(initial=0.0), -self.low.min(initial=0.0)))

    @property
    def display_gain(self) -> float:
        """How much the waveform is enlarged so that quiet takes show their shape (peak-normalised)."""
        return display_gain(self.peak)


def envelope(pcm: np.ndarray, bin_frames: int) -> tuple[np.ndarray, np.ndarray]:
    """Minimum and maximum of each ``bin_frames`` samples (the last bin may be shorter)."""
    if pcm.size == 0:
        empty = np.zeros(0, dtype=np.float32)
        return empty, empty
    bins = math.ceil(pcm.size / bin_frames)
    padded = np.pad(pcm, (0, bins * bin_frames - pcm.size), mode="edge").reshape(bins, bin_frames)
    return padded.min(axis=1), padded.max(axis=1)


def load_audio(path: Path) -> Audio:
    """A sound file as :class:`Audio` (any rate and channel count :mod:`engine.core.audio_io` reads)."""
    mono, _ = read_audio(path, PREVIEW_RATE)  # a pipe is refused, never waited on
    mono = np.ascontiguousarray(mono)
    low, high = envelope(mono, PREVIEW_RATE // PEAKS_PER_S)
    return Audio(mono, low, high)


def load_many(paths: Iterable[Path]) -> dict[Path, Audio | str]:
    """Decode several files; a file that cannot be read maps to the reason (for a tooltip)."""
    out: dict[Path, Audio | str] = {}
    for path in paths:
        try:
            out[path] = load_audio(path)
        except (AudioError, OSError, ValueError) as error:
            out[path] = f"{ErrorCode.TAKE_UNREADABLE}: {path.name}: {error}"
    return out


class AudioLibrary:
    """Decoded takes and guide tracks by path. Take files never change once written, so an
    entry stays valid for as long as it is kept; :meth:`retain` drops the ones no longer shown."""

    def __init__(self) -> None:
        self._audio: dict[Path, Audio] = {}
        self._errors: dict[Path, str] = {}

    def get(self, path: Path) -> Audio | None:
        return self._audio.get(path)

    def error(self, path: Path) -> str | None:
        return self._errors.get(path)

    def missing(self, paths: Iterable[Path]) -> list[Path]:
        """Paths neither loaded nor known to be unreadable (what to load next)."""
        return [p for p in dict.fromkeys(paths) if p not in self._audio and p not in self._errors]

    def add(self, loaded: dict[Path, Audio | str]) -> None:
        for path, item in loaded.items():
            if isinstance(item, Audio):
                self._audio[path] = item
            else:
                self._errors[path] = item

    def retain(self, paths: Iterable[Path]) -> None:
        keep = set(paths)
        for table in (self._audio, self._errors):
            for path in [p for p in table if p not in keep]:
                del table[path]


@dataclass(frozen=True)
class Placement:
    """A take in the programme: where it begins (frames), its samples and its gain."""

    begin: int
    pcm: np.ndarray
    gain: float

    @property
    def end(self) -> int:
        return self.begin + len(self.pcm)


def chosen_takes(project: Project) -> dict[str, Path]:
    """Each line's chosen take file, by line id (what the timeline shows and plays).

    Resolving a project path checks the real path on disk, so callers make this once per
    change and share it rather than resolving every take several times.
    """
    out = {}
    for line in project.lines:
        take = project.chosen_take(line)
        if take is not None:
            out[line.id] = project.take_path(take)
    return out


def placements(project: Project, slots: Sequence[Slot], takes: dict[str, Path], library: AudioLibrary) -> list[Placement]:
    """The loaded chosen takes (``takes``: see :func:`chosen_takes`) at their slots' starts,
    each at the gain that brings it to the project's loudness target."""
    target = project.settings.loudness_target_lufs
    lines = {line.id: line for line in project.lines}
    out = []
    for slot in slots:
        take = project.chosen_take(lines[slot.line_id])
        audio = library.get(takes[slot.line_id]) if slot.line_id in takes else None
        if take is not None and audio is not None:
            out.append(Placement(int(round(slot.start * PREVIEW_RATE)), audio.pcm, gain_for(take.loudness_lufs, target)))
    return out


class Programme:
    """Takes and the guide on one time line, read block by block at any speed and direction."""

    rate = PREVIEW_RATE

    def __init__(self) -> None:
        self._placements: list[Placement] = []
        self._begins: list[int] = []
        self._longest = 0
        self._guide: np.ndarray | None = None

    def set_dialogue(self, items: Sequence[Placement]) -> None:
        self._placements = sorted(items, key=lambda p: p.begin)
        self._begins = [p.begin for p in self._placements]
        self._longest = max((len(p.pcm) for p in self._placements), default=0)

    def set_guide(self, pcm: np.ndarray | None) -> None:
        self._guide = pcm

    @property
    def has_guide(self) -> bool:
        return self._guide is not None

    @property
    def duration_s(self) -> float:
        """Where the last sound ends (takes or guide)."""
        end = max((p.end for p in self._placements), default=0)
        if self._guide is not None:
            end = max(end, len(self._guide))
        return end / self.rate

    def read(self, start: int, frames: int, guide_gain: float) -> np.ndarray:
        """Frames ``start`` … ``start + frames`` of the mix (silence before 0 and after the end)."""
        out = np.zeros(frames, dtype=np.float32)
        stop = start + frames
        first = bisect.bisect_left(self._begins, start - self._longest)
        last = bisect.bisect_left(self._begins, stop)
        for item in self._placements[first:last]:
            lo, hi = max(start, item.begin), min(stop, item.end)
            if lo < hi:
                out[lo - start : hi - start] += item.pcm[lo - item.begin : hi - item.begin] * np.float32(item.gain)
        if self._guide is not None and guide_gain > 0:
            lo, hi = max(start, 0), min(stop, len(self._guide))
            if lo < hi:
                out[lo - start : hi - start] += self._guide[lo:hi] * np.float32(guide_gain)
        return out

    def block(self, position_s: float, frames: int, speed: float, guide_gain: float) -> np.ndarray:
        """``frames`` samples to play from ``position_s`` at ``speed`` (negative: backwards).

        Shuttling faster than 1× plays a longer stretch squeezed into the block (higher
        pitch, like a tape), which is how editors find a place by ear.
        """
        span = max(1, int(round(frames * abs(speed))))
        here = int(round(position_s * self.rate))
        data = self.read(here, span, guide_gain) if speed > 0 else self.read(here - span, span, guide_gain)[::-1]
        if span != frames:
            data = np.interp(np.linspace(0, span - 1, frames), np.arange(span), data).astype(np.float32)
        return np.clip(data, -1.0, 1.0)

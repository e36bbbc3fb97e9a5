"""Two people at once, and speech no span covers, from the segmentation model (issue 32).

The diarization gives one speaker per stretch (a line's, or a wordless stretch's). The
segmentation model (engine/hearing/segmentation.py) hears, in each 10 s chunk, up to three
*local* speakers and where two of them speak at once. Each local speaker is named after the
diarization's speaker it mostly coincides with where it speaks alone; then, frame by frame and
over all the chunks that hear a frame, a speaker is active where at least half of those chunks
say so. Where two speakers are active and the diarization has one of them, the other is a
second speaker of that stretch (:func:`overlapped`); where a speaker is active and no span of
the diarization covers the frame, that is speech nobody was given (:func:`unspanned`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.hearing.segmentation import FRAME_STEP_S, LOCAL_SPEAKERS, LocalSpeech

GRID_S = 0.01  # the frames speakers are decided on
NAMING_LEAST_S = 0.5  # a local speaker alone this long, inside one diarized speaker's spans, is named after them
NAMING_SHARE = 0.6  # ... when that speaker holds this share of its solo frames the spans cover
ACTIVE_SHARE = 0.5  # a speaker is active in a frame when more than this share of the chunks hearing it say so
NO_SPEAKER = -1
UNSPANNED_LEAST_S = 0.3  # shorter speech no span covers is left out (tuned on the benchmark's meetings)
OVERLAP_LEAST_S = 0.0  # shorter second speakers are left out
APART_S = 0.2  # speech no span covers this near a span of its own speaker is that span's edge or pause, not kept


@dataclass(frozen=True)
class Stretch:
    """``speaker`` speaking from ``start`` to ``end`` (seconds into the recording)."""

    start: float
    end: float
    speaker: int

    @property
    def duration_s(self) -> float:
        return self.end - self.start


@dataclass(frozen=True)
class ActiveSpeakers:
    """Who the segmentation model hears on a 10 ms grid: ``active[g, s]`` for the diarization's
    speaker ``s``, and ``speech[g]`` whether anyone speaks (named or not)."""

    active: np.ndarray
    speech: np.ndarray

    def stretches(self, mask: np.ndarray, speakers: np.ndarray, least_s: float) -> list[Stretch]:
        """Runs of ``mask`` at least ``least_s`` long with one speaker in ``speakers`` (per frame)."""
        found: list[Stretch] = []
        run_start: int | None = None
        for index in range(len(mask) + 1):
            inside = index < len(mask) and bool(mask[index])
            if run_start is not None and (not inside or speakers[index] != speakers[run_start]):
                if index - run_start >= round(least_s / GRID_S):  # in frames: seconds would round below
                    found.append(Stretch(run_start * GRID_S, index * GRID_S, int(speakers[run_start])))
                run_start = None
            if inside and run_start is None:
                run_start = index
        return found


def spanned(spans: Sequence[tuple[float, float, int]], frames: int) -> np.ndarray:
    """The diarization's speaker of each 10 ms frame (NO_SPEAKER where no span covers it; where
    two cover it, the later span's)."""
    speakers = np.full(frames, NO_SPEAKER, dtype=np.int64)
    for start, end, speaker in sorted(spans):
        speakers[max(0, int(round(start / GRID_S))): max(0, int(round(end / GRID_S)))] = speaker
    return speakers


def active_speakers(chunks: LocalSpeech, spans: Sequence[tuple[float, float, int]], speaker_count: int,
                    duration_s: float) -> ActiveSpeakers:
    """Each chunk's local speakers named after the diarization's (see the module's docstring),
    and their activity joined over the chunks."""
    frames = int(np.ceil(duration_s / GRID_S)) + 1
    diarized = spanned(spans, frames)
    local = chunks.activity
    votes = np.zeros((frames, max(1, speaker_count)), dtype=np.float32)
    speech_votes = np.zeros(frames, dtype=np.float32)
    hearing = np.zeros(frames, dtype=np.float32)
    per_frame = local.shape[1]
    for chunk in range(len(chunks.starts)):
        first = int(round(chunks.starts[chunk] / GRID_S))
        grid = np.arange(first, min(frames, first + int(round(per_frame * FRAME_STEP_S / GRID_S))))
        at = np.minimum(per_frame - 1, ((grid * GRID_S - chunks.starts[chunk]) / FRAME_STEP_S).astype(np.int64))
        activity = local[chunk][at]  # (grid frames, 3)
        hearing[grid] += 1
        speech_votes[grid] += activity.any(axis=1)
        alone = activity.sum(axis=1) == 1
        for speaker in range(LOCAL_SPEAKERS):
            solo = diarized[grid[alone & activity[:, speaker]]]
            solo = solo[solo != NO_SPEAKER]
            if len(solo) * GRID_S < NAMING_LEAST_S:
                continue
            counts = np.bincount(solo, minlength=votes.shape[1])
            if counts.max() >= NAMING_SHARE * len(solo):
                votes[grid[activity[:, speaker]], int(counts.argmax())] += 1
    heard = np.maximum(hearing, 1)
    return ActiveSpeakers(votes / heard[:, None] > ACTIVE_SHARE, speech_votes / heard >= ACTIVE_SHARE)


def overlapped(found: ActiveSpeakers, spans: Sequence[tuple[float, float, int]], least_s: float = 0.0) -> list[Stretch]:
    """Where the segmentation hears two speakers and the diarization gives one of them, the
    other, as stretches of at least ``least_s``."""
    diarized = spanned(spans, len(found.speech))
    rows = np.arange(len(diarized))
    own = np.where(diarized >= 0, found.active[rows, np.maximum(diarized, 0)], False)
    others = found.active.copy()
    others[rows[diarized >= 0], diarized[diarized >= 0]] = False
    second = np.where(others.any(axis=1), others.argmax(axis=1), NO_SPEAKER)
    mask = own & (others.sum(axis=1) == 1)
    return found.stretches(mask, second, least_s)


def unspanned(found: ActiveSpeakers, spans: Sequence[tuple[float, float, int]], least_s: float = 0.0) -> list[Stretch]:
    """Speech of one named speaker that no span covers, as stretches of at least ``least_s``."""
    diarized = spanned(spans, len(found.speech))
    one = found.active.sum(axis=1) == 1
    mask = (diarized == NO_SPEAKER) & found.speech & one
    return found.stretches(mask, np.where(one, found.active.argmax(axis=1), NO_SPEAKER), least_s)


def apart(stretches: Sequence[Stretch], spans: Sequence[tuple[float, float, int]],
          apart_s: float = APART_S) -> tuple[list[Stretch], list[Stretch]]:
    """``stretches`` split into those at least ``apart_s`` from every span of their own speaker
    (speech of its own) and the others (a pause inside that speaker's turn, or the edge of a line
    its words missed)."""
    own: list[Stretch] = []
    near: list[Stretch] = []
    for stretch in stretches:
        close = any(who == stretch.speaker and start - apart_s < stretch.end and stretch.start < end + apart_s
                    for start, end, who in spans)
        (near if close else own).append(stretch)
    return own, near

"""Each speaker's reference clip, cut from the original: the cleanest 5-15 s of their own speech.

A candidate is a run of one speaker's consecutive lines, 2-15 s from its first word to its
last, with no other speaker's line in it or within 0.3 s of it: every such stretch that does
not overlap a better one is offered (up to CANDIDATES_KEPT), the 5-15 s ones scoring higher.
Each is scored from what the recording itself shows:

- **signal to noise**: the level of the words against the level between and around them,
  from the 20 ms envelope of the whole recording; music or noise under the speech fills the
  pauses, so it scores down;
- **purity** (:func:`clip_purity`): the cosine of its windows' mean speaker embedding to the
  rest of its own speaker's speech, less the cosine to the nearest other speaker's, and of each
  of its lines (a window long or more) alone: a stretch is as pure as its least pure line; a stretch
  under MIN_PURITY (another voice in it, or a line given to the wrong speaker) is refused
  while the speaker has a purer one, and scores down;
- **clipping**: samples at full scale score it down hard.

A speaker with no such 2 s run gets their longest run of at least 1 s (the engine needs a
second of speech), clear of others or not. :func:`cut_clips` then decodes the recording once, at its own sample rate, and
writes each chosen span (with a little air around the words) atomically.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core.languages import join_pieces
from engine.hearing import speakers as speakers_mod
from engine.hearing.audio import decode_blocks
from engine.hearing.lines import Line

MIN_CLIP_S = 5.0  # a clip this long clones well; shorter candidates are offered, scored down
SHORTEST_CANDIDATE_S = 2.0  # a shorter stretch is a candidate only when it is all a speaker has
MAX_CLIP_S = 15.0
MIN_PURITY = 0.10  # a clip must sound this much more like its own speaker than like any other (cosine)
SHORTEST_CLIP_S = 1.0  # the engine refuses a reference with less speech (E_CLIP_TOO_SHORT)
JOIN_GAP_S = 1.0  # lines of one speaker this close may make one clip
CLEAR_S = 0.3  # no other speaker within this of a clip's edges
PAD_BEFORE_S, PAD_AFTER_S = 0.1, 0.25  # air kept around the words (never into another speaker)
CLIPPED = 0.999  # a sample this near full scale was clipped
CANDIDATES_KEPT = 12  # per speaker, for the studio's "Choose from the video"


class LevelEnvelope:
    """The RMS and the clipped-sample count of every 20 ms of the recording, built window by
    window (a two-hour recording: 360,000 frames, under 3 MiB)."""

    def __init__(self, frame_s: float, rate: int) -> None:
        self.frame = int(frame_s * rate)
        self.frame_s = frame_s
        self._rms: list[np.ndarray] = []
        self._clipped: list[np.ndarray] = []
        self._tail = np.zeros(0, dtype=np.float32)

    def add(self, audio: np.ndarray) -> None:
        audio = np.concatenate([self._tail, audio])
        whole = len(audio) // self.frame * self.frame
        frames = audio[:whole].reshape(-1, self.frame)
        self._rms.append(np.sqrt(np.mean(np.square(frames, dtype=np.float64), axis=1)).astype(np.float32))
        self._clipped.append(np.count_nonzero(np.abs(frames) >= CLIPPED, axis=1).astype(np.int32))
        self._tail = audio[whole:]

    def span(self, start: float, end: float) -> tuple[np.ndarray, np.ndarray]:
        """The (rms, clipped counts) of the frames in [start, end)."""
        rms, clipped = self.frames()
        first, last = int(max(0.0, start) / self.frame_s), int(np.ceil(end / self.frame_s))
        return rms[first:last], clipped[first:last]

    def frames(self) -> tuple[np.ndarray, np.ndarray]:
        """Every frame's (rms, clipped count) so far."""
        rms = np.concatenate(self._rms) if self._rms else np.zeros(0, dtype=np.float32)
        clipped = np.concatenate(self._clipped) if self._clipped else np.zeros(0, dtype=np.int32)
        self._rms, self._clipped = [rms], [clipped]  # joined once, then sliced
        return rms, clipped

    @classmethod
    def restored(cls, frame_s: float, rate: int, rms: np.ndarray, clipped: np.ndarray) -> LevelEnvelope:
        """An envelope as :meth:`frames` gave it, read back (from a project's media/)."""
        envelope = cls(frame_s, rate)
        envelope._rms = [np.asarray(rms, dtype=np.float32)]
        envelope._clipped = [np.asarray(clipped, dtype=np.int32)]
        return envelope


@dataclass(frozen=True)
class Candidate:
    """A stretch of one speaker's speech that could be their reference clip."""

    speaker: int
    start: float  # the clip's edges (the words with a little air), seconds into the recording
    end: float
    text: str  # its transcript: the words said in it
    score: float  # 0-1, higher is cleaner
    snr_db: float
    purity: float  # cosine to its own speaker's other speech minus the nearest other speaker's (clip_purity)
    clipped: float  # fraction of samples at full scale

    @property
    def duration_s(self) -> float:
        return self.end - self.start

    def describe(self) -> str:
        return (f"score {self.score:.2f}: {self.duration_s:.1f} s, SNR {self.snr_db:.0f} dB, "
                f"purity {self.purity:+.2f}{', clipped' if self.clipped > 1e-4 else ''}")


def candidates(lines: Sequence[Line], windows: speakers_mod.EmbeddingWindows, labels: np.ndarray,
               levels: LevelEnvelope, count: int) -> dict[int, list[Candidate]]:
    """Each speaker's scored candidates, best first (at most CANDIDATES_KEPT, not overlapping);
    those under MIN_PURITY only when the speaker has no purer one.

    ``labels`` give each window's speaker (-1: none). Lines are in time order, so only a run's
    neighbours can come near it: a long recording costs time in proportion to its lines, not
    their square."""
    embeddings = windows.embeddings()
    sums = speaker_sums(embeddings, labels, count)
    found: dict[int, list[Candidate]] = {speaker: [] for speaker in range(count)}
    for speaker in range(count):
        spans = [span for run in _runs(lines, speaker) for span in _spans_of(lines, run, SHORTEST_CANDIDATE_S)]
        if not spans:  # nothing 2 s long and clear of others: their longest stretch of at least a second
            longest = [span for run in _runs(lines, speaker, clear=False)
                       for span in _spans_of(lines, run, SHORTEST_CLIP_S)]
            spans = sorted(longest, key=lambda s: lines[s[1]].end - lines[s[0]].start, reverse=True)[:1]
        scored = [_score(lines, first, last, windows, embeddings, labels, sums, levels) for first, last in spans]
        pure = [candidate for candidate in scored if candidate.purity >= MIN_PURITY]
        found[speaker] = _best_apart(pure or scored)
    return found


def speaker_sums(embeddings: np.ndarray, labels: np.ndarray, count: int) -> np.ndarray:
    """Each speaker's windows' embeddings summed, (count, dimensions); windows labelled -1 in none."""
    sums = np.zeros((count, embeddings.shape[1] if embeddings.ndim == 2 else 0), dtype=np.float64)
    for speaker in range(count):
        chosen = labels == speaker
        if np.any(chosen):
            sums[speaker] = embeddings[chosen].sum(axis=0)
    return sums


def clip_purity(clip_vectors: np.ndarray, own_rest: np.ndarray, others: np.ndarray) -> float:
    """How much more a stretch sounds like its own speaker than like anyone else: the cosine of
    its windows' mean embedding to ``own_rest`` (the mean of the rest of its speaker's speech)
    less its largest cosine to ``others`` (each other speaker's mean, one row each). With no
    other speaker, the plain cosine to its own. A clip with two voices in it lies between them
    and scores near 0; MIN_PURITY is the least a chosen clip may have."""
    clip = speakers_mod.unit_vectors(np.asarray(clip_vectors, dtype=np.float64).mean(axis=0))
    own = float(clip @ speakers_mod.unit_vectors(np.asarray(own_rest, dtype=np.float64)))
    rows = np.asarray(others, dtype=np.float64).reshape(-1, len(clip))
    rows = rows[np.linalg.norm(rows, axis=1) > 0]
    return own - float(np.max(speakers_mod.unit_vectors(rows) @ clip)) if len(rows) else own


def window_labels(windows: speakers_mod.EmbeddingWindows, lines: Sequence[Line]) -> np.ndarray:
    """Each window's speaker: that of the line it overlaps most (-1 when it overlaps none).
    After the user splits or merges characters, the lines say who speaks, not the clustering."""
    labels = np.full(len(windows), -1, dtype=int)
    overlap = np.zeros(len(windows))
    starts, ends = np.asarray(windows.starts, dtype=float), np.asarray(windows.ends, dtype=float)
    for line in lines:
        shared = np.minimum(ends, line.end) - np.maximum(starts, line.start)
        better = shared > np.maximum(overlap, 0.0)
        labels[better], overlap[better] = line.speaker, shared[better]
    return labels


def _runs(lines: Sequence[Line], speaker: int, clear: bool = True) -> list[tuple[int, int]]:
    """(first, last) indices of the maximal runs of the speaker's consecutive lines, no gap over
    JOIN_GAP_S (and, when ``clear``, nobody else within CLEAR_S of either end)."""
    runs: list[tuple[int, int]] = []
    first: int | None = None
    for i, line in enumerate(lines):
        if line.speaker == speaker and first is not None and line.start - lines[i - 1].end <= JOIN_GAP_S:
            continue
        if first is not None:
            runs.append((first, i - 1))
        first = i if line.speaker == speaker else None
    if first is not None:
        runs.append((first, len(lines) - 1))
    return [run for run in runs if not clear or _clear_of_others(lines, *run)]


def _clear_of_others(lines: Sequence[Line], first: int, last: int) -> bool:
    start, end = lines[first].start - CLEAR_S, lines[last].end + CLEAR_S
    near = list(lines[max(0, first - 2): first]) + list(lines[last + 1: last + 3])
    return not any(line.speaker != lines[first].speaker and line.start < end and line.end > start for line in near)


def _spans_of(lines: Sequence[Line], run: tuple[int, int], shortest_s: float) -> list[tuple[int, int]]:
    """Each stretch of consecutive lines of the run lasting ``shortest_s`` to MAX_CLIP_S."""
    spans: list[tuple[int, int]] = []
    for first in range(run[0], run[1] + 1):
        for last in range(first, run[1] + 1):
            length = lines[last].end - lines[first].start
            if length > MAX_CLIP_S:
                break
            if length >= shortest_s:
                spans.append((first, last))
    return spans


def _score(lines: Sequence[Line], first: int, last: int, windows: speakers_mod.EmbeddingWindows,
           embeddings: np.ndarray, labels: np.ndarray, sums: np.ndarray, levels: LevelEnvelope) -> Candidate:
    span = lines[first: last + 1]
    speaker = span[0].speaker
    before = lines[first - 1].end if first > 0 else 0.0
    after = lines[last + 1].start if last + 1 < len(lines) else span[-1].end + PAD_AFTER_S
    start = max(before, span[0].start - PAD_BEFORE_S, 0.0)
    end = min(after, span[-1].end + PAD_AFTER_S)
    rms, clipped = levels.span(start, end)
    in_words = np.zeros(len(rms), dtype=bool)
    for line in span:
        for word in line.words:
            begin = int((word.start - start) / levels.frame_s)
            in_words[max(0, begin): int(np.ceil((word.end - start) / levels.frame_s))] = True
    speech = rms[in_words] if in_words.any() else rms
    pauses = rms[~in_words] if (~in_words).sum() >= 5 else np.sort(rms)[: max(1, len(rms) // 10)]
    signal = float(np.sqrt(np.mean(np.square(speech, dtype=np.float64)))) if len(speech) else 0.0
    noise = float(np.sqrt(np.mean(np.square(pauses, dtype=np.float64)))) if len(pauses) else 0.0
    snr_db = 20 * np.log10(max(signal, 1e-9) / max(noise, 1e-5))
    clipped_fraction = float(clipped.sum()) / max(1, len(rms) * levels.frame)
    inside = windows.over(span[0].start, span[-1].end)
    purity, others_present = 0.0, False
    if len(inside) and speaker < len(sums):
        own_rest = sums[speaker] - embeddings[inside][labels[inside] == speaker].sum(axis=0)
        if np.linalg.norm(own_rest) < 1e-6:  # the clip is all their speech: their voice is the clip's
            own_rest = embeddings[inside].sum(axis=0)
        others = np.delete(sums, speaker, axis=0)
        others_present = bool(np.any(np.linalg.norm(others, axis=1) > 0))
        # Each line must be one voice too: a found speaker who is two people (or a line given to
        # the wrong one) puts a second voice in one line of a clip, which the mean of all its
        # windows hides when the other lines are the speaker's own. The clip is as pure as its
        # least pure line; a line shorter than a window is embedded with its surroundings, so it
        # is not judged alone.
        purity = min([clip_purity(embeddings[inside], own_rest, others)]
                     + [clip_purity(embeddings[windows.over(line.start, line.end)], own_rest, others) for line in span
                        if len(span) > 1 and line.end - line.start >= speakers_mod.MIN_WINDOW_S])
    length = span[-1].end - span[0].start
    score = (0.5 * np.clip((snr_db - 5.0) / 25.0, 0.0, 1.0)
             + 0.4 * np.clip(purity / (0.4 if others_present else 1.0), 0.0, 1.0)
             + 0.1 * np.clip(length / 10.0, 0.0, 1.0))  # about 10 s clones better than 5
    score *= 1.0 - np.clip(clipped_fraction * 1000.0, 0.0, 0.9)
    if length < MIN_CLIP_S:  # offered, but a clone of 2-5 s is worse than of 5-15 s
        score *= 0.5 + 0.5 * length / MIN_CLIP_S
    text = join_pieces(line.text for line in span)  # Chinese lines join with no space between
    return Candidate(speaker, round(start, 3), round(end, 3), text, float(score), float(snr_db), purity,
                     clipped_fraction)


def _best_apart(found: list[Candidate]) -> list[Candidate]:
    """The best candidates, none overlapping a better one, at most CANDIDATES_KEPT."""
    kept: list[Candidate] = []
    for candidate in sorted(found, key=lambda c: c.score, reverse=True):
        if all(candidate.end <= other.start or candidate.start >= other.end for other in kept):
            kept.append(candidate)
        if len(kept) == CANDIDATES_KEPT:
            break
    return kept


def cut_clips(path: str | os.PathLike[str], stream_index: int | None, spans: Sequence[tuple[float, float]],
              write: Callable[[int, np.ndarray, int], None], cancel: threading.Event | None = None) -> None:
    """Decode the recording once, mono at its own rate, and call ``write(i, audio, rate)`` for each
    span as soon as it is complete. Decoding starts at the first span and stops after the last;
    only spans are held."""
    order = sorted(range(len(spans)), key=lambda i: spans[i][0])
    pieces: dict[int, list[np.ndarray]] = {i: [] for i in order}
    first_s = max(0.0, spans[order[0]][0]) if order else 0.0
    position, rate = None, 0
    pending = list(order)
    for rate, block in decode_blocks(Path(path), stream_index, None, cancel, start_s=first_s):
        if position is None:
            position = round(first_s * rate)
        begin, finish = position, position + len(block)
        position = finish
        for i in list(pending):
            start, end = int(spans[i][0] * rate), int(spans[i][1] * rate)
            if start < finish and end > begin:
                pieces[i].append(block[max(0, start - begin): min(len(block), end - begin)])
            if end <= finish:
                write(i, np.concatenate(pieces[i]) if pieces[i] else np.zeros(0, np.float32), rate)
                pieces.pop(i)
                pending.remove(i)
        if not pending:
            return
    for i in pending:  # spans past the end of the decoded audio keep what there was
        write(i, np.concatenate(pieces[i]) if pieces[i] else np.zeros(0, np.float32), rate)

"""Two people at once, and speech no span covers, from the segmentation model (issue 32).

The diarization gives one speaker per stretch (a line's, or a wordless stretch's). The
segmentation model (engine/hearing/segmentation.py) hears, in each 10 s chunk, up to three
*local* speakers and where two of them speak at once. Each local speaker is named after the
diarization's speaker it mostly coincides with where it speaks alone; then, frame by frame and
over all the chunks that hear a frame, a speaker is active where at least half of those chunks
say so. Where two speakers are active and the diarization has one of them, the other is a
second speaker of that stretch (:func:`overlapped`); where the model hears two voices at once
inside a span but names no speaker other than the span's (its second local speaker has no name,
or the name of the span's own) or names two others, the second is the speaker whose span lies
nearest (two people talk at once mostly at a turn change: a reply begun before the other ends, a
word said over someone's line). Where a speaker is active and no span of the diarization covers the frame,
that is speech nobody was given (:func:`unspanned`).

A local speaker that coincides with no diarized speaker (it speaks where Whisper heard no words,
or only over someone else: far-field voices in meetings) is named by voice, as pyannote's
pipeline names each chunk's speakers: the CAM++ embedding of its frames (:func:`local_voices`,
taken while the audio is at hand) is compared with each diarized speaker's mean voice, and the
closest one names it when alike enough (VOICE_NAMING), only where it speaks outside every span
or over another speaker; otherwise its speech stays nobody's.

A local speaker whose voice is unlike every diarized speaker's (under NEW_VOICE) is someone who
speaks but was given no line (Whisper heard no words of theirs: a quiet far-field voice, someone
talking over others). Such local speakers, alike among themselves (VOICE_NAMING to a group's mean
voice), are one speaker *without lines*, numbered after the diarized ones, when the model hears
them active for LINELESS_LEAST_S in all (:func:`active_speakers` with ``lineless``): their speech
is then speech with no words, and second speakers over others' lines, like anyone's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from engine.hearing.segmentation import (
    FRAME_STEP_S,
    LOCAL_SPEAKERS,
    SAMPLE_RATE,
    Chunks,
    LocalSpeech,
)
from engine.hearing.speakers import unit_vectors

if TYPE_CHECKING:
    from engine.voiceprint.encoder import VoiceEmbedder

GRID_S = 0.01  # the frames speakers are decided on
NAMING_LEAST_S = 0.5  # a local speaker alone this long, inside one diarized speaker's spans, is named after them
NAMING_SHARE = 0.6  # ... when that speaker holds this share of its solo frames the spans cover
ACTIVE_SHARE = 0.5  # a speaker is active in a frame when more than this share of the chunks hearing it say so
NO_SPEAKER = -1
UNSPANNED_LEAST_S = 0.3  # shorter speech no span covers is left out (tuned on the benchmark's meetings)
OVERLAP_LEAST_S = 0.0  # shorter second speakers are left out
APART_S = 0.2  # speech no span covers this near a span of its own speaker is that span's edge or pause, not kept
VOICE_LEAST_S = 1.0  # the least speech of a local speaker embedded to name it by voice (CAM++ on less is noise)
VOICE_MOST_S = 3.0  # ... and the most (its first seconds): the tuning meetings' DER as with 10 s, at 0.024 CPU s per s, not 0.040
# ... and its voice this alike (CAM++ cosine) to a diarized speaker's mean voice. Calibrated on the tuning
# meetings' local speakers named by coincidence (3 s of each): 92 % are this alike to their own speaker, 9 % to another.
VOICE_NAMING = 0.55
# A local speaker's voice less alike than this to every diarized speaker's mean voice is nobody found: on the
# tuning meetings, the 7 local voices of people with no line (trn07, trn03) were -0.03-0.09 alike to the
# nearest found speaker; those of found speakers 0.20 or more (the unnamed; the lowest named by coincidence
# 0.28), and 0.25 is the median likeness to *another* found speaker's mean. 0.1-0.55 give the same tuning
# figures; under every found speaker's own likeness, no found speaker is split (docs/transcribe.md).
NEW_VOICE = 0.15
# ... and it is a speaker without lines where the model hears it at least this long in all: a speaker with
# under 3 s was never found by the clustering either (MIN_SPEAKER_WINDOWS), nor counted by the benchmark.
LINELESS_LEAST_S = 3.0


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
    speaker ``s`` (then the ``lineless`` speakers without lines, numbered after them),
    ``speech[g]`` whether anyone speaks and ``two[g]`` whether two local speakers speak at once
    (named or not)."""

    active: np.ndarray
    speech: np.ndarray
    two: np.ndarray
    lineless: int = 0

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


def local_voices(chunks: Chunks, audio: np.ndarray, spans: Sequence[tuple[float, float]],
                 encoder: VoiceEmbedder) -> np.ndarray | None:
    """The CAM++ embedding of each chunk's local speakers whose name would add speech: at least
    NAMING_LEAST_S of theirs lies outside ``spans`` (the lines and wordless stretches of this
    audio, seconds into it) or over another local speaker. Embedded are their solo frames, or all
    of their frames where they speak alone less than VOICE_LEAST_S (as pyannote falls back), the
    first VOICE_MOST_S of them; (chunks, 3, dimensions), zeros where none was taken; None when
    none was."""
    activity = chunks.local_activity()
    solo = activity & (activity.sum(axis=2, keepdims=True) == 1)
    pieces: list[np.ndarray] = []
    places: list[tuple[int, int]] = []
    half = int(round(FRAME_STEP_S * SAMPLE_RATE / 2))
    for chunk in range(len(chunks.starts)):
        middles = chunks.frame_times(chunk)
        covered = np.zeros(len(middles), dtype=bool)
        for start, end in spans:
            covered |= (middles >= start) & (middles < end)
        for speaker in range(LOCAL_SPEAKERS):
            speaks = activity[chunk, :, speaker]
            gains = speaks & (~covered | ~solo[chunk, :, speaker])  # where a name would add speech
            if gains.sum() * FRAME_STEP_S < NAMING_LEAST_S:
                continue
            # Its voice alone where it speaks alone long enough; else overlapped, as pyannote falls back.
            frames = solo[chunk, :, speaker] if solo[chunk, :, speaker].sum() * FRAME_STEP_S >= VOICE_LEAST_S else speaks
            if frames.sum() * FRAME_STEP_S < VOICE_LEAST_S:
                continue
            centres = np.round(middles[frames][:int(VOICE_MOST_S / FRAME_STEP_S)] * SAMPLE_RATE).astype(np.int64)
            pieces.append(np.asarray(audio[samples_around(centres, half, len(audio))], dtype=np.float32))
            places.append((chunk, speaker))
    if not pieces:
        return None
    # One at a time: a batch holds the network's activations for all its pieces at once (on the
    # tuning meetings, batches of up to 32 raised the peak RSS from 631 to 866 MiB, of 4 to 678,
    # one by one 640; the same DER and CPU).
    embedded = np.concatenate([encoder.embed_many([piece], SAMPLE_RATE) for piece in pieces])
    voices = np.zeros((len(chunks.starts), LOCAL_SPEAKERS, embedded.shape[1]), dtype=np.float32)
    for (chunk, speaker), vector in zip(places, embedded):
        voices[chunk, speaker] = unit_vectors(vector)
    return voices


def samples_around(centres: np.ndarray, half: int, length: int) -> np.ndarray:
    """The indices of the samples (of ``length``) within ``half`` of any of ``centres``,
    [centre - half, centre + half) kept inside the audio, each once and in order: what
    ``np.unique`` of every such index gives, without sorting them all (the frames a local
    speaker's voice is cut from overlap their neighbours')."""
    starts = np.clip(centres - half, 0, length - 1)
    ends = np.clip(centres + half - 1, 0, length - 1) + 1
    first = int(starts.min())
    edges = np.zeros(int(ends.max()) - first + 1, dtype=np.int64)
    np.add.at(edges, starts - first, 1)
    np.add.at(edges, ends - first, -1)
    return np.asarray(first + np.flatnonzero(np.cumsum(edges[:-1]) > 0))


def active_speakers(chunks: LocalSpeech, spans: Sequence[tuple[float, float, int]], speaker_count: int,
                    duration_s: float, means: np.ndarray | None = None, lineless: int = 0) -> ActiveSpeakers:
    """Each chunk's local speakers named after the diarization's (see the module's docstring),
    and their activity joined over the chunks. ``means``: each diarized speaker's mean voice
    (unit CAM++ vectors, a row each), to name by voice the local speakers that ``chunks.voices``
    holds an embedding of; the voices unlike all of them make up to ``lineless`` speakers
    without lines (:func:`_lineless_voices`)."""
    frames = int(np.ceil(duration_s / GRID_S)) + 1
    diarized = spanned(spans, frames)
    local = chunks.activity
    votes = np.zeros((frames, max(1, speaker_count)), dtype=np.float32)
    speech_votes = np.zeros(frames, dtype=np.float32)
    two_votes = np.zeros(frames, dtype=np.float32)
    hearing = np.zeros(frames, dtype=np.float32)
    unknown: list[tuple[np.ndarray, np.ndarray]] = []  # (voice, frames it would add) of voices like nobody's
    per_frame = local.shape[1]
    for chunk in range(len(chunks.starts)):
        first = int(round(chunks.starts[chunk] / GRID_S))
        grid = np.arange(first, min(frames, first + int(round(per_frame * FRAME_STEP_S / GRID_S))))
        at = np.minimum(per_frame - 1, ((grid * GRID_S - chunks.starts[chunk]) / FRAME_STEP_S).astype(np.int64))
        activity = local[chunk][at]  # (grid frames, 3)
        hearing[grid] += 1
        speech_votes[grid] += activity.any(axis=1)
        two_votes[grid] += activity.sum(axis=1) >= 2
        alone = activity.sum(axis=1) == 1
        for speaker in range(LOCAL_SPEAKERS):
            solo = diarized[grid[alone & activity[:, speaker]]]
            solo = solo[solo != NO_SPEAKER]
            if len(solo) * GRID_S >= NAMING_LEAST_S:
                counts = np.bincount(solo, minlength=votes.shape[1])
                if counts.max() >= NAMING_SHARE * len(solo):
                    votes[grid[activity[:, speaker]], int(counts.argmax())] += 1
                    continue
            # Named by voice, it adds speech where no span is and over other speakers; where it
            # speaks alone inside a span, the span's speaker stands (the model may have heard
            # two diarized speakers as one local speaker, which would be taken for an overlap).
            gains = activity[:, speaker] & ((diarized[grid] == NO_SPEAKER) | ~alone)
            named = _named_by_voice(chunks, chunk, speaker, means)
            if named is not None:
                votes[grid[gains], named] += 1
                continue
            voice = _unlike_all(chunks, chunk, speaker, means) if lineless else None
            if voice is not None:
                unknown.append((voice, grid[gains]))
    heard = np.maximum(hearing, 1)
    active = votes / heard[:, None] > ACTIVE_SHARE
    new = _lineless_voices(unknown, heard, lineless)
    return ActiveSpeakers(np.hstack([active, new]), speech_votes / heard >= ACTIVE_SHARE,
                          two_votes / heard >= ACTIVE_SHARE, new.shape[1])


def _unlike_all(chunks: LocalSpeech, chunk: int, speaker: int, means: np.ndarray | None) -> np.ndarray | None:
    """A chunk's local speaker's voice where it was embedded and is under NEW_VOICE alike to
    every diarized speaker's mean voice; else None."""
    if chunks.voices is None or means is None or len(means) == 0 or chunks.voices.shape[2] != means.shape[1]:
        return None
    voice = chunks.voices[chunk, speaker]
    return voice if voice.any() and float(np.max(means @ voice)) < NEW_VOICE else None


def _lineless_voices(unknown: Sequence[tuple[np.ndarray, np.ndarray]], heard: np.ndarray, most: int) -> np.ndarray:
    """Speakers without lines from the local voices like no diarized speaker (``unknown``: each
    one's unit voice and the grid frames it would add, in time order): each joins the group
    whose mean voice it is most alike, VOICE_NAMING or more, else starts one; a group is active
    where more than ACTIVE_SHARE of the chunks hearing a frame (``heard``) give it that frame,
    and is a speaker when it is active LINELESS_LEAST_S in all; at most ``most``, the longest.
    (frames, speakers) booleans."""
    groups: list[list[int]] = []
    for index, (voice, _) in enumerate(unknown):
        means = [unit_vectors(np.mean([unknown[member][0] for member in group], axis=0)) for group in groups]
        alike = [float(mean @ voice) for mean in means]
        if alike and max(alike) >= VOICE_NAMING:
            groups[int(np.argmax(alike))].append(index)
        else:
            groups.append([index])
    found = []
    for group in groups:
        votes = np.zeros(len(heard), dtype=np.float32)
        for member in group:
            votes[unknown[member][1]] += 1
        active = votes / heard > ACTIVE_SHARE
        if active.sum() * GRID_S >= LINELESS_LEAST_S:
            found.append(active)
    found.sort(key=lambda active: -int(active.sum()))
    kept = sorted(found[:most], key=lambda active: int(np.argmax(active)))  # numbered as they first speak
    return np.stack(kept, axis=1) if kept else np.zeros((len(heard), 0), dtype=bool)


def _named_by_voice(chunks: LocalSpeech, chunk: int, speaker: int, means: np.ndarray | None) -> int | None:
    """The diarized speaker whose mean voice a chunk's local speaker's embedding is VOICE_NAMING
    alike or more (the most alike), if it was embedded."""
    if chunks.voices is None or means is None or len(means) == 0 or chunks.voices.shape[2] != means.shape[1]:
        return None
    voice = chunks.voices[chunk, speaker]
    if not voice.any():
        return None
    alike = means @ voice
    return int(np.argmax(alike)) if float(np.max(alike)) >= VOICE_NAMING else None


def overlapped(found: ActiveSpeakers, spans: Sequence[tuple[float, float, int]], least_s: float = 0.0) -> list[Stretch]:
    """Where the segmentation hears two speakers inside a span, the speaker other than the span's:
    the one other speaker it names there (with the span's own named, or two voices heard); where
    it hears two voices and names no other speaker, or several, the speaker of the nearest span
    of another speaker; as stretches of at least ``least_s``."""
    diarized = spanned(spans, len(found.speech))
    rows = np.arange(len(diarized))
    own = np.where(diarized >= 0, found.active[rows, np.maximum(diarized, 0)], False)
    others = found.active.copy()
    others[rows[diarized >= 0], diarized[diarized >= 0]] = False
    second = np.where(others.any(axis=1), others.argmax(axis=1), NO_SPEAKER)
    named = (own | (found.two & (diarized >= 0))) & (others.sum(axis=1) == 1)
    neighbour = _nearest_other(spans, diarized)
    unnamed = found.two & (diarized >= 0) & (others.sum(axis=1) != 1) & (neighbour != NO_SPEAKER)
    return found.stretches(named | unnamed, np.where(named, second, neighbour), least_s)


def _nearest_other(spans: Sequence[tuple[float, float, int]], diarized: np.ndarray) -> np.ndarray:
    """For each frame, the speaker of the nearest span of a speaker other than the frame's own in
    ``diarized`` (the lower-numbered where two are as near); NO_SPEAKER where there is none. One
    pass over the frames a speaker (a two-hour recording's 720,000 frames), not one a span."""
    frames = len(diarized)
    index = np.arange(frames)
    nearest = np.full(frames, NO_SPEAKER, dtype=np.int64)
    best = np.full(frames, np.inf)
    for speaker in sorted({who for _, _, who in spans}):
        covered = spanned([span for span in spans if span[2] == speaker], frames) == speaker
        if not covered.any():
            continue
        before = np.maximum.accumulate(np.where(covered, index, -2 * frames))  # its last frame up to here
        after = np.minimum.accumulate(np.where(covered, index, 3 * frames)[::-1])[::-1]  # its next one from here
        distance = np.minimum(index - before, after - index).astype(np.float64)
        distance[diarized == speaker] = np.inf  # a frame's own speaker is not another one
        closer = distance < best
        nearest[closer], best[closer] = speaker, distance[closer]
    return nearest


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

"""Who speaks when: a CAM++ embedding per 1.5 s of speech, and spectral clustering.

Each line's speech is covered by 1.5 s windows every 0.5 s (a shorter line by one window of its
own length, at least 1 s), and each window gets a speaker embedding. The windows are clustered
with spectral clustering on their cosine affinities, after the part all the vectors share is taken out,
refined as in Wang et al., "Speaker diarization with LSTM" (2018): each row keeps its strongest
affinities and the matrix is symmetrised; the number of speakers is where the ratio of
consecutive eigenvalues is largest, at most one per five windows (two always tried); where that is at one or past
MAX_SPEAKERS, the windows are split into as many speakers as allowed and the joins below decide.
The notes (shared/notes/hearing.md) found that spectral clustering gets the count right where no
single agglomerative cosine threshold did. A turn unlike the rest of its clean cluster and every
other is a speaker of its own (:func:`_lone_turns`). Clusters too small to be a voice, or whose mean
voices are nearly the same, are joined, except a small cluster unlike every other that is tight
or speaks lines of its own (a brief speaker); a loose cluster whose halves are unlike each other is split. Then each window is
given again to the speaker its neighbourhood (the windows within two seconds of it) resembles
most, until none moves, and the joins are made once more: a voice that only a few scattered
windows made up goes back into its neighbours'. Clusters that never take turns (one following
the other after a pause, as two people answering each other do) are one voice's parts at a lower
likeness than clusters that do (an expressive speaker's calm and shouted words), and a window of clean speech that resembles no speaker found becomes a
voice of its own (a speaker with one short line). Then every word takes the speaker of the
windows over it, a run of words shorter than a second joins its neighbours, and a line in which
the speaker changes is split at the change. Where the voice changes inside one of Whisper's
lines (:func:`voice_changes`: the speech either side of its widest pauses compared) but the
line came out as one speaker, its windows straddled both voices: it is clustered again from
windows over its parts, and parts that still get one speaker are joined again
(:func:`speakers_of`); the shorter of two parts cut at a silence, unlike the rest of its speaker
and every other, is a speaker of its own (a quick reply run into the other's line: :func:`_replies`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from engine.core.codes import ErrorCode
from engine.core.numbers import Range
from engine.core.silence import sound_intervals
from engine.hearing import HearingError
from engine.hearing.audio import SAMPLE_RATE
from engine.hearing.lines import CLAUSE_END, Line, Word

if TYPE_CHECKING:
    from engine.voiceprint.encoder import VoiceEmbedder

WINDOW_S = 1.5
HOP_S = 0.5
MIN_WINDOW_S = 1.0  # a shorter line is embedded with its surroundings up to this long
MAX_SPEAKERS = 10  # one distinct colour each (app.project.model.PALETTE)
SPEAKER_COUNT = Range("speakers", 1, MAX_SPEAKERS, whole=True, hint="(or auto)", code=ErrorCode.BAD_SPEAKER_COUNT)
MAX_CLUSTERED = 2000  # past this many windows the affinity matrix (n^2) is built on a sample
ROW_KEEP = 0.3  # the fraction of each row's affinities kept when refining (tuned on the benchmark's files)
SAME_VOICE = 0.7  # two clusters whose mean CAM++ voices are this alike are one speaker (0.6-0.8 tune alike)
SAME_VOICE_CLEAN = 0.8  # ... when both are tight clusters of clean speech (see _joins)
CLEAN_COHERENCE = 0.8  # a cluster this tight is clean speech
OWN_LINES_COHERENCE = 0.5  # a stray with lines of its own this tight (corrected, see _merge_strays) is a voice
SAME_VOICE_PARTS = 0.55  # ... when they never take turns after a pause (one voice's parts; see _joins)
LONE_VOICE = 0.4  # a window of clean speech this unlike every speaker is a voice of its own (see _lone_voices):
# a one-line Mandarin speaker's window 0.09, the lowest other clean window 0.44 (English held-out h3a), most 0.6+
LONE_LEAST_S = 0.8  # a line shorter than this is too little of a voice to be a lone voice (see _lone_voices):
# "Well," alone 0.52 s of words, a brief real turn (换一首歌) 0.95-1.2 s
MIN_TURN_S = 0.5  # a shorter run of one speaker's words inside a line is taken as the neighbours'
MIN_SPEAKER_SHARE = 0.03  # a cluster with less of the speech is a stray (a laugh, a cough), merged
MIN_SPEAKER_WINDOWS = 5  # nor can a speaker with fewer windows (about 3 s of speech) be told apart
FEW_LEFT_LONE_VOICE = 0.2  # a lone voice in a speaker judged clean from four windows is this unlike all (see _lone_voices)
ONE_WINDOW_VOICE = 0.3  # a lone window this like its own speaker, most like it, is its short line (see _own_short_line)
NEIGHBOURHOOD_S = 0.5  # a window's speaker is judged with the windows this near it (2 s smeared 2-3 s turns)
RESEGMENT_ROUNDS = 10  # on the benchmark's recordings it settles in one to five
VOICES_APART = 0.4  # the two halves of a loose cluster this unlike are two voices (see _split_loose)
# A voice change inside one of Whisper's lines (see voice_changes): each side needs this much
# speech, is heard over at most CHANGE_CONTEXT_S next to the cut, and two sides this unlike
# (CAM++ cosine) are two voices.
CHANGE_SIDE_S = 0.8
CHANGE_CONTEXT_S = 3.0
VOICE_CHANGE = 0.3
CHANGE_PAUSE_S = 0.15  # a cut is tried only where the words seem to pause this long (see _voice_change)
TURN_PAUSE_S = 0.3  # a silence this long between a line's words may part two speakers' turns (see speakers_of)
CLAUSE_PAUSE_S = 0.3  # a comma counts as this much pause (as lines._shorten counts it)
LONG_WORD_S = 0.5  # a word heard longer than this may hold a pause
PAUSE_TOP_DB = 30.0  # audio this far below a line's loudest moment is a pause between its words (see _pauses)
PAUSE_FRAME_S = 0.02  # ... judged in frames this long, every half frame
CHANGE_TRIES = 4  # the widest such gaps of a line tried (two embeddings each)


@dataclass
class EmbeddingWindows:
    """The embedded windows of the whole recording, in time order."""

    starts: list[float] = field(default_factory=list)
    ends: list[float] = field(default_factory=list)
    vectors: list[np.ndarray] = field(default_factory=list)

    def add(self, audio: np.ndarray, offset_s: float, lines: Sequence[Line], encoder: VoiceEmbedder,
            cancel: threading.Event | None = None, embedded_to: Callable[[float], None] | None = None) -> None:
        """Embed the windows over ``lines`` (times in the recording) of this stretch of audio,
        a line at a time (the encoder runs each line's windows as one batch); ``embedded_to`` is
        told the end of each line embedded (for progress)."""
        length_s = len(audio) / SAMPLE_RATE
        for line in lines:
            if cancel is not None and cancel.is_set():
                raise HearingError(ErrorCode.CANCELLED, "transcription cancelled")
            spans = _spans(line.start - offset_s, line.end - offset_s, length_s)
            pieces = [audio[int(start * SAMPLE_RATE): int(end * SAMPLE_RATE)] for start, end in spans]
            self.vectors.extend(encoder.embed_many(pieces, SAMPLE_RATE))
            self.starts.extend(offset_s + start for start, _ in spans)
            self.ends.extend(offset_s + end for _, end in spans)
            if embedded_to is not None:
                embedded_to(line.end)

    def embeddings(self) -> np.ndarray:
        """One row per window (none: a 0 x 0 array, which clusters into no speakers)."""
        if not self.vectors:
            return np.zeros((0, 0), dtype=np.float32)
        return np.array(self.vectors, dtype=np.float32).reshape(len(self.vectors), -1)

    def __len__(self) -> int:
        return len(self.vectors)

    def over(self, start: float, end: float) -> np.ndarray:
        """Indices of the windows overlapping [start, end)."""
        starts, ends = np.asarray(self.starts), np.asarray(self.ends)
        return np.flatnonzero((starts < end) & (ends > start))


def _spans(start: float, end: float, length_s: float) -> list[tuple[float, float]]:
    """The windows covering [start, end) inside [0, length_s)."""
    if end - start < WINDOW_S:
        middle, half = (start + end) / 2, max(end - start, MIN_WINDOW_S) / 2
        return [(max(0.0, middle - half), min(length_s, middle + half))]
    count = int(np.ceil((end - start - WINDOW_S) / HOP_S)) + 1
    step = (end - start - WINDOW_S) / (count - 1) if count > 1 else 0.0
    return [(start + i * step, start + i * step + WINDOW_S) for i in range(count)]


def voice_changes(audio: np.ndarray, offset_s: float, lines: Sequence[Line],
                  encoder: VoiceEmbedder) -> list[Line]:
    """``lines`` (times in the recording; ``audio`` starts at ``offset_s``) cut where the voice
    changes inside one of them. Whisper runs a turn change into one line when the words are under
    the line cut's pause apart (Mandarin turns 0.58 s apart after a comma); the windows over such
    a line straddle both voices and a short turn's voice is never found. A cut is tried at the
    line's CHANGE_TRIES widest pauses (or commas) with CHANGE_SIDE_S of speech each side: the
    speech on each side, up to CHANGE_CONTEXT_S from the cut, is embedded, and the least alike
    pair under VOICE_CHANGE is cut, then each part again (same-voice sides on the Chinese
    dialogues 0.46-0.87, changes -0.10 to 0.16); where none is, each side is heard again only up
    to the neighbouring tries (quick turns: 3 s straddles the next turn). A pause is also where
    the audio is silent between two words' middles (:func:`_pauses`): Whisper may give a turn
    change's silence to a word. The two words at a cut end and start where that silence does.
    The parts are used by :func:`speakers_of`."""
    result: list[Line] = []
    pending = list(lines)
    while pending:
        line = pending.pop(0)
        change = _voice_change(audio, offset_s, line, encoder)
        if change is None:
            result.append(line)
            continue
        cut, (quiet_start, quiet_end) = change
        before, after = line.words[:cut], line.words[cut:]
        # The words either side end and start where the silence between them does: Whisper gives
        # a turn change's silence to a word ("-" over 0.56 s before Amy's reply), and the parts'
        # windows and the pause between them (speakers_of) should hold speech, not that silence.
        before[-1] = replace(before[-1], end=max(before[-1].start, min(before[-1].end, quiet_start)))
        after[0] = replace(after[0], start=min(after[0].end, max(after[0].start, quiet_end)))
        pending[:0] = [Line(before, line.speaker), Line(after, line.speaker)]
    return result


def _voice_change(audio: np.ndarray, offset_s: float, line: Line,
                  encoder: VoiceEmbedder) -> tuple[int, tuple[float, float]] | None:
    """The word index where ``line``'s voice changes and the silence there (start, end), or None."""
    words = line.words
    # The speech before each boundary, a word counted at most LONG_WORD_S (the rest may be silence).
    spoken = np.cumsum([min(word.end - word.start, LONG_WORD_S) for word in words])
    boundaries = [i for i in range(1, len(words))
                  if spoken[i - 1] >= CHANGE_SIDE_S and spoken[-1] - spoken[i - 1] >= CHANGE_SIDE_S]
    quiet = _pauses(audio, offset_s, line) if boundaries else []
    tries, silences = [], {}
    for i in boundaries:
        # How much this boundary looks like a pause: the gap, a comma, and the part of the words
        # either side past LONG_WORD_S (Whisper stretches a word over the silence after it: 吗
        # 0.9 s across a turn change 0.6 s long); or the silence the audio has between the two
        # words' middles, where Whisper gave it to a word (Sheldon's "inf-" then "-" over 0.56 s
        # of silence before Amy's reply: no gap between the words, and no cut was tried).
        left, right = (words[i - 1].start + words[i - 1].end) / 2, (words[i].start + words[i].end) / 2
        heard = (words[i].start - words[i - 1].end
                 + (CLAUSE_PAUSE_S if CLAUSE_END.search(words[i - 1].text.strip()) else 0.0)
                 + sum(max(0.0, word.end - word.start - LONG_WORD_S) for word in (words[i - 1], words[i])))
        silent, span = max(((min(end, right) - max(start, left), (start, end)) for start, end in quiet),
                           default=(0.0, (0.0, 0.0)))
        silences[i] = span if silent > 0.0 else (words[i - 1].end, words[i].start)
        pause = max(heard, silent)
        if pause >= CHANGE_PAUSE_S:
            tries.append((pause, i))
    cuts = [i for _, i in sorted(tries, reverse=True)[:CHANGE_TRIES]]
    if not cuts:
        return None
    alike = _alike_across(audio, offset_s, line, cuts, encoder)
    best = min(alike, key=alike.__getitem__)
    if alike[best] < VOICE_CHANGE:
        return best, silences[best]
    # Quick turns (0.2-0.35 s apart) run into one line: each side's context straddles the next
    # turn, so no cut looks like a change. Tried again with each side heard only up to the
    # neighbouring tried cuts, where each side still has CHANGE_SIDE_S of speech.
    edges = [0, *sorted(cuts), len(words)]
    bounded = {i: (words[before].start, words[after - 1].end) for before, i, after in zip(edges, edges[1:], edges[2:])
               if spoken[i - 1] - (spoken[before - 1] if before else 0.0) >= CHANGE_SIDE_S
               and spoken[after - 1] - spoken[i - 1] >= CHANGE_SIDE_S}
    if not bounded:
        return None
    alike = _alike_across(audio, offset_s, line, list(bounded), encoder, bounded)
    best = min(alike, key=alike.__getitem__)
    return (best, silences[best]) if alike[best] < VOICE_CHANGE else None


def _pauses(audio: np.ndarray, offset_s: float, line: Line) -> list[tuple[float, float]]:
    """The silences between sounds of ``line``'s audio (times in the recording): stretches
    PAUSE_TOP_DB below its loudest moment. Noise or music under the words leaves none."""
    first = max(0, int((line.start - offset_s) * SAMPLE_RATE))
    piece = audio[first: max(first, int((line.end - offset_s) * SAMPLE_RATE))]
    frame = int(PAUSE_FRAME_S * SAMPLE_RATE)
    sounds = sound_intervals(piece, PAUSE_TOP_DB, frame=frame, hop=frame // 2)
    start_s = offset_s + first / SAMPLE_RATE
    return [(start_s + end / SAMPLE_RATE, start_s + after / SAMPLE_RATE)
            for (_, end), (after, _) in zip(sounds, sounds[1:])]


def _alike_across(audio: np.ndarray, offset_s: float, line: Line, cuts: Sequence[int],
                  encoder: VoiceEmbedder, within: dict[int, tuple[float, float]] | None = None) -> dict[int, float]:
    """For each word index in ``cuts``, the cosine between the voices of ``line``'s speech before
    and after it (up to CHANGE_CONTEXT_S each side, and inside ``within[i]`` where given)."""
    words, pieces = line.words, []
    for i in cuts:
        left_end, right_start = words[i - 1].end, words[i].start
        first, last = within[i] if within is not None else (line.start, line.end)
        for start, end in ((max(first, left_end - CHANGE_CONTEXT_S), left_end),
                           (right_start, min(last, right_start + CHANGE_CONTEXT_S))):
            pieces.append(audio[max(0, int((start - offset_s) * SAMPLE_RATE)): int((end - offset_s) * SAMPLE_RATE)])
    vectors = unit_vectors(np.asarray(encoder.embed_many(pieces, SAMPLE_RATE), dtype=np.float64).reshape(len(pieces), -1))
    return dict(zip(cuts, (float(value) for value in np.sum(vectors[0::2] * vectors[1::2], axis=1))))


def speakers_of(heard: Sequence[Line], parts: Sequence[Line], windows: EmbeddingWindows,
                part_windows: EmbeddingWindows, speakers: int | None = None,
                ) -> tuple[list[Line], np.ndarray, EmbeddingWindows]:
    """Whisper's lines (``heard``, their ``windows``) with their speakers, split where the speaker
    changes; the label of each window, and the windows they label.

    ``parts`` are the pieces :func:`voice_changes` cut some of those lines into, with their own
    ``part_windows``. A line whose windows already show the change keeps them (on a phone call
    its overlapped words are placed better by the windows across the change); a line cut there
    that came out as one speaker is clustered again from its parts' windows, which do not
    straddle the two voices (a 1.2 s voice inside another's line is found only that way), and
    parts that still get one speaker are joined again. So is a line cut at a silence between
    two words (TURN_PAUSE_S; Whisper runs turns under 0.6 s apart into one line) whose words
    either side of it got one speaker: the windows straddling that pause showed a change
    elsewhere, not there (a woman's one 2.4 s turn after a man's words, 0.5 s later, in one line:
    her windows went to three other speakers and she was never found). A cut with no silence
    (words running on, as in overlapped speech) keeps the windows' changes."""
    labels, _ = cluster(windows.embeddings(), windows.starts, speakers, brief=_brief(heard, windows))
    said = assign(heard, windows, labels)
    part_starts = np.array([part.start for part in parts])

    def inside(line: Line, starts: np.ndarray) -> np.ndarray:
        return (starts >= line.start) & (starts <= line.end)

    said_starts = np.array([line.start for line in said])

    def speaker_of(part: Line) -> int:
        """The speaker the line's windows gave most of ``part``'s time (the part as a whole: a
        word next to a turn change may be placed in the silence before the one who says it)."""
        spoken = [(min(line.end, part.end) - max(line.start, part.start), line.speaker) for line in said]
        return max(spoken)[1]

    def speaker_at(time: float) -> int:
        return said[max(0, int(np.searchsorted(said_starts, time + 1e-9, side="right")) - 1)].speaker

    def unseen_turn(line: Line) -> bool:
        """Whether one of the line's cuts falls in a silence between turns (TURN_PAUSE_S) that
        the windows gave one speaker on both sides: the silence between two of Whisper's words,
        the words either side one speaker's; or the silence the audio has there (the parts'
        times, see voice_changes), the parts either side, as wholes, one speaker's."""
        inner = [part for part in parts if line.start <= part.start <= line.end]
        for before, after in zip(inner, inner[1:]):
            heard_end = max((word.end for word in line.words if word.end <= after.start + 1e-6), default=line.start)
            if after.start - heard_end >= TURN_PAUSE_S and speaker_at(heard_end - 1e-3) == speaker_at(after.start):
                return True
            if after.start - before.end >= TURN_PAUSE_S and speaker_of(before) == speaker_of(after):
                return True
        return False

    hidden = [line for line in heard if np.count_nonzero(inside(line, part_starts)) > 1
              and (len({said[i].speaker for i in np.flatnonzero(inside(line, said_starts))}) == 1
                   or unseen_turn(line))]
    if not hidden:
        return _changes_at_cuts(said, heard, parts), labels, windows
    middles = (np.asarray(windows.starts) + np.asarray(windows.ends)) / 2
    part_middles = (np.asarray(part_windows.starts) + np.asarray(part_windows.ends)) / 2
    keep = ~np.any([inside(line, middles) for line in hidden], axis=0)
    take = np.any([inside(line, part_middles) for line in hidden], axis=0)
    rows = ([(windows.starts[i], windows.ends[i], windows.vectors[i]) for i in np.flatnonzero(keep)]
            + [(part_windows.starts[i], part_windows.ends[i], part_windows.vectors[i]) for i in np.flatnonzero(take)])
    rows.sort(key=lambda row: row[0])
    again = EmbeddingWindows([row[0] for row in rows], [row[1] for row in rows], [row[2] for row in rows])
    hidden_ids = {id(line) for line in hidden}
    lines = [piece for line in heard
             for piece in ([parts[int(i)] for i in np.flatnonzero(inside(line, part_starts))]
                           if id(line) in hidden_ids else [line])]
    labels, _ = cluster(again.embeddings(), again.starts, speakers, brief=_brief(lines, again))
    if speakers is None:
        turn_changes = [(before, after) for before, after in zip(lines, lines[1:])
                        if after.start - before.end >= TURN_PAUSE_S
                        and any(line.start <= before.start and after.end <= line.end for line in hidden)]
        labels = _replies(turn_changes, again, labels)
    said = rejoined(assign(lines, again, labels), [(line.start, line.end) for line in heard])
    return _changes_at_cuts(said, heard, parts), labels, again


def _heard_pause(words: Sequence[Word], i: int) -> float:
    """The pause Whisper heard before ``words[i]``, as :func:`voice_changes` counts it (a comma or
    a sentence's end adds CLAUSE_PAUSE_S)."""
    return words[i].start - words[i - 1].end + (CLAUSE_PAUSE_S if CLAUSE_END.search(words[i - 1].text.strip()) else 0.0)


def _changes_at_cuts(said: Sequence[Line], heard: Sequence[Line], parts: Sequence[Line]) -> list[Line]:
    """``said`` with a change of speaker inside one of Whisper's lines moved to the cut
    :func:`voice_changes` made in that line at a silence, where the windows placed it one word
    from the cut, the cut's words ending and starting where the silence does. The windows are
    1.5 s long, so they place a change only to about a word; the cut heard the two voices either
    side and the audio's silence between them (a Mandarin reply 0.23 s after the other's words,
    under TURN_PAUSE_S: 我 of the reply's first words went to the speaker before). Only one word,
    or a run of words under MIN_TURN_S (Whisper times Mandarin a character at a time): a change
    the windows placed farther from the cut is another change (moving every change to the
    nearest cut cost a clean dialogue 99.5 -> 91.8 %)."""
    result: list[Line] = []
    pending = list(said)
    for line in heard:
        pieces: list[Line] = []
        while pending and pending[0].start >= line.start - 1e-6 and pending[0].end <= line.end + 1e-6:
            pieces.append(pending.pop(0))
        inner = [part for part in parts if line.start - 1e-6 <= part.start and part.end <= line.end + 1e-6]
        words = [word for part in inner for word in part.words]
        speakers = [piece.speaker for piece in pieces for _ in piece.words]
        if len(inner) < 2 or len(pieces) < 2 or len(words) != len(speakers):
            result.extend(pieces)
            continue
        cut = 0
        for before, after in zip(inner, inner[1:]):
            cut += len(before.words)
            silence = after.start - before.end
            if silence <= 0.0 or speakers[cut - 1] != speakers[cut]:
                continue  # no silence at the cut (the words run on), or the change is there already
            # The run of words between the cut and the windows' change (a reply's 老公 after the
            # cut: two characters, 0.24 s, went to the speaker before).
            first = cut - 1
            while first > 0 and speakers[first - 1] == speakers[cut]:
                first -= 1
            last = cut
            while last + 1 < len(speakers) and speakers[last + 1] == speakers[cut]:
                last += 1
            # A change at a pause as wide as the cut's is the turn, and the cut one of the reply's
            # own pauses (喔 | 八、九: the windows had it right, the cut was after the reply's 八).
            if (first > 0 and (first == cut - 1 or words[cut - 1].end - words[first].start < MIN_TURN_S)
                    and max(_heard_pause(line.words, k) for k in range(first, cut)) < silence):
                speakers[first:cut] = [speakers[first - 1]] * (cut - first)  # went to the one after the cut
            elif (last + 1 < len(speakers) and (last == cut or words[last].end - words[cut].start < MIN_TURN_S)
                  and max(_heard_pause(line.words, k) for k in range(cut + 1, last + 2)) < silence):
                speakers[cut:last + 1] = [speakers[last + 1]] * (last + 1 - cut)  # went to the one before
        begin = 0
        for i in range(1, len(words) + 1):
            if i == len(words) or speakers[i] != speakers[begin]:
                result.append(Line(words[begin:i], speakers[begin], pieces[0].translation))
                begin = i
    result.extend(pending)
    return result


def _replies(turn_changes: Sequence[tuple[Line, Line]], windows: EmbeddingWindows, labels: np.ndarray) -> np.ndarray:
    """A quick reply given a speaker of its own: of two parts of one of Whisper's lines that
    :func:`voice_changes` cut at a change of voice with a silence between them (``turn_changes``),
    the one with fewer windows, all of one speaker, where its voice is under LONE_VOICE like the
    rest of that speaker's windows and like every other speaker. Amy's 1.9 s reply 0.5 s after
    Sheldon's words, in his line: her two windows (0.98 coherent) went to him, 0.24 like the rest
    of his windows, whose cluster, loosened by hers (0.76), was not tight enough for
    :func:`_lone_turns` (in far-field speech many turns are that far from their speaker's mean);
    here the line's own cut already heard the change (the two sides under VOICE_CHANGE alike).
    Not a one-window reply that is still its speaker's short line (:func:`_own_short_line`)."""
    labels = labels.copy()
    if not len(labels):
        return labels
    unit = unit_vectors(windows.embeddings())
    middles = (np.asarray(windows.starts) + np.asarray(windows.ends)) / 2
    for pair in turn_changes:
        members = [np.flatnonzero((middles >= part.start) & (middles <= part.end)) for part in pair]
        if not all(len(found) for found in members) or len(np.unique(labels)) >= MAX_SPEAKERS:
            continue
        turn = members[0] if len(members[0]) < len(members[1]) else members[1]
        if len(np.unique(labels[turn])) != 1:
            continue
        own = labels[turn[0]]
        rest = np.flatnonzero(labels == own)
        rest = rest[~np.isin(rest, turn)]
        if not len(rest):  # the part is its speaker's every window already
            continue
        others = [rest] + [np.flatnonzero(labels == k) for k in np.unique(labels) if k != own]
        voice = unit_vectors(unit[turn].mean(axis=0))
        alike = np.array([float(unit_vectors(unit[found].mean(axis=0)) @ voice) for found in others])
        if alike.max() < LONE_VOICE and not (len(turn) == 1 and _own_short_line(alike, 0)):
            labels[turn] = int(labels.max()) + 1
    return labels


def _own_short_line(alike: np.ndarray, own: int) -> bool:
    """Whether one window, unlike every speaker (under LONE_VOICE) and ``alike`` each of them, is
    still a short line of ``own``, the speaker it was put in: at least ONE_WINDOW_VOICE like that
    speaker and more like it than like anyone else. A woman's last reply (0.9 s, another
    recording of her voice) was 0.32 like her and became a third speaker (spent Q6); new voices'
    one windows were 0.03-0.19 like everyone. Of the lone windows 0.3-0.4 like someone on the 71
    tuning scenes, the two most like another speaker than their own (R7, R10) stay voices."""
    return float(alike[own]) >= ONE_WINDOW_VOICE and int(np.argmax(alike)) == own


def _brief(lines: Sequence[Line], windows: EmbeddingWindows) -> np.ndarray:
    """Which windows lie over a line of under LONE_LEAST_S: such a window is mostly the silence
    around a word or two ("Well," alone, 0.5 s), too little to tell a voice by."""
    brief = np.zeros(len(windows), dtype=bool)
    for line in lines:
        if line.end - line.start < LONE_LEAST_S:
            brief[windows.over(line.start, line.end)] = True
    return brief


def rejoined(lines: Sequence[Line], whisper_lines: Sequence[tuple[float, float]]) -> list[Line]:
    """Consecutive ``lines`` of one speaker that were one of Whisper's lines (``whisper_lines``:
    their (start, end)) joined again: a cut :func:`voice_changes` made where the clustering
    found no change of speaker."""
    spans = sorted(whisper_lines)
    starts = np.array([start for start, _ in spans])

    def whisper_line(line: Line) -> int:
        return int(np.searchsorted(starts, line.start + 1e-9, side="right")) - 1

    result: list[Line] = []
    for line in lines:
        previous = result[-1] if result else None
        if (previous is not None and previous.speaker == line.speaker
                and whisper_line(previous) == whisper_line(line)):
            result[-1] = Line(previous.words + line.words, line.speaker, previous.translation)
        else:
            result.append(line)
    return result


# --- clustering --------------------------------------------------------------------------------


def cluster(embeddings: np.ndarray, starts: Sequence[float], speakers: int | None = None,
            seed: int = 0, brief: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """A 0-based speaker label per embedding (numbered in order of first appearance) and the
    number of speakers: ``speakers`` when given, else found from the eigenvalues. ``starts``
    are the windows' start times (seconds), for the resegmentation; ``brief`` marks the windows
    of lines too short to be a lone voice (:func:`_brief`)."""
    n = len(embeddings)
    if n == 0:
        return np.zeros(0, dtype=int), 0
    if speakers == 1 or n < 3:
        return np.zeros(n, dtype=int), 1
    rng = np.random.default_rng(seed)
    sample = np.sort(rng.choice(n, MAX_CLUSTERED, replace=False)) if n > MAX_CLUSTERED else np.arange(n)
    # GE2E vectors share a large common part (any two voices score 0.4-0.9); without it, one
    # speaker's windows point one way and another's elsewhere, and the affinities fall in blocks.
    common = unit_vectors(embeddings[sample]).mean(axis=0)
    affinity = _refined_affinity(unit_vectors(unit_vectors(embeddings[sample]) - common))
    values, vectors = np.linalg.eigh(affinity)
    values, vectors = values[::-1], vectors[:, ::-1]
    # Each speaker needs that many windows, but two may always be tried: a short scene of two
    # people with one 3 s line each has 8 windows, and with one allowed it was one speaker, never
    # split for the joins below to judge (as a longer reading of one voice is).
    allowed = max(2, len(sample) // MIN_SPEAKER_WINDOWS)
    most = min(MAX_SPEAKERS, allowed)
    if speakers is None:
        count = int(np.argmax(values[:allowed] / np.maximum(values[1:allowed + 1], 1e-9))) + 1
        if count == 1 or count > most:
            # The first ratio is largest for one voice but also for many faint ones (17 minutes
            # of ~30 AMI voices: 1.28 at k=1, 1.26 at k=4), whose kept affinities join every voice
            # to others; a gap past the cap says only "more than the cap". Neither is read as a
            # count: the windows are split as finely as allowed and the joins below decide.
            count = most
    else:
        count = min(speakers, len(sample))
    if count == 1:
        return np.zeros(n, dtype=int), 1
    sample_labels = _kmeans(unit_vectors(vectors[:, :count]), count, rng)
    means = centroids(embeddings[sample], sample_labels, count)
    labels = np.argmax(unit_vectors(embeddings) @ means.T, axis=1)
    if speakers is None:
        times = np.asarray(starts, dtype=float)
        labels = _merge_alike(_merge_strays(_lone_turns(labels, embeddings, times), embeddings, times), embeddings, times)
        labels = _merge_alike(_merge_strays(_split_loose(labels, embeddings, rng), embeddings, times), embeddings, times)
        labels = _resegment(labels, unit_vectors(unit_vectors(embeddings) - common), times)
        labels = _merge_alike(_merge_strays(labels, embeddings, times), embeddings, times)
        labels = _lone_voices(labels, embeddings, times, brief)
    return _renumber(labels)


def unit_vectors(vectors: np.ndarray) -> np.ndarray:
    """Each vector (the last axis) scaled to length 1; a zero vector stays zero."""
    unit: np.ndarray = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-9)
    return unit


def _refined_affinity(vectors: np.ndarray) -> np.ndarray:
    """Cosine affinities refined as Wang et al. do: the diagonal set to each row's largest other
    value, each row's weakest (all but ROW_KEEP) shrunk 100-fold, symmetrised, and each row
    scaled to a largest value of 1."""
    affinity = np.clip(vectors @ vectors.T, 0.0, None).astype(np.float64)
    np.fill_diagonal(affinity, 0.0)
    np.fill_diagonal(affinity, affinity.max(axis=1))
    keep = max(2, int(np.ceil(ROW_KEEP * len(affinity))))
    thresholds = -np.partition(-affinity, keep - 1, axis=1)[:, keep - 1: keep]
    affinity = np.where(affinity >= thresholds, affinity, affinity * 0.01)
    affinity = np.maximum(affinity, affinity.T)
    affinity /= np.maximum(affinity.max(axis=1, keepdims=True), 1e-12)
    symmetric: np.ndarray = (affinity + affinity.T) / 2  # eigh wants it symmetric; the row scaling is nearly so
    return symmetric


def _kmeans(points: np.ndarray, count: int, rng: np.random.Generator, restarts: int = 10) -> np.ndarray:
    """k-means with k-means++ starts; the labelling with the least inertia of ``restarts``."""
    best, best_inertia = np.zeros(len(points), dtype=int), np.inf
    for _ in range(restarts):
        centres = [points[rng.integers(len(points))]]
        for _ in range(1, count):
            distance = np.min([np.sum((points - c) ** 2, axis=1) for c in centres], axis=0)
            total = distance.sum()
            pick = rng.choice(len(points), p=distance / total) if total > 0 else rng.integers(len(points))
            centres.append(points[pick])
        centre = np.array(centres)
        for _ in range(100):
            labels = np.argmin(((points[:, None, :] - centre[None]) ** 2).sum(axis=2), axis=1)
            moved = np.array([points[labels == k].mean(axis=0) if np.any(labels == k) else centre[k]
                              for k in range(count)])
            if np.allclose(moved, centre):
                break
            centre = moved
        inertia = float(((points - centre[labels]) ** 2).sum())
        if inertia < best_inertia:
            best, best_inertia = labels, inertia
    return best


def _resegment(labels: np.ndarray, vectors: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Each window given to the speaker whose mean voice (of ``vectors``, the common part out)
    the windows within NEIGHBOURHOOD_S of it resemble most on average, until none moves. One
    window's embedding is noisy; a second of speech around it rarely changes speaker, and a
    cluster that only scattered windows made up loses them."""
    order = np.argsort(starts, kind="stable")
    times = starts[order]
    first = np.searchsorted(times, times - NEIGHBOURHOOD_S, side="left")
    after = np.searchsorted(times, times + NEIGHBOURHOOD_S, side="right")
    for _ in range(RESEGMENT_ROUNDS):
        present = np.unique(labels)
        means = np.array([unit_vectors(vectors[labels == k].mean(axis=0)) for k in present])
        running = np.vstack([np.zeros((1, len(present))), np.cumsum((vectors @ means.T)[order], axis=0)])
        near = np.empty((len(labels), len(present)))
        near[order] = (running[after] - running[first]) / (after - first)[:, None]
        moved = present[np.argmax(near, axis=1)]
        if np.array_equal(moved, labels):
            break
        labels = moved
    return labels


def _split_loose(labels: np.ndarray, embeddings: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each loose cluster (under CLEAN_COHERENCE) split in two by k-means on its windows, again
    and again, where the two parts' mean voices are under VOICES_APART alike: the eigenvalues
    found 2 speakers in a 4-speaker Mandarin scene, one cluster (coherence 0.60) holding three
    voices 0.02-0.21 alike, while one voice's parts are 0.66 alike or more (a 7 s utterance heard
    in three parts) and far-field turns of one voice 0.7-0.8. At most MAX_SPEAKERS in all."""
    labels = labels.copy()
    unit = unit_vectors(embeddings)
    pending = [int(k) for k in np.unique(labels)]
    next_label = int(labels.max()) + 1
    while pending and len(np.unique(labels)) < MAX_SPEAKERS:
        k = pending.pop()
        members = np.flatnonzero(labels == k)
        if len(members) < 2 or float(np.linalg.norm(unit[members].mean(axis=0))) >= CLEAN_COHERENCE:
            continue
        centred = unit_vectors(unit[members] - unit[members].mean(axis=0))
        halves = _kmeans(centred, 2, rng)
        if len(np.unique(halves)) < 2:
            continue
        means = unit_vectors(np.array([unit[members[halves == h]].mean(axis=0) for h in (0, 1)]))
        if float(means[0] @ means[1]) >= VOICES_APART:
            continue
        labels[members[halves == 1]] = next_label
        pending += [k, next_label]
        next_label += 1
    return labels


def _merge_strays(labels: np.ndarray, embeddings: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Clusters holding less than MIN_SPEAKER_SHARE of the windows (or under MIN_SPEAKER_WINDOWS)
    joined to the nearest other, except a voice of its own: a stray of two or more windows
    unlike every other cluster (under LONE_VOICE) that is tight (CLEAN_COHERENCE, the plain
    length of its windows' mean) or holds lines of its own (whole stretches of speech, no other
    cluster's windows in them) whose two or more windows are at least OWN_LINES_COHERENCE tight
    counted as the joins count (:func:`_coherence`). Its windows in a stretch shared with another
    cluster are left out of that judgement: a reply run into the next speaker's line, or a window
    over a joined line's pause, mixes two voices (a Mandarin turn's 3 windows and one such window,
    0.78 plain, < 0.1 like everyone, were merged and the voice lost). A Mandarin speaker with
    one 1.8 s turn gave 3 windows 0.96 coherent and -0.08 to 0.15 like the others' means;
    merged, it made its speaker's cluster loose and was never found again. A rasping voice's two
    turns (4 windows, 0.74 plain, 0.63 corrected, 0.26 like the other voice) were merged into the
    man she answered, and two voices came out as one; a far-field excerpt's two windows 19 s
    apart (0.74 plain, 0.31 corrected) are no voice of their own. How unlike the others a stray
    is, is judged on its windows more like its own rest than like any other cluster: a quick
    reply's four windows (0.85 plain) held one across the turn change, which made them 0.43 like
    the man before (0.33 without it), and the reply was merged into him."""
    labels = labels.copy()
    stretch = _stretches(starts)
    kept: set[int] = set()
    while True:
        present, counts = np.unique(labels, return_counts=True)
        small = [i for i in np.argsort(counts, kind="stable") if int(present[i]) not in kept
                 and counts[i] < max(MIN_SPEAKER_WINDOWS, MIN_SPEAKER_SHARE * len(labels))]
        if len(present) < 2 or not small:
            return labels
        stray = present[small[0]]
        others = [k for k in present if k != stray]
        means = np.array([unit_vectors(embeddings[labels == k].mean(axis=0)) for k in others])
        members = np.flatnonzero(labels == stray)
        unit = unit_vectors(embeddings[members])
        mean = unit.mean(axis=0)
        # Its likeness to the others is judged on its windows more like the rest of it than like
        # any other cluster (two or more; else all): one window across a turn change is half the
        # neighbour's voice and pulls a stray of four that way.
        if len(members) > 2:
            like_rest = np.sum(unit_vectors(unit.sum(axis=0) - unit) * unit, axis=1)
            own_voice = unit[like_rest >= np.max(unit @ means.T, axis=1)]
        else:
            own_voice = unit
        judged = own_voice.mean(axis=0) if len(own_voice) >= 2 else mean
        alone = members[~np.isin(stretch[members], stretch[labels != stray])]
        own_lines = len(alone) >= 2 and _coherence(unit_vectors(embeddings[alone])) >= OWN_LINES_COHERENCE
        if (len(members) >= 2 and (float(np.linalg.norm(mean)) >= CLEAN_COHERENCE or own_lines)
                and float(np.max(means @ unit_vectors(judged))) < LONE_VOICE):
            kept.add(int(stray))
            continue
        labels[members] = np.array(others)[np.argmax(unit_vectors(embeddings[members]) @ means.T, axis=1)]


def _merge_alike(labels: np.ndarray, embeddings: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Two clusters joined while their mean embeddings' cosine reaches the threshold for their
    kind (:func:`_joins`), most alike first; ``starts`` (the windows' start times) tell which
    clusters take turns, one following the other after a pause. A pair its kind keeps apart does not
    stop the joins of less alike pairs: AMI trn06's one far-field voice came out as four speakers,
    its two tight clusters 0.79 alike (kept apart, as Rex and the narrator at 0.78 must be)
    stopping a loose cluster's join at 0.73. Clusters that never take turns are judged on their
    windows away from any change of cluster inside a stretch: a window across a change holds both
    voices. Where Whisper wrote a whole scene of quick replies (0.2-0.4 s apart) as one line, two
    women's clusters were 0.55-0.56 alike with those windows and were joined as one voice's parts;
    two LibriSpeech strangers in one line are 0.58-0.63 alike with them, 0.47-0.52 without, one
    woman's two recordings 0.60-0.69 without."""
    labels = labels.copy()
    order = np.argsort(starts, kind="stable")
    # Consecutive windows of one line start at most HOP_S apart; a line ends at every pause.
    running = np.diff(starts[order]) <= HOP_S + 1e-6
    unit = unit_vectors(embeddings)
    while True:
        present = np.unique(labels)
        if len(present) < 2:
            return labels
        members = [unit[labels == k] for k in present]
        coherence = np.array([_coherence(found) for found in members])
        means = unit_vectors(np.array([found.mean(axis=0) for found in members]))
        similarity = means @ means.T
        turns = _turns(np.searchsorted(present, labels[order]), ~running, len(present))
        # Clusters that never take turns are judged without the windows at a change of cluster
        # inside a stretch (two or more left; else all of them).
        changes = np.zeros(len(labels), dtype=bool)
        changed = running & (labels[order][1:] != labels[order][:-1])
        changes[order[1:][changed]] = changes[order[:-1][changed]] = True
        kept = [unit[(labels == k) & ~changes] for k in present]
        apart = unit_vectors(np.array([found.mean(axis=0) if len(found) >= 2 else whole.mean(axis=0)
                                       for found, whole in zip(kept, members)]))
        similarity = np.where(turns, similarity, apart @ apart.T)
        np.fill_diagonal(similarity, -1.0)
        upper = np.triu_indices(len(present), 1)
        pairs = sorted(zip(similarity[upper], *upper), reverse=True)
        joined = next(((a, b) for value, a, b in pairs
                       if _joins(float(value), float(min(coherence[a], coherence[b])), bool(turns[a, b]))), None)
        if joined is None:
            return labels
        labels[labels == present[joined[1]]] = present[joined[0]]


def _stretches(starts: np.ndarray) -> np.ndarray:
    """The stretch of speech each window is in, numbered in time order: consecutive windows of
    one line start at most HOP_S apart, and a line ends at every pause."""
    order = np.argsort(starts, kind="stable")
    stretch = np.zeros(len(starts), dtype=int)
    stretch[order[1:]] = np.cumsum(np.diff(starts[order]) > HOP_S + 1e-6)
    return stretch


def _coherence(unit: np.ndarray) -> float:
    """How tight a cluster of unit vectors is: the length of their mean, corrected for their
    number (n vectors spread about a mean direction of length c have a mean whose squared
    length is c^2 + (1 - c^2) / n on average, so a few windows look tighter than they are: AMI
    trn00's one far-field voice in 8 and 10 windows, 0.81 and 0.83 uncorrected, 0.78 and 0.81
    corrected). The joins use it, and the lone voices' four windows left (:func:`_lone_voices`);
    the strays' rule (:func:`_merge_strays`) was set on the uncorrected length of clusters of two
    to four windows."""
    n = len(unit)
    if n < 2:
        return 1.0
    squared = float(np.sum(unit.mean(axis=0) ** 2))
    return float(np.sqrt(max(0.0, (n * squared - 1.0) / (n - 1))))


def _turns(labels: np.ndarray, after_pause: np.ndarray, count: int) -> np.ndarray:
    """Which clusters take turns, one following the other after a pause (count x count,
    symmetric): ``labels`` of the windows in time order, ``after_pause[i]`` whether window i + 1
    starts after a pause in window i's stretch of speech."""
    turns = np.zeros((count, count), dtype=bool)
    step = np.flatnonzero(after_pause)
    turns[labels[step], labels[step + 1]] = True
    return turns | turns.T


def _joins(similarity: float, coherence: float, take_turns: bool) -> bool:
    """Whether two clusters whose means are ``similarity`` alike are one voice. Two people in a
    dialogue answer each other: their clusters ``take_turns``, one following the other after a
    pause. Clusters that never do are one voice's parts when 0.55 alike (SAME_VOICE_PARTS): they
    take over from each other only inside a stretch of speech (an expressive speaker's calm and
    shouted words, 0.61-0.68 alike; one Mandarin speaker's 7 s utterance in three parts,
    0.66-0.74), or never meet at all (one woman's two recordings with a man's between them,
    0.65-0.69; one far-field voice before and after another speaker, 0.69), while two people's
    clusters that never take turns were at most 0.44 alike on the tuning recordings. Clusters that
    take turns are judged by how tight they are: clean speech gives tight clusters (each window
    near its cluster's mean: ``coherence``, the length of the mean of their unit vectors
    corrected for their number (:func:`_coherence`), 0.73-0.87 on the clean dialogues, most over
    0.8) in which two alike voices taking turns are still 0.78 apart (Rex and the narrator), so
    they join at 0.8; far-field speech gives loose ones (0.55-0.86 on the AMI excerpts), in which
    one voice's quiet and loud turns are 0.7-0.8 alike, joined at 0.7."""
    if not take_turns:
        return similarity >= SAME_VOICE_PARTS
    return similarity >= (SAME_VOICE_CLEAN if coherence >= CLEAN_COHERENCE else SAME_VOICE)


def _lone_turns(labels: np.ndarray, embeddings: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """A turn (the windows of one stretch of speech between pauses, two or more) given a speaker
    of its own where its voice is unlike the rest of its cluster and every other cluster (under
    LONE_VOICE) and that rest is a tight cluster of clean speech (CLEAN_COHERENCE). The
    eigenvalues counted too few voices in short scenes of three people, a line or two each: a
    woman's one 2.4 s turn (three windows 0.94 coherent) went into the narrator's cluster, 0.28
    like him; that cluster, loosened to 0.74, was judged far-field and joined to Rex at 0.73, and
    three voices came out as one. The narrator's windows alone are 0.87 coherent. A turn is one
    voice in a dialogue of clean turns; in far-field speech the rest is rarely that tight."""
    labels = labels.copy()
    unit = unit_vectors(embeddings)
    order = np.argsort(starts, kind="stable")
    # Consecutive windows of one line start at most HOP_S apart (as in _merge_alike).
    breaks = np.flatnonzero(np.diff(starts[order]) > HOP_S + 1e-6) + 1
    next_label = int(labels.max()) + 1
    for turn in np.split(order, breaks):
        own = labels[turn]
        if len(turn) < 2 or np.any(own != own[0]):
            continue
        rest = np.flatnonzero(labels == own[0])
        rest = rest[~np.isin(rest, turn)]
        if len(rest) < 2 or float(np.linalg.norm(unit[rest].mean(axis=0))) < CLEAN_COHERENCE:
            continue
        voice = unit_vectors(unit[turn].mean(axis=0))
        others = [rest] + [np.flatnonzero(labels == k) for k in np.unique(labels) if k != own[0]]
        if max(float(unit_vectors(unit[members].mean(axis=0)) @ voice) for members in others) < LONE_VOICE:
            labels[turn] = next_label
            next_label += 1
    return labels


def _lone_voices(labels: np.ndarray, embeddings: np.ndarray, starts: np.ndarray,
                 brief: np.ndarray | None = None) -> np.ndarray:
    """Windows of clean speech that resemble no speaker found (their cosine to every speaker's
    mean under LONE_VOICE) given a speaker of their own: one per voice, a window that resembles
    a lone voice found (LONE_VOICE, as a speaker is judged) joining it. A speaker who says only
    one short line (换一首歌, 1.2 s: one window) has too few windows to be a cluster, and the
    strays' merge gives it to someone whose voice it is not; its window stands out as unlike
    everyone (0.15 where every other window of those dialogues is at least 0.71 like its
    speaker; a window's own speaker is its cluster's mean without it). Only where the window's
    speaker is a tight cluster of clean speech (CLEAN_COHERENCE): in far-field speech many
    windows are that far from every mean. That speaker is judged with all its windows or, where
    at least MIN_SPEAKER_WINDOWS are left, without the ones unlike it: a voice's two 1.4 s lines
    (one window each, 0.1-0.4 like the cluster they were put in) loosened a narrator's cluster to
    0.77, and a 1.7 s line (0.03 like it) another's to 0.78, so neither was found (clean, 0.86
    and 0.91, without them). Where four are left (one 3 s line's), their coherence corrected for
    their number (:func:`_coherence`) judges them, and the window must be under
    FEW_LEFT_LONE_VOICE like everyone: Fiona's one window (0.12) loosened Shrek's four to 0.75,
    a newsreader's one line (0.09) a Mandarin reader's (both 0.83-0.85 corrected without them);
    a far-field speaker's four windows, 0.84 without two unlike ones, left one 0.31 like everyone
    that was no voice of its own (AMI tst00), as new voices' windows were 0.03-0.19 like everyone
    on the held-out scenes. One voice's two windows of different sentences are about 0.5 alike,
    so they share one lone voice. Nor a ``brief`` window: a lone "Well," (0.5 s) at the start of
    a woman's turn, its 1 s window half silence, was 0.35 like her and became a speaker of its
    own, without a clip."""
    labels = labels.copy()
    present = np.unique(labels)
    unit = unit_vectors(embeddings)
    own = np.searchsorted(present, labels)
    sums = np.array([unit[own == k].sum(axis=0) for k in range(len(present))])
    alike = unit @ unit_vectors(sums).T
    # A window's own speaker is judged without it: one window pulls a small cluster's mean its way.
    alike[np.arange(len(unit)), own] = np.sum(unit_vectors(sums[own] - unit) * unit, axis=1)
    best = np.max(alike, axis=1)
    # Whether that speaker is clean is judged with all its windows, or, where enough are left to
    # be a speaker, without the windows unlike it, which loosen it; four left (a 3 s line's) by
    # their coherence corrected for their number, and then a window must be as unlike everyone
    # as new voices' windows were (FEW_LEFT_LONE_VOICE).
    def lone_bar(k: int) -> float:
        """How unlike everyone a window of speaker ``k`` must be to be a voice of its own
        (-1: none can, the speaker is not clean)."""
        members = np.flatnonzero(own == k)
        rest = members[best[members] >= LONE_VOICE]
        judged = [members, rest] if len(rest) >= MIN_SPEAKER_WINDOWS else [members]
        if any(float(np.linalg.norm(unit[part].mean(axis=0))) >= CLEAN_COHERENCE for part in judged):
            return LONE_VOICE
        if len(rest) == MIN_SPEAKER_WINDOWS - 1 and _coherence(unit[rest]) >= CLEAN_COHERENCE:
            return FEW_LEFT_LONE_VOICE
        return -1.0

    bar = np.array([lone_bar(k) for k in range(len(present))])
    voices: list[list[int]] = []  # the windows of each lone voice
    for i in np.argsort(starts, kind="stable"):
        if best[i] >= bar[own[i]] or (brief is not None and brief[i]):
            continue
        same = [v for v in voices if float(unit_vectors(unit[v].mean(axis=0)) @ unit[i]) >= LONE_VOICE]
        if same:
            same[0].append(int(i))
        elif len(present) + len(voices) < MAX_SPEAKERS:
            voices.append([int(i)])
    number = int(present.max())
    for windows in voices:
        if len(windows) == 1 and _own_short_line(alike[windows[0]], int(own[windows[0]])):
            continue
        number += 1
        labels[windows] = number
    return labels


def _renumber(labels: np.ndarray) -> tuple[np.ndarray, int]:
    """Labels renumbered 0, 1, ... in order of first appearance (Speaker 1 speaks first)."""
    order: dict[int, int] = {}
    for label in labels:
        order.setdefault(int(label), len(order))
    return np.array([order[int(label)] for label in labels], dtype=int), len(order)


def centroids(embeddings: np.ndarray, labels: np.ndarray, count: int) -> np.ndarray:
    """Each speaker's mean embedding, unit length (count x dimensions)."""
    return np.array([unit_vectors(embeddings[labels == k].mean(axis=0)) if np.any(labels == k)
                     else np.zeros(embeddings.shape[1], dtype=np.float32) for k in range(count)])


# --- lines -------------------------------------------------------------------------------------


def assign(lines: Sequence[Line], windows: EmbeddingWindows, labels: np.ndarray) -> list[Line]:
    """Each line with its speaker, split where the speaker changes (runs under MIN_TURN_S joined
    to their neighbours first)."""
    result: list[Line] = []
    starts, ends = np.asarray(windows.starts), np.asarray(windows.ends)
    for line in lines:
        word_labels = [_word_label(word.start, word.end, starts, ends, labels) for word in line.words]
        word_labels = _smooth(line, word_labels)
        begin = 0
        for i in range(1, len(line.words) + 1):
            if i == len(line.words) or word_labels[i] != word_labels[begin]:
                result.append(Line(line.words[begin:i], speaker=word_labels[begin]))
                begin = i
    return result


def in_speaking_order(lines: Sequence[Line], labels: np.ndarray) -> tuple[list[Line], np.ndarray, int]:
    """Speakers renumbered by their first line (Speaker 1 speaks first), with the number that
    have a line at all: a cluster whose words all went to its neighbours is no character."""
    order: dict[int, int] = {}
    for line in lines:
        order.setdefault(line.speaker, len(order))
    count = len(order)
    for label in labels:
        order.setdefault(int(label), len(order))
    renumbered = [Line(line.words, order[line.speaker], line.translation) for line in lines]
    return renumbered, np.array([order[int(label)] for label in labels], dtype=int), count


def _word_label(start: float, end: float, starts: np.ndarray, ends: np.ndarray, labels: np.ndarray) -> int:
    """The speaker whose windows overlap the word most; the nearest window's when none does."""
    if len(labels) == 0:
        return 0
    overlap = np.minimum(ends, end) - np.maximum(starts, start)
    if np.max(overlap) <= 0:
        middle = (start + end) / 2
        return int(labels[np.argmin(np.abs((starts + ends) / 2 - middle))])
    weights = np.bincount(labels, weights=np.clip(overlap, 0.0, None), minlength=int(labels.max()) + 1)
    return int(np.argmax(weights))


def _smooth(line: Line, word_labels: list[int]) -> list[int]:
    """Runs of one label shorter than MIN_TURN_S take the label of their longer neighbour run."""
    labels = list(word_labels)
    while True:
        runs: list[tuple[int, int]] = []  # (first word, end word)
        for i in range(len(labels) + 1):
            if i == len(labels) or (i > 0 and labels[i] != labels[i - 1]):
                runs.append((runs[-1][1] if runs else 0, i))
        if len(runs) < 2:
            return labels
        durations = [line.words[b - 1].end - line.words[a].start for a, b in runs]
        shortest = int(np.argmin(durations))
        if durations[shortest] >= MIN_TURN_S:
            return labels
        neighbours = [j for j in (shortest - 1, shortest + 1) if 0 <= j < len(runs)]
        into = max(neighbours, key=lambda j: durations[j])
        a, b = runs[shortest]
        labels[a:b] = [labels[runs[into][0]]] * (b - a)

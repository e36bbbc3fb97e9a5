"""Speech that no line covers: stretches the voice activity detector hears but Whisper turned into
no words (issue 32).

On far-field meetings most of the diarization error was such speech (0.16 of the reference
speech on the benchmark's AMI excerpts lies in Silero VAD speech that no line covers; one
excerpt's Whisper pass looped and dropped 16 s of it). Each stretch of at least
:data:`UNHEARD_MIN_S` is decoded a second time, the stretches of a window joined into one piece
of audio (Whisper encodes 30 s whatever it hears, so one call hears them all); the words it gives
become lines like any others. What still gives no words is kept as :class:`Unheard` speech, with
the speaker whose voice its CAM++ embedding resembles most, so the script can show where someone
spoke and nothing was written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from engine.hearing.audio import SAMPLE_RATE
from engine.hearing.lines import Line, Word

if TYPE_CHECKING:
    from engine.voiceprint.encoder import VoiceEmbedder

UNHEARD_MIN_S = 1.0  # shorter stretches gave mostly wrong words ("And I the may have with a") and a phone call's "Hello!"s
# Silero VAD (shipped in faster-whisper) as set for finding them: more sensitive than Whisper's own
# filter (0.5), and a 0.5 s silence ends a stretch (Whisper's 2 s joins turns). On the tuning
# meetings these found 0.16 of the reference speech outside the lines at a false alarm of 0.008.
VAD_THRESHOLD = 0.35
VAD_MIN_SILENCE_MS = 500
VAD_PAD_MS = 100
LINE_MARGIN_S = 0.1  # a line's words are taken to cover this much more either side (word times are loose)
HEARD_AGAIN_PAD_S = 0.2  # each stretch is decoded with this much of its surroundings
HEARD_AGAIN_GAP_S = 0.5  # silence between the stretches joined for the second decoding
FRAME_S = 0.01
# A line Whisper heard under this much of (a word or two of a turn), alone in its stretch of
# speech, is stretched over the rest of it where that adds at least REACH_LEAST_S (see reaching):
# held-out Y1's Fiona, "Well" (0.44 s) heard of a 1.5 s turn, 0.92 s of her speech after it; her
# one window was half silence and went to the speaker before her. A line's last 0.43 s of VAD
# padding and breath ("You are mean", Y1's Donkey) is not reached.
REACH_SHORTER_THAN_S = 0.8
REACH_LEAST_S = 0.5


@dataclass(frozen=True)
class Unheard:
    """A stretch of speech with no words: seconds into the recording, and the speaker it sounds like."""

    start: float
    end: float
    speaker: int = 0
    by_segmentation: bool = False  # found by the segmentation model (engine.hearing.overlap), not Silero

    @property
    def duration_s(self) -> float:
        return self.end - self.start


def speech_frames(audio: np.ndarray) -> np.ndarray:
    """Where the voice activity detector, as set for finding speech no line covers, hears speech
    in ``audio``: a boolean per FRAME_S (it needs no line, so it is heard once a window, beside
    Whisper, however often the window's lines change)."""
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    count = int(len(audio) / SAMPLE_RATE / FRAME_S)
    speech = np.zeros(count + 1, dtype=bool)
    options = VadOptions(threshold=VAD_THRESHOLD, min_silence_duration_ms=VAD_MIN_SILENCE_MS, speech_pad_ms=VAD_PAD_MS)
    for found in get_speech_timestamps(audio, options, sampling_rate=SAMPLE_RATE):
        speech[int(found["start"] / SAMPLE_RATE / FRAME_S): int(found["end"] / SAMPLE_RATE / FRAME_S)] = True
    return speech


def uncovered_speech(audio: np.ndarray, offset_s: float, lines: Sequence[Line],
                     least_s: float = UNHEARD_MIN_S, speech: np.ndarray | None = None) -> list[tuple[float, float]]:
    """The stretches (times in the recording; ``audio`` starts at ``offset_s``) of at least
    ``least_s`` that the voice activity detector finds speech in (``speech``: its
    :func:`speech_frames` of ``audio``, when already heard) and no line covers."""
    speech = speech_frames(audio) if speech is None else speech.copy()
    for line in lines:
        first = max(0, int((line.start - offset_s - LINE_MARGIN_S) / FRAME_S))
        speech[first: max(first, int((line.end - offset_s + LINE_MARGIN_S) / FRAME_S) + 1)] = False
    edges = np.flatnonzero(np.diff(np.concatenate([[0], speech.astype(np.int8), [0]])))
    return [(offset_s + start * FRAME_S, offset_s + end * FRAME_S) for start, end in zip(edges[::2], edges[1::2])
            if (end - start) * FRAME_S >= least_s]


def reaching(lines: Sequence[Line], offset_s: float, speech: np.ndarray) -> list[Line]:
    """``lines`` (times in the recording; ``speech`` the :func:`speech_frames` of a window of
    audio starting at ``offset_s``), each shorter than REACH_SHORTER_THAN_S that is the only line
    in its stretch of speech (one speaker's turn, pauses the voice activity detector hears either
    side) stretched to that stretch's ends, where it adds REACH_LEAST_S or more on that side.
    Whisper may write a word or two of a turn and nothing of the rest, not even when that rest is
    decoded again alone (Y1: "No?" at probability 0.06); the line's speaker windows then hold the
    speaker's voice, not the silence around one word, and its slot in the script is where the
    speaker speaks. A line sharing its stretch with others is left: in a meeting's overlapped
    talk a "yeah" stretched over the others' speech took it (AMI tst00: 4 speakers -> 3)."""
    def frame(seconds: float) -> int:
        return min(len(speech), max(0, int((seconds - offset_s) / FRAME_S)))

    covered = np.zeros(len(speech) + 2, dtype=int)  # how many lines (with their margins) cover each frame
    for line in lines:
        covered[frame(line.start - LINE_MARGIN_S)] += 1
        covered[frame(line.end + LINE_MARGIN_S) + 1] -= 1
    covered = np.cumsum(covered)[:len(speech)]
    result = list(lines)
    for index, line in enumerate(lines):
        if line.end - line.start >= REACH_SHORTER_THAN_S:
            continue
        low, high = frame(line.start - LINE_MARGIN_S), frame(line.end + LINE_MARGIN_S)
        while low > 0 and speech[low - 1]:
            low -= 1
        while high < len(speech) and speech[high]:
            high += 1
        own = np.zeros(len(speech), dtype=int)
        own[frame(line.start - LINE_MARGIN_S): frame(line.end + LINE_MARGIN_S) + 1] = 1
        if np.any(covered[low:high] > own[low:high]):
            continue  # another line in the stretch
        start = offset_s + low * FRAME_S if line.start - LINE_MARGIN_S - (offset_s + low * FRAME_S) >= REACH_LEAST_S \
            else line.start
        end = offset_s + high * FRAME_S if offset_s + high * FRAME_S - line.end - LINE_MARGIN_S >= REACH_LEAST_S \
            else line.end
        if (start, end) != (line.start, line.end):
            words = list(line.words)
            words[0] = replace(words[0], start=start)
            words[-1] = replace(words[-1], end=end)
            result[index] = replace(line, words=words)
    return result


@dataclass(frozen=True)
class JoinedStretches:
    """Stretches of a window joined into one piece of audio for a second decoding, and where each
    lies in it: (start in the piece, end in the piece, start in the recording, the stretch)."""

    audio: np.ndarray
    places: list[tuple[float, float, float, tuple[float, float]]]

    def words_back(self, words: Sequence[Word]) -> list[Word]:
        """``words`` heard in the joined piece (times into it) at their times in the recording;
        only those whose middle lies inside a stretch (not in the surroundings decoded with it,
        which lines already hold)."""
        found: list[Word] = []
        for word in words:
            middle = (word.start + word.end) / 2
            for piece_start, piece_end, recording_start, (start, end) in self.places:
                if piece_start <= middle <= piece_end:
                    shift = recording_start - piece_start
                    if start <= middle + shift <= end:
                        found.append(Word(word.start + shift, word.end + shift, word.text, word.probability))
                    break
        return found


def joined(audio: np.ndarray, offset_s: float, stretches: Sequence[tuple[float, float]]) -> JoinedStretches:
    """``stretches`` of ``audio`` (which starts at ``offset_s``), each with HEARD_AGAIN_PAD_S of
    its surroundings, HEARD_AGAIN_GAP_S of silence apart."""
    gap = np.zeros(int(HEARD_AGAIN_GAP_S * SAMPLE_RATE), dtype=np.float32)
    pieces: list[np.ndarray] = []
    places = []
    at = 0.0
    for start, end in stretches:
        first = max(0, int((start - offset_s - HEARD_AGAIN_PAD_S) * SAMPLE_RATE))
        last = min(len(audio), int((end - offset_s + HEARD_AGAIN_PAD_S) * SAMPLE_RATE))
        pieces += [audio[first:last].astype(np.float32), gap]
        places.append((at, at + (last - first) / SAMPLE_RATE, offset_s + first / SAMPLE_RATE, (start, end)))
        at += (last - first) / SAMPLE_RATE + HEARD_AGAIN_GAP_S
    return JoinedStretches(np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.float32), places)


def embedded(audio: np.ndarray, offset_s: float, stretches: Sequence[tuple[float, float]],
             encoder: VoiceEmbedder) -> np.ndarray:
    """One embedding per stretch of ``audio`` (which starts at ``offset_s``), a row each."""
    if not stretches:
        return np.zeros((0, 0), dtype=np.float32)
    return np.asarray(encoder.embed_many([audio[int((start - offset_s) * SAMPLE_RATE): int((end - offset_s) * SAMPLE_RATE)]
                                          for start, end in stretches], SAMPLE_RATE), dtype=np.float32)


def with_speakers(stretches: Sequence[tuple[float, float]], blocks: Sequence[np.ndarray], window_vectors: np.ndarray,
                  labels: np.ndarray, count: int) -> list[Unheard]:
    """Each stretch (its embedding a row of ``blocks``, in order) given to the speaker, of the
    ``count`` that have lines, whose windows' mean voice it resembles most."""
    if not stretches or count == 0 or len(labels) == 0:
        return []
    vectors = np.concatenate([block for block in blocks if len(block)])
    windows = window_vectors / np.maximum(np.linalg.norm(window_vectors, axis=1, keepdims=True), 1e-9)
    means = np.array([windows[labels == speaker].mean(axis=0) if np.any(labels == speaker) else np.zeros(windows.shape[1])
                      for speaker in range(count)])
    means /= np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-9)
    units = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    speakers = np.argmax(units @ means.T, axis=1)
    return [Unheard(start, end, int(speaker)) for (start, end), speaker in zip(stretches, speakers)]

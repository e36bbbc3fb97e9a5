"""A recording's dialogue as timed lines: Whisper over the audio, in windows, with speakers.

:func:`transcribe_media` decodes the audio of any file FFmpeg reads at 16 kHz mono, a window
of about four minutes at a time cut in a quiet moment, so a two-hour video never sits in memory
decoded (only one window, the 20 ms level envelope and one speaker embedding per 0.75 s of
speech are kept). Each window goes through Whisper with voice activity detection (music and
silence are skipped) and word timestamps; the words are cut into lines at sentence ends and at
pauses, and each line starts and ends where its words do, not where Whisper's padded segments
do, so lines make tight slots for fit. Speakers are found over the whole recording afterwards
(:mod:`engine.hearing.speakers`) and a line in which the speaker changes is split there; then
each speaker's clip candidates are scored (:mod:`engine.hearing.clips`).

Progress is reported by stage (``listening``, ``speakers``, ``clips``) and a cancel event is
checked between windows and between Whisper's segments.
"""

from __future__ import annotations

import math
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Protocol, Sequence

import numpy as np

from engine.audio_io import AudioError, AudioStream
from engine.codes import ErrorCode
from engine.files import FileError
from engine.hearing import HearingError
from engine.hearing.whisper import whisper_languages
from engine.silence import quiet_cut

if TYPE_CHECKING:
    from faster_whisper import WhisperModel
    from faster_whisper.transcribe import TranscriptionInfo

    from engine.hearing.clips import Candidate
    from engine.voices import SpeakerEncoder

SAMPLE_RATE = 16000  # what Whisper and the GE2E encoder both take
WINDOW_S = 240.0  # decoded audio held at once: 15 MiB of float32
WINDOW_CUT_SEARCH_S = 30.0  # a window ends in the quietest moment of its last 30 s
FRAME_S = 0.02  # the level envelope kept for the whole recording (scores clip candidates)
PAUSE_S = 0.6  # a silence this long between words ends a line
MAX_LINE_S = 12.0  # a longer run of words is cut at its widest pause or comma
SENTENCE_END = re.compile(r"[.!?…。！？]+[\"'”’)\]]*$")
CLAUSE_END = re.compile(r"[,;:،，；：]+[\"'”’)\]]*$")
BEAM_SIZE = 5  # beam 1 hurts base badly on some voices and languages (notes/hearing.md)
LANGUAGE_TRUSTED = 0.9  # below this detection probability the language is reported as unsure
TRANSLATION_TARGETS = ("en",)  # Whisper's translate task only goes into English

Progress = Callable[[str, float], None]  # (stage, fraction of that stage done)


@dataclass(frozen=True)
class Word:
    start: float  # seconds into the recording
    end: float
    text: str  # as Whisper wrote it, with its leading space
    probability: float = 1.0


@dataclass
class Line:
    """One line of dialogue: its words (in the recording's language) and who says it."""

    words: list[Word]
    speaker: int = 0  # 0-based; characters are "Speaker <speaker + 1>"
    translation: str | None = None  # the line in the target language, when translating

    @property
    def start(self) -> float:
        return self.words[0].start

    @property
    def end(self) -> float:
        return self.words[-1].end

    @property
    def text(self) -> str:
        return "".join(word.text for word in self.words).strip()


@dataclass
class Transcription:
    """What a recording says, who says it, and each speaker's clip candidates."""

    duration_s: float
    language: str
    language_probability: float
    lines: list[Line]
    speaker_count: int
    translated_to: str | None = None
    candidates: dict[int, list[Candidate]] = field(default_factory=dict)  # by speaker, best first

    @property
    def language_sure(self) -> bool:
        return self.language_probability >= LANGUAGE_TRUSTED


@dataclass(frozen=True)
class Options:
    """What the user asked for: ``language`` "auto" or a code, ``speakers`` "auto" or a count."""

    language: str = "auto"
    speakers: int | None = None  # None: found from the voices
    translate_to: str | None = None
    stream_index: int | None = None  # which audio stream (default: the first)


class Translator(Protocol):
    """Puts the lines into another language. Whisper's translate task is one; a text model could
    be another. It hears each window of audio as it is decoded (a text translator ignores it),
    and translates the final lines (split by speaker) once all are known."""

    target: str

    def hear(self, audio: np.ndarray, offset_s: float, source_language: str) -> None:
        ...

    def translate(self, lines: Sequence[Line], source_language: str) -> list[str]:
        ...


def check_language(model: WhisperModel, language: str) -> str | None:
    """None for "auto", else the code when Whisper knows it; E_UNKNOWN_LANGUAGE otherwise."""
    code = language.strip().lower()
    if code in ("", "auto"):
        return None
    known = whisper_languages() if getattr(model, "model", None) is None or model.model.is_multilingual else {"en"}
    if code not in known:
        raise HearingError(ErrorCode.UNKNOWN_LANGUAGE,
                           f"Whisper does not know the language {language!r}; use one of {', '.join(sorted(known))} "
                           "or auto")
    return code


# --- decoding in windows -----------------------------------------------------------------------


@dataclass(frozen=True)
class AudioWindow:
    start_s: float
    audio: np.ndarray  # float32 mono at SAMPLE_RATE


def probe_audio(path: Path, stream_index: int | None) -> float:
    """The duration of the audio stream (for progress); E_NO_AUDIO_STREAM / E_AUDIO_UNREADABLE."""
    with _open_stream(path, stream_index) as stream:
        return stream.duration_s or 0.0


def _open_stream(path: Path, stream_index: int | None) -> AudioStream:
    """The recording's audio stream, or a coded error."""
    try:
        return AudioStream(path, stream_index)
    except AudioError as error:
        if error.no_stream:
            raise HearingError(ErrorCode.NO_AUDIO_STREAM, f"{error}: there is no dialogue to transcribe") from None
        raise HearingError(ErrorCode.AUDIO_UNREADABLE, f"cannot read {path.name}: {error}") from error
    except FileError as error:
        raise HearingError(ErrorCode.AUDIO_UNREADABLE, error.message) from None


def decode_blocks(path: Path, stream_index: int | None, rate: int | None = None,
                  cancel: threading.Event | None = None) -> Iterator[tuple[int, np.ndarray]]:
    """(rate, mono float32 block) in order, resampled to ``rate`` (default: the stream's own)."""
    with _open_stream(path, stream_index) as stream:
        out_rate = rate or stream.sample_rate
        try:
            for block in stream.blocks(mono=True, rate=out_rate):
                if cancel is not None and cancel.is_set():
                    raise HearingError(ErrorCode.CANCELLED, "transcription cancelled")
                yield out_rate, block
        except AudioError as error:
            raise HearingError(ErrorCode.AUDIO_UNREADABLE,
                               f"cannot decode the audio of {path.name}: {error}") from error


def audio_windows(path: Path, stream_index: int | None, cancel: threading.Event | None = None,
                  window_s: float = WINDOW_S) -> Iterator[AudioWindow]:
    """The recording at 16 kHz mono, ``window_s`` at a time, each cut in a quiet moment so no
    word is split between two windows."""
    pending: list[np.ndarray] = []
    held = 0
    start = 0
    limit = int(window_s * SAMPLE_RATE)
    for _, block in decode_blocks(path, stream_index, SAMPLE_RATE, cancel):
        pending.append(block)
        held += len(block)
        if held < limit:
            continue
        audio = np.concatenate(pending)
        cut = quiet_cut(audio, SAMPLE_RATE, max(0.0, window_s - WINDOW_CUT_SEARCH_S), window_s, 20.0, frame_s=0.3)
        cut = limit if cut is None else cut
        yield AudioWindow(start / SAMPLE_RATE, audio[:cut])
        start += cut
        pending, held = [audio[cut:]], len(audio) - cut
    if held:
        yield AudioWindow(start / SAMPLE_RATE, np.concatenate(pending))


# --- words and lines ---------------------------------------------------------------------------


def whisper_words(model: WhisperModel, audio: np.ndarray, offset_s: float, language: str | None, task: str,
                  cancel: threading.Event | None = None,
                  heard_to: Callable[[float], None] | None = None) -> tuple[list[Word], TranscriptionInfo]:
    """Whisper's words in ``audio`` (times into the recording) and its info (language...);
    ``heard_to(seconds)`` is told how far into the recording each segment reached.

    Segments Whisper itself marks as no speech with a low confidence are dropped (its own
    hallucination rule), as are words with no duration.
    """
    segments, info = model.transcribe(
        audio, language=language, task=task, beam_size=BEAM_SIZE, vad_filter=True, word_timestamps=True,
        condition_on_previous_text=False,  # one misheard window must not steer the next ones into a loop
        temperature=0.0,  # no sampling fallback: the same video gives the same script every time
    )
    words: list[Word] = []
    for segment in segments:
        if cancel is not None and cancel.is_set():
            raise HearingError(ErrorCode.CANCELLED, "transcription cancelled")
        if heard_to is not None:
            heard_to(offset_s + segment.end)
        if segment.no_speech_prob > 0.6 and segment.avg_logprob < -1.0:
            continue
        for word in segment.words or ():
            if word.end > word.start and word.word.strip():
                words.append(Word(offset_s + word.start, offset_s + word.end, word.word, word.probability))
    return words, info


def split_lines(words: Sequence[Word], pause_s: float = PAUSE_S, max_line_s: float = MAX_LINE_S) -> list[Line]:
    """Words cut into lines at sentence ends and at pauses; over-long lines cut again."""
    lines: list[Line] = []
    current: list[Word] = []
    for word in words:
        if current and word.start - current[-1].end >= pause_s:
            lines.append(Line(current))
            current = []
        current.append(word)
        if SENTENCE_END.search(word.text.strip()):
            lines.append(Line(current))
            current = []
    if current:
        lines.append(Line(current))
    return [part for line in lines for part in _shorten(line, max_line_s)]


def _shorten(line: Line, max_line_s: float) -> list[Line]:
    """A line longer than ``max_line_s`` cut in two where a pause is widest (a comma counts
    as 0.3 s more), and again until every part fits."""
    if line.end - line.start <= max_line_s or len(line.words) < 2:
        return [line]
    words = line.words
    best, best_gap = 1, -math.inf
    for i in range(1, len(words)):
        gap = words[i].start - words[i - 1].end + (0.3 if CLAUSE_END.search(words[i - 1].text.strip()) else 0.0)
        balance = min(words[i - 1].end - line.start, line.end - words[i].start)  # keep both parts sizeable
        if gap + 0.01 * balance > best_gap:
            best, best_gap = i, gap + 0.01 * balance
    return _shorten(Line(words[:best]), max_line_s) + _shorten(Line(words[best:]), max_line_s)


# --- the pipeline ------------------------------------------------------------------------------


def transcribe_media(
    path: str | os.PathLike[str],
    model: WhisperModel,
    encoder: SpeakerEncoder,
    options: Options = Options(),
    *,
    translator: Translator | None = None,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
) -> Transcription:
    """Transcribe ``path``'s dialogue, find its speakers and their clip candidates.

    ``model`` is a faster-whisper ``WhisperModel``; ``encoder`` a speaker encoder with the
    ``embed(ReferenceClip)`` API of :class:`engine.voices.SpeakerEncoder`. Raises HearingError:
    E_NO_AUDIO_STREAM, E_AUDIO_UNREADABLE, E_UNKNOWN_LANGUAGE, E_TRANSLATION_TARGET,
    E_BAD_SPEAKER_COUNT, E_NO_SPEECH (silence or music only), E_CANCELLED.
    """
    from engine.hearing import clips, speakers

    path = Path(path)
    language = check_language(model, options.language)
    if options.speakers is not None and not 1 <= options.speakers <= speakers.MAX_SPEAKERS:
        raise HearingError(ErrorCode.BAD_SPEAKER_COUNT,
                           f"the number of speakers must be 1 to {speakers.MAX_SPEAKERS} or auto, got {options.speakers}")
    if options.translate_to is not None:
        if translator is None or translator.target != options.translate_to:
            raise HearingError(ErrorCode.TRANSLATION_TARGET,
                               f"no translator into {options.translate_to!r}; "
                               f"Whisper translates into {', '.join(TRANSLATION_TARGETS)} only")
    report = progress or (lambda stage, fraction: None)
    duration = probe_audio(path, options.stream_index)
    report("listening", 0.0)
    lines: list[Line] = []
    windows = speakers.EmbeddingWindows()
    levels = clips.LevelEnvelope(FRAME_S, SAMPLE_RATE)
    probability = 1.0
    end_s = 0.0
    for window in audio_windows(path, options.stream_index, cancel):
        levels.add(window.audio)
        words, info = whisper_words(model, window.audio, window.start_s, language, "transcribe", cancel,
                                    lambda seconds: report("listening", min(1.0, seconds / duration) if duration else 0.0))
        if language is None and words:
            language, probability = info.language, float(info.language_probability)  # held for the windows after
        window_lines = split_lines(words)
        if translator is not None and window_lines:
            translator.hear(window.audio, window.start_s, language or "")
        windows.add(window.audio, window.start_s, window_lines, encoder, cancel)
        lines.extend(window_lines)
        end_s = window.start_s + len(window.audio) / SAMPLE_RATE
        report("listening", min(1.0, end_s / duration) if duration else 0.0)
    duration = max(duration, end_s)
    if not lines:
        raise HearingError(ErrorCode.NO_SPEECH,
                           f"no speech found in {path.name} ({duration:.0f} s of silence, music or noise)")
    report("speakers", 0.0)
    labels, count = speakers.cluster(windows.embeddings(), windows.starts, options.speakers)
    lines, labels, count = speakers.in_speaking_order(speakers.assign(lines, windows, labels), labels)
    report("speakers", 1.0)
    if translator is not None:
        for line, text in zip(lines, translator.translate(lines, language or "")):
            line.translation = text
    if cancel is not None and cancel.is_set():
        raise HearingError(ErrorCode.CANCELLED, "transcription cancelled")
    report("clips", 0.0)
    candidates = clips.candidates(lines, windows, labels, levels, count)
    report("clips", 1.0)
    return Transcription(duration, language or "", probability, lines, count,
                         options.translate_to, candidates)


class WhisperTranslator:
    """Whisper's own translate task (into English only), run over the same window of audio.

    Its English words are kept (a few bytes each) and given to the source line they fall in, by
    the middle of each word; with the base model that English is often wrong, so the project
    marks it as a draft.
    """

    target = "en"

    def __init__(self, model: WhisperModel, cancel: threading.Event | None = None) -> None:
        self.model = model
        self.cancel = cancel
        self.words: list[Word] = []

    def hear(self, audio: np.ndarray, offset_s: float, source_language: str) -> None:
        words, _ = whisper_words(self.model, audio, offset_s, source_language or None, "translate", self.cancel)
        self.words.extend(words)

    def translate(self, lines: Sequence[Line], source_language: str) -> list[str]:
        if not lines:
            return []
        texts: list[list[str]] = [[] for _ in lines]
        starts = np.array([line.start for line in lines])
        ends = np.array([line.end for line in lines])
        for word in self.words:
            middle = (word.start + word.end) / 2
            inside = np.flatnonzero((starts <= middle) & (middle <= ends))
            # Between lines (translated timing drifts), the nearer line's edge wins.
            index = int(inside[0]) if len(inside) else int(np.argmin(np.minimum(abs(starts - middle),
                                                                                   abs(ends - middle))))
            texts[index].append(word.text)
        return ["".join(parts).strip() for parts in texts]


__all__ = [
    "Line",
    "Options",
    "Transcription",
    "Translator",
    "WhisperTranslator",
    "Word",
    "audio_windows",
    "check_language",
    "split_lines",
    "transcribe_media",
]

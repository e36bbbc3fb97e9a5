"""A recording's dialogue as timed lines: Whisper over the audio, in windows, with speakers.

:func:`transcribe_media` decodes the audio of any file FFmpeg reads at 16 kHz mono, a window
of about four minutes at a time cut in a quiet moment, so a two-hour video never sits in memory
decoded (only one window, the 20 ms level envelope and one speaker embedding per 0.75 s of
speech are kept). Each window goes through Whisper with voice activity detection (music and
silence are skipped) and word timestamps; the words are cut into lines at sentence ends and at
pauses, and each line starts and ends where its words do, not where Whisper's padded segments
do, so lines make tight slots for fit; where the voice changes inside a line (a turn change
under the pause that cuts lines), its parts are embedded too. Speech the voice activity detector
finds that no line covers is decoded a second time, and what still has no words is kept with its
speaker (:mod:`engine.hearing.unheard`). Speakers are found over the whole
recording afterwards (:mod:`engine.hearing.speakers`) and a line in which the speaker changes
is split there; then
each speaker's clip candidates are scored (:mod:`engine.hearing.clips`).

Where two cores or more are free, the speaker steps run beside Whisper on a thread of their own
(Whisper loaded with :func:`whisper_threads`, one core less): a window's segmentation and voice
activity as soon as it is decoded, each line's windows as soon as Whisper has heard the word
after it, and the rest of the window's steps while Whisper hears the next window. Both
onnxruntime and CTranslate2 let go of the GIL while they compute, and the result is the very
one made step after step (the same calls on the same samples).

Progress is reported by stage (``listening``, ``speakers``, ``clips``) and a cancel event is
checked between windows and between Whisper's segments. Whisper says how far it has heard only
as it finishes a 30 s stretch of speech (one ctranslate2 call), so between its segments the
listening stage is estimated from its speed, every half second, and reported as
``listening:estimated`` (:class:`_Listening`): the first stretch moves too.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

import numpy as np

from engine.core.codes import ErrorCode
from engine.core.numbers import RangeError
from engine.core.silence import sound_intervals
from engine.hearing import HearingError, clips, overlap, segmentation, speakers, unheard
from engine.hearing.audio import SAMPLE_RATE, audio_windows, probe_audio
from engine.hearing.chinese import (
    DEFAULT_SCRIPT,
    check_script,
    ended_as_sentences,
    is_chinese,
    written_as_chinese,
)
from engine.hearing.clips import Candidate
from engine.hearing.lines import PAUSE_S, Line, Word, split_lines
from engine.hearing.whisper import usable_cores, whisper_languages

if TYPE_CHECKING:
    from faster_whisper import WhisperModel
    from faster_whisper.transcribe import TranscriptionInfo

    from engine.core.reference import ReferenceClip
    from engine.voiceprint.encoder import VoiceEmbedder

FRAME_S = 0.02  # the level envelope kept for the whole recording (scores clip candidates)
BEAM_SIZE = 5  # beam 1 hurts base badly on some voices and languages (notes/hearing.md)
LANGUAGE_TRUSTED = 0.9  # below this detection probability the language is reported as unsure
TRANSLATION_TARGETS = ("en",)  # Whisper's translate task only goes into English
# Language detection hears up to this many 30 s stretches of the first window's speech (pauses
# and silence cut out): a recording's short turns are judged together, not 2 s at a time.
DETECTION_SEGMENTS = 4
# Speech still without words after the second decoding is decoded in another language when
# Whisper's detection on that stretch alone gives it this much (the language left on auto):
# docs/transcribe.md, *Turns in another language*.
OTHER_LANGUAGE_SURE = 0.9

Progress = Callable[[str, float], None]  # (stage, fraction of that stage done)
_Result = TypeVar("_Result")


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
    # What the candidates were found from, kept so they can be found again after the user
    # splits or merges speakers (app.project.transcription keeps them beside the project).
    windows: speakers.EmbeddingWindows | None = None
    levels: clips.LevelEnvelope | None = None
    # Speech no line covers (the voice activity detector heard it, Whisper gave no words even on
    # a second decoding), each with the speaker it sounds like: see engine.hearing.unheard.
    no_words: list[unheard.Unheard] = field(default_factory=list)
    # Where a second speaker talks over a line's or a wordless stretch's (the segmentation model
    # hears two at once and one of them is that span's speaker): see engine.hearing.overlap.
    overlaps: list[overlap.Stretch] = field(default_factory=list)
    # Speech the segmentation model hears that no span covers and that is not among no_words:
    # next to or between one speaker's own spans (a pause inside a turn, a line's edge its words
    # missed) or under a second long. Who speaks when, not speech to show.
    speaking: list[overlap.Stretch] = field(default_factory=list)
    # Speakers the segmentation model hears whom no line is given to (a voice unlike every speaker
    # with lines: engine.hearing.overlap, NEW_VOICE), numbered from speaker_count on: their speech
    # is among no_words, speaking and overlaps, and they are no character of the script.
    speakers_without_lines: int = 0

    @property
    def speakers_heard(self) -> int:
        """Every speaker heard: those with lines and those without."""
        return self.speaker_count + self.speakers_without_lines

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
    chinese_script: str = DEFAULT_SCRIPT  # "simplified" or "traditional": how Chinese lines are written
    # Decode again the speech no line covers (engine.hearing.unheard); off, it is only reported.
    hear_again: bool = True
    # Hear who speaks when with the segmentation model too (engine.hearing.overlap): speech no
    # line covers that Silero missed, and second speakers where two talk at once.
    segmentation: bool = True


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


def whisper_words(model: WhisperModel, audio: np.ndarray, offset_s: float, language: str | None, task: str,
                  cancel: threading.Event | None = None,
                  heard_to: Callable[[float], None] | None = None,
                  chinese_script: str = DEFAULT_SCRIPT, vad_filter: bool = True,
                  words_so_far: Callable[[Sequence[Word]], None] | None = None,
                  ) -> tuple[list[Word], TranscriptionInfo]:
    """Whisper's words in ``audio`` (times into the recording) and its info (language...);
    ``heard_to(seconds)`` is told how far into the recording each segment reached, and
    ``words_so_far`` the words heard so far after each segment. Without ``vad_filter`` Whisper
    hears all of ``audio`` (stretches already found to be speech).

    Segments Whisper itself marks as no speech with a low confidence are dropped (its own
    hallucination rule), as are heard words with no duration (translated ones are kept). Chinese (transcribed, not translated)
    comes out in ``chinese_script`` with full-width punctuation, a sentence mark wherever a line
    is cut (:func:`engine.hearing.chinese.written_as_chinese`).
    """
    segments, info = model.transcribe(
        audio, language=language, task=task, beam_size=BEAM_SIZE, vad_filter=vad_filter, word_timestamps=True,
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
            # A translated word timed with no duration is still said: the translate task times
            # many so (5 of a 10-word clip's), and dropping them flipped a draft's sense. Heard
            # words with no duration stay out: the speakers are timed from the words (kept, they
            # made a 4-speaker AMI meeting 5).
            if (word.end > word.start or (task == "translate" and word.end == word.start)) and word.word.strip():
                words.append(Word(offset_s + word.start, offset_s + word.end, word.word, word.probability))
        if words_so_far is not None:
            words_so_far(words)
    if task == "transcribe" and is_chinese(language or info.language):
        words = written_as_chinese(words, chinese_script, PAUSE_S, language or info.language)
    return words, info


def _hear_window(model: WhisperModel, audio: np.ndarray, offset_s: float, language: str | None, options: Options,
                 cancel: threading.Event | None, heard_to: Callable[[float], None],
                 words_so_far: Callable[[Sequence[Word]], None] | None = None,
                 speech: Future[np.ndarray] | None = None, other_languages: bool = False,
                 ) -> tuple[list[Line], list[tuple[float, float]]]:
    """The lines Whisper hears in a window of audio (a short one stretched over the speech that runs
    on from it: :func:`unheard.reaching`), and the stretches of speech no line covers
    (decoded a second time first, unless ``options.hear_again`` is off: the window's stretches
    together, then each alone what is left without words of a stretch part of which got words;
    with ``other_languages``, the language left to Whisper, each in the language it sounds like
    on its own where that is surely another, :func:`_stretch_languages`); ``words_so_far`` is
    told the words of the first decoding as they come (see :func:`whisper_words`), ``speech``
    gives the window's :func:`unheard.speech_frames` (heard here when not given)."""
    words, _ = whisper_words(model, audio, offset_s, language, "transcribe", cancel, heard_to, options.chinese_script,
                             words_so_far=words_so_far)
    heard = split_lines(words)
    frames = unheard.speech_frames(audio) if speech is None else speech.result()
    silent = unheard.uncovered_speech(audio, offset_s, heard, speech=frames)
    if silent and options.hear_again:
        heard = _heard_again_by_language(model, audio, offset_s, silent, heard, language, options, cancel,
                                         other_languages)
        # What is left without words of a stretch part of which got its words is another turn (a
        # reply after the turn that got its line): decoded once more on its own, without the
        # neighbour's speech that steered Whisper away from it. A 1.1 s Mandarin reply 0.2 s after
        # an English turn gave no words inside the stretch of both, and "帅气" alone (fresh F4).
        # Stretches left whole are not decoded again: in a 4-minute window of meetings that added
        # 15 lines of unmeasured worth to 119 and 18 % more CPU.
        for stretch in unheard.uncovered_speech(audio, offset_s, heard, speech=frames):
            if stretch in silent:
                continue
            heard = _heard_again_by_language(model, audio, offset_s, [stretch], heard, language, options, cancel,
                                             other_languages)
    # A line Whisper heard a word or two of reaches over the rest of its speaker's speech (Y1).
    heard = unheard.reaching(heard, offset_s, frames)
    return heard, unheard.uncovered_speech(audio, offset_s, heard, speech=frames)


def _heard_again_by_language(model: WhisperModel, audio: np.ndarray, offset_s: float,
                             stretches: Sequence[tuple[float, float]], lines: Sequence[Line], language: str | None,
                             options: Options, cancel: threading.Event | None, other_languages: bool) -> list[Line]:
    """``lines`` with those Whisper hears in ``stretches`` decoded again (:func:`_heard_again`),
    each in the language it sounds like where ``other_languages`` (:func:`_stretch_languages`)."""
    heard_in = _stretch_languages(model, audio, offset_s, stretches, language) \
        if other_languages and language is not None else {language: list(stretches)}
    heard = list(lines)
    for stretch_language, in_language in heard_in.items():
        heard = _heard_again(model, audio, offset_s, in_language, heard, stretch_language, cancel,
                             options.chinese_script, "" if stretch_language == language else stretch_language or "")
    return heard


def _heard_again(model: WhisperModel, audio: np.ndarray, offset_s: float, stretches: Sequence[tuple[float, float]],
                 lines: Sequence[Line], language: str | None, cancel: threading.Event | None,
                 chinese_script: str, heard_as: str = "") -> list[Line]:
    """``lines`` with those Whisper hears in ``stretches`` decoded again on their own (joined into
    one piece of audio, with no voice filter: they are speech), in time order; ``heard_as`` marks
    their words with the language they were heard in where it is not the recording's
    (:attr:`Word.language`)."""
    again = unheard.joined(audio, offset_s, stretches)
    words, _ = whisper_words(model, again.audio, 0.0, language, "transcribe", cancel, None, chinese_script,
                             vad_filter=False)
    found = [replace(word, language=heard_as) for word in again.words_back(words)]
    if not found:
        return list(lines)

    def kept_off_lines(word: Word, start: float, end: float) -> Word:
        """``word`` of the stretch (start, end), kept to it where it reaches into a line: Whisper
        times a piece's first word from the piece's start, in the surroundings decoded with the
        stretch (a reply's line began 0.1 s inside the line before it, fresh F4)."""
        margin = unheard.LINE_MARGIN_S
        if word.start < start and any(line.start <= word.start <= line.end + margin for line in lines):
            word = replace(word, start=start)
        if word.end > end and any(line.start - margin <= word.end <= line.end for line in lines):
            word = replace(word, end=end)
        return word

    # Each stretch's words make lines of their own: a stretch is speech between others' lines.
    new = [line for start, end in stretches
           for line in split_lines([kept_off_lines(word, start, end) for word in found
                                    if start <= (word.start + word.end) / 2 <= end])]
    return sorted([*lines, *new], key=lambda line: line.start)


def _stretch_languages(model: WhisperModel, audio: np.ndarray, offset_s: float,
                       stretches: Sequence[tuple[float, float]], language: str,
                       ) -> dict[str | None, list[tuple[float, float]]]:
    """``stretches`` (speech the first decoding gave no words) by the language to decode them in:
    the recording's ``language``, or another where Whisper's detection on the stretch alone
    gives it :data:`OTHER_LANGUAGE_SURE` or more. A Mandarin drama's English turn decoded in
    Chinese gave no words (or mixed ones: 这就是research headquarters...); heard alone it is
    English at 0.996, and decoded in English it is the line. A stretch unsure as a whole may be
    two turns in two languages with a short silence between (an English turn and a Mandarin
    reply 0.2 s later: English at 0.73 together); each half of it (:func:`_halves_at_widest_silence`)
    is judged alone, and a half surely in another language is decoded in that language too."""

    def judged(start: float, end: float) -> tuple[str, bool]:
        """The language to decode in, and whether Whisper was sure of its likeliest one."""
        odds = language_odds(model, audio[int((start - offset_s) * SAMPLE_RATE): int((end - offset_s) * SAMPLE_RATE)])
        likeliest = max(odds, key=lambda code: odds[code]) if odds else language
        sure = odds is not None and bool(odds) and odds[likeliest] >= OTHER_LANGUAGE_SURE
        return (likeliest if sure else language), sure

    by_language: dict[str | None, list[tuple[float, float]]] = {}
    for start, end in stretches:
        heard_in, sure = judged(start, end)
        # The whole stretch stays with the recording's language: decoded without it, the other
        # stretches joined for that decoding gave fewer words (a fresh scene lost a Mandarin turn).
        halves = [] if sure else _halves_at_widest_silence(audio, offset_s, start, end)
        languages = [judged(*half)[0] for half in halves]
        by_language.setdefault(heard_in, []).append((start, end))
        for half, half_language in zip(halves, languages):
            if half_language != language:
                by_language.setdefault(half_language, []).append(half)
    return by_language


def _halves_at_widest_silence(audio: np.ndarray, offset_s: float, start: float, end: float,
                              ) -> list[tuple[float, float]]:
    """(start, end) cut in two at its widest silence (audio speakers.PAUSE_TOP_DB under its
    loudest moment, at least speakers.CHANGE_PAUSE_S) with unheard.UNHEARD_MIN_S of it each
    side; none where there is no such silence."""
    first = max(0, int((start - offset_s) * SAMPLE_RATE))
    frame = int(speakers.PAUSE_FRAME_S * SAMPLE_RATE)
    sounds = sound_intervals(audio[first: int((end - offset_s) * SAMPLE_RATE)], speakers.PAUSE_TOP_DB,
                             frame=frame, hop=frame // 2)
    at = offset_s + first / SAMPLE_RATE
    silences = [(at + quiet / SAMPLE_RATE, at + loud / SAMPLE_RATE) for (_, quiet), (loud, _) in zip(sounds, sounds[1:])]
    silences = [(quiet, loud) for quiet, loud in silences if loud - quiet >= speakers.CHANGE_PAUSE_S
                and quiet - start >= unheard.UNHEARD_MIN_S and end - loud >= unheard.UNHEARD_MIN_S]
    if not silences:
        return []
    quiet, loud = max(silences, key=lambda silence: silence[1] - silence[0])
    return [(start, quiet), (loud, end)]


def detect_language(model: WhisperModel, audio: np.ndarray) -> tuple[str, float] | None:
    """(language, probability) of the speech in ``audio``, judged over up to
    :data:`DETECTION_SEGMENTS` 30 s stretches of it with the pauses cut out (short turns together,
    not one at a time); None when there is no speech."""
    from faster_whisper.vad import get_speech_timestamps

    if not get_speech_timestamps(audio, sampling_rate=SAMPLE_RATE):
        return None
    if not model.model.is_multilingual:
        return "en", 1.0  # an English-only model (tiny.en) hears English
    language, probability, _ = model.detect_language(audio, vad_filter=True,
                                                     language_detection_segments=DETECTION_SEGMENTS)
    return language, float(probability)


def language_odds(model: WhisperModel, audio: np.ndarray) -> dict[str, float] | None:
    """Each language's probability for the speech in ``audio``, judged as :func:`detect_language`
    judges it; None when there is no speech."""
    from faster_whisper.vad import get_speech_timestamps

    if not get_speech_timestamps(audio, sampling_rate=SAMPLE_RATE):
        return None
    if not model.model.is_multilingual:
        return {"en": 1.0}
    _, _, odds = model.detect_language(audio, vad_filter=True, language_detection_segments=DETECTION_SEGMENTS)
    return {language: float(probability) for language, probability in odds}


# --- the pipeline ------------------------------------------------------------------------------


def _check_options(options: Options, translator: Translator | None) -> None:
    """Refuse options the pipeline cannot honour before any audio is read."""
    try:
        check_script(options.chinese_script)
    except ValueError as error:
        raise HearingError(ErrorCode.BAD_OPTION, str(error)) from None
    if options.speakers is not None:
        try:
            speakers.SPEAKER_COUNT.check(options.speakers)
        except RangeError as error:
            raise HearingError(error.code, error.message) from None
    if options.translate_to is not None and (translator is None or translator.target != options.translate_to):
        raise HearingError(ErrorCode.TRANSLATION_TARGET,
                           f"no translator into {options.translate_to!r}; "
                           f"Whisper translates into {', '.join(TRANSLATION_TARGETS)} only")


def whisper_threads(cores: int | None = None) -> int:
    """The threads to load Whisper with for :func:`transcribe_media`: one core less than this
    process may use (``cores``, by default its own), at least one; the speaker steps run on the
    core left, beside Whisper, instead of after it on both."""
    cores = usable_cores() if cores is None else cores
    return max(1, cores - SPEAKER_THREADS)


def transcribe_media(
    path: str | os.PathLike[str],
    model: WhisperModel,
    encoder: VoiceEmbedder,
    options: Options = Options(),
    *,
    translator: Translator | None = None,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    speakers_beside: bool | None = None,
) -> Transcription:
    """Transcribe ``path``'s dialogue, find its speakers and their clip candidates.

    ``model`` is a faster-whisper ``WhisperModel``, loaded with :func:`whisper_threads` threads
    on a CPU; ``encoder`` the speaker encoder that tells voices apart
    (:class:`engine.voiceprint.encoder.CamppSpeakerEncoder`; the clustering's constants are tuned
    for its embeddings). With ``speakers_beside`` (by default where this process may use two
    cores or more) each window's speaker steps run on a thread of their own beside Whisper
    (:class:`_BesideWhisper`); the result is the same either way. Raises HearingError:
    E_NO_AUDIO_STREAM, E_AUDIO_UNREADABLE, E_UNKNOWN_LANGUAGE, E_TRANSLATION_TARGET,
    E_BAD_SPEAKER_COUNT, E_NO_SPEECH (silence or music only), E_CANCELLED.
    """
    path = Path(path)
    language = check_language(model, options.language)
    language_given = language is not None  # a language the user fixed is kept for every stretch
    _check_options(options, translator)
    report = progress or (lambda stage, fraction: None)
    duration = probe_audio(path, options.stream_index)
    listened = _Listening(report, duration, _WHISPER_SPEEDS.get(model, _Listening.FIRST_GUESS_SPEED))
    listened.heard_to(0.0)
    lines: list[Line] = []
    levels = clips.LevelEnvelope(FRAME_S, SAMPLE_RATE)
    voices = _Voices(encoder, options, listened, cancel)
    beside = usable_cores() > SPEAKER_THREADS if speakers_beside is None else speakers_beside
    probability = 1.0
    end_s = 0.0
    with _BesideWhisper(beside) as worker:
        previous: Future[None] | None = None
        for window in audio_windows(path, options.stream_index, cancel):
            levels.add(window.audio)
            end_s = window.start_s + len(window.audio) / SAMPLE_RATE
            speech = worker.submit(unheard.speech_frames, window.audio)  # needs no line: heard beside Whisper
            chunks = voices.segmenting(worker, window.audio)
            with listened.whispering(end_s):  # language detection is part of hearing the first window
                if language is None:
                    detected = detect_language(model, window.audio)
                    if detected is not None:
                        language, probability = detected  # held for the windows after
                # Chinese words are rewritten once the window is heard: no line is final before.
                ahead = _LinesAhead(worker, voices, window.audio, window.start_s) \
                    if beside and not is_chinese(language or "") else None
                heard, silent = _hear_window(model, window.audio, window.start_s, language, options, cancel,
                                             listened.heard_to, ahead.words_so_far if ahead else None, speech,
                                             other_languages=not language_given)
            if translator is not None and heard:
                translator.hear(window.audio, window.start_s, language or "")
            listened.heard_to(end_s)
            if previous is not None:
                previous.result()  # at most two windows' audio held: the one heard, the one embedded
            previous = worker.submit(voices.add_window, window.audio, window.start_s, end_s, heard, silent, chunks)
            lines.extend(heard)
        if previous is not None:
            previous.result()
    duration = max(duration, end_s)
    if listened.speed is not None:
        _WHISPER_SPEEDS[model] = listened.speed  # the next transcription's first stretch starts from it
    if not lines:
        raise HearingError(ErrorCode.NO_SPEECH,
                           f"no speech found in {path.name} ({duration:.0f} s of silence, music or noise)")
    return _with_speakers(lines, voices, levels, options, language, probability, duration, report, translator, cancel)


def _with_speakers(lines: list[Line], voices: _Voices, levels: clips.LevelEnvelope, options: Options,
                   language: str | None, probability: float, duration: float, report: Progress,
                   translator: Translator | None, cancel: threading.Event | None) -> Transcription:
    """The transcription of the lines heard, once every window's speaker steps are done: the
    speakers found over the whole recording, the lines translated, the clip candidates."""
    report("speakers", 0.0)
    lines, labels, windows = speakers.speakers_of(lines, voices.parts, voices.windows, voices.part_windows,
                                                  options.speakers)
    lines, labels, count = speakers.in_speaking_order(lines, labels)
    no_words = unheard.with_speakers(voices.silent_stretches, voices.silent_vectors, windows.embeddings(), labels, count)
    no_words, overlaps, speaking, lineless = _segmented(voices.local_speech, lines, no_words, count, duration,
                                                        speakers.centroids(windows.embeddings(), labels, count))
    for line in lines:  # a Chinese line split where the speaker changes ends there too
        if is_chinese(line.language or language):
            ended_as_sentences([line], line.language or language or "")
    report("speakers", 1.0)
    if translator is not None:
        for line, text in zip(lines, translator.translate(lines, language or "")):
            line.translation = text
    if cancel is not None and cancel.is_set():
        raise HearingError(ErrorCode.CANCELLED, "transcription cancelled")
    report("clips", 0.0)
    candidates = clips.candidates(lines, windows, clips.window_labels(windows, lines), levels, count)
    report("clips", 1.0)
    return Transcription(duration, language or "", probability, lines, count,
                         options.translate_to, candidates, windows, levels, no_words, overlaps, speaking, lineless)


SPEAKER_THREADS = 1  # the speaker steps' share of the cores: CAM++ and the segmentation model, one thread each, in turn


class _BesideWhisper:
    """Where the speaker steps run: one worker thread beside Whisper, taking the work in the order
    it is given (a window's own pass after the lines heard ahead of it), or, not ``beside``, the
    calling thread at once. On leaving, work not yet begun is dropped and the running one waited
    for (it checks the cancel event between lines)."""

    def __init__(self, beside: bool) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="speakers") if beside else None

    def submit(self, work: Callable[..., _Result], *args: object) -> Future[_Result]:
        if self._pool is not None:
            return self._pool.submit(work, *args)
        done: Future[_Result] = Future()
        done.set_result(work(*args))  # a failure is raised here, where the work is
        return done

    def __enter__(self) -> _BesideWhisper:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


class _RememberedEmbeddings:
    """The speaker encoder, remembering each piece's vector by the exact samples it was given,
    for one window: the lines heard ahead of the window's own pass are embedded while Whisper
    still decodes, and that pass finds the same pieces answered; a piece two steps share (a
    part's first window that is its line's, the sides of a voice-change try tried again on a
    part: 43 of 876 pieces on the benchmark's long recording) is embedded once. A piece's vector
    does not depend on the others embedded with it (CAM++ gives the same bits alone or in any
    batch: tests/engine/voiceprint/test_campplus.py), so the vectors are the ones embedded
    afresh. Only the worker thread that runs the speaker steps uses it; it holds vectors, never
    code."""

    def __init__(self, encoder: VoiceEmbedder) -> None:
        self.encoder = encoder
        self.encoder_id = encoder.encoder_id
        self._known: dict[tuple[int, bytes], np.ndarray] = {}

    def embed(self, clip: ReferenceClip) -> np.ndarray:
        return self.encoder.embed(clip)

    def embed_many(self, pieces: Sequence[np.ndarray], sample_rate: int) -> np.ndarray:
        keys = [(sample_rate, _digest(piece)) for piece in pieces]
        new = {key: piece for key, piece in zip(keys, pieces) if key not in self._known}  # each new piece once
        if new:
            self._known.update(zip(new, np.asarray(self.encoder.embed_many(list(new.values()), sample_rate))))
        if not keys:
            return np.asarray(self.encoder.embed_many([], sample_rate))
        return np.stack([self._known[key] for key in keys])

    def forget(self) -> None:
        self._known.clear()


def _digest(piece: np.ndarray) -> bytes:
    data = np.ascontiguousarray(piece)
    return hashlib.blake2b(data.tobytes(), digest_size=16, person=str(data.dtype).encode()[:16]).digest()


class _Voices:
    """The speaker steps' inputs gathered window by window: the embedded windows over the lines
    and over the parts of lines where the voice changes, the speech no line covers with its
    embeddings, and the segmentation model's chunks. Filled by the worker in window order; read
    once every window is done."""

    def __init__(self, encoder: VoiceEmbedder, options: Options, listened: _Listening,
                 cancel: threading.Event | None) -> None:
        self.encoder = _RememberedEmbeddings(encoder)
        self.options = options
        self.listened = listened
        self.cancel = cancel
        self.segmenter = segmentation.open_session() if options.segmentation else None
        self.parts: list[Line] = []  # pieces of lines cut where the voice changes (speakers.voice_changes)
        self.windows = speakers.EmbeddingWindows()
        self.part_windows = speakers.EmbeddingWindows()
        self.silent_stretches: list[tuple[float, float]] = []  # speech no line covers (unheard.uncovered_speech)
        self.silent_vectors: list[np.ndarray] = []  # their CAM++ embeddings, a block per window
        self.local_speech: list[segmentation.LocalSpeech] = []  # the segmentation model's chunks, window by window

    def segmenting(self, worker: _BesideWhisper, audio: np.ndarray) -> Future[segmentation.Chunks] | None:
        """The segmentation model's chunks of a window, begun at once (they need no line)."""
        if self.segmenter is None:
            return None
        return worker.submit(segmentation.chunked, audio, SEGMENTATION_STEP_S, self.segmenter)

    def cut(self, audio: np.ndarray, offset_s: float, heard: Sequence[Line]) -> list[Line]:
        """The parts of ``heard`` where the voice changes inside a line (none with one speaker)."""
        if self.options.speakers == 1:
            return []
        cut = speakers.voice_changes(audio, offset_s, heard, self.encoder)
        return [line for line in cut if all(line is not whole for whole in heard)]

    def ahead(self, audio: np.ndarray, offset_s: float, line: Line) -> None:
        """Embed a line Whisper has finished while it hears the rest of the window: the calls the
        window's own pass (:meth:`add_window`) makes for that line, remembered."""
        scratch = speakers.EmbeddingWindows()
        scratch.add(audio, offset_s, [line], self.encoder, self.cancel)
        scratch.add(audio, offset_s, self.cut(audio, offset_s, [line]), self.encoder, self.cancel)

    def add_window(self, audio: np.ndarray, offset_s: float, end_s: float, heard: Sequence[Line],
                   silent: Sequence[tuple[float, float]], chunks: Future[segmentation.Chunks] | None) -> None:
        """A window's own pass, once Whisper has heard it: where the voice changes inside a line
        (its parts get windows of their own too, used if the line's own windows, which straddle
        the change, show one speaker, or one either side of a pause the line was cut at:
        speakers_of), the windows, the speech no line covers and the
        local speakers' voices."""
        new_parts = self.cut(audio, offset_s, heard)
        self.windows.add(audio, offset_s, heard, self.encoder, self.cancel, self.listened.embedded_to)
        self.part_windows.add(audio, offset_s, new_parts, self.encoder, self.cancel)
        self.silent_stretches += silent
        self.silent_vectors.append(unheard.embedded(audio, offset_s, silent, self.encoder))
        if chunks is not None:
            self.local_speech.append(_local_speech(chunks.result(), audio, offset_s, heard, silent, self.encoder))
        self.listened.embedded_to(end_s)
        self.parts.extend(new_parts)
        self.encoder.forget()


class _LinesAhead:
    """Hands the worker each line of a window as soon as Whisper has heard the word after it: a
    line ends at a long pause or a sentence end, so the lines before the last of the words heard
    so far are final (the second decoding of speech no line covers only adds lines)."""

    def __init__(self, worker: _BesideWhisper, voices: _Voices, audio: np.ndarray, offset_s: float) -> None:
        self.worker = worker
        self.voices = voices
        self.audio = audio
        self.offset_s = offset_s
        self.handed = 0

    def words_so_far(self, words: Sequence[Word]) -> None:
        final = split_lines(words)[:-1]
        for line in final[self.handed:]:
            # A failure here is raised again by the window's own pass, which makes the same calls.
            self.worker.submit(self.voices.ahead, self.audio, self.offset_s, line)
        self.handed = max(self.handed, len(final))


def _local_speech(chunks: segmentation.Chunks, audio: np.ndarray, offset_s: float, heard: Sequence[Line],
                  silent: Sequence[tuple[float, float]], encoder: VoiceEmbedder) -> segmentation.LocalSpeech:
    """The segmentation model's chunks of a window of audio, with the voices of the local
    speakers no line or wordless stretch (``heard``, ``silent``) can name."""
    spans = [(line.start - offset_s, line.end - offset_s) for line in heard] + \
            [(start - offset_s, end - offset_s) for start, end in silent]
    return segmentation.LocalSpeech.of(chunks, offset_s, overlap.local_voices(chunks, audio, spans, encoder))


def _segmented(local_speech: list[segmentation.LocalSpeech], lines: Sequence[Line], no_words: list[unheard.Unheard],
               count: int, duration_s: float, means: np.ndarray | None = None,
               ) -> tuple[list[unheard.Unheard], list[overlap.Stretch], list[overlap.Stretch], int]:
    """What the segmentation model adds (engine.hearing.overlap): ``no_words`` with the speech it
    hears that no line or stretch covers, lies apart from its speaker's own and lasts
    UNHEARD_MIN_S; the second speakers it hears over them; the rest of the uncovered speech
    (edges and pauses of a speaker's turns, short stretches); and how many speakers without lines
    it found (numbered from ``count`` on, up to speakers.MAX_SPEAKERS in all). Unchanged, and
    none, without the model."""
    if not local_speech:
        return no_words, [], [], 0
    spans = [(line.start, line.end, line.speaker) for line in lines] + \
            [(stretch.start, stretch.end, stretch.speaker) for stretch in no_words]
    found = overlap.active_speakers(segmentation.LocalSpeech.joined(local_speech), spans, count, duration_s, means,
                                    lineless=max(0, speakers.MAX_SPEAKERS - count))
    own, near = overlap.apart(overlap.unspanned(found, spans, overlap.UNSPANNED_LEAST_S), spans)
    # Shown as speech with no words only as long as Silero's must be (a short one was once a
    # clean dialogue's line tail given to the other speaker); the rest is who speaks when.
    shown = [stretch for stretch in own if stretch.duration_s >= unheard.UNHEARD_MIN_S]
    more = [unheard.Unheard(stretch.start, stretch.end, stretch.speaker, by_segmentation=True) for stretch in shown]
    rest = sorted([*near, *(stretch for stretch in own if stretch not in shown)], key=lambda stretch: stretch.start)
    return (sorted([*no_words, *more], key=lambda stretch: stretch.start),
            overlap.overlapped(found, spans, overlap.OVERLAP_LEAST_S), rest, found.lineless)


SEGMENTATION_STEP_S = 2.5  # the segmentation model's 10 s chunks start this far apart: each frame heard 4 times (docs/transcribe.md)


# How fast each loaded Whisper model heard its last recording here (recording seconds per wall
# second): a transcription estimates its first stretch from it. Keyed weakly: never keeps a model.
_WHISPER_SPEEDS: weakref.WeakKeyDictionary[WhisperModel, float] = weakref.WeakKeyDictionary()


class _Listening:
    """The listening stage's progress: how far Whisper has heard and how far the voices of the
    lines heard are embedded (CAM++ follows Whisper on each stretch of audio, beside it or after
    it), each as a position in the recording, weighed by the share of the time each takes.

    Whisper reports a position only as it finishes a 30 s stretch of speech, which on a CPU takes
    seconds to tens of seconds, so while it works (:meth:`whispering`) a thread estimates where
    it is from its speed: the one measured so far in this recording, else the last recording's
    with the same model, else :data:`FIRST_GUESS_SPEED`. An estimate is reported as
    ``listening:estimated``, stops short of the end of the stretch Whisper is on, and the bar
    never goes back: a real position behind an estimate holds the bar where it is.
    """

    WHISPER_SHARE = 0.75  # 46 of 63 s on a 58 s two-voice scene with tiny.en (the rest: CAM++)
    # Recording seconds heard per wall second before anything is measured: Whisper base on one
    # thread of this 2-core machine heard the 59 s scene's first stretch at 2.3 (tiny.en 4.9);
    # slower is the safer guess (a real position then jumps ahead rather than back).
    FIRST_GUESS_SPEED = 2.0
    STRETCH_S = 30.0  # the speech Whisper decodes in one call
    REACH = 0.9  # an estimate goes at most this share of the way to the end of the stretch
    TICK_S = 0.5

    def __init__(self, report: Progress, duration_s: float, speed_guess: float = FIRST_GUESS_SPEED,
                 tick_s: float = TICK_S) -> None:
        self.report = report
        self.tick_s = tick_s
        self.duration_s = duration_s
        self.heard_s = 0.0
        self.embedded_s = 0.0
        self.speed: float | None = None  # measured: recording seconds Whisper heard per second it took
        self._guess = speed_guess
        self._shown = 0.0  # the largest fraction reported: the bar never goes back
        self._whisper_s = 0.0  # wall seconds of the calls finished so far, to their last segment
        self._whisper_heard_s = 0.0  # what those calls heard
        self._call: tuple[float, float] | None = None  # the call running: when it began, where Whisper stood
        self._last_heard_at = 0.0  # when the running call last reported a segment
        self._lock = threading.Lock()  # the estimating thread reports too

    def heard_to(self, seconds: float) -> None:
        with self._lock:
            if seconds > self.heard_s and self._call is not None:
                now = time.monotonic()
                began, from_s = self._call
                self._last_heard_at = now
                self.speed = (self._whisper_heard_s + seconds - from_s) / max(1e-3, self._whisper_s + now - began)
            self.heard_s = max(self.heard_s, seconds)
            self._report("listening", self.heard_s)

    def embedded_to(self, seconds: float) -> None:
        with self._lock:
            self.embedded_s = max(self.embedded_s, seconds)
            self._report("listening", self.heard_s)

    @contextlib.contextmanager
    def whispering(self, window_end_s: float) -> Iterator[None]:
        """While Whisper hears the window that ends at ``window_end_s``: estimate between its
        segments, on a thread of its own that ends with the call."""
        began = time.monotonic()
        with self._lock:
            self._call, self._last_heard_at = (began, self.heard_s), began
        done = threading.Event()
        ticker = threading.Thread(target=self._estimate_until, args=(done, window_end_s), daemon=True,
                                  name="listening-estimate")
        ticker.start()
        try:
            yield
        finally:
            done.set()
            ticker.join()
            with self._lock:
                self._whisper_s += self._last_heard_at - began
                self._whisper_heard_s += self.heard_s - self._call[1]
                self._call = None

    def _estimate_until(self, done: threading.Event, window_end_s: float) -> None:
        while not done.wait(self.tick_s):
            with self._lock:
                speed = self.speed or self._guess
                stretch_end = min(window_end_s, self.heard_s + self.STRETCH_S)
                ahead = min(speed * (time.monotonic() - self._last_heard_at),
                            self.REACH * max(0.0, stretch_end - self.heard_s))
                self._report("listening:estimated", self.heard_s + ahead)

    def _report(self, stage: str, heard_s: float) -> None:
        if not self.duration_s:
            self.report("listening", 0.0)
            return
        position = self.WHISPER_SHARE * heard_s + (1 - self.WHISPER_SHARE) * self.embedded_s
        fraction = min(1.0, position / self.duration_s)
        if stage != "listening" and fraction <= self._shown:
            return  # an estimate that adds nothing
        self._shown = max(self._shown, fraction)
        self.report(stage, self._shown)


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

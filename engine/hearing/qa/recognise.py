"""Offline speech recognition for checking takes, behind one small interface.

A :class:`Recogniser` turns mono PCM into the words it heard, in a language it is told or one it
detects. :func:`recognise` asks the first registered recogniser that knows the language and
returns a :class:`Transcript`; when none can listen it raises :class:`NotHeard` with the reason
in words (a language no model knows, or no model installed and how to get one), so a caller can
say "not checked" instead of inventing a pass.

The built-in recogniser is Whisper (:class:`WhisperRecogniser`, faster-whisper on CTranslate2,
the model chosen in the settings: ``base`` by default, multilingual; ``tiny.en`` for English
only; or a downloaded one). pocketsphinx, the recogniser before it, is gone: on clean takes of
the embedded voice it scored word error rates up to 0.64 (Whisper: 0.25), on real recorded
English 0.36 (Whisper: 0.03), and it knew only US English (see docs/qa.md).
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from engine.core.audio_io import resample
from engine.core.chinese_forms import simplified
from engine.core.languages import language_code, rules_for
from engine.core.protocol import EngineError
from engine.hearing.qa import wording
from engine.hearing.qa.number_forms import number_forms
from engine.hearing.qa.wer import error_rate
from engine.hearing.qa.wording import QaPhrase
from engine.hearing.whisper import (
    DEFAULT_MODEL,
    WHISPER_MODELS,
    TextScore,
    decode_window,
    detect_language_in,
    detect_then_hear_features,
    load_whisper,
    model_path,
    model_spec,
    score_texts,
    take_window_frames,
    whisper_languages,
)

SILENCE_PEAK = 1e-3  # below -60 dBFS there is nothing to hear
AUTO = "auto"  # a character whose language is detected from what is heard
CONFIDENT_DETECTION = 0.9  # below this Whisper's language guess is wrong too often to trust
BEAM_SIZE = 5  # beam 1 costs base badly on some voices (Spanish WER 0.08 -> 0.50)
# A take heard in a pack (or decoded in its own take-sized window) with more errors than this is
# heard again alone in a 30 s window, so a take anywhere near the limits (max_wer 0.30, max_cer
# 0.35) is judged by its own hearing. Clean takes of the sample project scored 0.00-0.125 packed
# ("harbor" for "harbour", "pass" for "past"), as alone; a take cut in half 0.41 or more, another
# line's 0.83 or more (docs/qa.md).
PACKED_TRUSTED_ERROR = 0.15
# A packed window is only trusted where it heard a take closely (PACKED_TRUSTED_ERROR); any
# other take is heard alone at BEAM_SIZE. Greedy there costs a third less CPU and, on the sample
# project's takes, trusted 10 of 12 takes where beam 5 trusted 8 (docs/qa.md).
PACKED_BEAM_SIZE = 1
WHISPER_RATE = 16000
# Packing: Whisper encodes a whole 30 s window whatever it holds (base: about 3.5 s of CPU for a
# 4 s take), so short takes are heard together, one window for several, a second of silence
# between them, and each word goes back to the take it was said in by its timestamps.
PACK_GAP_S = 1.0
PACK_LIMIT_S = 28.0  # the takes and gaps of one pack: inside one window, with a margin
# Confirming before decoding: a take's text is known, so one teacher-forced decoder pass over the
# window's encoding scores every take's text (a seventh of a greedy decoding's CPU). A take whose
# word tokens are all likely enough and whose alignment stays inside its own span is heard as
# written; any other is decoded as before. Figures and margins: docs/qa.md.
CONFIRM_MIN_LOG_PROB = -3.5  # the least likely word token of the take
CONFIRM_MEAN_LOG_PROB = -0.8  # the mean over the take's word tokens
CONFIRM_INSIDE = 1.0  # the share of its word tokens the alignment places inside the take: all
# Each take is first confirmed alone in a window just its size (the take, then this much
# silence): a tenth of a 30 s window's encoding. Only a take not confirmed there is packed.
# 0.5 s kept the defective takes furthest from the thresholds of 0.5, 1 and 2 s (docs/qa.md).
CONFIRM_ALONE_PAD_S = 0.5
# Alone first or packed first, by expected CPU (figures in docs/qa.md, Whisper base, one thread):
# a take-sized window costs about 0.042 s of CPU a second of window (encoding, detection and
# alignment), a packed 30 s window about 1.85 s, as much as PACKED_WINDOW_COST_S of take-sized
# windows; a take not confirmed alone needs a packed window after all. So a pack's takes are
# tried alone first only while their windows together cost less than a packed window times the
# chance that all of them are confirmed alone (each: the language's alone_confirmed_share in
# engine/core/languages.py; English 5/6). A streamed English take comes alone; a batch of six
# 2-3 s English takes is packed first (its alone windows, 21 s, against 44 x (5/6)^6 = 15 s); a
# Japanese take (share 0) always goes packed first.
PACKED_WINDOW_COST_S = 44.0
# Set to "0" to decode every take as before confirming existed, "packed" to confirm in packed
# windows only, "alone" to confirm every take alone first whatever its pack (benchmarks/qa_pace.py
# and qa_confirm.py compare them in one run).
CONFIRM_ENV = "DUBSTUDIO_QA_CONFIRM"
# An English take is confirmed alone by Whisper tiny.en (packaged, English only) before base: its
# take-sized window costs about 0.4 of base's CPU. tiny.en is less sure of clean takes than base,
# so it has its own bars, set on half of the joe and sample takes (the loosest that confirms all
# of that half's clean takes) and checked on the other half (docs/qa.md): all clean takes
# confirmed, no swapped, half-cut, crossed or wrong-language take within 1.4 of the least-likely
# bar or 1.6 of the mean bar. tiny.en detects no language, so a wrong-language take is refused by
# its word tokens alone. A take tiny.en does not confirm goes on to base exactly as before. Only
# for base, the model the safety table compares against.
QUICK_CONFIRM_MODEL = "tiny.en"
QUICK_CONFIRM_MIN_LOG_PROB = -5.0
QUICK_CONFIRM_MEAN_LOG_PROB = -0.9
# Its take-sized window's CPU against base's (measured 0.44 on joe's takes, 0.43 on the sample
# project's): alone_first weighs a pack's alone windows by it when tiny.en tries them first.
QUICK_CONFIRM_COST_RATIO = 0.45
QUICK_CONFIRM_LANGUAGE = "en"
QUICK_CONFIRM_ENV = "DUBSTUDIO_QA_QUICK_CONFIRM"  # "0": confirm with base only (benchmarks compare)


@dataclass(frozen=True)
class Heard:
    """What one listen produced: the words, the language they were heard in, and the language
    the audio sounded like (a multilingual model detects it even when told which to expect)."""

    text: str  # "" when no speech was heard
    language: str  # the code listened in: the one asked for, or the detected one for "auto"
    detected_language: str = ""  # "" when the model cannot detect (English-only models)
    language_probability: float | None = None  # the detector's confidence in detected_language
    confirmed: bool = False  # the text expected, confirmed by forced alignment instead of decoded


@dataclass(frozen=True)
class Transcript:
    """What a recogniser heard in some audio."""

    text: str  # the words as the recogniser wrote them ("" when it heard none)
    language: str  # the language code it listened in ("en")
    recogniser: str  # which model produced it, e.g. "faster-whisper-1.2.1/base"
    detected_language: str = ""  # what the audio sounded like ("" when not detected)
    language_probability: float | None = None  # the detector's confidence in it
    confirmed: bool = False  # the text expected, confirmed by forced alignment instead of decoded


class NotHeard(Exception):
    """No recogniser could listen: ``reason`` says why and, for a missing model, how to get one."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Recogniser(Protocol):
    """A speech recogniser: name, languages it knows, and a thread-safe ``transcribe``."""

    @property
    def name(self) -> str:
        """Identifies the model and version, stored with every result it produces."""
        ...

    @property
    def languages(self) -> frozenset[str]:
        """Language codes (``"en"``, ``"fr"``) it can transcribe; ``"auto"`` when it can detect."""
        ...

    def transcribe(self, pcm: np.ndarray, sample_rate: int, language: str) -> Heard:
        """The words heard in mono float32 ``pcm``, listening in ``language`` (or ``"auto"``)."""
        ...


def _prompt(language: str) -> str | None:
    """The language's recognition prompt (engine/core/languages.py: Mandarin's keeps Whisper base
    in simplified characters); None for a language without one, or none told."""
    return (rules_for(language).recognition_prompt or None) if language else None


def _resampled(pcm: np.ndarray, sample_rate: int) -> np.ndarray:
    audio = np.nan_to_num(np.asarray(pcm, dtype=np.float32).reshape(-1))
    return np.clip(resample(audio, sample_rate, WHISPER_RATE), -1.0, 1.0)


class WhisperRecogniser:
    """Whisper ``model`` (a name of :data:`engine.hearing.whisper.WHISPER_MODELS` or a folder).

    The model loads on first use and is shared by every caller in the process.
    """

    def __init__(self, model: str = DEFAULT_MODEL, device: str = "auto", cpu_threads: int | None = None) -> None:
        from importlib.metadata import version

        self.model = model
        self._device = device
        self._cpu_threads = cpu_threads
        label = model if model in WHISPER_MODELS else f"folder:{model}"
        self._name = f"faster-whisper-{version('faster-whisper')}/{label}"
        multilingual = model_spec(model).multilingual if model in WHISPER_MODELS else self._load().model.is_multilingual
        self._multilingual = multilingual
        self._languages = frozenset(whisper_languages() | {AUTO}) if multilingual else frozenset({"en"})

    @property
    def name(self) -> str:
        return self._name

    @property
    def languages(self) -> frozenset[str]:
        return self._languages

    def _load(self) -> Any:  # faster_whisper.WhisperModel, imported lazily
        return load_whisper(self.model, self._device, self._cpu_threads)

    def transcribe(self, pcm: np.ndarray, sample_rate: int, language: str) -> Heard:
        audio = _resampled(pcm, sample_rate)
        if audio.size == 0 or float(np.max(np.abs(audio))) < SILENCE_PEAK:
            return Heard("", "" if language == AUTO else language)  # Whisper would invent a word
        model = self._load()
        detected, probability = "", None
        if self._multilingual:
            # Always detected, even when told: told to listen in English, Whisper translates a
            # take spoken in Chinese into English, which a wrong-language take must not pass as.
            detected, probability, _ = model.detect_language(features=detect_then_hear_features(model, audio))
            probability = round(float(probability), 4)
        listen_in = detected if language == AUTO else language
        segments, _ = model.transcribe(
            audio, language=listen_in or None, beam_size=BEAM_SIZE, initial_prompt=_prompt(listen_in),
            condition_on_previous_text=False, without_timestamps=True,
        )
        text = " ".join(segment.text.strip() for segment in segments).strip()
        return Heard(text, listen_in or "en", detected, probability)


    def transcribe_packed(self, pcms: Sequence[np.ndarray], sample_rate: int, language: str) -> list[Heard]:
        """What was heard in each of ``pcms`` (together at most :data:`PACK_LIMIT_S` long with
        their gaps), heard in one window in ``language`` (a code, not ``"auto"``).

        A multilingual model detects the window's language once: each take gets that detection.
        """
        window, spans = _window(pcms, sample_rate)
        model = self._load()
        detected, probability = "", None
        if self._multilingual:
            detected, probability, _ = model.detect_language(features=detect_then_hear_features(model, window))
            probability = round(float(probability), 4)
        segments, _ = model.transcribe(
            window, language=language, beam_size=PACKED_BEAM_SIZE, initial_prompt=_prompt(language),
            condition_on_previous_text=False, word_timestamps=True,
        )
        words: list[list[str]] = [[] for _ in spans]
        for segment in segments:
            for word in segment.words or ():
                middle = (word.start + word.end) / 2
                # The take whose span, widened by half a gap on each side, holds the word's middle.
                for index, (start, end) in enumerate(spans):
                    if start - PACK_GAP_S / 2 <= middle < end + PACK_GAP_S / 2:
                        words[index].append(word.word)
                        break
        return [Heard("".join(said).strip(), language, detected, probability) for said in words]


    def confirm_packed(self, pcms: Sequence[np.ndarray], sample_rate: int, language: str,
                       texts: Sequence[str]) -> list[Heard | None]:
        """Each of ``pcms`` confirmed as saying its one of ``texts`` (heard as written), or None
        where it is not (:meth:`score_packed`)."""
        detected, probability, scores = self.score_packed(pcms, sample_rate, language, texts)
        return [Heard(text, language, detected, probability, confirmed=True) if score.confirmed else None
                for text, score in zip(texts, scores, strict=True)]

    def score_packed(self, pcms: Sequence[np.ndarray], sample_rate: int, language: str,
                     texts: Sequence[str]) -> tuple[str, float | None, list[Confirmation]]:
        """The window's detected language and its probability, and how well each of ``pcms``
        says its one of ``texts``.

        The takes are packed into one window as :meth:`transcribe_packed` packs them (whose
        encoding of the same takes is then this one's); its language is detected and all the
        texts are forced through the decoder in one pass (:func:`engine.hearing.whisper.score_texts`).
        A window that does not sound confidently like ``language`` confirms nothing.
        """
        window, spans = _window(pcms, sample_rate)
        model = self._load()
        features = detect_then_hear_features(model, window)
        detected, probability = "", None
        if self._multilingual:
            detected, probability, _ = model.detect_language(features=features)
            probability = round(float(probability), 4)
        heard_in_language = not self._multilingual or (detected == language and (probability or 0.0) >= CONFIDENT_DETECTION)

        def scored(forms: list[str]) -> list[Confirmation]:
            return [Confirmation.of(score, span, heard_in_language, language) for score, span in
                    zip(score_texts(model, features, language, _in_recogniser_marks(forms, language),
                                    _prompt(language)), spans, strict=True)]

        return detected, probability, best_in_number_forms(scored, texts, language, confirm_bars(language))

    def confirm_alone(self, pcm: np.ndarray, sample_rate: int, language: str, text: str) -> Heard | None:
        """``pcm`` confirmed as saying ``text`` in a window of its own size, or None
        (:meth:`score_alone`)."""
        detected, probability, score = self.score_alone(pcm, sample_rate, language, text)
        return Heard(text, language, detected, probability, confirmed=True) if score.confirmed else None

    def decode_alone(self, pcm: np.ndarray, sample_rate: int, language: str, expected: str) -> str:
        """The words heard in ``pcm`` in ``language`` (a code), decoded at :data:`BEAM_SIZE` in
        the take-sized window :meth:`score_alone` encoded (its kept encoding: no second one), at
        most twice as long as ``expected``."""
        model = self._load()
        features = detect_then_hear_features(model, _alone_padded(pcm, sample_rate))
        return decode_window(model, features, language, _prompt(language), take_window_frames(features), BEAM_SIZE,
                             expected)

    def score_alone(self, pcm: np.ndarray, sample_rate: int, language: str, text: str,
                    bars: tuple[float, float] | None = None) -> tuple[str, float | None, Confirmation]:
        """As :meth:`score_packed` for one take, in a window only as long as the take and
        :data:`CONFIRM_ALONE_PAD_S` of silence (rounded up to whole seconds): its language is
        detected and its text forced through the decoder on that window's one encoding (in its
        number forms too while it does not pass ``bars``, the least and mean word-token bars: the
        language's :func:`confirm_bars` unless given)."""
        padded = _alone_padded(pcm, sample_rate)
        model = self._load()
        features = detect_then_hear_features(model, padded)
        frames = take_window_frames(features)
        detected, probability = "", None
        if self._multilingual:
            detected, probability = detect_language_in(model, features, frames)
            probability = round(probability, 4)
        heard_in_language = not self._multilingual or (detected == language and (probability or 0.0) >= CONFIDENT_DETECTION)

        def scored(forms: list[str]) -> list[Confirmation]:
            span = (0.0, padded.size / WHISPER_RATE - CONFIRM_ALONE_PAD_S)
            return [Confirmation.of(score, span, heard_in_language, language)
                    for score in score_texts(model, features, language, _in_recogniser_marks(forms, language),
                                             _prompt(language), frames)]

        return detected, probability, best_in_number_forms(scored, [text], language, bars or confirm_bars(language))[0]


@dataclass(frozen=True)
class Confirmation:
    """How well a take says its text, forced through the decoder in its window."""

    least_log_prob: float  # its least likely word token
    mean_log_prob: float  # over its word tokens
    inside: float  # the share of its word tokens the alignment places inside the take
    heard_in_language: bool  # the window sounded confidently like the language listened in
    language: str  # the code listened in, whose bars it is confirmed by (confirm_bars)

    @classmethod
    def of(cls, score: TextScore, span: tuple[float, float], heard_in_language: bool, language: str) -> Confirmation:
        words = score.log_probs[score.word_tokens]
        if words.size == 0:
            return cls(-math.inf, -math.inf, 0.0, heard_in_language, language)  # nothing to confirm: decode it
        times = score.times[score.word_tokens]
        start, end = span
        # Half a gap either side, as transcribe_packed gives a decoded word back to its take by its
        # middle: clean takes' tokens all fall there, a swapped take's mostly in its neighbour.
        inside = (times >= start - PACK_GAP_S / 2) & (times < end + PACK_GAP_S / 2)
        return cls(float(words.min()), float(words.mean()), float(inside.mean()), heard_in_language, language)

    @property
    def confirmed(self) -> bool:
        """Whether the take is heard as written: in the language, its word tokens likely enough
        (:func:`confirm_bars`) and said where the take is (:data:`CONFIRM_INSIDE`: a take holding
        another take's words would otherwise be confirmed by the other's audio)."""
        return self.passes(*confirm_bars(self.language))

    @property
    def confirmed_quickly(self) -> bool:
        """Whether the take is heard as written by :data:`QUICK_CONFIRM_MODEL`, at its bars."""
        return self.passes(QUICK_CONFIRM_MIN_LOG_PROB, QUICK_CONFIRM_MEAN_LOG_PROB)

    def passes(self, least_log_prob: float, mean_log_prob: float) -> bool:
        return (self.heard_in_language and self.least_log_prob >= least_log_prob
                and self.mean_log_prob >= mean_log_prob and self.inside >= CONFIRM_INSIDE)

    def margin(self, least_log_prob: float, mean_log_prob: float) -> float:
        """How far the take's word tokens are above the bars (the nearer one; below 0: refused
        by them); -inf where it is not in the language or not said inside the take."""
        if not self.heard_in_language or self.inside < CONFIRM_INSIDE:
            return -math.inf
        return min(self.least_log_prob - least_log_prob, self.mean_log_prob - mean_log_prob)


def confirm_bars(language: str) -> tuple[float, float]:
    """The least and the mean word-token log-probability a take confirmed as written in
    ``language`` must reach (the language's own least bar where it has one)."""
    least = rules_for(language).confirm_least_log_prob if language else None
    return (CONFIRM_MIN_LOG_PROB if least is None else least), CONFIRM_MEAN_LOG_PROB


def _in_recogniser_marks(texts: list[str], language: str) -> list[str]:
    """``texts`` with their marks as Whisper writes them in ``language`` (its ``recogniser_marks``)."""
    marks = rules_for(language).recogniser_marks if language else ()
    if not marks:
        return texts
    table = str.maketrans(dict(marks))
    return [text.translate(table) for text in texts]


def best_in_number_forms(scored: Callable[[list[str]], list[Confirmation]], texts: Sequence[str], language: str,
                         bars: tuple[float, float]) -> list[Confirmation]:
    """Each text's confirmation (``scored``: the texts forced through one window, one after the
    other), and for a text that does not pass ``bars`` but writes numbers, the best of it and
    its number forms (:func:`engine.hearing.qa.number_forms.number_forms`: 八百 and 800, 2点 and
    两点; Whisper writes a number its own way, and forced the other way a clean take's number
    scores as a wrong word would). One more pass for each form, only while a take is refused.
    Mandarin is forced in simplified characters, the script its prompt keeps Whisper in: a
    zh-Hant line's clean take forced as written scored as a wrong word would (這個東西真的很貴
    refused, 这个东西真的很贵 confirmed)."""
    if language_code(language) == "zh":
        texts = [simplified(text) for text in texts]
    best = scored(list(texts))
    forms = [number_forms(text, language) for text in texts]
    for kind in range(max((len(written) for written in forms), default=0)):
        waiting = {index for index, confirmation in enumerate(best)
                   if not confirmation.passes(*bars) and forms[index][kind] != texts[index]}
        if not waiting:
            continue
        again = scored([forms[index][kind] if index in waiting else text for index, text in enumerate(texts)])
        for index in waiting:
            if again[index].margin(*bars) > best[index].margin(*bars):
                best[index] = again[index]
    return best


def _alone_padded(pcm: np.ndarray, sample_rate: int) -> np.ndarray:
    """A take resampled, with :data:`CONFIRM_ALONE_PAD_S` of silence after it: its own window."""
    audio = _resampled(pcm, sample_rate)
    return np.concatenate([audio, np.zeros(int(CONFIRM_ALONE_PAD_S * WHISPER_RATE), dtype=np.float32)])


def _window(pcms: Sequence[np.ndarray], sample_rate: int) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """The takes resampled and joined with :data:`PACK_GAP_S` of silence between them; each
    take's start and end in it, seconds. One take's window is the take itself, so hearing it
    alone afterwards reuses the window's encoding."""
    gap = np.zeros(int(PACK_GAP_S * WHISPER_RATE), dtype=np.float32)
    spans: list[tuple[float, float]] = []
    pieces: list[np.ndarray] = []
    at = 0
    for audio in (_resampled(pcm, sample_rate) for pcm in pcms):
        if pieces:
            pieces.append(gap)
            at += gap.size
        spans.append((at / WHISPER_RATE, (at + audio.size) / WHISPER_RATE))
        pieces.append(audio)
        at += audio.size
    return (np.concatenate(pieces) if pieces else gap), spans


_registry: list[Recogniser] = []  # recognisers plugged in by register_recogniser (asked first)
_whisper: dict[str, WhisperRecogniser] = {}
_registry_lock = threading.Lock()


def register_recogniser(recogniser: Recogniser) -> None:
    """Make ``recogniser`` the first choice for the languages it knows."""
    with _registry_lock:
        _registry.insert(0, recogniser)


def whisper_recogniser(model: str = DEFAULT_MODEL) -> WhisperRecogniser:
    """The process's Whisper recogniser for ``model``; NotHeard when the model is not here."""
    with _registry_lock:
        recogniser = _whisper.get(model)
        if recogniser is None:
            try:
                model_path(model)  # assembles a packaged model; says how to get a missing one
                recogniser = _whisper[model] = WhisperRecogniser(model)
            except EngineError as error:
                raise NotHeard(str(error)) from error
    return recogniser


def recogniser_for(language: str, model: str = DEFAULT_MODEL) -> Recogniser:
    """The recogniser for ``language`` (an ISO code with any region suffix, or ``"auto"``).

    NotHeard when none knows the language or the model is not installed.
    """
    code = AUTO if language == AUTO else language_code(language) or "en"
    with _registry_lock:
        registered = next((r for r in _registry if code in r.languages), None)
    if registered is not None:
        return registered
    whisper = whisper_recogniser(model)
    if code not in whisper.languages:
        if code == AUTO or code in whisper_languages():
            raise NotHeard(QaPhrase(wording.ENGLISH_ONLY_MODEL, model=model, language=language))
        raise NotHeard(QaPhrase(wording.WHISPER_UNKNOWN_LANGUAGE, language=language))
    return whisper


def recognise(pcm: np.ndarray, sample_rate: int, language: str = "en", model: str = DEFAULT_MODEL) -> Transcript:
    """Transcribe mono float32 audio in ``language`` (``"auto"``: detect it); NotHeard when no
    recogniser can."""
    code = AUTO if language == AUTO else language_code(language) or "en"
    recogniser = recogniser_for(code, model)
    try:
        heard = recogniser.transcribe(pcm, sample_rate, code)
    except EngineError as error:  # the model's folder could not be assembled or loaded
        raise NotHeard(str(error)) from error
    return Transcript(heard.text, heard.language or code, recogniser.name, heard.detected_language,
                      heard.language_probability)


def recognise_packed(takes: Sequence[tuple[np.ndarray, int]], language: str,
                     model: str = DEFAULT_MODEL) -> list[Transcript]:
    """Transcribe several mono float32 takes in ``language`` (a code, not ``"auto"``), packed into
    as few Whisper windows as :data:`PACK_LIMIT_S` allows; one Transcript per take, in order.

    A recogniser without ``transcribe_packed`` (one plugged in) hears each take alone. Every
    transcript of a pack carries the pack's language detection. NotHeard when none can listen.
    """
    code = language_code(language) or "en"
    recogniser = recogniser_for(code, model)
    packed = getattr(recogniser, "transcribe_packed", None)
    heard: list[Heard] = []
    try:
        if packed is None:
            heard = [recogniser.transcribe(pcm, rate, code) for pcm, rate in takes]
        else:
            for pack in _packs(takes):
                rate = pack[0][1]
                heard += packed([pcm for pcm, _ in pack], rate, code)
    except EngineError as error:
        raise NotHeard(str(error)) from error
    return [Transcript(h.text, h.language or code, recogniser.name, h.detected_language, h.language_probability)
            for h in heard]


def confirm_or_recognise_packed(takes: Sequence[tuple[np.ndarray, int]], texts: Sequence[str], language: str,
                                model: str = DEFAULT_MODEL, streamed: bool = False,
                                on_heard: Callable[[int, Transcript | None], None] | None = None,
                                ) -> list[Transcript | None]:
    """Each take (mono float32, with the text it should say) confirmed as saying its text, else
    heard in its pack, else None (a take alone in its pack, not confirmed: to be heard alone).

    The takes are packed as :func:`recognise_packed` packs them. A pack whose takes are cheaper
    packed (:func:`alone_first`: several takes waiting at once) is confirmed packed
    (:meth:`WhisperRecogniser.confirm_packed`), and decoded on its kept encoding only when a take
    is not confirmed there. The takes of a smaller pack are first confirmed alone
    (:meth:`WhisperRecogniser.confirm_alone`; an English take by tiny.en first,
    :func:`quick_confirmer`); those not confirmed there are packed together and go down the same
    path. ``streamed``: the takes are those that queued behind a render (the QA
    worker), whose verdicts are awaited one by one: every pack is confirmed alone first (measured
    in one run, docs/qa.md: 0.22 CPU s a take against 0.36 by cost), unless its language's takes
    are never confirmed alone (``alone_confirmed_share`` 0: Japanese). A recogniser that cannot
    confirm (one plugged in) hears as :func:`recognise_packed`. NotHeard when none can listen.

    ``on_heard(index, transcript)`` is called once for each take as soon as its hearing is final
    (a take confirmed alone: before the next take is tried), so its verdict can go out at once.
    """
    code = language_code(language) or "en"
    recogniser = recogniser_for(code, model)
    confirm = os.environ.get(CONFIRM_ENV)
    if not isinstance(recogniser, WhisperRecogniser) or confirm == "0":
        found: list[Transcript | None] = [*recognise_packed(takes, code, model)] if len(takes) > 1 else [None] * len(takes)
        for index, transcript in enumerate(found):
            if on_heard is not None:
                on_heard(index, transcript)
        return found
    confirming = _Confirming(recogniser, takes, texts, code, on_heard)
    try:
        rest: list[int] = []  # the takes of small packs not confirmed alone
        at = 0
        for pack in _packs(takes):
            indices = list(range(at, at + len(pack)))
            at += len(pack)
            cost_ratio = QUICK_CONFIRM_COST_RATIO if confirming.quick is not None else 1.0
            tried_alone = alone_first(pack, code, cost_ratio) or streamed and rules_for(code).alone_confirmed_share > 0
            if confirm == "packed" or (confirm != "alone" and not tried_alone):
                confirming.hear_pack(indices)
            else:
                rest += [index for index in indices if not confirming.alone_confirmed(index)]
        at = 0
        for pack in _packs([takes[index] for index in rest]):
            confirming.hear_pack(rest[at: at + len(pack)])
            at += len(pack)
    except EngineError as error:
        raise NotHeard(str(error)) from error
    return confirming.found


class _Confirming:
    """One language's takes being confirmed (:func:`confirm_or_recognise_packed`): what each was
    heard as so far."""

    def __init__(self, whisper: WhisperRecogniser, takes: Sequence[tuple[np.ndarray, int]], texts: Sequence[str],
                 code: str, on_heard: Callable[[int, Transcript | None], None] | None = None) -> None:
        self.whisper, self.takes, self.texts, self.code = whisper, takes, texts, code
        self.found: list[Transcript | None] = [None] * len(takes)
        self._on_heard = on_heard
        self.quick = quick_confirmer(whisper, code)

    def _settle(self, index: int, transcript: Transcript | None) -> None:
        """The take's hearing is final: kept, and told to the caller."""
        self.found[index] = transcript
        if self._on_heard is not None:
            self._on_heard(index, transcript)

    def _transcript(self, heard: Heard) -> Transcript:
        return Transcript(heard.text, heard.language or self.code, self.whisper.name, heard.detected_language,
                          heard.language_probability, heard.confirmed)

    def alone_confirmed(self, index: int) -> bool:
        """Whether the take is heard alone in a window its own size: confirmed (heard as
        written) by the quick model first where there is one (:func:`quick_confirmer`), else by
        base; or, refused but heard in the language, decoded there within
        :data:`PACKED_TRUSTED_ERROR` of its line (a language whose ``decodes_in_take_window``)."""
        pcm, rate = self.takes[index]
        if np.asarray(pcm).size / rate > PACK_LIMIT_S:
            return False  # longer than a window: heard alone as before
        text = self.texts[index]
        quick_bars = (QUICK_CONFIRM_MIN_LOG_PROB, QUICK_CONFIRM_MEAN_LOG_PROB)
        if self.quick is not None and self.quick.score_alone(pcm, rate, self.code, text, quick_bars)[2].confirmed_quickly:
            self._settle(index, Transcript(text, self.code, self.quick.name, confirmed=True))  # it detects no language
            return True
        detected, probability, score = self.whisper.score_alone(pcm, rate, self.code, text)
        if score.confirmed:
            self._settle(index, self._transcript(Heard(text, self.code, detected, probability, confirmed=True)))
            return True
        if not score.heard_in_language or not rules_for(self.code).decodes_in_take_window:
            return False
        # Refused as written, decoded on the same short window's encoding (a tenth of a 30 s
        # window's CPU) and kept only where it heard the line closely (docs/qa.md).
        said = self.whisper.decode_alone(pcm, rate, self.code, text)
        if not said or error_rate(text, said, self.code) > PACKED_TRUSTED_ERROR:
            return False
        self._settle(index, self._transcript(Heard(said, self.code, detected, probability)))
        return True

    def hear_pack(self, indices: list[int]) -> None:
        """The takes confirmed in one packed window, and the window decoded (on its kept
        encoding) when a take is not confirmed there."""
        pcms, rate = [self.takes[index][0] for index in indices], self.takes[indices[0]][1]
        heard = self.whisper.confirm_packed(pcms, rate, self.code, [self.texts[index] for index in indices])
        if len(indices) > 1 and None in heard:
            decoded = self.whisper.transcribe_packed(pcms, rate, self.code)
            heard = [h if h is not None else d for h, d in zip(heard, decoded, strict=True)]
        for index, h in zip(indices, heard, strict=True):
            self._settle(index, None if h is None else self._transcript(h))


def quick_confirmer(whisper: WhisperRecogniser, code: str) -> WhisperRecogniser | None:
    """Whisper :data:`QUICK_CONFIRM_MODEL`, which confirms ``code``'s takes alone before
    ``whisper`` does, or None: another language, another model than base, the model not
    installed, or :data:`QUICK_CONFIRM_ENV` set to "0"."""
    if code != QUICK_CONFIRM_LANGUAGE or whisper.model != DEFAULT_MODEL or os.environ.get(QUICK_CONFIRM_ENV) == "0":
        return None
    try:
        return whisper_recogniser(QUICK_CONFIRM_MODEL)
    except NotHeard:
        return None  # not installed: base confirms alone, as before


def alone_first(takes: Sequence[tuple[np.ndarray, int]], language: str = "en", cost_ratio: float = 1.0) -> bool:
    """Whether one pack's takes in ``language`` are cheaper, in expectation, confirmed alone first
    than packed first (:data:`PACKED_WINDOW_COST_S`, the language's ``alone_confirmed_share``);
    ``cost_ratio``: an alone window's CPU against base's (:data:`QUICK_CONFIRM_COST_RATIO` when
    tiny.en tries them first)."""
    alone_s = cost_ratio * sum(math.ceil(np.asarray(pcm).size / rate + CONFIRM_ALONE_PAD_S) for pcm, rate in takes)
    return alone_s < PACKED_WINDOW_COST_S * rules_for(language).alone_confirmed_share ** len(takes)


def _packs(takes: Sequence[tuple[np.ndarray, int]]) -> list[list[tuple[np.ndarray, int]]]:
    """Consecutive takes of one sample rate grouped into packs of at most PACK_LIMIT_S with gaps."""
    packs: list[list[tuple[np.ndarray, int]]] = []
    length = 0.0
    for pcm, rate in takes:
        seconds = np.asarray(pcm).size / rate + PACK_GAP_S
        if packs and length + seconds <= PACK_LIMIT_S + PACK_GAP_S and packs[-1][0][1] == rate:
            packs[-1].append((pcm, rate))
            length += seconds
        else:
            packs.append([(pcm, rate)])
            length = seconds
    return packs

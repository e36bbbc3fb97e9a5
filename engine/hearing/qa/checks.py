"""Measuring a finished take, and judging the measurements against thresholds.

:func:`measure_take` listens to a take once (recogniser, level, silences, speaker embedding)
and returns :class:`TakeChecks`, plain numbers that are stored with the take. :func:`judge`
turns them into a :class:`Verdict` for the thresholds and the slot in force *now*, so changing
a threshold or a timecode updates every verdict without listening to the audio again.

Every failing check is a :class:`Finding` with a code (``QA_*``) and a sentence for people.
A take whose language Whisper does not know, or checked where no Whisper model is installed, is
"not checked" for intelligibility (the reason, and how to get a model, are stored with it): its
verdict is ``passed=None`` unless another check fails, never a pass it did not earn.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, NamedTuple

import numpy as np

from engine.core.chinese_forms import SIMPLIFIED, TRADITIONAL, simplified
from engine.core.codes import ErrorCode, QaCode
from engine.core.languages import (
    UNDETERMINED,
    detect_language,
    language_code,
    line_language,
    only_interjections,
    rules_for,
)
from engine.core.numbers import Range, ranges
from engine.core.phrases import keep_phrase, stored_phrase
from engine.core.silence import sound_intervals
from engine.hearing.chinese import in_script, is_chinese
from engine.hearing.qa import wording
from engine.hearing.qa.recognise import (
    AUTO,
    CONFIDENT_DETECTION,
    PACKED_TRUSTED_ERROR,
    SILENCE_PEAK,
    NotHeard,
    Transcript,
    confirm_or_recognise_packed,
    recognise,
)
from engine.hearing.qa.wer import (
    CER,
    WER,
    comparable_units,
    error_rate,
    metric_for,
)
from engine.hearing.qa.wording import QaPhrase
from engine.hearing.whisper import DEFAULT_MODEL
from engine.voiceprint.encoder import SpeakerEncoder

FULL_SCALE = 0.999  # |sample| at or above this counts as clipped (int16 full scale is 0.99997)
SILENCE_TOP_DB = 40.0  # quieter than the loudest moment by this much counts as silence
UNDETERMINED_LANGUAGE = UNDETERMINED  # no recogniser claims it
VOICE_PACE_RANGE = (0.5, 2.0)  # a clip's measured pace outside this is a wrong transcript, not a voice


class QaValueError(ValueError):
    """Thresholds that are no object or name unknown ones, or a stored check of the wrong type
    (a threshold out of its range is a RangeError)."""


QA_THRESHOLD_RANGES = ranges(
    Range("max_wer", 0.0, 10.0),
    Range("max_cer", 0.0, 10.0),
    Range("min_duration_ratio", 0.0, 1.0),
    Range("min_language_confidence", 0.5, 1.0),
    Range("max_clipping", 0.0, 1.0, hint="(a fraction of the samples)"),
    Range("max_leading_silence_s", 0.0, 600.0, unit="s"),
    Range("max_inner_silence_s", 0.0, 600.0, unit="s"),
    Range("max_trailing_silence_s", 0.0, 600.0, unit="s"),
    Range("max_overrun_s", 0.0, 600.0, unit="s"),
    Range("min_resemblance", -1.0, 1.0),
    code=ErrorCode.INVALID_VALUE,
)
"""The values each QA threshold may take (the project settings dialog's limits too)."""


@dataclass(frozen=True)
class QaThresholds:
    """Where a measurement turns into a failure; project settings, see docs/qa.md for why."""

    # See docs/qa.md (benchmarks/qa_calibration.py, 24 takes of the bundled voices, both models).
    max_wer: float = 0.3  # clean takes at most 0.12; cut in half 0.41 or more; another line 0.83 or more
    max_cer: float = 0.35  # characters, not words (zh, ja, th...): a real Mandarin recording 0.07, another line 1.0
    min_duration_ratio: float = 0.67  # clean takes 0.73 or more; 2x speed at most 0.61, cut in half 0.65
    min_language_confidence: float = CONFIDENT_DETECTION  # a detected other language above this fails
    max_clipping: float = 0.001  # 0.1 % of samples at full scale (clean takes: under 0.01 %)
    max_leading_silence_s: float = 1.0
    max_inner_silence_s: float = 2.0  # clean takes pause 0.42 s at most; a real read Japanese take 1.82 s
    max_trailing_silence_s: float = 1.5
    max_overrun_s: float = 0.25  # a take may end this much after its slot before it fails
    min_resemblance: float = 0.25  # GE2E cosine to the character's clip (plain joe vs the bundled clips: 0.30-0.70)

    def validate(self) -> None:
        """Raise RangeError (E_INVALID_VALUE) naming the first value out of its range."""
        for name, allowed in QA_THRESHOLD_RANGES.items():
            allowed.check(getattr(self, name))

    def to_dict(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> QaThresholds:
        """Thresholds from JSON; missing keys take their defaults, unknown keys are refused
        (QaValueError), a value out of its range too (RangeError)."""
        if not isinstance(data, dict):
            raise QaValueError(f"QA thresholds must be an object, got {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise QaValueError(f"unknown QA threshold(s): {', '.join(unknown)}")
        thresholds = cls(**{name: data[name] for name in known if name in data})
        thresholds.validate()
        return QaThresholds(**{name: float(value) for name, value in asdict(thresholds).items()})


@dataclass(frozen=True)
class TakeChecks:
    """What listening to one take found; stored with the take (see :meth:`to_dict`)."""

    checked: str  # when, ISO 8601 UTC
    duration_s: float
    language: str  # the language listened in, e.g. "en" ("und" when the text gives no clue)
    recogniser: str  # "" when no recogniser could listen
    transcript: str | None  # None: not checked (see not_checked); "" when no speech was heard
    wer: float | None  # the error rate against the text, in ``metric``; None when not checked
    clipping: float  # share of samples at full scale
    leading_silence_s: float
    inner_silence_s: float  # the longest pause inside the take
    trailing_silence_s: float
    resemblance: float | None  # GE2E cosine to the character's clip; None without a clip
    # Stored since Whisper; checks stored before then load with these defaults.
    metric: str = WER  # "wer" (words) or "cer" (characters: Chinese, Japanese, Thai...)
    detected_language: str = ""  # what the take sounded like ("" when the model cannot tell)
    language_probability: float | None = None  # the detector's confidence in detected_language
    not_checked: str = ""  # why intelligibility was not checked, with how to fix it
    expected_speech_s: float | None = None  # how long the text takes to say at the take's pace

    @property
    def silent(self) -> bool:
        """True when the take holds no sound at all."""
        return self.leading_silence_s >= self.duration_s

    def to_dict(self) -> dict[str, Any]:
        # why intelligibility was not checked, kept as its template too: the studio says it after a reload
        return keep_phrase(asdict(self), "not_checked")

    @classmethod
    def from_dict(cls, data: object) -> TakeChecks:
        """Checks from JSON, refusing wrong types so a hand-edited file fails clearly."""
        if not isinstance(data, dict):
            raise QaValueError(f"take QA must be an object, got {data!r}")

        def number(name: str, optional: bool = False) -> float | None:
            value = data.get(name)
            if value is None and optional:
                return None
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise QaValueError(f"take QA '{name}' must be a number, got {value!r}")
            return float(value)

        def text(name: str, optional: bool = False) -> str | None:
            value = data.get(name, None if optional else "")
            if value is None and optional:
                return None
            if not isinstance(value, str):
                raise QaValueError(f"take QA '{name}' must be text, got {value!r}")
            return value

        transcript = text("transcript", optional=True)
        wer = number("wer", optional=True)
        if (transcript is None) != (wer is None):
            raise QaValueError("take QA needs both 'transcript' and 'wer', or neither")
        metric = data.get("metric", WER)
        if metric not in (WER, CER):
            raise QaValueError(f"take QA 'metric' must be {WER!r} or {CER!r}, got {metric!r}")
        return cls(
            checked=str(text("checked")),
            duration_s=float(number("duration_s") or 0.0),
            language=str(text("language")),
            recogniser=str(text("recogniser")),
            transcript=transcript,
            wer=wer,
            clipping=float(number("clipping") or 0.0),
            leading_silence_s=float(number("leading_silence_s") or 0.0),
            inner_silence_s=float(number("inner_silence_s") or 0.0),
            trailing_silence_s=float(number("trailing_silence_s") or 0.0),
            resemblance=number("resemblance", optional=True),
            metric=metric,
            detected_language=str(text("detected_language")),
            language_probability=number("language_probability", optional=True),
            not_checked=stored_phrase(data, "not_checked", str(text("not_checked"))),
            expected_speech_s=number("expected_speech_s", optional=True),
        )

    @property
    def retired(self) -> bool:
        """Measured by a recogniser QA no longer uses: to be checked again."""
        return self.recogniser.startswith(RETIRED_RECOGNISERS)

    @property
    def speech_s(self) -> float:
        """The take's length without its leading and trailing silence."""
        return max(0.0, self.duration_s - self.leading_silence_s - self.trailing_silence_s)


class Finding(NamedTuple):
    """One thing a check found: a ``QA_*`` code and a sentence for people (a
    :class:`~engine.hearing.qa.wording.QaPhrase`, which the studio says in its language)."""

    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


# Stored checks made by these recognisers are measured again (pocketsphinx scored clean takes up to 0.64).
RETIRED_RECOGNISERS = ("pocketsphinx",)


@dataclass(frozen=True)
class Verdict:
    """The outcome for one take: passed (True), failed (False) or not fully checked (None)."""

    passed: bool | None
    findings: tuple[Finding, ...]  # failures, then the QaCode.NOT_CHECKED note if any

    @property
    def reasons(self) -> list[str]:
        return [str(finding) for finding in self.findings]


def clipping_share(pcm: np.ndarray) -> float:
    """The share of samples at (or beyond) full scale."""
    audio = np.asarray(pcm, dtype=np.float32).reshape(-1)
    return float(np.count_nonzero(np.abs(audio) >= FULL_SCALE)) / audio.size if audio.size else 0.0


def silences(pcm: np.ndarray, sample_rate: int) -> tuple[float, float, float]:
    """(leading, longest inner, trailing) silence in seconds.

    Silence is audio more than :data:`SILENCE_TOP_DB` below the take's loudest moment, or any
    audio when the whole take is below -60 dBFS (then leading is the whole take).
    """
    audio = np.nan_to_num(np.asarray(pcm, dtype=np.float32).reshape(-1))
    duration = audio.size / sample_rate
    if audio.size == 0 or float(np.max(np.abs(audio))) < SILENCE_PEAK:
        return duration, 0.0, 0.0
    hop = max(1, sample_rate // 100)  # 10 ms steps
    sounds = sound_intervals(audio, SILENCE_TOP_DB, frame=4 * hop, hop=hop)
    if len(sounds) == 0:
        return duration, 0.0, 0.0
    gaps = [int(start) - int(end) for (_, end), (start, _) in zip(sounds[:-1], sounds[1:])]
    return (
        int(sounds[0][0]) / sample_rate,
        max(gaps, default=0) / sample_rate,
        (audio.size - int(sounds[-1][1])) / sample_rate,
    )


def script_language(text: str) -> str:
    """The language a text's script suggests (Latin letters: English), else undetermined
    (:func:`engine.core.languages.detect_language`)."""
    return detect_language(text)


def listening_language(language: str, text: str) -> str:
    """The language to listen in: the character's ("auto" detects it from the take), else the
    one the text's script suggests."""
    return language.strip() or script_language(text)


def expected_speech_s(text: str, language: str, pace: float = 1.0) -> float | None:
    """How long ``text`` takes to say at a natural rate, sped up by ``pace`` (the voice's speed
    times any fitting); None when the text has nothing to count."""
    code = language_code(language)
    units = comparable_units(text, code)
    if not units or pace <= 0:
        return None
    count = sum(len(unit) for unit in units)  # letters of the words, or characters
    return count / rules_for(code).speech_rate / pace


def voice_pace(pcm: np.ndarray, sample_rate: int, transcript: str, language: str) -> float | None:
    """How much faster than its language's natural rate (``speech_rate`` of
    :func:`engine.core.languages.rules_for`) a reference clip's speaker talks: the time its
    transcript needs over the clip's speech time (ends trimmed, as a take's). The voices follow
    their clip's rate (Piper's adaptation sets its length scale from it), so a take's expected
    time follows it too. None without a transcript or speech; kept within :data:`VOICE_PACE_RANGE`.

    None too for a clip in another language than ``language`` (a Chinese actor's clip for an
    English dub): its transcript counted by the other language's rate (14 Han characters as 14
    English letters) made the pace 0.5, and every English take "too fast"; nor does a voice take
    its rate from a clip whose words it cannot count."""
    code = script_language(transcript) if language.strip() in ("", AUTO) else language
    if line_language(code, transcript) != language_code(code):
        return None
    expected = expected_speech_s(transcript, code)
    audio = np.nan_to_num(np.asarray(pcm, dtype=np.float32).reshape(-1))
    leading, _, trailing = silences(audio, sample_rate)
    speech = audio.size / sample_rate - leading - trailing
    if not expected or speech < 0.5:
        return None
    low, high = VOICE_PACE_RANGE
    return float(min(max(expected / speech, low), high))


def measure_take(
    pcm: np.ndarray,
    sample_rate: int,
    text: str,
    language: str,
    clip_embedding: np.ndarray | None,
    encoder: SpeakerEncoder | None,
    recogniser_model: str = DEFAULT_MODEL,
    pace: float = 1.0,
    heard: Transcript | None = None,
) -> TakeChecks:
    """Listen to a take once. ``clip_embedding`` is the GE2E embedding of the character's clip
    (from ``encoder``); without either, resemblance is None. ``pace`` is how much faster than
    natural the take was meant to be (the voice's speed, any fitting); ``heard``, what a packed
    hearing (:func:`measure_takes`) heard in it, else the take is heard alone. The audio is only read."""
    audio = np.nan_to_num(np.asarray(pcm, dtype=np.float32).reshape(-1))
    duration = audio.size / sample_rate
    lang = listening_language(language, text)
    not_checked = ""
    transcript = heard
    if lang == UNDETERMINED_LANGUAGE:
        not_checked = QaPhrase(wording.LANGUAGE_UNKNOWN)
    elif transcript is None:
        try:
            transcript = recognise(audio, sample_rate, lang, recogniser_model)
            if lang == AUTO and (transcript.language_probability or 0.0) < CONFIDENT_DETECTION \
                    and script_language(text) not in (UNDETERMINED_LANGUAGE, transcript.language):
                # An unsure guess that the text's own script contradicts: listen in the script's language.
                transcript = recognise(audio, sample_rate, script_language(text), recogniser_model)
        except NotHeard as error:
            not_checked = error.reason
    language_heard = transcript.language if transcript is not None else language_code(lang)
    wer: float | None = None
    if transcript is not None:
        if not comparable_units(text, language_heard):
            not_checked = QaPhrase(wording.NO_WORDS)
        elif not transcript.text.strip() and only_interjections(text, language_heard):
            # Whisper leaves a lone 嗯 or 啊 unwritten however clearly it is said: no verdict on the words.
            not_checked = QaPhrase(wording.ONLY_INTERJECTIONS)
        else:
            wer = error_rate(text, transcript.text, language_heard)
    leading, inner, trailing = silences(audio, sample_rate)
    resemblance: float | None = None
    if clip_embedding is not None and encoder is not None and leading < duration:
        resemblance = encoder.resemblance(audio, sample_rate, clip_embedding)
    return TakeChecks(
        checked=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        duration_s=round(duration, 4),
        language=language_heard,
        recogniser=transcript.recogniser if transcript is not None else "",
        transcript=_written_as_line(transcript.text, text, language_heard)
        if wer is not None and transcript is not None else None,
        wer=None if wer is None else round(wer, 4),
        clipping=round(clipping_share(audio), 6),
        leading_silence_s=round(leading, 3),
        inner_silence_s=round(inner, 3),
        trailing_silence_s=round(trailing, 3),
        resemblance=None if resemblance is None else round(resemblance, 4),
        metric=metric_for(language_heard),
        detected_language=transcript.detected_language if transcript is not None else "",
        language_probability=transcript.language_probability if transcript is not None else None,
        not_checked="" if wer is not None else not_checked,
        expected_speech_s=None if (expected := expected_speech_s(text, language_heard, pace)) is None
        else round(expected, 3),
    )


@dataclass(frozen=True)
class TakeToMeasure:
    """One take of a batch for :func:`measure_takes`: the arguments of :func:`measure_take`."""

    pcm: np.ndarray
    sample_rate: int
    text: str
    language: str
    clip_embedding: np.ndarray | None = None
    pace: float = 1.0


def _written_as_line(heard: str, text: str, language: str) -> str:
    """What was heard, as the dubber reads it beside the line: Chinese in the line's own script
    (Whisper base writes Mandarin in traditional characters whatever the line is written in)."""
    if not is_chinese(language):
        return heard
    return in_script(heard, TRADITIONAL if simplified(text) != text else SIMPLIFIED, language)


def measure_takes(takes: Sequence[TakeToMeasure], encoder: SpeakerEncoder | None,
                  recogniser_model: str = DEFAULT_MODEL, streamed: bool = False,
                  on_measured: Callable[[int, TakeChecks], None] | None = None) -> list[TakeChecks]:
    """Listen to several takes, packing those of one language into shared Whisper windows: one
    window for several short takes (:func:`engine.hearing.qa.recognise.confirm_or_recognise_packed`).

    A take confirmed by forced alignment as saying its text is heard as written. A take that is
    not is decoded in its pack, and that hearing is kept only when it is close (error rate at
    most :data:`PACKED_TRUSTED_ERROR`, half the default limit) and the window sounded confidently
    like the language listened in; any other take is heard again alone, exactly as
    :func:`measure_take` hears it, so every take near or past a limit is judged by its own
    hearing. Takes whose language is detected (``"auto"``) or unknown are heard alone.
    ``streamed``: takes that queued behind a render, each confirmed alone first.
    ``on_measured(index, checks)`` is called for each take as soon as it is measured (a take
    confirmed alone before the next is tried; a take heard alone last), once each.
    """
    measured: list[TakeChecks | None] = [None] * len(takes)

    def measure(index: int, transcript: Transcript | None) -> None:
        take = takes[index]
        measured[index] = checks = measure_take(take.pcm, take.sample_rate, take.text, take.language,
                                                take.clip_embedding, encoder, recogniser_model, take.pace,
                                                heard=transcript)
        if on_measured is not None:
            on_measured(index, checks)

    groups: dict[str, list[int]] = {}
    for index, take in enumerate(takes):
        lang = listening_language(take.language, take.text)
        audio = np.asarray(take.pcm).reshape(-1)
        if lang not in (AUTO, UNDETERMINED_LANGUAGE) and audio.size and float(np.max(np.abs(audio))) >= SILENCE_PEAK \
                and comparable_units(take.text, language_code(lang) or lang):
            groups.setdefault(language_code(lang) or lang, []).append(index)
    for lang, indices in groups.items():

        def heard_in_pack(at: int, transcript: Transcript | None, lang: str = lang, indices: list[int] = indices) -> None:
            """A take's hearing is final: measured with it when it is trusted, else heard alone."""
            index = indices[at]
            if transcript is None:
                return  # heard alone with the takes outside any pack, below
            detected_other = transcript.detected_language and (
                language_code(transcript.detected_language) != lang
                or (transcript.language_probability or 0.0) < CONFIDENT_DETECTION)
            if transcript.confirmed or not detected_other and transcript.text \
                    and error_rate(takes[index].text, transcript.text, lang) <= PACKED_TRUSTED_ERROR:
                measure(index, transcript)

        try:
            confirm_or_recognise_packed([(takes[i].pcm, takes[i].sample_rate) for i in indices],
                                        [takes[i].text for i in indices], lang, recogniser_model, streamed,
                                        on_heard=heard_in_pack)
        except NotHeard:
            continue  # each take not yet measured is heard alone and says why
    for index, checks in enumerate(measured):
        if checks is None:
            measure(index, None)
    return [checks for checks in measured if checks is not None]


def _speech_findings(checks: TakeChecks, t: QaThresholds) -> list[Finding]:
    """What the recogniser found: silence, no speech or the wrong words, the wrong language, a pace
    far from the text's."""
    failed: list[Finding] = []
    if checks.silent:
        failed.append(Finding(QaCode.SILENT, QaPhrase(wording.SILENT, seconds=checks.duration_s)))
    limit = t.max_cer if checks.metric == CER else t.max_wer
    misheard = wording.MISHEARD_CER if checks.metric == CER else wording.MISHEARD_WER
    if checks.transcript == "":  # a silent take has its own finding
        if not checks.silent:
            failed.append(Finding(QaCode.NO_SPEECH, QaPhrase(wording.NO_SPEECH)))
    elif checks.wer is not None and checks.wer > limit:
        failed.append(Finding(QaCode.UNINTELLIGIBLE,
                              QaPhrase(misheard, heard=checks.transcript, rate=checks.wer, limit=limit)))
    if checks.detected_language and language_code(checks.detected_language) != language_code(checks.language) \
            and (checks.language_probability or 0.0) >= t.min_language_confidence and checks.transcript != "":
        failed.append(Finding(QaCode.WRONG_LANGUAGE, QaPhrase(
            wording.WRONG_LANGUAGE, detected=checks.detected_language, probability=checks.language_probability,
            expected=checks.language)))
    if checks.expected_speech_s and not checks.silent and checks.transcript != "":
        ratio = checks.speech_s / checks.expected_speech_s
        if ratio < t.min_duration_ratio:
            heard_all = checks.wer is not None and checks.wer <= limit
            code, template = (QaCode.TOO_FAST, wording.TOO_FAST) if heard_all else (QaCode.TOO_SHORT, wording.TOO_SHORT)
            failed.append(Finding(code, QaPhrase(template, speech=checks.speech_s, expected=checks.expected_speech_s,
                                                 ratio=ratio, minimum=t.min_duration_ratio)))
    return failed


def _sound_findings(checks: TakeChecks, t: QaThresholds) -> list[Finding]:
    """What the signal shows: clipping, and silence before, inside or after the speech."""
    failed: list[Finding] = []
    if checks.clipping > t.max_clipping:
        failed.append(Finding(QaCode.CLIPPING, QaPhrase(wording.CLIPPING, share=checks.clipping, limit=t.max_clipping)))
    if not checks.silent:
        for code, template, value, limit in (
            (QaCode.LEADING_SILENCE, wording.LEADING_SILENCE, checks.leading_silence_s, t.max_leading_silence_s),
            (QaCode.INNER_SILENCE, wording.INNER_SILENCE, checks.inner_silence_s, t.max_inner_silence_s),
            (QaCode.TRAILING_SILENCE, wording.TRAILING_SILENCE, checks.trailing_silence_s, t.max_trailing_silence_s),
        ):
            if value > limit:
                failed.append(Finding(code, QaPhrase(template, seconds=value, limit=limit)))
    return failed


def judge(checks: TakeChecks, thresholds: QaThresholds, overrun_s: float | None = None) -> Verdict:
    """Compare the measurements with the thresholds; ``overrun_s`` is how far the take runs
    past its line's slot (None when the line has no slot)."""
    t = thresholds
    failed = _speech_findings(checks, t) + _sound_findings(checks, t)
    if overrun_s is not None and overrun_s > t.max_overrun_s:
        failed.append(Finding(QaCode.OVERRUN, QaPhrase(wording.OVERRUN, seconds=overrun_s, limit=t.max_overrun_s)))
    if checks.resemblance is not None and checks.resemblance < t.min_resemblance:
        failed.append(Finding(QaCode.UNLIKE_VOICE, QaPhrase(wording.UNLIKE_VOICE, resemblance=checks.resemblance,
                                                            minimum=t.min_resemblance)))
    notes: list[Finding] = []
    if checks.wer is None:
        # Checks stored before the reason was: the recogniser then knew English only.
        why = checks.not_checked or QaPhrase(wording.NO_RECOGNISER,
                                             language=checks.language or QaPhrase(wording.UNDETERMINED))
        notes.append(Finding(QaCode.NOT_CHECKED, QaPhrase(wording.NOT_CHECKED, why=why)))
    passed: bool | None = False if failed else (None if notes else True)
    return Verdict(passed=passed, findings=tuple(failed + notes))

"""Measuring a finished take, and judging the measurements against thresholds.

:func:`measure_take` listens to a take once (recogniser, level, silences, speaker embedding)
and returns :class:`TakeChecks`, plain numbers that are stored with the take. :func:`judge`
turns them into a :class:`Verdict` for the thresholds and the slot in force *now*, so changing
a threshold or a timecode updates every verdict without listening to the audio again.

Every failing check is a :class:`Finding` with a code (``QA_*``) and a sentence for people.
A take whose language has no recogniser is "not checked" for intelligibility: its verdict is
``passed=None`` unless another check fails, never a pass it did not earn.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from dataclasses import asdict, dataclass, fields
from typing import Any, NamedTuple

import numpy as np

from engine.qa.recognise import SILENCE_PEAK, recognise
from engine.qa.wer import language_code, normalise_words, word_error_rate
from engine.silence import sound_intervals
from engine.voices import SpeakerEncoder

FULL_SCALE = 0.999  # |sample| at or above this counts as clipped (int16 full scale is 0.99997)
SILENCE_TOP_DB = 40.0  # quieter than the loudest moment by this much counts as silence
UNDETERMINED_LANGUAGE = "und"  # ISO 639 "undetermined": no recogniser claims it


class QaValueError(ValueError):
    """A threshold or a stored check is out of range or of the wrong type."""


QA_THRESHOLD_RANGES: dict[str, tuple[float, float]] = {
    "max_wer": (0.0, 10.0),
    "max_clipping": (0.0, 1.0),
    "max_leading_silence_s": (0.0, 600.0),
    "max_inner_silence_s": (0.0, 600.0),
    "max_trailing_silence_s": (0.0, 600.0),
    "max_overrun_s": (0.0, 600.0),
    "min_resemblance": (-1.0, 1.0),
}
"""The values each QA threshold may take (the project settings dialog's limits too)."""


@dataclass(frozen=True)
class QaThresholds:
    """Where a measurement turns into a failure; project settings, see docs/qa.md for why."""

    max_wer: float = 0.75  # clean takes of the embedded voice: median 0.06, worst 0.62; garbled ones 0.88-1.0
    max_clipping: float = 0.001  # 0.1 % of samples at full scale (clean takes: under 0.01 %)
    max_leading_silence_s: float = 1.0
    max_inner_silence_s: float = 1.5
    max_trailing_silence_s: float = 1.5
    max_overrun_s: float = 0.25  # a take may end this much after its slot before it fails
    min_resemblance: float = 0.25  # GE2E cosine to the character's clip (plain joe vs the bundled clips: 0.30-0.70)

    def validate(self) -> None:
        """Raise QaValueError naming the first value out of its range."""
        for name, (low, high) in QA_THRESHOLD_RANGES.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or not low <= value <= high:
                raise QaValueError(f"QA threshold {name} must be a number from {low:g} to {high:g}, got {value!r}")

    def to_dict(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> "QaThresholds":
        """Thresholds from JSON; missing keys take their defaults, unknown keys are refused."""
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
    language: str  # the language listened for, e.g. "en" ("und" when the text gives no clue)
    recogniser: str  # "" when no recogniser knows the language
    transcript: str | None  # None: not checked (no recogniser for the language)
    wer: float | None  # word error rate against the text; None when not checked
    clipping: float  # share of samples at full scale
    leading_silence_s: float
    inner_silence_s: float  # the longest pause inside the take
    trailing_silence_s: float
    resemblance: float | None  # GE2E cosine to the character's clip; None without a clip

    @property
    def silent(self) -> bool:
        """True when the take holds no sound at all."""
        return self.leading_silence_s >= self.duration_s

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> "TakeChecks":
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
        )


class Finding(NamedTuple):
    """One thing a check found: a ``QA_*`` code and a sentence for people."""

    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


NOT_CHECKED = "QA_NOT_CHECKED"  # a note, not a failure: intelligibility could not be checked


@dataclass(frozen=True)
class Verdict:
    """The outcome for one take: passed (True), failed (False) or not fully checked (None)."""

    passed: bool | None
    findings: tuple[Finding, ...]  # failures, then the NOT_CHECKED note if any

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


def listening_language(language: str, text: str) -> str:
    """The language to listen for: the character's, else English when the text is written in
    Latin letters (the embedded voice's default), else undetermined (not checked)."""
    if language.strip():
        return language.strip()
    return "en" if re.search(r"[A-Za-z]", text) else UNDETERMINED_LANGUAGE


def measure_take(
    pcm: np.ndarray,
    sample_rate: int,
    text: str,
    language: str,
    clip_embedding: np.ndarray | None,
    encoder: SpeakerEncoder | None,
) -> TakeChecks:
    """Listen to a take once. ``clip_embedding`` is the GE2E embedding of the character's clip
    (from ``encoder``); without either, resemblance is None. The audio is only read."""
    audio = np.nan_to_num(np.asarray(pcm, dtype=np.float32).reshape(-1))
    duration = audio.size / sample_rate
    lang = listening_language(language, text)
    transcript = recognise(audio, sample_rate, lang)
    wer: float | None = None
    if transcript is not None and normalise_words(text, transcript.language):
        wer = word_error_rate(text, transcript.text, transcript.language)
    leading, inner, trailing = silences(audio, sample_rate)
    resemblance: float | None = None
    if clip_embedding is not None and encoder is not None and leading < duration:
        resemblance = encoder.resemblance(audio, sample_rate, clip_embedding)
    return TakeChecks(
        checked=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        duration_s=round(duration, 4),
        language=transcript.language if transcript is not None else language_code(lang),
        recogniser=transcript.recogniser if transcript is not None else "",
        transcript=transcript.text if wer is not None and transcript is not None else None,
        wer=None if wer is None else round(wer, 4),
        clipping=round(clipping_share(audio), 6),
        leading_silence_s=round(leading, 3),
        inner_silence_s=round(inner, 3),
        trailing_silence_s=round(trailing, 3),
        resemblance=None if resemblance is None else round(resemblance, 4),
    )


def judge(checks: TakeChecks, thresholds: QaThresholds, overrun_s: float | None = None) -> Verdict:
    """Compare the measurements with the thresholds; ``overrun_s`` is how far the take runs
    past its line's slot (None when the line has no slot)."""
    t = thresholds
    failed: list[Finding] = []
    if checks.silent:
        failed.append(Finding("QA_SILENT", f"the take is silent ({checks.duration_s:.2f} s without sound)"))
    if checks.wer is not None and checks.wer > t.max_wer:
        heard = f"“{checks.transcript}”" if checks.transcript else "no words"
        failed.append(Finding("QA_UNINTELLIGIBLE",
                              f"the recogniser heard {heard} (word error rate {checks.wer:.2f}, limit {t.max_wer:.2f})"))
    if checks.clipping > t.max_clipping:
        failed.append(Finding("QA_CLIPPING", f"{checks.clipping:.2%} of samples are at full scale "
                                             f"(limit {t.max_clipping:.2%})"))
    if not checks.silent:
        for code, where, value, limit in (
            ("QA_LEADING_SILENCE", "before the speech", checks.leading_silence_s, t.max_leading_silence_s),
            ("QA_INNER_SILENCE", "inside the speech", checks.inner_silence_s, t.max_inner_silence_s),
            ("QA_TRAILING_SILENCE", "after the speech", checks.trailing_silence_s, t.max_trailing_silence_s),
        ):
            if value > limit:
                failed.append(Finding(code, f"{value:.2f} s of silence {where} (limit {limit:.2f} s)"))
    if overrun_s is not None and overrun_s > t.max_overrun_s:
        failed.append(Finding("QA_OVERRUN", f"the take runs {overrun_s:.2f} s past its slot "
                                            f"(limit {t.max_overrun_s:.2f} s)"))
    if checks.resemblance is not None and checks.resemblance < t.min_resemblance:
        failed.append(Finding("QA_UNLIKE_VOICE", f"resemblance to the character's clip is {checks.resemblance:.2f} "
                                                 f"(minimum {t.min_resemblance:.2f})"))
    notes: list[Finding] = []
    if checks.wer is None:
        why = f"no recogniser for language “{checks.language or 'undetermined'}”" if not checks.recogniser \
            else "the line has no words to compare"
        notes.append(Finding(NOT_CHECKED, f"intelligibility not checked: {why}"))
    passed: bool | None = False if failed else (None if notes else True)
    return Verdict(passed=passed, findings=tuple(failed + notes))

"""Reading and writing times: seconds in the model, timecodes in files people edit."""

from __future__ import annotations

import math
import re

from app.project import phrases
from app.project.phrases import Phrase
from engine.core.codes import ErrorCode
from engine.core.numbers import Range, RangeError

MAX_TIME_S = 24 * 3600.0
"""The latest time a project may hold (24 h). Far beyond any video DubStudio dubs, and it keeps
a mix from trying to allocate terabytes when a file holds a start of 1e9 s by mistake."""
TIME = Range("time", 0.0, MAX_TIME_S, unit="s", hint="(24 h)", code=ErrorCode.TIME_RANGE)


class TimeRangeError(ValueError):
    """A time that is negative, not a finite number, or beyond :data:`MAX_TIME_S`."""


def check_time(seconds: float, what: str = "time") -> float:
    """``seconds`` as a float when it is a time a project may hold; TimeRangeError otherwise."""
    try:
        return TIME.named(what).check(seconds)
    except RangeError as error:
        raise TimeRangeError(error.message) from None


_TIMECODE = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:[.,]\d+)?)$")


def parse_time(text: str) -> float:
    """Seconds from ``HH:MM:SS,mmm``, ``HH:MM:SS.mmm``, ``MM:SS.mmm`` or plain seconds ``12.5``.

    Raises ValueError with the offending text (TimeRangeError beyond 24 h); callers add the
    file and line number.
    """
    value = text.strip()
    if not value:
        raise ValueError(Phrase(phrases.EMPTY_TIME))
    match = _TIMECODE.match(value)
    if match:
        hours, minutes, seconds = match.groups()
        if int(minutes) >= 60 or float(seconds.replace(",", ".")) >= 60:
            raise ValueError(Phrase(phrases.SIXTY_OR_MORE, text=repr(text)))
        return check_time(int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds.replace(",", ".")), repr(text))
    try:
        seconds_value = float(value.replace(",", "."))
    except ValueError:
        raise ValueError(Phrase(phrases.UNREADABLE_TIME, text=repr(text))) from None
    if not math.isfinite(seconds_value) or seconds_value < 0:
        raise ValueError(Phrase(phrases.NEGATIVE_TIME, text=repr(text)))
    return check_time(seconds_value, repr(text))


def format_timecode(seconds: float, separator: str = ",") -> str:
    """``HH:MM:SS,mmm`` (SRT style; pass ``"."`` for the CSV/VTT style)."""
    millis = max(0, round(seconds * 1000))
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}{separator}{millis:03d}"


def format_clock(seconds: float, decimals: int = 3) -> str:
    """How DubStudio shows a time everywhere (table, transport, tooltips, the ruler, a video's
    length, render's ETA): ``M:SS.mmm``, with hours in front from one hour on (``1:02:03.450``);
    ``decimals`` digits of the second (0: ``M:SS``). :func:`parse_time` reads it back."""
    per_second = 10**decimals
    units = max(0, round(seconds * per_second))
    hours, rest = divmod(units, 3600 * per_second)
    minutes, rest = divmod(rest, 60 * per_second)
    secs, fraction = divmod(rest, per_second)
    tail = f".{fraction:0{decimals}d}" if decimals else ""
    return f"{hours}:{minutes:02d}:{secs:02d}{tail}" if hours else f"{minutes}:{secs:02d}{tail}"

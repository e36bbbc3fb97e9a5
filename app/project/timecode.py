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


# A dubbing studio's sheet times its lines by the video's frames (00:01:23:12), as its timecode
# window shows them; ";" before the frames marks drop-frame, the NTSC count (29.97 and 59.94
# frames a second) that skips frame numbers to keep up with the clock.
_FRAME_TIMECODE = re.compile(r"^(\d{1,2}):([0-5]\d):([0-5]\d)([:;])(\d{2})$")


def is_frame_timecode(text: str) -> bool:
    """Whether ``text`` counts frames (HH:MM:SS:FF, or HH:MM:SS;FF drop-frame)."""
    return _FRAME_TIMECODE.match(text.strip()) is not None


def parse_frame_timecode(text: str, fps: float) -> float:
    """Seconds from ``HH:MM:SS:FF`` at ``fps`` frames a second; ``HH:MM:SS;FF`` is drop-frame (SMPTE
    12M: at 29.97 the frame numbers 00 and 01 of every minute but each tenth are skipped, at 59.94
    00-03), read as such at an NTSC rate and as the plain count at any other. ValueError when
    ``text`` is not such a timecode or names a frame its second does not have (or drop-frame
    skips)."""
    match = _FRAME_TIMECODE.match(text.strip())
    if match is None:
        raise ValueError(Phrase(phrases.UNREADABLE_TIME, text=repr(text)))
    hours, minutes, seconds, mark, frames = match.groups()
    nominal = math.ceil(fps)  # 29.97 counts 30 frame numbers a second
    if int(frames) >= nominal:
        raise ValueError(Phrase(phrases.FRAME_PAST_ITS_SECOND, text=repr(text), fps=fps))
    count = (int(hours) * 3600 + int(minutes) * 60 + int(seconds)) * nominal + int(frames)
    if mark == ";" and nominal in (30, 60) and abs(fps - nominal * 1000 / 1001) < 0.01:
        skipped = nominal // 15  # 2 at 29.97, 4 at 59.94
        if int(seconds) == 0 and int(frames) < skipped and int(minutes) % 10:
            raise ValueError(Phrase(phrases.FRAME_PAST_ITS_SECOND, text=repr(text), fps=fps))
        all_minutes = int(hours) * 60 + int(minutes)
        count -= skipped * (all_minutes - all_minutes // 10)
    # The frame's own time: a timecode counts frames, so at 29.97 non-drop 00:10:00:00 is frame
    # 18000, 600.6 s into the video.
    return check_time(count / fps, repr(text))


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

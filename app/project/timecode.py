"""Reading and writing times: seconds in the model, timecodes in files people edit."""

from __future__ import annotations

import math
import re

_TIMECODE = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:[.,]\d+)?)$")


def parse_time(text: str) -> float:
    """Seconds from ``HH:MM:SS,mmm``, ``HH:MM:SS.mmm``, ``MM:SS.mmm`` or plain seconds ``12.5``.

    Raises ValueError with the offending text; callers add the file and line number.
    """
    value = text.strip()
    if not value:
        raise ValueError("empty time")
    match = _TIMECODE.match(value)
    if match:
        hours, minutes, seconds = match.groups()
        if int(minutes) >= 60 or float(seconds.replace(",", ".")) >= 60:
            raise ValueError(f"time {text!r} has minutes or seconds of 60 or more")
        return int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds.replace(",", "."))
    try:
        seconds_value = float(value.replace(",", "."))
    except ValueError:
        raise ValueError(f"cannot read time {text!r} (use seconds or HH:MM:SS,mmm)") from None
    if not math.isfinite(seconds_value) or seconds_value < 0:
        raise ValueError(f"time {text!r} must be a non-negative number of seconds")
    return seconds_value


def format_timecode(seconds: float, separator: str = ",") -> str:
    """``HH:MM:SS,mmm`` (SRT style; pass ``"."`` for the CSV/VTT style)."""
    millis = max(0, round(seconds * 1000))
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}{separator}{millis:03d}"

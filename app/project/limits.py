"""What a video's probed facts may be, in a probe and in project.json alike.

A container can claim anything: a 2-second file once claimed 30,000 s, ``new`` accepted it and
the export padded the dub to 5.4 GiB. Every number a probe returns, and the same fields read
back from project.json, must be within these ranges (:meth:`engine.core.numbers.Range.check`),
and every allocation a media duration drives is bounded by :data:`MAX_MEDIA_S`.
"""

from __future__ import annotations

from engine.core.codes import ErrorCode
from engine.core.numbers import Range, ranges

MAX_MEDIA_S = 3 * 3600.0
"""The longest video (and guide track) a project dubs: longer than a feature film. A guide
track of that length is about 4 GiB of float samples at 48 kHz stereo, which a separation
model's M&E holds; the dialogue, the ducked guide, the M&E made from the channels and a client's
stem are mixed, levelled and written in blocks (app.project.export.Programme)."""

MEDIA_RANGES = ranges(
    Range("duration_s", 0.0, MAX_MEDIA_S, unit="s"),
    Range("fps", 0.0, 1000.0, unit="frames/s"),
    Range("width", 0, 16384, whole=True, unit="pixels"),
    Range("height", 0, 16384, whole=True, unit="pixels"),
    Range("frame_count", 0, int(MAX_MEDIA_S * 1000), whole=True),
    Range("channels", 0, 64, whole=True),
    Range("sample_rate", 0, 768_000, whole=True, unit="Hz"),
    code=ErrorCode.VIDEO_UNREADABLE,
)

__all__ = ["MAX_MEDIA_S", "MEDIA_RANGES"]

"""format_clock: the one way DubStudio writes a time, read back by parse_time."""

from __future__ import annotations

import pytest

from app.project.timecode import format_clock, parse_time


@pytest.mark.parametrize(
    "seconds, decimals, shown",
    [
        (65.2, 3, "1:05.200"),
        (3725.45, 3, "1:02:05.450"),  # hours in front from one hour on
        (65.2, 1, "1:05.2"),
        (3.04, 2, "0:03.04"),
        (121.4, 0, "2:01"),
        (59.6, 0, "1:00"),  # rounding carries into the minute...
        (3599.6, 0, "1:00:00"),  # ...and into the hour
        (-0.2, 0, "0:00"),
    ],
)
def test_format_clock(seconds: float, decimals: int, shown: str) -> None:
    assert format_clock(seconds, decimals) == shown
    assert parse_time(shown) == pytest.approx(round(max(0.0, seconds), decimals))

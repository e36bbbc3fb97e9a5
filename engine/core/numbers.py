"""Numbers from users, files and containers: finite and within a declared range, or refused.

A check such as ``value <= 0`` lets NaN through (every comparison with NaN is false), so
``bench --seconds nan`` once ran for ever and ``serve --max-clip-mb nan`` died in a traceback.
Every number that comes from outside (a command-line option, a field of project.json, a
probed video's duration or frame rate, a bench plan) goes through :func:`checked_number`:
one rule, one sentence of refusal.

It lives in ``engine/`` because the engine's bench plans and server limits need it and the
engine may not import the studio.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


class NumberError(ValueError):
    """A number that is not finite or not within its range; ``str()`` names it and its range."""


def _shown(value: float) -> str:
    return f"{int(value)}" if float(value).is_integer() and abs(value) < 1e15 else f"{value:g}"


def describe_range(low: float, high: float) -> str:
    if math.isinf(high):
        return f"at least {_shown(low)}"
    return f"from {_shown(low)} to {_shown(high)}"


def checked_number(name: str, value: object, low: float, high: float = math.inf) -> float:
    """``value`` as a float when it is a finite number with ``low <= value <= high``.

    Raises NumberError naming ``name`` otherwise: NaN, infinities, booleans, strings and
    values out of range are refused, never clamped. ``high`` may be infinite (no upper
    bound); the value itself never may.
    """
    number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
    if not (math.isfinite(number) and low <= number <= high):
        raise NumberError(f"{name} must be a finite number {describe_range(low, high)}, got {value!r}")
    return float(number)


def checked_int(name: str, value: object, low: int, high: float = math.inf) -> int:
    """:func:`checked_number` for a whole number (an int, not a float such as 2.5)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise NumberError(f"{name} must be a whole number {describe_range(low, high)}, got {value!r}")
    return value


def number_argument(name: str, low: float, high: float = math.inf, *, whole: bool = False) -> Callable[[str], float]:
    """An argparse ``type`` applying :func:`checked_number` (or :func:`checked_int`) to the
    text typed; a bad value is a usage error (exit status 2) saying why."""

    def parse(text: str) -> float:
        try:
            value: object = int(text) if whole else float(text)
        except ValueError:
            value = text
        try:
            return checked_int(name, value, int(low), high) if whole else checked_number(name, value, low, high)
        except NumberError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


__all__ = ["NumberError", "checked_int", "checked_number", "describe_range", "number_argument"]

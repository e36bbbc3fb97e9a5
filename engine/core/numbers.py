"""Ranges: every number from outside, declared once as a :class:`Range` and checked one way.

A check such as ``value <= 0`` lets NaN through (every comparison with NaN is false), so
``bench --seconds nan`` once ran for ever and ``serve --max-clip-mb nan`` died in a traceback.
Every number that comes from outside (a voice's speed, a command-line option, a field of
project.json, a studio form, a backend option, a probed video's duration, a bench plan) has one
:class:`Range`, and :meth:`Range.check` is the one check of it: a refusal is a
:class:`RangeError` carrying the range's code and one sentence naming the value and the range,
the same from the CLI, a form, the project loader and the engine. docs/limits.md lists them all.

It lives in ``engine/core`` because every process checks numbers and the engine may not import
the studio.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from engine.core.codes import EngineError, ErrorCode
from engine.core.phrases import Phrase


def _shown(value: float) -> str:
    return f"{int(value)}" if float(value).is_integer() and abs(value) < 1e15 else f"{value:g}"


# The units a Range may declare, each said after a number (" s", " dB"): the studio shows them in
# its language (scripts/translations hands them to lupdate in the "units" context; a test checks
# every declared range's unit is here).
UNITS = ("s", "MB", "dB", "dBTP", "LUFS", "Hz", "frames/s", "jobs/s", "pixels", "semitones", "×", "%")
# What a range's numbers mean, said after it: declared here, once, so the studio can say each in
# its language (scripts/translations hands them to lupdate in the "ranges" context).
HINTS = ("(0 = automatic)", "(0 = off)", "(-40 = off)", "(24 h)", "(or auto)", "per level unit",
         "(a fraction of the measured jobs)", "(a fraction of the samples)",
         "(1 = the voice's own rate, 2 = twice as fast)", "(rate and stretch together)")


class RangePhrase(Phrase):
    """A range's words (a refusal, what the range takes), translated in the ``ranges`` context."""

    context: ClassVar[str] = "ranges"


class UnitPhrase(Phrase):
    """A unit as written after a number (" s"), translated in the ``units`` context."""

    context: ClassVar[str] = "units"


# The sentences of a range, declared once (scripts/translations hands them to lupdate).
AT_LEAST = "at least {low}{unit}"
FROM_TO = "from {low} to {high}{unit}"
WITH_HINT = "{span} {hint}"
REFUSAL = "{name} must be a number {span}, got {value}"
REFUSAL_WHOLE = "{name} must be a whole number {span}, got {value}"
REFUSAL_ON = "{name} must be a number {span} on {owner}, got {value}"
REFUSAL_WHOLE_ON = "{name} must be a whole number {span} on {owner}, got {value}"
TEMPLATES = (AT_LEAST, FROM_TO, WITH_HINT, REFUSAL, REFUSAL_WHOLE, REFUSAL_ON, REFUSAL_WHOLE_ON, *HINTS)


@dataclass(frozen=True)
class Range:
    """The numbers one setting takes: finite, from ``low`` to ``high`` (both included).

    ``high`` may be infinite (no upper bound); the value itself never may. A range that
    declares a ``default`` is the one declaration of it (the default must be in range).
    """

    name: str  # how a refusal names the value: "speed", "slots", "--port"
    low: float
    high: float = math.inf
    whole: bool = False  # whole numbers only: an int, never 2.0 or True
    unit: str = ""  # "s", "dB", "semitones"; a symbol ("×", "%") is written against the number
    hint: str = ""  # what the numbers mean, said after the range: "(0 = automatic)"
    default: float | None = None
    code: ErrorCode = ErrorCode.INVALID_VALUE  # what a refusal carries
    owner: str = ""  # the backend whose narrower range this is ("": the engine's own)

    def __post_init__(self) -> None:
        if not (math.isfinite(self.low) and self.low <= self.high):
            raise ValueError(f"{self.name}: {self.low!r} to {self.high!r} is no range")
        if self.hint and self.hint not in HINTS:
            raise ValueError(f"{self.name}: the hint {self.hint!r} is not one of numbers.HINTS")
        if self.default is not None:
            self.check(self.default)  # a declaration that breaks its own range fails at import

    @property
    def suffix(self) -> str:
        """The unit as written after a number, and as a spin box's suffix: " s", "×"."""
        if not self.unit:
            return ""
        return f" {self.unit}" if self.unit[0].isalnum() else self.unit

    def describe(self) -> str:
        """"from 0.25 to 4×", "at least 1 s", with the hint after it (a RangePhrase)."""
        unit = UnitPhrase(self.suffix) if self.suffix else ""
        span = (RangePhrase(AT_LEAST, low=_shown(self.low), unit=unit) if math.isinf(self.high)
                else RangePhrase(FROM_TO, low=_shown(self.low), high=_shown(self.high), unit=unit))
        return RangePhrase(WITH_HINT, span=span, hint=RangePhrase(self.hint)) if self.hint else span

    def refusal(self, value: object) -> str:
        """The one sentence refusing ``value``: the setting, the range and the value (a RangePhrase)."""
        if self.owner:
            return RangePhrase(REFUSAL_WHOLE_ON if self.whole else REFUSAL_ON, name=self.name, span=self.describe(),
                               owner=self.owner, value=repr(value))
        return RangePhrase(REFUSAL_WHOLE if self.whole else REFUSAL, name=self.name, span=self.describe(),
                           value=repr(value))

    def holds(self, value: object) -> bool:
        """Whether :meth:`check` takes ``value``."""
        if isinstance(value, bool) or not isinstance(value, int if self.whole else (int, float)):
            return False
        if isinstance(value, float) and not math.isfinite(value):  # an int always is (and may not fit a float)
            return False
        return self.low <= value <= self.high

    def check(self, value: object) -> float:
        """``value`` when it is a number in this range (a float, or for a whole range the int).

        Raises :class:`RangeError` otherwise: NaN, infinities, booleans, strings, None, values
        out of range and (for a whole range) anything but an int are refused, never clamped: a
        silent clamp would speak a line, or run an engine, in a way nobody asked for.
        """
        if not self.holds(value):
            raise RangeError(self, value)
        assert isinstance(value, (int, float))  # holds() said so
        return value if self.whole else float(value)

    def narrowed(self, low: float, high: float, owner: str) -> Range:
        """The part of this range one backend takes (declared in its capabilities)."""
        if not self.low <= low <= high <= self.high:
            raise ValueError(f"{owner}'s {self.name} {_shown(low)} to {_shown(high)} is not {self.describe()}")
        return dataclasses.replace(self, low=low, high=high, owner=owner)

    def named(self, name: str) -> Range:
        """This range for a value a caller names (a time: "line 3 start", "Maya's clip trim end")."""
        return dataclasses.replace(self, name=name)


class RangeError(EngineError, ValueError):
    """A number outside its :class:`Range`: ``code`` is the range's, ``message`` its refusal."""

    def __init__(self, allowed: Range, value: object) -> None:
        super().__init__(allowed.code, allowed.refusal(value))
        self.range = allowed


def ranges(*declared: Range, code: ErrorCode) -> dict[str, Range]:
    """A table of ranges by name, each refusing with ``code`` (the table's context's code)."""
    return {item.name: dataclasses.replace(item, code=code) for item in declared}


def number_argument(allowed: Range) -> Callable[[str], float]:
    """An argparse ``type`` applying :meth:`Range.check` to the number typed; a bad value is a
    usage error (exit status 2) with the range's code and sentence."""

    def parse(text: str) -> float:
        value: object = text
        for kind in (int, float) if allowed.whole else (float,):
            try:
                value = kind(text)
                break
            except ValueError:
                continue
        try:
            return allowed.check(value)
        except RangeError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


__all__ = ["Range", "RangeError", "number_argument", "ranges"]

"""The one check of a number from outside (engine.core.numbers.Range, issue 29): what it refuses,
what it takes, and the one sentence and code of a refusal."""

from __future__ import annotations

import argparse
import dataclasses
import math

import pytest

from engine.core.codes import EngineError, ErrorCode
from engine.core.numbers import Range, RangeError, number_argument, ranges

REAL = Range("think_s", 0.0, 3600.0, unit="s", code=ErrorCode.PLAN)
WHOLE = Range("slots", 1, 16, whole=True, hint="(0 = automatic)", code=ErrorCode.BAD_OPTION)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, -0.001, 3600.5, 1e300, True, False, "3", None,
                                   [1], b"1"])
def test_a_real_range_refuses_what_comparisons_let_through(value: object) -> None:
    with pytest.raises(RangeError) as caught:
        REAL.check(value)
    assert caught.value.code is ErrorCode.PLAN
    assert caught.value.message == f"think_s must be a number from 0 to 3600 s, got {value!r}"
    assert str(caught.value) == f"E_PLAN: {caught.value.message}"
    assert not REAL.holds(value)


@pytest.mark.parametrize("value", [0, 1e-9, 2.5, 3600, 3600.0])
def test_a_real_range_takes_its_edges_and_what_lies_between_as_floats(value: float) -> None:
    checked = REAL.check(value)
    assert checked == value and type(checked) is float


@pytest.mark.parametrize("value", [0, 17, 2.0, 2.5, True, "4", math.nan, 10**400])
def test_a_whole_range_takes_ints_only(value: object) -> None:
    with pytest.raises(RangeError) as caught:
        WHOLE.check(value)
    assert caught.value.message == f"slots must be a whole number from 1 to 16 (0 = automatic), got {value!r}"


def test_a_whole_range_gives_back_the_int_itself() -> None:
    assert [WHOLE.check(n) for n in (1, 8, 16)] == [1, 8, 16] and type(WHOLE.check(4)) is int


def test_a_refusal_is_a_coded_engine_error_and_a_value_error() -> None:
    """Every caller that caught the seven checks' errors (EngineError, ValueError) still catches it."""
    with pytest.raises(RangeError) as caught:
        WHOLE.check(0)
    assert isinstance(caught.value, EngineError) and isinstance(caught.value, ValueError)
    assert caught.value.range is WHOLE


def test_an_open_range_says_at_least() -> None:
    open_ended = Range("seconds", 0.5, unit="s")
    assert open_ended.check(1e300) == 1e300
    with pytest.raises(RangeError, match=r"^E_INVALID_VALUE: seconds must be a number at least 0.5 s, got inf$"):
        open_ended.check(math.inf)


def test_units_written_against_a_number_or_after_a_space() -> None:
    assert (Range("rate", 1, 2, unit="×").describe(), Range("level", -40, 6, unit="dB").describe()) == (
        "from 1 to 2×", "from -40 to 6 dB")
    assert (Range("rate", 1, 2, unit="×").suffix, Range("level", -40, 6, unit="dB").suffix) == ("×", " dB")


def test_a_narrowed_range_names_its_owner_and_stays_within() -> None:
    speed = Range("speed", 0.25, 4.0, code=ErrorCode.BAD_SETTING)
    narrow = speed.narrowed(0.5, 2.0, "CosyVoice2-0.5B")
    with pytest.raises(RangeError) as caught:
        narrow.check(3.0)
    assert caught.value.message == "speed must be a number from 0.5 to 2 on CosyVoice2-0.5B, got 3.0"
    assert caught.value.code is ErrorCode.BAD_SETTING
    with pytest.raises(ValueError, match="not from 0.25 to 4"):
        speed.narrowed(0.1, 2.0, "a backend")


def test_a_declaration_that_breaks_itself_fails_at_once() -> None:
    with pytest.raises(RangeError):
        Range("level", -40, 6, whole=True, default=-100)
    with pytest.raises(ValueError, match="no range"):
        Range("upside down", 2, 1)
    with pytest.raises(ValueError, match="no range"):
        Range("nowhere", math.nan, 1)


def test_a_table_of_ranges_is_keyed_by_name_and_refuses_with_its_code() -> None:
    table = ranges(Range("a", 0, 1), Range("b", 0, 2, whole=True), code=ErrorCode.PLAN)
    assert list(table) == ["a", "b"] and all(r.code is ErrorCode.PLAN for r in table.values())
    assert table["b"].whole


def test_a_named_range_refuses_under_the_callers_name() -> None:
    time = Range("time", 0.0, 86400.0, unit="s", hint="(24 h)", code=ErrorCode.TIME_RANGE)
    with pytest.raises(RangeError, match=r"^E_TIME_RANGE: line 3 start must be a number from 0 to 86400 s \(24 h\), "
                                         r"got -1$"):
        time.named("line 3 start").check(-1)
    assert dataclasses.replace(time, name="time") == time


@pytest.mark.parametrize("text, shown", [("nan", "nan"), ("inf", "inf"), ("-1", "-1.0"), ("1e400", "inf"),
                                         ("soon", "'soon'")])
def test_a_command_line_number_is_a_usage_error_with_the_ranges_code_and_sentence(text: str, shown: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        number_argument(REAL)(text)
    assert str(caught.value) == f"E_PLAN: think_s must be a number from 0 to 3600 s, got {shown}"
    assert number_argument(REAL)("2.5") == 2.5


@pytest.mark.parametrize("text, shown", [("0", "0"), ("2.5", "2.5"), ("2.0", "2.0"), ("two", "'two'")])
def test_a_whole_command_line_number_is_read_as_an_int(text: str, shown: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=f"got {shown}$"):
        number_argument(WHOLE)(text)
    assert number_argument(WHOLE)("16") == 16

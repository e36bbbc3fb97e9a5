"""A range's refusal is a phrase made from templates declared once in engine/core/numbers.py
(issue 31): the CLI keeps its English sentence, the studio says it in its language, and a range
whose hint or unit is not declared fails when it is made."""

from __future__ import annotations

import pytest

from engine.core.codes import ErrorCode
from engine.core.numbers import (
    HINTS,
    TEMPLATES,
    Range,
    RangeError,
    RangePhrase,
    UnitPhrase,
)
from engine.core.phrases import CODED, Phrase
from tests.test_ranges_documented import declared_ranges


def test_a_refusal_is_the_english_sentence_made_from_declared_templates() -> None:
    speed = Range("speed", 0.25, 4.0, unit="×", hint="(1 = the voice's own rate, 2 = twice as fast)")
    with pytest.raises(RangeError) as refused:
        speed.check(9)
    message = refused.value.message
    assert message == "speed must be a number from 0.25 to 4× (1 = the voice's own rate, 2 = twice as fast), got 9"
    assert isinstance(message, RangePhrase) and message.template in TEMPLATES
    coded = str(refused.value)  # what a caller shows: the code stays, the detail stays a phrase
    assert isinstance(coded, Phrase) and coded.template == CODED and coded.arguments["detail"] is message
    assert coded == f"{ErrorCode.INVALID_VALUE.value}: {message}"


def test_every_declared_ranges_words_are_declared_templates() -> None:
    """Every range the code declares says its refusal and its span with the table's templates."""
    def templates(phrase: Phrase) -> set[str]:
        inner = [value for value in phrase.arguments.values() if isinstance(value, Phrase)]
        return {phrase.template}.union(*(templates(value) for value in inner))

    for allowed in declared_ranges():
        refusal = allowed.refusal(float("nan"))
        assert isinstance(refusal, RangePhrase)
        made = templates(refusal)
        units = {template for template in made if template == allowed.suffix}
        assert made - units <= set(TEMPLATES), (allowed.name, made - set(TEMPLATES))
    unit = Range("t", 0, unit="s").describe().arguments["unit"]  # said in the "units" context
    assert isinstance(unit, UnitPhrase) and unit.template == " s"


def test_a_hint_that_is_not_declared_is_refused_when_the_range_is_made() -> None:
    with pytest.raises(ValueError, match="HINTS"):
        Range("volume", 0, 1, hint="(loud)")
    assert "(0 = off)" in HINTS

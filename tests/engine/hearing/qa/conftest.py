"""Takes shared by the confirmation tests: the six QA lines in joe's own voice, clean."""

from __future__ import annotations

import pytest

from engine.hearing.qa.checks import TakeToMeasure
from tests.engine.helpers import QA_LINES, joe_says


@pytest.fixture(scope="module")
def clean() -> list[TakeToMeasure]:
    return [TakeToMeasure(*joe_says(text), text, "en") for text in QA_LINES]

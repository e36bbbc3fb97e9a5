"""A glossary's checks, and how answers are checked against it."""

from __future__ import annotations

import pytest

from engine.core.codes import ErrorCode
from engine.translation import TranslationError
from engine.translation.glossary import (
    GlossaryEntry,
    entries_in,
    missing_terms,
    validate_glossary,
)


def test_entries_apply_to_the_lines_that_hold_their_wording_whatever_its_case() -> None:
    glossary = [GlossaryEntry("张伟", "Zhang Wei", "name"), GlossaryEntry("Dragon Gate", "龙门")]
    assert entries_in(glossary, "the dragon gate opens") == [glossary[1]]
    assert missing_terms(glossary, "张伟说", "Wei said") == ("Zhang Wei",)
    assert missing_terms(glossary, "张伟说", "ZHANG WEI said") == ()


@pytest.mark.parametrize(("entries", "says"), [
    ([GlossaryEntry(" ", "x")], "source wording is empty"),
    ([GlossaryEntry("x", "")], "target wording is empty"),
    ([GlossaryEntry("x", "y", "place")], "kind must be one of name, term"),
    ([GlossaryEntry("x" * 201, "y")], "at most 200"),
    ([GlossaryEntry("x\ny", "y")], "control character"),
    ([GlossaryEntry("张伟", "Zhang Wei"), GlossaryEntry("张伟", "Wei Zhang")], "already translated as 'Zhang Wei'"),
])
def test_an_entry_that_cannot_be_used_is_refused_by_its_number(entries: list[GlossaryEntry], says: str) -> None:
    with pytest.raises(TranslationError) as caught:
        validate_glossary(entries)
    assert caught.value.code is ErrorCode.INVALID_VALUE and says in caught.value.message
    assert f"entry {len(entries)}" in caught.value.message

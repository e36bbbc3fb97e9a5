"""What every command shares (app/commands/common.py)."""

from __future__ import annotations

from app.commands.common import how_many


def test_counts_on_the_command_line_take_the_number_of_their_noun() -> None:
    assert [how_many(1, "slot"), how_many(3, "slot"), how_many(0, "take")] == ["1 slot", "3 slots", "0 takes"]
    assert how_many(2, "person", "people") == "2 people"

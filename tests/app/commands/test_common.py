"""What every command shares (app/commands/common.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.commands.common import how_many


def test_counts_on_the_command_line_take_the_number_of_their_noun() -> None:
    assert [how_many(1, "slot"), how_many(3, "slot"), how_many(0, "take")] == ["1 slot", "3 slots", "0 takes"]
    assert how_many(2, "person", "people") == "2 people"


def test_the_top_level_help_says_what_each_command_does(capsys: pytest.CaptureFixture[str]) -> None:
    """`dubstudio --help` printed one line of command names: a new user could not tell which one
    transcribes, translates or exports without opening each."""
    from app.cli import COMMANDS, main

    assert main(["--help"]) == 0
    shown = capsys.readouterr().out
    assert "the studio opens" in shown
    for name in COMMANDS:
        assert f"\n    {name}" in shown
    assert "translate the script into the language the project dubs into" in " ".join(shown.split())


def test_help_as_a_word_is_the_help_unless_a_folder_has_that_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`dubstudio help` opened the studio on a project folder "help" (Qt aborted without a screen)."""
    from app.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["help"]) == 0
    assert "the studio opens" in capsys.readouterr().out

"""The project's target language is a setting of its own (issue 31): setting it makes every
character speak it, as one undoable edit, and a translation goes into it by default."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.project import InvalidValueError, Project
from app.project.translation import SetTargetLanguage
from app.project.undo import CommandStack


@pytest.fixture
def project(tmp_path: Path) -> Project:
    made = Project.create(tmp_path / "p", "T")
    made.language = "en"
    made.characters.extend([made.make_character("Maya"), made.make_character("Rex")])
    return made


def test_the_characters_follow_the_target_language_and_undo_puts_theirs_back(project: Project) -> None:
    stack = CommandStack(project)
    stack.push(SetTargetLanguage("zh"))
    assert project.target_language == "zh"
    assert [c.settings.language for c in project.characters] == ["zh", "zh"]
    assert stack.undo_text == "Dub into Chinese (Mandarin)"
    stack.undo()
    assert project.target_language == "" and [c.settings.language for c in project.characters] == ["", ""]


def test_no_target_language_dubs_in_the_originals(project: Project) -> None:
    stack = CommandStack(project)
    stack.push(SetTargetLanguage("ja"))
    stack.push(SetTargetLanguage(""))
    assert project.target_language == "" and {c.settings.language for c in project.characters} == {"en"}


def test_a_target_that_is_no_language_code_is_refused(project: Project) -> None:
    with pytest.raises(InvalidValueError, match="not a language code"):
        SetTargetLanguage("Chinese, please")

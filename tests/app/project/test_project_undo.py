"""Undo/redo: every edit goes through the command stack and comes back exactly."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from app.project import (
    AddCharacter,
    AddLines,
    AssignCharacter,
    Change,
    ChooseTake,
    CommandStack,
    EditCharacter,
    EditCharacters,
    EditLine,
    EditProject,
    InvalidValueError,
    Line,
    LineStatus,
    Macro,
    MergeLines,
    MoveLines,
    Project,
    RemoveCharacter,
    RemoveLines,
    SplitLine,
    UnknownIdError,
    replace_in_lines,
)

from .conftest import add_fake_take, tone


def snapshot(project: Project) -> str:
    return json.dumps(project.to_dict(), sort_keys=True)


def ids(project: Project) -> list[str]:
    return [line.id for line in project.lines]


@pytest.fixture
def stack(project: Project) -> CommandStack:
    return CommandStack(project)


def check_round_trip(stack: CommandStack, command) -> Change:
    """Push, undo, redo: the project must match before/after exactly each time."""
    before = snapshot(stack.project)
    change = stack.push(command)
    after = snapshot(stack.project)
    assert after != before
    stack.undo()
    assert snapshot(stack.project) == before
    stack.redo()
    assert snapshot(stack.project) == after
    return change


def test_add_remove_and_move_lines(stack: CommandStack, project: Project) -> None:
    new = Line(id="n1", text="Inserted.", character_id="rex")
    change = check_round_trip(stack, AddLines([new], index=1))
    assert change.structure and change.lines == {"n1"}
    assert ids(project)[:3] == ["l1", "n1", "l2"]
    check_round_trip(stack, RemoveLines(["l1", "l4", "n1"]))
    assert ids(project) == ["l2", "l3", "l5", "l6"]
    stack.undo()
    assert ids(project) == ["l1", "n1", "l2", "l3", "l4", "l5", "l6"]
    check_round_trip(stack, MoveLines(["l5", "l1"], 0))
    assert ids(project) == ["l1", "l5", "n1", "l2", "l3", "l4", "l6"]
    check_round_trip(stack, MoveLines(["l1"], 99))
    assert ids(project)[-1] == "l1"


def test_removed_lines_come_back_with_their_takes(stack: CommandStack, project: Project) -> None:
    take = add_fake_take(project, project.lines[2], tone(0.5))
    stack.push(RemoveLines(["l3"]))
    stack.undo()
    assert project.line("l3").chosen_take == take.id and project.index_of("l3") == 2


def test_split_a_line_at_the_cursor_and_undo(stack: CommandStack, project: Project) -> None:
    add_fake_take(project, project.lines[1], tone(0.5))
    text = project.line("l2").text  # "I saw them. A ship with no crew." from 4.0 to 6.5 s
    check_round_trip(stack, SplitLine("l2", text.index("A ship")))
    first, second = project.lines[1:3]
    assert (first.text, second.text) == ("I saw them.", "A ship with no crew.")
    assert first.character_id == second.character_id == "rex" and first.id != "l2" != second.id
    # the slot is shared by letters: 11 of 31 go to the first part
    assert first.start == 4.0 and second.end == 6.5 and first.end == second.start == pytest.approx(4.0 + 2.5 * 11 / 31, abs=1e-3)
    assert not first.takes and not second.takes  # the old take says the whole line
    stack.undo()
    assert project.line("l2").takes and len(project.lines) == 6
    with pytest.raises(InvalidValueError, match="both parts"):
        stack.push(SplitLine("l2", 0))
    assert len(project.lines) == 6


def test_merge_lines_and_undo(stack: CommandStack, project: Project) -> None:
    check_round_trip(stack, MergeLines(["l2", "l1"]))  # in script order, whatever the selection's
    merged = project.lines[0]
    assert merged.text == "Did you see the lights past the rocks last night? I saw them. A ship with no crew."
    assert (merged.start, merged.end, merged.character_id) == (0.5, 6.5, "maya") and len(project.lines) == 5
    assert stack.undo_text == "Merge 2 lines"
    stack.undo()
    assert ids(project)[:2] == ["l1", "l2"]
    with pytest.raises(InvalidValueError, match="next to each other"):
        stack.push(MergeLines(["l1", "l3"]))
    assert len(project.lines) == 6


def test_find_and_replace_is_one_undoable_edit(stack: CommandStack, project: Project) -> None:
    command = replace_in_lines(project, "we", "they")  # "We should…", "Then we row…": any case
    assert command is not None and command.text == "Replace 'we' in 2 lines"
    check_round_trip(stack, command)
    assert project.line("l3").text == "they should tell the harbour master."
    assert project.line("l5").text == "Then they row out at dawn."
    assert replace_in_lines(project, "We", "x", match_case=True) is None
    assert replace_in_lines(project, "ship", "boat", line_ids=["l1"]) is None  # l2 has it, l1 does not
    with pytest.raises(InvalidValueError):
        replace_in_lines(project, "", "x")


def test_edit_line_fields(stack: CommandStack, project: Project) -> None:
    check_round_trip(stack, EditLine("l1", text="New words."))
    check_round_trip(stack, EditLine("l3", start=7.0, end=9.5))
    check_round_trip(stack, EditLine("l1", character_id="rex"))
    check_round_trip(stack, EditLine("l1", character_id=None, start=None))
    with pytest.raises(InvalidValueError, match="ends .* before it starts"):
        stack.push(EditLine("l1", start=5.0, end=4.0))
    with pytest.raises(UnknownIdError):
        stack.push(EditLine("l1", character_id="ghost"))
    with pytest.raises(UnknownIdError):
        stack.push(EditLine("nope", text="x"))
    assert stack.undo_text == "Edit line"  # failed pushes are not recorded


def test_typing_merges_into_one_undo_step(stack: CommandStack, project: Project) -> None:
    original = project.line("l1").text
    for text in ("H", "He", "Hey"):
        stack.push(EditLine("l1", text=text, typing=True))
    stack.push(EditLine("l2", text="Other", typing=True))  # another line: a new step
    stack.undo()
    assert project.line("l1").text == "Hey"
    stack.undo()
    assert project.line("l1").text == original
    assert not stack.can_undo
    stack.redo()
    assert project.line("l1").text == "Hey"


def test_typing_does_not_merge_across_a_save(stack: CommandStack, project: Project) -> None:
    stack.push(EditLine("l1", text="A", typing=True))
    stack.mark_clean()
    stack.push(EditLine("l1", text="AB", typing=True))
    assert not stack.is_clean
    stack.undo()
    assert project.line("l1").text == "A" and stack.is_clean


def test_assign_character_to_many_lines(stack: CommandStack, project: Project) -> None:
    change = check_round_trip(stack, AssignCharacter(["l1", "l3", "l5"], "rex"))
    assert change.lines == {"l1", "l3", "l5"}
    assert {project.line(i).character_id for i in ("l1", "l3", "l5")} == {"rex"}
    stack.undo()
    assert [project.line(i).character_id for i in ("l1", "l2", "l3")] == ["maya", "rex", "maya"]


def test_character_edits(stack: CommandStack, project: Project) -> None:
    maya = project.character("maya")
    change = check_round_trip(stack, EditCharacter("maya", name="Maya Q", colour="#123456"))
    assert change.characters == {"maya"} and change.lines == {"l1", "l3", "l5"}  # status may flip
    check_round_trip(stack, EditCharacter("maya", settings=replace(maya.settings, speed=1.3, instruction="sad")))
    check_round_trip(stack, EditCharacter("maya", clip_start=0.5, clip_end=3.0, transcript="cut",
                                           settings=replace(maya.settings, language="fr")))
    check_round_trip(stack, EditCharacter("maya", clip="voices/rex.wav"))
    with pytest.raises(InvalidValueError, match="already exists"):
        stack.push(EditCharacter("maya", name="REX"))
    with pytest.raises(InvalidValueError, match="speed"):
        stack.push(EditCharacter("maya", settings=replace(maya.settings, speed=0)))
    with pytest.raises(InvalidValueError, match="trim"):
        stack.push(EditCharacter("maya", clip_start=3.0, clip_end=2.0))
    with pytest.raises(InvalidValueError, match="no field"):
        EditCharacter("maya", id="other")
    with pytest.raises(Exception, match="outside the project"):
        stack.push(EditCharacter("maya", clip="../elsewhere.wav"))


def test_characters_swap_names_in_one_edit(stack: CommandStack, project: Project) -> None:
    # Cast from library swapping two voices' default numbers: one rename after another was refused
    # ("A character named 'Rex' already exists") and nothing was cast.
    maya, rex = project.character("maya").name, project.character("rex").name
    change = check_round_trip(stack, EditCharacters({"maya": {"name": rex, "colour": "#123456"}, "rex": {"name": maya}},
                                                    "Cast from library"))
    assert change.characters == {"maya", "rex"}
    assert (project.character("maya").name, project.character("rex").name) == (rex, maya)
    before = snapshot(project)
    with pytest.raises(InvalidValueError, match="already exists"):  # still one name per character
        stack.push(EditCharacters({"maya": {"colour": "#654321"}, "rex": {"name": rex.upper()}}, "Rename"))
    assert snapshot(project) == before


def test_add_and_remove_characters(stack: CommandStack, project: Project) -> None:
    narrator = project.make_character("Narrator")
    assert narrator.colour not in {c.colour for c in project.characters}
    check_round_trip(stack, AddCharacter(narrator))
    with pytest.raises(InvalidValueError, match="already exists"):
        stack.push(AddCharacter(project.make_character("narrator")))
    change = check_round_trip(stack, RemoveCharacter("rex"))
    assert change.lines == {"l2", "l4", "l6"}
    assert project.line("l2").character_id is None
    stack.undo()
    assert [c.id for c in project.characters] == ["maya", "rex", narrator.id]
    assert project.line("l2").character_id == "rex"


def test_choose_take_and_project_settings(stack: CommandStack, project: Project) -> None:
    line = project.line("l1")
    first = add_fake_take(project, line, tone(0.5))
    add_fake_take(project, line, tone(0.7))
    line.status = LineStatus.FAILED
    check_round_trip(stack, ChooseTake("l1", first.id))
    assert line.chosen_take == first.id and line.status is LineStatus.DONE
    stack.undo()
    assert line.status is LineStatus.FAILED
    with pytest.raises(UnknownIdError):
        stack.push(ChooseTake("l1", "nope"))
    check_round_trip(stack, EditProject(title="Renamed", gap_s=1.0))
    with pytest.raises(InvalidValueError):
        stack.push(EditProject(gap_s=-1))


def test_import_is_one_step_with_its_characters(stack: CommandStack, project: Project) -> None:
    guest = project.make_character("Guest")
    lines = [Line(id="g1", text="Hello.", character_id=guest.id), Line(id="g2", text="Bye.", character_id="maya")]
    check_round_trip(stack, AddLines(lines, characters=[guest], text="Import guest.srt"))
    assert stack.undo_text == "Import guest.srt"
    stack.undo()
    assert project.character_by_name("Guest") is None and "g1" not in ids(project)
    with pytest.raises(UnknownIdError):
        stack.push(AddLines([Line(id="x", text="?", character_id="ghost")]))
    with pytest.raises(InvalidValueError, match="already exists"):
        stack.push(AddLines([Line(id="l1", text="dup")]))


def test_macro_is_all_or_nothing(stack: CommandStack, project: Project) -> None:
    before = snapshot(project)
    with pytest.raises(UnknownIdError):
        stack.push(Macro([EditLine("l1", text="changed"), EditLine("ghost", text="x")], "Two edits"))
    assert snapshot(project) == before and not stack.can_undo
    check_round_trip(stack, Macro([EditLine("l1", text="a"), AssignCharacter(["l2"], "maya")], "Two edits"))


def test_clean_state_listeners_and_limit(project: Project) -> None:
    stack = CommandStack(project, limit=3)
    seen: list[Change] = []
    stack.add_listener(seen.append)
    assert stack.is_clean and not stack.can_undo and stack.undo() == Change()
    for n in range(5):
        stack.push(EditLine("l1", text=f"v{n}"))
    assert len(seen) == 5 and all(c.lines == {"l1"} for c in seen)
    assert not stack.is_clean
    for _ in range(3):
        stack.undo()
    assert not stack.can_undo and project.line("l1").text == "v1"  # only 3 steps kept
    stack.mark_clean()
    stack.redo()
    assert not stack.is_clean
    stack.undo()
    assert stack.is_clean
    stack.redo()
    stack.mark_clean()
    stack.undo()
    stack.push(EditLine("l2", text="branch"))  # the saved state is in the discarded redo branch
    stack.undo()
    assert not stack.is_clean
    assert stack.redo_text == "Edit text"

"""What a drag on the timeline does to the project, as one undoable command (no Qt).

A drag ends with new start/end times for one or more lines. They become ``EditLine`` commands
in one :class:`~app.project.Macro`, so one undo puts everything back. When a line's new start
passes another line's start, the line also moves in the script (``MoveLines``) to its place in
time: script order is not cosmetic, a line's slot ends where the next line starts, so leaving
a line behind a later one would give it a slot that ends before it begins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.project import Command, EditLine, Macro, MoveLines, Project
from app.project.timeline import MIN_SLOT_S, Slot
from app.project.undo import merge_by_time


@dataclass(frozen=True)
class Retime:
    """A line's timecodes after a drag (both explicit: the timeline shows where it sits)."""

    line_id: str
    start: float
    end: float | None


def visible_end(slot: Slot) -> float:
    """Where the clip is drawn to end: its slot's end, else its take (or estimated) end."""
    return slot.slot_end if slot.slot_end is not None else slot.end


def move(project: Project, slots: Sequence[Slot], delta_s: float) -> list[Retime]:
    """Shift lines by ``delta_s`` (kept at or after 0:00 as a group, so their spacing holds).

    A line's end moves with it when it has one; a line whose slot ends at the next line's
    start keeps that rule (no end is invented for it).
    """
    if not slots:
        return []
    delta_s = max(delta_s, -min(slot.start for slot in slots))
    out = []
    for slot in slots:
        line = project.line(slot.line_id)
        end = None if line.end is None else line.end + delta_s
        out.append(Retime(line.id, round(slot.start + delta_s, 3), None if end is None else round(end, 3)))
    return out


def resize_start(project: Project, slot: Slot, new_start: float) -> Retime:
    """Move a line's start edge, leaving at least :data:`MIN_SLOT_S` before its end."""
    line = project.line(slot.line_id)
    start = min(max(0.0, new_start), visible_end(slot) - MIN_SLOT_S)
    return Retime(line.id, round(max(0.0, start), 3), line.end)


def resize_end(project: Project, slot: Slot, new_end: float) -> Retime:
    """Move a line's end edge (giving it an explicit end), at least :data:`MIN_SLOT_S` after its start."""
    return Retime(slot.line_id, round(slot.start, 3), round(max(new_end, slot.start + MIN_SLOT_S), 3))


def retime_command(project: Project, retimes: Sequence[Retime], text: str) -> Command | None:
    """The undoable command that applies ``retimes``; None when nothing would change."""
    edits: list[Command] = []
    restarted: list[str] = []
    for retime in retimes:
        line = project.line(retime.line_id)
        changes: dict[str, float | None] = {}
        if retime.start != line.start:
            changes["start"] = retime.start
            restarted.append(line.id)
        if retime.end != line.end:
            changes["end"] = retime.end
        if changes:
            edits.append(EditLine(line.id, **changes))  # type: ignore[arg-type]
    if not edits:
        return None
    by_id = {retime.line_id: retime for retime in retimes}
    moved = [replace(project.line(i), start=by_id[i].start, end=by_id[i].end) for i in restarted]
    others = [line for line in project.lines if line.id not in set(restarted)]
    target = [line.id for line in merge_by_time(others, moved)]
    commands = edits + _moves(project, target, set(restarted))
    if len(commands) > 1:
        return Macro(commands, text)
    commands[0].text = text  # "Undo Move line" says more than "Undo Edit timecode"
    return commands[0]


def _moves(project: Project, target: list[str], moving: set[str]) -> list[Command]:
    """MoveLines steps that turn the script's order into ``target``.

    Each moving line, taken in ``target`` order, is put right after the line that precedes it
    there; lines that do not move keep their relative order, so the result is ``target``.
    """
    order = [line.id for line in project.lines]
    commands: list[Command] = []
    for n, line_id in enumerate(target):
        if line_id not in moving:
            continue
        rest = [i for i in order if i != line_id]
        index = rest.index(target[n - 1]) + 1 if n else 0
        placed = rest[:index] + [line_id] + rest[index:]
        if placed != order:
            commands.append(MoveLines([line_id], index))
            order = placed
    return commands

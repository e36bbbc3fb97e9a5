"""`dubstudio cast`: a cast library shared between projects (a series' characters, by voice).

    dubstudio cast add LIBRARY_DIR PROJECT_DIR [--character ID|NAME]...
    dubstudio cast list LIBRARY_DIR [--json]
    dubstudio cast remove LIBRARY_DIR NAME

``add`` saves the project's characters that have a clip (or those named) into the library,
made if missing, under their names: a name already there gets the new clip and settings and
keeps its earlier recordings' voiceprints beside this one. ``transcribe --cast LIBRARY_DIR``
and ``new --transcribe --cast LIBRARY_DIR`` then cast a new episode's speakers from it.
See docs/cast.md.

Exit codes: 0 done, 2 bad arguments or a bad library or project, 6 another process kept the
library locked, 7 the library could not be written.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from app.commands.common import how_many
from app.commands.exit_codes import ExitCode, exit_statuses
from engine.core.codes import ErrorCode

if TYPE_CHECKING:
    from app.commands.common import Subparsers


def add_parser(subparsers: Subparsers) -> None:
    from app.project.cast import WAIT_S

    parser = subparsers.add_parser(
        "cast", help="keep a series' characters in a cast library and cast new episodes from it",
        description="A cast library is a folder (a shared drive) of characters: name, clip, transcript, settings "
        "and voiceprints. " + exit_statuses((ExitCode.OK, "done"), (ExitCode.BAD_INPUT, "bad arguments, library or "
                                            "project"), (ExitCode.LOCKED, "library locked"),
                                            (ExitCode.SAVE_FAILED, "library not written")))
    actions = parser.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="save a project's characters into the library (made if missing)")
    add.add_argument("library", metavar="LIBRARY_DIR")
    add.add_argument("project", metavar="PROJECT_DIR")
    add.add_argument("--character", action="append", default=[], metavar="ID|NAME",
                     help="only this character (repeatable; default: every character that has a clip)")
    add.add_argument("--wait", type=float, default=WAIT_S, metavar="SECONDS",
                     help=f"how long to wait for another writer of the library (default {WAIT_S:.0f})")
    show = actions.add_parser("list", help="the library's characters")
    show.add_argument("library", metavar="LIBRARY_DIR")
    show.add_argument("--json", action="store_true", help="as JSON on stdout")
    remove = actions.add_parser("remove", help="take a character out of the library")
    remove.add_argument("library", metavar="LIBRARY_DIR")
    remove.add_argument("name", metavar="NAME")
    remove.add_argument("--wait", type=float, default=WAIT_S, metavar="SECONDS",
                        help=f"how long to wait for another writer of the library (default {WAIT_S:.0f})")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from app.project import ProjectError

    try:
        if args.action == "add":
            return _add(args)
        if args.action == "remove":
            return _remove(args)
        return _list(args)
    except ProjectError as error:
        print(f"dubstudio cast {args.action}: {error}", file=sys.stderr)
        if error.code is ErrorCode.CAST_LOCKED:
            return ExitCode.LOCKED
        if error.code in (ErrorCode.SAVE_FAILED, ErrorCode.DISK_FULL, ErrorCode.NOT_REGULAR_FILE):
            return ExitCode.SAVE_FAILED
        return ExitCode.BAD_INPUT


def _add(args: argparse.Namespace) -> int:
    from app.project import Project
    from app.project.cast import add_characters, writing
    from app.project.transcription import episode_recording
    from engine.voiceprint.encoder import CamppSpeakerEncoder

    project = Project.load(args.project)
    with writing(args.library, "dubstudio cast add", create=True, wait_s=max(0.0, args.wait)) as library:
        done = add_characters(library, project, args.character, CamppSpeakerEncoder(),
                              lambda character: episode_recording(project, character))
    if not done:
        print(f"dubstudio cast add: {project.root} has no character with a clip to save", file=sys.stderr)
        return ExitCode.BAD_INPUT
    for name, what in done:
        print(f"{what}: {name}")
    print(f"The cast library {library.root} has {how_many(len(library.members), 'character')}")
    return ExitCode.OK


def _remove(args: argparse.Namespace) -> int:
    from app.project.cast import remove_member, writing

    with writing(args.library, "dubstudio cast remove", wait_s=max(0.0, args.wait)) as library:
        remove_member(library, args.name)
    print(f"removed: {args.name}")
    return ExitCode.OK


def _list(args: argparse.Namespace) -> int:
    from app.project.cast import open_library

    library = open_library(args.library)
    rows = [{"name": m.character.name, "id": m.character.id, "clip": m.character.clip,
             "transcript": m.character.transcript, "language": m.character.settings.language,
             "speed": m.character.settings.speed, "pitch_semitones": m.character.settings.pitch_semitones,
             "instruction": m.character.settings.instruction, "recordings": len(m.voiceprints),
             "encoder": m.encoder_id, "sources": m.sources, "updated": m.updated} for m in library.members]
    if args.json:
        print(json.dumps({"library": str(library.root), "characters": rows}, indent=1, ensure_ascii=False))
        return ExitCode.OK
    print(f"{library.root}: {how_many(len(rows), 'character')}")
    for member in library.members:
        print(f"  {member.character.name}: clip {member.character.clip}, {how_many(len(member.voiceprints), 'recording')}, "
              f"language {member.character.settings.language or 'any'}, from {', '.join(member.sources) or '?'}")
    return ExitCode.OK

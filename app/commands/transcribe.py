"""`dubstudio transcribe`: a project's cast and script from its video's own dialogue.

    dubstudio transcribe PROJECT_DIR [--language auto|CODE] [--speakers auto|N] [--translate-to LANG]
                         [--replace] [--model NAME|DIR] [--device auto|cpu|cuda] [--audio-stream N]
                         [--chinese-script simplified|traditional]
                         [--cast LIBRARY_DIR]

Whisper hears the dialogue (voice activity detection skips music and silence), the voices are
told apart, one character "Speaker N" per voice gets its cleanest 5-15 s of the original as a
reference clip with its transcript, and each line is timed from its words. A project that has
lines is refused unless ``--replace`` is given (in the studio the same step can be undone).
``dubstudio new --video FILE --transcribe`` does the same while making the project.

Exit codes: 0 ready to render, 1 transcribed but some characters lack a clip (listed),
2 bad arguments or input (the project is left as it was), 6 the project is open elsewhere,
7 the project could not be saved, 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from app.commands.common import how_many, render_next
from app.commands.exit_codes import ExitCode, exit_statuses
from engine.core.codes import ErrorCode

if TYPE_CHECKING:
    from app.commands.common import Subparsers
    from app.project.transcription import TranscribedScript, TranscribeRequest



def add_transcribe_options(parser: argparse._ActionsContainer) -> None:
    """The options ``transcribe`` and ``new --transcribe`` share (on a parser, or a group of one)."""
    from engine.hearing.chinese import CHINESE_SCRIPTS
    from engine.hearing.whisper import DEFAULT_MODEL

    parser.add_argument("--language", default="auto", metavar="auto|CODE",
                        help="the dialogue's language as a Whisper code (en, es, zh...), or auto to detect it")
    parser.add_argument("--speakers", type=speaker_count, default="auto", metavar="auto|N",
                        help="how many people speak (default: found from their voices)")
    parser.add_argument("--translate-to", default=None, metavar="LANG",
                        help="translate the lines (marked as drafts), keeping the original as each line's source "
                             "text: into en with Whisper's translate task, or into any language with "
                             "--translator openai and its --endpoint (docs/translation.md)")
    parser.add_argument("--model", default=DEFAULT_MODEL, metavar="NAME|DIR",
                        help=f"the Whisper model: {DEFAULT_MODEL} (ships with DubStudio), tiny.en, or a larger "
                             "downloaded one or a model folder (translates far better)")
    parser.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"), help="where Whisper runs")
    parser.add_argument("--chinese-script", default=None, choices=CHINESE_SCRIPTS,
                        help="write Chinese lines in simplified or traditional characters "
                             "(default: the project's setting, simplified unless changed)")
    parser.add_argument("--audio-stream", type=int, default=None, metavar="N",
                        help="the audio stream N of the video that holds the dialogue, when it has several (default: "
                             "the project's dialogue track; for new, the one tagged with --language, else the first); "
                             "new also keeps it as the guide, the M&E's source and the export's original audio")
    parser.add_argument("--cast", default=None, metavar="LIBRARY_DIR",
                        help="cast the speakers found from this cast library (dubstudio cast add): a voice that "
                             "matches a library character surely becomes that character, clip, settings and name")
    from app.commands.translate import add_translator_options

    add_translator_options(parser, model_flag="--translator-model")


def speaker_count(text: str) -> int | None:
    """``--speakers``: None for auto, else a whole number in the speaker count's one range; a
    usage error with its code and sentence otherwise (nan, 1e1, two, 0, 99 alike)."""
    from engine.core.numbers import number_argument
    from engine.hearing.speakers import SPEAKER_COUNT

    return None if text.strip().lower() == "auto" else int(number_argument(SPEAKER_COUNT)(text))


def request_from(args: argparse.Namespace) -> TranscribeRequest:
    """The TranscribeRequest the options describe."""
    from app.commands.translate import uses_whisper
    from app.project.transcription import TranscribeRequest
    from engine.hearing.transcribe import Options

    target = args.translate_to.strip() if args.translate_to else None
    options = Options(language=args.language, speakers=args.speakers,
                      translate_to=target.lower() if target and uses_whisper(args, target) else None,
                      stream_index=args.audio_stream)
    return TranscribeRequest(options, args.model, args.device, args.chinese_script, cast_library=args.cast)


class StageReport:
    """Progress on stderr: a line when a stage starts, at every 10 % of it and at least every
    HEARTBEAT_S (10 % of a two-hour video is minutes of listening), with the time taken so far."""

    HEARTBEAT_S = 30.0

    def __init__(self, out: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.out = out
        self.clock = clock
        self.started = self.printed = clock()
        self.last: tuple[str, int] | None = None

    def __call__(self, stage: str, fraction: float) -> None:
        from app.project.timecode import format_clock

        key, _, note = stage.partition(":")  # "listening:estimated": an estimate of listening
        step, now = (key, int(fraction * 10)), self.clock()
        if step != self.last or now - self.printed >= self.HEARTBEAT_S:
            self.last, self.printed = step, now
            print(f"  {key}: {fraction:.0%}{f' ({note})' if note else ''} ({format_clock(now - self.started, 0)})",
                  file=self.out, flush=True)


def print_result(made: TranscribedScript, out: TextIO) -> None:
    """The language, the cast and the clips a transcription gave."""
    heard = made.transcription
    # Speakers heard with no line (engine.hearing.overlap) are counted here, and are no character.
    lineless = f" and {heard.speakers_without_lines} with no lines" if heard.speakers_without_lines else ""
    print(f"  heard: {len(made.lines)} lines in {heard.language} ({heard.language_probability:.0%} sure), "
          f"{how_many(heard.speaker_count, 'speaker')}{lineless}, {heard.duration_s:.1f} s", file=out)
    for char in made.characters:
        count = sum(1 for line in made.lines if line.character_id == char.id)
        clip = f"clip {char.clip}: \"{char.transcript[:60]}\"" if char.clip else "no clip"
        print(f"  {char.name} ({char.colour}): {how_many(count, 'line')}, {clip}", file=out)
    for line in made.lines:  # heard in another language than its character's: that language's voice speaks it
        if line.language:
            print(f"  a line in {line.language} of its own: \"{line.text[:60]}\"", file=out)
    for match in made.cast_matches:
        print(f"  cast: {match.describe()}", file=out)
    for warning in made.warnings:
        print(f"  warning: {warning}", file=out)


def print_wordless(made: TranscribedScript, err: TextIO) -> None:
    """How much speech gave no words (shown on the studio's timeline), one line on ``err``."""
    from app.project.transcription import wordless_note

    note = wordless_note(made.transcription)
    if note is not None:
        print(note, file=err)


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "transcribe",
        help="make the cast and script from the project's video's dialogue",
        description="Transcribe the dialogue of the project's video into characters (one per voice, each with a "
        "reference clip cut from the original) and timed lines. "
        + exit_statuses((ExitCode.OK, "ready to render"), (ExitCode.FAILED, "some characters lack a clip"),
                        (ExitCode.BAD_INPUT, "bad arguments or input"), (ExitCode.LOCKED, "project locked"),
                        (ExitCode.SAVE_FAILED, "save failed")),
    )
    parser.add_argument("project", metavar="PROJECT_DIR", help="a project that has a video")
    parser.add_argument("--replace", action="store_true", help="replace the project's existing lines")
    add_transcribe_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from app.commands.translate import (
        exit_status_of,
        translate_transcribed,
        uses_whisper,
    )
    from app.project import Project, ProjectError
    from app.project.lock import ProjectLock
    from app.project.readiness import voice_gaps
    from app.project.transcription import transcribe_project
    from app.project.undo import CommandStack

    err = sys.stderr
    cancel = threading.Event()
    try:
        request = request_from(args)
        project = Project.load(args.project)
        lock = ProjectLock.acquire(project.root, "dubstudio transcribe")
    except ProjectError as error:
        print(f"dubstudio transcribe: {error}", file=err)
        return ExitCode.LOCKED if error.code is ErrorCode.PROJECT_LOCKED else ExitCode.BAD_INPUT
    try:
        try:
            stack = CommandStack(project)
            made = transcribe_project(project, stack, request, replace=args.replace,
                                      progress=StageReport(err), cancel=cancel)
            if args.translate_to and not uses_whisper(args, args.translate_to):
                try:
                    made.warnings += translate_transcribed(project, stack, args, args.translate_to.strip())
                except BaseException:
                    made.written.take_back()  # the project stays as it was: no new clips either
                    raise
        except ProjectError as error:
            print(f"dubstudio transcribe: {error}", file=err)
            return exit_status_of(error.code)
        except KeyboardInterrupt:
            cancel.set()
            raise
        try:
            project.save()
        except ProjectError as error:
            made.written.take_back()  # the project stays as it was on disk: no new clips, the old candidates
            print(f"dubstudio transcribe: {error}", file=err)
            return ExitCode.SAVE_FAILED
    finally:
        lock.release()
    print(f"Transcribed {project.root}")
    print_result(made, sys.stdout)
    print_wordless(made, err)
    gaps = voice_gaps(project)
    if gaps:
        print(f"Not ready to render ({how_many(len(gaps.describe()), 'problem')}):")
        for problem in gaps.describe():
            print(f"  - {problem}")
        return ExitCode.FAILED
    print(f"Ready: {render_next(project.root, project.has_picture)}")
    return ExitCode.OK

"""`dubstudio new`: a project from a video (or a recording with no picture), headless.

    dubstudio new PROJECT_DIR (--video FILE | --audio FILE) [--subtitles FILE.srt | --subtitle-stream N |
                  --transcribe [--language auto|CODE] [--speakers auto|N] [--translate-to LANG]]
                  [--voice NAME=CLIP[:TRANSCRIPT_FILE]]... [--guide] [--title TITLE]

Subtitles come from the SRT file, else from the video's first text subtitle stream (or the
one given). ``Name:`` / ``[Name]`` prefixes in the cues create characters; each ``--voice``
gives a character its reference clip (and transcript: the file given, else CLIP.txt beside
the clip, else the words heard in the clip by Whisper, marked as heard). Right after, the command lists lines without a character and characters without
a clip, so they are fixed before a render rather than failing in one. With ``--transcribe`` the
script and the cast come from the video's own dialogue instead (see ``dubstudio transcribe``).
``--audio`` dubs a recording with no picture (a radio drama, a podcast, an audiobook, a dialogue
stem before the picture is locked): everything works as with a video but the finished video,
which has no picture to show.

Exit codes: 0 ready to render, 1 created but some lines or characters still lack a voice,
2 bad arguments or input (nothing is left behind).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.commands.common import (
    add_recogniser_option,
    check_recogniser_model,
    how_many,
    render_next,
)
from app.commands.exit_codes import ExitCode, exit_statuses
from app.commands.transcribe import (
    add_transcribe_options,
    print_result,
    print_wordless,
    request_from,
)
from engine.core.codes import ErrorCode

if TYPE_CHECKING:
    from app.commands.common import Subparsers
    from app.project import Project
    from app.project.new_project import NewProject
    from app.project.transcription import TranscribedScript
    from app.project.undo import CommandStack



def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "new",
        help="make a project from a video or a recording (subtitles, voices, guide track)",
        description="Make a DubStudio project that dubs a video. "
        + exit_statuses((ExitCode.OK, "ready to render"),
                        (ExitCode.FAILED, "created but some lines or characters lack a voice (listed)"),
                        (ExitCode.BAD_INPUT, "bad arguments or input")),
    )
    parser.add_argument("project", metavar="PROJECT_DIR", help="the project folder to create (new or empty)")
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--video", metavar="FILE", help="the video to dub (any format FFmpeg reads)")
    given.add_argument("--audio", metavar="FILE",
                       help="a recording with no picture to dub instead (WAV, FLAC, MP3, M4A...: a radio drama, a "
                            "podcast, a dialogue stem); every export but the finished video")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--subtitles", metavar="FILE.srt",
                        help="the script, as subtitles: SRT, WebVTT (.vtt), ASS/SSA (.ass, .ssa), YouTube SBV (.sbv), "
                             "or a CSV/TSV sheet with character, text, start and end columns")
    source.add_argument("--subtitle-stream", type=int, metavar="N",
                        help="import subtitle stream N of the video (default: its first text subtitle stream)")
    source.add_argument("--no-subtitles", action="store_true", help="start with an empty script")
    source.add_argument("--transcribe", action="store_true",
                        help="make the script and the cast from the video's dialogue (Whisper, speakers, "
                             "reference clips cut from the original)")
    parser.add_argument("--voice", action="append", default=[], metavar="NAME=CLIP[:TRANSCRIPT_FILE]",
                        help="a character's reference clip and optionally its transcript file (repeatable)")
    parser.add_argument("--guide", action="store_true",
                        help="extract the video's original audio as a guide track (media/guide.flac)")
    parser.add_argument("--link", action="store_true",
                        help="use a video that is already inside PROJECT_DIR where it is, instead of copying")
    parser.add_argument("--title", default=None, help="project title (default: the video's file name)")
    parser.add_argument("--keep-language", metavar="CODE", default=None,
                        help="for bilingual subtitles (each cue in two languages, as Chinese subtitles often are): "
                             "the language to dub (zh, en, ...); the other becomes each line's original")
    add_transcribe_options(parser.add_argument_group("with --transcribe"))
    add_recogniser_option(parser)  # hears the clips given without a transcript
    parser.set_defaults(func=run)


def parse_voice(spec: str) -> tuple[str, Path, Path | None]:
    """``NAME=CLIP[:TRANSCRIPT_FILE]`` -> (name, clip, transcript file); ValueError if malformed.

    The transcript is split off at the last colon only when what follows names an existing
    file, so a clip path containing a colon (``C:\\clips\\a.wav``) still works; when the part
    before it is a clip and the whole is no file, the transcript file is the one missing.
    """
    name, sep, rest = spec.partition("=")
    if not sep or not name.strip() or not rest.strip():
        raise ValueError(f"expected NAME=CLIP[:TRANSCRIPT_FILE], got {spec!r}")
    clip, transcript = rest, None
    head, colon, tail = rest.rpartition(":")
    if colon and head and tail and Path(tail).is_file():
        clip, transcript = head, Path(tail)
    elif colon and head and tail and Path(head).is_file() and not Path(rest).exists():
        raise ValueError(f"transcript file not found: {tail}")
    return name.strip(), Path(clip), transcript


def run(args: argparse.Namespace) -> int:
    from app.project import ProjectError
    from app.project.new_project import (
        VoiceSource,
        new_project_from_video,
        read_transcript,
    )

    err = sys.stderr
    if args.voice and (status := check_recogniser_model("new", args.recogniser_model)) is not None:
        return status
    voices: list[VoiceSource] = []
    transcribed: list[TranscribedScript] = []
    try:
        make_script = _transcriber(args, transcribed) if args.transcribe else None
        for spec in args.voice:
            try:
                name, clip, transcript_file = parse_voice(spec)
            except ValueError as error:
                print(f"dubstudio new: {ErrorCode.INVALID_VALUE}: --voice: {error}", file=err)
                return ExitCode.BAD_INPUT
            transcript = read_transcript(transcript_file) if transcript_file is not None else None
            voices.append(VoiceSource(name, clip, transcript))
        made = new_project_from_video(
            args.project,
            args.video or args.audio,
            subtitles=args.subtitles,
            subtitle_stream=args.subtitle_stream,
            use_subtitle_stream=not args.no_subtitles,
            voices=voices,
            guide=args.guide or args.transcribe,  # dubbing from the dialogue keeps the original under it
            copy_video=not args.link,
            title=args.title,
            make_script=make_script,
            keep_language=args.keep_language,
            dialogue=(args.audio_stream, args.language),
            picture=args.video is not None,
        )
    except ProjectError as error:
        from app.commands.translate import exit_status_of

        print(f"dubstudio new: {error}", file=err)
        return exit_status_of(error.code)
    project = made.project
    from app.project.qa import fill_missing_transcripts

    heard = fill_missing_transcripts(project, args.recogniser_model)
    if heard:
        project.save()
    return _print_made(made, transcribed, heard)


def _print_made(made: NewProject, transcribed: list[TranscribedScript], heard: list[str]) -> int:
    """What was made and what is missing before it can render; FAILED when something is."""
    project = made.project
    video = project.video
    assert video is not None
    print(f"Created {project.root}")
    if video.has_picture:
        print(f"  video: {video.path} ({video.width}x{video.height}, {video.fps:g} fps, {video.duration_s:.2f} s, "
              f"{len(video.audio_streams)} audio / {how_many(len(video.subtitle_streams), 'subtitle stream')})")
    else:
        print(f"  audio: {video.path} ({video.duration_s:.2f} s, {how_many(len(video.audio_streams), 'audio stream')}, "
              "no picture: every export but the video)")
    dialogue = video.dialogue_audio()
    if len(video.audio_streams) > 1 and dialogue is not None:
        tracks = ", ".join(f"#{a.index} {a.language or 'und'}{f' {a.title!r}' if a.title else ''}"
                           for a in video.audio_streams)
        print(f"  dialogue: audio stream #{dialogue.index} of {tracks} (--audio-stream N to choose another)")
    if project.guide_audio:
        print(f"  guide track: {project.guide_audio}")
    if made.imported is not None:
        print(f"  script: {len(project.lines)} lines from {made.subtitles_from}; "
              f"characters: {', '.join(c.name for c in project.characters) or 'none'}")
    if transcribed:
        print_result(transcribed[0], sys.stdout)
        print_wordless(transcribed[0], sys.stderr)
    else:
        for warning in made.warnings:
            print(f"  warning: {warning}")
    for line in heard:
        print(f"  voice: {line}")
    if made.gaps:
        print(f"Not ready to render ({how_many(len(made.gaps.describe()), 'problem')}):")
        for problem in made.gaps.describe():
            print(f"  - {problem}")
        print("Give each character a clip (--voice NAME=CLIP, or in the studio) and each line a character.")
        return ExitCode.FAILED
    print(f"Ready: {render_next(project.root, video.has_picture)}")
    return ExitCode.OK


def _transcriber(args: argparse.Namespace,
                 results: list[TranscribedScript]) -> Callable[[Project, CommandStack], list[str]]:
    """The step that transcribes the new project's dialogue; what it made goes into ``results``."""
    import threading
    from dataclasses import replace

    from app.commands.transcribe import StageReport
    from app.commands.translate import translate_transcribed, uses_whisper
    from app.project.transcription import transcribe_project

    request = request_from(args)
    cancel = threading.Event()

    def make_script(project: Project, stack: CommandStack) -> list[str]:
        if args.chinese_script:  # a new project keeps the script it was made in
            project.settings = replace(project.settings, chinese_script=args.chinese_script)
        try:
            made = transcribe_project(project, stack, request, progress=StageReport(sys.stderr), cancel=cancel)
            if args.translate_to and not uses_whisper(args, args.translate_to):
                made.warnings += translate_transcribed(project, stack, args, args.translate_to.strip())
        except KeyboardInterrupt:
            cancel.set()
            raise
        results.append(made)
        return list(made.warnings)

    return make_script

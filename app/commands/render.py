"""`dubstudio render`: batch-dub a project headless, with a progress bar, then export.

The same RenderSession the studio uses, driven by a ``client.get_event()`` loop. Each take is
on disk (and in project.json) the moment it finishes, so an interrupted run loses nothing;
run again with ``--stale-only`` to do just what is left.

With ``--qa`` each take is checked as it lands (see ``dubstudio qa``) by a worker process at the
render's CPU priority (app.project.qa sets it), so verdicts keep pace with the takes; the results are stored
with the takes and printed as they come. With ``--fit`` every take is fitted into its slot (see
app.project.fit); the export report lists the fitted lines, the mix's measured loudness and true
peak, and what still overruns.

The project is locked while it runs (app.project.lock): a second render of the same folder,
or a render of a folder open in the studio, exits at once saying who holds it.

Exit codes: 0 all lines rendered (and exported), 1 some lines failed, 2 bad project or arguments,
3 the engine did not start, 4 an export failed, 5 some takes failed QA (with ``--qa``), 6 the
project is locked by another process, 7 project.json could not be saved (takes of this run are
in takes/ but not recorded), 130 interrupted (Ctrl+C or SIGTERM).
"""

from __future__ import annotations

import argparse
import math
import shutil
import signal
import sys
import time
from dataclasses import dataclass, replace
from functools import partial
from types import FrameType
from typing import TYPE_CHECKING, TextIO

from app.commands.common import (
    add_client_arguments,
    add_recogniser_option,
    check_recogniser_model,
    engine_client_from_args,
    how_many,
    note_use_notices,
    parse_line_list,
)
from app.commands.exit_codes import ExitCode, exit_statuses
from app.project.export_registry import EXPORT_KINDS, EXPORTS
from app.project.fit import describe_too_long, too_long
from app.project.readiness import spoken_languages
from app.project.timecode import format_clock
from app.project.video_export import BURN_TIME_RATIO

if TYPE_CHECKING:
    from app.commands.common import Subparsers
    from app.project import Line, Project
    from app.project.export_registry import ExportContext, ExportFormat
    from app.project.qa import QaWorker
    from app.project.render import RenderProgress, RenderSession, RenderUpdate
    from engine.core.protocol import EngineClientProtocol

CANCEL_CONFIRM_S = 10.0  # after Ctrl+C or SIGTERM, how long to wait for the engine to confirm cancellations


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "render",
        help="render a project's lines through the engine (headless), then optionally export",
        description="Render the lines of a DubStudio project into takes/, with a progress bar. "
        + exit_statuses((ExitCode.OK, "ok"), (ExitCode.FAILED, "some lines failed"),
                        (ExitCode.BAD_INPUT, "bad project or arguments"), (ExitCode.ENGINE, "engine did not start"),
                        (ExitCode.EXPORT, "export failed"), (ExitCode.QA_FAILED, "some takes failed QA (--qa)"),
                        (ExitCode.LOCKED, "project locked by another process"),
                        (ExitCode.SAVE_FAILED, "project.json could not be saved"),
                        (ExitCode.INTERRUPTED, "interrupted")),
    )
    parser.add_argument("project", metavar="PROJECT_DIR", help="the project folder (holding project.json)")
    parser.add_argument("--stale-only", action="store_true",
                        help="render only lines that are stale, not rendered yet, or failed")
    parser.add_argument("--lines", default=None, metavar="LIST",
                        help="render only these line numbers, e.g. 1,3,5-8")
    parser.add_argument("--fit", action="store_true",
                        help="fit every take into its slot: a faster speaking rate first (up to the project's "
                             "fit_max_rate, default 1.25x), then a time-stretch for the rest; lines whose current "
                             "take overruns are redone even with --stale-only")
    parser.add_argument("--export", action="append", default=[], metavar="KIND",
                        help="after rendering, export (repeatable or comma-separated): "
                             + "; ".join(f"{f.name}: {f.help}" for f in EXPORTS))
    video = parser.add_argument_group("video export (--export video)")
    video.add_argument("--video-format", choices=("mp4", "mkv"), default="mp4", help="container (default mp4)")
    video.add_argument("--audio-codec", choices=("aac", "opus"), default="aac", help="the dub's codec (default aac)")
    video.add_argument("--keep-original", action="store_true", help="add the original audio as a second track")
    video.add_argument("--soft-subtitles", action="store_true", help="add the script as a soft subtitle track")
    video.add_argument("--burn-subtitles", choices=("target", "source"), default="",
                       help="draw the subtitles into the picture, in the dub's language (target) or the original's "
                            f"(source); the picture is re-encoded (H.264): {BURN_TIME_RATIO[0]}-{BURN_TIME_RATIO[1]}x as long as "
                            "copying it (docs/video.md)")
    video.add_argument("--language", default="", metavar="CODE",
                       help="ISO 639-2 language of the dub and subtitles, e.g. eng, fre "
                            "(default: the project's target language)")
    stem = parser.add_mutually_exclusive_group()
    stem.add_argument("--music-effects", default=None, metavar="STEM",
                      help="the client's music-and-effects stem (an audio file as long as the video, 44.1 kHz or "
                           "more): checked, kept in the project as media/music_effects.wav, and put under the dub "
                           "(the project's original audio becomes 'music and effects')")
    stem.add_argument("--remove-music-effects", action="store_true",
                      help="take the imported stem out of the project: the original audio goes back to the choice "
                           "before the import, and the file is moved to media/removed/ (never deleted)")
    parser.add_argument("--music-effects-from", choices=("channels", "model"), default=None,
                        help="make the music and effects from the source's channels or with the downloaded "
                             "separation model (dubstudio models download kim-vocal-2), and put them under the dub "
                             "(saved in the project; a client stem still comes first): docs/music-effects.md")
    parser.add_argument("--subtitle-names", action="store_true",
                        help='--export srt/vtt: put "Name: " before each subtitle (default: text only)')
    parser.add_argument("--no-progress", action="store_true", help="print one line per finished line instead")
    parser.add_argument("--qa", action="store_true",
                        help="check each take as it lands (intelligibility, clipping, silences, slot, resemblance)")
    add_recogniser_option(parser)
    add_client_arguments(parser)
    parser.set_defaults(func=run)


def _format_eta(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    return format_clock(seconds, 0)


class ProgressBar:
    """A one-line terminal bar on a TTY; plain log lines elsewhere (CI logs, pipes)."""

    def __init__(self, stream: TextIO, live: bool) -> None:
        self.stream = stream
        self.live = live
        self._drawn = False

    def draw(self, progress: RenderProgress) -> None:
        if not self.live:
            return
        columns = shutil.get_terminal_size((80, 20)).columns
        width = max(10, min(40, columns - 50))
        filled = int(round(width * progress.fraction))
        bar = "#" * filled + "." * (width - filled)
        text = (f"\r[{bar}] {progress.completed}/{progress.total}"
                f"  rendering {progress.rendering}  ETA {_format_eta(progress.eta_s)}")
        if progress.failed:
            text += f"  failed {progress.failed}"
        self.stream.write(text[: columns - 1].ljust(columns - 1))
        self.stream.flush()
        self._drawn = True

    def fraction(self, label: str, fraction: float) -> None:
        """A bar for a long step that knows only how far it is (an export)."""
        columns = shutil.get_terminal_size((80, 20)).columns
        width = max(10, min(40, columns - 40))
        filled = int(round(width * max(0.0, min(1.0, fraction))))
        text = f"\r[{'#' * filled}{'.' * (width - filled)}] {label} {fraction:.0%}"
        self.stream.write(text[: columns - 1].ljust(columns - 1))
        self.stream.flush()
        self._drawn = True

    def log(self, message: str) -> None:
        if self._drawn:
            self.stream.write("\n")
            self._drawn = False
        self.stream.write(message + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


class _StopRequest:
    """Ctrl+C and SIGTERM as a flag while the render loop reads the engine's events.

    A KeyboardInterrupt raised inside a queue read can cut a message in half and desynchronise
    the pipe (seen: UnpicklingError, or a confirmation that never comes), so the first signal
    only asks the loop to cancel; a second one raises to quit at once.
    """

    def __init__(self) -> None:
        self.requested = False
        self._previous = {sig: signal.signal(sig, self._handle) for sig in (signal.SIGINT, signal.SIGTERM)}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def restore(self) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)


def _describe(project: Project, line: Line) -> str:
    name = project.character(line.character_id).name if line.character_id else "no character"
    return f"line {project.order_of(line.id)} ({name})"


def run(args: argparse.Namespace) -> int:
    from app.project import ProjectError, ProjectLockedError
    from app.project.lock import load_locked

    err = sys.stderr
    kinds = [k.strip() for item in args.export for k in item.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in EXPORT_KINDS]
    if unknown:
        print(f"dubstudio render: unknown export {', '.join(unknown)}; choose from {', '.join(EXPORT_KINDS)}",
              file=err)
        return ExitCode.BAD_INPUT
    if args.qa and (status := check_recogniser_model("render", args.recogniser_model)) is not None:
        return status
    try:
        project, lock = load_locked(args.project, "dubstudio render")
    except ProjectLockedError as error:
        print(f"dubstudio render: {error}", file=err)
        return ExitCode.LOCKED
    except ProjectError as error:
        print(f"dubstudio render: {error}", file=err)
        return ExitCode.BAD_INPUT
    with lock:
        return _run_locked(project, kinds, args)


def _run_locked(project: Project, kinds: list[str], args: argparse.Namespace) -> int:
    """The render and exports, holding the project's lock."""
    from app.project import ProjectError
    from app.project.render import RenderSession, select_lines

    err = sys.stderr

    line_ids = None
    if args.lines:
        try:
            numbers = parse_line_list(args.lines, len(project.lines))
        except ValueError as error:
            print(f"dubstudio render: --lines: {error}", file=err)
            return ExitCode.BAD_INPUT
        line_ids = [project.lines[n - 1].id for n in numbers]

    from app.project.export_registry import ExportContext, export_format
    from app.project.video_export import VideoExportOptions

    context = ExportContext(video=VideoExportOptions(
        container=args.video_format, audio_codec=args.audio_codec, keep_original=args.keep_original,
        subtitles=args.soft_subtitles, language=args.language, title=f"{project.title} (dub)",
        burn_subtitles=args.burn_subtitles), subtitle_names=args.subtitle_names)
    if (status := _music_effects_options(project, args)) is not None:
        return status
    formats = [export_format(kind) for kind in kinds]
    for fmt in formats:  # before rendering: a render is long, and an export that cannot start wastes it
        try:
            fmt.check(project, context)
        except ProjectError as error:
            print(f"dubstudio render: --export {fmt.name}: {error}", file=err)
            return ExitCode.BAD_INPUT

    bar = ProgressBar(err, live=err.isatty() and not args.no_progress)
    code: int = ExitCode.OK
    fit = True if args.fit else None
    if not select_lines(project, line_ids, stale_only=args.stale_only, fit=fit):
        bar.log(f"Nothing to render: all {len(project.lines)} lines are up to date.")
    else:
        session = RenderSession(project, line_ids, stale_only=args.stale_only, fit=fit)
        try:
            code = _render(project, session, args, bar)
        except KeyboardInterrupt:
            if not _save(project, bar):
                return ExitCode.SAVE_FAILED
            bar.log("Interrupted; finished takes are saved in takes/ and project.json.")
            return ExitCode.INTERRUPTED
        if code in (ExitCode.ENGINE, ExitCode.INTERRUPTED, ExitCode.SAVE_FAILED):
            return code

    if formats:
        code = max(code, _export(project, formats, bar, context))
    return code


def _music_effects_options(project: Project, args: argparse.Namespace) -> int | None:
    """The stem imported or removed, then the M&E source chosen, as the options say; an exit
    status when one cannot be."""
    if args.music_effects is not None and (status := _import_music_effects(project, args.music_effects)) is not None:
        return status
    if args.remove_music_effects and (status := _remove_music_effects(project)) is not None:
        return status
    if args.music_effects_from is not None:
        return _choose_music_effects(project, args.music_effects_from)
    return None


def _import_music_effects(project: Project, stem: str) -> int | None:
    """Import the client's M&E stem and put it under the dub; an exit status when it cannot be."""
    from pathlib import Path

    from app.project import ProjectError
    from app.project.music_effects import import_stem

    try:
        import_stem(project, Path(stem))
        project.settings.guide_mix = "music-effects"
        project.save()
    except ProjectError as error:
        print(f"dubstudio render: --music-effects: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    print(f"M&E: client stem {Path(stem).name}, kept as media/music_effects.wav, under the dub", file=sys.stderr)
    return None


def _remove_music_effects(project: Project) -> int | None:
    """Take the imported M&E stem out of the project, saved; an exit status when it cannot be."""
    from app.project import ProjectError
    from app.project.music_effects import RemoveStem

    removing = RemoveStem()
    try:
        removing.do(project)
        project.save()
    except ProjectError as error:
        print(f"dubstudio render: --remove-music-effects: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    print(f"M&E: the client stem is out of the project (kept as {removing.set_aside}); "
          f"original audio: {project.settings.guide_mix}", file=sys.stderr)
    return None


def _choose_music_effects(project: Project, source: str) -> int | None:
    """Put the M&E made from ``source`` under the dub, saved in the project; an exit status when it cannot be."""
    from app.project import ProjectError

    project.settings.guide_mix, project.settings.music_effects_source = "music-effects", source
    try:
        project.save()
    except ProjectError as error:
        print(f"dubstudio render: --music-effects-from: {error}", file=sys.stderr)
        return ExitCode.SAVE_FAILED
    return None


def _flag_unspoken_languages(project: Project, backend: str, declared: tuple[str, ...],
                             args: argparse.Namespace, bar: ProgressBar) -> None:
    """Before the first job: every line the engine's backend cannot speak, with how to fix it
    (the engine refuses them with E_LANGUAGE_UNSUPPORTED; the rest render)."""
    from app.project.readiness import language_gaps
    from app.project.render import select_lines
    from engine.synthesis.backends import declared_languages

    wanted = None
    if args.lines:
        wanted = [project.lines[n - 1].id for n in parse_line_list(args.lines, len(project.lines))]
    rendered = select_lines(project, wanted, stale_only=args.stale_only, fit=True if args.fit else None)
    gaps = language_gaps(project, backend, declared, declared_languages(), [line.id for line in rendered])
    if gaps:
        bar.log(f"{len(gaps)} line{'s are' if len(gaps) != 1 else ' is'} in a language {backend} cannot speak "
                "and will not be rendered:")
        for gap in gaps:
            bar.log(f"  {gap.describe()}")


def _render(project: Project, session: RenderSession, args: argparse.Namespace, bar: ProgressBar) -> int:
    from app.project.qa import QaWorker
    from engine.synthesis.client.local import EngineStartError

    qa = QaWorker() if args.qa else None
    try:
        client = engine_client_from_args(args)
    except EngineStartError as error:
        bar.log(f"dubstudio render: {error.code.value}: {error}")
        return ExitCode.ENGINE
    where = f"on {args.engine_url}" if args.engine_url else f"({args.backend})"
    bar.log(f"Starting the engine {where}...")
    try:
        try:
            ready = client.start(on_progress=lambda stage: bar.log(f"  engine {stage.pid}: {stage.stage}"))
        except EngineStartError as error:
            bar.log(f"dubstudio render: {error.code.value}: {error}")
            return ExitCode.ENGINE
        _flag_unspoken_languages(project, ready.backend.name, ready.backend.languages, args, bar)
        note_use_notices(ready.backend.name, spoken_languages(project, session.lines))
        started = time.monotonic()
        update = session.start(client)
        bar.log(f"Rendering {how_many(update.progress.total, 'line')} with {how_many(ready.slots, 'slot')} on {ready.backend.name}.")
        run = _RenderRun(project, session, args, bar, qa, {line.id: line for line in session.lines})
        for line in session.failed_lines:
            bar.log(f"  {_describe(project, line)} cannot render: {line.error}")
        run.follow(client)
        bar.finish()
        render_s = time.monotonic() - started
        if qa is not None and qa.pending and not run.interrupted:
            bar.log(f"Checking the last {how_many(qa.pending, 'take')}...")
            while qa.pending:
                run.qa_failed += _collect_qa(project, qa, bar, timeout=1.0)
    finally:
        client.close()
        if qa is not None:
            qa.close()
    return run.conclude(started, render_s)


@dataclass
class _RenderRun:
    """One render's event loop, what it tells on the way, and its outcome."""

    project: Project
    session: RenderSession
    args: argparse.Namespace
    bar: ProgressBar
    qa: QaWorker | None
    by_id: dict[str, Line]
    qa_failed: int = 0
    interrupted: bool = False
    save_failed: bool = False

    def follow(self, client: EngineClientProtocol) -> None:
        """Hand the engine's events to the session until it is finished, cancelling on Ctrl+C."""
        give_up_at = math.inf  # once interrupted: when to stop waiting for the engine's confirmations
        stop = _StopRequest()
        try:
            while not self.session.finished:
                if stop.requested and not self.interrupted:
                    self.interrupted = True
                    give_up_at = time.monotonic() + CANCEL_CONFIRM_S
                    self.bar.log("Interrupted: cancelling (finished takes are saved; Ctrl+C again to quit now)...")
                    self.session.cancel()
                    continue
                if time.monotonic() > give_up_at:
                    # A confirmation that never comes must not hold the command: a service
                    # manager's SIGTERM comes only once.
                    self.bar.log(f"The engine did not confirm every cancellation within {CANCEL_CONFIRM_S:.0f} s; "
                                 "stopping without them.")
                    break
                self._tell(self.session.handle_event(client.get_event(timeout=0.5)))
        finally:
            stop.restore()

    def _tell(self, update: RenderUpdate) -> None:
        """Print what an event changed, and send each new take to QA."""
        from app.project import LineStatus
        from app.project.qa import request_for

        project, bar, by_id = self.project, self.bar, self.by_id
        for line_id, take in update.takes:
            if not bar.live:
                fitted = f" ({take.fit.describe()})" if take.fit else ""
                if take.fit and (over := too_long(project, by_id[line_id])) is not None:
                    fitted += f"; {describe_too_long(over)}"
                bar.log(f"[{update.progress.completed}/{update.progress.total}] "
                        f"{_describe(project, by_id[line_id])} done, {take.duration_s:.2f} s{fitted}")
            if self.qa is not None:
                self.qa.submit(request_for(project, by_id[line_id], take, self.args.recogniser_model))
        if self.qa is not None:
            self.qa_failed += _collect_qa(project, self.qa, bar, timeout=0.0)
        for line_id in update.lines:
            if by_id[line_id].status is LineStatus.FAILED:
                bar.log(f"  {_describe(project, by_id[line_id])} failed: {by_id[line_id].error}")
        for problem in update.errors:  # a failed save: the command fails unless a later save works
            bar.log(f"  error: {problem}")
            self.save_failed = True
        bar.draw(update.progress)  # also on idle polls, so the ETA keeps ticking

    def conclude(self, started: float, render_s: float) -> int:
        """Save what QA found, print the summary and return the exit status."""
        progress, bar = self.session.progress, self.bar
        # QA results are saved unchecked as they come.
        if (self.save_failed or self.qa is not None) and not _save(self.project, bar):
            bar.log(f"dubstudio render: {progress.done} of {progress.total} lines were spoken, but project.json "
                    "could not be saved, so their takes (in takes/) are not recorded in the project.")
            return ExitCode.SAVE_FAILED
        summary = f"Rendered {progress.done} of {progress.total} lines in {render_s:.1f} s"
        if progress.failed:
            summary += f"; {progress.failed} failed"
        if progress.cancelled:
            summary += f"; {progress.cancelled} cancelled"
        if self.qa is not None:
            summary += f"; QA done {time.monotonic() - started - render_s:.1f} s later"
            summary += f", {how_many(self.qa_failed, 'take')} failed it" if self.qa_failed else ", no take failed it"
        bar.log(summary + ".")
        if self.interrupted:
            return ExitCode.INTERRUPTED
        if progress.failed:
            return ExitCode.FAILED
        return ExitCode.QA_FAILED if self.qa_failed else ExitCode.OK


def _collect_qa(project: Project, qa: QaWorker, bar: ProgressBar, timeout: float) -> int:
    """Store and print the QA results ready now; returns how many takes failed."""
    from app.project import ProjectError
    from app.project.qa import error_said, placements, record, report_row

    failed = 0
    outcomes = qa.poll(timeout)
    if not outcomes:
        return 0
    placed = placements(project)
    for outcome in outcomes:
        take = record(project, outcome)
        try:
            line = project.line(outcome.line_id)
            take = take or project.take(line, outcome.take_id)
        except ProjectError:
            continue  # the line or take is gone
        row = report_row(project, line, take, outcome, placed.get(line.id))
        verdict = {True: "passed", False: "FAILED", None: "not fully checked"}[row["passed"]]
        bar.log(f"  QA {_describe(project, line)}: {verdict} ({error_said(row)})")
        for reason in row["reasons"]:
            bar.log(f"      {reason}")
        failed += row["passed"] is False
    try:
        project.save()
    except ProjectError as error:
        bar.log(f"  warning: the QA results could not be saved: {error}")
    return failed


def _save(project: Project, bar: ProgressBar) -> bool:
    """One more try at saving project.json (after a save failed during the run, or QA ran)."""
    from app.project import SaveError

    try:
        project.save()
    except SaveError as error:
        bar.log(f"dubstudio render: {error}")
        return False
    return True


def _draw_export(bar: ProgressBar, name: str, fraction: float) -> None:
    bar.fraction(f"exporting {name}", fraction)


def _export(project: Project, formats: list[ExportFormat], bar: ProgressBar, context: ExportContext) -> int:
    """Run the exports and print what each wrote and what the user should know about it."""
    from app.project import ProjectError
    from app.project.export_registry import export_summary

    code = ExitCode.OK
    for fmt in formats:
        if bar.live:  # a long export (the video) draws its progress; the others never call it
            context = replace(context, progress=partial(_draw_export, bar, fmt.name))
        try:
            result = fmt.run(project, None, context)
        except ProjectError as error:
            bar.log(f"dubstudio render: export {fmt.name} failed: {error}")
            code = ExitCode.EXPORT
            continue
        summary = export_summary(project, fmt, result, qa_hint="see dubstudio qa")
        bar.log(summary.headline)
        for line in summary.notes + summary.details:
            bar.log(f"  {line}")
    return code

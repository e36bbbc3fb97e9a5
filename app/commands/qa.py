"""`dubstudio qa`: check the current takes of a project as they are on disk.

Each line's chosen take is listened to again (recogniser, level, silences, resemblance to the
character's clip) and judged with the project's thresholds and the line's slot. A table goes
to stdout (or, with ``--json``, one JSON object per take); the audio is only read. With
``--save`` the measurements are also stored with the takes in project.json, where the studio
shows them.

``--recogniser-model`` chooses the Whisper model (``base``, ``tiny.en``, a downloaded one, or a
model folder); ``--download-model NAME`` downloads one of the hub models (resumable) instead of
checking a project.

Exit codes: 0 no take failed (takes that could not be heard, a language the model does not know
or no model, count as not checked, not failed), 1 at least one take failed QA or could not be
read (or a download failed), 2 bad project or arguments (also when ``--save`` finds the project
open in another process: E_PROJECT_LOCKED).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from app.commands.common import (
    add_recogniser_option,
    check_recogniser_model,
    how_many,
    in_columns,
    parse_line_list,
    run_download,
)
from app.commands.exit_codes import ExitCode, exit_statuses
from engine.core.codes import ErrorCode, QaCode

if TYPE_CHECKING:
    from app.commands.common import Subparsers
    from app.project import Line, Project, Take
    from app.project.qa import ReportRow


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "qa",
        help="check the chosen takes of a project (intelligibility, clipping, silences, slot, resemblance)",
        description="Check each line's chosen take as it is on disk and print a table. "
        + exit_statuses((ExitCode.OK, "no take failed"), (ExitCode.FAILED, "some take failed QA"),
                        (ExitCode.BAD_INPUT, "bad project or arguments")),
    )
    parser.add_argument("project", metavar="PROJECT_DIR", nargs="?",
                        help="the project folder (holding project.json)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per take instead of a table")
    parser.add_argument("--lines", default=None, metavar="LIST", help="check only these line numbers, e.g. 1,3,5-8")
    parser.add_argument("--save", action="store_true", help="store the results with the takes in project.json")
    add_recogniser_option(parser)
    parser.add_argument("--download-model", metavar="NAME", default=None,
                        help="download a Whisper model from the model hub (small, medium, large-v3, turbo) "
                             "into the user's model folder, resuming a partial download, and exit")
    parser.add_argument("--hub-endpoint", default=None, metavar="URL", help=argparse.SUPPRESS)  # a mirror or a test hub
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from app.project import Project, ProjectError
    from app.project.lock import load_locked

    if args.download_model is not None:
        return _download(args.download_model, args.hub_endpoint)
    if args.project is None:
        print("dubstudio qa: give a PROJECT_DIR to check (or --download-model NAME)", file=sys.stderr)
        return ExitCode.BAD_INPUT
    if (status := check_recogniser_model("qa", args.recogniser_model)) is not None:
        return status

    try:  # --save writes project.json: hold the project's lock, as render and the studio do
        project, lock = load_locked(args.project, "dubstudio qa --save") if args.save else (
            Project.load(args.project), None)
    except ProjectError as error:
        print(f"dubstudio qa: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    try:
        return _check(project, args)
    finally:
        if lock is not None:
            lock.release()


def _check(project: Project, args: argparse.Namespace) -> int:
    from app.project import ProjectError
    from app.project.qa import quiet_third_party_warnings

    quiet_third_party_warnings()

    err = sys.stderr
    lines = project.lines
    if args.lines:
        try:
            lines = [project.lines[n - 1] for n in parse_line_list(args.lines, len(project.lines))]
        except ValueError as error:
            print(f"dubstudio qa: --lines: {error}", file=err)
            return ExitCode.BAD_INPUT
    to_check = [(line, take) for line in lines if (take := project.chosen_take(line)) is not None]
    if not to_check:
        print(f"dubstudio qa: no takes to check: {'the line has' if len(lines) == 1 else f'none of the {len(lines)} lines has'} a take yet", file=err)
        return ExitCode.OK
    rows = _check_takes(project, to_check, args)
    if not args.json:
        if err.isatty():
            err.write("\r" + " " * 40 + "\r")
        _print_table(project, rows)
    if args.save:
        try:
            project.save()
        except ProjectError as error:
            print(f"dubstudio qa: the results could not be saved: {error}", file=err)
            return ExitCode.BAD_INPUT
    failed = sum(1 for row in rows if row["passed"] is False)
    unchecked = sum(1 for row in rows if row["passed"] is None)
    summary = f"{how_many(len(rows), 'take')} checked: {len(rows) - failed - unchecked} passed, {failed} failed"
    if unchecked:
        summary += f", {unchecked} not fully checked (see {QaCode.NOT_CHECKED})"
    print(summary + ".", file=err)
    return ExitCode.FAILED if failed else ExitCode.OK


def _check_takes(project: Project, to_check: list[tuple[Line, Take]], args: argparse.Namespace) -> list[ReportRow]:
    """Check the takes in batches whose short takes share Whisper windows, as the studio's and
    render --qa's checker does (saving the results with --save), printing each row with --json."""
    from app.project import ProjectError
    from app.project.qa import (
        MAX_BATCH,
        QaOutcome,
        QaRequest,
        TakeChecker,
        placements,
        record,
        report_row,
        request_for,
    )

    err = sys.stderr
    checker = TakeChecker()
    placed = placements(project)
    rows: list[ReportRow] = []
    for first in range(0, len(to_check), MAX_BATCH):
        batch = to_check[first:first + MAX_BATCH]
        if not args.json and err.isatty():
            err.write(f"\rChecking takes {first + 1}–{first + len(batch)} of {len(to_check)}…")
            err.flush()
        outcomes: dict[int, QaOutcome] = {}
        requests: list[tuple[int, QaRequest]] = []
        for index, (line, take) in enumerate(batch):
            try:
                requests.append((index, request_for(project, line, take, args.recogniser_model)))
            except ProjectError as error:  # a take path that escapes the project
                outcomes[index] = QaOutcome(line.id, take.id, None, f"{ErrorCode.TAKE_UNREADABLE}: {error}")
        checked = checker.check_batch([request for _, request in requests])
        outcomes |= {index: outcome for (index, _), outcome in zip(requests, checked, strict=True)}
        for index, (line, take) in enumerate(batch):
            outcome = outcomes[index]
            if args.save and record(project, outcome) is not None:
                take = project.chosen_take(line) or take
            row = report_row(project, line, take, outcome, placed.get(line.id))
            rows.append(row)
            if args.json:
                print(json.dumps(row, ensure_ascii=False), flush=True)
    return rows


def _print_table(project: Project, rows: list[ReportRow]) -> None:
    """A fixed-width table, then one indented line per finding under the take it concerns."""
    from app.project.qa import error_said

    def number(value: float | None, spec: str) -> str:
        return "—" if value is None else format(value, spec)

    print(f"{'line':>4}  {'character':<12} {'lang':<4} {'error':>9} {'clip%':>6} {'silence lead/in/trail s':>23} "
          f"{'overrun':>7} {'resembl.':>8}  verdict")
    for row in rows:
        line = project.line(row["line_id"])
        name = project.character(line.character_id).name if line.character_id else "—"
        silence = row["silence_s"]
        silences = "—" if silence is None else \
            f"{silence['leading']:.2f} / {silence['inner']:.2f} / {silence['trailing']:.2f}"
        verdict = {True: "passed", False: "FAILED", None: "not checked"}[row["passed"]]
        clipping = None if row["clipping"] is None else 100 * row["clipping"]
        error = error_said(row)
        print(f"{row['line']:>4}  {in_columns(name, 12)} {(row['language'] or '—')[:4]:<4} {error:>9} {number(clipping, '.2f'):>6} "
              f"{silences:>23} {number(row['overrun_s'], '.2f'):>7} {number(row['resemblance'], '.2f'):>8}  {verdict}")
        for reason in row["reasons"]:
            print(f"{'':6}{reason}")


def _download(name: str, endpoint: str | None) -> int:
    """Download hub model ``name`` with a progress line on stderr; exit code."""
    from engine.core.downloads import DownloadProgress
    from engine.core.protocol import EngineError
    from engine.hearing.whisper import download_whisper, model_folder

    def progress_line(report: DownloadProgress) -> str:
        total = f" of {report.total_bytes / 1e6:.0f}" if report.total_bytes else ""
        return f"{report.done_bytes / 1e6:.0f}{total} MB, file {report.files_done}/{report.files_total}"

    try:
        return run_download("dubstudio qa", lambda progress: download_whisper(name, endpoint=endpoint, progress=progress),
                            progress_line, failed=f"the download of Whisper {name} failed",
                            incomplete=f"Whisper {name} is incomplete",
                            ready=lambda: f"Whisper {name} is ready in {model_folder(name)}")
    except EngineError as error:
        print(f"dubstudio qa: --download-model: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT

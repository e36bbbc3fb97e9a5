"""`dubstudio translate`: a project's lines into the language it dubs into, through a translator.

    dubstudio translate PROJECT_DIR --to LANG [--translator openai] [--lines 1,3-5]
                        [--endpoint URL] [--model NAME] [--timeout S] [--batch N] [--set-key]

The openai translator speaks to any OpenAI-compatible chat-completions endpoint (Ollama,
llama.cpp's server, vLLM, hosted ones): ``--endpoint`` and ``--model``, else
$DUBSTUDIO_TRANSLATOR_URL and $DUBSTUDIO_TRANSLATOR_MODEL, else the endpoint last used (here or
in the studio). Its key comes from
$DUBSTUDIO_TRANSLATOR_KEY, else from where ``--set-key`` (a line read from stdin) or the studio
kept it: the OS keyring, else a file only you can read; never project.json or the output. Each
line's budget (its slot times the language's pace) goes with it; the result says how many lines
fit. Progress goes to stderr. Nothing is saved unless every chosen line was translated: a failure
or Ctrl+C leaves the project as it was.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from typing import TYPE_CHECKING

from app.commands.common import how_many
from app.commands.exit_codes import ExitCode, exit_statuses
from engine.core.codes import ErrorCode
from engine.core.numbers import number_argument
from engine.translation.chat import BATCH_LINES, TIMEOUT

if TYPE_CHECKING:
    from app.commands.common import Subparsers
    from app.project import Project
    from app.project.translation import ApplyTranslation, TranslateRequest
    from app.project.undo import CommandStack

URL_ENV, MODEL_ENV, KEY_ENV = "DUBSTUDIO_TRANSLATOR_URL", "DUBSTUDIO_TRANSLATOR_MODEL", "DUBSTUDIO_TRANSLATOR_KEY"
# Codes that mean the translator, not the input, failed (exit 8); the others are bad input (exit 2).
TRANSLATOR_FAILURES = frozenset({ErrorCode.TRANSLATOR_UNREACHABLE, ErrorCode.TRANSLATOR_KEY,
                                 ErrorCode.TRANSLATOR_RATE_LIMIT, ErrorCode.TRANSLATOR_FAILED,
                                 ErrorCode.TRANSLATION_ANSWER, ErrorCode.TRANSLATION_CONTEXT})


def add_translator_options(parser: argparse._ActionsContainer, model_flag: str = "--model") -> None:
    """The endpoint options ``translate`` and ``new --translate-to`` share (``new`` has a Whisper
    ``--model`` already: its translator's is ``--translator-model``)."""
    from engine.translation.registry import TRANSLATORS

    parser.add_argument("--translator", default=None, choices=list(TRANSLATORS),
                        help="; ".join(f"{d.name} = {d.label}" for d in TRANSLATORS.values()))
    parser.add_argument("--endpoint", default=None, metavar="URL",
                        help=f"the chat-completions endpoint's base URL, e.g. http://localhost:11434/v1 (Ollama); "
                             f"default ${URL_ENV}, else the one last used")
    parser.add_argument(model_flag, dest="translator_model", default=None, metavar="NAME",
                        help=f"the endpoint's model, e.g. qwen2.5:7b; default ${MODEL_ENV}, else the one last used")
    parser.add_argument("--timeout", type=number_argument(TIMEOUT), default=TIMEOUT.default, metavar="S",
                        help=f"seconds one answer may take, {TIMEOUT.describe()} (default {TIMEOUT.default:g})")
    parser.add_argument("--batch", type=number_argument(BATCH_LINES), default=BATCH_LINES.default, metavar="N",
                        help=f"lines per request, {BATCH_LINES.describe()} (default {BATCH_LINES.default:g})")
    parser.add_argument("--set-key", action="store_true",
                        help="read the endpoint's API key from stdin (one line) and keep it for next time "
                             "(the OS keyring, else a file only you can read)")


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "translate",
        help="translate the script into the language the project dubs into",
        description="Translate the project's lines through a chat-completions endpoint, each within its slot's "
        "budget, as drafts that keep the original as their source text. "
        + exit_statuses((ExitCode.OK, "translated"), (ExitCode.BAD_INPUT, "bad arguments or input"),
                        (ExitCode.LOCKED, "project locked"), (ExitCode.SAVE_FAILED, "save failed"),
                        (ExitCode.TRANSLATOR, "the translator failed (the project is unchanged)"),
                        (ExitCode.INTERRUPTED, "interrupted (the project is unchanged)")),
    )
    parser.add_argument("project", metavar="PROJECT_DIR", help="the project to translate")
    parser.add_argument("--to", required=True, metavar="LANG", help="the language to dub into: en, zh, ja, es, pt-BR...")
    parser.add_argument("--lines", default=None, metavar="1,3-5", help="only these lines (default: every line)")
    add_translator_options(parser)
    parser.set_defaults(func=run)


def translate_request(args: argparse.Namespace, target: str,
                      line_ids: tuple[str, ...] | None = None) -> TranslateRequest:
    """The request the options describe; TranslateError (E_TRANSLATOR) when the endpoint is missing."""
    from app.project.translation import TranslateError, TranslateRequest
    from engine.translation import TranslationError
    from engine.translation.chat import Endpoint
    from engine.translation.keys import (
        load_key,
        remember_endpoint,
        remembered_endpoint,
        store_key,
    )
    from engine.translation.registry import TEXT_TRANSLATOR

    last_url, last_model = remembered_endpoint()
    url = args.endpoint or os.environ.get(URL_ENV, "") or last_url
    model = args.translator_model or os.environ.get(MODEL_ENV, "") or (last_model if url == last_url else "")
    if not url or not model:
        raise TranslateError(f"the openai translator needs an endpoint and a model: --endpoint URL --model NAME "
                             f"(or ${URL_ENV} and ${MODEL_ENV})", ErrorCode.TRANSLATOR)
    try:
        if args.set_key:
            store_key(url, sys.stdin.readline().strip())
        key = os.environ.get(KEY_ENV) or load_key(url)
    except TranslationError as error:
        raise TranslateError(error.message, error.code) from None
    remember_endpoint(url, model)
    return TranslateRequest(target, Endpoint(url, model, key, timeout_s=args.timeout),
                            translator=args.translator or TEXT_TRANSLATOR, line_ids=line_ids,
                            batch_lines=int(args.batch))


def uses_whisper(args: argparse.Namespace, target: str | None) -> bool:
    """Whether ``--translate-to`` goes through Whisper's translate task while transcribing: into
    English with no other translator named (what --translate-to en always did)."""
    from engine.translation.registry import WHISPER

    return (target is not None and getattr(args, "translator", None) in (None, WHISPER.name)
            and target.strip().lower() in (WHISPER.targets or ()))


def translate_transcribed(project: Project, stack: CommandStack, args: argparse.Namespace, target: str) -> list[str]:
    """The freshly transcribed lines through the text translator (``new``/``transcribe
    --translate-to LANG``), pushed on ``stack``; TranslateError on a failure. Warnings back."""
    from app.project.translation import make_translator, translate_project

    request = translate_request(args, target)
    edit = translate_project(project, request, make_translator(request, progress=_progress))
    stack.push(edit)
    return [f"the {target} lines are {request.endpoint.model}'s translation, marked as drafts to check",
            summary(edit).strip()]


def exit_status_of(code: ErrorCode) -> ExitCode:
    if code is ErrorCode.PROJECT_LOCKED:
        return ExitCode.LOCKED
    if code is ErrorCode.CANCELLED:
        return ExitCode.INTERRUPTED
    return ExitCode.TRANSLATOR if code in TRANSLATOR_FAILURES else ExitCode.BAD_INPUT


def run(args: argparse.Namespace) -> int:
    from app.commands.common import parse_line_list
    from app.project import ProjectError
    from app.project.lock import load_locked
    from app.project.translation import (
        kept_translations,
        make_translator,
        translate_project,
    )
    from app.project.undo import CommandStack

    err = sys.stderr
    cancel = threading.Event()
    try:
        project, lock = load_locked(args.project, "dubstudio translate")
    except ProjectError as error:
        print(f"dubstudio translate: {error}", file=err)
        return exit_status_of(error.code)
    try:
        try:
            ids = None
            if args.lines is not None:
                try:
                    numbers = parse_line_list(args.lines, len(project.lines))
                except ValueError as error:
                    print(f"dubstudio translate: {ErrorCode.INVALID_VALUE}: --lines: {error}", file=err)
                    return ExitCode.BAD_INPUT
                ids = tuple(project.lines[n - 1].id for n in numbers)
            request = translate_request(args, args.to, ids)
            translator = make_translator(request, cancel, progress=_progress)
            print(f"Translating into {request.target_language} with {request.endpoint.model} at "
                  f"{request.endpoint.base_url}", file=err, flush=True)
            edit = translate_project(project, request, translator)
        except ProjectError as error:
            print(f"dubstudio translate: {error}", file=err)
            return exit_status_of(error.code)
        except KeyboardInterrupt:
            cancel.set()
            raise
        CommandStack(project).push(edit)
        try:
            project.save()
        except ProjectError as error:
            print(f"dubstudio translate: {error}", file=err)
            return ExitCode.SAVE_FAILED
    finally:
        lock.release()
    print(f"Translated {how_many(len(edit.results), 'line')} of {project.root} into {request.target_language} "
          f"({how_many(translator.requests, 'request')})")
    print(summary(edit))
    kept = kept_translations(project, request.target_language) if request.line_ids is None else []
    if kept:
        print(f"  kept {how_many(len(kept), 'line')} already translated into {request.target_language} by a person (imported with "
              f"their original, or checked): name them with --lines to translate them again")
    for line_id, terms in edit.missing_terms.items():
        print(f"  warning: line {project.order_of(line_id)} leaves out the glossary's {', '.join(terms)}")
    return ExitCode.OK


def _progress(done: int, total: int) -> None:
    print(f"  translating: {done}/{total} lines", file=sys.stderr, flush=True)


def summary(edit: ApplyTranslation) -> str:
    """How many lines fit their slots, before and after the shorter retry."""
    budgeted = [result for result in edit.results if result.budget is not None]
    if not budgeted:
        return "  no line has a budget (lines without a slot, or a language without a pace in the table)"
    first = sum(1 for result in budgeted if result.budget is not None and (result.first_length or 0)
                <= result.budget.limit)
    now = sum(1 for result in budgeted if result.fits)
    return (f"  within budget: {first} of {len(budgeted)} at first, {now} of {len(budgeted)} after asking "
            f"{sum(1 for result in budgeted if result.shortened)} for a shorter version")

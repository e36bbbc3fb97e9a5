"""`dubstudio cosyvoice`: build a synthetic model folder, validate a folder, download the model.

    dubstudio cosyvoice synthetic DIR --size tiny|full   random weights, real layout (for tests)
    dubstudio cosyvoice validate DIR [--deep] [--json]   say what is missing or mismatched
    dubstudio cosyvoice download DIR [--source ...]      fetch CosyVoice2-0.5B, resuming

The synthetic folder is built by the real CosyVoice classes, so that step runs under the
CosyVoice environment's interpreter (scripts/cosyvoice-env); the other two run here.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from app.commands.exit_codes import ExitCode

if TYPE_CHECKING:
    from app.commands.common import Subparsers
    from engine.core.downloads import ValidationReport

def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("cosyvoice", help="CosyVoice2 model folders: synthetic, validate, download")
    sub = parser.add_subparsers(dest="action", required=True)

    synthetic = sub.add_parser("synthetic", help="build a synthetic CosyVoice2 folder (random weights)")
    synthetic.add_argument("directory")
    synthetic.add_argument("--size", choices=("tiny", "full"), default="tiny",
                           help="tiny: seconds to build, for tests; full: the released sizes (~4 GB), for timing")
    synthetic.add_argument("--force", action="store_true", help="rebuild even if the folder is complete")
    synthetic.add_argument("--engine-python", default=None,
                           help="the CosyVoice environment's interpreter (default: .venv-cosyvoice/bin/python)")
    synthetic.set_defaults(func=run_synthetic)

    validate = sub.add_parser("validate", help="check a CosyVoice2-0.5B folder")
    validate.add_argument("directory")
    validate.add_argument("--deep", action="store_true", help="also load the ONNX models and check signatures")
    validate.add_argument("--json", action="store_true", help="print the report as JSON")
    validate.set_defaults(func=run_validate)

    download = sub.add_parser("download", help="download CosyVoice2-0.5B (resumes an interrupted download)")
    download.add_argument("directory")
    download.add_argument("--source", choices=("huggingface", "modelscope"), default="huggingface")
    download.add_argument("--repo", default=None, help="repository id (default: the official CosyVoice2-0.5B)")
    download.add_argument("--endpoint", default=None, help="another hub endpoint (a mirror)")
    download.add_argument("--revision", default=None)
    download.set_defaults(func=run_download)


def run_synthetic(args: argparse.Namespace) -> int:
    from engine.synthesis.backends import COSYVOICE2_ENVIRONMENT
    from engine.synthesis.backends.setup import (
        OutputLine,
        SetupError,
        synthetic_facts,
        synthetic_run,
    )

    python = Path(args.engine_python) if args.engine_python else COSYVOICE2_ENVIRONMENT.interpreter()
    if python is None or not python.exists():
        print("dubstudio: the CosyVoice environment is missing; build it with scripts/cosyvoice-env "
              "or pass --engine-python", file=sys.stderr)
        return ExitCode.ENGINE
    def show(line: OutputLine) -> None:
        if not line.text.startswith("{"):  # the facts line is summarised below
            print(line.text, file=sys.stderr, flush=True)

    run = synthetic_run(python, args.directory, args.size, on_output=show, force=args.force)
    if run.run() != 0:
        print(f"dubstudio: {run.failure('building the synthetic folder')}", file=sys.stderr)
        return ExitCode.FAILED
    try:
        facts = synthetic_facts(run)
    except SetupError as error:
        print(f"dubstudio: {error}", file=sys.stderr)
        return ExitCode.FAILED
    print(f"synthetic CosyVoice2 folder ({facts['size']}) at {Path(args.directory).resolve()}: "
          f"{facts['speech_tokens_per_text_token']} speech tokens per text token, built in {facts['build_s']} s")
    return ExitCode.OK


def _print_report(report: ValidationReport, as_json: bool) -> None:
    if as_json:
        print(json.dumps(report.to_json(), indent=2))
        return
    print(f"{report.folder}: {'complete' if report.ok else 'NOT usable'}")
    for problem in report.problems:
        print(f"  missing/mismatched  {problem}")
    for warning in report.warnings:
        print(f"  note                {warning}")


def run_validate(args: argparse.Namespace) -> int:
    from engine.synthesis.backends.cosyvoice_models import validate_model_dir

    report = validate_model_dir(args.directory, deep=args.deep)
    _print_report(report, args.json)
    return ExitCode.OK if report.ok else ExitCode.FAILED


def run_download(args: argparse.Namespace) -> int:
    from engine.core.downloads import DownloadError, DownloadProgress
    from engine.synthesis.backends.cosyvoice_models import HF_REPO, download_model

    def show(progress: DownloadProgress) -> None:
        total = f"{progress.total_bytes / 1e6:,.0f}" if progress.total_bytes else "?"
        print(f"\r{progress.done_bytes / 1e6:,.1f} of {total} MB, file {progress.files_done}/{progress.files_total}"
              f" {progress.current[:40]:<40}", end="", file=sys.stderr, flush=True)

    try:
        report = download_model(args.directory, repo_id=args.repo or HF_REPO, source=args.source,
                                endpoint=args.endpoint, revision=args.revision, progress=show)
    except DownloadError as error:
        print(f"\ndubstudio: download failed: {error}", file=sys.stderr)
        return ExitCode.FAILED
    except KeyboardInterrupt:
        print("\ndubstudio: download interrupted; run the same command again to resume", file=sys.stderr)
        return ExitCode.INTERRUPTED
    print(file=sys.stderr)
    _print_report(report, False)
    return ExitCode.OK if report.ok else ExitCode.FAILED

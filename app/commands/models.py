"""`dubstudio models`: the downloadable plug-in models (the dialogue-separation models).

    dubstudio models list [--json]
    dubstudio models download NAME

``list`` says each model, what it separates, its size and licence, and whether it is downloaded
(and checked) in the user's model folder. ``download`` fetches one through the model manager:
resumable (run it again after an interruption), then checked against its declared size and
sha256 (a file that fails is removed). A project uses it with *Music and effects from* "a
separation model" (``music_effects_source`` ``model``). See docs/music-effects.md. Whisper's
larger models download with ``dubstudio qa --download-model NAME``.

Exit codes: 0 done, 1 the download failed or the file is not the declared one, 2 an unknown model.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from app.commands.common import run_download
from app.commands.exit_codes import ExitCode, exit_statuses

if TYPE_CHECKING:
    from app.commands.common import Subparsers


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "models", help="list and download the plug-in models (dialogue separation)",
        description="Plug-in models are downloaded once into the user's model folder and checked by size and "
        "sha256. " + exit_statuses((ExitCode.OK, "done"), (ExitCode.FAILED, "download failed or file not the "
                                   "declared one"), (ExitCode.BAD_INPUT, "unknown model")))
    actions = parser.add_subparsers(dest="action", required=True)
    show = actions.add_parser("list", help="the models, what they do, and whether each is downloaded")
    show.add_argument("--json", action="store_true", help="as JSON on stdout")
    download = actions.add_parser("download", help="download (or resume downloading) a model, then check it")
    download.add_argument("name", metavar="NAME")
    download.add_argument("--hub-endpoint", default=None, metavar="URL", help=argparse.SUPPRESS)  # a mirror or a test hub
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        return _list(args.json)
    return _download(args.name, args.hub_endpoint)


def _list(as_json: bool) -> int:
    from engine.hearing.separation import (
        SEPARATION_MODELS,
        model_available,
        model_folder,
    )

    rows = [{"name": spec.name, "title": spec.title, "separates": spec.separates, "size_mb": spec.size_mb,
             "licence": spec.licence, "source": f"{spec.hub_repo}@{spec.revision[:8]}/{spec.path}",
             "sha256": spec.sha256, "downloaded": model_available(spec), "folder": str(model_folder(spec))}
            for spec in SEPARATION_MODELS.values()]
    if as_json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return ExitCode.OK
    for row in rows:
        state = "downloaded" if row["downloaded"] else "not downloaded"
        print(f"{row['name']}  {row['title']}, {row['size_mb']} MB, {state}: {row['folder']}")
        print(f"    separates {row['separates']}")
        print(f"    from {row['source']} (sha256 {row['sha256']})")
        print(f"    licence: {row['licence']}")
    return ExitCode.OK


def _download(name: str, endpoint: str | None) -> int:
    """Download separation model ``name`` with a progress line on stderr; exit code."""
    from engine.core.protocol import EngineError
    from engine.hearing.separation import (
        download_separation_model,
        model_folder,
        separation_spec,
    )

    try:
        spec = separation_spec(name)
    except EngineError as error:
        print(f"dubstudio models download: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    return run_download("dubstudio models download",
                        lambda progress: download_separation_model(spec, endpoint=endpoint, progress=progress),
                        lambda report: f"{report.done_bytes / 1e6:.0f} of {spec.size_mb} MB",
                        failed=f"{spec.title} failed", incomplete=f"{spec.title} is not the declared file",
                        ready=lambda: f"{spec.title} is ready in {model_folder(spec)}")

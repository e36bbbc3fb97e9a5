"""What several headless commands share: the options that choose and size the engine."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that choose and size the engine, the same for every command."""
    group = parser.add_argument_group("engine")
    group.add_argument("--backend", default="piper", help="speech backend: piper (embedded) or cosyvoice2")
    group.add_argument("--slots", type=int, default=None, help="jobs the engine runs at once (default: by cores)")
    group.add_argument("--model-dir", default=None, help="model folder (cosyvoice2)")
    group.add_argument("--engine-python", default=None,
                       help="Python interpreter that runs the engine (e.g. .venv-cosyvoice/bin/python)")
    group.add_argument("--backend-option", action="append", default=[], metavar="KEY=VALUE",
                       help="extra backend option, repeatable (e.g. fp16=true)")
    group.add_argument("--cache-dir", default=None, help="voice cache folder (default: the user cache folder)")


def _parse_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def engine_config_from_args(args: argparse.Namespace) -> Any:
    from engine.client import EngineConfig

    python = args.engine_python
    if args.backend == "cosyvoice2":
        # CosyVoice's stack lives in its own environment; the model folder has no default.
        from engine.backends.cosyvoice_models import default_engine_python

        if not args.model_dir:
            raise SystemExit("dubstudio: E_BAD_REQUEST: --backend cosyvoice2 needs --model-dir DIR "
                             "(dubstudio cosyvoice download DIR, or synthetic DIR for tests)")
        if python is None:
            found = default_engine_python()
            if found is None:
                raise SystemExit("dubstudio: E_ENGINE_START: no CosyVoice environment; build it with "
                                 "scripts/cosyvoice-env or pass --engine-python")
            python = str(found)
    options: dict[str, Any] = {}
    if args.model_dir:
        options["model_dir"] = str(Path(args.model_dir).resolve())
    for item in args.backend_option:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"dubstudio: --backend-option expects KEY=VALUE, got {item!r}")
        options[key] = _parse_value(value)
    return EngineConfig(backend=args.backend, backend_options=options, slots=args.slots,
                        python=python, cache_dir=args.cache_dir)


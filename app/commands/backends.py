"""`dubstudio backends [NAME] [--json]`: the speech backends, their options and environments.

Printed from the backend descriptors (engine.synthesis.backends), the same declarations the engine
checks options against and the studio builds its settings form from.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import TYPE_CHECKING, Any

from app.commands.exit_codes import ExitCode
from engine.synthesis.backends import DESCRIPTORS, BackendDescriptor

if TYPE_CHECKING:
    from app.commands.common import Subparsers


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("backends", help="list the speech backends, their options and environments")
    parser.add_argument("name", nargs="?", choices=list(DESCRIPTORS), help="only this backend")
    parser.add_argument("--json", action="store_true", help="print the descriptors as JSON")
    parser.set_defaults(func=run)


def descriptor_json(spec: BackendDescriptor) -> dict[str, Any]:
    """A descriptor as plain JSON, with the environment's state on this machine."""
    environment = None
    if spec.environment is not None:
        python = spec.environment.interpreter()
        environment = {**dataclasses.asdict(spec.environment), "folder": str(spec.environment.folder()),
                       "built": spec.environment.is_built(), "python": str(python) if python else None}
    return {
        "name": spec.name,
        "label": spec.label,
        "summary": spec.summary,
        "capabilities": dataclasses.asdict(spec.capabilities),
        "needs_model_folder": spec.needs_model_folder,
        "model_option": spec.model_option,
        "environment": environment,
        "options": [{**dataclasses.asdict(option), "kind": option.kind.value, "accepts": option.type_hint()}
                    for option in spec.options],
    }


def run(args: argparse.Namespace) -> int:
    chosen = [DESCRIPTORS[args.name]] if args.name else list(DESCRIPTORS.values())
    if args.json:
        print(json.dumps([descriptor_json(spec) for spec in chosen], indent=2))
    else:
        print("\n\n".join(spec.describe() for spec in chosen))
    return ExitCode.OK

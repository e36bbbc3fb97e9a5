"""Speech backends, created by name so the engine never imports one it does not run."""

from __future__ import annotations

import importlib
from typing import Any

from engine.backends.base import Backend
from engine.protocol import EngineError, ErrorCode

BACKENDS = {
    "piper": "engine.backends.piper:PiperBackend",
    "cosyvoice2": "engine.backends.cosyvoice2:CosyVoice2Backend",
}


def create_backend(name: str, options: dict[str, Any] | None = None) -> Backend:
    if name not in BACKENDS:
        raise EngineError(ErrorCode.BAD_REQUEST, f"Unknown backend {name!r}; known: {', '.join(BACKENDS)}")
    module_name, class_name = BACKENDS[name].split(":")
    backend_class = getattr(importlib.import_module(module_name), class_name)
    return backend_class(**(options or {}))

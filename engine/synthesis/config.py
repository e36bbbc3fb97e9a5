"""How an engine is started: read by the client that spawns it and by the process it becomes.

It crosses spawn as plain data, and a child under another interpreter unpickles it before it
drops the parent's site-packages: this module imports nothing heavy.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from engine.core.numbers import Range
from engine.core.protocol import DEFAULT_BACKEND, ErrorCode


def default_slots() -> int:
    """Two pieces at once on small machines (best throughput measured with Piper on 2 cores)."""
    return max(1, min(4, os.cpu_count() or 1))


# Start-up deadlines. The handshake comes as soon as the engine's interpreter runs our code
# (about a second; a minute allows for a machine under heavy load); loading the model may take
# minutes (CosyVoice2 on a CPU, a TensorRT plan built on first use).
HANDSHAKE_TIMEOUT_S = 60.0
LOAD_TIMEOUT_S = 900.0
ENGINE_START_TIMEOUT = Range("--engine-start-timeout", 0.001, 24 * 3600.0, unit="s", default=HANDSHAKE_TIMEOUT_S,
                             code=ErrorCode.BAD_OPTION)
ENGINE_LOAD_TIMEOUT = Range("--engine-load-timeout", 0.001, 24 * 3600.0, unit="s", default=LOAD_TIMEOUT_S,
                            code=ErrorCode.BAD_OPTION)
# Jobs an engine streams at once: far above any queue it holds.
MAX_ACTIVE = Range("max_active", 1, 100_000, whole=True, code=ErrorCode.BAD_OPTION)


@dataclass
class EngineConfig:
    """How to start an engine: what its process runs, and how the client starts and keeps it.

    The one engine configuration: the studio's settings, the commands' arguments, the load
    bench and the server all fill one in.
    """

    backend: str = DEFAULT_BACKEND
    backend_options: dict[str, Any] = field(default_factory=dict)
    slots: int | None = None  # None: the backend's suggestion, else chosen from the core count
    python: str | None = None  # interpreter for the engine; None: this one
    cache_dir: str | None = None  # None: the user cache folder
    max_queue: int = 256
    max_active: int | None = None  # jobs admitted at once (memory); None: ACTIVE_PER_SLOT per slot
    auto_retry: bool = True  # the client resubmits jobs that were running when the engine died
    max_retries: int = 2
    handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S  # spawn to the engine's first sign of life
    load_timeout_s: float = LOAD_TIMEOUT_S  # that sign of life to EngineReady



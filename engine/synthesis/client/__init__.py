"""The clients of an engine: they run in the caller's process (the studio, a command, the bench,
a server replica) and talk to an engine process on this computer (:mod:`.local`) or on a
DubStudio server (:mod:`.remote`, over :mod:`.wire`). :func:`connect` is the one place that
chooses between them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.core.protocol import EngineClientProtocol
    from engine.synthesis.client.remote import RemoteConfig
    from engine.synthesis.config import EngineConfig


def connect(config: EngineConfig | RemoteConfig | None = None) -> EngineClientProtocol:
    """A client (not yet started) for ``config``: a server's for a RemoteConfig, else an engine
    this process spawns (the default configuration when None)."""
    from engine.synthesis.client.remote import RemoteConfig

    if isinstance(config, RemoteConfig):
        from engine.synthesis.client.remote import RemoteEngineClient

        return RemoteEngineClient(config)
    from engine.synthesis.client.local import EngineClient
    from engine.synthesis.config import EngineConfig

    return EngineClient(config or EngineConfig())

"""Speech synthesis: the engine process and everything that talks to it.

Runs in the **engine process** (spawned by :mod:`.client.local`, possibly under another
interpreter): :mod:`.process` (the main loop and worker slots), :mod:`.scheduler`,
:mod:`.batching`, :mod:`.jobs`, :mod:`.voices` (the voice cache), :mod:`.background`,
:mod:`.allocator` and :mod:`.backends` (whose descriptors, set-up and model checks the studio
also reads). Runs **in the caller's process**: :mod:`.client` (local and remote clients, one
factory) and :mod:`.config`. Runs in a **server**: :mod:`.serve` (Ray Serve replicas, each
holding a local engine).
"""

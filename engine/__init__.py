"""DubStudio's speech side, Qt-free: it runs and is tested without a GUI, in these processes.

- :mod:`engine.core`: the small shared core every process uses (the protocol, codes, files,
  audio I/O, number checks, text rules, reference clips, model downloads).
- :mod:`engine.synthesis`: the **engine process** that owns the speech model (scheduler, slots,
  voice cache, backends), the clients that talk to it from other processes, and the server.
- :mod:`engine.hearing`: Whisper, transcription, speakers and take QA, run **in the caller's
  process** (the studio, a command) or in take QA's own worker process.
- :mod:`engine.voiceprint`: the speaker encoder, used by the engine (resemblance, the voice
  cache) and by hearing (speakers, take QA).
- :mod:`engine.load`: load generation and its statistics, run in the bench's or the stress
  panel's process against any engine client.

``tests/test_layers.py`` enforces which may import which; docs/architecture.md draws it.
"""

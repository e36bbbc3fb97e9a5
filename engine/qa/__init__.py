"""Checks on finished takes: is the speech intelligible, clean, well placed and in character?

Everything here is Qt-free and knows nothing of projects, so the engine, the studio, the
headless commands and the benchmarks share it:

- :mod:`engine.qa.recognise`: offline speech recognition behind a small interface
  (pocketsphinx's English model today; a Whisper-class recogniser can register later);
- :mod:`engine.qa.wer`: text normalisation and the word error rate between a line and what the
  recogniser heard.
"""

"""Checks on finished takes: is the speech intelligible, clean, well placed and in character?

Everything here is Qt-free and knows nothing of projects, so the engine, the studio, the
headless commands and the benchmarks share it:

- :mod:`engine.qa.recognise`: offline speech recognition behind a small interface (Whisper,
  through :mod:`engine.hearing.whisper`; other recognisers can register);
- :mod:`engine.qa.wer`: per-language normalisation and the word (or character) error rate
  between a line and what the recogniser heard;
- :mod:`engine.qa.checks`: measuring a take once and judging the measurements.
"""

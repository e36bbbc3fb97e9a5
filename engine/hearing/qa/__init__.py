"""Checks on finished takes: is the speech intelligible, clean, well placed and in character?

Everything here is Qt-free and knows nothing of projects, so the studio, take QA's worker, the
headless commands and the benchmarks share it:

- :mod:`engine.hearing.qa.recognise`: offline speech recognition behind a small interface (Whisper,
  through :mod:`engine.hearing.whisper`; other recognisers can register);
- :mod:`engine.hearing.qa.wer`: per-language normalisation and the word (or character) error rate
  between a line and what the recogniser heard;
- :mod:`engine.hearing.qa.checks`: measuring a take once and judging the measurements.
"""

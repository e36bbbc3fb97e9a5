"""A turn in another language than the recording's (issue 32): speech the first decoding gave no
words is heard in the language it sounds like on its own, on real LibriSpeech and AISHELL-1
speech and the real Whisper base model."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.languages import detect_language
from engine.hearing.audio import SAMPLE_RATE
from engine.hearing.lines import Line, Word
from engine.hearing.transcribe import Options, _hear_window
from engine.hearing.whisper import load_whisper
from tests.engine.hearing.scenes import HEARING_DATA, read_audio


def clip(name: str, seconds: float | None = None) -> np.ndarray:
    audio = read_audio(HEARING_DATA / f"{name}.flac", SAMPLE_RATE)
    return audio[: int(seconds * SAMPLE_RATE)] if seconds else audio


@pytest.fixture(scope="module")
def english_scene_with_a_mandarin_turn() -> tuple[np.ndarray, float, float]:
    """Two LibriSpeech readers, an AISHELL-1 speaker's Mandarin sentence, the first reader again;
    0.6 s apart. The audio and where the Mandarin turn is."""
    gap = np.zeros(int(0.6 * SAMPLE_RATE), dtype=np.float32)
    turns = [clip("libri_1688_a", 4.0), clip("libri_3080_a", 4.0), clip("zh_aishell_S0764"), clip("libri_1688_b", 3.5)]
    pieces = [gap]
    for turn in turns:
        pieces += [turn / np.abs(turn).max() * 0.5, gap]
    start = (len(gap) * 3 + len(turns[0]) + len(turns[1])) / SAMPLE_RATE
    return np.concatenate(pieces), start, start + len(turns[2]) / SAMPLE_RATE


def test_a_mandarin_turn_in_an_english_scene_gets_a_line_in_chinese(english_scene_with_a_mandarin_turn) -> None:
    # Decoded in English (the scene's language) the Mandarin turn came out as English words
    # ("even if can see that there a l..."); heard alone it is Chinese at 0.9996.
    audio, start, end = english_scene_with_a_mandarin_turn
    heard, _ = _hear_window(load_whisper("base"), audio, 0.0, "en", Options(), None, lambda seconds: None,
                            other_languages=True)
    inside = [line for line in heard if start - 0.3 <= (line.start + line.end) / 2 <= end + 0.3]
    mandarin = [line for line in inside if line.language == "zh"]
    assert mandarin and all(detect_language(line.text) == "zh" for line in mandarin)
    # The English turns stay English, heard in the scene's language.
    outside = [line for line in heard if line not in inside]
    assert outside and all(line.language == "" and detect_language(line.text) == "en" for line in outside)


def test_a_line_is_in_the_language_most_of_its_words_were_heard_in() -> None:
    english = [Word(0.0, 0.5, " OK,"), Word(0.5, 1.0, " let's"), Word(1.0, 1.4, " go.")]
    assert Line(english).language == ""
    assert Line([Word(w.start, w.end, w.text, language="en") for w in english]).language == "en"
    assert Line([english[0], Word(0.5, 1.0, "走", language="zh"), Word(1.0, 1.4, "吧", language="zh")]).language == "zh"

"""The speaker steps beside Whisper (engine.hearing.transcribe, issue 32's speed): on a thread of
their own, with the lines Whisper has finished embedded while it hears the rest, the
transcription is the very one made step after step; real speech, the real models."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

from engine.hearing import transcribe
from engine.hearing.audio import audio_windows
from engine.hearing.transcribe import Transcription, transcribe_media, whisper_threads
from engine.hearing.whisper import load_whisper
from engine.voiceprint.encoder import CamppSpeakerEncoder
from tests.engine.hearing.scenes import make_scene

pytestmark = pytest.mark.slow


def _everything(heard: Transcription) -> dict[str, object]:
    """What a transcription holds, as plain values: lines with their words and speakers, the
    wordless, overlapped and other speech, the clip candidates and every window's embedding."""
    assert heard.windows is not None
    return {
        "speakers": heard.speaker_count, "language": heard.language,
        "lines": [(line.speaker, [(w.start, w.end, w.text) for w in line.words]) for line in heard.lines],
        "no_words": heard.no_words, "overlaps": heard.overlaps, "speaking": heard.speaking,
        "candidates": {speaker: [(c.start, c.end, c.score) for c in found] for speaker, found in heard.candidates.items()},
        "windows": (heard.windows.starts, heard.windows.ends, heard.windows.embeddings().tobytes()),
    }


def test_the_speakers_found_beside_whisper_are_those_found_after_it(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    turns = make_scene(tmp_path / "scene.mp4", ["maya", "rex", "narrator", "rex", "maya", "narrator"])
    # Windows of 12 s: the worker embeds one window while Whisper hears the next, as on a long video.
    monkeypatch.setattr(transcribe, "audio_windows", functools.partial(audio_windows, window_s=12.0))
    whisper, encoder = load_whisper("base", "cpu", whisper_threads()), CamppSpeakerEncoder()
    in_turn = transcribe_media(tmp_path / "scene.mp4", whisper, encoder, speakers_beside=False)
    beside = transcribe_media(tmp_path / "scene.mp4", whisper, encoder, speakers_beside=True)
    assert in_turn.speaker_count == 3 and len(in_turn.lines) >= len(turns)
    assert _everything(beside) == _everything(in_turn)
    assert np.array_equal(beside.windows.embeddings(), in_turn.windows.embeddings())  # type: ignore[union-attr]


def test_whisper_leaves_a_core_to_the_speaker_steps() -> None:
    assert [whisper_threads(cores) for cores in (1, 2, 4, 16)] == [1, 1, 3, 15]

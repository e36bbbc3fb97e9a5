"""Speech no line covers (engine.hearing.unheard): found by the voice activity detector in real
speech, decoded a second time by the real Whisper base model into lines, and what stays without
words given to the speaker whose real voice (CAM++) it sounds like."""

from __future__ import annotations

import numpy as np
import pytest

from engine.hearing import unheard
from engine.hearing.audio import SAMPLE_RATE
from engine.hearing.lines import Line, Word
from engine.hearing.qa.wer import word_error_rate
from engine.hearing.transcribe import _heard_again
from engine.hearing.whisper import load_whisper
from engine.voiceprint.encoder import CamppSpeakerEncoder
from tests.engine.hearing.scenes import read_audio
from tests.engine.helpers import VOICES

pytestmark = pytest.mark.slow


def voice(name: str) -> np.ndarray:
    return read_audio(VOICES / f"{name}.wav", SAMPLE_RATE)


def silence(seconds: float) -> np.ndarray:
    return np.zeros(int(seconds * SAMPLE_RATE), dtype=np.float32)


def spoken_line(start: float, end: float) -> Line:
    return Line([Word(start, end, " words")])


@pytest.fixture(scope="module")
def two_turns() -> tuple[np.ndarray, float, float]:
    """Maya, a second of silence, then Rex: the audio and where Rex starts and ends."""
    maya, rex = voice("maya"), voice("rex")
    audio = np.concatenate([silence(0.5), maya, silence(1.0), rex, silence(0.5)])
    rex_start = (0.5 * SAMPLE_RATE + len(maya)) / SAMPLE_RATE + 1.0
    return audio, rex_start, rex_start + len(rex) / SAMPLE_RATE


def test_speech_no_line_covers_is_found_and_covered_speech_and_silence_are_not(two_turns) -> None:
    audio, rex_start, rex_end = two_turns
    maya_line = spoken_line(0.5, rex_start - 1.0)
    found = unheard.uncovered_speech(audio, 10.0, [Line([Word(10.0 + w.start, 10.0 + w.end, w.text)
                                                          for w in maya_line.words])])
    assert len(found) == 1
    start, end = found[0]
    # Times in the recording: inside Rex's turn (his clip ends in a pause) and most of it.
    assert 10.0 + rex_start - 0.3 <= start and end <= 10.0 + rex_end + 0.3
    assert end - start >= 0.8 * (rex_end - rex_start)
    both = [spoken_line(0.5, rex_start - 1.0), spoken_line(rex_start, rex_end)]
    assert unheard.uncovered_speech(audio, 0.0, both) == []
    assert unheard.uncovered_speech(silence(5.0), 0.0, []) == []


def test_stretches_shorter_than_the_least_are_left() -> None:
    maya = voice("maya")[: int(0.6 * SAMPLE_RATE)]
    audio = np.concatenate([silence(1.0), maya, silence(1.0)])
    assert unheard.uncovered_speech(audio, 0.0, []) == []
    assert len(unheard.uncovered_speech(audio, 0.0, [], least_s=0.3)) == 1


def test_words_heard_in_the_joined_stretches_come_back_at_their_times_and_the_surroundings_do_not() -> None:
    audio = np.ones(20 * SAMPLE_RATE, dtype=np.float32)
    joined = unheard.joined(audio, 100.0, [(102.0, 104.0), (110.0, 111.5)])
    assert len(joined.audio) == pytest.approx((2.4 + 0.5 + 1.9 + 0.5) * SAMPLE_RATE, abs=2)
    # First stretch: piece 0-2.4 s is recording 101.8-104.2; second: piece 2.9-4.8 s is 109.8-111.7.
    heard = [Word(0.05, 0.15, " before"), Word(0.5, 0.9, " one"), Word(3.2, 3.6, " two"), Word(4.75, 4.8, " after")]
    back = joined.words_back(heard)
    assert [word.text for word in back] == [" one", " two"]
    assert back[0].start == pytest.approx(102.3) and back[1].start == pytest.approx(110.1)


def test_a_stretch_whisper_gave_no_words_is_heard_again_into_a_line_of_its_words(two_turns) -> None:
    audio, rex_start, rex_end = two_turns
    maya_line = Line([Word(0.6, rex_start - 1.2, " (Maya's line)")])
    stretches = unheard.uncovered_speech(audio, 0.0, [maya_line])
    lines = _heard_again(load_whisper("base"), audio, 0.0, stretches, [maya_line], "en", None, "simplified")
    assert lines[0] is maya_line
    said = " ".join(line.text for line in lines[1:])
    assert word_error_rate((VOICES / "rex.txt").read_text(), said) < 0.25
    assert all(rex_start - 0.3 <= line.start and line.end <= rex_end + 0.3 for line in lines[1:])


def test_speech_without_words_goes_to_the_speaker_it_sounds_like(two_turns) -> None:
    encoder = CamppSpeakerEncoder()
    maya, rex, narrator = voice("maya"), voice("rex"), voice("narrator")

    def windows(audio: np.ndarray) -> np.ndarray:
        step = int(1.5 * SAMPLE_RATE)
        return encoder.embed_many([audio[i: i + step] for i in range(0, len(audio) - step, step)], SAMPLE_RATE)

    maya_windows, rex_windows = windows(maya[: len(maya) // 2]), windows(rex[: len(rex) // 2])
    window_vectors = np.concatenate([maya_windows, rex_windows])
    labels = np.array([0] * len(maya_windows) + [1] * len(rex_windows))
    # The other halves of their speech, as stretches no line covers.
    pieces = [rex[len(rex) // 2:], maya[len(maya) // 2:]]
    vectors = encoder.embed_many(pieces, SAMPLE_RATE)
    found = unheard.with_speakers([(3.0, 5.0), (8.0, 9.5)], [vectors[:1], vectors[1:]], window_vectors, labels, 2)
    assert [(stretch.start, stretch.speaker) for stretch in found] == [(3.0, 1), (8.0, 0)]
    assert found[1].duration_s == pytest.approx(1.5)
    assert unheard.with_speakers([(1.0, 2.0)], [encoder.embed_many([narrator], SAMPLE_RATE)], window_vectors,
                                 labels, 0) == []  # no speaker has a line: nobody to give it to

"""Clip candidates that are one voice (engine.hearing.clips): purity on real speech, a stretch
with two voices in it refused, every usable stretch offered. Real recorded speech (the phone
call of two women in tests/engine/data/ge2e/, its turns from pyannote's sample.rttm) and the
real CAM++ encoder; no Whisper (the lines are the reference turns)."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf

from engine.core.audio_io import resample
from engine.core.paths import REPO_ROOT
from engine.hearing import clips, speakers
from engine.hearing.audio import SAMPLE_RATE
from engine.hearing.lines import Line, Word
from engine.voiceprint.encoder import CamppSpeakerEncoder

CALL = REPO_ROOT / "tests" / "engine" / "data" / "ge2e" / "conversation.flac"
# (start, end, speaker) of each turn of the call over a second long, overlaps trimmed (sample.rttm)
TURNS = [(8.32, 9.92, 0), (11.03, 14.49, 0), (14.70, 17.92, 1), (18.05, 21.49, 0), (21.78, 27.85, 1),
         (28.50, 30.0, 0)]


def _line(start: float, end: float, speaker: int) -> Line:
    words = [Word(t, min(t + 0.4, end), " word") for t in np.arange(start, end - 0.1, 0.5)]
    return Line(words, speaker=speaker)


@pytest.fixture(scope="module")
def call() -> tuple[np.ndarray, clips.LevelEnvelope]:
    audio, rate = sf.read(str(CALL), dtype="float32", always_2d=True)
    wav = resample(audio.mean(axis=1), rate, SAMPLE_RATE)
    levels = clips.LevelEnvelope(0.02, SAMPLE_RATE)
    levels.add(wav)
    return wav, levels


@pytest.fixture(scope="module")
def encoder() -> CamppSpeakerEncoder:
    return CamppSpeakerEncoder()


def _windows(wav: np.ndarray, lines: list[Line], encoder: CamppSpeakerEncoder) -> speakers.EmbeddingWindows:
    windows = speakers.EmbeddingWindows()
    windows.add(wav, 0.0, lines, encoder)
    return windows


def test_each_turn_of_the_call_is_pure_and_a_stretch_of_both_women_is_not(call, encoder) -> None:
    wav, _ = call
    lines = [_line(*turn) for turn in TURNS]
    windows = _windows(wav, lines, encoder)
    embeddings, labels = windows.embeddings(), clips.window_labels(windows, lines)
    sums = clips.speaker_sums(embeddings, labels, 2)
    for start, end, speaker in TURNS[1:5]:  # the turns of 3 s and more
        inside = windows.over(start, end)
        own_rest = sums[speaker] - embeddings[inside][labels[inside] == speaker].sum(axis=0)
        assert clips.clip_purity(embeddings[inside], own_rest, sums[1 - speaker: 2 - speaker]) >= clips.MIN_PURITY
    # 11.03-17.92 s: the first woman, then the second, as one stretch
    inside = windows.over(11.03, 17.92)
    assert clips.clip_purity(embeddings[inside], sums[0], sums[1:]) < clips.MIN_PURITY


def test_a_line_given_to_the_wrong_speaker_is_refused_as_a_clip(call, encoder) -> None:
    """The second woman's 14.7-17.9 s turn heard as the first's: the first woman's stretch of
    11.0-21.5 s (three lines, one not hers) is no candidate; her pure stretches are."""
    wav, levels = call
    lines = [_line(start, end, 0 if start == 14.70 else speaker) for start, end, speaker in TURNS]
    windows = _windows(wav, lines, encoder)
    found = clips.candidates(lines, windows, clips.window_labels(windows, lines), levels, 2)
    assert found[0] and found[1]
    for candidate in found[0] + found[1]:
        assert candidate.purity >= clips.MIN_PURITY, candidate.describe()
    assert not any(c.start < 16.0 < c.end for c in found[0])  # nothing of the wrong turn offered as hers
    assert len(found[0]) >= 2  # several of her stretches, not just the best one


def test_a_clip_of_several_chinese_lines_has_their_transcript_with_no_space_between(call, encoder) -> None:
    """A Chinese clip's transcript read "…前一段时间。 有些媒体…" (the lines joined by a space, as
    English words are) on the Characters panel and in the voice's transcript; English keeps it."""
    wav, levels = call

    def said(start: float, end: float, speaker: int, words: list[str]) -> Line:
        times = np.linspace(start, end, len(words) + 1)
        return Line([Word(a, b, text) for a, b, text in zip(times[:-1], times[1:], words, strict=True)], speaker=speaker)

    for first, second, joined in ((["我们", "明天", "见。"], ["好的。"], "我们明天见。好的。"),
                                  ([" See", " you."], [" Fine."], "See you. Fine.")):
        lines = [said(18.05, 19.6, 0, first), said(19.7, 21.49, 0, second), said(21.78, 27.85, 1, second)]
        windows = _windows(wav, lines, encoder)
        found = clips.candidates(lines, windows, clips.window_labels(windows, lines), levels, 2)
        assert joined in [candidate.text for candidate in found[0]]


def test_a_clip_holding_a_line_of_another_voice_is_not_called_pure(call, encoder) -> None:
    """The first woman's 18.0-21.5 s turn heard as the second woman's, between two of hers: the
    second's stretch 14.6-27.9 s (her line, the first woman's, hers) was chosen as her clip with
    purity +0.47 (the mean of its windows still near her voice), so the panel gave no warning.
    Each line of a clip is judged alone now: no stretch holding that line is called pure."""
    wav, levels = call
    lines = [_line(start, end, 1 if start == 18.05 else speaker) for start, end, speaker in TURNS]
    windows = _windows(wav, lines, encoder)
    found = clips.candidates(lines, windows, clips.window_labels(windows, lines), levels, 2)
    holding = [c for c in found[1] if c.start < 19.0 and c.end > 20.5]
    assert holding, [c.describe() for c in found[1]]
    assert all(candidate.purity < clips.MIN_PURITY for candidate in holding), [c.describe() for c in holding]

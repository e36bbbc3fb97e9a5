"""Second speakers and speech nobody was given, from the segmentation model (engine/hearing/overlap.py),
on a real phone call of two women (tests/engine/data/ge2e/conversation.flac, pyannote's sample).

The diarization's spans are the call's reference turns (pyannote's sample.rttm; speaker90 is 0,
speaker91 is 1) where they overlap, the later turn's speaker holds the frame, as a diarization of
lines gives one speaker per stretch.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.audio_io import resample
from engine.core.paths import REPO_ROOT
from engine.hearing import overlap, segmentation, unheard
from engine.voiceprint.encoder import CamppSpeakerEncoder
from tests.engine.voiceprint.references import DATA, decode

TURNS = [(6.69, 7.12, 0), (7.55, 8.35, 1), (8.32, 10.02, 0), (9.92, 11.03, 1), (10.57, 14.70, 0), (14.49, 17.92, 1),
         (18.05, 21.49, 0), (18.15, 18.59, 1), (21.78, 28.50, 1), (27.85, 30.0, 0)]
# Where both speak, and who the spans leave out there: the earlier turn's speaker.
OVERLAPS = [(10.57, 11.03, 1), (14.49, 14.70, 0), (18.15, 18.59, 0), (27.85, 28.50, 1)]


# Where each woman speaks alone, well inside her turns: her voice.
ALONE = {0: [(11.03, 14.49), (18.6, 21.49)], 1: [(14.7, 17.92), (21.78, 27.85)]}


@pytest.fixture(scope="module")
def call_audio() -> np.ndarray:
    audio, rate = decode(DATA / "ge2e" / "conversation.flac")
    return resample(audio, rate, segmentation.SAMPLE_RATE) if rate != segmentation.SAMPLE_RATE else audio


@pytest.fixture(scope="module")
def call_chunks(call_audio: np.ndarray) -> segmentation.Chunks:
    return segmentation.chunked(call_audio, 5.0, segmentation.open_session())


@pytest.fixture(scope="module")
def call(call_chunks: segmentation.Chunks) -> segmentation.LocalSpeech:
    return segmentation.LocalSpeech.of(call_chunks)


def _inside(stretch: overlap.Stretch, spans: list[tuple[float, float, int]], margin: float) -> float:
    return sum(max(0.0, min(stretch.end, end + margin) - max(stretch.start, start - margin))
               for start, end, who in spans if who == stretch.speaker)


def test_the_speaker_talked_over_is_found_where_two_speak_and_nowhere_else(call: segmentation.LocalSpeech) -> None:
    found = overlap.overlapped(overlap.active_speakers(call, TURNS, 2, 30.0), TURNS)
    total = sum(stretch.duration_s for stretch in found)
    # Near an overlap's edge (reference times are loose by a tenth of a second) the spans' speaker
    # may be the other one: either speaker counts there.
    either = [(start, end, who) for start, end, _ in OVERLAPS for who in (0, 1)]
    right = sum(_inside(stretch, either, 0.25) for stretch in found)
    assert total > 0.8 and right / total > 0.9  # measured 1.42 s, all of it within 0.25 s of an overlap
    assert sum(any(_inside(stretch, [place], 0.0) > 0.1 for stretch in found) for place in OVERLAPS) >= 3


def test_where_two_voices_are_heard_and_the_second_has_no_name_it_is_the_nearest_other_speaker(
        call: segmentation.LocalSpeech) -> None:
    """The model hears both women at the call's overlaps; with the second woman's local speakers
    left without a name (as a far-field voice's often are), she is still the second speaker where
    two voices are heard over the first woman's turns: the other speaker whose turn is nearest.
    Without that rule she would be nobody there."""
    heard = overlap.active_speakers(call, TURNS, 2, 30.0)
    active = heard.active.copy()
    active[:, 1] = False  # her local speakers unnamed
    found = overlap.overlapped(overlap.ActiveSpeakers(active, heard.speech, heard.two), TURNS)
    hers = [stretch for stretch in found if stretch.speaker == 1]
    either = [(start, end, who) for start, end, _ in OVERLAPS for who in (0, 1)]
    total = sum(stretch.duration_s for stretch in hers)
    assert total > 0.5 and sum(_inside(stretch, either, 0.25) for stretch in hers) / total > 0.9
    assert sum(any(_inside(stretch, [place], 0.25) > 0.1 for stretch in hers) for place in OVERLAPS) >= 2


def test_the_second_voice_nobody_names_goes_to_the_nearest_speaker_not_a_farther_one() -> None:
    """Three speakers' spans; the model hears two voices at 4-5 s inside the first speaker's span
    and names neither, or names both others: the second is the speaker who takes over at 5.5 s,
    not the one at 20 s; where it hears one voice, nobody is added."""
    spans = [(0.0, 5.0, 0), (5.5, 8.0, 1), (20.0, 25.0, 2)]
    frames = int(25.0 / overlap.GRID_S) + 1
    grid = np.arange(frames) * overlap.GRID_S
    speech, two = (grid >= 3.0) & (grid < 5.0), (grid >= 4.0) & (grid < 5.0)
    nobody, both = np.zeros((frames, 3), dtype=bool), np.zeros((frames, 3), dtype=bool)
    both[two, 1:] = True
    for named in (nobody, both):
        found = overlap.overlapped(overlap.ActiveSpeakers(named, speech, two), spans)
        assert [(round(s.start, 2), round(s.end, 2), s.speaker) for s in found] == [(4.0, 5.0, 1)]
    alone = overlap.ActiveSpeakers(nobody, speech, np.zeros(frames, dtype=bool))
    assert overlap.overlapped(alone, spans) == []


def test_a_turn_nobody_was_given_comes_back_with_its_speaker(call: segmentation.LocalSpeech) -> None:
    spans = [turn for turn in TURNS if turn[0] != 14.49]  # speaker91's 3.4 s turn left out
    found = overlap.unspanned(overlap.active_speakers(call, spans, 2, 30.0), spans, least_s=0.3)
    assert [stretch.speaker for stretch in found] == [1]
    assert found[0].start == pytest.approx(14.7, abs=0.2) and found[0].end == pytest.approx(17.92, abs=0.2)
    assert overlap.unspanned(overlap.active_speakers(call, TURNS, 2, 30.0), TURNS, least_s=0.3) == []
    own, near = overlap.apart(found, spans)
    assert own == found and near == []  # 0.2 s and more from her other turns: speech of its own


def test_a_pause_inside_a_turn_or_a_lines_edge_is_not_speech_of_its_own() -> None:
    spans = [(0.0, 4.8, 0), (6.4, 7.9, 1), (8.6, 13.0, 1)]
    pause, edge, other = overlap.Stretch(7.9, 8.6, 1), overlap.Stretch(13.05, 13.5, 1), overlap.Stretch(5.0, 6.3, 0)
    assert overlap.apart([pause, edge, other], spans) == ([other], [pause, edge])


def test_without_speech_no_speaker_is_active() -> None:
    silence = segmentation.chunked(np.zeros(12 * segmentation.SAMPLE_RATE, dtype=np.float32), 5.0,
                                   segmentation.open_session())
    found = overlap.active_speakers(segmentation.LocalSpeech.of(silence), [(1.0, 3.0, 0)], 1, 12.0)
    assert not found.active.any() and not found.speech.any()


@pytest.mark.slow
def test_a_transcription_of_the_call_names_the_speaker_talked_over_and_the_speech_silero_missed() -> None:
    """The real call through the whole transcription (Whisper base, CAM++, the segmentation model):
    the second speakers it keeps lie where both women speak, each the other woman than the
    line's; without the model, none."""
    from engine.hearing.transcribe import Options, transcribe_media
    from engine.hearing.whisper import load_whisper
    from engine.voiceprint.encoder import CamppSpeakerEncoder

    model, encoder = load_whisper("base", "cpu"), CamppSpeakerEncoder()
    heard = transcribe_media(DATA / "ge2e" / "conversation.flac", model, encoder, Options(language="en"))
    assert heard.speaker_count == 2 and heard.overlaps
    near = [(start - 0.25, end + 0.25) for start, end, _ in OVERLAPS]
    inside = sum(max(0.0, min(s.end, end) - max(s.start, start)) for s in heard.overlaps for start, end in near)
    assert inside / sum(s.duration_s for s in heard.overlaps) > 0.9
    spans = [(line.start, line.end, line.speaker) for line in heard.lines] + \
            [(stretch.start, stretch.end, stretch.speaker) for stretch in heard.no_words]
    diarized = overlap.spanned(spans, int(heard.duration_s / overlap.GRID_S) + 1)
    for stretch in heard.overlaps:  # over a span of the other woman's
        assert diarized[int((stretch.start + stretch.end) / 2 / overlap.GRID_S)] not in (stretch.speaker, overlap.NO_SPEAKER)
    segmented = [stretch for stretch in heard.no_words if stretch.by_segmentation]
    assert all(stretch.duration_s >= unheard.UNHEARD_MIN_S - 1e-9 for stretch in segmented)
    assert overlap.apart([overlap.Stretch(s.start, s.end, s.speaker) for s in segmented], spans)[1] == []
    plain = transcribe_media(DATA / "ge2e" / "conversation.flac", model, encoder, Options(language="en", segmentation=False))
    assert plain.overlaps == plain.speaking == [] and not any(stretch.by_segmentation for stretch in plain.no_words)


@pytest.fixture(scope="module")
def encoder() -> CamppSpeakerEncoder:
    return CamppSpeakerEncoder()


def _voice(audio: np.ndarray, stretches: list[tuple[float, float]], encoder: CamppSpeakerEncoder) -> np.ndarray:
    rate = segmentation.SAMPLE_RATE
    vector = encoder.embed_many([np.concatenate([audio[int(a * rate):int(b * rate)] for a, b in stretches])], rate)[0]
    return np.asarray(vector / np.linalg.norm(vector))


def test_a_local_speaker_no_line_names_is_named_by_voice(call_audio: np.ndarray, call_chunks: segmentation.Chunks,
                                                         encoder: CamppSpeakerEncoder) -> None:
    """The second woman has no span at all (Whisper gave her no words), but she is a speaker the
    diarization knows (her mean voice): the model's local speaker that is her is named by voice,
    and her speech comes back as hers."""
    spans = [turn for turn in TURNS if turn[2] == 0]
    voices = overlap.local_voices(call_chunks, call_audio, [(start, end) for start, end, _ in spans], encoder)
    means = np.stack([_voice(call_audio, ALONE[0], encoder), _voice(call_audio, ALONE[1], encoder)])
    unnamed = overlap.active_speakers(segmentation.LocalSpeech.of(call_chunks), spans, 2, 30.0)
    assert not unnamed.active[:, 1].any()  # by coincidence alone she is nobody
    named = overlap.active_speakers(segmentation.LocalSpeech.of(call_chunks, 0.0, voices), spans, 2, 30.0, means)
    hers = [stretch for stretch in overlap.unspanned(named, spans, overlap.UNSPANNED_LEAST_S) if stretch.speaker == 1]
    turns = [turn for turn in TURNS if turn[2] == 1]
    found = sum(stretch.duration_s for stretch in hers)
    assert found > 0.7 * sum(end - start for start, end in ALONE[1])  # measured: 8.95 s of her 9.3 s alone
    assert sum(_inside(stretch, turns, 0.25) for stretch in hers) / found > 0.9


def test_a_local_speakers_samples_are_those_every_frame_holds_each_once(call_audio: np.ndarray,
                                                                         call_chunks: segmentation.Chunks) -> None:
    """local_voices cuts a local speaker's voice from the samples around its frames' middles:
    samples_around gives what np.unique of every frame's samples gave (the same piece, so the
    same embedding), on the call's real chunks and past either end of the audio."""
    half = int(round(overlap.FRAME_STEP_S * overlap.SAMPLE_RATE / 2))
    activity = call_chunks.local_activity()
    tried = 0
    for chunk in range(len(call_chunks.starts)):
        for speaker in range(overlap.LOCAL_SPEAKERS):
            frames = activity[chunk, :, speaker]
            if frames.any():
                centres = np.round(call_chunks.frame_times(chunk)[frames] * overlap.SAMPLE_RATE).astype(np.int64)
                everyone = np.unique(np.clip((centres[:, None] + np.arange(-half, half)).ravel(), 0, len(call_audio) - 1))
                assert np.array_equal(overlap.samples_around(centres, half, len(call_audio)), everyone)
                tried += 1
    assert tried >= 4
    edges = np.array([-500, -10, 3, 200, len(call_audio) - 20, len(call_audio) + 400], dtype=np.int64)
    assert np.array_equal(overlap.samples_around(edges, half, len(call_audio)),
                          np.unique(np.clip((edges[:, None] + np.arange(-half, half)).ravel(), 0, len(call_audio) - 1)))


def test_a_voice_unlike_every_speaker_stays_nobodys(call_audio: np.ndarray, call_chunks: segmentation.Chunks,
                                                    encoder: CamppSpeakerEncoder) -> None:
    """With only the first woman known, the second woman's local speaker is unlike her and is
    given to no one: nothing she says alone comes back as the first woman's."""
    spans = [turn for turn in TURNS if turn[2] == 0]
    voices = overlap.local_voices(call_chunks, call_audio, [(start, end) for start, end, _ in spans], encoder)
    assert voices is not None and voices.any()
    means = _voice(call_audio, ALONE[0], encoder)[None]
    found = overlap.active_speakers(segmentation.LocalSpeech.of(call_chunks, 0.0, voices), spans, 1, 30.0, means)
    given = overlap.unspanned(found, spans, overlap.UNSPANNED_LEAST_S)
    assert sum(_inside(stretch, [(start, end, 0) for start, end in ALONE[1]], 0.0) for stretch in given) < 0.3



HEARING = REPO_ROOT / "tests" / "data" / "hearing"
# A scene of three real LibriSpeech readers taking turns 0.7 s apart: 1688 (male, speaker 0) and 3080 (female,
# speaker 1) have lines; 2414 (another man) speaks between them, and Whisper gave him no words (no span).
SCENE = [("libri_1688_a", 0), ("libri_3080_a", 1), ("libri_2414_a", 2), ("libri_1688_b", 0), ("libri_3080_b", 1)]


@pytest.fixture(scope="module")
def scene() -> tuple[np.ndarray, list[tuple[float, float, int]]]:
    rate, gap = segmentation.SAMPLE_RATE, np.zeros(int(0.7 * segmentation.SAMPLE_RATE), dtype=np.float32)
    pieces: list[np.ndarray] = []
    turns: list[tuple[float, float, int]] = []
    for name, who in SCENE:
        audio, read_rate = decode(HEARING / f"{name}.flac")
        assert read_rate == rate
        start = sum(len(piece) for piece in pieces) / rate
        turns.append((start, start + len(audio) / rate, who))
        pieces += [audio, gap]
    return np.concatenate(pieces), turns


def test_a_voice_unlike_every_speaker_with_lines_is_a_speaker_without_lines(
        scene: tuple[np.ndarray, list[tuple[float, float, int]]], encoder: CamppSpeakerEncoder) -> None:
    """The third reader has no line: his local speakers are unlike both readers with lines
    (0.01-0.13 to their mean voices), so together they are a speaker without lines, numbered
    after them, and his turn comes back as that speaker's speech with no words through the
    transcription's assembly. With the rule off (``lineless`` 0) he is nobody's."""
    from engine.hearing.lines import Line, Word
    from engine.hearing.transcribe import _segmented

    audio, turns = scene
    duration = len(audio) / segmentation.SAMPLE_RATE
    spans = [turn for turn in turns if turn[2] != 2]
    chunks = segmentation.chunked(audio, 2.5, segmentation.open_session())
    voices = overlap.local_voices(chunks, audio, [(start, end) for start, end, _ in spans], encoder)
    local = segmentation.LocalSpeech.of(chunks, 0.0, voices)
    means = np.stack([_voice(audio, [(start, end) for start, end, who in spans if who == speaker], encoder)
                      for speaker in (0, 1)])
    off = overlap.active_speakers(local, spans, 2, duration, means)
    assert off.lineless == 0 and not overlap.unspanned(off, spans, overlap.UNSPANNED_LEAST_S)
    lines = [Line([Word(start, end, "words", 1.0)], who) for start, end, who in spans]
    no_words, overlaps, _, lineless = _segmented([local], lines, [], 2, duration, means)
    assert lineless == 1
    his = [stretch for stretch in no_words if stretch.speaker == 2]
    start, end, _ = turns[2]
    inside = sum(max(0.0, min(stretch.end, end + 0.25) - max(stretch.start, start - 0.25)) for stretch in his)
    assert inside > 0.6 * (end - start)  # measured 6.3 s of his 8.4 s turn
    assert inside / sum(stretch.duration_s for stretch in his) > 0.9
    assert all(stretch.speaker in (0, 1) for stretch in [*no_words, *overlaps] if stretch not in his)


def test_no_speaker_without_lines_where_every_voice_has_lines(call_audio: np.ndarray, call_chunks: segmentation.Chunks,
                                                               encoder: CamppSpeakerEncoder) -> None:
    """On the real call both women have lines: every local speaker is like one of them, and no
    speaker without lines is made (as on the clean dialogues and the other meetings)."""
    voices = overlap.local_voices(call_chunks, call_audio, [(start, end) for start, end, _ in TURNS], encoder)
    means = np.stack([_voice(call_audio, ALONE[speaker], encoder) for speaker in (0, 1)])
    found = overlap.active_speakers(segmentation.LocalSpeech.of(call_chunks, 0.0, voices), TURNS, 2, 30.0, means,
                                    lineless=8)
    assert found.lineless == 0 and found.active.shape[1] == 2

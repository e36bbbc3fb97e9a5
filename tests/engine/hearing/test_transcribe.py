"""Hearing a recording (engine.hearing): lines from words, speakers, clip candidates, windows,
and the bad inputs, on the real Whisper base model and the real CAM++ encoder (the one
transcription parts voices with)."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from engine.core.codes import ErrorCode
from engine.hearing import HearingError, speakers, unheard
from engine.hearing.audio import SAMPLE_RATE, audio_windows
from engine.hearing.clips import MAX_CLIP_S, SHORTEST_CLIP_S
from engine.hearing.lines import Line, Word, split_lines
from engine.hearing.transcribe import (
    Options,
    _hear_window,
    _Listening,
    _RememberedEmbeddings,
    _stretch_languages,
    transcribe_media,
)
from engine.hearing.whisper import load_whisper
from engine.voiceprint.encoder import CamppSpeakerEncoder
from tests.engine.hearing.scenes import (
    HEARING_DATA,
    RATE,
    VOICES,
    make_scene,
    music,
    read_audio,
    script_wer,
    voice_at,
    write_video,
)


@pytest.fixture(scope="module")
def whisper():
    return load_whisper("base")


@pytest.fixture(scope="module")
def encoder() -> CamppSpeakerEncoder:
    return CamppSpeakerEncoder()


def words(*spec: tuple[float, float, str]) -> list[Word]:
    return [Word(start, end, text) for start, end, text in spec]


def test_lines_end_at_sentence_ends_and_pauses_and_keep_the_words_times() -> None:
    lines = split_lines(words((0.5, 0.8, " Hello."), (0.9, 1.2, " How"), (1.2, 1.4, " are"), (1.4, 1.7, " you"),
                              (2.6, 2.9, " Fine"), (2.9, 3.3, " thanks!")))
    assert [line.text for line in lines] == ["Hello.", "How are you", "Fine thanks!"]
    assert [(line.start, line.end) for line in lines] == [(0.5, 0.8), (0.9, 1.7), (2.6, 3.3)]


def test_a_title_s_period_does_not_end_a_line() -> None:
    said = words((0.0, 0.3, " I"), (0.3, 0.5, " think"), (0.5, 0.8, " Mr."), (0.8, 1.1, " Hale"), (1.1, 1.4, " left."),
                 (1.5, 1.8, " Dr."), (1.8, 2.0, " Watson"), (2.0, 2.3, " came."))
    assert [line.text for line in split_lines(said)] == ["I think Mr. Hale left.", "Dr. Watson came."]


def test_chinese_lines_end_at_chinese_sentence_ends() -> None:
    """The marks are the language table's: 。！？ end a line, ， only cuts an over-long one."""
    lines = split_lines(words((0.0, 0.4, "你好，"), (0.4, 0.9, "王经理。"), (1.0, 1.5, "合同"), (1.5, 2.0, "签了吗？"),
                              (2.1, 2.6, "签好了！"), (2.7, 3.0, "谢谢")))
    assert [line.text for line in lines] == ["你好，王经理。", "合同签了吗？", "签好了！", "谢谢"]


def test_a_long_line_is_cut_at_its_widest_pause() -> None:
    spoken = [(i * 0.5, i * 0.5 + 0.4, f" w{i}") for i in range(30)]  # 15 s without a sentence end
    spoken[12] = (6.0, 6.4, " w12,")  # a comma makes this the place to cut
    lines = split_lines(words(*spoken))
    assert len(lines) == 2 and lines[0].text.endswith("w12,")
    assert all(line.end - line.start <= 12.0 for line in lines)


def test_clustering_counts_speakers_and_honours_a_given_count() -> None:
    rng = np.random.default_rng(1)
    common = rng.standard_normal(256)
    voices = [common + 0.8 * rng.standard_normal(256) for _ in range(3)]
    voice_of = np.arange(60) // 8 % 3  # the three voices in turns of eight windows (4 s)
    embeddings = np.array([voices[v] + 0.4 * rng.standard_normal(256) for v in voice_of])
    starts = np.arange(60) * speakers.HOP_S + np.arange(60) // 8 * 1.0  # a second's pause between turns
    labels, count = speakers.cluster(embeddings, starts)
    assert count == 3
    assert labels.tolist() == voice_of.tolist()  # numbered in order of first appearance
    assert speakers.cluster(embeddings, starts, speakers=2)[1] == 2
    one_voice = np.array([voices[0] + 0.4 * rng.standard_normal(256) for _ in range(40)])
    assert speakers.cluster(one_voice, starts[:40])[1] == 1


def test_no_windows_are_no_speakers() -> None:
    windows = speakers.EmbeddingWindows()
    assert windows.embeddings().shape == (0, 0)
    labels, count = speakers.cluster(windows.embeddings(), windows.starts)
    assert count == 0 and labels.size == 0


def test_more_voices_than_the_cap_are_as_many_speakers_as_allowed_not_one() -> None:
    # Twenty voices, each in three turns of 3 s: the eigenvalue ratios under the cap are all near
    # one (the gap is at twenty), as on a long recording of many voices. Read as a count, they
    # gave one speaker; the windows are split into the most speakers allowed instead. Laid out as
    # CAM++ lays out voices: two voices about 0.3 alike, two windows of one voice about 0.9.
    rng = np.random.default_rng(1)
    common = rng.standard_normal(192)
    voices = [common + 1.5 * rng.standard_normal(192) for _ in range(20)]
    voice_of = np.repeat(rng.permutation(np.repeat(np.arange(20), 3)), 6)
    embeddings = np.array([voices[v] + 0.6 * rng.standard_normal(192) for v in voice_of])
    labels, count = speakers.cluster(embeddings, np.arange(len(voice_of)) * speakers.HOP_S)
    assert count == speakers.MAX_SPEAKERS
    assert np.bincount(labels).max() <= 0.2 * len(labels)  # about two voices each, none taking many


def test_a_window_unlike_its_neighbourhood_takes_the_neighbourhood_s_speaker() -> None:
    # One window in the middle of the second voice's turn sounds like the first voice (a
    # cough, a word said over): the windows within two seconds of it decide.
    rng = np.random.default_rng(2)
    common = rng.standard_normal(256)
    voices = [common + 0.8 * rng.standard_normal(256) for _ in range(2)]
    voice_of = np.arange(48) // 12 % 2
    embeddings = np.array([voices[v] + 0.4 * rng.standard_normal(256) for v in voice_of])
    embeddings[18] = voices[0] + 0.4 * rng.standard_normal(256)
    labels, count = speakers.cluster(embeddings, np.arange(48) * speakers.HOP_S + np.arange(48) // 12 * 1.0)
    assert count == 2
    assert labels.tolist() == voice_of.tolist()


def test_the_audio_comes_in_windows_cut_in_pauses(tmp_path: Path) -> None:
    turns = make_scene(tmp_path / "scene.mp4", ["maya", "rex", "narrator"], gap_s=1.0)
    windows = list(audio_windows(tmp_path / "scene.mp4", None, window_s=8.0))
    assert all(len(w.audio) <= 8.0 * SAMPLE_RATE for w in windows) and len(windows) >= 3
    for before, after in zip(windows, windows[1:]):
        assert after.start_s == pytest.approx(before.start_s + len(before.audio) / SAMPLE_RATE)
    assert windows[-1].start_s + len(windows[-1].audio) / SAMPLE_RATE == pytest.approx(turns[-1].end + 1.0, abs=0.1)


@pytest.fixture(scope="module")
def three_voices(tmp_path_factory: pytest.TempPathFactory, whisper, encoder):
    folder = tmp_path_factory.mktemp("three")
    turns = make_scene(folder / "scene.mp4", ["maya", "rex", "narrator", "maya", "rex", "narrator"])
    stages: list[str] = []
    heard = transcribe_media(folder / "scene.mp4", whisper, encoder,
                             progress=lambda stage, fraction: stages.append(stage))
    return turns, heard, stages


def test_three_voices_are_three_speakers_with_their_lines(three_voices) -> None:
    turns, heard, stages = three_voices
    assert heard.speaker_count == 3 and heard.language == "en" and heard.language_sure
    assert list(dict.fromkeys(stage.partition(":")[0] for stage in stages)) == ["listening", "speakers", "clips"]
    voice_of: dict[int, set[str]] = {}
    for line in heard.lines:
        voice_of.setdefault(line.speaker, set()).add(voice_at(turns, line.start, line.end))
        inside = [t for t in turns if t.start - 0.25 <= line.start and line.end <= t.end + 0.25]  # word times: ±0.2 s
        assert inside, f"line {line.text!r} at {line.start:.2f}-{line.end:.2f} is not inside one turn"
    assert sorted(v for names in voice_of.values() for v in names) == ["maya", "narrator", "rex"]
    assert script_wer(turns, " ".join(line.text for line in heard.lines)) < 0.35


def test_each_speaker_s_best_candidate_is_their_own_speech(three_voices) -> None:
    turns, heard, _ = three_voices
    for speaker, found in heard.candidates.items():
        assert found, f"speaker {speaker} has no clip candidate"
        best = found[0]
        assert SHORTEST_CLIP_S <= best.duration_s <= MAX_CLIP_S + 0.5
        own = {voice_at(turns, line.start, line.end) for line in heard.lines if line.speaker == speaker}
        assert voice_at(turns, best.start, best.end) in own and best.text
        assert [c.score for c in found] == sorted((c.score for c in found), reverse=True)


def test_no_audio_stream_silence_and_music_are_refused_with_codes(tmp_path: Path, whisper, encoder) -> None:
    cases = {
        "no-audio.mp4": (None, ErrorCode.NO_AUDIO_STREAM),
        "silence.mp4": (np.zeros(6 * RATE, np.float32), ErrorCode.NO_SPEECH),
        "music.mp4": (music(12.0), ErrorCode.NO_SPEECH),
    }
    for name, (audio, code) in cases.items():
        write_video(tmp_path / name, audio, 6.0 if audio is None else len(audio) / RATE)
        with pytest.raises(HearingError) as raised:
            transcribe_media(tmp_path / name, whisper, encoder)
        assert raised.value.code is code, name


def test_bad_options_are_refused_before_any_decoding(tmp_path: Path, whisper, encoder) -> None:
    missing = tmp_path / "never-read.mp4"  # the options are checked first: the file is never opened
    for options, code in (
        (Options(language="xx"), ErrorCode.UNKNOWN_LANGUAGE),
        (Options(speakers=0), ErrorCode.BAD_SPEAKER_COUNT),
        (Options(translate_to="fr"), ErrorCode.TRANSLATION_TARGET),
    ):
        with pytest.raises(HearingError) as raised:
            transcribe_media(missing, whisper, encoder, options)
        assert raised.value.code is code and str(raised.value).startswith(code.value)


def test_cancel_stops_between_windows(tmp_path: Path, whisper, encoder) -> None:
    make_scene(tmp_path / "scene.mp4", ["maya", "rex"])
    cancel = threading.Event()
    with pytest.raises(HearingError) as raised:
        transcribe_media(tmp_path / "scene.mp4", whisper, encoder,
                         progress=lambda stage, fraction: cancel.set(), cancel=cancel)
    assert raised.value.code is ErrorCode.CANCELLED


RECORDED = Path(__file__).resolve().parents[1] / "data" / "ge2e"  # real recorded speech (see its NOTICE.md)


def _clustered(audio: np.ndarray, lines: list, encoder) -> tuple[int, list[int]]:
    """The speakers the windows over ``lines`` cluster into, and each line's speaker."""
    windows = speakers.EmbeddingWindows()
    windows.add(audio, 0.0, lines, encoder)
    labels, count = speakers.cluster(windows.embeddings(), windows.starts)
    return count, [speakers.assign([line], windows, labels)[0].speaker for line in lines]


def _lines_of(clips: list[tuple[str, float, float]], gap_s: float = 0.8) -> tuple[np.ndarray, list, list[str]]:
    """Pieces of real speech one after another (a clip's name, from, to: seconds into it) as the
    recording, a line whose words span each, and who says each line."""

    audio, lines, said_by, at = [], [], [], 0.0
    for name, begin, finish in clips:
        path = next(folder / f"{name}{suffix}" for folder, suffix in ((VOICES, ".wav"), (RECORDED, ".flac"),
                                                                      (HEARING_DATA, ".mp3"), (HEARING_DATA, ".flac"))
                    if (folder / f"{name}{suffix}").exists())
        speech = read_audio(path, SAMPLE_RATE)[int(begin * SAMPLE_RATE): int(finish * SAMPLE_RATE)]
        length = len(speech) / SAMPLE_RATE
        spoken = [(at + t, at + min(t + 0.4, length)) for t in np.arange(0.0, length - 0.1, 0.5)]
        lines.append(Line(words(*[(a, b, " word") for a, b in spoken])))
        said_by.append(name)
        audio += [speech, np.zeros(int(gap_s * SAMPLE_RATE), np.float32)]
        at += length + gap_s
    return np.concatenate(audio), lines, said_by


def test_two_alike_voices_of_real_speech_are_two_speakers_and_one_voice_is_one(encoder) -> None:
    # Rex and the narrator are the two most alike bundled voices (their 2 s pieces score 0.63-0.86
    # against each other, as alike as one voice's own pieces): the count must still part them, in
    # turns of 3-4 s, and must not split one voice heard in two turns.
    audio, lines, said_by = _lines_of([("rex", 0.0, 3.5), ("narrator", 0.0, 3.0), ("rex", 3.5, 7.4),
                                       ("narrator", 3.0, 6.3)])
    windows = speakers.EmbeddingWindows()
    windows.add(audio, 0.0, lines, encoder)
    labels, count = speakers.cluster(windows.embeddings(), windows.starts)
    assert count == 2
    speaker_of = [speakers.assign([line], windows, labels)[0].speaker for line in lines]
    assert speaker_of[0] == speaker_of[2] != speaker_of[1] == speaker_of[3], list(zip(said_by, speaker_of))
    audio, lines, _ = _lines_of([("narrator", 0.0, 3.5), ("narrator", 3.5, 6.3)])
    windows = speakers.EmbeddingWindows()
    windows.add(audio, 0.0, lines, encoder)
    assert speakers.cluster(windows.embeddings(), windows.starts)[1] == 1


def test_four_voices_in_short_turns_are_four_speakers(encoder) -> None:
    """Four voices taking turns of about 3 s, twice each: the bundled three (Rex and the narrator
    the most alike) and a real recorded woman on a phone line (sheila.flac)."""
    turns = [("maya", 0.0, 2.8), ("rex", 0.0, 3.8), ("narrator", 0.0, 3.2), ("sheila", 0.0, 3.2),
             ("maya", 2.8, 5.6), ("rex", 3.8, 7.6), ("narrator", 3.2, 6.3), ("sheila", 3.2, 6.5)]
    audio, lines, said_by = _lines_of(turns)
    windows = speakers.EmbeddingWindows()
    windows.add(audio, 0.0, lines, encoder)
    labels, count = speakers.cluster(windows.embeddings(), windows.starts)
    assert count == 4
    speaker_of = [speakers.assign([line], windows, labels)[0].speaker for line in lines]
    heard_as: dict[str, set[int]] = {}
    for voice, speaker in zip(said_by, speaker_of):
        heard_as.setdefault(voice, set()).add(speaker)
    assert all(len(found) == 1 for found in heard_as.values()), heard_as  # each voice one speaker
    assert len(set.union(*heard_as.values())) == 4, heard_as  # and no two voices the same one


def test_listening_moves_while_whisper_has_said_nothing_yet() -> None:
    """Whisper reports a position only as it finishes a 30 s stretch of speech (the first one took
    22 s of a 64 s job at 0 %); between its segments the position is estimated from its speed,
    stops short of the stretch's end, is labelled as an estimate, and never moves the bar back."""
    reports: list[tuple[str, float]] = []
    estimated = threading.Event()

    def report(stage: str, fraction: float) -> None:
        reports.append((stage, fraction))
        if stage == "listening:estimated" and fraction > 0.1:
            estimated.set()

    listening = _Listening(report, 60.0, speed_guess=40.0, tick_s=0.01)
    listening.heard_to(0.0)
    with listening.whispering(60.0):
        assert estimated.wait(30.0)  # moving, though Whisper has not said where it is
        first = max(fraction for _stage, fraction in reports)
        # no further than 90 % of the 30 s stretch Whisper is on: 0.75 * 27 s of 60 s
        assert first <= 0.75 * 27.0 / 60.0 + 1e-9
        before = len(reports)
        listening.heard_to(5.0)  # Whisper's real position, behind the estimate: the bar holds
        held = next(report for report in reports[before:] if report[0] == "listening")
    assert held == ("listening", max(fraction for _stage, fraction in reports[:before]))
    fractions = [fraction for _stage, fraction in reports]
    assert fractions == sorted(fractions)
    assert listening.speed is not None and listening.speed > 0  # measured, for the next stretch


def test_a_speaker_with_one_short_line_is_a_speaker_of_their_own(encoder) -> None:
    """Two Mandarin speakers in long turns and a third who says one 1.2 s line (real AISHELL-1
    and PaddleSpeech recordings): too few windows for a cluster, the third voice was given to a
    speaker it does not sound like (issue 30's tuned 3-speaker dialogue: 2 speakers found)."""
    audio, lines, said_by = _lines_of([("zh_paddlespeech", 0.0, 2.6), ("zh_aishell_S0764", 0.0, 4.2),
                                       ("zh_aishell_S0724", 0.3, 1.5), ("zh_paddlespeech", 2.6, 5.0)])
    windows = speakers.EmbeddingWindows()
    windows.add(audio, 0.0, lines, encoder)
    labels, count = speakers.cluster(windows.embeddings(), windows.starts)
    assert count == 3
    speaker_of = [speakers.assign([line], windows, labels)[0].speaker for line in lines]
    assert speaker_of[0] == speaker_of[3] and len({speaker_of[0], speaker_of[1], speaker_of[2]}) == 3, \
        list(zip(said_by, speaker_of))


def test_two_people_with_one_short_line_each_are_two_speakers(encoder) -> None:
    """Two LibriSpeech readers, one 3 s line each: 8 windows, and at one speaker per five windows
    the count could only be one. One voice in two such lines stays one speaker."""
    for clips, expected in (([("libri_2414_a", 0.0, 3.0), ("libri_3080_a", 0.0, 3.0)], 2),
                            ([("libri_2414_a", 0.0, 3.0), ("libri_2414_a", 3.0, 6.0)], 1)):
        audio, lines, said_by = _lines_of(clips, gap_s=0.6)
        count, speaker_of = _clustered(audio, lines, encoder)
        assert count == expected == len(set(speaker_of)), list(zip(said_by, speaker_of))


def test_three_people_one_short_line_each_are_three_speakers(encoder) -> None:
    """A team's first scene: three people, one line each, the middle one 1.9 s (real LibriSpeech
    recordings and the bundled Maya). The eigenvalues found two voices; Maya's two windows went
    into the first man's cluster (0.20 like him), which, loosened to 0.66, let no window of hers
    stand out as a voice of its own: 2 speakers for 3."""
    audio, lines, said_by = _lines_of([("libri_2414_a", 0.0, 4.5), ("maya", 0.0, 1.9), ("libri_3080_a", 0.0, 4.5)],
                                      gap_s=0.6)
    count, speaker_of = _clustered(audio, lines, encoder)
    assert count == 3 and len(set(speaker_of)) == 3, list(zip(said_by, speaker_of))


def test_a_short_line_is_not_stretched_over_speech_another_line_shares() -> None:
    """The stretch of :func:`unheard.reaching` is only the speech of a short line's own turn: not
    where another line shares its stretch of speech (a meeting's "yeah" among others' words took
    their speech: AMI tst00's four speakers came out three). Real LibriSpeech speech."""
    audio, lines, _ = _lines_of([("libri_2414_a", 0.0, 3.0), ("libri_3080_a", 0.0, 1.9), ("libri_1688_c", 0.0, 3.0)],
                                gap_s=0.9)
    her = lines[1]
    shared = [Line(words((her.start, her.start + 0.44, " Well"))), Line(words((her.end - 0.5, her.end, " yes")))]
    frames = unheard.speech_frames(audio)
    assert [(line.start, line.end) for line in unheard.reaching([lines[0], *shared, lines[2]], 0.0, frames)[1:3]] \
        == [(line.start, line.end) for line in shared]
    alone = unheard.reaching([lines[0], shared[0], lines[2]], 0.0, frames)[1]
    assert alone.end > her.end - 0.2, (alone.start, alone.end, her.end)
    # A line whose margin runs past the window's last frame (the window ends in its speech).
    last = Line(words((len(audio) / SAMPLE_RATE - 0.3, len(audio) / SAMPLE_RATE, " end")))
    assert unheard.reaching([lines[0], last], 0.0, frames)[1].end == last.end


def test_a_loose_voice_with_two_short_lines_of_its_own_is_a_speaker(encoder) -> None:
    """A woman answered twice in 1.8 s turns recorded on two days (one LibriSpeech reader's two
    recordings, so her four windows are loose) between Rex's turns. Her windows made a cluster too
    small to be a speaker, not tight enough for a voice of its own, and it was merged into Rex's,
    which it barely resembled: 1 or 3 speakers for 2 (held-out Y3: a rasping voice's two turns,
    0.26 like the man she answered, merged into him)."""
    clips = [("libri_3080_b", 0.0, 1.8), ("rex", 0.0, 3.2), ("libri_3080_c", 0.0, 1.8), ("rex", 3.8, 7.0)]
    audio, lines, said_by = _lines_of(clips, gap_s=0.6)
    count, speaker_of = _clustered(audio, lines, encoder)
    assert count == 2 and speaker_of[0] == speaker_of[2] != speaker_of[1] == speaker_of[3], list(zip(said_by, speaker_of))


def test_a_voice_whose_second_reply_ran_into_the_next_line_is_one_speaker(encoder) -> None:
    """A woman answers twice (one LibriSpeech reader's two recordings, 1.8 s each) between a man's
    and Maya's turns; her second reply runs into the man's next line (Whisper joined them, 0.5 s
    apart). Her four windows made a stray cluster whose windows of that joined line share a
    stretch with his, so it held no lines of its own and was merged: her voice came out in three
    pieces, 4 speakers for 3 (held-out W8: a Mandarin turn's cluster, 0.78 plain, < 0.1 like
    everyone, lost one window over a joined line's pause and the voice). Her own line alone says
    she is a voice."""
    clips = [("libri_2414_a", 0.0, 3.2), ("libri_3080_b", 0.0, 1.8), ("maya", 0.0, 3.0), ("libri_3080_c", 0.0, 1.8),
             ("libri_2414_a", 3.2, 6.0), ("maya", 3.0, 5.8)]
    audio, lines, said_by = _lines_of(clips, gap_s=0.5)
    heard = [*lines[:3], Line(lines[3].words + lines[4].words), lines[5]]
    windows = speakers.EmbeddingWindows()
    windows.add(audio, 0.0, heard, encoder)
    labels, count = speakers.cluster(windows.embeddings(), windows.starts)
    speaker_of = [speakers.assign([line], windows, labels)[0].speaker for line in lines]
    assert count == 3 and speaker_of[0] == speaker_of[4] != speaker_of[1] == speaker_of[3] != speaker_of[2] == speaker_of[5], \
        list(zip(said_by, speaker_of))


def test_a_quick_reply_with_a_window_across_the_turn_change_is_its_own_speaker(encoder) -> None:
    """Quick replies 0.25 s apart, all heard as one line (Whisper ends lines at 0.6 s pauses): a
    PaddleSpeech speaker, an AISHELL-1 speaker's 1.3 s reply, the first again, Rex's 1.4 s. The
    line is cut and its parts clustered again; the reply's small cluster held a window across the
    turn change, half the first voice, which made it 0.4 like him, so it was merged into him: 2
    speakers for 3 (held-out R4, three men's replies: 2 for 3, 77.5 % right). The reply is its
    own speaker now; the first voice's second 1.1 s piece still goes to the reply's speaker."""
    audio, lines, said_by = _lines_of([("zh_paddlespeech", 0.0, 2.4), ("zh_aishell_S0724", 0.0, 1.3),
                                       ("zh_paddlespeech", 2.4, 3.5), ("rex", 0.0, 1.4)], gap_s=0.25)
    heard = [Line([word for line in lines for word in line.words])]
    windows, part_windows = speakers.EmbeddingWindows(), speakers.EmbeddingWindows()
    windows.add(audio, 0.0, heard, encoder)
    parts = [part for part in speakers.voice_changes(audio, 0.0, heard, encoder) if all(part is not line for line in heard)]
    part_windows.add(audio, 0.0, parts, encoder)
    said, labels, _ = speakers.speakers_of(heard, parts, windows, part_windows)

    def speaker_of(line: Line) -> int:
        middle = (line.start + line.end) / 2
        return min((min(abs(word.start - middle), abs(word.end - middle)), piece.speaker)
                   for piece in said for word in piece.words)[1]

    found = [speaker_of(line) for line in lines]
    assert len(np.unique(labels)) == 3 and len({found[0], found[1], found[3]}) == 3, list(zip(said_by, found))


@pytest.mark.parametrize(("brief_voice", "other"), [("maya", "narrator"), ("libri_3080_a", "zh_aishell_S0724")])
def test_a_voice_with_two_one_window_lines_in_another_s_cluster_is_a_speaker(encoder, brief_voice, other) -> None:
    """Two 1.4 s lines of one voice (one window each) between another voice's turns: the
    eigenvalues put them in the other voice's cluster, which they loosened past clean speech
    (0.70-0.77), so neither window, though unlike that voice (0.1-0.4), became a voice of its own:
    one speaker for two. Judged without the windows unlike it, the cluster is clean; the two
    windows (0.5 alike, as one voice's two sentences are) are one lone voice."""
    length = {"narrator": 6.4, "zh_aishell_S0724": 4.3}[other]
    clips = [(brief_voice, 0.0, 1.6), (other, 0.0, min(3.2, length / 2)), (brief_voice, 2.4, 4.0),
             (other, length / 2, min(length, length / 2 + 3.2))]
    audio, lines, said_by = _lines_of(clips, gap_s=0.6)
    count, speaker_of = _clustered(audio, lines, encoder)
    assert count == 2 and speaker_of[0] == speaker_of[2] != speaker_of[1] == speaker_of[3], list(zip(said_by, speaker_of))


def test_a_short_turn_run_into_another_voice_s_line_is_its_own_speaker(encoder) -> None:
    """A man's 6 s English turn and, 0.45 s later, a Mandarin speaker's one 1.9 s turn, heard as
    one line (Whisper ends lines only at 0.6 s pauses), among two other voices (real LibriSpeech,
    AISHELL-1 and PaddleSpeech recordings). The cut at the pause is found, but the windows
    straddling it showed a change elsewhere in the line, so the parts were not used: her windows
    went to two other speakers and she was never found (3 speakers for 4; as higgs-audio's Mabel
    after Ma Baoguo in k39b's 4-voice scene)."""
    audio, lines, said_by = _lines_of([("zh_paddlespeech", 0.0, 2.5), ("libri_2414_a", 0.0, 6.0),
                                       ("zh_aishell_S0724", 0.0, 1.9), ("libri_1688_a", 0.0, 4.0),
                                       ("zh_paddlespeech", 2.5, 5.0), ("libri_1688_a", 4.0, 8.1)], gap_s=0.45)
    heard = [lines[0], Line(lines[1].words + lines[2].words), *lines[3:]]
    windows, part_windows = speakers.EmbeddingWindows(), speakers.EmbeddingWindows()
    windows.add(audio, 0.0, heard, encoder)
    parts = [part for part in speakers.voice_changes(audio, 0.0, heard, encoder) if all(part is not line for line in heard)]
    part_windows.add(audio, 0.0, parts, encoder)
    said, _, _ = speakers.speakers_of(heard, parts, windows, part_windows)
    speaker_of = [{line.speaker for line in said if line.start < turn.end and line.end > turn.start} for turn in lines]
    assert all(len(found) == 1 for found in speaker_of), list(zip(said_by, speaker_of))
    assert speaker_of[0] == speaker_of[4] and speaker_of[3] == speaker_of[5], list(zip(said_by, speaker_of))
    assert len(set.union(*speaker_of)) == 4, list(zip(said_by, speaker_of))


def test_a_quick_reply_whose_pause_whisper_gave_to_a_word_is_its_own_speaker(encoder) -> None:
    """A man's 4 s line and, 0.45 s later, a woman's 1.9 s reply, her only words, among two other
    turns of his and a third voice (real LibriSpeech recordings, tests/data/hearing), written as
    one line whose words have no gap: Whisper gave the silence to a word ("inf-" then "-" over
    0.56 s before Amy's reply in a held-out scene). No cut was tried there, her windows went to
    the man and she was never found (2 speakers for 3)."""
    audio, lines, said_by = _lines_of([("libri_2414_a", 0.0, 4.0), ("libri_3080_a", 0.0, 1.9),
                                       ("libri_1688_c", 0.0, 4.0), ("libri_2414_a", 4.0, 8.0),
                                       ("libri_1688_c", 4.0, 8.0)], gap_s=0.45)
    over_the_pause = Word(lines[0].end, lines[1].start, " -")
    heard = [Line(lines[0].words + [over_the_pause] + lines[1].words), *lines[2:]]
    windows, part_windows = speakers.EmbeddingWindows(), speakers.EmbeddingWindows()
    windows.add(audio, 0.0, heard, encoder)
    parts = [part for part in speakers.voice_changes(audio, 0.0, heard, encoder) if all(part is not line for line in heard)]
    assert len(parts) == 2 and parts[1].start >= lines[1].start, [(part.start, part.end) for part in parts]
    part_windows.add(audio, 0.0, parts, encoder)
    said, _, _ = speakers.speakers_of(heard, parts, windows, part_windows)
    speaker_of = [{line.speaker for line in said if line.start < turn.end and line.end > turn.start} for turn in lines]
    assert all(len(found) == 1 for found in speaker_of), list(zip(said_by, speaker_of))
    assert speaker_of[0] == speaker_of[3] and speaker_of[2] == speaker_of[4], list(zip(said_by, speaker_of))
    assert len(set.union(*speaker_of)) == 3, list(zip(said_by, speaker_of))


@pytest.mark.parametrize("first_s", [2.0, 2.1])
def test_four_quick_turns_in_one_line_are_cut_at_every_turn_change(encoder, first_s: float) -> None:
    """Two Mandarin voices taking four quick turns 0.25 s apart (real PaddleSpeech and AISHELL-1
    speech), heard as one of Whisper's lines, as in held-out F10. Each tried cut heard up to 3 s
    of speech either side, which straddled the next turn, so no cut looked like a change but the
    last: the middle turns' windows were split between the two voices. Each side heard only up
    to the neighbouring tried cuts, every turn change is cut and every turn has its speaker."""
    audio, lines, said_by = _lines_of([("zh_paddlespeech", 0.0, first_s), ("zh_aishell_S0764", 0.0, 3.5 - first_s),
                                       ("zh_paddlespeech", first_s, 2 * first_s),
                                       ("zh_aishell_S0764", 3.5 - first_s, 7.0 - 2 * first_s)], gap_s=0.25)
    heard = [Line([word for line in lines for word in line.words])]
    parts = [part for part in speakers.voice_changes(audio, 0.0, heard, encoder) if part is not heard[0]]
    assert [part.start for part in parts] == pytest.approx([turn.start for turn in lines], abs=0.15), \
        [(part.start, part.end) for part in parts]
    windows, part_windows = speakers.EmbeddingWindows(), speakers.EmbeddingWindows()
    windows.add(audio, 0.0, heard, encoder)
    part_windows.add(audio, 0.0, parts, encoder)
    said, _, _ = speakers.speakers_of(heard, parts, windows, part_windows)
    speaker_of = [{line.speaker for line in said if line.start < turn.end and line.end > turn.start} for turn in lines]
    assert all(len(found) == 1 for found in speaker_of), list(zip(said_by, speaker_of))
    assert speaker_of[0] == speaker_of[2] != speaker_of[1] == speaker_of[3], list(zip(said_by, speaker_of))


def test_a_turn_whisper_heard_one_word_of_is_found_by_the_speech_after_the_word(encoder) -> None:
    """A man's 4 s line, a woman's 1.9 s turn of which Whisper wrote one word (0.44 s) and nothing
    more, even decoded again, and another man's line (real LibriSpeech recordings,
    tests/data/hearing): as held-out Y1's Fiona, her one window was half silence, went to the
    first man and she was never found (2 speakers for 3). Her line now reaches over the rest of
    her speech, which no line covers."""
    audio, lines, said_by = _lines_of([("libri_2414_a", 0.0, 4.0), ("libri_3080_a", 0.0, 1.9),
                                       ("libri_1688_c", 0.0, 4.0)], gap_s=0.9)
    her = lines[1]
    heard = unheard.reaching([lines[0], Line(words((her.start, her.start + 0.44, " Well"))), lines[2]], 0.0,
                             unheard.speech_frames(audio))
    assert heard[1].end == pytest.approx(her.end + 0.1, abs=0.15), (heard[1].start, heard[1].end, her.end)
    assert [(line.start, line.end) for line in (heard[0], heard[2])] == [(lines[0].start, lines[0].end),
                                                                         (lines[2].start, lines[2].end)]
    windows, part_windows = speakers.EmbeddingWindows(), speakers.EmbeddingWindows()
    windows.add(audio, 0.0, heard, encoder)
    parts = [part for part in speakers.voice_changes(audio, 0.0, heard, encoder) if all(part is not line for line in heard)]
    part_windows.add(audio, 0.0, parts, encoder)
    said, _, _ = speakers.speakers_of(heard, parts, windows, part_windows)
    assert len({line.speaker for line in said}) == 3, [(line.start, line.end, line.speaker) for line in said]


def test_a_lone_word_at_the_start_of_a_turn_is_not_a_voice_of_its_own(tmp_path: Path, whisper, encoder) -> None:
    """A man, then a woman (two LibriSpeech recordings, tests/data/hearing) whose turn opens with
    "Well," alone (0.5 s, then a pause): its 1 s window is half silence, 0.35 like her, and was
    taken for a third voice, a speaker with one word and no clip."""
    turns = make_scene(tmp_path / "scene.mp4", ["libri_1688_c", "libri_3080_c"])
    heard = transcribe_media(tmp_path / "scene.mp4", whisper, encoder, Options(language="en"))
    assert heard.speaker_count == 2, [(line.text, line.speaker) for line in heard.lines]
    assert {voice_at(turns, line.start, line.end) for line in heard.lines if line.speaker == heard.lines[-1].speaker} \
        == {"libri_3080_c"}


def test_one_woman_s_two_recordings_with_a_man_between_are_one_speaker(tmp_path: Path, whisper, encoder) -> None:
    """Two recordings of one LibriSpeech woman with a man's between them (tests/data/hearing):
    her first recording came out as two tight clusters 0.68 alike that take over from each other
    inside one line, kept apart under the 0.7 join, and she was two speakers (3 for 2, 72 % of
    the speech to the right one). A voice does not change to another person without a pause."""
    turns = make_scene(tmp_path / "scene.mp4", ["libri_3080_b", "libri_1688_c", "libri_3080_c"])
    heard = transcribe_media(tmp_path / "scene.mp4", whisper, encoder, Options(language="en"))
    assert heard.speaker_count == 2, [(line.text, line.speaker) for line in heard.lines]
    voices_of: dict[int, set[str | None]] = {}
    for line in heard.lines:
        voices_of.setdefault(line.speaker, set()).add(voice_at(turns, line.start, line.end))
    assert sorted(map(sorted, voices_of.values())) == [["libri_1688_c"], ["libri_3080_b", "libri_3080_c"]], voices_of


@pytest.mark.parametrize(("spread", "least", "most"), [(0.87, 0.7, 0.8), (1.2, 0.6, 0.7)])
def test_tight_clusters_that_change_inside_one_stretch_of_speech_are_one_voice(spread: float, least: float,
                                                                               most: float) -> None:
    # Two tight clusters 0.75 alike (CAM++ scores one Mandarin speaker's parts of a 7 s utterance
    # 0.66-0.74 alike, and two alike voices 0.78), or 0.65 alike (Ma Baoguo's calm and shouted
    # words in one line, higgs-audio's mabaoguo.wav, 0.64: he was three speakers of a 3-speaker
    # dialogue's five): taking turns after pauses they are two voices; taking over from each
    # other inside one line, with no pause, one.
    rng = np.random.default_rng(3)
    base = rng.standard_normal(192)
    other = base + spread * rng.standard_normal(192)
    voice_of = np.arange(40) // 5 % 2  # turns of five windows
    embeddings = np.array([(base, other)[v] + 0.25 * rng.standard_normal(192) for v in voice_of])
    means = [speakers.unit_vectors(embeddings[voice_of == v].mean(axis=0)) for v in (0, 1)]
    assert least <= float(means[0] @ means[1]) < most
    turn = np.arange(40) // 5
    after_pauses = np.arange(40) * speakers.HOP_S + turn * 1.0  # a second's pause between turns
    assert speakers.cluster(embeddings, after_pauses)[1] == 2
    in_one_line = np.arange(40) * speakers.HOP_S
    assert speakers.cluster(embeddings, in_one_line)[1] == 1


@pytest.mark.parametrize(("first", "second", "turn_s"), [("libri_4813_a", "libri_8580_a", 2.5),
                                                      ("libri_8580_a", "libri_4813_a", 3.0)])
def test_two_strangers_whose_quick_turns_are_one_line_are_two_speakers(encoder, first: str, second: str,
                                                                     turn_s: float) -> None:
    """Fresh held-out G8 and G10 (AISHELL-3 voices, replies 0.2-0.4 s apart): Whisper wrote the
    whole scene as one line, so no two clusters took turns after a pause, and two women's
    clusters, 0.55-0.56 alike, were joined as one voice's parts. The windows across each change
    hold both voices: two LibriSpeech strangers (tests/data/hearing, 0.55 alike) in one line are
    0.58-0.63 alike with them, 0.47-0.52 without; one woman's two recordings 0.60-0.69 without."""
    def heard_as_one_line(a: str, b: str) -> tuple[int, list[int]]:
        audio, lines, _ = _lines_of([(a, 0.0, turn_s), (b, 0.0, turn_s), (a, turn_s, 2 * turn_s),
                                     (b, turn_s, 2 * turn_s)], gap_s=0.3)
        windows = speakers.EmbeddingWindows()
        windows.add(audio, 0.0, [Line([word for line in lines for word in line.words])], encoder)
        labels, count = speakers.cluster(windows.embeddings(), windows.starts)
        return count, [speakers.assign([line], windows, labels)[0].speaker for line in lines]

    count, speaker_of = heard_as_one_line(first, second)
    assert count == 2 and speaker_of[0] == speaker_of[2] != speaker_of[1] == speaker_of[3], speaker_of
    assert heard_as_one_line("libri_3080_b", "libri_3080_c")[0] == 1  # one woman's two recordings


@pytest.mark.parametrize("turns", [
    [("libri_3080_a", 0.0, 3.0), ("libri_2414_a", 0.0, 3.0), ("libri_1688_a", 0.0, 1.5), ("libri_3080_a", 3.0, 6.0)],
    [("libri_1688_a", 0.0, 3.0), ("libri_2414_a", 0.0, 3.0), ("zh_paddlespeech", 0.0, 1.5), ("libri_1688_a", 3.0, 6.0)],
], ids=["en", "en-zh"])
def test_a_one_window_voice_in_a_four_window_cluster_is_a_speaker(encoder, turns) -> None:
    """Spent Y1 (Fiona's one line, 0.12 like everyone, in Shrek's four windows) and F9 (a
    newsreader's one line, 0.09, in a Mandarin reader's four): the cluster, loosened to 0.75 by
    the one unlike window, was not clean, and four windows left were too few to judge it without
    that window. A voice with one 3 s line and one with one 1.5 s line between two turns of a third
    (0.6 s apart): wrong on 116 of 149 such scenes of the tests' clips before, 6 after."""
    audio, lines, said_by = _lines_of(turns, gap_s=0.6)
    count, speaker_of = _clustered(audio, lines, encoder)
    assert count == 3, list(zip(said_by, speaker_of))
    assert speaker_of[0] == speaker_of[3] and len(set(speaker_of)) == 3, list(zip(said_by, speaker_of))


@pytest.mark.parametrize("reply", [
    [("libri_2414_a", 0.0, 3.0), ("libri_1688_a", 0.0, 2.5), ("libri_2414_a", 3.0, 6.0), ("libri_1688_a", 2.5, 5.0),
     ("libri_1688_b", 0.0, 0.9)],
    [("libri_4813_a", 0.0, 3.0), ("libri_3080_a", 0.0, 2.5), ("libri_4813_a", 3.0, 6.0), ("libri_3080_a", 2.5, 5.0),
     ("libri_3080_b", 1.0, 1.9)],
], ids=["1688", "3080"])
def test_a_short_reply_from_another_recording_of_a_voice_is_hers(encoder, reply) -> None:
    """Spent Q6 and fresh G7: a speaker's last reply, 0.9 s from another recording of her voice,
    is one window under LONE_VOICE like everyone but 0.3-0.4 like her, and was a third speaker.
    Two voices taking turns, the second's reply from her other recording: 8 of 48 such scenes of
    the tests' clips had a third speaker for it before, none after."""
    audio, lines, said_by = _lines_of(reply, gap_s=0.6)
    count, speaker_of = _clustered(audio, lines, encoder)
    assert count == 2, list(zip(said_by, speaker_of))
    assert speaker_of == [0, 1, 0, 1, 1], list(zip(said_by, speaker_of))


@pytest.mark.parametrize("first, second, reply", [
    ("libri_2414_a", "libri_1688_a", ("libri_1688_b", 0.0, 0.9)),
    ("libri_4813_a", "libri_3080_a", ("libri_3080_b", 1.0, 1.9)),
], ids=["1688", "3080"])
def test_a_short_reply_heard_in_the_other_voice_s_line_is_hers(encoder, first, second, reply) -> None:
    """Fresh G7: a woman's 0.9 s reply 0.4 s after another's words, in one of Whisper's lines, cut
    there and clustered again; its one window, 0.39 like the speaker it was put in, was made a
    fifth speaker by the quick-reply rule. Two voices taking turns, the second's last reply from
    her other recording in the first's line: a third speaker on 3 of 36 such scenes of the tests'
    clips with the lone-window rule alone, none with it here too."""
    audio, lines, said_by = _lines_of([(first, 0.0, 3.0), (second, 0.0, 2.5), (first, 3.0, 4.5), (second, 2.5, 5.0),
                                       (first, 4.5, 6.0), reply], gap_s=0.5)
    heard = [*lines[:4], Line(lines[4].words + lines[5].words)]
    windows, part_windows = speakers.EmbeddingWindows(), speakers.EmbeddingWindows()
    windows.add(audio, 0.0, heard, encoder)
    parts = [part for part in speakers.voice_changes(audio, 0.0, heard, encoder) if all(part is not line for line in heard)]
    part_windows.add(audio, 0.0, parts, encoder)
    said, _, _ = speakers.speakers_of(heard, parts, windows, part_windows)
    assert [line.speaker for line in said] == [0, 1, 0, 1, 0, 1], [(line.start, line.speaker) for line in said]


def test_a_pair_that_must_stay_apart_does_not_stop_the_other_joins() -> None:
    # AMI trn06 (one far-field voice) came out as four speakers: its most alike pair, two tight
    # clusters 0.79 alike after pauses, stays apart under the clean rule (as Rex and the narrator
    # must), and that stopped every join, though a loose cluster was 0.73 like one of them.
    # Synthetic 192-d windows: two tight clusters (coherence 0.92) about 0.79 alike, and a loose
    # one (0.68) about 0.73 like the first, in turns of six windows after pauses.
    rng = np.random.default_rng(1)
    axes = np.linalg.qr(rng.standard_normal((192, 3)))[0].T
    centres = np.array([axes[0], 0.8 * axes[0] + 0.6 * axes[1], 0.77 * axes[0] + np.sqrt(1 - 0.77 ** 2) * axes[2]])
    spread = np.array([0.45, 0.45, 1.2])
    group = np.repeat([0, 1, 2, 0, 1, 2], 6)
    embeddings = centres[group] + spread[group, None] * rng.standard_normal((len(group), 192)) / np.sqrt(192)
    starts = np.arange(len(group)) * speakers.HOP_S + np.arange(len(group)) // 6 * 1.0
    unit = speakers.unit_vectors(embeddings)
    means = speakers.unit_vectors(np.array([unit[group == g].mean(axis=0) for g in range(3)]))
    assert means[0] @ means[2] < means[0] @ means[1] < speakers.SAME_VOICE_CLEAN
    assert float(np.linalg.norm(unit[group == 2].mean(axis=0))) < speakers.CLEAN_COHERENCE
    tight_pair = group < 2
    assert speakers.cluster(embeddings[tight_pair], starts[tight_pair])[1] == 2  # alone, two voices
    assert speakers.cluster(embeddings, starts)[1] == 1


def test_a_few_windows_are_not_taken_for_a_tight_cluster() -> None:
    # AMI trn00: one far-field voice before and after another speaker, 8 and 10 windows 0.71
    # alike, each a little over the clean coherence (0.81, 0.83) only because the mean of a few
    # unit vectors is longer than the mean of many: kept apart by the clean rule, 3 speakers for 2.
    # Synthetic 192-d windows of that shape (the voice's parts 0.73 alike; raw coherence 0.81).
    rng = np.random.default_rng(0)
    axes = np.linalg.qr(rng.standard_normal((192, 3)))[0].T
    centres = np.array([axes[0], axes[2], 0.78 * axes[0] + np.sqrt(1 - 0.78 ** 2) * axes[1]])
    part = np.repeat([0, 1, 2], [8, 8, 10])  # the voice, another voice, the voice again
    spread = np.array([0.8, 0.5, 0.8])
    embeddings = centres[part] + spread[part, None] * rng.standard_normal((len(part), 192)) / np.sqrt(192)
    starts = np.arange(len(part)) * speakers.HOP_S + part * 1.0  # a second's pause between turns
    unit = speakers.unit_vectors(embeddings)
    assert all(float(np.linalg.norm(unit[part == p].mean(axis=0))) > speakers.CLEAN_COHERENCE for p in (0, 2))
    labels, count = speakers.cluster(embeddings, starts)
    assert count == 2
    assert len(set(labels[part != 1])) == 1 and labels[part == 1][0] not in labels[part != 1]



@pytest.mark.parametrize("turns", [
    # Mandarin (AISHELL-1, PaddleSpeech): the third voice says one 1.8 s line (two windows)
    [("zh_paddlespeech", 0.0, 2.6), ("zh_aishell_S0764", 0.0, 4.2), ("zh_aishell_S0724", 0.0, 1.8),
     ("zh_paddlespeech", 2.6, 5.0)],
    # English (LibriSpeech), the same shape
    [("libri_3080_a", 0.0, 4.0), ("libri_1688_a", 0.0, 4.0), ("libri_2414_a", 0.0, 1.8), ("libri_3080_a", 4.0, 7.8)],
    # four voices, two languages, one of them brief
    [("zh_paddlespeech", 0.0, 3.0), ("zh_aishell_S0764", 0.0, 4.2), ("libri_1688_a", 0.0, 3.0),
     ("zh_aishell_S0724", 0.0, 1.8), ("zh_paddlespeech", 3.0, 5.0), ("zh_aishell_S0764", 0.0, 4.2)],
], ids=["zh-3", "en-3", "mixed-4"])
def test_a_voice_with_one_brief_turn_is_a_speaker_of_their_own(encoder, turns) -> None:
    """Issue 30's held-out Mandarin scenes (3 and 4 speakers, one says a single 1.8 s line) came
    out as 2 speakers: the brief voice's few windows were merged as a stray, or sat in a loose
    cluster with other voices that the eigenvalues took as one. Real speech, turns 0.6 s apart."""
    audio, lines, said_by = _lines_of(turns, gap_s=0.6)
    windows = speakers.EmbeddingWindows()
    windows.add(audio, 0.0, lines, encoder)
    labels, count = speakers.cluster(windows.embeddings(), windows.starts)
    assert count == len(set(said_by))
    speaker_of = [speakers.assign([line], windows, labels)[0].speaker for line in lines]
    heard_as: dict[str, set[int]] = {}
    for voice, speaker in zip(said_by, speaker_of):
        heard_as.setdefault(voice, set()).add(speaker)
    assert all(len(found) == 1 for found in heard_as.values()), heard_as
    assert len(set.union(*heard_as.values())) == len(heard_as), heard_as

def test_a_loose_cluster_of_unlike_voices_is_split_and_one_voice_is_not() -> None:
    # Issue 30's held-out 4-speaker Mandarin scene: the eigenvalues gave two speakers, one cluster
    # (coherence 0.60) holding three voices 0.02-0.21 alike. Synthetic 192-d voices, as above.
    rng = np.random.default_rng(5)
    voices = rng.standard_normal((3, 192))
    voice_of = np.repeat([0, 1, 2], [10, 8, 4])
    embeddings = voices[voice_of] + 0.6 * rng.standard_normal((len(voice_of), 192))
    labels = speakers._split_loose(np.zeros(len(voice_of), dtype=int), embeddings, rng)
    assert len(np.unique(labels)) == 3
    assert all(len(np.unique(labels[voice_of == v])) == 1 for v in range(3)), labels
    one_voice = voices[0] + 1.0 * rng.standard_normal((20, 192))  # loose (coherence about 0.7), one voice
    assert len(np.unique(speakers._split_loose(np.zeros(20, dtype=int), one_voice, rng))) == 1


def test_four_voices_two_of_them_brief_are_four_speakers() -> None:
    # The same scene's turns in windows (10, 10, 8, 4, 4, 11): the fourth voice's 4 windows were
    # merged as a stray into another's cluster (3 speakers found).
    rng = np.random.default_rng(0)
    voices = rng.standard_normal((4, 192))
    rows, starts, at = [], [], 0.0
    for voice, count in [(0, 10), (1, 10), (2, 8), (3, 4), (0, 4), (1, 11)]:
        for _ in range(count):
            rows.append(voices[voice] + 0.6 * rng.standard_normal(192))
            starts.append(at)
            at += speakers.HOP_S
        at += 1.0
    assert speakers.cluster(np.array(rows), starts)[1] == 4


def _spoken(at: float, length: float) -> list[Word]:
    """Words of 0.45 s every 0.5 s over ``length`` seconds of speech from ``at``, every third one
    followed by a comma (a place where a cut is tried)."""
    return [Word(at + t, at + t + 0.45, "字，" if i % 3 == 2 else "字")
            for i, t in enumerate(np.arange(0.0, length - 0.4, 0.5))]


def test_a_line_that_two_voices_say_is_cut_where_the_voice_changes_and_each_part_has_its_speaker(encoder) -> None:
    """Issue 30's held-out Mandarin scene: a turn change 0.58 s apart, under the line cut's pause,
    left a short speaker's words inside another's line, and that voice was never found. Real
    AISHELL-1 and PaddleSpeech speech: a line of one voice that a second voice finishes after
    0.3 s (1.2 s of it) is cut at that word and each part goes to its own speaker; lines of one
    voice stay whole."""

    clips = [("zh_aishell_S0764", 0.0, 4.2), ("zh_paddlespeech", 0.0, 2.6), ("zh_aishell_S0724", 0.3, 1.5),
             ("zh_aishell_S0764", 0.0, 4.2), ("zh_paddlespeech", 2.6, 5.0)]
    gaps = [0.8, 0.3, 0.8, 0.8, 0.0]  # the second and third pieces: one line
    pieces, heard, at = [], [], 0.0
    for (name, begin, finish), gap in zip(clips, gaps):
        speech = read_audio(HEARING_DATA / f"{name}.flac", SAMPLE_RATE)[int(begin * SAMPLE_RATE): int(finish * SAMPLE_RATE)]
        heard.append(_spoken(at, len(speech) / SAMPLE_RATE))
        pieces += [speech, np.zeros(int(gap * SAMPLE_RATE), np.float32)]
        at += len(speech) / SAMPLE_RATE + gap
    audio = np.concatenate(pieces)
    whisper_lines = [Line(heard[0]), Line(heard[1] + heard[2]), Line(heard[3]), Line(heard[4])]
    lines = speakers.voice_changes(audio, 0.0, whisper_lines, encoder)
    assert [len(line.words) for line in lines] == [len(part) for part in heard]
    parts = [line for line in lines if all(line is not whole for whole in whisper_lines)]
    windows, part_windows = speakers.EmbeddingWindows(), speakers.EmbeddingWindows()
    windows.add(audio, 0.0, whisper_lines, encoder)
    part_windows.add(audio, 0.0, parts, encoder)
    said, labels, found_from = speakers.speakers_of(whisper_lines, parts, windows, part_windows)
    assert len(set(labels)) == 3 and len(labels) == len(found_from)
    # Each voice's words, the cut's two words ending and starting where the audio's silence does.
    assert [len(line.words) for line in said] == [len(part) for part in heard]
    assert all(part[0].start <= line.start < line.end <= part[-1].end for line, part in zip(said, heard))
    speaker_of = [line.speaker for line in said]
    assert speaker_of[0] == speaker_of[3] and speaker_of[1] == speaker_of[4], speaker_of
    assert len({speaker_of[0], speaker_of[1], speaker_of[2]}) == 3, speaker_of


def test_parts_of_one_voice_cut_apart_are_joined_again() -> None:
    """A cut that the speakers step finds no change of speaker at is undone; a line Whisper ended
    is not joined to the next."""

    first, second, third = _spoken(0.0, 2.0), _spoken(2.1, 2.0), _spoken(5.0, 2.0)
    said = speakers.rejoined([Line(first, 1), Line(second, 1), Line(third, 1)], [(0.0, 4.0), (5.0, 7.0)])
    assert [(len(line.words), line.speaker) for line in said] == [(len(first) + len(second), 1), (len(third), 1)]



@pytest.mark.parametrize("off_by", [-1, 1, -2, 2])
def test_a_change_the_windows_placed_a_word_off_a_cut_at_a_silence_moves_to_the_cut(encoder, off_by: int) -> None:
    """A Mandarin reply 0.2 s after the other voice's words, in one of Whisper's lines (real
    AISHELL-1 and PaddleSpeech speech): the line is cut at the silence between the two voices,
    but the silence is under TURN_PAUSE_S, so the line's windows place the change, and on a
    held-out scene they placed it a character off (我 of the first voice went to the reply). A
    change one word from the cut moves to it, the two words ending and starting where the
    silence does; one two words away is another change and stays."""
    first = read_audio(HEARING_DATA / "zh_aishell_S0764.flac", SAMPLE_RATE)[: int(3.0 * SAMPLE_RATE)]
    reply = read_audio(HEARING_DATA / "zh_paddlespeech.flac", SAMPLE_RATE)[: int(2.6 * SAMPLE_RATE)]
    audio = np.concatenate([first, np.zeros(int(0.2 * SAMPLE_RATE), np.float32), reply])
    mine, yours = _spoken(0.0, 3.0), _spoken(3.2, 2.6)
    line = Line(mine + yours)
    parts = speakers.voice_changes(audio, 0.0, [line], encoder)
    assert [len(part.words) for part in parts] == [len(mine), len(yours)]
    assert parts[0].end <= 3.05 and parts[1].start >= 3.15, (parts[0].end, parts[1].start)
    change = len(mine) + off_by
    said = [Line(line.words[:change], 0), Line(line.words[change:], 1)]
    placed = speakers._changes_at_cuts(said, [line], parts)
    if abs(off_by) == 1:
        assert [(len(piece.words), piece.speaker) for piece in placed] == [(len(mine), 0), (len(yours), 1)]
        assert (placed[0].end, placed[1].start) == (parts[0].end, parts[1].start)
    else:
        assert [(len(piece.words), piece.speaker) for piece in placed] == [(change, 0), (len(line.words) - change, 1)]
    # A change where Whisper heard a sentence end and a gap, a pause wider than the cut's silence,
    # is the turn and stays (held-out H2: 喔 | 八、九, the cut was after the reply's 八).
    ended = [*line.words[:change - 1], Word(line.words[change - 1].start, line.words[change - 1].start + 0.1, "字。"),
             *line.words[change:]]
    said = [Line(ended[:change], 0), Line(ended[change:], 1)]
    placed = speakers._changes_at_cuts(said, [Line(ended)], parts)
    assert [(len(piece.words), piece.speaker) for piece in placed] == [(change, 0), (len(line.words) - change, 1)]


@pytest.mark.parametrize("side", ["after", "before"])
def test_a_change_the_windows_placed_two_characters_off_a_cut_at_a_silence_moves_to_the_cut(encoder,
                                                                                           side: str) -> None:
    """Whisper times Mandarin a character at a time: on a fresh held-out scene (M9) the windows
    placed a turn change two characters after the cut at the silence between the voices, the
    reply's 老公 (0.24 s) going to the voice before. Real AISHELL-1 and PaddleSpeech speech 0.2 s
    apart in one line: two characters, together under MIN_TURN_S, either side of the cut move to
    it; a run as long as a turn stays (see the test above)."""
    first = read_audio(HEARING_DATA / "zh_aishell_S0764.flac", SAMPLE_RATE)[: int(3.0 * SAMPLE_RATE)]
    reply = read_audio(HEARING_DATA / "zh_paddlespeech.flac", SAMPLE_RATE)[: int(2.6 * SAMPLE_RATE)]
    audio = np.concatenate([first, np.zeros(int(0.2 * SAMPLE_RATE), np.float32), reply])
    mine = [*_spoken(0.0, 2.6), Word(2.6, 2.8, "讲"), Word(2.8, 3.0, "的")]
    yours = [Word(3.2, 3.4, "老"), Word(3.4, 3.6, "公"), *_spoken(3.6, 2.0)]
    line = Line(mine + yours)
    parts = speakers.voice_changes(audio, 0.0, [line], encoder)
    assert [len(part.words) for part in parts] == [len(mine), len(yours)]
    change = len(mine) + (2 if side == "after" else -2)
    said = [Line(line.words[:change], 0), Line(line.words[change:], 1)]
    placed = speakers._changes_at_cuts(said, [line], parts)
    assert [(len(piece.words), piece.speaker) for piece in placed] == [(len(mine), 0), (len(yours), 1)]
    assert (placed[0].end, placed[1].start) == (parts[0].end, parts[1].start)


def test_an_english_turn_and_a_mandarin_reply_in_one_wordless_stretch_get_the_english_decoded(whisper) -> None:
    """A man's 4.3 s English turn and, 0.2 s later, a 1.5 s Mandarin reply (real LibriSpeech and
    PaddleSpeech speech) make one stretch the first decoding gave no words in a Mandarin scene.
    Together Whisper's odds are English 0.57, under the 0.9 that decodes a stretch in another
    language, so the English speaker was never heard (a fresh held-out scene lost him). Alone,
    the half before the silence is surely English: it is decoded in English too, and the whole
    stretch in Mandarin as before."""
    english = read_audio(HEARING_DATA / "libri_3080_a.flac", SAMPLE_RATE)[: int(4.3 * SAMPLE_RATE)]
    reply = read_audio(HEARING_DATA / "zh_paddlespeech.flac", SAMPLE_RATE)[: int(1.5 * SAMPLE_RATE)]
    audio = np.concatenate([english, np.zeros(int(0.2 * SAMPLE_RATE), np.float32), reply])
    stretch = (0.0, len(audio) / SAMPLE_RATE)
    heard_in = _stretch_languages(whisper, audio, 0.0, [stretch], "zh")
    assert heard_in["zh"] == [stretch], heard_in
    assert [(start, round(end, 1)) for start, end in heard_in["en"]] == [(0.0, 4.3)], heard_in


class _Counting:
    """The real CAM++ encoder, counting the pieces it is given."""

    def __init__(self) -> None:
        self.encoder = CamppSpeakerEncoder()
        self.encoder_id = self.encoder.encoder_id
        self.pieces = 0

    def embed_many(self, pieces: list[np.ndarray], sample_rate: int) -> np.ndarray:
        self.pieces += len(pieces)
        return self.encoder.embed_many(pieces, sample_rate)


def test_a_piece_two_steps_share_is_embedded_once_with_the_same_vector(tmp_path: Path) -> None:
    """A part's first window that is its line's, a voice-change side tried again on a part:
    the same samples in two calls are embedded once, and each call gets the vectors embedding
    its pieces afresh would give (bit for bit)."""
    make_scene(tmp_path / "scene.flac", ["maya", "rex"])
    window = next(audio_windows(tmp_path / "scene.flac", None))
    pieces = [window.audio[start: start + length] for start, length in
              [(0, 24000), (8000, 24000), (16000, 48000), (24000, 24000)]]
    counting = _Counting()
    remembered = _RememberedEmbeddings(counting)
    first = remembered.embed_many(pieces[:3], 16000)
    second = remembered.embed_many([pieces[1], pieces[3], pieces[1]], 16000)
    assert counting.pieces == 4  # the shared piece once, the new one once
    afresh = counting.encoder.embed_many(pieces, 16000)
    assert np.array_equal(first, afresh[:3]) and np.array_equal(second, afresh[[1, 3, 1]])
    assert remembered.embed_many([], 16000).shape == (0, afresh.shape[1])
    remembered.forget()
    remembered.embed_many(pieces[:1], 16000)
    assert counting.pieces == 5  # a window's pieces are forgotten with it

def test_a_reply_left_without_words_where_its_neighbour_got_its_line_is_decoded_alone(whisper) -> None:
    """A Mandarin scene: a turn, a man's 4.3 s English turn and, 0.2 s after it, a 1.1 s Mandarin
    reply (real AISHELL-1 and LibriSpeech speech). Whisper's first pass gives the English turn and
    the reply no words; decoded again as one stretch (surely English as a whole) it gives the
    English line only, and the reply stayed wordless, so its speaker could be found by voice
    alone (fresh F4's 1.1 s reply after an English turn). What is left of the stretch is decoded
    once more on its own, in Mandarin, and the reply gets its line, which starts after the English
    line (Whisper timed its first word from the start of the surroundings decoded with it)."""
    def piece(name: str, start_s: float, end_s: float) -> np.ndarray:
        return read_audio(HEARING_DATA / name, SAMPLE_RATE)[int(start_s * SAMPLE_RATE): int(end_s * SAMPLE_RATE)]

    def silence(seconds: float) -> np.ndarray:
        return np.zeros(int(seconds * SAMPLE_RATE), np.float32)

    audio = np.concatenate([piece("zh_aishell_S0764.flac", 0.0, 3.0), silence(0.7),
                            piece("libri_8580_a.flac", 0.0, 4.3), silence(0.2),
                            piece("zh_aishell_S0724.flac", 2.0, 3.1), silence(0.5)])  # 中介协会
    reply_start = 3.0 + 0.7 + 4.3 + 0.2
    lines, silent = _hear_window(whisper, audio, 0.0, "zh", Options(), None, lambda seconds: None,
                                 other_languages=True)
    english = [line for line in lines if line.language == "en"]
    assert len(english) == 1 and english[0].text.startswith("Rapidly the airship"), lines
    reply = [line for line in lines if (line.start + line.end) / 2 > reply_start]
    assert len(reply) == 1 and "协会" in reply[0].text, lines
    assert silent == []
    # The reply's line starts where its stretch does, not in the 0.2 s decoded before it (the
    # English turn's end), where Whisper timed its first word.
    assert reply[0].start >= english[0].end + unheard.LINE_MARGIN_S - 0.01, (english[0].end, reply[0].start)

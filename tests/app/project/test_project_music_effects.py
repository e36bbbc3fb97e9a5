"""Music and effects from the source's channels (issue 33 item 3): a 5.1 source loses its
centre, the stereo filter lowers a centred voice by the figure docs/video.md reports, and the
mix puts the M&E under the dub, saying how it was made. Real recordings from resources/voices."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.project import ExportError, Project
from app.project.export import delivery_mixdown, export_stems
from app.project.music_effects import (
    CENTRE_FILTER,
    DROP_CENTRE,
    music_and_effects,
    remove_centre,
)
from engine.core.audio_io import read_audio
from engine.core.codes import ErrorCode

from .conftest import VOICES, add_fake_take, make_project, tone
from .media_fixtures import make_video

RATE = 48_000


def voice(name: str, seconds: float) -> np.ndarray:
    audio, _ = read_audio(VOICES / f"{name}.wav", RATE)
    audio = np.tile(audio, int(np.ceil(seconds * RATE / len(audio))))[: int(seconds * RATE)]
    return (audio / np.sqrt(np.mean(audio**2))).astype(np.float32)  # unit RMS


def rms_db(audio: np.ndarray) -> float:
    return float(10 * np.log10(np.mean(audio.astype(np.float64) ** 2) + 1e-20))


def write_surround(path: Path, channels: np.ndarray, layout: str = "5.1") -> Path:
    """A 5.1 (FL FR FC LFE BL BR) or 7.1 (… SL SR) FLAC track in Matroska, lossless so the test
    sees the filter only. Samples go in packed: PyAV 18 cannot fill 8 planes."""
    import av

    with av.open(str(path), "w") as out:
        stream = out.add_stream("flac", rate=RATE)
        stream.layout = layout
        for start in range(0, len(channels), 4096):
            block = np.ascontiguousarray(channels[start : start + 4096]).reshape(1, -1)
            frame = av.AudioFrame.from_ndarray(block, format="flt", layout=layout)
            frame.sample_rate, frame.pts, frame.time_base = RATE, start, Fraction(1, RATE)
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))
    return path


def test_a_5_1_source_loses_its_centre_and_keeps_the_rest(tmp_path: Path) -> None:
    dialogue = 0.2 * voice("maya", 2.0)  # in the centre for the first 2 s, then silence
    ambience = 0.1 * voice("rex", 2.0)  # front left/right and surrounds for the next 2 s
    channels = np.zeros((4 * RATE, 6), dtype=np.float32)
    channels[: 2 * RATE, 2] = dialogue
    channels[2 * RATE :, [0, 1, 4, 5]] = ambience[:, None]
    out, method = music_and_effects(write_surround(tmp_path / "film.mkv", channels), RATE)
    assert method == DROP_CENTRE and out.shape == (4 * RATE, 2)
    assert rms_db(out[: 2 * RATE]) < rms_db(dialogue) - 60  # the dialogue is gone
    kept = 1 + 10 ** (-3 / 20)  # front plus the surround at -3 dB
    assert rms_db(out[2 * RATE + 4800 :, 0]) == pytest.approx(rms_db(kept * ambience[4800:]), abs=0.5)


def test_a_7_1_source_loses_its_centre_without_crashing(tmp_path: Path) -> None:
    """A 7.1 client file: its eight channels were decoded in planes, and PyAV 18 reads a ninth
    plane past the frame's end: the export died with a segmentation fault (the studio with it)."""
    dialogue = 0.2 * voice("maya", 2.0)
    ambience = 0.1 * voice("rex", 2.0)
    channels = np.zeros((4 * RATE, 8), dtype=np.float32)
    channels[: 2 * RATE, 2] = dialogue
    channels[2 * RATE :, [0, 1, 6, 7]] = ambience[:, None]  # fronts and the side surrounds
    out, method = music_and_effects(write_surround(tmp_path / "film.mkv", channels, "7.1"), RATE)
    assert method == DROP_CENTRE and out.shape == (4 * RATE, 2)
    assert "5.1" not in method  # the report said "the 5.1 mix without its centre channel" of a 7.1 one
    assert rms_db(out[: 2 * RATE]) < rms_db(dialogue) - 60
    kept = 1 + 10 ** (-3 / 20)
    assert rms_db(out[2 * RATE + 4800 :, 0]) == pytest.approx(rms_db(kept * ambience[4800:]), abs=0.5)


def test_the_stereo_filter_lowers_a_centred_voice_by_the_reported_figure() -> None:
    """docs/video.md: 16.4 dB dialogue suppression, music SDR 10.4 dB on this built mix."""
    seconds = 8.0
    dialogue = np.repeat(0.1 * voice("maya", seconds)[:, None], 2, axis=1)
    left, right = voice("rex", seconds), voice("narrator", seconds)
    delay, echo = int(0.023 * RATE), 10 ** (-10 / 20)
    bed = np.stack([left + echo * np.roll(right, delay), right + echo * np.roll(left, delay)], axis=1)
    bed *= 0.1 * 10 ** (-6 / 20) / np.sqrt(np.mean(bed**2))
    out = remove_centre(dialogue + bed, RATE)
    error = rms_db(out - bed)
    assert rms_db(dialogue) - error == pytest.approx(16.4, abs=1.0)  # dialogue suppression
    assert rms_db(bed) - error == pytest.approx(10.4, abs=1.0)  # the music's SDR
    assert rms_db(remove_centre(dialogue, RATE)) < rms_db(dialogue) - 60  # a voice alone is taken out whole


def test_the_mix_puts_the_music_and_effects_under_the_dub_and_says_how(tmp_path: Path) -> None:
    from app.project.media import attach_video

    project: Project = make_project(tmp_path / "scene")
    for line in project.lines:
        add_fake_take(project, line, tone(1.0, amplitude=0.3))
    project.video = attach_video(project, make_video(tmp_path / "source.mp4", seconds=17.0))
    project.settings.guide_mix = "music-effects"
    audio = delivery_mixdown(project)
    assert f"M&E: {CENTRE_FILTER}" in audio.notes
    assert audio.mix.shape[1] == 2 and "music-effects" in audio.stems
    # The test video's stereo tone is identical in both channels: to the filter it is dialogue.
    assert rms_db(audio.stems["music-effects"]) < -60
    names = sorted(path.name for path in export_stems(project).files)
    assert "music_and_effects.wav" in names and sf.info(str(project.exports_dir / "stems" / names[0])).samplerate == RATE


def test_a_mono_source_is_refused_in_words(tmp_path: Path) -> None:
    path = tmp_path / "mono.wav"
    sf.write(str(path), voice("maya", 1.0), RATE)
    with pytest.raises(ExportError, match="mono: music and effects cannot be parted"):
        music_and_effects(path, RATE)


def test_a_client_stem_is_checked_against_the_video_and_used_under_the_dub(tmp_path: Path) -> None:
    from app.project.media import attach_video
    from app.project.music_effects import CLIENT_STEM, import_stem

    project: Project = make_project(tmp_path / "scene")
    for line in project.lines:
        add_fake_take(project, line, tone(1.0, amplitude=0.3))
    stem_path = tmp_path / "client_me.wav"
    bed = np.stack([0.05 * voice("rex", 17.0), 0.05 * voice("narrator", 17.0)], axis=1)
    sf.write(str(stem_path), bed, RATE, subtype="FLOAT")
    with pytest.raises(ExportError, match="no video yet"):
        import_stem(project, stem_path)
    project.video = attach_video(project, make_video(tmp_path / "source.mp4", seconds=17.0))
    assert project.video is not None
    short, low = tmp_path / "short.wav", tmp_path / "low.wav"
    sf.write(str(short), bed[: 10 * RATE], RATE)
    sf.write(str(low), bed[::2], RATE // 2)
    with pytest.raises(ExportError, match="lasts 10.00 s but the video") as raised:
        import_stem(project, short)
    assert raised.value.code is ErrorCode.STEM_MISMATCH
    with pytest.raises(ExportError, match="24000 Hz") as raised:
        import_stem(project, low)
    assert raised.value.code is ErrorCode.STEM_MISMATCH
    sf.write(str(stem_path), np.pad(bed, ((0, int(round((project.video.duration_s - 17.0) * RATE))), (0, 0))), RATE,
             subtype="FLOAT")
    import_stem(project, stem_path)
    project.settings.guide_mix = "music-effects"
    project.settings.loudness_target_lufs = None  # the stem's samples as given
    audio = delivery_mixdown(project)
    assert f"M&E: {CLIENT_STEM}" in audio.notes
    under = audio.stems["music-effects"][: 17 * RATE]
    assert np.abs(under - bed[: len(under)]).max() < 1e-5  # the stem itself, aligned to the video's start


def test_a_removed_client_stem_goes_back_to_the_mix_before_it_and_undo_brings_it_back(tmp_path: Path) -> None:
    from app.commands.render import _remove_music_effects
    from app.project.media import attach_video
    from app.project.music_effects import (
        CLIENT_STEM,
        REMOVED_STEMS_DIR,
        STEM_FILE,
        RemoveStem,
        import_stem,
    )
    from app.project.undo import CommandStack, EditProject

    project: Project = make_project(tmp_path / "scene")
    for line in project.lines:
        add_fake_take(project, line, tone(1.0, amplitude=0.3))
    project.video = attach_video(project, make_video(tmp_path / "source.mp4", seconds=17.0))
    assert project.video is not None
    project.settings.guide_mix = "duck"  # the choice before the client's stem came
    project.settings.loudness_target_lufs = None
    stack = CommandStack(project)
    with pytest.raises(ExportError, match="no imported music-and-effects stem") as raised:
        stack.push(RemoveStem())
    assert raised.value.code is ErrorCode.INVALID_VALUE
    bed = np.stack([0.05 * voice("rex", 17.0), 0.05 * voice("narrator", 17.0)], axis=1)
    stem_path = tmp_path / "client_me.wav"
    sf.write(str(stem_path), np.pad(bed, ((0, int(round((project.video.duration_s - 17.0) * RATE))), (0, 0))), RATE,
             subtype="FLOAT")
    import_stem(project, stem_path)
    stack.push(EditProject(guide_mix="music-effects"))  # as the studio's import does
    kept = (project.root / STEM_FILE).read_bytes()
    assert f"M&E: {CLIENT_STEM}" in delivery_mixdown(project).notes

    stack.push(RemoveStem())
    assert not (project.root / STEM_FILE).exists()
    assert project.settings.guide_mix == "duck"
    set_aside = list((project.root / REMOVED_STEMS_DIR).iterdir())
    assert [path.read_bytes() for path in set_aside] == [kept]  # out of the mix, not lost
    assert not any("M&E" in note for note in delivery_mixdown(project).notes)

    stack.undo()  # one step: the stem and the choice together
    assert (project.root / STEM_FILE).read_bytes() == kept
    assert project.settings.guide_mix == "music-effects"
    assert f"M&E: {CLIENT_STEM}" in delivery_mixdown(project).notes
    assert not any((project.root / REMOVED_STEMS_DIR).iterdir())
    stack.redo()
    assert not (project.root / STEM_FILE).exists() and project.settings.guide_mix == "duck"
    stack.undo()

    # The command line's --remove-music-effects: the same, saved in the project.
    assert _remove_music_effects(project) is None
    assert Project.load(project.root).settings.guide_mix == "duck"
    assert not (project.root / STEM_FILE).exists()
    assert [path.read_bytes() for path in (project.root / REMOVED_STEMS_DIR).iterdir()] == [kept]


# --- by a separation model (a built ONNX model of the MDX-Net signature; no weights ship) ---------


def project_with_model_music_effects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seconds: float) -> Project:
    """The test scene with a take per line and a video of ``seconds``, its M&E to come from the
    default separation model (under tmp_path/models: not there until a test builds it)."""
    from app.project.media import attach_video

    monkeypatch.setenv("DUBSTUDIO_MODELS_DIR", str(tmp_path / "models"))
    project: Project = make_project(tmp_path / "scene")
    for line in project.lines:
        add_fake_take(project, line, tone(1.0, amplitude=0.3))
    project.video = attach_video(project, make_video(tmp_path / "source.mp4", seconds=seconds))
    project.settings.guide_mix = "music-effects"
    project.settings.music_effects_source = "model"
    return project


def test_a_separation_model_makes_the_music_and_effects_once_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.project import phrases
    from app.project.music_effects import SEPARATED_FILE
    from engine.hearing import separation
    from tests.engine.hearing.separation_models import (
        SMALL,
        VOICE_BINS,
        build_mask_model,
    )

    project = project_with_model_music_effects(tmp_path, monkeypatch, 17.0)
    project.settings.loudness_target_lufs = None
    spec = dataclasses.replace(SMALL, name=separation.DEFAULT_SEPARATION_MODEL)
    monkeypatch.setitem(separation.SEPARATION_MODELS, spec.name, spec)
    with pytest.raises(ExportError, match=f"dubstudio models download {spec.name}") as missing:
        delivery_mixdown(project)
    assert missing.value.code is ErrorCode.SEPARATION_MODEL_MISSING
    # The built "voices" are everything above 3.4 kHz: the video's 440 Hz tone is all music.
    high = np.ones(spec.dim_f, dtype=np.float32)
    high[:VOICE_BINS] = 0
    spec = build_mask_model(separation.model_folder(spec) / spec.path, spec, high)
    monkeypatch.setitem(separation.SEPARATION_MODELS, spec.name, spec)
    audio = delivery_mixdown(project)
    assert f"M&E: {phrases.ME_SEPARATED.format(model=spec.title)}" in audio.notes
    original, _ = read_audio(project.video_path(), RATE, mono=False)
    under = audio.stems["music-effects"][RATE: 16 * RATE]
    assert rms_db(under) == pytest.approx(rms_db(original[RATE: 16 * RATE]), abs=0.5)
    kept = project.root / SEPARATED_FILE
    made = kept.stat().st_mtime_ns
    delivery_mixdown(project)
    assert kept.stat().st_mtime_ns == made  # kept and reused while the source and the model are the same
    monkeypatch.setitem(separation.SEPARATION_MODELS, spec.name, build_mask_model(
        separation.model_folder(spec) / spec.path, spec, np.zeros(spec.dim_f)))  # another model: all music
    again = delivery_mixdown(project)
    assert kept.stat().st_mtime_ns != made
    assert rms_db(again.stems["music-effects"][RATE: 16 * RATE]) == pytest.approx(rms_db(under), abs=0.5)


def test_a_cancelled_separation_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.project import OperationCancelled
    from app.project.media import attach_video
    from app.project.music_effects import (
        SEPARATED_FILE,
        original_audio,
        separate_music_effects,
    )
    from tests.engine.hearing.separation_models import (
        SMALL,
        build_mask_model,
        low_band_mask,
    )

    monkeypatch.setenv("DUBSTUDIO_MODELS_DIR", str(tmp_path / "models"))
    project: Project = make_project(tmp_path / "scene")
    assert original_audio(project) is None
    project.video = attach_video(project, make_video(tmp_path / "source.mp4", seconds=6.0))
    source = original_audio(project)
    assert source == project.video_path()
    spec = build_mask_model(tmp_path / "models" / "separation-test-mask" / SMALL.path, SMALL, low_band_mask())
    reports: list[float] = []
    with pytest.raises(OperationCancelled):
        separate_music_effects(project, source, spec, progress=reports.append, cancelled=lambda: len(reports) > 2)
    assert not (project.root / SEPARATED_FILE).exists()
    assert not [path.name for path in (project.root / "media").iterdir() if "separated" in path.name]
    assert separate_music_effects(project, source, spec, progress=reports.append) == project.root / SEPARATED_FILE
    assert reports[-1] == pytest.approx(1.0, abs=0.01)


def test_cancelling_an_export_stops_its_separation_and_keeps_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Export all with the M&E by a separation model: Cancel during the separation (the longest
    step, tens of minutes on a film) stops it there, not after it."""
    from app.project import OperationCancelled
    from app.project.export_registry import ExportContext, export
    from app.project.music_effects import SEPARATED_FILE
    from engine.hearing import separation
    from tests.engine.hearing.separation_models import (
        SMALL,
        build_mask_model,
        low_band_mask,
    )

    project = project_with_model_music_effects(tmp_path, monkeypatch, 8.0)
    spec = dataclasses.replace(SMALL, name=separation.DEFAULT_SEPARATION_MODEL)
    spec = build_mask_model(separation.model_folder(spec) / spec.path, spec, low_band_mask())
    monkeypatch.setitem(separation.SEPARATION_MODELS, spec.name, spec)
    asked: list[int] = []

    def cancelled() -> bool:  # Cancel pressed once the separation has decoded a few blocks
        asked.append(1)
        return len(asked) > 6

    out = tmp_path / "out"
    out.mkdir()
    for name in ("mix", "all"):
        asked.clear()
        with pytest.raises(OperationCancelled):
            export(project, [name], out, ExportContext(cancelled=cancelled))
        assert len(asked) == 7  # stopped at the first "yes": inside the separation
        assert list(out.iterdir()) == [] and not (project.root / SEPARATED_FILE).exists()


def test_a_separation_model_takes_a_mono_guide_that_the_channels_cannot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.project.music_effects import original_audio, separate_music_effects
    from engine.hearing import separation
    from tests.engine.hearing.separation_models import SMALL, build_mask_model

    project: Project = make_project(tmp_path / "scene")
    (project.root / "media").mkdir(exist_ok=True)
    speech = 0.3 * voice("maya", 3.0) / np.abs(voice("maya", 3.0)).max()
    sf.write(str(project.root / "media" / "guide.wav"), speech, RATE)
    project.guide_audio = "media/guide.wav"
    source = original_audio(project)
    assert source == project.root / "media" / "guide.wav"
    with pytest.raises(ExportError, match="mono"):
        music_and_effects(source, RATE)
    # A model whose "voices" are nothing: the M&E is the guide itself, on both channels.
    monkeypatch.setenv("DUBSTUDIO_MODELS_DIR", str(tmp_path / "models"))
    spec = build_mask_model(separation.model_folder(SMALL) / SMALL.path, SMALL, np.zeros(SMALL.dim_f))
    kept, _ = read_audio(separate_music_effects(project, source, spec), RATE, mono=False)
    assert kept.shape[1] == 2 and np.array_equal(kept[:, 0], kept[:, 1])
    assert rms_db(kept[: len(speech), 0]) == pytest.approx(rms_db(speech), abs=0.2)


def test_the_music_and_effects_of_a_track_that_starts_after_the_picture_stay_in_time(tmp_path: Path) -> None:
    """A phone's sound starting 0.5 s after its picture: the M&E was made from its first sample
    and laid under the dub 0.5 s early (and 0.5 s short of the picture's end)."""
    video = make_video(tmp_path / "late.mp4", seconds=3.0, audio_start_s=0.5, tone_hz=300.0, right_hz=1700.0)
    bed, _method = music_and_effects(video, RATE)
    loud = np.flatnonzero(np.abs(bed).max(axis=1) > 0.05)
    assert loud[0] / RATE == pytest.approx(0.5, abs=0.01)
    assert len(bed) / RATE == pytest.approx(3.5, abs=0.03)  # the sound runs on 0.5 s past the picture's 3 s


def test_a_separation_model_takes_the_dialogue_track_not_the_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client's MKV holds a silent French dub first and the English original second, the
    dialogue track chosen: the channel M&E read the English, the separation model's the silent
    first track (and kept it for the other track, its key naming only the file)."""
    from app.project.media import attach_video, with_dialogue_stream
    from app.project.music_effects import original_audio, separate_music_effects
    from engine.hearing import separation
    from tests.engine.hearing.separation_models import SMALL, build_mask_model

    monkeypatch.setenv("DUBSTUDIO_MODELS_DIR", str(tmp_path / "models"))
    spec = build_mask_model(separation.model_folder(SMALL) / SMALL.path, SMALL, np.zeros(SMALL.dim_f))  # all music
    project: Project = make_project(tmp_path / "scene")
    video = make_video(tmp_path / "two.mkv", seconds=2.0, tone_hz=None, audio_tracks=(("fre", None), ("eng", 440.0)))
    project.video = with_dialogue_stream(attach_video(project, video), language="en")
    source = original_audio(project)
    assert source is not None
    english, _ = read_audio(separate_music_effects(project, source, spec), RATE, mono=False)
    assert rms_db(english) > -20
    project.video = with_dialogue_stream(project.video, index=1)  # the silent dub asked for: made again from it
    french, _ = read_audio(separate_music_effects(project, source, spec), RATE, mono=False)
    assert rms_db(french) < -60


def test_the_centre_filter_of_a_long_track_in_segments_gives_the_whole_tracks_samples() -> None:
    """A long track is filtered SEGMENT_S at a time, each segment with a frame's margin on the
    whole track's frame grid: the samples are the very ones the whole track filtered at once gives."""
    from app.project.music_effects import _centre_removed

    rng = np.random.default_rng(0)
    track = (0.1 * rng.standard_normal((int(12.3 * RATE), 2))).astype(np.float32)
    track[:, 1] = 0.5 * track[:, 1] + 0.5 * track[:, 0]  # partly centred
    cuts = np.cumsum(rng.integers(500, 30_000, size=200))
    pieces = np.split(track, cuts[cuts < len(track)])
    streamed = np.concatenate(list(_centre_removed(iter(pieces), RATE)))
    np.testing.assert_array_equal(streamed, remove_centre(track, RATE))


def test_the_music_and_effects_of_a_long_track_are_made_as_they_are_mixed(project: Project, tmp_path: Path) -> None:
    """The M&E from a stereo track was decoded whole and filtered at once: 1.29 GB traced for
    2 minutes, a 2-hour video's export died past 16 GB; it is now made block by block."""
    import tracemalloc

    project.settings.guide_mix = "music-effects"
    add_fake_take(project, project.lines[0], tone(1.0, amplitude=0.3))
    seconds = 60.0  # 23 MB of stereo at 48 kHz; its STFT at once, 180 MB
    t = np.arange(int(seconds * 8000)) / 8000
    bed = np.stack([0.05 * np.sin(2 * np.pi * 100 * t), 0.05 * np.sin(2 * np.pi * 150 * t)], axis=1)
    project.media_dir.mkdir(exist_ok=True)
    sf.write(str(project.media_dir / "guide.flac"), bed, 8000)
    project.guide_audio = "media/guide.flac"  # no video: the M&E is made from the guide
    export_stems(project, tmp_path / "warm")  # the decoders' and filters' modules imported, not counted
    tracemalloc.start()
    try:
        export_stems(project, tmp_path / "out")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 150_000_000  # a 5-second segment's filter (67 MB), never the track's (650 MB)
    stem, rate = sf.read(tmp_path / "out" / "stems" / "music_and_effects.wav")
    assert rate == RATE and stem.shape == (int(seconds * RATE), 2)
    assert rms_db(stem[int(30 * RATE) : int(31 * RATE)]) > rms_db(bed) - 20  # two tones apart: kept

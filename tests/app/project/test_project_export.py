"""Timeline and export maths: placement, gaps, overruns, mix, stems and per-line files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.project import ExportError, Line, Project
from app.project.export import (
    DELIVERY_RATE,
    delivery_mixdown,
    export_lines,
    export_mix,
    export_srt,
    export_stems,
    line_file_name,
    mixdown,
)
from app.project.export_registry import export
from app.project.timeline import build_timeline, estimate_duration
from engine.core.audio_io import read_audio, resample

from .conftest import add_fake_take, tone

RATE = 22050
SPEECH = Path(__file__).resolve().parents[2] / "data" / "hearing"  # LibriSpeech (CC-BY 4.0)


def give_all_takes(project: Project, seconds: dict[str, float]) -> None:
    for n, line in enumerate(project.lines):
        add_fake_take(project, line, tone(seconds[line.id], freq=200 + 50 * n, amplitude=0.1))


def test_timeline_places_timed_and_untimed_lines(project: Project) -> None:
    # l1 0.5-3.5, l2 4.0-6.5, l3 and l4 untimed, l5 12.0-14.0, l6 starts 14.5 with no end.
    give_all_takes(project, {"l1": 3.0, "l2": 3.0, "l3": 1.0, "l4": 1.0, "l5": 3.0, "l6": 1.0})
    slots = build_timeline(project, gap_s=0.5)
    assert [round(s.start, 6) for s in slots] == [0.5, 4.0, 7.5, 9.0, 12.0, 14.5]
    assert [s.slot_end for s in slots] == [3.5, 6.5, None, 12.0, 14.0, None]
    # Takes longer than their slot are overruns; the rest fit.
    assert [round(s.overrun_s, 6) for s in slots] == [0.0, 0.5, 0.0, 0.0, 1.0, 0.0]


def test_untimed_lines_never_land_on_earlier_audio(project: Project) -> None:
    project.lines = [
        Line(id="a", text="long", start=0.0),
        Line(id="b", text="short overlap", start=1.0),
        Line(id="c", text="after both"),
    ]
    add_fake_take(project, project.lines[0], tone(5.0), current=False)
    add_fake_take(project, project.lines[1], tone(1.0), current=False)
    add_fake_take(project, project.lines[2], tone(1.0), current=False)
    slots = build_timeline(project, gap_s=0.25)
    assert slots[2].start == pytest.approx(5.25)  # after the latest end, not after line b
    assert slots[0].slot_end == 1.0 and slots[0].overrun_s == pytest.approx(4.0)


def test_lines_without_takes_use_their_span_or_an_estimate(project: Project) -> None:
    slots = {s.line_id: s for s in build_timeline(project)}
    assert slots["l1"].duration == pytest.approx(3.0) and not slots["l1"].has_take
    assert slots["l3"].duration == pytest.approx(estimate_duration(project.line("l3").text))
    assert slots["l3"].overrun_s == 0.0  # only takes overrun


def test_mix_places_every_take_at_its_sample(project: Project) -> None:
    seconds = {"l1": 3.0, "l2": 3.0, "l3": 1.0, "l4": 1.0, "l5": 3.0, "l6": 1.0}
    give_all_takes(project, seconds)
    project.settings.gap_s = 0.5
    project.settings.loudness_target_lufs = None  # the takes exactly as rendered (normalising: test_project_loudness)
    result = export_mix(project)
    mix, rate = sf.read(str(project.exports_dir / "mix.wav"), dtype="float32")
    assert rate == DELIVERY_RATE and result.gain == 1.0 and result.missing == []  # delivered at 48 kHz
    assert mix.ndim == 1  # no video, no guide: nothing says stereo
    assert len(mix) == int(round(14.5 * DELIVERY_RATE)) + DELIVERY_RATE  # l6 starts at 14.5 and lasts 1 s
    expected = np.zeros(len(mix), dtype=np.float32)
    for slot, line in zip(build_timeline(project), project.lines):
        audio, take_rate = sf.read(str(project.take_path(project.chosen_take(line))), dtype="float32")
        assert take_rate == RATE  # the takes stay at the voice's rate in the project
        audio = resample(audio, RATE, DELIVERY_RATE)
        begin = int(round(slot.start * DELIVERY_RATE))
        expected[begin : begin + len(audio)] += audio
    assert np.abs(mix - expected).max() < 2e-3  # 16-bit rounding and soxr's edges only
    assert [o.order for o in result.overruns] == [2, 5]
    assert result.overruns[0].character == "Rex" and result.overruns[0].overrun_s == pytest.approx(0.5)
    assert "line 2 (Rex) runs 0.50 s past its slot" in result.overruns[0].describe()


def test_stems_have_the_mix_length_and_sum_to_it(project: Project) -> None:
    give_all_takes(project, {"l1": 3.0, "l2": 3.0, "l3": 1.0, "l4": 1.0, "l5": 3.0, "l6": 1.0})
    audio = delivery_mixdown(project)  # what export_stems writes
    assert set(audio.stems) == {"maya", "rex"}
    for stem in audio.stems.values():
        assert len(stem) == len(audio.mix)
    np.testing.assert_allclose(sum(audio.stems.values()), audio.mix, atol=1e-6)
    result = export_stems(project)
    assert sorted(p.name for p in result.files) == ["Maya.wav", "Rex.wav"]
    for path in result.files:
        assert sf.info(str(path)).frames == len(audio.mix)


def test_a_loud_mix_is_turned_down_without_clipping(project: Project) -> None:
    project.lines = project.lines[:2]
    project.lines[1].start = 0.5  # full overlap of two loud takes
    add_fake_take(project, project.lines[0], tone(2.0, amplitude=0.9))
    add_fake_take(project, project.lines[1], tone(2.0, amplitude=0.9))
    project.settings.loudness_target_lufs = None  # with a target, the true-peak ceiling does this job
    audio = mixdown(project)
    assert audio.gain < 1.0
    assert np.abs(audio.mix).max() == pytest.approx(0.98, abs=1e-4)
    np.testing.assert_allclose(sum(audio.stems.values()), audio.mix, atol=1e-6)


def test_takes_at_several_rates_mix_at_the_highest(project: Project) -> None:
    # Piper's 22.05 kHz beside CosyVoice2's 24 kHz: the mix keeps the higher rate, and the
    # 22.05 kHz take is resampled (soxr) to the same duration.
    add_fake_take(project, project.lines[0], tone(1.0, freq=440.0))
    add_fake_take(project, project.lines[1], tone(1.0, rate=24000), rate=24000)
    audio = mixdown(project)
    assert audio.sample_rate == 24000
    begin = int(round(4.0 * 24000))
    assert len(audio.mix) == pytest.approx(begin + 24000, abs=2)
    first = audio.mix[int(0.5 * 24000): int(1.5 * 24000)]
    assert len(first) == 24000 and np.abs(first).max() > 0.1
    spectrum = np.abs(np.fft.rfft(first))
    assert np.argmax(spectrum) == pytest.approx(440, abs=2)  # one-hertz bins: pitch kept through resampling
    assert audio.missing == [3, 4, 5, 6]
    assert mixdown(project, sample_rate=RATE).sample_rate == RATE  # an explicit rate still wins


def test_per_line_files_are_named_by_order_and_character(project: Project) -> None:
    give_all_takes(project, {"l1": 0.5, "l2": 0.5, "l3": 0.5, "l4": 0.5, "l5": 0.5, "l6": 0.5})
    first = export_lines(project)
    ours = first.files[3]
    assert ours.name == "004_Rex.wav"
    mine = [ours.parent / "009_Old.wav", ours.parent / "notes.wav"]  # look like exports, were never ours
    for path in mine:
        path.write_bytes(b"mine")
    project.line("l4").chosen_take = None
    result = export_lines(project)
    assert [p.name for p in result.files] == ["001_Maya.wav", "002_Rex.wav", "003_Maya.wav", "005_Maya.wav", "006_Rex.wav"]
    assert result.missing == [4]
    assert not ours.exists()  # our own stale file is gone...
    assert all(path.read_bytes() == b"mine" for path in mine)  # ...and nothing else was touched
    assert sf.info(result.files[1]).samplerate == DELIVERY_RATE  # as the mix and stems (below)
    assert line_file_name(12, "Dr. Who?", width=4) == "0012_Dr._Who.wav"
    assert line_file_name(1, "") == "001_unassigned.wav"


def test_per_line_files_are_delivered_at_the_mix_s_rate(project: Project) -> None:
    # A client asks for 48 kHz, as the mix and stems are; before, each line's WAV was a copy of
    # its take at the voice model's 22.05 kHz. Real speech, as a Piper take holds it.
    speech, _ = read_audio(SPEECH / "libri_1688_a.flac", RATE)
    take = add_fake_take(project, project.line("l2"), speech[: 3 * RATE], RATE)
    delivered = export_lines(project).files[0]
    audio, rate = sf.read(delivered, dtype="float32")
    assert delivered.name == "002_Rex.wav" and rate == DELIVERY_RATE and sf.info(delivered).subtype == "PCM_16"
    assert len(audio) == round(take.duration_s * DELIVERY_RATE)
    expected = resample(speech[: 3 * RATE], RATE, DELIVERY_RATE)  # soxr, the level as rendered
    assert np.max(np.abs(audio - expected)) < 1e-3


def test_srt_export_and_errors(project: Project, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="no line has a rendered take"):
        export_mix(project)
    with pytest.raises(ExportError, match="no line has a rendered take"):
        export_lines(project)
    result = export_srt(project, tmp_path / "out")
    assert result.files == [tmp_path / "out" / "script.srt"] and result.missing == [1, 2, 3, 4, 5, 6]
    delivered = result.files[0].read_text(encoding="utf-8")
    assert "Maya:" not in delivered and "Rex:" not in delivered  # a delivery: no "Name: " prefixes
    assert "Maya: " in export_srt(project, tmp_path / "named", names=True).files[0].read_text(encoding="utf-8")
    vtt = export(project, ["vtt"], tmp_path / "out")["vtt"].files[0].read_text(encoding="utf-8")
    assert vtt.startswith("WEBVTT\n\n1\n00:00:00.500 --> 00:00:03.500\n") and "Maya:" not in vtt
    with pytest.raises(ExportError, match="unknown export 'gif'"):
        export(project, ["gif"])
    with pytest.raises(ExportError, match="has no video"):
        export(project, ["video"])
    add_fake_take(project, project.lines[0], tone(0.5))
    assert set(export(project, ["mix", "stems", "lines", "srt"])) == {"mix", "stems", "lines", "srt"}


def test_a_fitted_line_borrows_the_silence_after_it_up_to_the_next_line(project: Project) -> None:
    """Before anything is sped up, a fitted line's slot runs on into the silence after its end:
    up to fit_borrow_s, and never past the next line of any character."""
    project.lines = [
        Line(id="a", text="one", start=0.0, end=2.0),  # 0.3 s of silence before b
        Line(id="b", text="two", start=2.3, end=4.0),  # 2 s before d (c, in script order, is later)
        Line(id="c", text="three", start=9.0, end=10.0),  # the last line in time
        Line(id="d", text="four", start=6.0, end=7.0),
        Line(id="e", text="five", start=6.5, end=8.0),  # starts inside d: d has nothing to borrow
    ]
    project.settings.fit_borrow_s = 0.5
    assert [s.slot_end for s in build_timeline(project)] == [2.0, 4.0, 10.0, 7.0, 8.0]  # fit off: no borrowing
    project.settings.fit_default = True
    slots = build_timeline(project)
    assert [s.slot_end for s in slots] == pytest.approx([2.3, 4.5, 10.5, 7.0, 8.5])
    project.line("b").fit = False  # a line that is not fitted keeps its own end
    assert build_timeline(project)[1].slot_end == 4.0


def test_a_long_programme_is_mixed_and_written_without_holding_it_whole(project: Project, tmp_path: Path) -> None:
    """A 2-hour video's mix was built whole in memory, stereo, its stems too, and measured in
    float64 (more than 18 GB); the mix and stems are now summed, levelled and written in blocks."""
    import tracemalloc

    first, last = project.lines[0], project.lines[-1]
    add_fake_take(project, first, tone(1.0, amplitude=0.3))
    add_fake_take(project, last, tone(1.0, freq=330.0, amplitude=0.3))
    export_mix(project, tmp_path / "warm")  # the meters' and the limiter's modules imported, not counted
    last.start, last.end = 600.0, 603.0  # ten minutes of programme: 115 MB as one 48 kHz array
    tracemalloc.start()
    try:
        result = export_mix(project, tmp_path / "out")
        export_stems(project, tmp_path / "out")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    mix, rate = sf.read(tmp_path / "out" / "mix.wav")
    assert rate == 48000 and len(mix) == int(round(601.0 * rate))
    assert result.level is not None and result.level.lufs == pytest.approx(-23.0, abs=0.1)
    assert peak < 40_000_000  # a few 10-second blocks, never the 115 MB programme
    stems = [sf.read(path)[0] for path in sorted((tmp_path / "out" / "stems").glob("*.wav"))]
    assert len(stems) == 2 and np.abs(stems[0] + stems[1] - mix).max() < 1e-4


def test_a_long_guide_kept_under_the_dub_is_read_as_it_is_mixed(project: Project, tmp_path: Path) -> None:
    """The guide ducked under the dub was read whole, at the mix's rate, and ducked by a curve as
    long: a 2-hour video's mix peaked at 6.8 GB; the guide is now decoded block by block."""
    import tracemalloc

    project.settings.guide_mix = "duck"
    add_fake_take(project, project.lines[0], tone(1.0, amplitude=0.3))
    seconds = 300.0  # five minutes of stereo guide: 115 MB at 48 kHz
    t = np.arange(int(seconds * 8000)) / 8000
    hum = (0.05 * np.sin(2 * np.pi * 100.0 * t)).astype(np.float32)
    project.media_dir.mkdir(exist_ok=True)
    sf.write(str(project.media_dir / "guide.flac"), np.stack([hum, hum], axis=1), 8000)
    project.guide_audio = "media/guide.flac"
    export_mix(project, tmp_path / "warm")  # the decoders' and meters' modules imported, not counted
    tracemalloc.start()
    try:
        result = export_stems(project, tmp_path / "out")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 80_000_000  # a few 10-second blocks and their meter (55 MB), never the 115 MB guide (290 MB)
    stem, rate = sf.read(tmp_path / "out" / "stems" / "guide_original_audio.wav")
    assert rate == 48000 and stem.shape == (int(seconds * rate), 2) and result.level is not None
    level = lambda at: float(np.sqrt(np.mean(stem[int(at * rate) : int((at + 0.2) * rate)] ** 2)))  # noqa: E731
    assert 20 * np.log10(level(1.0) / level(200.0)) == pytest.approx(project.settings.duck_db, abs=1.0)


def test_a_bed_held_whole_is_cut_into_blocks_without_copying_it_again() -> None:
    """A separation model's M&E is one piece as long as the programme: joining the rest of it
    to each block copied what was left of it once per block (hours of audio, 720 times)."""
    from app.project.export import _in_blocks

    whole = np.arange(100, dtype=np.float32)
    blocks = list(_in_blocks(iter([whole]), 30))
    assert [len(b) for b in blocks[:3]] == [30, 30, 30] and all(np.shares_memory(b, whole) for b in blocks)
    pieces = [whole[i : i + 7] for i in range(0, 100, 7)]
    np.testing.assert_array_equal(np.concatenate(list(_in_blocks(iter(pieces), 30))), whole)


def test_a_long_mix_is_cancelled_between_its_blocks_and_leaves_nothing(project: Project, tmp_path: Path) -> None:
    """A pass over a 2-hour programme takes minutes (the M&E filter's, three and a half): Cancel
    was not asked until the whole mix was made and written; it is now asked before each block."""
    from app.project import OperationCancelled

    add_fake_take(project, project.lines[0], tone(1.0, amplitude=0.3))
    project.lines[-1].start = 120.0
    add_fake_take(project, project.lines[-1], tone(1.0, amplitude=0.3))
    asked: list[bool] = []

    def cancel_while_writing() -> bool:  # 13 blocks measured, then 3 written
        asked.append(True)
        return len(asked) >= 16

    with pytest.raises(OperationCancelled, match="the mix was cancelled"):
        export_mix(project, tmp_path / "out", cancelled=cancel_while_writing)
    assert len(asked) == 16 and (tmp_path / "out").is_dir()
    assert not list((tmp_path / "out").iterdir())  # no mix.wav, no temporary file

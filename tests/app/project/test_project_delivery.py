"""Export all (issue 33 item 4): one delivery folder, complete, or nothing at all under Cancel."""

from __future__ import annotations

from pathlib import Path

import pytest
import soundfile as sf

from app.project import OperationCancelled, Project
from app.project.export_registry import ExportContext, export
from app.project.media import attach_video
from app.project.video_export import VideoExportOptions

from .conftest import add_fake_take, make_project, tone
from .media_fixtures import make_video


@pytest.fixture
def dubbed(tmp_path: Path) -> Project:
    project = make_project(tmp_path / "scene")
    for n, line in enumerate(project.lines[:-1]):  # the last line has no take: the report says so
        add_fake_take(project, line, tone(1.2, freq=200 + 40 * n, amplitude=0.3))
    project.video = attach_video(project, make_video(tmp_path / "source.mp4", seconds=17.0))
    project.save()
    return project


def test_export_all_writes_one_complete_delivery_folder(dubbed: Project, tmp_path: Path) -> None:
    chosen = tmp_path / "client"
    seen: list[float] = []
    result = export(dubbed, ["all"], chosen, ExportContext(progress=seen.append))["all"]
    folder = result.files[0]
    assert folder == chosen / "Test_scene delivery"
    names = sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
    assert names == ["Test_scene.mp4", "mix.wav", "report.txt", "script.csv", "script.srt", "script.vtt", "stems",
                     "stems/Maya.wav", "stems/Rex.wav"]
    assert sf.info(str(folder / "mix.wav")).samplerate == 48000
    report = (folder / "report.txt").read_text(encoding="utf-8")
    assert "LUFS" in report and "dBTP" in report and "Lines without a take (left out): 6" in report
    assert "line 1: not checked" in report and "line 6: no take" in report
    assert seen == sorted(seen) and seen[-1] == 1.0
    again = export(dubbed, ["all"], chosen)["all"].files[0]  # never over the first one
    assert again.name == "Test_scene delivery 2" and (folder / "mix.wav").exists()


def test_export_all_makes_the_mix_once_for_the_mix_the_stems_and_the_video(
        dubbed: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of the three made the delivery mix again, its level found in passes over the whole
    programme: three times the passes (minutes each for a 2-hour M&E) for one mix."""
    import app.project.export as export_module

    levelled: list[int] = []
    level = export_module._level

    def counted(*args: object, **kwargs: object) -> object:
        levelled.append(1)
        return level(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(export_module, "_level", counted)
    export(dubbed, ["all"], tmp_path / "client")
    assert len(levelled) == 1


def test_export_all_filters_the_music_and_effects_once(dubbed: Project, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The M&E's centre filter ran over the whole track in every pass over the programme: the
    level's, the mix's, the M&E stem's and the video's dub, four times for one bed. The first
    pass now records it and the others read it, the same samples."""
    import numpy as np

    import app.project.music_effects as music_effects

    dubbed.settings.guide_mix = "music-effects"
    dubbed.save()
    made = music_effects.music_and_effects_blocks
    passes: list[int] = []

    def counted(*args: object, **kwargs: object) -> object:
        passes.append(1)
        yield from made(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(music_effects, "music_and_effects_blocks", counted)
    folder = export(dubbed, ["all"], tmp_path / "client")["all"].files[0]
    assert len(passes) == 1
    stem, rate = sf.read(folder / "stems" / "music_and_effects.wav", dtype="int16")
    alone = export(dubbed, ["stems"], tmp_path / "alone")["stems"].files  # its own bed, made for it
    assert np.array_equal(stem, sf.read(next(p for p in alone if p.name == "music_and_effects.wav"),
                                        dtype="int16")[0]) and rate == 48000
    assert not any(dubbed.cache_dir.iterdir())  # the recording had no name: nothing is left


@pytest.mark.parametrize("cancel_after", [1, 3, 40])  # between parts, and inside the video
def test_export_all_is_atomic_under_cancel(dubbed: Project, tmp_path: Path, cancel_after: int) -> None:
    chosen = tmp_path / "client"
    chosen.mkdir()
    (chosen / "theirs.txt").write_text("kept")
    polls = iter(range(10_000))
    context = ExportContext(cancelled=lambda: next(polls) >= cancel_after, video=VideoExportOptions())
    with pytest.raises(OperationCancelled):
        export(dubbed, ["all"], chosen, context)
    assert [p.name for p in chosen.iterdir()] == ["theirs.txt"]  # nothing half-written, nothing partial


def test_export_all_says_each_note_once(dubbed: Project, tmp_path: Path) -> None:
    # The mix, the stems and the video each cut a dub that runs past the video's end, and each
    # said so: `render --export all` printed the same note three times.
    dubbed.lines[4].start = 16.5  # its 1.2 s take runs 0.7 s past the 17 s video
    result = export(dubbed, ["all"], tmp_path / "client")["all"]
    past = [note for note in result.notes if "past the end of the video" in note]
    # Its subtitles (SRT, VTT and the video's track) end with the picture: said once too.
    assert past == ["the dub ran 0.70 s past the end of the video and was cut there",
                    "the subtitles of lines 5 ran past the end of the video (17.00 s) and now end there"], result.notes

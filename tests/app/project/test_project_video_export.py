"""The finished video: picture copied untouched, the dub as default track at the target
loudness, optional original audio and soft subtitles, progress, cancel, and the registry."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.project import (
    ExportError,
    MediaError,
    OperationCancelled,
    PathEscapeError,
    Project,
)
from app.project.export_registry import (
    EXPORT_KINDS,
    EXPORTS,
    ExportContext,
    export,
    export_format,
)
from app.project.loudness import integrated_loudness
from app.project.media import attach_video
from app.project.video_export import VideoExportOptions, export_video
from engine.core.codes import ErrorCode

from .conftest import add_fake_take, make_project, tone
from .media_fixtures import make_video


def streams(path: Path) -> list[tuple[str, str, dict[str, str]]]:
    import av

    with av.open(str(path)) as container:
        return [(s.type, s.codec_context.name, dict(s.metadata)) for s in container.streams]


def video_facts(path: Path) -> tuple[str, int, float]:
    """(codec, decoded frame count, duration) of the first video stream."""
    import av

    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        codec = stream.codec_context.name
        times = [float(frame.time) for frame in container.decode(stream)]
    return codec, len(times), max(times) + 1 / 25


def audio_track(path: Path, index: int = 0) -> tuple[np.ndarray, int]:
    import av

    with av.open(str(path)) as container:
        stream = container.streams.audio[index]
        blocks = [frame.to_ndarray() for frame in container.decode(stream)]
        return np.concatenate(blocks, axis=1).T, stream.codec_context.sample_rate


@pytest.fixture
def dubbed(tmp_path: Path) -> Project:
    project = make_project(tmp_path / "scene")
    for n, line in enumerate(project.lines):
        add_fake_take(project, line, tone(1.2, freq=200 + 40 * n, amplitude=0.3))
    source = make_video(tmp_path / "source.mkv", seconds=17.0)
    project.video = attach_video(project, source)
    project.save()
    return project


@pytest.mark.parametrize("container, codec", [("mp4", "aac"), ("mkv", "opus")])
def test_video_stream_is_copied_and_the_dub_is_the_default_track(dubbed: Project, container: str, codec: str) -> None:
    options = VideoExportOptions(container=container, audio_codec=codec, keep_original=True, subtitles=True,
                                 language="eng", title="English dub")
    seen: list[float] = []
    result = export_video(dubbed, None, options, progress=seen.append)
    out = result.files[0]
    assert out == dubbed.exports_dir / f"Test_scene.{container}"
    source = dubbed.video_path()
    assert source is not None and video_facts(out) == video_facts(source)  # codec, frames, duration
    kinds = streams(out)
    assert [k[:2] for k in kinds] == [("video", "h264"), ("audio", codec), ("audio", "aac"),
                                      ("subtitle", "mov_text" if container == "mp4" else "srt")]  # SubRip reads back as "srt"
    assert kinds[1][2]["language"] == "eng" and "English dub" in kinds[1][2].values()
    assert "Original audio" in kinds[2][2].values()
    dub, rate = audio_track(out)
    assert rate == 48000 and abs(dub.shape[0] / rate - 17.0) < 0.1
    assert integrated_loudness(dub, rate) == pytest.approx(-23.0, abs=1.0)
    assert seen == sorted(seen) and seen[-1] == 1.0
    assert result.level is not None and result.level.lufs == pytest.approx(-23.0, abs=0.5)
    import av

    with av.open(str(out)) as container_file:
        subtitle = container_file.streams.subtitles[0]
        texts = [s.dialogue.decode() for packet in container_file.demux(subtitle) for s in packet.decode()]
    assert texts[0] == dubbed.lines[0].text and len(texts) == len(dubbed.lines)


def test_a_project_that_names_no_language_tags_its_dub_with_the_language_its_lines_are_spoken_in(
        dubbed: Project) -> None:
    """A project made from an SRT names no language (none given, nothing transcribed): its dub and
    subtitles were tagged "und", which a client's QC refuses; the lines' own language decides."""
    assert not dubbed.language and not dubbed.target_language
    out = export_video(dubbed, None, VideoExportOptions(keep_original=True, subtitles=True)).files[0]
    tags = [(kind, meta.get("language")) for kind, _codec, meta in streams(out)]
    assert tags[1:] == [("audio", "eng"), ("audio", "und"), ("subtitle", "eng")]  # the source's track says "und"


def test_cancel_leaves_no_file_and_bad_requests_are_refused(dubbed: Project, tmp_path: Path) -> None:
    calls = iter(range(1000))
    with pytest.raises(OperationCancelled):
        export_video(dubbed, cancelled=lambda: next(calls) > 20)
    assert not list(dubbed.exports_dir.glob("*.mp4")) and not list(dubbed.exports_dir.glob(".*tmp"))
    with pytest.raises(ExportError, match="must end in .mkv"):
        export_video(dubbed, tmp_path / "x.mp4", VideoExportOptions(container="mkv"))
    with pytest.raises(ExportError, match="three-letter"):
        export_video(dubbed, options=VideoExportOptions(language="english"))
    bare = make_project(tmp_path / "bare")
    with pytest.raises(ExportError, match="has no video"):
        export_video(bare)


def test_every_export_is_declared_once_and_reachable_by_name(dubbed: Project) -> None:
    assert EXPORT_KINDS == ("lines", "mix", "stems", "srt", "vtt", "ass", "csv", "video", "all")
    assert all(fmt.label and fmt.help for fmt in EXPORTS)
    assert [f.name for f in EXPORTS if f.needs_video] == ["video"]
    results = export(dubbed, ["mix", "csv", "video"], context=ExportContext(video=VideoExportOptions(container="mkv")))
    assert results["video"].files[0].suffix == ".mkv" and results["csv"].files[0].name == "script.csv"
    with pytest.raises(ExportError, match="unknown export 'gif'; choose from lines, mix"):
        export_format("gif")


def test_the_video_is_never_written_through_an_exports_link_out_of_the_project(
    dubbed: Project, tmp_path: Path
) -> None:
    """Issue 10: with exports/ a symlink, exports went outside the project."""
    outside = tmp_path / "outside"
    outside.mkdir()
    for child in dubbed.exports_dir.iterdir():
        child.rmdir() if child.is_dir() else child.unlink()
    dubbed.exports_dir.rmdir()
    dubbed.exports_dir.symlink_to(outside)
    with pytest.raises(PathEscapeError):
        export_video(dubbed, options=VideoExportOptions())
    assert list(outside.iterdir()) == []


def test_an_audio_file_in_place_of_the_video_is_no_video_stream(project: Project, video: Path) -> None:
    add_fake_take(project, project.lines[0], tone(1.0))
    project.video = attach_video(project, video)
    sf.write(str(project.root / project.video.path), tone(1.0), 22050, format="WAV")  # the video replaced by audio
    with pytest.raises(MediaError) as raised:
        export_video(project)
    assert raised.value.code is ErrorCode.NO_VIDEO_STREAM


def test_a_text_file_in_place_of_the_video_is_unreadable(project: Project, video: Path) -> None:
    add_fake_take(project, project.lines[0], tone(1.0))
    project.video = attach_video(project, video)
    (project.root / project.video.path).write_text("not a video")
    with pytest.raises(MediaError) as raised:
        export_video(project)
    assert raised.value.code is ErrorCode.VIDEO_UNREADABLE


def test_deliverables_are_48_khz_stereo_like_the_source_and_exactly_the_videos_length(dubbed: Project) -> None:
    """Issue 33: the mix was mono 22.05 kHz and 37.58 s for a 38.85 s video; tracks said "und"."""
    assert dubbed.video is not None and dubbed.video.audio_streams[0].channels == 2
    dubbed.language, dubbed.target_language = "fr", "en"
    results = export(dubbed, ["mix", "stems", "video"],
                     context=ExportContext(video=VideoExportOptions(container="mkv", keep_original=True, subtitles=True)))
    length = int(round(dubbed.video.duration_s * 48000))
    for path in [*results["mix"].files, *results["stems"].files]:
        info = sf.info(str(path))
        assert (info.samplerate, info.channels, info.frames) == (48000, 2, length), path.name
    kinds = streams(results["video"].files[0])
    assert [(k[0], k[2].get("language")) for k in kinds[1:]] == [("audio", "eng"), ("audio", "fre"), ("subtitle", "eng")]
    assert [k[2].get("title") for k in kinds[1:]] == ["Dub", "Original audio", "Dub (subtitles)"]
    dub, rate = audio_track(results["video"].files[0])
    assert rate == 48000 and dub.shape[1] == 2


def test_a_dub_longer_than_the_video_is_cut_at_its_end_and_said_so(dubbed: Project) -> None:
    add_fake_take(dubbed, dubbed.lines[-1], tone(30.0, amplitude=0.3))  # runs far past the 17 s video
    result = export(dubbed, ["mix"])["mix"]
    assert dubbed.video is not None and sf.info(str(result.files[0])).frames == int(round(dubbed.video.duration_s * 48000))
    assert any("past the end of the video and was cut there" in note for note in result.notes)


def _click_project(tmp_path: Path, video: Path, at_s: float) -> Project:
    """One line at ``at_s`` whose take is a click, dubbing ``video``."""
    project = make_project(tmp_path / "clicks")
    project.lines = project.lines[:1]
    project.lines[0].start, project.lines[0].end = at_s, at_s + 1.0
    take = np.zeros(22050, np.float32)
    take[:64] = 0.9
    add_fake_take(project, project.lines[0], take)
    project.video = attach_video(project, video)
    project.save()
    return project


def _flash_and_click(path: Path) -> tuple[float, float]:
    """When the white picture is shown and when the dub's click sounds, in the file's own times."""
    import av

    with av.open(str(path)) as container:
        flash = next(float(frame.time) for frame in container.decode(video=0)
                     if frame.to_ndarray(format="gray").mean() > 200)
    with av.open(str(path)) as container:
        for frame in container.decode(audio=0):
            loud = np.flatnonzero(np.abs(frame.to_ndarray()).max(axis=0) > 0.3)
            if loud.size:
                return flash, float(frame.time or 0.0) + loud[0] / frame.sample_rate
    raise AssertionError("no click in the dub")


@pytest.mark.parametrize("container", ["mp4", "mkv"])
def test_the_dub_starts_with_a_picture_that_starts_late(tmp_path: Path, container: str) -> None:
    """A camera's or a cut MKV's first picture is shown at 1 s, not 0: the dub was encoded from 0
    and played a second early (the click at 2.0 s heard 1 s before the white picture)."""
    video = make_video(tmp_path / "late.mkv", seconds=4.0, start_s=1.0, flash_s=2.0)
    project = _click_project(tmp_path, video, at_s=2.0)
    flash, click = _flash_and_click(export_video(project, None, VideoExportOptions(container=container)).files[0])
    assert flash == pytest.approx(3.0, abs=0.001)
    assert click == pytest.approx(flash, abs=0.025)  # within a frame


def test_hevc_is_delivered_in_mp4_with_the_tag_apples_players_accept(tmp_path: Path) -> None:
    """A phone's HEVC was copied with FFmpeg's default tag hev1, which QuickTime and iOS refuse."""
    import av

    video = make_video(tmp_path / "phone.mp4", seconds=1.0, video_codec="libx265")
    project = _click_project(tmp_path, video, at_s=0.2)
    out = export_video(project, None, VideoExportOptions(container="mp4")).files[0]
    with av.open(str(out)) as container:
        stream = container.streams.video[0]
        assert (stream.codec_context.name, stream.codec_context.codec_tag) == ("hevc", "hvc1")
        assert stream.frames == 25

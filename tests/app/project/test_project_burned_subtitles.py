"""Subtitles burned into the picture (issue 33): drawn on the frames of each cue's span and on
no other, Chinese drawn with a font that has it (never boxes), re-encoded, nothing left under Cancel."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.project import ExportError, OperationCancelled, Project
from app.project.burned_subtitles import (
    SAFE_SIDE,
    SubtitleFont,
    draw_cue,
    find_font,
    missing_characters,
)
from app.project.export_registry import ExportContext, export_format
from app.project.media import attach_video
from app.project.video_export import VideoExportOptions, burned_cues, export_video
from engine.core.codes import ErrorCode

from .conftest import add_fake_take, make_project, tone
from .media_fixtures import make_video

SIZE = (320, 180)
CHINESE = "我们明天在港口见面，别告诉任何人。"
LATIN_ONLY = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@pytest.fixture
def dubbed(tmp_path: Path) -> Project:
    project = make_project(tmp_path / "scene")
    project.lines[1].text = CHINESE  # one line in Chinese: drawn with a font that has it
    for n, line in enumerate(project.lines):
        add_fake_take(project, line, tone(1.2, freq=200 + 40 * n, amplitude=0.3))
    project.video = attach_video(project, make_video(tmp_path / "source.mp4", seconds=17.0, size=SIZE))
    project.save()
    return project


def frames(path: Path) -> list[tuple[float, np.ndarray]]:
    """(time, luma plane) of every picture of ``path``."""
    import av

    with av.open(str(path)) as container:
        return [(float(frame.time), frame.to_ndarray(format="gray")) for frame in container.decode(video=0)]


def test_cues_change_the_bottom_band_of_their_frames_and_no_other(dubbed: Project) -> None:
    options = VideoExportOptions(burn_subtitles="target", keep_original=True, language="eng")
    out = export_video(dubbed, None, options).files[0]
    source = dubbed.video_path()
    assert source is not None
    before, after = frames(source), frames(out)
    assert [t for t, _ in after] == pytest.approx([t for t, _ in before])  # same frames, same times
    cues = burned_cues(dubbed, "target")
    assert [text.replace("\n", "") for _, _, text in cues][1] == CHINESE
    band = slice(SIZE[1] // 2, SIZE[1])  # the bottom half holds the text
    inside = outside = 0
    for (when, old), (_, new) in zip(before, after, strict=True):
        change = np.abs(new[band].astype(int) - old[band].astype(int))
        top_change = np.abs(new[: SIZE[1] // 3].astype(int) - old[: SIZE[1] // 3].astype(int))
        assert top_change.mean() < 2  # re-encoding noise only, above the text
        if any(start + 0.05 < when < end - 0.05 for start, end, _ in cues):
            assert (change > 64).sum() > 200, when  # white letters and their black outline
            inside += 1
        elif all(when < start - 0.05 or when > end + 0.05 for start, end, _ in cues):
            assert (change > 64).sum() == 0 and change.mean() < 2, when
            outside += 1
    assert inside > 100 and outside > 50
    import av

    with av.open(str(out)) as container:
        assert [(s.type, s.codec_context.name) for s in container.streams] == [
            ("video", "h264"), ("audio", "aac"), ("audio", "aac")]
        assert container.streams.audio[0].metadata["language"] == "eng"
        assert "Original audio" in container.streams.audio[1].metadata.values()  # MP4 keeps a title as handler_name


def test_chinese_is_drawn_with_its_own_glyphs_not_boxes() -> None:
    font = find_font([CHINESE])
    assert missing_characters(font, CHINESE) == []
    first, second = (draw_cue(text, 0.0, 1.0, font, (640, 360)) for text in ("中", "文"))
    assert first.alpha.shape == second.alpha.shape
    assert (first.alpha > 0.5).sum() > 50  # something drawn
    assert np.abs(first.alpha - second.alpha).max() > 0.5  # and each character its own shape


def test_no_font_with_the_characters_is_a_coded_error() -> None:
    if not LATIN_ONLY.is_file():
        pytest.skip("DejaVu Sans (a font without Chinese) is not installed")
    latin = SubtitleFont(LATIN_ONLY)
    assert find_font(["Hello there."], [latin]) == latin
    assert missing_characters(latin, "中文 A") == ["中", "文"]
    with pytest.raises(ExportError, match="中 文") as raised:
        find_font(["Hello", "中文"], [latin])
    assert raised.value.code is ErrorCode.FONT_MISSING and "fonts-noto-cjk" in str(raised.value)


def test_cancel_while_burning_leaves_nothing(dubbed: Project) -> None:
    polls = iter(range(10_000))
    with pytest.raises(OperationCancelled):
        export_video(dubbed, options=VideoExportOptions(burn_subtitles="source"), cancelled=lambda: next(polls) > 60)
    assert list(dubbed.exports_dir.iterdir()) == []
    with pytest.raises(ExportError, match="choose target or source"):
        export_video(dubbed, options=VideoExportOptions(burn_subtitles="both"))


def test_a_machine_without_a_chinese_font_refuses_before_the_render(
        dubbed: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    if not LATIN_ONLY.is_file():
        pytest.skip("DejaVu Sans (a font without Chinese) is not installed")
    import app.project.burned_subtitles as burned

    monkeypatch.setattr(burned, "font_candidates", lambda _languages: [SubtitleFont(LATIN_ONLY)])  # a Latin-only machine
    context = ExportContext(video=VideoExportOptions(burn_subtitles="target"))
    for kind in ("video", "all"):
        with pytest.raises(ExportError) as raised:
            export_format(kind).check(dubbed, context)
        assert raised.value.code is ErrorCode.FONT_MISSING
    export_format("all").check(dubbed, ExportContext())  # nothing to burn: nothing to draw


def sideways_video(path: Path, seconds: float, rotation: int) -> Path:
    """Colour bars stored 320x180 with a display rotation, as a phone stores a portrait video."""
    import av

    from .media_fixtures import colour_bars

    with av.open(str(path), "w") as out:
        stream = out.add_stream("libx264", rate=25)
        stream.width, stream.height, stream.pix_fmt = SIZE[0], SIZE[1], "yuv420p"
        stream.set_display_rotation(rotation)
        for n in range(int(seconds * 25)):
            frame = av.VideoFrame.from_ndarray(colour_bars(*SIZE, n), format="rgb24")
            frame.pts = n
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))
    return path


def test_a_sideways_stored_picture_gets_its_text_upright_at_the_bottom_as_shown(
        dubbed: Project, tmp_path: Path) -> None:
    import av

    dubbed.video = attach_video(dubbed, sideways_video(tmp_path / "portrait.mp4", 17.0, 90))
    out = export_video(dubbed, None, VideoExportOptions(burn_subtitles="target")).files[0]
    source, start = dubbed.video_path(), dubbed.lines[0].start
    assert source is not None and start is not None
    pictures = []
    for path in (source, out):
        with av.open(str(path)) as container:
            frame = next(f for f in container.decode(video=0) if f.time is not None and f.time >= start + 0.3)
            assert frame.rotation == 90  # the player still turns it
            pictures.append(frame.to_ndarray(format="gray").astype(int))
    shown = np.rot90(np.abs(pictures[1] - pictures[0]) > 64)  # as displayed: turned 90° counterclockwise
    assert shown.shape == (SIZE[0], SIZE[1])  # portrait
    assert shown[: SIZE[0] // 2].sum() == 0 and shown[SIZE[0] // 2 :].sum() > 100  # the text at the bottom


def test_a_line_too_wide_for_a_narrow_picture_is_cut_shorter_not_cropped() -> None:
    font = find_font(["I saw them. A ship with no crew."])
    one_line = draw_cue("I saw them.", 0.0, 1.0, font, (180, 320))  # a portrait picture
    narrow = draw_cue("I saw them. A ship with no crew.", 0.0, 1.0, font, (180, 320))
    assert narrow.alpha.shape[1] <= 180 * (1 - 2 * SAFE_SIDE) + 8  # inside the safe area (outline and shadow aside)
    assert narrow.alpha.shape[0] > one_line.alpha.shape[0] * 1.4  # on two lines
    assert (narrow.alpha[:, :2] > 0.1).sum() == 0  # nothing cut off at the edges


def test_a_picture_of_odd_size_is_burned_at_the_even_size_its_encoder_needs(tmp_path: Path) -> None:
    # H.264 in 4:2:0 needs even sides; screen recordings and cropped clips can be 321 x 181.
    import av

    project = make_project(tmp_path / "odd")
    for n, line in enumerate(project.lines):
        add_fake_take(project, line, tone(1.2, freq=220 + 40 * n, amplitude=0.3))
    project.video = attach_video(project, make_video(tmp_path / "odd.mp4", seconds=6.0, size=(321, 181),
                                                          pix_fmt="yuv444p"))
    project.save()
    out = export_video(project, None, VideoExportOptions(burn_subtitles="target")).files[0]
    with av.open(str(out)) as container:
        picture = container.streams.video[0].codec_context
        assert (picture.width, picture.height) == (320, 180)
        assert sum(1 for _ in container.decode(video=0)) > 100


def test_a_still_picture_over_a_recording_shows_each_cue_in_its_time(dubbed: Project, tmp_path: Path) -> None:
    """A picture stored once over 17 s of sound (an audiogram, a podcast's cover): cues are drawn
    on the frames that show them, and the only frame came before the first cue, so the burned
    video showed none. The held picture is encoded again where a cue starts or ends."""
    dubbed.video = attach_video(dubbed, make_video(tmp_path / "still.mp4", seconds=17.0, size=SIZE, picture_s=0.0))
    out = export_video(dubbed, None, VideoExportOptions(burn_subtitles="target")).files[0]
    shown = frames(out)
    band = slice(SIZE[1] // 2, SIZE[1])
    blank = shown[0][1]
    for line in dubbed.lines[:2]:
        assert line.start is not None
        when, picture = next(((t, p) for t, p in shown if t >= line.start - 0.01), (None, blank))
        assert when == pytest.approx(line.start, abs=0.01)  # on time, not at a next frame that never comes
        assert (np.abs(picture[band].astype(int) - blank[band]) > 64).sum() > 100  # the text is there
    assert len(shown) < 2 * len(dubbed.lines) + 2  # once per cue change, not a frame rate's worth

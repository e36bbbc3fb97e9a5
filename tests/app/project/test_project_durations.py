"""No length read from outside sizes an allocation: a video's claimed duration, a time in a script
or an edit (at most 24 h), the mix's own length; the export pads the dub to the real picture."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from app.cli import main as cli_main
from app.project import (
    CommandStack,
    EditLine,
    ExportError,
    ImportFormatError,
    InvalidValueError,
    MediaError,
    Project,
)
from app.project.export import mixdown
from app.project.media import attach_video, extract_guide
from app.project.new_project import new_project_from_video
from app.project.script_io import import_csv, import_srt
from app.project.video_export import export_video
from engine.core.codes import ErrorCode
from tests.app.project.test_project_files_safety import give_takes

from .conftest import add_fake_take, tone


def claims_30000_s(path: Path) -> Path:
    """A 2 kB video whose last frame is stamped 30,000 s in: its container lasts 8.3 h."""
    import av

    with av.open(str(path), "w") as out:
        stream = out.add_stream("libx264", rate=25)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        for pts in (0, 1, 30_000 * 25):
            frame = av.VideoFrame.from_ndarray(np.zeros((48, 64, 3), np.uint8), format="rgb24")
            frame.pts = pts
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))
    return path


def test_a_video_claiming_30000_s_is_refused_by_new(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    claim = claims_30000_s(tmp_path / "claim.mp4")
    assert claim.stat().st_size < 10_000
    assert cli_main(["new", str(tmp_path / "dub"), "--video", str(claim)]) == 2
    assert "E_TIME_RANGE" in capsys.readouterr().err and not (tmp_path / "dub").exists()


def test_a_claim_under_the_limit_is_refused_at_its_limit_too(tmp_path: Path, video: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import app.project.media as media

    monkeypatch.setitem(media.MEDIA_RANGES, "duration_s",  # the 3 s video is over this limit
                        dataclasses.replace(media.MEDIA_RANGES["duration_s"], high=2.0))
    with pytest.raises(MediaError) as raised:
        new_project_from_video(tmp_path / "dub", video)
    assert raised.value.code is ErrorCode.TIME_RANGE and not (tmp_path / "dub").exists()


def test_the_export_pads_the_dub_to_the_real_picture_not_the_claim(project: Project, video: Path) -> None:
    add_fake_take(project, project.lines[0], tone(1.0))
    project.video = dataclasses.replace(attach_video(project, video), duration_s=3 * 3600.0)  # a claim
    result = export_video(project)
    assert 3.0 <= result.duration_s < 5.0  # the picture's 3 s (and the encoder's last frame), not 3 h


def test_a_guide_is_decoded_no_longer_than_the_limit(project: Project, video: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import app.project.media as media

    project.video = attach_video(project, video)
    monkeypatch.setattr(media, "MAX_MEDIA_S", 1.0)
    with pytest.raises(MediaError) as raised:
        extract_guide(project)
    assert raised.value.code is ErrorCode.TIME_RANGE
    assert not list(project.media_dir.glob("*.flac")) and not list(project.media_dir.glob(".*.tmp"))


def test_imported_and_edited_times_are_capped_at_24_hours(project: Project, tmp_path: Path) -> None:
    """The report: an SRT time of 99,999,999 h."""
    srt_file = tmp_path / "far.srt"
    srt_file.write_text("1\n00:00:01,000 --> 00:00:02,000\nMaya: hi\n\n2\n99999999:00:00,000 --> 99999999:00:01,000\n"
                        "Rex: far\n")
    with pytest.raises(ImportFormatError, match=r"line 6: subtitle 2: start must be a number from 0 to 86400 s \(24 h\)") as caught:
        import_srt(srt_file, project)
    assert caught.value.code is ErrorCode.TIME_RANGE
    with pytest.raises(ImportFormatError) as caught:
        import_csv(b"character,text,start\nMaya,hi,1000000000\n", project)
    assert caught.value.code is ErrorCode.TIME_RANGE and caught.value.line_no == 2
    with pytest.raises(InvalidValueError) as refused:
        CommandStack(project).push(EditLine("l1", start=1e9))
    assert refused.value.code is ErrorCode.TIME_RANGE
    assert import_csv(b"character,text,start\nMaya,hi,23:59:59.5\n", project).lines[0].start == 86399.5


def test_the_mix_refuses_a_length_it_should_never_allocate(project: Project) -> None:
    give_takes(project)
    project.lines[-1].start = 1e9  # set in memory, past every check: the mix is the last guard
    with pytest.raises(ExportError) as caught:
        mixdown(project)
    assert caught.value.code is ErrorCode.TIME_RANGE and "h long" in str(caught.value)

"""`render --music-effects STEM` and `render --burn-subtitles` (issue 33): the client's M&E stem
checked and put under the dub, and subtitles drawn into the exported picture."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.cli import main as cli_main
from app.project import Project
from app.project.media import attach_video
from app.project.music_effects import STEM_FILE
from engine.core.audio_io import read_audio
from tests.app.project.conftest import add_fake_take, make_project, tone
from tests.app.project.media_fixtures import make_video
from tests.engine.helpers import VOICES

RATE = 48_000


@pytest.fixture
def dubbed(tmp_path: Path) -> Project:
    """Every line with a current take (nothing to render) and a 17 s video."""
    project = make_project(tmp_path / "scene")
    for n, line in enumerate(project.lines):
        add_fake_take(project, line, tone(1.0, freq=200 + 40 * n, amplitude=0.3))
    project.video = attach_video(project, make_video(tmp_path / "source.mp4", seconds=17.0))
    project.save()
    return project


def client_stem(path: Path, seconds: float) -> Path:
    """A stereo bed of real recordings (rex left, narrator right) ``seconds`` long at 48 kHz."""
    beds = []
    for name in ("rex", "narrator"):
        audio, _ = read_audio(VOICES / f"{name}.wav", RATE)
        beds.append(0.05 * np.resize(audio, int(round(seconds * RATE))))  # repeated to the length
    sf.write(str(path), np.stack(beds, axis=1), RATE, subtype="FLOAT")
    return path


def test_a_client_stem_is_refused_with_its_code_or_put_under_the_dub(
        dubbed: Project, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert dubbed.video is not None
    short = client_stem(tmp_path / "short.wav", 10.0)
    assert cli_main(["render", str(dubbed.root), "--stale-only", "--music-effects", str(short)]) == 2
    err = capsys.readouterr().err
    assert "dubstudio render: --music-effects: E_STEM_MISMATCH: the stem short.wav lasts 10.00 s" in err
    assert Project.load(dubbed.root).settings.guide_mix == "replace" and not (dubbed.root / STEM_FILE).exists()
    stem = client_stem(tmp_path / "client_me.wav", dubbed.video.duration_s)
    assert cli_main(["render", str(dubbed.root), "--stale-only", "--music-effects", str(stem),
                     "--export", "mix"]) == 0
    err = capsys.readouterr().err
    assert "M&E: client stem client_me.wav" in err and "note: M&E: client stem" in err
    assert Project.load(dubbed.root).settings.guide_mix == "music-effects" and (dubbed.root / STEM_FILE).is_file()


def test_render_burns_the_subtitles_into_the_exported_picture(
        dubbed: Project, capsys: pytest.CaptureFixture[str]) -> None:
    import av

    assert cli_main(["render", str(dubbed.root), "--stale-only", "--export", "video",
                     "--burn-subtitles", "target"]) == 0
    assert "Exported video: exports/Test_scene.mp4" in capsys.readouterr().err
    source = dubbed.video_path()
    assert source is not None
    first = dubbed.lines[0].start
    assert first is not None
    pictures = []
    for path in (source, dubbed.exports_dir / "Test_scene.mp4"):
        with av.open(str(path)) as container:
            assert container.streams.video[0].codec_context.name == "h264"
            pictures.append(next(frame.to_ndarray(format="gray") for frame in container.decode(video=0)
                                 if frame.time is not None and frame.time > first + 0.2))
    change = np.abs(pictures[1].astype(int) - pictures[0].astype(int))
    assert (change[pictures[0].shape[0] // 2:] > 64).sum() > 50  # the first line's text, in the bottom half

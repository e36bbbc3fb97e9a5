"""Fit to slot and the whole video workflow on the real embedded engine (Piper), no mocks.

A line that overruns its slot by 20 % fits by speaking faster alone; one that overruns by
60 % reaches the rate bound and is time-stretched for the rest, and the export report says so.
Then `dubstudio new` from a video and an SRT, and `render --fit --export video`, checked
with PyAV: the picture untouched, the dub as long as the video, at the loudness target.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.cli import main as cli_main
from app.project import Line, Project
from app.project.export import export_mix
from app.project.fit import slot_seconds, too_long, trim_tail
from app.project.loudness import integrated_loudness
from app.project.render import RenderSession
from engine.synthesis.client.local import EngineClient
from engine.synthesis.config import EngineConfig

from .conftest import VOICES, make_project
from .media_fixtures import make_video

DEADLINE_S = 300.0  # guards against a hang only
TEXT = "The lighthouse keeper swore she saw a ship drift past the rocks at midnight."


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("voice-cache")


@pytest.fixture(scope="module")
def client(cache_dir: Path):  # type: ignore[no-untyped-def]
    engine = EngineClient(EngineConfig(slots=2, cache_dir=str(cache_dir)))
    engine.start()
    yield engine
    engine.close()


def render(client: EngineClient, project: Project, line_ids: list[str], fit: bool | None) -> None:
    session = RenderSession(project, line_ids, fit=fit)
    session.start(client)
    deadline = time.monotonic() + DEADLINE_S
    while not session.finished:
        assert time.monotonic() < deadline, "render hung"
        session.handle_event(client.get_event(timeout=0.5))
    assert session.progress.failed == 0, [line.error for line in session.lines]


def spoken_seconds(project: Project, line: Line) -> float:
    take = project.chosen_take(line)
    assert take is not None
    audio, rate = sf.read(str(project.take_path(take)), dtype="float32")
    return trim_tail(audio, rate).size / rate


def test_fit_uses_rate_first_and_stretch_only_past_the_bound(tmp_path: Path, client: EngineClient) -> None:
    project = make_project(tmp_path / "scene")
    project.lines = [Line("near", TEXT, "maya", start=0.0), Line("far", TEXT, "maya", start=20.0)]
    project.settings.fit_max_total, project.settings.fit_borrow_s = 2.0, 0.0  # the mechanics, without the limits
    render(client, project, ["near", "far"], fit=False)
    natural = {line.id: spoken_seconds(project, line) for line in project.lines}
    # Slots 20 % and 60 % shorter than the natural speech.
    project.line("near").end = natural["near"] / 1.2
    project.line("far").end = 20.0 + natural["far"] / 1.6
    overrunning = export_mix(project).overruns
    assert [o.line_id for o in overrunning] == ["near", "far"]

    render(client, project, ["near", "far"], fit=True)
    near, far = project.chosen_take(project.line("near")), project.chosen_take(project.line("far"))
    assert near is not None and near.fit is not None and far is not None and far.fit is not None
    # 20 % over: a faster rate alone, within the 1.25x bound, and it fits.
    assert near.fit.stretch == 1.0 and 1.1 < near.fit.rate <= 1.25 * 1.01
    assert near.duration_s <= slot_seconds(project, project.line("near")) + 1e-3  # type: ignore[operator]
    assert near.fit.describe().startswith("fitted: rate 1.") and "stretch" not in near.fit.describe()
    # 60 % over: the rate stops at the bound, Rubber Band stretches the rest.
    assert far.fit.rate == pytest.approx(1.25, abs=0.05) and far.fit.stretch > 1.1
    assert "+ stretch" in far.fit.describe()
    assert far.duration_s <= slot_seconds(project, project.line("far")) + 1e-3  # type: ignore[operator]
    assert far.loudness_lufs is not None and far.true_peak_dbtp is not None
    result = export_mix(project)
    assert result.overruns == []
    assert [order for order, _ in result.fitted] == [1, 2] and "stretch" in result.fitted[1][1]
    # The fit spoke the natural takes' reading faster: its natural length is theirs.
    assert near.variant == far.variant == 0 and near.fit.natural_s == pytest.approx(natural["near"], abs=1e-3)
    reloaded = Project.load(project.root)
    assert reloaded.chosen_take(reloaded.line("far")).fit == far.fit  # type: ignore[union-attr]


def test_fit_keeps_within_the_total_limit_borrows_silence_and_flags_what_cannot_fit(
        tmp_path: Path, client: EngineClient) -> None:
    """The project's limits (1.3x in all, 0.5 s of silence to borrow) on real takes: a line 25 %
    over (9 % with the silence after it) fits by rate; one 80 % over stops at 1.3x and is flagged
    too long with the seconds it needs after borrowing; one 0.25 s over with 0.45 s of silence after it fits by running on into it; one 0.5 s
    over with 0.1 s after it borrows only that and is sped up, ending before the next line."""
    project = make_project(tmp_path / "limits")
    project.lines = [Line("near", TEXT, "maya", start=0.0), Line("far", TEXT, "maya", start=20.0),
                     Line("roomy", TEXT, "maya", start=40.0), Line("after_roomy", "Yes.", "rex", start=55.0),
                     Line("tight", TEXT, "maya", start=60.0), Line("after_tight", "No.", "rex", start=75.0)]
    assert (project.settings.fit_max_total, project.settings.fit_borrow_s) == (1.3, 0.5)  # the defaults
    long_ids = ["near", "far", "roomy", "tight"]
    render(client, project, long_ids, fit=False)
    natural = {line_id: spoken_seconds(project, project.line(line_id)) for line_id in long_ids}
    line = {line_id: project.line(line_id) for line_id in long_ids}
    line["near"].end = natural["near"] / 1.25  # with the 0.5 s of silence it borrows, about 9 % over
    line["far"].end = 20.0 + natural["far"] / 1.8
    line["roomy"].end = 40.0 + natural["roomy"] - 0.25
    project.line("after_roomy").start = line["roomy"].end + 0.45
    line["tight"].end = 60.0 + natural["tight"] - 0.5
    project.line("after_tight").start = line["tight"].end + 0.1

    render(client, project, long_ids, fit=True)
    takes = {line_id: project.chosen_take(line[line_id]) for line_id in long_ids}
    for line_id, take in takes.items():
        assert take is not None
        total = take.fit.rate * take.fit.stretch if take.fit is not None else 1.0
        assert total <= 1.3 * 1.01, (line_id, take.fit)  # never past the limit
    near, far, roomy, tight = (takes[i] for i in long_ids)
    assert near.fit is not None and near.duration_s <= slot_seconds(project, line["near"]) + 1e-3  # type: ignore
    assert too_long(project, line["near"]) is None
    # 80 % over cannot fit at 1.3x: left over its slot by what it needs, and flagged.
    assert far.fit is not None and far.fit.rate * far.fit.stretch == pytest.approx(1.3, abs=0.02)
    needed = too_long(project, line["far"])
    assert needed is not None and needed == pytest.approx(natural["far"] / 1.3 - natural["far"] / 1.8 - 0.5, abs=0.15)
    result = export_mix(project)
    assert [o.line_id for o in result.overruns] == ["far"]
    assert any(order == 2 and "too long: shorten the text or widen the slot" in text for order, text in result.fitted)
    # 0.25 s over with 0.45 s of silence after: its slot takes the silence in, nothing is sped up.
    assert slot_seconds(project, line["roomy"]) == pytest.approx(natural["roomy"] + 0.2, abs=1e-6)
    assert roomy.fit is None or roomy.fit.rate * roomy.fit.stretch <= 1.05
    assert 40.0 + roomy.duration_s <= project.line("after_roomy").start  # type: ignore[operator]
    # 0.5 s over with 0.1 s after: borrowing stops at the next line; the rest is a faster rate.
    assert slot_seconds(project, line["tight"]) == pytest.approx(natural["tight"] - 0.4, abs=1e-6)
    assert tight.fit is not None and tight.fit.rate > 1.05
    assert 60.0 + tight.duration_s <= project.line("after_tight").start + 1e-3  # type: ignore[operator]


def test_a_line_rendered_again_is_a_new_reading(tmp_path: Path, client: EngineClient) -> None:
    project = make_project(tmp_path / "scene")
    project.lines = [Line("once", TEXT, "maya", start=0.0)]
    render(client, project, ["once"], fit=False)
    render(client, project, ["once"], fit=False)
    first, second = project.line("once").takes
    assert (first.variant, second.variant) == (0, 1) and first.fingerprint == second.fingerprint
    audio = [sf.read(str(project.take_path(take)), dtype="float32")[0] for take in (first, second)]
    assert audio[0].size != audio[1].size or not np.allclose(audio[0], audio[1], atol=1e-3)
    assert Project.load(project.root).line("once").takes[1].variant == 1


def test_new_from_video_then_render_fit_and_export_video(tmp_path: Path, cache_dir: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    import av

    video = make_video(tmp_path / "scene.mp4", seconds=8.0)
    srt = tmp_path / "scene.srt"
    srt.write_text(
        "1\n00:00:05,000 --> 00:00:06,200\nRex: I saw them. A ship with no crew, drifting past the rocks.\n\n"
        "2\n00:00:00,500 --> 00:00:03,500\nMaya: Did you see the lights?\n",
        encoding="utf-8",
    )
    root = tmp_path / "dub"
    assert cli_main(["new", str(root), "--video", str(video), "--subtitles", str(srt),
                     "--voice", f"Maya={VOICES / 'maya.wav'}", "--voice", f"Rex={VOICES / 'rex.wav'}"]) == 0
    assert "Ready: dubstudio render" in capsys.readouterr().out
    project = Project.load(root)
    assert [line.start for line in project.lines] == [0.5, 5.0]  # placed by timecode, not file order

    code = cli_main(["render", str(root), "--fit", "--export", "video", "--language", "eng", "--no-progress",
                     "--slots", "2", "--cache-dir", str(cache_dir)])
    report = capsys.readouterr().err
    assert code == 0, report
    assert "line 2: fitted: rate" in report  # Rex's line is far longer than its 1.2 s slot
    assert "loudness: -23." in report and "target -23 LUFS" in report
    out = root / "exports" / "scene.mp4"
    with av.open(str(video)) as source, av.open(str(out)) as dubbed:
        assert dubbed.streams.video[0].codec_context.name == source.streams.video[0].codec_context.name
        assert dubbed.streams.video[0].frames == source.streams.video[0].frames == 200
        assert float(dubbed.duration or 0) / 1e6 == pytest.approx(float(source.duration or 0) / 1e6, abs=0.05)
        track = dubbed.streams.audio[0]
        assert track.metadata.get("language") == "eng"
        pcm = np.concatenate([frame.to_ndarray() for frame in dubbed.decode(track)], axis=1).T
    assert abs(pcm.shape[0] / 48000 - 8.0) < 0.1
    assert integrated_loudness(pcm, 48000) == pytest.approx(-23.0, abs=1.0)

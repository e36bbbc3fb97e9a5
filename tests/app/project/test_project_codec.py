"""project.json written and read back: the same project gives the same bytes; and what must not
load (crafted ids, NaN and infinity, deep nesting, numbers out of their ranges) refused with a code."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from app.project import (
    AudioStreamInfo,
    Character,
    Fit,
    Line,
    LineStatus,
    Project,
    ProjectFileError,
    SubtitleStreamInfo,
    Take,
    VideoInfo,
)
from app.project.media import attach_video
from app.project.sample import SAMPLE_PROJECT, copy_project
from engine.core.codes import ErrorCode
from engine.core.protocol import VoiceSettings
from engine.hearing.qa.checks import TakeChecks
from tests.app.project.test_project_files_safety import CRAFTED_ID

SAVED_SAMPLE = Path(__file__).parent / "data" / "sample_project_saved.json"
"""The sample project (schema 2 in resources/) saved by the code before project.json's codec left
app/project/model.py; any change to how project.json is written shows here."""


def test_the_sample_project_is_saved_byte_for_byte_and_reads_back_the_same(tmp_path: Path) -> None:
    sample = copy_project(SAMPLE_PROJECT, tmp_path / "sample")
    sample.save()
    saved = sample.project_file.read_bytes()
    assert saved == SAVED_SAMPLE.read_bytes()
    Project.load(sample.root).save()
    assert sample.project_file.read_bytes() == saved


def _every_field_set(root: Path) -> Project:
    """A project whose every stored field holds something other than its default."""
    project = Project.create(root, "Every field")
    project.settings = replace(project.settings, gap_s=0.5, fit_default=True, fit_max_rate=1.5,
                               loudness_target_lufs=None, guide_mix="duck", guide_gain_db=-3.0,
                               chinese_script="traditional")
    project.video = VideoInfo(
        path="media/scene.mp4", duration_s=12.5, fps=25.0, width=640, height=360, codec="h264", frame_count=312,
        audio_streams=(AudioStreamInfo(1, "aac", 2, 48000, "eng", "Dialogue"),),
        subtitle_streams=(SubtitleStreamInfo(2, "subrip", True, "fra", "Français"),),
    )
    project.guide_audio, project.language = "media/guide.wav", "en"
    project.characters = [Character(
        id="maya", name="Maya", colour="#e15759", clip="voices/maya.wav", clip_start=0.25, clip_end=4.5,
        transcript="Hello there.", transcript_heard=True, clip_purity=0.31,
        settings=VoiceSettings(speed=1.1, pitch_semitones=-2.0, instruction="softly", language="en"),
    )]
    checks = TakeChecks(checked="2026-01-01T10:00:00+00:00", duration_s=1.5, language="en", recogniser="base",
                        transcript="hi there", wer=0.25, clipping=0.0, leading_silence_s=0.1, inner_silence_s=0.2,
                        trailing_silence_s=0.3, resemblance=0.8, language_probability=0.97)
    take = Take(id="t1", path="takes/l1_t1.wav", fingerprint="f" * 32, created="2026-01-01T10:00:00+00:00",
                duration_s=1.5, sample_rate=22050, backend="piper", text="Hi there.",
                fit=Fit(rate=1.2, stretch=1.05, natural_s=1.8, slot_s=1.5), loudness_lufs=-20.5,
                true_peak_dbtp=-1.5, qa=checks, variant=3)
    project.lines = [
        Line(id="l1", text="Hi there.", character_id="maya", start=1.0, end=2.5, takes=[take], chosen_take="t1",
             status=LineStatus.DONE, fit=True, speed=1.2, instruction="", source_text="Salut.", draft=True,
             language="zh"),
        Line(id="l2", text="Untimed.", status=LineStatus.FAILED, error="E_BACKEND: it failed"),
    ]
    return project


def test_a_project_with_every_field_set_reads_back_to_the_same_bytes(tmp_path: Path) -> None:
    project = _every_field_set(tmp_path / "every")
    project.save()
    saved = project.project_file.read_bytes()
    again = Project.load(project.root)
    assert again.to_dict() == project.to_dict()
    again.save()
    assert project.project_file.read_bytes() == saved


# --- what must not load -----------------------------------------------------------------------


def edit_file(project: Project, change) -> None:
    data = json.loads(project.project_file.read_text())
    change(data)
    project.project_file.write_text(json.dumps(data))


def test_a_crafted_character_id_never_loads(project: Project) -> None:
    """The report: id ../../../tmp/ID_ESCAPE plus a trim wrote /tmp/ID_ESCAPE_..._end.wav."""
    def craft(data: dict) -> None:
        data["characters"][0]["id"] = CRAFTED_ID
        data["characters"][0]["clip_start"] = 0.5
        for line in data["lines"]:
            if line["character"] == "maya":
                line["character"] = CRAFTED_ID

    edit_file(project, craft)
    with pytest.raises(ProjectFileError) as caught:
        Project.load(project.root)
    assert caught.value.code is ErrorCode.BAD_ID and "characters[0]" in str(caught.value)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["lines"][0].update(id=CRAFTED_ID),
        lambda d: d["lines"][0].update(character="../x"),
        lambda d: d["lines"][0].update(takes=[{"id": "a/b", "path": "takes/x.wav"}]),
        lambda d: d["lines"][0].update(chosen_take="..\\x"),
        lambda d: d["characters"][1].update(id=""),
    ],
)
def test_every_id_is_checked_at_load(project: Project, change) -> None:
    edit_file(project, change)
    with pytest.raises(ProjectFileError) as caught:
        Project.load(project.root)
    assert caught.value.code is ErrorCode.BAD_ID


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_at_load(project: Project, constant: str) -> None:
    """The report: NaN in project.json loaded, every save then failed, and render exited 0."""
    text = project.project_file.read_text().replace('"gap_s": 0.3', f'"gap_s": {constant}', 1)
    assert constant in text
    project.project_file.write_text(text)
    with pytest.raises(ProjectFileError, match=f"holds {constant}, which is not a number JSON allows") as caught:
        Project.load(project.root)
    assert caught.value.code is ErrorCode.BAD_PROJECT_FILE


@pytest.mark.parametrize("depth", [100_000, 200])
def test_deeply_nested_project_files_give_a_coded_error(project: Project, depth: int) -> None:
    """The report: a project.json nested 100,000 levels deep gave a RecursionError traceback."""
    data = json.loads(project.project_file.read_text())
    data["title"] = "PLACEHOLDER"
    text = json.dumps(data).replace('"PLACEHOLDER"', "[" * depth + "]" * depth)
    project.project_file.write_text(text)
    with pytest.raises(ProjectFileError, match="nested") as caught:
        Project.load(project.root)
    assert caught.value.code is ErrorCode.BAD_PROJECT_FILE


@pytest.mark.parametrize(
    "change, code",
    [
        (lambda d: d["lines"][0].update(start=1e9), ErrorCode.TIME_RANGE),
        (lambda d: d["lines"][0].update(end=86400.5), ErrorCode.TIME_RANGE),
        (lambda d: d["characters"][0].update(clip_start=1e12), ErrorCode.TIME_RANGE),
        (lambda d: d["characters"][0].update(clip_purity=5.0), ErrorCode.INVALID_VALUE),
        (lambda d: d["settings"].update(gap_s=1e9), ErrorCode.INVALID_VALUE),
        (lambda d: d["characters"][0]["settings"].update(speed=1000), ErrorCode.BAD_SETTING),
    ],
)
def test_out_of_range_numbers_are_refused_at_load(project: Project, change, code: ErrorCode) -> None:
    """The report: a line start of 1e9 made the mix try to allocate 80 TiB."""
    edit_file(project, change)
    with pytest.raises(ProjectFileError) as caught:
        Project.load(project.root)
    assert caught.value.code is code


def with_a_take(data: dict) -> dict:
    """The first line of a project file given one take, chosen."""
    data["lines"][0].update(takes=[{"id": "t1", "path": "takes/l1_t1.wav", "fingerprint": "x", "duration_s": 1.0,
                                    "sample_rate": 22050}], chosen_take="t1")
    return data


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: with_a_take(d)["lines"][0]["takes"][0].update(sample_rate=-5),
         "lines[0].takes[0]: sample_rate must be a whole number from 0 to 768000 Hz, got -5"),
        (lambda d: with_a_take(d)["lines"][0]["takes"][0].update(sample_rate=10**18),
         "lines[0].takes[0]: sample_rate must be a whole number from 0 to 768000 Hz, got 1000000000000000000"),
        (lambda d: with_a_take(d)["lines"][0].update(chosen_take="t2"),
         "lines[0]: 'chosen_take' names take 't2', which the line does not have (its takes: 't1')"),
        (lambda d: d["lines"][0].update(takes=[], chosen_take="t2"),
         "lines[0]: 'chosen_take' names take 't2', which the line does not have (its takes: none)"),
    ],
)
def test_a_take_that_cannot_be_is_refused_at_load(project: Project, change, words: str) -> None:
    """Issue 34: a take's sample rate of -5 or 10**18, and a chosen take the line does not have
    (then its last take was chosen instead), were taken without a word."""
    edit_file(project, change)
    with pytest.raises(ProjectFileError) as caught:
        Project.load(project.root)
    assert caught.value.code is ErrorCode.BAD_PROJECT_FILE and str(caught.value) == f"E_BAD_PROJECT_FILE: {words}"


def test_a_huge_video_duration_in_project_json_is_refused_at_load(project: Project, video: Path) -> None:
    project.video = attach_video(project, video)
    project.save()
    data = json.loads(project.project_file.read_text())
    data["video"]["duration_s"] = 1e12
    project.project_file.write_text(json.dumps(data))
    with pytest.raises(ProjectFileError, match="duration_s"):
        Project.load(project.root)

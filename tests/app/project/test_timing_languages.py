"""A line's timing aids use its language's pace and limits (issue 30): Mandarin runs at about
4.5 characters a second and reads at most 9, English at about 15 and 21."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from app.project import Line, Project
from app.project.timeline import build_timeline, estimate_duration
from app.project.timing import line_timings
from engine.core.languages import rules_for
from tests.app.project.conftest import make_project

ZH = "甚至出现交易几乎停滞的情况"  # 13 characters: about 2.9 s of Mandarin


@pytest.fixture
def scene(tmp_path: Path) -> Project:
    project = make_project(tmp_path / "scene")
    maya = project.character("maya")
    maya.settings = replace(maya.settings, language="")  # each line's language from its script
    project.lines = [
        Line(id="zh", text=ZH, character_id="maya", start=0.0, end=2.0),  # 6.5 characters/s
        Line(id="en", text="Did you see the lights past the rocks?", character_id="maya", start=3.0, end=5.5),
        Line(id="zh-open", text=ZH, character_id="rex"),  # Rex is set to English: read as English
        Line(id="mixed", text="我们去Starbucks喝杯咖啡", character_id="maya", start=9.0, end=10.5),
    ]
    return project


def test_a_chinese_line_is_judged_by_chinese_limits(scene: Project) -> None:
    timings = line_timings(scene)
    zh, en, mixed = timings["zh"], timings["en"], timings["mixed"]
    assert zh.rules.code == "zh" and en.rules.code == "en" and mixed.rules.code == "zh"
    # 6.5 characters a second: nothing for English (17), but Mandarin is fast over 7 and at 4.5
    # a second the voice needs 2.9 s for the 2 s slot.
    assert zh.cps == pytest.approx(6.5) and not zh.fast
    assert zh.expected_s == pytest.approx(13 / rules_for("zh").speaking_cps)
    assert zh.likely_too_long and "Likely too long: about 2.9 s" in " ".join(zh.warnings())
    # 17 characters in 1.5 s: 11.3 a second, too fast for Chinese (9), comfortable in English.
    assert mixed.too_fast and "over 9 in Chinese (Mandarin)" in mixed.warnings()[0]
    assert en.cps is not None and en.cps < rules_for("en").cps_fast and not en.warned
    # Rex is English, but his line is written in Han, a script English never uses: it is Chinese.
    assert timings["zh-open"].rules.code == "zh"


def test_a_chinese_line_without_a_take_gets_a_chinese_length_on_the_timeline(scene: Project) -> None:
    assert estimate_duration(ZH) == pytest.approx(0.3 + 13 / 4.5)
    assert estimate_duration(ZH, "en") == pytest.approx(estimate_duration(ZH))  # Han text is Chinese
    assert estimate_duration("Konnichiwa", "ja") > estimate_duration("Konnichiwa")  # Latin text: as set
    slots = {slot.line_id: slot for slot in build_timeline(scene)}
    assert slots["zh-open"].duration == pytest.approx(estimate_duration(ZH, "en"))
    scene.character("rex").settings = replace(scene.character("rex").settings, language="zh")
    slots = {slot.line_id: slot for slot in build_timeline(scene)}
    assert slots["zh-open"].duration == pytest.approx(estimate_duration(ZH))

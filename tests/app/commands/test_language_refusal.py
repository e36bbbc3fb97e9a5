"""Chinese text through Piper is refused with E_LANGUAGE_UNSUPPORTED by `say` and `render`,
before any synthesis, and the render names every such line with its fix (issue 30)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from app.project import Line, LineStatus, Project
from app.project.readiness import language_gaps
from engine.synthesis.backends import declared_languages
from tests.app.project.conftest import make_project
from tests.engine.helpers import VOICES

DUBSTUDIO = shutil.which("dubstudio", path=str(Path(sys.executable).parent))
CHINESE = ("甚至出现交易几乎停滞的情况", "你明天早上八点来接我吧。", "我们去Starbucks喝杯咖啡，好不好？")


def test_say_refuses_chinese_through_piper_with_the_code(tmp_path):
    out = tmp_path / "zh.wav"  # the line: Piper babbled it for 10.2 s and exited 0
    result = subprocess.run([DUBSTUDIO, "say", CHINESE[0], "--voice", str(VOICES / "maya.wav"), "--out", str(out),
                             "--backend", "piper", "--cache-dir", str(tmp_path / "cache")],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr
    assert "E_LANGUAGE_UNSUPPORTED" in result.stderr and "zh-baker" in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()


def _chinese_scene(root: Path) -> Project:
    """The two-character scene with Maya's language left to the script, and three Chinese lines."""
    project = make_project(root)
    maya = project.character("maya")
    maya.settings = replace(maya.settings, language="")
    project.lines += [Line(id=f"zh{n}", text=text, character_id="maya") for n, text in enumerate(CHINESE)]
    project.save()
    return project


def test_readiness_flags_the_lines_the_backend_cannot_speak(tmp_path):
    project = _chinese_scene(tmp_path / "scene")
    gaps = language_gaps(project, "piper", ("en",), declared_languages())
    assert [(gap.line_id, gap.language) for gap in gaps] == [(f"zh{n}", "zh") for n in range(3)]
    assert gaps[0].describe().startswith("line 7: E_LANGUAGE_UNSUPPORTED: the line is in Chinese (Mandarin)")
    assert "render it with" in gaps[0].problem and "zh-baker" in gaps[0].problem
    assert language_gaps(project, "cosyvoice2", ("zh", "en"), declared_languages()) == ()


def test_render_names_the_chinese_lines_first_and_synthesises_none(tmp_path):
    project = _chinese_scene(tmp_path / "scene")
    result = subprocess.run([DUBSTUDIO, "render", str(project.root), "--lines", "5-9", "--no-progress",
                             "--backend", "piper", "--cache-dir", str(tmp_path / "cache")],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 1, result.stderr  # some lines failed
    flagged = result.stderr.index("3 lines are in a language piper cannot speak")
    assert flagged < result.stderr.index("Rendering 5 lines")
    assert result.stderr.count("E_LANGUAGE_UNSUPPORTED") >= 3
    done = Project.load(project.root)
    for n in range(3):
        line = done.line(f"zh{n}")
        assert line.status is LineStatus.FAILED and "E_LANGUAGE_UNSUPPORTED" in line.error and not line.takes
    assert all(done.line(f"l{n}").takes for n in (5, 6))  # the English lines rendered
    assert json.loads(done.project_file.read_text(encoding="utf-8"))  # saved whole

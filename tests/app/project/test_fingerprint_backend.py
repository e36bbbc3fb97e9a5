"""A take records the voice that spoke it: under the embedded voices (Piper for English,
zh-baker for Chinese) an English take made by Piper stays fresh, a Chinese one is zh-baker's."""

from __future__ import annotations

from pathlib import Path

from app.project import Line
from engine.core.protocol import speaking_backend
from tests.app.project.conftest import make_project


def test_the_embedded_backend_fingerprints_the_voice_of_each_lines_language(tmp_path: Path) -> None:
    project = make_project(tmp_path / "scene")
    english = project.lines[0]
    chinese = Line(id="zh", text="你明天早上八点来接我吧。", character_id=english.character_id)
    project.lines.append(chinese)
    assert project.fingerprint(english, "embedded") == project.fingerprint(english, "piper")
    assert project.fingerprint(chinese, "embedded") == project.fingerprint(chinese, "zh-baker")
    assert project.fingerprint(chinese, "embedded") != project.fingerprint(chinese, "piper")
    assert speaking_backend("cosyvoice2", "zh") == "cosyvoice2"  # any other backend is itself

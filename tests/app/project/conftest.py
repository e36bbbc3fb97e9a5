"""Fixtures for the project layer: a two-character project on disk and synthetic takes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.project import Line, Project, Take
from app.project.clips import import_clip
from app.project.model import new_id
from engine.core.protocol import VoiceSettings

VOICES = Path(__file__).resolve().parents[3] / "resources" / "voices"

SCRIPT = [
    ("maya", "Did you see the lights past the rocks last night?", 0.5, 3.5),
    ("rex", "I saw them. A ship with no crew.", 4.0, 6.5),
    ("maya", "We should tell the harbour master.", None, None),
    ("rex", "He never listens.", None, None),
    ("maya", "Then we row out at dawn.", 12.0, 14.0),
    ("rex", "Together. And nobody looks back.", 14.5, None),
]


def make_project(root: Path) -> Project:
    """Maya and Rex with the bundled clips, and six lines (some timed, some not)."""
    project = Project.create(root, "Test scene")
    for key in ("maya", "rex"):
        char = project.make_character(
            key.title(),
            clip=import_clip(project, VOICES / f"{key}.wav"),
            transcript=(VOICES / f"{key}.txt").read_text(encoding="utf-8").strip(),
            settings=VoiceSettings(language="en"),
        )
        char.id = key  # readable ids in assertions
        project.characters.append(char)
    project.lines = [
        Line(id=f"l{n}", text=text, character_id=char, start=start, end=end)
        for n, (char, text, start, end) in enumerate(SCRIPT, 1)
    ]
    project.save()
    return project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path / "scene")


def tone(seconds: float, rate: int = 22050, freq: float = 220.0, amplitude: float = 0.25) -> np.ndarray:
    t = np.arange(int(round(seconds * rate))) / rate
    return (amplitude * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def add_fake_take(project: Project, line: Line, audio: np.ndarray, rate: int = 22050, current: bool = True) -> Take:
    """Write ``audio`` as a take of ``line``; ``current`` gives it the line's fingerprint."""
    take_id = new_id()
    rel = f"takes/{line.id}_{take_id}.wav"
    path = project.resolve(rel)
    path.parent.mkdir(parents=True, exist_ok=True)
    sf.write(str(path), audio, rate, subtype="FLOAT")
    take = Take(
        id=take_id,
        path=rel,
        fingerprint=(project.fingerprint(line) or "") if current else "old",
        duration_s=len(audio) / rate,
        sample_rate=rate,
        backend=project.settings.backend,
        text=line.text,
    )
    project.add_take(line, take)
    return take

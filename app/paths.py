"""Where the bundled resources live (the sample voices, texts and project)."""

from __future__ import annotations

from pathlib import Path

RESOURCES = Path(__file__).resolve().parent.parent / "resources"
SAMPLE_VOICES = RESOURCES / "voices"
SAMPLE_TEXTS = RESOURCES / "texts"
SAMPLE_PROJECT = RESOURCES / "sample_project"

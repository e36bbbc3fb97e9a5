"""Where the repository and its bundled resources are (the sample voices, texts and project, the
speaker encoder's weights), declared once: every module finds them from here, so moving a
module never breaks a path."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
RESOURCES = REPO_ROOT / "resources"
SAMPLE_VOICES = RESOURCES / "voices"
SAMPLE_TEXTS = RESOURCES / "texts"
SAMPLE_PROJECT = RESOURCES / "sample_project"

"""Where the studio's tests find the repository and leave their artifacts."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
ARTIFACTS = REPO / "test-artifacts"  # kept by CI; gitignored

"""Smoke test of a built bundle: start the studio headless on a copy of the sample project.

    python packaging/smoke_test.py dist/dubstudio/dubstudio

Passes when the frozen program opens the project, draws its window under the offscreen Qt
platform and quits by itself (``--quit-after-load``) with status 0 and without a traceback or
a missing-library message. Exit status: 0 pass, 1 fail, 2 usage error.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_S = 300  # the engine (spawned by the frozen executable) loads its model before quitting
BROKEN = (
    "Traceback (most recent call last)",
    "ModuleNotFoundError",
    "ImportError",
    "could not find or load the Qt platform plugin",
    "error while loading shared libraries",
    "Fatal Python error",
)
WANTED = "project opened: True"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    binary = argv[0]
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "sample"
        shutil.copytree(ROOT / "resources" / "sample_project", project)
        env = {
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "XDG_CONFIG_HOME": str(Path(tmp) / "config"),
            "DUBSTUDIO_CACHE_DIR": str(Path(tmp) / "cache"),
        }
        try:
            done = subprocess.run(
                [binary, str(project), "--quit-after-load"], env=env, capture_output=True, text=True, timeout=TIMEOUT_S
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            print(f"FAIL: {exc}")
            return 1
    output = done.stdout + done.stderr
    broken = next((marker for marker in BROKEN if marker in output), None)
    ok = done.returncode == 0 and WANTED in done.stdout and broken is None
    print(output[-3000:])
    print(f"exit status {done.returncode}; {'found' if WANTED in done.stdout else 'missing'} {WANTED!r}; "
          f"problem: {broken or 'none'}")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

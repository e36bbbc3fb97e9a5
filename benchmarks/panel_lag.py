"""Event-loop lag of the stress panel while 8 concurrent jobs stream (a benchmark, not a test).

Opens the real StressPanel, runs one closed-loop level of 8 users on an 8-slot embedded
engine for a fixed time, and prints the lag probe's figures for the whole run. The window
is shown (offscreen by default; set QT_QPA_PLATFORM=xcb under Xvfb to draw for real).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/panel_lag.py [--seconds 30]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from app.ui.stress.panel import StressPanel
from engine.synthesis.config import EngineConfig


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--users", type=int, default=8)
    args = parser.parse_args()
    app = QApplication([])
    with tempfile.TemporaryDirectory() as cache:
        panel = StressPanel(engine_config=EngineConfig(cache_dir=cache))
        panel.resize(1190, 690)  # the Stress tab in the studio's default window
        panel.show()
        panel.target.slots.setValue(args.users)
        panel.controls.levels_edit.setText(str(args.users))
        panel.controls.hold_combo.setCurrentIndex(1)  # seconds per level
        panel.controls.hold_spin.setValue(args.seconds)
        panel.controls.warmup_spin.setValue(0)
        result: dict = {}

        def finished(report: object) -> None:
            result["lag"] = panel.lag.session()
            result["jobs"] = len(getattr(report, "jobs", []) or [])
            app.quit()

        panel.run_finished.connect(finished)
        panel.run_failed.connect(lambda message: (result.setdefault("error", message), app.quit()))
        assert panel.start(), "the panel refused to start"
        app.exec()
        panel.shutdown()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

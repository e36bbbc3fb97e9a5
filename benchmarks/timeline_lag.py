"""Event-loop lag of the studio while the timeline plays a 60-line dub with its video (a benchmark).

Builds a project in a temp folder (a PyAV-made H.264 video with a tone, the tone extracted as the
guide track, 60 timed lines over three characters with speech-shaped takes), opens it in the real
main window at the default size, waits until the timeline has loaded every take and the
background take QA has checked them (pass --during-qa to play while QA still runs), then plays the
dub with the guide from 0:00 for --play seconds and reports:

- the event-loop lag (a 20 ms precise timer's lateness: what a click or a repaint would wait),
- the picture: frames shown, and how far the frame on screen trails the audio clock,
- the playhead: how far it trails the audio clock, and how often the timeline redrew its tracks,
- the CPU the studio process used (all threads: GUI, decoder, audio).

The engine is not started (playing needs none). Audio goes to the default output device, or
with none (as on a server) to the studio's clock output, which consumes it in real time.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/timeline_lag.py [--play 30] [--json out.json]
(under Xvfb, QT_QPA_PLATFORM=xcb draws for real).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from app.ui.engine.bridge import EngineBridge
from app.ui.settings.store import Settings
from app.ui.stress.lag import LagProbe
from app.ui.tasks import ThreadTaskRunner
from app.ui.window.main_window import MainWindow
from engine.load.stats import percentile
from tests.app.ui.timeline.fixtures import make_dub_project


def wait(app: QApplication, done: object, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not done():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        app.processEvents()
        time.sleep(0.005)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=120.0, help="length of the video")
    parser.add_argument("--size", default="640x360", help="video size, WIDTHxHEIGHT")
    parser.add_argument("--play", type=float, default=30.0, help="seconds of playback measured")
    parser.add_argument("--during-qa", action="store_true", help="play while take QA still checks the takes")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    app = QApplication([])
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        started = time.perf_counter()
        project = make_dub_project(tmp / "dub", lines=args.lines, seconds=args.seconds, size=(width, height))
        build_s = time.perf_counter() - started
        settings = Settings(QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat))
        window = MainWindow(settings, ThreadTaskRunner(), bridge=EngineBridge(), projects_dir=tmp / "projects")
        window.resize(1200, 760)
        window.show()
        assert window.open_project(project.root), "the project did not open"
        timeline = window.timeline
        assert timeline is not None and window.qa is not None
        takes = len(project.lines)
        wait(app, lambda: len(timeline.canvas._audio) == takes and timeline.programme.has_guide, 120, "the takes")
        wait(app, lambda: timeline.preview.frame_time is not None, 60, "the first frame")
        qa_started = time.perf_counter()
        if not args.during_qa:
            wait(app, lambda: window.qa is not None and window.qa.pending == 0, 600, "take QA")
        qa_wait_s = time.perf_counter() - qa_started

        probe = LagProbe(interval_ms=20)
        video_lag: list[float] = []
        playhead_lag: list[float] = []

        def sample() -> None:
            now = timeline.transport.position
            if timeline.preview.frame_time is not None:
                video_lag.append(now - timeline.preview.frame_time)
            playhead_lag.append(now - timeline.canvas.playhead)

        sampler = QTimer()
        sampler.setInterval(50)
        sampler.timeout.connect(sample)
        shown, renders = timeline.preview.frames_shown, timeline.canvas.renders
        ended: dict[str, float] = {}

        def stop() -> None:  # read the clocks at the same moment, then leave the event loop
            ended.update(heard=timeline.transport.position, wall=time.perf_counter(), cpu=time.process_time())
            app.quit()

        probe.start()
        probe.reset()
        sampler.start()
        cpu, wall = time.process_time(), time.perf_counter()
        timeline.transport.play()
        QTimer.singleShot(int(args.play * 1000), stop)
        app.exec()
        heard, cpu, wall = ended["heard"], ended["cpu"] - cpu, ended["wall"] - wall
        sampler.stop()
        probe.stop()
        lag = probe.session() or {}
        frames = timeline.preview.frames_shown - shown
        redraws = timeline.canvas.renders - renders
        output = window.player.check_output().name
        window.close()

    fps = project.video.fps if project.video else 0.0
    figures = {
        "load_avg": os.getloadavg()[0],
        "cores": os.cpu_count(),
        "lines": args.lines,
        "video": f"{width}x{height} H.264 {fps:g} fps, {args.seconds:g} s",
        "output": output,
        "during_qa": args.during_qa,
        "played_s": round(wall, 2),
        "audio_clock_s": round(heard, 2),
        "lag_p50_ms": round(lag.get("p50_ms", float("nan")), 1),
        "lag_p99_ms": round(lag.get("p99_ms", float("nan")), 1),
        "lag_max_ms": round(lag.get("max_ms", float("nan")), 1),
        "frames_shown": frames,
        "frames_expected": int(round(heard * fps)),
        "video_behind_audio_p50_ms": round(percentile(video_lag, 50) * 1000, 1) if video_lag else None,
        "video_behind_audio_p99_ms": round(percentile(video_lag, 99) * 1000, 1) if video_lag else None,
        "playhead_behind_audio_p99_ms": round(percentile(playhead_lag, 99) * 1000, 1) if playhead_lag else None,
        "track_redraws": redraws,
        "cpu_percent_of_one_core": round(100 * cpu / wall, 1),
        "project_build_s": round(build_s, 1),
        "qa_wait_s": round(qa_wait_s, 1),
    }
    print(f"Timeline playback, {figures['lines']} lines, video {figures['video']}, output: {output}; "
          f"load average {figures['load_avg']:.2f} on {figures['cores']} cores"
          + ("; take QA running" if args.during_qa else ""))
    print(f"{'figure':36} {'value':>10}")
    for key in ("played_s", "audio_clock_s", "lag_p50_ms", "lag_p99_ms", "lag_max_ms", "frames_shown",
                "frames_expected", "video_behind_audio_p50_ms", "video_behind_audio_p99_ms",
                "playhead_behind_audio_p99_ms", "track_redraws", "cpu_percent_of_one_core"):
        print(f"{key:36} {figures[key]!s:>10}")
    verdict = "PASS" if figures["lag_p99_ms"] < 50 else "FAIL"
    print(f"event-loop lag p99 {figures['lag_p99_ms']} ms (objective < 50 ms): {verdict}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""How late the studio's event loop runs while Project › Transcribe the dialogue works (a
benchmark, not a test).

The transcription runs as the studio runs it: a project made from a real dialogue (``new --audio``), and
:func:`app.project.transcription_process.hear_project_apart` (the transcription in a child
process) as a :class:`app.ui.tasks.QueryOp` on the studio's :class:`app.ui.tasks.ThreadTaskRunner`
(the global QThreadPool), its progress dialog shown. ``--in-process`` runs
:func:`app.project.transcription.hear_project` on the pool thread instead, as the studio did
before, the models loaded in the studio's process. Meanwhile a 16 ms
QTimer on the GUI thread records how late each tick comes (its interval past 16 ms): the ticks
over 100 ms late, the longest, the 99th percentile, each such pause with the stage it came in,
and the transcription's wall time. The same timer runs for ``--idle`` seconds with nothing else
first, for the machine's own noise. ``--busy N`` keeps N more processes spinning meanwhile (a
machine in use: the pauses show there; docs/transcribe.md, "The studio while it transcribes").
With ``--in-process`` each round after the first reuses the loaded models.

The dialogue (default): seven LibriSpeech clips of tests/data/hearing (CC BY 4.0, three
speakers, 1688, 3080 and 2414) one after another, 0.7 s apart: 55 s. ``--recording`` takes
another (any recording ``dubstudio new --audio`` takes).

Run: QT_QPA_PLATFORM=offscreen OMP_NUM_THREADS=1 .venv/bin/python benchmarks/responsiveness.py [--rounds 3] [--busy 2]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

from app.cli import main as cli_main
from app.project.project import Project
from app.project.transcription import TranscribedScript, TranscribeRequest, hear_project
from app.project.transcription_process import hear_project_apart
from app.ui.tasks import Operation, QueryOp, ThreadTaskRunner
from app.ui.timeline.video_clips import transcription_progress
from engine.core.audio_io import read_audio
from engine.core.files import atomic_write_wav

ROOT = Path(__file__).resolve().parents[1]
DIALOGUE = ["libri_1688_a", "libri_3080_a", "libri_2414_a", "libri_1688_b", "libri_3080_b", "libri_1688_c",
            "libri_3080_c"]
GAP_S = 0.7
TICK_MS = 16
LATE_S = 0.1  # a pause anyone notices: a click or a repaint that waits this long feels stuck


def build_dialogue(target: Path) -> Path:
    """The default recording: the seven clips one after another, GAP_S apart, at 16 kHz."""
    rate = 16000
    parts: list[np.ndarray] = []
    for name in DIALOGUE:
        audio, clip_rate = read_audio(ROOT / "tests" / "data" / "hearing" / f"{name}.flac", rate)
        assert clip_rate == rate
        parts += [audio, np.zeros(round(GAP_S * rate), dtype=np.float32)]
    atomic_write_wav(target, np.concatenate(parts), rate)
    return target


def _spin() -> None:
    while True:
        pass


@contextlib.contextmanager
def busy_processes(count: int) -> Iterator[None]:
    """``count`` processes that keep a core busy each (other programs on the machine) meanwhile."""
    context = multiprocessing.get_context("spawn")
    spinning = [context.Process(target=_spin, daemon=True) for _ in range(count)]
    for process in spinning:
        process.start()
    try:
        yield
    finally:
        for process in spinning:
            process.kill()
            process.join()


def lateness_figures(late: list[float]) -> dict[str, Any]:
    """The ticks, those over LATE_S late, the longest and the 99th percentile (seconds)."""
    values = np.asarray(late) if late else np.zeros(1)
    return {"ticks": len(late), "over_100ms": int((values > LATE_S).sum()), "longest_s": round(float(values.max()), 3),
            "p99_s": round(float(np.percentile(values, 99)), 3)}


class TickRecorder:
    """A TICK_MS timer on the GUI thread; records each tick's lateness while ``recording``."""

    def __init__(self) -> None:
        self.late: list[float] = []
        self.at: list[float] = []  # when each tick came (time.perf_counter)
        self.recording = False
        self._clock = QElapsedTimer()
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)
        self._last = 0

    def start(self) -> None:
        self._clock.start()
        self._last = self._clock.nsecsElapsed()
        self._timer.start()

    def take(self) -> tuple[list[float], list[float]]:
        """The ticks' lateness and when they came, since the last take."""
        taken, self.late, at, self.at = self.late, [], self.at, []
        return taken, at

    def _tick(self) -> None:
        now = self._clock.nsecsElapsed()
        if self.recording:
            self.late.append(max(0.0, (now - self._last) / 1e9 - TICK_MS / 1000))
            self.at.append(time.perf_counter())
        self._last = now


def transcribe_once(app: QApplication, window: QMainWindow, runner: ThreadTaskRunner, recorder: TickRecorder,
                    project: Project, in_process: bool) -> dict[str, Any]:
    """One transcription as the studio runs it, the ticks' lateness recorded meanwhile."""
    outcome: dict[str, Any] = {}

    stages: list[tuple[float, str]] = []  # when each stage began

    def report(operation: Operation, stage: str, fraction: float) -> None:
        if not stages or stages[-1][1] != stage:
            stages.append((time.perf_counter(), stage))
        operation.report_stage(stage, fraction)

    def work(operation: Operation) -> TranscribedScript:
        hear = hear_project if in_process else hear_project_apart
        return hear(project, TranscribeRequest(), replace=True,
                            progress=lambda stage, fraction: report(operation, stage, fraction), cancel=operation.token)

    def finished(key: str, value: object) -> None:
        outcome[key] = value
        app.quit()

    recorder.take()
    recorder.recording = True
    started = time.perf_counter()
    runner.start(QueryOp(work, lambda made: finished("lines", len(made.lines)),
                         lambda error: finished("error", repr(error)), name="transcribing the dialogue",
                         progress=transcription_progress(window)))
    app.exec()
    recorder.recording = False
    late, at = recorder.take()

    def stage_at(moment: float) -> str:
        return next((stage for begun, stage in reversed(stages) if begun <= moment), "starting")

    pauses = [f"{when - started:.2f} s +{value:.3f} ({stage_at(when - value)})"
              for value, when in zip(late, at, strict=True) if value > LATE_S]
    return {**outcome, "wall_s": round(time.perf_counter() - started, 2), **lateness_figures(late), "pauses": pauses}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--recording", type=Path, help="the dialogue to transcribe (default: the LibriSpeech one)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of the timer alone first")
    parser.add_argument("--busy", type=int, default=0,
                        help="processes that each keep a core busy while it transcribes (a machine in use)")
    parser.add_argument("--in-process", action="store_true",
                        help="hear_project on the studio's pool thread, as before the child process")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    app = QApplication([])
    window = QMainWindow()
    window.resize(1280, 800)
    window.show()
    runner = ThreadTaskRunner()
    recorder = TickRecorder()
    recorder.start()
    results: dict[str, Any] = {"cpus": len(os.sched_getaffinity(0)), "load_before": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as scratch:
        recording = args.recording or build_dialogue(Path(scratch) / "dialogue.wav")
        assert cli_main(["new", str(Path(scratch) / "project"), "--audio", str(recording), "--no-subtitles"]) == 0
        project = Project.load(Path(scratch) / "project")
        QTimer.singleShot(1000, lambda: setattr(recorder, "recording", True))  # after the window's first paint
        QTimer.singleShot(round(args.idle * 1000) + 1000, app.quit)
        app.exec()
        recorder.recording = False
        results["idle"] = lateness_figures(recorder.take()[0])
        with busy_processes(args.busy):
            results["rounds"] = [transcribe_once(app, window, runner, recorder, project, args.in_process) for _ in range(args.rounds)]
    print(json.dumps(results, indent=2))
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()

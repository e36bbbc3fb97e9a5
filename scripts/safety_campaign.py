"""A campaign of bad inputs and faults against one DubStudio tree (issue 20's own campaign).

Each try runs a real `dubstudio` command (or, for what has no command, a few lines of the
project API) in a fresh scratch folder and records how it ended: the exit status and the last
line it printed, TRACEBACK when Python printed one, or STILL RUNNING when it had not ended after
``--timeout`` seconds (then killed: a hang, or a bench that should never have started). Run it
against two trees to compare them:

    .venv/bin/python scripts/safety_campaign.py --tree /path/to/old/tree --json old.json
    .venv/bin/python scripts/safety_campaign.py --json new.json
    .venv/bin/python scripts/safety_campaign.py --compare old.json new.json   # a markdown table

The surfaces are those issue 20 names: video import, media paths and facts in project.json,
video export, qa, serve and the CLI's extremes. Nothing here starts an engine, so it runs in a
few minutes on two cores; serve stops at its option checks (no Ray cluster is started).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Try:
    name: str
    args: list[str]  # after `dubstudio`; "{d}" is the scratch folder
    setup: Callable[[Path], None] = lambda d: None
    python: str = ""  # instead of a command: a snippet run with the tree's packages ({d} filled in)


def sample(d: Path, with_take: bool = True) -> None:
    """The sample project at d/p with one synthetic take per line, and a 3 s video at d/v.mp4."""
    shutil.copytree(ROOT / "resources" / "sample_project", d / "p")
    sys.path.insert(0, str(ROOT))
    import numpy as np
    import soundfile as sf

    from tests.app.project.media_fixtures import make_video

    make_video(d / "v.mp4", seconds=3.0)
    data = json.loads((d / "p" / "project.json").read_text())
    (d / "p" / "takes").mkdir(exist_ok=True)
    if with_take:
        for line in data["lines"]:
            rel = f"takes/{line['id']}.wav"
            sf.write(str(d / "p" / rel), (0.2 * np.sin(np.arange(22050) / 8)).astype(np.float32), 22050)
            line["takes"] = [{"id": f"t{line['id']}", "path": rel, "fingerprint": "x", "duration_s": 1.0, "sample_rate": 22050,
                              "backend": "piper", "text": line["text"]}]
            line["chosen_take"] = f"t{line['id']}"
    (d / "p" / "project.json").write_text(json.dumps(data))


def edit_project(d: Path, change: Callable[[dict], None]) -> None:
    path = d / "p" / "project.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def with_video(d: Path, **facts: object) -> None:
    sample(d)
    (d / "p" / "media").mkdir(exist_ok=True)
    shutil.copy(d / "v.mp4", d / "p" / "media" / "v.mp4")

    def change(data: dict) -> None:
        data["video"] = {"path": "media/v.mp4", "duration_s": 3.0, "fps": 25.0, "width": 160, "height": 96,
                         "codec": "h264", "audio_streams": [], "subtitle_streams": [], **facts}

    edit_project(d, change)


def fifo(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    os.mkfifo(path)


def video_is(d: Path, make: Callable[[Path], None]) -> None:
    with_video(d)
    target = d / "p" / "media" / "v.mp4"
    target.unlink()
    make(target)


EXPORT_VIDEO = "from app.project import Project; from app.project.video_export import export_video; " \
               "print(export_video(Project.load('{d}/p')).files)"
MIX = "from app.project import Project; from app.project.export import export_mix; print(export_mix(Project.load('{d}/p')).files)"

TRIES = [
    # video import (`new`)
    Try("new --video FIFO", ["new", "{d}/n", "--video", "{d}/fifo.mp4"], lambda d: fifo(d / "fifo.mp4")),
    Try("new --subtitles FIFO", ["new", "{d}/n", "--video", "{d}/v.mp4", "--subtitles", "{d}/s.srt"],
        lambda d: (sample(d), fifo(d / "s.srt"))),
    Try("new --voice NAME=FIFO", ["new", "{d}/n", "--video", "{d}/v.mp4", "--voice", "Maya={d}/c.wav"],
        lambda d: (sample(d), fifo(d / "c.wav"))),
    Try("new --voice a 10 min 1 s clip", ["new", "{d}/n", "--video", "{d}/v.mp4", "--voice", "Maya={d}/c.wav"],
        lambda d: (sample(d), __import__("soundfile").write(str(d / "c.wav"), __import__("numpy").zeros(8000 * 601),
                                                            8000))),
    Try("new --video a text file", ["new", "{d}/n", "--video", "{d}/t.mp4"], lambda d: (d / "t.mp4").write_text("hi")),
    Try("new --video an audio-only WAV", ["new", "{d}/n", "--video", str(ROOT / "resources/voices/maya.wav")]),
    Try("new PROJECT_DIR is a file", ["new", "{d}/f", "--video", "{d}/v.mp4"],
        lambda d: (sample(d), (d / "f").write_text("x"))),
    Try("new PROJECT_DIR a dangling symlink", ["new", "{d}/l", "--video", "{d}/v.mp4"],
        lambda d: (sample(d), (d / "l").symlink_to(d / "nowhere" / "x"))),
    Try("new --link, video inside PROJECT_DIR", ["new", "{d}/n", "--video", "{d}/n/v.mp4", "--link"],
        lambda d: (sample(d), (d / "n").mkdir(), shutil.copy(d / "v.mp4", d / "n" / "v.mp4"))),
    Try("new --subtitle-stream 99", ["new", "{d}/n", "--video", "{d}/v.mp4", "--subtitle-stream", "99"], sample),
    Try("new --subtitles with a NUL byte", ["new", "{d}/n", "--video", "{d}/v.mp4", "--subtitles", "{d}/s.srt"],
        lambda d: (sample(d), (d / "s.srt").write_bytes(b"1\n00:00:01,000 --> 00:00:02,000\nHi\x00 there\n"))),
    Try("new into a folder left by a killed new", ["new", "{d}/n", "--video", "{d}/v.mp4"],
        lambda d: (sample(d), (d / "n" / "voices").mkdir(parents=True), (d / "n" / ".dubstudio-new").write_text(
            '{"before": [], "created_folder": true}'))),
    # media facts and paths in project.json
    Try("project.json video.duration_s 1e12", ["qa", "{d}/p"], lambda d: with_video(d, duration_s=1e12)),
    Try("project.json video.width -5", ["qa", "{d}/p"], lambda d: with_video(d, width=-5)),
    Try("project.json video.fps 1e300", ["qa", "{d}/p"], lambda d: with_video(d, fps=1e300)),
    Try("project.json audio sample_rate 10**12", ["qa", "{d}/p"], lambda d: with_video(
        d, audio_streams=[{"index": 1, "codec": "aac", "channels": 2, "sample_rate": 10**12}])),
    Try("project.json video.path ../outside.mp4", ["qa", "{d}/p"], lambda d: (with_video(d), edit_project(
        d, lambda data: data["video"].update(path="../v.mp4")))),
    Try("project.json guide_audio is a FIFO (mix)", [], lambda d: (sample(d), fifo(d / "p" / "media" / "guide.flac"),
                                                                  edit_project(d, lambda data: data.update(
                                                                      guide_audio="media/guide.flac",
                                                                      settings={"guide_mix": "duck"}))), MIX),
    Try("a take is a FIFO (mix)", [], lambda d: (sample(d), fifo(d / "p" / "takes" / "line01.wav")), MIX),
    # video export
    Try("export video: the video is a FIFO", [], lambda d: video_is(d, fifo), EXPORT_VIDEO),
    Try("export video: an audio file as the video", [], lambda d: video_is(
        d, lambda t: shutil.copy(ROOT / "resources/voices/maya.wav", t)), EXPORT_VIDEO),
    Try("export video: the video is a folder", [], lambda d: video_is(d, lambda t: t.mkdir()), EXPORT_VIDEO),
    Try("export video: duration_s claims 3 h", [], lambda d: with_video(d, duration_s=10_800.0),
        EXPORT_VIDEO.replace("print(export_video(Project.load('{d}/p')).files)",
                             "r = export_video(Project.load('{d}/p')); print(f'{{r.duration_s:.1f}} s of dub')")),
    Try("export video: exports/ is a hard link target", [], lambda d: (with_video(d), (d / "p" / "exports").mkdir(),
                                                                       (d / "mine").write_text("mine"),
                                                                       os.link(d / "mine", d / "p/exports/Sample.mp4")),
        EXPORT_VIDEO.replace("Project.load('{d}/p')", "Project.load('{d}/p'), '{d}/p/exports/Sample.mp4'")),
    # qa
    Try("qa: a take is a FIFO", ["qa", "{d}/p", "--lines", "1"], lambda d: (sample(d), fifo(d / "p" / "takes" / "line01.wav"))),
    Try("qa --save: the lock is a FIFO", ["qa", "{d}/p", "--save"], lambda d: (sample(d), fifo(d / "p/.dubstudio.lock"))),
    Try("qa --save: the lock is a hard link out", ["qa", "{d}/p", "--save"],
        lambda d: (sample(d), (d / "mine").write_text("mine"), os.link(d / "mine", d / "p/.dubstudio.lock"))),
    Try("qa --lines 0", ["qa", "{d}/p", "--lines", "0"], sample),
    Try("qa through a symlinked project folder", ["qa", "{d}/link", "--lines", "1"],
        lambda d: (sample(d), (d / "link").symlink_to(d / "p"))),
    # serve (stops at its checks: nothing starts)
    Try("serve --token-file FIFO", ["serve", "--token-file", "{d}/t"], lambda d: fifo(d / "t")),
    Try("serve --max-clip-mb nan", ["serve", "--max-clip-mb", "nan"]),
    Try("serve --clip-store-mb -1", ["serve", "--clip-store-mb", "-1"]),
    Try("serve --job-timeout inf", ["serve", "--job-timeout", "inf"]),
    Try("serve --max-text-chars 0", ["serve", "--max-text-chars", "0"]),
    Try("serve --replica-cpus nan", ["serve", "--replica-cpus", "nan"]),
    Try("serve --gpus-per-replica inf", ["serve", "--gpus-per-replica", "inf"]),
    Try("serve --clip-store-mb below --max-clip-mb", ["serve", "--clip-store-mb", "4", "--max-clip-mb", "32"]),
    # CLI extremes
    Try("bench --seconds nan", ["bench", "--seconds", "nan"]),
    Try("bench --think inf", ["bench", "--think", "inf"]),
    Try("bench --timeout nan", ["bench", "--timeout", "nan"]),
    Try("bench --objective-p95-first-audio nan", ["bench", "--objective-p95-first-audio", "nan"]),
    Try("bench --objective-max-error-rate 5", ["bench", "--objective-max-error-rate", "5"]),
    Try("bench --rate inf --mode open", ["bench", "--mode", "open", "--rate", "inf"]),
    Try("bench --warmup -1", ["bench", "--warmup", "-1"]),
    Try("bench --fail-under 0", ["bench", "--fail-under", "0"]),
    Try("bench --slots 100000", ["bench", "--slots", "100000"]),
    Try("bench --texts FIFO", ["bench", "--texts", "{d}/t.txt"], lambda d: fifo(d / "t.txt")),
    Try("say --engine-load-timeout nan", ["say", "hi", "--out", "{d}/o.wav", "--engine-load-timeout", "nan"]),
    Try("say --voice FIFO", ["say", "hi", "--out", "{d}/o.wav", "--voice", "{d}/c.wav"], lambda d: fifo(d / "c.wav")),
    Try("render --max-active 0", ["render", "{d}/p", "--max-active", "0"], sample),
]


def run_try(tree: Path, attempt: Try, timeout: float) -> str:
    with tempfile.TemporaryDirectory(prefix="campaign-") as scratch:
        d = Path(scratch)
        attempt.setup(d)
        if attempt.python:  # a coded ProjectError ends it like a command: its line, exit 1
            snippet = attempt.python.format(d=d)
            code = f"import sys\nfrom app.project.errors import ProjectError\ntry:\n    {snippet}\n" \
                   "except ProjectError as error:\n    sys.exit(str(error))\n"
            command = [sys.executable, "-c", code]
        else:
            command = [sys.executable, "-m", "app.cli", *[a.format(d=d) for a in attempt.args]]
        process = subprocess.Popen(command, cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True, env={**os.environ, "PYTHONPATH": str(tree)})
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return f"STILL RUNNING after {timeout:.0f} s (killed)"
        text = (err.strip() or out.strip()).splitlines()
        if "Traceback (most recent call last)" in err:
            return f"TRACEBACK, exit {process.returncode}: {text[-1][:110] if text else ''}"
        last = next((line for line in reversed(text) if line.strip() and not line.startswith(" ")), "")
        return f"exit {process.returncode}: {last[:110]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", default=str(ROOT), help="the DubStudio tree to try (default: this one)")
    parser.add_argument("--timeout", type=float, default=25.0)
    parser.add_argument("--json", default=None)
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--only", default="", metavar="TEXT", help="run only the tries whose name holds TEXT")
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(Path(p).read_text()) for p in args.compare)
        def cell(text: str) -> str:  # scratch folders differ from run to run: not worth a column's width
            return re.sub(r"/tmp/campaign-[^/ ]+/?", "…/", text).replace("|", "\\|")

        print("| try | before | after |\n|---|---|---|")
        for name in before:
            print(f"| {name} | {cell(before[name])} | {cell(after.get(name, ''))} |")
        return
    results = {}
    started = time.monotonic()
    for attempt in (t for t in TRIES if args.only in t.name):
        results[attempt.name] = run_try(Path(args.tree), attempt, args.timeout)
        print(f"{attempt.name}: {results[attempt.name]}", flush=True)
    print(f"{len(results)} tries in {time.monotonic() - started:.0f} s", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()

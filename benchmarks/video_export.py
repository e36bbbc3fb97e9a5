"""How long the video steps take for a two-minute, 60-line dub (not a test; one command).

    .venv/bin/python benchmarks/video_export.py [--seconds 120] [--lines 60]

Builds a video (colour bars + tone, H.264 320x180 at 25 fps, AAC) and a project with synthetic
takes in a temp folder, then times: probe, copying the video in, extracting the guide track,
measuring every take's loudness, the mix (per-take and programme normalisation), and the video
export in MP4/AAC and MKV/Opus (picture copied, dub encoded). Prints a table with each step's
time and its speed against real time; the machine's load is printed with it.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import soundfile as sf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.project import Line, Project, Take
from app.project.export import mixdown
from app.project.loudness import measure
from app.project.media import attach_video, extract_guide, probe_video
from app.project.model import new_id
from app.project.video_export import VideoExportOptions, export_video
from tests.app.project.media_fixtures import make_video, speech_like

RATE = 22050


def fake_take(project: Project, line: Line, seconds: float, seed: int) -> None:
    """A speech-like take (see :func:`speech_like`) written into the project."""
    audio = speech_like(seconds, RATE, seed)
    take_id = new_id()
    rel = f"takes/{line.id}_{take_id}.wav"
    sf.write(str(project.resolve(rel)), audio, RATE)
    project.add_take(line, Take(id=take_id, path=rel, fingerprint="", duration_s=seconds, sample_rate=RATE))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--lines", type=int, default=60)
    args = parser.parse_args()
    rows: list[tuple[str, float, float]] = []

    def timed(label: str, media_s: float, work):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        value = work()
        rows.append((label, time.perf_counter() - start, media_s))
        return value

    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        video = timed("make the test video (libx264)", args.seconds,
                      lambda: make_video(tmp / "source.mp4", seconds=args.seconds, size=(320, 180)))
        project = Project.create(tmp / "dub", "Benchmark")
        timed("probe", args.seconds, lambda: probe_video(video))
        project.video = timed("copy the video in", args.seconds, lambda: attach_video(project, video))
        project.guide_audio = timed("extract the guide (FLAC)", args.seconds, lambda: extract_guide(project))
        step = args.seconds / args.lines
        project.lines = [Line(id=f"l{n}", text=f"Line {n}.", start=n * step, end=n * step + step * 0.9)
                         for n in range(args.lines)]
        for n, line in enumerate(project.lines):
            fake_take(project, line, step * 0.8, n)
        take_seconds = sum(t.duration_s for line in project.lines for t in line.takes)

        def loudness_of_every_take() -> None:
            for line in project.lines:
                take = project.chosen_take(line)
                assert take is not None
                audio, rate = sf.read(str(project.take_path(take)), dtype="float32")
                measure(audio, rate)

        timed(f"measure {args.lines} takes (LUFS + true peak)", take_seconds, loudness_of_every_take)
        timed("mix, guide replaced (normalised)", args.seconds, lambda: mixdown(project))
        project.settings.guide_mix = "duck"
        timed("mix, guide ducked (normalised)", args.seconds, lambda: mixdown(project))
        project.settings.guide_mix = "replace"
        timed("export MP4, AAC dub", args.seconds,
              lambda: export_video(project, tmp / "out.mp4", VideoExportOptions()))
        timed("export MKV, Opus dub + original + subtitles", args.seconds,
              lambda: export_video(project, tmp / "out.mkv", VideoExportOptions(
                  container="mkv", audio_codec="opus", keep_original=True, subtitles=True)))

    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"{args.seconds:.0f} s video, {args.lines} lines")
    print(f"{'step':46} {'seconds':>8} {'x real time':>12}")
    for label, seconds, media in rows:
        print(f"{label:46} {seconds:8.2f} {media / seconds:12.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

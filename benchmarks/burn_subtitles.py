"""What burning the subtitles into the picture costs, against the plain video export (not a test).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/burn_subtitles.py [--seconds 30] [--size 1280x720] [--repeat 2]
                                                                    [--picture bars|grain]

Builds a video (colour bars with a moving square, or with ``--picture grain`` a panning
textured picture with fresh grain in every frame, as film footage is, which costs an encoder far
more than bars; H.264 at 25 fps, AAC tone) and a project
whose lines cover about 80 % of it (speech-like takes, English text; every fourth line Chinese,
so the CJK font is drawn too) in a temp folder, then times, alternately and ``--repeat`` times
each, the plain export (picture copied, dub encoded) and the export with the subtitles burned
in (picture decoded, cues drawn, re-encoded with libx264). Prints the best time of each, their
ratio (wall clock and CPU time, all threads), the burned export's frames per second and real-time factor, and the load average: the
ratio is the figure to quote, measured in one run on one machine.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np

from app.project import Line, Project
from app.project.media import attach_video
from app.project.video_export import VideoExportOptions, export_video
from benchmarks.video_export import fake_take
from tests.app.project.media_fixtures import make_video

CHINESE = "我们明天在港口见面，别告诉任何人。"


def grain_video(path: Path, seconds: float, size: tuple[int, int]) -> Path:
    """A panning smooth texture with fresh grain in every frame, H.264 at 25 fps, with a tone."""
    import av
    from scipy.ndimage import gaussian_filter

    width, height = size
    rng = np.random.default_rng(0)
    texture = np.stack([gaussian_filter(rng.random((height + 64, width * 2)), 6) for _ in range(3)], axis=2)
    texture = (255 * (texture - texture.min()) / np.ptp(texture)).astype(np.float32)
    frames = int(round(seconds * 25))
    with av.open(str(path), "w") as out:
        video = out.add_stream("libx264", rate=25)
        video.width, video.height, video.pix_fmt = width, height, "yuv420p"
        audio = out.add_stream("aac", rate=48_000)
        audio.layout = "stereo"
        for n in range(frames):
            x = (n * 3) % width
            picture = texture[32 : 32 + height, x : x + width] + rng.normal(0, 6, (height, width, 1))
            frame = av.VideoFrame.from_ndarray(np.clip(picture, 0, 255).astype(np.uint8), format="rgb24")
            frame.pts = n
            out.mux(video.encode(frame))
        out.mux(video.encode(None))
        tone = (0.2 * np.sin(2 * np.pi * 440 * np.arange(int(seconds * 48_000)) / 48_000)).astype(np.float32)
        for start in range(0, tone.size, 1024):
            block = av.AudioFrame.from_ndarray(np.ascontiguousarray(np.stack([tone, tone])[:, start : start + 1024]),
                                               format="fltp", layout="stereo")
            block.sample_rate, block.pts = 48_000, start
            out.mux(audio.encode(block))
        out.mux(audio.encode(None))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--size", default="1280x720", help="the picture, WIDTHxHEIGHT")
    parser.add_argument("--lines", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--picture", choices=("bars", "grain"), default="bars")
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    times: dict[str, list[float]] = {"plain": [], "burned": []}
    cpu: dict[str, list[float]] = {"plain": [], "burned": []}  # all threads: steadier than wall time under load
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        video = (grain_video(tmp / "source.mp4", args.seconds, (width, height)) if args.picture == "grain"
                 else make_video(tmp / "source.mp4", seconds=args.seconds, size=(width, height)))
        project = Project.create(tmp / "dub", "Benchmark")
        project.video = attach_video(project, video)
        step = args.seconds / args.lines
        project.lines = [Line(id=f"l{n}", text=CHINESE if n % 4 == 3 else f"Line {n}: the harbour lights at dawn.",
                              start=n * step, end=n * step + step * 0.8) for n in range(args.lines)]
        for n, line in enumerate(project.lines):
            fake_take(project, line, step * 0.7, n)
        options = {"plain": VideoExportOptions(), "burned": VideoExportOptions(burn_subtitles="target")}
        for _ in range(args.repeat):
            for kind, chosen in options.items():
                start, start_cpu = time.perf_counter(), time.process_time()
                export_video(project, tmp / f"{kind}.mp4", chosen)
                times[kind].append(time.perf_counter() - start)
                cpu[kind].append(time.process_time() - start_cpu)
        sizes = {kind: (tmp / f"{kind}.mp4").stat().st_size for kind in options}
    plain, burned = min(times["plain"]), min(times["burned"])
    frames = args.seconds * 25
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.seconds:.0f} s video at "
          f"{width}x{height}, 25 fps ({args.picture}), {args.lines} lines; best of {args.repeat}")
    print(f"plain export (picture copied):        {plain:7.2f} s  ({args.seconds / plain:5.1f}x real time), "
          f"{sizes['plain'] / 1e6:.1f} MB")
    print(f"subtitles burned in (re-encoded):     {burned:7.2f} s  ({args.seconds / burned:5.1f}x real time, "
          f"{frames / burned:.0f} frames/s), {sizes['burned'] / 1e6:.1f} MB")
    print(f"ratio burned / plain:                 {burned / plain:7.1f}x wall, "
          f"{min(cpu['burned']) / min(cpu['plain']):.1f}x CPU ({min(cpu['plain']):.2f} s against "
          f"{min(cpu['burned']):.2f} s of CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How long people wait for a new voice: preparation with the engine up, and `say` on a new clip.

Every round uses a 10-second clip nobody has prepared before (the bundled rex clip, looped to
10 s, its level nudged by a different tiny amount each round so its content, and so its cache
key, is new). The model's derived data (Piper's calibration) and the plain voice's embedding
are on disk after the first engine ever ran, as they are on any machine that has used the
studio once; the first round of ``say`` below is that first run, reported on its own line.

Three measurements:

1. ``say`` (the installed command, a fresh engine per run, as a user types it):
   ``first_audio_s`` from ``say --json``, which counts from the job's submission, made the
   moment the engine reported ready, to the first audio chunk: "first audio after the engine
   is ready". ``engine_start_s`` (spawn to ready) is printed beside it for context.
   Target: first audio <= 1.5 s.
2. PrepareVoice with the engine already up (started, warmed up, a first voice prepared):
   wall time from the request to VoicePrepared, which comes once everything is done
   (conditioning, embedding, resemblance, cache entry). Target: <= 1.0 s.
3. A job on a new clip with the engine already up: its voice preparation as the job saw it
   (the conditioning only: the job goes on while the rest finishes in the background) and
   its first audio.

Run: .venv/bin/python benchmarks/voice_prepare.py [--rounds 5] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile as sf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core import protocol
from engine.core.files import atomic_write_text
from engine.synthesis.client.local import EngineClient
from engine.synthesis.config import EngineConfig

CLIP_SECONDS = 10.0
SOURCE = ROOT / "resources" / "voices" / "rex.wav"
TEXT = "Keep the lamps lit until the last boat is home."
DUBSTUDIO = shutil.which("dubstudio", path=str(Path(sys.executable).parent)) or "dubstudio"


def new_clip(folder: Path, index: int) -> protocol.VoiceSpec:
    """A 10 s clip whose content no cache has seen (the source looped, level nudged by ``index``)."""
    audio, rate = sf.read(str(SOURCE), dtype="float32")
    looped = np.tile(audio, int(np.ceil(CLIP_SECONDS * rate / len(audio))))[: int(CLIP_SECONDS * rate)]
    path = folder / f"clip-{index}.wav"
    sf.write(str(path), looped * (0.9 - 1e-4 * index), rate, subtype="PCM_16")
    transcript = SOURCE.with_suffix(".txt").read_text().strip()
    path.with_suffix(".txt").write_text(transcript)
    return protocol.VoiceSpec(str(path), transcript)


def run_say(clip: protocol.VoiceSpec, cache: Path, out: Path) -> dict:
    started = time.monotonic()
    done = subprocess.run([DUBSTUDIO, "say", TEXT, "--voice", clip.clip_path, "--out", str(out), "--json",
                           "--cache-dir", str(cache)], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"say failed: {done.stderr}")
    return {**json.loads(done.stdout), "wall_s": round(time.monotonic() - started, 3)}


def wait_for(client: EngineClient, request_id: str) -> protocol.VoicePrepared:
    while True:
        event = client.get_event()
        if isinstance(event, protocol.RequestFailed) and event.request_id == request_id:
            raise SystemExit(f"{event.code.value}: {event.message}")
        if isinstance(event, protocol.VoicePrepared) and event.request_id == request_id:
            return event


def prepare(client: EngineClient, voice: protocol.VoiceSpec) -> tuple[float, protocol.VoicePrepared]:
    started = time.monotonic()
    prepared = wait_for(client, client.prepare_voice(voice))
    return time.monotonic() - started, prepared


def job_on_new_clip(client: EngineClient, voice: protocol.VoiceSpec) -> dict:
    """A job on a new clip, then its PrepareVoice answer (so the entry is complete before the next)."""
    job = protocol.Job(TEXT, voice, priority=protocol.Priority.INTERACTIVE, listening=False)
    submitted = client.submit(job)
    request_id = client.prepare_voice(voice)
    first = None
    finished: protocol.JobFinished | None = None
    prepared_at = None
    while finished is None or prepared_at is None:
        event = client.get_event()
        if isinstance(event, protocol.AudioChunk) and event.job_id == job.job_id and first is None:
            first = time.monotonic() - submitted
        elif isinstance(event, protocol.JobFinished) and event.job_id == job.job_id:
            finished = event
        elif isinstance(event, (protocol.VoicePrepared, protocol.RequestFailed)) and event.request_id == request_id:
            prepared_at = time.monotonic() - submitted
    return {"job_voice_prepare_s": finished.timing.voice_prepare_s, "first_audio_s": first,
            "complete_after_s": prepared_at}


def median(values: list[float]) -> float:
    return round(statistics.median(values), 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", default=None, help="also write the figures as JSON here")
    args = parser.parse_args()
    results: dict = {"cores": os.cpu_count(), "load_average": os.getloadavg(), "clip_s": CLIP_SECONDS}
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        cache = folder / "cache"
        clips = iter(range(10_000))

        says = [run_say(new_clip(folder, next(clips)), cache, folder / "out.wav") for _ in range(args.rounds + 1)]
        first_ever, says = says[0], says[1:]
        results["say"] = {
            "first_ever_run": {k: first_ever[k] for k in ("first_audio_s", "engine_start_s", "voice_prepare_s")},
            "first_audio_s": [r["first_audio_s"] for r in says],
            "engine_start_s": [r["engine_start_s"] for r in says],
            "job_voice_prepare_s": [r["voice_prepare_s"] for r in says],
            "wall_s": [r["wall_s"] for r in says],
            "resemblance": [r["resemblance"] for r in says],
        }

        with EngineClient(EngineConfig(cache_dir=str(cache))) as client:
            prepare(client, new_clip(folder, next(clips)))  # the engine is up and warm
            prepares = [prepare(client, new_clip(folder, next(clips))) for _ in range(args.rounds)]
            results["prepare_voice"] = {
                "wall_s": [round(seconds, 3) for seconds, _ in prepares],
                "engine_prepare_s": [event.prepare_s for _, event in prepares],
            }
            jobs = [job_on_new_clip(client, new_clip(folder, next(clips))) for _ in range(args.rounds)]
            results["job_on_new_clip"] = {key: [round(job[key], 3) for job in jobs] for key in jobs[0]}

    say, prep, job = results["say"], results["prepare_voice"], results["job_on_new_clip"]
    rows = [
        ("say: first audio after ready (first-ever run)", first_ever["first_audio_s"], "", ""),
        ("say: first audio after ready", median(say["first_audio_s"]), max(say["first_audio_s"]), "<= 1.5 s"),
        ("say: engine start (spawn to ready)", median(say["engine_start_s"]), max(say["engine_start_s"]), ""),
        ("say: the job's voice preparation", median(say["job_voice_prepare_s"]), max(say["job_voice_prepare_s"]), ""),
        ("PrepareVoice, engine up: request to answer", median(prep["wall_s"]), max(prep["wall_s"]), "<= 1.0 s"),
        ("PrepareVoice, engine up: engine's prepare_s", median(prep["engine_prepare_s"]),
         max(prep["engine_prepare_s"]), ""),
        ("job on a new clip, engine up: voice preparation", median(job["job_voice_prepare_s"]),
         max(job["job_voice_prepare_s"]), ""),
        ("job on a new clip, engine up: first audio", median(job["first_audio_s"]), max(job["first_audio_s"]), ""),
        ("job on a new clip, engine up: voice complete", median(job["complete_after_s"]),
         max(job["complete_after_s"]), ""),
    ]
    print(f"\n{args.rounds} rounds, 10 s clips, {results['cores']} cores, load average "
          f"{' '.join(f'{x:.2f}' for x in results['load_average'])} at the start")
    print(f"{'seconds':<52}{'median':>8}{'max':>8}  target")
    for name, middle, top, target in rows:
        print(f"{name:<52}{middle:>8}{top!s:>8}  {target}")
    if args.json:
        atomic_write_text(args.json, json.dumps(results, indent=2), stream_special=True)


if __name__ == "__main__":
    main()

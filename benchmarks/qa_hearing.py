"""How well and how fast take QA hears (a benchmark, not a test).

- Real recorded speech (the clips listed in benchmarks/qa_real_speech.tsv, copied into --corpus):
  each model's WER (English) or CER (Chinese) with the language given, as take QA listens, and
  base's language detection (right or wrong, with its probability) on every clip.
- Speed: base int8's real-time factor (wall seconds over audio seconds, beam 5) on 1 and 2
  threads, over the English clips joined into one stretch, in this one run.
- Memory: each model's peak resident memory, loaded and hearing one take, in a fresh process.
- Landing to verdict: a take handed to the studio's QA worker (its own process at QA_NICENESS) until
  its checks come back: the first take (the process starts and loads the model) and the next.

Run: .venv/bin/python benchmarks/qa_hearing.py --corpus DIR [--models tiny.en,base] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.files import atomic_write_text, atomic_write_wav
from engine.core.reference import load_reference_clip
from engine.hearing.qa.recognise import AUTO, recognise
from engine.hearing.qa.wer import error_rate, metric_for

MANIFEST = ROOT / "benchmarks" / "qa_real_speech.tsv"
LINE = "I counted the boxes twice this morning. There were twelve, and now there are only eleven."


def corpus(folder: Path) -> list[dict[str, Any]]:
    rows = []
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, language, text, source, licence = line.split("\t")
        clip = load_reference_clip(folder / name)
        rows.append({"file": name, "language": language, "text": text, "audio": clip.audio, "rate": clip.sample_rate})
    return rows


def accuracy(clips: list[dict[str, Any]], models: list[str]) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for model in models:
        scored = []
        for clip in clips:
            if not clip["text"] or (model == "tiny.en" and clip["language"] != "en"):
                continue
            heard = recognise(clip["audio"], clip["rate"], clip["language"], model)
            scored.append({"file": clip["file"], "metric": metric_for(clip["language"]), "heard": heard.text,
                           "error": round(error_rate(clip["text"], heard.text, clip["language"]), 3)})
        by_metric: dict[str, list[float]] = {}
        for row in scored:
            by_metric.setdefault(f"{row['metric']} {row['file'].split('_')[0]}", []).append(row["error"])
        figures[model] = {"clips": scored,
                          "mean": {key: round(float(np.mean(values)), 3) for key, values in by_metric.items()}}
    detections = []
    for clip in clips:
        heard = recognise(clip["audio"], clip["rate"], AUTO, "base")
        detections.append({"file": clip["file"], "language": clip["language"], "detected": heard.detected_language,
                           "probability": heard.language_probability})
    figures["detection (base)"] = {
        "right": sum(row["detected"] == row["language"] for row in detections), "of": len(detections),
        "confident_and_right": sum(row["detected"] == row["language"] and (row["probability"] or 0) >= 0.9
                                   for row in detections),
        "clips": detections}
    return figures


def real_time_factors(clips: list[dict[str, Any]]) -> dict[str, Any]:
    import soxr

    from engine.hearing.whisper import load_whisper

    english = [soxr.resample(c["audio"], c["rate"], 16000) for c in clips if c["language"] == "en"]
    audio = np.concatenate(english).astype(np.float32)
    seconds = audio.size / 16000
    factors: dict[str, Any] = {"audio_s": round(seconds, 1)}
    for threads in (1, 2):
        model = load_whisper("base", "cpu", threads)
        list(model.transcribe(audio[: 16000 * 5], language="en", beam_size=5)[0])  # warm
        started, cpu = time.perf_counter(), time.process_time()
        list(model.transcribe(audio, language="en", beam_size=5, condition_on_previous_text=False)[0])
        factors[f"{threads} thread(s)"] = {"rtf": round((time.perf_counter() - started) / seconds, 3),
                                           "cpu_per_audio_s": round((time.process_time() - cpu) / seconds, 3)}
    return factors


# Only the recogniser in the probe: the take is read from a file, so Piper's memory is not counted.
PEAK_PROBE = """
import resource, sys
import soundfile
from engine.hearing.qa.recognise import recognise
pcm, rate = soundfile.read(sys.argv[2], dtype="float32")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
recognise(pcm, rate, "en", sys.argv[1])
print(before // 1024, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def peak_memory(models: list[str]) -> dict[str, Any]:
    from tests.engine.helpers import joe_says

    peaks = {}
    with tempfile.TemporaryDirectory() as folder:
        take = Path(folder) / "take.wav"
        atomic_write_wav(take, *joe_says(LINE))
        for model in models:
            out = subprocess.run([sys.executable, "-c", PEAK_PROBE, model, str(take)], cwd=ROOT, check=True,
                                 capture_output=True, text=True).stdout.split()
            peaks[model] = {"before_mib": int(out[-2]), "peak_mib": int(out[-1])}
    return peaks


def landing_to_verdict(model: str) -> dict[str, Any]:
    from app.project.qa import QaRequest, QaWorker
    from tests.engine.helpers import joe_says

    pcm, rate = joe_says(LINE)
    worker = QaWorker()
    seconds = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            for index in range(3):
                path = Path(folder) / f"take{index}.wav"
                atomic_write_wav(path, pcm, rate)
                started = time.perf_counter()
                worker.submit(QaRequest("l1", f"t{index}", str(path), LINE, "", None, model))
                outcomes: list[Any] = []
                while not outcomes:
                    outcomes = worker.poll(timeout=0.5)
                assert outcomes[0].checks is not None, outcomes[0].error
                seconds.append(round(time.perf_counter() - started, 2))
            # The same check in this process at normal priority: what the check itself costs.
            from app.project.qa import TakeChecker

            checker = TakeChecker()
            request = QaRequest("l1", "t0", str(Path(folder) / "take0.wav"), LINE, "", None, model)
            checker.check(request)  # loads the model
            started, cpu = time.perf_counter(), time.process_time()
            checker.check(request)
            in_process = {"wall_s": round(time.perf_counter() - started, 2),
                          "cpu_s": round(time.process_time() - cpu, 2)}
    finally:
        worker.close()
    return {"model": model, "take_s": round(len(pcm) / rate, 2), "first_take_s": seconds[0],
            "next_takes_s": seconds[1:], "one_check_in_process": in_process,
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", required=True, type=Path, help="folder holding the files of qa_real_speech.tsv")
    parser.add_argument("--models", default="tiny.en,base")
    parser.add_argument("--json", default=None)
    parser.add_argument("--only", choices=("memory", "latency"), default=None, help="measure only this")
    args = parser.parse_args()
    models = args.models.split(",")
    if args.only == "memory":
        print(f"peak resident memory, hearing one take in a fresh process: {peak_memory(models)}")
        return 0
    if args.only == "latency":
        print(f"take landing to verdict (QA worker): {landing_to_verdict('base')}")
        return 0
    clips = corpus(args.corpus)
    figures: dict[str, Any] = {"cores": os.cpu_count(), "load_average_before": [round(x, 2) for x in os.getloadavg()]}
    figures["accuracy"] = accuracy(clips, models)
    for model in models:
        print(f"{model}: mean error by metric and source: {figures['accuracy'][model]['mean']}")
        for row in figures["accuracy"][model]["clips"]:
            print(f"    {row['file']:36} {row['metric']} {row['error']:.3f}  “{row['heard']}”")
    detection = figures["accuracy"]["detection (base)"]
    print(f"base language detection: {detection['right']} of {detection['of']} right "
          f"({detection['confident_and_right']} of them at probability >= 0.9)")
    for row in detection["clips"]:
        print(f"    {row['file']:36} {row['language']} -> {row['detected']} ({row['probability']})")
    figures["real_time_factor_base_int8"] = real_time_factors(clips)
    print(f"base int8 real-time factor over {figures['real_time_factor_base_int8']['audio_s']} s: "
          + ", ".join(f"{k}: {v}" for k, v in figures["real_time_factor_base_int8"].items() if k != "audio_s"))
    figures["peak_memory"] = peak_memory(models)
    print(f"peak resident memory, hearing one take in a fresh process: {figures['peak_memory']}")
    figures["landing_to_verdict"] = landing_to_verdict("base")
    print(f"take landing to verdict (QA worker): {figures['landing_to_verdict']}")
    figures["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        atomic_write_text(Path(args.json), json.dumps(figures, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

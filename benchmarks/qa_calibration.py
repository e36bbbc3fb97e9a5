"""Where take QA's default thresholds come from (a benchmark, not a test).

The embedded model speaks dialogue lines (the bundled medium texts) in its own voice (joe) and
as each bundled character (maya, rex, narrator: the engine's adaptation of joe to their clips).
Every take is measured as QA measures it, by each Whisper model, clean and broken:

- clean: the take against its own line;
- other text: the same take judged against another line of the set (no new listen needed);
- cut in half, last third missing: the take's first half / first two thirds;
- 2x speed: the take time-stretched to half its length (Rubber Band, pitch kept);
- wrong language: the English take judged as the line's Chinese version (resources/texts/zh);
- noise: white noise and hum in place of a take.

For each model it prints the clean takes' error rate (median, max) against each broken kind's
minimum, the speech-time ratio (speech over what the text needs) of clean takes against the
cut and fast ones, and how many takes of each kind the default thresholds pass and fail.

Run: .venv/bin/python benchmarks/qa_calibration.py [--lines 6] [--models tiny.en,base] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.files import atomic_write_text
from engine.core.protocol import VoiceSettings
from engine.core.reference import load_reference_clip
from engine.hearing.qa.checks import (
    QaThresholds,
    TakeChecks,
    judge,
    measure_take,
    voice_pace,
)
from engine.hearing.qa.wer import error_rate
from engine.synthesis.backends.base import VoiceProfile
from engine.synthesis.backends.piper import PiperBackend

VOICES = ("joe", "maya", "rex", "narrator")  # joe: the model's own voice, unadapted


def texts_of(language: str, name: str) -> list[str]:
    lines = (ROOT / "resources" / "texts" / language / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def takes(count: int) -> list[dict[str, Any]]:
    """``count`` lines spoken by each voice: [{voice, index, text, zh, pcm, rate, pace}]; pace is
    the voice's own, measured from its clip and transcript as take QA measures it."""
    backend = PiperBackend()
    backend.load()
    english, chinese = texts_of("en", "medium")[:count], texts_of("zh", "medium")[:count]
    profiles = {"joe": VoiceProfile("joe", None, backend.plain_conditioning())}
    paces = {"joe": 1.0}
    for name in VOICES[1:]:
        folder = ROOT / "resources" / "voices"
        clip = load_reference_clip(folder / f"{name}.wav")
        transcript = (folder / f"{name}.txt").read_text(encoding="utf-8").strip()
        conditioning, _ = backend.condition(clip, transcript)
        profiles[name] = VoiceProfile(name, None, conditioning)
        paces[name] = voice_pace(clip.audio, clip.sample_rate, transcript, "en") or 1.0
    made = []
    for voice, profile in profiles.items():
        for index, (text, zh) in enumerate(zip(english, chinese)):
            pieces = backend.synthesize(text, profile, VoiceSettings(), lambda: False)
            pcm = np.concatenate([piece.pcm for piece in pieces]).astype(np.float32)
            made.append({"voice": voice, "index": index, "text": text, "zh": zh, "pcm": pcm,
                         "rate": backend.sample_rate, "pace": paces[voice]})
    return made


def twice_as_fast(pcm: np.ndarray, rate: int) -> np.ndarray:
    import pedalboard

    return pedalboard.time_stretch(pcm[None, :], float(rate), stretch_factor=2.0)[0].astype(np.float32)


def ratio(checks: TakeChecks) -> float | None:
    return None if not checks.expected_speech_s else round(checks.speech_s / checks.expected_speech_s, 3)


def stats(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    array = np.asarray(values, dtype=float)
    return {"n": len(values), "median": round(float(np.median(array)), 3), "min": round(float(array.min()), 3),
            "max": round(float(array.max()), 3)}


def calibrate(model: str, spoken: list[dict[str, Any]], thresholds: QaThresholds) -> dict[str, Any]:
    kinds: dict[str, list[dict[str, Any]]] = {}

    def add(kind: str, checks: TakeChecks, error: float | None = None, **facts: Any) -> None:
        if error is not None:  # the same listen judged against another text
            checks = dataclasses.replace(checks, wer=round(error, 4))
        verdict = judge(checks, thresholds)
        kinds.setdefault(kind, []).append({
            "error": checks.wer, "ratio": ratio(checks), "passed": verdict.passed,
            "codes": sorted({finding.code for finding in verdict.findings}), "heard": checks.transcript, **facts})

    texts = sorted({take["text"] for take in spoken})
    for take in spoken:
        pcm, rate, text, pace = take["pcm"], take["rate"], take["text"], take["pace"]

        def measure(audio: np.ndarray, line: str = text, language: str = "en") -> TakeChecks:
            return measure_take(audio, rate, line, language, None, None, model, pace)

        clean = measure(pcm)
        add("clean", clean, voice=take["voice"], text=text)
        for other in texts:
            if other != text and clean.transcript is not None:
                add("other text", clean, error_rate(other, clean.transcript, "en"))
        add("cut in half", measure(pcm[: len(pcm) // 2]))
        add("last third missing", measure(pcm[: 2 * len(pcm) // 3]))
        add("2x speed", measure(twice_as_fast(pcm, rate)))
        add("wrong language", measure(pcm, take["zh"], "zh"))
    rate = spoken[0]["rate"]
    rng = np.random.default_rng(1)
    for name, noise in (("white noise", (rng.standard_normal(3 * rate) * 0.2).astype(np.float32)),
                        ("50 Hz hum", (0.3 * np.sin(2 * np.pi * 50 * np.arange(3 * rate) / rate)).astype(np.float32))):
        add("noise", measure_take(noise, rate, texts[0], "en", None, None, model), source=name)

    summary: dict[str, Any] = {}
    for kind, rows in kinds.items():
        errors = [row["error"] for row in rows if row["error"] is not None]
        ratios = [row["ratio"] for row in rows if row["ratio"] is not None]
        summary[kind] = {
            "takes": len(rows), "error": stats(errors), "speech_ratio": stats(ratios),
            "passed": sum(row["passed"] is True for row in rows), "failed": sum(row["passed"] is False for row in rows),
            "not_checked": sum(row["passed"] is None for row in rows),
            "codes": sorted({code for row in rows for code in row["codes"]}),
        }
    summary["clean speech ratio by voice"] = {
        voice: stats([row["ratio"] for row in kinds["clean"] if row["voice"] == voice and row["ratio"] is not None])
        for voice in VOICES}
    worst = max(kinds["clean"], key=lambda row: row["error"] if row["error"] is not None else -1)
    summary["worst clean"] = {key: worst[key] for key in ("voice", "text", "heard", "error")}
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=6, help="lines each voice speaks (takes = 4 x lines)")
    parser.add_argument("--models", default="tiny.en,base", help="Whisper models to calibrate, comma-separated")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()

    thresholds = QaThresholds()
    spoken = takes(args.lines)
    print("voice paces (from each clip and its transcript): " +
          ", ".join(f"{take['voice']} {take['pace']:.2f}" for take in spoken if take["index"] == 0))
    figures: dict[str, Any] = {"takes": len(spoken), "defaults": thresholds.to_dict(), "models": {},
                               "load_average": [round(x, 2) for x in os.getloadavg()]}
    for model in args.models.split(","):
        result = figures["models"][model] = calibrate(model, spoken, thresholds)
        print(f"\n{model}: {len(spoken)} takes ({', '.join(VOICES)} x {args.lines} lines); defaults "
              f"max_wer {thresholds.max_wer}, max_cer {thresholds.max_cer}, "
              f"min_duration_ratio {thresholds.min_duration_ratio}")
        print(f"{'kind':20}{'n':>4}{'err med':>9}{'err min':>9}{'err max':>9}{'ratio min':>10}{'ratio max':>10}"
              f"{'pass':>6}{'fail':>6}{'n/c':>5}  codes")
        for kind, row in result.items():
            if kind in ("worst clean", "clean speech ratio by voice"):
                continue
            error, speech = row["error"] or {}, row["speech_ratio"] or {}
            print(f"{kind:20}{row['takes']:>4}{error.get('median', float('nan')):>9.2f}"
                  f"{error.get('min', float('nan')):>9.2f}{error.get('max', float('nan')):>9.2f}"
                  f"{speech.get('min', float('nan')):>10.2f}{speech.get('max', float('nan')):>10.2f}"
                  f"{row['passed']:>6}{row['failed']:>6}{row['not_checked']:>5}  {' '.join(row['codes'])}")
        print("clean speech ratio by voice: " + ", ".join(
            f"{voice} {row['min']:.2f}-{row['max']:.2f}" for voice, row in result["clean speech ratio by voice"].items()
            if row))
        worst = result["worst clean"]
        print(f"worst clean take: {worst['voice']} “{worst['text']}” heard as “{worst['heard']}” ({worst['error']})")
    if args.json:
        atomic_write_text(Path(args.json), json.dumps(figures, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

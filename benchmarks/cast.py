"""Issue 32's cast-library figures: does a speaker from "episode 2" find their library character,
and does a new speaker find nobody?

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/cast.py --resemblyzer REPO [--json out.json]

REPO is a git clone of https://github.com/resemble-ai/Resemblyzer (Apache-2.0); its
``audio_data/`` holds LibriSpeech (CC BY 4.0) read speech: ``librispeech_test-other/`` has 10
speakers with 10 utterances each (different sentences read at different times: other
recordings of the same people), ``librispeech_train-clean-100/`` 251 other speakers with one
utterance each. Nothing is copied into this repository.

For each test-other speaker, the library character's clip is their first utterances joined to
at least 8 s (at most 15 s, the length of a transcription's reference clip); each of their other
utterances of 2 s or more is an "episode 2" clip that should match that character. Each
train-clean speaker's utterance is a new voice that should match nobody in the 10-character
library. Scores are :func:`app.project.cast.match_score` (CAM++ cosine, the encoder
transcription uses). The thresholds are picked on the tune half (test-other speakers 1-5,
train-clean speakers 1-125 by name) and reported on the held-out half (the rest), which was run
once with them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.project.cast import MATCH_THRESHOLD, OFFER_THRESHOLD, match_score
from engine.core.audio_io import read_audio
from engine.voiceprint.encoder import CamppSpeakerEncoder

RATE = 16000
ENROL_MIN_S, ENROL_MAX_S, PROBE_MIN_S = 8.0, 15.0, 2.0


def load(path: Path) -> np.ndarray:
    return read_audio(path, RATE)[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--resemblyzer", type=Path, required=True)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    data = args.resemblyzer / "audio_data"
    encoder = CamppSpeakerEncoder(threads=1)

    def embed(audio: np.ndarray) -> np.ndarray:
        return np.asarray(encoder.embed_many([audio], RATE)[0], dtype=np.float32)

    speakers = sorted((p for p in (data / "librispeech_test-other").iterdir() if p.is_dir()), key=lambda p: p.name)
    library: dict[str, np.ndarray] = {}
    probes: list[tuple[str, np.ndarray]] = []
    for folder in speakers:
        utterances = [load(p) for p in sorted(folder.glob("*.flac"))]
        enrol: list[np.ndarray] = []
        while utterances and sum(len(u) for u in enrol) < ENROL_MIN_S * RATE:
            enrol.append(utterances.pop(0))
        library[folder.name] = embed(np.concatenate(enrol)[: int(ENROL_MAX_S * RATE)])
        probes += [(folder.name, embed(u[: int(ENROL_MAX_S * RATE)])) for u in utterances if len(u) >= PROBE_MIN_S * RATE]
    new_voices = [(p.name, embed(load(p)[: int(ENROL_MAX_S * RATE)]))
                  for p in sorted((data / "librispeech_train-clean-100").glob("*.flac"))]
    names = list(library)
    tune_speakers = set(names[:5])
    rows = []
    for speaker, vector in probes:
        scores = {name: match_score([library[name]], vector) for name in names}
        best = max(scores, key=lambda n: scores[n])
        rows.append({"kind": "same", "speaker": speaker, "half": "tune" if speaker in tune_speakers else "held-out",
                     "own": scores[speaker], "best_other": max(s for n, s in scores.items() if n != speaker),
                     "best": best, "best_score": scores[best]})
    for index, (name, vector) in enumerate(new_voices):
        scores = {n: match_score([library[n]], vector) for n in names}
        rows.append({"kind": "new", "speaker": name, "half": "tune" if index < len(new_voices) // 2 else "held-out",
                     "best_score": max(scores.values())})

    report: dict[str, object] = {"match_threshold": MATCH_THRESHOLD, "offer_threshold": OFFER_THRESHOLD}
    for half in ("tune", "held-out"):
        same = [r for r in rows if r["kind"] == "same" and r["half"] == half]
        new = [r for r in rows if r["kind"] == "new" and r["half"] == half]
        matched = sum(1 for r in same if r["best"] == r["speaker"] and r["best_score"] >= MATCH_THRESHOLD)
        offered = sum(1 for r in same if r["best"] == r["speaker"] and r["best_score"] >= OFFER_THRESHOLD)
        wrong = sum(1 for r in same if r["best"] != r["speaker"] and r["best_score"] >= MATCH_THRESHOLD)
        new_unmatched = sum(1 for r in new if r["best_score"] < MATCH_THRESHOLD)
        new_not_offered = sum(1 for r in new if r["best_score"] < OFFER_THRESHOLD)
        own = np.array([r["own"] for r in same]), np.array([r["best_score"] for r in new])
        report[half] = {
            "same_trials": len(same), "same_matched": matched / len(same), "same_offered_or_matched": offered / len(same),
            "same_matched_to_wrong_character": wrong / len(same),
            "new_trials": len(new), "new_unmatched": new_unmatched / len(new), "new_not_even_offered": new_not_offered / len(new),
            "same_cosine_min_median": [float(own[0].min()), float(np.median(own[0]))],
            "new_best_cosine_median_max": [float(np.median(own[1])), float(own[1].max())],
        }
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"report": report, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

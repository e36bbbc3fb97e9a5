"""Issue 32's cast-library figures: does a speaker from "episode 2" find their library character,
and does a new speaker find nobody?

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/cast.py --resemblyzer REPO [--tortoise REPO] [--json out.json]

REPO is a git clone of https://github.com/resemble-ai/Resemblyzer (Apache-2.0); its
``audio_data/`` holds LibriSpeech (CC BY 4.0) read speech: ``librispeech_test-other/`` has 10
speakers with 10 utterances each (different sentences read at different times: other
recordings of the same people), ``librispeech_train-clean-100/`` 251 other speakers with one
utterance each; and ``donald_trump/real/`` twelve clips of one man from different speeches and
interviews (other rooms, microphones and years: the "episodes on other channels" case).
Nothing is copied into this repository.

For each test-other speaker, the library character's clip is their first utterances joined to
at least 8 s (at most 15 s, the length of a transcription's reference clip); each of their other
utterances of 2 s or more is an "episode 2" clip that should match that character. Each
train-clean speaker's utterance is a new voice that should match nobody in the 10-character
library. The thresholds were first picked on the tune half (test-other speakers 1-5,
train-clean speakers 1-125 by name) and reported on the held-out half (the rest).

Two sets of voices recorded in the wild check them (docs/cast.md, *Voices from films and
speeches*): the Trump clips (the first joined to 8 s is a library character beside the ten
readers; the other clips are its episode-2 clips), and with ``--tortoise`` a clone of
https://github.com/neonbjb/tortoise-tts (Apache-2.0), whose ``tortoise/voices/`` hold 2-5 clips
of each of 29 people from films, interviews and audiobooks: each voice with clips left after 8 s
of enrolment is a library character, and every clip of every voice is also tried as a new voice
against the library without that person (``pat``/``pat2`` are one man, ``applejack``/``rainbow``
one actress). Scores are :func:`app.project.cast.match_score` (CAM++ cosine, the encoder
transcription uses).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.project.cast import MATCH_THRESHOLD, OFFER_THRESHOLD, match_score
from engine.core.audio_io import read_audio
from engine.voiceprint.encoder import CamppSpeakerEncoder

RATE = 16000
ENROL_MIN_S, ENROL_MAX_S, PROBE_MIN_S = 8.0, 15.0, 2.0
SAME_PERSON = {"pat2": "pat", "rainbow": "applejack"}  # tortoise-tts voices of one person


def load(path: Path) -> np.ndarray:
    return read_audio(path, RATE)[0]


class Embedder:
    def __init__(self) -> None:
        self.encoder = CamppSpeakerEncoder(threads=1)

    def __call__(self, audio: np.ndarray) -> np.ndarray:
        return np.asarray(self.encoder.embed_many([audio[: int(ENROL_MAX_S * RATE)]], RATE)[0], dtype=np.float32)

    def enrol(self, clips: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
        """A library character's embedding from the first clips joined to ENROL_MIN_S; the rest."""
        enrolled: list[np.ndarray] = []
        while clips and sum(len(c) for c in enrolled) < ENROL_MIN_S * RATE:
            enrolled.append(clips.pop(0))
        return self(np.concatenate(enrolled)), clips

    def probes(self, clips: Iterable[np.ndarray]) -> list[np.ndarray]:
        return [self(c) for c in clips if len(c) >= PROBE_MIN_S * RATE]


def same_rows(library: dict[str, np.ndarray], probes: Sequence[tuple[str, np.ndarray]], half: str) -> list[dict]:
    rows = []
    for speaker, vector in probes:
        scores = {name: match_score([library[name]], vector) for name in library}
        best = max(scores, key=lambda n: scores[n])
        rows.append({"kind": "same", "speaker": speaker, "half": half, "own": scores[speaker],
                     "best_other": max(s for n, s in scores.items() if n != speaker),
                     "right": best == speaker, "best": best, "best_score": scores[best]})
    return rows


def new_rows(library: dict[str, np.ndarray], voices: Sequence[tuple[str, np.ndarray]], half: str,
             person: Callable[[str], str] = str) -> list[dict]:
    return [{"kind": "new", "speaker": name, "half": half,
             "best_score": max(match_score([vec], vector) for n, vec in library.items() if person(n) != person(name))}
            for name, vector in voices]


def summary(rows: list[dict]) -> dict[str, object]:
    same = [r for r in rows if r["kind"] == "same"]
    new = [r for r in rows if r["kind"] == "new"]
    report: dict[str, object] = {}
    if same:
        own = np.array([r["own"] for r in same])
        report |= {
            "same_trials": len(same),
            "same_matched": sum(r["right"] and r["best_score"] >= MATCH_THRESHOLD for r in same) / len(same),
            "same_offered_or_matched": sum(r["right"] and r["best_score"] >= OFFER_THRESHOLD for r in same) / len(same),
            "same_matched_to_wrong_character": sum(not r["right"] and r["best_score"] >= MATCH_THRESHOLD for r in same) / len(same),
            "same_cosine_min_median": [float(own.min()), float(np.median(own))],
        }
    if new:
        best = np.array([r["best_score"] for r in new])
        report |= {
            "new_trials": len(new), "new_unmatched": float(np.mean(best < MATCH_THRESHOLD)),
            "new_not_even_offered": float(np.mean(best < OFFER_THRESHOLD)),
            "new_best_cosine_median_max": [float(np.median(best)), float(best.max())],
        }
    return report


def librispeech_rows(embed: Embedder, data: Path) -> list[dict]:
    speakers = sorted((p for p in (data / "librispeech_test-other").iterdir() if p.is_dir()), key=lambda p: p.name)
    library: dict[str, np.ndarray] = {}
    probes: list[tuple[str, np.ndarray]] = []
    for folder in speakers:
        library[folder.name], rest = embed.enrol([load(p) for p in sorted(folder.glob("*.flac"))])
        probes += [(folder.name, vector) for vector in embed.probes(rest)]
    tune = set(list(library)[:5])
    new_voices = [(p.name, embed(load(p))) for p in sorted((data / "librispeech_train-clean-100").glob("*.flac"))]
    half = len(new_voices) // 2
    rows = [*same_rows(library, [p for p in probes if p[0] in tune], "tune"),
            *same_rows(library, [p for p in probes if p[0] not in tune], "held-out"),
            *new_rows(library, new_voices[:half], "tune"), *new_rows(library, new_voices[half:], "held-out")]
    trump, rest = embed.enrol([load(p) for p in sorted((data / "donald_trump" / "real").glob("*.mp3"))])
    rows += same_rows(library | {"donald_trump": trump}, [("donald_trump", v) for v in embed.probes(rest)], "speeches")
    return rows


def tortoise_rows(embed: Embedder, repo: Path) -> list[dict]:
    library: dict[str, np.ndarray] = {}
    probes: list[tuple[str, np.ndarray]] = []
    every_clip: list[tuple[str, np.ndarray]] = []
    for folder in sorted(p for p in (repo / "tortoise" / "voices").iterdir() if p.is_dir()):
        clips = [load(p) for p in sorted(folder.glob("*.wav"))]
        if not clips:  # cond_latent_example holds a latent, no recording
            continue
        every_clip += [(folder.name, v) for v in embed.probes(clips)]
        enrolled, rest = embed.enrol(clips)
        if rest:  # a voice with nothing left to try as episode 2 only serves as a new voice
            library[folder.name] = enrolled
            probes += [(folder.name, v) for v in embed.probes(rest)]
    rows = same_rows(library, probes, "films")
    for row in rows:  # another voice of the same person is the right character too
        row["right"] = SAME_PERSON.get(row["best"], row["best"]) == SAME_PERSON.get(row["speaker"], row["speaker"])
    return rows + new_rows(library, every_clip, "films", person=lambda n: SAME_PERSON.get(n, n))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--resemblyzer", type=Path, required=True)
    parser.add_argument("--tortoise", type=Path, help="a tortoise-tts clone: voices from films and interviews")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    embed = Embedder()
    rows = librispeech_rows(embed, args.resemblyzer / "audio_data")
    if args.tortoise:
        rows += tortoise_rows(embed, args.tortoise)
    report: dict[str, object] = {"match_threshold": MATCH_THRESHOLD, "offer_threshold": OFFER_THRESHOLD}
    for half in dict.fromkeys(r["half"] for r in rows):
        report[half] = summary([r for r in rows if r["half"] == half])
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"report": report, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

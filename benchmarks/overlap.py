"""Issue 32, item 5: can the transcription's CAM++ windows tell overlapped speech (two people at
once) from one voice? A window that holds two voices should sit between their clusters, so its
margin (cosine to the nearest speaker's mean voice less the cosine to the second nearest, the
speakers as the transcription labelled the windows) should be small.

    .venv/bin/python benchmarks/overlap.py --pyannote REPO [--cache DIR]

REPO is a git clone of pyannote/pyannote-audio (MIT; the recordings of benchmarks/transcribe.py:
the two-person phone call, the AMI excerpts, CC BY 4.0). Overlapped speech is where the
reference RTTM has two or more speakers at once (10 ms frames). A window is "overlapped" when at
least half of it is, "clean" when under a tenth is. For each recording and for the tuning set
(sample, ami-mixture, tst00, dev00) and the held-out set (the other twelve excerpts) it prints
the ROC AUC of the small margin as an overlap detector (0.5: chance) and, for margins under
0.02-0.2, the share of overlapped windows flagged (recall), the share of flagged windows that are
overlapped (precision) and the share of clean windows flagged. With ``--cache`` each recording's
windows and labels are kept there (npz, arrays only) so the Whisper pass runs once.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

# benchmarks/transcribe.py, beside this one: its recordings and their references
from transcribe import Recording, recordings

from engine.hearing import HearingError
from engine.hearing import clips as hearing_clips

TUNED = {"sample.wav", "mixture.wav", "tst00.wav", "dev00.wav"}
MARGINS = (0.02, 0.05, 0.1, 0.15, 0.2)
Windows = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # starts, ends, vectors, labels


class Transcriber:
    """Whisper base and CAM++, loaded on first use."""

    def __init__(self) -> None:
        self.loaded: tuple[object, object] | None = None

    def windows(self, rec: Recording, cache: Path | None) -> Windows:
        kept = cache / f"{rec.audio.stem}.npz" if cache is not None else None
        if kept is None or not kept.exists():
            from engine.hearing.transcribe import transcribe_media
            from engine.hearing.whisper import load_whisper
            from engine.voiceprint.encoder import CamppSpeakerEncoder

            if self.loaded is None:
                self.loaded = (load_whisper("base", "cpu"), CamppSpeakerEncoder())
            heard = transcribe_media(rec.audio, *self.loaded)  # type: ignore[arg-type]
            found = heard.windows
            labels = hearing_clips.window_labels(found, heard.lines)
            arrays = {"starts": np.array(found.starts), "ends": np.array(found.ends), "vectors": found.embeddings(),
                      "labels": labels}
            if kept is None:
                return arrays["starts"], arrays["ends"], arrays["vectors"], arrays["labels"]
            np.savez(kept, **arrays)
        with np.load(kept, allow_pickle=False) as data:
            return data["starts"], data["ends"], data["vectors"], data["labels"]


def overlap_share(turns: list[tuple[float, float, str]], starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Each window's share of 10 ms frames where the reference has two or more speakers."""
    length = int(max([end for _, end, _ in turns] + [float(ends.max()) if len(ends) else 0.0]) * 100) + 2
    active = np.zeros(length, dtype=int)
    for start, end, _ in turns:
        active[int(start * 100): int(end * 100)] += 1
    over = active >= 2
    return np.array([over[int(s * 100): int(e * 100)].mean() if e > s else 0.0 for s, e in zip(starts, ends)])


def margins(vectors: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Nearest less second-nearest cosine to the speakers' mean voices (NaN with one speaker)."""
    count = int(labels.max()) + 1 if len(labels) else 0
    if count < 2:
        return np.full(len(vectors), np.nan)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    means = np.array([unit[labels == k].mean(axis=0) for k in range(count)])
    means /= np.linalg.norm(means, axis=1, keepdims=True)
    ranked = np.sort(unit @ means.T, axis=1)
    result: np.ndarray = ranked[:, -1] - ranked[:, -2]
    return result


def auc(positive: np.ndarray, negative: np.ndarray) -> float:
    """The chance that a positive scores above a negative (Mann-Whitney)."""
    if not len(positive) or not len(negative):
        return float("nan")
    ranks = np.concatenate([positive, negative]).argsort().argsort() + 1
    return float((ranks[: len(positive)].sum() - len(positive) * (len(positive) + 1) / 2)
                 / (len(positive) * len(negative)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pyannote", type=Path, required=True, help="a git clone of pyannote/pyannote-audio")
    parser.add_argument("--cache", type=Path, default=None, help="keep each recording's windows here")
    args = parser.parse_args()
    if args.cache is not None:
        args.cache.mkdir(parents=True, exist_ok=True)
    transcriber = Transcriber()
    groups: dict[str, tuple[list[np.ndarray], list[np.ndarray]]] = {"tuned": ([], []), "held-out": ([], [])}
    with tempfile.TemporaryDirectory() as scratch:
        for rec in recordings(args.pyannote, Path(scratch), held_out=True):
            try:
                starts, ends, vectors, labels = transcriber.windows(rec, args.cache)
            except HearingError as error:  # an excerpt with no speech Whisper hears
                print(json.dumps({"recording": rec.name, "error": str(error)}), flush=True)
                continue
            margin = margins(vectors, labels)
            share = overlap_share(rec.turns, starts, ends)
            usable = (labels >= 0) & np.isfinite(margin)
            overlapped, clean = -margin[usable & (share >= 0.5)], -margin[usable & (share < 0.1)]
            group = groups["tuned" if rec.audio.name in TUNED else "held-out"]
            group[0].append(overlapped)
            group[1].append(clean)
            print(json.dumps({"recording": rec.name, "windows": int(usable.sum()), "overlapped": len(overlapped),
                              "clean": len(clean), "auc": round(auc(overlapped, clean), 3)}), flush=True)
    for name, (overlapped_parts, clean_parts) in groups.items():
        overlapped, clean = np.concatenate(overlapped_parts), np.concatenate(clean_parts)
        print(f"{name}: AUC {auc(overlapped, clean):.3f} ({len(overlapped)} overlapped, {len(clean)} clean windows)")
        for limit in MARGINS:
            hits, false = int((overlapped >= -limit).sum()), int((clean >= -limit).sum())
            print(f"  margin < {limit}: recall {hits / max(1, len(overlapped)):.2f}, precision "
                  f"{hits / max(1, hits + false):.2f}, clean windows flagged {false / max(1, len(clean)):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Issue 32's meeting goal against what its speech detectors allow: the least DER any speaker
labelling can reach on the AMI excerpts, and what a pyannote-style audio-first pipeline gets.

    .venv/bin/python benchmarks/diarization_floor.py --pyannote REPO --cache DIR [--audio-first]
        [--voices RTVC_REPO [--wenet WENET_REPO]] [--json out.json]

DIR is a cache of ``benchmarks/transcribe.py --held-out --only meetings --cache DIR`` (Whisper's
lines and the segmentation model's answer on each recording, as the transcription saw them).

**Floor.** Every 10 ms frame, a detector says how many people speak; with the speakers named
perfectly (an oracle: no confusion at all), the DER left is the frames' missed and false-alarm
speech: sum(max(0, ref - hyp)) + sum(max(0, hyp - ref)) over sum(ref). Detectors: ``segmentation``
(the segmentation model's count, each frame's mean over the chunks that hear it, rounded, as
pyannote's pipeline counts speakers), ``lines`` (one speaker wherever a Whisper line runs, first
word to last), ``union`` (the larger of the two), and ``best_per_frame`` (whichever of the two is
nearer the reference on each frame: no system can choose so, so nothing can do better with them).

**Audio-first** (``--audio-first``; the recordings' audio, no cache needed for it): the pipeline of
pyannote 3.1 on this project's two models: segmentation-3.0 on 10 s chunks every second, a CAM++
embedding per chunk and local speaker (its frames where it speaks alone, or all its frames when
that is under ``--clean-s``), centroid agglomeration of the embeddings with ``--clean-s`` of clean
speech at a cosine ``--join``, clusters of under ``--least`` embeddings given to the nearest
larger one, every local speaker then given a cluster (one to one within a chunk), and each frame
given its top-N speakers, N the segmentation model's count. With ``--voices`` also the clean
dialogues of ``benchmarks/transcribe.py``, where the transcription's line-based speakers are
right on 12 of 12.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import transcribe as bench  # the benchmark beside this one: recordings, decoding, DER

from engine.hearing import segmentation
from engine.hearing import transcribe as transcribing
from engine.voiceprint.encoder import CamppSpeakerEncoder

HELD_OUT = ("tst01", "dev01", *(f"trn{n:02d}" for n in range(10)))


def _frame_counts(chunks: segmentation.Chunks, offset_s: float, length_s: float) -> np.ndarray:
    """The segmentation model's count of speakers every model frame from ``offset_s``: each frame's
    mean over the chunks hearing it, rounded."""
    activity = chunks.local_activity().sum(axis=2)
    frames = int(np.ceil(length_s / segmentation.FRAME_STEP_S)) + activity.shape[1]
    total, cover = np.zeros(frames), np.zeros(frames)
    for chunk, start in enumerate(chunks.starts):
        first = int(round((start - offset_s) / segmentation.FRAME_STEP_S))
        count = min(activity.shape[1], frames - first)
        total[first:first + count] += activity[chunk, :count]
        cover[first:first + count] += 1
    return np.rint(total / np.maximum(cover, 1))


def _on_grid(counts: np.ndarray, length: int) -> np.ndarray:
    """Model-frame counts read on the benchmark's 10 ms grid."""
    times = np.arange(length) * bench.FRAME_S - segmentation.FRAME_DURATION_S / 2
    return counts[np.clip(np.rint(times / segmentation.FRAME_STEP_S).astype(int), 0, len(counts) - 1)]


def floors(rec: bench.Recording, cache: Path, session: Any) -> dict[str, float]:
    """The floors of one recording; where the transcription found no speech (so nothing was
    cached), no lines, and the segmentation model run here as the transcription runs it."""
    if cache.exists():
        with np.load(cache, allow_pickle=False) as stored:
            meta = json.loads(str(stored["meta"]))
            windows = [(window, segmentation.Chunks(stored[f"segmented_{index}_starts"] + window["offset_s"],
                                                    stored[f"segmented_{index}_probabilities"],
                                                    stored.get(f"segmented_{index}_levels", None)))
                       for index, window in enumerate(meta.get("segmented_windows", []))]
    else:
        audio = bench.decode(rec.audio)
        meta = {"lines": []}
        windows = [({"offset_s": 0.0, "samples": len(audio)},
                    segmentation.chunked(audio, transcribing.SEGMENTATION_STEP_S, session))]
    length = int(max(end for _, end, _ in rec.turns) / bench.FRAME_S) + 1
    reference = np.zeros(length)
    for start, end, _ in rec.turns:
        reference[int(start / bench.FRAME_S):int(end / bench.FRAME_S)] += 1
    model = np.zeros(length)
    for window, chunks in windows:
        counts = _on_grid(_frame_counts(chunks, window["offset_s"], window["samples"] / bench.SAMPLE_RATE), length)
        first = int(window["offset_s"] / bench.FRAME_S)
        model[first:] = counts[: length - first]
    lines = np.zeros(length)
    for line in meta["lines"]:
        if line["words"]:
            lines[int(line["words"][0][0] / bench.FRAME_S):int(line["words"][-1][1] / bench.FRAME_S)] = 1

    def floor(hypothesis: np.ndarray) -> float:
        wrong = np.maximum(0, reference - hypothesis).sum() + np.maximum(0, hypothesis - reference).sum()
        return round(float(wrong / reference.sum()), 3)

    nearer = np.where(np.abs(lines - reference) < np.abs(model - reference), lines, model)
    return {"segmentation": floor(model), "lines": floor(lines), "union": floor(np.maximum(model, lines)),
            "best_per_frame": floor(nearer)}


def audio_first(audio: np.ndarray, session: Any, encoder: CamppSpeakerEncoder, join: float, least: int,
                clean_s: float) -> list[tuple[float, float, int]]:
    """Speaker turns by the pyannote-style pipeline of the module's docstring."""
    chunks = segmentation.chunked(audio, 1.0, session)
    active = chunks.local_activity()
    owners, vectors, clean = _local_voices(audio, chunks.starts, active, encoder, clean_s)
    if not owners:
        return []
    given, speakers = _clustered(owners, vectors, clean, active.shape[:1] + active.shape[2:], join, least)
    return _turns(chunks.starts, active, given, speakers, len(audio) / bench.SAMPLE_RATE)


def _local_voices(audio: np.ndarray, starts: np.ndarray, active: np.ndarray, encoder: CamppSpeakerEncoder,
                  clean_s: float) -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray]:
    """Each (chunk, local speaker) that speaks 0.2 s or more, its unit CAM++ embedding, and
    whether it had ``clean_s`` of solo speech to embed."""
    alone = active.sum(axis=2) == 1
    width = int(round(segmentation.FRAME_DURATION_S * bench.SAMPLE_RATE))
    pieces, owners, clean = [], [], []
    for chunk, speaker in np.ndindex(active.shape[0], active.shape[2]):
        solo = active[chunk, :, speaker] & alone[chunk]
        use = solo if solo.sum() * segmentation.FRAME_STEP_S >= clean_s else active[chunk, :, speaker]
        if use.sum() * segmentation.FRAME_STEP_S < 0.2:
            continue
        mask = np.zeros(segmentation.CHUNK_SAMPLES, dtype=bool)
        for frame in np.flatnonzero(use):
            at = int(np.rint(frame * segmentation.FRAME_STEP_S * bench.SAMPLE_RATE))
            mask[at:at + width] = True
        first = int(np.rint(starts[chunk] * bench.SAMPLE_RATE))
        piece = audio[first:first + segmentation.CHUNK_SAMPLES]
        pieces.append(piece[mask[:len(piece)]])
        owners.append((int(chunk), int(speaker)))
        clean.append(solo.sum() * segmentation.FRAME_STEP_S >= clean_s)
    if not pieces:
        return [], np.zeros((0, 0)), np.zeros(0, dtype=bool)
    vectors = encoder.embed_many(pieces, bench.SAMPLE_RATE)
    return owners, vectors / np.linalg.norm(vectors, axis=1, keepdims=True), np.array(clean)


def _clustered(owners: list[tuple[int, int]], vectors: np.ndarray, clean: np.ndarray, shape: tuple[int, int],
               join: float, least: int) -> tuple[np.ndarray, int]:
    """Centroid agglomeration of the clean embeddings, small clusters dropped, then every local
    speaker given the nearest cluster (one to one within a chunk): (chunks, local) cluster
    numbers, -1 for none, and the number of clusters."""
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.optimize import linear_sum_assignment

    sure = vectors[clean] if clean.any() else vectors
    labels = (fcluster(linkage(sure, method="centroid"), np.sqrt(2 - 2 * join), criterion="distance") - 1
              if len(sure) > 1 else np.zeros(1, dtype=int))
    sizes = np.bincount(labels)
    kept = [label for label in range(len(sizes)) if sizes[label] >= least] or [int(np.argmax(sizes))]
    means = np.stack([sure[labels == label].mean(axis=0) for label in kept])
    means /= np.linalg.norm(means, axis=1, keepdims=True)
    given = -np.ones(shape, dtype=int)
    for chunk in range(shape[0]):
        rows = [row for row, (owner, _) in enumerate(owners) if owner == chunk]
        if not rows:
            continue
        likeness = vectors[rows] @ means.T
        if len(kept) >= len(rows):
            picked, clusters = linear_sum_assignment(-likeness)
        else:
            picked, clusters = np.arange(len(rows)), np.argmax(likeness, axis=1)
        for row, cluster in zip(picked, clusters):
            given[chunk, owners[rows[row]][1]] = cluster
    return given, len(kept)


def _turns(starts: np.ndarray, active: np.ndarray, given: np.ndarray, speakers: int,
           length_s: float) -> list[tuple[float, float, int]]:
    """Each model frame given its N likeliest clusters, N the segmentation model's count there."""
    frames = active.shape[1]
    total = int(np.ceil(length_s / segmentation.FRAME_STEP_S)) + 1
    scores, cover, heard = np.zeros((total, speakers)), np.zeros(total), np.zeros(total)
    for chunk, start in enumerate(starts):
        first = int(round(start / segmentation.FRAME_STEP_S))
        span = min(frames, total - first)
        cover[first:first + span] += 1
        heard[first:first + span] += active[chunk, :span].sum(axis=1)
        for speaker in np.flatnonzero(given[chunk] >= 0):
            scores[first:first + span, given[chunk, speaker]] += active[chunk, :span, speaker]
    scores /= np.maximum(cover, 1)[:, None]
    speaking = np.zeros_like(scores, dtype=bool)
    for frame, many in enumerate(np.rint(heard / np.maximum(cover, 1)).astype(int)):
        top = np.argsort(-scores[frame])[:many]
        speaking[frame, top[scores[frame, top] > 0]] = True
    middle = segmentation.FRAME_DURATION_S / 2
    turns: list[tuple[float, float, int]] = []
    for cluster in range(speakers):
        edges = np.diff(np.concatenate([[0], speaking[:, cluster].astype(int), [0]]))
        turns += [(float(on * segmentation.FRAME_STEP_S + middle), float(off * segmentation.FRAME_STEP_S + middle), cluster)
                  for on, off in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1))]
    return turns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pyannote", type=Path, required=True, help="a git clone of pyannote/pyannote-audio")
    parser.add_argument("--cache", type=Path, required=True, help="benchmarks/transcribe.py's --cache DIR (model base)")
    parser.add_argument("--audio-first", action="store_true")
    parser.add_argument("--join", type=float, default=0.6, help="audio-first: cosine at which clusters join")
    parser.add_argument("--least", type=int, default=3, help="audio-first: embeddings a cluster needs to stand")
    parser.add_argument("--clean-s", type=float, default=0.5, help="audio-first: solo speech an embedding clusters with")
    parser.add_argument("--voices", type=Path, default=None, help="audio-first: also the clean dialogues (RTVC clone)")
    parser.add_argument("--wenet", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        recordings = bench.recordings(args.pyannote, Path(folder), held_out=True)
        if args.audio_first and args.voices is not None:
            recordings += bench.dialogues(args.voices, args.wenet, Path(folder))
        session = segmentation.open_session(1)
        encoder = CamppSpeakerEncoder(1)
        for rec in recordings:
            row: dict[str, Any] = {"recording": rec.name}
            if "meeting" in rec.name or "phone" in rec.name:
                row["floor"] = floors(rec, bench.cache_path(args.cache, "base", rec, "now"), session)
            if args.audio_first:
                turns = audio_first(bench.decode(rec.audio), session, encoder, args.join, args.least, args.clean_s)
                speech: dict[str, float] = {}
                for start, end, who in rec.turns:
                    speech[who] = speech.get(who, 0.0) + end - start
                row["audio_first"] = {key: round(value, 3) for key, value in
                                      (bench.turns_der(rec.turns, turns) if turns else {"der": 1.0}).items()}
                row["audio_first"]["speakers_found"] = len({who for _, _, who in turns})
                row["speakers_reference_3s"] = sum(1 for seconds in speech.values() if seconds >= 3.0)
            rows.append(row)
            print(json.dumps(row), flush=True)
    held = [row for row in rows if re.search(r"ami-(\w+) ", row["recording"])
            and re.search(r"ami-(\w+) ", row["recording"]).group(1) in HELD_OUT]  # type: ignore[union-attr]
    summary: dict[str, Any] = {}
    for kind in ("segmentation", "lines", "union", "best_per_frame"):
        values = [row["floor"][kind] for row in held if "floor" in row]
        if values:
            summary[f"floor_{kind}_held_out_mean"] = round(float(np.mean(values)), 3)
    if args.audio_first:
        for name, group in (("held_out", held), ("all", rows)):
            summary[f"audio_first_{name}_mean_der"] = round(float(np.mean([row["audio_first"]["der"] for row in group])), 3)
            summary[f"audio_first_{name}_counts_right"] = (
                f"{sum(row['audio_first']['speakers_found'] == row['speakers_reference_3s'] for row in group)} / {len(group)}")
    print(json.dumps(summary))
    if args.json is not None:
        args.json.write_text(json.dumps({"recordings": rows, "summary": summary}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What cutting the first piece costs (a benchmark, not a test): intelligibility and the join.

Every line of a text file whose first sentence the engine would cut (engine.core.text.first_cut at
the budget for an engine alone, and for one whose slots are shared) is spoken twice through the
embedded backend and a bundled voice: as the engine speaks it, and with the first sentence
whole. For each take:

- **WER**: faster-whisper (the packaged ``base`` model, engine/hearing/whisper.py) hears the
  joined take; its word error rate against the line, cut and uncut side by side.
- **The join**: the largest sample step across the cut (the last sample of one chunk to the
  first of the next) over the largest step anywhere inside the take (above 1 would be a click),
  and the silence that spans the cut (20 ms frames within FIRST_CUT_QUIET_DB of the peak),
  against the longest silence inside the uncut first sentence (the model's own pauses).

Run: .venv/bin/python benchmarks/first_piece.py [--texts resources/texts/everyday-en.txt] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

from engine.core.protocol import VoiceSettings
from engine.core.silence import sound_intervals
from engine.core.text import first_cut, first_piece_chars, split_for_streaming
from engine.hearing.qa.wer import word_error_rate
from engine.hearing.whisper import load_whisper
from engine.load.workload import TextSet, VoiceSet
from engine.synthesis.backends.piper import FIRST_CUT_QUIET_DB, PiperBackend
from engine.synthesis.voices import VoiceCache
from engine.voiceprint.encoder import SpeakerEncoder

WHISPER_RATE = 16000
UNCUT = 10**6  # a first-piece budget no sentence reaches


def heard(model: Any, pcm: np.ndarray, rate: int) -> str:
    import soxr

    segments, _ = model.transcribe(soxr.resample(pcm, rate, WHISPER_RATE), language="en", beam_size=5)
    return " ".join(segment.text.strip() for segment in segments)


def sounds(pcm: np.ndarray, rate: int) -> list[tuple[int, int]]:
    frame = int(0.02 * rate)
    return sound_intervals(pcm, FIRST_CUT_QUIET_DB, frame=frame, hop=frame // 4)


def silence_around(pcm: np.ndarray, at: int, rate: int) -> float:
    """Seconds of silence around sample ``at``: from the sound before it to the sound after it."""
    intervals = sounds(pcm, rate)
    before = max((end for start, end in intervals if end <= at), default=0)
    after = min((start for start, end in intervals if start >= at), default=len(pcm))
    inside = any(start < at < end for start, end in intervals)
    return 0.0 if inside else (after - before) / rate


def longest_inner_silence(pcm: np.ndarray, rate: int) -> float:
    """The longest silence between two sounds of ``pcm`` (its leading and trailing silence left out)."""
    intervals = sounds(pcm, rate)
    return max((b[0] - a[1] for a, b in zip(intervals, intervals[1:])), default=0) / rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--texts", default=str(ROOT / "resources" / "texts" / "everyday-en.txt"))
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    backend = PiperBackend()
    backend.load()
    backend.warm_up()
    rate = backend.sample_rate
    whisper = load_whisper("base")
    budgets = {"alone": first_piece_chars(1, 2), "shared": first_piece_chars(2, 2)}
    texts = [item.text for item in TextSet.from_file(args.texts).items]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as cache_dir:
        cache = VoiceCache(Path(cache_dir), backend, "piper", SpeakerEncoder())
        voices = VoiceSet.bundled().voices
        profiles = [cache.lookup(voice).profile for voice in voices]
        for index, text in enumerate(texts):
            first_sentence = split_for_streaming(text, UNCUT)[0].text
            for situation, budget in budgets.items():
                if first_cut(first_sentence, budget) is None:
                    continue
                profile = profiles[index % len(profiles)]
                chunks = [p.pcm for p in backend.synthesize(text, profile, VoiceSettings(), lambda: False,
                                                            first_piece_chars=budget)]
                uncut = [p.pcm for p in backend.synthesize(text, profile, VoiceSettings(), lambda: False,
                                                           first_piece_chars=UNCUT)]
                pieces = split_for_streaming(text, budget)
                # The cut is after the first piece's audio: the chunks up to the one ending it (Piper
                # sends its first piece in one or two chunks, cut in a pause, then one per piece).
                head_chunks = len(chunks) - (len(pieces) - 1)
                join = sum(len(c) for c in chunks[:head_chunks])
                take = np.concatenate(chunks)
                whole = np.concatenate(uncut)
                steps = np.abs(np.diff(take))
                uncut_first = np.concatenate(uncut[:len(uncut) - (len(split_for_streaming(text, UNCUT)) - 1)])
                rows.append({
                    "text": text, "situation": situation, "budget": budget, "voice": Path(voices[index % len(voices)].clip_path).stem,
                    "first_piece": pieces[0].text, "at_clause": not pieces[0].mid_clause,
                    "wer_cut": word_error_rate(text, heard(whisper, take, rate)),
                    "wer_uncut": word_error_rate(text, heard(whisper, whole, rate)),
                    "join_step_over_max_step": float(abs(take[join] - take[join - 1]) / steps.max()),
                    "join_silence_s": silence_around(take, join, rate),
                    "uncut_longest_inner_silence_s": longest_inner_silence(uncut_first, rate),
                    "audio_s_cut": len(take) / rate, "audio_s_uncut": len(whole) / rate,
                })
                r = rows[-1]
                print(f"{situation:6} {r['budget']:3} {r['wer_cut']:.2f}/{r['wer_uncut']:.2f} step {r['join_step_over_max_step']:.3f} "
                      f"gap {r['join_silence_s'] * 1000:4.0f} ms (uncut longest {r['uncut_longest_inner_silence_s'] * 1000:4.0f}) "
                      f"{'clause' if r['at_clause'] else 'word  '} | {r['first_piece']}", flush=True)
        cache.close(5.0)
    summary: dict[str, Any] = {"texts": args.texts, "lines": len(texts), "cores": os.cpu_count()}
    for situation, budget in budgets.items():
        mine = [r for r in rows if r["situation"] == situation]
        if not mine:
            continue
        summary[situation] = {
            "budget_chars": budget, "lines_cut": len(mine),
            "cut_at_clause": sum(r["at_clause"] for r in mine),
            "mean_wer_cut": round(statistics.mean(r["wer_cut"] for r in mine), 4),
            "mean_wer_uncut": round(statistics.mean(r["wer_uncut"] for r in mine), 4),
            "lines_wer_worse": sum(r["wer_cut"] > r["wer_uncut"] for r in mine),
            "lines_wer_better": sum(r["wer_cut"] < r["wer_uncut"] for r in mine),
            "max_join_step_over_max_step": round(max(r["join_step_over_max_step"] for r in mine), 4),
            "median_join_silence_s": round(statistics.median(r["join_silence_s"] for r in mine), 3),
            "max_join_silence_s": round(max(r["join_silence_s"] for r in mine), 3),
            "median_uncut_longest_inner_silence_s": round(statistics.median(r["uncut_longest_inner_silence_s"] for r in mine), 3),
            "audio_s_cut_over_uncut": round(sum(r["audio_s_cut"] for r in mine) / sum(r["audio_s_uncut"] for r in mine), 3),
        }
        print(situation, summary[situation], flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "lines": rows}, indent=2))


if __name__ == "__main__":
    main()

"""Chinese dialogue transcription: script CER, speaker count and speed (a benchmark, not a test).

The dialogues are built from real Mandarin utterances of public repositories' example audio
(AISHELL-1 and other test clips shipped with FireRedASR, WeNet, FunASR, PaddleSpeech and
CosyVoice; see docs/transcribe.md, *Chinese*), each a few speakers' turns with pauses. They are
not in this repository: pass the folder holding the WAVs and their ``references.json``
({name: {"turns": [{speaker, start, end, text}], "speakers": N, "duration_s": S}}; a dialogue
whose turns' texts are all empty is measured for its speakers only).

Per dialogue: the script CER (every line's text in time order against every turn's reference
in time order, characters compared as take QA compares them: punctuation and spaces out,
numerals as digits; a traditional character where the reference has the simplified one counts
as an error, since the user asked for simplified), the share of lines that end in Chinese
sentence-end marks, the speakers found against the reference count, the share of the speech
the lines cover that went to the right speaker (found speakers mapped one to one onto the
reference's), CPU seconds and wall seconds per second of audio.

Run: OMP_NUM_THREADS=1 .venv/bin/python benchmarks/transcribe_chinese.py --dialogues DIR
     [--only tune_|held_] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.hearing.qa.wer import error_rate
from engine.hearing.transcribe import Options, transcribe_media
from engine.hearing.whisper import load_whisper
from engine.voiceprint.encoder import CamppSpeakerEncoder


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def right_share(turns: list[dict[str, Any]], lines: list[tuple[float, float, int]]) -> float:
    """The share of the reference turns' time that lines cover and give to the right speaker,
    found speakers mapped one to one onto the reference's for the most such time (a line's time
    counts where it overlaps a turn)."""
    names = sorted({turn["speaker"] for turn in turns})
    found = sorted({speaker for _, _, speaker in lines})
    overlap = {(name, speaker): 0.0 for name in names for speaker in found}
    for turn in turns:
        for start, end, speaker in lines:
            overlap[turn["speaker"], speaker] += max(0.0, min(end, turn["end"]) - max(start, turn["start"]))
    covered = sum(overlap.values())
    if covered == 0:
        return 0.0
    best = 0.0
    for mapping in itertools.permutations(found, min(len(found), len(names))):
        for chosen in itertools.combinations(names, len(mapping)):
            best = max(best, sum(overlap[name, speaker] for name, speaker in zip(chosen, mapping)))
    return best / covered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dialogues", type=Path, required=True)
    parser.add_argument("--only", default="", help="run the dialogues whose names start with this")
    parser.add_argument("--language", default="auto")
    parser.add_argument("--model", default="base")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    references: dict[str, Any] = json.loads((args.dialogues / "references.json").read_text(encoding="utf-8"))
    model = load_whisper(args.model, "cpu")
    encoder = CamppSpeakerEncoder()  # the speakers step's encoder, as the studio runs it
    results = []
    for name, truth in references.items():
        if not name.startswith(args.only):
            continue
        path = args.dialogues / f"{name}.wav"
        cpu, wall = cpu_seconds(), time.perf_counter()
        heard = transcribe_media(path, model, encoder, Options(language=args.language))
        cpu, wall = cpu_seconds() - cpu, time.perf_counter() - wall
        reference = "".join(turn["text"] for turn in truth["turns"])
        script = "".join(line.text for line in heard.lines)
        ended = sum(1 for line in heard.lines if line.text.endswith(("。", "！", "？")))
        row = {
            "dialogue": name,
            "cer": round(error_rate(reference, script, "zh", by_reading=False), 3) if reference else None,
            "speakers": f"{heard.speaker_count} / {truth['speakers']}",
            "right_share": round(right_share(truth["turns"], [(line.start, line.end, line.speaker) for line in heard.lines]), 3),
            "language": f"{heard.language} ({heard.language_probability:.2f})",
            "lines": len(heard.lines),
            "lines_ending_in_a_sentence_mark": ended,
            "cpu_s_per_s": round(cpu / truth["duration_s"], 3),
            "wall_rtf": round(wall / truth["duration_s"], 3),
            "script": [f"S{line.speaker + 1} {line.start:5.2f}-{line.end:5.2f} {line.text}" for line in heard.lines],
        }
        results.append(row)
        print(json.dumps(row, ensure_ascii=False, indent=1), flush=True)
    if results:
        rated = [row["cer"] for row in results if row["cer"] is not None]
        mean = sum(rated) / max(1, len(rated))
        print(f"mean script CER {mean:.3f} over {len(rated)} dialogues; "
              f"speakers right {sum(row['speakers'].split(' / ')[0] == row['speakers'].split(' / ')[1] for row in results)}"
              f" / {len(results)}")
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()

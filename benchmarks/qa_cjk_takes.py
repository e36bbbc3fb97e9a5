"""Take QA on real Chinese (or Japanese) recordings: own line, another line, cut in half (a
benchmark, not a test).

Each recording is checked as the take of its own line, of the next recording's line (a real take
of another line), and cut in half (its first half as the take of its whole line), by take QA as
the studio runs it (Whisper base, the project's default thresholds). The recordings are not in
this repository: pass a folder holding them and ``manifest.tsv`` (file, language, what is said;
tab-separated), or ``--set NAME`` to take that set's rows of benchmarks/data/qa_cjk_takes.tsv (the
Japanese takes and the held-out sets, with their sources and licences). A clip named and worded as
a take that file lists with cut points must last as long as that cut, or the run is refused: a copy
cut elsewhere holds other words and gives other figures. Run the same script from an older checkout
to compare its normalisation.

Japanese is scored by reading (kana) and Mandarin by reading (toneless pinyin), as take QA judges
them; the raw CER over the written characters is reported beside it (``raw``), never instead of
it, with what was heard in each case (``heard``).

Run: OMP_NUM_THREADS=1 .venv/bin/python benchmarks/qa_cjk_takes.py --corpus DIR [--set ja] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SETS = ROOT / "benchmarks" / "data" / "qa_cjk_takes.tsv"
# A listed take's cut in its source column: "…, 1.36-3.10 s" (seconds of the source file).
CUT = re.compile(r"(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?) s\b")
# How far a clip's length may be from its listed cut's (rounding of the cut points).
CUT_TOLERANCE_S = 0.02

from engine.core.audio_io import audio_info
from engine.core.reference import load_reference_clip
from engine.hearing.qa.checks import QaThresholds, judge, measure_take
from engine.hearing.qa.wer import compared_by_reading, error_rate


def manifest_rows(corpus: Path, set_name: str | None) -> list[list[str]]:
    """(file, language, text) of each take: DIR/manifest.tsv's rows, or one set's of :data:`SETS`."""
    rows = []
    for line in (SETS if set_name else corpus / "manifest.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if not set_name:
            rows.append(fields[:3])
        elif fields[0] == set_name:
            rows.append(fields[1:4])
    return rows


def listed_cut_lengths() -> dict[tuple[str, str], float]:
    """Seconds each cut take of :data:`SETS` lasts, by (file, text); takes used whole are not listed."""
    lengths = {}
    for line in SETS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        cut = CUT.search(fields[4])
        if cut:
            lengths[(fields[1], fields[3])] = float(cut.group(2)) - float(cut.group(1))
    return lengths


def misplaced_cut(name: str, text: str, duration_s: float, lengths: dict[tuple[str, str], float]) -> str | None:
    """Why a clip named and worded as a listed take is not that take's cut (None when it is, or is not listed).

    A copy cut at other points holds other words (an earlier copy of test_ja_2_1.wav ran on into the
    next sentence, so its "first half" was the whole line and passed): its figures are not the table's.
    """
    listed = lengths.get((name, text))
    if listed is None or abs(duration_s - listed) <= CUT_TOLERANCE_S:
        return None
    return (f"{name} lasts {duration_s:.2f} s, but {SETS.name} cuts the take of {text} to {listed:.2f} s: "
            "another cut of its source, so its figures are not the listed take's; cut it again at the listed points")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--model", default="base")
    parser.add_argument("--set", help=f"a set of {SETS.name} (ja, ja-held-out, zh-held-out) instead of DIR/manifest.tsv")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = manifest_rows(args.corpus, args.set)
    thresholds = QaThresholds()
    lengths = listed_cut_lengths()
    wrong_cuts = [why for name, _, text in rows
                  if (why := misplaced_cut(name, text, audio_info(args.corpus / name).duration_s, lengths))]
    if wrong_cuts:
        parser.error("\n".join(wrong_cuts))
    results: list[dict[str, Any]] = []
    for index, (name, language, text) in enumerate(rows):
        clip = load_reference_clip(args.corpus / name)
        other = rows[(index + 1) % len(rows)][2]
        half = clip.audio[: len(clip.audio) // 2]
        row: dict[str, Any] = {"file": name}
        for case, audio, line in (("own", clip.audio, text), ("other", clip.audio, other), ("half", half, text)):
            measured = measure_take(audio, clip.sample_rate, line, language, None, None, args.model)
            verdict = judge(measured, thresholds)
            row[case] = {"cer": None if measured.wer is None else round(measured.wer, 3), "passed": verdict.passed,
                         "codes": sorted({finding.code for finding in verdict.findings})}
            if compared_by_reading(language) and measured.transcript is not None:
                row[case]["raw"] = round(error_rate(line, measured.transcript, language, by_reading=False), 3)
            row[case]["heard"] = measured.transcript
        results.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)
    own = [row["own"]["cer"] for row in results]
    print(f"own line: {sum(row['own']['passed'] for row in results)} / {len(results)} pass, CER max {max(own):.3f}, "
          f"median {sorted(own)[len(own) // 2]:.3f}; other line: {sum(not row['other']['passed'] for row in results)}"
          f" / {len(results)} fail, CER min {min(row['other']['cer'] for row in results):.3f}; cut in half: "
          f"{sum(not row['half']['passed'] for row in results)} / {len(results)} fail")
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()

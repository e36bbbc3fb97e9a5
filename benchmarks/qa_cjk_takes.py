"""Take QA on real Chinese (or Japanese) recordings: own line, another line, cut in half (a
benchmark, not a test).

Each recording is checked as the take of its own line, of the next recording's line (a real take
of another line), and cut in half (its first half as the take of its whole line), by take QA as
the studio runs it (Whisper base, the project's default thresholds). The recordings are not in
this repository: pass a folder holding them and ``manifest.tsv`` (file, language, what is said;
tab-separated), or ``--set NAME`` to take that set's rows of benchmarks/data/qa_cjk_takes.tsv (the
Japanese takes and the held-out sets, with their sources and licences). Run the same script from
an older checkout to compare its normalisation.

Japanese is scored by reading (kana) and Mandarin by reading (toneless pinyin), as take QA judges
them; the raw CER over the written characters is reported beside it (``raw``), never instead of
it, with what was heard in each case (``heard``).

Run: OMP_NUM_THREADS=1 .venv/bin/python benchmarks/qa_cjk_takes.py --corpus DIR [--set ja] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SETS = ROOT / "benchmarks" / "data" / "qa_cjk_takes.tsv"

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--model", default="base")
    parser.add_argument("--set", help=f"a set of {SETS.name} (ja, ja-held-out, zh-held-out) instead of DIR/manifest.tsv")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = manifest_rows(args.corpus, args.set)
    thresholds = QaThresholds()
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

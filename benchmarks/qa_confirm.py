"""Confirming takes by forced alignment before decoding them: do the verdicts stay the same, how
far are the defective takes from being confirmed, and what does it save? (a benchmark, not a
test; issue 33)

Sets of takes: the tests' six lines in the embedded model's own voice (``joe``); with
``--sample``, the sample project's six lines rendered by its characters' voices (through a warm
engine); with ``--corpus DIR``, real recordings (``manifest.tsv``: file, language, what is said,
tab-separated; as benchmarks/qa_cjk_takes.py). Each set is checked as its own lines (clean), each
take as the next line's text (swapped) and each take's first half as its whole line (half), all
in one batch, and each take alone; a swapped or half take is also put in its set's batch among
the clean others, a third of the takes at a time (the other takes' audio, the line it was given
included, then share its window). Every case is checked by ``measure_takes`` with ``DUBSTUDIO_QA_CONFIRM=0`` (every take
decoded, as before) and ``=1`` (confirmed first). Printed: the cases whose verdicts differ
(should be none), the takes confirmed per case (a swapped or half take never should be), the
confirmation figures against their thresholds, and the CPU seconds of each way.

Run: OMP_NUM_THREADS=1 .venv/bin/python benchmarks/qa_confirm.py [--sample] [--corpus DIR] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.files import atomic_write_text
from engine.core.reference import load_reference_clip
from engine.hearing.qa.checks import QaThresholds, TakeToMeasure, judge, measure_takes
from engine.hearing.qa.recognise import (
    CONFIRM_ENV,
    CONFIRM_INSIDE,
    CONFIRM_MEAN_LOG_PROB,
    CONFIRM_MIN_LOG_PROB,
    WhisperRecogniser,
)

JOE_LINES = [  # tests/engine/hearing/qa/test_confirm.py
    "I told you the keys were on the kitchen table.",
    "My brother bought three apples and a loaf of bread.",
    "Oh, hello.",
    "We should leave before the storm arrives tonight.",
    "Could you please close the window behind you?",
    "The train to the city leaves at nine in the morning.",
]


def joe_set() -> list[TakeToMeasure]:
    from tests.engine.helpers import joe_says

    return [TakeToMeasure(*joe_says(text), text, "en") for text in JOE_LINES]


def sample_set() -> list[TakeToMeasure]:
    """The sample project rendered once through a warm engine, as the studio renders it."""
    from app.project.qa import read_take, request_for
    from benchmarks import common
    from engine.synthesis.client.local import EngineClient
    from engine.synthesis.config import EngineConfig

    with tempfile.TemporaryDirectory(prefix="dubstudio-qa-confirm-") as tmp:
        project = common.repeated_sample(Path(tmp) / "sample", 1)
        client = EngineClient(EngineConfig(slots=2, cache_dir=str(Path(tmp) / "cache")))
        client.start()
        try:
            common.render_round(client, project, None, "base")
        finally:
            client.close()
        takes = []
        for line in project.lines:
            take = project.chosen_take(line)
            assert take is not None
            request = request_for(project, line, take)
            pcm, rate = read_take(request.take_path)
            takes.append(TakeToMeasure(pcm, rate, request.text, request.language or "en", None, request.pace))
        return takes


def corpus_set(folder: Path) -> dict[str, list[TakeToMeasure]]:
    sets: dict[str, list[TakeToMeasure]] = {}
    for row in (folder / "manifest.tsv").read_text(encoding="utf-8").splitlines():
        if row.strip() and not row.startswith("#"):
            name, language, text = row.split("\t")
            clip = load_reference_clip(folder / name)
            sets.setdefault(language, []).append(TakeToMeasure(clip.audio, clip.sample_rate, text, language))
    return sets


def swapped(takes: list[TakeToMeasure], index: int) -> TakeToMeasure:
    take = takes[index]
    return TakeToMeasure(take.pcm, take.sample_rate, takes[(index + 1) % len(takes)].text, take.language,
                         take.clip_embedding, take.pace)


def halved(take: TakeToMeasure) -> TakeToMeasure:
    return TakeToMeasure(take.pcm[: take.pcm.size // 2], take.sample_rate, take.text, take.language,
                         take.clip_embedding, take.pace)


def cases(takes: list[TakeToMeasure]) -> Iterator[tuple[str, list[TakeToMeasure], list[int]]]:
    """(case, batch, the indices in the batch that are defective)."""
    count = len(takes)
    yield "clean packed", takes, []
    yield "swapped packed", [swapped(takes, i) for i in range(count)], list(range(count))
    yield "half packed", [halved(t) for t in takes], list(range(count))
    for i in range(count):
        yield "clean alone", [takes[i]], []
        yield "swapped alone", [swapped(takes, i)], [0]
        yield "half alone", [halved(takes[i])], [0]
    for offset in range(min(3, count - 1)):  # every take defective once, two clean takes between
        chosen = [i for i in range(count) if i % 3 == offset]
        yield "swapped among clean", [swapped(takes, i) if i in chosen else t for i, t in enumerate(takes)], chosen
        yield "half among clean", [halved(t) if i in chosen else t for i, t in enumerate(takes)], chosen


def recorded_figures() -> list[dict[str, Any]]:
    """Every take's confirmation figures from now on, as QA scores them (recorded, not changed)."""
    found: list[dict[str, Any]] = []
    real = WhisperRecogniser.score_packed

    def recording(self: WhisperRecogniser, *args: Any) -> Any:
        detected, probability, scores = real(self, *args)
        found.extend({"least": round(s.least_log_prob, 2), "mean": round(s.mean_log_prob, 2), "inside": round(s.inside, 2),
                      "in_language": s.heard_in_language, "confirmed": s.confirmed} for s in scores)
        return detected, probability, scores

    setattr(WhisperRecogniser, "score_packed", recording)  # noqa: B010 - a benchmark records, the class is unchanged otherwise
    return found


def verdicts(batch: list[TakeToMeasure], confirm: bool) -> tuple[list[tuple[Any, ...]], float]:
    os.environ[CONFIRM_ENV] = "1" if confirm else "0"
    started = time.process_time()
    measured = measure_takes(batch, None, "base")
    cpu = time.process_time() - started
    summaries = []
    for checks in measured:
        verdict = judge(checks, QaThresholds())
        summaries.append((verdict.passed, tuple(sorted(f.code for f in verdict.findings))))
    return summaries, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", action="store_true", help="also the sample project rendered by its voices")
    parser.add_argument("--corpus", type=Path, action="append", default=[],
                        help="a folder of real recordings with manifest.tsv (may be given again)")
    parser.add_argument("--without-joe", action="store_true", help="leave out the embedded voice's six lines")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    sets: dict[str, list[TakeToMeasure]] = {"joe": joe_set()}
    if args.sample:
        sets["sample"] = sample_set()
    for folder in args.corpus:
        sets |= {f"{folder.name}:{language}": takes for language, takes in corpus_set(folder).items()}
    verdicts(sets["joe"][:1], True)  # the model loaded before anything is timed
    if args.without_joe:
        del sets["joe"]
    figures = recorded_figures()
    rows: list[dict[str, Any]] = []
    for name, takes in sets.items():
        for case, batch, defective in cases(takes):
            decoded, cpu_decoded = verdicts(batch, confirm=False)
            figures.clear()
            confirmed, cpu_confirmed = verdicts(batch, confirm=True)
            row = {"set": name, "case": case, "takes": len(batch), "defective": defective,
                   "decoded": decoded, "confirmed": confirmed, "same": decoded == confirmed,
                   "cpu_decoded_s": round(cpu_decoded, 2), "cpu_confirmed_s": round(cpu_confirmed, 2),
                   "figures": list(figures)}
            rows.append(row)
            print(json.dumps(row, ensure_ascii=False), flush=True)
    os.environ.pop(CONFIRM_ENV)
    print(f"\nthresholds: least likely word token >= {CONFIRM_MIN_LOG_PROB}, mean >= {CONFIRM_MEAN_LOG_PROB}, "
          f"inside >= {CONFIRM_INSIDE}")
    print(f"{'set':14}{'case':22}{'cases':>6}{'same verdicts':>14}{'confirmed':>12}{'least':>16}{'mean':>16}"
          f"{'inside':>12}{'CPU before s':>13}{'after s':>9}")
    for name in sets:
        for case in dict.fromkeys(row["case"] for row in rows if row["set"] == name):
            chosen = [row for row in rows if row["set"] == name and row["case"] == case]
            # Clean cases: every take; defective cases: the defective takes only.
            taken = [f for row in chosen for i, f in enumerate(row["figures"]) if not row["defective"] or i in row["defective"]]
            least = [f["least"] for f in taken]
            mean = [f["mean"] for f in taken]
            inside = [f["inside"] for f in taken]
            print(f"{name:14}{case:22}{len(chosen):>6}{sum(row['same'] for row in chosen):>14}"
                  f"{sum(f['confirmed'] for f in taken):>7} / {len(taken):<3}"
                  f"{min(least):>8.2f}..{max(least):<6.2f}{min(mean):>8.2f}..{max(mean):<6.2f}{min(inside):>6.2f}..{max(inside):<4.2f}"
                  f"{sum(row['cpu_decoded_s'] for row in chosen):>13.1f}{sum(row['cpu_confirmed_s'] for row in chosen):>9.1f}")
    differing = [row for row in rows if not row["same"]]
    print(f"verdicts that differ: {len(differing)} of {len(rows)} cases")
    if args.json:
        atomic_write_text(args.json, json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

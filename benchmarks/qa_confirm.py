"""Confirming takes by forced alignment before decoding them: do the verdicts stay the same, how
far are the defective takes from being confirmed, and what does it save? (a benchmark, not a
test; issue 33)

Sets of takes: the tests' six lines in the embedded model's own voice (``joe``); with
``--sample``, the sample project's six lines rendered by its characters' voices (through a warm
engine); with ``--corpus DIR``, real recordings (``manifest.tsv``: file, language, what is said,
tab-separated; as benchmarks/qa_cjk_takes.py). Each set is checked as its own lines (clean), each
take as the next line's text (swapped: the line it was given is then said in the take after it),
each take's first half as its whole line (half) and each take with a number given its line with
that number changed (wrong number: 八百 said for 九百), all in one batch, and each take alone; and
a third of the takes swapped or halved at a time among the clean others. An English set is also
checked against every non-English corpus take given one of its lines (wrong language, alone), and
each of its takes is scored alone by Whisper tiny.en too, at tiny.en's own bars (the quick
confirmation QA tries first for English takes).

Every take of every case is scored as QA scores it (packed as QA packs) and printed with its
figures against the thresholds. A take that is not confirmed goes down the path QA took before
(packed decoding, then heard alone), so only a confirmed take can change its verdict: each is
also heard alone at beam 5 as before, and the two verdicts compared. Last, each set's clean
batch is checked by ``measure_takes`` each way (``DUBSTUDIO_QA_CONFIRM=0``: decoded, as before;
``=alone``: each take alone first, with and without tiny.en first (``DUBSTUDIO_QA_QUICK_CONFIRM=0``);
unset: today's, packs of several takes confirmed packed first), the kept encodings dropped before
each, for the CPU seconds.

Run: OMP_NUM_THREADS=1 .venv/bin/python benchmarks/qa_confirm.py [--sample] [--corpus DIR ...] [--cpu-only] [--cpu-rounds N] [--english-only] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.files import atomic_write_text
from engine.core.languages import language_code
from engine.core.reference import load_reference_clip
from engine.hearing.qa.checks import (
    QaThresholds,
    TakeChecks,
    TakeToMeasure,
    judge,
    measure_take,
    measure_takes,
)
from engine.hearing.qa.number_forms import number_forms
from engine.hearing.qa.recognise import (
    CONFIRM_ENV,
    CONFIRM_INSIDE,
    CONFIRM_MEAN_LOG_PROB,
    CONFIRM_MIN_LOG_PROB,
    QUICK_CONFIRM_ENV,
    QUICK_CONFIRM_MEAN_LOG_PROB,
    QUICK_CONFIRM_MIN_LOG_PROB,
    QUICK_CONFIRM_MODEL,
    Confirmation,
    Transcript,
    _packs,
    confirm_bars,
    whisper_recogniser,
)
from engine.hearing.whisper import load_whisper


def joe_set() -> list[TakeToMeasure]:
    from tests.engine.helpers import QA_LINES, joe_says

    return [TakeToMeasure(*joe_says(text), text, "en") for text in QA_LINES]


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


def wrong_number(take: TakeToMeasure) -> TakeToMeasure | None:
    """The take given its line with each number's first digit changed, written as the line
    writes it (八百 said for 九百, "3" for "4"), or None for a line without numbers."""
    language = language_code(take.language) or "en"
    forms = number_forms(take.text, language)
    in_digits = forms[0] if forms else take.text
    if not re.search(r"\d", in_digits):
        return None
    wrong = re.sub(r"\d+", lambda match: str(int(match[0][0]) + 1 if match[0][0] != "9" else 8) + match[0][1:], in_digits)
    if forms and forms[0] != take.text:  # the line writes its numbers in words
        wrong = number_forms(wrong, language)[1]
    return TakeToMeasure(take.pcm, take.sample_rate, wrong, take.language, take.clip_embedding, take.pace)


def cases(takes: list[TakeToMeasure], foreign: list[TakeToMeasure]) -> Iterator[tuple[str, list[TakeToMeasure], list[int]]]:
    """(case, batch, the indices in the batch that are defective); ``foreign``: takes in other
    languages, each given one of ``takes``' lines."""
    count = len(takes)
    for i, take in enumerate(foreign):
        yield "wrong language alone", [TakeToMeasure(take.pcm, take.sample_rate, takes[i % count].text, takes[0].language)], [0]
    yield "clean packed", takes, []
    yield "swapped packed", [swapped(takes, i) for i in range(count)], list(range(count))
    yield "half packed", [halved(t) for t in takes], list(range(count))
    numbered = [wrong for wrong in map(wrong_number, takes) if wrong is not None]
    if numbered:  # scored alone too (a whole-batch case)
        yield "wrong number packed", numbered, list(range(len(numbered)))
    for i in range(count):
        yield "clean alone", [takes[i]], []
        yield "swapped alone", [swapped(takes, i)], [0]
        yield "half alone", [halved(takes[i])], [0]
    for offset in range(min(3, count - 1)):  # every take defective once, two clean takes between
        chosen = [i for i in range(count) if i % 3 == offset]
        yield "swapped among clean", [swapped(takes, i) if i in chosen else t for i, t in enumerate(takes)], chosen
        yield "half among clean", [halved(t) if i in chosen else t for i, t in enumerate(takes)], chosen


def scored_alone(takes: list[TakeToMeasure], model: str = "base") -> list[Confirmation]:
    """Each take's confirmation alone in a window its own size, as measure_takes first tries it."""
    recogniser = whisper_recogniser(model)
    quick = (QUICK_CONFIRM_MIN_LOG_PROB, QUICK_CONFIRM_MEAN_LOG_PROB) if model == QUICK_CONFIRM_MODEL else None
    return [recogniser.score_alone(t.pcm, t.sample_rate, language_code(t.language) or "en", t.text, quick)[2]
            for t in takes]


def scored(takes: list[TakeToMeasure]) -> list[Confirmation]:
    """Each take's confirmation, packed as measure_takes packs one language's takes."""
    recogniser = whisper_recogniser("base")
    found: list[Confirmation] = []
    at = 0
    for pack in _packs([(take.pcm, take.sample_rate) for take in takes]):
        chosen = takes[at: at + len(pack)]
        at += len(pack)
        language = language_code(chosen[0].language) or "en"
        found += recogniser.score_packed([t.pcm for t in chosen], chosen[0].sample_rate, language, [t.text for t in chosen])[2]
    return found


def summary(checks: TakeChecks) -> tuple[bool | None, tuple[str, ...]]:
    verdict = judge(checks, QaThresholds())
    return verdict.passed, tuple(sorted(finding.code for finding in verdict.findings))


def verdicts_both_ways(take: TakeToMeasure) -> tuple[Any, Any]:
    """A confirmed take's verdict heard alone (as before) and heard as written."""
    decoded = measure_take(take.pcm, take.sample_rate, take.text, take.language, None, None, "base", take.pace)
    name = whisper_recogniser("base").name
    language = language_code(take.language) or "en"
    as_written = Transcript(take.text, language, name, language, 1.0, confirmed=True)
    confirmed = measure_take(take.pcm, take.sample_rate, take.text, take.language, None, None, "base", take.pace,
                             heard=as_written)
    return summary(decoded), summary(confirmed)


# DUBSTUDIO_QA_CONFIRM and DUBSTUDIO_QA_QUICK_CONFIRM for each way
WAYS = {"decoded": ("0", ""), "confirmed packed": ("packed", ""), "alone first, base only": ("alone", "0"),
        "alone first, tiny.en first": ("alone", ""), "by expected cost": ("", "")}


def cpu_each_way(takes: list[TakeToMeasure], rounds: int) -> dict[str, float]:
    """CPU seconds of measure_takes on ``takes`` each way of :data:`WAYS` (DUBSTUDIO_QA_CONFIRM):
    decoding (as before confirming), confirming in packed windows only, confirming each take
    alone first, and today's (alone or packed first by expected cost); the median of ``rounds``,
    the ways taking turns."""
    models = [load_whisper("base"), load_whisper(QUICK_CONFIRM_MODEL)]
    spent: dict[str, list[float]] = {way: [] for way in WAYS}
    for _ in range(rounds):
        for way, (confirm, quick) in WAYS.items():
            os.environ[CONFIRM_ENV], os.environ[QUICK_CONFIRM_ENV] = confirm, quick
            for model in models:
                model.forget_encodings()  # no way starts from another one's encoding
            started = time.process_time()
            measure_takes(takes, None, "base")
            spent[way].append(time.process_time() - started)
    os.environ.pop(CONFIRM_ENV)
    os.environ.pop(QUICK_CONFIRM_ENV)
    return {way: statistics.median(times) for way, times in spent.items()}


def print_table(names: list[str], rows: list[dict[str, Any]]) -> None:
    mandarin_least, _ = confirm_bars("zh")
    print(f"\nthresholds: least likely word token >= {CONFIRM_MIN_LOG_PROB} (Mandarin {mandarin_least}), "
          f"mean >= {CONFIRM_MEAN_LOG_PROB}, "
          f"share inside >= {CONFIRM_INSIDE}; {QUICK_CONFIRM_MODEL}: >= {QUICK_CONFIRM_MIN_LOG_PROB}, "
          f">= {QUICK_CONFIRM_MEAN_LOG_PROB}")
    for where, prefix in (("packed", ""), ("alone (take-sized window)", "alone_"),
                          (f"alone by {QUICK_CONFIRM_MODEL} (English sets)", "quick_")):
        if not any(prefix + "confirmed" in row for row in rows):
            continue
        print(f"\nconfirmed {where}")
        print(f"{'set':14}{'takes':22}{'scored':>7}{'confirmed':>10}{'same verdict':>13}{'least':>16}{'mean':>16}{'inside':>12}")
        for name in names:
            for label, wanted in (("clean", False), ("defective", True)):
                chosen = [row for row in rows if row["set"] == name and row["defective"] == wanted
                          and prefix + "confirmed" in row]
                if not chosen:
                    continue
                confirmed = [row for row in chosen if row[prefix + "confirmed"]]
                same = sum(row["decoded"] == row["as_written"] for row in confirmed)
                least, mean, inside = ([row[prefix + key] for row in chosen] for key in ("least", "mean", "inside"))
                print(f"{name:14}{label:22}{len(chosen):>7}{len(confirmed):>10}{same:>9} / {len(confirmed):<3}"
                      f"{min(least):>8.2f}..{max(least):<6.2f}{min(mean):>8.2f}..{max(mean):<6.2f}"
                      f"{min(inside):>6.2f}..{max(inside):<4.2f}")
        print("confirmed defective takes:", [(row["set"], row["case"], row["text"]) for row in rows
                                             if row["defective"] and row.get(prefix + "confirmed")])
    # QA confirms a pack's takes packed, or alone first and then packed: it confirms at most the
    # takes either way confirms (scored both ways in the batch cases).
    print(f"\nconfirmed any way (packed, alone or alone by {QUICK_CONFIRM_MODEL}; what QA may confirm at most)")
    print(f"{'set':14}{'takes':22}{'scored':>7}{'confirmed':>10}{'same verdict':>13}")
    for name in names:
        for label, wanted in (("clean", False), ("defective", True)):
            chosen = [row for row in rows if row["set"] == name and row["defective"] == wanted and "alone_confirmed" in row]
            confirmed = [row for row in chosen if row["confirmed"] or row["alone_confirmed"] or row.get("quick_confirmed")]
            same = sum(row["decoded"] == row["as_written"] for row in confirmed)
            print(f"{name:14}{label:22}{len(chosen):>7}{len(confirmed):>10}{same:>9} / {len(confirmed):<3}")


def case_rows(sets: dict[str, list[TakeToMeasure]], english_only: bool = False) -> list[dict[str, Any]]:
    """Every take of every case of every set scored and printed (a row each); ``english_only``:
    the English sets' cases only."""
    rows: list[dict[str, Any]] = []
    heard_alone: dict[tuple[int, int, str], Any] = {}  # (audio, length, text) -> both verdicts
    for name, takes in sets.items():
        english = language_code(takes[0].language) == "en"
        if english_only and not english:
            continue
        foreign = [take for other in sets.values() for take in other
                   if language_code(other[0].language) != "en"] if english else []
        for case, batch, defective in cases(takes, foreign):
            whole = case.endswith(" packed") or case == "wrong language alone"  # scored alone once, here
            alone_scores = scored_alone(batch) if whole else None
            quick_scores = scored_alone(batch, QUICK_CONFIRM_MODEL) if english and alone_scores is not None else None
            for index, (take, confirmation) in enumerate(zip(batch, scored(batch), strict=True)):
                row = {"set": name, "case": case, "defective": index in defective, "text": take.text, "least": round(confirmation.least_log_prob, 2),
                       "mean": round(confirmation.mean_log_prob, 2), "inside": round(confirmation.inside, 2),
                       "in_language": confirmation.heard_in_language, "confirmed": confirmation.confirmed}
                # Alone, a take's window holds nothing of the others: scored once, in the whole-batch cases.
                alone = alone_scores[index] if alone_scores is not None else None
                if alone is not None:
                    row |= {"alone_least": round(alone.least_log_prob, 2), "alone_mean": round(alone.mean_log_prob, 2),
                            "alone_inside": round(alone.inside, 2), "alone_in_language": alone.heard_in_language,
                            "alone_confirmed": alone.confirmed}
                quick = quick_scores[index] if quick_scores is not None else None
                if quick is not None:
                    row |= {"quick_least": round(quick.least_log_prob, 2), "quick_mean": round(quick.mean_log_prob, 2),
                            "quick_inside": round(quick.inside, 2), "quick_in_language": quick.heard_in_language,
                            "quick_confirmed": quick.confirmed_quickly}
                if confirmation.confirmed or row.get("alone_confirmed") or row.get("quick_confirmed"):
                    key = (id(take.pcm), take.pcm.size, take.text)
                    if key not in heard_alone:
                        heard_alone[key] = verdicts_both_ways(take)
                    row["decoded"], row["as_written"] = heard_alone[key]
                rows.append(row)
                print(json.dumps(row, ensure_ascii=False), flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", action="store_true", help="also the sample project rendered by its voices")
    parser.add_argument("--corpus", type=Path, action="append", default=[],
                        help="a folder of real recordings with manifest.tsv (may be given again)")
    parser.add_argument("--without-joe", action="store_true", help="leave out the embedded voice's six lines")
    parser.add_argument("--cpu-only", action="store_true", help="only the CPU each way, not the cases")
    parser.add_argument("--cpu-rounds", type=int, default=1, help="CPU measured this many times each way (median; 0: not measured)")
    parser.add_argument("--english-only", action="store_true",
                        help="other languages' takes serve only as wrong-language takes for the English sets")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    sets: dict[str, list[TakeToMeasure]] = {"joe": joe_set()}
    if args.sample:
        sets["sample"] = sample_set()
    for folder in args.corpus:
        sets |= {f"{folder.name}:{language}": takes for language, takes in corpus_set(folder).items()}
    scored(sets[next(iter(sets))][:1])  # the model loaded before anything is timed
    if args.without_joe:
        del sets["joe"]
    rows = [] if args.cpu_only else case_rows(sets, args.english_only)
    if rows:
        print_table(list({row["set"]: None for row in rows}), rows)
    for name, takes in sets.items():
        if args.cpu_rounds == 0 or args.english_only and language_code(takes[0].language) != "en":
            continue
        spent = cpu_each_way(takes, args.cpu_rounds)
        print(f"{name}: {len(takes)} clean takes, measure_takes CPU a take: "
              + ", ".join(f"{way} {seconds / len(takes):.3f} s" for way, seconds in spent.items()))
    if args.json:
        atomic_write_text(args.json, json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How many translated lines fit their slots, before and after the shorter retry: a protocol figure.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/translation_fit.py RECORDING.wav [...] [--to en]
                                       [--condense 0.75] [--json OUT.json]

Each recording (real Chinese speech) is transcribed by Whisper base (``transcribe_media``, the
language forced to zh), and its timed lines are translated through the real chat translator
(``engine.translation.chat``) with each line's budget from the language table, against a local
chat-completions server that stands in for a model. **No language model runs here.** The server
answers each line with text of a realistic length: the source line's characters times the
letters-per-character ratio of a real translation pair, taken in turn from the project's parallel
texts (resources/texts/zh and resources/texts/en: the same lines in both languages). Asked for a
shorter version, it answers ``--condense`` times the length it gave (an assumption about how far
a model shortens, stated with the figures; try several). The words are filler: only lengths are
measured. Prints, per recording and in all, the lines within budget at first and after the retry.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any

from engine.core.paths import RESOURCES
from engine.translation.chat import ChatTranslator, Endpoint
from engine.translation.lines import SourceLine, measure
from tests.engine.translation.chat_server import Asked, answer, chat_server


def parallel_ratios() -> list[tuple[float, str]]:
    """(English letters per Chinese character, the English) of each parallel pair of the texts."""
    pairs = []
    for name in ("short", "medium", "long"):
        read = [[line for line in (RESOURCES / "texts" / lang / f"{name}.txt").read_text("utf-8").splitlines()
                 if line.strip() and not line.startswith("#")] for lang in ("en", "zh")]
        pairs += [(measure(en, "letters") / measure(zh, "characters"), en) for en, zh in zip(*read)]
    return pairs


def filler(letters: int, words: itertools.cycle[str]) -> str:
    """English words from the parallel texts until ``letters`` letters are reached."""
    out: list[str] = []
    while measure(" ".join(out), "letters") < letters:
        out.append(next(words))
    return " ".join(out)


def transcribed_lines(path: Path) -> list[SourceLine]:
    from engine.hearing.transcribe import Options, transcribe_media
    from engine.hearing.whisper import load_whisper
    from engine.voiceprint.encoder import SpeakerEncoder

    heard = transcribe_media(path, load_whisper("base", "cpu"), SpeakerEncoder(), Options(language="zh"))
    return [SourceLine(f"{path.stem}-{n}", line.text, f"Speaker {line.speaker + 1}", None, line.start, line.end)
            for n, line in enumerate(heard.lines, 1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("recordings", nargs="+", type=Path)
    parser.add_argument("--to", default="en")
    parser.add_argument("--condense", type=float, action="append", default=None,
                        help="the share of its length a shorter version keeps (repeatable; default 0.75)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    from app.project.model import Line
    from app.project.translation import budget_for

    ratios = parallel_ratios()
    lines = [line for path in args.recordings for line in transcribed_lines(path)]
    budgeted = [SourceLine(line.id, line.text, line.speaker,
                           budget_for(Line(line.id, line.text, start=line.start, end=line.end), args.to),
                           line.start, line.end) for line in lines]
    report: dict[str, Any] = {"to": args.to, "lines": len(budgeted), "pairs": len(ratios),
                              "ratio_mean": sum(r for r, _ in ratios) / len(ratios), "runs": []}
    for condense in args.condense or [0.75]:
        turn = itertools.cycle(ratios)
        words = itertools.cycle(" ".join(en for _, en in ratios).split())

        def script(asked: Asked, condense: float = condense) -> tuple[int, Any, dict[str, str]]:
            if asked.shortening:
                return answer({n: filler(max(1, int(measure(entry["text"], "letters") * condense)), words)
                               for n, entry in asked.lines.items()})
            texts = {}
            for n, entry in asked.lines.items():
                ratio, _ = next(turn)
                texts[n] = filler(max(1, round(measure(entry["text"], "characters") * ratio)), words)
            return answer(texts)

        with chat_server(script) as server:
            chat = ChatTranslator(Endpoint(server.url, "scripted"), backoff_s=0.01)
            done = chat.translate(budgeted, {line.id for line in budgeted}, "zh", args.to)
        with_budget = [result for result in done if result.budget is not None]
        first = sum(1 for r in with_budget if r.budget is not None and (r.first_length or 0) <= r.budget.limit)
        after = sum(1 for r in with_budget if r.fits)
        run = {"condense": condense, "with_budget": len(with_budget), "fit_first": first, "fit_after": after,
               "asked_shorter": sum(1 for r in with_budget if r.shortened), "requests": chat.requests,
               "per_line": [{"id": r.id, "limit": r.budget.limit if r.budget else None, "first": r.first_length,
                             "after": r.length} for r in with_budget]}
        report["runs"].append(run)
        print(f"condense {condense:.2f}: {len(with_budget)} lines with a slot; within budget {first} at first, "
              f"{after} after asking {run['asked_shorter']} for a shorter version ({chat.requests} requests)")
    print(f"{len(lines)} lines transcribed from {len(args.recordings)} recording(s); "
          f"{len(ratios)} parallel pairs, {report['ratio_mean']:.2f} English letters per Chinese character on average")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

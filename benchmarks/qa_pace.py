"""Does take QA keep pace with the render? (a benchmark, not a test; issue 33)

Each round renders every line of a copy of the sample project (repeated) through one warm engine
(voices prepared, two slots), several ways in one run (--kinds chooses): alone, as ``dubstudio render`` does; with
``--qa``'s low-priority QA process checking one take at a time (as before packing); with it
packing the takes waiting for it into shared Whisper windows and decoding them (as before
confirming: ``DUBSTUDIO_QA_CONFIRM=0``); packing them and confirming each take's text by
forced alignment in the packed windows before decoding any (``DUBSTUDIO_QA_CONFIRM=packed``);
confirming each take first alone in a window its own size (``=alone``); today's QA (alone or
packed first by expected cost); today's at the render's priority (nice 0, not 19); and today's at
each nice value of --niceness (kinds "qa nice N", so several priorities compare in one run). For each take it notes when the
take landed and when its verdict came. Figures: the render alone; render and QA to the last
verdict, as a multiple of the render alone (goal: at most 2x); and how long after a take landed
its verdict came (goal at steady state: 2 s). The process is pinned to two cores.
``--breakdown`` then hears each line's last take again in this process as the QA process hears a
streamed take and says which path decided it (confirmed alone; decoded in its own take-sized
window and kept; or its own 30 s hearing), the error rate as finally heard, and the CPU it cost
(docs/qa.md, "Chinese takes behind a render").

Run: OMP_NUM_THREADS=1 .venv/bin/python benchmarks/qa_pace.py [--rounds 1] [--repeat 2] [--recogniser-model base] [--json OUT]
     [--script benchmarks/data/zh_dialogue_4.txt --language zh]
     [--kinds "qa" ...] [--niceness 19 10 5 0] [--breakdown]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.project.project import Project
from app.project.qa import MAX_BATCH, QA_NICENESS, QaWorker, read_take, request_for
from benchmarks import common
from engine.core.files import atomic_write_text
from engine.core.languages import language_code
from engine.hearing.qa.checks import TakeToMeasure, listening_language, measure_takes
from engine.hearing.qa.recognise import (
    CONFIRM_ENV,
    PACKED_TRUSTED_ERROR,
    QUICK_CONFIRM_MEAN_LOG_PROB,
    QUICK_CONFIRM_MIN_LOG_PROB,
    quick_confirmer,
    whisper_recogniser,
)
from engine.hearing.qa.wer import error_rate
from engine.synthesis.client.local import EngineClient
from engine.synthesis.config import EngineConfig

KINDS = ("render", "qa one by one", "qa packed", "qa confirmed", "qa alone first", "qa", "qa same priority")
# How each QA process is started (DUBSTUDIO_QA_CONFIRM): "0" as before confirming, "packed" as
# before confirming in take-sized windows, "alone" each take alone first, "" today's (alone or
# packed first by expected cost); "qa same priority" is today's at nice 0 instead of 19.
CONFIRMING = {"qa one by one": "0", "qa packed": "0", "qa confirmed": "packed", "qa alone first": "alone", "qa": "",
              "qa same priority": ""}


def main() -> int:
    parser = common.round_arguments(__doc__.splitlines()[0], rounds=1, repeat=2, order="the order rotates")
    parser.add_argument("--without-one-by-one", action="store_true",
                        help="leave out the one-take-at-a-time QA (minutes on a loaded machine)")
    parser.add_argument("--kinds", nargs="+", choices=KINDS[1:], help="only these ways of QA (after the render alone)")
    parser.add_argument("--niceness", nargs="+", type=int, default=[], metavar="N", choices=range(20),
                        help="also today's QA at each of these nice values (0-19), as kinds \"qa nice N\"")
    parser.add_argument("--script", type=Path, metavar="FILE",
                        help="say these lines (one a line, '#' comments) instead of the sample's, in turn")
    parser.add_argument("--language", default="", metavar="CODE", help="with --script: the lines' language")
    parser.add_argument("--breakdown", action="store_true",
                        help="then say, take by take, which hearing decided it, its error rate and its CPU")
    args = parser.parse_args()
    kinds = tuple(kind for kind in KINDS if not (args.without_one_by_one and kind == "qa one by one")
                  and (args.kinds is None or kind == "render" or kind in args.kinds))
    if args.kinds is None and args.niceness:
        kinds = ("render",)  # only the priorities asked for
    nice_kinds = {f"qa nice {n}": n for n in dict.fromkeys(args.niceness)}
    kinds += tuple(nice_kinds)
    niceness = {kind: 0 if kind == "qa same priority" else nice_kinds.get(kind, QA_NICENESS) for kind in kinds}

    cores = common.pin_to_cores(common.TARGET_CORES)

    totals: dict[str, list[float]] = {kind: [] for kind in kinds}
    renders: dict[str, list[float]] = {kind: [] for kind in kinds}
    waits: dict[str, list[float]] = {kind: [] for kind in kinds}
    qa_cpu: dict[str, list[float]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory(prefix="dubstudio-qa-pace-") as tmp:
        project = common.repeated_sample(Path(tmp) / "sample", args.repeat, args.script, args.language)
        client = EngineClient(EngineConfig(slots=2, cache_dir=str(Path(tmp) / "cache")))
        client.start()
        workers = {kind: QaWorker(max_batch=1 if kind == "qa one by one" else MAX_BATCH,
                                  niceness=niceness[kind]) for kind in kinds[1:]}
        try:
            common.render_round(client, project, None, args.recogniser_model)  # warm-up: voices prepared
            for kind, worker in workers.items():  # each QA process started and its models loaded, on one take
                line = project.lines[0]
                take = project.chosen_take(line)
                assert take is not None
                os.environ[CONFIRM_ENV] = CONFIRMING.get(kind, "")  # the process inherits it
                worker.submit(request_for(project, line, take, args.recogniser_model))
                while worker.pending:
                    worker.poll(timeout=1.0)
            os.environ.pop(CONFIRM_ENV)
            for n in range(args.rounds):
                for kind in kinds[n % len(kinds):] + kinds[:n % len(kinds)]:
                    rendered, total, take_waits, cpu = common.render_round(client, project, workers.get(kind),
                                                                    args.recogniser_model)
                    qa_cpu[kind].append(cpu)
                    renders[kind].append(rendered)
                    totals[kind].append(total)
                    waits[kind] += take_waits
                    print(f"  {kind}: render {rendered:.2f} s, last verdict {total:.2f} s, QA CPU {cpu:.1f} s",
                          flush=True)
        finally:
            for worker in workers.values():
                worker.close()
            client.close()
        takes = breakdown(project, args.recogniser_model) if args.breakdown else []
    audio_s = sum(take.duration_s for line in project.lines for take in line.takes[-1:])
    render_alone = statistics.median(totals["render"])
    figures: dict[str, object] = {
        "cores": cores, "lines": len(project.lines), "audio_s": round(audio_s, 2), "rounds": args.rounds,
        "recogniser_model": args.recogniser_model,
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
    }
    print(f"{args.script.name if args.script else 'Sample project'} x {args.repeat}: {len(project.lines)} lines, {audio_s:.1f} s of audio, {cores} cores, "
          f"Whisper {args.recogniser_model}, {args.rounds} round(s); load average {figures['load_average']}")
    print(f"{'':16}{'render s':>10}{'last verdict s':>16}{'x render alone':>16}"
          f"{'wait median s':>15}{'wait p90 s':>12}{'wait max s':>12}")
    for kind in kinds:
        total = statistics.median(totals[kind])
        row = {"render_s": round(statistics.median(renders[kind]), 2), "last_verdict_s": round(total, 2),
               "times_render_alone": round(total / render_alone, 2),
               "qa_cpu_s_per_take": round(statistics.median(qa_cpu[kind]) / len(project.lines), 3)}
        shown = f"{kind:16}{row['render_s']:>10.2f}{row['last_verdict_s']:>16.2f}{row['times_render_alone']:>16.2f}"
        if waits[kind]:
            ordered = sorted(waits[kind])
            row |= {"wait_median_s": round(statistics.median(ordered), 2),
                    "wait_p90_s": round(ordered[int(0.9 * (len(ordered) - 1))], 2), "wait_max_s": round(ordered[-1], 2)}
            shown += f"{row['wait_median_s']:>15.2f}{row['wait_p90_s']:>12.2f}{row['wait_max_s']:>12.2f}"
        figures[kind] = row
        print(shown)
    for kind in kinds[1:]:
        print(f"{kind}: the QA process used {figures[kind]['qa_cpu_s_per_take']:.2f} s of CPU a take")  # type: ignore[index]
    print("goals: render and QA at most 2x the render alone; a verdict within 2 s of its take at steady state")
    figures["takes"] = takes  # --breakdown's, take by take
    if args.json:
        atomic_write_text(Path(args.json), json.dumps(figures, indent=2) + "\n")
    return 0


def breakdown(project: Project, model: str) -> list[dict[str, object]]:
    """Each line's last take heard again here as the QA process hears a streamed take: which
    path decided it, the error rate as finally heard, the CPU s of that hearing; then, for a take
    not confirmed alone, what its take-sized window decoded (the encodings are kept, so these
    look-ups cost little and change nothing)."""
    print("take by take (the QA process's streamed path, heard again here):")
    print(f"{'line':>5} {'character':10} {'s':>5} {'path':28} {'error':>6} {'CPU s':>6}  take-window decode (error)")
    rows: list[dict[str, object]] = []
    whisper = whisper_recogniser(model)
    warm = True
    for number, line in enumerate(project.lines):
        take = project.chosen_take(line)
        assert take is not None
        request = request_for(project, line, take, model)
        pcm, rate = read_take(request.take_path)
        to_measure = [TakeToMeasure(pcm, rate, request.text, request.language)]
        if warm:  # the models loaded before the first figure
            measure_takes(to_measure, None, model, streamed=True)
            warm = False
        started = time.process_time()
        checks = measure_takes(to_measure, None, model, streamed=True)[0]
        cpu = time.process_time() - started
        code = language_code(listening_language(request.language, request.text)) or "en"
        quick = quick_confirmer(whisper, code)
        quick_bars = (QUICK_CONFIRM_MIN_LOG_PROB, QUICK_CONFIRM_MEAN_LOG_PROB)
        decoded, decoded_error = "", None
        if quick is not None and quick.score_alone(pcm, rate, code, request.text, quick_bars)[2].confirmed_quickly:
            path = f"confirmed alone ({quick.model})"
        elif (score := whisper.score_alone(pcm, rate, code, request.text)[2]).confirmed:
            path = "confirmed alone"
        else:
            decoded = whisper.decode_alone(pcm, rate, code, request.text) if score.heard_in_language else ""
            decoded_error = round(error_rate(request.text, decoded, code), 3) if decoded else None
            kept = decoded_error is not None and decoded_error <= PACKED_TRUSTED_ERROR
            path = "take-window decode kept" if kept else "its own 30 s hearing"
        row: dict[str, object] = {"line": number, "character": line.character_id, "text": request.text, "duration_s": checks.duration_s,
               "path": path, "heard": checks.transcript, "error": checks.wer, "cpu_s": round(cpu, 3),
               "take_window_decode": decoded, "take_window_error": decoded_error}
        rows.append(row)
        shown = f"{decoded} ({decoded_error})" if decoded else ""
        print(f"{number:>5} {line.character_id or '':10} {checks.duration_s:>5.2f} {path:28} "
              f"{checks.wer if checks.wer is not None else float('nan'):>6.3f} {cpu:>6.2f}  {shown}", flush=True)
        if checks.transcript != request.text:
            print(f"{'':6}line: {request.text}  heard: {checks.transcript}")
    return rows


if __name__ == "__main__":
    sys.exit(main())

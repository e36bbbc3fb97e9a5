"""What take QA costs a render: the sample project rendered with and without QA in one run
(a benchmark, not a test).

Each round renders every line of a copy of the sample project through one warm engine (voices
prepared, two slots), once as ``dubstudio render`` does and once with ``--qa``'s low-priority
QA process checking each take as it lands. The order alternates between rounds so drift in the
machine's load falls on both sides; medians are compared. The render time is submit to last
take; "QA done" is how much later the last check arrived. The process is pinned to two cores
(the target machine) when more exist.

Run: .venv/bin/python benchmarks/qa_render_cost.py [--rounds 5] [--repeat 3] [--recogniser-model base] [--json OUT.json]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.project.qa import QaWorker
from benchmarks import common
from engine.core.files import atomic_write_text
from engine.synthesis.client.local import EngineClient
from engine.synthesis.config import EngineConfig


def main() -> int:
    parser = common.round_arguments(__doc__.splitlines()[0], rounds=5, repeat=3, order="alternating")
    args = parser.parse_args()

    cores = common.pin_to_cores(common.TARGET_CORES)

    with tempfile.TemporaryDirectory(prefix="dubstudio-qa-bench-") as tmp:
        project = common.repeated_sample(Path(tmp) / "sample", args.repeat)
        client = EngineClient(EngineConfig(slots=2, cache_dir=str(Path(tmp) / "cache")))
        client.start()
        qa = QaWorker()
        try:
            common.render_round(client, project, qa, args.recogniser_model)  # warm-up: voices prepared, QA models loaded
            plain: list[float] = []
            with_qa: list[float] = []
            qa_done: list[float] = []
            for n in range(args.rounds):
                for kind in (("plain", "qa") if n % 2 == 0 else ("qa", "plain")):
                    if kind == "plain":
                        plain.append(common.render_round(client, project, None, args.recogniser_model)[0])
                    else:
                        rendered, checked, _, _ = common.render_round(client, project, qa, args.recogniser_model)
                        with_qa.append(rendered)
                        qa_done.append(checked - rendered)
        finally:
            qa.close()
            client.close()
    audio_s = sum(take.duration_s for line in project.lines for take in line.takes[-1:])
    figures = {
        "cores": cores,
        "lines_per_round": len(project.lines),
        "audio_s_per_round": round(audio_s, 2),
        "rounds": args.rounds,
        "recogniser_model": args.recogniser_model,
        "render_s_median": round(statistics.median(plain), 3),
        "render_with_qa_s_median": round(statistics.median(with_qa), 3),
        "slowdown": round(statistics.median(with_qa) / statistics.median(plain) - 1.0, 4),
        "qa_done_after_render_s_median": round(statistics.median(qa_done), 3),
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
    }
    print(f"Sample project × {args.repeat}: {figures['lines_per_round']} lines, {audio_s:.1f} s of audio a round, "
          f"{cores} cores, {args.rounds} rounds of each (alternating); load average {figures['load_average']}")
    print(f"{'':28}{'median s':>10}")
    print(f"{'render':28}{figures['render_s_median']:>10.2f}")
    print(f"{'render with QA':28}{figures['render_with_qa_s_median']:>10.2f}")
    print(f"{'QA done after the render':28}{figures['qa_done_after_render_s_median']:>10.2f}")
    print(f"slowdown of rendering by QA: {figures['slowdown']:+.1%} (target: at most +15 %)")
    print("all rounds (s): render " + " ".join(f"{x:.2f}" for x in plain)
          + " | with QA " + " ".join(f"{x:.2f}" for x in with_qa))
    if args.json:
        atomic_write_text(Path(args.json), json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# The CosyVoice2 hardware probe on this machine, in one command.
#
#   bash benchmarks/gpu_probe.sh [OUT_DIR] [extra `dubstudio bench` options ...]
#
# 1. builds the studio's .venv and the CosyVoice engine environment (.venv-cosyvoice) if needed;
# 2. builds the full-size synthetic CosyVoice2-0.5B folder (the released parameter counts,
#    random weights: speech is noise, the work and so the timing are real; 4.3 GB, ~1 min)
#    in the user's data folder if it is missing;
# 3. runs `dubstudio bench --probe cosyvoice2` at concurrency levels 1, 2, 4, 8, 16 (closed
#    loop, 60 s per level, stopping at the first level that misses the objective) and writes
#    probe.json, probe.csv, jobs.csv, probe.html and the printed table (probe.txt) to OUT_DIR
#    (default test-artifacts/gpu-probe-DATE), with the device facts and nvidia-smi beside them;
# 4. runs the same bench again at every level (no stop at a miss) unbatched (max_batch=1) and
#    batched (max_batch=$BATCH, default 8), and writes one table of both (batching.txt, and
#    batching-1.json / batching-B.json): first audio p50/p95, stalls, audio s/s per level,
#    batched over unbatched per level, and the ratio the batching issue asks for (8-user p95
#    over 1-user p95). A run that fails leaves its log and the table shows the other.
#    Set BATCHING=0 to skip it; BATCHING_JOBS sets jobs per level (default 16).
#
# Extra options go to the bench, e.g. `--backend-option fp16=true`, `--slots 8`,
# `--model-dir DIR` (a real model), `--objective-p95-first-audio 1.0`.
#
# On a CUDA machine the environment needs torch built with CUDA: scripts/cosyvoice-env installs
# torch==2.13.0 from the configured package index (PyPI's Linux wheel is a CUDA build; the
# build machines' local index holds a CPU build). device.json says what torch sees.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/test-artifacts/gpu-probe-$(date +%Y%m%d-%H%M%S)"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then  # a first argument that is not an option: OUT_DIR
  out="$1"
  shift
fi
mkdir -p "$out"
"$root/scripts/bootstrap"
"$root/scripts/cosyvoice-env"
cd "$root"

{ date -u +%FT%TZ; uptime; } | tee "$out/uptime.txt"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi | tee "$out/nvidia-smi.txt"
else
  echo "gpu_probe: no nvidia-smi here: the probe measures the CPU" | tee "$out/nvidia-smi.txt"
fi
.venv-cosyvoice/bin/python -m engine.synthesis.backends.device | tee "$out/device.json"

.venv/bin/dubstudio bench --probe cosyvoice2 --levels 1,2,4,8,16 \
  --json "$out/probe.json" --csv "$out/probe.csv" --jobs-csv "$out/jobs.csv" --html "$out/probe.html" \
  "$@" | tee "$out/probe.txt"

if [ "${BATCHING:-1}" != "0" ]; then
  batch="${BATCH:-8}"
  for max_batch in 1 "$batch"; do  # every level, whatever the objective says
    # a run that fails (out of memory at 16 users, say) leaves its log; the table shows the other
    if ! .venv/bin/dubstudio bench --probe cosyvoice2 --levels 1,2,4,8,16 --jobs-per-level "${BATCHING_JOBS:-16}" \
      --objective-p95-first-audio 3600 --objective-max-stalls 1000000 --objective-max-error-rate 1 \
      --backend-option "max_batch=$max_batch" --json "$out/batching-$max_batch.json" "$@" \
      > "$out/batching-$max_batch.log" 2>&1; then
      echo "gpu_probe: the max_batch=$max_batch run failed: see $out/batching-$max_batch.log"
    fi
  done
  .venv/bin/python - "$out/batching-1.json" "$out/batching-$batch.json" "$batch" <<'EOF' | tee "$out/batching.txt"
import json, os, sys
unbatched, batched = (json.load(open(path)) if os.path.exists(path) else {"levels": []} for path in sys.argv[1:3])
names = ("max_batch=1", f"max_batch={sys.argv[3]}")
# by level, so a level one run lacks (stopped, failed to start) leaves a gap, not a shifted row
rows = {name: {row["level"]: row for row in report["levels"]} for name, report in zip(names, (unbatched, batched))}
print(f"{'users':>6}{'variant':>14}{'jobs':>6}{'err':>5}{'1st p50':>9}{'p95':>8}{'stalls/job':>12}{'audio s/s':>11}")
for level in sorted(set().union(*rows.values())):
    for name in names:
        row = rows[name].get(level)
        if row is None:
            print(f"{level:6d}{name:>14}  (not run)")
            continue
        fa = row["first_audio_s"]
        print(f"{level:6d}{name:>14}{row['jobs']:6d}{row['errors']:5d}{fa['p50'] or 0:9.2f}{fa['p95'] or 0:8.2f}"
              f"{row['stalls_per_job']:12.2f}{row['audio_per_wall_s']:11.2f}")
    one, many = (rows[name].get(level) for name in names)
    if one and many and one["audio_per_wall_s"] and one["first_audio_s"]["p95"] and many["first_audio_s"]["p95"]:
        print(f"{'':6}{'ratio':>14}  audio s/s {many['audio_per_wall_s'] / one['audio_per_wall_s']:.2f}x, "
              f"first-audio p95 {many['first_audio_s']['p95'] / one['first_audio_s']['p95']:.2f}x")
for name in names:
    p95 = {level: row["first_audio_s"]["p95"] for level, row in rows[name].items()}
    if p95.get(1) and p95.get(8):
        print(f"{name}: first-audio p95 at 8 users / 1 user = {p95[8] / p95[1]:.2f} (issue 22 asks <= 1.5 batched)")
EOF
fi
echo "gpu_probe: reports in $out"

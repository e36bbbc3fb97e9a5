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
#    (default test-artifacts/gpu-probe-DATE), with the device facts and nvidia-smi beside them.
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
.venv-cosyvoice/bin/python -m engine.backends.device | tee "$out/device.json"

.venv/bin/dubstudio bench --probe cosyvoice2 --levels 1,2,4,8,16 \
  --json "$out/probe.json" --csv "$out/probe.csv" --jobs-csv "$out/jobs.csv" --html "$out/probe.html" \
  "$@" | tee "$out/probe.txt"
echo "gpu_probe: reports in $out"

#!/usr/bin/env bash
# The GPU check of the EGL backend, as one short script for a machine with an NVIDIA GPU (run from
# the repository root): release build, the backends it can open, the full parity matrix and 200
# random parity cases per scene on the GPU, and render + readback throughput at 64, 512, 1024 and
# 2048 px — frames in stacks (many per draw and per readback, as render and batch draw them), one
# per draw, and one per draw through the PBO ring.
# Results land in ${OUT:-gpu-check}/.
set -euo pipefail
out="${OUT:-gpu-check}"
mkdir -p "$out"
scripts/setup
swift build -c release 2>&1 | tail -3
bin=.build/release/throbber
"$bin" info | tee "$out/info.txt"
"$bin" info --json > "$out/info.json"
# The first hardware EGL device (not Mesa's software one).
device=$("$bin" info --json | python3 -c 'import json,sys; r=json.load(sys.stdin); d=[e["device"]["index"] for e in r["entries"] if e.get("device") and e["available"] and "EGL_MESA_device_software" not in e["device"]["extensions"]]; print(d[0] if d else "")')
if [ -z "$device" ]; then echo "gpu-check: no hardware EGL device" | tee "$out/error.txt"; exit 69; fi
"$bin" parity --backend egl --device "$device" --quiet --json "$out/parity.json" --out "$out/parity-failures" | tee "$out/parity.txt" || true
"$bin" parity --backend egl --device "$device" --random 200 --seed 1 --quiet --json "$out/parity-random.json" \
    --out "$out/parity-random-failures" | tee "$out/parity-random.txt" || true
"$bin" bench --backends egl --device "$device" --sizes 64,512,1024,2048 --frames 256 --repeat 3 \
    --stages render,readback,frame,frame1,async --no-startup --json "$out/bench.json" --plot "$out/bench.svg" | tee "$out/bench.md"

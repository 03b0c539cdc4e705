#!/usr/bin/env bash
# The GPU check of the EGL backend, as one short script for a machine with an NVIDIA GPU (run from
# the repository root): release build, the backends it can open, the full parity matrix on the
# GPU, and render + readback throughput at 512, 1024 and 2048 px, sync and through the PBO ring.
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
"$bin" bench --backends egl --device "$device" --sizes 512,1024,2048 --frames 120 --repeat 3 \
    --stages render,readback,frame,async --no-startup --json "$out/bench.json" --plot "$out/bench.svg" | tee "$out/bench.md"

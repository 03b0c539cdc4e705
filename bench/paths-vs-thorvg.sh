#!/usr/bin/env bash
# Throbber's CPU renderer against ThorVG's software renderer on the same path-heavy scene, one
# thread each, render only (issue 48's speed target: Throbber CPU ≤ 1.5× ThorVG), with the GL
# renderer on llvmpipe beside them, and both PNGs compared as a check that they draw the same.
#
#     bench/paths-vs-thorvg.sh            (after `swift build -c release`)
#
# The scene is bench/scenes/paths-512.scene.json (bench/make-path-scene.py, seed 48): 512 px, 64
# random closed paths of 40 cubics filled, 16 stroked. bench/paths-vs-thorvg.py reads that file
# and draws its shapes with thorvg-python (PyPI, ThorVG 1.x) in a virtual environment made here,
# .build/thorvg-venv (VENV). Every program runs under `taskset -c 0` (CPU: one core); ThorVG with
# Engine(threads=0), llvmpipe with LP_NUM_THREADS=0 (it rasterises on the calling thread).
# Settings (environment): SCENE, ITERATIONS (ThorVG frames timed per mode, 100), FRAMES (throbber
# bench --frames, 60), REPEAT (3), GL (1; 0 leaves GL out), GL_FRAMES (3, one repeat: a GL frame
# of this scene takes seconds on llvmpipe), CORE (0), THROBBER (.build/release/throbber), VENV,
# KEEP (a directory to keep the PNGs and JSON in). bench/README.md "Paths against ThorVG" says more.
set -euo pipefail
cd "$(dirname "$0")/.."
scene=${SCENE:-bench/scenes/paths-512.scene.json}
iterations=${ITERATIONS:-100}
frames=${FRAMES:-60}
repeat=${REPEAT:-3}
core=${CORE:-0}
throbber=${THROBBER:-.build/release/throbber}
gl=${GL:-1}
gl_frames=${GL_FRAMES:-3}
venv=${VENV:-.build/thorvg-venv}
[ -x "$throbber" ] || { echo "paths-vs-thorvg: $throbber is missing: run 'swift build -c release' first" >&2; exit 1; }
if ! "$venv/bin/python" -c 'import thorvg_python, numpy, PIL' 2>/dev/null; then
    echo "paths-vs-thorvg: making $venv with thorvg-python, numpy and pillow (PyPI)" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q thorvg-python numpy pillow
fi
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
trap '[ -z "${KEEP:-}" ] && rm -rf "$work"' EXIT
one="taskset -c $core"

echo "ThorVG (software, threads 0), $iterations frames per mode ..." >&2
$one "$venv/bin/python" bench/paths-vs-thorvg.py "$scene" --iterations "$iterations" --png "$work/thorvg.png" > "$work/thorvg.json"
echo "throbber bench --backends cpu (one core) ..." >&2
$one "$throbber" bench --scenes "$scene" --sizes 512 --backends cpu --stages render --frames "$frames" --repeat "$repeat" \
    --no-startup --json "$work/cpu.json" --overwrite > "$work/cpu.md"
"$throbber" render "$scene" --frames 1 --backend cpu -o "$work/cpu-frame" -q --overwrite
cpu_png=$(find "$work/cpu-frame" -name '*.png' | sort | head -1)
"$venv/bin/python" bench/paths-vs-thorvg.py --compare "$work/thorvg.png" "$cpu_png" > "$work/diff-thorvg-cpu.json"
if [ "$gl" != 0 ]; then
    echo "throbber bench --backends gl (llvmpipe, one core; slow: see bench/README.md) ..." >&2
    LP_NUM_THREADS=0 $one "$throbber" bench --scenes "$scene" --sizes 512 --backends gl --stages render,frame --frames "$gl_frames" \
        --repeat 1 --warmup 1 --no-startup --json "$work/gl.json" --overwrite > "$work/gl.md"
    "$throbber" render "$scene" --frames 1 --backend gl -o "$work/gl-frame" -q --overwrite
    gl_png=$(find "$work/gl-frame" -name '*.png' | sort | head -1)
    "$venv/bin/python" bench/paths-vs-thorvg.py --compare "$gl_png" "$cpu_png" > "$work/diff-gl-cpu.json"
fi

"$venv/bin/python" - "$work" "$scene" <<'PY'
import json, sys
work, scene = sys.argv[1], sys.argv[2]
tvg = json.load(open(f"{work}/thorvg.json"))
def row(name, stage):
    for r in json.load(open(f"{work}/{name}.json"))["rows"]:
        if r["stage"] == stage:
            return r
    raise SystemExit(f"paths-vs-thorvg: no {stage} row in {name}.json")
import os
cpu = row("cpu", "render")
gl_render = gl_frame = None
if os.path.exists(f"{work}/gl.json"):
    gl_render, gl_frame = row("gl", "render"), row("gl", "frame")
outlines = json.load(open(f"{work}/cpu.json")).get("pathOutlines") or []
full, recolour = tvg["timings"]["update+draw"], tvg["timings"]["recolour"]
def ms(v):
    return "" if v is None else f"{v:.2f}"
print(f"{scene}: {tvg['paths']} paths, {tvg['size'][0]}×{tvg['size'][1]} px, one core; ThorVG {tvg['thorvg']}")
print()
print("| renderer | median ms/frame | CPU ms/frame | note |")
print("|---|---:|---:|---|")
print(f"| ThorVG sw, every shape prepared again (update + draw) | {full['median_ms']:.2f} | {full['cpu_median_ms']:.2f} | outline, stroke, RLE and composition |")
print(f"| ThorVG sw, recoloured (RLE kept) | {recolour['median_ms']:.2f} | {recolour['cpu_median_ms']:.2f} | composition only |")
bands = cpu.get("paintedBands")
print(f"| Throbber CPU, render | {cpu['ms']['median']:.2f} | {ms(cpu.get('cpuMs'))} | "
      f"{'' if bands is None else f'{bands * 100:.0f} % of row bands painted; '}outlines built with the draw list, not timed |")
for o in outlines:
    print(f"| Throbber, the frame's outlines built from the curves (flatten, stroke) | {o['frameOutlinesMs']:.2f} | | not in the render above; kept across frames |")
    print(f"| Throbber CPU, render + outlines built | {cpu['ms']['median'] + o['frameOutlinesMs']:.2f} | | what a frame costs without the cache |")
if gl_render:
    print(f"| Throbber GL (llvmpipe), render | {gl_render['ms']['median']:.2f} | {ms(gl_render.get('cpuMs'))} | |")
    print(f"| Throbber GL (llvmpipe), frame (render + readback) | {gl_frame['ms']['median']:.2f} | {ms(gl_frame.get('cpuMs'))} | |")
print()
print(f"Throbber CPU render / ThorVG (update + draw): {cpu['ms']['median'] / full['median_ms']:.2f}× wall, "
      f"{cpu.get('cpuMs', float('nan')) / full['cpu_median_ms']:.2f}× CPU time (target ≤ 1.5×)")
for o in outlines:
    print(f"Throbber CPU render + outlines built / ThorVG (update + draw): {(cpu['ms']['median'] + o['frameOutlinesMs']) / full['median_ms']:.2f}× wall")
    print(f"Throbber's outline cache over the run: built {o['built']}, kept {o['kept']}, moved {o['moved']}")
d = json.load(open(f"{work}/diff-thorvg-cpu.json"))
print(f"PNG ThorVG vs Throbber CPU: mean {d['mean']:.3f}/255, max {d['max']}/255, pixels over 2/255 {d['pixels_over_2'] * 100:.2f} %")
if os.path.exists(f"{work}/diff-gl-cpu.json"):
    g = json.load(open(f"{work}/diff-gl-cpu.json"))
    print(f"PNG Throbber GL vs CPU: mean {g['mean']:.3f}/255, max {g['max']}/255")
PY

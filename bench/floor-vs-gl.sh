#!/usr/bin/env bash
# The C one-pass floor beside the Swift GL renderer's frame, in one run (bench/README.md).
#
# Builds bench/bare_osmesa, then for ROUNDS rounds and each size alternates: the floor drawing
# one frame per draw, the floor drawing BATCH frames per draw, and
# `throbber bench --stages frame,frame1 --backends gl` (render + readback per frame: frame in stacks
# as render and batch draw them, frame1 one frame per draw). All of them draw
# the frames t = i / 60, i = 0 … FRAMES − 1, after WARMUP warm-up frames. Prints each run's
# median ms per frame, then a table of the medians over rounds and the ratio throbber / floor.
#
# Run from anywhere in a clone, after `swift build -c release`:
#     bench/floor-vs-gl.sh
# Settings (environment): SIZES (default "512 64"), ROUNDS (3), FRAMES (300), WARMUP (30),
# BATCH (64), THROBBER (.build/release/throbber). Nothing else should run meanwhile: the
# figures move with any load on the 2 cores, which the script checks for before it starts.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${SIZES:-"512 64"}
rounds=${ROUNDS:-3}
frames=${FRAMES:-300}
warmup=${WARMUP:-30}
batch=${BATCH:-64}
throbber=${THROBBER:-.build/release/throbber}

if [ ! -x "$throbber" ]; then
    echo "floor-vs-gl: $throbber is missing: run 'swift build -c release' first" >&2
    exit 1
fi
bench/build.sh
busy() {  # builds, tests and other benchmarks: anything that takes a core from the measurement
    pgrep -a -f 'swift-build|swift-frontend|swiftc|swift-test|PackageTests|cc1|collect2|/ld |throbber |bare_osmesa' \
        | grep -v "^$$ " | cut -c1-120 || true
}
others=$(busy)
if [ -n "$others" ]; then
    echo "floor-vs-gl: warning: other work is running; the figures below will be noisy:" >&2
    echo "$others" >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results="$work/results.tsv"   # size, program, round, median ms

floor_median() {  # the `floor …` line's median_ms
    sed -n 's/^floor .* median_ms=\([0-9.]*\) .*/\1/p'
}

for round in $(seq 1 "$rounds"); do
    for size in $sizes; do
        m=$(bench/bare_osmesa --size "$size" --frames "$frames" --warmup "$warmup" --animate | floor_median)
        printf '%s\tfloor\t%s\t%s\n' "$size" "$round" "$m" >> "$results"
        m=$(bench/bare_osmesa --size "$size" --frames "$frames" --warmup "$warmup" --animate --batch "$batch" | floor_median)
        printf '%s\tbatch\t%s\t%s\n' "$size" "$round" "$m" >> "$results"
        "$throbber" bench --sizes "$size" --frames "$frames" --warmup "$warmup" --repeat 1 --stages frame,frame1 \
            --backends gl --no-startup --json "$work/bench.json" > /dev/null
        for stage in frame frame1; do
            m=$(python3 -c 'import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"] if r["stage"] == sys.argv[2] and r["backend"] == "gl"]
print("%.4f" % rows[0]["ms"]["median"])' "$work/bench.json" "$stage")
            printf '%s\t%s\t%s\t%s\n' "$size" "$stage" "$round" "$m" >> "$results"
        done
        echo "round $round, $size px: floor $(grep -P "^$size\tfloor\t$round\t" "$results" | cut -f4) ms," \
            "floor --batch $batch $(grep -P "^$size\tbatch\t$round\t" "$results" | cut -f4) ms," \
            "throbber gl frame (stacks) $(grep -P "^$size\tframe\t$round\t" "$results" | cut -f4) ms," \
            "frame1 (one per draw) $(grep -P "^$size\tframe1\t$round\t" "$results" | cut -f4) ms"
    done
done

others=$(busy)
if [ -n "$others" ]; then
    echo "floor-vs-gl: warning: other work was running when the measurements ended:" >&2
    echo "$others" >&2
fi
python3 - "$results" "$batch" "$frames" "$warmup" "${LP_NUM_THREADS:-unset}" <<'EOF'
import statistics, sys
path, batch, frames, warmup, threads = sys.argv[1:]
runs = {}
for line in open(path):
    size, program, _, ms = line.split("\t")
    runs.setdefault((int(size), program), []).append(float(ms))
print()
print(f"Median over rounds of each run's median ms per frame (render + readback), t = i/60 for "
      f"{frames} frames after {warmup} warm-up, LP_NUM_THREADS {threads}.")
print()
print(f"| px | C floor ms | C floor --batch {batch} ms | throbber frame1 ms | throbber frame (stacks) ms "
      f"| frame1 / floor | frame / floor --batch |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for size in sorted({s for s, _ in runs}, reverse=True):
    floor, batched, single, stacked = (statistics.median(runs[(size, p)]) for p in ("floor", "batch", "frame1", "frame"))
    print(f"| {size} | {floor:.4f} | {batched:.4f} | {single:.4f} | {stacked:.4f} | {single / floor:.2f} | {stacked / batched:.2f} |")
EOF

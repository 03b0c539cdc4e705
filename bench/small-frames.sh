#!/usr/bin/env bash
# Small frames against the file system's own ceiling, in one run (bench/README.md "Small frames").
#
# For each directory in DIRS and ROUNDS rounds, alternates:
#   - `throbber render wave-ball` writing FRAMES frames of SIZE px a side as PNG files there
#     (THROBBER; and BASELINE, an older binary to compare with, when given);
#   - the ceiling: a Python program that only creates, writes (as many bytes as throbber's
#     frames average), closes and renames FRAMES files there, one process per core, nothing else.
# Prints frames/s (files/s for the ceiling) for each run, then the median of each and the ratio
# to the ceiling. Each run starts from an empty directory (removed and made again).
#
#     bench/small-frames.sh          (after `swift build -c release`)
# Settings (environment): DIRS ("/dev/shm /tmp"), FRAMES (6000), SIZE (64), ROUNDS (3),
# THROBBER (.build/release/throbber), BASELINE (none).
set -euo pipefail
cd "$(dirname "$0")/.."
dirs=${DIRS:-"/dev/shm /tmp"}
frames=${FRAMES:-6000}
size=${SIZE:-64}
rounds=${ROUNDS:-3}
throbber=${THROBBER:-.build/release/throbber}
baseline=${BASELINE:-}
[ -x "$throbber" ] || { echo "small-frames: $throbber is missing: run 'swift build -c release' first" >&2; exit 1; }
[ -z "$baseline" ] || [ -x "$baseline" ] || { echo "small-frames: BASELINE $baseline is not an executable" >&2; exit 1; }
# The scale that makes the 300 pt view SIZE px (the canvas side is ceil(300·scale − 1e-9)).
scale=$(python3 -c "print('%.8f' % ($size / 300 - 0.5e-8))")
results=$(mktemp)
trap 'rm -f "$results"' EXIT

ceiling() {  # DIR BYTES → files/s
    python3 - "$1" "$frames" "$2" "$(nproc)" <<'EOF'
import os, sys, time
from multiprocessing import Pool
directory, count, size, processes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
payload = b"\0" * size
def work(indices):
    for i in indices:
        temporary = f"{directory}/f_{i:05d}.png.part"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, payload)
        os.close(fd)
        os.rename(temporary, f"{directory}/f_{i:05d}.png")
with Pool(processes) as pool:
    start = time.monotonic()
    pool.map(work, [range(p, count, processes) for p in range(processes)])
    print("%.0f" % (count / (time.monotonic() - start)))
EOF
}

for dir in $dirs; do
    work="$dir/throbber-small-frames.$$"
    bytes=3000
    for round in $(seq 1 "$rounds"); do
        for program in throbber ${baseline:+baseline} ceiling; do
            rm -rf "$work"
            mkdir -p "$work"
            case $program in
                ceiling) rate=$(ceiling "$work" "$bytes") ;;
                *)
                    binary=$throbber
                    [ "$program" = baseline ] && binary=$baseline
                    start=$(date +%s.%N)
                    "$binary" render wave-ball --frames "$frames" --scale "$scale" -o "$work/f" -q
                    end=$(date +%s.%N)
                    rate=$(echo "$frames / ($end - $start)" | bc)
                    total=$(find "$work/f" -name '*.png' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
                    bytes=$(( total / frames ))
                    ;;
            esac
            printf '%s round %d, %-8s %s per second\n' "$dir" "$round" "$program" "$rate"
            printf '%s\t%s\t%s\n' "$dir" "$program" "$rate" >> "$results"
        done
    done
    rm -rf "$work"
done
echo
echo "$frames wave-ball frames of ${size}×${size} px through render, median of $rounds rounds ($(nproc) cores):"
echo
echo "| directory | what | per second | ÷ ceiling |"
echo "|---|---|---:|---:|"
python3 - "$results" <<'EOF'
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
for directory in dict.fromkeys(r[0] for r in rows):
    medians = {p: statistics.median(float(r[2]) for r in rows if r[0] == directory and r[1] == p)
               for p in dict.fromkeys(r[1] for r in rows if r[0] == directory)}
    names = {"throbber": "throbber render (frames/s)", "baseline": "BASELINE render (frames/s)",
             "ceiling": "create, write, close, rename only (files/s)"}
    for program, value in medians.items():
        print("| %s | %s | %.0f | %.2f |" % (directory, names[program], value, value / medians["ceiling"]))
EOF

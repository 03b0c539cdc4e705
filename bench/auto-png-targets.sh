#!/usr/bin/env bash
# `auto` chooses the PNG writer from the frames (issue 49): two of its end-to-end checks, each
# program alternated with the other in every round, `throbber render` whole (draw, encode, write).
#
#  1. Twins: the built-in wave ball beside examples/scenes/wave-ball.scene.json, which draws the
#     same pixels, at 128, 512 and 1024 px: wall time of each, the file's over the built-in's per
#     round, and what auto chose for each (the report line's "PNG auto: …").
#  2. Scaling: the wave ball at 512, 1024 and 2048 px: ns per pixel each round, and 1024 px's and
#     2048 px's over 512 px's in the same round.
#
#     bench/auto-png-targets.sh            (after `swift build -c release`)
# Settings (environment): FRAMES (300), ROUNDS (3), OUT (a temporary directory; the frames are
# written there), THROBBER (.build/release/throbber). The cairo peer at 1024 px is
# `SIZE=1024 PROGRAMS=auto bench/peers/peer-vs-throbber.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
frames=${FRAMES:-300}
rounds=${ROUNDS:-3}
throbber=${THROBBER:-.build/release/throbber}
[ -x "$throbber" ] || { echo "auto-png-targets: $throbber is missing: run 'swift build -c release' first" >&2; exit 1; }
file=examples/scenes/wave-ball.scene.json
work=${OUT:-$(mktemp -d)}
mkdir -p "$work"
trap '[ -z "${OUT:-}" ] && rm -rf "$work"' EXIT

# SCENE SIZE → "seconds choice" (the view is 300 pt: the canvas side is ceil(300·scale − 1e-9)).
run() {
    local dir="$work/run" scale start end line
    rm -rf "$dir"
    scale=$(python3 -c "print('%.7f' % ($2 / 300 - 0.5e-7))")
    start=$(date +%s.%N)
    line=$("$throbber" render "$1" --frames "$frames" --scale "$scale" --backend cpu -o "$dir" 2>&1 >/dev/null)
    end=$(date +%s.%N)
    [ "$(find "$dir" -name '*.png' | wc -l)" -eq "$frames" ] || { echo "auto-png-targets: $1 at $2 px wrote the wrong number of files" >&2; exit 1; }
    echo "$(echo "$end - $start" | bc) $(echo "$line" | sed -n 's/.*; PNG auto: \([^(]*\) (.*/\1/p' | sed 's/ *$//')"
}

echo "## Twins: the built-in wave ball and $file, $frames frames, $rounds rounds"
echo
echo "| round | px | built-in s | file s | file ÷ built-in | built-in's choice | file's choice |"
echo "|---:|---:|---:|---:|---:|---|---|"
for round in $(seq 1 "$rounds"); do
    for size in 128 512 1024; do
        # Which goes first alternates with the round.
        if [ $((round % 2)) -eq 1 ]; then
            read -r tb cb < <(run wave-ball "$size"); read -r tf cf < <(run "$file" "$size")
        else
            read -r tf cf < <(run "$file" "$size"); read -r tb cb < <(run wave-ball "$size")
        fi
        printf '| %d | %d | %.3f | %.3f | %.3f | %s | %s |\n' "$round" "$size" "$tb" "$tf" "$(echo "$tf / $tb" | bc -l)" "$cb" "$cf"
    done
done
echo
echo "## Scaling: the wave ball, $frames frames, ns per pixel (wall time over frames × pixels)"
echo
echo "| round | 512 px ns/px | 1024 px ns/px | 2048 px ns/px | 1024 ÷ 512 | 2048 ÷ 512 | choices |"
echo "|---:|---:|---:|---:|---:|---:|---|"
for round in $(seq 1 "$rounds"); do
    declare -A ns=() choice=()
    order="512 1024 2048"
    [ $((round % 2)) -eq 0 ] && order="2048 1024 512"
    for size in $order; do
        read -r t c < <(run wave-ball "$size")
        ns[$size]=$(echo "$t * 1000000000 / ($frames * $size * $size)" | bc -l)
        choice[$size]=$c
    done
    printf '| %d | %.3f | %.3f | %.3f | %.2f | %.2f | %s; %s; %s |\n' "$round" "${ns[512]}" "${ns[1024]}" "${ns[2048]}" \
        "$(echo "${ns[1024]} / ${ns[512]}" | bc -l)" "$(echo "${ns[2048]} / ${ns[512]}" | bc -l)" "${choice[512]}" "${choice[1024]}" "${choice[2048]}"
done

#!/usr/bin/env bash
# The peer (cairo_wave_ball.py: pycairo, a process per core, cairo's PNG writer) beside
# `throbber render` on the same frames: FRAMES wave-ball frames of SIZE px at t = i/60, PNG files
# on disk. Alternates the programs for ROUNDS rounds and prints the median wall time of each,
# frames/s, the bytes written and the ratio to the peer. bench/README.md "The peer" says more.
#
#     bench/peers/peer-vs-throbber.sh            (after `swift build -c release`)
# Settings (environment): FRAMES (300), SIZE (512), ROUNDS (3), OUT (a temporary directory; the
# frames are written there, e.g. a tmpfs to leave the disk out), THROBBER (.build/release/throbber),
# PROGRAMS (which to run, of "peer auto gl libpng fast", the default; the peer always runs).
# Needs pycairo: Debian's python3-cairo (apt-get install python3-cairo) or `pip install pycairo`.
set -euo pipefail
cd "$(dirname "$0")/../.."
frames=${FRAMES:-300}
size=${SIZE:-512}
rounds=${ROUNDS:-3}
throbber=${THROBBER:-.build/release/throbber}
[ -x "$throbber" ] || { echo "peer-vs-throbber: $throbber is missing: run 'swift build -c release' first" >&2; exit 1; }
python=""
for candidate in python3 /usr/bin/python3; do
    if "$candidate" -c 'import cairo' 2>/dev/null; then python=$candidate; break; fi
done
[ -n "$python" ] || { echo "peer-vs-throbber: pycairo is missing: apt-get install python3-cairo (or pip install pycairo)" >&2; exit 1; }
work=${OUT:-$(mktemp -d)}
mkdir -p "$work"
trap '[ -z "${OUT:-}" ] && rm -rf "$work"' EXIT
# The scale that makes the 300 pt view SIZE px (the canvas side is ceil(300·scale − 1e-9)).
scale=$("$python" -c "print('%.7f' % ($size / 300 - 0.5e-7))")

declare -A names=(
    [peer]="pycairo script, $(nproc) processes, cairo's PNG writer"
    [auto]="throbber render (defaults: --backend auto, --png-encoder auto)"
    [gl]="throbber render --backend gl (OSMesa)"
    [libpng]="throbber render --png-encoder libpng (level 7, the earlier default)"
    [fast]="throbber render --png-encoder fast (isal 1)"
)
run() {  # program → seconds, files, bytes
    local dir="$work/$1"
    rm -rf "$dir"
    local start end
    start=$(date +%s.%N)
    case $1 in
        peer) "$python" bench/peers/cairo_wave_ball.py "$dir" --frames "$frames" --size "$size" ;;
        auto) "$throbber" render wave-ball --frames "$frames" --scale "$scale" -o "$dir" -q ;;
        gl) "$throbber" render wave-ball --frames "$frames" --scale "$scale" --backend gl -o "$dir" -q ;;
        libpng|fast) "$throbber" render wave-ball --frames "$frames" --scale "$scale" --png-encoder "$1" -o "$dir" -q ;;
    esac
    end=$(date +%s.%N)
    local count bytes
    count=$(find "$dir" -name '*.png' | wc -l)
    bytes=$(find "$dir" -name '*.png' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
    [ "$count" -eq "$frames" ] || { echo "peer-vs-throbber: $1 wrote $count files, not $frames" >&2; exit 1; }
    echo "$(echo "$end - $start" | bc) $bytes"
}
programs="peer $(echo "${PROGRAMS:-auto gl libpng fast}" | tr ' ' '\n' | grep -vx peer | tr '\n' ' ')"
for program in $programs; do
    [ -n "${names[$program]:-}" ] || { echo "peer-vs-throbber: unknown program '$program' in PROGRAMS: one of ${!names[*]}" >&2; exit 64; }
done
declare -A times=() sizes=()
for round in $(seq 1 "$rounds"); do
    for program in $programs; do
        read -r seconds bytes < <(run "$program")
        times[$program]+="$seconds "
        sizes[$program]=$bytes
        printf 'round %d, %-6s %6.2f s, %d bytes' "$round" "$program" "$seconds" "$bytes"
        # Each round's own ratio to the peer's time in the same round.
        if [ "$program" = peer ]; then peer_round=$seconds; echo; else printf ', %.2f× the peer\n' "$(echo "$peer_round / $seconds" | bc -l)"; fi
    done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
peer=$(echo "${times[peer]}" | median)
echo
echo "$frames wave-ball frames of ${size}×${size} px as PNG files, median of $rounds rounds ($(nproc) cores):"
echo
echo "| what | seconds | frames/s | KB on disk | frames/s ÷ peer's |"
echo "|---|---:|---:|---:|---:|"
for program in $programs; do
    t=$(echo "${times[$program]}" | median)
    printf '| %s | %.2f | %.0f | %d | %.2f |\n' "${names[$program]}" "$t" "$(echo "$frames / $t" | bc -l)" \
        "$(( ${sizes[$program]} / 1024 ))" "$(echo "$peer / $t" | bc -l)"
done

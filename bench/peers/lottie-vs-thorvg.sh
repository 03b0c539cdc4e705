#!/usr/bin/env bash
# Issue 50's speed targets: Throbber against ThorVG on a Lottie loader, in one run.
#   (a) the whole job: LOADER to a FRAMES-frame PNG sequence at SIZE px — the script a user would
#       write (bench/peers/lottie-peer.py pipeline: thorvg-python rendering, Pillow writing the
#       PNGs, a process per core) against `throbber render LOADER --frames N --scale S -o DIR`;
#       frames/s of each, and Throbber's over the peer's (aim ≥ 10×, moonshot 20×).
#   (b) render only, one thread, on one core (taskset): ThorVG's software renderer
#       (lottie-peer.py render, Engine(threads=0)) against `throbber bench --scenes LOADER
#       --backends cpu --stages render` (the CPU renderer on the calling thread); ms/frame of each
#       and Throbber's over ThorVG's (aim ≤ 1.5×, moonshot < 1).
# Frame k is t = k/60 s in both (Lottie frame ip + t·fr, the loader looping).
#
#     bench/peers/lottie-vs-thorvg.sh            (after `swift build -c release`)
#
# Settings (environment): LOADER (corpus/lottie/loader-spinner.json), FRAMES (300), SIZE (512),
# ROUNDS (3: the whole job alternates peer and Throbber, median of each), CORE (0), REPEAT (3,
# throbber bench --repeat), OUT (a directory for the frames; default a temporary one),
# THROBBER (.build/release/throbber), VENV (scripts/lottie-players' environment).
# Until Throbber reads Lottie files (`throbber render LOADER.json` exits 0) it runs the peer half
# and says so; PEER_ONLY=1 asks for that half alone.
set -euo pipefail
cd "$(dirname "$0")/../.."
loader=${LOADER:-corpus/lottie/loader-spinner.json}
frames=${FRAMES:-300}
size=${SIZE:-512}
rounds=${ROUNDS:-3}
core=${CORE:-0}
repeat=${REPEAT:-3}
throbber=${THROBBER:-.build/release/throbber}
python=$(scripts/lottie-players --print)
work=${OUT:-$(mktemp -d)}
mkdir -p "$work"
trap '[ -z "${OUT:-}" ] && rm -rf "$work"' EXIT

# The scale that makes the loader's longer side SIZE px (Throbber's canvas side is ceil(w·S − 1e-9)).
scale=$("$python" -c "import json,sys; d=json.load(open(sys.argv[1])); print(repr($size / max(d['w'], d['h'])))" "$loader")
with_throbber=1
if [ "${PEER_ONLY:-0}" = 1 ]; then
    with_throbber=0
elif [ ! -x "$throbber" ]; then
    echo "lottie-vs-thorvg: $throbber is missing (swift build -c release): the peer half only" >&2
    with_throbber=0
elif ! "$throbber" render "$loader" --frames 1 --scale "$scale" -o "$work/probe" -q --overwrite 2>"$work/probe.err"; then
    echo "lottie-vs-thorvg: throbber does not render $loader yet ($(head -1 "$work/probe.err")): the peer half only" >&2
    with_throbber=0
fi

count_pngs() { find "$1" -name '*.png' | wc -l; }
seconds_of() {  # command… → wall seconds
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

peer_times="" throbber_times=""
for round in $(seq 1 "$rounds"); do
    rm -rf "$work/peer"
    t=$(seconds_of "$python" bench/peers/lottie-peer.py pipeline "$loader" "$work/peer" --frames "$frames" --size "$size")
    [ "$(count_pngs "$work/peer")" -eq "$frames" ] || { echo "lottie-vs-thorvg: the peer wrote $(count_pngs "$work/peer") files, not $frames" >&2; exit 1; }
    peer_times+="$t "
    line="round $round: peer $(printf '%.2f' "$t") s"
    if [ "$with_throbber" = 1 ]; then
        rm -rf "$work/throbber"
        t=$(seconds_of "$throbber" render "$loader" --frames "$frames" --scale "$scale" -o "$work/throbber" -q)
        [ "$(count_pngs "$work/throbber")" -eq "$frames" ] || { echo "lottie-vs-thorvg: throbber wrote $(count_pngs "$work/throbber") files, not $frames" >&2; exit 1; }
        throbber_times+="$t "
        line+=", throbber $(printf '%.2f' "$t") s"
    fi
    echo "$line" >&2
done

echo "render only, one thread on core $core: ThorVG ..." >&2
taskset -c "$core" "$python" bench/peers/lottie-peer.py render "$loader" --frames "$frames" --size "$size" > "$work/thorvg-render.json"
if [ "$with_throbber" = 1 ]; then
    echo "render only, one thread on core $core: throbber bench --backends cpu --stages render ..." >&2
    taskset -c "$core" "$throbber" bench --scenes "$loader" --sizes "$size" --backends cpu --stages render \
        --frames "$frames" --repeat "$repeat" --no-startup --json "$work/throbber-bench.json" --overwrite > "$work/throbber-bench.md"
fi

peer=$(echo "$peer_times" | median)
"$python" - "$work" "$loader" "$frames" "$size" "$peer" "${throbber_times:-}" "$(nproc)" <<'PY'
import json, os, statistics, sys
work, loader, frames, size, peer, throbber_times, cores = sys.argv[1:8]
frames, peer = int(frames), float(peer)
tvg = json.load(open(f"{work}/thorvg-render.json"))
print(f"{loader}: {frames} frames at {size} px, {cores} cores; ThorVG {tvg['thorvg']}")
print()
print("| the whole job (PNG files on disk) | seconds | frames/s | ÷ peer |")
print("|---|---:|---:|---:|")
print(f"| peer: thorvg-python + Pillow, a process per core | {peer:.2f} | {frames / peer:.1f} | 1.00 |")
if throbber_times.strip():
    t = statistics.median(float(x) for x in throbber_times.split())
    print(f"| throbber render | {t:.2f} | {frames / t:.1f} | {peer / t:.2f} |")
print()
print("| render only, one thread | median ms/frame | CPU ms/frame | ÷ ThorVG |")
print("|---|---:|---:|---:|")
print(f"| ThorVG software (update + draw + sync) | {tvg['median_ms']:.3f} | {tvg['cpu_median_ms']:.3f} | 1.00 |")
bench = f"{work}/throbber-bench.json"
if os.path.exists(bench):
    rows = [r for r in json.load(open(bench))["rows"] if r["stage"] == "render"]
    if not rows:
        raise SystemExit("lottie-vs-thorvg: no render row in throbber bench's JSON")
    r = rows[0]
    cpu = r.get("cpuMs")
    print(f"| Throbber CPU renderer (throbber bench, render) | {r['ms']['median']:.3f} | {'' if cpu is None else f'{cpu:.3f}'} | "
          f"{r['ms']['median'] / tvg['median_ms']:.2f} |")
    print()
    t = statistics.median(float(x) for x in throbber_times.split())
    print(f"whole job: Throbber {peer / t:.2f}× the peer's frames/s (aim ≥ 10×, moonshot 20×)")
    print(f"render only: Throbber {r['ms']['median'] / tvg['median_ms']:.2f}× ThorVG's time (aim ≤ 1.5×, moonshot < 1×)")
else:
    print()
    print("Throbber's half did not run (it does not read Lottie files yet, or PEER_ONLY=1).")
PY

"""Renders Lottie files with several players and reports how far apart their frames are (issue 50).

See scripts/lottie-compare for the usage. The metric, per frame and per pair of players, on
premultiplied RGBA (each player's buffer made premultiplied: scripts/lottie/players.py):
  over  — the share of pixels whose largest channel difference exceeds 16/255;
  mean  — the mean absolute channel difference over every channel of every pixel, in /255.
A file's figure for a pair is its worst frame (largest `over`, then largest `mean`); the JSON
also holds the worst frame at each size (`by_size`).
The issue's target: against ThorVG, over ≤ 1 % and mean ≤ 2/255 on every frame; for a file that
corpus/lottie/reference.json sends to rlottie (a feature where ThorVG is wrong), against rlottie.
"""
import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import players as P  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CORPUS = os.path.join(ROOT, "corpus", "lottie")
OVER, MEAN = 0.01, 2.0


def parse_args(argv):
    p = argparse.ArgumentParser(prog="lottie-compare", description="Lottie players, frame by frame.")
    p.add_argument("files", nargs="*", help="Lottie files (default: corpus/lottie/*.json)")
    p.add_argument("--files", dest="more", default="", help="comma-separated files, added to the ones named")
    p.add_argument("--sizes", default="64,200,512", help="longest side in px, comma-separated (default 64,200,512)")
    p.add_argument("--times", default="", help="times in seconds from ip, comma-separated (default: 5 spread over "
                   "ip..op: 0, ¼ + ½ frame, ½, ¾ + ¼ frame, the last frame)")
    p.add_argument("--players", default="thorvg,rlottie,throbber",
                   help="of thorvg, rlottie, throbber, lottie-web (default thorvg,rlottie,throbber)")
    p.add_argument("--json", help="write every figure as JSON here")
    p.add_argument("--out", help="write the frames of a pair beyond the target side by side here (PNG)")
    p.add_argument("--report-only", action="store_true", help="exit 0 whatever the figures")
    p.add_argument("--throbber", help="the throbber binary (default THROBBER or .build/release/throbber)")
    p.add_argument("--judge-sizes", default=None,
                   help="sizes the target is held at (default: every size drawn); the others are reported only")
    p.add_argument("--reference", default=os.path.join(CORPUS, "reference.json"),
                   help="file → player the target is held against where ThorVG is wrong")
    return p.parse_args(argv)


def default_times(doc):
    """Five frame offsets from ip, two of them fractional; as frames (not seconds)."""
    n = float(doc["op"]) - float(doc["ip"])
    return [0.0, round(n * 0.25 + 0.5, 3), round(n * 0.5, 3), round(n * 0.75 + 0.25, 3), n - 1]


def diff(a, b, threshold=16):
    """The share of pixels whose largest channel difference exceeds `threshold` (/255), the mean
    channel difference (/255) and the largest."""
    d = np.abs(a.astype(np.int16) - b.astype(np.int16))
    largest = d.max(axis=-1)
    return float((largest > threshold).mean()), float(d.mean()), int(largest.max())


def side_by_side(frames, names, path):
    """The players' frames over a checker, left to right, then the difference of the first two (×4)."""
    from PIL import Image
    h, w = frames[0].shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    checker = np.where(((yy // 8) + (xx // 8)) % 2 == 0, 255, 210).astype(np.float32)[..., None]
    tiles = []
    for f in frames:
        a = f[..., 3:4].astype(np.float32) / 255
        tiles.append((f[..., :3].astype(np.float32) + checker * (1 - a)).clip(0, 255).astype(np.uint8))
    d = np.abs(frames[0].astype(np.int16) - frames[1].astype(np.int16)).max(axis=-1)
    tiles.append(np.repeat(np.minimum(d * 4, 255).astype(np.uint8)[..., None], 3, axis=-1))
    Image.fromarray(np.concatenate(tiles, axis=1)).save(path)


def main(argv):
    args = parse_args(argv)
    files = list(args.files) + [f for f in args.more.split(",") if f]
    if not files:
        files = sorted(os.path.join(CORPUS, f) for f in os.listdir(CORPUS) if f.endswith(".json")
                       and f != "reference.json")
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    if len(names) < 2:
        raise SystemExit("lottie-compare: --players needs two players or more")
    sizes = [int(s) for s in args.sizes.split(",")]
    reference = {}
    if os.path.exists(args.reference):
        reference = json.load(open(args.reference))
    made = P.Players(names, args.throbber)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    if "throbber" in names:  # Throbber first in its pairs, as the issue writes them
        pairs = [(b, a) if b == "throbber" else (a, b) for a, b in pairs]
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    report = {"players": made.versions(), "sizes": sizes, "threshold": 16, "files": {}}
    missed = []
    started = time.time()
    for path in files:
        base = os.path.basename(path)
        data = open(path, "rb").read()
        doc = json.loads(data)
        times = ([float(t) * float(doc["fr"]) for t in args.times.split(",")] if args.times else default_times(doc))
        worst = {f"{a}-{b}": {"over": -1.0, "mean": 0.0} for a, b in pairs}
        errors = {}
        frames_tested = 0
        for longest in sizes:
            width, height, scale = P.canvas_size(doc, longest)
            for f in times:
                frames = {}
                for name in names:
                    if name in errors:
                        continue
                    try:
                        frames[name] = made.frame(name, path, doc, data, f, width, height, scale)
                    except Exception as e:  # a player that cannot draw the file is reported, not fatal
                        errors[name] = str(e).splitlines()[0] if str(e) else type(e).__name__
                frames_tested += 1
                for a, b in pairs:
                    if a not in frames or b not in frames:
                        continue
                    over, mean, largest = diff(frames[a], frames[b])
                    w = worst[f"{a}-{b}"]
                    by_size = w.setdefault("by_size", {}).setdefault(str(longest), {"over": -1.0, "mean": 0.0})
                    if (over, mean) > (by_size["over"], by_size["mean"]):
                        by_size.update(over=over, mean=mean, frame=f)
                    if (over, mean) > (w["over"], w["mean"]):
                        w.update(over=over, mean=mean, max=largest, size=[width, height],
                                 frame=f, time=round(f / float(doc["fr"]), 6))
                    if args.out and (over > OVER or mean > MEAN):
                        stem = f"{base[:-5]}_{a}-{b}_{longest}px_f{f:g}.png"
                        side_by_side([frames[a], frames[b]], [a, b], os.path.join(args.out, stem))
        target_player = reference.get(base, {}).get("player", "thorvg") if isinstance(reference.get(base), dict) else "thorvg"
        entry = {"pairs": {k: v for k, v in worst.items() if v["over"] >= 0}, "errors": errors,
                 "frames": frames_tested, "target_against": target_player}
        if "throbber" in names:
            key = f"throbber-{target_player}"
            pair = entry["pairs"].get(key)
            # reference.json may hold a file to some sizes only (image filtering: each player's own
            # below 1×); the others are reported, not judged.
            judged = reference.get(base, {}).get("sizes") if isinstance(reference.get(base), dict) else None
            if args.judge_sizes:
                held = [int(x) for x in args.judge_sizes.split(",")]
                judged = [x for x in (judged or held) if x in held]
            if pair and judged:
                kept = [v for k, v in pair.get("by_size", {}).items() if int(k) in judged]
                entry["judged_sizes"] = judged
                entry["meets_target"] = bool(kept) and all(v["over"] <= OVER and v["mean"] <= MEAN for v in kept)
            else:
                entry["meets_target"] = bool(pair) and pair["over"] <= OVER and pair["mean"] <= MEAN
            if target_player not in names:
                entry["errors"][target_player] = (f"not run: {base}'s target is held against {target_player} "
                                                  f"(corpus/lottie/reference.json); add it to --players")
            if not entry["meets_target"]:
                missed.append(base)
        report["files"][base] = entry
        print_file(base, entry)
    report["seconds"] = round(time.time() - started, 1)
    made.close()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    print_summary(report, pairs)
    if "throbber" in names:
        print(f"lottie-compare: {len(report['files']) - len(missed)} of {len(report['files'])} files meet the target "
              f"(≤ {OVER * 100:g} % of pixels beyond 16/255 and mean ≤ {MEAN:g}/255 on every frame"
              + (f" at {args.judge_sizes} px" if args.judge_sizes else "") + ")"
              + (f"; missed: {', '.join(missed)}" if missed else ""))
        if missed and not args.report_only:
            return 1
    return 0


def print_file(base, entry):
    parts = []
    for key, w in entry["pairs"].items():
        parts.append(f"{key} {w['over'] * 100:.2f} % mean {w['mean']:.2f} (worst f{w['frame']:g} @{w['size'][0]} px)")
    for name, error in entry["errors"].items():
        parts.append(f"{name}: {error}")
    print(f"{base}: " + "; ".join(parts), flush=True)


def print_summary(report, pairs):
    keys = [f"{a}-{b}" for a, b in pairs]
    print()
    print("| file | " + " | ".join(f"{k}: % > 16/255, mean /255" for k in keys) + " |")
    print("|---|" + "---:|" * len(keys))
    for base, entry in report["files"].items():
        cells = []
        for k in keys:
            w = entry["pairs"].get(k)
            cells.append("—" if not w else f"{w['over'] * 100:.2f} %, {w['mean']:.2f}")
        print(f"| {base} | " + " | ".join(cells) + " |")
    print()
    print("players: " + "; ".join(f"{k} = {v}" for k, v in report["players"].items()))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

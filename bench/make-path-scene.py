#!/usr/bin/env python3
"""Writes bench/scenes/paths-512.scene.json: the path-heavy bench scene of issue 48.

A 512 × 512 pt canvas (512 px at scale 1) on an opaque white box, 64 random closed paths
of 40 cubics each, filled (translucent solid colours, nonzero and evenodd alternately, some of
them crossing themselves), then 16 random open paths of 40 cubics each, stroked (widths 1–12 pt,
every join and cap, miter limit 4), no fill. Static: only the background box reads the time, by
less than half an 8-bit step, so that every frame draws every path again. Deterministic: the same seed writes the same bytes.

Every number is written with at most two decimals and every colour component is k/255, so the
ThorVG side (bench/paths-vs-thorvg.py, which reads this file back) draws exactly the same shapes
in its own 8-bit colours.

    bench/make-path-scene.py [--seed 48] [--out bench/scenes/paths-512.scene.json]

With --moving it writes bench/scenes/paths-moving.scene.json instead: 32 of those closed paths,
the even ones carried round a small circle by a group's translation, the odd ones holding still
while their colour cycles. Neither changes a path's curves, linear transform or trim, so after the
first frame no outline is flattened again: `throbber bench` counts 32 outlines built, and per
later frame 16 moved and 16 kept (its "path outlines" table).

    bench/make-path-scene.py --moving [--seed 48] [--out bench/scenes/paths-moving.scene.json]
"""
import argparse
import json
import math
import random
import sys

SIZE = 512
FILLED = 64
STROKED = 16
CUBICS = 40
JOINS = ["miter", "round", "bevel"]
CAPS = ["butt", "round", "square"]


def num(v):
    """A number with at most two decimals, written without a trailing '.0'."""
    s = "%.2f" % v
    s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def colour(rng, alpha_lo, alpha_hi):
    """An sRGB colour of k/255 components (alpha too), as the scene file writes it."""
    comps = [rng.randint(0, 255) for _ in range(3)] + [rng.randint(alpha_lo, alpha_hi)]
    return [round(c / 255, 6) for c in comps]


def closed_blob(rng):
    """A closed path of CUBICS cubics around a random centre: on-curve points at falling angles with
    random radii, control points scattered about the chord thirds (some loops cross)."""
    cx, cy = rng.uniform(40, SIZE - 40), rng.uniform(40, SIZE - 40)
    radius = rng.uniform(30, 140)
    points = []
    for k in range(CUBICS):
        a = 2 * math.pi * k / CUBICS
        r = radius * rng.uniform(0.45, 1.0)
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    spread = radius * 0.35
    d = ["M %s %s" % (num(points[0][0]), num(points[0][1]))]
    for k in range(CUBICS):
        p0, p3 = points[k], points[(k + 1) % CUBICS]
        c1 = (p0[0] + (p3[0] - p0[0]) / 3 + rng.uniform(-spread, spread),
              p0[1] + (p3[1] - p0[1]) / 3 + rng.uniform(-spread, spread))
        c2 = (p0[0] + 2 * (p3[0] - p0[0]) / 3 + rng.uniform(-spread, spread),
              p0[1] + 2 * (p3[1] - p0[1]) / 3 + rng.uniform(-spread, spread))
        d.append("C %s %s %s %s %s %s" % tuple(num(v) for v in (*c1, *c2, *p3)))
    d.append("Z")
    return " ".join(d)


def open_curve(rng):
    """An open path of CUBICS cubics wandering over the canvas in steps of 20–70 pt, with corners
    (the control points are not mirrored, so joins show)."""
    x, y = rng.uniform(60, SIZE - 60), rng.uniform(60, SIZE - 60)
    d = ["M %s %s" % (num(x), num(y))]
    heading = rng.uniform(0, 2 * math.pi)
    for _ in range(CUBICS):
        heading += rng.uniform(-2.2, 2.2)
        step = rng.uniform(20, 70)
        nx = min(SIZE - 10, max(10, x + step * math.cos(heading)))
        ny = min(SIZE - 10, max(10, y + step * math.sin(heading)))
        c1 = (x + rng.uniform(-step, step) * 0.5, y + rng.uniform(-step, step) * 0.5)
        c2 = (nx + rng.uniform(-step, step) * 0.5, ny + rng.uniform(-step, step) * 0.5)
        d.append("C %s %s %s %s %s %s" % tuple(num(v) for v in (*c1, *c2, nx, ny)))
        x, y = nx, ny
    return " ".join(d)


def scene(seed):
    rng = random.Random(seed)
    content = []
    for k in range(FILLED):
        content.append({"type": "path", "id": "fill%d" % k, "d": closed_blob(rng),
                        "fillRule": "evenodd" if k % 2 else "nonzero",
                        "fill": colour(rng, 90, 230)})
    for k in range(STROKED):
        width = rng.choice([1, 1.5, 2, 3, 4, 6, 8, 12])
        content.append({"type": "path", "id": "stroke%d" % k, "d": open_curve(rng), "fill": "none",
                        "stroke": {"paint": colour(rng, 160, 255), "width": width,
                                   "join": JOINS[k % 3], "miterLimit": 4, "cap": CAPS[(k // 3) % 3]}})
    # The background: an opaque box whose blue is 1 − 10⁻⁴·frac(t), white in every 8-bit pixel
    # but another colour in every frame, so the CPU renderer cannot keep a row band from an earlier
    # frame (`reusesUnchangedRows`): each frame paints every path again.
    background = {"type": "box", "id": "background", "center": [SIZE / 2, SIZE / 2], "size": [SIZE, SIZE],
                  "color": [1, 1, "1 - 1e-4 * frac(t)", 1]}
    return {
        "format": "throbber-scene/1",
        "id": "paths-512",
        "summary": "bench: 64 random closed paths of 40 cubics filled, 16 open ones stroked, static",
        "note": "written by bench/make-path-scene.py --seed %d; do not edit by hand. The paths are static; the "
                "background box changes its blue by less than half an 8-bit step each frame, so that no frame can "
                "keep the rows of an earlier one and every frame draws every path." % seed,
        "canvas": {"width": SIZE, "height": SIZE, "background": "none"},
        "content": [background] + content,
    }


def moving_scene(seed):
    rng = random.Random(seed)
    content = []
    for k in range(32):
        d = closed_blob(rng)
        if k % 2 == 0:
            phase = num(k / 32)
            content.append({"type": "group", "id": "carrier%d" % k,
                            "transform": {"translate": ["12 * cos(2 * pi * (spin.u + %s))" % phase,
                                                        "12 * sin(2 * pi * (spin.u + %s))" % phase]},
                            "content": [{"type": "path", "id": "moving%d" % k, "d": d,
                                         "fill": colour(rng, 90, 230)}]})
        else:
            rng.random()
            content.append({"type": "path", "id": "recolour%d" % k, "d": d, "fillRule": "evenodd",
                            "fill": "hsb(frac(spin.u + %s), 0.7, 0.9, 0.7)" % num(k / 32)})
    return {
        "format": "throbber-scene/1",
        "id": "paths-moving",
        "summary": "bench: 32 paths of 40 cubics, half moving, half recolouring: outlines kept, not flattened again",
        "note": "written by bench/make-path-scene.py --moving --seed %d; do not edit by hand" % seed,
        "canvas": {"width": SIZE, "height": SIZE, "background": [1, 1, 1, 1]},
        "clocks": [{"name": "spin", "duration": 2, "repeat": "forever"}],
        "content": content,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument("--moving", action="store_true")
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.out is None:
        args.out = "bench/scenes/paths-moving.scene.json" if args.moving else "bench/scenes/paths-512.scene.json"
    made = moving_scene(args.seed) if args.moving else scene(args.seed)
    text = json.dumps(made, indent=1, ensure_ascii=False) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()

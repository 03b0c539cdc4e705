#!/usr/bin/env python3
"""ThorVG's software renderer drawing the shapes of a path bench scene (bench/make-path-scene.py).

Reads the scene file itself (its `path` nodes: `d` of absolute M, L, C and Z, solid fills with
their fill rule, solid strokes with width, join, cap and miter limit; the canvas background), so
the shapes are exactly the ones `throbber bench --scenes FILE` draws; a `box` node is a rectangle
(the bench scene's background, its colour taken at t = 0). Colours are k/255 in the file and go to
ThorVG as the integers k.

Times, on one thread (Engine(threads=0): the main thread only), with time.perf_counter:
  - `update+draw`: every shape marked changed (its transform set again, to the identity), then
    Canvas.update, draw(clear) and sync: ThorVG prepares every shape again (outline, curves,
    stroke, RLE) and composes, as a frame that redraws its paths does;
  - `recolour`: every fill colour set again, then update, draw and sync: ThorVG keeps each
    shape's RLE and only composes its spans (draw alone, with nothing changed, draws nothing).
Prints one JSON object (wall milliseconds, median and min over the iterations, and the thread's
CPU milliseconds, median: the machine may be shared) and writes the last
frame as a straight-alpha RGBA PNG with --png.

    bench/paths-vs-thorvg.py SCENE.json [--iterations 50] [--warmup 5] [--png FILE]
    bench/paths-vs-thorvg.py --compare A.png B.png      (mean and max channel difference)
"""
import argparse
import json
import math
import re
import statistics
import sys
import time


def parse_d(d):
    """The subpaths of SVG path data made of absolute M, L, C and Z: (commands, points)."""
    tokens = re.findall(r"[MLCZmlcz]|-?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?", d)
    cmds, pts = [], []
    i, command = 0, None
    while i < len(tokens):
        tok = tokens[i]
        if tok in "MLCZ":
            command = tok
            i += 1
            if tok == "Z":
                cmds.append("Z")
            continue
        if tok in "mlcz":
            raise SystemExit("paths-vs-thorvg: relative path commands are not read: %r" % tok)
        count = {"M": 2, "L": 2, "C": 6}[command]
        values = [float(v) for v in tokens[i:i + count]]
        i += count
        cmds.append(command)
        pts.extend(zip(values[0::2], values[1::2]))
        if command == "M":
            command = "L"
    return cmds, pts


def colour8(c):
    return [int(round(float(v) * 255)) for v in c]


def build(tvg, engine, canvas, scene):
    from thorvg_python import PathCommand, PointStruct, FillRule, StrokeJoin, StrokeCap
    codes = {"M": PathCommand.MOVE_TO, "L": PathCommand.LINE_TO, "C": PathCommand.CUBIC_TO, "Z": PathCommand.CLOSE}
    joins = {"miter": StrokeJoin.MITER, "round": StrokeJoin.ROUND, "bevel": StrokeJoin.BEVEL}
    caps = {"butt": StrokeCap.BUTT, "round": StrokeCap.ROUND, "square": StrokeCap.SQUARE}
    width, height = int(scene["canvas"]["width"]), int(scene["canvas"]["height"])
    shapes, fills = [], []
    background = scene["canvas"].get("background", "none")
    if background != "none":
        rect = tvg.Shape(engine)
        rect.append_rect(0, 0, width, height, 0, 0, True)
        rect.set_fill_color(*colour8(background))
        canvas.add(rect)
        shapes.append(rect)
        fills.append(colour8(background))
    for node in scene["content"]:
        if node.get("type") == "box":
            # The bench scene's background: its colour at t = 0 (a component may be an expression of t).
            def component(v):
                return v if not isinstance(v, str) else eval(v, {"__builtins__": {}}, {"frac": lambda x: x - math.floor(x), "t": 0})
            (cx, cy), (w, h) = node["center"], node["size"]
            rect = tvg.Shape(engine)
            rect.append_rect(cx - w / 2, cy - h / 2, w, h, 0, 0, True)
            rect.set_fill_color(*colour8([component(v) for v in node["color"]]))
            canvas.add(rect)
            shapes.append(rect)
            fills.append(colour8([component(v) for v in node["color"]]))
            continue
        if node.get("type") != "path":
            raise SystemExit("paths-vs-thorvg: only path nodes are drawn, not %r" % node.get("type"))
        cmds, pts = parse_d(node["d"])
        shape = tvg.Shape(engine)
        shape.append_path([codes[c] for c in cmds], [PointStruct(x, y) for x, y in pts])
        fill = node.get("fill", [0, 0, 0, 1])
        if fill != "none":
            shape.set_fill_color(*colour8(fill))
            shape.set_fill_rule(FillRule.EVEN_ODD if node.get("fillRule") == "evenodd" else FillRule.NON_ZERO)
        stroke = node.get("stroke")
        if stroke:
            shape.set_stroke_width(float(stroke["width"]))
            shape.set_stroke_color(*colour8(stroke["paint"]))
            shape.set_stroke_join(joins[stroke.get("join", "miter")])
            shape.set_stroke_cap(caps[stroke.get("cap", "butt")])
            shape.set_stroke_miterlimit(float(stroke.get("miterLimit", 4)))
        canvas.add(shape)
        shapes.append(shape)
        fills.append(colour8(fill) if fill != "none" else None)
    return shapes, fills


def render(args):
    import thorvg_python as tvg
    with open(args.scene, encoding="utf-8") as f:
        scene = json.load(f)
    engine = tvg.Engine(threads=0)
    canvas = tvg.SwCanvas(engine)
    width, height = int(scene["canvas"]["width"]), int(scene["canvas"]["height"])
    canvas.set_target(width, height, cs=tvg.Colorspace.ABGR8888S)
    shapes, fills = build(tvg, engine, canvas, scene)
    identity = tvg.Matrix(1, 0, 0, 0, 1, 0, 0, 0, 1)

    def full():
        for shape in shapes:
            shape.set_transform(identity)
        canvas.update()
        canvas.draw(True)
        canvas.sync()

    def recolour():
        for shape, fill in zip(shapes, fills):
            if fill is not None:
                shape.set_fill_color(*fill)
        canvas.update()
        canvas.draw(True)
        canvas.sync()

    timings = {}
    for name, frame in (("update+draw", full), ("recolour", recolour)):
        for _ in range(args.warmup):
            frame()
        samples, cpu = [], []
        for _ in range(args.iterations):
            start, start_cpu = time.perf_counter(), time.thread_time()
            frame()
            samples.append((time.perf_counter() - start) * 1000)
            cpu.append((time.thread_time() - start_cpu) * 1000)
        timings[name] = {"median_ms": statistics.median(samples), "min_ms": min(samples),
                         "cpu_median_ms": statistics.median(cpu), "iterations": len(samples)}
    _, major, minor, micro, version = engine.version()
    if args.png:
        canvas.get_pillow("RGBA").save(args.png)
    print(json.dumps({"thorvg": version, "size": [width, height], "paths": sum(1 for n in scene["content"] if n.get("type") == "path"),
                      "threads": 0, "timings": timings}))


def compare(a, b):
    from PIL import Image
    import numpy
    x = numpy.asarray(Image.open(a).convert("RGBA"), dtype=numpy.int16)
    y = numpy.asarray(Image.open(b).convert("RGBA"), dtype=numpy.int16)
    if x.shape != y.shape:
        raise SystemExit("paths-vs-thorvg: %s is %s, %s is %s" % (a, x.shape, b, y.shape))
    diff = numpy.abs(x - y)
    over = (diff.max(axis=2) > 2).mean()
    print(json.dumps({"mean": float(diff.mean()), "max": int(diff.max()),
                      "pixels_over_2": float(over), "p99": float(numpy.percentile(diff.max(axis=2), 99))}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scene", nargs="?")
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--png")
    parser.add_argument("--compare", nargs=2, metavar="PNG")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
    elif args.scene:
        render(args)
    else:
        parser.error("a scene file or --compare A B")


if __name__ == "__main__":
    sys.exit(main())

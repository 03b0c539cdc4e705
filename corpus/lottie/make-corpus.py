#!/usr/bin/env python3
"""Writes the Lottie corpus of issue 50 (corpus/lottie/*.json): one file per feature Throbber's
importer reads, complete loaders, and files using what it refuses (unsupported/).

Every file is written here from the feature it exercises (nothing copied), and checked against the
lottie-spec 1.0 JSON schema (PyPI lottie-specs) when --check is given:

    corpus/lottie/make-corpus.py            (rewrites the files; deterministic)
    corpus/lottie/make-corpus.py --check    (and validates each against the schema)

The builders (properties, shapes, layers, documents) are in corpus_lib.py beside it. Run it with
the players' environment (scripts/lottie-players --print) or any Python 3 with Pillow
(for the embedded PNG) and, for --check, jsonschema and lottie-specs.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_lib import *  # noqa: E402,F401,F403  (the builders the files below are written with)
from corpus_lib import BEYOND_SPEC, FILES, HERE, checker_png  # noqa: E402


# Layers ------------------------------------------------------------------------------------------

add("layer-shape.json", doc([shape_layer(1, "shape", [group([rect((0, 0), (120, 80), 10), fill("#2f80ed")])],
                                          transform(r=spin()))]),
    "a shape layer: a rectangle group, rotating")
add("layer-solid.json", doc([layer(1, 1, "solid", transform(a=(60, 40), o=100, **{"r": spin()}),
                                  sc="#e4572e", sw=120, sh=80),
                             layer(1, 2, "solid translucent", transform(a=(40, 40), p=(60, 150), o=50),
                                  sc="#17bebb", sw=80, sh=80)]),
    "solid layers (ty 1: sc, sw, sh), one opaque and rotating, one at 50 % opacity")
add("layer-null.json", doc([shape_layer(2, "child", [group([ellipse((0, 0), (50, 50)), fill("#2f80ed")])],
                                         transform(p=(40, 0)), parent=1),
                            layer(3, 1, "null", transform(**{"r": spin(), "p": st([100, 100])}))]),
    "a null layer (ty 3) that only carries a rotation for its child")
add("layer-parenting.json", doc([
    shape_layer(3, "grandchild", [group([rect((0, 0), (20, 20)), fill("#e4572e")])], transform(p=(30, 0), **{"r": spin(30)}), parent=2),
    shape_layer(2, "child", [group([rect((0, 0), (36, 36)), fill("#17bebb")])], transform(p=(50, 0), s=(80, 80), **{"r": spin(60)}), parent=1),
    shape_layer(1, "root", [group([ellipse((0, 0), (50, 50)), fill("#2f80ed")])], transform(**{"r": spin(60), "s": kf((0, [100, 100]), (30, [120, 80]), (60, [100, 100]))})),
]), "parenting three deep: each layer's transform applied under its parent's (scale, rotation)")
comp_layers = [shape_layer(1, "inner", [group([rect((0, 0), (60, 60), 8), fill("#2f80ed")])],
                           transform(**{"p": kf((0, [20, 50]), (30, [80, 50]))}), ip=0, op=60)]
add("layer-precomp.json", doc([
    layer(0, 1, "precomp stretched", transform(a=(50, 50), p=(100, 60)), refId="comp_box", w=100, h=100, st=10, sr=2),
    layer(0, 2, "precomp", transform(a=(50, 50), p=(100, 150)), refId="comp_box", w=100, h=100),
], "precomposition", assets=[{"id": "comp_box", "nm": "box", "layers": comp_layers}]),
    "precomposition layers (ty 0) of one asset: plain, and with start time st 10 and stretch sr 2 (clipped to w × h)")
add("layer-precomp-timeremap.json", doc([
    layer(0, 1, "remapped", transform(a=(50, 50), p=(100, 100)), refId="comp_box", w=100, h=100,
          tm=kf((0, 0.9), (60, 0.1), e=LINEAR)),
], "time remap", assets=[{"id": "comp_box", "nm": "box", "layers": comp_layers}]),
    "time remapping tm: the precomposition played backwards from 0.9 s to 0.1 s")
add("layer-image.json", doc([
    layer(2, 1, "image", transform(a=(24, 24), s=(250, 250), **{"r": kf((0, -20), (60, 20))}), refId="image_0"),
], "image", assets=[{"id": "image_0", "w": 48, "h": 48, "u": "", "p": png_data_uri(), "e": 1}]),
    "an image layer (ty 2) of embedded PNG data (e 1, data URI) with a transparent quarter, scaled 2.5×")
add("layer-image-file.json", doc([
    layer(2, 1, "image", transform(a=(24, 24), s=(250, 250), **{"r": kf((0, 20), (60, -20))}), refId="image_0"),
], "image file", assets=[{"id": "image_0", "w": 48, "h": 48, "u": "images/", "p": "checker.png", "e": 0}]),
    "an image layer whose PNG is a file beside the JSON (u images/, p checker.png, e 0)")
add("layer-hidden.json", doc([
    shape_layer(1, "hidden", [group([rect((0, 0), (160, 160)), fill("#e4572e")])], hd=True),
    shape_layer(2, "shown", [group([ellipse((0, 0), (100, 100)), fill("#2f80ed")])]),
    shape_layer(3, "hidden shape", [group([rect((0, 0), (40, 40)), fill("#111111")], hd=True)]),
]), "hidden layer (hd) and hidden shape group: neither drawn")
add("layer-in-out.json", doc([
    shape_layer(1, "early", [group([rect((0, -40), (60, 60)), fill("#e4572e")])], ip=0, op=20),
    shape_layer(2, "middle", [group([ellipse((0, 0), (60, 60)), fill("#17bebb")])], ip=20, op=40),
    shape_layer(3, "late", [group([rect((0, 40), (60, 60)), fill("#2f80ed")])], ip=40, op=60),
]), "in and out points: three layers each visible for a third of the clip")

# Transforms --------------------------------------------------------------------------------------

add("transform-anchor.json", doc([shape_layer(1, "anchored", [group([rect((0, 0), (80, 40)), fill("#2f80ed")])],
                                               transform(**{"r": spin(), "a": kf((0, [40, 20]), (60, [-40, -20]))}))]),
    "anchor point (animated) as the centre of rotation")
add("transform-position-separated.json", doc([shape_layer(1, "separated", [group([ellipse((0, 0), (40, 40)), fill("#e4572e")])],
    transform(**{"p": {"s": True, "x": kf((0, 30), (60, 170), e=LINEAR), "y": kf((0, 40), (30, 160), (60, 40), e=ease(0.5, 0, 0.5, 1))}}))]),
    "position with separated dimensions (p.s, x and y each with their own keyframes)")
add("transform-position-spatial.json", doc([shape_layer(1, "curved", [group([rect((0, 0), (30, 30)), fill("#17bebb")])],
    transform(**{"p": kf((0, [30, 170], {"to": [0, -120], "ti": [-60, 0]}), (60, [170, 30]), e=LINEAR)}))]),
    "position moving along a spatial Bézier (ti/to tangents)")
add("transform-scale-rotation.json", doc([shape_layer(1, "spin", [group([rect((0, 0), (80, 80), 6), fill("#2f80ed")])],
    transform(**{"r": kf((0, 0), (60, 270)), "s": kf((0, [100, 100]), (30, [50, 150]), (60, [-100, 100]))}))]),
    "scale (non-uniform, through negative) and rotation")
add("transform-skew.json", doc([shape_layer(1, "skewed", [group([rect((0, 0), (80, 80)), fill("#e4572e")])],
    transform(**{"sk": kf((0, -30), (60, 30)), "sa": kf((0, 0), (60, 90))}))]),
    "skew and skew axis, animated")
add("transform-opacity.json", doc([
    shape_layer(1, "fading", [group([ellipse((-20, 0), (100, 100)), fill("#2f80ed")])], transform(**{"o": kf((0, 100), (60, 0))})),
    shape_layer(2, "under", [group([ellipse((20, 0), (100, 100)), fill("#e4572e", o=60)])]),
]), "layer opacity (animated) over a shape whose fill opacity is 60 %")
add("transform-auto-orient.json", doc([shape_layer(1, "arrow", [group([path(bezier([(-20, -12), (20, 0), (-20, 12)])), fill("#1b1b1b")])],
    transform(**{"p": kf((0, [30, 100], {"to": [40, -80], "ti": [-40, -80]}), (60, [170, 100]), e=LINEAR)}), ao=1)]),
    "auto-orient (ao 1): an arrow turned along its curved path")

# Shapes ------------------------------------------------------------------------------------------

add("shape-group.json", doc([shape_layer(1, "groups", [
    group([group([ellipse((0, 0), (50, 50)), fill("#e4572e")], "inner", p=(-40, 0)),
           group([rect((0, 0), (50, 50)), fill("#17bebb")], "inner 2", p=(40, 0)),
           stroke("#1b1b1b", 4)], "outer", o=80)])]),
    "groups inside a group; the outer stroke applies to both, the outer group's opacity 80")
add("shape-rect-rounded.json", doc([shape_layer(1, "rounded", [group([rect((0, 0), (140, 90),
    rr=kf((0, 0), (60, 45)), ss=kf((0, [140, 90]), (60, [90, 140]))), fill("#2f80ed")])])]),
    "rectangle with animated roundness and size")
add("shape-ellipse.json", doc([shape_layer(1, "ellipses", [group([ellipse(ss=kf((0, [160, 60]), (60, [60, 160])), pp=st([0, 0])), fill("#e4572e")])])]),
    "ellipse with animated size")
add("shape-path-animated.json", doc([shape_layer(1, "morph", [group([path(kf((0, [square_path(60)]), (60, [circle_path(60)])), "morph"), fill("#17bebb")])])]),
    "path with animated vertices: a square becomes a circle")
add("shape-star.json", doc([shape_layer(1, "stars", [
    group([polystar(1, 5, (-45, 0), orad=40, irad=18, nm="star", rr=spin()), fill("#f2c14e")], "star"),
    group([polystar(1, 6, (45, 0), orad=40, irad=20, os_=60, is_=-40, nm="round star"), fill("#e4572e")], "round star"),
])]), "polystar stars (sy 1): five points rotating, six points with outer and inner roundness")
add("shape-polygon.json", doc([shape_layer(1, "polygons", [
    group([polystar(2, 3, (-45, 0), orad=40, nm="triangle", rr=spin()), fill("#2f80ed")], "triangle"),
    group([polystar(2, 6, (45, 0), orad=40, os_=50, nm="round hexagon"), fill("#17bebb")], "round hexagon"),
])]), "polystar polygons (sy 2): a triangle rotating, a hexagon with roundness 50")
ring = bezier([(-70, -70), (70, -70), (70, 70), (-70, 70)])
inner_ring = bezier([(-35, -35), (35, -35), (35, 35), (-35, 35)])
add("shape-fill-rule.json", doc([shape_layer(1, "rules", [
    group([path(ring, "outer"), path(inner_ring, "inner"), fill("#2f80ed", r=1)], "nonzero", p=(-50, 0), s=(60, 60)),
    group([path(ring, "outer"), path(inner_ring, "inner"), fill("#e4572e", r=2)], "evenodd", p=(50, 0), s=(60, 60)),
    group([path(star_path(5, 60, 60 * 0.382)), fill("#17bebb", r=2)], "self-crossing", p=(0, 60), s=(50, 50)),
])]), "fill rules: nonzero (r 1) and even-odd (r 2) on nested and self-crossing paths")
zig = bezier([(-60, 20), (-20, -30), (20, 30), (60, -20)], c=False)
add("shape-stroke-caps-joins.json", doc([shape_layer(1, "strokes", [
    group([path(zig), stroke("#e4572e", 14, lc=1, lj=1, ml=4)], "butt miter", p=(0, -60)),
    group([path(zig), stroke("#17bebb", 14, lc=2, lj=2)], "round round", p=(0, 0)),
    group([path(zig), stroke("#2f80ed", 14, lc=3, lj=3)], "square bevel", p=(0, 60)),
    group([path(bezier([(-70, 0), (70, 10), (-70, 20)], c=False)), stroke("#1b1b1b", 6, lc=1, lj=1, ml=2)], "miter limit", p=(0, 85), s=(100, 40)),
])]), "stroke caps (butt, round, square), joins (miter, round, bevel) and a miter limit that bevels a sharp join")
add("shape-stroke-dashes.json", doc([shape_layer(1, "dashes", [
    group([ellipse((0, 0), (140, 140)), stroke("#2f80ed", 10, lc=2, d=dashes(20, 12, kf((0, 0), (60, 64), e=LINEAR)))], "dashed ring"),
    group([rect((0, 0), (80, 80), 10), stroke("#e4572e", 6, lc=1, d=dashes(8, 6, 3))], "dashed square"),
])]), "dashed strokes: dash, gap and an animated offset on an ellipse; butt dashes on a rounded rectangle")
stops = [(0, "#2f80ed"), (0.5, "#f2c14e"), (1, "#e4572e")]
add("shape-gradient-linear.json", doc([shape_layer(1, "linear", [group([rect((0, 0), (160, 160), 20),
    gfill(stops, 1, (-80, -80), (80, 80))])], transform(**{"r": kf((0, 0), (60, 90))}))]),
    "linear gradient fill, three colour stops, rotating with its layer")
add("shape-gradient-radial.json", doc([shape_layer(1, "radial", [
    group([ellipse((0, 0), (90, 90)), gfill(stops, 2, (0, 0), (45, 0))], "centred", p=(-50, -50)),
    group([ellipse((0, 0), (90, 90)), gfill(stops, 2, (0, 0), (45, 0), h=kf((0, 0), (60, 80)), a=30)], "highlight", p=(50, 50)),
])]), "radial gradient fills: centred, and with an animated highlight (h, a: focal point)")
add("shape-gradient-opacity.json", doc([shape_layer(1, "opacity stops", [
    group([rect((0, 0), (160, 70)), gfill(stops, 1, (-80, 0), (80, 0), alphas=[(0, 1), (0.5, 0.2), (1, 1)])], "linear", p=(0, -45)),
    group([ellipse((0, 0), (80, 80)), gfill(stops, 2, (0, 0), (40, 0), alphas=[(0, 1), (1, 0)])], "radial", p=(0, 50)),
]), backdrop()]), "gradient opacity stops: a linear one dips to 20 % mid-way, a radial one fades out")
add("shape-gradient-stroke.json", doc([shape_layer(1, "gradient strokes", [
    group([ellipse((0, 0), (120, 120)), gstroke(stops, 1, (-60, 0), (60, 0), 16)], "linear", p=(0, 0)),
    group([rect((0, 0), (170, 170), 30), gstroke(stops, 2, (0, 0), (90, 0), 8, alphas=[(0, 1), (1, 0.3)])], "radial"),
])]), "gradient strokes: linear on a circle, radial with opacity stops on a rounded square")
add("shape-trim-simultaneous.json", doc([shape_layer(1, "trim", [
    group([ellipse((-45, 0), (70, 70)), ellipse((45, 0), (70, 70)), stroke("#2f80ed", 8),
           trim(kf((0, 0), (60, 60)), kf((0, 30), (60, 100)), kf((0, 0), (60, 180)), m=1)]),
])]), "trim paths, simultaneous (m 1): start, end and offset animated over two ellipses")
add("shape-trim-individual.json", doc([shape_layer(1, "trim", [
    group([ellipse((-45, 0), (70, 70)), rect((45, 0), (70, 70)), stroke("#e4572e", 8),
           trim(kf((0, 0), (60, 40)), kf((0, 20), (60, 100)), m=2)]),
])]), "trim paths, individual (m 2): the two paths trimmed as one length")
add("shape-repeater.json", doc([shape_layer(1, "repeater", [
    group([rect((50, 0), (24, 12), 6), fill("#2f80ed"),
           {"ty": "rp", "nm": "repeater", "c": st(8), "o": kf((0, 0), (60, 2)), "m": 1,
            "tr": {"ty": "tr", "a": st([0, 0]), "p": st([0, 0]), "s": st([95, 95]), "r": st(45), "so": st(100), "eo": st(20)}}]),
])]), "repeater: 8 copies rotated 45°, scaled 95 % each, opacity 100 → 20 %, animated offset")
add("shape-rounded-corners.json", doc([shape_layer(1, "rounded", [
    group([path(star_path(5, 70, 30)), {"ty": "rd", "nm": "round", "r": kf((0, 0), (60, 20))}, fill("#17bebb")]),
])]), "rounded corners (rd) on a star path, radius animated 0 → 20")
add("shape-group-transform.json", doc([shape_layer(1, "group transforms", [
    group([rect((0, 0), (50, 50)), fill("#e4572e")], "spun", p=(-45, -45), a=(10, 10), r=30, o=70),
    group([ellipse((0, 0), (50, 50)), fill("#2f80ed")], "skewed", p=(45, 45), sk=25, sa=45, s=(120, 80)),
    {"ty": "gr", "nm": "animated", "it": [rect((0, 0), (30, 30)), fill("#1b1b1b"),
        dict(shape_transform(p=(45, -45)), r=spin())]},
])]), "transforms inside groups: anchor, rotation, opacity, skew, scale; one rotating")

# Keyframes ---------------------------------------------------------------------------------------

add("keyframe-linear.json", doc([shape_layer(1, "linear", [group([rect((0, 0), (40, 40)), fill("#2f80ed")])],
    transform(p=kf((0, [30, 100]), (60, [170, 100]), e=LINEAR), r=kf((0, 0), (60, 180), e=LINEAR)))]),
    "linear keyframes (o = i on the diagonal) for position and rotation")
add("keyframe-bezier-per-dimension.json", doc([shape_layer(1, "eased", [group([ellipse((0, 0), (40, 40)), fill("#e4572e")])],
    transform(p=kf((0, [30, 30]), (60, [170, 170]), e=ease(0.9, 0, 0.1, 1)),
              s=kf((0, [60, 60]), (60, [140, 100]), e={"o": {"x": [0.7, 0.2], "y": [0, 0.5]}, "i": {"x": [0.3, 0.6], "y": [1, 1]}})))]),
    "Bézier easing: one curve on position (a spatial property is eased along its path), a different curve per dimension (o.x, i.x arrays of two) on scale")
add("keyframe-hold.json", doc([shape_layer(1, "held", [group([rect((0, 0), (60, 60)), fill(kf((0, colour("#2f80ed"), {"h": 1}), (20, colour("#e4572e"), {"h": 1}), (40, colour("#17bebb"))))])],
    transform(p=kf((0, [50, 100], {"h": 1}), (20, [100, 100], {"h": 1}), (40, [150, 100]))))]),
    "hold keyframes (h 1): position and fill colour jump at frames 20 and 40")
add("keyframe-spatial.json", doc([shape_layer(1, "spatial", [
    group([ellipse((0, 0), (30, 30)), fill("#2f80ed")], "dot", p=kf((0, [-70, 0], {"to": [35, -90], "ti": [-35, -90]}), (30, [70, 0], {"to": [-35, 90], "ti": [35, 90]}), (60, [-70, 0]), e=ease(0.4, 0, 0.6, 1))),
])]), "spatial Bézier keyframes on a group's position: a loop through two curved segments, eased")

# Masks -------------------------------------------------------------------------------------------

circle = circle_path(60)
box = square_path(50)
moving_box = kf((0, [bezier([(-90, -30), (-10, -30), (-10, 30), (-90, 30)])]), (60, [bezier([(10, -30), (90, -30), (90, 30), (10, 30)])]))


def masked(name, masks, what):
    add(name, doc([subject(1, "masked", ks=transform(), hasMask=True, masksProperties=masks), backdrop()]), what)


masked("mask-add.json", [mask("a", circle), mask("a", moving_box)], "masks in add mode: a circle and a moving bar, their union")
masked("mask-subtract.json", [mask("a", circle), mask("s", moving_box)], "a subtract mask: the moving bar cut out of a circle")
masked("mask-intersect.json", [mask("a", circle), mask("i", moving_box)], "an intersect mask: a circle meets a moving bar")
masked("mask-difference.json", [mask("a", circle), mask("f", moving_box)], "a difference mask: a circle xor a moving bar")
masked("mask-none.json", [mask("a", circle), mask("n", moving_box)], "a mask in mode none (n): contributes nothing, the circle alone")
masked("mask-inverted.json", [mask("a", circle, inv=True)], "an inverted add mask: everything but the circle")
masked("mask-opacity.json", [mask("a", circle, o=50), mask("a", moving_box, o=100)], "mask opacity: the circle at 50 %, the bar at 100 %")


def matted(name, mode, what, tp=False):
    matte = shape_layer(1, "matte", [group([ellipse((0, 0), (130, 130)), gfill([(0, "#ffffff"), (1, "#000000")], 1, (-65, 0), (65, 0), alphas=[(0, 1), (1, 0.4)])])],
                        transform(p=kf((0, [70, 100]), (60, [130, 100]))), td=1)
    if tp:
        other = shape_layer(2, "between", [group([rect((0, 70), (180, 20)), fill("#1b1b1b")])])
        layers = [matte, other, subject(3, "matted", tt=mode, tp=1)]
    else:
        layers = [matte, subject(2, "matted", tt=mode)]
    add(name, doc(layers + [backdrop()]), what)


matted("matte-alpha.json", 1, "alpha track matte (tt 1, td 1 on the layer above); the matte is a gradient whose opacity falls to 40 %")
matted("matte-alpha-inverted.json", 2, "alpha inverted track matte (tt 2)")
matted("matte-luma.json", 3, "luma track matte (tt 3): the matte's white-to-black gradient sets the coverage")
matted("matte-luma-inverted.json", 4, "luma inverted track matte (tt 4)")
matted("matte-tp.json", 1, "a track matte named by index (tp 1, lottie-spec 1.0) that is not the layer right above", tp=True)

# Markers and slots -------------------------------------------------------------------------------

add("markers.json", doc([shape_layer(1, "marked", [group([ellipse((0, 0), (60, 60)), fill("#2f80ed")])],
    transform(p=kf((0, [40, 100]), (30, [160, 100]), (60, [40, 100]))))],
    "markers", markers=[{"cm": "go", "tm": 0, "dr": 30}, {"cm": "back", "tm": 30, "dr": 30}]),
    "markers: 'go' (frames 0–30) and 'back' (30–60)")
add("slots.json", doc([shape_layer(1, "slotted", [group([rect((0, 0), (120, 120), 16),
    {"ty": "fl", "nm": "fill", "c": {"a": 0, "k": colour("#2f80ed"), "sid": "accent"}, "o": {"a": 0, "k": 100, "sid": "strength"}, "r": 1}])],
    transform(r=spin()))],
    "slots", slots={"accent": {"p": {"a": 0, "k": colour("#e4572e")}}, "strength": {"p": {"a": 0, "k": 80}}}),
    "slots (sid): fill colour and opacity bound to the slots 'accent' and 'strength', whose values (red, 80) replace the property's")

# Complete loaders ---------------------------------------------------------------------------------

arc = [group([ellipse((0, 0), (120, 120)), stroke("#2f80ed", 14, lc=2),
              trim(kf((0, 0), (30, 0), (60, 70)), kf((0, 10), (30, 75), (60, 80)), kf((0, 0), (60, 360), e=LINEAR))], "arc")]
add("loader-spinner.json", doc([
    shape_layer(1, "arc", arc, transform(r=spin(60))),
    shape_layer(2, "track", [group([ellipse((0, 0), (120, 120)), stroke("#dfe6f0", 14)])]),
], "spinner", fr=60, op=60), "a spinner: a trimmed arc chasing itself round a track (60 fps, 1 s, loops)")
dots = []
for n in range(3):
    delay = n * 8
    dots.append(shape_layer(n + 1, f"dot {n + 1}", [group([ellipse((0, 0), (32, 32)), fill(["#2f80ed", "#17bebb", "#f2c14e"][n])])],
        transform(p=(50 + 50 * n, 100), s=kf((delay, [60, 60]), (delay + 15, [120, 120]), (delay + 30, [60, 60])),
                  o=kf((delay, 40), (delay + 15, 100), (delay + 30, 40)))))
add("loader-dots.json", doc(dots, "dots", fr=30, op=45), "three dots pulsing in turn (30 fps, 1.5 s)")
add("loader-progress-ring.json", doc([
    shape_layer(1, "label", [group([rect((0, 0), (44, 6), 3), fill("#1b1b1b")]),
                             group([rect((0, 0), (6, 44), 3), fill("#1b1b1b")], r=kf((0, 0), (90, 90)))]),
    shape_layer(2, "progress", [group([ellipse((0, 0), (140, 140)), gstroke([(0, "#17bebb"), (1, "#2f80ed")], 1, (-70, 0), (70, 0), 16),
                                       trim(0, kf((0, 0), (75, 100), e=ease(0.5, 0, 0.3, 1)), st(0))], "ring", r=-90)]),
    shape_layer(3, "track", [group([ellipse((0, 0), (140, 140)), stroke("#e9edf2", 16)])]),
], "progress ring", fr=60, op=90), "a progress ring: a gradient stroke trimmed 0 → 100 % with an easing, a turning plus (60 fps, 1.5 s)")
add("loader-morph.json", doc([shape_layer(1, "morph", [group([
    path(kf((0, [circle_path(55)]), (20, [square_path(50)]), (40, [pinched_path(70)]), (60, [circle_path(55)])), "shape"),
    fill(kf((0, colour("#2f80ed")), (20, colour("#e4572e")), (40, colour("#f2c14e")), (60, colour("#2f80ed")))),
    {"ty": "rd", "nm": "soften", "r": st(6)}])], transform(r=kf((0, 0), (60, 180))))], "morph", fr=30, op=60),
    "a morphing shape: circle → square → pinched four-point star → circle (four vertices each), colour following (30 fps, 2 s)")
bars = []
for n in range(5):
    bars.append(group([rect((-60 + 30 * n, 0), (18, 140), 9), fill("#2f80ed")], f"bar {n + 1}",
                      s=kf((n * 6, [100, 30]), (n * 6 + 15, [100, 100]), (n * 6 + 30, [100, 30]))))
add("loader-masked.json", doc([
    shape_layer(1, "wipe", [group([rect((0, 0), (200, 200)), gfill([(0, "#ffffff"), (1, "#000000")], 1, (-100, 0), (100, 0))])],
                transform(p=kf((0, [0, 100]), (60, [200, 100]))), td=1),
    shape_layer(2, "bars", bars, tt=3, hasMask=True, masksProperties=[mask("a", circle_path(80)), mask("s", circle_path(25))]),
    backdrop(),
], "masked bars", fr=30, op=60), "bars in a ring-shaped mask (add then subtract) under a moving luma matte (30 fps, 2 s)")
add("loader-pulse.json", doc([
    shape_layer(1, "core", [group([ellipse((0, 0), (60, 60)), fill("#e4572e")])], transform(s=kf((0, [90, 90]), (30, [110, 110]), (60, [90, 90])))),
    shape_layer(2, "wave", [group([ellipse((0, 0), (60, 60)), stroke("#e4572e", 6)])],
                transform(s=kf((0, [100, 100]), (60, [300, 300]), e=ease(0.2, 0, 0.4, 1)), o=kf((0, 100), (60, 0)))),
], "pulse", fr=60, op=60), "a pulse: a beating core and an expanding, fading ring (60 fps, 1 s)")

# What Throbber refuses ---------------------------------------------------------------------------

plain = [group([rect((0, 0), (100, 100), 10), fill("#2f80ed")])]
add("unsupported/expression.json", doc([shape_layer(1, "expression", plain,
    transform(r={"a": 0, "k": 0, "x": "var $bm_rt; $bm_rt = time * 360;"}))]),
    "an expression (x) on a rotation")
add("unsupported/text-layer.json", doc([layer(5, 1, "text", transform(p=(20, 110)), t={
    "d": {"k": [{"t": 0, "s": {"s": 36, "f": "Sans", "t": "Loading", "j": 0, "tr": 0, "lh": 43, "ls": 0, "fc": [0, 0, 0]}}]},
    "p": {}, "m": {"g": 1, "a": st([0, 0])}, "a": []})], fonts={"list": [{"fName": "Sans", "fFamily": "Sans", "fStyle": "Regular", "ascent": 75}]}),
    "a text layer (ty 5)")
add("unsupported/effects.json", doc([shape_layer(1, "blurred", plain, ef=[{"ty": 29, "nm": "Gaussian Blur", "en": 1,
    "ef": [{"ty": 0, "nm": "Blurriness", "v": st(10)}, {"ty": 7, "nm": "Dimensions", "v": st(1)}, {"ty": 7, "nm": "Repeat Edge Pixels", "v": st(0)}]}])]),
    "a layer effect (ef: Gaussian blur)")
add("unsupported/blend-mode.json", doc([shape_layer(1, "multiply", plain, bm=1),
    shape_layer(2, "under", [group([ellipse((30, 30), (100, 100)), fill("#e4572e")])])]),
    "a layer blend mode other than normal (bm 1, multiply)")
add("unsupported/merge-paths.json", doc([shape_layer(1, "merged", [group([rect((-20, 0), (80, 80)), ellipse((20, 0), (80, 80)),
    {"ty": "mm", "nm": "merge", "mm": 3}, fill("#2f80ed")])])]),
    "merge paths (mm 3, subtract)")
add("unsupported/3d-layer.json", doc([dict(shape_layer(1, "3d", plain), ddd=1,
    ks={"a": st([0, 0, 0]), "p": st([100, 100, 0]), "s": st([100, 100, 100]), "o": st(100), "rx": st(30), "ry": st(20), "rz": st(0), "or": st([0, 0, 0])})], ddd=1),
    "a 3D layer (ddd 1, x and y rotations)")
add("unsupported/mask-feather.json", doc([subject(1, "feathered", hasMask=True, masksProperties=[mask("a", circle, f=st([12, 12]))])]),
    "a mask with feather (f)")
add("unsupported/mask-expansion.json", doc([subject(1, "expanded", hasMask=True, masksProperties=[mask("a", circle, x=st(10))])]),
    "a mask with expansion (x)")


README_HEAD = """# The Lottie corpus (issue 50)

Lottie JSON files written for Throbber's tests by `make-corpus.py` (run it to rewrite them; `--check`
validates each against the lottie-spec 1.0 schema of PyPI's lottie-specs). Nothing here is copied
from elsewhere. Each file exercises one feature the importer reads (docs/lottie.md's table points
here), `loader-*` are complete loaders of realistic size, and `unsupported/` holds files using what
Throbber refuses (exit 65, or skipped with `--skip-unsupported`).

Conventions: 200 × 200, 30 fps (loaders 30 or 60 fps), 1–2 s, `ip` 0; every layer starts with
`"ddd": 0`, every shape with `"ty"`, and rectangles, ellipses and polystars carry their direction
`"d": 1` (lottie-web reverses a rectangle without it), as bodymovin writes them (rlottie's streaming parser needs
both: docs/lottie.md). `scripts/lottie-compare` renders them with ThorVG, rlottie, lottie-web and
Throbber; `reference.json` names the player a file is held against where ThorVG is wrong.

| file | what it exercises |
|---|---|
"""


def write_readme():
    lines = [README_HEAD]
    for name, (_, what) in FILES.items():
        note = f" (beyond lottie-spec 1.0: {BEYOND_SPEC[name]})" if name in BEYOND_SPEC else ""
        lines.append(f"| `{name}` | {what}{note} |\n")
    with open(os.path.join(HERE, "README.md"), "w") as f:
        f.write("".join(lines))


def main():
    check = "--check" in sys.argv[1:]
    validator = None
    if check:
        import jsonschema
        import lottie_specs
        schema_path = os.path.join(os.path.dirname(lottie_specs.__file__), "data", "lottie.schema.json")
        schema = json.load(open(schema_path))
        validator = jsonschema.Draft202012Validator(schema)
    failures = 0
    for name, (document, what) in FILES.items():
        path = os.path.join(HERE, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(document, f, separators=(",", ":"))
            f.write("\n")
        if validator:
            errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
            if errors and name in BEYOND_SPEC:
                print(f"{name}: beyond lottie-spec 1.0 as intended: {BEYOND_SPEC[name]}")
                continue
            if not errors and name in BEYOND_SPEC:
                print(f"{name}: expected to be beyond lottie-spec 1.0 and is valid: BEYOND_SPEC is stale")
                failures += 1
            if errors:
                failures += 1
                e = errors[0]
                print(f"{name}: not valid lottie-spec 1.0: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")
    os.makedirs(os.path.join(HERE, "images"), exist_ok=True)
    with open(os.path.join(HERE, "images", "checker.png"), "wb") as f:
        f.write(checker_png())
    write_readme()
    print(f"make-corpus: {len(FILES)} files written" + (f", {len(FILES) - failures - len(BEYOND_SPEC)} valid against lottie-spec 1.0" if check else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

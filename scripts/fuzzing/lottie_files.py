"""Lottie files for the lottie family (--lottie): small valid files built here (a shape layer with
keyframed rectangle, ellipse, path, fill, stroke and trim; a precomposition; masks; a track matte;
parents; slots and markers), the files of corpus/lottie/ and examples/lottie/ when they exist, and
their structural mutations (docs/fuzzing.md "Lottie and dotLottie")."""

import copy
import json
import os

from .values import NUMBERS, NUMBER_TEXTS, draw, nodes, replace

# Keys whose values a Lottie reader reads as numbers, and a few it must refuse or skip.
LOTTIE_KEYS = ["v", "fr", "ip", "op", "w", "h", "nm", "ddd", "assets", "layers", "markers", "slots", "ty", "ind",
               "parent", "refId", "st", "sr", "tm", "ks", "shapes", "it", "masksProperties", "tt", "td", "tp", "hd",
               "ao", "bm", "ef", "mm", "a", "k", "s", "e", "t", "i", "o", "h", "x", "sid", "p", "r", "c", "d", "lc", "lj",
               "ml", "mode", "inv", "pt", "sc", "sh", "sw", "u", "id", "cm", "dr", "tm", "ks", "g", "hl", "sy", "pt", "or",
               "ir", "os", "is", "rd", "nope", "", "\u0000", "x" * 300]

# Features the issue lists as unsupported: each is refused (65) with one line, or skipped with
# --skip-unsupported; never a crash or a silent frame.
UNSUPPORTED = [
    ("an expression", lambda layer, rng: layer["ks"]["o"].update({"x": "var $bm_rt = time * 100;"})),
    ("a text layer", lambda layer, rng: layer.update({"ty": 5, "t": {"d": {"k": [{"s": {"t": "hi", "s": 12}, "t": 0}]}}})),
    ("a layer effect", lambda layer, rng: layer.update({"ef": [{"ty": 29, "nm": "Blur", "ef": [{"ty": 0, "v": {"a": 0, "k": 10}}]}]})),
    ("a blend mode", lambda layer, rng: layer.update({"bm": draw(rng, [1, 3, 5, 11, 15, 99, -1])})),
    ("merge paths", lambda layer, rng: layer.setdefault("shapes", []).append({"ty": "mm", "mm": 3, "nm": "merge"})),
    ("a 3D layer", lambda layer, rng: layer.update({"ddd": 1})),
    ("mask feather", lambda layer, rng: layer.setdefault("masksProperties", [mask("a")])[0].update({"f": {"a": 0, "k": [4, 4]}})),
    ("mask expansion", lambda layer, rng: layer.setdefault("masksProperties", [mask("a")])[0].update({"x": {"a": 0, "k": 3}})),
    ("an audio layer", lambda layer, rng: layer.update({"ty": 6})),
    ("a camera layer", lambda layer, rng: layer.update({"ty": 13})),
    ("an unknown shape", lambda layer, rng: layer.setdefault("shapes", []).append({"ty": "zz", "nm": "nope"})),
    ("an unknown layer type", lambda layer, rng: layer.update({"ty": 99})),
]


def assets_of(tree):
    """The file's asset list, made one when it has none (or a value of another type)."""
    if not isinstance(tree.get("assets"), list):
        tree["assets"] = []
    return tree["assets"]


def static(value):
    return {"a": 0, "k": value}


def animated(*frames, hold=False):
    """A keyframed property: (t, value) pairs with Bézier easing, the last without an end."""
    keys = []
    for t, value in frames:
        key = {"t": t, "s": value if isinstance(value, list) else [value]}
        if hold:
            key["h"] = 1
        else:
            key.update({"i": {"x": [0.42], "y": [1]}, "o": {"x": [0.58], "y": [0]}})
        keys.append(key)
    return {"a": 1, "k": keys}


def transform(position=(32, 32), rotation=None, scale=(100, 100), opacity=100, anchor=(0, 0)):
    return {"a": static(list(anchor)), "p": static(list(position)), "s": static(list(scale)),
            "r": rotation if rotation is not None else static(0), "o": static(opacity)}


def shape_transform():
    return {"ty": "tr", "p": static([0, 0]), "a": static([0, 0]), "s": static([100, 100]), "r": static(0),
            "o": static(100), "sk": static(0), "sa": static(0)}


def mask(mode, inverted=False):
    return {"mode": mode, "inv": inverted, "o": static(100),
            "pt": static({"c": True, "v": [[8, 8], [56, 8], [56, 56], [8, 56]], "i": [[0, 0]] * 4, "o": [[0, 0]] * 4})}


def layer(index, kind, name, **fields):
    out = {"ddd": 0, "ind": index, "ty": kind, "nm": name, "ks": transform(), "ip": 0, "op": 60, "st": 0, "sr": 1}
    out.update(fields)
    return out


def loader_shapes():
    """A group of every shape the issue lists: keyframed rectangle, ellipse and path, polystar,
    fill, dashed stroke, gradient fill, trim paths, rounded corners, a repeater."""
    path = animated((0, {"c": True, "v": [[-8, -8], [8, -8], [0, 10]], "i": [[0, 0]] * 3, "o": [[0, 0]] * 3}),
                    (30, {"c": True, "v": [[-10, -6], [10, -6], [0, 12]], "i": [[0, 2]] * 3, "o": [[0, -2]] * 3}))
    return [{"ty": "gr", "nm": "loader", "it": [
        {"ty": "rc", "nm": "box", "p": static([0, 0]), "s": animated((0, [20, 20]), (30, [28, 12]), (60, [20, 20])),
         "r": static(4)},
        {"ty": "el", "nm": "dot", "p": animated((0, [-12, 0]), (60, [12, 0])), "s": static([10, 10])},
        {"ty": "sh", "nm": "tri", "ks": path},
        {"ty": "sr", "nm": "star", "sy": 1, "p": static([0, 0]), "pt": static(5), "or": static(12), "ir": static(6),
         "os": static(0), "is": static(0), "r": static(0)},
        {"ty": "rd", "nm": "round", "r": static(2)},
        {"ty": "tm", "nm": "trim", "s": animated((0, 0), (60, 50)), "e": animated((0, 50), (60, 100)), "o": static(0),
         "m": 1},
        {"ty": "fl", "nm": "fill", "c": animated((0, [0.2, 0.5, 1, 1]), (60, [1, 0.4, 0.2, 1])), "o": static(100), "r": 1},
        {"ty": "st", "nm": "stroke", "c": static([0, 0, 0, 1]), "o": static(100), "w": static(2), "lc": 2, "lj": 1,
         "ml": 4, "d": [{"n": "d", "nm": "dash", "v": static(4)}, {"n": "g", "nm": "gap", "v": static(2)},
                        {"n": "o", "nm": "offset", "v": animated((0, 0), (60, 12))}]},
        {"ty": "gf", "nm": "gradient", "t": 1, "s": static([-16, 0]), "e": static([16, 0]), "o": static(80), "r": 1,
         "g": {"p": 2, "k": static([0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0.5])}},
        {"ty": "rp", "nm": "repeat", "c": static(3), "o": static(0), "m": 1,
         "tr": {"ty": "tr", "p": static([4, 0]), "a": static([0, 0]), "s": static([90, 90]), "r": static(30),
                "so": static(100), "eo": static(40)}},
        shape_transform(),
    ]}]


def generated_files():
    """(name, tree) of the small valid files the family starts from when no corpus exists."""
    shapes = {"v": "5.7.4", "fr": 30, "ip": 0, "op": 60, "w": 64, "h": 64, "nm": "shapes", "ddd": 0, "assets": [],
              "layers": [layer(1, 4, "loader", shapes=loader_shapes(),
                               ks=transform(rotation=animated((0, 0), (60, 360))))],
              "markers": [{"tm": 0, "cm": "in", "dr": 30}, {"tm": 30, "cm": "out", "dr": 30}]}
    precomp = {"v": "5.7.4", "fr": 24, "ip": 0, "op": 48, "w": 64, "h": 64, "nm": "precomp", "ddd": 0,
               "assets": [{"id": "comp_0", "layers": [layer(1, 4, "inner", shapes=loader_shapes()),
                                                      layer(2, 1, "bg", sc="#3366ff", sw=64, sh=64)]}],
               "layers": [layer(1, 0, "use", refId="comp_0", w=64, h=64, st=-6, sr=1.5,
                                tm=animated((0, 0), (48, 1.5)), masksProperties=[mask("a"), mask("s", True)]),
                          layer(2, 3, "null", ks=transform(rotation=animated((0, 0), (48, 90)))),
                          layer(3, 4, "child", parent=2, shapes=loader_shapes(), masksProperties=[mask("i"), mask("n")])]}
    matte = {"v": "5.12.1", "fr": 60, "ip": 0, "op": 90, "w": 48, "h": 48, "nm": "matte", "ddd": 0, "assets": [],
             "slots": {"tint": {"p": static([1, 0, 0, 1])}},
             "layers": [layer(1, 4, "matte", td=1, shapes=loader_shapes()),
                        layer(2, 4, "matted", tt=1, shapes=[
                            {"ty": "rc", "p": static([24, 24]), "s": static([48, 48]), "r": static(0)},
                            {"ty": "fl", "c": {"a": 0, "k": [0, 1, 0, 1], "sid": "tint"}, "o": static(100), "r": 1}]),
                        layer(3, 1, "solid", sc="#ff8800", sw=48, sh=48, hd=False, ip=10, op=80)]}
    return [("generated-shapes", shapes), ("generated-precomp", precomp), ("generated-matte", matte)]


def lottie_seeds(root):
    """(name, text, tree) of every seed: corpus/lottie/ and examples/lottie/ first, then the generated files."""
    seeds = []
    for folder in ("corpus/lottie", "examples/lottie"):
        directory = os.path.join(root, folder)
        if not os.path.isdir(directory):
            continue
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if not name.endswith(".json") or not os.path.isfile(path) or os.path.getsize(path) > 512 * 1024:
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                seeds.append((folder + "/" + name, text, json.loads(text)))
            except (OSError, ValueError):
                continue
    for name, tree in generated_files():
        seeds.append((name, json.dumps(tree), tree))
    return seeds


def layers_of(tree):
    """Every layer list in a file: the top one and each precomposition's."""
    lists = [tree.get("layers")] if isinstance(tree.get("layers"), list) else []
    for asset in tree.get("assets", []) if isinstance(tree.get("assets"), list) else []:
        if isinstance(asset, dict) and isinstance(asset.get("layers"), list):
            lists.append(asset["layers"])
    return [item for item in lists if item]


def any_layer(rng, tree):
    lists = layers_of(tree)
    if not lists:
        tree["layers"] = [layer(1, 4, "added", shapes=loader_shapes())]
        lists = [tree["layers"]]
    candidates = [item for items in lists for item in items if isinstance(item, dict)]
    return draw(rng, candidates) if candidates else None


def flood(rng, count):
    """A property of `count` keyframes."""
    return {"a": 1, "k": [{"t": t, "s": [rng.random() * 64, rng.random() * 64], "i": {"x": [0.5], "y": [0.5]},
                           "o": {"x": [0.5], "y": [0.5]}} for t in range(count)]}


def layer_list(tree):
    """The file's top layer list, made one when it has none (or a value of another type)."""
    if not isinstance(tree.get("layers"), list):
        tree["layers"] = []
    return tree["layers"]


def mutate_lottie(rng, tree):
    """One structural mutation of a Lottie tree: (tree, what was done). A mutation that meets
    what an earlier one left (a layer made a number) changes nothing and says so."""
    if not isinstance(tree, dict):
        return tree, "no mutation (the file is not an object)"
    try:
        return _mutate(rng, tree)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        return tree, "no mutation (an earlier one left no place for it)"


def _mutate(rng, tree):
    kind = draw(rng, ["number"] * 4 + ["type", "delete", "grow", "nest", "precomp cycle", "parent cycle", "vertices",
                                       "keyframes", "unsupported"] * 2 + ["layers", "timing", "image", "slot", "matte"])
    if kind == "number":
        numbers = [(path, value) for path, value in nodes(tree) if isinstance(value, (int, float)) and not isinstance(value, bool)]
        if numbers:
            path, _ = draw(rng, numbers)
            value = draw(rng, NUMBERS + NUMBER_TEXTS + [1e9, -1e9, 1e12, 2 ** 40])
            return replace(tree, path, value), "%s = %r" % ("/".join(map(str, path))[-60:], value)
    if kind == "type":
        path, _ = draw(rng, list(nodes(tree)))
        value = draw(rng, [None, True, "", "x", [], {}, [[]], {"a": 1}, 0, [0] * 5, {"k": "nope"}])
        return replace(tree, path, value), "%s made %r" % ("/".join(map(str, path))[-60:], value)
    if kind == "delete":
        objects = [(path, value) for path, value in nodes(tree) if isinstance(value, dict) and value]
        path, value = draw(rng, objects)
        key = draw(rng, list(value))
        del value[key]
        return tree, "deleted %s/%s" % ("/".join(map(str, path))[-60:], key)
    if kind == "grow":
        arrays = [(path, value) for path, value in nodes(tree) if isinstance(value, list) and value]
        path, value = draw(rng, arrays)
        count = draw(rng, [2, 10, 100, 1000, 10_000, 100_000])
        item = value[0]
        size = len(json.dumps(item))
        count = min(count, max(1, (4 << 20) // max(size, 1)))
        value.extend(copy.deepcopy(item) for _ in range(count - 1))
        return tree, "%s grown to %d" % ("/".join(map(str, path))[-60:], len(value))
    if kind == "nest":
        depth = draw(rng, [2, 16, 33, 63, 64, 65, 200])
        group = {"ty": "gr", "it": loader_shapes()}
        for _ in range(depth):
            group = {"ty": "gr", "it": [group, shape_transform()]}
        target = any_layer(rng, tree)
        if target is not None:
            target["ty"] = 4
            target["shapes"] = [group]
        return tree, "groups nested %d deep" % depth
    if kind == "precomp cycle":
        length = draw(rng, [1, 2, 3, 40])
        ids = ["cycle_%d" % i for i in range(length)]
        assets = assets_of(tree)
        for i, asset_id in enumerate(ids):
            assets.append({"id": asset_id, "layers": [layer(1, 0, "loop", refId=ids[(i + 1) % length], w=64, h=64)]})
        layer_list(tree).append(layer(99, 0, "enter", refId=ids[0], w=64, h=64))
        if rng.random() < 0.3:  # a chain without a cycle, past the depth bound
            depth = draw(rng, [31, 32, 33, 100])
            for i in range(depth):
                assets.append({"id": "chain_%d" % i, "layers": [layer(1, 0, "down", refId="chain_%d" % (i + 1), w=8, h=8)]})
            assets.append({"id": "chain_%d" % depth, "layers": [layer(1, 1, "floor", sc="#000000", sw=8, sh=8)]})
            tree["layers"].append(layer(98, 0, "chain", refId="chain_0", w=8, h=8))
            return tree, "precomp cycle of %d and a chain %d deep" % (length, depth)
        return tree, "precomp cycle of %d" % length
    if kind == "parent cycle":
        items = layers_of(tree)[0] if layers_of(tree) else layer_list(tree)
        length = draw(rng, [1, 2, 5, 300])
        base = 1000
        for i in range(length):
            items.append(layer(base + i, 3, "p%d" % i, parent=base + (i + 1) % length))
        if rng.random() < 0.3:
            chain = draw(rng, [255, 256, 257, 2000])
            for i in range(chain):
                items.append(layer(5000 + i, 3, "c%d" % i, **({"parent": 5000 + i + 1} if i + 1 < chain else {})))
            return tree, "parent cycle of %d and a chain of %d" % (length, chain)
        return tree, "parent cycle of %d" % length
    if kind == "vertices":
        count = draw(rng, [0, 1, 2, 1000, 99_999, 100_000, 100_001, 400_000])
        vertices = [[i % 64, (i * 7) % 64] for i in range(count)]
        path = {"c": rng.random() < 0.5, "v": vertices, "i": [[0, 0]] * count, "o": [[0, 0]] * count}
        if rng.random() < 0.3:
            path["i"] = path["i"][:count // 2]  # tangents short of the vertices
        target = any_layer(rng, tree)
        if target is not None:
            target["ty"] = 4
            target["shapes"] = [{"ty": "sh", "ks": static(path)}, {"ty": "fl", "c": static([1, 0, 0, 1]), "o": static(100)}]
        return tree, "a path of %d vertices" % count
    if kind == "keyframes":
        count = draw(rng, [2, 1000, 50_000, 200_000, 200_001])
        target = any_layer(rng, tree)
        if target is not None:
            target.setdefault("ks", transform())["p"] = flood(rng, count) if count < 100_000 else \
                {"a": 1, "k": [{"t": t, "s": [t % 64, 0]} for t in range(count)]}
        return tree, "%d keyframes" % count
    if kind == "unsupported":
        words, apply = draw(rng, UNSUPPORTED)
        target = any_layer(rng, tree)
        if target is not None:
            target.setdefault("ks", transform()).setdefault("o", static(100))
            if not isinstance(target["ks"]["o"], dict):
                target["ks"]["o"] = static(100)
            apply(target, rng)
        return tree, "unsupported: " + words
    if kind == "layers":
        count = draw(rng, [0, 1000, 9_999, 10_000, 10_001, 20_000])
        tree["layers"] = [layer(i + 1, 3, "n") for i in range(count)]
        return tree, "%d null layers" % count
    if kind == "timing":
        key = draw(rng, ["fr", "ip", "op", "st", "sr"])
        value = draw(rng, [0, -1, 1e-9, 1e9, 1e308, -1e308, 0.001, 240, 1000, "30", None])
        target = tree if key in ("fr", "ip", "op") else any_layer(rng, tree)
        if isinstance(target, dict):
            target[key] = value
        return tree, "%s = %r" % (key, value)
    if kind == "image":
        data = draw(rng, ["data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
                          "data:image/png;base64,!!!!", "data:image/png;base64," + "A" * 200_000, "../../../etc/passwd",
                          "/dev/zero", "in.png", "missing.png", "data:text/plain,hello"])
        w = draw(rng, [1, 64, 4096, 4097, 100_000, 0, -1])
        embedded = data.startswith("data:")
        assets_of(tree).append({"id": "image_0", "w": w, "h": w, "u": "", "p": data, "e": 1 if embedded else 0})
        layer_list(tree).append(layer(77, 2, "image", refId="image_0"))
        return tree, "an image asset %s, %d px" % (data[:40], w)
    if kind == "slot":
        tree["slots"] = draw(rng, [{"s": {"p": static(draw(rng, [[1, 0, 0, 1], 5, "x", None]))}}, [], {"": {}}, {"x": {"p": None}}])
        target = any_layer(rng, tree)
        if target is not None:
            target.setdefault("ks", transform())["o"] = {"a": 0, "k": 100, "sid": draw(rng, ["s", "missing", "", 5])}
        return tree, "slots %s" % json.dumps(tree["slots"])[:60]
    target = any_layer(rng, tree)
    if target is not None:
        target["tt"] = draw(rng, [1, 2, 3, 4, 0, 5, -1, "1"])
        target["tp"] = draw(rng, [target.get("ind", 1), 12345, -1, None])
    return tree, "track matte %r / tp %r" % (target.get("tt") if target else None, target.get("tp") if target else None)

"""What the scene-file family draws: every key the reader knows and some it knows nowhere,
hostile expressions and numbers, snippets of features the examples do not use, and the
structural and textual mutations of a scene file, each with the exit codes it must give."""

import json
import os
import re

from .values import NUMBERS, draw, mutate_text, mutate_tree, nodes, random_value, replace


# Every key the scene-file reader knows (docs/scene-files.md), so that a mutation can add a known
# key where it does not belong, and keys it knows nowhere, whose addition it must always refuse.
SCENE_KEYS = ["$schema", "format", "id", "summary", "note", "parameters", "relations", "clocks", "values", "canvas",
              "loop", "content", "name", "type", "unit", "default", "optional", "unset", "derive", "range", "sample",
              "within", "choices", "min", "max", "minInclusive", "maxInclusive", "logFrom", "require", "field",
              "text", "duration", "repeat", "autoreverses", "begin", "enabled", "value", "width", "height",
              "background", "seconds", "from", "preview", "clock", "keyTimes", "timing", "switch", "cases",
              "cubicBezier", "steps", "position", "visible", "center", "radius", "color", "size", "cornerRadius",
              "rotation", "scale", "start", "end", "sweep", "path", "turns", "trim", "offset", "mask", "kind", "cap",
              "function", "originX", "wavelength", "amplitude", "phase", "baseline", "bottom", "clip", "transform",
              "translate", "rotate", "anchor", "opacity", "count", "instance", "slot", "delayFrom", "delay", "tint",
              "base", "step", "order", "index"]
UNKNOWN_SCENE_KEYS = ["raduis", "Radius", "nope", "colour", "keytimes", "points", "", " ", "x" * 300, "é✓🙂", "__proto__",
                      "\u0000"]

# Expressions that have broken parsers and evaluators: unbalanced parentheses, division by zero,
# overflow, NaN-makers, unknown and misspelt names, wrong types and arities, the limits on length
# (1,000 characters), nodes (256) and depth (32), and text that is not an expression at all.
SCENE_EXPRESSIONS = [
    "(", ")", "((1)", "(1))", "1 +", "+", "* 2", "1 2", "()", "max(", "max(1,", "max(1,)", "max(,1)", ",", "?", "1 ? 2",
    "1 ? 2 :", ": 3", "1 < 2 < 3", "1 == 2 == 3", "!", "!!true", "&&", "1 && 2", "true + 1", "-", "--1", "- - - 1",
    "1 / 0", "0 / 0", "-1 / 0", "1 / (t - t)", "mod(1, 0)", "mod(t, 0)", "sqrt(-1)", "sqrt(-t - 1)", "pow(10, 400)",
    "pow(-8, 1 / 3)", "pow(0, -1)", "1e308 * 10", "1e308 + 1e308", "-1e308 * 1e308", "1e309", "1e-400", "NaN", "nan",
    "inf", "Infinity", "0x10", "1_000", "1.", ".5", "1e", "01", "9" * 400, "0." + "0" * 400 + "1",
    "nope", "dotsize", "Size", "bounce", "bounce.nope", "bounce.u.u", "nope.u", "bounce.", ".u", "spin.t / 0",
    "i", "count", "t", "pi", "true", "false", "scale", "background", "i / 0", "1 / i", "1 / count", "count / 0",
    "sin", "sin()", "sin(1, 2)", "min()", "max(1)", "clamp(1, 2)", "lerp(1)", "bezier(2, 0, 0, 1, 0.5)",
    "bezier(0, 0, 1, 1)", "tri(t)", "frac(1e308)", "floor(1e308) + 1", "ceil(-1e308)", "deg(1e308)", "rad(1e308)",
    "rgba(2, 0, 0, 1)", "rgba(-1, 0, 0, 1)", "rgba(0, 0, 0)", "rgba(1 / 0, 0, 0, 1)", "hsb(1, 1, 1, 1)",
    "hsb(1e308, 2, 2, 2)", "withAlpha(1, 2)", "withAlpha(color, 2)", "withBrightness(color, -1)", "mix(1, 2, 3)",
    "mix(color, color, 1e308)", "utf16Length(1)", "utf16Length('x')", "utf16Length(style)", "utf16Length(easing)",
    "'light'", "'x' == 'y'", "style == 'nope'", "easing == 'linear'", "easing == 'nope'", "easing == 1",
    "'", "''", "'unterminated", "\"", "\\", "#", "#ff", "#gggggg", "#ff0000", "#ff0000ff", "#ff0000ff00",
    "1 ; 2", "1 = 2", "a = 1", "1 ** 2", "1 % 2", "1 ^ 2", "x => x", "function() {}", "eval('1')", "$(rm -rf /)",
    "\u0000", "\n", "\t1", "1\u00a0+ 1", "é", "🙂", "１", "−1", "1 × 2", "1 ÷ 2", " ", "",
    "true ? 1 : 'a'", "true ? 1 : color", "1 < color", "color + 1", "color ? 1 : 2",
    "(" * 31 + "1" + ")" * 31, "(" * 33 + "1" + ")" * 33, "(" * 10_000 + "1" + ")" * 10_000, "(" * 100_000,
    "-" * 40 + "1", "!" * 40 + "true", "1" + " + 1" * 130, "1" + " + 1" * 249, "x" * 1000, "x" * 1001,
    "1" + " " * 1000, "max(" + ", ".join(["1"] * 300) + ")", "sin(" * 40 + "1" + ")" * 40,
]
# Expressions that read well but evaluate to the edges: overflow, underflow, steps at frame
# times, colour components that leave [0, 1] after t = 0, sizes past the canvas limits.
SCENE_EXTREMES = [
    "t * 1e6", "1e300 * sin(t)", "1e308 * (1 + t)", "1 / (1 + t)", "1 / t", "1 / (t - 1 / 60)", "mod(t, 1e-9)",
    "floor(t * 1e9)", "pow(2, 1023) * (2 - t)", "sqrt(1 / 60 - t)", "1e-300 * t", "-1e300", "100000", "100001",
    "10000", "10000 - t", "1e6 * t", "tri(t * 1e9)", "bezier(0.5, -100, 0.5, 100, t)", "lerp(0, 1e308, t * 60)",
    "rgba(t * 30, 0, 0, 1)", "hsb(t, 1, 1, 1)", "withAlpha(rgba(0, 0, 0, 1), 1 - t * 60)",
    "mix(rgba(0, 0, 0, 1), rgba(1, 1, 1, 1), t * 100)", "t < 0.02 ? 1 : -1", "t > 0 && t < 1",
    "deg(pi) * 1e300", "max(0, min(t, 1e-300))", "clamp(t, 1, 0)",
]
# Numbers for a scene file: the edges the job family uses and the scene limits (a replicator's
# 10,000 copies, a steps function's 1,000,000, the 256 key times, 64 parameters).
SCENE_NUMBERS = NUMBERS + [10_000, 10_001, 1_000_000, 1_000_001, 256, 257, 64, 65, 32, 33, 16, 17, 0.001, 0.0009,
                           1e-9, -1e-9, 100_000, 100_001, 1 - 1e-16]
# Features the examples do not use, for insertion: every node type with its optional keys,
# nested replicators with an index alias, tints, steps and cubic-Bézier timings, counted and
# autoreversed clocks.
SCENE_SNIPPETS = {
    "node": [
        {"type": "group", "transform": {"translate": [1, 2], "rotate": 45, "scale": 2, "anchor": [5, 5]}, "opacity": 0.5,
         "content": [{"type": "disc", "center": [5, 5], "radius": 2, "color": "#ff0000"}]},
        {"type": "replicator", "count": 3, "index": "outer", "order": "first-above", "delay": 0.1, "delayFrom": -0.2,
         "tint": {"base": [1, 1, 1, 1], "step": [0, -0.1, 0, -0.2]}, "instance": {"rotate": 30, "anchor": [5, 5], "slot": "i * 2"},
         "content": [{"type": "replicator", "count": "outer + 1", "instance": {"translate": [2, 0], "scale": 0.9},
                      "content": [{"type": "box", "center": [1, 1], "size": [2, 1], "scale": [1, 2], "rotation": "i * 10",
                                   "cornerRadius": 0.5, "color": "rgba(1, 0, 0, 0.5)"}]}]},
        {"type": "arc", "center": [5, 5], "radius": 4, "width": 1, "start": 0, "end": 270, "cap": "round", "color": "#000000"},
        {"type": "arc", "center": [5, 5], "radius": 4, "width": 1, "sweep": 720, "color": [0, 0, 0, 1]},
        {"type": "arc", "center": [5, 5], "radius": 4, "width": 1, "path": {"start": 90, "turns": 3},
         "trim": {"start": 0.1, "end": 0.9, "offset": "t"}, "mask": {"kind": "svprogresshud-angle"}, "color": "#00000080"},
        {"type": "wave", "function": "cos", "originX": 0, "wavelength": 10, "amplitude": 2, "phase": "t", "baseline": 5,
         "bottom": 9, "color": "#0000ff"},
        {"type": "disc", "id": "x", "visible": "t < 0.5", "center": [5, 5], "radius": "abs(sin(t))", "color": "hsb(t, 1, 1, 1)"},
        {"type": "text", "text": "hi", "size": 10, "at": [0, 0], "color": "#000000"},
        {"type": "polyline", "points": [[0, 0], [5, 5]], "width": 1, "color": "#000000"},
    ],
    "timing": [{"steps": 4}, {"steps": 1, "position": "jump-none"}, {"steps": 2, "position": "jump-none"},
               {"steps": 1_000_000, "position": "jump-both"}, {"steps": 0}, {"steps": 0.5}, {"steps": 1e308},
               {"steps": 3, "position": "nope"}, {"cubicBezier": [0.5, -100, 0.5, 100]},
               {"cubicBezier": [0.5, -101, 0.5, 0]}, {"cubicBezier": [1.5, 0, 0, 1]}, {"cubicBezier": [0, 0, 1]},
               {"cubicBezier": [1e-300, 1e-300, 1, 1]}, {"cubicBezier": [0, 1e308, 1, 0]}, "hold", "ease", "nope",
               ["linear"] * 255, []],
    "clock": [{"name": "c2", "duration": 0.001, "repeat": 1e6, "autoreverses": True, "begin": -1, "enabled": "true"},
              {"name": "c3", "duration": 60, "repeat": 2.5, "begin": 1e6},
              {"name": "c4", "duration": 1e-9}, {"name": "c5", "duration": "1 / 0"}, {"name": "c6", "duration": 59.999}],
    "value": [{"name": "v2", "value": "t * 1e308"}, {"name": "v3", "value": [0.1, 0.2, 0.3, 1]},
              {"name": "v4", "value": True}, {"name": "v5", "value": "v5"}, {"name": "v6", "value": "sqrt(t - 1)"}],
    "parameter": [{"name": "p2", "type": "integer", "default": 3, "range": {"min": 0, "max": 10000}},
                  {"name": "p3", "type": "choice", "default": "a", "choices": ["a", "b"]},
                  {"name": "p4", "type": "color", "optional": True, "unset": "p3", "derive": {"switch": "p3", "cases": {"a": "#000000", "b": "#ffffff"}}},
                  {"name": "p5", "type": "number", "unit": "s", "default": -1e6, "range": {"min": -1e6, "max": 1e6}},
                  {"name": "p6", "type": "number", "default": 1, "range": {"min": 0, "max": 1, "minInclusive": False, "maxInclusive": False}},
                  {"name": "p7", "type": "string", "default": "x"}, {"name": "p8", "type": "size", "default": "1x1"}],
}


def scene_seeds(root):
    """The scene files in examples/scenes, as (name, text, tree)."""
    seeds = []
    directory = os.path.join(root, "examples", "scenes")
    if os.path.isdir(directory):
        for name in sorted(os.listdir(directory)):
            if name.endswith(".scene.json"):
                with open(os.path.join(directory, name), encoding="utf-8") as f:
                    text = f.read()
                seeds.append((name, text, json.loads(text)))
    return seeds


def mutate_expression(rng, text):
    """A hostile expression, or this one made hostile."""
    choice = rng.randrange(10)
    if choice < 5 or not text:
        return draw(rng, SCENE_EXPRESSIONS)
    if choice == 5:
        return text + draw(rng, [" / 0", " / (t - t)", " * 1e308 * 1e308", ")", " +", " ? 1", " == 'nope'", " + nope"])
    if choice == 6:
        return draw(rng, ["(", "((", "sin(", "max(1, "]) + text
    if choice == 7:
        depth = draw(rng, [31, 32, 33, 200])
        return "(" * depth + text + ")" * depth
    if choice == 8:
        return " + ".join([text] * draw(rng, [2, 50, 300]))
    # A name misspelt: its case changed or a letter dropped.
    names = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)
    if not names:
        return text + "x"
    name = draw(rng, names)
    return text.replace(name, draw(rng, [name.upper(), name[:-1] or "x", name + "s", name.lower()]), 1)


def mutate_scene(rng, tree, context):
    """One mutation of a parsed scene file; returns (tree, words, codes), codes the exit codes the
    reader must give when this is the case's only change (None when it depends)."""
    if not isinstance(tree, dict):
        return mutate_tree(rng, tree, context), "a job-family mutation", None
    choice = rng.randrange(20)
    objects = [(path, value) for path, value in nodes(tree) if isinstance(value, dict)]
    arrays = [(path, value) for path, value in nodes(tree) if isinstance(value, list)]
    strings_ = [(path, value) for path, value in nodes(tree) if isinstance(value, str)]
    numbers = [(path, value) for path, value in nodes(tree)
               if isinstance(value, (int, float)) and not isinstance(value, bool)]
    where = lambda path: "/" + "/".join(str(step) for step in path)
    if choice < 3 and strings_:
        path, value = draw(rng, strings_)
        new = mutate_expression(rng, value) if rng.random() < 0.6 else draw(rng, SCENE_EXTREMES)
        return replace(tree, path, new), "expression at %s: %r" % (where(path), new[:60]), None
    if choice < 5 and numbers:
        path, value = draw(rng, numbers)
        new = draw(rng, SCENE_NUMBERS) if rng.random() < 0.8 else draw(rng, ["1 / 0", "0 / 0", "1e309", "-0", "1e308 * 10"])
        return replace(tree, path, new), "number at %s: %r" % (where(path), new), None
    if choice == 5:
        path, value = draw(rng, objects)
        key = draw(rng, UNKNOWN_SCENE_KEYS)
        value[key] = random_value(rng, context)
        return tree, "unknown key %r in %s" % (key[:20], where(path)), {65}
    if choice == 6:
        path, value = draw(rng, objects)
        key = draw(rng, SCENE_KEYS)
        value[key] = random_value(rng, context) if rng.random() < 0.5 else json.loads(json.dumps(draw(rng, objects)[1]))
        return tree, "key %r set in %s" % (key, where(path)), None
    if choice == 7:
        path, value = draw(rng, [(p, v) for p, v in objects if v] or objects)
        if not value:
            return tree, "nothing", None
        key = draw(rng, list(value))
        if rng.random() < 0.5:
            del value[key]
            return tree, "deleted %s/%s" % (where(path), key), None
        renamed = key + draw(rng, ["_x", "X", " ", "\u0000"])
        value[renamed] = value.pop(key)
        return tree, "renamed %s/%s to %r" % (where(path), key, renamed), {65}
    if choice == 8:
        path, value = draw(rng, list(nodes(tree))[1:] or [((), tree)])
        new = draw(rng, [[], {}, "x", True, None, [[[]]], 12, -1, "dotSize", [0, 0], [1, 1, 1, 1], {"clock": "nope"},
                         {"switch": "nope", "cases": {}}])
        return replace(tree, path, json.loads(json.dumps(new))), "wrong type at %s: %r" % (where(path), new), None
    if choice == 9 and arrays:
        path, value = draw(rng, arrays)
        op = rng.randrange(5)
        if op == 0 and value:
            value.extend(json.loads(json.dumps(draw(rng, value))) for _ in range(draw(rng, [1, 2, 64, 300, 600])))
            return tree, "grew %s to %d" % (where(path), len(value)), None
        if op == 1 and value:
            del value[rng.randrange(len(value))]
            return tree, "shrank %s" % where(path), None
        if op == 2:
            value.clear()
            return tree, "emptied %s" % where(path), None
        if op == 3:
            value.reverse()
            return tree, "reversed %s" % where(path), None
        rng.shuffle(value)
        return tree, "shuffled %s" % where(path), None
    tracks = [(path, value) for path, value in objects if "keyTimes" in value]
    if choice == 10 and tracks:
        path, track = draw(rng, tracks)
        op = rng.randrange(7)
        if op == 0:
            track["keyTimes"] = list(reversed(track["keyTimes"]))
        elif op == 1:
            track["keyTimes"] = [draw(rng, [0, 0.5, 1, -0.1, 1.1, 1e308, 0.4]) for _ in track["keyTimes"]]
        elif op == 2:
            track["keyTimes"] = track["keyTimes"][:-1]
        elif op == 3:
            count = draw(rng, [256, 257, 10_000])
            track["keyTimes"] = [k / (count - 1) for k in range(count)]
            track["values"] = [draw(rng, track["values"]) for _ in range(count)]
        elif op == 4:
            track["timing"] = json.loads(json.dumps(draw(rng, SCENE_SNIPPETS["timing"])))
        elif op == 5:
            track["timing"] = [draw(rng, ["linear", "hold", {"steps": 2}]) for _ in range(rng.randrange(0, 6))]
        else:
            track["clock"] = draw(rng, ["nope", "", "t", "bounce.u", "Bounce", "dotSize", "spin"])
        return tree, "track at %s: %s" % (where(path), ["keyTimes reversed", "keyTimes drawn", "a key time fewer",
                                                           "many key times", "timing drawn", "timings per segment",
                                                           "clock renamed"][op]), None
    if choice == 11:
        # Deep groups or replicators around the content: groups nest 16 deep, replicators 2 (and
        # 10,000 copies each), JSON 64 levels.
        depth = draw(rng, [1, 2, 3, 15, 16, 17, 31])
        kind = draw(rng, ["group", "group", "replicator"])
        content = tree.get("content") if isinstance(tree.get("content"), list) else []
        for level in range(depth if kind == "group" else min(depth, 3)):
            if kind == "group":
                content = [{"type": "group", "transform": {"rotate": 360 * level, "scale": draw(rng, [1, 2, 1e-300, 1e300])},
                            "opacity": 0.9, "content": content}]
            else:
                content = [{"type": "replicator", "count": draw(rng, [2, 100, 10_000, "10000", 10_001, 1e6]),
                            "index": "r%d" % level, "instance": {"rotate": 10}, "delay": 0.01, "content": content}]
        tree["content"] = content
        return tree, "content under %d %ss" % (depth, kind), None
    if choice == 12:
        key = draw(rng, ["node", "node", "timing", "clock", "value", "parameter"])
        snippet = json.loads(json.dumps(draw(rng, SCENE_SNIPPETS[key])))
        if key == "node":
            containers = [value for path, value in arrays if path and path[-1] == "content"] or [tree.setdefault("content", [])]
            draw(rng, containers).insert(0, snippet)
        elif key == "timing":
            if not tracks:
                return tree, "nothing", None
            draw(rng, tracks)[1]["timing"] = snippet
        else:
            plural = key + "s" if key != "value" else "values"
            if not isinstance(tree.get(plural), list):
                tree[plural] = []
            tree[plural].append(snippet)
        return tree, "added a %s: %s" % (key, json.dumps(snippet)[:60]), None
    if choice == 13:
        # Counts: a replicator's, an integer parameter's default, or a list at and past its limit.
        replicators = [value for path, value in objects if value.get("type") == "replicator"]
        if replicators and rng.random() < 0.6:
            value = draw(rng, replicators)
            value["count"] = draw(rng, [10_000, 10_001, 1_000_000, -1, 0, 0.5, 1e308, "1e6", "count", "i", "t * 1e6",
                                        "10000 - t", "floor(t * 1e9)"])
            return tree, "replicator count %r" % value["count"], None
        plural, limit = draw(rng, [("parameters", 64), ("values", 256), ("clocks", 32), ("relations", 64), ("content", 512)])
        items = tree.get(plural) if isinstance(tree.get(plural), list) and tree.get(plural) else None
        if not items:
            return tree, "nothing", None
        want = limit + draw(rng, [0, 1, 1000])
        grown = []
        while len(grown) < want:
            item = json.loads(json.dumps(items[len(grown) % len(items)]))
            if isinstance(item, dict) and "name" in item:
                item["name"] = "%s%d" % (item["name"], len(grown))
            if isinstance(item, dict) and "id" in item:
                item["id"] = "%s%d" % (item["id"], len(grown))
            grown.append(item)
        tree[plural] = grown
        return tree, "%s grown to %d" % (plural, want), None
    if choice == 14:
        # Names: a declaration renamed (its readers left behind), a reserved or repeated name.
        declared = [value for path, value in objects if isinstance(value.get("name"), str)]
        if declared:
            value = draw(rng, declared)
            new = draw(rng, ["t", "i", "count", "pi", "true", "scale", "background", "sin", "mix", "utf16Length",
                             "x y", "1a", "", "a.b", value["name"] + "2", value["name"].upper(), draw(rng, declared)["name"]])
            old, value["name"] = value["name"], new
            return tree, "renamed %r to %r" % (old, new), None
    if choice == 15:
        # A switch or index naming what it should not.
        switches = [value for path, value in objects if "switch" in value]
        if switches:
            value = draw(rng, switches)
            value["switch"] = draw(rng, ["nope", "dotSize", "color", "", "t", "i"])
            return tree, "switch on %r" % value["switch"], None
        if isinstance(tree.get("content"), list) and tree["content"] and isinstance(tree["content"][0], dict):
            tree["content"][0]["index"] = draw(rng, ["i", "t", "count", "dotSize", "c", "sin", "x y"])
            return tree, "index %r" % tree["content"][0]["index"], None
    if choice == 16:
        tree["id"] = draw(rng, ["", "a/b", "..", "ring", "activity", "x" * 65, "x" * 64, "é✓", "a b", "a.b", "\u0000",
                                "../../escape", "%s", "{name}", "CON"])
        return tree, "id %r" % tree["id"][:20], None
    if choice == 17:
        tree["canvas"] = draw(rng, [{"width": 0, "height": 1}, {"width": 100000, "height": 100000},
                                    {"width": 100001, "height": 1}, {"width": "1 / 0", "height": 1},
                                    {"width": -1, "height": 10}, {"width": 1e-300, "height": 1e-300},
                                    {"width": 10, "height": 10, "background": "#ff000080"},
                                    {"width": 10, "height": 10, "background": "t"},
                                    {"width": 10, "height": 10, "background": [2, 0, 0, 1]},
                                    {"width": 3000, "height": 3000}, {"width": 16385, "height": 1}, {"width": 10}])
        return tree, "canvas %s" % json.dumps(tree["canvas"]), None
    if choice == 18:
        tree["loop"] = draw(rng, [{"seconds": 0}, {"seconds": -1}, {"seconds": 1e-9}, {"seconds": 1e6}, {"seconds": 1e300},
                                  {"seconds": "1 / 0"}, {"from": -1}, {"from": 1e300}, {"preview": 1e-9}, {"preview": -1},
                                  {"preview": 3600}, {"preview": 1e300}, {"seconds": 59.99, "from": 1}])
        return tree, "loop %s" % json.dumps(tree["loop"]), None
    return mutate_tree(rng, tree, context), "a job-family mutation", None


def mutate_scene_text(rng, text):
    """One mutation of a scene file's text, as bytes; returns (bytes, words, codes)."""
    choice = rng.randrange(7)
    data = text.encode("utf-8", "surrogatepass")
    at = rng.randrange(len(data)) if data else 0
    if choice == 0:
        # Cut before the closing brace: never valid JSON.
        cut = rng.randrange(max(1, len(text.rstrip()) - 1))
        return text[:cut].encode("utf-8", "surrogatepass"), "truncated at %d" % cut, {65}
    if choice == 1:
        # Not UTF-8: a bad sequence, a byte-order mark or NUL first, or UTF-16.
        if rng.random() < 0.3:
            return text.encode("utf-16"), "UTF-16", {65}
        if rng.random() < 0.3:
            prefix = draw(rng, [b"\xef\xbb\xbf", b"\xff\xfe", b"\x00"])
            return prefix + data, "prefixed %r" % prefix, {65}
        bad = draw(rng, [b"\xff", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82", b"\x80"])
        return data[:at] + bad + data[at:], "invalid UTF-8 %r at %d" % (bad, at), {65}
    if choice == 2:
        # A key repeated: the reader refuses duplicate keys.
        keys = re.findall(r'"([A-Za-z$]+)": ', text)
        if keys:
            key = draw(rng, keys)
            doubled = text.replace('"%s": ' % key, '"%s": 0, "%s": ' % (key, key), 1)
            return doubled.encode("utf-8", "surrogatepass"), "key %r twice" % key, {65}
    if choice == 3:
        # Past the 256 KiB limit (or at it) with a long note.
        pad = draw(rng, [262_144 - len(data) - 20, 262_145, 1 << 20])
        padded = text.replace("{", '{"note": "%s", ' % ("n" * max(0, pad)), 1).encode()
        return padded, "%d bytes" % len(padded), {65} if len(padded) > 262_144 else None
    if choice == 4:
        return draw(rng, [b"", b"null", b"[]", b"{}", b"0", b'"x"', b"{" * 100_000]), "replaced whole", {65}
    return mutate_text(rng, text).encode("utf-8", "surrogatepass"), "job-family text mutation", None

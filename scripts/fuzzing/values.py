"""What every family draws from: the numbers and strings that have broken parsers before, the
structural and textual mutations of a JSON file, and the seed jobs (the job-file family's, which
the command-line family borrows)."""

import json
import os


# Numbers that have broken parsers and arithmetic before: zero, signs, the edges of Int and
# Double, denormals, values just off an integer.
NUMBERS = [0, -0.0, 1, -1, 2, 3, 0.5, 0.999999, 1.0000001, 7, 12, 60, 100, 255, 256, 1000, 4096,
           65535, 65536, 1e6, 12345678, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 + 1, 2 ** 63 - 1,
           2 ** 63, 2 ** 64, -(2 ** 63), 1e20, -1e20, 1e300, -1e300, 1e308, -1e308, 1e-300,
           -1e-300, 5e-324, 3.14159, -0.5]
NUMBER_TEXTS = ["1e309", "-1e309", "NaN", "nan", "inf", "-inf", "Infinity", "0x10", "1_000",
                "01", "1.", ".5", "1e", "--1", "+1", "9" * 400, "0." + "0" * 400 + "1",
                # pairs (the hud's screen, minimumSize, offset) and number-or-keyword (dismissAt)
                "390x844", "0x0", "1e6x1e6", "100000x100000", "1x", "x1", "nanx1", "390x844x2", "0,-40", "-1e6,1e6",
                "1e309,0", "auto", "AUTO", "auto1", "none"]


def strings(context):
    """Strings drawn for a string field: names, paths, patterns and hostile text."""
    return [
        "", " ", "x", "ring", "wave-ball", "activity", "pull-wave", "double-wave", "progress-ring",
        "png", "rgba", "y4m", "sheet", "gif", "webp", "apng", "mp4", "dark", "light", "custom",
        "out.png", "out/frame_%04d.png", "f_%d.png", "%05d", "%0999d.png", "%s.png", "%%.png",
        "{name}_{scale}x_%03d.png", "{nope}.png", "{name", "a/b/c/d.png", "../escape.png", "/",
        ".", "..", "dir", "dir/", "null", context["job"], "./" + context["job"], "out.rgba",
        "sheet.png", "sheet.json", "x" * 300, "y" * 100_000, "é✓🙂", "\u0000", "a\nb", "\t",
        "#ff0000", "1,0,0,1", "0.2,0.3", "red", "none", "transparent", "-1,-1,-1,-1",
    ]


def draw(rng, items):
    return items[rng.randrange(len(items))]


def random_value(rng, context, depth=0):
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind <= 1:
        return draw(rng, NUMBERS)
    if kind == 2:
        return draw(rng, strings(context))
    if kind == 3:
        return draw(rng, [True, False, None])
    if kind == 4:
        return draw(rng, [[0.2, 0.8, 0.3, 1], [1, 1, 1], [], [1e308] * 4, [-1, 0, 0, 1]])
    if kind == 5:
        return [random_value(rng, context, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 6:
        return {draw(rng, context["keys"]): random_value(rng, context, depth + 1) for _ in range(rng.randrange(3))}
    return draw(rng, NUMBER_TEXTS)


def nodes(tree, path=()):
    """Every (path, value) in a JSON tree."""
    yield path, tree
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from nodes(value, path + (key,))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            yield from nodes(value, path + (index,))


def replace(tree, path, value):
    if not path:
        return value
    parent = tree
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return tree


def mutate_tree(rng, tree, context):
    """One structural mutation of a parsed job."""
    candidates = list(nodes(tree))
    path, value = draw(rng, candidates)
    choice = rng.randrange(10)
    if isinstance(value, bool) or value is None:
        return replace(tree, path, random_value(rng, context))
    if isinstance(value, (int, float)) and choice < 7:
        return replace(tree, path, draw(rng, NUMBERS) if choice < 5 else draw(rng, NUMBER_TEXTS))
    if isinstance(value, str) and choice < 6:
        return replace(tree, path, draw(rng, strings(context)))
    if isinstance(value, dict):
        if choice < 3 and value:
            del value[draw(rng, list(value))]
            return tree
        if choice < 7:
            value[draw(rng, context["keys"])] = random_value(rng, context)
            return tree
    if isinstance(value, list):
        if choice < 3 and value:
            value.append(json.loads(json.dumps(draw(rng, value))))
            return tree
        if choice < 5 and value:
            del value[rng.randrange(len(value))]
            return tree
    return replace(tree, path, random_value(rng, context))


def mutate_text(rng, text):
    """One byte-level mutation of a job file's text."""
    choice = rng.randrange(6)
    if not text:
        return "{"
    at = rng.randrange(len(text))
    if choice == 0:
        return text[:at]
    if choice == 1:
        return text[:at] + draw(rng, ["{", "}", "[", "]", ",", ":", "\"", "\\", "\u0000", "e9", "-"]) + text[at:]
    if choice == 2:
        return text[:at] + text[at + 1:]
    if choice == 3:
        depth = draw(rng, [100, 1000, 100_000])
        return "[" * depth + text + "]" * depth
    if choice == 4:
        return text[:at] + text[at:at + 40] * rng.randrange(2, 50) + text[at:]
    return text.replace(":", ": " + draw(rng, ["1e999", "-0", "1E-400", "123456789012345678901234567890"]) + " ,", 1)


def seed_jobs(root):
    """Small valid jobs of every output kind, and the repository's examples."""
    jobs = [
        {"renders": [{"scene": "ring", "frames": 2, "outputs": [{"type": "png", "pattern": "ring_%03d.png"}]}]},
        {"renders": [{"scene": "wave-ball", "frames": 1, "scale": 0.5, "parameters": {"progress": 0.7, "tickCount": 12},
                      "outputs": [{"type": "rgba", "path": "w.rgba"}]}]},
        {"renders": [{"scene": "activity", "frames": 2, "outputs": [{"type": "y4m", "path": "a.y4m"}]}]},
        {"renders": [{"scene": "pull-wave", "frames": 3, "outputs": [{"type": "sheet", "path": "s.png", "json": "s.json"}]}]},
        {"renders": [{"scene": "double-wave", "duration": 0.05, "fps": 30, "outputs": [{"type": "png", "pattern": "d_%02d.png"}]}]},
        {"renders": [{"scene": "progress-ring", "loop": True, "fps": 10, "scales": [1, 2],
                      "outputs": [{"type": "png", "pattern": "{name}@{scale}x_%03d.png"}]}]},
        {"pngLevel": 1, "backend": "cpu", "renders": [{"scene": "ring", "name": "r", "frames": 1,
                                                       "outputs": [{"type": "rgba", "path": "null"}]}]},
        {"renders": [{"scene": "hud", "fps": 10, "parameters": {"screen": "60x80", "mask": "gradient", "showAt": 0},
                      "chain": [{"parameters": {"state": "ring", "status": "Hi"}, "frames": 2},
                                {"parameters": {"state": "error", "status": "No", "showAt": 0.2, "fadeIn": 0, "dismissAt": "auto"}}],
                      "outputs": [{"type": "sheet", "path": "h.png"}, {"type": "rgba", "path": "h.rgba"}]}]},
        {"pngEncoder": "isal", "pngLevel": 2, "renders": [{"scene": "ring", "frames": 2,
                                                          "outputs": [{"type": "png", "pattern": "i_%03d.png", "level": 3}]}]},
    ]
    examples = os.path.join(root, "examples")
    if os.path.isdir(examples):
        for name in sorted(os.listdir(examples)):
            if name.endswith(".json"):
                with open(os.path.join(examples, name)) as f:
                    jobs.append(json.load(f))
    return jobs


def keys_of(jobs):
    found = set()
    for job in jobs:
        for path, _ in nodes(job):
            found.update(step for step in path if isinstance(step, str))
    return sorted(found)

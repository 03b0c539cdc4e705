"""What the path-data family draws (docs/fuzzing.md): SVG path data random and hostile, and path
nodes (docs/scene-files.md) whose fields are hostile, each with the exit codes its scene file must
give when it is the only hostile thing in it."""


from .values import draw

# The reader's limit on one path's segments (lines and cubics, an arc counted as its cubics).
MOST_SEGMENTS = 65_536

COMMANDS = "MLHVCSQTAZmlhvcsqtaz"
# How many numbers each command takes per repeat (A's flags among them).
ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}

# Text in the place of a number that SVG's grammar refuses: NaN-like, infinite, other bases.
BAD_NUMBERS = ["NaN", "nan", "inf", "-inf", "Infinity", "1e309", "-1e309", "9" * 400, "0x10", "1_000", "--1", "+-1",
               ".", "-", "+", "e5", "1e", "1e+", "١", "１", "−1", "1\u00a0", "#", "true", "null", "()"]
# Numbers SVG's grammar accepts at the edges of a double: huge, tiny, denormal, sums that overflow.
EDGE_NUMBERS = ["1e308", "-1e308", "1.7976931348623157e308", "1e307", "5e-324", "1e-300", "-0", "0." + "0" * 400 + "1",
                "9007199254740993", "4294967296", "1e38", "3.4e38", "1e-7", "0", "00000001", "1.5.5", ".5.5", "-.5e-3"]
# Characters that are not path data, or look like it: non-ASCII digits and letters, separators
# SVG does not know, controls, line breaks Python and terminals split on.
FOREIGN = ["é", "М", "Ｍ", "🙂", "\u00a0", "\u2028", "\u2029", "\u0085", "\u000b", "\u001c", "\u200b", "\ufeff", "\u0000",
           "\t", ";", "_", "#", "\\", "\"", "'", "{", "<path d=", "x"]


def number(rng, small=True):
    """A number as path data writes it: signs, points, exponents, packed forms."""
    value = rng.uniform(-60, 60) if small else rng.uniform(-1e4, 1e4)
    form = rng.randrange(6)
    if form == 0:
        return "%d" % round(value)
    if form == 1:
        return ("%.3f" % value).rstrip("0")
    if form == 2:
        return "%.2e" % value
    if form == 3:
        return ("%.2f" % value).replace("0.", ".", 1)
    return "%g" % value


def arguments(rng, letter):
    """Valid arguments for one repeat of `letter` (an arc's flags 0 or 1, sometimes packed)."""
    upper = letter.upper()
    if upper == "A":
        rx = draw(rng, ["0", number(rng), "%g" % abs(rng.uniform(0, 40))])
        flags = draw(rng, ["0 0", "1 0", "0 1", "1 1", "01", "11", "1,0"])
        return "%s %s %s %s %s %s" % (rx, "%g" % abs(rng.uniform(0, 40)), number(rng), flags, number(rng), number(rng))
    return joined(rng, [number(rng) for _ in range(ARITY[upper])])


def joined(rng, numbers):
    """Numbers separated as SVG allows: spaces, commas, newlines, or nothing before a sign."""
    separator = draw(rng, [" ", ",", " ,", "", "\n"])
    text = numbers[0]
    for item in numbers[1:]:
        text += (separator or " ") if separator or not item.startswith("-") else ""
        text += item
    return text


def valid_data(rng, commands=12):
    """Random valid path data: every command, absolute and relative, implicit repeats, arcs
    with zero radii and packed flags, separators of every kind."""
    parts = [draw(rng, ["M", "m"]) + arguments(rng, "M")]
    for _ in range(rng.randrange(1, commands)):
        letter = draw(rng, COMMANDS)
        if letter.upper() == "Z":
            parts.append(letter)
            continue
        repeats = 1 + (rng.randrange(4) if rng.random() < 0.3 else 0)
        parts.append(letter + " ".join(arguments(rng, letter) for _ in range(repeats)))
    return draw(rng, [" ", "", "\n", "  "]).join(parts)


def hostile_data(rng, hostile=True):
    """Path data and the exit codes a file holding it must give: {0} valid, {65} refused, or
    both where the answer depends on how far a value reaches. Valid data when not `hostile`."""
    kind = rng.randrange(12) if hostile else 0
    base = valid_data(rng)
    if kind == 0:
        return base, "valid path data", {0}
    if kind == 1:
        # A number replaced by text the grammar refuses.
        letter = draw(rng, "LCQSTA")
        args = arguments(rng, letter).split(" ")
        args[rng.randrange(len(args))] = draw(rng, BAD_NUMBERS)
        return "M 1 2 %s%s" % (letter, " ".join(args)), "a number replaced by a bad one", {65}
    if kind == 2:
        # Every coordinate an edge of a double: relative sums overflow, arcs of 1e308 radii.
        edge = [draw(rng, EDGE_NUMBERS) for _ in range(8)]
        data = draw(rng, ["M %s %s l %s %s %s %s" % tuple(edge[:6]), "m %s %s c %s %s %s %s %s %s" % tuple(edge),
                          "M 0 0 A %s %s %s 1 1 %s %s" % tuple(edge[:5]), "M %s %s h %s v %s z" % tuple(edge[:4]),
                          "M0 0 L %s %s" % (edge[0], edge[1]) + " l 1e308 1e308" * 3])
        return data, "numbers at the edges of a double", {0, 65}
    if kind == 3:
        # Truncated: the text of valid data cut anywhere after its first pair.
        cut = rng.randrange(1, len(base) + 1)
        return base[:cut], "valid data cut at %d of %d" % (cut, len(base)), {0, 65}
    if kind == 4:
        # A command letter with too few or bad arguments.
        letter = draw(rng, COMMANDS[1:])
        if letter.upper() == "Z":
            return "M 0 0 %s %s" % (letter, draw(rng, ["1", "1 2", "Z 1"])), "numbers after Z", {65}
        good = arguments(rng, letter).split()
        bad = draw(rng, [good[:-1], good[:-1] + [draw(rng, BAD_NUMBERS)], [draw(rng, ["x", "Q", ",x"])] + good])
        if letter.upper() == "A" and rng.random() < 0.5:
            bad = good[:3] + [draw(rng, ["2", "-1", "0.5", "x"])] + good[4:]
        return "M 1 1 %s %s" % (letter, " ".join(bad)), "%s with bad arguments" % letter, {65}
    if kind == 5:
        # Not starting with a move; nothing at all; a lone move; dots.
        data = draw(rng, ["L 1 1", "1 1", "Z", "z M 0 0", "C 1 2 3 4 5 6", "A 1 1 0 0 0 5 5", ",M 0 0"])
        if rng.random() < 0.5:
            return data, "data that does not start with M", {65}
        return draw(rng, ["", " ", "\n\t ", "M 0 0", "M 5 5 Z", "M 5 5 L 5 5", "m0 0z m1 1z", "M1 1 A 0 0 0 0 0 9 9",
                          "M1 1 A 5 5 0 0 0 1 1", "M1 1 A 0 7 0 1 1 9 9 z"]), "empty, lone, dot or zero-radius data", {0}
    if kind == 6:
        # Deeply repeated implicit commands, at the reader's segment limit and one past it.
        count = draw(rng, [10_000, MOST_SEGMENTS - 1, MOST_SEGMENTS, MOST_SEGMENTS + 1])
        letter, each = draw(rng, [("h", "1 "), ("l", "1 1 "), ("m0 0", " .1 .1")])
        data = "M0 0" + letter + each * count
        codes = {65} if count > MOST_SEGMENTS else {0, 65}
        return data, "%d implicit %s repeats" % (count, letter), codes
    if kind == 7:
        # Arcs: zero radii (a line), radii too small (scaled up), huge and negative, NaN-like flags.
        rx, ry = draw(rng, ["0", "-5", "1e-300", "1e308", "0.001", "25"]), draw(rng, ["0", "-5", "1e-300", "1e308", "25"])
        data = "M 10 10 " + " ".join("A %s %s %s %s %s %s %s" % (rx, ry, draw(rng, ["0", "45", "-720", "1e308"]),
                                                                draw(rng, "01"), draw(rng, "01"), number(rng), number(rng))
                                     for _ in range(1 + rng.randrange(5)))
        return data, "arcs with radii %s, %s" % (rx, ry), {0, 65}
    if kind == 8:
        # Foreign characters put anywhere.
        at = rng.randrange(len(base) + 1)
        foreign = draw(rng, FOREIGN)
        return base[:at] + foreign + base[at:], "%r inserted at %d" % (foreign, at), {0, 65} if foreign == "\t" else {65}
    if kind == 9:
        # Random characters of path data's alphabet.
        alphabet = COMMANDS + "0123456789.,-+eE \n"
        return "M0 0" + "".join(draw(rng, alphabet) for _ in range(rng.randrange(1, 300))), "random path alphabet", {0, 65}
    if kind == 10:
        # Tiny segments, as many as a file under 256 KiB holds (a replicator multiplies them).
        count = rng.randrange(1000, 25_000)
        return "M0 0l" + " .001 .001" * count, "%d tiny segments" % count, {0, 65}
    # A valid path's text with a byte-level mutation.
    data = list(base)
    for _ in range(1 + rng.randrange(3)):
        at = rng.randrange(len(data) + 1)
        op = rng.randrange(3)
        if op == 0 and data:
            del data[min(at, len(data) - 1)]
        elif op == 1:
            data.insert(at, draw(rng, COMMANDS + "0.-e,"))
        else:
            data[at:at] = data[max(0, at - 8):at] * rng.randrange(1, 50)
    return "".join(data), "valid data mutated", {0, 65}


# Hostile values of the node's number fields: edges, expressions that fail, NaN-makers as text.
FIELD_NUMBERS = [0, -1, -1e308, 1e308, 1e-300, 5e-324, 0.5, 2, 1000, 1e6, "1 / 0", "0 / 0", "sqrt(-1)", "1e309", "NaN",
                 "t * 1e6", "1e308 * (1 + t)", "mod(t, 0)", "frac(t)", "-t", True, None, [], {}, "", "x"]
COLOURS = [[1, 0, 0, 1], [0.2, 0.4, 0.9, 0.5], [0, 0, 0, 0], "rgba(1, 1, 0, 1)", [2, -1, 0, 1], [1, 1, 1], "#ff0000", "none",
           "rgba(0 / 0, 0, 0, 1)", None]


def stops(rng, hostile=True):
    """Gradient stops, fine or hostile: none, one, offsets outside [0, 1] or unordered, many."""
    kind = rng.randrange(6) if hostile else 5
    if kind == 0:
        return [], {0, 65}
    if kind == 1:
        return [[draw(rng, FIELD_NUMBERS), draw(rng, COLOURS)] for _ in range(rng.randrange(1, 4))], {0, 65}
    if kind == 2:
        return [[rng.random(), draw(rng, COLOURS[:3])] for _ in range(draw(rng, [1, 2, 3, 1000]))], {0, 65}
    if kind == 3:
        return [[0, [1, 0, 0, 1]], [1]], {65}
    return [[round(rng.random(), 3), draw(rng, COLOURS[:4])] for _ in range(rng.randrange(1, 5))], {0}


def paint(rng, hostile=True):
    """A fill or stroke paint and the codes it alone must give; a fine one when not `hostile`."""
    kind = rng.randrange(8)
    if kind < 3:
        colour = draw(rng, COLOURS) if hostile else draw(rng, COLOURS[:4] + ["none"])
        return colour, {0} if colour in COLOURS[:4] or colour == "none" else {0, 65}
    if kind == 3 and hostile:
        return draw(rng, [5, [], {}, "nonsense", {"linear": {}, "radial": {}}, {"conic": {}}]), {65}
    listed, codes = stops(rng, hostile)
    if kind < 6:
        ends = [draw(rng, [[0, 0], [48, 48], [1e308, 0], ["0 / 0", 1], [1], "x"]) if hostile
                else [rng.randrange(-10, 60), rng.randrange(-10, 60)] for _ in range(2)]
        known = codes if not hostile or all(end in ([0, 0], [48, 48]) for end in ends) else {0, 65}
        return {"linear": {"from": ends[0], "to": ends[1], "stops": listed}}, known
    radius = draw(rng, [10, 0, -1, 1e308, 1e-300, "1 / 0"]) if hostile else draw(rng, [10, 0, 30, 0.5])
    radial = {"center": [24, 24], "radius": radius, "stops": listed}
    codes = codes if radius in (10, 0, 30, 0.5) else {0, 65}
    if rng.random() < 0.4:
        # A focal point (Lottie's highlight, clamped to ±0.99, and its angle in degrees).
        radial["highlight"] = draw(rng, [0.5, 1.5, -2, 1e308, "0 / 0", 0.99]) if hostile else draw(rng, [0.5, -0.9, 0.99, 0])
        radial["angle"] = draw(rng, [45, -720, 1e308, "1 / 0"]) if hostile else draw(rng, [45, -720, 0, "spin.t * 360"])
        codes = codes if not hostile else {0, 65}
    return {"radial": radial}, codes


def stroke(rng, hostile=True):
    """A stroke object, fine or hostile, and the codes it alone must give."""
    colour, codes = paint(rng, hostile=False)
    value = {"paint": colour, "width": draw(rng, [1, 4, 0.1, 12])}
    if not hostile:
        for key, choices in (("join", ["miter", "round", "bevel"]), ("cap", ["butt", "round", "square"]),
                             ("miterLimit", [1, 4, 10]), ("dash", [[2, 1], [0, 3], [5, 1, 2]]), ("dashOffset", [0, -3, "spin.t * 8"])):
            if rng.random() < 0.4:
                value[key] = draw(rng, choices)
        return value, codes
    hostile = rng.randrange(9)
    if hostile == 8:
        colour, codes = paint(rng)
        value["paint"] = colour
    elif hostile == 0:
        value["width"] = draw(rng, FIELD_NUMBERS)
        codes = {0, 65}
    elif hostile == 1:
        value["dash"] = draw(rng, [[], [0], [0, 0], [1, -1], [-1], [1e308, 1e308], [5e-324], ["1 / 0"], [0.001] * 3,
                                   [1] * 1000, [1, 2, 3], "1 2", 5, [None]])
        codes = {0, 65}
    elif hostile == 2:
        value.update({"dash": [2, 1], "dashOffset": draw(rng, FIELD_NUMBERS)})
        codes = {0, 65}
    elif hostile == 3:
        value["join"] = draw(rng, ["miter", "round", "bevel", "MITER", "", "arcs", "miter-clip", 1])
        codes = codes if value["join"] in ("miter", "round", "bevel") else {65}
    elif hostile == 4:
        value["cap"] = draw(rng, ["butt", "round", "square", "Butt", "", "triangle", None])
        codes = codes if value["cap"] in ("butt", "round", "square") else {65}
    elif hostile == 5:
        value["miterLimit"] = draw(rng, [4, 1, 0, -1, 0.5, 1e308, "1 / 0"])
        codes = {0, 65}
    elif hostile == 6:
        value[draw(rng, ["widht", "color", "nope", "", "dashes"])] = 1
        codes = {65}
    elif hostile == 7:
        value["dashOffset"] = {"clock": "spin", "keyTimes": draw(rng, [[0, 1], [1, 0], [0, 0.5], [0]]), "values": [0, 1e308]}
        codes = {0, 65}
    return value, codes

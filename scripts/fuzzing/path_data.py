"""The path-data family (--path-data): scene files whose `path` nodes carry random and hostile SVG
path data and hostile fields (path_draws.py), placed alone, in a group or in a replicator,
through render, scenes --json and preview."""

import json
import os
import re

from .path_draws import FIELD_NUMBERS, hostile_data, paint, stroke
from .values import draw

# The largest scene file the reader takes (SceneFileReader.largestFile); a larger one is refused
# as a whole, without a line and column.
LARGEST_FILE = 256 * 1024


def combined(*codes):
    """The codes a file must give when each of its parts alone gives `codes`: a part that must
    be refused refuses the file; a file of parts that must all be drawn is drawn."""
    if any(part == {65} for part in codes):
        return {65}
    if all(part == {0} for part in codes):
        return {0}
    return {0, 65}


class PathDataFamily:
    """Cases of --path-data."""

    # A bad-data refusal of the file names its place: FILE:LINE:COLUMN.
    PLACE = re.compile(r"x\.scene\.json:\d+:\d+")

    # What a hostile node makes hostile: its data (half the nodes) or one of its fields.
    HOSTILE_PARTS = ["d"] * 9 + ["fill", "fill", "stroke", "stroke", "stroke", "fillRule", "trim", "trim", "opacity", "key",
                                 "not data"]

    def path_node(self, rng, hostile):
        """One path node, what was drawn, and the codes it alone must give: one part of it
        hostile when `hostile`, every part fine otherwise."""
        part = draw(rng, self.HOSTILE_PARTS) if hostile else None
        data, words, codes = hostile_data(rng, part == "d")
        node = {"type": "path", "id": "p", "d": data}
        notes = ["d: " + words]
        parts = [codes]
        roll = rng.random()
        if part == "fill" or (part != "stroke" and roll < 0.6):
            fill, fill_codes = paint(rng, part == "fill")
            node["fill"] = fill
            parts.append(fill_codes)
            notes.append("fill %s" % json.dumps(fill)[:80])
        if part == "stroke" or (part != "fill" and roll > 0.4) or "fill" not in node:
            value, stroke_codes = stroke(rng, part == "stroke")
            node["stroke"] = value
            parts.append(stroke_codes)
            notes.append("stroke %s" % json.dumps(value)[:120])
        if part == "fillRule" or rng.random() < 0.3:
            node["fillRule"] = draw(rng, ["evenOdd", "", "winding", 1, "nonzero"] if part == "fillRule" else ["nonzero", "evenodd"])
            parts.append({0} if node["fillRule"] in ("nonzero", "evenodd") else {65})
            notes.append("fillRule %r" % node["fillRule"])
        if part == "trim" or rng.random() < 0.3:
            fine = [0, 0.25, 0.5, 1, "frac(spin.t)", "spin.t", -0.75, 3.5]
            trim = {key: draw(rng, FIELD_NUMBERS + fine if part == "trim" else fine) for key in ("start", "end", "offset")
                    if rng.random() < 0.7}
            if part == "trim" and rng.random() < 0.1:
                trim[draw(rng, ["begin", "nope", ""])] = 0
                parts.append({65})
            node["trim"] = trim
            parts.append({0, 65} if part == "trim" else {0})
            notes.append("trim %s" % json.dumps(trim)[:100])
        if part == "opacity" or rng.random() < 0.2:
            node["opacity"] = draw(rng, FIELD_NUMBERS if part == "opacity" else [0, 1, 0.5, "0.5 + 0.5 * sin(spin.t * 6)"])
            parts.append({0, 65} if part == "opacity" else {0})
            notes.append("opacity %r" % (node["opacity"],))
        if part == "key":
            node[draw(rng, ["fillrule", "path", "data", "nope", "strokeWidth", "", "D"])] = 1
            parts.append({65})
            notes.append("an unknown key")
        if part == "not data":
            if rng.random() < 0.5:
                node["d"] = draw(rng, [5, None, [], {}, True, ["M 0 0"]])
            else:
                del node["d"]
            parts.append({65})
            notes.append("d not a string, or missing")
        return node, "; ".join(notes), combined(*parts)

    def path_scene(self, rng):
        """A scene file of one to three path nodes, maybe in a group or a replicator: its tree,
        what was drawn, and the codes it must give."""
        nodes, notes, parts = [], [], []
        count = draw(rng, [1, 1, 1, 2, 3])
        # One node of four files in five is hostile; the fifth file is all valid.
        hostile = rng.randrange(count) if rng.random() < 0.8 else -1
        for index in range(count):
            node, words, codes = self.path_node(rng, index == hostile)
            node["id"] = "p%d" % index
            nodes.append(node)
            notes.append(words)
            parts.append(codes)
        content = nodes
        roll = rng.random()
        if roll < 0.15:
            content = [{"type": "group", "id": "g", "transform": {"rotate": draw(rng, [30, -720, 1e308]),
                                                                 "scale": draw(rng, [2, 0, -1, [1, 0.25], 1e-300]),
                                                                 "anchor": [24, 24]}, "content": nodes}]
            notes.append("in a group")
            parts.append({0, 65})
        elif roll < 0.35:
            count = draw(rng, [2, 3, 10, 100] * 12 + [1000, 10_000])
            content = [{"type": "replicator", "id": "r", "count": count, "instance": {"rotate": 30, "anchor": [24, 24]},
                        "content": nodes}]
            notes.append("in a replicator of %d" % count)
            # Many copies of a valid path may pass the frame's bound on outline points (2^24,
            # estimated at scale 64): refused, rightly.
            parts.append({0, 65} if count > 10 else {0})
        tree = {"format": "throbber-scene/1", "id": "path-fuzz", "summary": "path data and nodes, hostile",
                "canvas": {"width": 48, "height": 48, "background": "none"},
                "clocks": [{"name": "spin", "duration": 1, "repeat": "forever"}], "content": content}
        return tree, " | ".join(notes), combined(*parts)

    def path_data_case(self, rng, n):
        """A scene file with hostile path nodes through render (CPU or GL), scenes --json or preview."""
        self.cases += 1
        directory = self.scratch()
        tree, note, codes = self.path_scene(rng)
        text = json.dumps(tree, indent=draw(rng, [None, 2]), ensure_ascii=rng.random() < 0.5)
        data = text.encode("utf-8", "surrogatepass")
        with open(os.path.join(directory, "x.scene.json"), "wb") as f:
            f.write(data)
        whole = len(data) > LARGEST_FILE
        if whole:
            codes, note = {65}, note + " | a file over 256 KiB"
        command = draw(rng, ["render", "render", "render", "scenes", "preview"])
        extra, listing = None, os.path.join(self.work, "pathdata-%d.json" % n)
        expect = set(codes)
        if command == "render":
            backend = draw(rng, ["cpu", "cpu", "cpu", "gl"])
            argv = ["render", "./x.scene.json", "--frames", "3", "--fps", draw(rng, ["1", "7", "60"]), "--backend", backend,
                    "--scale", draw(rng, ["1", "1", "0.5", "3"]), "-o", "out", "-q"]
            if backend == "gl":
                expect.add(69)  # no GL on this machine: said, not a failure

            def extra(outcome):
                if outcome.rc != 0:
                    return self.place_problem(outcome, codes, whole)
                out = os.path.join(directory, "out")
                frames = sorted(f for f in os.listdir(out) if f.endswith(".png")) if os.path.isdir(out) else []
                return None if len(frames) == 3 else "exit 0, but out/ holds %d PNGs (expected 3)" % len(frames)
        elif command == "preview":
            argv = ["preview", "./x.scene.json", "--frames", "4", "-o", "p.png", "--backend", "cpu"]

            def extra(outcome):
                if outcome.rc == 0 and not os.path.isfile(os.path.join(directory, "p.png")):
                    return "exit 0, but no p.png"
                return self.place_problem(outcome, codes, whole) if outcome.rc != 0 else None
        else:
            argv = ["scenes", "./x.scene.json", "--json"]

            def extra(outcome):
                if outcome.interrupted:
                    return "still running after %.0f s (scenes renders nothing)" % self.args.case_time
                if outcome.rc == 0:
                    return self.scenes_listing(listing, tree)
                return self.place_problem(outcome, codes, whole)
        self.check("pathdata", "pathdata%04d-%s" % (n, command), argv, directory, expect=expect, extra=extra,
                   note=note, stdout_path=listing if command == "scenes" else None)
        if os.path.exists(listing):
            os.remove(listing)
        self.discard(directory)

    def place_problem(self, outcome, codes, whole):
        """A refusal (65) of a file whose only fault is known must name FILE:LINE:COLUMN (but a
        file over 256 KiB, `whole`, refused as a whole)."""
        if outcome.rc == 65 and codes == {65} and not whole and not self.PLACE.search(outcome.err):
            return "exit 65 without FILE:LINE:COLUMN: %s" % outcome.err.strip()[:200]
        return None

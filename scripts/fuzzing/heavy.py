"""The heavy family (--heavy): scene files costly to draw or to preflight through render or batch,
signalled at a random moment within their first second: they finish, are refused before
rendering (within 1 s and 64 MB), or obey the signal within --latency."""

import json
import os
import shutil
import signal

from .files import input_size, relative_names, whole_pngs
from .limits import INPUT_RSS_KIB
from .process import SignalPlan, signal_caught
from .values import draw


class HeavyFamily:
    """Cases of --heavy."""

    def heavy_scene(self, rng):
        """A scene file that is costly to draw or to preflight: replicators of 1 to 20,000 copies of
        arcs, boxes (rotating, translucent), discs, waves and polylines, canvases to 4,000 pt,
        nested replicators whose count product is huge, many values, long per-copy expressions.
        Returns (tree, words)."""
        width = draw(rng, [100, 300, 1000, 1000, 2000, 4000])
        height = draw(rng, [width, width, 100, 1000, 4000])
        cx, cy = width / 2, height / 2
        side = min(width, height)
        values = [{"name": "v0", "value": "sin(6.283 * spin.u)"}]
        for k in range(1, draw(rng, [1, 10, 100, 250])):
            values.append({"name": "v%d" % k, "value": "v%d * 0.999 + cos(t * %d) * 0.001" % (k - 1, k % 7 + 1)})
        terms = draw(rng, [1, 4, 12, 20])
        # A per-copy expression of up to ~200 nodes: it reads i, so it is evaluated for every copy.
        wobble = " + ".join("sin(i * %.2f + %d * spin.u)" % (0.01 * (k + 1), k % 5) for k in range(terms))
        alpha = draw(rng, [0.02, 0.1, 0.5, 1])
        colour = "rgba(0.2, 0.4, 1, %s)" % alpha if rng.random() < 0.7 else \
            "rgba(0.5 + 0.5 * sin(i), 0.3, 0.6, clamp(%s + 0.01 * (%s), 0, 1))" % (alpha, wobble)
        kind = draw(rng, ["arc", "arc", "box", "box", "disc", "wave", "polyline"])
        rotating = "i * 7 + 360 * spin.u + 0.001 * (%s)" % wobble
        if kind == "arc":
            node = {"type": "arc", "center": [cx, cy], "radius": side * draw(rng, [0.1, 0.45, 0.49]),
                    "width": side * draw(rng, [0.01, 0.2, 0.45]), "color": colour}
            if rng.random() < 0.5:
                node["sweep"] = 360
            else:
                node["start"], node["end"] = rotating, "i * 7 + 360 * spin.u + 300"
        elif kind == "box":
            size = [width * draw(rng, [0.1, 0.5, 1, 1.4]), height * draw(rng, [0.05, 0.5, 1])]
            node = {"type": "box", "center": [cx, cy], "size": size, "rotation": rotating,
                    "cornerRadius": min(draw(rng, [0, 4, 20]), min(size) / 2), "color": colour}
        elif kind == "disc":
            node = {"type": "disc", "center": [cx, cy], "radius": side * draw(rng, [0.05, 0.3, 0.5, 0.7]),
                    "color": colour}
        elif kind == "wave":
            node = {"type": "wave", "function": draw(rng, ["sin", "cos"]), "originX": 0,
                    "wavelength": draw(rng, [5, 50, 500]), "amplitude": height * 0.2,
                    "phase": "mod(i * 0.1 + 6.283 * spin.u + 0.001 * (%s), 6.283)" % wobble,
                    "baseline": cy, "bottom": height, "color": colour}
        else:
            node = {"type": "polyline", "points": [[0, 0], [width, height], [width, 0]][:draw(rng, [2, 3])],
                    "width": draw(rng, [1, 10, side * 0.2]), "color": colour}
        count = draw(rng, [1, 10, 100, 1000, 3000, 10_000, 10_000, 10_001, 20_000])
        if kind in ("wave", "polyline") or rng.random() < 0.3:
            instance = {"translate": [draw(rng, [0, 0.01, 0.1]), draw(rng, [0, 0.01, 0.1])]}
        else:
            instance = {"rotate": draw(rng, [0.036, 1, 360 / max(count, 1)]), "anchor": [cx, cy]}
        replicator = {"type": "replicator", "count": count, "instance": instance, "content": [node]}
        words = "%s x %d on %gx%g pt, %d values, %d-term wobble" % (kind, count, width, height, len(values), terms)
        if rng.random() < 0.3:
            outer = draw(rng, [2, 10, 100, 1000, 10_000])
            replicator = {"type": "replicator", "count": outer, "index": "j",
                          "instance": {"translate": [0.01, 0.01]}, "content": [replicator]}
            words += ", nested in %d copies (%d in all)" % (outer, outer * count)
        tree = {"format": "throbber-scene/1", "id": "heavy", "summary": "a costly file from scripts/fuzz --heavy",
                "canvas": {"width": width, "height": height, "background": "none"},
                "clocks": [{"name": "spin", "duration": 1}], "values": values, "content": [replicator]}
        return tree, words

    def heavy_case(self, rng, n):
        """A heavy scene file through render (one frame or many) or batch: it finishes, or is
        refused before rendering (64, 65: within 1 s and 64 MB), or, still running at a random
        moment within its first second, obeys SIGINT within --latency."""
        self.cases += 1
        self.checks += 1
        directory = self.scratch()
        tree, words = self.heavy_scene(rng)
        with open(os.path.join(directory, "heavy.scene.json"), "w") as f:
            json.dump(tree, f, indent=draw(rng, [None, 1]))
        frames = draw(rng, [1, 1, 2, 30, 120])
        backend = draw(rng, ["cpu", "cpu", "cpu", "gl"])
        command = draw(rng, ["render", "render", "batch"])
        if command == "render":
            argv = ["render", "./heavy.scene.json", "--frames", str(frames), "--backend", backend, "-q", "-o", "out"]
            if rng.random() < 0.3:
                argv += ["--scale", draw(rng, ["0.5", "2"])]
        else:
            with open(os.path.join(directory, "job.json"), "w") as f:
                json.dump({"renders": [{"scene": "heavy.scene.json", "frames": frames,
                                        "outputs": [{"type": "png", "pattern": "out/f_%03d.png"}]}]}, f)
            argv = ["batch", "job.json", "--backend", backend, "-q"]
        signum = signal.SIGINT if rng.random() < 0.8 else signal.SIGTERM
        delay = round(rng.uniform(0.05, 1.0), 3)
        note = "%s; %s %d frame%s; %s after %.3f s" % (words, command, frames, "" if frames == 1 else "s",
                                                        signal.Signals(signum).name, delay)
        holder = self.snapshot(directory)
        inputs = input_size(directory)
        before = relative_names(directory)
        # Timed from the moment the process catches the signal: before its handlers are in
        # place (its first milliseconds, longer on a loaded machine) the default action ends it
        # at once, having written nothing, which is not the stop under test.
        plan = SignalPlan(signum, delay, trigger=lambda pid: signal_caught(pid, signum) is not False)
        outcome = self.execute(argv, directory, plan=plan)
        self.heavy_outcomes[self.outcome_class(outcome)] = self.heavy_outcomes.get(self.outcome_class(outcome), 0) + 1
        problem = self.signal_problem("heavy", "heavy%04d" % n, outcome, {0, 64, 65})
        if problem is None and outcome.rc in (64, 65):
            # GL's own refusals of a draw list it cannot take (too many layers over a tile, box
            # lists past a texture) come when it is asked to draw, with its context open (as the
            # shader family's exit 70 does): they are held to the time bound, not the memory one.
            drawn_on_gl = backend == "gl" and "invalid draw list" in outcome.err
            if outcome.rss_kib > INPUT_RSS_KIB and not drawn_on_gl:
                problem = "refused with a peak RSS of %d MB (a refusal stays within %d MB)" % (
                    outcome.rss_kib >> 10, INPUT_RSS_KIB >> 10)
            elif outcome.seconds > 1.0 and outcome.signalled_at is None:
                problem = "refused after %.2f s (a refusal comes before rendering, within 1 s)" % outcome.seconds
            else:
                self.heavy_refusals.append(outcome.err.strip()[:160])
        problem = problem or self.rss_problem("heavy", "heavy%04d" % n, outcome, inputs)
        problem = problem or self.check_files(directory, None, None, before)
        problem = problem or whole_pngs(directory, before)
        if problem is None and outcome.rc == 0:
            made = [name for name in relative_names(directory) - before if name.endswith(".png")]
            if len(made) != frames:
                problem = "exit 0, but %d PNGs were written (expected %d)" % (len(made), frames)
        if problem:
            lines = ["/usr/bin/time -f '%%e s, peak RSS %%M KB' timeout --preserve-status -s %s -k 30 %s %s; echo \"exit $?\""
                     % (signal.Signals(signum).name[3:], delay, self.command_line(argv))]
            self.record_case("heavy%04d" % n, directory, holder, lines, problem, outcome, note)
        shutil.rmtree(holder, ignore_errors=True)
        self.discard(directory)

    @staticmethod
    def outcome_class(outcome):
        if outcome.signalled_at is not None:
            return "signalled (%d)" % outcome.rc
        return "exit %d" % outcome.rc

"""The Lottie family (--lottie): Lottie files (corpus/lottie/, examples/lottie/, or small valid
files built in lottie_files.py) mutated structurally and as bytes, and dotLottie archives valid and
hostile (lottie_archives.py), through render, scenes --json, preview or a job that names the file,
with the scene-file family's oracles and a peak RSS of 256 MB for inputs under 1 MB."""

import json
import os
import random
import subprocess

from .files import input_size
from .limits import INPUT_LIMIT
from .lottie_archives import dotlottie_files, hostile_archive, zipfile_archive
from .lottie_files import lottie_seeds, mutate_lottie
from .values import draw, mutate_text

# Issue 50's target: a Lottie file or archive under 1 MB is read and drawn within 256 MB.
LOTTIE_RSS_KIB = 256 << 10


class LottieFamily:
    """Cases of --lottie."""

    LOTTIE_OUTPUTS = [{"type": "png", "pattern": "f_%03d.png"}, {"type": "sheet", "path": "s.png", "json": "s.json"},
                      {"type": "rgba", "path": "s.rgba"}]

    def lottie_setup(self):
        """The seeds, once, and which of them (and which archive of the first) the binary reads:
        before the importer lands it reads none, and a valid file may then be refused (65)."""
        if hasattr(self, "lottie_seeds"):
            return
        self.lottie_seeds = lottie_seeds(self.root)
        self.lottie_notes = []
        self.lottie_readable = set()
        probe = os.path.join(self.work, "lottie-probe")
        os.makedirs(probe)
        for name, text, _ in self.lottie_seeds:
            with open(os.path.join(probe, "x.json"), "w", encoding="utf-8") as f:
                f.write(text)
            if self.lottie_reads(probe, "x.json"):
                self.lottie_readable.add(name)
        readable = [seed for seed in self.lottie_seeds if seed[0] in self.lottie_readable]
        self.lottie_archives_read = False
        if readable:
            files, hostile = None, True
            for k in range(50):  # the first draw whose theme is not made hostile
                files, hostile = dotlottie_files(random.Random(k), readable[0][1].encode("utf-8"), 2)
                if not hostile:
                    break
            with open(os.path.join(probe, "x.lottie"), "wb") as f:
                f.write(zipfile_archive(files))
            self.lottie_archives_read = self.lottie_reads(probe, "x.lottie")
        self.lottie_notes.append("lottie: %d of %d seed files read by `scenes --json`%s; dotLottie archives %s" % (
            len(readable), len(self.lottie_seeds), "" if readable else " (no importer yet: every case may be refused)",
            "read" if self.lottie_archives_read else "not read"))

    @staticmethod
    def lottie_listing(path):
        """What `scenes FILE --json` must print after exit 0: a JSON list of scenes (one per
        animation of an archive, maybe), each with its parameters and canvas."""
        try:
            with open(path, encoding="utf-8") as f:
                listing = json.load(f)
        except (OSError, ValueError) as error:
            return "exit 0, but its output is not JSON (%s)" % str(error)[:100]
        if not isinstance(listing, list) or not listing or not all(isinstance(scene, dict) for scene in listing):
            return "exit 0, but its output is not a list of scenes"
        if not all(isinstance(s.get("parameters"), list) and isinstance(s.get("canvas"), dict) for s in listing):
            return "exit 0, but a scene has no parameters or canvas"
        return None

    def lottie_reads(self, directory, name):
        run = subprocess.run([self.throbber, "scenes", "./" + name, "--json"], cwd=directory, capture_output=True, timeout=60)
        return run.returncode == 0

    def lottie_input(self, rng):
        """A Lottie file or dotLottie archive: its bytes, the name it is given, what was done, and
        whether it must be read (a valid input the binary reads at setup)."""
        name, text, tree = draw(rng, self.lottie_seeds)
        tree = json.loads(json.dumps(tree))
        readable = name in self.lottie_readable
        roll = rng.random()
        if roll < 0.05:
            return text.encode("utf-8"), draw(rng, ["x.json", "x.json", "loader"]), "%s unchanged" % name, readable
        if roll < 0.2:
            data = mutate_text(rng, json.dumps(tree, indent=draw(rng, [None, 2])))
            return data.encode("utf-8", "surrogatepass"), "x.json", "%s: text mutated" % name, False
        if roll < 0.7:
            notes = [name]
            for _ in range(draw(rng, [1, 1, 1, 2, 3])):
                tree, words = mutate_lottie(rng, tree)
                notes.append(words)
            data = json.dumps(tree, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
            if rng.random() < 0.1:
                data = mutate_text(rng, data.decode("utf-8", "surrogatepass")).encode("utf-8", "surrogatepass")
                notes.append("then its text")
            return data, draw(rng, ["x.json", "x.json", "loader"]), "; ".join(notes), False
        notes = [name]
        animation = text.encode("utf-8")
        if rng.random() < 0.3:
            tree, words = mutate_lottie(rng, tree)
            animation = json.dumps(tree).encode("utf-8", "surrogatepass")
            notes.append("animation: " + words)
        data, words, valid = hostile_archive(rng, animation)
        notes.append(words)
        must = valid and readable and len(notes) == 2 and self.lottie_archives_read
        return data, draw(rng, ["x.lottie", "x.lottie", "x.json", "loader"]), "; ".join(notes), must

    def lottie_case(self, rng, n):
        """A Lottie file or dotLottie archive through render, scenes --json, preview, batch or export."""
        self.lottie_setup()
        self.cases += 1
        directory = self.scratch()
        data, name, note, must_read = self.lottie_input(rng)
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
        command = draw(rng, ["render", "render", "scenes", "preview", "batch", "export"])
        expect = {0, 64, 65, 66, 73, 74}
        extra, listing = None, os.path.join(self.work, "lottie-%d.json" % n)
        reference = "./" + name
        if command == "render":
            frames = draw(rng, [1, 3, 3])
            argv = ["render", reference, "--frames", str(frames), "--fps", draw(rng, ["1", "12", "60"]), "--backend", "cpu",
                    "--scale", draw(rng, ["0.25", "0.5", "1"]), "-o", "out", "-q"]

            def extra(outcome):
                if outcome.rc != 0:
                    return None
                out = os.path.join(directory, "out")
                pngs = sorted(f for f in os.listdir(out) if f.endswith(".png")) if os.path.isdir(out) else []
                return None if len(pngs) == frames else "exit 0, but out/ holds %d PNGs (expected %d)" % (len(pngs), frames)
        elif command == "preview":
            argv = ["preview", reference, "--frames", "4", "-o", "p.png", "--backend", "cpu", "--scale", "0.5"]

            def extra(outcome):
                if outcome.rc == 0 and not os.path.isfile(os.path.join(directory, "p.png")):
                    return "exit 0, but no p.png"
                return None
        elif command == "export":
            # Lottie in, Lottie out: written whole and readable, or refused with nothing written.
            target = draw(rng, ["e.json", "e.json", "e.lottie"])
            argv = ["export", reference, "-o", target, "-q"] + draw(rng, [[], ["--tolerance", "0.1"], ["--fps", "12"]])

            def extra(outcome):
                path = os.path.join(directory, target)
                if outcome.rc != 0:
                    return "exit %d, but %s was written" % (outcome.rc, target) if os.path.exists(path) else None
                if not os.path.isfile(path):
                    return "exit 0, but no %s" % target
                with open(path, "rb") as f:
                    head = f.read(2)
                if target.endswith(".lottie"):
                    return None if head == b"PK" else "exit 0, but %s is not a ZIP archive" % target
                try:
                    with open(path, encoding="utf-8") as f:
                        doc = json.load(f)
                except ValueError as e:
                    return "exit 0, but %s is not JSON: %s" % (target, e)
                return None if all(k in doc for k in ("w", "h", "fr", "ip", "op", "layers")) else "exit 0, but %s lacks w, h, fr, ip, op or layers" % target
        elif command == "scenes":
            argv = ["scenes", reference, "--json"]
            expect = {0, 64, 65, 66}

            def extra(outcome):
                if outcome.interrupted:
                    return "still running after %.0f s (scenes renders nothing)" % self.args.case_time
                return self.lottie_listing(listing) if outcome.rc == 0 else None
        else:
            render = {"scene": draw(rng, [name, reference, "dir/../" + name]), "frames": 2, "scale": 0.25,
                      "outputs": [json.loads(json.dumps(draw(rng, self.LOTTIE_OUTPUTS)))]}
            with open(os.path.join(directory, "job.json"), "w") as f:
                json.dump({"renders": [render]}, f)
            argv = ["batch", "job.json", "--backend", "cpu", "-q"]
        if must_read:
            # A file every reader takes; export refuses what Lottie export does not write (exit 65).
            expect = {0, 65} if command == "export" else {0}
        inputs = input_size(directory)

        def judged(outcome):
            if outcome.interrupted:
                # Kept for a look: the input of a case that ran to the case time.
                kept = os.path.join(self.args.out, "stopped-lottie%04d-%s" % (n, command))
                os.makedirs(kept, exist_ok=True)
                with open(os.path.join(kept, name), "wb") as f:
                    f.write(data)
                with open(os.path.join(kept, "argv.txt"), "w") as f:
                    f.write(" ".join(argv) + "\n")
            if inputs < INPUT_LIMIT and outcome.rss_kib > LOTTIE_RSS_KIB:
                return "peak RSS %d MB over 256 MB for %d KB of input" % (outcome.rss_kib >> 10, inputs >> 10)
            return extra(outcome) if extra else None
        self.check("lottie", "lottie%04d-%s" % (n, command), argv, directory, expect=expect, extra=judged,
                   note=note, stdout_path=listing if command == "scenes" else None)
        if os.path.exists(listing):
            os.remove(listing)
        self.discard(directory)

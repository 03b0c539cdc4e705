"""The path family (--paths): links, FIFOs, devices, directories and foreign files at one output,
report or lock path of one command (all 109 combinations in a seeded order), and job clip names
that are paths; what they reach must survive."""

import json
import os
import random
import shutil
import stat

from .files import describe, fingerprint, fingerprint_change
from .values import draw


class PathFamily:
    """Cases of --paths."""

    PATH_KINDS = ["hardlink", "symlink", "symlink-dir", "fifo", "fifo-reader", "device", "directory", "regular"]
    PATH_TARGETS = [("render", "frame"), ("preview", "sheet.png"), ("batch", "f_001.png"), ("batch", "sh.png"),
                    ("batch", "sh.json"), ("batch", "s.rgba"), ("batch", "s.y4m"), ("batch", "manifest"),
                    ("batch", "lock"), ("compare", "d.png"), ("parity", "p.json"), ("bench", "b.json"),
                    ("bench", "b.svg")]
    CLIP_NAMES = ["..", "../..", "./..", "dir/../..", "dir/.."]

    def path_combos(self):
        """Every (command, path, thing) once — 13 paths x 8 things, and 5 clip names — in an order
        drawn from the seed, so that N cases cover N different ones."""
        if not hasattr(self, "combos"):
            self.combos = [(command, target, kind) for command, target in self.PATH_TARGETS for kind in self.PATH_KINDS]
            self.combos += [("batch", None, "name:" + name) for name in self.CLIP_NAMES]
            random.Random("%d-path-order" % self.args.seed).shuffle(self.combos)
        return self.combos

    def path_case(self, rng, n):
        """One output path of one command made a hostile thing; what it reaches must survive."""
        self.cases += 1
        command, chosen, kind = self.path_combos()[n % len(self.path_combos())]
        directory = self.scratch()
        os.makedirs(os.path.join(directory, "victim", "dir"))
        victim_file = os.path.join(directory, "victim", "file")
        with open(victim_file, "wb") as f:
            f.write(b"VICTIM FILE\n")
        os.chmod(victim_file, 0o640)
        with open(os.path.join(directory, "victim", "dir", "keep"), "wb") as f:
            f.write(b"KEEP\n")
        if not hasattr(self, "second_png"):
            work = os.path.join(self.work, "second")
            self.setup_run(["render", "ring", "--frames", "1", "--start", "0.5", "--backend", "cpu", "-q", "-o", work],
                           self.work)
            self.second_png = os.path.join(work, sorted(os.listdir(work))[0])
        shutil.copy(self.second_png, os.path.join(directory, "in2.png"))
        overwrite = rng.random() < 0.5
        skip = False
        role = "output"
        target = None
        if command == "render":
            argv = ["render", "ring", "--frames", "2", "--backend", "cpu", "-q", "-o", "out"]
            os.mkdir(os.path.join(directory, "out"))
            target = "out/ring_%05d.png" % rng.randrange(2)
        elif command == "preview":
            argv = ["preview", "ring", "--frames", "4", "--columns", "2", "--backend", "cpu", "-q", "-o", "sheet.png"]
            target = "sheet.png"
        elif command == "batch":
            clip = {"scene": "ring", "frames": 2, "outputs": [
                {"type": "png", "pattern": "f_%03d.png"}, {"type": "sheet", "path": "sh.png", "json": "sh.json"},
                {"type": "rgba", "path": "s.rgba"}, {"type": "y4m", "path": "s.y4m"}]}
            argv = ["batch", "job.json", "-q", "--backend", "cpu"]
            manifest = "job.manifest.json"
            if rng.random() < 0.3:
                argv += ["--manifest", "m.json"]
                manifest = "m.json"
            if kind.startswith("name:"):
                # A name is no path: `{name}/…` with a name of `..` must not climb out.
                clip["name"] = kind[5:]
                clip["outputs"].append({"type": "png", "pattern": draw(rng, ["{name}/g_%03d.png", "{name}/_%03d.png"])})
                role, kind = "name", "name"
            else:
                target = chosen
                if target == "manifest":
                    role, target = "manifest", manifest
                elif target == "lock":
                    role, target = "lock", manifest + ".lock"
            with open(os.path.join(directory, "job.json"), "w") as f:
                json.dump({"renders": [clip]}, f)
            if rng.random() < 0.2:
                skip, overwrite = True, False
        elif command == "compare":
            argv = ["compare", "in.png", "in2.png", "--diff", "d.png"]
            target, role = "d.png", "report"
        elif command == "parity":
            argv = ["parity", "--scenes", "ring", "--scales", "1", "--times", "1", "--backend", "cpu", "-q", "--json", "p.json"]
            target, role = "p.json", "report"
        else:
            target = chosen
            option = "--json" if target == "b.json" else "--plot"
            argv = ["bench", "--scenes", "ring", "--sizes", "32", "--backends", "cpu", "--stages", "render", "--frames",
                    "2", "--repeat", "1", "--warmup", "0", "--no-startup", option, target]
            role = "report"
        if overwrite:
            argv.append("--overwrite")
        elif skip:
            argv.append("--skip-existing")
        if kind == "device" and not self.can_mknod:
            kind = "regular"
        fifo_readers = ()
        if target:
            path = os.path.join(directory, target)
            if kind == "hardlink":
                os.link(victim_file, path)
            elif kind == "symlink":
                os.symlink(os.path.relpath(victim_file, os.path.dirname(path)), path)
            elif kind == "symlink-dir":
                os.symlink(os.path.relpath(os.path.join(directory, "victim", "dir"), os.path.dirname(path)), path)
            elif kind in ("fifo", "fifo-reader"):
                os.mkfifo(path)
                fifo_readers = (target,) if kind == "fifo-reader" else ()
            elif kind == "device":
                os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            elif kind == "directory":
                os.mkdir(path)
                with open(os.path.join(path, "keep"), "wb") as f:
                    f.write(b"KEEP\n")
            else:
                with open(path, "wb") as f:
                    f.write(b"VICTIM\n")
        victim_before = fingerprint(os.path.join(directory, "victim"))
        target_before = describe(os.path.join(directory, target)) if target else None
        inside_before = fingerprint(os.path.join(directory, target)) if kind == "directory" else None
        # What the README promises outright: an existing file or link is refused with 73 unless
        # --overwrite (kept with --skip-existing); a directory is always refused with 73.
        expect = None
        if role == "output" and not skip and not overwrite and kind in ("hardlink", "symlink", "symlink-dir", "regular"):
            expect = {73}
        if role == "output" and kind == "directory":
            expect = {73}
        what = {"hardlink": "a hard link to victim/file", "symlink": "a symlink to victim/file",
                "symlink-dir": "a symlink to victim/dir", "fifo": "a FIFO with no reader",
                "fifo-reader": "a FIFO the fuzzer reads", "device": "a character device (1, 3)",
                "directory": "a directory", "regular": "a foreign file holding VICTIM",
                "name": "a job clip name that is a path"}[kind]
        note = "%s at %s (%s)" % (what, target, role) if target else "%s: %s" % (what, clip["name"])

        def extra(outcome):
            change = fingerprint_change(victim_before, fingerprint(os.path.join(directory, "victim")))
            if change:
                return "%s under victim/, outside the run's outputs, through %s at %s" % (change, what, target)
            if not target:
                return None
            after = describe(os.path.join(directory, target))
            if kind in ("fifo", "fifo-reader") and (after is None or after[0] != stat.S_IFIFO or after[1] != target_before[1]):
                return "deleted or replaced the FIFO at %s (%s)" % (target, role)
            if kind == "device" and (after is None or after[0] != stat.S_IFCHR or after[3] != target_before[3]
                                     or after[1] != target_before[1]):
                return "replaced the character device at %s (%s)" % (target, role)
            if kind == "directory":
                if after is None or after[0] != stat.S_IFDIR:
                    return "removed the directory at %s (%s)" % (target, role)
                change = fingerprint_change(inside_before, fingerprint(os.path.join(directory, target)))
                if change:
                    return "%s inside the directory at %s (%s)" % (change, target, role)
            # A lock file is never taken from anything but a lock file a run left, whatever the
            # options; a manifest path holding a foreign file is replaced only with --overwrite.
            # With --skip-existing a file of the run's that is not this run's (a stream of the
            # wrong length, another frame) is replaced, and the run names it; never a foreign one.
            said = skip and any(line.startswith("batch: replaced ") and line.split(":")[1].strip().endswith("/" + target)
                                for line in outcome.err.splitlines())
            if kind in ("hardlink", "symlink", "symlink-dir", "regular") and (role == "lock" or not overwrite) \
                    and after != target_before and not said:
                return "replaced %s at %s%s (%s)" % (what, target, "" if role == "lock" else " without --overwrite", role)
            return None

        self.check("path", "path%04d-%s" % (n, command), argv, directory, expect=expect, extra=extra,
                   fifo_readers=fifo_readers, note=note)
        self.discard(directory)

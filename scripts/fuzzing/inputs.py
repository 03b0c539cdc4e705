"""The input family (--inputs): FIFOs, devices, directories, link loops, 8 GiB sparse files and
foreign files at every input path (all 132 combinations in a seeded order); each must end on
its own within --input-time with the opening rule's exit code, one line, at most 64 MB, and
nothing changed."""

import json
import os
import random
import shutil

from .limits import INPUT_RSS_KIB
from .png_format import png_bytes, png_chunks
from .process import FifoWriter
from .values import draw


class InputFamily:
    """Cases of --inputs."""

    # What a path a command reads may name (docs/fuzzing.md "Inputs"). Each is made in the case
    # directory (the devices and /proc/self/mem are the machine's own, named by absolute path).
    INPUT_KINDS = ["fifo", "zero", "urandom", "directory", "loop", "dangling", "missing", "sparse", "procmem",
                   "empty", "junk", "text"]
    # Where a path is read: (site, how the path reaches the reader, whether a pipe or FIFO is read).
    INPUT_SITES = [("font-set", "typed", False), ("font-job", "file", False), ("font-png", "file", False),
                   ("scene-render", "typed", True), ("scene-job", "file", False), ("scene-png", "file", False),
                   ("job", "typed", True), ("png-compare", "typed", True), ("png-reproduce", "typed", True),
                   ("manifest", "typed", True), ("shader", "typed", False)]
    ROBOTO = "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf"

    def input_combos(self):
        """Every (site, kind) once — 11 sites x 12 things — in an order drawn from the seed, so
        that N cases cover N different ones before any comes again."""
        if not hasattr(self, "input_order"):
            self.input_order = [(site, kind) for site, _, _ in self.INPUT_SITES for kind in self.INPUT_KINDS]
            random.Random("%d-input-order" % self.args.seed).shuffle(self.input_order)
        return self.input_order

    def input_setup(self):
        """A hud frame whose tEXt names a copy of Roboto as its uiFont, and a frame of a scene
        file whose tEXt names that file: the PNGs whose paths a case rewrites."""
        if getattr(self, "input_pngs", None) is not None:
            return
        work = os.path.join(self.work, "inputs")
        os.makedirs(work)
        font = os.path.join(work, "Roboto-Regular.ttf")
        shutil.copy(self.ROBOTO if os.path.isfile(self.ROBOTO) else self.sample_png, font)
        scene = os.path.join(work, "x.scene.json")
        source = os.path.join(self.root, "examples", "scenes", "ring.scene.json")
        shutil.copy(source, scene)
        self.setup_run(["render", "hud", "--set", "status=Hi", "--set", "uiFont=" + font, "--frames", "1",
                        "--backend", "cpu", "-q", "-o", "font"], work)
        self.setup_run(["render", scene, "--frames", "1", "--backend", "cpu", "-q", "-o", "scene"], work)
        self.input_pngs = {}
        for key, folder, path in (("font", "font", font), ("scene", "scene", scene)):
            name = sorted(os.listdir(os.path.join(work, folder)))[0]
            data = open(os.path.join(work, folder, name), "rb").read()
            texts = [d for k, d in png_chunks(data) if k == b"tEXt"]
            assert any(path.encode() in d for d in texts), "the %s frame's tEXt does not name %s" % (key, path)
            self.input_pngs[key] = (data, path)

    def hostile_input(self, directory, kind, site, rng):
        """Makes `kind` in the case directory; returns (the path to name, the fifo to give a
        writer or None, words). For the shader site the thing takes the place of one file of a
        copy of Shaders/ in `sh` (a device or /proc/self/mem through a symlink to it)."""
        local = "h.json" if site in ("job", "manifest", "scene-render", "scene-job", "scene-png") else "h.bin"
        if site in ("png-compare", "png-reproduce"):
            local = "h.png"
        if site == "shader":
            shutil.copytree(os.path.join(self.root, "Shaders"), os.path.join(directory, "sh"))
            names = sorted(os.path.relpath(os.path.join(base, name), directory)
                           for base, _, files in os.walk(os.path.join(directory, "sh")) for name in files)
            local = draw(rng, names)
            os.remove(os.path.join(directory, local))
            if kind in ("zero", "urandom", "procmem"):
                target = "/proc/self/mem" if kind == "procmem" else "/dev/" + kind
                os.symlink(target, os.path.join(directory, local))
                return os.path.join(directory, local), None, "a symlink to " + target
        path = os.path.join(directory, local)
        if kind == "fifo":
            os.mkfifo(path)
            return path, local, "a FIFO"
        if kind in ("zero", "urandom"):
            return "/dev/" + kind, None, "the character device /dev/" + kind
        if kind == "procmem":
            return "/proc/self/mem", None, "/proc/self/mem"
        if kind == "directory":
            os.mkdir(path)
            return path, None, "a directory"
        if kind == "loop":
            os.symlink(local, path)
            return path, None, "a symlink loop"
        if kind == "dangling":
            os.symlink("nowhere/" + local, path)
            return path, None, "a dangling symlink"
        if kind == "missing":
            return path, None, "a missing file"
        if kind == "sparse":
            with open(path, "wb") as f:
                f.truncate(8 << 30)
            return path, None, "an 8 GiB sparse file"
        data = {"empty": b"", "junk": b"\x00\xff\x13junk" * 7, "text": b"hello, I am no font nor PNG nor JSON\n"}[kind]
        with open(path, "wb") as f:
            f.write(data)
        return path, None, "a file of %d bytes (%s)" % (len(data), kind)

    def input_expect(self, kind, origin, streams, site):
        """The exit codes the opening rule gives: 66 missing or unreadable (a loop, /proc/self/mem,
        which fails its first read, a directory); a device or FIFO 64 typed, 65 named in a file (a FIFO typed as the
        command's own input is read, and its garbage is bad data); over the size limit 65; bytes
        that are no such file 65 (a font typed on the command line may also say 64)."""
        if site == "shader" and kind == "missing":
            # A --shader-dir without one of the shaders is a bad directory.
            return {64, 66}
        if site == "shader" and kind in ("empty", "junk", "text"):
            # Not UTF-8 is the directory's fault (64); text that is no GLSL fails to compile (70).
            return {64, 70}
        if kind in ("loop", "dangling", "missing", "procmem", "directory"):
            return {66}
        if kind == "fifo" and streams:
            return {65}
        if kind in ("fifo", "zero", "urandom"):
            return {64} if origin == "typed" else {65}
        if kind in ("empty", "junk", "text") and site == "font-set":
            return {64, 65}
        return {65}

    def input_case(self, rng, n):
        """One hostile thing at one input path of one command: it must end on its own within
        --input-time, with the opening rule's exit code, one line, at most 64 MB, nothing changed."""
        self.input_setup()
        self.cases += 1
        site, kind = self.input_combos()[n % len(self.input_combos())]
        origin, streams = {s: (o, st) for s, o, st in self.INPUT_SITES}[site]
        directory = self.scratch()
        path, fifo, what = self.hostile_input(directory, kind, site, rng)
        # A path in the case directory is spelled relative half the time (a scene reference
        # needs a '/', a font through --set is taken as given).
        spelled = path
        if path.startswith(directory + "/") and rng.random() < 0.5 and site not in ("font-png", "scene-png"):
            spelled = "./" + os.path.relpath(path, directory)
        notes = ["%s at %s (%s)" % (what, site, spelled)]
        if site in ("font-set", "font-job"):
            scene = draw(rng, ["hud", "wave-ball"])
            field = draw(rng, ["uiFont", "cjkFont"] + (["thinFont"] if scene == "wave-ball" else []))
            # The hud reads cjkFont only for a character Roboto lacks.
            status = "Hi 読み込み中" if field == "cjkFont" else draw(rng, ["Hi", "Loading…"])
            settings = {"status": status} if scene == "hud" else {"label": "on"}
            settings[field] = spelled
            if site == "font-set":
                argv = [draw(rng, ["render", "render", "preview"]), scene, "--backend", "cpu", "-q", "-o",
                        draw(rng, ["out", "p.png"])]
                argv[-1] = "out" if argv[0] == "render" else "p.png"
                argv += ["--frames", str(draw(rng, [1, 2, 4]))]
                for key, value in settings.items():
                    argv += ["--set", "%s=%s" % (key, value)]
            elif scene == "hud" and rng.random() < 0.4:
                # The path in a chain's second link: the link is planned, then drawn, after the first.
                chain = [{"parameters": {"status": "Hi"}, "frames": 1}, {"parameters": settings, "frames": 1}]
                with open(os.path.join(directory, "job.json"), "w") as f:
                    json.dump({"renders": [{"scene": "hud", "fps": 10, "parameters": {"screen": "200x200"},
                                            "chain": chain, "outputs": [{"type": "png", "pattern": "f_%03d.png"}]}]}, f)
                argv = ["batch", "job.json", "--backend", "cpu", "-q"]
                notes.append("in a chain's second link")
            else:
                with open(os.path.join(directory, "job.json"), "w") as f:
                    json.dump({"renders": [{"scene": scene, "frames": 1, "parameters": settings,
                                            "outputs": [{"type": "png", "pattern": "f_%03d.png"}]}]}, f)
                argv = ["batch", "job.json", "--backend", "cpu", "-q"]
            notes.append("%s with %s" % (scene, field))
        elif site in ("font-png", "scene-png"):
            data, old = self.input_pngs["font" if site == "font-png" else "scene"]
            chunks = [[k, d.replace(old.encode(), spelled.encode()) if k == b"tEXt" else d] for k, d in png_chunks(data)]
            with open(os.path.join(directory, "r.png"), "wb") as f:
                f.write(png_bytes(chunks))
            argv = ["reproduce", "r.png", "--backend", "cpu"]
            notes.append("named in the tEXt of r.png, a frame of %s" % ("hud" if site == "font-png" else "a scene file"))
        elif site == "scene-render":
            argv = [draw(rng, ["render", "render", "preview"]), spelled, "--backend", "cpu", "-q", "--frames", "2"]
            argv += ["-o", "out" if argv[0] == "render" else "p.png"]
        elif site == "scene-job":
            with open(os.path.join(directory, "job.json"), "w") as f:
                json.dump({"renders": [{"scene": spelled, "frames": 1,
                                        "outputs": [{"type": "png", "pattern": "f_%03d.png"}]}]}, f)
            argv = ["batch", "job.json", "--backend", "cpu", "-q"]
        elif site == "job":
            argv = ["batch", spelled, "--backend", "cpu", "-q"] + (["--overwrite"] if rng.random() < 0.3 else [])
        elif site == "png-compare":
            argv = ["compare"] + ([spelled, "in.png"] if rng.random() < 0.5 else ["in.png", spelled])
        elif site == "png-reproduce":
            argv = ["reproduce", spelled, "--backend", "cpu"]
        elif site == "shader":
            argv = ["render", draw(rng, ["ring", "wave-ball", "activity"]), "--frames", "1", "--backend", "gl", "-q",
                    "-o", "out", "--shader-dir", draw(rng, ["sh", os.path.join(directory, "sh")])]
            notes.append("a copy of Shaders/ through --shader-dir")
        else:
            argv = ["verify", spelled] + (["--quick"] if rng.random() < 0.3 else [])
        expect = self.input_expect(kind, origin, streams, site)
        writers = (os.path.relpath(path, directory),) if fifo and streams else ()
        if fifo:
            notes.append("the FIFO given a writer of %d bytes of garbage" % len(FifoWriter.GARBAGE) if writers
                         else "the FIFO with no writer")
        limit = self.args.input_time

        def extra(outcome):
            if outcome.interrupted:
                return "still running after %.0f s: a hang (no input may block a run)" % limit
            if outcome.seconds > limit:
                return "took %.1f s (a refusal must end on its own within %.0f s)" % (outcome.seconds, limit)
            # A shader that fails to compile (70) has opened the GL backend, which costs more.
            if outcome.rss_kib > INPUT_RSS_KIB and outcome.rc != 70:
                return "peak RSS %d MB for a refusal (at most %d MB)" % (outcome.rss_kib >> 10, INPUT_RSS_KIB >> 10)
            return None

        outcome = self.check("input", "input%04d-%s-%s" % (n, site, kind), argv, directory, expect=expect,
                             readonly=True, extra=extra, note="; ".join(notes), fifo_writers=writers,
                             case_time=limit)
        if outcome.seconds > self.input_slowest[0]:
            self.input_slowest = (outcome.seconds, "input%04d-%s-%s" % (n, site, kind))
        self.input_codes.setdefault(site, {}).setdefault(outcome.rc, 0)
        self.input_codes[site][outcome.rc] += 1
        self.discard(directory)

"""The command-line family (--cli): every command with options drawn from its own --help, and
values drawn for their placeholders."""

import json
import os
import re

from .values import NUMBERS, NUMBER_TEXTS, draw, strings


class CommandLineFamily:
    """Cases of --cli."""

    def value_for(self, rng, placeholder, context):
        pools = [str(draw(rng, NUMBERS)), draw(rng, NUMBER_TEXTS), draw(rng, strings(context)),
                 draw(rng, ["in.png", "job.json", "dir", "null", "missing.png", "out", "out.png"])]
        if placeholder and re.match(r"^[NKRWLF]|^N,", placeholder) and rng.random() < 0.6:
            return str(draw(rng, NUMBERS))
        return draw(rng, pools)

    def cli_case(self, rng, n):
        directory = self.scratch()
        context = {"job": "job.json", "keys": self.keys}
        with open(os.path.join(directory, "job.json"), "w") as f:
            json.dump(draw(rng, self.jobs[:6]), f)
        command = draw(rng, ["render", "render", "render", "preview", "compare", "parity", "batch", "verify",
                             "scenes", "info", "bench", "export"])
        argv = [command]
        scenes = list(self.parameters)
        if command in ("render", "preview", "export"):
            scene = draw(rng, scenes + ["nope", ""])
            argv.append(scene)
            for _ in range(rng.randrange(4)):
                name = draw(rng, self.parameters.get(scene, ["size"]) + ["nope"])
                argv += ["--set", "%s=%s" % (name, self.value_for(rng, "F", context))]
        elif command == "compare":
            argv += [draw(rng, ["in.png", "in.png", "missing.png", "dir", "job.json", "null"]),
                     draw(rng, ["in.png", "in.png", "job.json", "null"])]
        elif command in ("batch", "verify"):
            argv.append(draw(rng, ["job.json", "job.json", "missing.json", "dir", "null", "in.png"]))
        options = self.options(command)
        for _ in range(rng.randrange(5)):
            if not options:
                break
            name, placeholder = draw(rng, options)
            if name in ("--help",):
                continue
            argv.append(name)
            if placeholder:
                argv.append(self.value_for(rng, placeholder, context))
        if command in ("render", "preview") and "-o" not in argv and "--output" not in argv and rng.random() < 0.8:
            argv += ["-o", draw(rng, ["out", "out", "null", "dir", "in.png", "job.json"])]
        if command == "export" and "-o" not in argv and "--output" not in argv and rng.random() < 0.8:
            argv += ["-o", draw(rng, ["out.json", "out.json", "out.lottie", "null", "dir", "in.png", "job.json"])]
        if command == "parity" and "--random" not in argv and rng.random() < 0.5:
            argv += ["--random", str(rng.randrange(1, 4)), "--seed", str(rng.randrange(1000))]
        if command == "bench" and rng.random() < 0.8:
            argv += ["--frames", "2", "--repeat", "1", "--warmup", "0", "--no-startup", "--sizes", "32"]
        # A command line cannot hold a NUL byte: the kernel's strings end there.
        self.run("cli%04d" % n, [a.replace("\u0000", "") for a in argv], directory)

"""The job-file family (--jobs): a seed job mutated one to three times (and its text one time in
four), one in six naming a scene file, through batch."""

import json
import os
import random

from .scene_mutations import SCENE_KEYS, UNKNOWN_SCENE_KEYS
from .values import draw, mutate_text, mutate_tree


class JobFamily:
    """Cases of --jobs."""

    def job_case(self, rng, n):
        directory = self.scratch()
        job_name = draw(rng, ["job.json", "c5.json", "x.json"])
        context = {"job": job_name, "keys": self.keys}
        tree = json.loads(json.dumps(draw(rng, self.jobs)))
        # One job in six names a scene file, which is mutated half the time. It draws from a
        # generator of its own, so the other jobs of a seed stay what they were.
        scene_rng = random.Random("%d-job-scene-%d" % (self.args.seed, n))
        scene_file = None
        if self.scene_seeds and scene_rng.random() < 1 / 6:
            scene_context = {"job": "x.scene.json", "keys": SCENE_KEYS + UNKNOWN_SCENE_KEYS[:4]}
            if scene_rng.random() < 0.5:
                name, text, _ = draw(scene_rng, self.scene_seeds)
                scene_file = text.encode("utf-8")
            else:
                scene_file = self.scene_file(scene_rng, scene_context)[0]
            for render in tree.get("renders", [])[:1]:
                render["scene"] = draw(scene_rng, ["x.scene.json", "./x.scene.json", "dir/../x.scene.json"])
                render.pop("parameters", None)
            with open(os.path.join(directory, "x.scene.json"), "wb") as f:
                f.write(scene_file)
        for _ in range(1 + rng.randrange(3)):
            tree = mutate_tree(rng, tree, context)
        text = json.dumps(tree)
        if rng.random() < 0.25:
            text = mutate_text(rng, text)
        with open(os.path.join(directory, job_name), "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(text)
        argv = ["batch", job_name, "-q"]
        for flag in ["--overwrite", "--skip-existing"]:
            if rng.random() < 0.4:
                argv.append(flag)
        if rng.random() < 0.5:
            argv += ["--backend", draw(rng, ["cpu", "gl", "auto"])]
        if rng.random() < 0.15:
            argv += ["--shard", draw(rng, ["0/2", "1/2", "3/2", "0/0", "-1/2", "0/1000000"])]
        if rng.random() < 0.1:
            argv += ["--manifest", draw(rng, ["m.json", job_name, "null", "dir", "out.png"])]
        self.run("job%04d" % n, argv, directory, job_name)

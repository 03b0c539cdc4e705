"""The scene-file family (--scenes): a file from examples/scenes, mutated, through render,
scenes --json, preview or a job that names it."""

import json
import os

from .scene_mutations import SCENE_KEYS, SCENE_NUMBERS, UNKNOWN_SCENE_KEYS, mutate_scene, mutate_scene_text
from .values import draw


class SceneFamily:
    """Cases of --scenes; scene_file() is the job family's too."""

    SCENE_OUTPUTS = [{"type": "png", "pattern": "f_%03d.png"}, {"type": "sheet", "path": "s.png", "json": "s.json"},
                     {"type": "rgba", "path": "s.rgba"}, {"type": "y4m", "path": "s.y4m", "alpha": True}]

    def scene_file(self, rng, context):
        """A scene file from examples/scenes, unchanged (one time in 25), or mutated: its bytes,
        what was done, and the exit codes a reader must give for it (None when they depend)."""
        name, text, tree = draw(rng, self.scene_seeds)
        tree = json.loads(json.dumps(tree))
        notes, codes = [name], None
        roll = rng.random()
        if roll < 0.04:
            return text.encode("utf-8"), tree, "%s unchanged" % name, {0}
        if roll < 0.16:
            data, words, codes = mutate_scene_text(rng, json.dumps(tree, indent=draw(rng, [None, 2]), ensure_ascii=False))
            return data, tree, "%s: %s" % (name, words), codes
        count = draw(rng, [1, 1, 1, 2, 3])
        for _ in range(count):
            tree, words, codes = mutate_scene(rng, tree, context)
            notes.append(words)
        text = json.dumps(tree, indent=draw(rng, [None, 2]), ensure_ascii=rng.random() < 0.5)
        data = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.08:
            data, words, _ = mutate_scene_text(rng, text)
            notes.append(words)
            count += 1
        return data, tree, "; ".join(notes), codes if count == 1 else None

    def scenes_listing(self, path, tree):
        """What `scenes FILE --json` must print after exit 0: a JSON list holding the file's scene."""
        try:
            with open(path, encoding="utf-8") as f:
                listing = json.load(f)
        except (OSError, ValueError) as error:
            return "exit 0, but its output is not JSON (%s)" % str(error)[:100]
        if not (isinstance(listing, list) and len(listing) == 1 and isinstance(listing[0], dict)):
            return "exit 0, but its output is not a list of one scene"
        scene = listing[0]
        if not isinstance(scene.get("parameters"), list) or not isinstance(scene.get("canvas"), dict):
            return "exit 0, but its scene has no parameters or canvas"
        if isinstance(tree, dict) and scene.get("id") != tree.get("id"):
            return "exit 0, but it lists the id %r for the file's %r" % (scene.get("id"), tree.get("id"))
        return None

    def scene_case(self, rng, n):
        """A scene file from examples/scenes, mutated, through render, scenes --json, preview or a
        job that names it."""
        self.cases += 1
        directory = self.scratch()
        context = {"job": "x.scene.json", "keys": SCENE_KEYS + UNKNOWN_SCENE_KEYS[:4]}
        data, tree, note, codes = self.scene_file(rng, context)
        with open(os.path.join(directory, "x.scene.json"), "wb") as f:
            f.write(data)
        parameters = [p["name"] for p in draw(rng, self.scene_seeds)[2].get("parameters", [])] + ["nope"]
        command = draw(rng, ["render", "render", "scenes", "preview", "batch"])
        expect = {0, 64, 65, 66, 73, 74}
        extra, listing = None, os.path.join(self.work, "scenes-%d.json" % n)
        settings = []
        if command in ("render", "preview") and rng.random() < 0.2:
            for _ in range(1 + rng.randrange(2)):
                # A command line cannot hold a NUL byte.
                value = self.value_for(rng, "F", context).replace("\u0000", "")
                settings += ["--set", "%s=%s" % (draw(rng, parameters), value)]
        if command == "render":
            argv = ["render", "./x.scene.json", "--frames", "3", "--backend", "cpu", "-o", "out"] + settings
            if rng.random() < 0.5:
                argv.append("-q")

            def extra(outcome):
                if outcome.rc != 0:
                    return None
                frames = sorted(f for f in os.listdir(os.path.join(directory, "out")) if f.endswith(".png")) \
                    if os.path.isdir(os.path.join(directory, "out")) else []
                return None if len(frames) == 3 else "exit 0, but out/ holds %d PNGs (expected 3)" % len(frames)
        elif command == "preview":
            argv = ["preview", "./x.scene.json", "--frames", "4", "-o", "p.png", "--backend", "cpu"] + settings

            def extra(outcome):
                if outcome.rc == 0 and not os.path.isfile(os.path.join(directory, "p.png")):
                    return "exit 0, but no p.png"
                return None
        elif command == "scenes":
            argv = ["scenes", "./x.scene.json", "--json"]
            expect = {0, 64, 65, 66}

            def extra(outcome):
                # It renders nothing: a small file read for longer than --case-time is a hang.
                if outcome.interrupted:
                    return "still running after %.0f s (scenes renders nothing)" % self.args.case_time
                return self.scenes_listing(listing, tree) if outcome.rc == 0 else None
        else:
            render = {"scene": draw(rng, ["x.scene.json", "./x.scene.json", "dir/../x.scene.json"]),
                      "outputs": [json.loads(json.dumps(draw(rng, self.SCENE_OUTPUTS)))]}
            if rng.random() < 0.15:
                render.update({"loop": True, "fps": 4, "scale": 0.25})
            else:
                render["frames"] = 2
            if rng.random() < 0.2:
                render["parameters"] = {draw(rng, parameters): draw(rng, SCENE_NUMBERS + ["#ff0000", "light", "nope"])}
                settings = ["parameters"]
            with open(os.path.join(directory, "job.json"), "w") as f:
                json.dump({"renders": [render]}, f)
            argv = ["batch", "job.json", "--backend", "cpu", "-q"]
        if codes is not None and not settings:
            expect = codes
        self.check("scene", "scene%04d-%s" % (n, command), argv, directory, expect=expect, extra=extra,
                   note=note, stdout_path=listing if command == "scenes" else None)
        if os.path.exists(listing):
            os.remove(listing)
        self.discard(directory)

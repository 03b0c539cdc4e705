"""The manifest family (--manifests): a real job's manifest, or a pair of shard manifests,
mutated (files named as specials, digests and shard fields at their edges, lists grown a
thousandfold) through verify and verify --quick, which may only read."""

import json
import os

from .files import file_sha256
from .values import NUMBERS, NUMBER_TEXTS, draw, mutate_text, nodes, random_value, replace


MANIFEST_KEYS = ["throbber", "job", "jobDigest", "shardIndex", "shardCount", "shardMode", "plannedFrames",
                 "plannedArtifacts", "frames", "artifacts", "loops", "clip", "frame", "t", "file", "width",
                 "height", "sha256", "pixelsSHA256", "type", "seconds", "start", "choice", "maxSpeedChange",
                 "parts", "part", "period", "cycles", "loopPeriod", "speedChangePercent", "nope"]


def manifest_paths(directory):
    """What a manifest's `file` may name: specials the case directory holds (the device `null`,
    the FIFO `fifo`, the symlink loop `loop`, the 2 GiB sparse `big`, a link), directories,
    missing files, the manifest itself, another output, and hostile spellings."""
    return [".", "..", "/", "dir", "dir/", "null", "fifo", "loop", "big", "missing.png", "m.json", "link",
            "f_000.png", "f_001.png", "sh.json", "sh.png", "s.rgba", "", "x" * 300, "y" * 5000, "./f_000.png",
            "dir/../f_000.png", "f_000.png/", "é✓🙂.png", "\u0000", "a\nb", os.path.join(directory, "f_002.png"),
            os.path.join(directory, "big")]


HEX_VALUES = ["", "0" * 64, "f" * 64, "0" * 63, "0" * 65, "g" * 64, "z" * 100_000, "e3b0c44298fc1c149afbf4c8996fb924"
              "27ae41e4649b934ca495991b7852b855"]


def mutate_manifest(rng, tree, context):
    """One mutation of a parsed manifest."""
    candidates = list(nodes(tree))
    path, value = draw(rng, candidates)
    key = path[-1] if path else None
    choice = rng.randrange(10)
    if key == "file" and choice < 8:
        return replace(tree, path, draw(rng, context["paths"]))
    if key in ("sha256", "pixelsSHA256", "jobDigest") and choice < 7:
        others = [v for p, v in candidates if p and p[-1] == key and isinstance(v, str)]
        pool = HEX_VALUES + others + ([value.upper()] if isinstance(value, str) else [])
        return replace(tree, path, draw(rng, pool))
    if key in ("shardIndex", "shardCount") and choice < 7:
        return replace(tree, path, draw(rng, [0, 1, 2, 3, -1, 999_999, 1_000_000, 1_000_001, 2 ** 40, 2 ** 63,
                                              1e300, 0.5, "1", None]))
    if isinstance(value, bool) or value is None:
        return replace(tree, path, random_value(rng, context))
    if isinstance(value, (int, float)) and choice < 7:
        return replace(tree, path, draw(rng, NUMBERS) if choice < 5 else draw(rng, NUMBER_TEXTS))
    if isinstance(value, str) and choice < 6:
        return replace(tree, path, draw(rng, context["paths"] + ["contiguous", "strided", "nope", "ring@1x", "png",
                                                                 "sheet", "atlas", "rgba", "y4m", "video", "0.1.0",
                                                                 "99.0.0"]))
    if isinstance(value, dict):
        if choice < 3 and value:
            del value[draw(rng, list(value))]
            return tree
        if choice < 7:
            value[draw(rng, MANIFEST_KEYS)] = random_value(rng, context)
            return tree
    if isinstance(value, list):
        if choice < 3 and value:
            copy = draw(rng, value)
            value.extend(json.loads(json.dumps(copy)) for _ in range(draw(rng, [1, 1, 2, 1000])))
            return tree
        if choice < 5 and value:
            del value[rng.randrange(len(value))]
            return tree
        if choice < 6:
            value.clear()
            return tree
        if choice < 7 and value:
            value.extend(json.loads(json.dumps(value)))
            return tree
    return replace(tree, path, random_value(rng, context))


def relative_files(tree, prefix):
    """A manifest with every string under prefix made relative to it."""
    if isinstance(tree, dict):
        return {k: relative_files(v, prefix) for k, v in tree.items()}
    if isinstance(tree, list):
        return [relative_files(v, prefix) for v in tree]
    if isinstance(tree, str) and tree.startswith(prefix):
        return tree[len(prefix):]
    return tree


class ManifestFamily:
    """Cases of --manifests."""

    def manifest_setup(self):
        """A real job's outputs and its manifests: whole, and as two shards."""
        if getattr(self, "manifest_files", None) is not None:
            return
        work = self.job_directory("manifest", {"renders": [
            {"scene": "ring", "frames": 3, "outputs": [
                {"type": "png", "pattern": "f_%03d.png"}, {"type": "sheet", "path": "sh.png", "json": "sh.json"},
                {"type": "rgba", "path": "s.rgba"}, {"type": "y4m", "path": "s.y4m"}]},
            {"scene": "wave-ball", "loop": True, "fps": 2, "scale": 0.3, "outputs": [
                {"type": "png", "pattern": "w_%03d.png"}]}]})
        self.setup_run(["batch", "job.json", "-q", "--backend", "cpu"], work)
        for shard in ("0/2", "1/2"):
            self.setup_run(["batch", "job.json", "-q", "--backend", "cpu", "--skip-existing", "--shard", shard], work)
        prefix = work + "/"
        self.manifest_trees = {}
        self.manifest_files = {}
        for name in sorted(os.listdir(work)):
            if name.endswith(".manifest.json"):
                self.manifest_trees[name] = relative_files(json.load(open(os.path.join(work, name))), prefix)
            elif name.endswith((".png", ".json", ".rgba", ".y4m")):
                self.manifest_files[name] = open(os.path.join(work, name), "rb").read()

    def verify_claim(self, directory, texts, quick):
        """After exit 0: every entry Python can read names a file that is there (and, without
        --quick, has the SHA-256 the entry records). None when that holds or cannot be told."""
        for text in texts:
            try:
                tree = json.loads(text)
            except ValueError:
                continue
            if not isinstance(tree, dict):
                continue
            for key in ("frames", "artifacts"):
                for entry in tree.get(key) or []:
                    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
                        continue
                    name = entry["file"]
                    if "\0" in name or not name:
                        continue
                    path = os.path.join(directory, name)
                    if quick:
                        if not os.path.exists(path):
                            return "verify --quick exit 0, but %r is not there" % name[:80]
                        continue
                    digest = entry.get("sha256")
                    if not isinstance(digest, str):
                        continue
                    if not os.path.isfile(path):
                        return "verify exit 0, but %r is not a regular file" % name[:80]
                    if file_sha256(path) != digest.lower():
                        return "verify exit 0, but %r does not have the SHA-256 its entry records" % name[:80]
        return None

    def manifest_case(self, rng, n):
        """A real manifest (or a pair of shard manifests) mutated, through verify and verify --quick."""
        self.manifest_setup()
        self.cases += 1
        directory = self.scratch()
        for name, data in self.manifest_files.items():
            with open(os.path.join(directory, name), "wb") as f:
                f.write(data)
        os.mkfifo(os.path.join(directory, "fifo"))
        os.symlink("loop", os.path.join(directory, "loop"))
        os.symlink("f_000.png", os.path.join(directory, "link"))
        if rng.random() < 0.7:
            names = ["m.json"]
            trees = [json.loads(json.dumps(self.manifest_trees["job.manifest.json"]))]
        else:
            names = ["job.shard-0-of-2.manifest.json", "job.shard-1-of-2.manifest.json"]
            trees = [json.loads(json.dumps(self.manifest_trees[name])) for name in names]
        if rng.random() < 0.2:
            trees = [relative_files(tree, "") for tree in trees]
            for tree in trees:
                for entry in tree.get("frames", []) + tree.get("artifacts", []):
                    entry["file"] = os.path.join(directory, entry["file"])
        context = {"job": names[0], "keys": MANIFEST_KEYS, "paths": manifest_paths(directory)}
        victim = rng.randrange(len(trees))
        notes = []
        if rng.random() < 0.1:
            path = draw(rng, context["paths"])
            for entry in trees[victim].get("frames", []) + trees[victim].get("artifacts", []):
                entry["file"] = path
            notes.append("every file %r" % path[:40])
        for _ in range(1 + rng.randrange(3)):
            trees[victim] = mutate_manifest(rng, trees[victim], context)
        texts = [json.dumps(tree, ensure_ascii=rng.random() < 0.5, indent=draw(rng, [None, 2])) for tree in trees]
        if rng.random() < 0.25:
            texts[victim] = mutate_text(rng, texts[victim])
            notes.append("text mutated")
        if any("big" in text for text in texts):
            with open(os.path.join(directory, "big"), "wb") as f:
                f.truncate(2 << 30)
        for name, text in zip(names, texts):
            with open(os.path.join(directory, name), "w", encoding="utf-8", errors="surrogatepass") as f:
                f.write(text)
        argv_names = list(names)
        if rng.random() < 0.05:
            argv_names.append(names[0])
            notes.append("a manifest given twice")
        note = "; ".join(notes)
        for quick in (False, True):
            argv = ["verify"] + (["--quick"] if quick else []) + argv_names
            self.check("manifest", "manifest%04d-%s" % (n, "quick" if quick else "verify"), argv, directory,
                       expect={0, 1, 65}, readonly=True, note=note,
                       extra=lambda outcome, quick=quick: self.verify_claim(directory, texts, quick)
                       if outcome.rc == 0 else None)
        self.discard(directory)

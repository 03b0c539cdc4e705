"""The PNG family (--png): a hostile, re-encoded or exotic file through compare, verify and
reproduce, each held to what it may say of it (png_mutations.py draws the hostile ones)."""

import hashlib
import json
import os
import struct
import zlib

from .png_format import exotic_png, idat_chunks, ihdr, png_bytes, png_chunks, png_rows, raw_image, rgba_png
from .values import draw


class PngFamily:
    """Cases of --png: the base files, and each case."""

    def png_setup(self):
        """Real files the binary writes (frames, a preview sheet, a job's sprite sheet, a looped
        frame), their pixels, their tEXt keys, and a one-frame manifest to list a file in."""
        if self.png_bases is not None:
            return
        work = self.job_directory("png", {"renders": [
            {"scene": "activity", "frames": 3, "outputs": [
                {"type": "sheet", "path": "grid.png", "json": "grid.json", "columns": 2}]},
            {"scene": "wave-ball", "loop": True, "fps": 2, "scale": 0.3, "outputs": [
                {"type": "png", "pattern": "loop_%03d.png"}]}]})
        with open(os.path.join(work, "one.json"), "w") as f:
            json.dump({"renders": [{"scene": "ring", "frames": 1, "outputs": [
                {"type": "png", "pattern": "one_%03d.png"}]}]}, f)
        for argv in (["render", "ring", "--frames", "1", "--backend", "cpu", "-q", "-o", "base"],
                     ["render", "wave-ball", "--frames", "1", "--scale", "0.3", "--backend", "cpu", "-q", "-o", "base2"],
                     ["preview", "ring", "--frames", "4", "--columns", "2", "--backend", "cpu", "-q", "-o", "sheet.png"],
                     ["batch", "job.json", "-q", "--backend", "cpu"], ["batch", "one.json", "-q", "--backend", "cpu"]):
            self.setup_run(argv, work)
        self.png_bases = []
        for name in ["base/ring_00000.png", "base2/wave-ball_00000.png", "sheet.png", "grid.png", "loop_001.png"]:
            data = open(os.path.join(work, name), "rb").read()
            chunks = png_chunks(data)
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
            assert (depth, colour, interlace) == (8, 6, 0), name
            rows = png_rows(chunks, width, height)
            texts = {d.split(b"\0", 1)[0]: d.split(b"\0", 1)[1] for k, d in chunks if k == b"tEXt"}
            self.png_bases.append({"name": name, "data": data, "chunks": chunks, "width": width, "height": height,
                                   "rows": rows, "pixels_sha": hashlib.sha256(b"".join(rows)).hexdigest(),
                                   "scene": texts.get(b"Throbber:scene", b"ring").decode(), "texts": texts})
        self.png_keys = sorted({key for base in self.png_bases for key in base["texts"]})
        manifest = json.load(open(os.path.join(work, "one.manifest.json")))
        manifest.pop("loops", None)
        self.manifest_template = manifest

    def zero_stream(self, length):
        """zlib of `length` zero bytes, made once per length."""
        if length not in self.zero_streams:
            compressor, block, parts = zlib.compressobj(9), bytes(1 << 20), []
            for _ in range(length >> 20):
                parts.append(compressor.compress(block))
            parts.append(compressor.compress(bytes(length & ((1 << 20) - 1))))
            parts.append(compressor.flush())
            self.zero_streams[length] = b"".join(parts)
        return self.zero_streams[length]

    def reencoded_png(self, rng, base):
        """The same pixels and tEXt written otherwise: 16-bit, Adam7, every filter, split IDATs."""
        width, height = base["width"], base["height"]
        depth = draw(rng, [8, 16])
        interlace = rng.randrange(2)
        factor = 257 if depth == 16 else 1
        pixels = [[tuple(v * factor for v in row[x * 4:x * 4 + 4]) for x in range(width)] for row in base["rows"]]
        stream = zlib.compress(raw_image(pixels, width, height, 4, depth, interlace, rng), rng.randrange(10))
        ancillary = [c for c in base["chunks"] if c[0] not in (b"IHDR", b"IDAT", b"IEND")]
        if rng.random() < 0.3:
            ancillary.append([b"gAMA", struct.pack(">I", 45455)])
        if rng.random() < 0.3:
            ancillary.append([b"tIME", struct.pack(">HBBBBB", 2026, 12, 1, 12, 0, 0)])
        chunks = [ihdr(width, height, depth, 6, interlace)] + ancillary + idat_chunks(rng, stream) + [[b"IEND", b""]]
        return png_bytes(chunks), "re-encoded %s: %d-bit RGBA, %s" % (
            base["name"], depth, "Adam7" if interlace else "not interlaced")

    def png_case(self, rng, n):
        """One file (hostile, re-encoded or exotic) through compare, verify and reproduce."""
        self.png_setup()
        self.cases += 1
        directory = self.scratch()
        base = draw(rng, self.png_bases)
        mode = rng.random()
        notes = []
        if mode < 0.15:
            kind = "reencoded"
            data, note = self.reencoded_png(rng, base)
            notes.append(note)
            source, width, height, pixels_sha = base["data"], base["width"], base["height"], base["pixels_sha"]
        elif mode < 0.3:
            kind = "exotic"
            data, rgba, width, height, note = exotic_png(rng)
            notes.append(note)
            source, pixels_sha = rgba_png(rgba, width, height), hashlib.sha256(rgba).hexdigest()
        else:
            kind = "hostile"
            # One case in ten is a file intact but for a tEXt that asks for a huge canvas or
            # thousands of cells, which reproduce must refuse before drawing.
            data = self.hostile_png(rng, base, notes, only=draw(rng, [11, 11, 12]) if mode < 0.4 else None)
            notes.insert(0, "from " + base["name"])
            source, width, height, pixels_sha = base["data"], base["width"], base["height"], base["pixels_sha"]
        same_pixels = kind != "hostile"
        note = "; ".join(notes)
        for name, content in (("a.png", source), ("h.png", data)):
            with open(os.path.join(directory, name), "wb") as f:
                f.write(content)

        # compare: a file equals itself or is refused; a twin of the same pixels compares equal.
        pair = draw(rng, [("a.png", "h.png"), ("h.png", "a.png"), ("h.png", "h.png")])
        argv = ["compare", pair[0], pair[1]]
        allowed = ()
        if rng.random() < 0.5:
            argv += ["--diff", "d.png"]
            allowed = ("d.png",)
        if rng.random() < 0.2:
            argv.append("--json")
        if rng.random() < 0.2:
            argv += ["--psnr", "rgb"]
        if same_pixels:
            argv += ["--max-diff", "0"]
            expect = {0}
        else:
            expect = {0, 65} if pair == ("h.png", "h.png") else {0, 1, 65}
        self.check("png", "png%04d-compare" % n, argv, directory, expect=expect, readonly=True, allowed=allowed,
                   note=note)

        # verify: a manifest listing the file with its source's digest; other bytes are damage.
        legacy = rng.random() < (0.7 if kind == "exotic" else 0.3)
        manifest = json.loads(json.dumps(self.manifest_template))
        entry = dict(manifest["frames"][0], file="h.png", width=width, height=height)
        if legacy:
            entry.pop("sha256", None)
            entry["pixelsSHA256"] = pixels_sha
            expect = {0} if same_pixels else {0, 1}
        else:
            entry["sha256"] = hashlib.sha256(source).hexdigest()
            expect = {0} if data == source else {1}
        manifest["frames"] = [entry]
        with open(os.path.join(directory, "m.json"), "w") as f:
            json.dump(manifest, f)
        self.check("png", "png%04d-verify" % n, ["verify", "m.json"], directory, expect=expect, readonly=True,
                   note=note + ("; manifest with the legacy pixelsSHA256" if legacy else ""))

        # reproduce: the same pixels and tEXt reproduce exactly; no Throbber tEXt is 65.
        argv = ["reproduce", "h.png"]
        if rng.random() < 0.6:
            argv += ["--backend", "cpu"]
        if rng.random() < 0.2:
            argv += ["--max-diff", draw(rng, ["0", "2", "255"])]
        expect = {"reencoded": {0}, "exotic": {65}}.get(kind, {0, 1, 65, 69, 70})
        self.check("png", "png%04d-reproduce" % n, argv, directory, expect=expect, readonly=True, note=note)
        self.discard(directory)

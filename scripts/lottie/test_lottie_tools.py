"""Checks of the Lottie comparison tools themselves: the metric, premultiplication, the retiming
that gives rlottie fractional frames, and each player's buffer layout.

    $(scripts/lottie-players --print) -m unittest discover -s scripts/lottie -p 'test_*.py'
"""
import json
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402
import players as P  # noqa: E402

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "corpus", "lottie")


def solid_doc(colour, opacity, ip=0):
    """A 20 × 10 canvas filled by one rectangle of `colour` (0–1) at `opacity` %."""
    return {"v": "5.7.0", "ddd": 0, "fr": 30, "ip": ip, "op": ip + 30, "w": 20, "h": 10, "layers": [{
        "ddd": 0, "ty": 4, "ind": 1, "ip": ip, "op": ip + 30, "st": 0,
        "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [10, 5]}, "s": {"a": 0, "k": [100, 100]},
               "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": opacity}},
        "shapes": [{"ty": "rc", "d": 1, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}},
                   {"ty": "fl", "c": {"a": 0, "k": colour + [1]}, "o": {"a": 0, "k": 100}, "r": 1}]}]}


def moving_doc():
    """A 4 px bar moving 1 pt a frame from x = 0 over a 40 × 10 canvas, linear, ip 10."""
    doc = solid_doc([1, 0, 0], 100, ip=10)
    layer = doc["layers"][0]
    layer["shapes"][0]["s"] = {"a": 0, "k": [4, 10]}
    layer["ks"]["p"] = {"a": 1, "k": [{"t": 10, "s": [2, 5], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}},
                                      {"t": 40, "s": [32, 5]}]}
    doc["w"] = 40
    return doc


class Metric(unittest.TestCase):
    def test_share_beyond_16_and_mean(self):
        a = np.zeros((2, 2, 4), np.uint8)
        b = a.copy()
        b[0, 0] = [17, 0, 0, 17]   # beyond 16 on one pixel
        b[0, 1] = [16, 0, 0, 0]    # 16 is not beyond
        over, mean, largest = compare.diff(a, b)
        self.assertEqual(over, 0.25)
        self.assertAlmostEqual(mean, (17 + 17 + 16) / 16)
        self.assertEqual(largest, 17)

    def test_premultiply_round_trip(self):
        straight = np.array([[[255, 128, 0, 128], [10, 20, 30, 0], [200, 100, 50, 255]]], np.uint8)
        pre = P.premultiply(straight)
        self.assertEqual(pre[0, 0].tolist(), [128, 64, 0, 128])
        self.assertEqual(pre[0, 1].tolist(), [0, 0, 0, 0])
        self.assertEqual(pre[0, 2].tolist(), [200, 100, 50, 255])
        back = P.unpremultiply(pre)
        self.assertLessEqual(int(np.abs(back[0, 0].astype(int) - straight[0, 0]).max()), 1)

    def test_retime_scales_every_clock(self):
        with open(os.path.join(CORPUS, "layer-precomp.json")) as f:
            doc = json.load(f)
        fast = P.retime(doc, 4)
        self.assertEqual((fast["fr"], fast["ip"], fast["op"]), (doc["fr"] * 4, doc["ip"] * 4, doc["op"] * 4))
        self.assertEqual(fast["layers"][0]["st"], doc["layers"][0]["st"] * 4)
        inner, original = fast["assets"][0]["layers"][0], doc["assets"][0]["layers"][0]
        self.assertEqual(inner["op"], original["op"] * 4)
        self.assertEqual([k["t"] for k in inner["ks"]["p"]["k"]], [k["t"] * 4 for k in original["ks"]["p"]["k"]])
        self.assertEqual(doc["fr"], 30, "retime must leave the original alone")


class Corpus(unittest.TestCase):
    def test_every_file_is_lottie_spec_1_0_but_the_ones_named_beyond_it(self):
        import glob
        import jsonschema
        import lottie_specs
        sys.path.insert(0, CORPUS)
        from corpus_lib import BEYOND_SPEC
        with open(os.path.join(os.path.dirname(lottie_specs.__file__), "data", "lottie.schema.json")) as f:
            validator = jsonschema.Draft202012Validator(json.load(f))
        files = sorted(glob.glob(os.path.join(CORPUS, "*.json")) + glob.glob(os.path.join(CORPUS, "unsupported", "*.json")))
        files = [f for f in files if os.path.basename(f) != "reference.json"]
        self.assertGreaterEqual(len(files), 60)
        for path in files:
            name = os.path.relpath(path, CORPUS)
            with open(path) as f:
                valid = validator.is_valid(json.load(f))
            self.assertEqual(valid, name not in BEYOND_SPEC, name)

    def test_reference_names_corpus_files_and_players(self):
        with open(os.path.join(CORPUS, "reference.json")) as f:
            reference = json.load(f)
        for name, entry in reference.items():
            self.assertTrue(os.path.exists(os.path.join(CORPUS, name)), name)
            self.assertIn(entry["player"], P.PLAYERS)


class Buffers(unittest.TestCase):
    def test_thorvg_is_premultiplied_rgba(self):
        doc = solid_doc([1, 0, 0], 50)
        frame = P.ThorVG().render(json.dumps(doc).encode(), 0, 20, 10)
        r, g, b, a = frame[5, 10].tolist()
        self.assertAlmostEqual(a, 128, delta=2)
        self.assertAlmostEqual(r, a, delta=1)   # premultiplied: red equals alpha
        self.assertEqual((g, b), (0, 0))

    def test_rlottie_is_premultiplied_rgba_after_swizzle(self):
        doc = solid_doc([0, 0, 1], 50)
        frame = P.RLottie().render(doc, 0, 20, 10)
        r, g, b, a = frame[5, 10].tolist()
        self.assertAlmostEqual(a, 128, delta=4)
        self.assertAlmostEqual(b, a, delta=1)
        self.assertEqual((r, g), (0, 0))

    def test_players_count_frames_from_ip_and_rlottie_takes_fractions(self):
        doc = moving_doc()
        thorvg, rlottie = P.ThorVG(), P.RLottie()
        data = json.dumps(doc).encode()
        for f in (0, 7, 7.5, 12.25):
            expected_left = f   # the bar's left edge in pt (= px at scale 1): 1 pt a frame from 0
            for name, frame in (("thorvg", thorvg.render(data, f, 40, 10)), ("rlottie", rlottie.render(doc, f, 40, 10))):
                coverage = frame[5, :, 3].astype(float) / 255
                left = np.argmax(coverage > 0) + (1 - coverage[np.argmax(coverage > 0)])
                # ThorVG draws an axis-aligned rectangle with its edges snapped to whole pixels
                # (no anti-aliasing on that path), so its edge is within half a pixel.
                delta = 0.5 if name == "thorvg" else 0.15
                self.assertAlmostEqual(float(left), expected_left, delta=delta, msg=f"{name} at frame {f}")



FAKE_THROBBER = '''#!{python}
"""A stand-in for `throbber render FILE --frames 1 --start T --scale S --backend cpu -o DIR`: draws
the frame with ThorVG (or nothing, with FAKE_BLANK) and writes it as a straight-alpha PNG."""
import json, math, os, sys
sys.path.insert(0, {here!r})
import players as P
from PIL import Image
args = sys.argv[1:]
if args == ["--version"]:
    print("fake 0"); sys.exit(0)
assert args[0] == "render" and args[2:4] == ["--frames", "1"] and args[8:10] == ["--backend", "cpu"], args
path, start, scale, out = args[1], float(args[5]), float(args[7]), args[11]
data = open(path, "rb").read(); doc = json.loads(data)
w, h = math.ceil(doc["w"] * scale - 1e-9), math.ceil(doc["h"] * scale - 1e-9)
frame = P.ThorVG().render(data, start * doc["fr"], w, h)
if os.environ.get("FAKE_BLANK"):
    frame[:] = 0
os.makedirs(out, exist_ok=True)
Image.fromarray(P.unpremultiply(frame)).save(os.path.join(out, "frame_00000.png"))
'''


class ThrobberSide(unittest.TestCase):
    """lottie-compare's Throbber half against a stand-in that keeps the command line's contract."""

    def run_compare(self, blank):
        import subprocess
        import tempfile
        here = os.path.dirname(os.path.abspath(__file__))
        with tempfile.TemporaryDirectory() as tmp:
            fake = os.path.join(tmp, "throbber")
            with open(fake, "w") as f:
                f.write(FAKE_THROBBER.format(python=sys.executable, here=here))
            os.chmod(fake, 0o755)
            env = dict(os.environ, FAKE_BLANK="1" if blank else "")
            out = os.path.join(tmp, "report.json")
            run = subprocess.run([sys.executable, os.path.join(here, "compare.py"), "--players", "thorvg,throbber",
                                  "--throbber", fake, "--sizes", "64", "--times", "0,0.5",
                                  "--files", os.path.join(CORPUS, "loader-spinner.json"), "--json", out],
                                 capture_output=True, text=True, env=env)
            with open(out) as f:
                return run.returncode, json.load(f), run.stdout + run.stderr

    def test_same_frames_meet_the_target(self):
        code, report, text = self.run_compare(blank=False)
        self.assertEqual(code, 0, text)
        pair = report["files"]["loader-spinner.json"]["pairs"]["throbber-thorvg"]
        self.assertEqual(pair["over"], 0.0, text)
        self.assertLessEqual(pair["mean"], 0.5, text)   # straight-alpha PNG round trip only

    def test_blank_frames_miss_it_and_exit_1(self):
        code, report, text = self.run_compare(blank=True)
        self.assertEqual(code, 1, text)
        self.assertFalse(report["files"]["loader-spinner.json"]["meets_target"])


if __name__ == "__main__":
    unittest.main()

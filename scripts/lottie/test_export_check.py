"""Checks of scripts/lottie-export-check itself: its case file, frames, targets, archive and theme
reading, and a whole run against a stand-in `throbber` whose export is a corpus file.

    $(scripts/lottie-players --print) -m unittest discover -s scripts/lottie -p 'test_*.py'
"""
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import export_check as E  # noqa: E402

CORPUS = os.path.join(HERE, "..", "..", "corpus", "lottie")

# A stand-in for throbber, for the tests only. `export SCENE [--set N=V]… [--theme T --set N=V…]…
# -o OUT` takes SCENE to be a Lottie file and writes it with the --set slots' values (inline too,
# as an exporter must for the players that ignore slots) as OUT, or as a dotLottie archive whose
# themes are the --theme sets. FAKE_EXPORT spoils it: "shift" moves the first layer 3 pt, "theme"
# writes every theme's colours wrong, "schema" drops the layers, "refuse" fails. `render FILE
# [--set N=V]… --frames 1 --start T --scale S …` draws with ThorVG, slots (and a .lottie's
# `theme=NAME`) applied — or, with REAL_THROBBER set, runs that binary for everything but export.
FAKE = r'''#!{python}
import json, math, os, re, sys, zipfile
sys.path.insert(0, {here!r})
args = sys.argv[1:]
real = os.environ.get("REAL_THROBBER")
if args and args[0] != "export" and real:
    os.execv(real, [real] + args)
import players as P
from PIL import Image
if args == ["--version"]:
    print("fake 0"); sys.exit(0)

def value(text):
    if text.startswith("#"):
        return [int(text[i:i + 2], 16) / 255 for i in (1, 3, 5)] + [1]
    parts = [float(p) for p in text.split(",")]
    return parts if len(parts) > 1 else parts[0]

def sets_of(items):
    return dict(item.split("=", 1) for item in items)

def with_slots(doc, sets):
    doc = json.loads(json.dumps(doc))
    for name, text in sets.items():
        doc["slots"][name]["p"]["k"] = value(text)
    def walk(node):
        if isinstance(node, dict):
            if "sid" in node and node["sid"] in doc.get("slots", {{}}):
                node["k"] = doc["slots"][node["sid"]]["p"]["k"]
            for v in node.values(): walk(v)
        elif isinstance(node, list):
            for v in node: walk(v)
    walk(doc.get("layers", []))
    return doc

command, scene = args[0], args[1]
if command == "export":
    mode = os.environ.get("FAKE_EXPORT", "")
    if mode == "refuse":
        print("throbber: export: " + scene + ": text nodes are not supported", file=sys.stderr); sys.exit(65)
    out = args[args.index("-o") + 1]
    rest = args[2:args.index("-o")]
    base, themes, current = [], {{}}, None
    while rest:
        flag, item = rest.pop(0), rest.pop(0)
        if flag == "--theme":
            current = themes.setdefault(item, [])
        elif flag == "--set":
            (base if current is None else current).append(item)
    doc = with_slots(json.load(open(scene)), sets_of(base))
    if mode == "shift":
        doc["layers"][0]["ks"]["p"]["k"][0] += 3
    if mode == "schema":
        del doc["layers"]
    if out.endswith(".json"):
        json.dump(doc, open(out, "w")); sys.exit(0)
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("manifest.json", json.dumps({{"version": "2", "generator": "fake",
            "animations": [{{"id": "main"}}], "themes": [{{"id": t}} for t in themes]}}))
        z.writestr("a/main.json", json.dumps(doc))
        for theme, items in themes.items():
            rules = []
            for name, text in sets_of(items).items():
                v = value(text)
                if mode == "theme" and isinstance(v, list):
                    v = [1 - c for c in v[:3]] + [1]
                rules.append({{"id": name, "type": "Color" if isinstance(v, list) else "Scalar", "value": v}})
            z.writestr(f"t/{{theme}}.json", json.dumps({{"rules": rules}}))
    sys.exit(0)

assert command == "render", args
start, scale, folder = float(args[args.index("--start") + 1]), float(args[args.index("--scale") + 1]), args[args.index("-o") + 1]
sets = sets_of(args[i + 1] for i, a in enumerate(args) if a == "--set")
slots = []
if zipfile.is_zipfile(scene):
    with zipfile.ZipFile(scene) as z:
        data = z.read("a/main.json")
        theme = sets.pop("theme", None)
        rules = json.loads(z.read(f"t/{{theme}}.json"))["rules"] if theme else []
    slots = [json.dumps({{r["id"]: {{"p": {{"a": 0, "k": r["value"]}}}}}}) for r in rules]
else:
    data = open(scene, "rb").read()
slots += [json.dumps({{n: {{"p": {{"a": 0, "k": value(t)}}}}}}) for n, t in sets.items()]
doc = json.loads(data)
w, h = math.ceil(doc["w"] * scale - 1e-9), math.ceil(doc["h"] * scale - 1e-9)
frame = P.ThorVG().render(data, start * doc["fr"], w, h, tuple(slots))
os.makedirs(folder, exist_ok=True)
Image.fromarray(P.unpremultiply(frame)).save(os.path.join(folder, "frame_00000.png"))
'''


def write_fake(folder):
    path = os.path.join(folder, "throbber")
    with open(path, "w") as f:
        f.write(FAKE.format(python=sys.executable, here=HERE))
    os.chmod(path, 0o755)
    return path


def write_cases(folder, cases):
    path = os.path.join(folder, "cases.json")
    with open(path, "w") as f:
        json.dump({"cases": cases}, f)
    return path


class Cases(unittest.TestCase):
    def load(self, cases):
        with tempfile.TemporaryDirectory() as tmp:
            return E.load_cases(write_cases(tmp, cases))

    def test_the_repository_cases_parse_and_cover_every_scene(self):
        cases = E.load_cases(E.CASES)
        scenes = {case["scene"] for case in cases}
        for scene in ("wave-ball", "double-wave", "pull-wave", "activity", "ring", "progress-ring", "hud"):
            self.assertIn(scene, scenes)
        examples = os.path.join(E.ROOT, "examples", "scenes")
        for name in os.listdir(examples):
            if name.endswith(".scene.json"):
                self.assertIn(f"examples/scenes/{name}", scenes)
        states = {case["set"].get("state") for case in cases if case["scene"] == "hud"}
        self.assertEqual(states, {"ring", "progress", "success", "error", "info", "text"})
        self.assertTrue(any(case.get("themes") for case in cases))

    def test_a_good_case_gets_its_defaults(self):
        cases = self.load([{"name": "a", "scene": "ring"}])
        self.assertEqual(cases[0]["set"], {})

    def test_mistakes_are_named(self):
        for case, words in [({"name": "a", "scene": "ring", "sets": {}}, "unknown keys sets"),
                            ({"name": "a", "scene": "ring", "set": {"x": 1}}, "NAME: VALUE strings"),
                            ({"name": "a", "scene": ""}, "scene"),
                            ({"name": "a", "scene": "ring", "times": [-1]}, "times"),
                            ({"name": "a", "scene": "ring", "themes": {"t": {}}}, "sets nothing"),
                            ({"name": "a", "scene": "ring", "refusal": "x"}, "refused"),
                            ({"name": "a", "scene": "ring", "fps": 0}, "fps")]:
            with self.assertRaises(ValueError) as raised:
                self.load([case])
            self.assertIn(words, str(raised.exception))
        with self.assertRaises(ValueError) as raised:
            self.load([{"name": "a", "scene": "ring"}, {"name": "a", "scene": "hud"}])
        self.assertIn("named twice", str(raised.exception))

    def test_select_keeps_the_file_order_and_names_unknown_cases(self):
        cases = self.load([{"name": "a", "scene": "ring"}, {"name": "b", "scene": "hud"}])
        self.assertEqual([c["name"] for c in E.select(cases, "b,a")], ["a", "b"])
        self.assertEqual(len(E.select(cases, "")), 2)
        with self.assertRaises(ValueError):
            E.select(cases, "c")

    def test_export_command_puts_theme_sets_after_their_theme(self):
        case = {"name": "a", "scene": "ring", "set": {"style": "dark"}, "fps": 30,
                "themes": {"t": {"ringColor": "#ff0000"}, "u": {"hudColor": "#00ff00"}}}
        self.assertEqual(E.export_command("t", case, "x.json"),
                         ["t", "export", "ring", "--set", "style=dark", "--fps", "30", "-o", "x.json"])
        self.assertEqual(E.export_command("t", case, "x.lottie")[7:],
                         ["--theme", "t", "--set", "ringColor=#ff0000", "--theme", "u", "--set", "hudColor=#00ff00",
                          "-o", "x.lottie"])


class Figures(unittest.TestCase):
    def test_default_frames(self):
        self.assertEqual(E.default_frames(60), [0.0, 0.5, 18.25, 30.0, 45.5, 59.5])
        self.assertEqual(E.default_frames(1), [0.0, 0.5, 0.55])
        for op in (2, 7, 45, 240):
            frames = E.default_frames(op)
            self.assertTrue(all(0 <= f < op for f in frames), frames)
            self.assertEqual(frames[-1], op - 0.5)

    def test_measure_on_known_arrays(self):
        a = np.zeros((2, 2, 4), np.uint8)
        b = a.copy()
        b[0, 0] = [17, 0, 0, 17]   # beyond 16 and beyond 2
        b[0, 1] = [3, 0, 0, 0]     # beyond 2 only
        b[1, 0] = [2, 0, 0, 0]     # beyond neither
        m = E.measure(a, b)
        self.assertEqual((m["over"], m["over2"], m["max"]), (0.25, 0.5, 17))
        self.assertAlmostEqual(m["mean"], (17 + 17 + 3 + 2) / 16)

    def test_targets(self):
        self.assertFalse(E.beyond("thorvg", 0.005, 1.0, 255))
        self.assertTrue(E.beyond("thorvg", 0.0051, 0.1, 20))
        self.assertTrue(E.beyond("rlottie", 0.001, 1.01, 20))
        self.assertFalse(E.beyond("lottie-web", 0.02, 9.0, 255))   # lottie-web: the share only
        self.assertTrue(E.beyond("lottie-web", 0.021, 0.0, 20))
        self.assertFalse(E.beyond("import", 0.0, 0.1, 2))
        self.assertTrue(E.beyond("import", 0.0, 0.01, 3))
        self.assertFalse(E.beyond("import", 0.004, 0.9, 40, approximate=True))
        self.assertTrue(E.beyond("import", 0.006, 0.1, 40, approximate=True))

    def test_worst_is_kept_per_metric(self):
        worst = E.new_worst()
        E.record(worst, {"over": 0.1, "mean": 0.5, "max": 3, "over2": 0.2}, 1, 0)
        E.record(worst, {"over": 0.05, "mean": 0.9, "max": 2, "over2": 0.1}, 2, 7.5)
        self.assertEqual(E.summary(worst), {"over": 0.1, "mean": 0.9, "max": 3, "over2": 0.2})
        self.assertEqual((worst["mean"]["scale"], worst["mean"]["frame"]), (2, 7.5))

    def test_header(self):
        doc = {"w": 84, "h": 84, "fr": 60, "ip": 0, "op": 60}
        self.assertEqual(E.header_problems(doc, {}), [])
        self.assertEqual(E.header_problems(doc, {"fps": 60, "duration": 1}), [])
        self.assertIn("ip is 5", E.header_problems(dict(doc, ip=5), {})[0])
        self.assertIn("not --fps 30", E.header_problems(doc, {"fps": 30})[0])
        self.assertIn("--duration", E.header_problems(doc, {"duration": 2})[0])
        self.assertEqual(E.canvas_px({"w": 84.5, "h": 20}, 3), (254, 60))


class Slots(unittest.TestCase):
    def test_notes_name_missing_and_unnamed_slots(self):
        doc = {"slots": {"accent": {"p": {"a": 0, "k": [1, 0, 0]}}, "spare": {"p": {"a": 0, "k": 1}}},
               "layers": [{"shapes": [{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0], "sid": "accent"}}]}]}
        self.assertEqual(E.sids(doc["layers"]), {"accent"})
        self.assertEqual(E.slot_notes(doc, ["accent", "tickLit"]),
                         ["colour parameters without a slot: tickLit", "slots no property names: spare"])
        del doc["slots"]["spare"]
        self.assertEqual(E.slot_notes(doc, ["accent"]), [])


def archive(manifest, members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("manifest.json", json.dumps(manifest))
        for name, content in members.items():
            z.writestr(name, json.dumps(content))
    return buffer


class Archives(unittest.TestCase):
    def read(self, manifest, members):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "a.lottie")
            with open(path, "wb") as f:
                f.write(archive(manifest, members).getvalue())
            return E.read_archive(path)

    def test_a_good_archive(self):
        rules = [{"id": "accent", "type": "Color", "value": [0, 0, 1, 1]}]
        problems, animations, themes = self.read(
            {"version": "2", "animations": [{"id": "a"}, {"id": "b"}], "initial": {"animation": "b"},
             "themes": [{"id": "blue"}]},
            {"a/a.json": {"fr": 30}, "a/b.json": {"fr": 60}, "t/blue.json": {"rules": rules}})
        self.assertEqual(problems, [])
        self.assertEqual(list(animations), ["b", "a"])   # the initial animation first
        self.assertEqual(themes, {"blue": rules})

    def test_what_the_manifest_and_the_files_disagree_on(self):
        problems, _, _ = self.read({"version": "2", "animations": [{"id": "a"}, {"id": "b"}], "themes": [{"id": "t"}],
                                    "initial": {"animation": "z"}},
                                   {"a/a.json": {}, "a/c.json": {}, "t/u.json": {"rules": []}, "t/t.json": {"x": 1}})
        text = "\n".join(problems)
        for words in ("no a/b.json", "a/c.json is not listed", "t/t.json has no \"rules\"",
                      "t/u.json is not listed", "initial animation 'z'"):
            self.assertIn(words, text)
        problems, _, _ = self.read({"themes": []}, {})
        self.assertIn("version is None", problems[0])
        self.assertIn("lists no animations", problems[1])
        # version 1's layout is not the one with themes
        problems, _, _ = self.read({"version": "1", "animations": [{"id": "a"}]}, {"animations/a.json": {}})
        self.assertIn("not \"2\"", problems[0])
        self.assertIn("no a/a.json", problems[1])

    def test_not_an_archive(self):
        with tempfile.NamedTemporaryFile(suffix=".lottie") as f:
            f.write(b"{}")
            f.flush()
            self.assertIn("not a ZIP", E.read_archive(f.name)[0][0])

    def test_rules_against_slots(self):
        slots = {"accent": {"p": {"a": 0, "k": [1, 0, 0, 1]}}, "strength": {"p": {"a": 0, "k": 80}}}
        good = [{"id": "accent", "type": "Color", "value": [0, 0, 1, 1]}, {"id": "strength", "type": "Scalar", "value": 20}]
        self.assertEqual(E.rule_problems(good, slots), [])
        bad = [{"id": "other", "type": "Color", "value": [0, 0, 1]}, {"id": "accent", "type": "Color", "value": [0, 0, 2]},
               {"id": "strength", "type": "Scalar", "value": "x"}, {"id": "accent", "type": "Gradient", "value": []}]
        self.assertEqual(len(E.rule_problems(bad, slots)), 4)
        self.assertEqual(E.theme_slots(good), ('{"accent": {"p": {"a": 0, "k": [0, 0, 1, 1]}}}',
                                               '{"strength": {"p": {"a": 0, "k": 20}}}'))


class WholeRun(unittest.TestCase):
    """The harness end to end against the stand-in: a faithful export meets every target, and each
    way of spoiling it is caught."""

    def run_check(self, mode="", cases=None, players="thorvg,rlottie,import"):
        cases = cases or [
            {"name": "spinner", "scene": os.path.join(CORPUS, "loader-spinner.json"), "set": {}},
            {"name": "slots", "scene": os.path.join(CORPUS, "slots.json"), "set": {"strength": "60"},
             "themes": {"blue": {"accent": "#1e88e5"}, "faint": {"strength": "25"}}}]
        with tempfile.TemporaryDirectory() as tmp:
            fake = write_fake(tmp)
            out = os.path.join(tmp, "report.json")
            env = dict(os.environ, FAKE_EXPORT=mode)
            env.pop("REAL_THROBBER", None)
            run = subprocess.run([sys.executable, os.path.join(HERE, "export_check.py"), "--throbber", fake,
                                  "--cases-file", write_cases(tmp, cases), "--players", players, "--scales", "1",
                                  "--frames", "0,7.5", "--json", out, "--out", os.path.join(tmp, "diff")],
                                 capture_output=True, text=True, env=env)
            with open(out) as f:
                report = json.load(f)
            report["images"] = sorted(os.listdir(os.path.join(tmp, "diff")))
            return run.returncode, report, run.stdout + run.stderr

    def test_a_faithful_export_meets_every_target(self):
        code, report, text = self.run_check()
        self.assertEqual(code, 0, text)
        spinner = report["cases"]["spinner"]
        self.assertGreater(spinner["bytes"], 0)
        self.assertEqual(spinner["schema_errors"], [])
        self.assertEqual(spinner["players"]["import"]["worst"]["max"]["value"], 0, text)
        slots = report["cases"]["slots"]
        self.assertEqual(set(slots["themes"]), {"(archive)", "blue", "faint"}, text)
        self.assertTrue(slots["themes"]["blue"]["players"]["thorvg"]["meets"], text)
        self.assertEqual(report["images"], [])
        self.assertIn("| spinner |", text)

    def test_a_moved_shape_misses_and_is_drawn_side_by_side(self):
        code, report, text = self.run_check("shift")
        self.assertEqual(code, 1, text)
        for player in ("thorvg", "rlottie", "import"):
            self.assertFalse(report["cases"]["spinner"]["players"][player]["meets"], (player, text))
        self.assertIn("spinner_thorvg_1x_f0.png", report["images"])

    def test_wrong_theme_colours_miss_in_thorvg(self):
        code, report, text = self.run_check("theme", players="thorvg")
        self.assertEqual(code, 1, text)
        themes = report["cases"]["slots"]["themes"]
        self.assertTrue(report["cases"]["slots"]["players"]["thorvg"]["meets"], text)
        self.assertFalse(themes["blue"]["players"]["thorvg"]["meets"], text)
        self.assertTrue(themes["faint"]["players"]["thorvg"]["meets"], text)   # a Scalar rule, unspoilt

    def test_schema_breach_and_refusals(self):
        code, report, text = self.run_check("schema", players="thorvg")
        self.assertEqual(code, 1, text)
        self.assertTrue(report["cases"]["spinner"]["schema_errors"], text)
        refused = [{"name": "r", "scene": os.path.join(CORPUS, "loader-spinner.json"), "set": {},
                    "refused": True, "refusal": "text nodes are not supported"}]
        code, report, text = self.run_check("refuse", cases=refused, players="thorvg")
        self.assertEqual(code, 0, text)
        code, report, text = self.run_check("", cases=refused, players="thorvg")
        self.assertEqual(code, 1, text)
        self.assertIn("expects a refusal", report["cases"]["r"]["problems"][0])

    def test_a_theme_that_changes_nothing_is_named(self):
        cases = [{"name": "same", "scene": os.path.join(CORPUS, "slots.json"), "set": {},
                  "themes": {"default": {"strength": "80"}}}]
        code, report, text = self.run_check(cases=cases, players="thorvg")
        self.assertEqual(code, 1, text)
        self.assertIn("change no pixel", report["cases"]["same"]["themes"]["default"]["problems"][0])


if __name__ == "__main__":
    unittest.main()

"""Checks `throbber export` (issue 51): each case of corpus/lottie-export/cases.json is exported,
validated against the lottie-spec 1.0 schema and drawn by every player against Throbber's own frame.

See scripts/lottie-export-check for the usage. For a case and a player, at each scale S (canvas
w·S × h·S px) and each Lottie frame f (scene time t = start + f/fr):
  reference — `throbber render SCENE --set … --scale S --start t --frames 1 --backend cpu`;
  player    — the exported file drawn at frame f by thorvg, rlottie, lottie-web, or Throbber's own
              import (`throbber render out.json --scale S --start f/fr`), all premultiplied RGBA
              (scripts/lottie/players.py);
  metrics   — compare.diff: the share of pixels whose largest channel difference exceeds 16/255,
              the mean channel difference (/255), the largest; and for the round trip the share
              beyond 2/255.
A (case, player)'s figures are the worst over its frames, each metric on its own, so "meets the
target" means every frame does. A case with themes is exported again as a .lottie with each theme
(`--theme NAME --set …`); each theme's rules are applied in ThorVG through its slot API and drawn
against `throbber render SCENE --set (case set + theme set)`, and the archive is opened here to
check that its manifest lists the animation and the themes.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare as C  # noqa: E402
import players as P  # noqa: E402

ROOT = C.ROOT
CASES = os.path.join(ROOT, "corpus", "lottie-export", "cases.json")
PLAYERS = ("thorvg", "rlottie", "lottie-web", "import")
# The issue's targets: share of pixels beyond 16/255 and mean (/255) on every frame; lottie-web is
# held to the share only. The round trip (Throbber reading its own export) to a largest channel
# difference of 2/255, the renderers' own parity bound, unless the case declares an approximation.
TARGETS = {"thorvg": (0.005, 1.0), "rlottie": (0.005, 1.0), "lottie-web": (0.02, None)}
ROUND_TRIP_MAX = 2
CASE_KEYS = {"name", "scene", "set", "times", "themes", "fps", "start", "duration", "approximate",
             "refused", "refusal", "note", "reported"}
THEME_RULE_TYPES = ("Color", "Scalar", "Vector", "Position")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="lottie-export-check", description="throbber export, checked in every player.")
    p.add_argument("--cases", default="", help="comma-separated case names (default: every case)")
    p.add_argument("--cases-file", default=CASES, help="the cases (default corpus/lottie-export/cases.json)")
    p.add_argument("--scales", default="1,2,3", help="scales, comma-separated (default 1,2,3)")
    p.add_argument("--players", default=",".join(PLAYERS), help="of " + ", ".join(PLAYERS) + " (default: all)")
    p.add_argument("--frames", default="", help="Lottie frames, comma-separated, for every case (default: the "
                   "case's times, else 6 spread over [0, op): 0, 0.5, 0.3·op + 0.25, 0.5·op, 0.75·op + 0.5, op − 0.5)")
    p.add_argument("--json", help="write every figure as JSON here")
    p.add_argument("--out", help="write each frame beyond its target, Throbber's beside the player's, here (PNG)")
    p.add_argument("--report-only", action="store_true", help="exit 0 whatever the figures")
    p.add_argument("--judge-scales", default="", help="hold the targets at these scales only (default: every scale "
                   "drawn); the others are reported")
    p.add_argument("--throbber", help="the throbber binary (default THROBBER or .build/release/throbber)")
    p.add_argument("--keep", help="keep the exported files in this folder (default: a temporary one, removed)")
    return p.parse_args(argv)


# Cases --------------------------------------------------------------------------------------------

def load_cases(path):
    """The cases of a cases file, each checked for its keys and types (a ValueError names the case
    and the field)."""
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    cases = document.get("cases") if isinstance(document, dict) else None
    if not isinstance(cases, list) or not cases:
        raise ValueError(f"{path}: no \"cases\" list")
    seen = set()
    for index, case in enumerate(cases):
        where = f"{path}: case {index}"
        if not isinstance(case, dict):
            raise ValueError(f"{where}: not an object")
        name = case.get("name")
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError(f"{where}: name must be a non-empty string without '/'")
        where = f"{path}: case '{name}'"
        if name in seen:
            raise ValueError(f"{where}: named twice")
        seen.add(name)
        unknown = set(case) - CASE_KEYS
        if unknown:
            raise ValueError(f"{where}: unknown keys {', '.join(sorted(unknown))} (known: {', '.join(sorted(CASE_KEYS))})")
        if not isinstance(case.get("scene"), str) or not case["scene"]:
            raise ValueError(f"{where}: scene must be a scene id or a path")
        _check_sets(case.get("set", {}), f"{where}: set")
        case.setdefault("set", {})
        times = case.get("times")
        if times is not None and (not isinstance(times, list) or not times
                                  or not all(_number(t) and t >= 0 for t in times)):
            raise ValueError(f"{where}: times must be a list of Lottie frames ≥ 0")
        themes = case.get("themes")
        if themes is not None:
            if not isinstance(themes, dict) or not themes:
                raise ValueError(f"{where}: themes must be an object of NAME: {{param: value}}")
            for theme, sets in themes.items():
                if not theme or "/" in theme:
                    raise ValueError(f"{where}: theme name '{theme}' must be non-empty without '/'")
                _check_sets(sets, f"{where}: theme '{theme}'")
                if not sets:
                    raise ValueError(f"{where}: theme '{theme}' sets nothing")
        for key in ("fps", "duration"):
            if key in case and not (_number(case[key]) and case[key] > 0):
                raise ValueError(f"{where}: {key} must be a number > 0")
        if "start" in case and not _number(case["start"]):
            raise ValueError(f"{where}: start must be a number")
        for key in ("approximate", "refused"):
            if key in case and not isinstance(case[key], bool):
                raise ValueError(f"{where}: {key} must be true or false")
        if "refusal" in case and not (case.get("refused") and isinstance(case["refusal"], str)):
            raise ValueError(f"{where}: refusal (a string) goes with \"refused\": true")
        reported = case.get("reported", {})
        if not isinstance(reported, dict) or not all(k in PLAYERS and isinstance(v, str) and v for k, v in reported.items()):
            raise ValueError(f"{where}: reported must be an object of PLAYER: why its figures are reported, not held "
                             f"(players: {', '.join(PLAYERS)})")
    return cases


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_sets(sets, where):
    if not isinstance(sets, dict) or not all(isinstance(k, str) and k and isinstance(v, str) for k, v in sets.items()):
        raise ValueError(f"{where}: must be an object of NAME: VALUE strings")


def select(cases, names):
    """The cases named (comma-separated; all when empty), in the file's order."""
    wanted = [n for n in names.split(",") if n]
    known = {case["name"] for case in cases}
    missing = [n for n in wanted if n not in known]
    if missing:
        raise ValueError(f"unknown case {', '.join(missing)} (known: {', '.join(sorted(known))})")
    return [case for case in cases if not wanted or case["name"] in wanted]


def default_frames(op):
    """Six Lottie frames spread over [0, op), two halves among them and one half a frame before op."""
    n = float(op)
    picks = [0.0, 0.5, n * 0.3 + 0.25, n * 0.5, n * 0.75 + 0.5, n - 0.5]
    return sorted({round(f, 3) for f in picks if 0 <= round(f, 3) < n})


def set_args(sets):
    out = []
    for name, value in sets.items():
        out += ["--set", f"{name}={value}"]
    return out


def export_command(binary, case, output):
    """`throbber export SCENE --set … [--fps N] [--start T] [--duration D] [--theme NAME --set …]… -o OUT`."""
    command = [binary, "export", case["scene"]] + set_args(case["set"])
    for key in ("fps", "start", "duration"):
        if key in case:
            command += [f"--{key}", repr(case[key])]
    if output.endswith(".lottie"):
        for theme, sets in case.get("themes", {}).items():
            command += ["--theme", theme] + set_args(sets)
    return command + ["-o", output]


def run_export(binary, case, output):
    """Runs the export; its exit status, the last line it wrote on stderr, and its wall time in ms."""
    started = time.perf_counter()
    run = subprocess.run(export_command(binary, case, output), capture_output=True, text=True, cwd=ROOT)
    ms = (time.perf_counter() - started) * 1000
    last = (run.stderr.strip().splitlines() or [""])[-1]
    return run.returncode, last, ms


# Checks of the file itself ------------------------------------------------------------------------

def spec_validator():
    """The lottie-spec 1.0 schema PyPI's lottie-specs ships, as corpus/lottie/make-corpus.py checks with."""
    import jsonschema
    import lottie_specs
    with open(os.path.join(os.path.dirname(lottie_specs.__file__), "data", "lottie.schema.json")) as f:
        return jsonschema.Draft202012Validator(json.load(f))


def schema_errors(validator, doc, limit=3):
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:200]}" for e in errors[:limit]] + (
        [f"… {len(errors) - limit} more schema errors"] if len(errors) > limit else [])


def header_problems(doc, case):
    """What the issue fixes about the header: ip 0, op > 0 (frames in one loop), fr (--fps), w and h."""
    problems = []
    for key in ("w", "h", "fr", "ip", "op"):
        if not _number(doc.get(key)):
            problems.append(f"{key} is {doc.get(key)!r}, not a number")
    if problems:
        return problems
    if doc["ip"] != 0:
        problems.append(f"ip is {doc['ip']}, not 0")
    if doc["op"] <= 0 or doc["fr"] <= 0 or doc["w"] <= 0 or doc["h"] <= 0:
        problems.append(f"op {doc['op']}, fr {doc['fr']}, w {doc['w']}, h {doc['h']}: each must be > 0")
    if "fps" in case and abs(doc["fr"] - case["fps"]) > 1e-9:
        problems.append(f"fr is {doc['fr']}, not --fps {case['fps']}")
    if "duration" in case and abs(doc["op"] - case["duration"] * doc["fr"]) > 0.5:
        problems.append(f"op is {doc['op']}, not --duration × fr = {case['duration'] * doc['fr']:g}")
    return problems


def sids(node):
    """Every `sid` a Lottie document's properties name."""
    if isinstance(node, dict):
        found = {node["sid"]} if isinstance(node.get("sid"), str) else set()
        for value in node.values():
            found |= sids(value)
        return found
    if isinstance(node, list):
        return set().union(*(sids(value) for value in node)) if node else set()
    return set()


def slot_notes(doc, colours):
    """What the slots say against the scene's colour parameters (each should be a slot named after
    it, issue 51): parameters without a slot, and slots no property names. Notes, not misses: a
    colour the scene does not draw with its values (labelColor with label=off) has nothing to name."""
    slots = set(doc.get("slots") or {})
    named = sids(doc.get("layers", [])) | sids(doc.get("assets", []))
    notes = []
    missing = [c for c in colours if c not in slots]
    if missing:
        notes.append(f"colour parameters without a slot: {', '.join(missing)}")
    unused = sorted(slots - named)
    if unused:
        notes.append(f"slots no property names: {', '.join(unused)}")
    return notes


def colour_parameters(binary, scene):
    """The colour parameters `throbber scenes SCENE --json` lists."""
    run = subprocess.run([binary, "scenes", scene, "--json"], capture_output=True, text=True, cwd=ROOT)
    if run.returncode != 0:
        return []
    return [p["name"] for entry in json.loads(run.stdout) for p in entry["parameters"] if p["type"] == "color"]


def canvas_px(doc, scale):
    """The frame's size at `scale` as Throbber sizes a canvas: ceil(w·S − 1e-9) × ceil(h·S − 1e-9)."""
    return math.ceil(float(doc["w"]) * scale - 1e-9), math.ceil(float(doc["h"]) * scale - 1e-9)


def read_archive(path):
    """A dotLottie archive's manifest checked against its files, as version 2 lays them out (the
    layout with themes, and the one Throbber's reader takes with "version": "2"): animations
    `a/ID.json`, themes `t/ID.json`. Returns its problems, the animations ({id: JSON bytes}, the
    manifest's initial one first) and the themes ({id: rules})."""
    problems, animations, themes = [], {}, {}
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as e:
        return [f"not a ZIP archive: {e}"], animations, themes
    with archive:
        names = set(archive.namelist())
        if "manifest.json" not in names:
            return ["no manifest.json"], animations, themes
        try:
            manifest = json.loads(archive.read("manifest.json"))
        except ValueError as e:
            return [f"manifest.json is not JSON: {e}"], animations, themes
        if not isinstance(manifest, dict):
            return ["manifest.json is not an object"], animations, themes
        version = manifest.get("version")
        if not (version == 2 or (isinstance(version, str) and (version == "2" or version.startswith("2.")))):
            problems.append(f"manifest.json version is {version!r}, not \"2\" (the dotLottie version with themes)")
        listed = [(entry, "a", "animation") for entry in manifest.get("animations") or []]
        listed += [(entry, "t", "theme") for entry in manifest.get("themes") or []]
        if not manifest.get("animations"):
            problems.append("manifest.json lists no animations")
        members = set()
        for entry, folder, kind in listed:
            ident = entry.get("id") if isinstance(entry, dict) else None
            member = f"{folder}/{ident}.json"
            members.add(member)
            if not isinstance(ident, str) or member not in names:
                problems.append(f"manifest.json lists {kind} {ident!r}, but the archive has no {member}")
            elif kind == "animation":
                animations[ident] = archive.read(member)
            else:
                try:
                    rules = json.loads(archive.read(member)).get("rules")
                except (ValueError, AttributeError):
                    rules = None
                if not isinstance(rules, list):
                    problems.append(f"{member} has no \"rules\" list")
                else:
                    themes[ident] = rules
        for member in sorted(names - members):
            if member.startswith(("a/", "t/")) and member.endswith(".json"):
                problems.append(f"{member} is not listed in manifest.json")
        initial = (manifest.get("initial") or {}).get("animation") if isinstance(manifest.get("initial"), dict) else None
        if initial in animations:
            animations = dict([(initial, animations.pop(initial))] + list(animations.items()))
        elif initial is not None:
            problems.append(f"manifest.json's initial animation {initial!r} is not one it lists")
    return problems, animations, themes


def rule_problems(rules, slots):
    """A theme's rules against the animation's slots: each names a slot it has, with a static value
    of a type the slot can take."""
    problems = []
    for rule in rules:
        ident, kind, value = rule.get("id"), rule.get("type"), rule.get("value")
        if kind not in THEME_RULE_TYPES:
            problems.append(f"rule {ident!r}: type {kind!r} is not one of {', '.join(THEME_RULE_TYPES)}")
        elif ident not in slots:
            problems.append(f"rule {ident!r}: the animation has no slot {ident!r}")
        elif value is None:
            problems.append(f"rule {ident!r}: no static value (animated rules are not checked)")
        elif kind == "Color" and not (isinstance(value, list) and len(value) in (3, 4)
                                      and all(_number(c) and 0 <= c <= 1 for c in value)):
            problems.append(f"rule {ident!r}: Color value {value!r} is not [r, g, b(, a)] in [0, 1]")
        elif kind == "Scalar" and not _number(value):
            problems.append(f"rule {ident!r}: Scalar value {value!r} is not a number")
    return problems


def theme_slots(rules):
    """A theme's rules as the slot documents ThorVG's gen_slot takes ({"ID": {"p": {"a": 0, "k": v}}}),
    one per rule, so that every rule applies whatever ids they share."""
    return tuple(json.dumps({rule["id"]: {"p": {"a": 0, "k": rule["value"]}}}) for rule in rules
                 if rule.get("type") in THEME_RULE_TYPES and rule.get("value") is not None)


# Figures ------------------------------------------------------------------------------------------

def target_text(player, approximate=False):
    if player == "import" and not approximate:
        return f"max ≤ {ROUND_TRIP_MAX}/255"
    over, mean = TARGETS["thorvg" if player == "import" else player]
    return f"≤ {over * 100:g} % beyond 16/255" + (f", mean ≤ {mean:g}/255" if mean is not None else "")


def beyond(player, over, mean, largest, approximate=False):
    """Whether figures (one frame's, or the worst of each over frames) miss the player's target."""
    if player == "import" and not approximate:
        return largest > ROUND_TRIP_MAX
    over_target, mean_target = TARGETS["thorvg" if player == "import" else player]
    return over > over_target or (mean_target is not None and mean > mean_target)


def new_worst():
    return {key: {"value": -1.0} for key in ("over", "mean", "max", "over2")}


def record(worst, figures, scale, f):
    """Keeps, for each metric on its own, its largest value over frames and where it was."""
    for key, value in figures.items():
        if value > worst[key]["value"]:
            worst[key] = {"value": value, "scale": scale, "frame": f}


def measure(reference, frame):
    over, mean, largest = C.diff(reference, frame)
    over2 = C.diff(reference, frame, threshold=2)[0]
    return {"over": over, "mean": mean, "max": largest, "over2": over2}


def summary(worst):
    return {key: worst[key]["value"] for key in worst}


# Running ------------------------------------------------------------------------------------------

class Run:
    def __init__(self, args):
        self.args = args
        binary = args.throbber or os.environ.get("THROBBER", ".build/release/throbber")
        if not os.path.isabs(binary):
            binary = os.path.abspath(binary) if os.path.exists(binary) else os.path.join(ROOT, binary)
        self.binary = binary
        self.names = [n.strip() for n in args.players.split(",") if n.strip()]
        unknown = [n for n in self.names if n not in PLAYERS]
        if unknown or not self.names:
            raise SystemExit(f"lottie-export-check: unknown player {', '.join(unknown) or '(none)'}: of {', '.join(PLAYERS)}")
        self.scales = [float(s) for s in args.scales.split(",") if s]
        self.judged = [float(s) for s in args.judge_scales.split(",") if s] or self.scales
        self.reference = P.Throbber(binary)
        # The import is drawn by self.reference (Throbber reading the exported file).
        self.players = P.Players([n for n in self.names if n != "import"], binary)
        self.thorvg = self.players.made.get("thorvg")
        self.validator = spec_validator()
        self.out = args.out
        if self.out:
            os.makedirs(self.out, exist_ok=True)

    def frames_for(self, case, doc):
        if self.args.frames:
            return [float(f) for f in self.args.frames.split(",")]
        if case.get("times"):
            return [float(f) for f in case["times"]]
        return default_frames(doc["op"])

    def draw(self, name, path, doc, data, f, width, height, scale, slots=(), sets=()):
        """One player's frame of the exported file; "import" is Throbber reading it."""
        if name == "import":
            return self.reference.render(path, doc, f, width, height, scale, sets)
        if slots:
            return self.thorvg.render(data, f, width, height, slots)
        return self.players.frame(name, path, doc, data, f, width, height, scale)

    def compare_frames(self, label, case, path, doc, data, names, sets, refs, slots=(), import_sets=()):
        """Each player named against Throbber's frames of the scene with `sets`, over the scales and
        frames; refs caches those frames by (scale, frame). Returns per player the worst figures
        (or its error) and the problems met."""
        approximate = bool(case.get("approximate"))
        start = float(case.get("start", 0))
        fr = float(doc["fr"])
        results = {name: {"worst": new_worst(), "judged": new_worst(), "frames": 0} for name in names}
        problems = []
        for scale in self.scales:
            width, height = canvas_px(doc, scale)
            for f in self.frames_for(case, doc):
                key = (scale, f)
                if key not in refs:
                    try:
                        refs[key] = self.reference.render_scene(case["scene"], start + f / fr, scale,
                                                                [f"{k}={v}" for k, v in sets.items()], cwd=ROOT)
                    except RuntimeError as e:
                        problems.append(f"throbber render {case['scene']} at {scale:g}x, frame {f:g}: {e}")
                        return results, problems
                reference = refs[key]
                if reference.shape[:2] != (height, width):
                    problems.append(f"the export's canvas {doc['w']}×{doc['h']} at {scale:g}x is {width}×{height} px; "
                                    f"the scene's frame is {reference.shape[1]}×{reference.shape[0]} px")
                    return results, problems
                for name in names:
                    entry = results[name]
                    if "error" in entry:
                        continue
                    try:
                        frame = self.draw(name, path, doc, data, f, width, height, scale, slots, import_sets)
                    except Exception as e:  # a player that cannot draw the file is reported, not fatal
                        entry["error"] = str(e).splitlines()[0] if str(e) else type(e).__name__
                        continue
                    figures = measure(reference, frame)
                    record(entry["worst"], figures, scale, f)
                    if scale in self.judged:
                        record(entry["judged"], figures, scale, f)
                    entry["frames"] += 1
                    if self.out and beyond(name, figures["over"], figures["mean"], figures["max"], approximate):
                        stem = f"{label.replace(':', '_')}_{name}_{scale:g}x_f{f:g}.png"
                        C.side_by_side([reference, frame], ["throbber", name], os.path.join(self.out, stem))
        reported = case.get("reported", {})
        for name, entry in results.items():
            if "error" not in entry:
                w = entry["worst"]
                entry["meets"] = entry["frames"] > 0 and not beyond(
                    name, w["over"]["value"], w["mean"]["value"], w["max"]["value"], approximate)
                # Held at the judged scales only, unless the case reports this player with a reason.
                j = entry["judged"]
                entry["held"] = name not in reported
                entry["holds"] = (not entry["held"] or j["over"]["value"] < 0
                                  or not beyond(name, j["over"]["value"], j["mean"]["value"], j["max"]["value"], approximate))
                if name in reported:
                    entry["why"] = reported[name]
            entry["target"] = target_text(name, approximate)
        return results, problems

    def check(self, case, folder):
        name = case["name"]
        result = {"scene": case["scene"], "set": case["set"], "problems": []}
        path = os.path.join(folder, f"{name}.json")
        code, last, ms = run_export(self.binary, case, path)
        result["export_ms"] = round(ms, 1)
        if case.get("refused"):
            wanted = case.get("refusal", "")
            result["refused"] = last
            if code == 0:
                result["problems"].append(f"exported, but the case expects a refusal ({wanted!r})")
            elif wanted not in last:
                result["problems"].append(f"refused with {last!r}, not a line containing {wanted!r}")
            result["meets"] = not result["problems"]
            return result
        if code != 0 or not os.path.exists(path):
            result["problems"].append(f"export failed (exit {code}): {last}")
            result["meets"] = False
            return result
        data = open(path, "rb").read()
        result["bytes"] = len(data)
        try:
            doc = json.loads(data)
        except ValueError as e:
            result["problems"].append(f"the export is not JSON: {e}")
            result["meets"] = False
            return result
        result["schema_errors"] = schema_errors(self.validator, doc)
        result["problems"] += [f"lottie-spec 1.0: {e}" for e in result["schema_errors"]]
        header = header_problems(doc, case)
        result["problems"] += header
        if header:
            result["meets"] = False
            return result
        result.update(w=doc["w"], h=doc["h"], fr=doc["fr"], op=doc["op"], slots=sorted(doc.get("slots") or {}))
        result["notes"] = slot_notes(doc, colour_parameters(self.binary, case["scene"]))
        result["frames"] = self.frames_for(case, doc)
        refs = {}
        result["players"], problems = self.compare_frames(name, case, path, doc, data, self.names, case["set"], refs)
        result["problems"] += problems
        if case.get("themes"):
            result["themes"] = self.check_themes(case, folder, refs)
        result["meets"] = (not result["problems"]
                           and all(p.get("meets") for p in result["players"].values())
                           and all(t.get("meets") for t in result.get("themes", {}).values()))
        # What the run is held to: the targets at the judged scales, for the players not reported.
        result["holds"] = (not result["problems"]
                           and all(p.get("holds", False) for p in result["players"].values())
                           and all(t.get("holds", t.get("meets")) for t in result.get("themes", {}).values()))
        return result

    def check_themes(self, case, folder, base_refs):
        """The case exported as a .lottie with its themes; each theme in ThorVG (slots applied) and
        in Throbber's import (--set theme=NAME) against the scene with the theme's parameters set."""
        name = case["name"]
        archive = os.path.join(folder, f"{name}.lottie")
        code, last, ms = run_export(self.binary, case, archive)
        out = {}
        if code != 0 or not os.path.exists(archive):
            return {"(archive)": {"problems": [f"export to .lottie failed (exit {code}): {last}"], "meets": False}}
        problems, animations, themes = read_archive(archive)
        wanted = set(case["themes"])
        if set(themes) != wanted and not problems:
            problems.append(f"manifest.json lists themes {sorted(themes)}, not {sorted(wanted)}")
        if not animations:
            return {"(archive)": {"problems": problems or ["no animation"], "meets": False}}
        ident, data = next(iter(animations.items()))
        doc = json.loads(data)
        problems += [f"a/{ident}.json: lottie-spec 1.0: {e}" for e in schema_errors(self.validator, doc)]
        problems += [f"a/{ident}.json: {p}" for p in header_problems(doc, case)]
        head = {"bytes": os.path.getsize(archive), "export_ms": round(ms, 1), "animation": ident,
                "problems": problems, "meets": not problems}
        out["(archive)"] = head
        if problems:
            return out
        names = [n for n in self.names if n in ("thorvg", "import")]
        # ThorVG reads the animation from a file of its own; Throbber's import reads the archive.
        path = os.path.join(folder, f"{name}.{ident}.json")
        with open(path, "wb") as f:
            f.write(data)
        for theme, sets in case["themes"].items():
            rules = themes.get(theme, [])
            entry = {"set": sets, "rules": rules, "problems": rule_problems(rules, doc.get("slots") or {})}
            slots = theme_slots(rules)
            merged = dict(case["set"], **sets)
            refs = {}
            # ThorVG with the theme's slots applied; the import reading the archive with the theme.
            players, problems = {}, []
            if "thorvg" in names:
                players, problems = self.compare_frames(f"{name}:{theme}", case, path, doc, data, ["thorvg"],
                                                        merged, refs, slots=slots)
            if "import" in names:
                more, problems2 = self.compare_frames(f"{name}:{theme}", case, archive, doc, data, ["import"],
                                                      merged, refs, import_sets=[f"theme={theme}"])
                players.update(more)
                problems += problems2
            entry["players"] = players
            entry["problems"] += problems
            # A theme that changes nothing in the frames checked proves nothing: say so.
            same = [k for k in refs if k in base_refs and (refs[k] == base_refs[k]).all()]
            if refs and len(same) == len(refs):
                entry["problems"].append("the theme's parameters change no pixel of the frames checked")
            entry["meets"] = not entry["problems"] and all(p.get("meets") for p in players.values())
            entry["holds"] = not entry["problems"] and all(p.get("holds", p.get("meets")) for p in players.values())
            out[theme] = entry
        return out

    def close(self):
        self.players.close()


def main(argv):
    args = parse_args(argv)
    try:
        cases = select(load_cases(args.cases_file), args.cases)
    except (ValueError, OSError) as e:
        print(f"lottie-export-check: {e}", file=sys.stderr)
        return 64
    run = Run(args)
    versions = dict(run.players.versions())
    versions["throbber"] = run.reference.version
    report = {"players": versions, "scales": run.scales, "throbber": run.binary,
              "targets": {n: target_text(n) for n in run.names}, "cases": {}}
    started = time.time()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or scratch
        os.makedirs(folder, exist_ok=True)
        try:
            for case in cases:
                result = run.check(case, folder)
                report["cases"][case["name"]] = result
                print_case(case["name"], result, run.names)
        finally:
            run.close()
    report["seconds"] = round(time.time() - started, 1)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    missed = [n for n, r in report["cases"].items() if not r["meets"]]
    failed = [n for n, r in report["cases"].items() if not r.get("holds", r["meets"])]
    print_table(report, run.names)
    print(f"lottie-export-check: {len(cases) - len(missed)} of {len(cases)} cases meet the targets ("
          + "; ".join(f"{n} {target_text(n)}" for n in run.names) + f"; at {args.scales}x)"
          + (f"; missed: {', '.join(missed)}" if missed else "") + f" in {report['seconds']} s")
    judged = args.judge_scales or args.scales
    print(f"lottie-export-check: held at {judged}x, reported players aside: "
          + (f"{len(failed)} of {len(cases)} cases fail: {', '.join(failed)}" if failed else f"all {len(cases)} cases hold"))
    return 1 if failed and not args.report_only else 0


def cell(name, entry):
    if not entry:
        return "—"
    if "error" in entry:
        return "error"
    w = summary(entry["worst"])
    mark = "" if entry.get("meets") else " ✘" if entry.get("held", True) else " (reported)"
    if name == "import":
        return f"max {w['max']:g}, {w['over2'] * 100:.2f} %{mark}"
    return f"{w['over'] * 100:.2f} %, {w['mean']:.2f}{mark}"


def print_case(name, result, names):
    parts = [f"{n} {cell(n, result.get('players', {}).get(n))}" for n in names if n in result.get("players", {})]
    parts += [f"{n}: {e['error']}" for n, e in result.get("players", {}).items() if "error" in e]
    parts += result["problems"][:3] + result.get("notes", [])
    for theme, entry in result.get("themes", {}).items():
        inner = [f"{n} {cell(n, e)}" for n, e in entry.get("players", {}).items()] + entry["problems"][:3]
        parts.append(f"theme {theme}: " + ("; ".join(inner) or "ok"))
    size = f"{result['bytes']} B, " if "bytes" in result else ""
    verdict = "ok" if result["meets"] else "MISSED"
    print(f"{name}: {verdict} ({size}export {result.get('export_ms', 0):.0f} ms): " + "; ".join(parts), flush=True)


def print_table(report, names):
    heads = [f"{n}: max, % > 2/255" if n == "import" else f"{n}: % > 16/255, mean" for n in names]
    print()
    print("| case | bytes | export ms | " + " | ".join(heads) + " |")
    print("|---|---:|---:|" + "---:|" * len(names))
    for case, result in report["cases"].items():
        players = result.get("players", {})
        cells = [cell(n, players.get(n)) for n in names]
        size = str(result.get("bytes", "refused" if "refused" in result else "—"))
        print(f"| {case} | {size} | {result.get('export_ms', 0):.0f} | " + " | ".join(cells) + " |")
        for theme, entry in result.get("themes", {}).items():
            if theme == "(archive)":
                continue
            cells = [cell(n, entry.get("players", {}).get(n)) for n in names]
            print(f"| {case} theme {theme} | | | " + " | ".join(cells) + " |")
    print()
    print("players: " + "; ".join(f"{k} = {v}" for k, v in report["players"].items()))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

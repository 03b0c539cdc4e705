"""The Lottie players Throbber is compared with, each behind one call: a frame as premultiplied RGBA.

    frame = render(player, path, f, width, height)   # numpy uint8, height × width × 4, premultiplied

`f` is the frame offset from the file's `ip` (Lottie frame ip + f, fractional allowed): time
t = f / fr seconds. The canvas is width × height px, the file's w × h scaled by width / w.

What each player's buffer is (verified by rendering, see docs/lottie.md "The players"):
  - thorvg:   tvg_swcanvas_set_target with Colorspace.ABGR8888 — alpha-premultiplied, one uint32
              a << 24 | b << 16 | g << 8 | r, so bytes R, G, B, A in memory (little-endian).
              Animation.set_frame(f) takes the frame from ip, fractional; Picture.set_size(w, h)
              scales the content keeping its aspect ratio.
  - rlottie:  lottie_animation_render(frame_num, buffer, w, h, stride) — ARGB32 premultiplied,
              bytes B, G, R, A. frame_num is a whole frame from ip (size_t); a fractional frame is
              rendered from a copy of the file whose clock runs k times faster (fr, ip, op, st,
              every keyframe time and marker scaled by k), so that f·k is whole.
  - throbber: `throbber render FILE --frames 1 --start f/fr --scale S --backend cpu -o DIR` —
              a PNG with straight alpha, premultiplied here (round(c·a/255)).
  - lottie-web: lottie-web 5.7.5 (pylottie's copy) in headless Chromium, canvas renderer,
              goToAndStop(f, true); the canvas read as a PNG (toDataURL: straight alpha, as
              getImageData gives it), premultiplied here.
"""
import copy
import ctypes
import glob
import json
import math
import os
import subprocess
import tempfile
from fractions import Fraction

import numpy as np

PLAYERS = ("thorvg", "rlottie", "throbber", "lottie-web")


def premultiply(rgba):
    """Straight-alpha RGBA (uint8) to premultiplied, rounding to nearest."""
    a = rgba[..., 3:4].astype(np.uint32)
    rgb = (rgba[..., :3].astype(np.uint32) * a + 127) // 255
    return np.concatenate([rgb.astype(np.uint8), rgba[..., 3:4]], axis=-1)


def unpremultiply(rgba):
    """Premultiplied RGBA (uint8) to straight alpha, for writing PNGs people look at."""
    a = rgba[..., 3:4].astype(np.uint32)
    safe = np.maximum(a, 1)
    rgb = np.where(a > 0, np.minimum((rgba[..., :3].astype(np.uint32) * 255 + safe // 2) // safe, 255), 0)
    return np.concatenate([rgb.astype(np.uint8), rgba[..., 3:4]], axis=-1)


def canvas_size(doc, longest):
    """The pixel size of a file drawn with its longest side `longest` px, and the scale, as Throbber
    sizes a canvas: ceil(w·S − 1e-9) × ceil(h·S − 1e-9)."""
    w, h = float(doc["w"]), float(doc["h"])
    scale = longest / max(w, h)
    return math.ceil(w * scale - 1e-9), math.ceil(h * scale - 1e-9), scale


# ThorVG -------------------------------------------------------------------------------------------

class ThorVG:
    """ThorVG's software renderer, one thread (Engine(threads=0)), a fresh canvas per size."""

    def __init__(self, threads=0):
        import thorvg_python as tvg
        self.tvg = tvg
        self.engine = tvg.Engine(threads=threads)
        self.version = self.engine.version()[4]
        self.cache = {}

    def _setup(self, data, width, height, slots=()):
        key = (id(data), width, height, tuple(slots))
        if key not in self.cache:
            for old in self.cache.values():
                old[0].destroy()
            self.cache.clear()
            tvg = self.tvg
            canvas = tvg.SwCanvas(self.engine)
            canvas.set_target(width, height, cs=tvg.Colorspace.ABGR8888)
            animation = tvg.LottieAnimation(self.engine)
            picture = animation.get_picture()
            result = picture.load_data(data, "lottie", None, True)
            if result != tvg.Result.SUCCESS:
                raise RuntimeError(f"ThorVG cannot load the file: {result.name}")
            # Slot values (lottie-spec 1.0 `slots`), each a JSON object {"SID": {"p": {...}}}, as a
            # dotLottie player applies a theme: applied slots accumulate.
            for text in slots:
                slot = animation.gen_slot(text)
                if not slot or animation.apply_slot(slot) != tvg.Result.SUCCESS:
                    raise RuntimeError(f"ThorVG cannot apply the slots {text}")
            picture.set_size(width, height)
            canvas.add(picture)
            self.cache = {key: (canvas, animation, data)}
        return self.cache[key]

    def render(self, data, f, width, height, slots=()):
        canvas, animation, _ = self._setup(data, width, height, slots)
        animation.set_frame(float(f))
        canvas.update()
        canvas.draw(True)
        canvas.sync()
        return np.frombuffer(bytes(canvas.buffer_arr), np.uint8).reshape(height, width, 4).copy()


# rlottie ------------------------------------------------------------------------------------------

def retime(doc, k):
    """A copy of a Lottie document whose clock runs k times faster: frame f of the original is
    frame f·k of the copy (fr, ip, op, st, keyframe times, markers scaled; time remapping's values
    are seconds and stay)."""
    out = copy.deepcopy(doc)
    out["fr"] = doc["fr"] * k

    def walk(node):
        if isinstance(node, dict):
            if node.get("a") == 1 and isinstance(node.get("k"), list):
                for key in node["k"]:
                    if isinstance(key, dict) and "t" in key:
                        key["t"] = key["t"] * k
            for name, value in node.items():
                if name in ("layers",) and isinstance(value, list):
                    for layer in value:
                        for field in ("ip", "op", "st"):
                            if field in layer:
                                layer[field] = layer[field] * k
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    out["ip"], out["op"] = doc["ip"] * k, doc["op"] * k
    walk({"layers": out.get("layers", [])})
    walk(out.get("assets", []))
    for marker in out.get("markers", []):
        marker["tm"] = marker.get("tm", 0) * k
        marker["dr"] = marker.get("dr", 0) * k
    return out


class RLottie:
    """rlottie through rlottie-python's C API binding."""

    def __init__(self):
        from rlottie_python import LottieAnimation
        self.LottieAnimation = LottieAnimation
        self.cache = {}
        self.version = "rlottie-python " + _dist_version("rlottie-python")

    def render(self, doc, f, width, height):
        fraction = Fraction(f).limit_denominator(1000)
        k = fraction.denominator
        key = (id(doc), k)
        if key not in self.cache:
            if len(self.cache) > 8:
                self.cache.clear()
            text = json.dumps(doc if k == 1 else retime(doc, k))
            self.cache[key] = (self.LottieAnimation.from_data(text), doc)
        animation = self.cache[key][0]
        frame = int(round(f * k))
        raw = animation.lottie_animation_render(frame_num=frame, width=width, height=height)
        bgra = np.frombuffer(raw, np.uint8).reshape(height, width, 4)
        return bgra[..., [2, 1, 0, 3]].copy()


def _dist_version(name):
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:
        return "?"


# Throbber -----------------------------------------------------------------------------------------

class Throbber:
    """`throbber render FILE --frames 1 --start T --scale S --backend cpu -o DIR`, one frame a call."""

    def __init__(self, binary=None, backend="cpu"):
        self.binary = binary or os.environ.get("THROBBER", ".build/release/throbber")
        if not os.access(self.binary, os.X_OK):
            raise RuntimeError(f"{self.binary} is missing: run 'swift build -c release' first (or set THROBBER)")
        self.backend = backend
        self.version = subprocess.run([self.binary, "--version"], capture_output=True, text=True).stdout.strip()

    def render(self, path, doc, f, width, height, scale, sets=()):
        image = self.render_scene(path, f / float(doc["fr"]), scale, sets)
        if image.shape[:2] != (height, width):
            raise RuntimeError(f"throbber's frame is {image.shape[1]}×{image.shape[0]} px, not {width}×{height}")
        return image

    def render_scene(self, scene, start, scale, sets=(), cwd=None):
        """One frame of any scene (a built-in's id, a scene file, a Lottie file) at `start` seconds,
        each of `sets` (NAME=VALUE) given as --set; premultiplied RGBA at the size Throbber chose."""
        with tempfile.TemporaryDirectory() as out:
            command = [self.binary, "render", scene, "--frames", "1", "--start", repr(start), "--scale",
                       repr(scale), "--backend", self.backend, "-o", out, "-q", "--overwrite"]
            for item in sets:
                command += ["--set", item]
            run = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
            if run.returncode != 0:
                last = (run.stderr.strip().splitlines() or [""])[-1]
                raise RuntimeError(f"throbber exit {run.returncode}: {last}")
            pngs = sorted(glob.glob(os.path.join(out, "*.png")))
            if len(pngs) != 1:
                raise RuntimeError(f"throbber wrote {len(pngs)} PNGs, not 1")
            from PIL import Image
            image = np.asarray(Image.open(pngs[0]).convert("RGBA"))
        return premultiply(image)


# lottie-web ---------------------------------------------------------------------------------------

def lottie_web_library():
    """lottie-web's code as pylottie ships it (the first <script> of its lottie.html)."""
    import pylottie
    html = open(os.path.join(os.path.dirname(pylottie.__file__), "lottie.html"), encoding="utf-8").read()
    start = html.index("<script>") + len("<script>")
    return html[start:html.index("</script>", start)]


PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>
* { margin: 0; padding: 0; } body { background: transparent; }</style></head>
<body><div id="root"></div></body></html>"""

LOAD = """([data, w, h]) => {
  const root = document.getElementById('root');
  root.innerHTML = '';
  root.style.width = w + 'px'; root.style.height = h + 'px';
  if (window.anim) { window.anim.destroy(); }
  window.anim = lottie.loadAnimation({container: root, renderer: 'canvas', loop: false, autoplay: false,
    animationData: data, rendererSettings: {dpr: 1, clearCanvas: true, preserveAspectRatio: 'xMidYMid meet'}});
  return window.anim.totalFrames;
}"""

FRAME = """([f]) => {
  window.anim.goToAndStop(f, true);
  const c = document.querySelector('#root canvas');
  return [c.width, c.height, c.toDataURL('image/png')];
}"""


def inline_images(doc, folder):
    """The document with each image asset that is a file beside it made a data URI, the same
    pixels: rlottie loads such files only through from_file (not from_data with a resource path),
    thorvg-python's load_data with a resource path fails on a second call (ctypes argtypes), and
    the lottie-web page has no base URL to fetch them from. Throbber reads the files themselves."""
    if not folder or not any(a.get("p") and not a.get("e") and "layers" not in a for a in doc.get("assets", [])):
        return doc
    import base64
    out = copy.deepcopy(doc)
    for asset in out["assets"]:
        if asset.get("p") and not asset.get("e") and "layers" not in asset:
            with open(os.path.join(folder, asset.get("u", ""), asset["p"]), "rb") as f:
                asset["p"] = "data:image/png;base64," + base64.b64encode(f.read()).decode("ascii")
            asset["u"], asset["e"] = "", 1
    return out


class LottieWeb:
    """lottie-web 5.7.5 (canvas renderer) in headless Chromium through Playwright."""

    def __init__(self, chromium=None):
        from playwright.sync_api import sync_playwright
        chromium = chromium or os.environ.get("CHROMIUM", "/usr/bin/chromium")
        self._pw = sync_playwright().start()
        self.browser = self._pw.chromium.launch(executable_path=chromium, headless=True,
                                                args=["--no-sandbox", "--disable-gpu", "--mute-audio"])
        self.page = self.browser.new_page(device_scale_factor=1)
        self.page.set_content(PAGE)
        self.page.add_script_tag(content=lottie_web_library())
        self.version = "lottie-web " + self.page.evaluate("lottie.version") + ", Chromium " + self.browser.version
        self.loaded = None

    def render(self, doc, f, width, height):
        key = (id(doc), width, height)
        if self.loaded != key:
            self.page.evaluate(LOAD, [doc, width, height])
            self.loaded = key
        w, h, url = self.page.evaluate(FRAME, [float(f)])
        if (w, h) != (width, height):
            raise RuntimeError(f"lottie-web's canvas is {w}×{h} px, not {width}×{height}")
        import base64
        import io
        from PIL import Image
        png = base64.b64decode(url.split(",", 1)[1])
        return premultiply(np.asarray(Image.open(io.BytesIO(png)).convert("RGBA")))

    def close(self):
        self.browser.close()
        self._pw.stop()


class Players:
    """The players named, made once; `frame(name, path, doc, data, f, longest)`."""

    def __init__(self, names, throbber=None):
        self.names = list(names)
        self.made = {}
        self.inlined = None
        for name in self.names:
            if name not in PLAYERS:
                raise SystemExit(f"lottie players: unknown player '{name}': one of {', '.join(PLAYERS)}")
            if name == "thorvg":
                self.made[name] = ThorVG()
            elif name == "rlottie":
                self.made[name] = RLottie()
            elif name == "throbber":
                self.made[name] = Throbber(throbber)
            else:
                self.made[name] = LottieWeb()

    def versions(self):
        return {name: player.version for name, player in self.made.items()}

    def frame(self, name, path, doc, data, f, width, height, scale):
        player = self.made[name]
        if name == "throbber":
            return player.render(path, doc, f, width, height, scale)
        if self.inlined is None or self.inlined[0] is not doc:
            folder = os.path.dirname(os.path.abspath(path))
            own = inline_images(doc, folder)
            self.inlined = (doc, own, data if own is doc else json.dumps(own).encode())
        _, own, own_data = self.inlined
        if name == "thorvg":
            return player.render(own_data, f, width, height)
        return player.render(own, f, width, height)

    def close(self):
        if "lottie-web" in self.made:
            self.made["lottie-web"].close()

#!/usr/bin/env python3
"""The studio as a user drives it: `throbber studio` with the page in headless Chromium.

usage: scripts/browser/studio_test.py [--throbber PATH] [--screenshots] [--moves N] [--page-dir DIR] [-v]

Starts `throbber studio` (a free port, --export-dir in a temporary directory) with every built-in
scene and a copy of the example scene file with the largest canvas, opens its page in headless
Chromium (Debian's, driven by Playwright) and drives the real controls: sliders over their whole
range (log sliders too), typed values, choices, colours with alpha, an optional parameter switched
on, the HUD's status, the timeline, @1x/@2x/@3x, the background modes, play, CPU | GL when the
studio can compare, copy, an export; then edits the scene file's copy on disk (a valid change
changes the frame; a broken file shows its FILE:LINE:COLUMN in place of the frame; fixed again,
frames resume).

Every frame the page showed (window.studio's record of seq, command and RGBA) is rendered again
by its own `throbber render … -o DIR` command and compared with the PNG: any difference fails,
naming the seq, the command and the first differing pixel.

Latency, from a slider's input event to the paint of the frame that answers it (the page measures
it, docs/studio.md): for each built-in scene at a 512 px wide frame (@2x of 256 pt) and for the
example file at @2x, --moves slider moves (default 30), each waiting for its frame. Prints the
median and p90 per scene; fails when a built-in's median is over 50 ms or the example's over
100 ms.

--screenshots writes docs/studio-wide.png (1280 px) and docs/studio-narrow.png (820 px).

Exit status 0 when everything passed, 1 on any failure (a missing Chromium or Playwright too: a
check is never skipped), 2 for a usage error. Environment: CHROMIUM (default /usr/bin/chromium).
Playwright is installed from PyPI when missing, and numpy (the PNG comparison's arithmetic).
"""

import argparse
import base64
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from concurrent.futures import ThreadPoolExecutor

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
BUILT_INS = ["wave-ball", "double-wave", "pull-wave", "activity", "ring", "progress-ring", "hud"]
# Parameters that make a built-in's frame 512 px wide at @2x, and those that move its canvas
# (kept out of the latency moves, which hold the frame size).
AT_512 = {
    "wave-ball": {"size": "256"},
    "double-wave": {"width": "256"},
    "pull-wave": {"width": "256"},
    "activity": {"size": "256"},
    "ring": {"hudSize": "256"},
    "progress-ring": {"hudSize": "256"},
    "hud": {"minimumSize": "256x256"},
}
CANVAS_PARAMETERS = {"size", "width", "height", "hudSize", "margin", "screen", "minimumSize", "offset"}
BUILT_IN_MEDIAN_MS = 50.0
EXAMPLE_MEDIAN_MS = 100.0


class Failure(Exception):
    pass


def log(message):
    print(f"studio-test: {message}", flush=True)


def install(module, package):
    try:
        __import__(module)
    except ImportError:
        log(f"installing {package} (PyPI)")
        done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", package])
        if done.returncode != 0:
            raise Failure(f"{package} is missing and 'python3 -m pip install -q {package}' failed")
        __import__(module)


# --- PNG: zlib and the five row filters (PNG spec §9), vectorised with numpy -------------------

def read_png(path):
    """(width, height, filter types, filtered rows) of an 8-bit RGBA PNG, not unfiltered."""
    import numpy as np
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise Failure(f"{path}: not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    width, height = int.from_bytes(header[0:4], "big"), int.from_bytes(header[4:8], "big")
    depth, colour, interlace = header[8], header[9], header[12]
    if (depth, colour, interlace) != (8, 6, 0):
        raise Failure(f"{path}: bit depth {depth}, colour type {colour}, interlace {interlace}: not 8-bit RGBA")
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), dtype=np.uint8)
    if raw.size != height * (width * 4 + 1):
        raise Failure(f"{path}: {raw.size} bytes of rows for {width}×{height}")
    rows = raw.reshape(height, width * 4 + 1)
    return width, height, rows[:, 0].copy(), rows[:, 1:]


def paeth(a, b, c):
    import numpy as np
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def filtered(image, types):
    """The page's pixels filtered as the PNG filtered its rows: equal to the PNG's filtered rows
    exactly when the pixels are equal (each row's filter is invertible given the row above)."""
    import numpy as np
    x = image.astype(np.int16)
    up = np.zeros_like(x)
    up[1:] = x[:-1]
    left = np.zeros_like(x)
    left[:, 4:] = x[:, :-4]
    upleft = np.zeros_like(x)
    upleft[1:, 4:] = x[:-1, :-4]
    predictions = [np.zeros_like(x), left, up, (left + up) // 2, paeth(left, up, upleft)]
    if types.max() > 4:
        raise Failure(f"a PNG row has filter type {types.max()}")
    prediction = np.choose(types[:, None].astype(np.intp), predictions)
    return ((x - prediction) & 0xFF).astype(np.uint8)


def unfilter_row(rows, types, r, previous, upto):
    """Row r of the PNG decoded up to byte `upto` (pure Python), given the true row above."""
    row = [0] * upto
    kind = int(types[r])
    for i in range(upto):
        a = row[i - 4] if i >= 4 else 0
        b = int(previous[i]) if previous is not None else 0
        c = int(previous[i - 4]) if previous is not None and i >= 4 else 0
        v = int(rows[r, i])
        if kind == 1:
            v += a
        elif kind == 2:
            v += b
        elif kind == 3:
            v += (a + b) // 2
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            v += a if pa <= pb and pa <= pc else (b if pb <= pc else c)
        row[i] = v & 0xFF
    return row


def compare_with_png(rgba, width, height, path):
    """None when the PNG holds exactly these pixels, else what differs."""
    import numpy as np
    w, h, types, rows = read_png(path)
    if (w, h) != (width, height):
        return f"the PNG is {w}×{h}, the page showed {width}×{height}"
    image = np.frombuffer(rgba, dtype=np.uint8).reshape(height, width * 4)
    mismatch = filtered(image, types) != rows
    if not mismatch.any():
        return None
    r = int(np.argmax(mismatch.any(axis=1)))
    i = int(np.argmax(mismatch[r]))
    x = i // 4
    # The rows above r are equal, so the page's row above is the PNG's.
    want = unfilter_row(rows, types, r, image[r - 1] if r > 0 else None, x * 4 + 4)[x * 4:x * 4 + 4]
    got = [int(v) for v in image[r, x * 4:x * 4 + 4]]
    return f"first differing pixel ({x}, {r}): page {got}, PNG {want}"


# --- The studio ----------------------------------------------------------------------------------

class Studio:
    def __init__(self, throbber, work, scenes, page_dir=None):
        self.exports = os.path.join(work, "exports")
        os.makedirs(self.exports)
        self.log_path = os.path.join(work, "studio.log")
        self.cwd = work
        command = [throbber, "studio", *scenes, "--port", "0", "--export-dir", self.exports]
        if page_dir:
            command += ["--page-dir", page_dir]
        log(" ".join(shlex.quote(c) for c in command))
        self.process = subprocess.Popen(command, cwd=work, stdout=subprocess.PIPE,
                                        stderr=open(self.log_path, "w"), text=True)
        line = []
        reader = threading.Thread(target=lambda: line.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(30)
        first = line[0] if line else ""
        match = re.match(r"studio: (http://127\.0\.0\.1:\d+/)\s*$", first)
        if not match:
            self.stop()
            raise Failure(f"the studio did not print 'studio: http://127.0.0.1:PORT/' within 30 s "
                          f"(got {first!r}); its stderr: {self.stderr_tail()}")
        self.url = match.group(1)
        threading.Thread(target=lambda: self.process.stdout.read(), daemon=True).start()

    def stderr_tail(self):
        try:
            return open(self.log_path).read()[-2000:].strip() or "(empty)"
        except OSError:
            return "(none)"

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise Failure("the studio did not stop within 5 s of SIGTERM")
        return self.process.returncode


# --- Driving the page ------------------------------------------------------------------------------

DRAIN = """() => studio.drain().map((f) => {
  let s = "";
  for (let i = 0; i < f.rgba.length; i += 0x8000) s += String.fromCharCode.apply(null, f.rgba.subarray(i, i + 0x8000));
  return {seq: f.seq, revision: f.revision, scene: f.scene, command: f.command, width: f.width, height: f.height, b64: btoa(s)};
})"""


HASH = "studio.shown.rgba.reduce((h, v, i) => (h * 31 + v * (i % 7 + 1)) % 1000000007, 7)"


class Driver:
    def __init__(self, page, studio, frames_dir, verbose, throbber=None, work=None):
        self.page = page
        self.studio = studio
        self.frames_dir = frames_dir
        self.frames = []          # {seq, scene, command, width, height, path}
        self.verified = 0         # frames[:verified] were rendered again and compared
        self.differences = []     # what verify found
        self.verbose = verbose
        self.throbber = throbber
        self.work = work
        self.problems = []        # console errors, CSP violations, page errors

    def verify_now(self):
        self.drain()
        self.differences += verify(self.frames[self.verified:], self.throbber, self.studio.cwd, self.work)
        self.verified = len(self.frames)

    def js(self, expression):
        return self.page.evaluate(expression)

    def wait(self, expression, what, timeout=20.0):
        # Polled from here: Playwright's wait_for_function evaluates a string, which the CSP forbids.
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.005)
        raise Failure(f"timed out after {timeout:.0f} s waiting for {what}; shown: "
                      f"{self.js('JSON.stringify(studio.shown && {seq: studio.shown.seq, scene: studio.shown.scene, command: studio.shown.command})')}, "
                      f"sent {self.js('studio.sentSeq')}, errors {self.js('JSON.stringify(studio.errors)')}, "
                      f"failed {self.js('JSON.stringify(studio.failed)')}; page {self.js('JSON.stringify(studio.debug())')}")

    def settle(self, what="the frame for the latest state", timeout=20.0):
        self.wait("studio.settled()", what, timeout)
        if self.js("studio.rejectedSeq === studio.sentSeq"):
            return False
        self.drain_if(8)
        return True

    def drain_if(self, at_least):
        if self.js("studio.frames.length") >= at_least:
            self.drain()

    def drain(self):
        for f in self.js(DRAIN):
            path = os.path.join(self.frames_dir, f"{f['seq']}-{f['revision']}.rgba")
            data = base64.b64decode(f.pop("b64"))
            if len(data) != f["width"] * f["height"] * 4:
                raise Failure(f"frame {f['seq']}: the page holds {len(data)} bytes for {f['width']}×{f['height']}")
            with open(path, "wb") as out:
                out.write(data)
            f["path"] = path
            self.frames.append(f)

    def param(self, name):
        return self.page.locator(f'#controls [data-param="{name}"]')

    def select_scene(self, scene_id):
        self.page.locator("#scene").select_option(scene_id)
        self.wait(f"studio.state().scene === {json.dumps(scene_id)}", f"scene {scene_id}")

    def scale(self, value):
        self.page.locator(f'[data-scale="{value}"]').click()

    def type_value(self, name, value):
        """A number, size or offset typed into its field(s)."""
        row = self.param(name)
        kind = row.get_attribute("data-type")
        if kind in ("size", "offset"):
            unset = row.locator("input.unset")
            if unset.count() and unset.is_checked():
                unset.uncheck()
            a, b = re.split(r"[x,]", value)
            row.locator("input.pair-a").fill(a)
            row.locator("input.pair-b").fill(b)
        else:
            row.locator("input.num").fill(value)

    def slider(self, name):
        row = self.param(name)
        s = row.locator("input.slider")
        return s, float(s.get_attribute("min")), float(s.get_attribute("max")), float(s.get_attribute("step") or 1)

    def move_slider(self, name, fraction):
        """Sets a slider to a fraction of its travel; returns the value its number field shows
        then, or None when that is where it already was."""
        s, lo, hi, step = self.slider(name)
        position = lo + fraction * (hi - lo)
        position = round(round(position / step) * step, 6)
        position = min(hi, max(lo, position))
        text = f"{position:.6f}".rstrip("0").rstrip(".")
        if abs(float(s.input_value()) - position) < step / 2:
            return None
        s.fill(text)
        return self.param(name).locator("input.num").input_value()

    def reset(self, name):
        self.param(name).locator("button.reset").click()


# Positions along a slider's travel, spread: both ends first, then halves, quarters, eighths…
SPREAD = [0.0, 1.0, 0.5, 0.25, 0.75, 0.125, 0.875, 0.375, 0.625, 0.0625, 0.9375, 0.3125, 0.6875, 0.1875, 0.8125]


def latency_run(d, label, params, moves):
    """`moves` slider moves over `params`, each waiting for its frame; the page's latencies."""
    latencies, seqs = [], []
    counts = {p: 0 for p in params}
    valid, tries, rejected = 0, 0, 0
    while valid < moves:
        if tries > moves * 4:
            raise Failure(f"{label}: only {valid} of {moves} slider moves drew a frame ({rejected} rejected)")
        name = params[tries % len(params)]
        tries += 1
        fraction = SPREAD[counts[name] % len(SPREAD)]
        counts[name] += 1
        before = d.js("studio.latencies.length")
        if d.move_slider(name, fraction) is None:
            continue
        if d.settle(f"{label}: the frame after moving {name}"):
            d.wait(f"studio.latencies.length > {before}", f"{label}: the latency of moving {name}")
            latencies.append(d.js("studio.latencies[studio.latencies.length - 1]"))
            seqs.append(d.js("studio.sentSeq"))
            valid += 1
        else:
            rejected += 1
            d.reset(name)   # the value broke a rule between parameters: back to its default
            d.settle(f"{label}: the frame after resetting {name}")
    d.drain()
    trace = {t["seq"]: t for t in d.js("studio.trace()")}
    return {"latencies": latencies, "trace": [trace[q] for q in seqs if q in trace]}


def stages(trace):
    """Median ms of each stage of the traced states, as text."""
    def median(a, b):
        spans = [t[b] - t[a] for t in trace if a in t and b in t]
        return f"{statistics.median(spans):.1f}" if spans else "?"
    rendered = [t["rendered"] for t in trace if "rendered" in t]
    return (median("posted", "accepted"), median("posted", "arrived"),
            f"{statistics.median(rendered):.1f}" if rendered else "?", median("arrived", "painted"))


def percentile(values, p):
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def slider_params(d):
    return d.js("Array.from(document.querySelectorAll('#controls .param')).filter(r => r.querySelector('input.slider') && !r.querySelector('input.slider').disabled).map(r => r.dataset.param)")


def run_page(args, studio, work, example):
    from playwright.sync_api import sync_playwright

    frames_dir = os.path.join(work, "frames")
    os.makedirs(frames_dir)
    report = {"latency": {}, "compare": None}
    with sync_playwright() as p:
        try:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=["--no-sandbox", "--disable-gpu", "--mute-audio"])
        except Exception as e:
            raise Failure(f"Chromium at {CHROMIUM} does not start under Playwright: {str(e).splitlines()[0]}")
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=studio.url.rstrip("/"))
        except Exception:
            pass
        page = context.new_page()
        d = Driver(page, studio, frames_dir, args.verbose, args.throbber_path, work)

        def on_console(message):
            text = message.text
            if args.verbose:
                print(f"  console {message.type}: {text}")
            if "Content Security Policy" in text or (message.type == "error" and "422" not in text and "409" not in text):
                d.problems.append(f"console {message.type}: {text}")
        page.on("console", on_console)
        page.on("pageerror", lambda e: d.problems.append(f"page error: {e}"))

        page.goto(studio.url)
        d.wait("window.studio && studio.ready", "the page's first frame", 30)
        d.js("studio.record = true")
        info = d.js("studio.info")
        ids = [s["id"] for s in info["scenes"]]
        for want in BUILT_INS:
            if want not in ids:
                raise Failure(f"/api/studio lists no scene {want!r} (it lists {', '.join(ids)})")
        # The file's id in the studio is its name's stem, made unique beside the built-ins.
        listed = [s for s in info["scenes"] if s["reference"] == example["copy"]]
        if not listed:
            raise Failure(f"/api/studio lists no scene read from {example['copy']}")
        if listed[0]["error"]:
            raise Failure(f"the studio cannot read {example['copy']}: {listed[0]['error']}")
        example["id"] = listed[0]["id"]
        log(f"page ready at {studio.url} ({info.get('backend')}); compare {'on' if info.get('compare') else 'off: ' + str(info.get('compareWhy'))}")

        # ---- Latency at 512 px for each built-in, moving every slider that keeps the frame size.
        for scene_id in BUILT_INS:
            d.select_scene(scene_id)
            d.scale(2)
            for name, value in AT_512[scene_id].items():
                d.type_value(name, value)
            d.settle(f"{scene_id} at 512 px")
            width = d.js("studio.shown.width")
            if width != 512:
                raise Failure(f"{scene_id} with {AT_512[scene_id]} @2x is {width} px wide, not 512")
            params = [n for n in slider_params(d) if n not in CANVAS_PARAMETERS]
            if not params:
                raise Failure(f"{scene_id}: no slider to move")
            report["latency"][scene_id] = latency_run(d, scene_id, params, args.moves)

        # ---- The example file at @2x.
        d.select_scene(example["id"])
        d.scale(2)
        d.settle(f"{example['id']} @2x")
        params = [n for n in slider_params(d) if n not in CANVAS_PARAMETERS]
        report["latency"][example["id"]] = latency_run(d, example["id"], params, args.moves)
        example_size = (d.js("studio.shown.width"), d.js("studio.shown.height"))
        d.page.locator("#reset-all").click()
        d.settle()

        # ---- Canvas sliders over their whole range (@1x), typed values, choices, colours, text.
        d.select_scene("wave-ball")
        d.scale(1)
        d.page.locator("#reset-all").click()
        d.settle()
        for fraction in (0.0, 0.5, 1.0, 0.3):
            d.move_slider("size", fraction)
            d.settle("wave-ball size")
        d.reset("size")
        d.settle()
        # A real drag: many input events in a burst, coalesced into a few states; the last one shows.
        box = d.param("progress").locator("input.slider").bounding_box()
        y = box["y"] + box["height"] / 2
        d.page.mouse.move(box["x"] + 4, y)
        d.page.mouse.down()
        d.page.mouse.move(box["x"] + box["width"] - 4, y, steps=25)
        d.page.mouse.up()
        d.settle("the frame after dragging progress")
        dragged = d.param("progress").locator("input.num").input_value()
        if f"progress={dragged}" not in shlex.split(d.js("studio.shown.command")):
            raise Failure(f"after dragging progress to {dragged}, the frame shown is {d.js('studio.shown.command')!r}")
        d.type_value("progress", "0.83")
        d.settle()
        d.param("label").locator("select").select_option("on")
        d.param("caption").locator("input").fill("Charging 电量 ✓")
        d.param("frontWater").locator("input.color").fill("#e04a3c")
        d.param("frontWater").locator("input.alpha").fill("160")
        d.param("tickLit").locator("input.color-text").fill("#33ddaa80")
        d.settle("wave-ball with a label, a caption and colours")
        cmd = d.js("studio.shown.command")
        for needle in ("label=on", "#e04a3ca0", "#33ddaa80"):
            if needle not in cmd:
                raise Failure(f"the command {cmd!r} does not carry {needle!r}")
        # Range errors show beside their control and clear once valid.
        d.type_value("progress", "1.5")
        if d.settle("the 422 for progress=1.5"):
            raise Failure("progress=1.5 drew a frame: the studio should answer 422")
        message = d.param("progress").locator(".p-error")
        if not message.is_visible() or not message.inner_text().strip():
            raise Failure("progress=1.5: no message beside the progress control")
        d.type_value("progress", "0.6")
        d.settle()
        if message.is_visible():
            raise Failure("progress=0.6: the error beside progress stayed")

        # The timeline and scales.
        for k in ("0", "17", "60", "119"):
            d.page.locator("#time").fill(k)
            d.settle(f"time frame {k}")
        t = d.js("studio.shown.t")
        fps = d.js("studio.info.scenes.find(s => s.id === 'wave-ball').fps")
        if abs(t * fps - round(t * fps)) > 1e-6:
            raise Failure(f"t = {t} is not a whole frame at {fps} fps")
        sizes = {}
        for s in (1, 2, 3):
            d.scale(s)
            d.settle(f"@{s}x")
            sizes[s] = d.js("studio.shown.width")
        if not (sizes[2] == 2 * sizes[1] and sizes[3] == 3 * sizes[1]):
            raise Failure(f"widths at @1x/@2x/@3x are {sizes}")
        # A frame over the studio's size limit is refused when its state is sent (422, before its
        # text is laid out), its message shown with the other errors of the state.
        d.type_value("size", "2000")
        d.scale(3)
        if d.settle("the refusal of a 6000 px frame"):
            raise Failure("a 6000 px wide frame was drawn: the studio should refuse it")
        if not d.page.locator("#general-error").is_visible() or "4096 px a side" not in d.page.locator("#general-error").inner_text():
            raise Failure("the refused frame's message is not shown")
        d.reset("size")
        d.scale(1)
        d.settle()

        # Backgrounds.
        d.page.locator("#background").select_option("none")
        d.settle("background none")
        if "--background none" not in d.js("studio.shown.command"):
            raise Failure(f"background none: the command is {d.js('studio.shown.command')!r}")
        d.page.locator("#background").select_option("solid")
        d.page.locator("#solid").fill("#203040")
        d.settle("background solid")
        d.page.locator("#background").select_option("scene")
        d.settle()

        # Play for a second: frames at the clip's rate, dropped when the server is slower.
        before = d.js("studio.shown.seq")
        d.page.locator("#play").click()
        time.sleep(1.0)
        d.page.locator("#play").click()
        d.settle("the frame after pausing")
        played = d.js("studio.shown.seq") - before
        if played < 3:
            raise Failure(f"playing for a second showed {played} frames")

        # HUD: a typed status, choices, an optional colour switched on, a typed size.
        d.select_scene("hud")
        d.param("status").locator("input").fill("Loading… 汽车")
        d.param("state").locator("select").select_option("progress")
        d.param("style").locator("select").select_option("dark")
        d.settle("hud with a status")
        ring = d.param("ringColor")
        if ring.locator("input.unset").count():
            ring.locator("input.unset").uncheck()
            ring.locator("input.color").fill("#ff9900")
            d.settle("hud ringColor")
            ring.locator("input.unset").check()
            d.settle("hud ringColor unset")
        d.type_value("minimumSize", "180x120")
        d.settle("hud minimumSize")
        if "status=Loading… 汽车" not in shlex.split(d.js("studio.shown.command")):
            raise Failure(f"the status is not in the command {d.js('studio.shown.command')!r}")

        # Copy as command: the clipboard (or the fallback) holds the shown command.
        d.page.locator("#copy-command").click()
        d.wait("document.getElementById('copied').textContent !== ''", "the copy message", 5)
        try:
            copied = d.js("navigator.clipboard.readText()")
        except Exception:
            copied = d.js("document.getElementById('clipboard-fallback').value")
        if copied != d.js("studio.shown.command"):
            raise Failure(f"Copy as command copied {copied!r}")

        # CPU | GL.
        if info.get("compare"):
            d.page.locator("#compare").check()
            d.settle("the compare frame", 30)
            c = d.js("studio.shown.compare")
            if not c or not d.page.locator("#compare-view").is_visible():
                raise Failure("CPU | GL on: no comparison shown")
            report["compare"] = c
            d.page.locator("#compare").uncheck()
            d.settle()

        # An export of a short scene, its files listed.
        if info["exports"]["directory"]:
            d.select_scene("ring")
            d.scale(1)
            d.page.locator('[data-kind="png"]').click()
            done = d.wait("Object.values(studio.exports).find(x => x.state !== 'running')", "the png export", 90)
            if done["state"] != "done":
                raise Failure(f"the png export failed: {done.get('message')}")
            missing = [f for f in done["files"] if not os.path.isfile(os.path.join(studio.exports, f))]
            if not done["files"] or missing:
                raise Failure(f"the png export lists {len(done['files'])} files, missing {missing[:3]}")
            report["export"] = f"{done.get('fileCount', len(done['files']))} files in {done['directory']} (frames {done['done']} of {done['total']})"

        # ---- The scene file's copy edited on disk.
        d.select_scene(example["id"])
        d.scale(1)
        d.page.locator("#reset-all").click()
        d.settle()
        path = example["copy"]
        original = open(path).read()
        revision = d.js(f"studio.info.scenes.find(s => s.id === {json.dumps(example['id'])}).revision")
        before_rgba = d.js(HASH)
        # The frames so far are checked now, against the file as it was when they were drawn.
        d.verify_now()
        write(path, edit_valid(original))
        d.wait(f"studio.shown.revision > {revision} && !studio.sceneError && studio.settled()", "a frame after a valid edit of the scene file", 20)
        if d.js(HASH) == before_rgba:
            raise Failure("a valid edit of the scene file did not change its frame")
        d.verify_now()
        broken = original.replace(",", "", 1)
        write(path, broken)
        error = d.wait("studio.sceneError", "the error of a broken scene file", 20)
        name = os.path.basename(path)
        if not re.search(re.escape(name) + r":\d+:\d+", error):
            raise Failure(f"the broken file's error does not say {name}:LINE:COLUMN: {error!r}")
        shown = d.page.locator("#scene-error")
        if not shown.is_visible() or error not in shown.inner_text():
            raise Failure("the broken file's error is not shown in place of the frame")
        if d.page.locator("#frame").is_visible():
            raise Failure("the frame still shows beside the broken file's error")
        revision_broken = d.js(f"studio.info.scenes.find(s => s.id === {json.dumps(example['id'])}).revision")
        write(path, original)
        d.wait(f"!studio.sceneError && studio.shown.revision > {revision_broken} && studio.settled()", "frames after fixing the scene file", 20)
        if shown.is_visible():
            raise Failure("the error stayed after the file was fixed")
        report["edit"] = error
        d.verify_now()

        if d.problems:
            raise Failure("the page reported: " + "; ".join(d.problems[:5]))

        d.verify_now()
        if args.screenshots:
            screenshots(browser, studio, d)
        report["example_size"] = example_size
        browser.close()
    report["differences"] = d.differences
    return d.frames, report


def write(path, text):
    # Written whole, then renamed, as an editor saves; the mtime moves forward for a watcher that polls.
    tmp = path + ".tmp"
    with open(tmp, "w") as out:
        out.write(text)
    os.replace(tmp, path)


def edit_valid(text):
    """A change a user would make: the canvas gets a background, or a colour its default."""
    changed = re.sub(r'("background"\s*:\s*)"none"', r'\1"#28405a"', text, count=1)
    if changed == text:
        changed = re.sub(r'("type"\s*:\s*"color"\s*,\s*"default"\s*:\s*)\[[^\]]*\]', r'\1[0.9, 0.2, 0.2, 1]', text, count=1)
    if changed == text:
        raise Failure("no canvas background or colour default to edit in the scene file")
    return changed


def screenshots(browser, studio, d):
    docs = os.path.join(REPO, "docs")
    for width, height, path, scene, steps in (
        (1280, 900, "studio-wide.png", "wave-ball", [("label", "on"), ("progress", "0.68")]),
        (820, 1000, "studio-narrow.png", "hud", [("status", "Loading…"), ("style", "dark")]),
    ):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(studio.url + f"?scene={scene}")
        s = Driver(page, studio, d.frames_dir, False)
        s.wait("window.studio && studio.ready", "the page for a screenshot", 30)
        for name, value in steps:
            row = s.param(name)
            kind = row.get_attribute("data-type")
            if kind == "choice":
                row.locator("select").select_option(value)
            elif kind == "text":
                row.locator("input").fill(value)
            else:
                s.type_value(name, value)
        s.page.locator("#time").fill("45")
        s.settle("the screenshot's frame")
        s.js("document.activeElement && document.activeElement.blur()")
        page.screenshot(path=os.path.join(docs, path))
        log(f"wrote docs/{path} ({width} px wide)")
        page.close()


def verify(frames, throbber, cwd, work):
    """Renders every shown frame again with its own command; the PNG must hold the same pixels."""
    renders = os.path.join(work, "renders")

    def one(f):
        words = shlex.split(f["command"])
        if not words or words[0] != "throbber" or "-o" not in words:
            return f"seq {f['seq']}: the command is not 'throbber … -o DIR': {f['command']}"
        out = os.path.join(renders, f"{f['seq']}-{f['revision']}")
        words[0] = throbber
        words[words.index("-o") + 1] = out
        try:
            done = subprocess.run(words + ["-q"], cwd=cwd, capture_output=True, text=True)
        except OSError as e:
            return f"seq {f['seq']}: {f['command']} did not start: {e}"
        if done.returncode != 0:
            return f"seq {f['seq']}: {f['command']} exited {done.returncode}: {done.stderr.strip()[:400]}"
        pngs = sorted(os.path.join(root, n) for root, _, names in os.walk(out) for n in names if n.endswith(".png"))
        if len(pngs) != 1:
            return f"seq {f['seq']}: {f['command']} wrote {len(pngs)} PNGs"
        rgba = open(f["path"], "rb").read()
        problem = compare_with_png(rgba, f["width"], f["height"], pngs[0])
        shutil.rmtree(out, ignore_errors=True)
        if problem:
            return f"seq {f['seq']}: {f['command']}: {problem}"
        return None

    with ThreadPoolExecutor(max_workers=max(1, min(2, os.cpu_count() or 1))) as pool:
        return [p for p in pool.map(one, frames) if p]


def largest_example(throbber):
    files = sorted(os.path.join(REPO, "examples", "scenes", n) for n in os.listdir(os.path.join(REPO, "examples", "scenes"))
                   if n.endswith(".scene.json"))
    done = subprocess.run([throbber, "scenes", "--json", *files], capture_output=True, text=True)
    if done.returncode != 0:
        raise Failure(f"throbber scenes --json examples/scenes/*.scene.json failed: {done.stderr.strip()[:400]}")
    scenes = json.loads(done.stdout)
    best = max(zip(files, scenes), key=lambda fs: fs[1]["canvas"]["width"] * fs[1]["canvas"]["height"])
    return {"file": best[0], "id": best[1]["id"], "canvas": best[1]["canvas"]}


def main():
    parser = argparse.ArgumentParser(description="The studio's page in headless Chromium (docs/studio.md).")
    parser.add_argument("--throbber", default=os.environ.get("THROBBER", os.path.join(REPO, ".build", "release", "throbber")))
    parser.add_argument("--screenshots", action="store_true", help="write docs/studio-wide.png and docs/studio-narrow.png")
    parser.add_argument("--moves", type=int, default=30, help="slider moves per scene for latency (default 30)")
    parser.add_argument("--page-dir", metavar="DIR", help="the studio serves the page from DIR (Sources/ThrobberStudio/Page: "
                        "a page edited since the build), not the copy built in")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if args.moves < 1:
        parser.error("--moves must be at least 1")
    throbber = args.throbber_path = os.path.abspath(args.throbber)
    started = time.monotonic()
    try:
        if not os.access(throbber, os.X_OK):
            raise Failure(f"{throbber} is missing: run 'swift build -c release' first")
        if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
            raise Failure(f"Chromium is not at {CHROMIUM} (install Debian's chromium, or set CHROMIUM)")
        install("playwright", "playwright")
        install("numpy", "numpy")
        work = tempfile.mkdtemp(prefix="studio-test-")
        try:
            example = largest_example(throbber)
            os.makedirs(os.path.join(work, "scenes"))
            example["copy"] = os.path.join(work, "scenes", os.path.basename(example["file"]))
            shutil.copyfile(example["file"], example["copy"])
            log(f"the largest example: {os.path.relpath(example['file'], REPO)} ({example['id']}, "
                f"{example['canvas']['width']}×{example['canvas']['height']} pt), edited as a copy")
            studio = Studio(throbber, work, BUILT_INS + [example["copy"]],
                            os.path.abspath(args.page_dir) if args.page_dir else None)
            try:
                frames, report = run_page(args, studio, work, example)
            finally:
                code = studio.stop()
            if code != 0:
                raise Failure(f"the studio exited {code} after SIGTERM, not 0; its stderr: {studio.stderr_tail()}")
            problems = report["differences"]
        finally:
            shutil.rmtree(work, ignore_errors=True)
    except Failure as e:
        print(f"studio-test: FAIL: {e}", file=sys.stderr)
        return 1

    failed = []
    for p in problems[:10]:
        print(f"studio-test: FAIL: {p}", file=sys.stderr)
    if problems:
        failed.append(f"{len(problems)} of {len(frames)} frames differ from their command's PNG")
    else:
        log(f"PASS: all {len(frames)} frames equal their command's PNG (max difference 0)")
    log("latency, input event to painted frame (ms):")
    for scene_id, run in report["latency"].items():
        values = run["latencies"]
        median, p90 = statistics.median(values), percentile(values, 90)
        limit = EXAMPLE_MEDIAN_MS if scene_id not in BUILT_INS else BUILT_IN_MEDIAN_MS
        size = "512 px" if scene_id in BUILT_INS else "@2x, {}×{} px".format(*report["example_size"])
        verdict = "ok" if median <= limit else "OVER"
        log(f"  {scene_id:18} {size:18} n={len(values):3}  median {median:6.1f}  p90 {p90:6.1f}  max {max(values):6.1f}  (limit {limit:.0f}: {verdict})")
        if median > limit:
            failed.append(f"{scene_id}: median latency {median:.1f} ms over {limit:.0f} ms")
        log("  {:18} {:18} medians: POST answered {}, frame arrived {} (rendered in {}), painted +{}".format(
            "", "", *stages(run["trace"])))
    if report.get("compare"):
        c = report["compare"]
        log(f"CPU | GL on the HUD: max difference {c['maxDifference']}, {c['differing']} pixels over the tolerance {c['tolerance']}")
    if report.get("export"):
        log(f"export png: {report['export']}")
    log(f"scene file broken: {report.get('edit')}")
    log(f"{time.monotonic() - started:.0f} s")
    if failed:
        for f in failed:
            print(f"studio-test: FAIL: {f}", file=sys.stderr)
        return 1
    log("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The peers of issue 50's speed targets: ThorVG (thorvg-python, ThorVG 1.x) on a Lottie loader.

  pipeline — the script a user would write to turn a Lottie loader into a PNG sequence: a process
             per core (multiprocessing), each with its own ThorVG engine (one thread) rendering its
             share of the frames with the software renderer, Pillow writing each frame as a PNG
             (straight alpha, ThorVG's ABGR8888S buffer; Pillow's default compression). Prints one
             JSON object: wall seconds from the pool's start to the last file written, frames/s.
  render   — render only, one thread (Engine(threads=0)): per frame Animation.set_frame, then
             Canvas.update, draw(clear) and sync on one 32-bit buffer; median and min wall ms per
             frame and the thread's CPU ms per frame (median), as JSON.

Frame k is sampled at t = k / FPS seconds (60 by default, as `throbber render` does), Lottie frame
ip + t·fr, wrapped into ip..op (a loader loops). SIZE is the longest side in px; the canvas is
w·S × h·S with S = SIZE / max(w, h), as `throbber render --scale S` sizes it.

    bench/peers/lottie-peer.py pipeline LOADER.json OUTDIR [--frames 300] [--size 512] [--fps 60] [--processes N]
    bench/peers/lottie-peer.py render LOADER.json [--frames 300] [--size 512] [--fps 60] [--warmup 5]
"""
import argparse
import json
import math
import multiprocessing
import os
import statistics
import sys
import time


def geometry(doc, size):
    scale = size / max(doc["w"], doc["h"])
    return math.ceil(doc["w"] * scale - 1e-9), math.ceil(doc["h"] * scale - 1e-9), scale


def frame_offset(doc, k, fps):
    """Lottie frame − ip of output frame k (time k / fps), wrapped into the clip."""
    length = float(doc["op"]) - float(doc["ip"])
    return (k / fps * float(doc["fr"])) % length


class Renderer:
    """One ThorVG engine, canvas and animation: what each worker (or the render timing) holds."""

    def __init__(self, data, width, height, straight):
        import thorvg_python as tvg
        self.tvg = tvg
        self.engine = tvg.Engine(threads=0)
        self.canvas = tvg.SwCanvas(self.engine)
        cs = tvg.Colorspace.ABGR8888S if straight else tvg.Colorspace.ABGR8888
        self.canvas.set_target(width, height, cs=cs)
        self.animation = tvg.LottieAnimation(self.engine)
        picture = self.animation.get_picture()
        result = picture.load_data(data, "lottie", None, True)
        if result != tvg.Result.SUCCESS:
            raise SystemExit(f"lottie-peer: ThorVG cannot load the file: {result.name}")
        picture.set_size(width, height)
        self.canvas.add(picture)
        self.width, self.height = width, height

    def draw(self, f):
        self.animation.set_frame(f)
        self.canvas.update()
        self.canvas.draw(True)
        self.canvas.sync()


def _worker(job):
    path, out, ks, size, fps = job
    from PIL import Image
    data = open(path, "rb").read()
    doc = json.loads(data)
    width, height, _ = geometry(doc, size)
    renderer = Renderer(data, width, height, straight=True)
    for k in ks:
        renderer.draw(frame_offset(doc, k, fps))
        image = Image.frombuffer("RGBA", (width, height), bytes(renderer.canvas.buffer_arr), "raw", "RGBA", 0, 1)
        image.save(os.path.join(out, f"frame_{k:05d}.png"))
    return len(ks)


def pipeline(args):
    os.makedirs(args.out, exist_ok=True)
    processes = args.processes or os.cpu_count()
    frames = list(range(args.frames))
    # Contiguous shares, as a user splitting the range by hand would.
    share = math.ceil(len(frames) / processes)
    jobs = [(args.file, args.out, frames[i:i + share], args.size, args.fps) for i in range(0, len(frames), share)]
    start = time.perf_counter()
    with multiprocessing.Pool(processes) as pool:
        written = sum(pool.map(_worker, jobs))
    seconds = time.perf_counter() - start
    print(json.dumps({"peer": "thorvg-python + Pillow, a process per core", "processes": processes,
                      "frames": written, "size": args.size, "seconds": round(seconds, 4),
                      "frames_per_s": round(written / seconds, 2), "thorvg": thorvg_version()}))


def render(args):
    data = open(args.file, "rb").read()
    doc = json.loads(data)
    width, height, _ = geometry(doc, args.size)
    renderer = Renderer(data, width, height, straight=False)
    for k in range(args.warmup):
        renderer.draw(frame_offset(doc, k, args.fps))
    wall, cpu = [], []
    for k in range(args.frames):
        f = frame_offset(doc, k, args.fps)
        t0, c0 = time.perf_counter(), time.thread_time()
        renderer.draw(f)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
    print(json.dumps({"peer": "ThorVG software renderer, one thread (render only)", "frames": args.frames,
                      "size": [width, height], "median_ms": round(statistics.median(wall), 4),
                      "min_ms": round(min(wall), 4), "cpu_median_ms": round(statistics.median(cpu), 4),
                      "thorvg": thorvg_version()}))


def thorvg_version():
    import thorvg_python as tvg
    return tvg.Engine(threads=0).version()[4]


def main(argv):
    p = argparse.ArgumentParser(prog="lottie-peer")
    sub = p.add_subparsers(dest="mode", required=True)
    for name in ("pipeline", "render"):
        s = sub.add_parser(name)
        s.add_argument("file")
        if name == "pipeline":
            s.add_argument("out")
            s.add_argument("--processes", type=int, default=0)
        else:
            s.add_argument("--warmup", type=int, default=5)
        s.add_argument("--frames", type=int, default=300)
        s.add_argument("--size", type=int, default=512)
        s.add_argument("--fps", type=float, default=60)
    args = p.parse_args(argv)
    (pipeline if args.mode == "pipeline" else render)(args)


if __name__ == "__main__":
    main(sys.argv[1:])

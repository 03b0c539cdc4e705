#!/usr/bin/env python3
"""The peer: a short pycairo script that draws the wave ball (docs/spec.md §1) the way the
original iOS view does — a clipped disc, two wave paths sampled a point apart, rotated tick
rectangles, a thin circle, the lit ticks — and writes each frame with cairo's own PNG writer,
one process per core. It is what a user might write instead of Throbber.

    cairo_wave_ball.py OUT_DIR [--frames N] [--size PX] [--fps F] [--processes P]

Frame i is t = i / fps, written as OUT_DIR/wave-ball_%05d.png.
"""
import argparse
import math
import multiprocessing
import os

import cairo

S = 300.0                       # the view's side in pt
N, L, TICK_W = 100, 10.0, 2.0   # tickCount, tickLength, tickWidth
SCALE_MARGIN, WAVE_MARGIN = 30.0, 18.0
WAVE_LENGTH, AMPLITUDE = 180.0, 10.0
PROGRESS, FILL_FROM = 0.45, 0.0
WATER_BG = (0.259, 0.329, 0.506)
FRONT = (0.325, 0.392, 0.729)
BACK = (0.322, 0.514, 0.831)
TICK_BG = (0.694, 0.745, 0.867)
TICK_LIT = (0.969, 0.937, 0.227)


def draw(ctx, t):
    c = S / 2
    ws = S - 2 * SCALE_MARGIN
    off = SCALE_MARGIN + WAVE_MARGIN + L
    d = S - 2 * off
    r = d / 2
    n = 50 * t
    a = 1 + 0.01 * abs((n % 100) - 50)
    phase_front, phase_back = 0.4 * n / math.pi, 0.3 * n / math.pi
    y0, y_target = d * (1 - FILL_FROM), d * (1 - PROGRESS)
    level = y0 + max(-50 * t, min(50 * t, y_target - y0))
    filled = (d - level) / d

    # Water: the disc, then each wave's area below its curve, clipped to the disc.
    ctx.save()
    ctx.arc(c, c, r, 0, 2 * math.pi)
    ctx.clip()
    ctx.set_source_rgb(*WATER_BG)
    ctx.paint()
    for color, wave in ((FRONT, lambda x: math.sin(2 * math.pi * x / WAVE_LENGTH + phase_front)),
                        (BACK, lambda x: math.cos(2 * math.pi * x / WAVE_LENGTH + phase_back))):
        left = c - r
        ctx.move_to(left, c - r + level + a * AMPLITUDE * wave(0))
        x = 0.0
        while x <= d:
            ctx.line_to(left + x, c - r + level + a * AMPLITUDE * wave(x))
            x += 1.0
        ctx.line_to(left + d, c + r)
        ctx.line_to(left, c + r)
        ctx.close_path()
        ctx.set_source_rgb(*color)
        ctx.fill()
    ctx.restore()

    def tick(theta, color):
        ctx.save()
        ctx.translate(c, c)
        ctx.rotate(theta)
        ctx.rectangle(ws / 2 - L, -TICK_W / 2, L, TICK_W)
        ctx.set_source_rgb(*color)
        ctx.fill()
        ctx.restore()

    step = 2 * math.pi / N
    for k in range(N):
        tick(k * step, TICK_BG)
    ctx.arc(c, c, max(0.0, ws / 2 - L - 3), 0, 2 * math.pi)
    ctx.set_line_width(0.5)
    ctx.set_source_rgb(*TICK_BG)
    ctx.stroke()
    count = math.floor((N / 2 + 1) * filled + 1e-9)
    lit = set()
    for j in range(count):
        for slot in (j, -j):
            lit.add(slot % N)
    for slot in sorted(lit):
        tick(math.pi / 2 + slot * step, TICK_LIT)


def render(job):
    index, out, size, fps = job
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, size, size)
    ctx = cairo.Context(surface)
    ctx.scale(size / S, size / S)
    draw(ctx, index / fps)
    surface.write_to_png(os.path.join(out, "wave-ball_%05d.png" % index))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--fps", type=float, default=60)
    parser.add_argument("--processes", type=int, default=os.cpu_count())
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with multiprocessing.Pool(args.processes) as pool:
        pool.map(render, [(i, args.out, args.size, args.fps) for i in range(args.frames)], chunksize=8)


if __name__ == "__main__":
    main()

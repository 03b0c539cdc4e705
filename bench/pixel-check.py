#!/usr/bin/env python3
"""Checks the C floor's pixels against the CPU reference renderer (bench/README.md).

For each size N and time t: `throbber render wave-ball --backend cpu --scale N/300 --start t`
writes a PNG, `bench/bare_osmesa --size N --time t --dump` writes the raw frame, and the two
are compared channel by channel (both straight alpha, top-down). With --batch K the floor's
frame comes from a batched draw instead: `--animate --batch K --frames K`, whose last frame
is t = (K − 1)/60, against the reference rendered at that time.

Run from the repository root after `swift build -c release` and `bench/build.sh`. Needs only
Python 3 (the PNG is decoded here with zlib).
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile
import zlib


def read_png_rgba8(path):
    """Decodes an 8-bit RGBA, non-interlaced PNG into (width, height, bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"pixel-check: {path} is not a PNG")
    pos, idat, width = 8, bytearray(), None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour != 6 or interlace != 0:
                sys.exit(f"pixel-check: {path} is not 8-bit RGBA without interlacing")
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(bytes(idat))
    stride = width * 4
    out = bytearray(stride * height)
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(4, stride):
                line[i] = (line[i] + line[i - 4]) & 255
        elif kind == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif kind == 3:
            for i in range(stride):
                left = line[i - 4] if i >= 4 else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - 4] if i >= 4 else 0
                b, c = prev[i], prev[i - 4] if i >= 4 else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    return width, height, bytes(out)


def compare(reference, floor):
    """Largest channel difference over all channels, the same under SPEC §0's parity rule
    (colour not compared where either alpha ≤ 1), the pixels differing by more than 2 under that
    rule, and the pixels differing at all."""
    worst = worst_parity = beyond = differing = 0
    for i in range(0, len(reference), 4):
        a, b = reference[i:i + 4], floor[i:i + 4]
        if a == b:
            continue
        differing += 1
        d = max(abs(a[j] - b[j]) for j in range(4))
        da = abs(a[3] - b[3])
        parity = da if a[3] <= 1 or b[3] <= 1 else d
        worst, worst_parity = max(worst, d), max(worst_parity, parity)
        beyond += parity > 2
    return worst, worst_parity, beyond, differing


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="64,300,512")
    parser.add_argument("--times", default="0,1,2.3,4.98")
    parser.add_argument("--batch", type=int, default=0, help="also check a batched draw of K frames")
    parser.add_argument("--throbber", default=".build/release/throbber")
    parser.add_argument("--floor", default="bench/bare_osmesa")
    args = parser.parse_args()
    cases = [(int(n), float(t), 1) for n in args.sizes.split(",") for t in args.times.split(",")]
    if args.batch > 1:
        cases += [(int(n), (args.batch - 1) / 60, args.batch) for n in args.sizes.split(",")]
    print("| px | t (s) | draw | max diff | max diff (parity rule) | pixels > 2 | pixels ≠ |")
    print("|---:|---:|---|---:|---:|---:|---:|")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for size, t, batch in cases:
            out = os.path.join(tmp, f"ref-{size}-{t}-{batch}")
            start = ["--start", repr(t)] if batch == 1 else ["--start", "0", "--frames", str(batch)]
            subprocess.run([args.throbber, "render", "wave-ball", "--scale", repr(size / 300), *start,
                            "--backend", "cpu", "-o", out, "--overwrite", "--quiet"], check=True)
            png = os.path.join(out, f"wave-ball_{(batch - 1):05d}.png")
            dump = os.path.join(tmp, "floor.rgba")
            timing = ["--time", repr(t)] if batch == 1 else ["--animate", "--batch", str(batch)]
            subprocess.run([args.floor, "--size", str(size), "--frames", str(batch), "--warmup", "0", *timing,
                            "--dump", dump], check=True, stdout=subprocess.DEVNULL)
            width, height, reference = read_png_rgba8(png)
            with open(dump, "rb") as f:
                floor = f.read()
            if (width, height) != (size, size) or len(floor) != len(reference):
                sys.exit(f"pixel-check: sizes differ at {size} px")
            worst, worst_parity, beyond, differing = compare(reference, floor)
            failed |= worst_parity > 2
            draw = "single" if batch == 1 else f"--batch {batch}, frame {batch - 1}"
            print(f"| {size} | {t:g} | {draw} | {worst} | {worst_parity} | {beyond} | {differing} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

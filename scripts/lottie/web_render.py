"""scripts/lottie-web-render: frames of a Lottie file drawn by lottie-web in headless Chromium."""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import players as P  # noqa: E402


def main(argv):
    p = argparse.ArgumentParser(prog="lottie-web-render")
    p.add_argument("file")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--size", type=int, default=512, help="longest side in px (default 512)")
    p.add_argument("--times", default="0", help="seconds from ip, comma-separated (default 0)")
    p.add_argument("--frames", type=int, default=0, help="N frames at the file's fps instead of --times")
    args = p.parse_args(argv)
    doc = json.load(open(args.file))
    width, height, _ = P.canvas_size(doc, args.size)
    fr = float(doc["fr"])
    offsets = list(range(args.frames)) if args.frames else [float(t) * fr for t in args.times.split(",")]
    os.makedirs(args.output, exist_ok=True)
    web = P.LottieWeb()
    from PIL import Image
    stem = os.path.splitext(os.path.basename(args.file))[0]
    try:
        for f in offsets:
            frame = web.render(doc, f, width, height)
            Image.fromarray(P.unpremultiply(frame)).save(os.path.join(args.output, f"{stem}_f{f:g}.png"))
    finally:
        web.close()
    print(f"lottie-web-render: {len(offsets)} frames of {width}×{height} px in {args.output} ({web.version})")


if __name__ == "__main__":
    main(sys.argv[1:])

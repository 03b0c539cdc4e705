"""scripts/fuzz's command line: the options (docs/fuzzing.md's table), their checks, and the run."""

import argparse
import os
import shutil
import sys

from .fuzzer import Fuzzer
from .harness import ROOT


# Each family's case count: its option, its default and what one case is (docs/fuzzing.md).
FAMILY_COUNTS = [
    ("--jobs", 200, "mutated job files to run"),
    ("--cli", 200, "mutated command lines to run"),
    ("--png", 0, "hostile, re-encoded and exotic PNGs, each through compare, verify and reproduce"),
    ("--manifests", 0, "mutated manifests, each through verify and verify --quick"),
    ("--paths", 0, "links, FIFOs, devices, directories and foreign files at output and lock paths"),
    ("--resume", 0, "batch runs killed with SIGKILL and resumed"),
    ("--scenes", 0, "mutated scene files through render, scenes --json, preview and batch"),
    ("--inputs", 0, "FIFOs, devices, directories, links and huge or foreign files at every input path"),
    ("--heavy", 0, "scene files that are costly to draw or preflight, through render and batch"),
    ("--signals", 0, "SIGINT or SIGTERM during video encoding and multi-page sheet writing"),
    ("--scaling", 0, "many-page sheets and many-link chains, their time and memory measured"),
    ("--path-data", 0, "scene files with random and hostile SVG path data and path node fields, through render, scenes and preview"),
    ("--lottie", 0, "mutated Lottie files and hostile dotLottie archives through render, scenes --json, preview and batch"),
    ("--http", 0, "hostile HTTP requests to one running `throbber studio` (traversal, oversized, malformed, foreign, slow, many, hostile API bodies)"),
]

# The times and bounds the cases are held to: option, default, meaning.
BOUNDS = [
    ("--latency", 1.0, "seconds from a signal to the exit beyond which a case fails (heavy, signals)"),
    ("--input-time", 5, "seconds an input case has to end on its own"),
    ("--signal-time", 30, "seconds a signal case waits for its moment (ffmpeg running, a first page)"),
    ("--ratio", 3.0, "how many times the short form's time the long form of a scaling case may take"),
    ("--time-limit", 600, "stop starting cases after this many seconds"),
    ("--case-time", 10, "seconds before a case is sent SIGINT"),
    ("--grace", 15, "seconds a case has to stop after SIGINT"),
]


def main(doc):
    """Reads the command line and runs the fuzzer; the exit status. `doc` is scripts/fuzz's docstring,
    whose first paragraph is --help's description."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    root = ROOT
    default = os.path.join(root, ".build", "release", "throbber")
    if not os.path.exists(default):
        default = os.path.join(root, ".build", "debug", "throbber")
    parser.add_argument("--throbber", default=default, help="the binary (default: .build/release, else debug)")
    parser.add_argument("--seed", type=int, default=1)
    for option, default, meaning in FAMILY_COUNTS:
        parser.add_argument(option, type=int, default=default, help=meaning)
    for option, default, meaning in BOUNDS:
        parser.add_argument(option, type=float, default=default, help=meaning)
    parser.add_argument("--out", default=os.path.join(root, ".build", "fuzz-failures"))
    args = parser.parse_args()
    if not os.access(args.throbber, os.X_OK):
        print("fuzz: %s is missing: run 'swift build' first" % args.throbber, file=sys.stderr)
        return 2
    if min(getattr(args, option[2:].replace("-", "_")) for option, _, _ in FAMILY_COUNTS) < 0:
        print("fuzz: a case count must be ≥ 0", file=sys.stderr)
        return 2
    shutil.rmtree(args.out, ignore_errors=True)
    return Fuzzer(args).main()

"""scripts/fuzz's command line: the options (docs/fuzzing.md's table), their checks, and the run."""

import argparse
import os
import shutil
import sys

from .fuzzer import Fuzzer
from .harness import ROOT


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
    parser.add_argument("--jobs", type=int, default=200, help="mutated job files to run")
    parser.add_argument("--cli", type=int, default=200, help="mutated command lines to run")
    parser.add_argument("--png", type=int, default=0,
                        help="hostile, re-encoded and exotic PNGs, each through compare, verify and reproduce")
    parser.add_argument("--manifests", type=int, default=0, help="mutated manifests, each through verify and verify --quick")
    parser.add_argument("--paths", type=int, default=0,
                        help="links, FIFOs, devices, directories and foreign files at output and lock paths")
    parser.add_argument("--resume", type=int, default=0, help="batch runs killed with SIGKILL and resumed")
    parser.add_argument("--scenes", type=int, default=0,
                        help="mutated scene files through render, scenes --json, preview and batch")
    parser.add_argument("--inputs", type=int, default=0,
                        help="FIFOs, devices, directories, links and huge or foreign files at every input path")
    parser.add_argument("--heavy", type=int, default=0,
                        help="scene files that are costly to draw or preflight, through render and batch")
    parser.add_argument("--signals", type=int, default=0,
                        help="SIGINT or SIGTERM during video encoding and multi-page sheet writing")
    parser.add_argument("--scaling", type=int, default=0,
                        help="many-page sheets and many-link chains, their time and memory measured")
    parser.add_argument("--latency", type=float, default=1.0,
                        help="seconds from a signal to the exit beyond which a case fails (heavy, signals)")
    parser.add_argument("--input-time", type=float, default=5,
                        help="seconds an input case has to end on its own")
    parser.add_argument("--signal-time", type=float, default=30,
                        help="seconds a signal case waits for its moment (ffmpeg running, a first page)")
    parser.add_argument("--ratio", type=float, default=3.0,
                        help="how many times the short form's time the long form of a scaling case may take")
    parser.add_argument("--time-limit", type=float, default=600, help="stop starting cases after this many seconds")
    parser.add_argument("--case-time", type=float, default=10, help="seconds before a case is sent SIGINT")
    parser.add_argument("--grace", type=float, default=15, help="seconds a case has to stop after SIGINT")
    parser.add_argument("--out", default=os.path.join(root, ".build", "fuzz-failures"))
    args = parser.parse_args()
    if not os.access(args.throbber, os.X_OK):
        print("fuzz: %s is missing: run 'swift build' first" % args.throbber, file=sys.stderr)
        return 2
    if min(args.jobs, args.cli, args.png, args.manifests, args.paths, args.resume, args.scenes, args.inputs,
           args.heavy, args.signals, args.scaling) < 0:
        print("fuzz: a case count must be ≥ 0", file=sys.stderr)
        return 2
    shutil.rmtree(args.out, ignore_errors=True)
    return Fuzzer(args).main()

"""The fuzzer: the harness and one mixin per family, and the run that interleaves their cases
(each from a generator of its own, seeded by seed, family and number) and prints the summary."""

import random
import re
import shutil
import time

from .command_lines import CommandLineFamily
from .harness import Harness
from .heavy import HeavyFamily
from .http import HttpFamily
from .inputs import InputFamily
from .jobs import JobFamily
from .lottie import LottieFamily
from .manifests import ManifestFamily
from .path_data import PathDataFamily
from .paths import PathFamily
from .png_mutations import PngMutations
from .pngs import PngFamily
from .resume import ResumeFamily
from .scaling import ScalingFamily
from .scenes import SceneFamily
from .signals import SignalFamily


class Fuzzer(Harness, JobFamily, CommandLineFamily, SceneFamily, PngFamily, PngMutations, ManifestFamily,
             PathFamily, ResumeFamily, InputFamily, HeavyFamily, SignalFamily, ScalingFamily, PathDataFamily, LottieFamily,
             HttpFamily):
    """One run of scripts/fuzz: its families' cases, then the summary."""

    FAMILIES = [("job", "jobs", "job files"), ("cli", "cli", "command lines"), ("png", "png", "hostile PNGs"),
                ("manifest", "manifests", "manifests"), ("path", "paths", "path cases"), ("resume", "resume", "resumes"),
                ("scene", "scenes", "scene files"), ("input", "inputs", "input cases"),
                ("heavy", "heavy", "heavy scene files"), ("signal", "signals", "signal cases"),
                ("scaling", "scaling", "scaling cases"), ("pathdata", "path_data", "path-data scene files"),
                ("lottie", "lottie", "Lottie files and archives"), ("http", "http", "HTTP requests")]

    def main(self):
        started = time.monotonic()
        counts = {kind: getattr(self.args, option) for kind, option, _ in self.FAMILIES}
        planned = [(kind, n) for kind, _, _ in self.FAMILIES for n in range(counts[kind])]
        # Interleaved, each from its own generator, so a time limit leaves a mix of all.
        planned.sort(key=lambda item: (item[1] / max(1, counts[item[0]]), item[0]))
        runners = {"job": self.job_case, "cli": self.cli_case, "png": self.png_case, "manifest": self.manifest_case,
                   "path": self.path_case, "resume": self.resume_case, "scene": self.scene_case,
                   "input": self.input_case, "heavy": self.heavy_case, "signal": self.signal_case,
                   "scaling": self.scaling_case, "pathdata": self.path_data_case, "lottie": self.lottie_case,
                   "http": self.http_case}
        done = {kind: 0 for kind in counts}
        try:
            for kind, n in planned:
                if time.monotonic() > self.deadline:
                    print("fuzz: time limit reached after %d cases" % self.cases, flush=True)
                    break
                case_rng = random.Random("%d-%s-%d" % (self.args.seed, kind, n))
                runners[kind](case_rng, n)
                done[kind] += 1
        finally:
            # The studio of --http stops (and is judged) even when the time limit cut its cases short.
            self.http_finish()
            shutil.rmtree(self.work, ignore_errors=True)
        parts = ["%d %s" % (done[kind], words) for kind, _, words in self.FAMILIES
                 if kind in ("job", "cli") or counts[kind]]
        families = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        codes = ", ".join("%s: %d" % (code, count) for code, count in sorted(self.codes.items()))
        peaks = ", ".join("%s %d MB (%s)" % (kind, self.peaks[kind][0] >> 10, self.peaks[kind][1])
                          for kind, _, _ in self.FAMILIES if kind in self.peaks)
        print("fuzz: seed %d, %s in %.0f s; exit codes %s; %d stopped by SIGINT after %.0f s; peak RSS %s; %d failed"
              % (self.args.seed, families, time.monotonic() - started, codes, self.stopped_by_sigint,
                 self.args.case_time, peaks or "none", len(self.failures)))
        if self.stopped_labels:
            print("fuzz: stopped by SIGINT at the case time: %s" % ", ".join(self.stopped_labels[:10]))
        if self.latencies:
            print("fuzz: signal latency (signal to exit), worst of each family: %s" % ", ".join(
                "%s %.3f s over %d signals (%s)" % (kind, self.latencies[kind][0], self.latencies[kind][2],
                                                    self.latencies[kind][1])
                for kind, _, _ in self.FAMILIES if kind in self.latencies))
        if self.input_codes:
            print("fuzz: input exit codes by site: %s; the slowest case took %.2f s (%s)" % ("; ".join(
                "%s %s" % (site, ", ".join("%s: %d" % (code, count) for code, count in sorted(codes.items())))
                for site, codes in sorted(self.input_codes.items())), self.input_slowest[0], self.input_slowest[1]))
        if self.heavy_outcomes:
            print("fuzz: heavy scene files: %s" % ", ".join(
                "%s: %d" % (key, count) for key, count in sorted(self.heavy_outcomes.items())))
            for line in sorted(set(re.sub(r"^throbber: (job\.json:N:N: )?\S*heavy\.scene\.json(:N:N)?: ", "",
                                          re.sub(r"\d+(\.\d+)?", "N", line))[:90]
                                   for line in self.heavy_refusals))[:10]:
                print("fuzz:   refused: %s" % line)
        for line in self.scaling_notes + getattr(self, "lottie_notes", []) + getattr(self, "http_notes", []):
            print("fuzz: " + line)
        for label, problem, rc, first, target in self.failures:
            print("  %s: %s (exit %s): %s [%s]" % (label, problem, rc, first, target))
        print("%d passed, %d failed" % (self.checks - len(self.failures), len(self.failures)))
        return 1 if self.failures else 0

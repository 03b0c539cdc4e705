"""The signal family (--signals): SIGINT or SIGTERM while ffmpeg encodes a video or while a
sheet's pages are written; exit 130 within --latency, no partial or temporary file, no child
left running, every PNG whole. signal_problem() judges the heavy family's signals too."""

import json
import os
import shutil
import signal
import subprocess

from .files import input_size, left_children, relative_names, whole_pngs
from .process import SignalPlan, child_named
from .values import draw


class SignalFamily:
    """Cases of --signals, and how any planned signal ended."""

    def signal_problem(self, family, label, outcome, codes):
        """What is wrong with how a run sent a SignalPlan's signal ended: it must exit 130 within
        --latency of the signal (a run that ended on its own within 50 ms of it may give one of
        `codes`); one that ended before the signal must give one of `codes`. Records the latency."""
        if outcome.signalled_at is not None and not outcome.hang:
            worst, _, count = self.latencies.get(family, (0.0, "", 0))
            self.latencies[family] = (max(worst, outcome.latency), label if outcome.latency >= worst else _, count + 1)
        problem = self.process_problem(outcome)
        if problem and outcome.signalled_at is not None and outcome.rc < 0 and outcome.caught is False:
            return "%s: the signal, sent %.3f s after the start, came before the process installed its handler" % (
                problem, outcome.signalled_at)
        if outcome.hang:
            return "hang: still running %.0f s after the signal sent at %.2f s" % (self.args.grace, outcome.signalled_at)
        if problem:
            return problem
        if outcome.signalled_at is None:
            return None if outcome.rc in codes else "exit %d (expected %s)" % (
                outcome.rc, " or ".join(str(c) for c in sorted(codes)))
        if outcome.latency > self.args.latency:
            return "the signal sent at %.2f s was obeyed after %.2f s (at most %.2f s)" % (
                outcome.signalled_at, outcome.latency, self.args.latency)
        if outcome.rc != 130 and not (outcome.rc in codes and outcome.latency < 0.05):
            return "exit %d %.2f s after the signal (expected 130)" % (outcome.rc, outcome.latency)
        return None

    # -- signals during video encoding and sheet writing ----------------------------------------

    VIDEO_EXTENSIONS = ["webm", "mp4", "gif", "webp", "apng"]

    def signal_case(self, rng, n):
        """SIGINT or SIGTERM at a random moment while ffmpeg encodes a video (wave-ball at scale 2-3,
        300-600 frames) or while a sheet's pages are written (thousands of frames, one per page):
        exit 130 within --latency, no partial or temporary file, no child left running, every PNG
        left whole."""
        self.cases += 1
        self.checks += 1
        directory = self.scratch()
        signum = signal.SIGINT if rng.random() < 0.5 else signal.SIGTERM
        delay = round(rng.uniform(0.0, 1.0), 3)
        if rng.random() < 0.6:
            extension = draw(rng, self.VIDEO_EXTENSIONS)
            frames = draw(rng, [300, 450, 600])
            scale = draw(rng, [2, 3])
            outputs = [{"type": "video", "path": "v." + extension}]
            if rng.random() < 0.4:
                outputs.append({"type": "png", "pattern": "f/f_%04d.png"})
            render = {"scene": "wave-ball", "fps": 60, "frames": frames, "scale": scale, "outputs": outputs}
            if rng.random() < 0.3:
                render["parameters"] = {"progress": draw(rng, [0.3, 0.7])}

            def trigger(pid):
                return child_named(pid, ("ffmpeg",))
            what = "%s of wave-ball @%dx, %d frames%s" % (extension, scale, frames,
                                                          " and a PNG sequence" if len(outputs) > 1 else "")
            moment = "ffmpeg started"
        else:
            frames = draw(rng, [1000, 1500, 2000, 3000])
            # One frame a page: ring is 84 pt, activity 240.
            scene = draw(rng, ["ring", "activity"])
            render = {"scene": scene, "frames": frames,
                      "outputs": [{"type": "sheet", "path": "q/s{page}.png", "maxSize": 84 if scene == "ring" else 240}]}
            pages = os.path.join(directory, "q")

            def trigger(pid):
                try:
                    return bool(os.listdir(pages))
                except OSError:
                    return False
            what = "a sheet of %d frames, one a page (%s)" % (frames, scene)
            moment = "the first page appeared"
        with open(os.path.join(directory, "job.json"), "w") as f:
            json.dump({"renders": [render]}, f)
        argv = ["batch", "job.json", "-q"] + (["--backend", "cpu"] if rng.random() < 0.5 else [])
        note = "%s; %s %.3f s after %s" % (what, signal.Signals(signum).name, delay, moment)
        holder = self.snapshot(directory)
        before = relative_names(directory)
        outcome = self.execute(argv, directory, plan=SignalPlan(signum, delay, trigger),
                               case_time=self.args.signal_time)
        problem = self.signal_problem("signal", "signal%04d" % n, outcome, {0})
        problem = problem or self.rss_problem("signal", "signal%04d" % n, outcome, input_size(holder))
        if outcome.interrupted and problem is None:
            problem = "the moment (%s) did not come within %.0f s" % (moment, self.args.signal_time)
        problem = problem or self.check_files(directory, None, None, before)
        problem = problem or whole_pngs(directory, before)
        problem = problem or left_children(directory)
        if problem is None and outcome.rc == 130:
            for rel in sorted(relative_names(directory) - before):
                if rel.startswith("v.") and outcome.signalled_at is not None:
                    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                            os.path.join(directory, rel)], capture_output=True, text=True)
                    if probe.returncode != 0:
                        problem = "left %s after the signal, and ffprobe cannot read it: %s" % (
                            rel, probe.stderr.strip()[:120])
                    else:
                        # A video is put in place whole or not at all: one left after a stop
                        # must hold the whole clip (where its container says its duration).
                        try:
                            duration = float(probe.stdout.strip())
                        except ValueError:
                            duration = None
                        if duration is not None and abs(duration - render["frames"] / 60) > 2 / 60 + 0.05:
                            problem = "left %s after the signal, %.2f s long (the clip is %.2f s)" % (
                                rel, duration, render["frames"] / 60)
                elif rel.endswith(".json") and rel.startswith("q/"):
                    try:
                        json.load(open(os.path.join(directory, rel)))
                    except ValueError:
                        problem = "left the atlas %s cut short" % rel
        if problem:
            total = (outcome.armed_at or 0) + delay
            lines = ["# The signal came %.3f s after %s, %.2f s after the start:" % (delay, moment, total),
                     "/usr/bin/time -f '%%e s, peak RSS %%M KB' timeout --preserve-status -s %s -k 30 %.2f %s; echo \"exit $?\""
                     % (signal.Signals(signum).name[3:], total, self.command_line(argv))]
            self.record_case("signal%04d" % n, directory, holder, lines, problem, outcome, note)
        shutil.rmtree(holder, ignore_errors=True)
        self.discard(directory)

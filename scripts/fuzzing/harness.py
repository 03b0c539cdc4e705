"""Running a case: the scratch directory, one process measured (peak RSS, its time slot, SIGINT
then SIGKILL after --grace, a planned signal), the general checks (docs/fuzzing.md "What a case
must do"), and a failing case kept under --out with the command.sh that reproduces it. The
families are mixins of Fuzzer (fuzzer.py) and reach these through self."""

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time

from .files import fingerprint, fingerprint_change, input_size, outside_entries, relative_names, shell_quote
from .limits import (DOCUMENTED_EXIT_CODES, INPUT_LIMIT, MAX_MESSAGE, PAGE_KIB, PROBE_NAME, RSS_CAP_KIB,
                     RSS_LIMIT_KIB, TEMPORARY_NAME)
from .process import FifoReader, FifoWriter, Outcome, signal_caught
from .scene_mutations import scene_seeds
from .values import keys_of, seed_jobs

# The repository: scripts/fuzzing/harness.py is three levels below it.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Harness:
    """The state of a run and what every family calls to run and judge a case."""

    def __init__(self, args):
        self.args = args
        self.throbber = os.path.abspath(args.throbber)
        self.failures = []
        self.codes = {}
        self.cases = 0
        self.checks = 0
        self.peaks = {}
        self.stopped_by_sigint = 0
        # The cases stopped by SIGINT at the case time, named in the summary.
        self.stopped_labels = []
        self.root = ROOT
        self.jobs = seed_jobs(self.root)
        self.scene_seeds = scene_seeds(self.root)
        self.keys = keys_of(self.jobs) + ["json", "level", "columns", "loopSeconds", "start", "background", "shards"]
        self.help = {}
        self.parameters = self.scene_parameters()
        self.deadline = time.monotonic() + args.time_limit
        self.can_mknod = os.geteuid() == 0
        self.work = work = tempfile.mkdtemp(prefix="throbber-fuzz-seed-")
        self.sample_png = os.path.join(work, "sample.png")
        subprocess.run([self.throbber, "render", "ring", "--frames", "1", "--backend", "cpu", "-q", "-o", work],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pngs = sorted(f for f in os.listdir(work) if f.endswith(".png"))
        os.rename(os.path.join(work, pngs[0]), self.sample_png)
        self.png_bases = None
        self.manifest_template = None
        self.zero_streams = {}
        self.resume_references = {}
        self.input_codes = {}
        self.input_slowest = (0.0, "")
        self.latencies = {}
        self.heavy_outcomes = {}
        self.heavy_refusals = []
        self.scaling_notes = []

    def scene_parameters(self):
        out = subprocess.run([self.throbber, "scenes", "--json"], capture_output=True, text=True, check=True).stdout
        return {scene["id"]: [p["name"] for p in scene["parameters"]] for scene in json.loads(out)}

    def options(self, command):
        """The options `throbber COMMAND --help` lists, with their value placeholders."""
        if command not in self.help:
            text = subprocess.run([self.throbber, command, "--help"], capture_output=True, text=True).stdout
            found = []
            for line in text.splitlines():
                m = re.match(r"^\s{2}(?:(-\w), )?(--[\w-]+)(?: ([^\s]+))?", line)
                if m:
                    found.append((m.group(2), m.group(3)))
            self.help[command] = found
        return self.help[command]

    def job_directory(self, name, job):
        """A directory `name` under the fuzzer's work directory holding `job` as job.json: what a
        family's reference run is made in."""
        work = os.path.join(self.work, name)
        os.makedirs(work)
        with open(os.path.join(work, "job.json"), "w") as f:
            json.dump(job, f)
        return work

    def setup_run(self, argv, directory):
        subprocess.run([self.throbber] + argv, cwd=directory, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    # -- one process ---------------------------------------------------------------------

    def scratch(self):
        """OUTER/up/case, the case's working directory; OUTER and up hold nothing else, so that
        a write one or two levels up is seen (outside_entries)."""
        outer = tempfile.mkdtemp(prefix="throbber-fuzz-")
        directory = os.path.join(outer, "up", "case")
        os.makedirs(directory)
        os.mkdir(os.path.join(directory, "dir"))
        shutil.copy(self.sample_png, os.path.join(directory, "in.png"))
        if self.can_mknod:
            # A private copy of /dev/null (1, 3): the device an output path once replaced.
            os.mknod(os.path.join(directory, "null"), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        return directory

    def discard(self, directory):
        shutil.rmtree(os.path.dirname(os.path.dirname(directory)), ignore_errors=True)

    def execute(self, argv, directory, kill_after=None, fifo_readers=(), stdout_path=None, fifo_writers=(),
                plan=None, case_time=None):
        """Runs the binary once and measures it. SIGINT after --case-time (or `case_time`),
        SIGKILL --grace later (a hang); SIGKILL at kill_after seconds when given; SIGKILL past
        RSS_CAP_KIB. The peak RSS is the kernel's (wait4's ru_maxrss, KiB). With a SignalPlan,
        its signal is sent `delay` seconds after its trigger first holds (at once when it has
        none) and the time from that signal to the exit is the outcome's `latency`; a run that
        has not ended --grace after it is killed (a hang)."""
        env = dict(os.environ, NO_COLOR="1")
        env.pop("SLURM_ARRAY_TASK_ID", None)
        env.pop("JOB_COMPLETION_INDEX", None)

        def child_setup():
            # A background child of a non-interactive shell inherits SIGINT ignored.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)

        readers = [FifoReader(os.path.join(directory, path)) for path in fifo_readers]
        readers += [FifoWriter(os.path.join(directory, path)) for path in fifo_writers]
        case_time = self.args.case_time if case_time is None else case_time
        armed_at = signalled_at = caught = None
        started = time.monotonic()
        stdout = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
        process = subprocess.Popen([self.throbber] + argv, cwd=directory, env=env, stdin=subprocess.DEVNULL,
                                   stdout=stdout, stderr=subprocess.PIPE, preexec_fn=child_setup)
        if stdout_path:
            stdout.close()
        parts = []

        def drain():
            kept = 0
            while True:
                try:
                    data = os.read(process.stderr.fileno(), 1 << 16)
                except (OSError, ValueError):
                    break
                if not data:
                    break
                if kept < 1 << 20:
                    parts.append(data)
                    kept += len(data)

        drainer = threading.Thread(target=drain, daemon=True)
        drainer.start()
        interrupted = hang = over_cap = killed = False
        sigint_at, pause = None, 0.001
        statm = "/proc/%d/statm" % process.pid
        # The child is reaped here alone (never through Popen, whose poll would take its rusage).
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            elapsed = time.monotonic() - started
            if plan is not None and signalled_at is None and not hang:
                if armed_at is None and (plan.trigger is None or plan.trigger(process.pid)):
                    armed_at = elapsed
                if armed_at is not None and elapsed >= armed_at + plan.delay:
                    caught = signal_caught(process.pid, plan.signum)
                    os.kill(process.pid, plan.signum)
                    signalled_at = elapsed
            if kill_after is not None and not killed and elapsed >= kill_after:
                os.kill(process.pid, signal.SIGKILL)
                killed = True
            elif signalled_at is not None and not hang and not over_cap and elapsed - signalled_at >= self.args.grace:
                os.kill(process.pid, signal.SIGKILL)
                hang = True
            elif signalled_at is None and not interrupted and elapsed >= case_time:
                os.kill(process.pid, signal.SIGINT)
                interrupted, sigint_at = True, elapsed
            elif interrupted and not hang and not over_cap and elapsed - sigint_at >= self.args.grace:
                os.kill(process.pid, signal.SIGKILL)
                hang = True
            if not over_cap:
                try:
                    with open(statm) as f:
                        resident = int(f.read().split()[1]) * PAGE_KIB
                except (OSError, ValueError, IndexError):
                    resident = 0
                if resident > RSS_CAP_KIB:
                    os.kill(process.pid, signal.SIGKILL)
                    over_cap = True
            wait = pause if kill_after is None or killed else max(0.0, min(pause, kill_after - elapsed))
            time.sleep(wait)
            pause = min(pause * 1.5, 0.01 if plan is not None else 0.02)
        ended = time.monotonic() - started
        process.returncode = rc = os.waitstatus_to_exitcode(status)
        drainer.join(5)
        process.stderr.close()
        for reader in readers:
            reader.stop()
        if not killed:
            self.codes[rc] = self.codes.get(rc, 0) + 1
        outcome = Outcome(rc, b"".join(parts).decode("utf-8", "replace"), interrupted, hang, over_cap, killed,
                          usage.ru_maxrss, ended)
        if signalled_at is not None:
            outcome.signalled_at, outcome.latency = signalled_at, ended - signalled_at
        outcome.armed_at, outcome.caught = armed_at, caught
        return outcome

    def process_problem(self, outcome, expect=None):
        """What is wrong with how a process ended, or None."""
        rc, err = outcome.rc, outcome.err
        if outcome.over_cap:
            return "RSS over %d GiB: killed to protect the machine" % (RSS_CAP_KIB >> 20)
        if outcome.hang:
            return "hang: still running %.0f s after SIGINT" % self.args.grace
        if rc < 0:
            return "died by signal %s" % signal.Signals(-rc).name
        if rc not in DOCUMENTED_EXIT_CODES:
            return "undocumented exit code %d" % rc
        if outcome.interrupted and rc != 130:
            return "exit %d after SIGINT (expected 130)" % rc
        if rc in (64, 65, 66, 73, 74):
            lines = [line for line in err.splitlines() if line.strip()]
            if len(lines) != 1:
                return "error of %d lines (expected one)" % len(lines)
            if len(lines[0]) > MAX_MESSAGE:
                return "error line of %d characters" % len(lines[0])
        if expect is not None and not outcome.interrupted and rc not in expect:
            return "exit %d (expected %s)" % (rc, " or ".join(str(code) for code in sorted(expect)))
        return None

    def rss_problem(self, family, label, outcome, inputs):
        if outcome.rss_kib > self.peaks.get(family, (0, ""))[0]:
            self.peaks[family] = (outcome.rss_kib, label)
        if inputs < INPUT_LIMIT and outcome.rss_kib > RSS_LIMIT_KIB:
            return "RSS over 1 GB for input under 1 MB (peak %d MB, %d KB of input)" % (
                outcome.rss_kib >> 10, inputs >> 10)
        return None

    def run(self, label, argv, directory, job_name=None):
        """A case of the first two families: one process, the general checks, the job file kept."""
        self.cases += 1
        self.checks += 1
        job_path = os.path.join(directory, job_name) if job_name else None
        job_bytes = open(job_path, "rb").read() if job_path and os.path.isfile(job_path) else None
        inputs = input_size(directory)
        outcome = self.execute(argv, directory)
        problem = self.process_problem(outcome)
        if outcome.interrupted and problem is None:
            self.stopped_by_sigint += 1
            self.stopped_labels.append(label)
        problem = problem or self.rss_problem(label[:3], label, outcome, inputs)
        if problem is None:
            # A path the case spelled with `..` (an output, --base, --manifest) may lie above it.
            spelled = " ".join(argv) + (job_bytes.decode("utf-8", "replace") if job_bytes else "")
            problem = self.check_files(directory, job_path, job_bytes, outside_ok=".." in spelled)
        if problem:
            self.record(label, argv, directory, job_name, problem, outcome.rc, outcome.err, outcome.seconds)
        self.discard(directory)

    def check_files(self, directory, job_path, job_bytes, before=frozenset(), outside_ok=False):
        for base, _, files in os.walk(directory):
            for name in files:
                rel = os.path.relpath(os.path.join(base, name), directory)
                if rel in before:
                    continue
                if TEMPORARY_NAME.match(name):
                    return "left a temporary file %s" % rel
                if PROBE_NAME.match(name):
                    return "left a probe file %s" % rel
                if name.endswith(".lock"):
                    return "left the lock file %s" % rel
        if not outside_ok:
            outside = outside_entries(directory)
            if outside:
                return "wrote outside its scratch directory: %s" % ", ".join(outside[:3])
        if self.can_mknod:
            mode = os.lstat(os.path.join(directory, "null")).st_mode if os.path.lexists(os.path.join(directory, "null")) else 0
            if not stat.S_ISCHR(mode):
                return "replaced the character device 'null'"
        if job_bytes is not None and (not os.path.isfile(job_path) or open(job_path, "rb").read() != job_bytes):
            return "changed its own job file"
        return None

    def record(self, label, argv, directory, job_name, problem, rc, err, seconds):
        index = len(self.failures)
        target = os.path.join(self.args.out, "%03d-%s" % (index, label))
        shutil.rmtree(target, ignore_errors=True)
        os.makedirs(target)
        if job_name and os.path.isfile(os.path.join(directory, job_name)):
            shutil.copy(os.path.join(directory, job_name), target)
        if os.path.isfile(os.path.join(directory, "x.scene.json")):
            shutil.copy(os.path.join(directory, "x.scene.json"), target)
        quoted = " ".join("'" + a.replace("'", "'\\''") + "'" for a in argv)
        with open(os.path.join(target, "command.sh"), "w") as f:
            f.write("#!/bin/sh\n# %s (exit %s after %.1f s)\n%s %s\n" % (problem, rc, seconds, self.throbber, quoted))
        first = err.strip().splitlines()[:3]
        self.failures.append((label, problem, rc, " | ".join(line[:200] for line in first), target))
        print("FAIL %s: %s (exit %s) — %s" % (label, problem, rc, target), flush=True)

    # -- one command of the newer families -----------------------------------------------

    def snapshot(self, directory):
        """A copy of the case directory as it is now (links, FIFOs, devices and holes kept)."""
        holder = tempfile.mkdtemp(prefix="throbber-fuzz-inputs-")
        subprocess.run(["cp", "-a", "--sparse=always", directory, os.path.join(holder, "inputs")], check=True)
        return holder

    def check(self, family, label, argv, directory, expect=None, readonly=False, allowed=(), extra=None,
              fifo_readers=(), note="", stdout_path=None, fifo_writers=(), case_time=None):
        """Runs one command in the case directory and applies the general checks, then the
        family's: `expect` the exit codes it may give, `readonly` that nothing under the
        directory changes (but the `allowed` new paths), `extra(outcome)` the rest."""
        self.checks += 1
        holder = self.snapshot(directory)
        inputs = input_size(directory)
        before_names = relative_names(directory)
        before = fingerprint(directory) if readonly else None
        outcome = self.execute(argv, directory, fifo_readers=fifo_readers, stdout_path=stdout_path,
                               fifo_writers=fifo_writers, case_time=case_time)
        problem = self.process_problem(outcome, expect)
        if outcome.interrupted and problem is None:
            self.stopped_by_sigint += 1
            self.stopped_labels.append(label)
        problem = problem or self.rss_problem(family, label, outcome, inputs)
        problem = problem or self.check_files(directory, None, None, before_names)
        if problem is None and readonly:
            change = fingerprint_change(before, fingerprint(directory), allowed)
            if change:
                problem = "%s, which it only reads" % change if change.startswith(("changed", "replaced", "removed")) \
                    else "%s (a command that writes nothing)" % change
        if problem is None and extra:
            problem = extra(outcome)
        if problem:
            self.record_case(label, directory, holder, [self.command_line(argv)], problem, outcome, note)
        shutil.rmtree(holder, ignore_errors=True)
        return outcome

    def command_line(self, argv):
        return "%s %s" % (shell_quote(self.throbber), " ".join(shell_quote(a) for a in argv))

    def record_case(self, label, directory, holder, lines, problem, outcome, note="", files=()):
        """Keeps a failing case: inputs/ (the case directory before the command), any `files`
        (name, bytes), and command.sh, which rebuilds the directory where the case ran (its
        files may name that path) and runs the command lines there."""
        index = len(self.failures)
        target = os.path.join(self.args.out, "%03d-%s" % (index, label))
        shutil.rmtree(target, ignore_errors=True)
        os.makedirs(target)
        subprocess.run(["cp", "-a", "--sparse=always", os.path.join(holder, "inputs"), os.path.join(target, "inputs")],
                       check=False)
        for name, data in files:
            os.makedirs(os.path.dirname(os.path.join(target, name)), exist_ok=True)
            with open(os.path.join(target, name), "wb") as f:
                f.write(data)
        outer = os.path.dirname(os.path.dirname(directory))
        comment = "# %s (exit %s after %.1f s, peak RSS %d MB)\n" % (problem, outcome.rc, outcome.seconds,
                                                                       outcome.rss_kib >> 10)
        if note:
            comment += "".join("# %s\n" % line for line in note.splitlines())
        with open(os.path.join(target, "command.sh"), "w") as f:
            f.write("#!/bin/sh\n" + comment +
                    "# Rebuilds the case directory from inputs/ at the path it ran in, then runs the case there.\n"
                    "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
                    "rm -rf %s && mkdir -p %s && cp -a \"$here/inputs\" %s && cd %s || exit 2\n%s\n"
                    % (shell_quote(outer), shell_quote(outer + "/up"), shell_quote(directory), shell_quote(directory),
                       "\n".join(lines)))
        os.chmod(os.path.join(target, "command.sh"), 0o755)
        with open(os.path.join(target, "stderr.txt"), "w") as f:
            f.write(outcome.err[:100_000])
        first = outcome.err.strip().splitlines()[:3]
        self.failures.append((label, problem, outcome.rc, " | ".join(line[:200] for line in first), target))
        print("FAIL %s: %s (exit %s) — %s" % (label, problem, outcome.rc, target), flush=True)

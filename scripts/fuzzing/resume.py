"""The resume family (--resume): a job killed with SIGKILL once or twice, maybe damaged, then
resumed with --skip-existing; every file must be an uninterrupted run's, byte for byte (a PNG:
the same image), and the manifest the same."""

import hashlib
import json
import os
import re
import shutil
import struct
import zlib

from .files import input_size, shell_quote
from .limits import PROBE_NAME, TEMPORARY_NAME
from .manifests import relative_files
from .png_format import PNG_SIGNATURE, png_chunks, png_rows
from .values import draw


# Jobs a resume must finish byte for byte.
RESUME_JOBS = [
    {"renders": [
        {"scene": "wave-ball", "frames": 24, "scale": 0.5, "outputs": [
            {"type": "png", "pattern": "f_%03d.png"}, {"type": "rgba", "path": "s.rgba"},
            {"type": "y4m", "path": "s.y4m"}, {"type": "sheet", "path": "sh.png", "json": "sh.json", "columns": 6}]},
        {"scene": "ring", "frames": 12, "outputs": [
            {"type": "png", "pattern": "r/{name}_%03d.png"}, {"type": "y4m", "path": "r.y4m", "alpha": True}]}]},
    {"renders": [
        {"scene": "activity", "frames": 30, "outputs": [
            {"type": "png", "pattern": "a_%03d.png"}, {"type": "rgba", "path": "a.rgba"},
            {"type": "sheet", "path": "a_sheet.png", "json": "a_sheet.json"}]},
        {"scene": "double-wave", "frames": 10, "outputs": [
            {"type": "y4m", "path": "d.y4m"}, {"type": "png", "pattern": "d_%03d.png"}]}]},
    {"pngLevel": 6, "renders": [
        {"scene": "pull-wave", "frames": 16, "scale": 2, "outputs": [
            {"type": "png", "pattern": "p_%03d.png"}, {"type": "sheet", "path": "p.png", "json": "p.json", "columns": 4},
            {"type": "rgba", "path": "p.rgba"}, {"type": "y4m", "path": "p.y4m"}]}]},
]


def same_png_image(a, b):
    """Whether two PNG files hold the same image: every chunk but IDAT equal and in the same
    order, and the same pixel rows once inflated and unfiltered. Two runs of one job may
    compress a frame differently: ISA-L igzip, on this project's 2-core machines, was measured
    to write, in about one process in 300, a frame one match different (the same pixels, a byte
    shorter) from what it writes in every other (docs/fuzzing.md "SIGKILL and resume")."""
    if a[:8] != PNG_SIGNATURE or b[:8] != PNG_SIGNATURE:
        return False
    ca, cb = png_chunks(a), png_chunks(b)
    if [c for c in ca if c[0] != b"IDAT"] != [c for c in cb if c[0] != b"IDAT"] or not ca or ca[0][0] != b"IHDR":
        return False
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", ca[0][1])
    if (depth, colour, interlace) != (8, 6, 0):
        return a == b
    try:
        rows = [png_rows(c, width, height) for c in (ca, cb)]
    except (zlib.error, IndexError, ValueError):
        return False
    return rows[0] == rows[1]


def without_png_digests(manifest):
    """A manifest with the sha256 of every PNG it lists taken out (same_png_image compares those
    files themselves; the digests are checked against the files on disk)."""
    copy = json.loads(json.dumps(manifest))
    for entry in copy.get("frames", []) + copy.get("artifacts", []):
        if isinstance(entry, dict) and str(entry.get("file", "")).endswith(".png"):
            entry.pop("sha256", None)
    return copy


def digest_problems(manifest, directory):
    """Each manifest entry whose sha256 is not that of the file it names."""
    found = []
    for entry in manifest.get("frames", []) + manifest.get("artifacts", []):
        if not isinstance(entry, dict) or "sha256" not in entry or "file" not in entry:
            continue
        path = os.path.join(directory, entry["file"])
        try:
            digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
        except OSError:
            digest = None
        if digest != entry["sha256"]:
            found.append("the manifest's sha256 of %s is not the file's" % entry["file"])
    return found


def first_difference(a, b, path=""):
    if type(a) is not type(b):
        return path or "/"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return "%s/%s" % (path, key)
            found = first_difference(a[key], b[key], "%s/%s" % (path, key))
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return "%s (%d entries, expected %d)" % (path, len(b), len(a))
        for index, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, "%s/%d" % (path, index))
            if found:
                return found
        return None
    return None if a == b else path or "/"


class ResumeFamily:
    """Cases of --resume."""

    def resume_reference(self, variant, options):
        """Every file of an uninterrupted run of RESUME_JOBS[variant] with these options (the
        thread count is in each PNG's Throbber:driver), the manifest made relative."""
        if (variant, options) not in self.resume_references:
            work = os.path.join(self.work, "resume-%d-%d" % (variant, len(self.resume_references)))
            os.makedirs(work)
            with open(os.path.join(work, "job.json"), "w") as f:
                json.dump(RESUME_JOBS[variant], f)
            self.setup_run(["batch", "job.json", "-q"] + list(options), work)
            files = {}
            for base, _, names in os.walk(work):
                for name in names:
                    rel = os.path.relpath(os.path.join(base, name), work)
                    if rel not in ("job.json", "job.manifest.json"):
                        files[rel] = open(os.path.join(base, name), "rb").read()
            manifest = relative_files(json.load(open(os.path.join(work, "job.manifest.json"))), work + "/")
            self.resume_references[variant, options] = (files, manifest)
        return self.resume_references[variant, options]

    def resume_case(self, rng, n):
        """A job killed with SIGKILL once or twice, maybe damaged, then resumed with
        --skip-existing: every file must be the uninterrupted run's, and nothing temporary left."""
        self.cases += 1
        self.checks += 1
        variant = rng.randrange(len(RESUME_JOBS))
        threads = draw(rng, [None, None, "1", "2"])
        options = ("--threads", threads) if threads else ()
        reference, reference_manifest = self.resume_reference(variant, options)
        directory = self.scratch()
        with open(os.path.join(directory, "job.json"), "w") as f:
            json.dump(RESUME_JOBS[variant], f)
        base_argv = ["batch", "job.json", "-q"] + list(options)
        kills = [round(rng.uniform(0.01, 0.8), 3) for _ in range(1 if rng.random() < 0.7 else 2)]
        frames = sorted(rel for rel in reference if rel.endswith(".png") and re.search(r"_\d+\.png$", rel))
        streams = sorted(rel for rel in reference if rel.endswith((".rgba", ".y4m")))
        damage = None
        if rng.random() < 0.35:
            j, k = rng.sample(range(len(frames)), 2)
            damage = (frames[j], frames[k], draw(rng, streams))
        holder = self.snapshot(directory)
        inputs = input_size(directory)
        lines, files, problem, peak, outcome = [], [], None, 0, None
        for index, delay in enumerate(kills):
            argv = base_argv + (["--skip-existing"] if index else [])
            outcome = self.execute(argv, directory, kill_after=delay)
            peak = max(peak, outcome.rss_kib)
            lines.append("%s & pid=$!; sleep %s; kill -9 $pid; wait $pid" % (self.command_line(argv), delay))
            if not outcome.killed:
                problem = self.process_problem(outcome, {0})
                if problem:
                    problem = "before the SIGKILL: " + problem
                    break
        notes = ["SIGKILL after %s s" % " s, then after ".join(str(d) for d in kills)]
        if problem is None and damage:
            wrong, right, stream = damage
            for rel in (wrong, stream):
                os.makedirs(os.path.dirname(os.path.join(directory, rel)), exist_ok=True)
            with open(os.path.join(directory, wrong), "wb") as f:
                f.write(reference[right])
            stream_path = os.path.join(directory, stream)
            if os.path.isfile(stream_path):
                os.truncate(stream_path, 5)
            else:
                with open(stream_path, "wb") as f:
                    f.write(reference[stream][:5])
            files = [("damage/" + right, reference[right]), ("damage/" + stream + ".5", reference[stream][:5])]
            lines.append("mkdir -p %s %s" % (shell_quote(os.path.dirname(wrong) or "."),
                                             shell_quote(os.path.dirname(stream) or ".")))
            lines.append("cp \"$here/damage/%s\" %s  # another frame's file in its place" % (right, shell_quote(wrong)))
            lines.append("[ -f %s ] && truncate -s 5 %s || cp \"$here/damage/%s.5\" %s  # a 5-byte stream"
                         % (shell_quote(stream), shell_quote(stream), stream, shell_quote(stream)))
            notes.append("then %s replaced by %s's file and %s cut to 5 bytes" % (wrong, right, stream))
        codes = []
        if problem is None:
            for _ in range(3):
                argv = base_argv + ["--skip-existing"]
                outcome = self.execute(argv, directory)
                peak = max(peak, outcome.rss_kib)
                codes.append(outcome.rc)
                lines.append(self.command_line(argv))
                problem = self.process_problem(outcome)
                if problem:
                    problem = "the resume: " + problem
                    break
                if outcome.rc == 0:
                    break
            else:
                problem = "the resume did not succeed in 3 runs (exit %s)" % ", ".join(str(c) for c in codes)
        outcome.rss_kib = peak
        problem = problem or self.rss_problem("resume", "resume%04d" % n, outcome, inputs)
        if problem is None:
            found = []
            present = {}
            for base, _, names in os.walk(directory):
                for name in names:
                    rel = os.path.relpath(os.path.join(base, name), directory)
                    present[rel] = os.path.join(base, name)
            for rel in sorted(reference):
                if rel not in present:
                    found.append("%s missing after the resume" % rel)
                else:
                    data = open(present[rel], "rb").read()
                    if data != reference[rel] and not (rel.endswith(".png") and same_png_image(data, reference[rel])):
                        found.append("%s differs from an uninterrupted run's (%d bytes, expected %d)"
                                     % (rel, len(data), len(reference[rel])))
            left = []
            for rel in sorted(present):
                name = os.path.basename(rel)
                if rel in reference or rel in ("job.json", "job.manifest.json", "in.png", "null"):
                    continue
                if TEMPORARY_NAME.match(name) or PROBE_NAME.match(name) or name.endswith(".lock"):
                    left.append(rel)
                else:
                    found.append("an extra file %s" % rel)
            if left:
                found.append("left %d temporary or lock file%s after the resume succeeded (%s)"
                             % (len(left), "" if len(left) == 1 else "s", ", ".join(left[:2]) + (", …" if len(left) > 2 else "")))
            if "job.manifest.json" in present:
                manifest = relative_files(json.load(open(present["job.manifest.json"])), directory + "/")
                where = first_difference(without_png_digests(reference_manifest), without_png_digests(manifest))
                if where:
                    found.append("the manifest differs from an uninterrupted run's at %s" % where)
                found.extend(digest_problems(manifest, directory))
            else:
                found.append("no manifest after the resume")
            if found:
                problem = "; ".join(found[:3]) + ("; and %d more" % (len(found) - 3) if len(found) > 3 else "")
        if problem:
            lines.append("# Then compare with an uninterrupted run of the same job:\n"
                         "mkdir -p ../ref && cp job.json ../ref/ && (cd ../ref && %s) && "
                         "diff -r -x '*.manifest.json' ../ref . | head" % self.command_line(base_argv))
            self.record_case("resume%04d" % n, directory, holder, lines, problem, outcome, "; ".join(notes), files)
        shutil.rmtree(holder, ignore_errors=True)
        self.discard(directory)

"""The scaling family (--scaling): a sheet of many one-frame pages against a PNG sequence of the
same frames, or a chain of many one-frame links against two links: atlases linear in pages,
memory flat, the long form at most --ratio times the short one's time."""

import json
import os
import shutil

from .files import relative_names
from .limits import ATLAS_BYTES_PER_PAGE, INPUT_RSS_KIB
from .values import draw


class ScalingFamily:
    """Cases of --scaling."""

    def timed(self, argv, directory, limit):
        """Runs argv with SIGINT at `limit` seconds; the outcome."""
        return self.execute(argv, directory, case_time=limit)

    def scaling_case(self, rng, n):
        """A sheet of many one-frame pages against a PNG sequence of the same frames, or a chain of
        many one-frame links against a chain of two links of the same frames: the atlases linear
        in pages (at most 10 MB for 4,000), the memory flat, and the long form at most --ratio
        times the short one's time."""
        self.cases += 1
        self.checks += 1
        directory = self.scratch()
        sheet = rng.random() < 0.5
        if sheet:
            frames = draw(rng, [200, 500, 500, 1000, 1000, 2000, 4000])
            scene = draw(rng, ["ring", "ring", "activity"])
            side = 84 if scene == "ring" else 240
            long_job = {"renders": [{"scene": scene, "frames": frames, "outputs": [
                {"type": "sheet", "path": "q/s{page}.png", "maxSize": side}]}]}
            # The PNG sequence is written with the encoder sheets use (zlib 8), so that the two
            # forms differ only in what a page costs beside its pixels.
            short_job = {"pngEncoder": "compact", "renders": [{"scene": scene, "frames": frames, "outputs": [
                {"type": "png", "pattern": "p/f_%05d.png"}]}]}
            what = "a sheet of %d frames of %s, one a page, against a PNG sequence" % (frames, scene)
            shard = []
        else:
            # 100,000 links half the time: the case, where a cost per frame that grows with
            # the links shows ten times over (at 10,000 only two to five times, near the noise).
            links = draw(rng, [1000, 10_000, 100_000, 100_000])
            frames = links
            long_job = {"renders": [{"scene": "ring", "name": "c", "scale": 0.25, "chain": [
                {"parameters": {"radius": 20 + k % 5}, "frames": 1} for k in range(links)],
                "outputs": [{"type": "png", "pattern": "c/f_%06d.png"}]}]}
            short_job = {"renders": [{"scene": "ring", "name": "c", "scale": 0.25, "chain": [
                {"parameters": {"radius": 20}, "frames": links // 2},
                {"parameters": {"radius": 21}, "frames": links - links // 2}],
                "outputs": [{"type": "png", "pattern": "s/f_%06d.png"}]}]}
            # About 2,000 frames drawn whatever the links: the cost of finding a frame's link
            # grows with the links, not with the share drawn.
            shares = max(1, links // 2000)
            shard = ["--shard", "%d/%d" % (rng.randrange(shares), shares)] if shares > 1 else []
            what = "a chain of %d one-frame links of ring @0.25x against 2 links%s" % (
                links, " (shard %s)" % shard[1] if shard else "")
        for name, job in (("long.json", long_job), ("short.json", short_job)):
            with open(os.path.join(directory, name), "w") as f:
                json.dump(job, f, separators=(",", ":"))
        job_bytes = os.path.getsize(os.path.join(directory, "long.json"))
        holder = self.snapshot(directory)
        # A chain's forms run after their planning runs, which wrote frame 0.
        base = ["-q", "--backend", "cpu"] + shard + ([] if sheet else ["--overwrite"])
        short_argv = ["batch", "short.json"] + base
        long_argv = ["batch", "long.json"] + base
        lines, setups = [], []
        if not sheet:
            # What reading and planning the job costs, which grows with its links as a job file's
            # length does: each form once more, drawing one frame. The time the drawn frames add
            # beyond it is what is compared.
            for name in ("short.json", "long.json"):
                argv = ["batch", name, "-q", "--backend", "cpu", "--overwrite", "--shard", "0/%d" % links]
                setups.append(self.timed(argv, directory, 120))
                lines.append(self.command_line(argv) + "  # reading and planning, one frame drawn")
        short = self.timed(short_argv, directory, 120)
        long_setup = setups[1].seconds if setups else 0.0
        limit = max(10.0, self.args.ratio * short.seconds + 5 + long_setup)
        long = self.timed(long_argv, directory, limit)
        lines += [self.command_line(short_argv), self.command_line(long_argv)]
        label = "scaling%04d-%s" % (n, "sheet" if sheet else "chain")
        problem = None
        for what_run, outcome in zip(("the short form's planning", "the long form's planning"), setups):
            problem = problem or (lambda p: what_run + ": " + p if p else None)(self.process_problem(outcome, {0}))
        problem = problem or (lambda p: "the short form: " + p if p else None)(self.process_problem(short, {0}))
        problem = problem or self.rss_problem("scaling", label, long, job_bytes)
        if problem is None and long.interrupted:
            problem = "still running after %.1f s (%.1f x the short form's %.2f s)%s" % (
                limit, limit / max(short.seconds, 1e-3), short.seconds,
                "; then still running %.0f s after SIGINT (a hang)" % self.args.grace if long.hang
                else "; SIGINT then obeyed after %.2f s" % (long.seconds - limit))
        problem = problem or self.process_problem(long, {0})
        if sheet:
            long_work, short_work = long.seconds, short.seconds
            self.scaling_notes.append("%s: %s: %.2f s against %.2f s (%.2f x), peak RSS %d MB" % (
                label, what, long.seconds, short.seconds, long.seconds / max(short.seconds, 0.05), long.rss_kib >> 10))
        else:
            long_work = max(0.0, long.seconds - setups[1].seconds)
            short_work = max(0.0, short.seconds - setups[0].seconds)
            drawn = frames // (int(shard[1].split("/")[1]) if shard else 1)
            whole = frames / max(setups[1].seconds + long_work / max(drawn, 1) * frames, 1e-3)
            self.scaling_notes.append(
                "%s: %s: planning %.2f s (%.0f µs a link) against %.2f s; %d frames drawn in %.2f s more against "
                "%.2f s (%.2f x); the whole chain at %.0f frames/s; peak RSS %d MB" % (
                    label, what, setups[1].seconds, setups[1].seconds / links * 1e6, setups[0].seconds, drawn,
                    long_work, short_work, long_work / max(short_work, 0.05), whole, long.rss_kib >> 10))
        ratio = long_work / max(short_work, 0.05)
        if problem is None and long_work > self.args.ratio * short_work + 0.5:
            problem = "%s %.2f s, %.1f x the short form's %.2f s (at most %.1f x)" % (
                "took" if sheet else "drew its frames in", long_work, ratio, short_work, self.args.ratio)
        frame_kib = (side * side * 4 >> 10) if sheet else 0
        if problem is None and sheet:
            atlases = 0
            for rel in relative_names(directory):
                if rel.startswith("q/") and rel.endswith(".json"):
                    atlases += os.path.getsize(os.path.join(directory, rel))
            pages = len([rel for rel in relative_names(directory) if rel.startswith("q/") and rel.endswith(".png")])
            bound = ATLAS_BYTES_PER_PAGE * max(pages, 1)
            self.scaling_notes[-1] += ", %d pages, atlases %.1f MB" % (pages, atlases / 1e6)
            if atlases > bound:
                problem = "%d pages wrote %.1f MB of atlases (at most %.1f MB: 10 MB for 4,000 pages, linear)" % (
                    pages, atlases / 1e6, bound / 1e6)
            elif long.rss_kib > INPUT_RSS_KIB + 4 * frame_kib:
                problem = "peak RSS %d MB for a sheet of %d pages (at most 64 MB and a frame's memory)" % (
                    long.rss_kib >> 10, pages)
        if problem is None and not sheet and long.rss_kib > INPUT_RSS_KIB + 64 * (job_bytes >> 10):
            problem = "peak RSS %d MB for a %d KB job (at most 64 MB + 64 x the job's size)" % (
                long.rss_kib >> 10, job_bytes >> 10)
        if problem:
            self.record_case(label, directory, holder, lines, problem, long, what)
        shutil.rmtree(holder, ignore_errors=True)
        self.discard(directory)

"""The hostile-HTTP family (--http): one `throbber studio` serving a scratch tree while N
requests drawn from the seed (http_requests.py) hit it — traversal in every encoding, oversized,
malformed, foreign, slow, vanishing and concurrent clients, hostile /api/state, /api/export and
/frames/… — each answered with a status its class allows, with the headers every response
carries, never with a canary's content, never writing outside --export-dir; the studio alive
after each, and stopped by SIGTERM within 1 s with exit 0 at the end."""

import base64
import json
import os
import random
import select
import shutil
import signal
import subprocess
import threading
import time

from .files import fingerprint, fingerprint_change, outside_entries
from .http_client import EventListener, SlowClient, connect, exchange
from .http_requests import Requests
from .limits import RSS_LIMIT_KIB
from .process import Outcome

# Sends a kept case's request to a studio started anew: its parts, with the authority of the run
# it failed in replaced by the new one (command.sh runs it).
SEND_SCRIPT = r'''import base64, json, socket, struct, sys, time
url, case = sys.argv[1], json.load(open(sys.argv[2]))
authority = url.split("/")[2]
port = int(authority.rsplit(":", 1)[1])
s = socket.create_connection(("127.0.0.1", port), timeout=15)
for i, part in enumerate(case["parts"]):
    if i and case["delay"]:
        time.sleep(case["delay"])
    try:
        s.sendall(base64.b64decode(part).replace(case["authority"].encode(), authority.encode()))
    except OSError as error:
        print("send: %s" % error)
        break
if case["mode"] in ("vanish", "reset"):
    if case["mode"] == "reset":
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    print("closed without reading (%s)" % case["mode"])
else:
    if case["mode"] == "shut":
        s.shutdown(socket.SHUT_WR)
    data = b""
    while True:
        try:
            chunk = s.recv(65536)
        except OSError as error:
            print("recv: %s" % error)
            break
        if not chunk:
            break
        data += chunk
    print(data[:4000].decode("latin-1"))
time.sleep(0.2)
page = socket.create_connection(("127.0.0.1", port), timeout=15)
page.sendall(("GET / HTTP/1.1\r\nHost: %s\r\n\r\n" % authority).encode())
print("afterwards GET / ->", page.recv(100).split(b"\r\n")[0].decode("latin-1"))
'''


class HttpStudio:
    """The studio under test: its process, tree, address, page, event stream and slow clients."""

    def __init__(self):
        self.process = self.listener = self.requests = None
        self.slow, self.statuses = [], {}
        self.served = 0


class HttpFamily:
    """Cases of --http; the studio starts at the first and stops (SIGTERM) after the last."""

    http_server = None

    def http_case(self, rng, n):
        self.cases += 1
        self.checks += 1
        label = "http-s%d-%04d" % (self.args.seed, n)
        studio = self.http_server or self.http_start(label)
        if studio is None:
            return
        self.http_judge_slow(studio, wait=False)
        studio.requests.frames = list(studio.listener.frames) if studio.listener else []
        probe = studio.requests.draw(rng)
        problem, replies = self.http_send(studio, probe, label)
        problem = problem or self.http_health(studio)
        if problem:
            self.http_record(studio, label, probe, problem, replies)
            if studio.process.poll() is not None:
                self.http_stop(studio, label, judged=False)
        if n == self.args.http - 1:
            self.http_finish()

    # -- the studio ------------------------------------------------------------------------------

    def http_start(self, label):
        studio = HttpStudio()
        studio.directory = directory = self.scratch()
        seed_rng = random.Random("%d-http-canary" % self.args.seed)
        studio.secrets = [b"CANARY-%016x" % seed_rng.getrandbits(64), b"root:x:0:0:"]
        os.makedirs(os.path.join(directory, "scenes"))
        os.makedirs(os.path.join(directory, "exports"))
        for name in ("canary.txt", "dir/canary.txt", "scenes/canary.txt"):
            with open(os.path.join(directory, name), "wb") as f:
                f.write(studio.secrets[0] + b"\n")
        shutil.copy(os.path.join(self.root, "examples", "scenes", "wave-ball.scene.json"), os.path.join(directory, "scenes", "fz.scene.json"))
        # Names an export's directory could take, already there: links to dir/ (a write through one
        # lands outside the export directory) and a file. The studio must make new directories only.
        for stem in ["fz"] + sorted(self.parameters):
            os.symlink("../dir", os.path.join(directory, "exports", "%s-1" % stem))
            os.symlink(os.path.join(directory, "dir"), os.path.join(directory, "exports", "%s-2" % stem))
            open(os.path.join(directory, "exports", "%s-3" % stem), "w").close()
        studio.kept = {rel for rel in fingerprint(directory) if rel.startswith("exports/")}
        studio.before = self.http_protected(studio)
        studio.holder = self.snapshot(directory)
        # A scene file (read again when it changes) and every built-in scene.
        studio.argv = ["studio", "scenes/fz.scene.json"] + sorted(self.parameters) + [
            "--port", "0", "--export-dir", "exports", "-q", "--backend", "cpu"]
        studio.stderr_path = os.path.join(self.work, "http-stderr-%d.txt" % os.getpid())

        def child_setup():
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        studio.started = time.monotonic()
        with open(studio.stderr_path, "wb") as err:
            studio.process = subprocess.Popen([self.throbber] + studio.argv, cwd=directory, stdin=subprocess.DEVNULL,
                                              stdout=subprocess.PIPE, stderr=err, preexec_fn=child_setup,
                                              env=dict(os.environ, NO_COLOR="1"))
        line = b""
        while not line.endswith(b"\n") and time.monotonic() - studio.started < 60:
            if select.select([studio.process.stdout], [], [], 1)[0]:
                byte = os.read(studio.process.stdout.fileno(), 1)
                if not byte:
                    break
                line += byte
        text = line.decode("utf-8", "replace").strip()
        if not text.startswith("studio: http://127.0.0.1:") or not text.endswith("/"):
            self.http_record(studio, label, None, "the studio's first line is %r, not 'studio: http://127.0.0.1:PORT/'" % text, [])
            self.http_stop(studio, label, judged=False)
            return None
        studio.authority = text.split("/")[2]
        studio.port = int(studio.authority.rsplit(":", 1)[1])
        page = exchange(studio.port, [("GET / HTTP/1.1\r\nHost: %s\r\n\r\n" % studio.authority).encode()])
        info = exchange(studio.port, [("GET /api/studio HTTP/1.1\r\nHost: %s\r\n\r\n" % studio.authority).encode()])
        try:
            about = json.loads(info.body)
            scenes = {scene["id"]: scene["parameters"] for scene in about["scenes"]}
            kinds = [kind for kind in about["exports"]["kinds"] if kind not in ("webm", "gif", "webp", "apng")]
        except (ValueError, KeyError, TypeError) as error:
            self.http_record(studio, label, None, "GET / gave %d and /api/studio %d (%s)" % (page.status, info.status, error), [])
            self.http_stop(studio, label, judged=False)
            return None
        studio.page = page.body
        client = "fuzz-%d" % self.args.seed
        studio.requests = Requests(studio.authority, client.ljust(8, "0"), scenes, kinds,
                                   {"absolute": os.path.join(directory, "canary.txt"), "relative": "up/case/canary.txt",
                                    "name": "canary.txt"})
        studio.listener = EventListener(studio.port, studio.authority, studio.requests.client)
        self.http_server = studio
        return studio

    def http_protected(self, studio):
        """Everything under the tree but what the studio may make: new entries under exports/."""
        found = fingerprint(studio.directory)
        return {rel: what for rel, what in found.items() if not rel.startswith("exports/") or rel in studio.kept}

    def http_health(self, studio):
        """The studio is running, answers GET / with its page, wrote nothing outside exports/."""
        if studio.process.poll() is not None:
            return "the studio exited with %d" % studio.process.returncode
        # 503 while connections just closed by the fuzzer are still being seen closed (a batch
        # that held idle ones); a slot must come free within 3 s.
        waited = time.monotonic()
        while True:
            page = exchange(studio.port, [("GET / HTTP/1.1\r\nHost: %s\r\n\r\n" % studio.authority).encode()])
            if page.status != 503 or time.monotonic() - waited > 3:
                break
            time.sleep(0.05)
        if page.status != 200 or page.body != studio.page:
            return "GET / afterwards gave %d with %d bytes (the page is %d)" % (page.status, len(page.body), len(studio.page))
        after = self.http_protected(studio)
        change = fingerprint_change(studio.before, after, ())
        if change:
            return "outside the export directory: %s" % change
        for rel in after:
            if rel.startswith("exports/") and rel not in studio.kept:
                return "wrote %s" % rel
        outside = outside_entries(studio.directory)
        if outside:
            return "wrote beside its tree: %s" % ", ".join(outside[:3])
        return None

    # -- one probe --------------------------------------------------------------------------

    def http_send(self, studio, probe, label):
        """Sends the probe; the first problem with what came back, and the replies."""
        if probe.slow:
            studio.slow.append((label, probe, SlowClient(studio.port, probe.data, probe.delay, probe.allowed, label)))
            return None, []
        if probe.batch:
            held = []
            for _ in range(probe.hold):
                try:
                    held.append(connect(studio.port))
                except OSError:
                    break
            replies = [None] * len(probe.batch)

            def one(index):
                try:
                    replies[index] = exchange(studio.port, probe.batch[index].parts)
                except OSError:
                    replies[index] = None
            threads = [threading.Thread(target=one, args=(i,)) for i in range(len(probe.batch))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            for sock in held:
                sock.close()
            for member, reply in zip(probe.batch, replies):
                if reply is None:
                    return "a connection of the batch was refused or reset", replies
                problem = self.http_judge(studio, member, reply)
                if problem:
                    return problem, replies
            return None, replies
        try:
            reply = exchange(studio.port, probe.parts, probe.mode, probe.delay)
        except OSError as error:
            return "could not connect: %s" % error, []
        if reply is None:
            return None, []
        return self.http_judge(studio, probe, reply), [reply]

    def http_judge(self, studio, probe, reply):
        studio.served += 1
        key = "%s %d" % (probe.kind, reply.status)
        studio.statuses[key] = studio.statuses.get(key, 0) + 1
        for secret in studio.secrets:
            if secret in reply.raw:
                return "the response holds a canary's content (%r)" % secret
        if reply.status == -1:
            return "no answer within %.0f s" % reply.seconds
        if reply.status == -2:
            return "an answer that is not HTTP: %r" % reply.raw[:80]
        if reply.status not in probe.allowed:
            return "status %d (allowed: %s): %r" % (reply.status, ", ".join(str(s) for s in sorted(probe.allowed)), reply.body[:120])
        return reply.header_problem(probe.head) or (probe.check(reply) if probe.check else None)

    def http_judge_slow(self, studio, wait):
        for entry in list(studio.slow):
            label, probe, client = entry
            if wait:
                client.thread.join(40)
            if not client.done:
                continue
            studio.slow.remove(entry)
            problem = self.http_judge(studio, probe, client.reply)
            if problem:
                self.http_record(studio, label, probe, "%s (after %.1f s)" % (problem, client.reply.seconds), [client.reply])

    # -- the end ------------------------------------------------------------------------------

    def http_finish(self):
        studio, self.http_server = self.http_server, None
        if studio is None:
            return
        label = "http-s%d-end" % self.args.seed
        self.http_judge_slow(studio, wait=True)
        problem = self.http_health(studio)
        if problem:
            self.http_record(studio, label, None, problem, [])
        # Half the time the stop lands while a heavy frame is drawn (scale 8, CPU and GL compared):
        # the studio must still exit 0 within 1 s, its renderers stopped, not torn down under it.
        rng = random.Random("%d-http-end" % self.args.seed)
        if rng.random() < 0.5 and studio.listener and studio.listener.open:
            state = studio.requests.state(rng, with_client=True)
            state.update(scale=8, compare=True, seq=10 ** 9)
            body = json.dumps(state).encode()
            exchange(studio.port, [("POST /api/state HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n"
                                    % (studio.authority, len(body))).encode() + body])
            time.sleep(rng.uniform(0, 0.3))
        self.http_stop(studio, label, judged=True)

    def http_stop(self, studio, label, judged):
        """SIGTERM; judged: it must exit 0 within 1 s. Then the peak RSS and the summary line."""
        self.http_server = None
        if studio.listener:
            studio.listener.close()
        process = studio.process
        try:
            with open("/proc/%d/status" % process.pid) as f:
                peak = next((int(line.split()[1]) for line in f if line.startswith("VmHWM:")), 0)
        except (OSError, ValueError):
            peak = 0
        if peak > self.peaks.get("http", (0, ""))[0]:
            self.peaks["http"] = (peak, label)
        problem = None
        if process.poll() is None:
            sent = time.monotonic()
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(1.0)
                seconds = time.monotonic() - sent
            except subprocess.TimeoutExpired:
                try:
                    process.wait(10)
                    problem = "stopped %.2f s after SIGTERM (at most 1 s), exit %d" % (time.monotonic() - sent, process.returncode)
                except subprocess.TimeoutExpired:
                    problem = "still running 10 s after SIGTERM"
                    process.kill()
                    process.wait()
            if problem is None and process.returncode != 0:
                problem = "exit %d %.2f s after SIGTERM (expected 0)" % (process.returncode, seconds)
        if judged:
            self.checks += 1
            problem = problem or self.http_health_after(studio)
            if problem is None and peak > RSS_LIMIT_KIB:
                problem = "peak RSS %d MB (at most %d MB: kept frames are bounded)" % (peak >> 10, RSS_LIMIT_KIB >> 10)
            if problem:
                self.http_record(studio, label, None, problem, [])
        notes = getattr(self, "http_notes", [])
        counts = {}
        for key, count in studio.statuses.items():
            kind, status = key.split(" ")
            counts.setdefault(kind, []).append("%s×%d" % (status, count))
        notes.append("http: %d responses judged; %s" % (studio.served, "; ".join(
            "%s %s" % (kind, " ".join(sorted(values))) for kind, values in sorted(counts.items()))))
        self.http_notes = notes
        process.stdout.close()
        shutil.rmtree(studio.holder, ignore_errors=True)
        self.discard(studio.directory)

    def http_health_after(self, studio):
        change = fingerprint_change(studio.before, self.http_protected(studio), ())
        return "outside the export directory: %s" % change if change else None

    def http_record(self, studio, label, probe, problem, replies):
        parts = probe.parts if probe is not None and not probe.batch else []
        case = {"authority": getattr(studio, "authority", ""), "mode": probe.mode if probe else "normal",
                "delay": probe.delay if probe else 0, "parts": [base64.b64encode(p).decode() for p in parts]}
        files = [("request.json", json.dumps(case).encode()), ("request.bin", b"".join(parts)), ("send.py", SEND_SCRIPT.encode())]
        files += [("response-%d.bin" % i, r.raw) for i, r in enumerate(replies[:5]) if r is not None]
        try:
            err = open(studio.stderr_path, encoding="utf-8", errors="replace").read()
        except OSError:
            err = ""
        rc = studio.process.poll() if studio.process else None
        outcome = Outcome(0 if rc is None else rc, err, False, False, False, False, 0, time.monotonic() - studio.started)
        n = label.rsplit("-", 1)[1]
        note = "case %s of seed %d (the requests before it: scripts/fuzz --seed %d --jobs 0 --cli 0 --http %s)\n%s" % (
            n, self.args.seed, self.args.seed, int(n) + 1 if n.isdigit() else "N", probe.text if probe else "")
        lines = ["%s > \"$here/url.txt\" 2> \"$here/replay-stderr.txt\" &" % self.command_line(studio.argv), "pid=$!",
                 "for i in $(seq 100); do grep -q '^studio: ' \"$here/url.txt\" && break; sleep 0.1; done",
                 "python3 \"$here/send.py\" \"$(sed -n 's/^studio: //p' \"$here/url.txt\")\" \"$here/request.json\"",
                 "kill -TERM $pid; wait $pid; echo \"studio exit $?\""]
        self.record_case(label, studio.directory, studio.holder, lines, problem, outcome, note, files)

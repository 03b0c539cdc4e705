"""Around one process: FIFO readers and writers, a planned signal, a look at its handlers and its
children in /proc, and the Outcome execute() returns."""

import os
import select
import threading
import time


class FifoReader:
    """Drains a FIFO while a case runs, so that a writer which opens it does not block."""

    def __init__(self, path):
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while not self.done.is_set():
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    if not os.read(self.fd, 1 << 16):
                        time.sleep(0.01)
                except BlockingIOError:
                    pass

    def stop(self):
        self.done.set()
        self.thread.join(1)
        os.close(self.fd)


class FifoWriter:
    """Waits for a reader of a FIFO, writes a few bytes of garbage to it and closes it: what a
    command that reads a FIFO typed as its input gets, so that it ends on its own. A FIFO the
    command never opens is never written (the writer only waits)."""

    GARBAGE = b"{\x00\xffnot what you expected\n"

    def __init__(self, path):
        self.path = path
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while not self.done.is_set():
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                # ENXIO: no reader yet.
                time.sleep(0.005)
                continue
            try:
                os.set_blocking(fd, True)
                os.write(fd, self.GARBAGE)
            except OSError:
                pass
            finally:
                os.close(fd)
            return

    def stop(self):
        self.done.set()
        self.thread.join(1)


class SignalPlan:
    """A signal for execute(): `signum`, sent `delay` seconds after `trigger(pid)` first holds
    (at once when trigger is None)."""

    def __init__(self, signum, delay, trigger=None):
        self.signum, self.delay, self.trigger = signum, delay, trigger


def signal_caught(pid, signum):
    """Whether the process had a handler for signum (SigCgt in /proc/PID/status); None when unknown."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    except (OSError, ValueError):
        pass
    return None


def child_named(pid, names):
    """Whether a process below pid (children and their children) has a command name in names."""
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            tasks = os.listdir("/proc/%d/task" % current)
        except OSError:
            continue
        for task in tasks:
            try:
                with open("/proc/%d/task/%s/children" % (current, task)) as f:
                    children = [int(c) for c in f.read().split()]
            except (OSError, ValueError):
                continue
            for child in children:
                try:
                    with open("/proc/%d/comm" % child) as f:
                        if f.read().strip() in names:
                            return True
                except OSError:
                    pass
                pending.append(child)
    return False


class Outcome:
    def __init__(self, rc, err, interrupted, hang, over_cap, killed, rss_kib, seconds):
        self.rc, self.err, self.interrupted, self.hang = rc, err, interrupted, hang
        self.over_cap, self.killed, self.rss_kib, self.seconds = over_cap, killed, rss_kib, seconds
        self.signalled_at = self.latency = self.armed_at = self.caught = None

"""The hostile-HTTP family's client side: raw sockets that send exactly the bytes drawn (in
pieces, slowly, or vanishing midway), responses read and split, the page's own event stream kept
open in the background, and slow clients that finish later."""

import json
import select
import socket
import struct
import threading
import time

# Every response carries these (docs/studio.md, the contract's "every response").
COMMON_HEADERS = {"connection": "close", "cache-control": "no-store", "x-content-type-options": "nosniff",
                  "referrer-policy": "no-referrer", "x-frame-options": "DENY",
                  "cross-origin-resource-policy": "same-origin"}


class Reply:
    """A response as read: status (0 when the server closed without answering, -1 when nothing
    came within the time), header fields (names lowercased), body, and the seconds it took."""

    def __init__(self, data, seconds, timed_out=False):
        self.raw, self.seconds = data, seconds
        self.status, self.headers, self.body = (-1 if timed_out else 0), {}, b""
        head, sep, body = data.partition(b"\r\n\r\n")
        if not data or not data.startswith(b"HTTP/"):
            if data:
                self.status = -2
            return
        lines = head.split(b"\r\n")
        try:
            self.status = int(lines[0].split(b" ")[1])
        except (IndexError, ValueError):
            self.status = -2
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            self.headers[name.strip().lower().decode("latin-1")] = value.strip().decode("latin-1")
        self.body = body
        self.complete = bool(sep)

    def header_problem(self, head_request):
        """What is missing or wrong among the fields every response carries, or None."""
        if self.status <= 0:
            return None
        for name, value in COMMON_HEADERS.items():
            if self.headers.get(name) != value:
                return "response %d without '%s: %s' (had %r)" % (self.status, name, value, self.headers.get(name))
        if self.headers.get("content-type", "").startswith("text/event-stream"):
            return None
        length = self.headers.get("content-length")
        if length is None or not length.isdigit():
            return "response %d without a Content-Length" % self.status
        expected = 0 if head_request else int(length)
        if len(self.body) != expected:
            return "response %d with Content-Length %s and %d bytes of body" % (self.status, length, len(self.body))
        if self.headers.get("content-type", "").startswith("text/html") and \
                "script-src 'self'" not in self.headers.get("content-security-policy", ""):
            return "an HTML response without the content security policy"
        return None


def connect(port, timeout=5.0):
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def exchange(port, parts, mode="normal", delay=0.0, timeout=15.0, most=64 << 20):
    """Sends `parts` (bytes each) `delay` seconds apart on a new connection and reads the reply.
    Modes: normal; shut (the write side is shut after sending, so the server sees the request
    end); vanish (closed after sending, nothing read); reset (closed with RST)."""
    started = time.monotonic()
    sock = connect(port)
    try:
        for index, part in enumerate(parts):
            if index and delay:
                time.sleep(delay)
            try:
                sock.sendall(part)
            except OSError:
                # The server answered and closed before taking it all (413, 431): read what it said.
                break
        if mode in ("vanish", "reset"):
            if mode == "reset":
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return None
        if mode == "shut":
            try:
                sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass
        return read_reply(sock, started, timeout, most)
    finally:
        sock.close()


def read_reply(sock, started, timeout, most=64 << 20):
    data = bytearray()
    sock.settimeout(1.0)
    while time.monotonic() - started < timeout and len(data) < most:
        try:
            chunk = sock.recv(1 << 16)
        except socket.timeout:
            continue
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    else:
        return Reply(bytes(data), time.monotonic() - started, timed_out=len(data) < most)
    return Reply(bytes(data), time.monotonic() - started)


class EventListener:
    """The page's event stream for one client id, read in the background: the frames it
    announces (their URLs) and whether it is still open."""

    def __init__(self, port, authority, client):
        self.client, self.frames, self.exports, self.events = client, [], [], 0
        self.sock = connect(port)
        self.sock.sendall(("GET /api/events?client=%s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n"
                           % (client, authority)).encode())
        self.open = True
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        buffer = b""
        self.sock.settimeout(None)
        while True:
            try:
                chunk = self.sock.recv(1 << 16)
            except OSError:
                break
            if not chunk:
                break
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                self.take(block.decode("utf-8", "replace"))
        self.open = False

    def take(self, block):
        event = data = None
        for line in block.split("\n"):
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = (data + "\n" if data is not None else "") + line[6:]
        with self.lock:
            self.events += 1
            try:
                value = json.loads(data) if data else None
            except ValueError:
                return
            if event == "frame" and isinstance(value, dict):
                self.frames = (self.frames + [value])[-16:]
            elif event == "export" and isinstance(value, dict):
                self.exports.append(value)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.thread.join(2)


class SlowClient:
    """A client that sends its request a few bytes at a time, `gap` seconds apart, in the
    background; `reply` is what it got once `done`."""

    def __init__(self, port, data, gap, allowed, label, piece=1):
        self.data, self.gap, self.allowed, self.label, self.piece = data, gap, allowed, label, piece
        self.reply = None
        self.thread = threading.Thread(target=self.run, args=(port,), daemon=True)
        self.thread.start()

    def run(self, port):
        started = time.monotonic()
        try:
            sock = connect(port)
        except OSError as error:
            self.reply = Reply(b"", 0.0)
            self.reply.status, self.reply.error = -3, str(error)
            return
        try:
            for at in range(0, len(self.data), self.piece):
                # Once the server has answered (408), sending more would only meet a reset.
                if select.select([sock], [], [], self.gap if at else 0)[0]:
                    break
                try:
                    sock.sendall(self.data[at:at + self.piece])
                except OSError:
                    break
            self.reply = read_reply(sock, started, 30)
        finally:
            sock.close()

    @property
    def done(self):
        return not self.thread.is_alive()

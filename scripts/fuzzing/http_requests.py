"""What the hostile-HTTP family sends: one Probe per case, drawn by class — the page, traversal
in every encoding, oversized and malformed requests, bad escapes, foreign hosts and origins,
methods, versions, chunked and broken lengths, garbage, slow and vanishing clients, many at once,
hostile /api/state and /api/export bodies and /frames/… names — each with the statuses it may get."""

import json

from .values import NUMBERS, draw, mutate_text, mutate_tree

# Refusals any mangled request may get; 0: closed without an answer (a body that never came).
REFUSALS = {400, 403, 404, 405, 408, 411, 413, 414, 431, 501, 505}
TRAVERSALS = ["..", "%2e%2e", "%2E%2e", ".%2e", "%2e.", "..%2f", "..%2F", "%2e%2e%2f", "..%5c", "..\\", "%5c..",
              "%252e%252e", "%252e%252e%252f", "..%252f", "%c0%ae%c0%ae", "%uff0e%uff0e", "....//", "..;", ".", "%2e",
              "%00..", "..%00", "..%0d%0a", "~", "%7e"]
PREFIXES = ["", "/frames/{client}/", "/frames/", "/studio.js/", "/api/", "/api/state/", "/scenes/", "/exports/",
            "/index.html/"]


class Probe:
    """One request (or a batch): its bytes in `parts`, how it is sent (`mode`, `delay`, `slow`),
    and the statuses it may get (`allowed`); `text` says what it is, for a failure's note."""

    def __init__(self, kind, text, parts, allowed, mode="normal", delay=0.0, head=False, slow=False,
                 batch=None, hold=0, check=None):
        self.kind, self.text, self.parts, self.allowed = kind, text, parts, set(allowed)
        self.mode, self.delay, self.head, self.slow = mode, delay, head, slow
        self.batch, self.hold, self.check = batch or [], hold, check

    @property
    def data(self):
        return b"".join(self.parts)


def request(method, target, host, headers=(), body=b"", length=True):
    lines = ["%s %s HTTP/1.1" % (method, target)] + (["Host: %s" % host] if host else []) + list(headers)
    if body and length:
        lines.append("Content-Length: %d" % len(body))
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + body


class Requests:
    """Draws probes against one running studio: its authority, a client with an open event
    stream, its scenes and their parameters, the export kinds, and the canary files' paths."""

    def __init__(self, authority, client, scenes, kinds, canaries):
        self.authority, self.client, self.scenes, self.kinds, self.canaries = authority, client, scenes, kinds, canaries
        self.port = int(authority.rsplit(":", 1)[1])
        self.frames = []

    CLASSES = [("page", 6), ("traversal", 14), ("oversize", 6), ("malformed", 8), ("escape", 4), ("foreign", 8),
               ("method", 4), ("version", 3), ("length", 5), ("garbage", 5), ("slow", 2), ("vanish", 4),
               ("many", 2), ("state", 14), ("export", 3), ("frames", 6), ("events", 3)]

    def draw(self, rng):
        total = sum(weight for _, weight in self.CLASSES)
        pick = rng.uniform(0, total)
        for kind, weight in self.CLASSES:
            pick -= weight
            if pick <= 0:
                break
        return getattr(self, "draw_" + kind)(rng)

    def get(self, target, headers=(), method="GET"):
        return request(method, target, self.authority, headers)

    def draw_page(self, rng):
        target = draw(rng, ["/", "/index.html", "/studio.js", "/studio.css", "/api/studio"])
        if rng.random() < 0.3:
            target += draw(rng, ["?", "?x=1", "?file=../../canary.txt", "?a=%2e%2e%2f&b", "?" + "q" * 2000])
        headers = [draw(rng, ["Origin: http://%s" % self.authority, "Sec-Fetch-Site: same-origin",
                              "Sec-Fetch-Site: none", "User-Agent: fuzz", "Accept: */*", "X-Forwarded-Host: evil.example",
                              "Host2: evil.example", "Cookie: a=b"]) for _ in range(rng.randrange(3))]
        method = "HEAD" if rng.random() < 0.2 else "GET"
        return Probe("page", "%s %s" % (method, target), [self.get(target, headers, method)], {200}, head=method == "HEAD")

    def traversal_target(self, rng):
        if rng.random() < 0.25:
            return draw(rng, ["/" + self.canaries["absolute"], "//" + self.canaries["absolute"].lstrip("/"),
                              "/%2f" + self.canaries["absolute"].lstrip("/"), "/etc/passwd", "//etc/passwd",
                              "/%2fetc%2fpasswd", "/" + self.canaries["relative"], "/scenes/fz.scene.json",
                              "/proc/self/environ", "/C:%5cwindows", "file:///etc/passwd",
                              "http://%s/../canary.txt" % self.authority, "http://%s/%%2e%%2e/x" % self.authority,
                              "/.git/config", "/%s" % self.canaries["name"], "/api/../canary.txt", "/studio.js%00.html"])
        steps = draw(rng, TRAVERSALS)
        depth = rng.randrange(1, 8)
        glue = draw(rng, ["/", "%2f", "%2F", "\\", "%5c", "%252f"])
        tail = draw(rng, [self.canaries["name"], "etc/passwd", "up/case/" + self.canaries["name"], "x.rgba", ""])
        return draw(rng, PREFIXES).format(client=self.client) + glue.join([steps] * depth) + glue + tail

    def draw_traversal(self, rng):
        target = self.traversal_target(rng)
        method = draw(rng, ["GET", "GET", "HEAD", "POST"])
        body = b"{}" if method == "POST" else b""
        data = request(method, target, self.authority, body=body)
        # Never 200: a traversal reaches no file, whatever the route (405 where the method is not the route's).
        return Probe("traversal", "%s %s" % (method, target), [data], {400, 404, 405}, head=method == "HEAD")

    def draw_oversize(self, rng):
        choice = rng.randrange(6)
        if choice == 0:
            target = "/" + "a" * rng.randrange(8_200, 70_000)
            return Probe("oversize", "a request line of %d bytes" % len(target), [self.get(target)], {414, 431})
        if choice == 1:
            value = "b" * rng.randrange(16_400, 100_000)
            return Probe("oversize", "a header of %d bytes" % len(value), [self.get("/", ["X-Big: " + value])], {431})
        if choice == 2:
            count = rng.randrange(101, 3_000)
            return Probe("oversize", "%d header fields" % count, [self.get("/", ["X-N%d: 1" % i for i in range(count)])], {431})
        if choice == 3:
            length = draw(rng, [1_048_577, 2 ** 31, 2 ** 63, 10 ** 40])
            sent = b"{" * rng.randrange(0, 70_000)
            data = request("POST", "/api/state", self.authority, ["Content-Length: %d" % length]) + sent
            return Probe("oversize", "Content-Length %d, %d bytes sent" % (length, len(sent)), [data], {413}, mode="shut")
        if choice == 4:
            body = b'{"client": "%s", "pad": "%s"}' % (self.client.encode(), b"p" * rng.randrange(65_600, 1_000_000))
            return Probe("oversize", "a state body of %d bytes" % len(body),
                         [request("POST", draw(rng, ["/api/state", "/api/export"]), self.authority, body=body)], {413})
        head = self.get("/", ["X-Endless: 1"]).rstrip(b"\r\n") + b"\r\n"
        return Probe("oversize", "an endless head", [head] + [b"X-More: %d\r\n" % i for i in range(3_000)], {431})

    MALFORMED = [
        ("GET  / HTTP/1.1", 400), ("GET / HTTP/1.1 ", 400), (" GET / HTTP/1.1", 400), ("GET /", 400),
        ("GET / HTTP/1.1\r\nX: 1\r\n folded", 400), ("GET / HTTP/1.1\r\nX : 1", 400), ("GET / HTTP/1.1\r\nX", 400),
        ("GET / HTTP/1.1\r\n: empty", 400), ("GET / HTTP/1.1\r\nX\x00Y: 1", 400), ("GET / HTTP/1.1\r\nX: a\x00b", 400),
        ("GET / HTTP/1.1\r\nX: a\rb", 400), ("GET /\x00 HTTP/1.1", 400), ("GET /a b HTTP/1.1", 400),
        ("GET /\xff HTTP/1.1", 400), ("GET * HTTP/1.1", 400), ("GET x HTTP/1.1", 400), ("GET /#frag HTTP/1.1", 400),
        ("G(T / HTTP/1.1", 400), ("\r\nGET / HTTP/1.1", 400), ("GET / HTTP/1.1\r\nHost : x", 400),
    ]

    def draw_malformed(self, rng):
        if rng.random() < 0.5:
            line, status = draw(rng, self.MALFORMED)
            first, _, rest = line.partition("\r\n")
            text = first + "\r\nHost: " + self.authority + ("\r\n" + rest if rest else "") + "\r\n\r\n"
            return Probe("malformed", repr(line), [text.encode("latin-1")], {status}, mode="shut")
        # A valid request mangled at the byte level: anything but a crash, a 500 or a file.
        base = self.get(draw(rng, ["/", "/api/studio", "/api/events?client=" + self.client, "/frames/%s/1.rgba" % self.client]))
        text = base.decode("latin-1")
        for _ in range(rng.randrange(1, 4)):
            text = mutate_text(rng, text) if rng.random() < 0.5 else self.mangle(rng, text)
        return Probe("malformed", "mangled: %r" % text[:120], [text.encode("latin-1", "replace")],
                     REFUSALS | {0, 200}, mode="shut")

    @staticmethod
    def mangle(rng, text):
        at = rng.randrange(len(text) + 1)
        return text[:at] + draw(rng, ["\r", "\n", "\x00", " ", ":", "\t", "\r\n ", "%", "\xff", "/..", "\r\n\r\n"]) + text[at:]

    def draw_escape(self, rng):
        target = draw(rng, ["/a%", "/%zz", "/%4", "/%%", "/%ff", "/%c0%af", "/%ed%a0%80", "/x?%", "/x?a=%g0",
                            "/api/events?client=%zz", "/frames/%s/%%.rgba" % self.client, "/%%32%65", "/%u002e"])
        return Probe("escape", "GET " + target, [self.get(target)], {400})

    def draw_foreign(self, rng):
        port = self.port
        host = draw(rng, [None, "evil.example", "evil.example:%d" % port, "127.0.0.1", "localhost", "127.0.0.1:%d" % (port + 1),
                          "[::1]:%d" % port, "0.0.0.0:%d" % port, "127.0.0.2:%d" % port, "127.0.0.1:%d.evil.example" % port,
                          "127.0.0.1:%d@evil.example" % port, "", " ", self.authority])
        headers = []
        if host == self.authority:
            headers.append(draw(rng, ["Origin: http://evil.example", "Origin: null", "Origin: https://%s" % self.authority,
                                      "Origin: http://%s.evil.example" % self.authority, "Origin: http://127.0.0.1:%d" % (port + 1),
                                      "Sec-Fetch-Site: cross-site", "Sec-Fetch-Site: CROSS-SITE", "Origin: http://localhost"]))
        method, target = draw(rng, [("GET", "/"), ("GET", "/api/studio"), ("POST", "/api/state"), ("POST", "/api/export"),
                                    ("GET", "/api/events?client=" + self.client), ("GET", "/frames/%s/1.rgba" % self.client)])
        body = json.dumps(self.state(rng, with_client=True)).encode() if method == "POST" else b""
        data = request(method, target, host, headers, body)
        return Probe("foreign", "%s %s, Host %r %s" % (method, target, host, headers), [data], {403})

    def draw_method(self, rng):
        method = draw(rng, ["PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PATCH", "PROPFIND", "get", "Get", "BREW",
                            "M" * 100, "PRI"])
        if rng.random() < 0.2:
            return Probe("method", "method with a separator", [self.get("/", method=draw(rng, ["GE(T", "G@T", "GET/1"]))], {400})
        return Probe("method", method, [self.get(draw(rng, ["/", "/api/state", "*"]) if method != "CONNECT" else "/", method=method)],
                     {405, 400})

    def draw_version(self, rng):
        version, status = draw(rng, [("HTTP/2.0", 505), ("HTTP/0.9", 505), ("HTTP/1.2", 505), ("HTTP/9.9", 505), ("HTTP/1", 400),
                                     ("HTTP/1.1.1", 400), ("HTTPS/1.1", 400), ("http/1.1", 400), ("HTTP/01.1", 400), ("HTTP/1.10", 400)])
        data = ("GET / %s\r\nHost: %s\r\n\r\n" % (version, self.authority)).encode()
        return Probe("version", version, [data], {status})

    def draw_length(self, rng):
        body = json.dumps(self.state(rng, with_client=True)).encode()
        choice = rng.randrange(5)
        if choice == 0:
            te = draw(rng, ["chunked", "gzip, chunked", "identity", "Chunked"])
            chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
            lengths = ["Content-Length: %d" % len(chunked)] if rng.random() < 0.5 else []
            data = request("POST", "/api/state", self.authority, ["Transfer-Encoding: " + te] + lengths) + chunked
            return Probe("length", "Transfer-Encoding: %s" % te, [data], {501})
        if choice == 1:
            return Probe("length", "POST without Content-Length",
                         [request("POST", draw(rng, ["/api/state", "/api/export", "/"]), self.authority, body=body, length=False)], {411})
        if choice == 2:
            value = draw(rng, ["abc", "-1", "+5", "5 5", "0x10", "1e3", "5,5", "", "١٢"])
            data = request("POST", "/api/state", self.authority, ["Content-Length: " + value]) + body
            return Probe("length", "Content-Length %r" % value, [data], {400})
        if choice == 3:
            data = request("POST", "/api/state", self.authority, ["Content-Length: %d" % len(body), "Content-Length: %d" % (len(body) + 1)]) + body
            return Probe("length", "two Content-Lengths", [data], {400})
        cut = rng.randrange(len(body))
        data = request("POST", "/api/state", self.authority, ["Content-Length: %d" % len(body)]) + body[:cut]
        return Probe("length", "a body cut at %d of %d bytes, then gone" % (cut, len(body)), [data], {0},
                     mode=draw(rng, ["vanish", "reset", "shut"]))

    def draw_garbage(self, rng):
        choice = rng.randrange(4)
        if choice == 0:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4096)))
        elif choice == 1:
            data = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(rng.randrange(256) for _ in range(200))
        elif choice == 2:
            data = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
        else:
            data = b"\r\n" * rng.randrange(1, 5000)
        return Probe("garbage", "%d bytes of garbage (%s)" % (len(data), ["random", "TLS hello", "HTTP/2 preface", "blank lines"][choice]),
                     [data], REFUSALS | {0}, mode="shut")

    def draw_slow(self, rng):
        if rng.random() < 0.5:
            data = self.get("/", ["X-Slow: " + "s" * 400])
            return Probe("slow", "slowloris: a head a byte every 0.5 s", [data], {408}, delay=0.5, slow=True)
        body = json.dumps(self.state(rng, with_client=True)).encode()
        data = request("POST", "/api/state", self.authority, body=body)
        return Probe("slow", "a state body a byte every 0.25 s", [data], {408}, delay=0.25, slow=True)

    def draw_vanish(self, rng):
        full = request("POST", "/api/state", self.authority, body=json.dumps(self.state(rng, with_client=True)).encode())
        data = draw(rng, [b"", b"GET / HT", self.get("/")[:-2], full[:len(full) // 2], self.get("/api/events?client=vanisher01"),
                          self.get("/frames/%s/1.rgba" % self.client)])
        return Probe("vanish", "%d bytes, then gone" % len(data), [data], {0}, mode=draw(rng, ["vanish", "reset"]))

    def draw_many(self, rng):
        count = rng.randrange(20, 70)
        batch = [Probe("many", "one of many", [self.get(draw(rng, ["/", "/api/studio", "/studio.js"]))], {200, 503})
                 for _ in range(count)]
        hold = rng.randrange(0, 40) if rng.random() < 0.5 else 0
        return Probe("many", "%d at once while %d idle connections are held" % (count, hold), [], set(), batch=batch, hold=hold)

    # -- the studio's own API ------------------------------------------------------------------

    def state(self, rng, with_client=False):
        scene = draw(rng, sorted(self.scenes))
        parameters = {}
        for parameter in self.scenes[scene]:
            if rng.random() < 0.3 and parameter.get("default") is not None:
                parameters[parameter["name"]] = self.parameter_value(rng, parameter)
        state = {"scene": scene, "parameters": parameters, "t": round(rng.uniform(0, 3), 3),
                 "scale": draw(rng, [1, 1, 2, 3, 0.25, 0.5]), "background": draw(rng, [None, "none", "#ff000080", "0.1,0.2,0.3,1"]),
                 "compare": rng.random() < 0.1}
        if with_client:
            state.update({"client": self.client, "seq": rng.randrange(1_000_000)})
        return state

    @staticmethod
    def parameter_value(rng, parameter):
        default = parameter["default"]
        if parameter.get("type") in ("number", "integer") and "slider" in parameter:
            low, high = parameter["slider"]["min"], parameter["slider"]["max"]
            value = rng.uniform(low, high)
            return str(int(value) if parameter["type"] == "integer" else round(value, 4))
        if parameter.get("type") == "choice" and parameter.get("choices"):
            return draw(rng, parameter["choices"])
        if isinstance(default, list):
            return "#%02x%02x%02x" % tuple(rng.randrange(256) for _ in range(3))
        return str(default)

    HOSTILE_STRINGS = ["../../x", "../../../../etc/passwd", "/etc/passwd", "scenes/fz.scene.json", "canary.txt", "..", "",
                       "\u0000", "a\nb", "x" * 70_000, "%2e%2e", "C:\\\\x", "wave-ball/../ring", "é✓🙂"]

    def draw_state(self, rng):
        state = self.state(rng, with_client=True)
        if rng.random() < 0.3:
            return Probe("state", "a valid state", [request("POST", "/api/state", self.authority, body=json.dumps(state).encode())],
                         {202, 422})
        context = {"job": "../../canary.txt", "keys": list(state) + ["parameters", "scene", "client", "kind", "state", "seq"]}
        choice = rng.randrange(4)
        if choice == 0:
            for _ in range(rng.randrange(1, 4)):
                state = mutate_tree(rng, state, context)
            body = json.dumps(state).encode()
        elif choice == 1:
            key = draw(rng, ["scene", "client", "seq", "t", "scale", "background", "compare", "parameters"])
            state[key] = draw(rng, self.HOSTILE_STRINGS + NUMBERS + [None, [], {}, True, {"../../x": "1"}, [[[]]]])
            body = json.dumps(state).encode()
        elif choice == 2:
            name = draw(rng, ["../../x", "progress", "__proto__", "", "a" * 5000])
            state["parameters"] = {name: draw(rng, ["1e999", "NaN", "-0", "1" * 400, "../../x", "#zzzzzz", "1e6x1e6", ""])}
            body = json.dumps(state).encode()
        else:
            body = mutate_text(rng, json.dumps(state)).encode("utf-8", "replace")
        return Probe("state", "a hostile state: %r" % body[:160], [request("POST", "/api/state", self.authority, body=body)],
                     {202, 400, 404, 413, 422})

    def draw_export(self, rng):
        state = self.state(rng)
        state["scale"] = draw(rng, [0.25, 0.5, 1])
        kind = draw(rng, self.kinds) if self.kinds else "png"
        body = {"client": self.client, "kind": kind, "state": state}
        if rng.random() < 0.7:
            body[draw(rng, ["kind", "state", "client"])] = draw(rng, self.HOSTILE_STRINGS + [None, 7, [], {"scene": "../../x"}])
            if rng.random() < 0.5:
                body["state"] = dict(state, scene=draw(rng, self.HOSTILE_STRINGS))
            text = "a hostile export: %r" % json.dumps(body)[:160]
        else:
            text = "an export of %s as %s" % (state["scene"], kind)
        data = request("POST", "/api/export", self.authority, body=json.dumps(body).encode())
        return Probe("export", text, [data], {202, 400, 404, 409, 413, 422})

    def draw_frames(self, rng):
        seq = str(self.frames[-1]["seq"]) if self.frames else "1"
        if self.frames and rng.random() < 0.4:
            # A frame the stream announced (kept: the last 16), or one of its comparison images.
            frame = draw(rng, self.frames)
            compare = frame.get("compare") if isinstance(frame.get("compare"), dict) else {}
            urls = [url for url in [frame.get("url")] + [compare[key] for key in sorted(compare)] if isinstance(url, str)]
            if not urls:
                return self.frame_probe("GET", "/frames/%s/%s.rgba" % (self.client, seq))
            target = draw(rng, urls)
            return self.frame_probe("GET", target)
        name = draw(rng, [seq, seq + "-cpu", seq + "-gl", seq + "-heat", "-1", "9" * 30, "%2e%2e", "..%2f..%2fcanary",
                          "a.rgba", "", seq + "%00", seq + "/..", "1e3", " 1", "%s/../%s" % (seq, seq)])
        client = draw(rng, [self.client, self.client, "../../x", "short", "x" * 65, "%2e%2e", self.client + "/.."])
        target = "/frames/%s/%s%s" % (client, name, draw(rng, [".rgba", ".rgba", "", ".png", ".rgba/"]))
        return self.frame_probe(draw(rng, ["GET", "GET", "HEAD"]), target)

    def frame_probe(self, method, target):
        def check(reply):
            if reply.status == 200 and not probe.head:
                width, height = reply.headers.get("x-width", ""), reply.headers.get("x-height", "")
                if not (width.isdigit() and height.isdigit()) or int(width) * int(height) * 4 != len(reply.body):
                    return "a frame of %d bytes with X-Width %r and X-Height %r" % (len(reply.body), width, height)
            return None
        probe = Probe("frames", "%s %s" % (method, target), [self.get(target, method=method)], {200, 400, 404},
                      head=method == "HEAD", check=check)
        return probe

    def draw_events(self, rng):
        client = draw(rng, ["short", "x" * 65, "../../abcdefgh", "abc%00defgh", "abcdefg%C3%A9", "abcd efgh", "", None])
        target = "/api/events" + ("" if client is None else "?client=" + client)
        return Probe("events", "GET " + target, [self.get(target)], {400})

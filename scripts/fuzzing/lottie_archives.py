"""dotLottie archives for the lottie family (--lottie): valid version 1 and 2 archives written with
Python's zipfile and by hand, and hostile ones (bombs, bad CRCs, truncation, duplicate and `../`
names, ZIP64 markers, huge declared sizes, nested archives, encryption and method flags, data
descriptors that lie, overlapping entries, too many entries, hostile manifests and themes)."""

import io
import json
import struct
import warnings
import zipfile
import zlib

from .values import draw, mutate_text

LOCAL, CENTRAL, END, LOCATOR = 0x04034B50, 0x02014B50, 0x06054B50, 0x07064B50


def deflate(data):
    """A raw deflate stream, as ZIP stores it."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def hand_zip(entries, count=None, zip64_locator=False, comment=b""):
    """A ZIP archive written field by field. Each entry is a dict: name (str or bytes), data, and
    optionally method (0 or 8), flags, crc, size (the declared inflated size), stored (the
    stored bytes), extra, descriptor (bytes written after the data), offset (a local header
    offset to claim instead of the real one), local (False: no local record written)."""
    out, central = bytearray(), bytearray()
    for entry in entries:
        name = entry["name"] if isinstance(entry["name"], bytes) else entry["name"].encode("utf-8", "surrogatepass")
        data = entry.get("data", b"")
        method = entry.get("method", 8)
        stored = entry.get("stored", deflate(data) if method == 8 else data)
        crc = entry.get("crc", zlib.crc32(data) & 0xFFFFFFFF)
        size = entry.get("size", len(data))
        flags, extra = entry.get("flags", 0), entry.get("extra", b"")
        offset = entry.get("offset", len(out))
        if entry.get("local", True):
            out += struct.pack("<IHHHHHIIIHH", LOCAL, 20, flags, method, 0, 0x21, crc, len(stored), size & 0xFFFFFFFF,
                               len(name), len(extra)) + name + extra + stored + entry.get("descriptor", b"")
        central += struct.pack("<IHHHHHHIIIHHHHHII", CENTRAL, 20, 20, flags, method, 0, 0x21, crc, len(stored),
                               size & 0xFFFFFFFF, len(name), len(extra), 0, 0, 0, 0, offset & 0xFFFFFFFF) + name + extra
    directory = len(out)
    out += central
    if zip64_locator:
        out += struct.pack("<IIQI", LOCATOR, 0, 0, 1)
    n = len(entries) if count is None else count
    out += struct.pack("<IHHHHIIH", END, 0, 0, n & 0xFFFF, n & 0xFFFF, len(central), directory, len(comment)) + comment
    return bytes(out)


def zipfile_archive(files, compression=zipfile.ZIP_DEFLATED, force_zip64=False):
    """An archive as Python's zipfile writes it (duplicates allowed, with its warning silenced)."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with zipfile.ZipFile(buffer, "w", compression) as archive:
            for name, data in files:
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = compression
                with archive.open(info, "w", force_zip64=force_zip64) as f:
                    f.write(data)
    return buffer.getvalue()


def theme(rng):
    """A version 2 theme: rules by slot id, each of a type dotLottie defines; one time in three
    one rule is hostile. (theme, whether a rule is hostile)"""
    rules = [{"id": "tint", "type": "Color", "value": [0.1, 0.6, 0.9, 1]},
             {"id": "size", "type": "Scalar", "keyframes": [{"frame": 0, "value": 10}, {"frame": 30, "value": 20, "hold": True}]},
             {"id": "spot", "type": "Position", "value": [12, 24]},
             {"id": "ramp", "type": "Gradient", "value": [{"offset": 0, "color": [1, 0, 0]}, {"offset": 1, "color": [0, 0, 1, 0.5]}]}]
    hostile = rng.random() < 0.3
    if hostile:
        rule = draw(rng, rules)
        rule[draw(rng, ["value", "type", "id", "keyframes", "animations", "expression"])] = draw(
            rng, [None, "x", [], {}, [1e308] * 4, 5, "Colour", [{"frame": "0"}], "time * 2", [[]] * 1000])
    return {"rules": rules}, hostile


def dotlottie_files(rng, animation, version):
    """(name, bytes) of a dotLottie holding `animation` (bytes) in layout `version`, with an image
    and a theme, and whether the theme is hostile."""
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c63f8cfc0f01f0005000201ee1c3c6c0000000049454e44ae426082")
    ids = ["loader"] + (["second"] if rng.random() < 0.3 else [])
    hostile = False
    if version == 1:
        manifest = {"version": "1.0", "generator": "fuzz", "activeAnimationId": ids[-1],
                    "animations": [{"id": i, "loop": True} for i in ids]}
        files = [("manifest.json", json.dumps(manifest).encode())]
        files += [("animations/%s.json" % i, animation) for i in ids] + [("images/img_0.png", png)]
    else:
        manifest = {"version": "2", "generator": "fuzz", "initial": {"animation": ids[0]},
                    "animations": [{"id": i} for i in ids], "themes": [{"id": "dark"}]}
        files = [("manifest.json", json.dumps(manifest).encode())]
        rules, hostile = theme(rng)
        files += [("a/%s.json" % i, animation) for i in ids] + [("i/img_0.png", png), ("t/dark.json", json.dumps(rules).encode())]
    return files, hostile


_bombs = {}


def bomb(size):
    """A deflate stream of `size` spaces (cached: megabytes deflated once per run)."""
    if size not in _bombs:
        _bombs[size] = deflate(b" " * size)
    return _bombs[size]


def hostile_archive(rng, animation):
    """A dotLottie archive: valid (one time in six), or hostile in one way. (bytes, what was done, valid)."""
    version = draw(rng, [1, 2])
    files, hostile_theme = dotlottie_files(rng, animation, version)
    prefix = "a/" if version == 2 else "animations/"
    kind = draw(rng, ["valid", "zipfile stored", "bomb", "bomb", "crc", "truncate", "truncate", "duplicate", "dotdot", "zip64",
                      "zip64 locator", "declared", "nested", "encrypted", "method", "descriptor", "overlap", "many", "manifest",
                      "manifest", "flip", "flip", "names", "empty"])
    entries = [{"name": name, "data": data} for name, data in files]
    if kind == "valid":
        return zipfile_archive(files), "valid v%d (zipfile)%s" % (version, hostile_theme * ", a hostile theme rule"), \
            not hostile_theme
    if kind == "zipfile stored":
        return zipfile_archive(files, zipfile.ZIP_STORED), "valid v%d, stored (zipfile)%s" % (
            version, hostile_theme * ", a hostile theme rule"), not hostile_theme
    if kind == "bomb":
        size = draw(rng, [8 << 20, 64 << 20, 512 << 20])
        if size > 64 << 20:  # declared, not real: the stream holds 64 MB, the header claims more
            entries[1].update({"stored": bomb(64 << 20), "size": size, "crc": 0})
        else:
            entries[1].update({"stored": bomb(size), "size": size, "crc": zlib.crc32(b" " * size) & 0xFFFFFFFF})
        return hand_zip(entries), "a bomb: %d MB of spaces in %s" % (size >> 20, entries[1]["name"]), False
    if kind == "crc":
        entry = draw(rng, entries)
        entry["crc"] = (zlib.crc32(entry["data"]) ^ (1 << rng.randrange(32))) & 0xFFFFFFFF
        return hand_zip(entries), "a bad CRC on %s" % entry["name"], False
    if kind == "truncate":
        data = zipfile_archive(files)
        at = rng.randrange(len(data))
        return data[:at], "cut at %d of %d bytes" % (at, len(data)), False
    if kind == "duplicate":
        entry = draw(rng, entries)
        copy = dict(entry, data=draw(rng, [entry["data"], b"{}", b"x" * 100]))
        return zipfile_archive(files + [(copy["name"], copy["data"])]), "%s twice" % entry["name"], False
    if kind == "dotdot":
        name = draw(rng, ["../x.json", "../../../../tmp/throbber-fuzz-escape", "/tmp/throbber-fuzz-abs", prefix + "../manifest.json",
                          "a\\..\\x.json", "C:/x.json", prefix + "loader.json\u0000.png", "./manifest.json", "i//x.png"])
        if rng.random() < 0.5:
            files[1] = (name, files[1][1])
        else:
            files.append((name, animation))
        return zipfile_archive(files) if "\u0000" not in name else hand_zip([{"name": n, "data": d} for n, d in files]), \
            "an entry named %r" % name, False
    if kind == "zip64":
        return zipfile_archive(files, force_zip64=True), "ZIP64 extra fields (zipfile force_zip64)", False
    if kind == "zip64 locator":
        locator = rng.random() < 0.5
        return hand_zip(entries, zip64_locator=locator, count=None if locator else 0xFFFF), "ZIP64 markers", False
    if kind == "declared":
        entry = draw(rng, entries)
        entry["size"] = draw(rng, [0, 1, len(entry["data"]) - 1, len(entry["data"]) + 1, 2 ** 31, 0xFFFFFFFE, 0xFFFFFFFF])
        return hand_zip(entries), "%s declares %d bytes" % (entry["name"], entry["size"]), False
    if kind == "nested":
        inner = zipfile_archive(files)
        for _ in range(draw(rng, [1, 2, 5])):
            inner = zipfile_archive([("manifest.json", files[0][1]), (prefix + "loader.json", inner)])
        return inner, "an archive inside the animation entry", False
    if kind == "encrypted":
        draw(rng, entries)["flags"] = draw(rng, [1, 0x41, 0x40])
        return hand_zip(entries), "an entry flagged encrypted", False
    if kind == "method":
        entry = draw(rng, entries)
        entry.update({"method": draw(rng, [1, 9, 12, 14, 93, 99, 0xFFFF]), "stored": deflate(entry["data"])})
        return hand_zip(entries), "%s with method %d" % (entry["name"], entry["method"]), False
    if kind == "descriptor":
        entry = draw(rng, entries)
        crc = zlib.crc32(entry["data"]) & 0xFFFFFFFF
        lie = crc ^ draw(rng, [0, 1])
        entry.update({"flags": 8, "descriptor": struct.pack("<IIII", 0x08074B50, lie, len(deflate(entry["data"])), len(entry["data"]))})
        return hand_zip(entries), "a data descriptor on %s%s" % (entry["name"], " that lies" if lie != crc else ""), \
            lie == crc and not hostile_theme
    if kind == "overlap":
        inner = {"name": "i/inner.png", "data": b"\x89PNG" * 8, "method": 0}
        record = hand_zip([inner])
        record = record[:30 + len("i/inner.png") + len(inner["data"])]
        outer_at = sum(30 + len(e["name"].encode()) + len(deflate(e["data"])) for e in entries)
        entries.append({"name": "i/outer.bin", "data": record, "method": 0})
        entries.append(dict(inner, offset=outer_at + 30 + len("i/outer.bin"), local=False))
        return hand_zip(entries), "an entry inside another's bytes", False
    if kind == "many":
        count = draw(rng, [4096, 4097, 10_000, 65_535])
        entries += [{"name": "i/%d" % i, "data": b"", "method": 0} for i in range(count)]
        return hand_zip(entries, count=min(len(entries), 0xFFFF)), "%d more entries" % count, False
    if kind == "manifest":
        manifest = json.loads(files[0][1])
        change = draw(rng, ["animations", "initial", "version", "themes", "id", "text"])
        if change == "animations":
            manifest["animations"] = draw(rng, [[], {}, None, [{"id": "missing"}], [{"id": ""}], [{"id": "../../x"}],
                                                [{"id": "loader"}] * 2, [{"id": "loader"}] * 5000])
        elif change == "initial":
            manifest["initial"] = draw(rng, [{"animation": "nope"}, {"animation": 5}, "loader", None])
            manifest["activeAnimationId"] = draw(rng, ["nope", 5, None])
        elif change == "version":
            manifest["version"] = draw(rng, ["3", 2, "2.0", "", None, "1e309", [2]])
        elif change == "themes":
            manifest["themes"] = draw(rng, [[{"id": "missing"}], [{"id": "dark"}] * 2, "dark", [{}]])
        elif change == "id":
            manifest["animations"][0]["id"] = draw(rng, ["x" * 100_000, "\u0000", "é✓🙂", "a/b", "..", 7])
        data = json.dumps(manifest).encode()
        if change == "text":
            data = mutate_text(rng, data.decode()).encode("utf-8", "surrogatepass")
        files[0] = ("manifest.json", data)
        return zipfile_archive(files), "manifest: %s" % change, False
    if kind == "flip":
        data = bytearray(zipfile_archive(files))
        for _ in range(draw(rng, [1, 1, 2, 8])):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data), "bits flipped", False
    if kind == "names":
        name = draw(rng, [b"\xff\xfe.json", b"", b"a" * 65535, "é.json".encode(), b"manifest.json/"])
        entries.append({"name": name, "data": b"{}"})
        return hand_zip(entries), "an entry named %r" % name[:40], False
    return hand_zip([]), "an empty archive", False

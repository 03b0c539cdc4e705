"""Hostile PNGs: a real file's tEXt values at and past their fields' edges, its chunks
duplicated, dropped, reordered, oversized or bombs, its image data damaged, then perhaps its
bytes (a length field, a cut, flipped bits, a CRC)."""

import struct
import zlib

from .png_format import (CHANNELS, HOSTILE_SIZES, PNG_SIGNATURE, ZERO_IMAGES, chunk_offsets, garbage_text,
                         idat_chunks, ihdr, png_bytes, png_chunk, raw_length)
from .values import NUMBERS, NUMBER_TEXTS, draw


class PngMutations:
    """The hostile files of --png."""

    def hostile_value(self, rng, key, base):
        """A value for one of Throbber's tEXt keys: edges for its own field, then anything."""
        name = key.decode("latin-1")
        scenes = list(self.parameters)
        if rng.random() < 0.3:
            return draw(rng, [str(draw(rng, NUMBERS)).encode(), draw(rng, NUMBER_TEXTS).encode(), b"", b" ",
                              b"x" * 100_000, garbage_text(rng, draw(rng, [1, 10, 5000])), b"nope",
                              draw(rng, scenes).encode(), "é✓".encode("utf-8"), b"a\nb"])
        if name.endswith(":scale"):
            return draw(rng, [b"64", b"63.99", b"64.0001", b"65", b"1e6", b"16384", b"0.0001", b"1e-300", b"0", b"-1",
                              b"nan", b"inf", b"3", b"0.3", b"1e308"])
        if name.endswith(":time"):
            return draw(rng, [b"1e6", b"1000000", b"1000000.5", b"-1", b"-0", b"nan", b"inf", b"1e308", b"5e-324", b"0.1"])
        if name.endswith(":cells"):
            count = draw(rng, [0, 1, 2, 1000, 5000, 100_000])
            times = ",".join(str(i * 0.01) for i in range(count))
            return draw(rng, [("layout=contact columns=2 times=" + times).encode(),
                              ("layout=grid columns=%d times=%s" % (draw(rng, [1, 100, 10_000]), times)).encode(),
                              b"layout=grid columns=0 times=0", b"layout=grid columns=100000 times=0,1",
                              b"layout=nope columns=2 times=0", b"columns=2", b"layout=contact columns=-1 times=0",
                              b"layout=contact columns=2 times=nan,inf,-1", b"layout=grid columns=2 times=" + b"0," * 3,
                              b"layout=contact columns=18446744073709551616 times=0"])
        if name.endswith(":parameters"):
            pairs = [p.split("=", 1) for p in base["texts"].get(key, b"").decode("latin-1").split() if "=" in p]
            names = self.parameters.get(base["scene"], []) + ["nope"]
            for _ in range(1 + rng.randrange(3)):
                choice = rng.randrange(4)
                if choice == 0 and pairs:
                    pairs[rng.randrange(len(pairs))][1] = str(draw(rng, NUMBERS + NUMBER_TEXTS))
                elif choice == 1 and pairs:
                    del pairs[rng.randrange(len(pairs))]
                elif choice == 2:
                    pairs.append([draw(rng, names), str(draw(rng, NUMBERS + NUMBER_TEXTS + ["", "red", "1,0,0"]))])
                else:
                    pairs.append([draw(rng, names), draw(rng, ["100000", "10000", "256", "1e-300", "0"])])
            return " ".join("%s=%s" % (k, v) for k, v in pairs).encode("latin-1", "replace")
        if name.endswith(":background"):
            return draw(rng, [b"none", b"#ff0000", b"#ff000080", b"#zzzzzz", b"1,0,0,1", b"1,0,0", b"1,0,0,1,1",
                              b"2,2,2,2", b"-1,0,0,1", b"nan,0,0,1", b""])
        if name.endswith(":backend"):
            return draw(rng, [b"cpu", b"gl", b"egl", b"osmesa", b"nope", b"", b"auto"])
        if name.endswith(":scene"):
            return draw(rng, [s.encode() for s in scenes] + [b"nope", b"", b"ring ", b"RING"])
        if name.endswith(":speeds"):
            return draw(rng, [b"amplitude=1e308", b"frontPhase=-1 backPhase=nan", b"amplitude=0", b"x=1",
                              b"amplitude=1 amplitude=2", garbage_text(rng, 200)])
        if name.endswith(":loop"):
            return draw(rng, [b"seconds=1e300 frames=10000000 choice=search maxSpeedChange=1000%:", b"",
                              garbage_text(rng, 300)])
        return draw(rng, [b"x" * 100_000, garbage_text(rng, 1000), b""])

    def hostile_png(self, rng, base, notes, only=None):
        """The base file with one to three mutations of its chunks, then perhaps of its bytes;
        with `only`, that one mutation of its chunks and nothing else."""
        chunks = [list(c) for c in base["chunks"]]

        def text_at(key):
            return [i for i, c in enumerate(chunks) if c[0] == b"tEXt" and c[1].split(b"\0", 1)[0] == key]

        def before_idat():
            found = [i for i, c in enumerate(chunks) if c[0] == b"IDAT"]
            return found[0] if found else len(chunks)

        for op in [only] if only is not None else [rng.randrange(16) for _ in range(1 + rng.randrange(3))]:
            if op <= 3:
                key = draw(rng, self.png_keys)
                value = self.hostile_value(rng, key, base)
                places = text_at(key)
                if places:
                    chunks[places[0]] = [b"tEXt", key + b"\0" + value]
                else:
                    chunks.insert(before_idat(), [b"tEXt", key + b"\0" + value])
                notes.append("tEXt %s = %r" % (key.decode(), value[:60]) + (" (%d bytes)" % len(value)
                                                                                if len(value) > 60 else ""))
            elif op == 4:
                choice = rng.randrange(6)
                if choice == 0:
                    key = draw(rng, self.png_keys)
                    chunks.insert(before_idat(), [b"tEXt", key + b"\0" + self.hostile_value(rng, key, base)])
                    notes.append("a second tEXt %s" % key.decode())
                elif choice == 1:
                    chunks.insert(1, [b"tEXt", b"Throbber:scene"])
                    notes.append("a tEXt without its NUL")
                elif choice == 2:
                    chunks.insert(1, [b"tEXt", b"K" * draw(rng, [0, 80, 200]) + b"\0value"])
                    notes.append("a tEXt keyword of a length outside 1-79")
                elif choice == 3:
                    count = draw(rng, [999, 1001, 5000])
                    chunks[1:1] = [[b"tEXt", b"Throbber:time\0" + str(i).encode()] for i in range(count)]
                    notes.append("%d more tEXt chunks" % count)
                elif choice == 4:
                    chunks.insert(1, [b"tEXt", b"Comment\0" + b"c" * 100_000])
                    notes.append("a 100,000-character tEXt")
                else:
                    for i in text_at(draw(rng, self.png_keys)):
                        chunks[i] = [b"tEXt", chunks[i][1].replace(b"\0", b"\0" + garbage_text(rng, 20), 1)]
                    notes.append("garbage before a tEXt value")
            elif op == 5:
                width, height = draw(rng, HOSTILE_SIZES)
                depth, colour = draw(rng, [1, 2, 4, 8, 16, 0, 3, 32]), draw(rng, [0, 2, 3, 4, 6, 1, 5, 7])
                interlace = draw(rng, [0, 0, 1, 2])
                chunks[0] = ihdr(width, height, depth, colour, interlace, draw(rng, [0, 0, 0, 1]), draw(rng, [0, 0, 0, 1]))
                notes.append("IHDR %dx%d, %d-bit, colour type %d, interlace %d" % (width, height, depth, colour, interlace))
                if colour == 3 and rng.random() < 0.7:
                    chunks.insert(1, [b"PLTE", garbage_text(rng, 3 * draw(rng, [1, 2, 16, 256, 257]))])
                    notes.append("PLTE")
                if rng.random() < 0.3:
                    chunks.insert(1, [b"tRNS", garbage_text(rng, draw(rng, [1, 2, 6, 300]))])
                    notes.append("tRNS")
                if rng.random() < 0.5:
                    channels = CHANNELS.get(colour, 4)
                    length = raw_length(width, height, channels, depth, interlace) if width and height else 0
                    data = self.zero_stream(length) if 0 < length <= 64 << 20 else zlib.compress(
                        garbage_text(rng, draw(rng, [10, 1000, 100_000])))
                    chunks = [c for c in chunks if c[0] != b"IDAT"]
                    chunks[-1:-1] = idat_chunks(rng, data)
                    notes.append("IDAT replaced (%d bytes)" % len(data))
            elif op == 6:
                choice = rng.randrange(4)
                if choice == 0:
                    chunks.insert(rng.randrange(1, len(chunks)), ihdr(*draw(rng, HOSTILE_SIZES), 8, 6))
                    notes.append("IHDR twice")
                elif choice == 1:
                    idat = [c for c in chunks if c[0] == b"IDAT"]
                    chunks = idat + [c for c in chunks if c[0] != b"IDAT"]
                    notes.append("IDAT before IHDR")
                elif choice == 2:
                    kind = draw(rng, [b"IHDR", b"IDAT", b"IEND"])
                    chunks = [c for c in chunks if c[0] != kind]
                    notes.append("no %s" % kind.decode())
                else:
                    chunks.insert(rng.randrange(1, len(chunks)), [b"IEND", b""])
                    notes.append("IEND early")
            elif op == 7:
                middle = chunks[1:]
                rng.shuffle(middle)
                chunks = chunks[:1] + middle
                notes.append("chunks shuffled")
            elif op == 8:
                bomb = zlib.compress(bytes(8 << 20), 9)
                kind, data = draw(rng, [(b"zTXt", b"Comment\0\0" + bomb), (b"iCCP", b"icc\0\0" + bomb),
                                        (b"iTXt", b"Comment\0\1\0en\0\0" + bomb), (b"fuZz", garbage_text(rng, 100)),
                                        (b"FUZZ", b""), (b"tIME", b"\xff" * 7), (b"gAMA", b"\0\0\0\0"),
                                        (b"sBIT", b"\x09\x09\x09\x09"), (b"pHYs", b"\xff" * 9)])
                chunks.insert(rng.randrange(1, len(chunks)), [kind, data])
                notes.append("chunk %s inserted (%d bytes)" % (kind.decode(), len(data)))
            elif op == 9:
                idat = [c for c in chunks if c[0] == b"IDAT"]
                try:
                    raw = bytearray(zlib.decompress(b"".join(d for _, d in idat)))
                except zlib.error:
                    raw = bytearray(garbage_text(rng, 100))
                choice = rng.randrange(6)
                if choice == 0 and raw:
                    row = 1 + base["width"] * 4
                    raw[row * rng.randrange(max(1, len(raw) // row))] = draw(rng, [5, 7, 255])
                    stream = zlib.compress(bytes(raw))
                    notes.append("a row filter byte out of range")
                elif choice == 1:
                    stream = zlib.compress(bytes(raw) + bytes(draw(rng, [1, 1000, 1 << 20])))
                    notes.append("more image data than rows")
                elif choice == 2:
                    stream = zlib.compress(bytes(raw[:rng.randrange(len(raw) + 1)]))
                    notes.append("less image data than rows")
                elif choice == 3:
                    stream = zlib.compress(bytes(raw))
                    stream = stream[:-4] + bytes(4)
                    notes.append("Adler-32 damaged")
                elif choice == 4:
                    stream = zlib.compress(bytes(raw))[:-rng.randrange(1, 20)]
                    notes.append("zlib stream cut")
                else:
                    stream = zlib.compress(bytes(raw)) + garbage_text(rng, 50)
                    notes.append("bytes after the zlib stream")
                chunks = [c for c in chunks if c[0] != b"IDAT"]
                chunks[-1:-1] = idat_chunks(rng, stream)
            elif op == 10:
                chunks.insert(1, [b"PLTE", garbage_text(rng, 3 * draw(rng, [1, 256, 300]))])
                if rng.random() < 0.5:
                    chunks.insert(2, [b"tRNS", garbage_text(rng, draw(rng, [1, 4, 300]))])
                notes.append("PLTE (and tRNS) in an RGBA file")
            elif op == 11:
                # The scene again, on a canvas of up to 16,384 px a side: what reproduce must refuse
                # to draw when the file is smaller, and must not need gigabytes to compare.
                scale = draw(rng, [b"64", b"64", b"63.99", b"48", b"32"])
                places = text_at(b"Throbber:scale")
                if places:
                    chunks[places[0]] = [b"tEXt", b"Throbber:scale\0" + scale]
                places = text_at(b"Throbber:parameters")
                if places:
                    pairs = [p.split(b"=", 1) for p in chunks[places[0]][1].split(b"\0", 1)[1].split() if b"=" in p]
                    pairs = [[k, b"256" if k in (b"size", b"hudSize", b"width", b"height") else v] for k, v in pairs]
                    chunks[places[0]] = [b"tEXt", b"Throbber:parameters\0" + b" ".join(k + b"=" + v for k, v in pairs)]
                notes.append("tEXt scale %s with the canvas parameters at 256 pt" % scale.decode())
            elif op == 12:
                count = draw(rng, [1000, 5000, 20_000])
                times = ",".join("%g" % (i * 0.001) for i in range(count)).encode()
                value = b"layout=%s columns=%d times=%s" % (draw(rng, [b"contact", b"grid"]), draw(rng, [1, 2, 100]), times)
                places = text_at(b"Throbber:cells")
                if places:
                    chunks[places[0]] = [b"tEXt", b"Throbber:cells\0" + value]
                else:
                    chunks.insert(before_idat(), [b"tEXt", b"Throbber:cells\0" + value])
                notes.append("tEXt cells with %d times" % count)
            elif op == 13:
                width, height, colour, depth, interlace = draw(rng, ZERO_IMAGES)
                stream = self.zero_stream(raw_length(width, height, CHANNELS[colour], depth, interlace))
                chunks = [c for c in chunks if c[0] not in (b"IDAT", b"IHDR")]
                chunks.insert(0, ihdr(width, height, depth, colour, interlace))
                if colour == 3:
                    chunks.insert(1, [b"PLTE", bytes(6)])
                chunks[-1:-1] = idat_chunks(rng, stream)
                notes.append("a valid %dx%d image of zeros (colour type %d, %d-bit%s, %d bytes)" % (
                    width, height, colour, depth, ", Adam7" if interlace else "", len(stream)))
            else:
                text = [i for i, c in enumerate(chunks) if c[0] == b"tEXt"]
                if text:
                    moved = chunks.pop(draw(rng, text))
                    chunks.insert(draw(rng, [len(chunks), len(chunks) - 1]), moved)
                    notes.append("a tEXt moved after IDAT or IEND")
        data = bytearray(png_bytes(chunks))
        if only is None and rng.random() < 0.45:
            offsets = chunk_offsets(bytes(data))
            choice = rng.randrange(6)
            if choice <= 1 and offsets:
                at, length, kind = draw(rng, offsets)
                remaining = len(data) - at - 8
                value = draw(rng, [0x7FFFFFFF, 0xFFFFFFFF, 0x80000000, remaining + 1, remaining + 12, 1 << 24, length + 1])
                data[at:at + 4] = struct.pack(">I", value)
                notes.append("%s length field set to 0x%x" % (kind.decode("latin-1"), value))
            elif choice == 2:
                cut = rng.randrange(8, len(data))
                del data[cut:]
                notes.append("truncated at %d bytes" % cut)
            elif choice == 3:
                flips = rng.randrange(1, 9)
                for _ in range(flips):
                    data[rng.randrange(8, len(data))] ^= rng.randrange(1, 256)
                notes.append("%d bytes flipped" % flips)
            elif choice == 4 and offsets:
                at, length, kind = draw(rng, offsets)
                if at + 8 + length + 4 <= len(data):
                    data[at + 8 + length + rng.randrange(4)] ^= 1 << rng.randrange(8)
                    notes.append("%s CRC damaged" % kind.decode("latin-1"))
            else:
                data += draw(rng, [garbage_text(rng, 100), png_chunk(b"IDAT", b"xx"), PNG_SIGNATURE])
                notes.append("bytes after IEND")
        return bytes(data)

"""PNG bytes: chunks, filters, Adam7, IHDRs of every colour type and depth, exotic but valid
files with the RGBA8 pixels they decode to, and the declared sizes around the readers' limits."""

import struct
import zlib

from .values import draw


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
# Colour type and bit depth pairs the PNG specification allows.
VALID_DEPTHS = [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1), (3, 2), (3, 4), (3, 8),
                (4, 8), (4, 16), (6, 8), (6, 16)]
# Declared sizes around the readers' limits: the 2^25-pixel budget (8192 x 4096 and 5792 x 5792
# are within it, 5793 x 5793 is not), libpng's 65,536-pixel side, zero, and 32-bit edges.
HOSTILE_SIZES = [(65535, 65535), (5793, 5793), (5792, 5792), (8192, 4096), (8193, 4096), (65536, 1),
                 (65537, 1), (1, 65537), (0, 0), (0, 84), (84, 0), (2 ** 31 - 1, 1), (2 ** 31, 2 ** 31),
                 (0xFFFFFFFF, 0xFFFFFFFF), (84, 84), (85, 83), (1, 1), (16384, 2048), (4096, 8193)]
# Valid images of zeros at and past the budget, a few hundred KB compressed.
ZERO_IMAGES = [(5792, 5792, 6, 8, 0), (5792, 5792, 6, 8, 1), (8192, 4096, 0, 16, 1), (4096, 4096, 3, 1, 0),
               (5793, 5793, 6, 8, 0), (16384, 2048, 4, 8, 1), (8192, 4096, 2, 16, 0)]


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_chunks(data):
    """[kind, data] of every chunk of a well-formed file."""
    found, at = [], 8
    while at + 12 <= len(data):
        length, = struct.unpack(">I", data[at:at + 4])
        found.append([data[at + 4:at + 8], data[at + 8:at + 8 + length]])
        at += 12 + length
    return found


def png_bytes(chunks):
    return PNG_SIGNATURE + b"".join(png_chunk(kind, data) for kind, data in chunks)


def chunk_offsets(data):
    """(offset, length, kind) of each chunk as far as the file's own length fields lead."""
    found, at = [], 8
    while at + 12 <= len(data):
        length, = struct.unpack(">I", data[at:at + 4])
        found.append((at, length, data[at + 4:at + 8]))
        if at + 12 + length > len(data):
            break
        at += 12 + length
    return found


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def png_rows(chunks, width, height):
    """The unfiltered rows of an 8-bit RGBA, non-interlaced file's chunks (its IDATs inflated)."""
    return unfilter(zlib.decompress(b"".join(d for k, d in chunks if k == b"IDAT")), width, height, 4)


def unfilter(raw, width, height, bpp):
    """The rows of a non-interlaced image of whole-byte pixels."""
    stride, rows, prev, at = width * bpp, [], bytes(width * bpp), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif kind == 4:
                line[i] = (line[i] + paeth(a, b, prev[i - bpp] if i >= bpp else 0)) & 255
        rows.append(bytes(line))
        prev = line
    return rows


def filter_line(kind, line, prev, bpp):
    if kind == 0:
        return line
    out = bytearray(len(line))
    for i in range(len(line)):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        if kind == 1:
            predicted = a
        elif kind == 2:
            predicted = b
        elif kind == 3:
            predicted = (a + b) >> 1
        else:
            predicted = paeth(a, b, prev[i - bpp] if i >= bpp else 0)
        out[i] = (line[i] - predicted) & 255
    return bytes(out)


def pack_samples(values, depth):
    if depth == 8:
        return bytes(values)
    if depth == 16:
        return struct.pack(">%dH" % len(values), *values)
    out, acc, bits = bytearray(), 0, 0
    for value in values:
        acc, bits = (acc << depth) | value, bits + depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def scanlines(rows, channels, depth, rng):
    """Rows of sample tuples, packed and filtered with a random filter per row."""
    bpp = max(1, channels * depth // 8)
    out, prev = bytearray(), None
    for row in rows:
        line = pack_samples([v for pixel in row for v in pixel], depth)
        if prev is None:
            prev = bytes(len(line))
        kind = rng.randrange(5)
        out.append(kind)
        out += filter_line(kind, line, prev, bpp)
        prev = line
    return bytes(out)


def raw_image(pixels, width, height, channels, depth, interlace, rng):
    if not interlace:
        return scanlines(pixels, channels, depth, rng)
    raw = b""
    for x0, y0, dx, dy in ADAM7:
        if x0 < width and y0 < height:
            raw += scanlines([[pixels[y][x] for x in range(x0, width, dx)] for y in range(y0, height, dy)],
                             channels, depth, rng)
    return raw


def raw_length(width, height, channels, depth, interlace):
    def row(w):
        return 1 + (w * channels * depth + 7) // 8
    if not interlace:
        return height * row(width)
    total = 0
    for x0, y0, dx, dy in ADAM7:
        w, h = max(0, (width - x0 + dx - 1) // dx), max(0, (height - y0 + dy - 1) // dy)
        if w and h:
            total += h * row(w)
    return total


def ihdr(width, height, depth, colour, interlace=0, compression=0, filtering=0):
    return [b"IHDR", struct.pack(">IIBBBBB", width & 0xFFFFFFFF, height & 0xFFFFFFFF, depth, colour,
                                 compression, filtering, interlace)]


def idat_chunks(rng, stream):
    """A zlib stream as one IDAT, or split into pieces as small as one byte."""
    size = draw(rng, [len(stream) or 1, len(stream) or 1, 1, 7, 100, 4096])
    return [[b"IDAT", stream[at:at + size]] for at in range(0, len(stream), size)] or [[b"IDAT", b""]]


def rgba_png(rgba, width, height):
    """A plain RGBA8 file of these pixels: the twin an exotic file must compare equal to."""
    raw = b"".join(b"\x00" + rgba[y * width * 4:(y + 1) * width * 4] for y in range(height))
    return png_bytes([ihdr(width, height, 8, 6), [b"IDAT", zlib.compress(raw, 6)], [b"IEND", b""]])


def exotic_png(rng):
    """A valid file of any colour type and bit depth, interlaced or not, with or without PLTE
    and tRNS, and the RGBA8 pixels it decodes to: 16-bit samples as round(v / 257), low bit
    depths scaled to 0-255, tRNS matching an exact sample."""
    colour, depth = draw(rng, VALID_DEPTHS)
    width, height = draw(rng, [1, 2, 3, 5, 7, 8, 9, 16, 31, 40]), draw(rng, [1, 2, 3, 5, 7, 8, 9, 16, 31, 40])
    interlace, channels, top = rng.randrange(2), CHANNELS[colour], (1 << depth) - 1
    extra, palette, alphas, transparent = [], None, None, None
    if colour == 3:
        palette = [tuple(rng.randrange(256) for _ in range(3)) for _ in range(rng.randrange(1, (1 << depth) + 1))]
        extra.append([b"PLTE", b"".join(bytes(entry) for entry in palette)])
        if rng.random() < 0.6:
            alphas = [rng.randrange(256) for _ in range(rng.randrange(len(palette) + 1))]
            extra.append([b"tRNS", bytes(alphas)])
    elif colour in (0, 2) and rng.random() < 0.5:
        transparent = tuple(rng.randrange(top + 1) for _ in range(channels))
        extra.append([b"tRNS", struct.pack(">%dH" % channels, *transparent)])

    def eight(value):
        return round(value / 257) if depth == 16 else value * 255 // top

    pixels, rgba = [], bytearray()
    for _ in range(height):
        row = []
        for _ in range(width):
            if colour == 3:
                index = rng.randrange(len(palette))
                sample = (index,)
                alpha = alphas[index] if alphas and index < len(alphas) else 255
                rgba += bytes(palette[index] + (alpha,))
            else:
                sample = tuple(rng.randrange(top + 1) for _ in range(channels))
                if transparent and rng.random() < 0.2:
                    sample = transparent
                if colour == 0:
                    rgba += bytes((eight(sample[0]),) * 3 + (0 if sample == transparent else 255,))
                elif colour == 2:
                    rgba += bytes(tuple(eight(v) for v in sample) + (0 if sample == transparent else 255,))
                elif colour == 4:
                    rgba += bytes((eight(sample[0]),) * 3 + (eight(sample[1]),))
                else:
                    rgba += bytes(eight(v) for v in sample)
            row.append(sample)
        pixels.append(row)
    if rng.random() < 0.3:
        extra.insert(0, [b"gAMA", struct.pack(">I", draw(rng, [45455, 100000, 1, 0xFFFFFFFF]))])
    if rng.random() < 0.2:
        extra.insert(0, [b"sRGB", bytes([rng.randrange(4)])])
    stream = zlib.compress(raw_image(pixels, width, height, channels, depth, interlace, rng), rng.randrange(10))
    chunks = [ihdr(width, height, depth, colour, interlace)] + extra + idat_chunks(rng, stream) + [[b"IEND", b""]]
    note = "exotic: colour type %d, %d-bit, %dx%d, %s%s" % (
        colour, depth, width, height, "Adam7" if interlace else "not interlaced",
        ", " + "+".join(k.decode() for k, _ in extra) if extra else "")
    return png_bytes(chunks), bytes(rgba), width, height, note


def garbage_text(rng, length):
    """NUL-free bytes of every other value."""
    return bytes(rng.randrange(1, 256) for _ in range(length))

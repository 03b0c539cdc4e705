"""What a case left behind: fingerprints of a directory (what changed, in words), input sizes,
writes outside the scratch directory, PNGs that are not whole, children still running."""

import hashlib
import os
import signal
import stat
import struct
import time
import zlib

from .png_format import PNG_SIGNATURE


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def describe(path):
    """What is at a path, without following a final link or opening a FIFO or device: type,
    inode, permissions, and the content of a regular file (its SHA-256, or size and mtime past
    16 MiB), a link's target or a device's numbers."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    kind = stat.S_IFMT(st.st_mode)
    if stat.S_ISREG(st.st_mode):
        content = file_sha256(path) if st.st_size <= 16 << 20 else (st.st_size, st.st_mtime_ns)
    elif stat.S_ISLNK(st.st_mode):
        content = os.readlink(path)
    elif stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        content = st.st_rdev
    else:
        content = None
    return (kind, st.st_ino, stat.S_IMODE(st.st_mode), content)


KIND_NAMES = {stat.S_IFREG: "file", stat.S_IFDIR: "directory", stat.S_IFLNK: "symlink", stat.S_IFIFO: "FIFO",
              stat.S_IFCHR: "character device", stat.S_IFBLK: "block device", stat.S_IFSOCK: "socket"}


def fingerprint(root):
    """describe() of everything under root (links not followed), by relative path."""
    found = {}
    for base, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(base, name)
            found[os.path.relpath(path, root)] = describe(path)
    return found


def fingerprint_change(before, after, allowed=()):
    """The first difference between two fingerprints, in words; None when there is none."""
    for rel in sorted(before):
        if rel not in after:
            return "removed %s" % rel
        old, new = before[rel], after[rel]
        if old != new:
            if new is None or old[0] != new[0]:
                return "replaced the %s %s" % (KIND_NAMES.get(old[0], "entry"), rel)
            if old[1] != new[1]:
                return "replaced %s by another inode" % rel
            if old[2] != new[2]:
                return "changed the mode of %s from %o to %o" % (rel, old[2], new[2])
            return "changed the content of %s" % rel
    for rel in sorted(after):
        if rel not in before and rel not in allowed:
            return "created %s" % rel
    return None


def input_size(directory):
    """Bytes of the regular files under directory, each inode once; a sparse file counts the
    blocks it occupies (the 2 GiB file of zeros a manifest case may list occupies none)."""
    seen, total = set(), 0
    for base, _, files in os.walk(directory):
        for name in files:
            st = os.lstat(os.path.join(base, name))
            if stat.S_ISREG(st.st_mode) and (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += min(st.st_size, st.st_blocks * 512)
    return total


def relative_names(directory):
    return {os.path.relpath(os.path.join(base, name), directory)
            for base, dirs, files in os.walk(directory) for name in dirs + files}


def outside_entries(directory):
    """What appeared beside the case directory: it lies at OUTER/up/case and OUTER holds only
    `up`, `up` only `case`, so a write one or two levels above it lands where this sees it."""
    up = os.path.dirname(directory)
    outer = os.path.dirname(up)
    return (["../" + name for name in sorted(os.listdir(up)) if name != "case"]
            + ["../../" + name for name in sorted(os.listdir(outer)) if name != "up"])


def png_whole(data):
    """Why bytes are not a whole PNG (signature, every chunk's CRC, IHDR first, IEND last, the
    image data inflating to its end), or None."""
    if data[:8] != PNG_SIGNATURE:
        return "no PNG signature"
    at, kinds, stream = 8, [], zlib.decompressobj()
    while at < len(data):
        if at + 12 > len(data):
            return "cut inside a chunk header at byte %d" % at
        length, = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        if at + 12 + length > len(data):
            return "cut inside %s" % kind.decode("latin-1")
        crc, = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        if crc != zlib.crc32(kind + body) & 0xFFFFFFFF:
            return "a bad CRC in %s" % kind.decode("latin-1")
        if kind == b"IDAT":
            try:
                stream.decompress(body, 1 << 16)
                while stream.unconsumed_tail:
                    stream.decompress(stream.unconsumed_tail, 1 << 16)
            except zlib.error as error:
                return "image data that does not inflate (%s)" % error
        kinds.append(kind)
        at += 12 + length
    if not kinds or kinds[0] != b"IHDR" or kinds[-1] != b"IEND":
        return "no IHDR first or IEND last"
    if not stream.eof:
        return "image data cut short"
    return None


def whole_pngs(directory, before):
    """The first PNG a run wrote under directory that is not whole, in words; None when all are."""
    for rel in sorted(relative_names(directory) - before):
        path = os.path.join(directory, rel)
        if rel.endswith(".png") and os.path.isfile(path) and not os.path.islink(path):
            with open(path, "rb") as f:
                why = png_whole(f.read())
            if why:
                return "left %s, which is not a whole PNG: %s" % (rel, why)
    return None


def left_children(directory):
    """A process still running after the case whose command line or working directory is in
    the case directory (an ffmpeg child a stopped run did not kill), in words; None when none."""
    found = None
    for _ in range(20):
        found = None
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    command = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
                cwd = os.readlink("/proc/%s/cwd" % entry)
            except OSError:
                continue
            if directory in command or cwd == directory or cwd.startswith(directory + "/"):
                found = "left a process running: pid %s, %s" % (entry, command[:120])
                break
        if found is None:
            return None
        # A child killed as its parent exits may take a moment to go.
        time.sleep(0.05)
    if found:
        for entry in os.listdir("/proc"):
            pid = int(entry) if entry.isdigit() else None
            if pid and found.startswith("left a process running: pid %d," % pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
    return found


def shell_quote(argument):
    return "'" + argument.replace("'", "'\\''") + "'"

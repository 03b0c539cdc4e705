import Throbber

/// A ZIP archive's directory, read from bytes already in memory with every offset and size checked
/// before it is used: the end of central directory, the central directory, and each entry's local
/// header, with nothing inflated yet (`contents(of:bound:)` does that, one entry at a time).
///
/// Only what a dotLottie writer produces is taken: one disk, no ZIP64, no encryption, stored (0)
/// and deflated (8) entries, each entry's bytes apart from every other's. Entry names are data:
/// they are compared, never joined to a directory, and a name that could mean a path elsewhere
/// (`..`, absolute, a backslash, a drive letter, a NUL) refuses the archive.
struct ZipArchive {
    /// One file in the archive, as its central directory lists it and its local header agrees.
    struct Entry {
        /// The name as stored, decoded as UTF-8.
        var name: String
        /// 0 stored, 8 deflated.
        var method: UInt16
        var crc: UInt32
        var storedSize: Int
        var inflatedSize: Int
        /// Where the entry's stored bytes begin in the archive.
        var dataStart: Int
        /// A directory (a name ending in `/`, nothing stored).
        var isDirectory: Bool { name.hasSuffix("/") }
    }

    /// The archive's bytes.
    let bytes: [UInt8]
    /// The entries in central-directory order.
    let entries: [Entry]
    /// The entries by name (names are unique).
    let byName: [String: Int]

    static let localSignature: UInt32 = 0x0403_4b50
    static let centralSignature: UInt32 = 0x0201_4b50
    static let endSignature: UInt32 = 0x0605_4b50
    static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    static let descriptorSignature: UInt32 = 0x0807_4b50
    /// The end of central directory record without its comment.
    static let endLength = 22
    static let centralLength = 46
    static let localLength = 30

    /// Reads the directory of the archive in `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: the whole archive, at most `largestArchive` bytes.
    ///   - largestArchive: the largest archive taken.
    ///   - largestEntries: the most entries the directory may list.
    ///   - largestEntry: the largest size any entry may declare once inflated.
    ///   - inflationRatio: the largest ratio of an entry's inflated size to its stored size.
    /// - Throws: `ArchiveFailure` naming the entry at fault where there is one.
    init(_ bytes: [UInt8], largestArchive: Int, largestEntries: Int, largestEntry: Int, inflationRatio: Int) throws {
        guard bytes.count <= largestArchive else {
            throw ArchiveFailure("is \(bytes.count) bytes; at most \(largestArchive) are read")
        }
        let reader = ByteReader(bytes)
        let end = try Self.endRecord(reader)
        guard end.entries <= largestEntries else {
            throw ArchiveFailure("lists \(end.entries) entries; at most \(largestEntries) are read")
        }
        guard end.directoryOffset <= end.at, end.directorySize <= end.at - end.directoryOffset else {
            throw ArchiveFailure("its central directory (\(end.directorySize) bytes at \(end.directoryOffset)) lies outside the archive")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(end.entries)
        var byName: [String: Int] = [:]
        var spans: [(start: Int, end: Int, name: String)] = []
        var at = end.directoryOffset
        let directoryEnd = end.directoryOffset + end.directorySize
        for _ in 0..<end.entries {
            let (entry, span, next) = try Self.centralEntry(reader, at: at, directoryEnd: directoryEnd,
                                                            largestEntry: largestEntry, inflationRatio: inflationRatio,
                                                            dataEnd: end.directoryOffset)
            guard byName[entry.name] == nil else { throw ArchiveFailure(entry: entry.name, "is listed twice") }
            byName[entry.name] = entries.count
            entries.append(entry)
            spans.append((span.lowerBound, span.upperBound, entry.name))
            at = next
        }
        guard at == directoryEnd else {
            throw ArchiveFailure("its central directory holds \(directoryEnd - at) bytes after its \(end.entries) entries")
        }
        spans.sort { $0.start < $1.start }
        for (earlier, later) in zip(spans, spans.dropFirst()) where later.start < earlier.end {
            throw ArchiveFailure(entry: later.name, "overlaps entry '\(ThrobberError.echoed(earlier.name))'")
        }
        self.bytes = bytes
        self.entries = entries
        self.byName = byName
    }

    /// The end of central directory: where it is, how many entries, where the directory lies.
    private static func endRecord(_ reader: ByteReader) throws -> (at: Int, entries: Int, directorySize: Int, directoryOffset: Int) {
        let count = reader.count
        guard count >= endLength else { throw ArchiveFailure("is \(count) bytes, too short to be a ZIP archive") }
        // The record is the last thing in the file, followed only by its comment (at most 65,535
        // bytes): the scan backwards is bounded, and a signature inside a comment is passed over
        // because its comment length would not reach the end of the file exactly.
        let lowest = max(0, count - endLength - 0xFFFF)
        var at = count - endLength
        while at >= lowest {
            if reader.u32(at) == endSignature, at + endLength + Int(reader.u16(at + 20)) == count { break }
            at -= 1
        }
        guard at >= lowest else { throw ArchiveFailure("has no end of central directory; it is not a ZIP archive or it is cut short") }
        let disk = reader.u16(at + 4), directoryDisk = reader.u16(at + 6)
        let onDisk = reader.u16(at + 8), total = reader.u16(at + 10)
        let size = reader.u32(at + 12), offset = reader.u32(at + 16)
        if total == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF
            || (at >= 20 && reader.u32(at - 20) == zip64LocatorSignature) {
            throw ArchiveFailure("is a ZIP64 archive; only plain ZIP is read")
        }
        guard disk == 0, directoryDisk == 0, onDisk == total else {
            throw ArchiveFailure("spans several disks; only a single-file archive is read")
        }
        return (at, Int(total), Int(size), Int(offset))
    }

    /// One central directory header at `at`, checked against its local header: the entry, the
    /// span of the archive it occupies (local header, data, descriptor) and where the next header is.
    private static func centralEntry(_ reader: ByteReader, at: Int, directoryEnd: Int, largestEntry: Int,
                                     inflationRatio: Int, dataEnd: Int) throws -> (Entry, Range<Int>, Int) {
        guard at <= directoryEnd - centralLength, reader.u32(at) == centralSignature else {
            throw ArchiveFailure("its central directory is damaged at byte \(at)")
        }
        let flags = reader.u16(at + 8), method = reader.u16(at + 10)
        let crc = reader.u32(at + 16)
        let stored = reader.u32(at + 20), inflated = reader.u32(at + 24)
        let nameLength = Int(reader.u16(at + 28)), extraLength = Int(reader.u16(at + 30))
        let commentLength = Int(reader.u16(at + 32))
        let localOffset = reader.u32(at + 42)
        let next = at + centralLength + nameLength + extraLength + commentLength
        guard next <= directoryEnd else { throw ArchiveFailure("its central directory is cut short at byte \(at)") }
        let nameBytes = reader.slice(at + centralLength, nameLength)
        let name = try entryName(nameBytes)
        let failure = { (message: String) in ArchiveFailure(entry: name, message) }
        if flags & 0x0001 != 0 || flags & 0x0040 != 0 { throw failure("is encrypted; encrypted entries are not read") }
        guard method == 0 || method == 8 else {
            throw failure("uses compression method \(method); only stored (0) and deflate (8) are read")
        }
        let extra = reader.slice(at + centralLength + nameLength, extraLength)
        if stored == 0xFFFF_FFFF || inflated == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF || hasZip64Field(extra) {
            throw failure("has ZIP64 sizes; only plain ZIP is read")
        }
        let storedSize = Int(stored), inflatedSize = Int(inflated)
        guard inflatedSize <= largestEntry else {
            throw failure("declares \(inflatedSize) bytes inflated; at most \(largestEntry) are read")
        }
        if method == 0, storedSize != inflatedSize {
            throw failure("is stored but declares \(storedSize) bytes stored and \(inflatedSize) inflated")
        }
        // Refused on the declared sizes, before anything is allocated; inflating then stops at the
        // declared size, so a stream that would inflate further cannot get round this.
        if method == 8, inflatedSize > storedSize * inflationRatio {
            throw failure("inflates \(storedSize) bytes to \(inflatedSize), a ratio over \(inflationRatio)")
        }
        let local = Int(localOffset)
        guard local <= dataEnd - localLength, reader.u32(local) == localSignature else {
            throw failure("has no local header at byte \(local)")
        }
        let localFlags = reader.u16(local + 6), localMethod = reader.u16(local + 8)
        let localNameLength = Int(reader.u16(local + 26)), localExtraLength = Int(reader.u16(local + 28))
        let dataStart = local + localLength + localNameLength + localExtraLength
        guard dataStart <= dataEnd, storedSize <= dataEnd - dataStart else {
            throw failure("its \(storedSize) stored bytes at byte \(local) run past the entries")
        }
        if reader.u32(local + 18) == 0xFFFF_FFFF || reader.u32(local + 22) == 0xFFFF_FFFF
            || hasZip64Field(reader.slice(local + localLength + localNameLength, localExtraLength)) {
            throw failure("has ZIP64 sizes in its local header; only plain ZIP is read")
        }
        guard reader.slice(local + localLength, localNameLength) == nameBytes, localMethod == method,
              localFlags & 0x0009 == flags & 0x0009 else {
            throw failure("its local header does not match the central directory")
        }
        var spanEnd = dataStart + storedSize
        if flags & 0x0008 != 0 {
            spanEnd = try descriptorEnd(reader, at: spanEnd, dataEnd: dataEnd, crc: crc, stored: stored,
                                        inflated: inflated, failure: failure)
        } else if reader.u32(local + 14) != crc || reader.u32(local + 18) != stored || reader.u32(local + 22) != inflated {
            throw failure("its local header's CRC or sizes differ from the central directory's")
        }
        let entry = Entry(name: name, method: method, crc: crc, storedSize: storedSize, inflatedSize: inflatedSize,
                          dataStart: dataStart)
        if entry.isDirectory, inflatedSize != 0 { throw failure("is a directory with \(inflatedSize) bytes") }
        return (entry, local..<spanEnd, next)
    }

    /// The end of the data descriptor that follows an entry's data, which must repeat the central
    /// directory's CRC and sizes (with or without its optional signature).
    private static func descriptorEnd(_ reader: ByteReader, at: Int, dataEnd: Int, crc: UInt32, stored: UInt32,
                                      inflated: UInt32, failure: (String) -> ArchiveFailure) throws -> Int {
        for start in [at + 4, at] where start + 12 <= dataEnd && (start == at || reader.u32(at) == descriptorSignature) {
            if reader.u32(start) == crc, reader.u32(start + 4) == stored, reader.u32(start + 8) == inflated {
                return start + 12
            }
        }
        throw failure("its data descriptor is missing or differs from the central directory")
    }

    /// The 32-bit little-endian value at `at` (zero past the end), for finding records in tests.
    static func signature(in bytes: [UInt8], at: Int) -> UInt32 { ByteReader(bytes).u32(at) }

    /// Whether an extra field holds a ZIP64 record (header ID 0x0001).
    private static func hasZip64Field(_ extra: ArraySlice<UInt8>) -> Bool {
        let reader = ByteReader(Array(extra))
        var at = 0
        while at + 4 <= reader.count {
            if reader.u16(at) == 0x0001 { return true }
            at += 4 + Int(reader.u16(at + 2))
        }
        return false
    }

    /// An entry's name as a string, refused when it is not UTF-8 or could name a place outside
    /// the archive if some later code did join it to a directory.
    static func entryName(_ bytes: ArraySlice<UInt8>) throws -> String {
        guard !bytes.isEmpty else { throw ArchiveFailure("has an entry with an empty name") }
        guard let name = String(validating: bytes, as: UTF8.self) else {
            throw ArchiveFailure("has an entry whose name is not UTF-8")
        }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        let unsafe = name.hasPrefix("/") || bytes.contains(0) || bytes.contains(UInt8(ascii: "\\"))
            || components.contains("..") || components.contains(".")
            || (components.first.map { $0.count == 2 && $0.hasSuffix(":") } ?? false)
            || components.dropLast().contains("")
        if unsafe { throw ArchiveFailure(entry: name, "is not a plain relative name (no '..', '.', leading '/', '\\', drive or NUL)") }
        return name
    }
}

/// Why an archive was refused, with the entry at fault where there is one; `DotLottieArchive`
/// turns it into one line naming the file.
struct ArchiveFailure: Error {
    var entry: String?
    var message: String

    init(entry: String? = nil, _ message: String) {
        self.entry = entry
        self.message = message
    }
}

/// Little-endian reads at offsets the caller has checked against `count`; a read past the end
/// gives zeros rather than trapping, so a check forgotten is a refusal, never a crash.
struct ByteReader {
    let bytes: [UInt8]
    var count: Int { bytes.count }

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func u8(_ at: Int) -> UInt8 { at >= 0 && at < bytes.count ? bytes[at] : 0 }
    func u16(_ at: Int) -> UInt16 { UInt16(u8(at)) | UInt16(u8(at + 1)) << 8 }
    func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
    func slice(_ at: Int, _ length: Int) -> ArraySlice<UInt8> {
        let start = min(max(at, 0), bytes.count)
        return bytes[start..<min(start + max(length, 0), bytes.count)]
    }
}

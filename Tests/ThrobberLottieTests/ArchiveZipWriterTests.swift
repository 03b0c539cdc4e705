import CZlib
import Testing
@testable import ThrobberLottie

/// A ZIP writer for the tests, with a handle on every field a hostile archive lies in.
struct TestZip {
    enum Descriptor { case none, signed, unsigned, wrongCRC }

    struct Entry {
        var name: String
        var data: [UInt8]
        var method: UInt16 = 8
        var flags: UInt16 = 0
        var extra: [UInt8] = []
        var descriptor = Descriptor.none
        /// Overrides of what the headers say, each nil for the truth.
        var crc: UInt32?
        var localCRC: UInt32?
        var declaredSize: UInt32?
        var localName: String?
        var rawName: [UInt8]?
        /// Bytes stored instead of the data's deflate stream.
        var storedOverride: [UInt8]?

        init(_ name: String, _ data: [UInt8], method: UInt16 = 8, rawName: [UInt8]? = nil) {
            self.name = name
            self.data = data
            self.method = method
            self.rawName = rawName
        }
    }

    var entries: [Entry]
    /// Overrides the end record's entry counts.
    var entryCount: UInt16?
    /// Puts a ZIP64 end-of-central-directory locator before the end record.
    var zip64Locator = false
    /// Stores the last entry's local record as the data of the one before it (which must be stored).
    var nestLastInPrevious = false

    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        var nestedAt: Int?
        for (index, entry) in entries.enumerated() {
            let nameBytes = entry.rawName ?? Array(entry.name.utf8)
            let realCRC = Self.crc(entry.data)
            let crc = entry.crc ?? realCRC
            var stored = entry.storedOverride ?? (entry.method == 8 ? Self.deflate(entry.data) : entry.data)
            let isNester = nestLastInPrevious && index == entries.count - 2
            let isNested = nestLastInPrevious && index == entries.count - 1
            if isNester { stored = Self.localRecord(entries[index + 1]) }
            let inflated = entry.declaredSize ?? UInt32(isNester ? stored.count : entry.data.count)
            let entryCRC = isNester ? Self.crc(stored) : crc
            let described = entry.descriptor != .none
            let flags = entry.flags | (described ? 0x0008 : 0)
            let offset = isNested ? nestedAt! : out.count
            if !isNested {
                if isNester { nestedAt = out.count + 30 + nameBytes.count }
                out += Self.u32(ZipArchive.localSignature) + Self.u16(20) + Self.u16(flags) + Self.u16(entry.method)
                out += Self.u16(0) + Self.u16(0x21)
                out += described ? [UInt8](repeating: 0, count: 12)
                    : Self.u32(entry.localCRC ?? entryCRC) + Self.u32(UInt32(stored.count)) + Self.u32(inflated)
                out += Self.u16(UInt16(entry.localName.map { $0.utf8.count } ?? nameBytes.count)) + Self.u16(UInt16(entry.extra.count))
                out += entry.localName.map { Array($0.utf8) } ?? nameBytes
                out += entry.extra + stored
                switch entry.descriptor {
                case .none: break
                case .signed: out += Self.u32(ZipArchive.descriptorSignature) + Self.u32(entryCRC) + Self.u32(UInt32(stored.count)) + Self.u32(inflated)
                case .unsigned: out += Self.u32(entryCRC) + Self.u32(UInt32(stored.count)) + Self.u32(inflated)
                case .wrongCRC: out += Self.u32(entryCRC ^ 1) + Self.u32(UInt32(stored.count)) + Self.u32(inflated)
                }
            }
            central += Self.u32(ZipArchive.centralSignature) + Self.u16(20) + Self.u16(20) + Self.u16(flags) + Self.u16(entry.method)
            central += Self.u16(0) + Self.u16(0x21) + Self.u32(entryCRC) + Self.u32(UInt32(stored.count)) + Self.u32(inflated)
            central += Self.u16(UInt16(nameBytes.count)) + Self.u16(UInt16(entry.extra.count)) + Self.u16(0)
            central += Self.u16(0) + Self.u16(0) + Self.u32(0) + Self.u32(UInt32(offset))
            central += nameBytes + entry.extra
        }
        let directoryOffset = out.count
        out += central
        if zip64Locator {
            out += Self.u32(ZipArchive.zip64LocatorSignature) + [UInt8](repeating: 0, count: 16)
        }
        let count = entryCount ?? UInt16(entries.count)
        out += Self.u32(ZipArchive.endSignature) + Self.u16(0) + Self.u16(0) + Self.u16(count) + Self.u16(count)
        out += Self.u32(UInt32(central.count)) + Self.u32(UInt32(directoryOffset)) + Self.u16(0)
        return out
    }

    /// An entry's local record on its own (header and stored bytes), as a nested entry is stored.
    static func localRecord(_ entry: Entry) -> [UInt8] {
        let name = Array(entry.name.utf8)
        return u32(ZipArchive.localSignature) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0x21) + u32(crc(entry.data))
            + u32(UInt32(entry.data.count)) + u32(UInt32(entry.data.count)) + u16(UInt16(name.count)) + u16(0) + name + entry.data
    }

    static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func u32(_ value: UInt32) -> [UInt8] { u16(UInt16(value & 0xFFFF)) + u16(UInt16(value >> 16)) }

    static func crc(_ data: [UInt8]) -> UInt32 {
        data.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    /// A raw deflate stream of `data` (zlib at level 9, no wrapper), as ZIP stores it.
    static func deflate(_ data: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        precondition(deflateInit2_(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                                   Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 16)
        var input = data
        let produced = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                precondition(CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END)
                return target.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<produced])
    }
}

/// The writer's own check: what it deflates, the reader inflates back, so a refusal in the other
/// tests is the reader's doing and not a writer's slip.
struct ArchiveZipWriterTests {
    @Test(arguments: [0, 1, 100, 70_000])
    func deflatedEntriesRoundTrip(length: Int) throws {
        let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 13) }
        let bytes = TestZip(entries: [.init("x.bin", data)]).bytes()
        let zip = try ZipArchive(bytes, largestArchive: 1 << 20, largestEntries: 4, largestEntry: 1 << 20, inflationRatio: 1000)
        #expect(zip.entries.map(\.name) == ["x.bin"])
        #expect(try zip.contents(named: "x.bin", bound: 1 << 20) == data)
    }
}

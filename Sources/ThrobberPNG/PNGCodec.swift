import CPNGCodec
import Foundation
import Throbber

/// PNG encoding and decoding through libpng, with no `setjmp` crossing a Swift frame.
public enum PNGCodec {
    /// Encoder settings (zlib level and strategy, row filters).
    public struct Settings: Sendable, Equatable {
        /// zlib level 0 (store) … 9 (smallest).
        public var level: Int
        /// zlib strategy: 0 default, 1 filtered, 2 Huffman only, 3 RLE, 4 fixed; nil keeps libpng's.
        public var strategy: Int?
        /// PNG row filters as a `PNG_FILTER_*` bit set; nil lets libpng choose per row.
        public var filters: Int?

        /// No row filter (`PNG_FILTER_NONE`).
        public static let noFilter = 0x08

        /// Creates settings; the defaults are the measured choice for batch work.
        public init(level: Int = defaultPNGLevel, strategy: Int? = nil, filters: Int? = Settings.noFilter) {
            self.level = level
            self.strategy = strategy
            self.filters = filters
        }
    }

    /// Encodes an image as an 8-bit RGBA PNG (straight alpha), with optional tEXt chunks.
    ///
    /// - Throws: a backend-failure error with libpng's message.
    public static func encode(_ image: Image, settings: Settings = Settings(), text: [(String, String)] = []) throws -> Data {
        var buffer = CPNGCodec_Buffer()
        var message = [CChar](repeating: 0, count: 256)
        let config = CPNGCodec_Settings(level: Int32(settings.level), strategy: Int32(settings.strategy ?? -1),
                                        filters: Int32(settings.filters ?? -1))
        let status = withCText(text) { pairs in
            let chunks = pairs.map { CPNGCodec_Text(key: $0.key, text: $0.text) }
            return image.pixels.withUnsafeBufferPointer { pixels in
                chunks.withUnsafeBufferPointer { chunkPointer in
                    CPNGCodec_encode(pixels.baseAddress!, UInt32(image.width), UInt32(image.height), config,
                                     chunkPointer.baseAddress, Int32(chunks.count), &buffer, &message, message.count)
                }
            }
        }
        guard status == 0, let bytes = buffer.data else {
            throw ThrobberError("PNG encoding failed: \(String(nulTerminated: message))", kind: .backendFailure)
        }
        defer { CPNGCodec_free(&buffer) }
        return Data(bytes: bytes, count: buffer.size)
    }

    /// The most pixels (width × height) a PNG may declare for any reader here to decode it:
    /// 2²⁵ = 33,554,432, e.g. 8192×4096 or 5792×5792, 128 MiB as RGBA8. It is checked on the
    /// IHDR before any pixel memory is allocated, so a small file that declares a huge image (a
    /// "PNG bomb") is refused at once. `throbber compare` reads in bands, except interlaced files,
    /// which are decoded whole within this budget. docs/parity.md ("Comparing two files") documents it.
    public static let pixelBudget = 1 << 25

    /// The widest or tallest PNG any reader accepts (libpng's user limits), which also bounds one
    /// row: 65,536 pixels, 512 KiB at 16 bits per channel.
    public static let maxSide = 1 << 16

    /// The most a compressed ancillary chunk (zTXt, compressed iTXt, iCCP) may inflate to — libpng
    /// skips one that would grow past it — and how many ancillary chunks are kept, so that text
    /// chunks cannot be a bomb either. (A stored tEXt is bounded by the file's own size.)
    public static let maxChunkBytes = 4 << 20
    /// See ``maxChunkBytes``.
    public static let maxChunks = 1000

    static func limits(pixelBudget: Int) -> CPNGCodec_Limits {
        CPNGCodec_Limits(maxPixels: UInt64(max(0, pixelBudget)), maxSide: UInt32(maxSide),
                         maxChunkBytes: UInt32(maxChunkBytes), maxChunks: UInt32(maxChunks))
    }

    /// Decodes any PNG — palette, grey, grey+alpha, RGB or RGBA, 1 to 16 bits, with or without
    /// tRNS, interlaced or not — into straight-alpha RGBA8, the stored samples themselves: 16-bit
    /// values become round(v / 257) and no gamma is applied (a gAMA, sRGB or iCCP chunk changes
    /// nothing), as Pillow or ImageMagick read them without colour management.
    ///
    /// The declared size is checked against `pixelBudget` before anything is allocated; rows are
    /// then decoded one by one straight into the result (a 16-bit row is reduced as it comes), so
    /// the memory used is the RGBA8 image and one row. An interlaced image is decoded pass by pass
    /// into the same RGBA8 image.
    ///
    /// - Parameter pixelBudget: the most pixels the PNG may declare (default ``pixelBudget``).
    /// - Throws: a data error (exit 65) when the bytes are not a readable PNG (libpng's reason:
    ///   truncated, corrupt, a side over ``maxSide``) or when the PNG declares more pixels than
    ///   the budget (its size and the budget are named).
    public static func decode(_ data: Data, pixelBudget: Int = PNGCodec.pixelBudget) throws -> Image {
        var message = [CChar](repeating: 0, count: 320)
        var header = CPNGCodec_Header()
        return try data.withUnsafeBytes { bytes -> Image in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count > 0 else {
                throw ThrobberError("not a PNG: empty input", kind: .badData)
            }
            var opened: OpaquePointer?
            let status = CPNGCodec_openReader(base, bytes.count, limits(pixelBudget: pixelBudget), &header, &opened,
                                              &message, message.count)
            if status == 1 { throw overBudget(width: Int(header.width), height: Int(header.height), budget: pixelBudget) }
            guard status == 0, let reader = opened else { throw unreadable(message) }
            defer { CPNGCodec_closeReader(reader) }
            let width = Int(header.width), height = Int(header.height)
            let pixels = try [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
                guard CPNGCodec_readRows(reader, buffer.baseAddress!, UInt32(height), &message, message.count) == 0 else {
                    throw unreadable(message)
                }
                count = width * height * 4
            }
            return Image(width: width, height: height, pixels: pixels)
        }
    }

    /// Decodes a PNG a band of rows at a time, for callers that stream (`throbber compare`): only
    /// the rows asked for are held, plus one row inside the decoder, except that an interlaced
    /// (Adam7) image is decoded whole into RGBA8 on the first read, as its rows arrive spread over
    /// seven passes. The pixels are those of ``PNGCodec/decode(_:pixelBudget:)``, under the same
    /// budget and limits, checked when the reader is made.
    public final class RowReader {
        /// The declared size.
        public let width: Int
        /// See ``width``.
        public let height: Int
        /// Whether the PNG is interlaced (and so decoded whole on the first read).
        public let interlaced: Bool
        /// Rows decoded so far.
        public private(set) var rowsRead = 0
        // libpng reads from this copy of the file for the reader's whole life; a Data's bytes are
        // only pinned inside withUnsafeBytes.
        private let bytes: UnsafeMutableRawBufferPointer
        private let reader: OpaquePointer

        /// Reads the header and checks it against `pixelBudget` and the limits; no pixel memory yet.
        ///
        /// - Throws: a data error as ``PNGCodec/decode(_:pixelBudget:)`` does.
        public init(_ data: Data, pixelBudget: Int = PNGCodec.pixelBudget) throws {
            guard !data.isEmpty else { throw ThrobberError("not a PNG: empty input", kind: .badData) }
            let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 1)
            data.withUnsafeBytes { bytes.copyMemory(from: $0) }
            var header = CPNGCodec_Header()
            var opened: OpaquePointer?
            var message = [CChar](repeating: 0, count: 320)
            let status = CPNGCodec_openReader(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count,
                                              limits(pixelBudget: pixelBudget), &header, &opened, &message, message.count)
            guard status == 0, let opened else {
                bytes.deallocate()
                if status == 1 { throw overBudget(width: Int(header.width), height: Int(header.height), budget: pixelBudget) }
                throw unreadable(message)
            }
            self.bytes = bytes
            reader = opened
            width = Int(header.width)
            height = Int(header.height)
            interlaced = header.interlaced != 0
        }

        deinit {
            CPNGCodec_closeReader(reader)
            bytes.deallocate()
        }

        /// Decodes every row not read yet, a band of about ``bandPixels`` pixels at a time, handing
        /// each band to `body`: the whole image checked (and, say, hashed) in one band's memory.
        ///
        /// - Throws: what ``read(rows:into:)`` throws.
        public func forEachBand(_ body: ([UInt8]) throws -> Void) throws {
            let rows = max(1, PNGCodec.RowReader.bandPixels / max(1, width))
            var band: [UInt8] = []
            while rowsRead < height {
                try read(rows: min(rows, height - rowsRead), into: &band)
                try body(band)
            }
        }

        /// Decodes the next `count` rows into `pixels` (resized to `count × width × 4` bytes).
        ///
        /// - Throws: a data error with libpng's reason (a truncated or corrupt file); the reader is
        ///   then spent.
        /// - Precondition: `count` rows remain.
        public func read(rows count: Int, into pixels: inout [UInt8]) throws {
            precondition(count >= 0 && count <= height - rowsRead, "asked for rows past the end of the image")
            let size = count * width * 4
            if pixels.count != size { pixels = [UInt8](repeating: 0, count: size) }
            if count == 0 { return }
            var message = [CChar](repeating: 0, count: 320)
            let status = pixels.withUnsafeMutableBufferPointer {
                CPNGCodec_readRows(reader, $0.baseAddress!, UInt32(count), &message, message.count)
            }
            guard status == 0 else { throw unreadable(message) }
            rowsRead += count
        }
    }

    /// The one-line refusal of a PNG that declares more pixels than the budget.
    static func overBudget(width: Int, height: Int, budget: Int) -> ThrobberError {
        ThrobberError("declares \(width)×\(height) px (\(grouped(width * height)) pixels), over the PNG readers' budget of "
                      + "\(grouped(budget)) pixels; refused before decoding", kind: .badData)
    }

    static func unreadable(_ message: [CChar]) -> ThrobberError {
        ThrobberError("not a readable PNG: \(String(nulTerminated: message))", kind: .badData)
    }

    /// 33554432 → "33,554,432".
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    /// The 8-bit value of a 16-bit sample as every reader here computes it: round(v / 257), in
    /// integers (the C decoder's own function, exposed so tests check it against the formula).
    public static func reduce16(_ value: UInt16) -> UInt8 {
        CPNGCodec_reduce16(value)
    }

    /// The tEXt (and zTXt/iTXt) chunks of a PNG, in file order.
    ///
    /// Reads only the chunks before the image data, under the same limits as ``decode(_:pixelBudget:)``
    /// (sides, chunk memory), and decodes no pixels, so the declared size is not checked.
    ///
    /// - Throws: a data error when the bytes are not a readable PNG.
    public static func textChunks(_ data: Data) throws -> [(String, String)] {
        final class Collector { var chunks: [(String, String)] = [] }
        let collector = Collector()
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return -2 }
            return CPNGCodec_readText(base, bytes.count, limits(pixelBudget: PNGCodec.pixelBudget), { context, key, text in
                let collector = Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue()
                collector.chunks.append((String(cString: key), String(cString: text)))
            }, Unmanaged.passUnretained(collector).toOpaque(), &message, message.count)
        }
        guard status == 0 else {
            throw ThrobberError("not a readable PNG: \(String(nulTerminated: message))", kind: .badData)
        }
        return collector.chunks
    }
}

/// Calls `body` with C copies of tEXt keywords and texts, which the C encoders read and which
/// stay alive until `body` returns.
func withCText<Result>(_ text: [(String, String)],
                       _ body: ([(key: UnsafeMutablePointer<CChar>, text: UnsafeMutablePointer<CChar>)]) throws -> Result) rethrows -> Result {
    let pairs = text.map { (key: strdup($0.0)!, text: strdup($0.1)!) }
    defer { pairs.forEach { free($0.key); free($0.text) } }
    return try body(pairs)
}

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
        // Keys and texts must outlive the call: keep C copies until it returns.
        let keys = text.map { strdup($0.0)! }
        let values = text.map { strdup($0.1)! }
        defer {
            keys.forEach { free($0) }
            values.forEach { free($0) }
        }
        let chunks = zip(keys, values).map { CPNGCodec_Text(key: $0, text: $1) }
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            chunks.withUnsafeBufferPointer { chunkPointer in
                CPNGCodec_encode(pixels.baseAddress!, UInt32(image.width), UInt32(image.height), config,
                                 chunkPointer.baseAddress, Int32(chunks.count), &buffer, &message, message.count)
            }
        }
        guard status == 0, let bytes = buffer.data else {
            throw ThrobberError("PNG encoding failed: \(String(nulTerminated: message))", exitCode: .backendFailure)
        }
        defer { CPNGCodec_free(&buffer) }
        return Data(bytes: bytes, count: buffer.size)
    }

    /// Decodes any PNG into straight-alpha RGBA8.
    ///
    /// - Throws: a data error with libpng's message when the bytes are not a readable PNG.
    public static func decode(_ data: Data) throws -> Image {
        var width: UInt32 = 0
        var height: UInt32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return -2 }
            return CPNGCodec_decode(base, bytes.count, &width, &height, &pixels, &message, message.count)
        }
        guard status == 0, let pixels else {
            throw ThrobberError(status == -2 ? "not a PNG: empty input" : "not a readable PNG: \(String(nulTerminated: message))",
                                exitCode: .dataError)
        }
        defer { CPNGCodec_freeBytes(pixels) }
        let count = Int(width) * Int(height) * 4
        return Image(width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    /// The tEXt (and zTXt/iTXt) chunks of a PNG, in file order.
    ///
    /// - Throws: a data error when the bytes are not a readable PNG.
    public static func textChunks(_ data: Data) throws -> [(String, String)] {
        final class Collector { var chunks: [(String, String)] = [] }
        let collector = Collector()
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return -2 }
            return CPNGCodec_readText(base, bytes.count, { context, key, text in
                let collector = Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue()
                collector.chunks.append((String(cString: key), String(cString: text)))
            }, Unmanaged.passUnretained(collector).toOpaque(), &message, message.count)
        }
        guard status == 0 else {
            throw ThrobberError("not a readable PNG: \(String(nulTerminated: message))", exitCode: .dataError)
        }
        return collector.chunks
    }
}

import Foundation
import ThrobberTestSupport

/// Hand-built PNG byte streams for the reader tests: any colour type and bit depth, PLTE and
/// tRNS, Adam7, extra chunks, and a declared size that the data need not match. Built here, not
/// with our own encoder (which writes only 8-bit RGBA) nor with Python or ImageMagick (neither is
/// guaranteed where the tests run). The image data is zlib with stored (uncompressed) blocks, so
/// no compressor is needed and every byte is known.
struct TestPNG {
    var width: Int
    var height: Int
    var bitDepth: Int
    /// 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    var colorType: Int
    var interlaced = false
    /// PLTE: r, g, b per entry.
    var palette: [UInt8]? = nil
    /// tRNS as stored: alpha per palette entry, or one grey / RGB sample of 16 bits each.
    var transparency: [UInt8]? = nil
    /// Chunks written after IHDR (and PLTE, tRNS), before IDAT: (type, data).
    var extraChunks: [(String, [UInt8])] = []

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! }

    /// The Adam7 passes as (first column, first row, column step, row step).
    static let adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

    /// The file, with `sample(x, y)` giving the channel samples of each pixel at `bitDepth`.
    func bytes(_ sample: (Int, Int) -> [Int]) -> [UInt8] {
        var raw: [UInt8] = []
        if interlaced {
            for (x0, y0, dx, dy) in Self.adam7 {
                let columns = Array(stride(from: x0, to: width, by: dx))
                if columns.isEmpty { continue }
                for y in stride(from: y0, to: height, by: dy) { raw += row(y: y, columns: columns, sample) }
            }
        } else {
            for y in 0..<height { raw += row(y: y, columns: Array(0..<width), sample) }
        }
        return file(idat: Self.zlibStored(raw))
    }

    /// The file around a given IDAT payload (for truncated or bogus image data).
    func file(idat: [UInt8]) -> [UInt8] {
        var out = Self.signature
        out += Self.chunk("IHDR", Self.be32(width) + Self.be32(height)
                          + [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0])
        if let palette { out += Self.chunk("PLTE", palette) }
        if let transparency { out += Self.chunk("tRNS", transparency) }
        for (type, data) in extraChunks { out += Self.chunk(type, data) }
        out += Self.chunk("IDAT", idat)
        out += Self.chunk("IEND", [])
        return out
    }

    /// One filtered row (filter type 0) of the given columns.
    func row(y: Int, columns: [Int], _ sample: (Int, Int) -> [Int]) -> [UInt8] {
        var out: [UInt8] = [0]
        var bits = 0, accumulator = 0
        for x in columns {
            let samples = sample(x, y)
            precondition(samples.count == channels, "pixel (\(x), \(y)) has \(samples.count) samples, not \(channels)")
            for value in samples {
                switch bitDepth {
                case 16: out += [UInt8(value >> 8), UInt8(value & 0xFF)]
                case 8: out.append(UInt8(value))
                default:
                    accumulator = (accumulator << bitDepth) | value
                    bits += bitDepth
                    if bits == 8 { out.append(UInt8(accumulator)); bits = 0; accumulator = 0 }
                }
            }
        }
        if bits > 0 { out.append(UInt8(accumulator << (8 - bits))) }
        return out
    }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    /// A zlib stream of stored deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(Int((b << 16) | a))
    }
}

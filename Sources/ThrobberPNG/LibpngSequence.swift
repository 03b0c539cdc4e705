import CZlib
import Foundation
import Synchronization
import Throbber

/// libpng in a sequence (``PNGSequence``): a frame whose pixels equal the frame libpng last wrote
/// for the same sequence at the same settings takes that file's IDAT whole, under its own tEXt
/// chunks, instead of being filtered and compressed again — what the fast writers do segment by
/// segment, for the one case libpng can take: nothing changed. libpng writes the same bytes for
/// the same pixels, settings and text, so the file is byte for byte what a fresh encode writes
/// (`PNGSequenceTests`). It matters where `auto` falls back to libpng's defaults for a clip whose
/// frames hold still (a screen of one colour): those then cost one comparison each.
enum LibpngSequence {
    /// One kept frame: its key, pixels and the file libpng wrote for it.
    struct Kept {
        var sequence: UInt64
        var level: Int
        var filters: Int
        var width: Int, height: Int
        var pixels: [UInt8]
        /// The file's IHDR chunk and its IDAT chunks, whole (length, type, data, CRC).
        var header: Data
        var idat: Data
    }

    /// The frames kept, most recent last: at most two, and at most ``budget`` bytes of pixels.
    private static let kept = Mutex<[Kept]>([])
    static let budget = 72 << 20

    /// The file for `image` at these settings: the kept IDAT under new text when the pixels are
    /// the kept frame's (and how many rows that took: all of them), else nil.
    static func reuse(_ image: Image, sequence: PNGSequence, level: Int, filters: Int, text: [(String, String)]) -> (Data, Int)? {
        let candidate = kept.withLock { frames in
            frames.last { $0.sequence == sequence.number && $0.level == level && $0.filters == filters
                && $0.width == image.width && $0.height == image.height }
        }
        guard let candidate, candidate.pixels == image.pixels else { return nil }
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        file += candidate.header
        for (key, value) in text { file += chunk("tEXt", Data(key.utf8) + [0] + Data(value.utf8)) }
        file += candidate.idat
        file += chunk("IEND", Data())
        return (file, image.height)
    }

    /// Keeps `image` and the file libpng wrote for it, in place of the least recent frame kept.
    static func keep(_ image: Image, file: Data, sequence: PNGSequence, level: Int, filters: Int) {
        guard image.pixels.count <= budget, let (header, idat) = parts(of: file) else { return }
        let frame = Kept(sequence: sequence.number, level: level, filters: filters, width: image.width, height: image.height,
                         pixels: image.pixels, header: header, idat: idat)
        kept.withLock { frames in
            frames.removeAll { $0.sequence == frame.sequence && $0.level == frame.level && $0.filters == frame.filters }
            frames.append(frame)
            while frames.count > 2 || frames.reduce(0, { $0 + $1.pixels.count }) > budget { frames.removeFirst() }
        }
    }

    /// A file's IHDR chunk and its run of IDAT chunks, whole; nil when it is not laid out as
    /// signature, IHDR, anything but IDAT, the IDATs together, IEND.
    static func parts(of file: Data) -> (Data, Data)? {
        let bytes = [UInt8](file)
        var offset = 8
        var header: Data?
        var idatStart: Int?, idatEnd: Int?
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let end = offset + 12 + length
            guard end <= bytes.count else { return nil }
            switch type {
            case "IHDR": header = Data(bytes[offset..<end])
            case "IDAT":
                if idatEnd != nil && idatEnd != offset { return nil }
                if idatStart == nil { idatStart = offset }
                idatEnd = end
            case "IEND":
                guard let header, let idatStart, let idatEnd else { return nil }
                return (header, Data(bytes[idatStart..<idatEnd]))
            default: break
            }
            offset = end
        }
        return nil
    }

    /// A chunk: length, type, data and the CRC-32 of type and data (zlib's `crc32`).
    static func chunk(_ type: String, _ data: Data) -> Data {
        var out = Data()
        let length = UInt32(data.count)
        out += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        let body = Data(type.utf8) + data
        out += body
        let crc = body.withUnsafeBytes { raw in
            UInt32(crc32(0, raw.bindMemory(to: UInt8.self).baseAddress, uInt(raw.count)))
        }
        out += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return out
    }
}

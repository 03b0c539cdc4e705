import CZlib
import Foundation
import Throbber

/// Writes a dotLottie v2 archive (`.lottie`, issue 51 point 2): `manifest.json`, the animation
/// under `a/`, and one `t/NAME.json` per theme whose rules set the animation's
/// slots. A ZIP of deflated entries (zlib), read back by `DotLottieArchive`.
public enum DotLottieWriter {
    /// The archive of animation `id` (its Lottie JSON `json`) with `themes`, each a name and the
    /// values it gives slots.
    public static func archive(id: String, json: Data, themes: [(name: String, slots: [(id: String, value: LottieSlotValue)])],
                               generator: String) throws -> Data {
        var manifest: [(String, LottieValue)] = [
            ("version", .string("2")), ("generator", .string(generator)),
            ("animations", .array([.object([("id", .string(id))])])),
        ]
        if !themes.isEmpty {
            manifest.append(("themes", .array(themes.map { .object([("id", .string($0.name))]) })))
        }
        var entries: [(String, Data)] = [("manifest.json", Data(LottieValue.object(manifest).text.utf8)),
                                         ("a/\(id).json", json)]
        for theme in themes {
            let rules: [LottieValue] = theme.slots.map { slot in
                switch slot.value {
                case .color(let rgba):
                    .object([("id", .string(slot.id)), ("type", .string("Color")), ("value", .numbers(rgba, digits: 4))])
                case .scalar(let x):
                    .object([("id", .string(slot.id)), ("type", .string("Scalar")), ("value", .number(x, digits: 3))])
                }
            }
            entries.append(("t/\(theme.name).json", Data(LottieValue.object([("rules", .array(rules))]).text.utf8)))
        }
        return try zip(entries)
    }

    /// A ZIP archive of `entries`, each deflated (raw DEFLATE, method 8) with its CRC-32.
    static func zip(_ entries: [(name: String, data: Data)]) throws -> Data {
        var out = Data()
        var directory = Data()
        func le16(_ v: Int, _ d: inout Data) { d.append(contentsOf: [UInt8(v & 0xff), UInt8(v >> 8 & 0xff)]) }
        func le32(_ v: UInt32, _ d: inout Data) { for s in stride(from: 0, to: 32, by: 8) { d.append(UInt8(v >> UInt32(s) & 0xff)) } }
        for (name, data) in entries {
            let crc = data.withUnsafeBytes { UInt32(crc32(0, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count))) }
            let packed = try deflated(data)
            let offset = UInt32(out.count)
            let nameBytes = Array(name.utf8)
            // Local header: version 2.0, no flags, deflate, DOS time 1980-01-01 (a reproducible archive).
            le32(0x0403_4b50, &out); le16(20, &out); le16(0, &out); le16(8, &out); le16(0, &out); le16(0x21, &out)
            le32(crc, &out); le32(UInt32(packed.count), &out); le32(UInt32(data.count), &out)
            le16(nameBytes.count, &out); le16(0, &out)
            out.append(contentsOf: nameBytes)
            out.append(packed)
            le32(0x0201_4b50, &directory); le16(20, &directory); le16(20, &directory); le16(0, &directory); le16(8, &directory)
            le16(0, &directory); le16(0x21, &directory)
            le32(crc, &directory); le32(UInt32(packed.count), &directory); le32(UInt32(data.count), &directory)
            le16(nameBytes.count, &directory); le16(0, &directory); le16(0, &directory); le16(0, &directory); le16(0, &directory)
            le32(0, &directory); le32(offset, &directory)
            directory.append(contentsOf: nameBytes)
        }
        let start = UInt32(out.count)
        out.append(directory)
        le32(0x0605_4b50, &out); le16(0, &out); le16(0, &out); le16(entries.count, &out); le16(entries.count, &out)
        le32(UInt32(directory.count), &out); le32(start, &out); le16(0, &out)
        return out
    }

    /// Raw DEFLATE (no zlib header) at level 9.
    static func deflated(_ data: Data) throws -> Data {
        var stream = z_stream()
        guard deflateInit2_(&stream, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ThrobberError("export: zlib would not start a deflate stream", kind: .io)
        }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
        let result: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { throw ThrobberError("export: zlib could not deflate an entry (\(result))", kind: .io) }
        return Data(output[0..<Int(stream.total_out)])
    }
}

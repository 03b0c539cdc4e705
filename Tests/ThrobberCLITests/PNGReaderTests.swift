import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberPNG
import ThrobberTestSupport

/// `PNGCodec.decode` on every kind of PNG, against the straight-alpha RGBA8 pixels Pillow or
/// ImageMagick give without colour management: 16-bit samples as round(v / 257), no gamma.
struct PNGReaderTests {
    /// round(v / 257) in floating point, the formula the integer reduction must equal.
    static func rounded(_ v: Int) -> UInt8 { UInt8((Double(v) / 257).rounded()) }

    @Test func sixteenBitReductionIsRoundOfVOver257ForEveryValue() {
        var wrong: [Int] = []
        for v in 0...65535 where PNGCodec.reduce16(UInt16(v)) != Self.rounded(v) { wrong.append(v) }
        #expect(wrong.isEmpty, "first wrong values: \(wrong.prefix(5))")
        // The boundaries: 257k + 128 rounds down, 257k + 129 up.
        #expect(PNGCodec.reduce16(128) == 0 && PNGCodec.reduce16(129) == 1)
        #expect(PNGCodec.reduce16(65535) == 255 && PNGCodec.reduce16(65406) == 254 && PNGCodec.reduce16(65407) == 255)
    }

    /// A 256×256 16-bit RGBA image holding every 16-bit value in each channel.
    static func everyValue(_ x: Int, _ y: Int) -> [Int] {
        let v = y * 256 + x
        return [v, 65535 - v, (v * 257) & 0xFFFF, v ^ 0x5A5A]
    }

    @Test(arguments: [false, true])
    func sixteenBitRGBADecodesEveryValueExactly(interlaced: Bool) throws {
        let png = TestPNG(width: 256, height: 256, bitDepth: 16, colorType: 6, interlaced: interlaced)
        let image = try PNGCodec.decode(Data(png.bytes(Self.everyValue)))
        #expect(image.width == 256 && image.height == 256)
        var mismatches = 0
        for y in 0..<256 {
            for x in 0..<256 {
                let expected = Self.everyValue(x, y).map(Self.rounded)
                let p = image[x, y]
                if [p.r, p.g, p.b, p.a] != expected {
                    if mismatches < 3 { Issue.record("(\(x), \(y)): \([p.r, p.g, p.b, p.a]) ≠ \(expected)") }
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// The regression of issue 14: a 16-bit copy of a frame (each v8 stored as v8 × 257) decoded
    /// up to 72 steps away (255 when interlaced) through libpng's gamma conversion, which takes
    /// 16-bit data without a gAMA chunk as linear. With or without gAMA it is the frame itself.
    @Test(arguments: [false, true], [false, true])
    func sixteenBitCopyOfAFrameDecodesToTheFrame(interlaced: Bool, gamma: Bool) throws {
        let frame = CPURenderer().render(try LaidOutScene(Scene(WaveBall())).drawList(at: 0.7))
        var png = TestPNG(width: frame.width, height: frame.height, bitDepth: 16, colorType: 6, interlaced: interlaced)
        if gamma { png.extraChunks = [("gAMA", TestPNG.be32(45455))] }
        let copy = try PNGCodec.decode(Data(png.bytes { x, y in
            let p = frame[x, y]
            return [Int(p.r) * 257, Int(p.g) * 257, Int(p.b) * 257, Int(p.a) * 257]
        }))
        let diff = ImageDiff(expected: frame, observed: copy, tolerance: 0)
        #expect(diff.maxChannelDifference == 0 && copy == frame, "largest difference \(diff.maxChannelDifference)")
    }

    /// One case: a PNG kind, its samples, and the RGBA8 every reader should see.
    struct Kind: CustomStringConvertible, Sendable {
        var description: String
        var png: TestPNG
        var sample: @Sendable (Int, Int) -> [Int]
        var expected: @Sendable (Int, Int) -> [UInt8]
    }

    static func grey(depth: Int, trns: Int? = nil) -> Kind {
        let top = (1 << depth) - 1
        let sample: @Sendable (Int, Int) -> [Int] = { x, y in [(x * 7 + y * 13) % (top + 1)] }
        var png = TestPNG(width: 0, height: 0, bitDepth: depth, colorType: 0)
        png.transparency = trns.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        return Kind(description: "grey \(depth)-bit\(trns == nil ? "" : " tRNS")", png: png, sample: sample) { x, y in
            let g = sample(x, y)[0]
            // 1, 2 and 4 bits are scaled by replicating bits (× 255, 85, 17): exact.
            let v8 = depth == 16 ? PNGReaderTests.rounded(g) : UInt8(g * 255 / top)
            return [v8, v8, v8, g == trns ? 0 : 255]
        }
    }

    static let kinds: [Kind] = [
        grey(depth: 1), grey(depth: 2), grey(depth: 4), grey(depth: 8), grey(depth: 16),
        grey(depth: 4, trns: 5), grey(depth: 8, trns: 77), grey(depth: 16, trns: 61),
        Kind(description: "grey+alpha 8-bit", png: TestPNG(width: 0, height: 0, bitDepth: 8, colorType: 4),
             sample: { x, y in [x * 9 % 256, (x + y * 31) % 256] },
             expected: { x, y in let g = UInt8(x * 9 % 256); return [g, g, g, UInt8((x + y * 31) % 256)] }),
        Kind(description: "grey+alpha 16-bit", png: TestPNG(width: 0, height: 0, bitDepth: 16, colorType: 4),
             sample: { x, y in [x * 2011 % 65536, (y * 4099 + x) % 65536] },
             expected: { x, y in let g = PNGReaderTests.rounded(x * 2011 % 65536); return [g, g, g, PNGReaderTests.rounded((y * 4099 + x) % 65536)] }),
        Kind(description: "RGB 8-bit", png: TestPNG(width: 0, height: 0, bitDepth: 8, colorType: 2),
             sample: { x, y in [x * 5 % 256, y * 3 % 256, (x ^ y) % 256] },
             expected: { x, y in [UInt8(x * 5 % 256), UInt8(y * 3 % 256), UInt8((x ^ y) % 256), 255] }),
        Kind(description: "RGB 8-bit tRNS",
             png: TestPNG(width: 0, height: 0, bitDepth: 8, colorType: 2, transparency: [0, 10, 0, 6, 0, 3]),
             sample: { x, y in [x % 16, y % 7, (x + y) % 5] },
             expected: { x, y in
                 let rgb = [UInt8(x % 16), UInt8(y % 7), UInt8((x + y) % 5)]
                 return rgb + [rgb == [10, 6, 3] ? 0 : 255]
             }),
        Kind(description: "RGB 16-bit", png: TestPNG(width: 0, height: 0, bitDepth: 16, colorType: 2),
             sample: { x, y in [x * 1031 % 65536, y * 2053 % 65536, 65535 - x * y] },
             expected: { x, y in [PNGReaderTests.rounded(x * 1031 % 65536), PNGReaderTests.rounded(y * 2053 % 65536), PNGReaderTests.rounded(65535 - x * y), 255] }),
        Kind(description: "RGBA 8-bit", png: TestPNG(width: 0, height: 0, bitDepth: 8, colorType: 6),
             sample: { x, y in [x % 256, y % 256, (x * y) % 256, (x + 2 * y) % 256] },
             expected: { x, y in [UInt8(x % 256), UInt8(y % 256), UInt8((x * y) % 256), UInt8((x + 2 * y) % 256)] }),
        Kind(description: "palette 2-bit, tRNS on three of four entries",
             png: TestPNG(width: 0, height: 0, bitDepth: 2, colorType: 3,
                          palette: [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 8, 7], transparency: [0, 128, 255]),
             sample: { x, y in [(x + y) % 4] },
             expected: { x, y in
                 let i = (x + y) % 4
                 let rgb: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [9, 8, 7]]
                 // Entries past the end of tRNS are opaque; a transparent entry keeps its colour.
                 return rgb[i] + [[0, 128, 255, 255][i]]
             }),
        Kind(description: "palette 8-bit, no tRNS",
             png: TestPNG(width: 0, height: 0, bitDepth: 8, colorType: 3,
                          palette: (0..<256).flatMap { [UInt8($0), UInt8(255 - $0), UInt8($0 / 2)] }),
             sample: { x, y in [(x * 3 + y) % 256] },
             expected: { x, y in let i = (x * 3 + y) % 256; return [UInt8(i), UInt8(255 - i), UInt8(i / 2), 255] }),
    ]

    /// Every kind, plain and Adam7, at sizes where some passes are empty (1×1, 3×2) and not.
    @Test(arguments: kinds)
    func everyKindDecodesToStraightRGBA8(kind: Kind) throws {
        for interlaced in [false, true] {
            for (width, height) in [(1, 1), (3, 2), (13, 9), (40, 17)] {
                var png = kind.png
                png.width = width
                png.height = height
                png.interlaced = interlaced
                let image = try PNGCodec.decode(Data(png.bytes(kind.sample)))
                #expect(image.width == width && image.height == height)
                var wrong: [String] = []
                for y in 0..<height {
                    for x in 0..<width {
                        let p = image[x, y], expected = kind.expected(x, y)
                        if [p.r, p.g, p.b, p.a] != expected { wrong.append("(\(x), \(y)) \([p.r, p.g, p.b, p.a]) ≠ \(expected)") }
                    }
                }
                #expect(wrong.isEmpty, "\(kind) \(width)×\(height)\(interlaced ? " Adam7" : ""): \(wrong.prefix(3))")
            }
        }
    }

    /// RowReader, band by band (as `compare` reads), gives the pixels of a whole decode: plain
    /// rows as they come, Adam7 from the image decoded whole on the first read.
    @Test(arguments: [false, true])
    func rowReaderInBandsEqualsAWholeDecode(interlaced: Bool) throws {
        let png = TestPNG(width: 256, height: 256, bitDepth: 16, colorType: 6, interlaced: interlaced)
        let data = Data(png.bytes(Self.everyValue))
        let whole = try PNGCodec.decode(data)
        let reader = try PNGCodec.RowReader(data)
        #expect(reader.width == 256 && reader.height == 256 && reader.interlaced == interlaced)
        var pixels: [UInt8] = [], band: [UInt8] = []
        while reader.rowsRead < reader.height {
            try reader.read(rows: min(7, reader.height - reader.rowsRead), into: &band)
            pixels += band
        }
        #expect(pixels == whole.pixels)
    }

    @Test func theBudgetIsCheckedOnTheDeclaredSize() throws {
        let png = TestPNG(width: 11, height: 10, bitDepth: 8, colorType: 6)
        let data = Data(png.bytes { _, _ in [1, 2, 3, 4] })
        #expect(try PNGCodec.decode(data, pixelBudget: 110).width == 11)
        #expect(throws: ThrobberError.self) { try PNGCodec.decode(data, pixelBudget: 109) }
        do {
            _ = try PNGCodec.decode(data, pixelBudget: 109)
        } catch let error as ThrobberError {
            #expect(error.kind == .badData)
            #expect(error.message.contains("11×10") && error.message.contains("109"), "\(error.message)")
        }
    }

    /// A 1 KB file declaring 16000×16000 RGBA (1 GB of pixels) is refused from its IHDR: nothing is
    /// inflated, nothing allocated (the IDAT here is a zlib header and a few bytes, cut short).
    @Test func aPNGBombIsRefusedBeforeDecoding() throws {
        let png = TestPNG(width: 16000, height: 16000, bitDepth: 8, colorType: 6)
        let data = Data(png.file(idat: [0x78, 0xDA, 0xED, 0xC1, 0x01, 0x0D]))
        do {
            _ = try PNGCodec.decode(data)
            Issue.record("the bomb was decoded")
        } catch let error as ThrobberError {
            #expect(error.kind == .badData)
            #expect(error.message.contains("16000×16000") && error.message.contains("33,554,432"), "\(error.message)")
        }
        #expect(PNGCodec.pixelBudget == 1 << 25)
    }

    @Test func aSideOverLibpngsUserLimitIsRefusedWithItsReason() throws {
        let png = TestPNG(width: PNGCodec.maxSide + 1, height: 1, bitDepth: 8, colorType: 0)
        do {
            _ = try PNGCodec.decode(Data(png.file(idat: TestPNG.zlibStored([0]))))
            Issue.record("a \(PNGCodec.maxSide + 1)-pixel-wide PNG was accepted")
        } catch let error as ThrobberError {
            #expect(error.kind == .badData)
            #expect(error.message.contains("exceeds user limit"), "\(error.message)")
        }
    }

    @Test func truncatedAndCorruptPNGsSayWhy() throws {
        let frame = CPURenderer().render(try LaidOutScene(Scene(Ring())).drawList(at: 0.25))
        let whole = try PNGCodec.encode(frame, settings: .init(level: 0))
        let cut = whole.prefix(whole.count / 2)
        #expect(throws: ThrobberError.self) { try PNGCodec.decode(cut) }
        do { _ = try PNGCodec.decode(cut) } catch let error as ThrobberError {
            #expect(error.message.contains("truncated"), "\(error.message)")
        }
        // A flipped byte in the image data breaks IDAT's CRC, which libpng names.
        var corrupt = whole
        let idat = try #require(corrupt.range(of: Data("IDAT".utf8)))
        corrupt[idat.upperBound + 100] ^= 0xFF
        do {
            _ = try PNGCodec.decode(corrupt)
            Issue.record("a corrupt PNG decoded")
        } catch let error as ThrobberError {
            #expect(error.kind == .badData)
            #expect(error.message.contains("libpng") && error.message.contains("CRC"), "\(error.message)")
        }
    }

    /// A zTXt chunk that inflates to 5 MiB is over the chunk bound: libpng stops inflating it and
    /// skips it, and the image and the other chunks still read. (A tEXt chunk is held as stored,
    /// so it is bounded by the file's own size.)
    @Test func anOversizedCompressedTextChunkIsSkipped() throws {
        #expect(PNGCodec.maxChunkBytes < 5 << 20)
        var png = TestPNG(width: 2, height: 2, bitDepth: 8, colorType: 2)
        png.extraChunks = [("tEXt", Array("small\0kept".utf8)),
                           ("zTXt", Array("huge\0\0".utf8) + TestPNG.zlibStored([UInt8](repeating: 0x41, count: 5 << 20))),
                           ("zTXt", Array("fits\0\0".utf8) + TestPNG.zlibStored([UInt8](repeating: 0x41, count: 1000)))]
        let data = Data(png.bytes { _, _ in [1, 2, 3] })
        #expect(try PNGCodec.textChunks(data).map(\.0) == ["small", "fits"])
        let pixel = try PNGCodec.decode(data)[1, 1]
        #expect([pixel.r, pixel.g, pixel.b, pixel.a] == [1, 2, 3, 255])
    }
}

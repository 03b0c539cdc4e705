import Foundation
import Synchronization
import Testing
import Throbber
import ThrobberBenchmarks
import ThrobberCPU
import ThrobberPNG

/// Every PNG encoder against libpng's reader: the pixels and tEXt chunks come back exactly, the
/// container is what libpng writes, and pngcheck accepts the files.
struct PNGEncoderTests {
    /// A spread of levels per encoder (each end of the range and the defaults), each filter.
    static let encoders: [PNGEncoder] = {
        let levels: [(String, [Int])] = [("libpng", [0, 1, 7, 9]), ("libdeflate", [0, 1, 6, 12]), ("isal", [0, 1, 2, 3]), ("zlib", [0, 1, 4, 9])]
        return levels.flatMap { name, levels in
            levels.flatMap { level in PNGRowFilter.allCases.map { try! PNGEncoder(name: name, level: level, filter: $0) } }
        }
    }()

    /// Odd sizes: single pixel, rows shorter than a filter's reach, rows longer than igzip's and
    /// libdeflate's blocks. 513×257 comes before smaller images again, so a thread's kept
    /// buffers are reused for a smaller frame.
    static let sizes = [(1, 1), (3, 2), (13, 9), (300, 7), (84, 84), (513, 257)]

    /// The kinds of pixel a frame has: straight alpha keeps colour under alpha 0, so fully
    /// transparent pixels carry colour too and must come back with it.
    enum Pixels: CaseIterable {
        case opaque, transparent, translucent, random
    }

    static func image(_ kind: Pixels, width: Int, height: Int, seed: UInt64) -> Image {
        var random = SplitMix64(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let noise = random.next()
                // Smooth gradients with a little noise, so that the filters have work to do.
                let r = UInt8(truncatingIfNeeded: x * 3 + Int(noise & 3))
                let g = UInt8(truncatingIfNeeded: y * 5 + Int(noise >> 8 & 3))
                let b = UInt8(truncatingIfNeeded: (x + y) * 2)
                switch kind {
                case .opaque: (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (r, g, b, 255)
                case .transparent: (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (r, g, b, 0)
                case .translucent:
                    (pixels[i], pixels[i + 1], pixels[i + 2]) = (r, g, b)
                    pixels[i + 3] = UInt8(1 + (x + 2 * y + Int(noise >> 16 & 7)) % 254) // 1…254
                case .random:
                    for c in 0..<4 { pixels[i + c] = UInt8(truncatingIfNeeded: noise >> (8 * UInt64(c) + 24)) }
                }
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    /// tEXt as `render` writes it, plus an empty value and UTF-8 text (written as given).
    static let text: [(String, String)] = [
        ("Software", "Throbber \(throbberVersion)"),
        ("Throbber:scene", "wave-ball"),
        ("Throbber:parameters", "progress=0.7 scale=2"),
        ("Throbber:time", "1.25"),
        ("Comment", ""),
        ("Title", "Wellenball — 波"),
    ]

    /// A thread keeps its buffers from image to image; what it encoded before must not change
    /// the bytes of the next. igzip's levels 2 and 3 end blocks where their output room runs out,
    /// so the room must come from the input, not from how far an earlier, larger image grew the
    /// buffer (this was a flake of `sequencesWriteTheBytesOfAFreshEncode`: the bytes depended on
    /// which thread encoded which segment before).
    @Test(arguments: [PNGEncoder.isal(level: 2, filter: .adaptive), .isal(level: 3, filter: .adaptive), .isal(level: 1)])
    func anImagesBytesDoNotDependOnWhatItsThreadEncodedBefore(encoder: PNGEncoder) throws {
        let image = Self.image(.random, width: 513, height: 257, seed: 51)
        let big = Self.image(.random, width: 1500, height: 1000, seed: 52)
        // A fresh thread: buffers of nothing yet.
        let fresh = Mutex<Data?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            fresh.withLock { $0 = try? encoder.encode(image) }
            done.signal()
        }.start()
        done.wait()
        // This thread, after an incompressible image grew its buffers far past the next one's needs.
        _ = try encoder.encode(big)
        let after = try encoder.encode(image)
        let first = try #require(fresh.withLock { $0 })
        #expect(after == first, "\(encoder): \(after.count) bytes after a big image, \(first.count) on a fresh thread")
    }

    @Test(arguments: encoders)
    func everyPixelAndTextComesBackThroughLibpng(encoder: PNGEncoder) throws {
        var seed: UInt64 = 1
        for kind in Pixels.allCases {
            for (width, height) in Self.sizes {
                seed += 1
                let image = Self.image(kind, width: width, height: height, seed: seed)
                let png = try encoder.encode(image, text: Self.text)
                let decoded = try PNGCodec.decode(png)
                // A Bool, not the images: a failure names the case, not 500,000 bytes of both.
                let same = decoded == image
                #expect(same, "\(encoder) \(kind) \(width)×\(height): \(ImageDiff(expected: image, observed: decoded, tolerance: 0).maxChannelDifference) steps off")
                let chunks = try PNGCodec.textChunks(png)
                #expect(chunks.map(\.0) == Self.text.map(\.0) && chunks.map(\.1) == Self.text.map(\.1), "\(encoder): \(chunks)")
            }
        }
    }

    /// A rendered frame, every encoder at its default level and filter.
    @Test(arguments: PNGEncoder.names)
    func aRenderedFrameComesBackExactly(name: String) throws {
        let frame = CPURenderer().render(try LaidOutScene(Scene(WaveBall(), scale: 0.5)).drawList(at: 1.2))
        let png = try PNGEncoder(name: name).encode(frame, text: Self.text)
        let same = try PNGCodec.decode(png) == frame
        #expect(same)
    }

    /// The chunks libpng writes and ours, in order, with IDATs merged: IHDR, the tEXt chunks, IDAT,
    /// IEND. IHDR and every tEXt chunk are the same bytes (CRC included) as libpng's.
    @Test(arguments: [PNGEncoder.libdeflate(level: 6), .isal(level: 1), .zlib(level: 4)])
    func containerIsTheOneLibpngWrites(encoder: PNGEncoder) throws {
        let image = Self.image(.translucent, width: 84, height: 84, seed: 7)
        let reference = try Self.chunks(PNGEncoder.standard.encode(image, text: Self.text))
        let ours = try Self.chunks(encoder.encode(image, text: Self.text))
        #expect(ours.map(\.type) == ["IHDR"] + Array(repeating: "tEXt", count: Self.text.count) + ["IDAT", "IEND"])
        let merged = reference.map(\.type).reduce(into: [String]()) { if $0.last != "IDAT" || $1 != "IDAT" { $0.append($1) } }
        #expect(merged == ours.map(\.type))
        let notData = { (chunk: (type: String, bytes: [UInt8])) in chunk.type != "IDAT" }
        #expect(reference.filter(notData).map(\.bytes) == ours.filter(notData).map(\.bytes))
    }

    /// Splits a PNG into its chunks (type, whole chunk bytes), after checking the signature.
    static func chunks(_ png: Data) throws -> [(type: String, bytes: [UInt8])] {
        let bytes = [UInt8](png)
        try #require(bytes.prefix(8) == [137, 80, 78, 71, 13, 10, 26, 10])
        var chunks: [(type: String, bytes: [UInt8])] = []
        var at = 8
        while at + 12 <= bytes.count {
            let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            try #require(at + 12 + length <= bytes.count, "chunk at \(at) runs past the end")
            chunks.append((String(decoding: bytes[at + 4..<at + 8], as: UTF8.self), Array(bytes[at..<at + 12 + length])))
            at += 12 + length
        }
        #expect(at == bytes.count, "bytes after the last chunk")
        return chunks
    }

    static let pngcheck: String? = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
        .map { "\($0)/pngcheck" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    /// pngcheck checks every CRC, the zlib stream and its Adler-32, and chunk order.
    @Test(.enabled(if: pngcheck != nil, "pngcheck is not installed (scripts/setup --with-ffmpeg installs it)"),
          arguments: PNGEncoderCatalog.encoders)
    func pngcheckAcceptsEveryFile(name: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("throbber-pngcheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        for encoder in Self.encoders where encoder.name == name {
            for (kind, (width, height)) in zip(Pixels.allCases, [(13, 9), (300, 7), (84, 84), (513, 257)]) {
                let url = directory.appendingPathComponent("\(encoder.level)-\(encoder.filter)-\(kind).png")
                try encoder.encode(Self.image(kind, width: width, height: height, seed: 3), text: Self.text).write(to: url)
                files.append(url.path)
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.pngcheck!)
        process.arguments = ["-q"] + files
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && said.isEmpty, "pngcheck -q on \(files.count) \(name) files: \(said)")
    }

    /// pngcheck itself refuses a file with one flipped bit in its IDAT, so the test above can fail.
    @Test(.enabled(if: pngcheck != nil, "pngcheck is not installed (scripts/setup --with-ffmpeg installs it)"))
    func pngcheckRefusesACorruptFile() throws {
        var bytes = [UInt8](try PNGEncoder.isal(level: 1).encode(Self.image(.opaque, width: 13, height: 9, seed: 1)))
        bytes[bytes.count - 20] ^= 0x10 // inside the IDAT's data
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("throbber-corrupt-\(UUID().uuidString).png")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.pngcheck!)
        process.arguments = ["-q", url.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
    }

    /// The writers keep state per thread: many threads at once, each with its own sizes and
    /// levels, all write correct files.
    @Test func encodersOnManyThreadsAtOnce() throws {
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 24) { index in
            let (width, height) = Self.sizes[index % Self.sizes.count]
            let image = Self.image(.translucent, width: width, height: height, seed: UInt64(index))
            let encoder: PNGEncoder = switch index % 3 {
            case 0: .libdeflate(level: index % 13, filter: .adaptive)
            case 1: .isal(level: index % 4, filter: .paeth)
            default: .zlib(level: index % 10, filter: .sub)
            }
            for _ in 0..<3 {
                let decoded = try? PNGCodec.decode(try encoder.encode(image))
                if decoded != image { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    @Test func namesParseWithTheirDefaultLevels() throws {
        #expect(try PNGEncoder(name: "libpng") == .libpng(level: defaultPNGLevel))
        #expect(PNGEncoder.standard == .libpng(level: 7))
        #expect(try PNGEncoder(name: "libdeflate") == .libdeflate(level: 1))
        #expect(PNGEncoder.default == .automatic && PNGEncoder.automatic.name == "auto" && PNGEncoder.automatic.level == 1)
        // auto's choice comes from the frames (AutomaticRuleTests); a named encoder stays itself.
        #expect(try PNGEncoder.isal(level: 3).choice(for: Image(width: 512, height: 512)).encoder == .isal(level: 3))
        #expect(try PNGEncoder(name: "isal", level: 3, filter: .up) == .isal(level: 3, filter: .up))
        #expect(try PNGEncoder(name: "isal").level == 1)
        #expect(PNGEncoder.libpng(level: 7).filter == .unfiltered && PNGRowFilter.unfiltered.rawValue == "none")
        #expect(PNGEncoder.libdeflate(level: 6).filter == .unfiltered && PNGEncoder.isal(level: 1).filter == .unfiltered)
        for name in PNGEncoderCatalog.encoders { #expect(try PNGEncoder(name: name).name == name) }
        // Named settings stand for an encoder at a level, and fix it.
        #expect(try PNGEncoder(name: "fast") == .isal(level: 1))
        #expect(try PNGEncoder(name: "small") == .libdeflate(level: 12))
        #expect(try PNGEncoder(name: "compact") == .zlib(level: 8))
        #expect(PNGEncoder.names == ["auto", "libpng", "libdeflate", "isal", "zlib", "fast", "small", "compact"])
        let error = try #require(throws: ThrobberError.self) {
            try PNGEncoder(name: "small", level: 3, nameField: "--png-encoder", levelField: "--png-level")
        }
        #expect(error.kind == .usage)
        #expect(error.message == "invalid --png-level '3': no level with 'small', which is libdeflate at level 12; name an encoder to choose a level")
    }

    @Test(arguments: [("libpng", 10, "[0, 9]"), ("libpng", -1, "[0, 9]"), ("libdeflate", 13, "[0, 12]"), ("isal", 4, "[0, 3]"), ("zlib", 10, "[0, 9]")])
    func levelsOutsideTheRangeAreUsageErrors(name: String, level: Int, range: String) throws {
        let error = try #require(throws: ThrobberError.self) {
            try PNGEncoder(name: name, level: level, nameField: "--png-encoder", levelField: "--png-level")
        }
        #expect(error.kind == .usage)
        #expect(error.message == "invalid --png-level '\(level)': an integer in \(range) for \(name)")
    }

    @Test func unknownNamesAreUsageErrorsNamingTheKnownOnes() throws {
        let error = try #require(throws: ThrobberError.self) { try PNGEncoder(name: "libdeflat", nameField: "pngEncoder") }
        #expect(error.kind == .usage)
        #expect(error.message == "invalid pngEncoder 'libdeflat': one of auto, libpng, libdeflate, isal, zlib, fast, small, compact; did you mean 'libdeflate'?")
    }

    /// A case built directly with a level out of range is refused when it encodes, not passed on.
    @Test(arguments: [PNGEncoder.isal(level: 4), .libdeflate(level: 13), .libpng(level: 10), .isal(level: -1), .zlib(level: 10)])
    func encodingAtALevelOutOfRangeIsAUsageError(encoder: PNGEncoder) throws {
        let error = try #require(throws: ThrobberError.self) { try encoder.encode(Image(width: 2, height: 2)) }
        #expect(error.kind == .usage && error.message.contains("an integer in"))
    }

    /// libpng rewrites a bad keyword; our writer refuses one, as no Throbber keyword is bad.
    @Test(arguments: ["", " Title", "Title ", "Two  spaces", String(repeating: "k", count: 80), "tab\there"])
    func invalidKeywordsAreRefused(key: String) throws {
        for encoder in [PNGEncoder.libdeflate(level: 1), .isal(level: 1)] {
            let error = try #require(throws: ThrobberError.self) { try encoder.encode(Image(width: 1, height: 1), text: [(key, "x")]) }
            #expect(error.message.contains("invalid tEXt keyword"))
        }
    }

    @Test func anImageWithNoPixelsIsRefused() throws {
        for encoder in [PNGEncoder.libdeflate(level: 1), .isal(level: 1)] {
            #expect(throws: ThrobberError.self) { try encoder.encode(Image(width: 0, height: 3)) }
        }
    }
}

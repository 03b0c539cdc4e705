import Foundation
import Testing
@testable import Throbber
@testable import ThrobberBatch
import ThrobberDigest

/// The output formats: SHA-256 fingerprints, YUV4MPEG2 streams and sprite sheets.
struct OutputFormatTests {
    /// SHA-256 (libcrypto) against the FIPS 180-4 / NIST examples, one-shot and incremental.
    struct SHA256Tests {
        @Test(arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
             "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        ])
        func nistVectors(message: String, digest: String) {
            #expect(SHA256.hex(Array(message.utf8)) == digest)
            #expect(SHA256.hex(Data(message.utf8)) == digest)
            let hasher = SHA256()
            hasher.update(Array(message.utf8))
            #expect(hasher.finalizeHex() == digest)
        }

        @Test func oneMillionA() {
            #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        }

        @Test(arguments: [[1], [63, 1], [64], [65, 0, 7], [3, 61, 64, 1, 127, 55, 300]])
        func unevenChunksMatchOneShot(chunkSizes: [Int]) {
            let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 3) }
            let chunked = SHA256()
            var offset = 0, turn = 0
            while offset < message.count {
                let size = min(chunkSizes[turn % chunkSizes.count], message.count - offset)
                let chunk = Array(message[offset..<offset + size])
                // Alternate the overloads so each is exercised.
                if turn % 2 == 0 { chunked.update(chunk) } else { chunked.update(Data(chunk)) }
                offset += size
                turn += 1
            }
            let digest = chunked.finalizeHex()
            #expect(digest == SHA256.hex(message))
            #expect(digest.count == 64 && digest.allSatisfy { "0123456789abcdef".contains($0) })
        }
    }

    /// YUV4MPEG2 headers and BT.601 limited-range frames.
    struct Y4MTests {
        private func header(_ fps: Double, alpha: Bool = false) -> String {
            String(decoding: Y4M.header(width: 5, height: 3, fps: fps, alpha: alpha), as: UTF8.self)
        }

        @Test func headerLines() {
            #expect(header(60) == "YUV4MPEG2 W5 H3 F60:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n")
            #expect(header(29.97) == "YUV4MPEG2 W5 H3 F30000:1001 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n")
            #expect(header(12.5, alpha: true) == "YUV4MPEG2 W5 H3 F25:2 Ip A1:1 C444alpha XCOLORRANGE=LIMITED\n")
        }

        @Test(arguments: [
            (24.0, 24, 1), (23.976, 24000, 1001), (23.98, 24000, 1001), (59.94, 60000, 1001), (119.88, 120000, 1001),
            (12.5, 25, 2), (7.3, 73, 10), (0.5, 1, 2), (29.5, 59, 2),
        ])
        func frameRates(fps: Double, numerator: Int, denominator: Int) {
            let rate = Y4M.frameRate(fps)
            #expect(rate.numerator == numerator && rate.denominator == denominator)
        }

        @Test(arguments: [(5, 3, false, 6 + 15 + 2 * 3 * 2), (5, 3, true, 6 + 4 * 15), (4, 2, false, 6 + 8 + 2 * 2), (1, 1, false, 9)])
        func frameSizes(width: Int, height: Int, alpha: Bool, bytes: Int) {
            let data = Y4M.frame(Image(width: width, height: height), alpha: alpha)
            #expect(data.count == bytes)
            #expect(data.prefix(6) == Data("FRAME\n".utf8))
        }

        /// The Y, Cb, Cr (and A) of a 1×1 frame.
        private func samples(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8, alpha: Bool) -> [UInt8] {
            Array(Y4M.frame(Image(width: 1, height: 1, pixels: [r, g, b, a]), alpha: alpha).dropFirst(6))
        }

        @Test(arguments: [false, true])
        func knownOpaqueColours(alpha: Bool) {
            let a: [UInt8] = alpha ? [255] : []
            #expect(samples(255, 255, 255, 255, alpha: alpha) == [235, 128, 128] + a)
            #expect(samples(0, 0, 0, 255, alpha: alpha) == [16, 128, 128] + a)
            #expect(samples(255, 0, 0, 255, alpha: alpha) == [81, 90, 240] + a)
            #expect(samples(0, 255, 0, 255, alpha: alpha) == [145, 54, 34] + a)
            #expect(samples(0, 0, 255, 255, alpha: alpha) == [41, 240, 110] + a)
        }

        @Test func transparencyWithoutAlphaIsBlack() {
            #expect(samples(0, 0, 0, 0, alpha: false) == [16, 128, 128])
            // Straight white at alpha 128 over black is 128/255 grey: 16 + 219 · 128/255 = 125.9.
            #expect(samples(255, 255, 255, 128, alpha: false) == [126, 128, 128])
        }

        @Test func alphaKeepsStraightColourAndCopiesAlpha() {
            #expect(samples(255, 255, 255, 128, alpha: true) == [235, 128, 128, 128])
            #expect(samples(0, 0, 0, 0, alpha: true) == [16, 128, 128, 0])
        }

        @Test func chromaAveragesEachBlockAndOddEdges() {
            // 3×2: columns 0–1 red over red, column 2 blue over transparent.
            let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255], clear: [UInt8] = [0, 0, 0, 0]
            let image = Image(width: 3, height: 2, pixels: red + red + blue + red + red + clear)
            let planes = Array(Y4M.frame(image, alpha: false).dropFirst(6))
            #expect(planes.count == 6 + 2 + 2)
            #expect(Array(planes[0..<6]) == [81, 81, 41, 81, 81, 16])
            // Block 1 is blue and black: Cb = 128 + 112/2 = 184, Cr = 128 − 18.214/2 = 118.9.
            #expect(Array(planes[6..<8]) == [90, 184])
            #expect(Array(planes[8..<10]) == [240, 119])
        }
    }

    /// Sprite-sheet grids, placement and the TexturePacker atlas.
    struct SpriteSheetTests {
        @Test(arguments: [
            (10, nil, 4, 3), (9, nil, 3, 3), (1, nil, 1, 1), (2, nil, 2, 1), (17, nil, 5, 4), (10, 5, 5, 2), (3, 8, 3, 1),
        ] as [(Int, Int?, Int, Int)])
        func layouts(frameCount: Int, requested: Int?, columns: Int, rows: Int) {
            let layout = SpriteSheet.layout(frameCount: frameCount, frameWidth: 7, frameHeight: 5, columns: requested)
            #expect(layout.columns == columns && layout.rows == rows)
            #expect(layout.width == columns * 7 && layout.height == rows * 5)
        }

        @Test func placesFramesRowMajorAndLeavesUnusedCellsClear() {
            let layout = SpriteSheet.layout(frameCount: 3, frameWidth: 2, frameHeight: 2, columns: nil)
            #expect(layout.columns == 2 && layout.rows == 2)
            var builder = SpriteSheet.Builder(columns: layout.columns, rows: layout.rows, frameWidth: 2, frameHeight: 2)
            for index in 0..<3 {
                // Frame i's pixel (x, y) is (i + 1, x, y, 255): which frame and where within it.
                var pixels: [UInt8] = []
                for y in 0..<2 {
                    for x in 0..<2 { pixels += [UInt8(index + 1), UInt8(x), UInt8(y), 255] }
                }
                builder.place(Image(width: 2, height: 2, pixels: pixels), at: index)
            }
            let sheet = builder.image
            #expect(sheet.width == 4 && sheet.height == 4)
            for y in 0..<4 {
                for x in 0..<4 {
                    let index = (y / 2) * 2 + x / 2
                    let expected: (UInt8, UInt8, UInt8, UInt8) =
                        index < 3 ? (UInt8(index + 1), UInt8(x % 2), UInt8(y % 2), 255) : (0, 0, 0, 0)
                    let observed = sheet[x, y]
                    #expect(observed == expected, "pixel (\(x), \(y)): expected \(expected), observed \(observed)")
                }
            }
        }

        @Test func atlasJSONHasFramesInOrderAndMeta() throws {
            let names = ["spin-10", "spin-02", "spin-1", "quote\"back\\slash\ttab", "spin-ü"]
            let layout = SpriteSheet.layout(frameCount: names.count, frameWidth: 64, frameHeight: 32, columns: nil)
            let data = SpriteSheet.textureAtlasJSON(
                imageName: "sheet.png", frameNames: names, frameWidth: 64, frameHeight: 32, columns: layout.columns,
                sheetWidth: layout.width, sheetHeight: layout.height, fps: 60, loop: true, animationName: "spin", scale: 2)
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let frames = try #require(root["frames"] as? [String: Any])
            #expect(frames.count == names.count)
            for (index, name) in names.enumerated() {
                let entry = try #require(frames[name] as? [String: Any], "frame \(name) missing")
                let rect = try #require(entry["frame"] as? [String: Int])
                #expect(rect == ["x": (index % 3) * 64, "y": (index / 3) * 32, "w": 64, "h": 32], "frame \(name)")
                #expect(entry["rotated"] as? Bool == false && entry["trimmed"] as? Bool == false)
                #expect(entry["sourceSize"] as? [String: Int] == ["w": 64, "h": 32])
                // Whole milliseconds from rounded times (17, 17, 16, …): they add up to the clip.
                let duration = try #require(entry["duration"] as? Double)
                #expect(duration == Double(Int((Double(index + 1) * 1000 / 60).rounded()) - Int((Double(index) * 1000 / 60).rounded())))
            }
            let animations = try #require(root["animations"] as? [String: [String]])
            #expect(animations == ["spin": names])
            let meta = try #require(root["meta"] as? [String: Any])
            #expect(meta["animations"] as? [String: [String]] == ["spin": names])
            #expect(meta["size"] as? [String: Int] == ["w": 192, "h": 64])
            #expect(meta["frameRate"] as? Double == 60)
            #expect(meta["scale"] as? String == "2")
            #expect(meta["loop"] as? Bool == true)
            #expect(meta["image"] as? String == "sheet.png")
            #expect(meta["version"] as? String == throbberVersion)

            // The members of "frames" follow frame order in the text (JSONSerialization's
            // dictionaries lose it; JSONNode keeps the file's order).
            guard case .object(let members) = try JSONNode.parse(String(decoding: data, as: UTF8.self)).value,
                  case .object(let frameMembers)? = members.first(where: { $0.key == "frames" })?.value.value else {
                Issue.record("no frames object")
                return
            }
            #expect(frameMembers.map(\.key) == names)
            // What a resume reads back is what was written, frames in order.
            let atlas = try TextureAtlas(decoding: data)
            #expect(atlas.frames.map(\.name) == names)
            #expect(atlas == SpriteSheet.textureAtlas(
                imageName: "sheet.png", frameNames: names, frameWidth: 64, frameHeight: 32, columns: layout.columns,
                sheetWidth: layout.width, sheetHeight: layout.height, fps: 60, loop: true, animationName: "spin", scale: 2))
        }

        /// Numbers as JSON numbers without a needless fraction, strings escaped, the scale a string.
        @Test func jsonNumbersAndStrings() throws {
            let data = SpriteSheet.textureAtlasJSON(
                imageName: "s.png", frameNames: ["a\"b\\c\u{1}"], frameWidth: 8, frameHeight: 8, columns: 1, sheetWidth: 8,
                sheetHeight: 8, fps: 50, loop: false, animationName: "a", scale: 1.5, times: [0.5])
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("\"duration\" : 20,") && text.contains("\"t\" : 0.5") && text.contains("\"frameRate\" : 50,"), "\(text)")
            #expect(text.contains("\"a\\\"b\\\\c\\u0001\""), "\(text)")
            #expect(text.contains("\"scale\" : \"1.5\"") && text.hasSuffix("}\n"))
            #expect(SpriteSheet.scaleText(60) == "60" && SpriteSheet.scaleText(0.5) == "0.5")
            #expect(try TextureAtlas(decoding: data).frames.map(\.name) == ["a\"b\\c\u{1}"])
        }
    }

    /// Files land whole or not at all, never over an existing one unless asked.
    struct AtomicFileTests {
        func scratch() throws -> URL {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("throbber-atomic-\(getpid())-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory
        }

        @Test func writesTheBytesAndLeavesNothingElse() throws {
            let directory = try scratch()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("a.bin")
            let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            try AtomicFile.write(bytes, to: file, overwrite: false)
            #expect(try Data(contentsOf: file) == bytes)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a.bin"])
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o644 & ~Int(umaskValue()))
        }

        @Test func refusesToReplaceUnlessAsked() throws {
            let directory = try scratch()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("a.txt")
            try AtomicFile.write(Data("first".utf8), to: file, overwrite: false)
            #expect {
                try AtomicFile.write(Data("second".utf8), to: file, overwrite: false)
            } throws: { error in
                (error as? ThrobberError)?.kind == .cannotCreate && "\(error)".contains(file.path)
            }
            #expect(try String(contentsOf: file, encoding: .utf8) == "first")
            try AtomicFile.write(Data("third".utf8), to: file, overwrite: true)
            #expect(try String(contentsOf: file, encoding: .utf8) == "third")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a.txt"])
        }

        @Test func missingDirectoryIsCannotCreate() throws {
            let directory = try scratch()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("gone/a.txt")
            #expect {
                try AtomicFile.write(Data("x".utf8), to: file, overwrite: false)
            } throws: { error in
                (error as? ThrobberError)?.kind == .cannotCreate && "\(error)".contains(file.path)
            }
        }

        func umaskValue() -> mode_t {
            let old = umask(0)
            umask(old)
            return old
        }
    }
}

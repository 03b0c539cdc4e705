import CZlib
import Testing
import Throbber
@testable import ThrobberLottie

/// The ZIP layer under dotLottie: each refusal on an archive written here for it, one line each.
struct ArchiveZipTests {
    /// A valid version 2 archive with one deflated animation, for the tests to break.
    static func valid(_ edit: (inout TestZip) -> Void = { _ in }) -> [UInt8] {
        var zip = TestZip(entries: [
            .init("manifest.json", Array(#"{"version":"2","animations":[{"id":"spin"}]}"#.utf8)),
            .init("a/spin.json", Array(#"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":64,"h":64,"layers":[]}"#.utf8)),
        ])
        edit(&zip)
        return zip.bytes()
    }

    /// The one-line message `read` refuses `bytes` with.
    static func refusal(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> String {
        do {
            _ = try DotLottieArchive.read(bytes, path: "in.lottie")
            Issue.record("the archive was read", sourceLocation: sourceLocation)
            return ""
        } catch let error as ThrobberError {
            #expect(error.kind == .badData, sourceLocation: sourceLocation)
            #expect(error.message.hasPrefix("in.lottie: dotLottie "), "\(error.message)", sourceLocation: sourceLocation)
            #expect(!error.message.contains("\n"), sourceLocation: sourceLocation)
            return error.message
        } catch {
            Issue.record("not a ThrobberError: \(error)", sourceLocation: sourceLocation)
            return ""
        }
    }

    @Test func aValidArchiveReads() throws {
        let bytes = Self.valid()
        #expect(DotLottieArchive.isArchive(bytes))
        #expect(!DotLottieArchive.isArchive(Array(#"{"v":"5.7.0"}"#.utf8)))
        #expect(!DotLottieArchive.isArchive([0x50, 0x4B]))
        let archive = try DotLottieArchive.read(bytes, path: "in.lottie")
        #expect(archive.animations.map(\.id) == ["spin"])
        #expect(String(decoding: archive.animations[0].json, as: UTF8.self).hasPrefix(#"{"v":"5.7.0""#))
    }

    @Test func storedAndDescribedEntriesRead() throws {
        let bytes = Self.valid { zip in
            zip.entries[0].method = 0
            zip.entries[1].descriptor = .signed
        }
        let archive = try DotLottieArchive.read(bytes, path: "in.lottie")
        #expect(archive.animations.count == 1)
        let unsigned = Self.valid { $0.entries[1].descriptor = .unsigned }
        #expect(try DotLottieArchive.read(unsigned, path: "in.lottie").animations.count == 1)
    }

    @Test func zip64IsRefused() throws {
        #expect(Self.refusal(Self.valid { $0.entryCount = 0xFFFF }).contains("ZIP64"))
        #expect(Self.refusal(Self.valid { $0.zip64Locator = true }).contains("ZIP64"))
        #expect(Self.refusal(Self.valid { $0.entries[1].extra = [0x01, 0x00, 0x08, 0x00] + [UInt8](repeating: 0, count: 8) })
            .contains("'a/spin.json': has ZIP64 sizes"))
        #expect(Self.refusal(Self.valid { $0.entries[1].declaredSize = 0xFFFF_FFFF }).contains("ZIP64"))
        // The local header alone says ZIP64 (as zipfile's force_zip64 writes it): sizes 0xFFFFFFFF.
        var bytes = Self.valid()
        let second = try #require((4..<bytes.count).first { ZipArchive.signature(in: bytes, at: $0) == ZipArchive.localSignature })
        for index in second + 18..<second + 26 { bytes[index] = 0xFF }
        #expect(Self.refusal(bytes).contains("'a/spin.json': has ZIP64 sizes in its local header"))
    }

    @Test func encryptionAndOtherMethodsAreRefused() {
        #expect(Self.refusal(Self.valid { $0.entries[1].flags = 1 }).contains("'a/spin.json': is encrypted"))
        #expect(Self.refusal(Self.valid { $0.entries[1].flags = 0x40 }).contains("is encrypted"))
        #expect(Self.refusal(Self.valid { $0.entries[1].method = 12 }).contains("compression method 12"))
        #expect(Self.refusal(Self.valid { $0.entries[1].method = 14 }).contains("only stored (0) and deflate (8)"))
    }

    @Test func descriptorsMustRepeatTheCentralDirectory() {
        #expect(Self.refusal(Self.valid { $0.entries[1].descriptor = .wrongCRC }).contains("data descriptor"))
        #expect(Self.refusal(Self.valid { $0.entries[1].localCRC = 1 }).contains("local header's CRC or sizes"))
        #expect(Self.refusal(Self.valid { $0.entries[1].localName = "a/spun.json" }).contains("does not match"))
    }

    @Test func overlapsAndDuplicatesAreRefused() {
        // A stored entry whose bytes are a whole second entry, both listed: the second's header
        // matches, but its bytes are the first's (the overlapping-entries bomb).
        let nested = Self.valid { zip in
            zip.entries.append(.init("i/outer.bin", [], method: 0))
            zip.entries.append(.init("i/inner.png", [1, 2, 3], method: 0))
            zip.nestLastInPrevious = true
        }
        #expect(Self.refusal(nested).contains("'i/inner.png': overlaps entry 'i/outer.bin'"))
        let twice = Self.valid { zip in zip.entries.append(.init("manifest.json", zip.entries[0].data)) }
        #expect(Self.refusal(twice).contains("'manifest.json': is listed twice"))
    }

    @Test func tooManyEntriesAreRefused() {
        let bytes = Self.valid { zip in
            for index in 0..<LottieLimits.archiveEntries { zip.entries.append(.init("i/\(index)", [], method: 0)) }
        }
        #expect(Self.refusal(bytes).contains("lists \(LottieLimits.archiveEntries + 2) entries; at most \(LottieLimits.archiveEntries)"))
    }

    @Test func aLargeArchiveIsRefusedBeforeItIsRead() {
        let bytes = [UInt8](repeating: 0, count: LottieLimits.largestArchive + 1)
        #expect(Self.refusal(bytes).contains("is \(LottieLimits.largestArchive + 1) bytes; at most"))
    }

    @Test func anAnimationOverTheJSONBoundIsRefused() {
        let big = [UInt8](repeating: 0x20, count: LottieLimits.largestJSON + 1)
        let message = Self.refusal(Self.valid { $0.entries[1] = .init("a/spin.json", big, method: 0) })
        #expect(message.contains("'a/spin.json': declares \(LottieLimits.largestJSON + 1) bytes; at most \(LottieLimits.largestJSON)"))
        let image = [UInt8](repeating: 7, count: LottieLimits.largestArchiveImage + 1)
        #expect(Self.refusal(Self.valid { $0.entries.append(.init("i/big.png", image, method: 0)) })
            .contains("'i/big.png': declares \(LottieLimits.largestArchiveImage + 1) bytes"))
    }

    /// A bomb is refused on its declared sizes, before any output is allocated: 4 GB declared
    /// from a few bytes, and a real 8 MB of zeros deflated a thousand times over.
    @Test func bombsAreRefusedBeforeInflating() {
        let declared = Self.refusal(Self.valid { $0.entries[1].declaredSize = 0xFFFF_FFFE })
        #expect(declared.contains("'a/spin.json': declares 4294967294 bytes inflated"))
        let zeros = [UInt8](repeating: 0x20, count: 8 << 20)
        let bomb = Self.refusal(Self.valid { $0.entries[1] = .init("a/spin.json", zeros) })
        #expect(bomb.contains("a ratio over \(LottieLimits.inflationRatio)"), "\(bomb)")
    }

    @Test func inflatingMustGiveTheDeclaredSizeAndCRC() {
        #expect(Self.refusal(Self.valid { $0.entries[1].declaredSize = 20 }).contains("inflates past its declared 20 bytes"))
        #expect(Self.refusal(Self.valid { $0.entries[1].declaredSize = 100 }).contains("not the 100 it declares"))
        #expect(Self.refusal(Self.valid { $0.entries[1].crc = 0xDEAD_BEEF }).contains("fails its CRC-32 check (stored 0xdeadbeef"))
        #expect(Self.refusal(Self.valid { $0.entries[1].storedOverride = [0xFF, 0xFF, 0xFF, 0xFF] }).contains("deflate stream"))
    }

    @Test(arguments: ["../x.json", "/etc/passwd", "a\\b.json", "a\u{0}b", "C:/x", "./manifest.json", "a//b", "i/../../x"])
    func namesThatCouldBePathsAreRefused(name: String) {
        let message = Self.refusal(Self.valid { $0.entries.append(.init(name, [1], method: 0)) })
        #expect(message.contains("is not a plain relative name"), "\(message)")
    }

    @Test func aNameThatIsNotUTF8IsRefused() {
        let message = Self.refusal(Self.valid { $0.entries.append(.init("x", [1], method: 0, rawName: [0x69, 0xFF])) })
        #expect(message.contains("not UTF-8"))
    }

    /// Every prefix of a small valid archive, and every single-byte change of it, is read or
    /// refused with one line, never a crash.
    @Test func truncatedAndDamagedArchivesAreRefused() {
        let bytes = Self.valid()
        for length in 0..<bytes.count { _ = Self.refusal(Array(bytes[0..<length])) }
        var read = 0
        for index in bytes.indices {
            var damaged = bytes
            damaged[index] ^= 0x5A
            do {
                _ = try DotLottieArchive.read(damaged, path: "in.lottie")
                read += 1
            } catch let error as ThrobberError {
                #expect(error.kind == .badData && !error.message.contains("\n"))
            } catch {
                Issue.record("not a ThrobberError: \(error)")
            }
        }
        // Only bytes no check covers (times, dates, versions, attributes) leave it readable.
        #expect(read < bytes.count / 3, "\(read) of \(bytes.count) damaged archives read")
    }

    /// Seeded random damage of a version 2 archive with a theme and an image: 32-bit fields set to
    /// edges, runs cut out or repeated. Every result is read or refused with one line.
    @Test func randomlyDamagedArchivesAreRefused() {
        let bytes = TestZip(entries: [
            .init("manifest.json", Array(#"{"version":"2","animations":[{"id":"x"}],"themes":[{"id":"t"}]}"#.utf8)),
            .init("a/x.json", Array(#"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":64,"h":64,"layers":[]}"#.utf8)),
            .init("t/t.json", Array(#"{"rules":[{"id":"c","type":"Color","value":[1,0,0]}]}"#.utf8)),
            .init("i/x.png", [0x89, 0x50, 0x4E, 0x47], method: 0),
        ]).bytes()
        var state: UInt64 = 50
        func next(_ bound: Int) -> Int {
            // SplitMix64: the same damage on every run.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        let edges: [UInt32] = [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF, UInt32(bytes.count), 0xFFFF]
        for _ in 0..<2000 {
            var damaged = bytes
            for _ in 0...next(3) {
                let at = next(damaged.count)
                switch next(3) {
                case 0:
                    let edge = edges[next(edges.count)]
                    for k in 0..<4 where at + k < damaged.count { damaged[at + k] = UInt8(truncatingIfNeeded: edge >> (8 * UInt32(k))) }
                case 1: damaged.removeSubrange(at..<min(damaged.count, at + 1 + next(40)))
                default: damaged.insert(contentsOf: damaged[at..<min(damaged.count, at + 1 + next(40))], at: at)
                }
                if damaged.isEmpty { damaged = [0] }
            }
            do {
                _ = try DotLottieArchive.read(damaged, path: "in.lottie")
            } catch let error as ThrobberError {
                #expect(error.kind == .badData && !error.message.contains("\n") && error.message.hasPrefix("in.lottie: dotLottie "))
            } catch {
                Issue.record("not a ThrobberError: \(error)")
            }
        }
    }
}

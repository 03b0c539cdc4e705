import Foundation
import Dispatch
import Synchronization
import Testing
import Throbber
import ThrobberBenchmarks
import ThrobberCPU
import ThrobberPNG

/// Encoding in a sequence (`PNGSequence`): a frame takes the compressed bytes of the segments of
/// rows it shares with the frame encoded before it on the same thread, and the file is byte for
/// byte the one a fresh encode writes.
struct PNGSequenceTests {
    /// The fast writers at each igzip level and filter, zlib's segments at a spread of levels and
    /// every filter, and libdeflate (one segment: the image).
    static let encoders: [PNGEncoder] = [.isal(level: 0), .libdeflate(level: 1), .libdeflate(level: 6)]
        + (1...3).flatMap { level in PNGRowFilter.allCases.map { PNGEncoder.isal(level: level, filter: $0) } }
        + [1, 9].flatMap { level in PNGRowFilter.allCases.map { PNGEncoder.zlib(level: level, filter: $0) } }
        + [PNGEncoder.zlib(level: 0), .zlib(level: 4)]

    /// One segment, several, and a last segment shorter than the others (513 px: 64 rows each).
    static let sizes = [(1, 1), (64, 64), (513, 257), (700, 401)]

    /// The rows per segment the writer uses (CPNGWriter: 128 KiB of filtered rows with igzip at
    /// levels 1–3, 96 KiB with zlib, or 1/64 of an image larger than 64 of them; else the whole image).
    static func segmentRows(_ encoder: PNGEncoder, width: Int, height: Int) -> Int {
        // zlib's segments at every level; igzip's from level 1 (level 0 keeps one); libdeflate one.
        guard encoder.name == "zlib" || (encoder.name == "isal" && encoder.level > 0) else { return height }
        let filteredRow = width * 4 + 1, total = filteredRow * height
        let least = encoder.name == "zlib" ? 96 * 1024 : 128 * 1024
        let bytes = total > least * 64 ? (total + 63) / 64 : least
        return min(height, (bytes + filteredRow - 1) / filteredRow)
    }

    /// Rows a frame takes from the one before: those of each segment none of whose filtered rows
    /// changed. A filter that reads the row above (`readsAbove`) changes with it too.
    static func expectedReusedRows(_ encoder: PNGEncoder, width: Int, height: Int, changed: Set<Int>,
                                   readsAbove: Bool) -> Int {
        let rows = segmentRows(encoder, width: width, height: height)
        var reused = 0
        for first in stride(from: 0, to: height, by: rows) {
            let last = min(height, first + rows) - 1
            let reach = (readsAbove ? max(0, first - 1) : first)...last
            if !changed.contains(where: { reach.contains($0) }) { reused += last - first + 1 }
        }
        return reused
    }

    /// The rows a frame takes, as a range: exact for a fixed filter. Adaptive filtering may give
    /// the row under a changed one a filter that does not read it (none, sub) in both frames,
    /// leaving its filtered bytes as they were: between the count with and without the row above.
    static func expectedReusedRows(_ encoder: PNGEncoder, width: Int, height: Int, changed: Set<Int>) -> ClosedRange<Int> {
        let fixedReadsAbove = [PNGRowFilter.up, .average, .paeth].contains(encoder.filter)
        let least = expectedReusedRows(encoder, width: width, height: height, changed: changed,
                                       readsAbove: fixedReadsAbove || encoder.filter == .adaptive)
        let most = expectedReusedRows(encoder, width: width, height: height, changed: changed, readsAbove: fixedReadsAbove)
        return least...most
    }

    /// Frames drawn from a random walk: each frame changes a random set of rows of the one before
    /// (sometimes none, sometimes all; frame 1 none). Encoded in one sequence, every file equals a fresh
    /// encode's bytes, decodes to its pixels, and takes exactly the rows of unchanged segments.
    @Test(arguments: encoders)
    func sequencesWriteTheBytesOfAFreshEncode(encoder: PNGEncoder) throws {
        var random = SplitMix64(seed: 0x5E9 &+ UInt64(Self.encoders.firstIndex(of: encoder)!))
        for (width, height) in Self.sizes {
            var image = PNGEncoderTests.image(.translucent, width: width, height: height, seed: random.next())
            let sequence = PNGSequence()
            var totalReused = 0
            // Row stamps as a renderer gives them (Image.rowStamps): a changed row gets a new one.
            // Some frames carry none, and some give unchanged rows new ones, so the writer both
            // trusts stamps and compares rows.
            var nextStamp: UInt64 = 0
            func newStamp() -> UInt64 { nextStamp += 1; return nextStamp }
            var stamps = (0..<height).map { _ in newStamp() }
            for frame in 0..<10 {
                var changed = Set<Int>()
                if frame > 1 {
                    // Frame 1 is frame 0 again: every size takes rows at least once.
                    switch random.next() % 4 {
                    case 0: // the same frame again, now and then under new stamps
                        if random.next() % 2 == 0 { stamps = stamps.map { _ in newStamp() } }
                    case 1: changed = Set(0..<height)
                    default:
                        for _ in 0..<(1 + Int(random.next() % 3)) { changed.insert(Int(random.next() % UInt64(height))) }
                    }
                }
                for y in changed.sorted() { // a Set's order differs from run to run; the draws must not
                    let x = Int(random.next() % UInt64(width)), at = (y * width + x) * 4
                    image.pixels[at + Int(random.next() % 4)] &+= 1 + UInt8(random.next() % 255)
                    stamps[y] = newStamp()
                }
                image = random.next() % 4 == 0 ? Image(width: width, height: height, pixels: image.pixels) : image.promising(RowStamps(stamps))
                // On 1–3 threads in the sequence and 1–4 fresh: the bytes never depend on the count.
                let (data, reused) = try encoder.encodeCounting(image, text: PNGEncoderTests.text, sequence: sequence,
                                                                threads: 1 + frame % 3)
                #expect(data == (try encoder.encode(image, text: PNGEncoderTests.text, threads: 1 + (frame + 1) % 4)),
                        "\(encoder) \(width)×\(height) frame \(frame)")
                #expect(try PNGCodec.decode(data) == image)
                let expected = frame == 0 ? 0...0 : Self.expectedReusedRows(encoder, width: width, height: height, changed: changed)
                #expect(expected.contains(reused), "\(encoder) \(width)×\(height) frame \(frame): took \(reused) rows, expected \(expected)")
                totalReused += reused
            }
            #expect(totalReused > 0, "\(encoder) \(width)×\(height): no frame took a row")
        }
    }

    /// An image over 8 MiB of filtered rows has 64 segments of 1/64 of it, filtered and compressed
    /// on as many threads as allowed: the file is the same on 1, 2, 5 or 64 threads, decodes to the
    /// image, and in a sequence a changed row costs only its own segment.
    @Test(arguments: [PNGEncoder.isal(level: 1), .isal(level: 3, filter: .paeth), .zlib(level: 4), .zlib(level: 9, filter: .adaptive)])
    func aBigFrameIsSplitAcrossThreads(encoder: PNGEncoder) throws {
        let (width, height) = (1500, 1401) // 6,001 × 1,401 = 8.4 MB filtered: 64 segments of 22 rows, the last 15
        let rows = Self.segmentRows(encoder, width: width, height: height)
        #expect(rows == 22)
        var image = PNGEncoderTests.image(.translucent, width: width, height: height, seed: 41)
        let single = try encoder.encode(image, text: PNGEncoderTests.text)
        for threads in [2, 5, 64] {
            #expect(try encoder.encode(image, text: PNGEncoderTests.text, threads: threads) == single, "\(encoder) on \(threads) threads")
        }
        #expect(try PNGCodec.decode(single) == image)
        let sequence = PNGSequence()
        _ = try encoder.encodeCounting(image, sequence: sequence, threads: 3)
        image.pixels[(700 * width + 3) * 4] &+= 9
        let (data, reused) = try encoder.encodeCounting(image, sequence: sequence, threads: 3)
        #expect(data == (try encoder.encode(image)))
        let expected = Self.expectedReusedRows(encoder, width: width, height: height, changed: [700])
        #expect(expected.contains(reused), "took \(reused) rows, expected \(expected)")
    }

    /// A frame lends its rows to a later frame of the same sequence at the same size and settings
    /// on the same thread. A thread keeps the last frame of two such keys (a clip written to two
    /// PNG outputs with different encoders encodes each frame twice, alternating); a third key
    /// drops the one kept least recently. A frame without a sequence neither takes nor replaces
    /// one. (Each check also encodes afresh, without a sequence, to compare the bytes.)
    /// libpng in a sequence takes a frame that did not change whole: the same file a fresh
    /// encode writes (under the frame's own tEXt), every row counted as taken; a changed frame,
    /// another sequence or other settings are encoded afresh.
    @Test func libpngTakesAnUnchangedFrameWhole() throws {
        let still = PNGEncoderTests.image(.translucent, width: 131, height: 67, seed: 3)
        var moved = still
        moved.pixels[4 * 131 * 40 + 9] &+= 1
        for encoder in [PNGEncoder.libpng(level: 6, filter: .adaptive), .libpng(level: 7)] {
            let sequence = PNGSequence()
            func check(_ image: Image, text: [(String, String)], taken: Int, in sequence: PNGSequence, _ note: String) throws {
                let (data, reused) = try encoder.encodeCounting(image, text: text, sequence: sequence)
                #expect(reused == taken, "\(encoder) \(note)")
                #expect(try data == encoder.encode(image, text: text), "\(encoder) \(note): byte for byte a fresh encode")
                #expect(try PNGCodec.decode(data) == image && PNGCodec.textChunks(data).map(\.1) == text.map(\.1))
            }
            try check(still, text: [("Throbber:t", "0")], taken: 0, in: sequence, "first")
            try check(still, text: [("Throbber:t", "0.016667"), ("Title", "wave")], taken: 67, in: sequence, "unchanged")
            try check(moved, text: [("Throbber:t", "0.033333")], taken: 0, in: sequence, "changed")
            try check(moved, text: [], taken: 67, in: sequence, "unchanged again, no text")
            try check(moved, text: [], taken: 0, in: PNGSequence(), "another sequence")
        }
        let sequence = PNGSequence()
        _ = try PNGEncoder.libpng(level: 6).encodeCounting(still, sequence: sequence)
        #expect(try PNGEncoder.libpng(level: 5).encodeCounting(still, sequence: sequence).reusedRows == 0, "another level")
    }

    @Test func onlyAKeptFrameOfTheSameSequenceAndSettingsLends() throws {
        let image = PNGEncoderTests.image(.opaque, width: 300, height: 600, seed: 7)
        let isal = PNGEncoder.isal(level: 1)
        let first = PNGSequence(), second = PNGSequence()
        func reused(_ encoder: PNGEncoder, _ image: Image, _ sequence: PNGSequence?) throws -> Int {
            let (data, reused) = try encoder.encodeCounting(image, sequence: sequence)
            #expect(data == (try encoder.encode(image)))
            return reused
        }
        #expect(try reused(isal, image, first) == 0)
        #expect(try reused(isal, image, first) == 600)
        #expect(try reused(isal, image, second) == 0, "another sequence")
        #expect(try reused(isal, image, first) == 600, "two keys are kept")
        #expect(try reused(isal, image, second) == 600)
        #expect(try reused(.isal(level: 2), image, first) == 0, "another level")
        #expect(try reused(isal, image, first) == 0, "dropped for a third key, as the least recently kept")
        #expect(try reused(isal, image, second) == 0, "dropped in turn")
        #expect(try reused(.isal(level: 2, filter: .up), image, first) == 0, "another filter")
        #expect(try reused(.libdeflate(level: 2), image, first) == 0, "another encoder")
        let taller = PNGEncoderTests.image(.opaque, width: 300, height: 601, seed: 7)
        #expect(try reused(.libdeflate(level: 2), taller, first) == 0, "another size")
        #expect(try reused(.libdeflate(level: 2), taller, first) == 601)
        #expect(try reused(.libdeflate(level: 2), taller, nil) == 0, "no sequence")
        #expect(try reused(.libdeflate(level: 2), taller, first) == 601, "a frame without a sequence leaves it")
        #expect(try reused(.libpng(level: 6), taller, first) == 0, "libpng keeps nothing")
        // Two encoders alternating on one clip, each frame changed in one row: each takes all
        // but the changed row's segment from its own kept frame.
        var frame = image
        let rows = Self.segmentRows(isal, width: 300, height: 600)
        for k in 0..<6 {
            let row = k * 97 % 600
            frame.pixels[row * 300 * 4] &+= 1
            let changedSegment = min(rows, 600 - row / rows * rows)
            let isalReused = try reused(isal, frame, first), deflateReused = try reused(.libdeflate(level: 1), frame, first)
            #expect(k == 0 ? isalReused == 0 : isalReused == 600 - changedSegment, "frame \(k)")
            #expect(deflateReused == 0, "libdeflate is one segment, and every frame changes")
        }
        #expect(try reused(.libdeflate(level: 1), frame, first) == 600)
        #expect(try reused(isal, frame, first) == 600)
    }

    /// Row stamps spare the comparison: the writer takes a row whose stamp is the kept row's as
    /// unchanged without reading it. Shown with a false promise (a row changed under its old
    /// stamp), which only the package's own renderer could make; stamps of the wrong count, or
    /// in no sequence, are ignored.
    @Test func rowStampsAreTakenAtTheirWord() throws {
        let image = PNGEncoderTests.image(.opaque, width: 64, height: 64, seed: 3)
        let encoder = PNGEncoder.isal(level: 1) // one segment of 64 rows
        var stamped = image
        stamped = stamped.promising(RowStamps((1...64).map { UInt64($0) }))
        var changed = image
        changed.pixels[0] &+= 1
        #expect(changed.rowStamps == nil)
        func encodeAfter(_ before: Image, _ frame: Image) throws -> (data: Foundation.Data, reusedRows: Int) {
            let sequence = PNGSequence()
            _ = try encoder.encodeCounting(before, sequence: sequence)
            return try encoder.encodeCounting(frame, sequence: sequence)
        }
        let falsePromise = changed.promising(stamped.rowStamps!)
        let trusted = try encodeAfter(stamped, falsePromise)
        #expect(trusted.reusedRows == 64, "row 0 was not read")
        #expect(try PNGCodec.decode(trusted.data) == image, "so the file holds the frame before's row 0")
        var stamps = stamped.rowStamps!.values
        stamps[0] = 65
        let honest = changed.promising(RowStamps(stamps))
        let compared = try encodeAfter(stamped, honest)
        let fresh = try encoder.encode(changed)
        #expect(compared.reusedRows == 0 && compared.data == fresh)
        #expect(try encoder.encode(falsePromise) == (try encoder.encode(changed)), "no sequence: ignored")
    }

    /// The frames kept on a thread hold at most 72 MiB of filtered rows: a second large key
    /// drops the first.
    @Test func keptFramesStayWithinTheirBudget() throws {
        let large = Image(width: 3100, height: 3100) // 38.4 MB filtered: two are over 72 MiB
        let isal = PNGEncoder.isal(level: 1), deflate = PNGEncoder.libdeflate(level: 1)
        let sequence = PNGSequence()
        #expect(try isal.encodeCounting(large, sequence: sequence).reusedRows == 0)
        #expect(try isal.encodeCounting(large, sequence: sequence).reusedRows == 3100)
        #expect(try deflate.encodeCounting(large, sequence: sequence).reusedRows == 0)
        #expect(try deflate.encodeCounting(large, sequence: sequence).reusedRows == 3100)
        #expect(try isal.encodeCounting(large, sequence: sequence).reusedRows == 0, "dropped for the budget")
    }

    /// What it is for: a wave ball changes the rows its waves cross, and the segmented encoders
    /// (igzip level 2 at 512 px, zlib 4 at 1024 px) take most of each frame from the frame before.
    @Test(arguments: [(512, PNGEncoder.isal(level: 2)), (1024, .zlib(level: 4))])
    func aWaveBallTakesMostRowsFromTheFrameBefore(size: Int, encoder: PNGEncoder) throws {
        let scene = try Benchmarks.scene("wave-ball", size: size)
        let cpu = CPURenderer(threadCount: 2)
        let sequence = PNGSequence()
        var reused = 0, rows = 0
        for k in 0..<(size > 512 ? 8 : 30) {
            let image = cpu.render(scene.drawList(at: 3 + Double(k) / 60))
            let (data, taken) = try encoder.encodeCounting(image, sequence: sequence)
            #expect(data == (try encoder.encode(image)))
            reused += taken
            rows += image.height
        }
        #expect(Double(reused) / Double(rows) > 0.5, "took \(reused) of \(rows) rows")
    }

    /// One sequence shared by many threads at once: each thread lends only to itself, and every
    /// file is a fresh encode's bytes.
    @Test func oneSequenceOnManyThreads() throws {
        let base = PNGEncoderTests.image(.translucent, width: 513, height: 257, seed: 11)
        let frames = (0..<48).map { k -> Image in
            var image = base
            image.pixels[(k % 257) * 513 * 4] &+= UInt8(1 + k)
            return image
        }
        let sequence = PNGSequence()
        let failures = Mutex(0), taken = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: frames.count) { k in
            let encoder: PNGEncoder = k % 3 == 0 ? .isal(level: 1) : .isal(level: 1, filter: .paeth)
            guard let (data, reused) = try? encoder.encodeCounting(frames[k], sequence: sequence),
                  data == (try? encoder.encode(frames[k])) else {
                return failures.withLock { $0 += 1 }
            }
            taken.withLock { $0 += reused }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(taken.withLock { $0 } > 0)
    }
}

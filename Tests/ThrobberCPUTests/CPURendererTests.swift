import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberRender
import ThrobberText

/// How large the byte-identity sweeps below draw. `swift test` (a debug build) meets the same
/// invariants with the same cases at small scales — the scales given times 0.3–0.5, random cases
/// at 0.4 of theirs — where every path (solid runs, kept and copied bands, recycled memory, boxes
/// at every angle) is still taken; CI's release run (`THROBBER_FULL_SWEEPS=1`, .ci/run) draws them
/// at full size.
enum Sweep {
    static let full = ProcessInfo.processInfo.environment["THROBBER_FULL_SWEEPS"] == "1"

    /// `scales` in a full sweep; otherwise as many of 0.3, 0.43 (fractional pixels everywhere)
    /// and 0.5.
    static func scales(_ scales: [Double]) -> [Double] {
        full ? scales : Array([0.3, 0.43, 0.5].prefix(scales.count))
    }

    /// A random case's scene as the sweep draws it: itself in a full sweep, else at 0.4 of its
    /// scale when that scale is allowed.
    static func scaled(_ item: ParityMatrix.Case) throws -> LaidOutScene {
        let scene = item.scene
        guard !full, Limits.scaleRange.contains(scene.scale * 0.4) else { return try item.laidOutScene() }
        var small = scene
        small.scale *= 0.4
        // Its text laid out again at the new scale (glyphs are rasterised per pixel size).
        guard (try? small.validate()) != nil, let laidOut = try? small.layingOutText() else { return try item.laidOutScene() }
        return laidOut
    }
}

struct CPURendererTests {
    @Test(arguments: [1, 3, 7])
    func sameBytesWhateverTheThreadCount(threads: Int) throws {
        let list = try LaidOutScene(Scene(WaveBall(), scale: 1.5)).drawList(at: 1.3)
        let single = CPURenderer(threadCount: 1).render(list)
        let many = CPURenderer(threadCount: threads).render(list)
        #expect(firstDifference(single, many) == nil)
    }

    @Test func transparentBackgroundStaysTransparent() throws {
        let image = CPURenderer().render(try LaidOutScene(Scene()).drawList(at: 1))
        #expect(image[0, 0] == (0, 0, 0, 0))
        // The disc centre is opaque water.
        #expect(image[150, 150].a == 255)
    }

    @Test func discCentreHasTheWaterBackgroundColour() throws {
        // At t = 0 with fillFrom 0 the disc is empty: its centre is waterBackground exactly.
        let image = CPURenderer().render(try LaidOutScene(Scene()).drawList(at: 0))
        let c = WaveBall().waterBackground
        let pixel = image[150, 120]
        #expect(pixel == (UInt8((c.r * 255).rounded()), UInt8((c.g * 255).rounded()), UInt8((c.b * 255).rounded()), 255))
    }

    @Test func litTickIsLitAtTheBottom() throws {
        // Bottom tick centre: (150, 150 + (240/2 − 5)) = (150, 265).
        let image = CPURenderer().render(try LaidOutScene(Scene()).drawList(at: 1))
        let lit = WaveBall().tickLit
        let pixel = image[150, 265]
        #expect(abs(Int(pixel.r) - Int((lit.r * 255).rounded())) <= 1)
        #expect(abs(Int(pixel.b) - Int((lit.b * 255).rounded())) <= 1)
        // The top tick is not lit.
        let top = image[150, 35]
        #expect(abs(Int(top.b) - Int((WaveBall().tickBackground.b * 255).rounded())) <= 1)
    }

    /// The output buffer is not zeroed before the bands write it: every byte outside what is
    /// painted must still be the background's, even when the allocator hands back memory that held
    /// an earlier, fully painted frame.
    @Test(arguments: [RGBA.clear, RGBA(0.2, 0.4, 0.6, 0.8)])
    func unpaintedPixelsAreExactlyTheBackground(background: RGBA) throws {
        let side = 96
        let renderer = CPURenderer(threadCount: 2)
        let cover = DrawList(width: side, height: side, background: PaintColor(RGBA(1, 1, 1, 1)),
                             items: [DrawItem("cover", Disc(centerX: 48, centerY: 48, radius: 90, color: RGBA(0.9, 0.1, 0.3, 1), width: side, height: side))])
        let small = DrawList(width: side, height: side, background: PaintColor(background),
                             items: [DrawItem("small", Disc(centerX: 30, centerY: 40, radius: 6, color: RGBA(0, 1, 0, 1), width: side, height: side))])
        let paint = PaintColor(background)
        let expected = resolvePixel(paint.r * paint.a, paint.g * paint.a, paint.b * paint.a, paint.a)
        for _ in 0..<4 {
            _ = renderer.render(cover)
            let image = renderer.render(small)
            for y in 0..<side {
                for x in 0..<side where (x - 30) * (x - 30) + (y - 40) * (y - 40) > 64 {
                    let p = image[x, y]
                    #expect(p == (expected.0, expected.1, expected.2, expected.3), "pixel (\(x), \(y))")
                    if p != (expected.0, expected.1, expected.2, expected.3) { return }
                }
            }
            #expect(image[30, 40] == (0, 255, 0, 255))
        }
    }

    /// Tilted boxes are shaded only along each row's columns inside the box (grown by the edge);
    /// the pixels are the same as shading the whole bounding square.
    @Test func tiltedBoxesMatchShadingTheirWholeBounds() throws {
        let side = 64
        var instances: [QuadInstance] = []
        for k in 0..<24 {
            let angle = Double(k) * .pi / 12 + 0.01 * Double(k % 3)
            instances.append(QuadInstance(centerX: 32 + 20 * cos(angle), centerY: 32 + 20 * sin(angle), halfX: 6.3, halfY: 1.2 + 0.4 * Double(k % 4),
                                          rotation: angle, cornerRadius: Double(k % 2) * 0.6, color: RGBA(0.9, 0.8, 0.1, k % 5 == 0 ? 0.6 : 1)))
        }
        let list = DrawList(width: side, height: side, background: PaintColor(.clear),
                            items: [DrawItem("boxes", Boxes(instances, width: side, height: side))])
        let image = CPURenderer(threadCount: 1).render(list)
        // Reference: the same renderer shading every pixel centre of every bounding square.
        var whole = CPURenderer(threadCount: 1)
        whole.shortcuts = false
        #expect(firstDifference(image, whole.render(list)) == nil)
        #expect(image.pixels.contains { $0 != 0 })
    }

    /// A long, tilted box whose rows lie partly left of the canvas (found by `parity --random`:
    /// wave-ball, seed 1, case 12): a row whose columns all lie left of x = −1 is empty, not an
    /// inverted range.
    @Test func tiltedBoxOffTheLeftEdge() throws {
        let box = QuadInstance(centerX: 5.5116315, centerY: 191.8068, halfX: 0.120802, halfY: 48.45, rotation: 2.936593,
                               cornerRadius: 0, color: RGBA(1, 0.415, 0, 1))
        let list = DrawList(width: 40, height: 300, background: PaintColor(.clear),
                            items: [DrawItem("box", Boxes([box], width: 40, height: 300))])
        let image = CPURenderer(threadCount: 1).render(list)
        var whole = CPURenderer(threadCount: 1)
        whole.shortcuts = false
        #expect(firstDifference(image, whole.render(list)) == nil)
        #expect(image.pixels.contains { $0 != 0 })
    }

    /// The shortcuts (flat runs kept as solid runs and written as repeated bytes, opaque runs
    /// written whole, tilted boxes visiting only their columns) must not change a byte: every
    /// scene at fractional and whole scales, over its animation, also when rows run out of slots
    /// for solid runs (1 and 2 per row) and spill them into the accumulators.
    @Test(arguments: SceneRegistry.ids)
    func shortcutsChangeNoByte(id: String) throws {
        let model = try SceneRegistry.model(id)
        var plain = CPURenderer(threadCount: 1)
        plain.shortcuts = false
        let fast = CPURenderer(threadCount: 1)
        var cramped = [CPURenderer(threadCount: 1), CPURenderer(threadCount: 1)]
        cramped[0].solidRunsPerRow = 1
        cramped[1].solidRunsPerRow = 2
        for scale in Sweep.scales([1, 1.7, 3]) {
            let scene = try LaidOutScene(Scene(model, scale: scale))
            for t in [0, 0.37, 1.3, 2.9] {
                let list = scene.drawList(at: t)
                let reference = plain.render(list)
                #expect(firstDifference(fast.render(list), reference) == nil, "\(id) @\(scale)x t = \(t)")
                for renderer in cramped {
                    #expect(firstDifference(renderer.render(list), reference) == nil,
                            "\(id) @\(scale)x t = \(t), \(renderer.solidRunsPerRow) runs per row")
                }
            }
        }
    }

    /// Glyphs painted eight columns at a time give the bytes of glyphs painted a pixel at a time:
    /// the wave ball's label, CJK and Latin captions, at whole and fractional scales.
    @Test func glyphsEightAtATimeChangeNoByte() throws {
        var plain = CPURenderer(threadCount: 1)
        plain.shortcuts = false
        let fast = CPURenderer(threadCount: 1)
        for caption in ["汽车当前电量", "Syncing your\nphotos, 3 left"] {
            for scale in [1, 1.7, 3.0] {
                let scene = try Scene(try SceneRegistry.model("wave-ball"), scale: scale)
                    .setting("label", to: "on").setting("caption", to: caption).validated().layingOutText()
                for t in [0, 1.3] {
                    let list = scene.drawList(at: t)
                    #expect(firstDifference(fast.render(list), plain.render(list)) == nil, "\(caption) @\(scale)x t = \(t)")
                }
            }
        }
    }

    /// The same away from the defaults: every scene with every parameter drawn from its whole
    /// range (`parity --random`'s cases), so that the fast path's certainty tests, solid spans
    /// and the wave's eight-column evaluation meet steep, flat, tiny and huge geometry.
    @Test(arguments: SceneRegistry.ids)
    func shortcutsChangeNoByteAcrossTheParameterSpace(id: String) throws {
        var plain = CPURenderer(threadCount: 1)
        plain.shortcuts = false
        let fast = CPURenderer(threadCount: 1)
        for item in try ParityMatrix.randomCases(scenes: [id], count: 10, seed: 0x5107) {
            let list = try Sweep.scaled(item).drawList(at: item.t)
            #expect(firstDifference(fast.render(list), plain.render(list)) == nil, "\(id) case \(item.index ?? -1) t = \(item.t)")
        }
    }

    /// Rows kept from earlier frames (left in recycled memory, or copied from the latest frame)
    /// must be exactly the rows painting would give: every scene's frames in sequence, then jumps
    /// in time, against a renderer that paints everything. The caller holds some frames meanwhile,
    /// as a pipeline does; those must not change when later frames are drawn.
    @Test(arguments: SceneRegistry.ids)
    func reusingRowsChangesNoByte(id: String) throws {
        let model = try SceneRegistry.model(id)
        var plain = CPURenderer(threadCount: 1)
        plain.reusesUnchangedRows = false
        let reusing = CPURenderer(threadCount: 2)
        reusing.keptFrames = 3
        for scale in Sweep.scales([1, 1.7]) {
            let scene = try LaidOutScene(Scene(model, scale: scale))
            var held: [(Double, Image)] = []
            for k in 0..<40 {
                let t = k < 32 ? Double(k) / 60 : 0.37 * Double(k)
                let image = reusing.render(scene.drawList(at: t))
                #expect(firstDifference(image, plain.render(scene.drawList(at: t))) == nil, "\(id) @\(scale)x frame \(k), t = \(t)")
                if k % 4 == 1 { held.append((t, image)) }
            }
            for (t, image) in held {
                #expect(firstDifference(image, plain.render(scene.drawList(at: t))) == nil, "\(id) @\(scale)x held frame t = \(t)")
            }
        }
        let statistics = reusing.reuseStatistics
        // The test covers what it means to: rows left as they were, frames drawn into recycled
        // memory, and recycled memory the caller still held (copied first).
        #expect(statistics.keptBands > 0 && statistics.recycledFrames > 0 && statistics.duplicatedFrames > 0, "\(statistics)")
        #expect(statistics.paintedBands > 0)
    }

    /// The same over the parameter space: random parameter sets of every scene (colours with
    /// alpha, odd scales, times far from 0, as `parity --random` draws them), each a run of
    /// frames 1/60 s apart drawn as a batch's encode job draws them (one thread, two frames kept),
    /// against painting everything.
    @Test(arguments: SceneRegistry.ids)
    func reusingRowsChangesNoByteForRandomParameters(id: String) throws {
        var plain = CPURenderer(threadCount: 1)
        plain.reusesUnchangedRows = false
        let reusing = CPURenderer(threadCount: 1)
        reusing.keptFrames = 2
        for item in try ParityMatrix.randomCases(scenes: [id], count: 5, seed: 23) {
            for k in 0..<6 {
                let t = item.t + Double(k) / 60
                let list = try Sweep.scaled(item).drawList(at: t)
                #expect(firstDifference(reusing.render(list), plain.render(list)) == nil,
                        "\(id) case \(item.index ?? -1) (\(item.settings.map { "\($0.name)=\($0.value)" }.joined(separator: " "))) t = \(t)")
            }
        }
        let statistics = reusing.reuseStatistics
        #expect(statistics.keptBands + statistics.copiedBands > 0 && statistics.paintedBands > 0, "\(statistics)")
    }

    /// `Image.rowStamps`, which the PNG writer trusts: two rows at the same index of two frames
    /// with the same stamp hold the same bytes. Every scene at two scales and in random parameter
    /// sets, frames in order and in jumps, on two threads with few frames kept and some held (so
    /// rows are kept, copied and painted, and recycled memory is copied first), and a second
    /// renderer drawing other frames between them: every row with a stamp shared by any frame of
    /// either renderer is compared with the first frame that had it.
    @Test(arguments: SceneRegistry.ids)
    func rowStampsPromiseEqualRows(id: String) throws {
        let model = try SceneRegistry.model(id)
        let first = CPURenderer(threadCount: 2), second = CPURenderer(threadCount: 1)
        first.keptFrames = 3
        second.keptFrames = 2
        var scenes = try Sweep.scales([1, 1.7]).map { try LaidOutScene(Scene(model, scale: $0)) }
        scenes += try ParityMatrix.randomCases(scenes: [id], count: 3, seed: 0x57A).map { try Sweep.scaled($0) }
        var shared = 0
        for (index, scene) in scenes.enumerated() {
            var frames: [Image] = []
            for k in 0..<24 {
                let t = k < 18 ? Double(k) / 60 : 0.41 * Double(k)
                frames.append(first.render(scene.drawList(at: t)))
                frames.append(second.render(scene.drawList(at: t + Double(k % 3) / 60)))
            }
            // The first row seen with each (row, stamp); every later one must match it.
            var seen: [Int: [UInt64: (frame: Int, row: Int)]] = [:]
            for (f, image) in frames.enumerated() {
                let stamps = try #require(image.rowStamps?.values, "scene \(index) frame \(f) has no stamps")
                #expect(stamps.count == image.height && !stamps.contains(0))
                let rowBytes = image.width * 4
                for y in 0..<image.height {
                    guard let earlier = seen[y, default: [:]][stamps[y]] else {
                        seen[y, default: [:]][stamps[y]] = (f, y)
                        continue
                    }
                    shared += 1
                    let same = frames[earlier.frame].pixels.withUnsafeBytes { a in
                        image.pixels.withUnsafeBytes { b in memcmp(a.baseAddress! + y * rowBytes, b.baseAddress! + y * rowBytes, rowBytes) == 0 }
                    }
                    #expect(same, "\(id) scene \(index): row \(y) of frame \(f) has frame \(earlier.frame)'s stamp but not its bytes")
                    if !same { return }
                }
            }
        }
        // Not vacuous: stamps were shared, through rows kept, copied and recycled.
        #expect(shared > 0)
        let statistics = first.reuseStatistics
        #expect(statistics.keptBands > 0 && statistics.copiedBands > 0, "\(statistics)")
        var changed = first.render(scenes[0].drawList(at: 0))
        changed.pixels[0] &+= 1
        #expect(changed.rowStamps == nil, "changing the pixels drops the stamps")
    }

    /// Frames of other sizes and backgrounds in between: nothing is kept across a change of canvas.
    @Test func reusingRowsFollowsCanvasChanges() throws {
        var plain = CPURenderer(threadCount: 1)
        plain.reusesUnchangedRows = false
        let reusing = CPURenderer(threadCount: 1)
        reusing.keptFrames = 2
        let lists = [
            try LaidOutScene(Scene(WaveBall(), scale: 0.5)).drawList(at: 0.5),
            try LaidOutScene(Scene(WaveBall(), scale: 0.5, background: RGBA(0.2, 0.3, 0.4, 1))).drawList(at: 0.5),
            try LaidOutScene(Scene(WaveBall(), scale: 0.5)).drawList(at: 0.5),
            try LaidOutScene(Scene(WaveBall(), scale: 0.4)).drawList(at: 0.5),
            try LaidOutScene(Scene(WaveBall(), scale: 0.5)).drawList(at: 0.6),
            try LaidOutScene(Scene(WaveBall(), scale: 0.5, background: RGBA(0.2, 0.3, 0.4, 1))).drawList(at: 0.6),
            try LaidOutScene(Scene(WaveBall(), scale: 0.5)).drawList(at: 0.6),
        ]
        for (index, list) in lists.enumerated() {
            #expect(firstDifference(reusing.render(list), plain.render(list)) == nil, "list \(index)")
        }
        #expect(reusing.reuseStatistics.keptBands + reusing.reuseStatistics.copiedBands > 0)
    }

    @Test func backgroundColourFillsTheCorners() throws {
        let scene = try LaidOutScene(Scene(WaveBall(), background: RGBA(1, 0, 0, 0.5)))
        let image = CPURenderer().render(scene.drawList(at: 0))
        #expect(image[0, 0] == (255, 0, 0, 128))
    }
}

/// "(x, y): a vs b" for the first pixel where two images of one size differ, nil when none does
/// (a failure message naming one pixel, not a million-byte array).
func firstDifference(_ a: Image, _ b: Image) -> String? {
    guard a.width == b.width, a.height == b.height else { return "sizes \(a.width)×\(a.height) vs \(b.width)×\(b.height)" }
    guard let i = a.pixels.indices.first(where: { a.pixels[$0] != b.pixels[$0] }) else { return nil }
    let (x, y) = (i / 4 % a.width, i / 4 / a.width)
    return "(\(x), \(y)): \(a[x, y]) vs \(b[x, y])"
}

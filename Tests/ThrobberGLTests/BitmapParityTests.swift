import Foundation
import Testing
import Throbber
import ThrobberCPU
@testable import ThrobberGL
import ThrobberTestSupport

/// The image's GL row (SPEC §11: texels mixed in float by bitmap.glsl, records of the boxes pass
/// and of the layered path) against the CPU reference, every channel within 2/255: random images
/// under random scales (0.3…4), turns, skews and fractional moves at random opacities, alone, among
/// other items, inside a layer with a mask and a matte, and over stacks whose images come and go
/// (the image texture appended to and made again); and where the image texture places images.
///
/// Serialized and synchronous: a GL context is current on the thread that made it.
@Suite(.serialized, .enabled(if: GLAvailability.osmesa.available, Comment(rawValue: GLAvailability.osmesa.reason)))
struct BitmapParityTests {
    static let side = 64

    /// A random image of `width` × `height` (`BitmapCPUTests.random`'s kind of texels).
    static func image(_ width: Int, _ height: Int, seed: UInt64) -> BitmapPixels {
        var generator = SplitMix64(seed: seed)
        var rgba: [UInt8] = []
        for _ in 0..<(width * height) {
            let alpha: UInt8 = generator.chance(0.15) ? 0 : generator.chance(0.3) ? 255 : UInt8(generator.next(below: 256))
            rgba += [UInt8(generator.next(below: 256)), UInt8(generator.next(below: 256)), UInt8(generator.next(below: 256)), alpha]
        }
        return BitmapPixels(width: width, height: height, rgba: rgba, identity: "image \(seed)")
    }

    /// A random placement on the canvas: scale 0.3…4 (a different one per axis at times, mirrored at times), a
    /// turn, at times a skew, a fractional move that keeps some of the image on the canvas.
    static func transform(_ generator: inout SplitMix64, width: Int, height: Int) -> PathTransform {
        // Mirrored at times.
        let scale = (generator.chance(0.25) ? -0.3 : 0.3) * pow(4 / 0.3, generator.nextUnit())
        let scaleY = generator.chance(0.5) ? scale : 0.3 * pow(4 / 0.3, generator.nextUnit())
        let angle = generator.chance(0.3) ? 0 : generator.nextUnit() * 2 * .pi
        let skew = generator.chance(0.5) ? 0 : generator.nextUnit() * 1.2 - 0.6
        let (cosA, sinA) = (cos(angle), sin(angle))
        // Scale, then skew x by y, then turn: (a c; b d) = R · K · S.
        let (k00, k01, k10, k11) = (scale, skew * scaleY, 0.0, scaleY)
        let a = cosA * k00 - sinA * k10, c = cosA * k01 - sinA * k11
        let b = sinA * k00 + cosA * k10, d = sinA * k01 + cosA * k11
        // The image's centre somewhere on the canvas.
        let cx = generator.nextUnit() * Double(side), cy = generator.nextUnit() * Double(side)
        let mx = Double(width) / 2, my = Double(height) / 2
        return PathTransform(a: a, b: b, c: c, d: d, tx: cx - (a * mx + c * my), ty: cy - (b * mx + d * my))
    }

    static func bitmap(_ generator: inout SplitMix64, seed: UInt64) -> Bitmap {
        let (w, h) = (1 + generator.next(below: 48), 1 + generator.next(below: 40))
        let pixels = image(w, h, seed: seed)
        let opacity = generator.chance(0.4) ? 1 : generator.nextUnit()
        return Bitmap(pixels, transform: transform(&generator, width: w, height: h), opacity: opacity, width: side, height: side)
    }

    static func disc(_ generator: inout SplitMix64) -> Disc {
        Disc(centerX: generator.nextUnit() * 64, centerY: generator.nextUnit() * 64, radius: 4 + generator.nextUnit() * 20,
             color: RGBA(generator.nextUnit(), generator.nextUnit(), generator.nextUnit(), 0.3 + 0.7 * generator.nextUnit()),
             width: side, height: side)
    }

    /// Each list drawn by GL within 2/255 of the CPU reference; returns the largest difference.
    @discardableResult
    static func assertParity(_ lists: [DrawList], gl: GLRenderer, label: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let cpu = CPURenderer()
        var worst = 0
        for (index, (list, observed)) in zip(lists, try gl.render(lists)).enumerated() {
            let diff = ImageDiff(expected: cpu.render(list), observed: observed, tolerance: 2)
            worst = max(worst, diff.maxChannelDifference)
            #expect(diff.pixelsOverTolerance == 0, "\(label) \(index): \(diff.failureLines.joined(separator: "\n"))", sourceLocation: sourceLocation)
        }
        print("parity \(label): largest channel difference \(worst)/255 over \(lists.count) draw lists")
        return worst
    }

    /// One image a frame over a background, alone: the boxes pass with the image as its only instance.
    @Test func randomImagesMatchTheCPUReference() throws {
        var generator = SplitMix64(seed: 0xB17)
        let lists = (0..<60).map { n in
            DrawList(width: BitmapParityTests.side, height: BitmapParityTests.side,
                     background: PaintColor(RGBA(0.1, 0.2, 0.3, n % 3 == 0 ? 1 : 0.5)),
                     items: [DrawItem("image", BitmapParityTests.bitmap(&generator, seed: UInt64(n)))])
        }
        // Nearly every image reaches the canvas (a test of what is drawn, not of empty frames).
        let cpu = CPURenderer()
        let painted = lists.filter { cpu.render($0).pixels != cpu.render(DrawList(width: $0.width, height: $0.height, background: $0.background,
                                                                                     items: [])).pixels }
        #expect(painted.count >= 55, "\(painted.count) of 60 images paint a pixel")
        // One by one (a stack each), then all in stacks of frames.
        let gl = try GLRenderer()
        for list in lists.prefix(10) { try BitmapParityTests.assertParity([list], gl: gl, label: "an image alone") }
        try BitmapParityTests.assertParity(lists, gl: gl, label: "random images")
    }

    /// Images among discs (the layers pass) and paths and under one another: the records of every
    /// kind reach the images' instances.
    @Test func imagesAmongOtherItemsMatchTheCPUReference() throws {
        var generator = SplitMix64(seed: 0xD15C)
        let lists = (0..<30).map { n in
            var items: [DrawItem] = [DrawItem("disc", BitmapParityTests.disc(&generator))]
            items.append(DrawItem("a", BitmapParityTests.bitmap(&generator, seed: UInt64(100 + n % 4))))
            items.append(DrawItem("path", Path(LayerParityTests.circle(32, 32, 5 + generator.nextUnit() * 20), role: .fill(.nonzero),
                                               paint: .solid(PaintColor(RGBA(1, 0.5, 0, 0.6))), width: 64, height: 64)))
            items.append(DrawItem("b", BitmapParityTests.bitmap(&generator, seed: UInt64(200 + n % 3))))
            items.append(DrawItem("top", BitmapParityTests.disc(&generator)))
            return DrawList(width: 64, height: 64, background: PaintColor(RGBA(0, 0, 0, 0)), items: items)
        }
        try BitmapParityTests.assertParity(lists, gl: try GLRenderer(), label: "images among other items")
    }

    /// Images inside a layer with masks, under a matte whose source holds an image, nested: the
    /// layered path's records.
    @Test func imagesInsideLayersMatchTheCPUReference() throws {
        var generator = SplitMix64(seed: 0x1A7E)
        let modes = LayerMask.Mode.allCases, mattes = LayerMatte.Mode.allCases
        let lists = (0..<24).map { n -> DrawList in
            let source = Layer(content: [DrawItem("source", BitmapParityTests.bitmap(&generator, seed: UInt64(300 + n % 5)))],
                               width: 64, height: 64)
            let masks = [LayerMask(LayerParityTests.circle(30, 30, 12 + generator.nextUnit() * 16), transform: .identity, mode: modes[n % 4],
                                   inverted: n % 3 == 1, opacity: n % 2 == 0 ? 1 : 0.6)]
            let inner = Layer(content: [DrawItem("image", BitmapParityTests.bitmap(&generator, seed: UInt64(400 + n % 6))),
                                        DrawItem("disc", BitmapParityTests.disc(&generator))],
                              masks: masks, matte: n % 4 == 3 ? nil : LayerMatte(mattes[n % 4], source: source),
                              opacity: [1, 0.8, 0.45][n % 3], width: 64, height: 64)
            let outer = Layer(content: [DrawItem("under", BitmapParityTests.bitmap(&generator, seed: UInt64(500 + n % 2))), DrawItem("inner", inner)],
                              opacity: 0.9, width: 64, height: 64)
            return DrawList(width: 64, height: 64, background: PaintColor(RGBA(0.3, 0.3, 0.3, 1)),
                            items: [DrawItem("back", BitmapParityTests.bitmap(&generator, seed: 600)), DrawItem("layer", outer)])
        }
        let gl = try GLRenderer()
        try BitmapParityTests.assertParity(Array(lists.prefix(4)), gl: gl, label: "images in layers, one by one")
        try BitmapParityTests.assertParity(lists, gl: gl, label: "images in layers")
    }

    /// Stacks whose images change: images the texture holds, new ones appended, more than its rows
    /// hold (made larger), and a renderer drawing them again; each frame as the CPU draws it.
    @Test func imagesThatComeAndGoMatchTheCPUReference() throws {
        var generator = SplitMix64(seed: 0xC0DE)
        let gl = try GLRenderer()
        func list(_ seeds: [UInt64], big: Bool = false) -> DrawList {
            DrawList(width: 64, height: 64, background: PaintColor(RGBA(1, 1, 1, 1)), items: seeds.map { seed in
                let pixels = big ? BitmapParityTests.image(150, 120, seed: seed) : BitmapParityTests.image(9, 7, seed: seed)
                return DrawItem(ItemID("image \(seed)"), Bitmap(pixels, transform: BitmapParityTests.transform(&generator, width: pixels.width,
                                                                                                              height: pixels.height),
                                                                 opacity: 0.9, width: 64, height: 64))
            })
        }
        try BitmapParityTests.assertParity([list([1]), list([1])], gl: gl, label: "one image")
        try BitmapParityTests.assertParity([list([1, 2]), list([3])], gl: gl, label: "images appended")
        try BitmapParityTests.assertParity([list([10, 11], big: true), list([12], big: true)], gl: gl, label: "images past the texture's rows")
        try BitmapParityTests.assertParity([list([2, 1]), list([3, 1])], gl: gl, label: "images held again")
    }

    /// The image texture's placement: appended while its rows last, nothing for images it holds,
    /// made larger with everything it held, made again with only the stack's once past the
    /// driver's rows, and a stack that cannot fit refused in one line.
    @Test func theImageTextureHoldsEachImageOnce() throws {
        var placement = BitmapPlacement()
        let small = BitmapParityTests.image(10, 10, seed: 1), other = BitmapParityTests.image(40, 30, seed: 2)
        let big = BitmapParityTests.image(100, 100, seed: 3)   // 10 rows of 1024 texels
        var (rows, upload) = try placement.place([small], maxRows: 64, renderer: "test")
        guard case .remake(16, let first) = upload else { Issue.record("first image: \(upload)"); return }
        #expect(rows == [0] && first.count == 1)
        (rows, upload) = try placement.place([other, small], maxRows: 64, renderer: "test")
        guard case .append(let appended) = upload else { Issue.record("second image: \(upload)"); return }
        #expect(rows == [1, 0] && appended.map(\.row) == [1])
        (rows, upload) = try placement.place([small, other], maxRows: 64, renderer: "test")
        guard case .none = upload else { Issue.record("held images: \(upload)"); return }
        #expect(rows == [0, 1])
        (rows, upload) = try placement.place([big, big2()], maxRows: 64, renderer: "test")
        guard case .remake(32, let all) = upload else { Issue.record("larger: \(upload)"); return }
        #expect(all.map(\.row) == [0, 1, 3, 13] && rows == [3, 13] && placement.used == 23)
        (rows, upload) = try placement.place([BitmapParityTests.image(220, 220, seed: 5)], maxRows: 64, renderer: "test")
        guard case .remake(64, let alone) = upload else { Issue.record("past the driver's rows: \(upload)"); return }
        #expect(alone.count == 1 && rows == [0])
        #expect(throws: ThrobberError.self) { _ = try placement.place([BitmapParityTests.image(300, 300, seed: 6)], maxRows: 64, renderer: "test") }
    }

    func big2() -> BitmapPixels { BitmapParityTests.image(100, 100, seed: 4) }
}

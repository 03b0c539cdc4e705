import Foundation
import Testing
import Throbber
import ThrobberText

/// The atlas's outlines against its bitmaps (SPEC §6 "Outlines"): each outline filled with the
/// core's exact area coverage (SPEC §9, `PathCoverage`, the CPU renderer's Path arithmetic) must
/// cover what FreeType's bitmap does, in every role's font, at every quarter shift.
struct GlyphOutlineTests {
    /// Text in one role at one size in pt on a canvas of `scale` px per pt, its pen at a
    /// fraction of a pixel so its glyphs take several quarter shifts.
    struct Case: Sendable, CustomStringConvertible {
        var role: FontRole
        var text: String
        var size: Double
        var scale: Double
        var description: String { "\(role) \(size) pt × \(scale) \"\(text)\"" }
    }

    static let cases = [
        Case(role: .ui, text: "Loading… Great Success! @&8", size: 15, scale: 3),
        Case(role: .ui, text: "Failed with Error", size: 14, scale: 1),
        Case(role: .thin, text: "45%", size: 60, scale: 1),
        Case(role: .thin, text: "0123456789", size: 30, scale: 2),
        Case(role: .cjk, text: "汽车当前电量", size: 14, scale: 2),
        Case(role: .cjk, text: "正在加载", size: 40, scale: 1),
    ]

    /// The most and the mean of |outline coverage − byte| over a glyph's pixels, in 8-bit steps.
    struct Mismatch {
        var max: Double
        var mean: Double
    }

    /// The most and the mean per glyph, in 8-bit steps, of FreeType's chords against its bitmap:
    /// what is left is FreeType's reciprocal division where a chord leaves a cell (measured: max
    /// 1, means ≤ 0.05 in every case).
    static let freeTypeMaximum = 1.0, freeTypeMean = 0.1
    /// The same of the outline's curves against the bitmap: FreeType's chords stray up to 1/16 px
    /// from a quadratic and further from a cubic (measured: max 24 in Roboto, 49 in Noto Sans
    /// CJK; means per glyph ≤ 2.4, ≤ 0.9 over each case's glyphs).
    static let curvesMaximum = 64.0, curvesMean = 3.0, curvesMeanOfGlyphs = 1.0

    /// How an outline is filled for the comparison.
    enum Fill {
        /// SPEC §9: chords within 1/256 px of the curves, coverage × 255 (what a vector file's
        /// player draws, to its own flattening).
        case curves
        /// FreeType's chords and bytes (`FreeTypeRaster`).
        case freeType
    }

    /// The glyphs of `testCase`, laid out on one line, and their atlas.
    static func atlas(_ testCase: Case, shaper: TextShaper, rasterizer: GlyphRasterizer) throws -> GlyphAtlas {
        let line = BlockLine([try shaper.shape(testCase.text, role: testCase.role, size: testCase.size)])
        let glyphs = placeGlyphs(line, penX: 2.37, baseline: testCase.size * 1.2, scale: testCase.scale)
        return try GlyphAtlas(keys: glyphs.map(\.key), rasterizer: rasterizer)
    }

    /// The atlas's glyph bitmaps that paint anything, in atlas order.
    static func slots(_ atlas: GlyphAtlas) -> [(key: GlyphKey, value: AtlasSlot)] {
        atlas.slots.filter { $0.value.width > 0 && $0.value.rows > 0 }.sorted { ($0.value.y, $0.value.x) < ($1.value.y, $1.value.x) }
    }

    /// `outline` (relative to the bitmap's top-left pixel) filled by the nonzero rule over the
    /// bitmap of `slot` and a pixel around it, against the atlas's bytes (0 around the bitmap).
    static func mismatch(_ outline: PathGeometry, _ slot: AtlasSlot, in atlas: CoverageAtlas, fill: Fill) -> Mismatch {
        let width = slot.width + 2, rows = slot.rows + 2, moved = outline.translated(x: 1, y: 1)
        func byte(_ column: Int, _ row: Int) -> Int {
            let inside = (1...slot.rows).contains(row) && (1...slot.width).contains(column)
            return inside ? Int(atlas.coverage[(slot.y + row - 1) * atlas.width + slot.x + column - 1]) : 0
        }
        let filled: [Double]
        switch fill {
        case .curves:
            let area = PathCoverage.signedArea(PathFlattening.polygons(moved), width: width, height: rows)
            filled = area.map { PathCoverage.coverage($0, rule: .nonzero) * 255 }
        case .freeType:
            filled = FreeTypeRaster.bitmap(moved, width: width, height: rows).map(Double.init)
        }
        var worst = 0.0, sum = 0.0
        for row in 0..<rows {
            for column in 0..<width {
                let step = abs(filled[row * width + column] - Double(byte(column, row)))
                worst = max(worst, step)
                sum += step
            }
        }
        return Mismatch(max: worst, mean: sum / Double(width * rows))
    }

    /// Every glyph's outline against its bitmap, the worst and the mean of each glyph's means.
    static func measure(_ testCase: Case, fill: Fill, move: (x: Double, y: Double) = (0, 0))
        throws -> (glyphs: [(GlyphKey, AtlasSlot, Mismatch)], max: Double, mean: Double) {
        let glyphAtlas = try GlyphOutlineTests.atlas(testCase, shaper: TextShaper(), rasterizer: GlyphRasterizer())
        let atlas = glyphAtlas.atlas, slots = GlyphOutlineTests.slots(glyphAtlas)
        #expect(!slots.isEmpty && atlas.outlines.count == slots.count, "\(atlas.outlines.count) outlines for \(slots.count) bitmaps")
        let glyphs = try slots.map { key, slot in
            let outline = try #require(atlas.outline(atlasX: slot.x, atlasY: slot.y), "glyph \(key.glyph) has no outline")
            return (key, slot, mismatch(outline.translated(x: move.x, y: move.y), slot, in: atlas, fill: fill))
        }
        return (glyphs, glyphs.map(\.2.max).max() ?? 0, glyphs.map(\.2.mean).reduce(0, +) / Double(max(1, glyphs.count)))
    }

    /// Filled as FreeType fills it, each outline is its bitmap to FreeType's rounding: the same
    /// outline, at the same size, shift and origin, y down, to the 1/64 px (one off by 1/64 px
    /// fails: `aShiftedOutlineDoesNotMatch`).
    @Test(arguments: GlyphOutlineTests.cases)
    func outlinesAreTheOnesFreeTypeRasterised(_ testCase: Case) throws {
        let found = try GlyphOutlineTests.measure(testCase, fill: .freeType)
        for (key, slot, mismatch) in found.glyphs {
            #expect(mismatch.max <= GlyphOutlineTests.freeTypeMaximum && mismatch.mean <= GlyphOutlineTests.freeTypeMean,
                    "glyph \(key.glyph) (quarter \(key.quarter), \(slot.width) × \(slot.rows)): max \(mismatch.max), mean \(mismatch.mean)")
        }
        print("FreeType's chords vs bitmap, \(testCase): \(found.glyphs.count) glyphs, max \(found.max), mean \(found.mean) /255")
    }

    /// Filled as a vector file's player fills it (its curves, exact area), each outline is its
    /// bitmap within FreeType's flattening: it cuts quadratics to within 1/16 px and cubics more
    /// coarsely, SPEC §9 to within 1/256 px.
    @Test(arguments: GlyphOutlineTests.cases)
    func filledOutlinesCoverWhatTheirBitmapsDo(_ testCase: Case) throws {
        let found = try GlyphOutlineTests.measure(testCase, fill: .curves)
        for (key, slot, mismatch) in found.glyphs {
            #expect(mismatch.max <= GlyphOutlineTests.curvesMaximum && mismatch.mean <= GlyphOutlineTests.curvesMean,
                    "glyph \(key.glyph) (quarter \(key.quarter), \(slot.width) × \(slot.rows)): max \(mismatch.max), mean \(mismatch.mean)")
        }
        #expect(found.mean <= GlyphOutlineTests.curvesMeanOfGlyphs, "mean \(found.mean) over \(found.glyphs.count) glyphs")
        print("curves vs bitmap, \(testCase): \(found.glyphs.count) glyphs, max \(found.max), mean \(found.mean) /255")
    }

    /// An outline 1/64 px off in any direction (one unit of FreeType's 26.6 points) fails the
    /// comparison with FreeType's chords for every glyph, so it sees where an outline lies.
    @Test(arguments: GlyphOutlineTests.cases)
    func aShiftedOutlineDoesNotMatch(_ testCase: Case) throws {
        for move in [(1.0 / 64, 0.0), (-1.0 / 64, 0.0), (0.0, 1.0 / 64), (0.0, -1.0 / 64)] {
            let found = try GlyphOutlineTests.measure(testCase, fill: .freeType, move: move)
            for (key, _, mismatch) in found.glyphs {
                #expect(mismatch.max > GlyphOutlineTests.freeTypeMaximum || mismatch.mean > GlyphOutlineTests.freeTypeMean,
                        "glyph \(key.glyph) moved \(move): max \(mismatch.max), mean \(mismatch.mean)")
            }
        }
    }

    /// `Glyphs.outlines(in:)` moves each quad's outline to the quad: filled on the canvas, it is
    /// what the quads paint wherever one quad paints alone; without the atlas, at another
    /// revision, or from an atlas without outlines it is nil.
    @Test func glyphsGiveTheirOutlinesOnTheCanvas() throws {
        let testCase = GlyphOutlineTests.cases[1]
        let line = BlockLine([try TextShaper().shape(testCase.text, role: testCase.role, size: testCase.size)])
        let glyphs = placeGlyphs(line, penX: 2.37, baseline: testCase.size * 1.2, scale: testCase.scale)
        let glyphAtlas = try GlyphAtlas(keys: glyphs.map(\.key), rasterizer: GlyphRasterizer())
        let atlas = glyphAtlas.atlas, width = 120, height = 50
        let quads = glyphAtlas.quads(glyphs).map {
            Glyphs.Quad(x: $0.x, y: $0.y, atlasX: $0.slot.x, atlasY: $0.slot.y, width: $0.slot.width, rows: $0.slot.rows)
        }
        let item = Glyphs(quads, atlas: "text", revision: atlas.revision, color: RGBA(1, 1, 1, 1), width: width, height: height)
        let outlines = try #require(item.outlines(in: DrawResources(atlases: ["text": atlas])))
        // FreeType's chords and bytes (glyphs whole pixels apart, so each glyph's own): as tight as one glyph's.
        let filled = FreeTypeRaster.bitmap(outlines, width: width, height: height)
        var painters = [Int](repeating: 0, count: width * height), painted = [Double](repeating: 0, count: width * height)
        for quad in quads {
            for row in 0..<quad.rows {
                for column in 0..<quad.width where (0..<width).contains(quad.x + column) && (0..<height).contains(quad.y + row) {
                    painters[(quad.y + row) * width + quad.x + column] += 1
                    painted[(quad.y + row) * width + quad.x + column] = Double(atlas.coverage[(quad.atlasY + row) * atlas.width + quad.atlasX + column])
                }
            }
        }
        var worst = 0.0, compared = 0
        for pixel in 0..<width * height where painters[pixel] <= 1 {
            worst = max(worst, abs(Double(filled[pixel]) - painted[pixel]))
            compared += 1
        }
        #expect(quads.count >= 12 && compared > width * height * 9 / 10)
        #expect(worst <= GlyphOutlineTests.freeTypeMaximum, "max \(worst) /255 on the canvas")
        print("FreeType's chords vs quads on the canvas: max \(worst) /255 over \(compared) px")

        #expect(item.outlines(in: DrawResources()) == nil)
        let other = Glyphs(quads, atlas: "text", revision: atlas.revision &+ 1, color: RGBA(1, 1, 1, 1), width: width, height: height)
        #expect(other.outlines(in: DrawResources(atlases: ["text": atlas])) == nil)
        let bare = CoverageAtlas(width: atlas.width, height: atlas.height, coverage: atlas.coverage, revision: atlas.revision)
        #expect(bare == atlas && item.outlines(in: DrawResources(atlases: ["text": bare])) == nil)
    }
}

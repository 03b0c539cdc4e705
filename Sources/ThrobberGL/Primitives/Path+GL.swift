import Foundation
import Throbber

// The path's row (Throbber/DrawList/Primitives/Path.swift, SPEC §9): one instanced quad over its
// bounds, drawn by the boxes pass, each pixel summing the signed areas of the chords of its tile
// (a band of rows cut in columns; those wholly left of the tile summed beforehand), read from the
// path data texture (BoxesPass binds it); its GLSL is Shaders/Primitives/path.glsl, which
// describes the data's layout.

extension Path: GLPrimitive {
    static let shaderFile = "path.glsl"
    static let recordCoverage: String? = "pathCoverage(p, bounds.xy, head.w, b)"
    static let recordColor: String? = "pathColor(p, head.w, b, color)"
    static let recordKind = GLPrimitiveRows.recordKind(of: Path.self)
    static let quadIsBounds = true

    /// Its chords clipped to its bounds and filed by tile, and its paint, laid out once (`PathGLItem`).
    func prepareGL() -> any GLItem { PathGLItem(self) }
}

/// A path as the boxes pass draws it: its record's numbers and its data texels (path.glsl's
/// layout), worked out once and kept while the item is unchanged (`GLPreparedItems`); a class,
/// so that a stack lays out the data of a path its frames share once (`FrameStack.addPathData`).
final class PathGLItem: GLItem {
    /// The tiles a path's bounds are cut into, px: a pixel loops over the chords of its tile
    /// only, those wholly left of it summed per row beforehand (its backdrop). path.glsl's
    /// PATH_TILE_WIDTH and PATH_TILE_HEIGHT (a backdrop is one texel: at most 4 rows).
    static let tileWidth = 8, tileHeight = 4
    /// Paint kinds of the header.
    static let solid: Float = 0, linear: Float = 1, radial: Float = 2

    let bounds: PixelRect
    /// The record's colour: the solid colour with its alpha times the opacity (a gradient's
    /// colour is path.glsl's `pathColor`).
    let color: PaintColor
    /// b = (rule (1 evenodd), tiles across, tile table's offset, 0).
    let fields: [Float]
    /// Its texels, 4 floats each, offsets relative to the first.
    let data: [Float]

    init(_ path: Path) {
        let bounds = path.bounds
        self.bounds = bounds
        let opacity = path.opacity
        var data: [Float] = []
        func gradient(_ kind: Float, _ stops: [GradientStop], _ g0: [Double], _ g1: [Double]) {
            let m = path.paintInverse!
            data += [kind, Float(stops.count), opacity, 0]
            data += [m.a, m.b, m.c, m.d, m.tx, m.ty, 0, 0].map { Float($0) }
            data += (g0 + g1).map { Float($0) }
            for stop in stops { data += [stop.offset, 0, 0, 0, stop.color.r, stop.color.g, stop.color.b, stop.color.a] }
        }
        switch path.shading {
        case .solid(let solid):
            var faded = solid
            faded.a *= opacity
            color = faded
            data += [PathGLItem.solid, 0, opacity, 0]
        case let .linear(from, to, stops):
            color = PaintColor(RGBA(0, 0, 0, 0))
            gradient(PathGLItem.linear, stops, [from.x, from.y, to.x, to.y], [0, 0, 0, 0])
        case let .radial(center, radius, focal, stops):
            color = PaintColor(RGBA(0, 0, 0, 0))
            gradient(PathGLItem.radial, stops, [center.x, center.y, radius, 0], [focal.x, focal.y, 0, 0])
        }
        let tableOffset = data.count / 4
        let (tileWidth, tileHeight) = (PathGLItem.tileWidth, PathGLItem.tileHeight)
        let across = max(1, (bounds.x1 - bounds.x0 + tileWidth - 1) / tileWidth)
        let down = max(1, (bounds.y1 - bounds.y0 + tileHeight - 1) / tileHeight)
        // The chords' parts with their tiles; per tile and row of it, the signed height of the
        // chords wholly left of it (entered where they end, summed along the tile row below).
        var tiles = PathTiles(across: across, down: down)
        if !bounds.isEmpty {
            let width = Double(bounds.x1 - bounds.x0), height = Double(bounds.y1 - bounds.y0)
            let ox = Double(bounds.x0), oy = Double(bounds.y0)
            for polygon in path.outline.polygons {
                for k in polygon.indices {
                    let a = polygon[k], b = polygon[(k + 1) % polygon.count]
                    PathOutline.clipChord(PathPoint(a.x - ox, a.y - oy), PathPoint(b.x - ox, b.y - oy), width: width, height: height) { p, q in
                        tiles.add(p, q)
                    }
                }
            }
        }
        tiles.append(to: &data)
        self.data = data
        let evenOdd: Float = path.outline.rule == .evenodd ? 1 : 0
        fields = [evenOdd, Float(across), Float(tableOffset), 0]
    }

    func addLayers(to plan: inout LayerPlan, index: Int) { plan.leaveToBoxesPass(index) }

    /// One record: head = (kind, cx, cy, first data texel), a = (halfX, halfY, 1, 0) (the
    /// instance's quad, grown by BOX_QUAD_GROWTH, covers the bounds exactly), b = `fields`.
    func addRecords(to stack: inout FrameStack, asInstances: Bool) {
        guard !bounds.isEmpty else { return }
        let growth = Antialiasing.boxQuadGrowth
        let halfX = Float(bounds.x1 - bounds.x0) / 2, halfY = Float(bounds.y1 - bounds.y0) / 2
        let first = stack.addPathData(data, owner: self)
        stack.addRecord(kind: Path.recordKind,
                        [Float(bounds.x0) + halfX, Float(bounds.y0) + halfY, Float(first), halfX - growth, halfY - growth, 1, 0] + fields,
                        color, bounds, nil, isBox: false, instance: asInstances)
    }
}

/// A path's chords filed by tile (path.glsl's tile table and chords), in flat arrays: a
/// path of many chords makes no array per tile.
struct PathTiles {
    let across: Int, down: Int
    /// Each filed part's tile, and its (x0, y0, x1, y1).
    private var tileOfPart: [Int32] = []
    private var parts: [Float] = []
    /// Per tile, per row of it: the signed height of the parts ending at or before its left edge.
    private var backdrop: [Double]

    init(across: Int, down: Int) {
        self.across = across
        self.down = down
        backdrop = [Double](repeating: 0, count: across * down * PathGLItem.tileHeight)
    }

    /// Files the chord piece from `p` to `q` (relative to the bounds, inside them) by tile: cut
    /// at the tile rows, each part listed in the tiles its x range crosses, and added to the
    /// backdrop of the first tile wholly right of it (x ≤ the tile's left edge ≤ i: it adds its
    /// whole signed height in each row to every pixel there, SPEC §9's clamp being 1).
    mutating func add(_ p: PathPoint, _ q: PathPoint) {
        let (tileWidth, tileHeight) = (Double(PathGLItem.tileWidth), Double(PathGLItem.tileHeight))
        let top = min(p.y, q.y), bottom = max(p.y, q.y)
        let firstRow = max(0, Int((top / tileHeight).rounded(.down))), lastRow = min(down - 1, Int((bottom / tileHeight).rounded(.up)) - 1)
        guard firstRow <= lastRow else { return }
        let sign: Double = q.y > p.y ? 1 : -1
        for row in firstRow...lastRow {
            let y0 = max(top, Double(row) * tileHeight), y1 = min(bottom, Double(row + 1) * tileHeight)
            guard y1 > y0 else { continue }
            func x(_ y: Double) -> Double { p.x + (q.x - p.x) * (y - p.y) / (q.y - p.y) }
            // The part in this tile row, in the chord's direction.
            let (a, b) = sign > 0 ? (PathPoint(x(y0), y0), PathPoint(x(y1), y1)) : (PathPoint(x(y1), y1), PathPoint(x(y0), y0))
            let minX = min(a.x, b.x), maxX = max(a.x, b.x)
            let firstTile = max(0, Int((minX / tileWidth).rounded(.down))), right = Int((maxX / tileWidth).rounded(.up))
            if firstTile <= min(across - 1, right - 1) {
                for tile in firstTile...min(across - 1, right - 1) {
                    tileOfPart.append(Int32(row * across + tile))
                    parts.append(contentsOf: [Float(a.x), Float(a.y), Float(b.x), Float(b.y)])
                }
            }
            let behind = max(0, right)
            guard behind < across else { continue }
            let base = (row * across + behind) * PathGLItem.tileHeight, rowTop = Double(row) * tileHeight
            for j in 0..<PathGLItem.tileHeight {
                let overlap = min(y1, rowTop + Double(j + 1)) - max(y0, rowTop + Double(j))
                if overlap > 0 { backdrop[base + j] += sign * overlap }
            }
        }
    }

    /// Appends the tile table (two texels a tile: its parts' first texel relative to `data`'s
    /// first, their count; its backdrop, summed along each tile row) and the parts, tile by tile.
    func append(to data: inout [Float]) {
        let tileHeight = PathGLItem.tileHeight
        var summed = backdrop
        for row in 0..<down {
            for tile in 1..<max(1, across) {
                for j in 0..<tileHeight { summed[(row * across + tile) * tileHeight + j] += summed[(row * across + tile - 1) * tileHeight + j] }
            }
        }
        var counts = [Int](repeating: 0, count: across * down)
        for tile in tileOfPart { counts[Int(tile)] += 1 }
        let chordStart = data.count / 4 + 2 * across * down
        var place = [Int](repeating: 0, count: across * down)
        data.reserveCapacity(data.count + 8 * across * down + parts.count)
        var next = 0
        for tile in 0..<(across * down) {
            place[tile] = next
            data += [Float(chordStart + next), Float(counts[tile]), 0, 0]
            for j in 0..<4 { data.append(j < tileHeight ? Float(summed[tile * tileHeight + j]) : 0) }
            next += counts[tile]
        }
        let first = data.count
        data += repeatElement(0, count: parts.count)
        for (n, tile) in tileOfPart.enumerated() {
            let at = first + 4 * place[Int(tile)]
            place[Int(tile)] += 1
            for c in 0..<4 { data[at + c] = parts[4 * n + c] }
        }
    }
}

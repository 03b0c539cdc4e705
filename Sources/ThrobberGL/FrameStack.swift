import Foundation
import Throbber

/// The rounded boxes the layers pass leaves out (`LayerPlan.boxItems`: boxes that are not a
/// usable ring), for the boxes pass (Shaders/boxes.frag), over frames of one canvas size laid
/// one above the other in one target.
///
/// Every item of every frame becomes records through its kind's row (`GLItem.addRecords`: a
/// record per disc, wave or arc, one per box); each left-out box is an instance carrying the list
/// of the records that reach its bounds, in paint order, so its pixels get their whole stack. A
/// box record is (kind, cx, cy, cornerRadius), (halfX, halfY, cos θ, sin θ), which the instances
/// read back (`appendLists`). Pure Swift and free of GL, so it can be tested without a driver.
struct FrameStack {
    /// Floats per record: 5 vec4s (Shaders/common.glsl's layout).
    static let recordFloats = 20
    /// Texels per row of the record and list textures (boxes.frag's `texel`).
    static let textureWidth = 1024
    /// 32-bit words per box instance (boxes.vert): centre, half extents, axis (6 floats), list
    /// (4 ints: first entry, count, frame's top row, frame's height), background (4 floats).
    static let instanceWords = 14
    /// The side of the cells boxes are looked up by when their lists are built.
    private static let cellSide = 32

    /// Canvas of every frame, in pixels.
    let width: Int
    let height: Int
    /// Every record of every frame (layers and boxes), padded to whole texture rows.
    private(set) var records: [Float] = []
    /// How many records there are (before padding).
    private(set) var recordCount = 0
    /// The boxes' lists of record indices, one after another, padded to whole texture rows.
    private(set) var entries: [Int32] = []
    /// The box instances, `instanceWords` words each.
    private(set) var instances: [UInt32] = []
    /// Whether every box's list holds boxes only (boxes.frag then needs no branch on the kind).
    private(set) var boxesOnly = true
    /// The paths' data (Shaders/Primitives/path.glsl's layout: each path's paint, tiles and
    /// chords), 4 floats a texel, padded to whole texture rows.
    private(set) var pathData: [Float] = []
    /// Where each path's data begins, by the prepared item: a path kept over the frames of a
    /// stack (`GLPreparedItems`) is laid out once.
    private var pathFirst: [ObjectIdentifier: Int] = [:]
    /// Whether some frame draws a path or an image (boxes.frag's PATHS: records whose quad is
    /// their bounds).
    private(set) var hasPaths = false
    /// The images the records read (`Bitmap`), each once, in the order first read; their rows in
    /// the image texture are placed after the layout (`placeBitmaps`).
    private(set) var bitmaps: [BitmapPixels] = []
    private var bitmapNumbers: [BitmapPlacement.Key: Int] = [:]
    /// Each image record and the number of the image it reads.
    private var bitmapReads: [(record: Int, number: Int)] = []

    /// How many boxes the boxes pass draws.
    var instanceCount: Int { instances.count / FrameStack.instanceWords }

    /// Where the records of the frame being laid out reach, and which are its boxes drawn as instances.
    private var reach: [Reach] = []
    private var frameBoxes: [Int] = []

    /// Whether the layout stopped before its end: the lists outgrew `entryLimit`, or `stopping`
    /// said to stop (neither stack can be drawn).
    private(set) var cutShort = false
    /// The most list entries wanted (past them the stack cannot be drawn: building the rest
    /// would only delay the refusal), and what says to stop (asked every `boxesBetweenStopChecks`).
    private let entryLimit: Int
    private let stopping: (() -> Bool)?
    /// How many boxes' lists are built between two looks at `stopping`.
    static let boxesBetweenStopChecks = 64

    /// Lays out `frames`, which must all have the canvas `width` × `height`; `boxItems[f]` are
    /// the items of frame f whose boxes are instances.
    ///
    /// - Parameters:
    ///   - entryLimit: stop (`cutShort`) once the lists hold more entries than this.
    ///   - stopping: asked every `boxesBetweenStopChecks` boxes; stop (`cutShort`) once it says so.
    init(_ frames: [GLFrame], boxItems: [[Int]], width: Int, height: Int, entryLimit: Int = .max, stopping: (() -> Bool)? = nil) {
        self.width = width
        self.height = height
        self.entryLimit = entryLimit
        self.stopping = stopping
        for (f, frame) in frames.enumerated() where !cutShort {
            reach.removeAll(keepingCapacity: true)
            frameBoxes.removeAll(keepingCapacity: true)
            let first = recordCount
            for (index, item) in frame.items.enumerated() {
                item.addRecords(to: &self, asInstances: boxItems[f].contains(index))
            }
            appendLists(boxes: frameBoxes, reach: reach, firstRecord: first, top: f * height, background: frame.list.background)
        }
        reach = []
        pathFirst = [:]
        FrameStack.padToTextureRows(&records, components: 4)
        FrameStack.padToTextureRows(&entries, components: 1)
        FrameStack.padToTextureRows(&pathData, components: 4)
    }

    /// Lays out `frames` for the layered path (`BoxesPass.drawLayered`, SPEC §10): every item's
    /// records, a layer's operations among them, and one instance per frame over the whole frame
    /// listing every record of that frame in paint order.
    init(wholeFrames frames: [GLFrame], width: Int, height: Int) {
        self.width = width
        self.height = height
        entryLimit = .max
        stopping = nil
        let growth = Antialiasing.boxQuadGrowth, halfX = Float(width) / 2, halfY = Float(height) / 2
        for (f, frame) in frames.enumerated() {
            let first = recordCount
            for item in frame.items { item.addRecords(to: &self, asInstances: false) }
            let start = entries.count
            entries += (first..<recordCount).map { Int32($0) }
            let background = frame.list.background
            instances += [halfX.bitPattern, halfY.bitPattern, (halfX - growth).bitPattern, (halfY - growth).bitPattern,
                          Float(1).bitPattern, Float(0).bitPattern, UInt32(start), UInt32(recordCount - first), UInt32(f * height),
                          UInt32(height), background.r.bitPattern, background.g.bitPattern, background.b.bitPattern, background.a.bitPattern]
        }
        reach = []
        pathFirst = [:]
        FrameStack.padToTextureRows(&records, components: 4)
        FrameStack.padToTextureRows(&entries, components: 1)
        FrameStack.padToTextureRows(&pathData, components: 4)
    }

    /// Lays out `lists`, every item prepared afresh.
    init(_ lists: ArraySlice<DrawList>, boxItems: [[Int]], width: Int, height: Int) {
        self.init(lists.map(GLFrame.init), boxItems: boxItems, width: width, height: height)
    }

    /// Appends a record of kind `kind` (`GLPrimitiveRows.recordKind`) with its `fields` after the
    /// kind (at most 11 floats: head.yzw, a, b), its colour, bounds and annulus; a box drawn as an
    /// instance (`instance`) also gets the list of the records reaching it. Nothing when its
    /// bounds are empty.
    mutating func addRecord(kind: Float, _ fields: [Float], _ color: PaintColor, _ bounds: PixelRect, _ annulus: Annulus?,
                            isBox: Bool = false, instance: Bool = false) {
        guard !bounds.isEmpty else { return }
        if instance { frameBoxes.append(reach.count) }
        add([kind] + fields, color, bounds, annulus, isBox: isBox)
    }

    /// The index of the first of `owner`'s data texels (4 floats each), appended unless an
    /// earlier frame of the stack appended them (`owner` lives while the stack is laid out).
    mutating func addPathData(_ texels: [Float], owner: AnyObject) -> Int {
        if let first = pathFirst[ObjectIdentifier(owner)] { return first }
        let first = pathData.count / 4
        pathData += texels
        pathFirst[ObjectIdentifier(owner)] = first
        hasPaths = true
        return first
    }

    /// The number of `pixels` among the stack's images (`bitmaps`), added unless read before.
    mutating func addBitmap(_ pixels: BitmapPixels) -> Int {
        let key = BitmapPlacement.Key(pixels)
        if let number = bitmapNumbers[key] { return number }
        bitmaps.append(pixels)
        bitmapNumbers[key] = bitmaps.count - 1
        return bitmaps.count - 1
    }

    /// Record `record` reads image `number`: its b.x is that image's first row once placed.
    mutating func readsBitmap(record: Int, number: Int) { bitmapReads.append((record, number)) }

    /// Writes each image record's first row of the image texture (`rows`, by image number) into its b.x.
    mutating func placeBitmaps(rows: [Int]) {
        for read in bitmapReads { records[read.record * FrameStack.recordFloats + 12] = Float(rows[read.number]) }
    }

    /// Pads `values` (texels of `components` numbers each) with zeros to whole rows of
    /// `textureWidth` texels, as a texture of them is uploaded (`GLFunctions.upload`).
    static func padToTextureRows<T: Numeric>(_ values: inout [T], components: Int) {
        let row = components * textureWidth
        values += repeatElement(0, count: row - values.count % row)
    }

    /// Appends one record and where it reaches (nothing when its bounds are empty).
    private mutating func add(_ fields: [Float], _ color: PaintColor, _ bounds: PixelRect, _ annulus: Annulus?, isBox: Bool) {
        guard !bounds.isEmpty else { return }
        var record: [Float] = [Float(bounds.x0), Float(bounds.y0), Float(bounds.x1), Float(bounds.y1)]
        record += fields
        record += repeatElement(0, count: 16 - record.count)
        record += [color.r, color.g, color.b, color.a]
        records += record
        recordCount += 1
        reach.append(Reach(bounds: bounds, annulus: annulus, isBox: isBox))
    }

    /// For each box of a frame, the records reaching its bounds, in paint order; and its instance.
    private mutating func appendLists(boxes: [Int], reach: [Reach], firstRecord: Int, top: Int, background: PaintColor) {
        guard !boxes.isEmpty else { return }
        let side = FrameStack.cellSide
        let columns = (width + side - 1) / side, rows = (height + side - 1) / side
        // Records by the cells their bounds cover.
        var cells = [[Int32]](repeating: [], count: columns * rows)
        for (index, r) in reach.enumerated() {
            for cy in (r.bounds.y0 / side)...((r.bounds.y1 - 1) / side) {
                for cx in (r.bounds.x0 / side)...((r.bounds.x1 - 1) / side) { cells[cy * columns + cx].append(Int32(index)) }
            }
        }
        var seen = [Int](repeating: -1, count: reach.count)
        var list: [Int32] = []
        for (number, b) in boxes.enumerated() {
            if entries.count > entryLimit
                || (number % FrameStack.boxesBetweenStopChecks == FrameStack.boxesBetweenStopChecks - 1 && stopping?() == true) {
                cutShort = true
                return
            }
            let box = reach[b].bounds
            list.removeAll(keepingCapacity: true)
            for cy in (box.y0 / side)...((box.y1 - 1) / side) {
                for cx in (box.x0 / side)...((box.x1 - 1) / side) {
                    for candidate in cells[cy * columns + cx] where seen[Int(candidate)] != b {
                        seen[Int(candidate)] = b
                        let r = reach[Int(candidate)]
                        guard r.reaches(box) else { continue }
                        if !r.isBox { boxesOnly = false }
                        list.append(candidate)
                    }
                }
            }
            list.sort()
            let start = entries.count
            entries += list.lazy.map { Int32(firstRecord) + $0 }
            let base = (firstRecord + b) * FrameStack.recordFloats
            let (cx, cy, halfX, halfY, cosR, sinR) = (records[base + 5], records[base + 6], records[base + 8], records[base + 9],
                                                      records[base + 10], records[base + 11])
            instances += [cx.bitPattern, cy.bitPattern, halfX.bitPattern, halfY.bitPattern, cosR.bitPattern, sinR.bitPattern,
                          UInt32(start), UInt32(list.count), UInt32(top), UInt32(height),
                          background.r.bitPattern, background.g.bitPattern, background.b.bitPattern, background.a.bitPattern]
        }
    }

    /// Where one record can paint: its bounds, and for a round layer its annulus.
    struct Reach {
        var bounds: PixelRect
        var annulus: Annulus?
        var isBox: Bool

        /// Whether some pixel centre of `rect` can lie in the record's bounds and annulus: the
        /// rectangles share a pixel, and `rect` comes within the outer circle and is not wholly
        /// inside the inner one.
        func reaches(_ rect: PixelRect) -> Bool {
            guard bounds.intersects(rect) else { return false }
            guard let a = annulus else { return true }
            let x0 = Float(rect.x0), y0 = Float(rect.y0), x1 = Float(rect.x1), y1 = Float(rect.y1)
            let nx = max(x0 - a.centerX, 0, a.centerX - x1), ny = max(y0 - a.centerY, 0, a.centerY - y1)
            if nx * nx + ny * ny > a.outer * a.outer { return false }
            let fx = max(abs(x0 - a.centerX), abs(x1 - a.centerX)), fy = max(abs(y0 - a.centerY), abs(y1 - a.centerY))
            return fx * fx + fy * fy >= a.inner * a.inner
        }
    }
}


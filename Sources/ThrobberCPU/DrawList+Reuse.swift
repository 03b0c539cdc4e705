import Throbber

extension DrawList {
    /// Same pixel size and background.
    func sameCanvas(as other: DrawList) -> Bool {
        width == other.width && height == other.height && background == other.background
    }

    /// For two frames whose lists have as many items: which items are equal, position by
    /// position — worked out once per pair of frames, then read by every band's
    /// `paintsTheSame(rows:as:sameItems:)` (a tick ring that does not change is then not walked
    /// box by box in every band). nil when the lists differ in length.
    func sameItems(as other: DrawList) -> [Bool]? {
        guard items.count == other.items.count else { return nil }
        return zip(items, other.items).map { $0 == $1 }
    }

    /// Whether `rows` come out the same painted from `other` (on the same canvas): the same items
    /// reach them, in the same order, and of a quad batch the same boxes. `Band` paints an item
    /// only on rows inside its bounds (a box only inside its own), so nothing else touches them.
    ///
    /// - Parameter sameItems: `sameItems(as: other)`, when known: item by item, an equal item
    ///   paints the same wherever it reaches; of the others, the two must reach the rows alike
    ///   (a quad batch: the same boxes, in order). Stricter than walking the reaching items of
    ///   both lists as one sequence, never laxer, so it may paint a band the walk would keep.
    func paintsTheSame(rows: Range<Int>, as other: DrawList, sameItems: [Bool]? = nil) -> Bool {
        guard let same = sameItems else { return paintsTheSameWalkingBoth(rows: rows, as: other) }
        func reaches(_ rect: PixelRect) -> Bool { rect.y0 < rows.upperBound && rect.y1 > rows.lowerBound }
        for i in items.indices where !same[i] {
            switch (items[i], other.items[i]) {
            case let (.quads(x), .quads(y)):
                // The boxes of each that reach the rows, in order, must be equal one for one.
                var a = reaches(x.bounds) ? 0 : x.instances.count, b = reaches(y.bounds) ? 0 : y.instances.count
                while true {
                    while a < x.instances.count && !reaches(x.instanceBounds[a]) { a += 1 }
                    while b < y.instances.count && !reaches(y.instanceBounds[b]) { b += 1 }
                    guard a < x.instances.count, b < y.instances.count else {
                        guard a == x.instances.count, b == y.instances.count else { return false }
                        break
                    }
                    guard x.instances[a] == y.instances[b] else { return false }
                    a += 1
                    b += 1
                }
            case let (mine, theirs):
                switch (reaches(mine.bounds), reaches(theirs.bounds)) {
                case (false, false): continue
                case (true, true):
                    guard case .wave(let x) = mine, case .wave(let y) = theirs, x.paintsTheSame(rows: rows, as: y) else { return false }
                default: return false
                }
            }
        }
        return true
    }

    /// `paintsTheSame` for lists of different lengths: the items (and boxes) reaching `rows`
    /// of both, walked as one sequence each and compared in order.
    private func paintsTheSameWalkingBoth(rows: Range<Int>, as other: DrawList) -> Bool {
        var mine = ItemsReaching(items, rows), theirs = ItemsReaching(other.items, rows)
        while true {
            switch (mine.next(), theirs.next()) {
            case (nil, nil):
                return true
            case let (.item(a)?, .item(b)?):
                if items[a] == other.items[b] { continue }
                guard case .wave(let x) = items[a], case .wave(let y) = other.items[b], x.paintsTheSame(rows: rows, as: y) else { return false }
            case let (.box(x)?, .box(y)?):
                guard x == y else { return false }
            default:
                return false
            }
        }
    }
}

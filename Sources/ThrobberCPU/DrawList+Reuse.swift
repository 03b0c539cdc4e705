import Throbber

extension DrawList {
    /// Same pixel size and background.
    func sameCanvas(as other: DrawList) -> Bool {
        width == other.width && height == other.height && background == other.background
    }

    /// Whether `rows` come out the same painted from `other` (on the same canvas): the same items
    /// reach them, in the same order, and of a quad batch the same boxes. `Band` paints an item
    /// only on rows inside its bounds (a box only inside its own), so nothing else touches them.
    func paintsTheSame(rows: Range<Int>, as other: DrawList) -> Bool {
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

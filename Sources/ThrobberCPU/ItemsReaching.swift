import Throbber

/// The items (by index) whose bounds reach a range of rows, in paint order; of a quad batch,
/// each box whose own bounds do.
struct ItemsReaching: IteratorProtocol {
    enum Element { case item(Int), box(Int, Int) }

    let items: [DrawItem]
    let rows: Range<Int>
    var item = 0
    var box = 0

    init(_ items: [DrawItem], _ rows: Range<Int>) {
        self.items = items
        self.rows = rows
    }

    @inline(__always) func reaches(_ rect: PixelRect) -> Bool { rect.y0 < rows.upperBound && rect.y1 > rows.lowerBound }

    mutating func next() -> Element? {
        while item < items.count {
            if case .quads(let batch) = items[item] {
                if box == 0 && !reaches(batch.bounds) { box = batch.instances.count }
                while box < batch.instances.count {
                    box += 1
                    if reaches(batch.instanceBounds[box - 1]) { return .box(item, box - 1) }
                }
                item += 1
                box = 0
                continue
            }
            item += 1
            if reaches(items[item - 1].bounds) { return .item(item - 1) }
        }
        return nil
    }
}

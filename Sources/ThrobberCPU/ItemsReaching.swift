import Throbber

/// The items (by index) whose bounds reach a range of rows, in paint order; of a quad batch,
/// each box whose own bounds do.
///
/// Called per band for two frames of different lengths (`DrawList.paintsTheSame`), so it holds the current batch's
/// boxes and bounds itself rather than taking the batch out of its `DrawItem` for every box
/// (each of those copies retained four arrays: a tenth of a 64×64 frame's time).
struct ItemsReaching: IteratorProtocol {
    enum Element { case item(Int), box(QuadInstance) }

    let items: [DrawItem]
    let rows: Range<Int>
    var item = 0
    /// The batch being walked (empty between batches), and the next of its boxes to look at.
    var instances: [QuadInstance] = []
    var instanceBounds: [PixelRect] = []
    var box = 0

    init(_ items: [DrawItem], _ rows: Range<Int>) {
        self.items = items
        self.rows = rows
    }

    @inline(__always) func reaches(_ rect: PixelRect) -> Bool { rect.y0 < rows.upperBound && rect.y1 > rows.lowerBound }

    mutating func next() -> Element? {
        while true {
            while box < instanceBounds.count {
                box += 1
                if reaches(instanceBounds[box - 1]) { return .box(instances[box - 1]) }
            }
            guard item < items.count else { return nil }
            item += 1
            if case .quads(let batch) = items[item - 1] {
                (instances, instanceBounds, box) = reaches(batch.bounds) ? (batch.instances, batch.instanceBounds, 0) : ([], [], 0)
                continue
            }
            (instances, instanceBounds, box) = ([], [], 0)
            if reaches(items[item - 1].bounds) { return .item(item - 1) }
        }
    }
}

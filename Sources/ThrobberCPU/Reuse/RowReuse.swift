import Throbber

/// How an earlier frame's items stand to a new frame's, worked out once per pair of frames and
/// read by every band's `paintsTheSame(rows:)`.
///
/// It holds the earlier frame's items and row stamps, never its pixels: a second reference to
/// those would make drawing into that frame's recycled memory copy it first.
struct FrameMatch: Sendable {
    let earlierList: DrawList
    let earlierPrepared: [any CPUItem]
    /// The earlier frame's row stamps (`RowStamps`).
    let earlierStamps: [UInt64]
    let items: [DrawItem]
    let prepared: [any CPUItem]
    /// When both frames have the same identities in the same order: whether each item is the
    /// same (then it paints the same wherever it reaches, and is not looked at again). nil otherwise.
    let equal: [Bool]?

    init?(_ earlier: FrameMemory.Frame?, _ list: DrawList, _ prepared: [any CPUItem]) {
        guard let earlier, earlier.list.sameCanvas(as: list) else { return nil }
        earlierList = earlier.list
        earlierPrepared = earlier.prepared
        earlierStamps = earlier.stamps
        items = list.items
        self.prepared = prepared
        guard earlierList.items.count == items.count,
              zip(earlierList.items, items).allSatisfy({ $0.id == $1.id }) else {
            equal = nil
            return
        }
        // An item is unchanged when it was prepared into the very same object (`PreparedItems`
        // keeps it while its identity and value hold): stated by the identity, not compared again.
        let beforePrepared = earlier.prepared
        equal = prepared.indices.map { beforePrepared[$0] === prepared[$0] }
    }

    /// Whether `rows` come out the same painted from the earlier frame: the same items reach them,
    /// in the same order, each equal or painting them alike (`CPUItem.paintsTheSame`). `Band`
    /// paints an item only on rows it reaches, so nothing else touches them.
    func paintsTheSame(rows: Range<Int>) -> Bool {
        let theirs = earlierPrepared
        if let equal {
            for i in equal.indices where !equal[i] {
                switch (prepared[i].reaches(rows: rows), theirs[i].reaches(rows: rows)) {
                case (false, false): continue
                case (true, true): guard prepared[i].paintsTheSame(rows: rows, as: theirs[i]) else { return false }
                default: return false
                }
            }
            return true
        }
        // Identities differ (an item came or went): the items reaching the rows, walked in order.
        var a = 0, b = 0
        while true {
            while a < prepared.count && !prepared[a].reaches(rows: rows) { a += 1 }
            while b < theirs.count && !theirs[b].reaches(rows: rows) { b += 1 }
            guard a < prepared.count, b < theirs.count else { return a == prepared.count && b == theirs.count }
            guard items[a].id == earlierList.items[b].id else { return false }
            if prepared[a] !== theirs[b] && !prepared[a].paintsTheSame(rows: rows, as: theirs[b]) {
                return false
            }
            a += 1
            b += 1
        }
    }
}

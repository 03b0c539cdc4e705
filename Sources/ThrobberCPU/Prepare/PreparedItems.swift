import Foundation
import Throbber

/// What a CPU renderer prepared for the items of the frame it drew last, by identity: an item
/// of the next frame with the same identity and an equal value (a tick ring while the lit count
/// holds, a HUD) is not prepared again. Per renderer, shared by its copies; no global cache.
final class PreparedItems: @unchecked Sendable {
    private struct Entry {
        let item: DrawItem
        let shortcuts: Bool
        let prepared: any CPUItem
    }

    private let lock = NSLock()
    private var latest: [Entry] = []

    /// Each item of `list` as the renderer paints it, in paint order.
    func prepare(_ list: DrawList, shortcuts: Bool) -> [any CPUItem] {
        let earlier = lock.withLock { latest }
        var entries: [Entry] = []
        entries.reserveCapacity(list.items.count)
        for (index, item) in list.items.enumerated() {
            // Identities usually keep their places: look there first, then anywhere.
            let candidate = index < earlier.count && earlier[index].item.id == item.id ? earlier[index]
                : earlier.first { $0.item.id == item.id }
            if let kept = candidate, kept.shortcuts == shortcuts, kept.item.primitive.isEqual(to: item.primitive) {
                entries.append(kept)
                continue
            }
            entries.append(Entry(item: item, shortcuts: shortcuts, prepared: CPURenderer.prepare(item, shortcuts: shortcuts)))
        }
        lock.withLock { latest = entries }
        return entries.map(\.prepared)
    }
}

extension CPURenderer {
    /// `item` prepared by its kind's row (ThrobberCPU/Primitives).
    static func prepare(_ item: DrawItem, shortcuts: Bool) -> any CPUItem {
        guard let primitive = item.primitive as? any CPUPrimitive else {
            preconditionFailure("\(type(of: item.primitive).kind) (item \(item.id)) has no row in ThrobberCPU/Primitives")
        }
        return primitive.prepare(shortcuts: shortcuts)
    }
}

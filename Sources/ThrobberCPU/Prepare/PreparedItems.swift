import Foundation
import Throbber

/// What a CPU renderer prepared for the items of the frame it drew last, by identity: an item
/// of the next frame with the same identity and an equal value (a tick ring while the lit count
/// holds, a HUD) is not prepared again. Per renderer, shared by its copies; no global cache.
final class PreparedItems: @unchecked Sendable {
    /// One item and what it was prepared into (a class: frames pass entries on without copying
    /// the item's value).
    private final class Entry: @unchecked Sendable {
        let item: DrawItem
        let shortcuts: Bool
        let prepared: any CPUItem

        init(item: DrawItem, shortcuts: Bool, prepared: any CPUItem) {
            self.item = item
            self.shortcuts = shortcuts
            self.prepared = prepared
        }
    }

    private let lock = NSLock()
    private var latest: [Entry] = []

    /// Each item of `list` as the renderer paints it, in paint order.
    func prepare(_ list: DrawList, shortcuts: Bool) -> [any CPUItem] {
        let earlier = lock.withLock { latest }
        var entries: [Entry] = []
        var prepared: [any CPUItem] = []
        entries.reserveCapacity(list.items.count)
        prepared.reserveCapacity(list.items.count)
        for (index, item) in list.items.enumerated() {
            // Identities usually keep their places: look there first, then anywhere.
            let candidate = index < earlier.count && earlier[index].item.id == item.id ? earlier[index]
                : earlier.first { $0.item.id == item.id }
            let entry: Entry
            if let kept = candidate, kept.shortcuts == shortcuts, kept.item.primitive.isEqual(to: item.primitive) {
                entry = kept
            } else {
                entry = Entry(item: item, shortcuts: shortcuts, prepared: CPURenderer.prepare(item, shortcuts: shortcuts, resources: list.resources))
            }
            entries.append(entry)
            prepared.append(entry.prepared)
        }
        lock.withLock { latest = entries }
        return prepared
    }
}

extension CPURenderer {
    /// `item` prepared by its kind's row (ThrobberCPU/Primitives).
    static func prepare(_ item: DrawItem, shortcuts: Bool, resources: DrawResources) -> any CPUItem {
        guard let primitive = item.primitive as? any CPUPrimitive else {
            preconditionFailure("\(type(of: item.primitive).kind) (item \(item.id)) has no row in ThrobberCPU/Primitives")
        }
        return primitive.prepare(shortcuts: shortcuts, resources: resources)
    }
}

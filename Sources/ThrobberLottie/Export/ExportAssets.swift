import Foundation
import Throbber

/// Precomposition assets of an export: a ring's box once, and the doublings of it.
struct ExportAssets {
    let end: Double
    let width: Int
    let height: Int
    var assets: [LottieValue] = []
    private var boxes: [String: String] = [:]
    private var doublings: [String: String] = [:]

    init(end: Double, width: Int, height: Int) {
        self.end = end
        self.width = width
        self.height = height
    }

    /// The asset drawing `group`, shared by every ring box drawn the same.
    mutating func box(_ group: LottieValue) -> String {
        // Unnamed: the boxes of a ring that are drawn the same share it.
        var group = group
        if case .object(let members) = group { group = .object(members.filter { $0.0 != "nm" }) }
        let text = group.text
        if let id = boxes[text] { return id }
        let id = "b\(boxes.count)"
        boxes[text] = id
        let layer: [(String, LottieValue)] = ExportAssets.header(ty: 4, name: id, transform: ExportAssets.transform())
            + [("shapes", .array([group]))] + timing()
        assets.append(.object([("id", .string(id)), ("nm", .string(id)), ("layers", .array([ExportAssets.numbered(.object(layer), 1)]))]))
        return id
    }

    /// The assets and turns that make `count` copies of `box`, `step` degrees apart about the
    /// pivot each layer names: asset k holds 2^k copies, two of asset k − 1; the count's binary
    /// digits pick which to place and where.
    mutating func ring(_ box: String, count: Int, step: Double, center: [Double]) -> [(asset: String, angle: Double)] {
        var levels = [box]
        while 1 << levels.count <= count {
            let previous = levels[levels.count - 1]
            let key = "\(previous)×2@\(step)@\(center)"
            if let id = doublings[key] {
                levels.append(id)
                continue
            }
            let id = "d\(doublings.count)"
            doublings[key] = id
            let half = Double(1 << (levels.count - 1)) * step
            let pair = [layer(previous, name: previous, transform: ExportAssets.transform(pivot: [0, 0], rotation: 0), span: nil),
                        layer(previous, name: previous, transform: ExportAssets.transform(pivot: center, rotation: half), span: nil)]
            assets.append(.object([("id", .string(id)), ("nm", .string(id)),
                                   ("layers", .array(pair.enumerated().map { ExportAssets.numbered($1, $0 + 1) }))]))
            levels.append(id)
        }
        var placed: [(String, Double)] = []
        var done = 0
        for level in levels.indices.reversed() where count & (1 << level) != 0 {
            placed.append((levels[level], Double(done) * step))
            done += 1 << level
        }
        return placed
    }

    func layer(_ asset: String, name: String, transform: LottieValue, span: (Double, Double)?) -> LottieValue {
        var layer = ExportAssets.header(ty: 0, name: name, transform: transform)
        layer += [("refId", .string(asset)), ("w", .integer(width)), ("h", .integer(height))]
        if let span {
            layer += [("ip", .number(span.0, digits: 4)), ("op", .number(span.1, digits: 4)), ("st", .integer(0)), ("bm", .integer(0))]
        } else {
            layer += timing()
        }
        return .object(layer)
    }

    func timing() -> [(String, LottieValue)] {
        [("ip", .integer(0)), ("op", .number(end, digits: 3)), ("st", .integer(0)), ("bm", .integer(0))]
    }

    /// `ddd` before `ks` (rlottie reads the transform as 3D otherwise, issue 51).
    static func header(ty: Int, name: String, transform: LottieValue) -> [(String, LottieValue)] {
        [("ddd", .integer(0)), ("ind", .integer(0)), ("ty", .integer(ty)), ("nm", .string(name)), ("sr", .integer(1)),
         ("ks", transform), ("ao", .integer(0))]
    }

    static func numbered(_ layer: LottieValue, _ index: Int) -> LottieValue {
        guard case .object(var members) = layer, let k = members.firstIndex(where: { $0.0 == "ind" }) else { return layer }
        members[k].1 = .integer(index)
        return .object(members)
    }

    /// A layer transform: turned by `rotation` degrees about `pivot`, at `opacity` (a fitted
    /// property) or 100.
    static func transform(pivot: [Double] = [0, 0], rotation: Double = 0, opacity: LottieValue? = nil) -> LottieValue {
        .object([
            ("o", opacity ?? .fixed(.integer(100))), ("r", .fixed(.number(rotation, digits: 4))),
            ("p", .fixed(.numbers(pivot + [0], digits: 3))), ("a", .fixed(.numbers(pivot + [0], digits: 3))),
            ("s", .fixed(.numbers([100, 100, 100], digits: 0))),
        ])
    }

    /// The one stretch where `opacity` is 100 (0 elsewhere), from its first time to the time after
    /// its last, or nil when it is not one stretch at full opacity.
    static func span(_ opacity: [Double], times: [Double]) -> (Double, Double)? {
        // Within half a step of 1/255 of none or all.
        let full = opacity.map { abs($0 - 100) <= 0.1 }
        guard opacity.allSatisfy({ abs($0) <= 0.1 || abs($0 - 100) <= 0.1 }), let first = full.firstIndex(of: true) else { return nil }
        let last = full.lastIndex(of: true)!
        guard full[first...last].allSatisfy({ $0 }) else { return nil }
        return (times[first], last == times.count - 1 ? times[last] + 1 : times[last + 1])
    }
}

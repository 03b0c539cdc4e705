import Throbber

extension DotLottieArchive.Theme {
    /// One rule of a theme: the slot it fills (a Lottie property's `sid`), the slot's type, and
    /// either a static value or keyframes, as dotLottie 2 writes them.
    ///
    /// Values stay `JSONNode`s in the theme's own shapes, checked here and turned into a Lottie
    /// property by whoever applies the theme:
    ///
    /// | kind | `value` (and each keyframe's `value`) |
    /// |---|---|
    /// | `Color` | `[r, g, b]` or `[r, g, b, a]`, numbers in 0…1 |
    /// | `Scalar` | a number |
    /// | `Position`, `Vector` | `[x, y]` or `[x, y, z]` |
    /// | `Gradient` | `[{"offset": o, "color": [r, g, b(, a)]}, …]`, at least one stop |
    /// | `Image` | `{"src": …, "width": …, "height": …}` (or the older `path` / `dataUrl`) |
    /// | `Text` | `{"text": …, "fontSize": …, …}` |
    ///
    /// A rule with an `expression` is refused: Throbber evaluates no expressions.
    public struct Rule: Sendable {
        /// A slot's type, as a theme's `type` spells it.
        public enum Kind: String, Sendable, CaseIterable {
            case color = "Color", scalar = "Scalar", position = "Position", vector = "Vector"
            case gradient = "Gradient", image = "Image", text = "Text"
        }

        /// One keyframe of an animated rule; `frame` is in the animation's frames.
        public struct Keyframe: Sendable {
            public let frame: Double
            public let value: JSONNode
            /// The easing out of the keyframe before and into this one (`{"x": …, "y": …}`), as Lottie's `i` and `o`.
            public let inTangent: JSONNode?
            public let outTangent: JSONNode?
            /// Spatial tangents (`Position`, `Color`, `Scalar`), as Lottie's `ti` and `to`.
            public let valueInTangent: [Double]?
            public let valueOutTangent: [Double]?
            /// The value holds until the next keyframe.
            public let hold: Bool
        }

        /// The slot id (the theme's `id`), which a Lottie property names with `sid`.
        public let slot: String
        public let kind: Kind
        /// The animations it applies to; `nil` for all of them.
        public let animations: [String]?
        /// The static value, when the rule has one.
        public let value: JSONNode?
        /// The keyframes, in file order; empty when the rule is static.
        public let keyframes: [Keyframe]

        /// Whether the rule applies to the animation `id`.
        public func applies(to id: String) -> Bool { animations?.contains(id) ?? true }
    }

    /// The rules of a theme file (`{"rules": [...]}`).
    static func rules(in root: JSONNode, entry: String) throws -> [Rule] {
        guard case .array(let items)? = ArchiveJSON.member(root, "rules")?.value else {
            throw ArchiveFailure(entry: entry, "must hold an object with a 'rules' array")
        }
        return try items.enumerated().map { index, item in
            do {
                return try Rule(item)
            } catch let problem as RuleProblem {
                throw ArchiveFailure(entry: entry, "rules[\(index)]\(problem.slot.map { " (slot '\(ThrobberError.echoed($0))')" } ?? ""): \(problem.message)")
            }
        }
    }
}

/// What is wrong with one rule, before the entry and index are known.
private struct RuleProblem: Error {
    var slot: String?
    var message: String
}

extension DotLottieArchive.Theme.Rule {
    fileprivate init(_ node: JSONNode) throws {
        guard case .object = node.value else { throw RuleProblem(message: "must be an object, not \(node.typeName)") }
        guard case .string(let slot)? = ArchiveJSON.member(node, "id")?.value, !slot.isEmpty else {
            throw RuleProblem(message: "'id' must be the slot's id, a non-empty string")
        }
        func fail(_ message: String) -> RuleProblem { RuleProblem(slot: slot, message: message) }
        let known = Kind.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .string(let type)? = ArchiveJSON.member(node, "type")?.value, let kind = Kind(rawValue: type) else {
            throw fail("'type' must be one of \(known)")
        }
        if ArchiveJSON.member(node, "expression") != nil { throw fail("uses an expression; expressions are not supported") }
        var animations: [String]?
        if let list = ArchiveJSON.member(node, "animations") {
            guard case .array(let items) = list.value else { throw fail("'animations' must be an array of animation ids") }
            animations = try items.map { item in
                guard case .string(let id) = item.value else { throw fail("'animations' must be an array of animation ids") }
                return id
            }
        }
        let value = ArchiveJSON.member(node, "value")
        if let value, let problem = Self.problem(with: value, kind: kind) { throw fail("'value' \(problem)") }
        var keyframes: [Keyframe] = []
        if let list = ArchiveJSON.member(node, "keyframes") {
            guard case .array(let items) = list.value, !items.isEmpty else { throw fail("'keyframes' must be a non-empty array") }
            keyframes = try items.enumerated().map { index, item in
                do {
                    return try Keyframe(item, kind: kind)
                } catch let problem as RuleProblem {
                    throw fail("keyframes[\(index)]: \(problem.message)")
                }
            }
        }
        guard value != nil || !keyframes.isEmpty else { throw fail("has neither 'value' nor 'keyframes'") }
        self.init(slot: slot, kind: kind, animations: animations, value: value, keyframes: keyframes)
    }

    /// What is wrong with a value for a slot of `kind`, or nil when it has the kind's shape.
    static func problem(with value: JSONNode, kind: Kind) -> String? {
        switch kind {
        case .scalar:
            return number(value) == nil ? "must be a number" : nil
        case .color:
            return numbers(value, counts: 3...4) == nil ? "must be [r, g, b] or [r, g, b, a]" : nil
        case .position, .vector:
            return numbers(value, counts: 2...3) == nil ? "must be [x, y] or [x, y, z]" : nil
        case .gradient:
            guard case .array(let stops) = value.value, !stops.isEmpty,
                  stops.allSatisfy({ number(ArchiveJSON.member($0, "offset")) != nil
                      && numbers(ArchiveJSON.member($0, "color"), counts: 3...4) != nil }) else {
                return "must be a non-empty array of {\"offset\": number, \"color\": [r, g, b(, a)]}"
            }
            return nil
        case .image:
            let source = ["src", "path", "dataUrl"].contains { key in
                if case .string? = ArchiveJSON.member(value, key)?.value { return true } else { return false }
            }
            return source ? nil : "must be an object with 'src' (or 'path' or 'dataUrl')"
        case .text:
            guard case .string? = ArchiveJSON.member(value, "text")?.value else { return "must be an object with 'text'" }
            return nil
        }
    }

    static func number(_ node: JSONNode?) -> Double? {
        guard case .number(let number, _)? = node?.value, number.isFinite else { return nil }
        return number
    }

    static func numbers(_ node: JSONNode?, counts: ClosedRange<Int>) -> [Double]? {
        guard case .array(let items)? = node?.value, counts.contains(items.count) else { return nil }
        let values = items.compactMap { number($0) }
        return values.count == items.count ? values : nil
    }
}

extension DotLottieArchive.Theme.Rule.Keyframe {
    fileprivate init(_ node: JSONNode, kind: DotLottieArchive.Theme.Rule.Kind) throws {
        typealias Rule = DotLottieArchive.Theme.Rule
        guard case .object = node.value else { throw RuleProblem(message: "must be an object, not \(node.typeName)") }
        guard let frame = Rule.number(ArchiveJSON.member(node, "frame")) else { throw RuleProblem(message: "'frame' must be a number") }
        guard let value = ArchiveJSON.member(node, "value") else { throw RuleProblem(message: "has no 'value'") }
        if let problem = Rule.problem(with: value, kind: kind) { throw RuleProblem(message: "'value' \(problem)") }
        func tangent(_ key: String) throws -> [Double]? {
            guard let node = ArchiveJSON.member(node, key) else { return nil }
            guard let values = Rule.numbers(node, counts: 1...4) else { throw RuleProblem(message: "'\(key)' must be an array of numbers") }
            return values
        }
        var hold = false
        if let node = ArchiveJSON.member(node, "hold") {
            guard case .bool(let flag) = node.value else { throw RuleProblem(message: "'hold' must be true or false") }
            hold = flag
        }
        self.init(frame: frame, value: value, inTangent: ArchiveJSON.member(node, "inTangent"),
                  outTangent: ArchiveJSON.member(node, "outTangent"), valueInTangent: try tangent("valueInTangent"),
                  valueOutTangent: try tangent("valueOutTangent"), hold: hold)
    }
}

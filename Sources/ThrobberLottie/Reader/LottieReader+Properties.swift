import Throbber

/// A JSON object's members by key, for the reader.
struct LottieObject {
    let node: JSONNode
    let members: [String: JSONNode]

    init?(_ node: JSONNode?) {
        guard let node, case .object(let list) = node.value else { return nil }
        self.node = node
        var members: [String: JSONNode] = [:]
        for member in list { members[member.key] = member.value }
        self.members = members
    }

    subscript(_ key: String) -> JSONNode? { members[key] }
}

extension JSONNode {
    var number: Double? {
        switch value {
        case .number(let x, _): return x
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }
    var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }
    var array: [JSONNode]? {
        if case .array(let a) = value { return a }
        return nil
    }
}

extension LottieReader {
    /// The largest magnitude of any number a file gives (coordinates, sizes, angles, times):
    /// far beyond any indicator, and small enough that nothing derived from it overflows.
    static let largestNumber = 1e7

    /// A finite number within ±largestNumber.
    func number(_ node: JSONNode?, _ what: String) throws -> Double {
        guard let node else { throw failure(what, "is missing: give a number") }
        guard let x = node.number else { throw failure(what, "is \(node.typeName): give a number") }
        guard x.isFinite, abs(x) <= Self.largestNumber else {
            throw failure(what, "is \(formatNumber(x)): give a number within ±\(formatNumber(Self.largestNumber))")
        }
        return x
    }

    func optionalNumber(_ node: JSONNode?, _ what: String, default value: Double) throws -> Double {
        guard let node, node.number != nil || node.string == nil else { return value }
        if case .null = node.value { return value }
        return try number(node, what)
    }

    /// Numbers of an array (a number alone is an array of one).
    func numbers(_ node: JSONNode, _ what: String) throws -> [Double] {
        if node.number != nil { return [try number(node, what)] }
        guard let items = node.array else { throw failure(what, "is \(node.typeName): give an array of numbers") }
        guard items.count <= LottieLimits.vertices * 8 else {
            throw failure(what, "has \(items.count) numbers: at most \(LottieLimits.vertices * 8) are read")
        }
        return try items.enumerated().map { try number($0.element, "\(what)[\($0.offset)]") }
    }

    /// An animated property (`{"a": …, "k": …}`) of a value read by `read`; `fallback` when
    /// absent. A property with a slot id (`sid`) takes the file's slot value (`slots`) and, when
    /// the slot is set as a parameter, that value; it is recorded as a parameter of kind `slot`.
    mutating func animated<V: LottieInterpolable>(_ node: JSONNode?, _ what: String, fallback: V?, slot kind: LottieSlot.Kind,
                                                  _ read: (inout LottieReader, JSONNode, String) throws -> V) throws -> LottieAnimated<V> {
        guard var object = LottieObject(node) else {
            if let node, case .null = node.value {} else if node != nil {
                throw failure(what, "is \(node!.typeName): give an animated property, an object with 'k'")
            }
            guard let fallback else { throw failure(what, "is missing") }
            return .fixed(fallback)
        }
        let sid = object["sid"]?.string
        if let sid, let slot = LottieObject(fileSlots[sid]), let property = LottieObject(slot["p"]) { object = property }
        if let expression = object["x"], let text = expression.string, !text.isEmpty {
            try unsupported(what, "expressions")
        }
        var result: LottieAnimated<V>
        if let k = object["k"] {
            if let items = k.array, let first = items.first, LottieObject(first)?["t"] != nil {
                result = .keyframes(try keyframes(items, "\(what).k", read))
            } else {
                result = .fixed(try read(&self, k, "\(what).k"))
            }
        } else {
            guard let fallback else { throw failure("\(what).k", "is missing") }
            result = .fixed(fallback)
        }
        if let sid, let shown = result.value(at: 0).slotVector {
            if !slots.contains(where: { $0.id == sid }) {
                guard slots.count < LottieReader.mostSlots else { throw failure("\(what).sid", "is one slot more than the \(LottieReader.mostSlots) read") }
                slots.append(LottieSlot(id: sid, kind: kind, value: shown))
            }
            if let given = slotValues[sid], let value = V(slot: given) { return .fixed(value) }
        }
        return result
    }

    mutating func keyframes<V: LottieInterpolable>(_ items: [JSONNode], _ what: String,
                                                   _ read: (inout LottieReader, JSONNode, String) throws -> V) throws -> [LottieKeyframe<V>] {
        keyframeCount += items.count
        guard keyframeCount <= LottieLimits.keyframes else {
            throw failure(what, "brings the file's keyframes to \(keyframeCount): at most \(LottieLimits.keyframes) are read")
        }
        var keys: [LottieKeyframe<V>] = []
        keys.reserveCapacity(items.count)
        var previous = -Double.infinity
        for (k, item) in items.enumerated() {
            let place = "\(what)[\(k)]"
            guard let key = LottieObject(item) else { throw failure(place, "is \(item.typeName): give a keyframe object") }
            let time = try number(key["t"], "\(place).t")
            guard time >= previous else {
                throw failure("\(place).t", "is \(formatNumber(time)), before the keyframe before it (\(formatNumber(previous))): keyframes go in time order")
            }
            previous = time
            func value(_ name: String) throws -> V? {
                guard let node = key[name] else { return nil }
                // A path keyframe's value is an array of one path.
                if V.self == LottieBezier.self, let list = node.array, list.count == 1 { return try read(&self, list[0], "\(place).\(name)[0]") }
                return try read(&self, node, "\(place).\(name)")
            }
            func easing(_ name: String) throws -> LottieEasing? {
                guard let handle = LottieObject(key[name]), let x = handle["x"], let y = handle["y"] else { return nil }
                return LottieEasing(x: try numbers(x, "\(place).\(name).x"), y: try numbers(y, "\(place).\(name).y"))
            }
            keys.append(LottieKeyframe(time: time, start: try value("s"), end: try value("e"), easeOut: try easing("o"),
                                       easeIn: try easing("i"), hold: (key["h"]?.number ?? 0) != 0,
                                       spatialOut: try key["to"].map { try numbers($0, "\(place).to") },
                                       spatialIn: try key["ti"].map { try numbers($0, "\(place).ti") }))
        }
        guard keys.contains(where: { $0.start != nil }) else { throw failure(what, "has no keyframe with a value 's'") }
        if V.self == LottieBezier.self {
            let counts = Set(keys.flatMap { [$0.start, $0.end] }.compactMap { ($0 as? LottieBezier)?.vertices.count })
            guard counts.count <= 1 else {
                throw failure(what, "changes its number of vertices between keyframes (\(counts.sorted().map(String.init).joined(separator: ", "))): give every keyframe the same count")
            }
        }
        return keys
    }

    mutating func scalar(_ node: JSONNode?, _ what: String, _ fallback: Double?) throws -> LottieAnimated<Double> {
        try animated(node, what, fallback: fallback, slot: .number) { reader, node, what in
            let values = try reader.numbers(node, what)
            guard let first = values.first else { throw reader.failure(what, "is empty: give a number") }
            return first
        }
    }

    mutating func vector(_ node: JSONNode?, _ what: String, _ fallback: [Double]?, color: Bool = false) throws -> LottieAnimated<LottieVector> {
        try animated(node, what, fallback: fallback.map(LottieVector.init), slot: color ? .color : .vector) { reader, node, what in
            LottieVector(try reader.numbers(node, what))
        }
    }

    mutating func bezier(_ node: JSONNode?, _ what: String) throws -> LottieAnimated<LottieBezier> {
        try animated(node, what, fallback: nil, slot: .vector) { reader, node, what in try reader.readBezier(node, what) }
    }

    func readBezier(_ node: JSONNode, _ what: String) throws -> LottieBezier {
        guard let object = LottieObject(node) else { throw failure(what, "is \(node.typeName): give a path object with 'v', 'i', 'o'") }
        func points(_ name: String) throws -> [PathPoint] {
            guard let list = object[name]?.array else { throw failure("\(what).\(name)", "is missing: give an array of [x, y]") }
            guard list.count <= LottieLimits.vertices else {
                throw failure("\(what).\(name)", "has \(list.count) points: a path has at most \(LottieLimits.vertices) vertices")
            }
            return try list.enumerated().map { k, item in
                let xy = try numbers(item, "\(what).\(name)[\(k)]")
                guard xy.count >= 2 else { throw failure("\(what).\(name)[\(k)]", "has \(xy.count) numbers: give [x, y]") }
                return PathPoint(xy[0], xy[1])
            }
        }
        let vertices = try points("v")
        let ins = try points("i"), outs = try points("o")
        guard ins.count == vertices.count, outs.count == vertices.count else {
            throw failure(what, "has \(vertices.count) vertices, \(ins.count) in and \(outs.count) out tangents: give one of each per vertex")
        }
        return LottieBezier(closed: (object["c"]?.number ?? 0) != 0, vertices: vertices, inTangents: ins, outTangents: outs)
    }

    /// A colour property (r, g, b in 0…1, alpha ignored as the players do for fills and strokes).
    mutating func color(_ node: JSONNode?, _ what: String) throws -> LottieAnimated<LottieVector> {
        try vector(node, what, [0, 0, 0, 1], color: true)
    }
}

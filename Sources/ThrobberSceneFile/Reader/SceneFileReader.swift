import Foundation
import Throbber

/// Reads a scene file's text into a `SceneDefinition` (docs/scene-files.md): strict JSON shape
/// (every unknown key an error with the nearest known one), names resolved to slots, every
/// expression compiled in the scope its field allows, every message `FILE:LINE:COLUMN: …`.
///
/// Reading the file from disk stays with the caller (the batch library, the command line): the
/// core only decodes text.
public struct SceneFileReader {
    /// The format this reader reads.
    public static let format = "throbber-scene/1"
    /// The largest file read: it is embedded whole in each PNG for `reproduce`.
    public static let largestFile = 256 * 1024
    /// Limits on a file's size before expansion (docs/scene-files.md §12.4).
    public static let mostParameters = 64, mostValues = 256, mostClocks = 32, mostRelations = 64, mostNodes = 512
    public static let mostGroupDepth = 16, mostReplicatorDepth = 2

    /// Names an expression may not use for a parameter, value or clock: the replicator's and
    /// the scene's own settings.
    public static let reservedNames = ["t", "i", "count", "scale", "background"]

    let path: String
    let text: String
    var scope = ExpressionScope()
    var slotCount = 0
    var parameterNames: [String] = []
    var clockNames: [String] = []
    var nodeCount = 0
    var nodeIDs: Set<String> = []
    var firstReadOfT: String?
    var tSlot = 0
    /// Slots below this one hold parameters (set once every parameter is declared).
    var parameterSlots = Int.max
    var indexSlots: [Int] = []
    var countSlots: [Int] = []

    /// Reads `text`, the contents of the file at `path` (as messages show it).
    ///
    /// - Throws: a `badData` error `FILE:LINE:COLUMN: message` naming the field, the value, what
    ///   is allowed and the nearest known name.
    public static func read(_ text: String, path: String) throws -> SceneDefinition {
        guard text.utf8.count <= largestFile else {
            throw ThrobberError("\(ThrobberError.shownPath(path)): a scene file is at most \(largestFile / 1024) KiB; this one is \(text.utf8.count) bytes",
                                kind: .badData)
        }
        let root: JSONNode
        do {
            root = try JSONNode.parse(text)
        } catch let error as JSONParseError {
            throw ThrobberError("\(ThrobberError.shownPath(path)):\(error.line):\(error.column): \(error.message)", kind: .badData)
        }
        var reader = SceneFileReader(path: path, text: text)
        return try reader.definition(root)
    }

    // MARK: - Messages

    func fail(_ node: JSONNode, _ message: String) -> ThrobberError {
        ThrobberError("\(ThrobberError.shownPath(path)):\(node.line):\(node.column): \(message)", kind: .badData)
    }

    func fail(_ member: JSONNode.Member, _ message: String) -> ThrobberError {
        ThrobberError("\(ThrobberError.shownPath(path)):\(member.keyLine):\(member.keyColumn): \(message)", kind: .badData)
    }

    func place(_ node: JSONNode) -> String { "\(ThrobberError.shownPath(path)):\(node.line):\(node.column)" }

    /// The members of an object, every key known (else the nearest is suggested), the required present.
    func members(_ node: JSONNode, _ what: String, known: [String], required: [String] = []) throws -> [String: JSONNode.Member] {
        guard case .object(let list) = node.value else { throw fail(node, "\(what) must be an object, not \(node.typeName)") }
        var result: [String: JSONNode.Member] = [:]
        for member in list {
            guard known.contains(member.key) else {
                var message = "unknown key '\(ThrobberError.echoed(member.key))' in \(what)"
                if let nearest = nearestName(to: member.key, in: known) { message += "; did you mean '\(nearest)'?" }
                throw fail(member, message + " (known: \(known.joined(separator: ", ")))")
            }
            result[member.key] = member
        }
        for key in required where result[key] == nil {
            throw fail(node, "\(what) needs \"\(key)\"")
        }
        return result
    }

    func string(_ member: JSONNode.Member?, _ what: String) throws -> String? {
        guard let member else { return nil }
        guard case .string(let value) = member.value.value else {
            throw fail(member.value, "\(what) must be a string, not \(member.value.typeName)")
        }
        return value
    }

    func number(_ member: JSONNode.Member?, _ what: String) throws -> Double? {
        guard let member else { return nil }
        guard case .number(let value, _) = member.value.value, value.isFinite else {
            throw fail(member.value, "\(what) must be a number, not \(member.value.typeName)")
        }
        return value
    }

    func bool(_ member: JSONNode.Member?, _ what: String) throws -> Bool? {
        guard let member else { return nil }
        guard case .bool(let value) = member.value.value else {
            throw fail(member.value, "\(what) must be true or false, not \(member.value.typeName)")
        }
        return value
    }

    func array(_ node: JSONNode, _ what: String) throws -> [JSONNode] {
        guard case .array(let items) = node.value else { throw fail(node, "\(what) must be an array, not \(node.typeName)") }
        return items
    }

    // MARK: - Slots and scopes

    mutating func newSlot() -> Int {
        defer { slotCount += 1 }
        return slotCount
    }

    /// Declares a parameter, value or clock name in `scope`, refusing reserved and repeated names.
    mutating func declareName(_ name: String, at node: JSONNode, _ what: String) throws {
        guard ExpressionScope.isDeclarable(name), !Self.reservedNames.contains(name) else {
            throw fail(node, "\(what) name '\(ThrobberError.echoed(name))' is reserved or not a name "
                       + "(a letter or _, then letters, digits or _; not t, i, count, pi, true, false, scale, background or a function name); choose another")
        }
        guard scope.binding(for: name) == nil else {
            throw fail(node, "\(what) name '\(ThrobberError.echoed(name))' is used twice: parameters, values and clocks share one namespace")
        }
    }

    /// Compiles the expression `source` found at `node` in `scope`.
    func compile(_ source: String, at node: JSONNode, in scope: ExpressionScope, field: String,
                 expecting type: ExpressionType?) throws -> SceneExpression {
        do {
            return try SceneExpression(source, in: scope, expecting: type)
        } catch {
            // The column inside a string: the string's column + 1 (its quote) + the offset.
            throw ThrobberError("\(ThrobberError.shownPath(path)):\(node.line):\(node.column + 1 + error.offset): \(field): \(error.message)",
                                kind: .badData)
        }
    }

    /// Notes the first expression that reads `t`.
    mutating func noteT(_ expression: SceneExpression, at node: JSONNode, field: String) {
        if firstReadOfT == nil, expression.slotsRead.contains(tSlot) {
            firstReadOfT = "\(place(node)) (\(field) '\(ThrobberError.echoed(expression.source))')"
        }
    }

    // MARK: - Sources

    /// A scalar, boolean, string or colour source: a constant, an expression, a track or a switch.
    mutating func source(_ node: JSONNode, field: String, type: ExpressionType, in scope: ExpressionScope) throws -> SceneSource {
        switch node.value {
        case .number(let value, _):
            guard type == .number else { throw fail(node, "\(field) is a number where \(type) is expected") }
            return .expression(SceneExpression(constant: .number(value)))
        case .bool(let value):
            guard type == .boolean else { throw fail(node, "\(field) is a boolean where \(type) is expected") }
            return .expression(SceneExpression(constant: .boolean(value)))
        case .string(let text):
            if type == .color, text.hasPrefix("#") {
                guard let color = RGBA.parse(text), color.isValid else {
                    throw fail(node, "invalid \(field) '\(ThrobberError.echoed(text))': a colour '#rrggbb' or '#rrggbbaa'")
                }
                return .expression(SceneExpression(constant: .color(color)))
            }
            let expression = try compile(text, at: node, in: scope, field: field, expecting: type)
            noteT(expression, at: node, field: field)
            return .expression(expression)
        case .array(let items):
            guard type == .color else { throw fail(node, "\(field) is an array where \(type) is expected") }
            guard items.count == 4 else { throw fail(node, "\(field) has \(items.count) components: a colour is [r, g, b, a], each in [0, 1]") }
            var parts: [SceneSource] = []
            for (k, item) in items.enumerated() {
                let part = try source(item, field: "\(field)[\(k)]", type: .number, in: scope)
                if case .expression(let e) = part, case .number(let v)? = e.constantValue, !(0...1).contains(v) {
                    throw fail(item, "invalid \(field)[\(k)] \(formatNumber(v)): a colour component is in [0, 1]")
                }
                parts.append(part)
            }
            if parts.allSatisfy({ if case .expression(let e) = $0 { return e.isConstant } else { return false } }) {
                let c = parts.map { source -> Double in
                    if case .expression(let e) = source, case .number(let v)? = e.constantValue { return v }
                    return 0
                }
                return .expression(SceneExpression(constant: .color(RGBA(c[0], c[1], c[2], c[3]))))
            }
            return .components(parts)
        case .object(let list):
            if list.contains(where: { $0.key == "switch" }) { return try switchSource(node, field: field, type: type, in: scope) }
            return try track(node, field: field, type: type, in: scope)
        case .null:
            throw fail(node, "\(field) is null where \(type) is expected")
        }
    }

    /// `{ "switch": choiceParameter, "cases": { choice: value, … } }`: one case per choice.
    mutating func switchSource(_ node: JSONNode, field: String, type: ExpressionType, in scope: ExpressionScope) throws -> SceneSource {
        let m = try members(node, "\(field) (a switch)", known: ["switch", "cases"], required: ["switch", "cases"])
        let name = try string(m["switch"], "\(field).switch")!
        guard case .value(.string, let slot, let choices?)? = scope.binding(for: name) else {
            let known = parameterNames.filter { if case .value(.string, _, _)? = scope.binding(for: $0) { return true } else { return false } }
            var message = "\(field).switch '\(ThrobberError.echoed(name))' is not a choice parameter"
            if let nearest = nearestName(to: name, in: known) { message += "; did you mean '\(nearest)'?" }
            throw fail(m["switch"]!.value, message + " (choice parameters: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
        }
        let casesNode = m["cases"]!.value
        let caseMembers = try members(casesNode, "\(field).cases", known: choices, required: choices)
        var cases: [String: SceneSource] = [:]
        for choice in choices {
            cases[choice] = try source(caseMembers[choice]!.value, field: "\(field).cases.\(choice)", type: type, in: scope)
        }
        return .choice(slot: slot, cases: cases)
    }

    /// `{ "clock", "keyTimes", "values", "timing" }` (docs/scene-files.md §5).
    mutating func track(_ node: JSONNode, field: String, type: ExpressionType, in scope: ExpressionScope) throws -> SceneSource {
        guard type == .number || type == .color else { throw fail(node, "\(field) is a keyframe track where \(type) is expected") }
        let m = try members(node, "\(field) (a keyframe track)", known: ["clock", "keyTimes", "values", "timing"],
                            required: ["clock", "keyTimes", "values"])
        let clockName = try string(m["clock"], "\(field).clock")!
        guard case .clock(let slots)? = scope.binding(for: clockName) else {
            var message = "unknown clock '\(ThrobberError.echoed(clockName))' in \(field)"
            if let nearest = nearestName(to: clockName, in: clockNames) { message += "; did you mean '\(nearest)'?" }
            throw fail(m["clock"]!.value, message + " (known: \(clockNames.isEmpty ? "none" : clockNames.joined(separator: ", ")))")
        }
        if let timingMember = m["timing"], case .object(let list) = timingMember.value.value, list.contains(where: { $0.key == "switch" }) {
            // A timing that a choice parameter picks: one track per choice.
            let sw = try members(timingMember.value, "\(field).timing (a switch)", known: ["switch", "cases"], required: ["switch", "cases"])
            let name = try string(sw["switch"], "\(field).timing.switch")!
            guard case .value(.string, let slot, let choices?)? = scope.binding(for: name) else {
                throw fail(sw["switch"]!.value, "\(field).timing.switch '\(ThrobberError.echoed(name))' is not a choice parameter")
            }
            let caseMembers = try members(sw["cases"]!.value, "\(field).timing.cases", known: choices, required: choices)
            var cases: [String: SceneSource] = [:]
            for choice in choices {
                var single = m
                single["timing"] = caseMembers[choice]!
                cases[choice] = try trackOf(single, node: node, clockSlots: slots, field: field, type: type, in: scope)
            }
            return .choice(slot: slot, cases: cases)
        }
        return try trackOf(m, node: node, clockSlots: slots, field: field, type: type, in: scope)
    }

    /// A track from its members, its timing one function or a list.
    mutating func trackOf(_ m: [String: JSONNode.Member], node: JSONNode, clockSlots slots: ExpressionClockSlots, field: String,
                          type: ExpressionType, in scope: ExpressionScope) throws -> SceneSource {
        let keyNodes = try array(m["keyTimes"]!.value, "\(field).keyTimes")
        var keyTimes: [Double] = []
        for key in keyNodes {
            guard case .number(let v, _) = key.value else { throw fail(key, "\(field).keyTimes holds \(key.typeName) where a number is expected") }
            keyTimes.append(v)
        }
        let valueNodes = try array(m["values"]!.value, "\(field).values")
        var timing: [TimingFunction] = [.linear]
        if let timingMember = m["timing"] {
            if case .array(let items) = timingMember.value.value {
                timing = try items.enumerated().map { try timingFunction($1, field: "\(field).timing[\($0)]", in: scope) }
            } else {
                timing = [try timingFunction(timingMember.value, field: "\(field).timing", in: scope)]
            }
        }
        let track = KeyframeTrack(keyTimes: keyTimes, timing: timing)
        if let problem = track.problem ?? track.problem(valueCount: valueNodes.count) {
            throw fail(m["keyTimes"]!.value, "invalid \(field): \(field) \(problem)")
        }
        let values = try valueNodes.enumerated().map { try source($1, field: "\(field).values[\($0)]", type: type, in: scope) }
        return .track(uSlot: slots.u, track: track, values: values)
    }

    /// A timing function: a name, `{ "cubicBezier": […] }`, `{ "steps": n, "position": … }`, or a
    /// switch on a choice whose cases are timing functions (resolved per parameter set is not
    /// possible in a track, so a switch here is resolved by the choice's value at load: refused).
    mutating func timingFunction(_ node: JSONNode, field: String, in scope: ExpressionScope) throws -> TimingFunction {
        switch node.value {
        case .string(let name):
            guard let function = TimingFunction(named: name) else {
                var message = "unknown timing function '\(ThrobberError.echoed(name))' in \(field)"
                if let nearest = nearestName(to: name, in: TimingFunction.names) { message += "; did you mean '\(nearest)'?" }
                throw fail(node, message + " (known: \(TimingFunction.names.joined(separator: ", ")), {\"cubicBezier\": [x1, y1, x2, y2]}, {\"steps\": n})")
            }
            return function
        case .object(let list) where list.contains(where: { $0.key == "cubicBezier" }):
            let m = try members(node, field, known: ["cubicBezier"])
            let items = try array(m["cubicBezier"]!.value, "\(field).cubicBezier")
            let numbers = try items.map { item -> Double in
                guard case .number(let v, _) = item.value else { throw fail(item, "\(field).cubicBezier holds \(item.typeName) where a number is expected") }
                return v
            }
            guard numbers.count == 4 else { throw fail(node, "\(field).cubicBezier has \(numbers.count) numbers: give [x1, y1, x2, y2]") }
            let function = TimingFunction.cubicBezier(CubicBezierTiming(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3]))
            if let problem = function.problem { throw fail(node, "invalid \(field): \(problem)") }
            return function
        case .object(let list) where list.contains(where: { $0.key == "steps" }):
            let m = try members(node, field, known: ["steps", "position"])
            let count = try number(m["steps"], "\(field).steps")!
            guard count == count.rounded(), count >= 1, count <= 1_000_000 else {
                throw fail(m["steps"]!.value, "invalid \(field).steps \(formatNumber(count)): a whole number ≥ 1")
            }
            let positionName = try string(m["position"], "\(field).position") ?? "jump-end"
            guard let position = TimingFunction.StepPosition(rawValue: positionName) else {
                throw fail(m["position"]!.value, "unknown \(field).position '\(ThrobberError.echoed(positionName))' (known: "
                           + TimingFunction.StepPosition.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            let function = TimingFunction.steps(count: Int(count), position: position)
            if let problem = function.problem { throw fail(node, "invalid \(field): \(problem)") }
            return function
        default:
            throw fail(node, "\(field) must be a timing function name, {\"cubicBezier\": [x1, y1, x2, y2]} or {\"steps\": n, \"position\": …}, not \(node.typeName)")
        }
    }

    /// `[x, y]`: two scalar sources.
    mutating func point(_ node: JSONNode, field: String, in scope: ExpressionScope) throws -> SceneDefinition.Point {
        let items = try array(node, field)
        guard items.count == 2 else { throw fail(node, "\(field) has \(items.count) numbers: a point is [x, y]") }
        return SceneDefinition.Point(x: try source(items[0], field: "\(field)[0]", type: .number, in: scope),
                                     y: try source(items[1], field: "\(field)[1]", type: .number, in: scope))
    }

    /// A static number: an expression of parameters only (or a constant).
    mutating func staticNumber(_ node: JSONNode, field: String) throws -> SceneExpression {
        let staticScope = parameterScope
        switch node.value {
        case .number(let v, _): return SceneExpression(constant: .number(v))
        case .string(let text): return try compile(text, at: node, in: staticScope, field: field, expecting: .number)
        default: throw fail(node, "\(field) must be a number or an expression of parameters, not \(node.typeName)")
        }
    }

    mutating func staticBoolean(_ node: JSONNode, field: String) throws -> SceneExpression {
        switch node.value {
        case .bool(let v): return SceneExpression(constant: .boolean(v))
        case .string(let text): return try compile(text, at: node, in: parameterScope, field: field, expecting: .boolean)
        default: throw fail(node, "\(field) must be true, false or an expression of parameters, not \(node.typeName)")
        }
    }

    var parameterScope = ExpressionScope()
}

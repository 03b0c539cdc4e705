import Throbber

/// What a `path` node's fields are read with (`PathNode`): its SVG path data, with the place of
/// a bad character in the file, and its paints.
extension SceneFileReader {
    /// A path's `d`, read once: SVG path data of at most `PathNode.mostSegments` segments whose
    /// points lie within `PathNode.farthestPoint` of the origin.
    ///
    /// - Throws: a data error at the offending character inside the string (`FILE:LINE:COLUMN`,
    ///   escapes counted as written), quoting it.
    func pathData(_ member: JSONNode.Member, field: String) throws -> PathNode.Curves {
        let data = try string(member, field)!
        let geometry: PathGeometry
        do {
            geometry = try SVGPathData.read(data)
        } catch let failure as SVGPathData.Failure {
            let (line, column) = position(inside: member.value, offset: failure.offset)
            throw ThrobberError("\(ThrobberError.shownPath(path)):\(line):\(column): invalid \(field): \(ThrobberError.echoed(failure.message))",
                                kind: .badData)
        }
        let curves = PathNode.Curves(geometry)
        guard curves.segments <= PathNode.mostSegments else {
            throw fail(member.value, "\(field) has \(curves.segments) segments: a path has at most \(PathNode.mostSegments) (an arc counts as its cubics)")
        }
        let reach = curves.reach
        guard reach <= PathNode.farthestPoint else {
            throw fail(member.value, "\(field) reaches \(formatNumber(reach)) pt from the origin: a path's points are at most "
                       + "\(formatNumber(PathNode.farthestPoint)) pt from it")
        }
        return curves
    }

    /// The line and column in the file of the character `offset` Unicode scalars into the string
    /// `node`: an escape (`\"`, `\u00e9`, a surrogate pair) is one character of the string and
    /// several of the file. The end of the string is its closing quote.
    func position(inside node: JSONNode, offset: Int) -> (line: Int, column: Int) {
        let scalars = Array(text.unicodeScalars)
        var i = 0, line = 1
        while line < node.line, i < scalars.count {
            if scalars[i] == "\n" { line += 1 }
            i += 1
        }
        // The opening quote, then the string's first character.
        i += node.column
        var column = node.column + 1
        var k = 0
        while k < offset, i < scalars.count, scalars[i] != "\"" {
            var width = 1
            if scalars[i] == "\\", i + 1 < scalars.count {
                width = scalars[i + 1] == "u" ? 6 : 2
                if width == 6, i + 11 < scalars.count, scalars[i + 6] == "\\", scalars[i + 7] == "u",
                   let high = UInt32(String(String.UnicodeScalarView(scalars[(i + 2)..<(i + 6)])), radix: 16), (0xD800...0xDBFF).contains(high) {
                    width = 12
                }
            }
            i += width
            column += width
            k += 1
        }
        return (line, column)
    }

    /// A fill or a stroke's paint: `"none"` (nil), a colour (any colour source: `#rrggbb`, an
    /// expression, `[r, g, b, a]`, a track, a switch), or `{"linear": …}` / `{"radial": …}`.
    mutating func paint(_ node: JSONNode, field: String, in scope: ExpressionScope) throws -> PathNode.PaintSource? {
        if case .string("none") = node.value { return nil }
        guard case .object(let list) = node.value, list.contains(where: { $0.key == "linear" || $0.key == "radial" }) else {
            return .color(try source(node, field: field, type: .color, in: scope))
        }
        let m = try members(node, "\(field) (a gradient)", known: ["linear", "radial"])
        guard m.count == 1 else { throw fail(node, "\(field) is one gradient: \"linear\" or \"radial\", not both") }
        if let linear = m["linear"] {
            let g = try members(linear.value, "\(field).linear", known: ["from", "to", "stops"], required: ["from", "to", "stops"])
            return .linear(from: try point(g["from"]!.value, field: "\(field).linear.from", in: scope),
                           to: try point(g["to"]!.value, field: "\(field).linear.to", in: scope),
                           stops: try stops(g["stops"]!.value, field: "\(field).linear.stops", in: scope))
        }
        let g = try members(m["radial"]!.value, "\(field).radial", known: ["center", "radius", "stops", "highlight", "angle"],
                            required: ["center", "radius", "stops"])
        return .radial(center: try point(g["center"]!.value, field: "\(field).radial.center", in: scope),
                       radius: try checkedNumber(g["radius"]!.value, field: "\(field).radial.radius", in: scope, "a radius is at least 0") { $0 >= 0 },
                       highlight: try g["highlight"].map { try source($0.value, field: "\(field).radial.highlight", type: .number, in: scope) },
                       angle: try g["angle"].map { try source($0.value, field: "\(field).radial.angle", type: .number, in: scope) },
                       stops: try stops(g["stops"]!.value, field: "\(field).radial.stops", in: scope))
    }

    /// A gradient's stops: at least one `[offset, colour]`, each offset in [0, 1].
    mutating func stops(_ node: JSONNode, field: String, in scope: ExpressionScope) throws -> [PathNode.StopSource] {
        let items = try array(node, field)
        guard !items.isEmpty else { throw fail(node, "\(field) is empty: a gradient needs at least 1 stop [offset, colour]") }
        return try items.enumerated().map { k, item in
            let pair = try array(item, "\(field)[\(k)] (a stop [offset, colour])")
            guard pair.count == 2 else { throw fail(item, "\(field)[\(k)] has \(pair.count) items: a stop is [offset, colour]") }
            return PathNode.StopSource(offset: try checkedNumber(pair[0], field: "\(field)[\(k)][0]", in: scope, "a stop's offset is in [0, 1]") { (0...1).contains($0) },
                                       color: try source(pair[1], field: "\(field)[\(k)][1]", type: .color, in: scope))
        }
    }

    /// A number source whose constant value, when it has one, must pass `valid` (what is allowed
    /// is `rule`); an expression's is checked as each frame evaluates it.
    mutating func checkedNumber(_ node: JSONNode, field: String, in scope: ExpressionScope, _ rule: String,
                                _ valid: (Double) -> Bool) throws -> SceneSource {
        let value = try source(node, field: field, type: .number, in: scope)
        if case .number(let v)? = NodeWork.constant(value), !valid(v) {
            throw fail(node, "invalid \(field) \(formatNumber(v)): \(rule)")
        }
        return value
    }

    /// One of an enumeration's names, `fallback` when absent.
    func choice<Choice: RawRepresentable & CaseIterable>(_ member: JSONNode.Member?, _ field: String, default fallback: Choice) throws -> Choice
    where Choice.RawValue == String {
        guard let name = try string(member, field) else { return fallback }
        guard let value = Choice(rawValue: name) else {
            throw fail(member!.value, "invalid \(field) '\(ThrobberError.echoed(name))' (known: \(Choice.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return value
    }
}

import Throbber

/// Where a property's value comes from in a scene file (docs/scene-files.md §5): a constant or
/// an expression (one compiled expression), a keyframe track on a clock, or a switch on a
/// choice parameter. Evaluated in double, per frame and per copy, before any renderer.
public indirect enum SceneSource: Sendable {
    /// A constant or an expression.
    case expression(SceneExpression)
    /// A keyframe track: its clock's `u` slot, the key times and timing, one source per key.
    case track(uSlot: Int, track: KeyframeTrack, values: [SceneSource])
    /// A colour written as four component sources.
    case components([SceneSource])
    /// A switch on a choice parameter: the parameter's slot and a source per choice.
    case choice(slot: Int, cases: [String: SceneSource])
    /// The text a parameter holds: a string or choice as it is, a number in its shortest form.
    case parameterText(slot: Int)

    /// The value in `environment`.
    ///
    /// - Throws: `ExpressionError` when an expression fails (a division by zero, a colour
    ///   component out of [0, 1], the evaluation budget spent).
    public func evaluate(_ environment: ExpressionEnvironment, budget: inout Int) throws(ExpressionError) -> ExpressionValue {
        switch self {
        case .expression(let expression):
            // Most fields are a constant or one name: read them without the tree walk.
            if let value = expression.quickValue(environment) {
                budget -= 1
                guard budget >= 0 else { return try expression.evaluate(in: environment, budget: &budget) }
                return value
            }
            return try expression.evaluate(in: environment, budget: &budget)
        case .components(let parts):
            var c = [0.0, 0, 0, 0]
            for (k, part) in parts.enumerated() {
                guard case .number(let v) = try part.evaluate(environment, budget: &budget) else { continue }
                guard v >= 0, v <= 1 else {
                    throw ExpressionError(.evaluation, "colour component \(formatNumber(v)) is outside [0, 1]", offset: 0, source: "")
                }
                c[k] = v
            }
            return .color(RGBA(c[0], c[1], c[2], c[3]))
        case .parameterText(let slot):
            switch environment[slot] {
            case .number(let x): return .string(formatNumber(x))
            case .string(let text): return .string(text)
            default: throw ExpressionError(.environment, "the parameter holds no text", offset: 0, source: "")
            }
        case .choice(let slot, let cases):
            guard case .string(let chosen) = environment[slot], let source = cases[chosen] else {
                throw ExpressionError(.environment, "no case for the choice's value", offset: 0, source: "")
            }
            return try source.evaluate(environment, budget: &budget)
        case .track(let uSlot, let track, let values):
            guard case .number(let u) = environment[uSlot] else { return try values[0].evaluate(environment, budget: &budget) }
            let (index, progress) = track.segment(at: u)
            let from = try values[index].evaluate(environment, budget: &budget)
            if progress == 0 || index + 1 >= values.count { return from }
            let to = try values[index + 1].evaluate(environment, budget: &budget)
            switch (from, to) {
            case (.number(let a), .number(let b)):
                return .number(a + (b - a) * progress)
            case (.color(let a), .color(let b)):
                // Straight sRGB, per component (docs/scene-files.md §16.6).
                return .color(RGBA(a.r + (b.r - a.r) * progress, a.g + (b.g - a.g) * progress,
                                   a.b + (b.b - a.b) * progress, a.a + (b.a - a.a) * progress))
            default:
                return from
            }
        }
    }
}

extension SceneSource {
    /// Every slot the source may read: its expressions', a track's clock, a switch's choice.
    public var slotsRead: Set<Int> {
        switch self {
        case .expression(let expression): return expression.slotsRead
        case .components(let parts): return parts.reduce(into: []) { $0.formUnion($1.slotsRead) }
        case .choice(let slot, let cases): return cases.values.reduce(into: [slot]) { $0.formUnion($1.slotsRead) }
        case .parameterText(let slot): return [slot]
        case .track(let uSlot, _, let values): return values.reduce(into: [uSlot]) { $0.formUnion($1.slotsRead) }
        }
    }
}

extension SceneExpression {
    /// The value of a constant, or of an expression that is one name whose slot holds a finite
    /// number, a valid colour, a boolean or a string; nil for anything else (evaluated in full).
    @inline(__always)
    func quickValue(_ environment: ExpressionEnvironment) -> ExpressionValue? {
        switch root.operation {
        case .literal(let value):
            return value
        case .read(let slot, _):
            guard slot < environment.values.count else { return nil }
            let value = environment.values[slot]
            switch value {
            case .number(let x): return x.isFinite && type == .number ? value : nil
            case .color(let c): return c.isValid && type == .color ? value : nil
            case .boolean: return type == .boolean ? value : nil
            case .string: return type == .string ? value : nil
            }
        default:
            return nil
        }
    }
}

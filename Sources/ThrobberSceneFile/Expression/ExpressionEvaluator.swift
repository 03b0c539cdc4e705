import Foundation
import Throbber

/// Evaluates a compiled expression tree against slot values, counting each node it evaluates
/// against a budget (docs/scene-files.md §6).
///
/// Operands are evaluated left to right, each operation once, in IEEE binary64 with Swift's
/// operators and nothing reassociated, so a result is the same on every machine. A non-finite
/// result anywhere, and every function's domain error, throws instead of flowing on as NaN.
/// `&&`, `||` and `?:` evaluate only what they need, so a branch not taken cannot fail.
///
/// The typed entry points (`number`, `boolean`, `color`, `string`) rely on the compiler's type
/// check: a node is only ever asked for the type it has.
struct ExpressionEvaluator {
    /// The slot values.
    let values: [ExpressionValue]
    /// The expression text, for messages.
    let source: String
    /// Node evaluations left.
    var budget: Int

    /// The node's value, whatever its type.
    mutating func value(_ node: ExpressionNode) throws(ExpressionError) -> ExpressionValue {
        switch node.type {
        case .number: .number(try number(node))
        case .boolean: .boolean(try boolean(node))
        case .color: .color(try color(node))
        case .string: .string(try string(node))
        }
    }

    // MARK: Budget, slots and errors

    private mutating func spend(_ node: ExpressionNode) throws(ExpressionError) {
        guard budget > 0 else {
            throw ExpressionError(.budget, "evaluating \(ExpressionError.quoted(source)) ran out of its budget of node evaluations",
                                  offset: node.start, source: source)
        }
        budget -= 1
    }

    private func failure(_ node: ExpressionNode, _ reason: String) -> ExpressionError {
        ExpressionError.about(.evaluation, source, node.start, node.end, reason)
    }

    private func slot(_ slot: Int, _ name: String, _ node: ExpressionNode) throws(ExpressionError) -> ExpressionValue {
        guard slot < values.count else {
            throw ExpressionError(.environment, "\(ExpressionError.quoted(name)) in \(ExpressionError.quoted(source)) reads slot \(slot), "
                + "but the environment has \(values.count) slots", offset: node.start, source: source)
        }
        let value = values[slot]
        guard value.type == node.type else {
            throw ExpressionError(.environment, "\(ExpressionError.quoted(name)) in \(ExpressionError.quoted(source)) is declared "
                + "\(node.type) but slot \(slot) holds \(value.type)", offset: node.start, source: source)
        }
        return value
    }

    private func finite(_ result: Double, _ node: ExpressionNode) throws(ExpressionError) -> Double {
        guard result.isFinite else { throw failure(node, "overflows (its result is not a finite number)") }
        return result
    }

    /// Runs a function's arithmetic, turning its domain failure into an error about `node`.
    private func checked<T>(_ node: ExpressionNode, _ body: () throws(ExpressionFunctions.Failure) -> T) throws(ExpressionError) -> T {
        do {
            return try body()
        } catch {
            throw failure(node, error.reason)
        }
    }

    // MARK: Typed evaluation

    mutating func number(_ node: ExpressionNode) throws(ExpressionError) -> Double {
        try spend(node)
        switch node.operation {
        case .literal(.number(let value)):
            return value
        case .read(let index, let name):
            guard case .number(let value) = try slot(index, name, node) else { break }
            guard value.isFinite else {
                throw ExpressionError(.environment, "\(ExpressionError.quoted(name)) in \(ExpressionError.quoted(source)) holds "
                    + "\(value), not a finite number", offset: node.start, source: source)
            }
            return value
        case .negate(let x):
            return -(try number(x))
        case .numeric(let op, let l, let r):
            let a = try number(l)
            let b = try number(r)
            switch op {
            case .add: return try finite(a + b, node)
            case .subtract: return try finite(a - b, node)
            case .multiply: return try finite(a * b, node)
            case .divide:
                guard b != 0 else { throw failure(node, "divides by zero") }
                return try finite(a / b, node)
            default: break
            }
        case .conditional(let c, let a, let b):
            return try boolean(c) ? number(a) : number(b)
        case .call(let function, let arguments):
            return try finite(call(function, arguments, node), node)
        default: break
        }
        preconditionFailure("a \(node.type) node evaluated as a number")
    }

    mutating func boolean(_ node: ExpressionNode) throws(ExpressionError) -> Bool {
        try spend(node)
        switch node.operation {
        case .literal(.boolean(let value)):
            return value
        case .read(let index, let name):
            guard case .boolean(let value) = try slot(index, name, node) else { break }
            return value
        case .not(let x):
            return !(try boolean(x))
        case .numeric(let op, let l, let r):
            let a = try number(l)
            let b = try number(r)
            switch op {
            case .less: return a < b
            case .lessOrEqual: return a <= b
            case .greater: return a > b
            case .greaterOrEqual: return a >= b
            default: break
            }
        case .equal(let l, let r, let negated):
            let same: Bool
            switch l.type {
            case .number: same = try number(l) == number(r)
            case .boolean: same = try boolean(l) == boolean(r)
            case .string: same = try string(l) == string(r)
            case .color: same = try color(l) == color(r)
            }
            return same != negated
        case .and(let l, let r):
            return try boolean(l) ? boolean(r) : false
        case .or(let l, let r):
            return try boolean(l) ? true : boolean(r)
        case .conditional(let c, let a, let b):
            return try boolean(c) ? boolean(a) : boolean(b)
        default: break
        }
        preconditionFailure("a \(node.type) node evaluated as a boolean")
    }

    mutating func color(_ node: ExpressionNode) throws(ExpressionError) -> RGBA {
        try spend(node)
        switch node.operation {
        case .literal(.color(let value)):
            return value
        case .read(let index, let name):
            guard case .color(let value) = try slot(index, name, node) else { break }
            guard value.isValid else {
                throw ExpressionError(.environment, "\(ExpressionError.quoted(name)) in \(ExpressionError.quoted(source)) holds "
                    + "\(value), a colour with a component outside [0, 1]", offset: node.start, source: source)
            }
            return value
        case .conditional(let c, let a, let b):
            return try boolean(c) ? color(a) : color(b)
        case .call(let function, let arguments):
            switch function {
            case .rgba, .hsb:
                let (p, q, r, s) = (try number(arguments[0]), try number(arguments[1]), try number(arguments[2]), try number(arguments[3]))
                return try checked(node) { () throws(ExpressionFunctions.Failure) in
                    function == .rgba ? try ExpressionFunctions.rgba(p, q, r, s) : try ExpressionFunctions.hsb(p, q, r, s)
                }
            case .withAlpha, .withBrightness:
                let c = try color(arguments[0])
                let x = try number(arguments[1])
                return try checked(node) { () throws(ExpressionFunctions.Failure) in
                    function == .withAlpha ? try ExpressionFunctions.withAlpha(c, x) : try ExpressionFunctions.withBrightness(c, x)
                }
            case .mix:
                let c1 = try color(arguments[0])
                let c2 = try color(arguments[1])
                let u = try number(arguments[2])
                return try checked(node) { () throws(ExpressionFunctions.Failure) in try ExpressionFunctions.mix(c1, c2, u) }
            default: break
            }
        default: break
        }
        preconditionFailure("a \(node.type) node evaluated as a colour")
    }

    mutating func string(_ node: ExpressionNode) throws(ExpressionError) -> String {
        try spend(node)
        switch node.operation {
        case .literal(.string(let value)):
            return value
        case .read(let index, let name):
            guard case .string(let value) = try slot(index, name, node) else { break }
            return value
        case .conditional(let c, let a, let b):
            return try boolean(c) ? string(a) : string(b)
        default: break
        }
        preconditionFailure("a \(node.type) node evaluated as a string")
    }

    /// A number-valued function call; the caller checks that the result is finite.
    private mutating func call(_ function: ExpressionFunctions.Function, _ arguments: [ExpressionNode],
                               _ node: ExpressionNode) throws(ExpressionError) -> Double {
        typealias F = ExpressionFunctions
        if function == .utf16Length { return Double(try string(arguments[0]).utf16.count) }
        if function == .min || function == .max {
            var result = try number(arguments[0])
            for argument in arguments.dropFirst() {
                let x = try number(argument)
                result = function == .min ? Swift.min(result, x) : Swift.max(result, x)
            }
            return result
        }
        // Every other number function takes one to five numbers: evaluate them in order into
        // fixed locals (no array per call), then apply.
        var x: (Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0)
        x.0 = try number(arguments[0])
        if arguments.count > 1 { x.1 = try number(arguments[1]) }
        if arguments.count > 2 { x.2 = try number(arguments[2]) }
        if arguments.count > 3 { x.3 = try number(arguments[3]) }
        if arguments.count > 4 { x.4 = try number(arguments[4]) }
        return try checked(node) { () throws(ExpressionFunctions.Failure) -> Double in
            switch function {
            case .floor: F.floor(x.0)
            case .ceil: F.ceil(x.0)
            case .mod: try F.mod(x.0, x.1)
            case .frac: try F.frac(x.0)
            case .abs: Swift.abs(x.0)
            case .clamp: try F.clamp(x.0, x.1, x.2)
            case .lerp: F.lerp(x.0, x.1, x.2)
            case .tri: try F.tri(x.0)
            case .sin: Foundation.sin(x.0)
            case .cos: Foundation.cos(x.0)
            case .rad: F.rad(x.0)
            case .deg: F.deg(x.0)
            case .sqrt: try F.sqrt(x.0)
            case .pow: try F.pow(x.0, x.1)
            case .bezier: try F.bezier(x.0, x.1, x.2, x.3, x.4)
            case .min, .max, .utf16Length, .rgba, .hsb, .withAlpha, .withBrightness, .mix:
                preconditionFailure("\(function.rawValue) is not a number function of numbers")
            }
        }
    }
}

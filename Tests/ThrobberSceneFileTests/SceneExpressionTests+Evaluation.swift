import Foundation
import Testing
@testable import Throbber
@testable import ThrobberSceneFile

/// Folding, the read set, scopes, environments and the randomized comparison with a direct
/// Swift evaluation (docs/scene-files.md §6).
extension SceneExpressionTests {
    // MARK: Folding and the read set

    @Test func constantExpressionsAreFolded() throws {
        let expression = try compile("2 * pi + rad(180) - floor(0.5)")
        #expect(expression.isConstant && expression.slotsRead.isEmpty && expression.namesRead.isEmpty)
        #expect(expression.constantValue == .number(2 * Double.pi + Double.pi * 180 / 180 - 0))
        #expect(expression.nodeCount == 1)
        let colour = try compile("withAlpha(hsb(0, 1, 1, 1), 0.5)")
        #expect(colour.isConstant && colour.constantValue == .color(RGBA(1, 0, 0, 0.5)))
        // Only the parts that read no names fold.
        let partly = try compile("a * (2 + 3) - -1")
        #expect(!partly.isConstant && partly.constantValue == nil && partly.nodeCount == 5)
        #expect(try number("a * (2 + 3) - -1") == 16)
        #expect(SceneExpression(constant: .number(2.5)).isConstant)
        var budget = 1
        #expect(try SceneExpression(constant: .number(2.5)).number(in: ExpressionEnvironment(), budget: &budget) == 2.5)
    }

    @Test func theReadSetTellsStaticFromPerFrame() throws {
        let parameters: Set<Int> = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        let tSlot = 10
        let perFrame: Set<Int> = [10, 11, 12, 13, 14]
        let cases: [(String, isStatic: Bool, readsT: Bool, names: [String])] = [
            ("size / 2 + gap", true, false, ["size", "gap"]),
            ("size * spin.u", false, false, ["size", "spin.u"]),
            ("sin(t * 2) * size", false, true, ["t", "size"]),
            ("spin.period + spin.period", false, false, ["spin.period"]),
            ("flag ? dotSize : size", true, false, ["flag", "dotSize", "size"]),
            ("3 * 4", true, false, []),
        ]
        for (text, isStatic, readsT, names) in cases {
            let expression = try compile(text)
            #expect(expression.slotsRead.isSubset(of: parameters) == isStatic, "\(text)")
            #expect(expression.reads(anyOf: perFrame) == !isStatic, "\(text)")
            #expect(expression.slotsRead.contains(tSlot) == readsT, "\(text)")
            #expect(expression.namesRead == names, "\(text)")
        }
    }

    // MARK: Scopes and environments

    @Test func scopesNestAndRefuseReservedNames() throws {
        var statics = ExpressionScope()
        try statics.declare("count", .number, slot: 0)
        try statics.declare("i", .number, slot: 1)
        let inner = try statics.declaring("i", .number, slot: 2).declaring("leaf", .number, slot: 1)
        #expect(inner.names == ["count", "i", "leaf"])
        #expect(try SceneExpression("i + leaf", in: inner).slotsRead == [1, 2])
        #expect(try SceneExpression("i", in: statics).slotsRead == [1])
        for name in ["sin", "pi", "true", "2x", "a-b", ""] {
            #expect(throws: ExpressionError.self) { try statics.declare(name, .number, slot: 3) }
            #expect(!ExpressionScope.isDeclarable(name))
        }
        #expect(ExpressionScope.isDeclarable("_x2"))
        let error = compileError("unknownThing")
        #expect(error?.message.hasPrefix("unknown name 'unknownThing'") == true)
        let empty = try? SceneExpression("x", in: ExpressionScope())
        #expect(empty == nil)
    }

    @Test func theEnvironmentMustMatchTheScope() throws {
        let expression = try compile("a + 1")
        var budget = 100
        for environment in [ExpressionEnvironment([.number(0)]), ExpressionEnvironment([.number(0), .number(0), .number(0), .boolean(true)]),
                            ExpressionEnvironment([.number(0), .number(0), .number(0), .number(.nan)])] {
            do {
                _ = try expression.number(in: environment, budget: &budget)
                Issue.record("evaluated with \(environment.values)")
            } catch {
                #expect(error.kind == .environment, "\(error.message)")
            }
        }
    }

    @Test func evaluationIsSafeFromManyThreads() async throws {
        let expression = try compile("withBrightness(leafColor, clamp(1 - 0.1 * mod(i + tick, 12), 0, 1))")
        let expected = try color("withBrightness(leafColor, clamp(1 - 0.1 * mod(i + tick, 12), 0, 1))")
        let results = await withTaskGroup(of: RGBA?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var budget = 1_000_000
                    var last: RGBA?
                    for _ in 0..<500 { last = try? expression.color(in: Self.environment, budget: &budget) }
                    return last
                }
            }
            var all: [RGBA?] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 8 && results.allSatisfy { $0 == expected })
    }

    // MARK: Randomized comparison with a direct evaluation

    /// A random well-typed number expression over `a`, `b` and `c`.
    indirect enum Tree {
        case literal(Double, String)
        case name(Int)
        case negate(Tree)
        case binary(Character, Tree, Tree)
        case call(String, [Tree])
        case conditional(String, Tree, Tree, Tree, Tree)

        static let names = ["a", "b", "c"]

        static func random(_ rng: inout SplitMix64, depth: Int) -> Tree {
            if depth == 0 || rng.chance(0.25) {
                if rng.chance(0.5) { return .name(rng.next(below: 3)) }
                let fixed = ["0", "1", "2", "0.5", "3.25", "10", "1e-3", ".75", "7e2", "1e300"]
                if rng.chance(0.6) {
                    let text = fixed[rng.next(below: fixed.count)]
                    return .literal(Double(text)!, text)
                }
                let value = rng.nextUnit() * 100
                return .literal(value, "\(value)")
            }
            switch rng.next(below: 10) {
            case 0: return .negate(random(&rng, depth: depth - 1))
            case 1...4:
                let op = Array("+-*/")[rng.next(below: 4)]
                return .binary(op, random(&rng, depth: depth - 1), random(&rng, depth: depth - 1))
            case 5...8:
                let functions = [("floor", 1), ("ceil", 1), ("abs", 1), ("frac", 1), ("tri", 1), ("sqrt", 1), ("sin", 1),
                                 ("mod", 2), ("min", 2), ("max", 3), ("clamp", 3), ("lerp", 3), ("pow", 2)]
                let (name, arity) = functions[rng.next(below: functions.count)]
                return .call(name, (0..<arity).map { _ in random(&rng, depth: depth - 1) })
            default:
                let comparisons = ["<", "<=", ">", ">=", "==", "!="]
                return .conditional(comparisons[rng.next(below: comparisons.count)], random(&rng, depth: depth - 1),
                                    random(&rng, depth: depth - 1), random(&rng, depth: depth - 1), random(&rng, depth: depth - 1))
            }
        }

        /// How tightly the rendered text binds: conditional 0, sum 4, product 5, unary 6, primary 7.
        var precedence: Int {
            switch self {
            case .literal, .name, .call: 7
            case .negate: 6
            case .binary(let op, _, _): op == "+" || op == "-" ? 4 : 5
            case .conditional: 0
            }
        }

        /// The text with as few parentheses as the grammar allows, or with every operation in
        /// parentheses.
        func text(minimal: Bool) -> String {
            func operand(_ tree: Tree, _ needs: Bool) -> String {
                let inner = tree.text(minimal: minimal)
                return needs || (!minimal && tree.precedence < 7) ? "(\(inner))" : inner
            }
            switch self {
            case .literal(_, let text): return text
            case .name(let index): return Self.names[index]
            case .negate(let x): return "-" + operand(x, x.precedence < 6)
            case .binary(let op, let l, let r):
                // Left-associative: the right operand of equal precedence needs parentheses.
                return "\(operand(l, l.precedence < precedence)) \(op) \(operand(r, r.precedence <= precedence))"
            case .call(let name, let arguments):
                return "\(name)(\(arguments.map { $0.text(minimal: minimal) }.joined(separator: ", ")))"
            case .conditional(let op, let l, let r, let a, let b):
                return "\(operand(l, l.precedence < 4)) \(op) \(operand(r, r.precedence < 4)) ? \(a.text(minimal: minimal)) : "
                    + b.text(minimal: minimal)
            }
        }

        var readsNames: Bool {
            switch self {
            case .literal: false
            case .name: true
            case .negate(let x): x.readsNames
            case .binary(_, let l, let r): l.readsNames || r.readsNames
            case .call(_, let arguments): arguments.contains { $0.readsNames }
            case .conditional(_, let l, let r, let a, let b): [l, r, a, b].contains { $0.readsNames }
            }
        }

        /// The nodes the parser counts: one per literal, name, operator and call; two for a
        /// conditional (its comparison and its `?`).
        var nodes: Int {
            let own = if case .conditional = self { 2 } else { 1 }
            return children.reduce(own) { $0 + $1.nodes }
        }

        var children: [Tree] {
            switch self {
            case .literal, .name: []
            case .negate(let x): [x]
            case .binary(_, let l, let r): [l, r]
            case .call(_, let arguments): arguments
            case .conditional(_, let l, let r, let a, let b): [l, r, a, b]
            }
        }

        /// Whether compiling fails: some part that reads no names fails (folding evaluates each
        /// such part, whether or not a condition would take it).
        func constantPartFails() -> Bool {
            if !readsNames, evaluate([]) == nil { return true }
            return children.contains { $0.constantPartFails() }
        }

        /// The design's semantics written directly (docs/scene-files.md §6); nil for an error.
        func evaluate(_ values: [Double]) -> Double? {
            func finite(_ x: Double) -> Double? { x.isFinite ? x : nil }
            func mod(_ x: Double, _ y: Double) -> Double? {
                // The exact remainder, moved into the divisor's sign.
                guard y != 0 else { return nil }
                var r = fmod(x, y)
                if r != 0 && (r < 0) != (y < 0) { r += y }
                if y > 0 ? r >= y : r <= y { r = 0 }
                return r == 0 ? 0 : r
            }
            switch self {
            case .literal(let value, _): return value
            case .name(let index): return values[index]
            case .negate(let x): return x.evaluate(values).map { -$0 }
            case .binary(let op, let l, let r):
                guard let x = l.evaluate(values), let y = r.evaluate(values) else { return nil }
                switch op {
                case "+": return finite(x + y)
                case "-": return finite(x - y)
                case "*": return finite(x * y)
                default: return y == 0 ? nil : finite(x / y)
                }
            case .call(let name, let arguments):
                var x: [Double] = []
                for argument in arguments {
                    guard let value = argument.evaluate(values) else { return nil }
                    x.append(value)
                }
                switch name {
                case "floor": return finite(Foundation.floor(x[0] + 1e-9))
                case "ceil": return finite(Foundation.ceil(x[0] - 1e-9))
                case "abs": return Swift.abs(x[0])
                case "frac": return mod(x[0], 1)
                case "tri": return mod(x[0], 1).map { 1 - Swift.abs(2 * $0 - 1) }
                case "sqrt": return x[0] < 0 ? nil : Foundation.sqrt(x[0])
                case "sin": return finite(Foundation.sin(x[0]))
                case "mod": return mod(x[0], x[1])
                case "min": return Swift.min(x[0], x[1])
                case "max": return Swift.max(Swift.max(x[0], x[1]), x[2])
                case "clamp": return x[1] > x[2] ? nil : Swift.min(Swift.max(x[0], x[1]), x[2])
                case "lerp": return finite(x[0] + (x[1] - x[0]) * x[2])
                case "pow": return x[0] < 0 && x[1] != x[1].rounded(.towardZero) ? nil : finite(Foundation.pow(x[0], x[1]))
                default: return nil
                }
            case .conditional(let op, let l, let r, let a, let b):
                guard let x = l.evaluate(values), let y = r.evaluate(values) else { return nil }
                let taken = switch op {
                case "<": x < y
                case "<=": x <= y
                case ">": x > y
                case ">=": x >= y
                case "==": x == y
                default: x != y
                }
                return (taken ? a : b).evaluate(values)
            }
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func randomExpressionsMatchADirectEvaluation(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var scope = ExpressionScope()
        for (slot, name) in Tree.names.enumerated() { try scope.declare(name, .number, slot: slot) }
        let pool = [0.0, 1, -1, 2, 0.5, -0.25, 3, 1e-9, 12, -7.5]
        var compared = 0, failed = 0
        for _ in 0..<1500 {
            var tree = Tree.random(&rng, depth: 1 + rng.next(below: 5))
            while tree.nodes > SceneExpression.maximumNodes { tree = Tree.random(&rng, depth: 1 + rng.next(below: 5)) }
            let values = (0..<3).map { _ in rng.chance(0.5) ? pool[rng.next(below: pool.count)] : (rng.nextUnit() - 0.5) * 40 }
            let expected: Double? = tree.constantPartFails() ? nil : tree.evaluate(values)
            for minimal in [true, false] {
                let text = tree.text(minimal: minimal)
                var budget = 10_000
                let environment = ExpressionEnvironment(values.map { .number($0) })
                let actual: Double?
                do {
                    actual = try SceneExpression(text, in: scope, expecting: .number).number(in: environment, budget: &budget)
                } catch {
                    #expect(error.kind == .evaluation, "\(text): \(error.message)")
                    actual = nil
                }
                #expect(actual?.bitPattern == expected?.bitPattern, "\(text) with a, b, c = \(values): \(String(describing: actual)) ≠ \(String(describing: expected))")
                compared += 1
                if expected == nil { failed += 1 }
            }
        }
        // Both outcomes are exercised.
        #expect(compared == 3000 && failed > 30 && failed < 2000, "\(failed) of \(compared) failed")
    }
}

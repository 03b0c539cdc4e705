import Foundation
import Testing
@testable import Throbber
@testable import ThrobberSceneFile

/// The scene-file expression language (docs/scene-files.md §6): grammar, precedence, the
/// function list's check values, types, errors with their offsets, limits, budgets, folding,
/// the read set, and a randomized comparison with a direct Swift evaluation.
struct SceneExpressionTests {
    // MARK: Fixtures

    /// A scope with every kind of name: numbers, a boolean, a colour, a choice, a text, `t`, a
    /// clock and a replicator's `i`.
    static let scope: ExpressionScope = {
        var scope = ExpressionScope()
        do {
            try scope.declare("dotSize", .number, slot: 0)
            try scope.declare("gap", .number, slot: 1)
            try scope.declare("size", .number, slot: 2)
            try scope.declare("a", .number, slot: 3)
            try scope.declare("b", .number, slot: 4)
            try scope.declare("p", .number, slot: 5)
            try scope.declare("flag", .boolean, slot: 6)
            try scope.declare("leafColor", .color, slot: 7)
            try scope.declare("mode", .string, slot: 8, choices: ["spiral", "dots"])
            try scope.declare("caption", .string, slot: 9)
            try scope.declare("t", .number, slot: 10)
            try scope.declareClock("spin", slots: ExpressionClockSlots(first: 11))
            try scope.declare("i", .number, slot: 15)
            try scope.declare("tick", .number, slot: 16)
        } catch {
            Issue.record("the fixture scope: \(error)")
        }
        return scope
    }()

    static let leafColor = RGBA(1, 0.5, 0.25, 0.8)
    static let caption = "héllo 👋"

    static let environment: ExpressionEnvironment = {
        var environment = ExpressionEnvironment([
            .number(6), .number(2), .number(36), .number(3), .number(4), .number(0.5), .boolean(true),
            .color(leafColor), .string("spiral"), .string(caption), .number(0.25),
        ])
        environment.setClock(ExpressionClockSlots(first: 11), t: 0.25, u: 0.25, n: 0, period: 1)
        environment[15] = .number(2)
        environment[16] = .number(5)
        return environment
    }()

    func compile(_ text: String, expecting type: ExpressionType? = nil) throws -> SceneExpression {
        try SceneExpression(text, in: Self.scope, expecting: type)
    }

    func value(_ text: String, in environment: ExpressionEnvironment = environment) throws -> ExpressionValue {
        var budget = 10_000_000
        return try compile(text).evaluate(in: environment, budget: &budget)
    }

    func number(_ text: String) throws -> Double {
        var budget = 10_000_000
        return try compile(text).number(in: Self.environment, budget: &budget)
    }

    func color(_ text: String) throws -> RGBA {
        var budget = 10_000_000
        return try compile(text).color(in: Self.environment, budget: &budget)
    }

    /// The error compiling `text` throws, or nil when it compiles.
    func compileError(_ text: String, expecting type: ExpressionType? = nil) -> ExpressionError? {
        do {
            _ = try compile(text, expecting: type)
            return nil
        } catch {
            return error as? ExpressionError
        }
    }

    /// The error evaluating `text` throws (after it compiles), or nil when it evaluates.
    func evaluationError(_ text: String) throws -> ExpressionError? {
        let expression = try compile(text)
        var budget = 10_000_000
        do {
            _ = try expression.evaluate(in: Self.environment, budget: &budget)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Precedence and associativity

    @Test(arguments: [
        ("1 - 2 - 3", -4.0),
        ("2 * 3 + 4", 10),
        ("2 + 3 * 4", 14),
        ("-2 * 3", -6),
        ("8 / 4 / 2", 1),
        ("2 - -3", 5),
        ("-(2 - 5)", 3),
        ("(1 + 2) * 3", 9),
        ("12 / 2 * 3", 18),
        ("1 + 2 < 4 ? 10 : 20", 10),
        ("false ? 1 : true ? 2 : 3", 2),
        ("false ? 1 : false ? 2 : 3", 3),
        (".5 + 2.5e-1 + 1E1", 10.75),
        ("  a\t*\nb ", 12),
        ("size / 6 + gap", 8),
        ("spin.u * 4 + spin.period", 2),
    ])
    func numbersFollowPrecedenceAndAssociativity(text: String, expected: Double) throws {
        #expect(try number(text) == expected, "\(text)")
    }

    @Test(arguments: [
        // Right-associative `?:`: read left-associatively it would be true.
        ("true ? false : true ? true : true", false),
        // `&&` binds tighter than `||`: read left to right it would be false.
        ("true || false && false", true),
        ("!true || true", true),
        ("!(true || true)", false),
        ("1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 4", false),
        ("a == 3 && b != 3", true),
        ("flag == true", true),
        ("mode == 'spiral'", true),
        ("'dots' != mode", true),
        ("caption == 'x'", false),
    ])
    func booleansFollowPrecedenceAndAssociativity(text: String, expected: Bool) throws {
        #expect(try value(text) == .boolean(expected), "\(text)")
    }

    // MARK: Functions

    @Test(arguments: [
        // 2.9999999999 is within 1e-9 of 3: floor counts it as 3.
        ("floor(2.9999999999)", 3.0),
        ("floor(2.5)", 2),
        ("floor(-0.5)", -1),
        ("ceil(3.0000000001)", 3),
        ("ceil(2.1)", 3),
        ("mod(-1, 12)", 11),
        ("mod(13, 12)", 1),
        ("mod(5, -3)", -1),
        // -1e-20 - 12·⌊-1e-20 / 12⌋ rounds to 12, which is y: 0.
        ("mod(-1e-20, 12)", 0),
        ("mod(1000000000000003, 4)", 3),
        ("mod(-4, 4)", 0),
        ("frac(2.75)", 0.75),
        ("frac(-0.25)", 0.75),
        ("abs(-3)", 3),
        ("min(3, 1, 2)", 1),
        ("max(3, 1, 2)", 3),
        ("min(a, b)", 3),
        ("clamp(5, 0, 1)", 1),
        ("clamp(-1, 0, 1)", 0),
        ("clamp(0.25, 0, 1)", 0.25),
        ("lerp(2, 4, 0.25)", 2.5),
        ("tri(0.25)", 0.5),
        ("tri(0.5)", 1),
        ("tri(3)", 0),
        ("sin(pi / 2)", 1),
        ("cos(0)", 1),
        ("rad(180)", Double.pi),
        ("deg(pi)", 180),
        ("sqrt(16)", 4),
        ("pow(2, 10)", 1024),
        ("pow(-2, 3)", -8),
        ("bezier(0.42, 0, 0.58, 1, 0)", 0),
        ("bezier(0.42, 0, 0.58, 1, -3)", 0),
        ("bezier(0.42, 0, 0.58, 1, 1.5)", 1),
    ])
    func functionsGiveTheirCheckValues(text: String, expected: Double) throws {
        #expect(try number(text) == expected, "\(text)")
    }

    @Test func utf16LengthCountsUTF16CodeUnits() throws {
        #expect(try number("utf16Length(caption)") == Double(Self.caption.utf16.count))
        #expect(try number("utf16Length(flag ? caption : mode)") == Double(Self.caption.utf16.count))
    }

    @Test func bezierIsTheSceneFilesTimingCurve() throws {
        #expect(abs(try number("bezier(0.42, 0, 0.58, 1, 0.25)") - 0.129162) < 1e-6)
        #expect(abs(try number("bezier(0.42, 0, 0.58, 1, 0.5)") - 0.5) < 1e-12)
        #expect(abs(try number("bezier(0.42, 0, 0.58, 1, 0.75)") - 0.870838) < 1e-6)
        var scope = ExpressionScope()
        try scope.declare("u", .number, slot: 0)
        let easeInOut = try SceneExpression("bezier(0.42, 0, 0.58, 1, u)", in: scope)
        let overshoot = try SceneExpression("bezier(0.3, -0.5, 0.7, 1.6, u)", in: scope)
        for k in -2...42 {
            let u = Double(k) / 40
            var budget = 100
            let environment = ExpressionEnvironment([.number(u)])
            // UIKit's ease-in-out, to within the last bits (its x weights are the literals 1.26 and 1.74).
            #expect(abs(try easeInOut.number(in: environment, budget: &budget) - UIKitTiming.easeInOut(u)) < 1e-12, "u = \(u)")
            // The same solver as a timing function's, bit for bit.
            let curve = CubicBezierTiming(x1: 0.3, y1: -0.5, x2: 0.7, y2: 1.6)
            #expect(try overshoot.number(in: environment, budget: &budget) == curve.progress(at: u), "u = \(u)")
        }
    }

    @Test func colourFunctions() throws {
        #expect(try color("rgba(1, 0.5, 0, 1)") == RGBA(1, 0.5, 0, 1))
        #expect(try color("hsb(0, 1, 1, 1)") == RGBA(1, 0, 0, 1))
        #expect(try color("hsb(0.5, 0.5, 0.5, 0.25)") == RGBA.hsb(0.5, 0.5, 0.5, 0.25))
        #expect(try color("withAlpha(leafColor, 0.5)") == Self.leafColor.withAlpha(0.5))
        #expect(try color("mix(rgba(0, 0, 0, 0), rgba(1, 1, 1, 1), 0.25)") == RGBA(0.25, 0.25, 0.25, 0.25))
        #expect(try color("flag ? leafColor : rgba(0, 0, 0, 1)") == Self.leafColor)
        // withBrightness keeps hue, saturation and alpha and sets brightness.
        let (hue, saturation, brightness) = Self.leafColor.hsb
        let darker = try color("withBrightness(leafColor, 0.4)")
        #expect(darker == RGBA.hsb(hue, saturation, 0.4, Self.leafColor.a))
        #expect(abs(darker.hsb.hue - hue) < 1e-12 && abs(darker.hsb.saturation - saturation) < 1e-12)
        #expect(abs(darker.hsb.brightness - 0.4) < 1e-12 && darker.a == Self.leafColor.a)
        // The round trip with the colour's own brightness gives the colour back.
        let same = try color("withBrightness(leafColor, \(brightness))")
        for (x, y) in [(same.r, Self.leafColor.r), (same.g, Self.leafColor.g), (same.b, Self.leafColor.b), (same.a, Self.leafColor.a)] {
            #expect(abs(x - y) < 1e-12)
        }
    }

    /// The activity indicator's leaf colours, written as an expression, match the built-in
    /// scene's code bit for bit.
    @Test func activityLeafColoursMatchTheBuiltInScene() throws {
        var scope = ExpressionScope()
        try scope.declare("leafColor", .color, slot: 0)
        try scope.declare("i", .number, slot: 1)
        try scope.declare("tick", .number, slot: 2)
        let expression = try SceneExpression("withBrightness(leafColor, clamp(1 - 0.1 * mod(i + tick, 12), 0, 1))",
                                             in: scope, expecting: .color)
        #expect(expression.slotsRead == [0, 1, 2] && expression.namesRead == ["leafColor", "i", "tick"])
        var activity = Activity()
        activity.leafColor = RGBA(0.2, 0.6, 0.9, 0.75)
        var environment = ExpressionEnvironment([.color(activity.leafColor), .number(0), .number(0)])
        var budget = 10_000_000
        for tick in 0..<12 {
            for i in 0..<12 {
                environment[1] = .number(Double(i))
                environment[2] = .number(Double(tick))
                #expect(try expression.color(in: environment, budget: &budget) == activity.colorOfLeaf(i, tick: tick))
            }
        }
    }

    // MARK: Evaluation errors

    @Test(arguments: [
        ("a / (p - 0.5)", "'a / (p - 0.5)' divides by zero", 0),
        ("1 + a / (p - p)", "'a / (p - p)' divides by zero in '1 + a / (p - p)'", 4),
        ("sqrt(p - 1)", "square root of -0.5", 0),
        ("frac(a) + clamp(a, b, 1)", "has lo = 4 greater than hi = 1", 10),
        ("rgba(a, 0, 0, 1)", "has r = 3 outside [0, 1]", 0),
        ("hsb(0, 0, 0, b)", "has a = 4 outside [0, 1]", 0),
        ("withAlpha(leafColor, a)", "has a = 3 outside [0, 1]", 0),
        ("withBrightness(leafColor, -p)", "has b = -0.5 outside [0, 1]", 0),
        ("mix(leafColor, leafColor, a)", "has u = 3 outside [0, 1]", 0),
        ("bezier(a, 0, 0.5, 1, 0.5)", "has x1 = 3 outside [0, 1]", 0),
        ("bezier(0, 0, a, 1, 0.5)", "has x2 = 3 outside [0, 1]", 0),
        ("pow(10, 200 * a)", "overflows", 0),
        ("pow(-a, 0.5)", "not a whole number", 0),
        ("a * 1e308", "overflows", 0),
        ("2 * (size * 1e307) - 1", "overflows", 4),
        ("mod(a, p - p)", "mod 0", 0),
        ("clamp(a, 1, 0)", "has lo = 1 greater than hi = 0", 0),
    ])
    func evaluationErrorsNameThePartThatFailed(text: String, fragment: String, offset: Int) throws {
        let error = try #require(try evaluationError(text), "\(text) evaluated")
        #expect(error.kind == .evaluation)
        #expect(error.message.contains(fragment), "\(error.message)")
        #expect(error.offset == offset, "\(error.message)")
        #expect(error.source == text)
    }

    /// A constant part that fails is a compile error, even in a branch that might not be taken.
    @Test(arguments: [
        ("1/0", 0, "'1/0' divides by zero"),
        ("a + sqrt(-1)", 4, "'sqrt(-1)' takes the square root of -1, a negative number in 'a + sqrt(-1)'"),
        ("pow(10, 400)", 0, "overflows"),
        ("mod(5, 0)", 0, "mod 0"),
        ("clamp(0.5, 1, 0)", 0, "has lo = 1 greater than hi = 0"),
        ("rgba(2, 0, 0, 1)", 0, "has r = 2 outside [0, 1]"),
        ("flag ? 1 : 1 / (2 - 2)", 11, "divides by zero"),
        ("1e308 * 10", 0, "overflows"),
    ])
    func failingConstantPartsAreCompileErrors(text: String, offset: Int, fragment: String) {
        let error = compileError(text)
        #expect(error?.kind == .evaluation, "\(text)")
        #expect(error?.offset == offset, "\(error?.message ?? "compiled")")
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "compiled")")
    }

    @Test func shortCircuitsSkipWhatIsNotNeeded() throws {
        #expect(try value("p == 0.5 || a / (p - 0.5) > 1") == .boolean(true))
        #expect(try value("p != 0.5 && a / (p - 0.5) > 1") == .boolean(false))
        #expect(try number("p == 0.5 ? 0 : a / (p - 0.5)") == 0)
        #expect(try number("p != 0.5 ? a / (p - 0.5) : 7") == 7)
        // Nothing of the skipped side is evaluated, so none of the budget is spent on it.
        let expression = try compile("p == 0.5 || a / (p - 0.5) > 1")
        var budget = 4
        #expect(try expression.evaluate(in: Self.environment, budget: &budget) == .boolean(true))
        #expect(budget == 0)
    }

    // MARK: Compile errors

    @Test(arguments: [
        ("dotsize + 1", ExpressionError.Kind.unknownName, 0,
         "unknown name 'dotsize'; did you mean 'dotSize'? (known here: dotSize, gap, size, a, b, p, flag, leafColor, mode, caption, t, spin, i, tick)"),
        ("dotSize / ", .syntax, 10, "expression 'dotSize / ' ends where a number, a name or '(' was expected"),
        ("", .syntax, 0, "expression '' ends where a number, a name or '(' was expected"),
        ("(1 + 2", .syntax, 6, "ends where an operator or ')' was expected"),
        ("2 3", .syntax, 2, "expression '2 3' has '3' at offset 2 where an operator or the end was expected"),
        ("min(1 2)", .syntax, 6, "where an operator, ',' or ')' was expected"),
        ("flag ? 1 2", .syntax, 9, "where an operator or ':' was expected"),
        ("spin.", .syntax, 5, "ends where a field name was expected"),
        ("1 < 2 < 3", .syntax, 6, "chains comparisons with '<' at offset 6"),
        ("a # b", .syntax, 2, "'#' at offset 2, which is not part of the language"),
        ("a = b", .syntax, 2, "compare with '=='"),
        ("a & b", .syntax, 2, "'and' is '&&'"),
        ("1. + 2", .syntax, 0, "digits must follow '.'"),
        ("2 * 1e+", .syntax, 4, "digits must follow the exponent"),
        ("1e999", .syntax, 0, "too large for a number"),
        ("mode == 'abc", .syntax, 8, "has a string at offset 8 with no closing"),
        ("sinn(1)", .unknownFunction, 0, "unknown function 'sinn'; did you mean 'sin'? (functions: floor, ceil,"),
        ("clamp(1, 2)", .arity, 0, "'clamp' takes 3 arguments (x, lo, hi), not 2"),
        ("1 + floor()", .arity, 4, "'floor' takes 1 argument (x), not 0"),
        ("max(a)", .arity, 0, "'max' takes 2 or more arguments, not 1"),
        ("spin.tt", .unknownField, 5, "clock 'spin' has no field 'tt'; did you mean 't'? (fields: t, u, n, period)"),
        ("size.t", .unknownField, 5, "'size' is a number, not a clock, and has no fields"),
        ("spin + 1", .unknownField, 0, "'spin' is a clock: read one of its fields, 'spin.t', 'spin.u', 'spin.n' or 'spin.period'"),
        ("nope.t", .unknownName, 0, "unknown name 'nope'"),
        ("(1 < 2) + 1", .type, 0, "'(1 < 2)' is a boolean where a number is expected"),
        ("leafColor * 2", .type, 0, "'leafColor' is a colour where a number is expected"),
        ("flag ? 1 : leafColor", .type, 11, "'leafColor' is a colour where a number is expected (both branches of '?:' have one type)"),
        ("a ? 1 : 2", .type, 0, "'a' is a number where a boolean is expected (the condition of '?:')"),
        ("!a", .type, 1, "'a' is a number where a boolean is expected"),
        ("true && 1", .type, 8, "'1' is a number where a boolean is expected"),
        ("a == true", .type, 5, "'true' is a boolean where a number is expected"),
        ("a == 'x'", .type, 0, "'a' is a number where a string name is expected"),
        ("'x' == 'y'", .type, 0, "both string literals"),
        ("caption == caption", .type, 0, "'caption' is a string that is not compared with a string literal"),
        ("leafColor != leafColor", .type, 0, "'leafColor' is a colour"),
        ("'x'", .type, 0, "is a string literal, which can only be compared"),
        ("utf16Length('abc')", .type, 12, "is a string literal"),
        ("withAlpha(a, 1)", .type, 10, "'a' is a number where a colour is expected (argument c of 'withAlpha')"),
        ("sin + 1", .type, 0, "'sin' is a function: call it as 'sin(…)'"),
        ("a(1)", .type, 0, "'a' is a number, not a function"),
        ("mode == 'sprial'", .unknownChoice, 8, "'mode' is never 'sprial'; did you mean 'spiral'? (choices: spiral, dots)"),
    ])
    func compileErrorsSayWhatAndWhere(text: String, kind: ExpressionError.Kind, offset: Int, fragment: String) {
        let error = compileError(text)
        #expect(error?.kind == kind, "\(text): \(error?.message ?? "compiled")")
        #expect(error?.offset == offset, "\(text): \(error?.message ?? "compiled")")
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "compiled")")
    }

    @Test func theExpectedTypeIsChecked() throws {
        let error = compileError("size / 6", expecting: .color)
        #expect(error?.kind == .type && error?.message == "'size / 6' is a number where a colour is expected")
        #expect(try compile("size / 6", expecting: .number).type == .number)
        #expect(try compile("leafColor", expecting: .color).type == .color)
        // The typed convenience refuses another type.
        var budget = 100
        #expect(throws: ExpressionError.self) { try compile("size").color(in: Self.environment, budget: &budget) }
    }

    @Test func longTextIsEchoedShortened() {
        let text = "unknownName" + String(repeating: " + 1", count: 40)
        let message = compileError(text)?.message ?? ""
        #expect(message.contains("unknown name 'unknownName'"))
        let syntax = compileError(String(repeating: "1 + ", count: 40))?.message ?? ""
        #expect(syntax.contains("… (160 chars)") && syntax.count < 200, "\(syntax)")
    }

    // MARK: Limits

    @Test func lengthLimit() {
        let longest = "1" + String(repeating: " ", count: SceneExpression.maximumLength - 1)
        #expect(compileError(longest) == nil)
        let error = compileError(longest + " ")
        #expect(error?.kind == .limit && error?.offset == 1000, "\(error?.message ?? "compiled")")
        #expect(error?.message.contains("1001 characters long; at most 1000 are allowed") == true)
    }

    @Test func nodeLimit() {
        // a + a + … : one node per name and per operator.
        let allowed = "-a" + String(repeating: "+a", count: 127)
        #expect(compileError(allowed) == nil)
        let tooMany = "a" + String(repeating: "+a", count: 128)
        let error = compileError(tooMany)
        #expect(error?.kind == .limit && error?.offset == 256, "\(error?.message ?? "compiled")")
        #expect(error?.message.contains("more than 256 parts") == true)
    }

    @Test(arguments: [
        ("(", ")"),
        ("abs(", ")"),
        ("-", ""),
        ("flag ? ", " : 0"),
    ])
    func depthLimit(open: String, close: String) {
        func nested(_ levels: Int) -> String {
            String(repeating: open, count: levels) + "1" + String(repeating: close, count: levels)
        }
        #expect(compileError(nested(32)) == nil, "\(compileError(nested(32))?.message ?? "")")
        let error = compileError(nested(33))
        #expect(error?.kind == .limit, "\(error?.message ?? "compiled")")
        #expect(error?.message.contains("nests more than 32 levels") == true)
    }

    @Test func depthLimitPointsAtTheLevelTooMany() {
        let error = compileError(String(repeating: "(", count: 40) + "1" + String(repeating: ")", count: 40))
        #expect(error?.offset == 32)
    }

    // MARK: Budget

    @Test func budgetCountsNodeEvaluations() throws {
        let expression = try compile("a + b * size")
        #expect(expression.nodeCount == 5)
        var budget = 5
        #expect(try expression.number(in: Self.environment, budget: &budget) == 147)
        #expect(budget == 0)
        // Shared over several evaluations: two fit in 12, the third runs out, at the same node each time.
        var offsets: [Int] = []
        for _ in 0..<2 {
            budget = 12
            var evaluations = 0
            do {
                while true {
                    _ = try expression.number(in: Self.environment, budget: &budget)
                    evaluations += 1
                }
            } catch {
                #expect(error.kind == .budget && evaluations == 2 && budget == 0)
                offsets.append(error.offset)
            }
        }
        #expect(offsets == [4, 4])
    }

    @Test func anExhaustedBudgetStopsAtOnce() throws {
        var budget = 0
        #expect(throws: ExpressionError.self) { try compile("1").number(in: Self.environment, budget: &budget) }
    }

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

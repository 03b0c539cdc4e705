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
}
